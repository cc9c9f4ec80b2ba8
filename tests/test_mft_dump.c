/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The dump_mfts text (lib/io/mft_dump.c): reading both table forms,
 * writing, sniffing, switches from the headers, and bad input named by
 * file and line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "unit.h"
#include "gen.h"
#include "mft_dump.h"
#include "net_util.h"

static int read_text(const char *text, const struct ibu_fabric *f,
		     struct ibu_mft *t, struct ibu_err *e)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	int rc;

	ck_assert_ptr_nonnull(in);
	rc = ibu_mft_read_stream(in, "mem.mfts", f, t, e);
	fclose(in);
	return rc;
}

START_TEST(real_empty_dump)
{
	struct ibu_fabric f;
	struct ibu_mft t;
	struct ibu_err e = { 0 };
	char path[1024];
	int n, sw = 0;

	load_net("ft43.net", &f);
	snprintf(path, sizeof(path), "%s/ft43-empty.mfts", FIXTURES_DIR);
	ck_assert_int_eq(ibu_mft_read(path, &f, &t, &e), 0);
	ck_assert_int_eq(t.num_groups, 0);
	for (n = 0; n < f.num_nodes; n++)
		if (ibu_node_is_switch(&f.nodes[n])) {
			ck_assert_int_eq(t.dumped[n], 1);
			sw++;
		}
	ck_assert_int_eq(sw, 20);
	ibu_mft_free(&t);
	ibu_fabric_free(&f);
}
END_TEST

static const char grid[] =
	"ibwarn: [1] sim_connect: attached as client 1 at node \"Hca1\"\n"
	"Multicast mlids [0xc000-0xc3ff] of switch DR path slid 0; dlid 0; 0,3 guid 0x0000000000200001 (Switch2):\n"
	"     Ports: 0 1 2 3 4 5 6 7 8 \n"
	" MLid\n"
	"0xc001        x x x \n"
	"0xc002      x       x\n"
	"2 valid mlids dumped \n"
	"Multicast mlids [0xc000-0xc3ff] of switch Lid 1 guid 0x0000000000200000 (Switch1):\n"
	" MLid       Port Mask\n"
	"0xc001      000a\n"
	"1 valid mlids dumped \n"
	"\n*** WARNING ***: this command has been replaced by dump_fts -M\n";

