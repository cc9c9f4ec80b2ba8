/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The mesh generator (lib/mesh/gen_mesh.c): what `ibunion gen mesh`
 * builds, read off the graph. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "gen_mesh.h"
#include "netfile.h"

/* Counts of f, checking every cable from both ends: switch-to-switch
 * cables (once each), cabled CAs, and switches with num_ports ports. */
struct counts {
	int switches, cas, links, cabled_cas, ports_ok;
};

static struct counts count(const struct ibu_fabric *f, int nports)
{
	struct counts c = { 0 };
	int i, p;

	for (i = 0; i < f->num_nodes; i++) {
		const struct ibu_node *n = &f->nodes[i];
		int sw = ibu_node_is_switch(n), cabled = 0;

		c.switches += sw;
		c.cas += !sw;
		c.ports_ok += sw && n->num_ports == nports;
		for (p = 1; p <= n->num_ports; p++) {
			const struct ibu_port *pt = &n->ports[p], *back;

			if (pt->peer_node < 0)
				continue;
			back = &f->nodes[pt->peer_node].ports[pt->peer_port];
			ck_assert_int_eq(back->peer_node, i);
			ck_assert_int_eq(back->peer_port, p);
			cabled++;
			if (sw && ibu_node_is_switch(&f->nodes[pt->peer_node]) &&
			    i < pt->peer_node)
				c.links++;
		}
		if (!sw)
			c.cabled_cas += cabled == 1;
	}
	return c;
}

/* X x Y switches of 4 + hcas ports, X Y hcas CAs each on one cable,
 * Y + X (Y-1) grid cables; the first record an HCA when there are
 * any; shuffling ports or records changes none of it. */
START_TEST(counts_and_cables)
{
	static const int dims[][3] = {
		{ 1, 1, 1 }, { 2, 3, 1 }, { 4, 4, 2 }, { 5, 2, 0 }, { 3, 7, 3 },
	};
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1, .seed = 4 };
	size_t i;
	int k;

	for (i = 0; i < sizeof(dims) / sizeof(dims[0]); i++)
		for (k = 0; k < 2; k++) {
			int X = dims[i][0], Y = dims[i][1], h = dims[i][2];
			struct ibu_fabric f;
			struct ibu_err e = { 0 };
			struct counts c;

			ck_assert_int_eq(ibu_gen_mesh(&f, X, Y, h, k ? &o : NULL, &e), 0);
			c = count(&f, 4 + h);
			ck_assert_int_eq(c.switches, X * Y);
			ck_assert_int_eq(c.ports_ok, X * Y);
			ck_assert_int_eq(c.cas, X * Y * h);
			ck_assert_int_eq(c.cabled_cas, X * Y * h);
			ck_assert_int_eq(c.links, (X - 1) * Y + X * (Y - 1));
			ck_assert_int_eq(ibu_node_is_switch(&f.nodes[0]), h == 0);
			ibu_fabric_free(&f);
		}
}
END_TEST

/* Unshuffled, the paper's ports: E = 1 to the W = 3 of x + 1, N = 2 to
 * the S = 4 of y + 1, HCA k on 5 + k. */
START_TEST(paper_ports)
{
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	char name[32];
	int x, y, s, q;

	ck_assert_int_eq(ibu_gen_mesh(&f, 3, 2, 2, NULL, &e), 0);
	for (y = 0; y < 2; y++)
		for (x = 0; x < 3; x++) {
			snprintf(name, sizeof(name), "sw-%d.%d", x, y);
			s = ibu_fabric_find_name(&f, name);
			ck_assert_int_ge(s, 0);
			if (x + 1 < 3) {
				snprintf(name, sizeof(name), "sw-%d.%d", x + 1, y);
				q = ibu_fabric_find_name(&f, name);
				ck_assert_int_eq(f.nodes[s].ports[1].peer_node, q);
				ck_assert_int_eq(f.nodes[s].ports[1].peer_port, 3);
			} else {
				ck_assert_int_lt(f.nodes[s].ports[1].peer_node, 0);
			}
			if (y + 1 < 2) {
				snprintf(name, sizeof(name), "sw-%d.%d", x, y + 1);
				q = ibu_fabric_find_name(&f, name);
				ck_assert_int_eq(f.nodes[s].ports[2].peer_node, q);
				ck_assert_int_eq(f.nodes[s].ports[2].peer_port, 4);
			}
			snprintf(name, sizeof(name), "hca-%d.%d.1", x, y);
			q = ibu_fabric_find_name(&f, name);
			ck_assert_int_eq(f.nodes[s].ports[6].peer_node, q);
		}
	ibu_fabric_free(&f);
}
END_TEST

