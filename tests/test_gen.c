/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <string.h>
#include "unit.h"
#include "gen.h"
#include "netfile.h"
#include "pgft.h"

static long ipow(long b, int e)
{
	long r = 1;

	while (e-- > 0)
		r *= b;
	return r;
}

/* Sizes from the paper: 2 (m/2)^n end nodes, (2n-1)(m/2)^(n-1) switches,
 * every switch port cabled. */
START_TEST(counts)
{
	static const int cfg[][2] = { { 4, 2 }, { 4, 3 }, { 8, 3 }, { 6, 3 }, { 12, 2 } };
	int m = cfg[_i][0], n = cfg[_i][1], i, p;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_gen_fattree(&f, m, n, NULL, &e), 0);
	ck_assert_int_eq(ibu_fabric_count_switches(&f), (2 * n - 1) * ipow(m / 2, n - 1));
	ck_assert_int_eq(ibu_fabric_count_endports(&f), 2 * ipow(m / 2, n));
	ck_assert(!ibu_node_is_switch(&f.nodes[0]));	/* SM port on an HCA */
	for (i = 0; i < f.num_nodes; i++)
		for (p = 1; p <= f.nodes[i].num_ports; p++)
			ck_assert_int_ge(f.nodes[i].ports[p].peer_node, 0);
	ibu_fabric_free(&f);
}
END_TEST

/*
 * IBFT name -> the name of the same node in the PGFT generator's output.
 * [Zhou07] labels a level-l switch (0 at the top) by its l sub-tree digits,
 * then its up choices in the order they were taken; the PGFT by the same
 * sub-tree digits, then the up choices latest first, then b_1 = 0, and
 * counts levels from the leaves. Hosts have the same name in both.
 */
static void pgft_name(const char *ibft, int n, char *buf, size_t len)
{
	int l, w[32], k = 0, i, o;
	const char *c;

	if (strncmp(ibft, "sw", 2)) {
		snprintf(buf, len, "%s", ibft);
		return;
	}
	ck_assert_int_eq(sscanf(ibft, "sw%d-", &l), 1);
	for (c = strchr(ibft, '-'); c && *c; c = strchr(c + 1, '.'))
		w[k++] = atoi(c + 1);
	ck_assert_int_eq(k, n - 1);
	o = snprintf(buf, len, "sw%d-", n - l);
	for (i = 0; i < l; i++)
		o += snprintf(buf + o, len - o, "%d.", w[i]);
	for (i = n - 2; i >= l; i--)
		o += snprintf(buf + o, len - o, "%d.", w[i]);
	snprintf(buf + o, len - o, "0");
}

/* IBFT(m,n) is the PGFT generator's PGFT(n; m/2,..,m/2, m; 1, m/2,..,m/2;
 * 1,..,1): after the name map, every port is cabled to the same port of
 * the same node. */
START_TEST(ibft_is_the_pgft)
{
	static const int cfg[][2] = {
		{ 4, 2 }, { 4, 3 }, { 6, 3 }, { 8, 3 }, { 4, 4 }, { 6, 4 }
	};
	int m = cfg[_i][0], n = cfg[_i][1], i, j, p, l, q;
	char pm[64] = "", pw[64] = "", pp[64] = "", name[128], peer[128];
	struct ibu_pgft_params P;
	struct ibu_fabric a, b;
	struct ibu_err e = { 0 };

	for (l = 1; l <= n; l++) {
		const char *sep = l > 1 ? "," : "";

		snprintf(pm + strlen(pm), sizeof(pm) - strlen(pm), "%s%d",
			 sep, l < n ? m / 2 : m);
		snprintf(pw + strlen(pw), sizeof(pw) - strlen(pw), "%s%d",
			 sep, l > 1 ? m / 2 : 1);
		snprintf(pp + strlen(pp), sizeof(pp) - strlen(pp), "%s1", sep);
	}
	ck_assert_int_eq(ibu_pgft_params_parse(pm, pw, pp, &P, &e), 0);
	ck_assert_int_eq(ibu_gen_fattree(&a, m, n, NULL, &e), 0);
	ck_assert_int_eq(ibu_gen_pgft(&b, &P, 0, 0, NULL, &e), 0);
	ck_assert_int_eq(a.num_nodes, b.num_nodes);
	for (i = 0; i < a.num_nodes; i++) {
		pgft_name(a.nodes[i].name, n, name, sizeof(name));
		j = ibu_fabric_find_name(&b, name);
		ck_assert_msg(j >= 0, "%s -> %s", a.nodes[i].name, name);
		ck_assert_int_eq(a.nodes[i].num_ports, b.nodes[j].num_ports);
		for (p = 1; p <= a.nodes[i].num_ports; p++) {
			q = a.nodes[i].ports[p].peer_node;
			ck_assert_int_ge(q, 0);
			pgft_name(a.nodes[q].name, n, peer, sizeof(peer));
			q = b.nodes[j].ports[p].peer_node;
			ck_assert_int_ge(q, 0);
			ck_assert_str_eq(b.nodes[q].name, peer);
			ck_assert_int_eq(a.nodes[i].ports[p].peer_port,
					 b.nodes[j].ports[p].peer_port);
		}
	}
	ibu_fabric_free(&a);
	ibu_fabric_free(&b);
}
END_TEST