START_TEST(grid_and_brief_forms)
{
	struct ibu_fabric f;
	struct ibu_mft t;
	struct ibu_err e = { 0 };
	const struct ibu_portmask *m;
	int s1, s2;

	load_net("2sw2path4hca.net", &f);
	s1 = ibu_fabric_find_guid(&f, 0x200000);
	s2 = ibu_fabric_find_guid(&f, 0x200001);
	ck_assert_int_ge(s1, 0);
	ck_assert_int_ge(s2, 0);
	ck_assert_msg(read_text(grid, &f, &t, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(t.num_groups, 2);
	m = ibu_mft_get(&t, 0xc001, s2);
	ck_assert_int_eq(ibu_pm_count(m), 3);
	ck_assert(ibu_pm_test(m, 1) && ibu_pm_test(m, 2) && ibu_pm_test(m, 3));
	m = ibu_mft_get(&t, 0xc002, s2);
	ck_assert_int_eq(ibu_pm_count(m), 2);
	ck_assert(ibu_pm_test(m, 0) && ibu_pm_test(m, 4));
	m = ibu_mft_get(&t, 0xc001, s1);
	ck_assert_int_eq(ibu_pm_count(m), 2);
	ck_assert(ibu_pm_test(m, 1) && ibu_pm_test(m, 3));
	ck_assert(ibu_pm_empty(ibu_mft_get(&t, 0xc002, s1)));
	ck_assert_ptr_null(ibu_mft_get(&t, 0xc003, s1));
	ibu_mft_clear_mlid(&t, 0xc001);
	ck_assert_int_eq(t.num_groups, 1);
	ck_assert_int_eq(ibu_mft_find(&t, 0xc002), 0);
	ibu_mft_free(&t);
	ibu_fabric_free(&f);
}
END_TEST

/* A second table of one switch would be OR-ed into the first: refused with
 * file:line, as a second LFT table is; the sniffer on text. */
START_TEST(repeated_table)
{
	static const char twice[] =
		"Multicast mlids [0xc000-0xc3ff] of switch Lid 1 guid 0x0000000000200000 (Switch1):\n"
		" MLid       Port Mask\n"
		"0xc001      000a\n"
		"1 valid mlids dumped \n"
		"Multicast mlids [0xc000-0xc3ff] of switch Lid 1 guid 0x200000 (Switch1):\n"
		" MLid       Port Mask\n"
		"0 valid mlids dumped \n";
	struct ibu_fabric f;
	struct ibu_mft t;
	struct ibu_err e = { 0 };

	load_net("2sw2path4hca.net", &f);
	ck_assert_int_eq(read_text(twice, &f, &t, &e), IBU_EPARSE);
	ck_assert_str_eq(e.msg, "mem.mfts:5: second table of switch 0x0000000000200000 (first at line 1)");
	ibu_fabric_free(&f);
	ck_assert_int_eq(ibu_mft_sniff_text(grid, sizeof(grid) - 1), 1);
	ck_assert_int_eq(ibu_mft_sniff_text("\r\n  Unicast lids [0x0-0x8]", 26), 0);
	ck_assert_int_eq(ibu_mft_sniff_text("", 0), 0);
}
END_TEST

START_TEST(bad_dumps)
{
	static const char *const bad[] = {
		/* unknown switch */
		"Multicast mlids [0xc000-0xc3ff] of switch Lid 1 guid 0x00000000002000ff (X):\n",
		/* port 9 on an 8-port switch */
		"Multicast mlids [0xc000-0xc3ff] of switch Lid 1 guid 0x0000000000200000 (S):\n"
		"     Ports: 0 1 2 3 4 5 6 7 8 \n MLid\n"
		"0xc001                        x\n",
		/* misaligned mark */
		"Multicast mlids [0xc000-0xc3ff] of switch Lid 1 guid 0x0000000000200000 (S):\n"
		"     Ports: 0 1 2 3 4 5 6 7 8 \n MLid\n"
		"0xc001         x\n",
		/* unicast MLID */
		"Multicast mlids [0xc000-0xc3ff] of switch Lid 1 guid 0x0000000000200000 (S):\n"
		"     Ports: 0 1 2 3 4 5 6 7 8 \n MLid\n"
		"0xbfff        x\n",
		/* an LFT dump */
		"Unicast lids [0x0-0x6] of switch Lid 1 guid 0x0000000000200000 (S):\n",
		/* a CA in the header */
		"Multicast mlids [0xc000-0xc3ff] of switch Lid 1 guid 0x0000000000100000 (H):\n",
		/* hostile input: empty or garbage input (a failed dump_mfts) */
		"",
		"\n\n",
		"garbage\n",
		"ibwarn: [1] sim_connect: failed\n",
		/* truncated: a table without its trailer */
		"Multicast mlids [0xc000-0xc3ff] of switch Lid 1 guid 0x0000000000200000 (S):\n"
		"     Ports: 0 1 2 3 4 5 6 7 8 \n MLid\n"
		"0xc001        x\n",
		/* trailer count disagrees with the rows */
		"Multicast mlids [0xc000-0xc3ff] of switch Lid 1 guid 0x0000000000200000 (S):\n"
		"     Ports: 0 1 2 3 4 5 6 7 8 \n MLid\n"
		"0xc001        x\n2 valid mlids dumped \n",
		/* garbage inside a table */
		"Multicast mlids [0xc000-0xc3ff] of switch Lid 1 guid 0x0000000000200000 (S):\n"
		"     Ports: 0 1 2 3 4 5 6 7 8 \n MLid\nrandom words\n"
		"0 valid mlids dumped \n",
		/* garbage after the last table (parenthesised: one string) */
		("Multicast mlids [0xc000-0xc3ff] of switch Lid 1 guid 0x0000000000200000 (S):\n"
		 "     Ports: 0 1 2 3 4 5 6 7 8 \n MLid\n0 valid mlids dumped \nrandom words\n"),
	};
	struct ibu_fabric f;
	struct ibu_mft t;
	struct ibu_err e;
	size_t i;

	load_net("2sw2path4hca.net", &f);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&e, 0, sizeof(e));
		ck_assert_msg(read_text(bad[i], &f, &t, &e) < 0, "case %zu", i);
		ck_assert_msg(strstr(e.msg, "mem.mfts:") != NULL, "case %zu: %s",
			      i, e.msg);
	}
	ibu_fabric_free(&f);
}
END_TEST

