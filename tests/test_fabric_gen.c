/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* What every generator shares (lib/core/fabric_gen.c): the seeded PRNG and
 * shuffle, the damage options, the prefix and argument checks. */
#include <string.h>
#include "unit.h"
#include "fabric_gen.h"
#include "gen.h"

/* Switch-to-switch cables, each counted once; every cable must be seen
 * from both ends (the peer's peer is the port itself). */
static int switch_links(const struct ibu_fabric *f, int *hosts_cabled)
{
	int i, p, links = 0;

	*hosts_cabled = 0;
	for (i = 0; i < f->num_nodes; i++)
		for (p = 1; p <= f->nodes[i].num_ports; p++) {
			const struct ibu_port *pt = &f->nodes[i].ports[p];
			const struct ibu_port *back;

			if (pt->peer_node < 0)
				continue;
			ck_assert_int_lt(pt->peer_node, f->num_nodes);
			back = &f->nodes[pt->peer_node].ports[pt->peer_port];
			ck_assert_int_eq(back->peer_node, i);
			ck_assert_int_eq(back->peer_port, p);
			if (!ibu_node_is_switch(&f->nodes[i]))
				(*hosts_cabled)++;
			else if (ibu_node_is_switch(&f->nodes[pt->peer_node]) &&
				 i < pt->peer_node)
				links++;
		}
	return links;
}

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

/* IBFT(4,3): 20 switches, 16 hosts, 32 switch-to-switch cables. Removing
 * K of them leaves exactly 32 - K, every one still cabled both ways, the
 * hosts' cables untouched; the same seed removes the same ones; more
 * than there are is refused. */
START_TEST(remove_exactly_k_links)
{
	struct ibu_fabric f, g;
	struct ibu_err e = { 0 };
	int k, hosts, i, p;

	for (k = 0; k <= 32; k += 4) {
		ck_assert_int_eq(ibu_gen_fattree(&f, 4, 3, NULL, &e), 0);
		ck_assert_int_eq(switch_links(&f, &hosts), 32);
		ck_assert_int_eq(hosts, 16);
		ck_assert_int_eq(ibu_gen_remove_links(&f, k, 5, &e), 0);
		ck_assert_int_eq(switch_links(&f, &hosts), 32 - k);
		ck_assert_int_eq(hosts, 16);
		ck_assert_int_eq(ibu_gen_fattree(&g, 4, 3, NULL, &e), 0);
		ck_assert_int_eq(ibu_gen_remove_links(&g, k, 5, &e), 0);
		for (i = 0; i < f.num_nodes; i++)
			for (p = 1; p <= f.nodes[i].num_ports; p++)
				ck_assert_int_eq(f.nodes[i].ports[p].peer_node,
						 g.nodes[i].ports[p].peer_node);
		ibu_fabric_free(&f);
		ibu_fabric_free(&g);
	}
	ck_assert_int_eq(ibu_gen_fattree(&f, 4, 3, NULL, &e), 0);
	ck_assert_int_eq(ibu_gen_remove_links(&f, 33, 5, &e), IBU_EINVAL);
	ck_assert_msg(strstr(e.msg, "could only remove 32 of 33"), "%s", e.msg);
	ibu_fabric_free(&f);
}
END_TEST

/* remove_switches / remove_hosts drop exactly that many records of each
 * kind, never the first record (the SM port); what stays is cabled both
 * ways and indexes. */
START_TEST(remove_nodes_counts)
{
	struct ibu_gen_opts o = { .seed = 3 };
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	uint64_t guid0;
	int seed, hosts;

	for (seed = 1; seed <= 5; seed++) {
		ck_assert_int_eq(ibu_gen_fattree(&f, 4, 3, NULL, &e), 0);
		guid0 = f.nodes[0].guid;
		ck_assert_int_eq(ibu_gen_remove_nodes(&f, 3, 5, (uint64_t)seed, &e), 0);
		ck_assert_int_eq(ibu_fabric_count_switches(&f), 17);
		ck_assert_int_eq(f.num_nodes - ibu_fabric_count_switches(&f), 11);
		ck_assert_uint_eq(f.nodes[0].guid, guid0);
		switch_links(&f, &hosts);
		ck_assert_int_eq(ibu_fabric_index(&f, &e), 0);
		ibu_fabric_free(&f);
	}
	ck_assert_int_eq(ibu_gen_fattree(&f, 4, 3, NULL, &e), 0);
	ck_assert_int_eq(ibu_gen_remove_nodes(&f, 21, 0, 1, &e), IBU_EINVAL);
	ibu_fabric_free(&f);
	/* the options: links first, then records */
	o.remove_links = 2;
	o.remove_switches = 1;
	o.remove_hosts = 2;
	ck_assert_int_eq(ibu_gen_fattree(&f, 4, 3, NULL, &e), 0);
	ck_assert_int_eq(ibu_gen_damage(&f, &o, &e), 0);
	ck_assert_int_eq(ibu_fabric_count_switches(&f), 19);
	ck_assert_int_eq(f.num_nodes, 36 - 3);
	ck_assert_int_le(switch_links(&f, &hosts), 32 - 2);
	ibu_fabric_free(&f);
}
END_TEST

/* splitmix64: the same seed, the same sequence; another seed, another;
 * the shuffle is a permutation and follows the seed too. */
