/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include "mesh_util.h"
#include "mcflood.h"
#include "mcmembers.h"
#include "xy.h"
#include "xy_mcast.h"

static int sw_at(const struct ibu_mesh *t, int x, int y)
{
	return ibu_mesh_index(t, x, y);
}

static struct ibu_mcast_member hca_of(const struct ibu_mesh *t, int x, int y,
				      int send_only)
{
	const struct ibu_mesh_endport *ep = &t->ep[t->sw[sw_at(t, x, y)].first_ep];
	struct ibu_mcast_member m = { ep->node, ep->port, send_only };

	return m;
}

/* directions of the ports of sw in the tree (HCA ports excluded) */
static unsigned dirs_of(const struct ibu_mesh *t,
			const struct ibu_xy_mcast_tree *tr, int sw)
{
	unsigned bits = 0;
	int d;

	for (d = 0; d < IBU_DIRS; d++)
		if (t->sw[sw].port[d] && ibu_pm_test(&tr->ports[sw], t->sw[sw].port[d]))
			bits |= 1u << d;
	return bits;
}

#define E (1u << IBU_DIR_E)
#define N (1u << IBU_DIR_N)
#define W (1u << IBU_DIR_W)
#define S (1u << IBU_DIR_S)

static void assert_flood_exact(const struct ibu_fabric *f,
			       const struct ibu_mesh *t,
			       const struct ibu_xy_mcast_tree *tr,
			       const struct ibu_mcast_member *m, int num)
{
	struct ibu_mcmembers mm;
	struct ibu_mft mft;
	struct ibu_mcf_stats st;
	struct ibu_err e = { 0 };
	int i;

	ibu_mcmembers_init(&mm);
	for (i = 0; i < num; i++)
		ck_assert_int_eq(ibu_mcmembers_add(&mm, 0xc001, &m[i], &e), 0);
	ck_assert_int_eq(ibu_mft_init(&mft, f->num_nodes, &e), 0);
	ck_assert_int_eq(ibu_xy_mcast_tree_to_mft(t, tr, 0xc001, &mft, &e), 0);
	ck_assert_int_eq(ibu_mcf_run(f, &mft, &mm, NULL, NULL, &st, NULL, &e), 0);
	ck_assert_int_eq(ibu_mcf_problems(&st), 0);
	ck_assert_int_eq(st.floods, mm.g[0].num);
	ibu_mft_free(&mft);
	ibu_mcmembers_free(&mm);
}

