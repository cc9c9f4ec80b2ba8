/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Multicast trees on a damaged mesh (lib/mesh/xy_detour_mcast.c): one
 * spanning tree toward the multicast root, cut to each group's members. */
#include "xy_detour_util.h"
#include "mcflood.h"

/* The tree is a tree of surviving cables: root first, parents before
 * children, every switch but the root one cable up, both ends of it in
 * the tree's ports. */
static void assert_tree(const struct dfix *x, const struct ibu_xy_mcast_tree *tr)
{
	const struct ibu_mesh *t = &x->t;
	char *seen = calloc((size_t)t->num_switches, 1);
	int i, s, p, d;

	ck_assert_ptr_nonnull(seen);
	ck_assert_int_eq(tr->root, t->dmg->mroot);
	ck_assert_int_eq(tr->switches[0], tr->root);
	ck_assert_int_eq(tr->up[tr->root], IBU_DIR_LOCAL);
	for (i = 0; i < tr->num_switches; i++) {
		s = tr->switches[i];
		ck_assert(ibu_mesh_present(t, s));
		ck_assert(!seen[s]);
		seen[s] = 1;
		if (s == tr->root)
			continue;
		d = tr->up[s];
		ck_assert(d >= 0 && d < IBU_DIRS);
		p = ibu_mesh_neighbour(t, s, d);
		ck_assert(seen[p]);	/* the parent came first */
		ck_assert_int_eq(x->f.nodes[t->sw[s].node].ports[t->sw[s].port[d]].peer_node,
				 t->sw[p].node);
		ck_assert(ibu_pm_test(&tr->ports[s], t->sw[s].port[d]));
		ck_assert(ibu_pm_test(&tr->ports[p], t->sw[p].port[(d + 2) % IBU_DIRS]));
	}
	for (s = 0; s < t->num_switches; s++)
		ck_assert_int_eq(seen[s], tr->up[s] >= 0);
	free(seen);
}

/* Random groups on damaged meshes (1 in 4 members send-only, now and
 * then a switch): every tree is a tree, its receivers counted, and its
 * MFT floods every receiving member exactly one copy from every sender. */
START_TEST(groups_deliver_once)
{
	int seed, routed = 0;

	for (seed = 1; seed <= 6; seed++) {
		struct ibu_mcast_member m[64];
		struct ibu_mcf_stats st;
		struct ibu_err e = { 0 };
		struct dfix x;
		uint64_t r = (uint64_t)seed;
		int g, i;

		if (dfix_up(&x, 6, 5, 1, 1 + seed % 4, seed % 2, (uint64_t)seed * 13))
			continue;
		ck_assert_ptr_nonnull(x.t.dmg);
		for (g = 0; g < 5; g++) {
			struct ibu_xy_mcast_tree tr;
			uint16_t mlid = (uint16_t)(0xc001 + g);
			int n = 0, recv = 0;

			for (i = 0; i < x.t.num_endports && n < 63; i++)
				if (ibu_gen_rand(&r) % 3 == 0) {
					m[n].node = x.t.ep[i].node;
					m[n].port = x.t.ep[i].port;
					m[n].send_only = ibu_gen_rand(&r) % 4 == 0;
					recv += !m[n].send_only;
					n++;
				}
			if (g == 4) {	/* a switch joins through port 0 */
				for (i = 0; !ibu_mesh_present(&x.t, i); i++)
					;
				m[n].node = x.t.sw[i].node;
				m[n].port = 0;
				m[n].send_only = 0;
				recv++;
				n++;
			}
			for (i = 0; i < n; i++)
				ck_assert_int_eq(ibu_mcmembers_add(&x.mm, mlid, &m[i], &e), 0);
			ck_assert_msg(ibu_xy_detour_mcast_tree(&x.f, &x.t, m, n, &tr, &e) == 0,
				      "%s", e.msg);
			ck_assert_int_eq(tr.num_members, n);
			ck_assert_int_eq(tr.num_receivers, recv);
			if (n)
				assert_tree(&x, &tr);
			ck_assert_int_eq(ibu_xy_mcast_tree_to_mft(&x.t, &tr, mlid, &x.mft, &e), 0);
			ibu_xy_mcast_tree_free(&tr);
		}
		ck_assert_int_eq(ibu_mcf_run(&x.f, &x.mft, &x.mm, NULL, NULL, &st, NULL, &e), 0);
		ck_assert_int_eq(st.groups, 5);
		ck_assert_int_eq(ibu_mcf_problems(&st), 0);
		ck_assert_int_eq(st.count[IBU_MCF_DEAD_PORT], 0);
		ck_assert_int_gt(st.deliveries, 0);
		routed++;
		dfix_down(&x);
	}
	ck_assert_int_ge(routed, 3);
}
END_TEST

/* An empty group has no root; an undamaged mesh has no multicast plan;
 * members outside the fabric or off the mesh are refused and nothing
 * stays allocated. */
START_TEST(refused)
{
	struct ibu_xy_mcast_tree tr;
	struct ibu_mcast_member m[2];
	struct ibu_err e = { 0 };
	struct dfix x, whole;
	int i;

	for (i = 1; dfix_up(&x, 5, 5, 1, 2, 0, (uint64_t)i); i++)
		;
	ck_assert_int_eq(ibu_xy_detour_mcast_tree(&x.f, &x.t, m, 0, &tr, &e), 0);
	ck_assert_int_eq(tr.root, -1);
	ck_assert_int_eq(tr.num_switches, 0);
	ibu_xy_mcast_tree_free(&tr);
	m[0].node = x.t.ep[0].node;
	m[0].port = x.t.ep[0].port;
	m[0].send_only = 0;
	m[1] = m[0];
	m[1].node = x.f.num_nodes;
	ck_assert_int_eq(ibu_xy_detour_mcast_tree(&x.f, &x.t, m, 2, &tr, &e), IBU_EINVAL);
	ck_assert_ptr_null(tr.switches);
	m[1].node = m[0].node;
	m[1].port = 2;	/* a one-port HCA */
	ck_assert_int_eq(ibu_xy_detour_mcast_tree(&x.f, &x.t, m, 2, &tr, &e), IBU_ETOPO);
	ck_assert_msg(strstr(e.msg, "not cabled to the mesh"), "%s", e.msg);
	ck_assert_ptr_null(tr.switches);
	dfix_down(&x);

	ck_assert_int_eq(dfix_up(&whole, 4, 4, 1, 0, 0, 1), 0);
	ck_assert_ptr_null(whole.t.dmg);
	m[0].node = whole.t.ep[0].node;
	m[0].port = whole.t.ep[0].port;
	ck_assert_int_eq(ibu_xy_detour_mcast_tree(&whole.f, &whole.t, m, 1, &tr, &e),
			 IBU_EINVAL);
	dfix_down(&whole);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("xy_detour_mcast");
	TCase *tc = tcase_create("trees");

	tcase_add_test(tc, groups_deliver_once);
	tcase_add_test(tc, refused);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