/* Same seed, same fabric; shuffling changes port numbers but not degrees. */
START_TEST(shuffle_deterministic)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = 42, .extra_ports = 2 };
	struct ibu_fabric a, b, plain;
	struct ibu_err e = { 0 };
	int i, p, moved = 0;

	ck_assert_int_eq(ibu_gen_fattree(&a, 8, 3, &o, &e), 0);
	ck_assert_int_eq(ibu_gen_fattree(&b, 8, 3, &o, &e), 0);
	ck_assert_int_eq(ibu_gen_fattree(&plain, 8, 3, NULL, &e), 0);
	ck_assert_int_eq(a.num_nodes, b.num_nodes);
	for (i = 0; i < a.num_nodes; i++) {
		ck_assert_str_eq(a.nodes[i].name, b.nodes[i].name);
		for (p = 1; p <= a.nodes[i].num_ports; p++)
			ck_assert_int_eq(a.nodes[i].ports[p].peer_port,
					 b.nodes[i].ports[p].peer_port);
		if (ibu_node_is_switch(&a.nodes[i])) {
			int c = 0;

			ck_assert_int_eq(a.nodes[i].num_ports, 10);
			for (p = 1; p <= 10; p++)
				c += a.nodes[i].ports[p].peer_node >= 0;
			ck_assert_int_eq(c, 8);
		}
		moved += strcmp(a.nodes[i].name, plain.nodes[i].name) != 0;
	}
	ck_assert_int_gt(moved, 0);
	ibu_fabric_free(&a);
	ibu_fabric_free(&b);
	ibu_fabric_free(&plain);
}
END_TEST

START_TEST(bad_sizes)
{
	struct ibu_fabric f;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_gen_fattree(&f, 5, 3, NULL, &e), IBU_EINVAL);
	ck_assert_int_eq(ibu_gen_fattree(&f, 2, 3, NULL, &e), IBU_EINVAL);
	ck_assert_int_eq(ibu_gen_fattree(&f, 4, 1, NULL, &e), IBU_EINVAL);
	ck_assert_int_eq(ibu_gen_fattree(&f, 64, 6, NULL, &e), IBU_EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "too large"));
}
END_TEST

/* hostile input: a prefix the net file cannot carry is refused; a harmless one
 * reads back. */
START_TEST(prefix_reads_back_or_is_refused)
{
	static const char *const refused[] = { "a\"b", "a\nb", "a#b", "\t" };
	struct ibu_gen_opts o = { .seed = 1 };
	struct ibu_fabric f, g;
	struct ibu_err e = { 0 };
	char *buf = NULL;
	size_t len = 0, i;
	FILE *out, *in;

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		o.prefix = refused[i];
		ck_assert_int_eq(ibu_gen_fattree(&f, 4, 3, &o, &e), IBU_EINVAL);
	}
	o.prefix = "rack 7/a'b-";
	ck_assert_int_eq(ibu_gen_fattree(&f, 4, 3, &o, &e), 0);
	out = open_memstream(&buf, &len);
	ck_assert_int_eq(ibu_netfile_write(out, &f, &e), 0);
	fclose(out);
	in = fmemopen(buf, len, "r");
	ck_assert_msg(ibu_netfile_read_stream(in, "gen", &g, &e) == 0, "%s", e.msg);
	fclose(in);
	ck_assert_int_eq(g.num_nodes, f.num_nodes);
	ck_assert_str_eq(g.nodes[0].name, f.nodes[0].name);
	free(buf);
	ibu_fabric_free(&f);
	ibu_fabric_free(&g);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("gen");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, counts, 0, 5);
	tcase_add_loop_test(tc, ibft_is_the_pgft, 0, 6);
	tcase_add_test(tc, shuffle_deterministic);
	tcase_add_test(tc, bad_sizes);
	tcase_add_test(tc, prefix_reads_back_or_is_refused);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