/* [Zhou10] Fig. 9: N(2,2) sends to N(0,3), N(0,4), N(3,3), N(4,0), N(4,2). */
START_TEST(test_paper_fig9)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .seed = 7 };
	struct ibu_fabric f;
	struct ibu_mesh t;
	struct ibu_xy_mcast_tree tr;
	struct ibu_err e = { 0 };
	struct ibu_mcast_member m[6];
	static const struct { int x, y; unsigned down, up; int hca; } want[] = {
		{ 2, 2, E | W, 0, 0 },		/* root, the send-only source */
		{ 1, 2, W, E, 0 },
		{ 0, 2, N, E, 0 },
		{ 0, 3, N, S, 1 },
		{ 0, 4, 0, S, 1 },
		{ 3, 2, E | N, W, 0 },
		{ 3, 3, 0, S, 1 },
		{ 4, 2, S, W, 1 },
		{ 4, 1, S, N, 0 },
		{ 4, 0, 0, N, 1 },
	};
	size_t i;
	int s, in_tree = 0;

	ck_assert_int_eq(ibu_gen_mesh(&f, 5, 5, 1, &o, &e), 0);
	ck_assert_int_eq(ibu_mesh_recognize(&f, &t, &e), 0);
	m[0] = hca_of(&t, 2, 2, 1);
	m[1] = hca_of(&t, 0, 3, 0);
	m[2] = hca_of(&t, 0, 4, 0);
	m[3] = hca_of(&t, 3, 3, 0);
	m[4] = hca_of(&t, 4, 0, 0);
	m[5] = hca_of(&t, 4, 2, 0);
	ck_assert_int_eq(ibu_xy_mcast_tree_build(&f, &t, m, 6, IBU_MCAST_SOURCE,
						 NULL, 1, &tr, &e), 0);
	ck_assert_int_eq(tr.root, sw_at(&t, 2, 2));
	ck_assert_int_eq(tr.policy, IBU_MCAST_SOURCE);
	ck_assert_int_eq(tr.num_members, 6);
	ck_assert_int_eq(tr.num_receivers, 5);
	ck_assert_int_eq(tr.num_switches, 10);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		int sw = sw_at(&t, want[i].x, want[i].y);
		const struct ibu_mesh_switch *w = &t.sw[sw];
		int hport = t.ep[w->first_ep].sw_port;

		/* the paper's MFT entry = the links away from the source */
		ck_assert_msg(tr.down[sw] == want[i].down, "N(%d,%d) down %x want %x",
			      want[i].x, want[i].y, tr.down[sw], want[i].down);
		/* plus the link toward it (every member may send) */
		ck_assert_uint_eq(dirs_of(&t, &tr, sw), want[i].down | want[i].up);
		if (want[i].up)
			ck_assert_int_eq(1u << tr.up[sw], want[i].up);
		else
			ck_assert_int_eq(tr.up[sw], IBU_DIR_LOCAL);
		/* plus the member's HCA port (the send-only source has none) */
		ck_assert_int_eq(ibu_pm_test(&tr.ports[sw], hport), want[i].hca);
		ck_assert_int_eq(ibu_pm_count(&tr.ports[sw]),
				 __builtin_popcount(want[i].down | want[i].up) + want[i].hca);
	}
	for (s = 0; s < t.num_switches; s++)
		in_tree += !ibu_pm_empty(&tr.ports[s]);
	ck_assert_int_eq(in_tree, 10);
	assert_flood_exact(&f, &t, &tr, m, 6);
	ibu_xy_mcast_tree_free(&tr);
	/* without a send-only member, source falls back to balanced */
	m[0].send_only = 0;
	ck_assert_int_eq(ibu_xy_mcast_tree_build(&f, &t, m, 6, IBU_MCAST_SOURCE,
						 NULL, 1, &tr, &e), 0);
	ck_assert_int_eq(tr.policy, IBU_MCAST_BALANCED);
	ck_assert_int_eq(t.sw[tr.root].y, ibu_xy_mcast_root_row(&t));
	assert_flood_exact(&f, &t, &tr, m, 6);
	ibu_xy_mcast_tree_free(&tr);
	ibu_mesh_free(&t);
	ibu_fabric_free(&f);
}
END_TEST

/* balanced: roots on the middle row, spread along it; exact floods;
 * compact (the default) is balanced on a mesh and says so */
