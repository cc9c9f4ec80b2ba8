/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <string.h>
#include "unit.h"
#include "gen.h"
#include "netfile.h"

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

START_TEST(remove_links)
{
	struct ibu_gen_opts o = { .remove_links = 3, .seed = 9 };
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	int i, p, open = 0;

	ck_assert_int_eq(ibu_gen_fattree(&f, 4, 3, &o, &e), 0);
	for (i = 0; i < f.num_nodes; i++)
		for (p = 1; p <= f.nodes[i].num_ports; p++)
			open += f.nodes[i].ports[p].peer_node < 0;
	ck_assert_int_eq(open, 6);	/* both ends of 3 links */
	ibu_fabric_free(&f);
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
	tcase_add_test(tc, shuffle_deterministic);
	tcase_add_test(tc, remove_links);
	tcase_add_test(tc, bad_sizes);
	tcase_add_test(tc, prefix_reads_back_or_is_refused);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
