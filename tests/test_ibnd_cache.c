/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The ibnetdiscover cache reader (lib/io/ibnd_cache.c) on the cache
 * `ibnetdiscover --cache` wrote of fixtures/ft43-shuf17.net under ibsim:
 * the same fabric as the net file, node for node and cable for cable;
 * every damaged count, field or length refused with file and offset.
 * `make check-valgrind` runs this file, so cache input is covered there.
 */
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "ibnd_cache.h"
#include "netfile.h"

#define CACHE FIXTURES_DIR "/ft43-shuf17.ibnd-cache"

static uint8_t *slurp(size_t *len)
{
	FILE *in = fopen(CACHE, "rb");
	uint8_t *b = malloc(1 << 16);

	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(b);
	*len = fread(b, 1, 1 << 16, in);
	fclose(in);
	ck_assert_uint_gt(*len, 28);
	return b;
}

START_TEST(same_fabric_as_the_net_file)
{
	struct ibu_fabric a, b;
	struct ibu_err e = { 0 };
	int i, p;

	ck_assert_msg(ibu_netfile_read(FIXTURES_DIR "/ft43-shuf17.net", &a, &e) == 0,
		      "%s", e.msg);
	ck_assert_msg(ibu_ibnd_cache_read(CACHE, &b, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(a.num_nodes, b.num_nodes);
	for (i = 0; i < a.num_nodes; i++) {
		const struct ibu_node *x = &a.nodes[i];
		int j = ibu_fabric_find_guid(&b, x->guid);

		ck_assert_int_ge(j, 0);
		ck_assert_int_eq(b.nodes[j].type, x->type);
		ck_assert_int_eq(b.nodes[j].num_ports, x->num_ports);
		for (p = 1; p <= x->num_ports; p++) {
			const struct ibu_port *q = &b.nodes[j].ports[p];

			if (x->ports[p].peer_node < 0) {
				ck_assert_int_lt(q->peer_node, 0);
				continue;
			}
			ck_assert_int_ge(q->peer_node, 0);
			ck_assert_uint_eq(b.nodes[q->peer_node].guid,
					  a.nodes[x->ports[p].peer_node].guid);
			ck_assert_int_eq(q->peer_port, x->ports[p].peer_port);
		}
	}
	/* ibsim gave every switch and CA port a LID: the cache carries them */
	for (i = 0; i < b.num_nodes; i++)
		ck_assert_uint_ne(b.nodes[i].ports[ibu_node_is_switch(&b.nodes[i]) ? 0 : 1].lid, 0);
	ibu_fabric_free(&a);
	ibu_fabric_free(&b);
}
END_TEST

/* parse a copy with byte(s) at off replaced; the message must match */
static void refused(size_t off, const char *bytes, size_t n, size_t cut,
		    const char *want)
{
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	size_t len;
	uint8_t *b = slurp(&len);

	memcpy(b + off, bytes, n);
	ck_assert_int_eq(ibu_ibnd_cache_parse(b, cut ? cut : len, "c", &f, &e),
			 IBU_EPARSE);
	ck_assert_msg(strstr(e.msg, want), "'%s' lacks '%s'", e.msg, want);
	free(b);
}

START_TEST(damaged_fields_named_by_offset)
{
	refused(10721, "\xf7", 1, 0, "c: offset 10721: port 0x0000000000200005/3 has LMC 247");
	refused(8, "\xff\xff\xff\xff", 4, 0, "c: offset 8: header counts 4294967295 nodes");
	refused(12, "\xff\xff\xff\x7f", 4, 0, "ports, which need at least");
	refused(4, "\x02", 1, 0, "c: offset 4: cache version 2");
	refused(0, "\x8f\xe7\x83\x2b", 4, 0, "c: offset 0: not a little-endian");
	refused(104, "\x00", 1, 0, "c: offset 104: node 0 has type 0");
	refused(105, "\xff", 1, 0, "c: offset 105: node 0 has 255 ports");
	refused(96, "\0\0\0\0\0\0\0\0", 8, 0, "c: offset 96: node 0 has GUID 0");
	refused(16, "\x01", 1, 0, "c: offset 16: the discovering node");
	refused(0, "", 0, 27, "c: offset 27: cache header cut short");
	refused(0, "", 0, 19543, "c: offset 8514: node 35 has 1 port keys, more than the file holds");
}
END_TEST

/* the last port record's LID at the top of the unicast space with an LMC
 * that runs past it */
START_TEST(lid_block_past_unicast_refused)
{
	refused(19544 - 95 + 10, "\xff\xbf\x01", 3, 0, "outside the unicast LIDs");
	refused(19544 - 95 + 10, "\x00\xc0\x00", 3, 0, "base LID 0xc000");
}
END_TEST

/* Every length and every single-byte value at a stride: an answer, no
 * crash, no leak (valgrind), and an accepted file stays consistent. */
START_TEST(every_cut_and_many_bytes)
{
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	size_t len, cut, off;
	uint8_t *b = slurp(&len);
	int v;

	for (cut = 0; cut < len; cut += 7) {
		ck_assert_int_ne(ibu_ibnd_cache_parse(b, cut, "c", &f, &e), 0);
		ck_assert_ptr_nonnull(strstr(e.msg, "c: offset "));
	}
	for (off = 0; off < len; off += 37)
		for (v = 0; v < 256; v += 51) {
			uint8_t old = b[off];

			b[off] = (uint8_t)v;
			if (!ibu_ibnd_cache_parse(b, len, "c", &f, &e)) {
				ck_assert_int_eq(f.num_nodes, 36);
				ibu_fabric_free(&f);
			} else {
				ck_assert_ptr_nonnull(strstr(e.msg, "c: "));
			}
			b[off] = old;
		}
	free(b);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("ibnd_cache");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, same_fabric_as_the_net_file);
	tcase_add_test(tc, damaged_fields_named_by_offset);
	tcase_add_test(tc, lid_block_past_unicast_refused);
	tcase_add_test(tc, every_cut_and_many_bytes);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