START_TEST(test_balanced_row)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1, .seed = 2 };
	struct ibu_fabric f;
	struct ibu_mesh t;
	struct ibu_xy_mcast_load load, load2;
	struct ibu_err e = { 0 };
	struct ibu_mcast_member *m;
	uint64_t st = 77;
	int g, i, roots_seen[64] = { 0 }, distinct = 0;

	ck_assert_int_eq(ibu_gen_mesh(&f, 6, 5, 2, &o, &e), 0);
	ck_assert_int_eq(ibu_mesh_recognize(&f, &t, &e), 0);
	ck_assert_int_eq(ibu_xy_mcast_load_init(&load, &t, &e), 0);
	ck_assert_int_eq(ibu_xy_mcast_load_init(&load2, &t, &e), 0);
	m = malloc(t.num_endports * sizeof(*m));
	ck_assert_ptr_nonnull(m);
	for (g = 0; g < 12; g++) {
		struct ibu_xy_mcast_tree tr, tr2;
		int n = 0;

		for (i = 0; i < t.num_endports; i++)
			if (ibu_gen_rand(&st) % 3 == 0) {
				m[n].node = t.ep[i].node;
				m[n].port = t.ep[i].port;
				m[n++].send_only = ibu_gen_rand(&st) % 5 == 0;
			}
		ck_assert_int_eq(ibu_xy_mcast_tree_build(&f, &t, m, n, IBU_MCAST_BALANCED,
							 &load, 0xc000 + g, &tr, &e), 0);
		ck_assert_int_eq(ibu_xy_mcast_tree_build(&f, &t, m, n, IBU_MCAST_COMPACT,
							 &load2, 0xc000 + g, &tr2, &e), 0);
		ck_assert_int_eq(tr2.root, tr.root);
		ck_assert_int_eq(tr2.policy, IBU_MCAST_BALANCED);
		ibu_xy_mcast_tree_free(&tr2);
		if (n) {
			ck_assert_int_eq(t.sw[tr.root].y, ibu_xy_mcast_root_row(&t));
			if (!roots_seen[tr.root]++)
				distinct++;
			assert_flood_exact(&f, &t, &tr, m, n);
		}
		ibu_xy_mcast_tree_free(&tr);
	}
	ck_assert_int_ge(distinct, 5);
	ck_assert_int_eq(ibu_xy_mcast_load_count(&load), 12);
	ibu_xy_mcast_load_release(&load, 0xc003);
	ck_assert_int_eq(ibu_xy_mcast_load_count(&load), 11);
	free(m);
	ibu_xy_mcast_load_free(&load2);
	ibu_xy_mcast_load_free(&load);
	ibu_mesh_free(&t);
	ibu_fabric_free(&f);
}
END_TEST

START_TEST(test_members)
{
	struct ibu_fabric f;
	struct ibu_mesh t;
	struct ibu_xy_mcast_tree tr;
	struct ibu_err e = { 0 };
	struct ibu_mcast_member m[3];

	ck_assert_int_eq(ibu_gen_mesh(&f, 3, 3, 1, NULL, &e), 0);
	ck_assert_int_eq(ibu_mesh_recognize(&f, &t, &e), 0);
	/* empty group */
	ck_assert_int_eq(ibu_xy_mcast_tree_build(&f, &t, m, 0, IBU_MCAST_BALANCED,
						 NULL, 1, &tr, &e), 0);
	ck_assert_int_eq(tr.root, -1);
	ibu_xy_mcast_tree_free(&tr);
	/* a switch member (port 0) and a duplicate */
	m[0].node = t.sw[sw_at(&t, 2, 2)].node;
	m[0].port = 0;
	m[0].send_only = 0;
	m[1] = hca_of(&t, 0, 0, 1);
	m[2] = hca_of(&t, 0, 0, 0);
	ck_assert_int_eq(ibu_xy_mcast_tree_build(&f, &t, m, 3, IBU_MCAST_LOWEST_GUID,
						 NULL, 1, &tr, &e), 0);
	ck_assert_int_eq(tr.num_members, 2);
	ck_assert_int_eq(tr.num_receivers, 2);
	ck_assert(ibu_pm_test(&tr.ports[sw_at(&t, 2, 2)], 0));
	ck_assert_int_eq(t.sw[tr.root].y, 1);
	assert_flood_exact(&f, &t, &tr, m, 3);
	ibu_xy_mcast_tree_free(&tr);
	/* a member that is not in the mesh */
	m[0].port = 3;
	m[0].node = t.ep[0].node;
	ck_assert_int_eq(ibu_xy_mcast_tree_build(&f, &t, m, 1, IBU_MCAST_BALANCED,
						 NULL, 1, &tr, &e), IBU_ETOPO);
	ibu_mesh_free(&t);
	ibu_fabric_free(&f);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("xy_mcast");
	TCase *tc = tcase_create("trees");

	tcase_add_test(tc, test_paper_fig9);
	tcase_add_test(tc, test_balanced_row);
	tcase_add_test(tc, test_members);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
