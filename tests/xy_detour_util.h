/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* A damaged mesh generated, recognised, planned and routed, and the
 * plan's all-to-all busiest channel, shared by the damaged-mesh unit
 * tests (test_xy_detour, test_xy_rebalance). */
#ifndef IBU_TEST_XY_DETOUR_UTIL_H
#define IBU_TEST_XY_DETOUR_UTIL_H

#include "mesh_util.h"
#include "lidmap.h"
#include "lft.h"
#include "mft.h"
#include "mcmembers.h"
#include "mesh_faults.h"
#include "xy.h"
#include "xy_detour.h"

struct dfix {
	struct ibu_fabric f;
	struct ibu_mesh t;
	struct ibu_lidmap map;
	struct ibu_lft lft;
	struct ibu_mft mft;
	struct ibu_mcmembers mm;
};

/* An X x Y mesh, shuffled, minus cuts cables and sws switches; 0 when the
 * damage left it recognised and routed, -1 when it cut the graph apart
 * (the reason must say so). */
static inline int dfix_up(struct dfix *x, int X, int Y, int hcas, int cuts,
			  int sws, uint64_t seed)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .remove_links = cuts,
				  .remove_switches = sws, .seed = seed };
	struct ibu_err e = { 0 };
	int rc;

	memset(x, 0, sizeof(*x));
	ck_assert_msg(ibu_gen_mesh(&x->f, X, Y, hcas, &o, &e) == 0, "%s", e.msg);
	rc = ibu_mesh_recognize_damaged(&x->f, &x->t, -1, &e);
	if (rc) {
		ck_assert_msg(strstr(e.msg, "not connected"), "%dx%d cuts %d switches %d seed %llu: %s",
			      X, Y, cuts, sws, (unsigned long long)seed, e.msg);
		ibu_fabric_free(&x->f);
		return -1;
	}
	ck_assert_msg(ibu_xy_detour_plan(&x->t, 15, &e) == 0 || !x->t.dmg,
		      "%s", e.msg);
	ck_assert_int_eq(ibu_xy_assign_lids(&x->f, &x->t, 0, 0, &e), 0);
	ck_assert_int_eq(ibu_lidmap_build(&x->f, &x->map, &e), 0);
	ck_assert_int_eq(ibu_lft_init(&x->lft, &x->f, x->map.max_lid, &e), 0);
	if (x->t.dmg)
		ck_assert_msg(ibu_xy_route(&x->f, &x->t, &x->map, &x->lft, &e) == 0,
			      "%s", e.msg);
	else
		ck_assert_int_eq(ibu_xy_route(&x->f, &x->t, &x->map, &x->lft, &e), 0);
	ck_assert_int_eq(ibu_mft_init(&x->mft, x->f.num_nodes, &e), 0);
	ibu_mcmembers_init(&x->mm);
	return 0;
}

static inline void dfix_down(struct dfix *x)
{
	ibu_mcmembers_free(&x->mm);
	ibu_mft_free(&x->mft);
	ibu_lft_free(&x->lft);
	ibu_lidmap_free(&x->map);
	ibu_mesh_free(&x->t);
	ibu_fabric_free(&x->f);
}

/* The busiest switch-to-switch channel of the all-to-all among the end
 * ports, walked on the plan's next hops. */
static inline long busiest_channel(const struct ibu_mesh *t)
{
	int S = t->num_switches, s, d, k, u;
	long *load = calloc(4 * (size_t)S, sizeof(long)), max = 0;

	ck_assert_ptr_nonnull(load);
	for (s = 0; s < S; s++)
		for (d = 0; d < S; d++) {
			long w = (long)t->sw[s].num_eps * t->sw[d].num_eps;

			if (s == d || !w || t->dmg->dir[s * S + d] < 0)
				continue;
			for (u = s; u != d;) {
				k = t->dmg->dir[u * S + d];
				ck_assert(k >= 0 && k < IBU_DIRS);
				load[u * 4 + k] += w;
				u = ibu_mesh_neighbour(t, u, k);
			}
		}
	for (k = 0; k < 4 * S; k++)
		if (load[k] > max)
			max = load[k];
	free(load);
	return max;
}

/* A damaged mesh and the most its all-to-all's busiest channel may carry
 * (within 2 SL layers). */
struct busiest_case {
	int X, Y, hcas, cuts, sws;
	uint64_t seed;
	long limit;
};

static inline void assert_busiest_cases(const struct busiest_case *c, int n)
{
	struct dfix x;
	int i;

	for (i = 0; i < n; i++) {
		if (dfix_up(&x, c[i].X, c[i].Y, c[i].hcas, c[i].cuts, c[i].sws,
			    c[i].seed))
			continue;
		ck_assert_ptr_nonnull(x.t.dmg);
		ck_assert_int_le(x.t.dmg->num_layers, 2);
		ck_assert_int_le(busiest_channel(&x.t), c[i].limit);
		dfix_down(&x);
	}
}

#endif