/* --remove-links K removes exactly K grid cables (the HCAs keep theirs),
 * and the record reads back from its net file as the same graph. */
START_TEST(remove_links_well_formed)
{
	int k;

	for (k = 1; k <= 6; k++) {
		struct ibu_gen_opts o = { .remove_links = k, .seed = (uint64_t)k,
					  .shuffle_ports = 1, .shuffle_records = 1 };
		struct ibu_fabric f, g;
		struct ibu_err e = { 0 };
		struct counts c, d;
		char *buf = NULL;
		size_t len = 0;
		FILE *io;

		ck_assert_int_eq(ibu_gen_mesh(&f, 4, 3, 1, &o, &e), 0);
		c = count(&f, 5);
		ck_assert_int_eq(c.links, 17 - k);
		ck_assert_int_eq(c.switches, 12);
		ck_assert_int_eq(c.cabled_cas, 12);
		io = open_memstream(&buf, &len);
		ck_assert_ptr_nonnull(io);
		ck_assert_int_eq(ibu_netfile_write(io, &f, &e), 0);
		fclose(io);
		io = fmemopen(buf, len, "r");
		ck_assert_msg(ibu_netfile_read_stream(io, "gen", &g, &e) == 0, "%s", e.msg);
		fclose(io);
		free(buf);
		ck_assert_int_eq(ibu_fabric_index(&g, &e), 0);
		d = count(&g, 5);
		ck_assert_int_eq(d.links, c.links);
		ck_assert_int_eq(d.switches, c.switches);
		ck_assert_int_eq(d.cabled_cas, c.cabled_cas);
		ibu_fabric_free(&f);
		ibu_fabric_free(&g);
	}
}
END_TEST

START_TEST(bad_sizes)
{
	struct ibu_fabric f;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_gen_mesh(&f, 0, 3, 1, NULL, &e), IBU_EINVAL);
	ck_assert_int_eq(ibu_gen_mesh(&f, 3, 0, 1, NULL, &e), IBU_EINVAL);
	ck_assert_int_eq(ibu_gen_mesh(&f, 3, 3, -1, NULL, &e), IBU_EINVAL);
	ck_assert_int_eq(ibu_gen_mesh(&f, 129, 128, 1, NULL, &e), IBU_EINVAL);
	ck_assert_int_eq(ibu_gen_mesh(&f, 2, 2, IBU_MAX_PORTS - 3, NULL, &e),
			 IBU_EINVAL);
	ck_assert_msg(strstr(e.msg, "mesh 2 x 2"), "%s", e.msg);
}
END_TEST

/* gen mesh --remove-switches: the HCAs of a removed switch go with it
 * (the first record, ibsim's SM port, stays in any case). */
START_TEST(test_gen_removed_switch_takes_hcas)
{
	uint64_t seed;

	for (seed = 1; seed <= 8; seed++) {
		struct ibu_gen_opts o = { .remove_switches = 2, .seed = seed,
					  .shuffle_records = 1 };
		struct ibu_fabric f;
		struct ibu_err e = { 0 };
		int n, cas = 0, sws = 0;

		ck_assert_int_eq(ibu_gen_mesh(&f, 4, 4, 2, &o, &e), 0);
		for (n = 0; n < f.num_nodes; n++) {
			if (ibu_node_is_switch(&f.nodes[n])) {
				sws++;
				continue;
			}
			cas++;
			ck_assert_msg(n == 0 || f.nodes[n].ports[1].peer_node >= 0,
				      "seed %llu: '%s' is left uncabled",
				      (unsigned long long)seed, f.nodes[n].name);
		}
		ck_assert_int_eq(sws, 14);
		ck_assert_msg(cas == 28 || cas == 29, "seed %llu: %d HCAs",
			      (unsigned long long)seed, cas);
		ibu_fabric_free(&f);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("gen_mesh");
	TCase *tc = tcase_create("gen");

	tcase_add_test(tc, counts_and_cables);
	tcase_add_test(tc, paper_ports);
	tcase_add_test(tc, remove_links_well_formed);
	tcase_add_test(tc, bad_sizes);
	tcase_add_test(tc, test_gen_removed_switch_takes_hcas);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