/* hostile input: an embedded NUL is a parse error naming its line */
START_TEST(nul_byte)
{
	static const char text[] =
		"Multicast mlids [0xc000-0xc3ff] of switch Lid 1 guid 0x0000000000200000 (S):\n"
		"     Ports: 0 1 2 3 4 5 6 7 8 \n MLid\n"
		"0xc001        x\0 x\n1 valid mlids dumped \n";
	FILE *in = fmemopen((void *)text, sizeof(text) - 1, "r");
	struct ibu_fabric f;
	struct ibu_mft t;
	struct ibu_err e = { 0 };

	load_net("2sw2path4hca.net", &f);
	ck_assert_ptr_nonnull(in);
	ck_assert_int_eq(ibu_mft_read_stream(in, "mem.mfts", &f, &t, &e), IBU_EPARSE);
	fclose(in);
	ck_assert_msg(strstr(e.msg, "mem.mfts:4: NUL byte"), "%s", e.msg);
	ibu_fabric_free(&f);
}
END_TEST

/* Writer and reader agree, on switches with more than 9 ports too. */
START_TEST(round_trip)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .extra_ports = 7, .seed = 3 };
	struct ibu_fabric f;
	struct ibu_mft a, b;
	struct ibu_err e = { 0 };
	uint64_t r = 42;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;
	int i, n;

	ck_assert_int_eq(ibu_gen_fattree(&f, 8, 2, &o, &e), 0);
	ck_assert_int_eq(ibu_fabric_index(&f, &e), 0);
	ck_assert_int_eq(ibu_mft_init(&a, f.num_nodes, &e), 0);
	for (i = 0; i < 500; i++) {
		int node = (int)(ibu_gen_rand(&r) % (uint64_t)f.num_nodes);
		uint16_t mlid = (uint16_t)(0xc000 + ibu_gen_rand(&r) % 0x500);

		if (!ibu_node_is_switch(&f.nodes[node]))
			continue;
		ck_assert_int_eq(ibu_mft_set(&a, mlid, node,
				 (int)(ibu_gen_rand(&r) % (uint64_t)(f.nodes[node].num_ports + 1)),
				 &e), 0);
	}
	ck_assert_int_gt(a.num_groups, 10);
	out = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(ibu_mft_write(out, &f, &a, &e), 0);
	fclose(out);
	ck_assert_ptr_nonnull(strstr(buf, "            0                   1"));
	ck_assert_msg(read_text(buf, &f, &b, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(b.num_groups, a.num_groups);
	for (i = 0; i < a.num_groups; i++) {
		ck_assert_int_eq(a.g[i].mlid, b.g[i].mlid);
		for (n = 0; n < f.num_nodes; n++)
			ck_assert(!memcmp(&a.g[i].mask[n], &b.g[i].mask[n],
					  sizeof(struct ibu_portmask)));
	}
	free(buf);
	ibu_mft_free(&a);
	ibu_mft_free(&b);
	ibu_fabric_free(&f);
}
END_TEST

/* `ibunion diff` of two MFT dumps without a fabric: the dump's
 * headers give the switches, and sniffing tells an MFT dump from others. */
START_TEST(switches_from_headers)
{
	static const char text[] =
		"ibwarn: noise first\n"
		"Multicast mlids [0xc000-0xc3ff] of switch Lid 7 guid 0x0000000000000b0b (leaf one):\n"
		"     Ports: 0 1 2 3 4 \n MLid\n0xc001        x x   \n1 valid mlids dumped \n"
		"Multicast mlids [0xc000-0xc3ff] of switch Lid 8 guid 0x0000000000000a0a (top):\n"
		"     Ports: 0 1 2 3 4 \n MLid\n0 valid mlids dumped \n";
	char path[] = "/tmp/test_mft.XXXXXX", lft[] = "/tmp/test_mft.XXXXXX";
	struct ibu_fabric f;
	struct ibu_mft t;
	struct ibu_err e = { 0 };
	int n;

	unit_write_temp(path, text);
	unit_write_temp(lft, "Unicast lids [0x0-0x8] of switch Lid 7 guid 0x0000000000000b0b (x):\n");

	ck_assert_int_eq(ibu_mft_sniff(path, &e), 1);
	ck_assert_int_eq(ibu_mft_sniff(lft, &e), 0);
	ck_assert_int_lt(ibu_mft_sniff("/nonexistent/dump", &e), 0);
	ck_assert_int_eq(ibu_fabric_init(&f, "headers"), 0);
	ck_assert_msg(ibu_mft_add_switches(path, &f, &e) == 0, "%s", e.msg);
	ck_assert_msg(ibu_mft_add_switches(path, &f, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(f.num_nodes, 2);	/* once each */
	ck_assert_int_eq(ibu_fabric_index(&f, &e), 0);
	n = ibu_fabric_find_guid(&f, 0xb0b);
	ck_assert_int_ge(n, 0);
	ck_assert_str_eq(f.nodes[n].name, "leaf one");
	ck_assert(ibu_node_is_switch(&f.nodes[n]));
	ck_assert_msg(ibu_mft_read(path, &f, &t, &e) == 0, "%s", e.msg);
	ck_assert(ibu_pm_test(ibu_mft_get(&t, 0xc001, n), 1));
	ck_assert(ibu_pm_test(ibu_mft_get(&t, 0xc001, n), 2));
	ck_assert_int_eq(ibu_pm_count(ibu_mft_get(&t, 0xc001, n)), 2);
	ibu_mft_free(&t);
	ibu_fabric_free(&f);
	unlink(path);
	unlink(lft);
}
END_TEST

/* The line named is the bad line's, after good tables; from a file, the
 * file's path. */
START_TEST(bad_line_named)
{
	static const char text[] =
		"Multicast mlids [0xc000-0xc3ff] of switch Lid 1 guid 0x0000000000200000 (S1):\n"
		" MLid       Port Mask\n"
		"0xc001      000a\n"
		"1 valid mlids dumped \n"
		"Multicast mlids [0xc000-0xc3ff] of switch Lid 2 guid 0x0000000000200001 (S2):\n"
		"     Ports: 0 1 2 3 4 5 6 7 8 \n MLid\n"
		"0xc001        x x\n"
		"0xc002                        x\n"
		"2 valid mlids dumped \n";
	char path[] = "/tmp/test_mft_dump.XXXXXX", want[64];
	struct ibu_fabric f;
	struct ibu_mft t;
	struct ibu_err e = { 0 };

	load_net("2sw2path4hca.net", &f);
	ck_assert_int_eq(read_text(text, &f, &t, &e), IBU_EPARSE);
	ck_assert_msg(!strncmp(e.msg, "mem.mfts:9:", 11), "%s", e.msg);
	unit_write_temp(path, text);
	memset(&e, 0, sizeof(e));
	ck_assert_int_eq(ibu_mft_read(path, &f, &t, &e), IBU_EPARSE);
	snprintf(want, sizeof(want), "%s:9:", path);
	ck_assert_msg(!strncmp(e.msg, want, strlen(want)), "%s", e.msg);
	unlink(path);
	ibu_fabric_free(&f);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("mft_dump");
	TCase *tc = tcase_create("files");

	tcase_add_test(tc, real_empty_dump);
	tcase_add_test(tc, grid_and_brief_forms);
	tcase_add_test(tc, bad_dumps);
	tcase_add_test(tc, repeated_table);
	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, switches_from_headers);
	tcase_add_test(tc, nul_byte);
	tcase_add_test(tc, bad_line_named);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