START_TEST(rand_and_shuffle)
{
	uint64_t a = 7, b = 7, c = 8;
	int x[50], y[50], seen[50] = { 0 }, i, moved = 0;

	for (i = 0; i < 100; i++) {
		uint64_t ra = ibu_gen_rand(&a);

		ck_assert_uint_eq(ra, ibu_gen_rand(&b));
		moved += ra != ibu_gen_rand(&c);
	}
	ck_assert_int_ge(moved, 99);
	for (i = 0; i < 50; i++)
		x[i] = y[i] = i;
	a = b = 11;
	ibu_gen_shuffle(x, 50, &a);
	ibu_gen_shuffle(y, 50, &b);
	moved = 0;
	for (i = 0; i < 50; i++) {
		ck_assert_int_eq(x[i], y[i]);
		ck_assert(x[i] >= 0 && x[i] < 50);
		seen[x[i]]++;
		moved += x[i] != i;
	}
	for (i = 0; i < 50; i++)
		ck_assert_int_eq(seen[i], 1);
	ck_assert_int_gt(moved, 25);
	ibu_gen_shuffle(x, 0, &a);	/* nothing to do */
	ibu_gen_shuffle(x, 1, &a);
}
END_TEST

/* hostile input: a prefix that a net file cannot quote, and a generator's
 * numbers, strictly decimal and within their range. */
START_TEST(prefix_and_arguments)
{
	static const char *const refused[] = { "a\"b", "a\nb", "a#b", "\t", "x\x7f" };
	static const char *const not_ints[] = { "", "-1", "+3", "3x", "0x10",
						" 3", "11", "99999999999999999999" };
	static const struct ibu_gen_arg args[] = {
		{ "hcas", "3" }, { "seed", "9" }, { "hcas", "4" },
	};
	struct ibu_gen_opts o = { 0 };
	struct ibu_err e = { 0 };
	size_t i;
	int v;

	ck_assert_int_eq(ibu_gen_check_prefix(&o, &e), 0);
	o.prefix = "rack 7/a'b-";
	ck_assert_int_eq(ibu_gen_check_prefix(&o, &e), 0);
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		o.prefix = refused[i];
		ck_assert_int_eq(ibu_gen_check_prefix(&o, &e), IBU_EINVAL);
	}
	ck_assert_int_eq(ibu_gen_arg_int("M", "10", 1, 10, &v, &e), 0);
	ck_assert_int_eq(v, 10);
	ck_assert_int_eq(ibu_gen_arg_int("M", "1", 1, 10, &v, &e), 0);
	ck_assert_int_eq(v, 1);
	for (i = 0; i < sizeof(not_ints) / sizeof(not_ints[0]); i++) {
		v = -5;
		ck_assert_msg(ibu_gen_arg_int("--hcas", not_ints[i], 1, 10, &v,
					      &e) == IBU_EINVAL, "'%s'", not_ints[i]);
		ck_assert_int_eq(v, -5);
	}
	ck_assert_str_eq(e.msg, "--hcas must be an integer in 1..10, not '99999999999999999999'");
	ck_assert_str_eq(ibu_gen_arg_find(args, 3, "hcas"), "3");
	ck_assert_str_eq(ibu_gen_arg_find(args, 3, "seed"), "9");
	ck_assert_ptr_null(ibu_gen_arg_find(args, 3, "hca"));
	ck_assert_ptr_null(ibu_gen_arg_find(args, 0, "hcas"));
}
END_TEST

/* hostile input: a fabric of one record (or none) has nothing that may
 * go, since the first record stays: refused, not a division by zero. */
START_TEST(nothing_to_remove)
{
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	int idx;

	ck_assert_int_eq(ibu_fabric_init(&f, "empty"), 0);
	ck_assert_int_eq(ibu_gen_remove_links(&f, 1, 1, &e), IBU_EINVAL);
	ck_assert_int_eq(ibu_gen_remove_nodes(&f, 1, 0, 1, &e), IBU_EINVAL);
	ck_assert_int_eq(ibu_fabric_add_node(&f, IBU_NODE_SWITCH, "one", 0x1, 4,
					     &idx, &e), 0);
	ck_assert_int_eq(ibu_gen_remove_nodes(&f, 1, 0, 1, &e), IBU_EINVAL);
	ck_assert_msg(strstr(e.msg, "not that many nodes"), "%s", e.msg);
	ck_assert_int_eq(ibu_gen_remove_nodes(&f, 0, 1, 1, &e), IBU_EINVAL);
	ck_assert_int_eq(ibu_gen_remove_links(&f, 1, 1, &e), IBU_EINVAL);
	ck_assert_int_eq(ibu_gen_remove_nodes(&f, 0, 0, 1, &e), 0);
	ck_assert_int_eq(f.num_nodes, 1);
	ibu_fabric_free(&f);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("fabric_gen");
	TCase *tc = tcase_create("options");

	tcase_add_test(tc, remove_links);
	tcase_add_test(tc, remove_exactly_k_links);
	tcase_add_test(tc, remove_nodes_counts);
	tcase_add_test(tc, rand_and_shuffle);
	tcase_add_test(tc, prefix_and_arguments);
	tcase_add_test(tc, nothing_to_remove);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
