/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Switch LIDs (lib/fattree/pgft_plain.c: twin switches share their
 * searches and replay each other's LIDs): every switch reaches every
 * switch's LID on a shortest path, up*|down* where the two have a common
 * ancestor, a switch's own LID at port 0; on IBFTs against the paper's
 * labels, on PGFTs (parallel cables, blocking, fewer pods) against a
 * search of the graph; ties spread over the LIDs.
 */
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "cyclic_util.h"
#include "pgft_util.h"
#include "gen.h"

START_TEST(switch_own_lid_port0)
{
	struct ibft_routed r;
	int s;

	ibft_route(&r, 8, 3, 4, LIDS_ALIGNED, NULL);
	for (s = 0; s < r.t.num_switches; s++) {
		int node = r.t.sw[s].node;

		ck_assert_int_eq(ibu_lft_get(&r.lft, node,
					     r.f.nodes[node].ports[0].lid), 0);
	}
	ibft_unroute(&r);
}
END_TEST

/* ---- switch LIDs: the router's ways against a search of the graph ---- */

static int sw_neighbour(const struct ibft_routed *r, int s, int k)
{
	const struct ibft_view_switch *sw = &r->t.sw[s];
	int peer = r->f.nodes[sw->node].ports[sw->phys_of_k[k]].peer_node;

	return peer < 0 ? -1 : r->t.sw_of_node[peer];
}

/* hop distances between all switches; anc[a * S + b]: b is a or above a */
static void sw_graph(const struct ibft_routed *r, int *dist, char *anc)
{
	int S = r->t.num_switches, m = r->t.m, h = r->t.half, s, k;
	int *q = malloc(S * sizeof(int));

	ck_assert_ptr_nonnull(q);
	for (s = 0; s < S; s++) {
		int head = 0, tail = 0, *ds = dist + (size_t)s * S;
		char *as = anc + (size_t)s * S;

		for (k = 0; k < S; k++)
			ds[k] = -1;
		memset(as, 0, S);
		ds[s] = 0;
		q[tail++] = s;
		while (head < tail) {
			int x = q[head++];

			for (k = 1; k <= m; k++) {
				int y = sw_neighbour(r, x, k);

				if (y >= 0 && ds[y] < 0) {
					ds[y] = ds[x] + 1;
					q[tail++] = y;
				}
			}
		}
		head = tail = 0;
		as[s] = 1;
		q[tail++] = s;
		while (head < tail) {
			int x = q[head++];

			for (k = h + 1; k <= m && r->t.sw[x].level > 0; k++) {
				int y = sw_neighbour(r, x, k);

				if (y >= 0 && !as[y]) {
					as[y] = 1;
					q[tail++] = y;
				}
			}
		}
	}
	free(q);
}

/* Every switch to every switch LID: shortest, and up/down when the pair
 * has a common ancestor; checked on the LFT the router wrote. */
static void assert_switch_routes(const struct ibft_routed *r, long *no_updown)
{
	int S = r->t.num_switches, s, d, x;
	int *dist = malloc((size_t)S * S * sizeof(int));
	char *anc = malloc((size_t)S * S);

	ck_assert_ptr_nonnull(dist);
	ck_assert_ptr_nonnull(anc);
	sw_graph(r, dist, anc);
	for (d = 0; d < S; d++) {
		uint32_t lid = r->f.nodes[r->t.sw[d].node].ports[0].lid;

		for (s = 0; s < S; s++) {
			int hops = 0, ud = 0, went_down = 0, turned = 0;

			for (x = 0; x < S && !ud; x++)
				ud = anc[(size_t)s * S + x] && anc[(size_t)d * S + x];
			if (!ud)
				(*no_updown)++;
			x = s;
			while (x != d && hops <= S) {
				int node = r->t.sw[x].node, k, y;
				uint8_t out = ibu_lft_get(&r->lft, node, lid);

				ck_assert_int_ne(out, IBU_NO_PATH);
				ck_assert_int_ne(out, 0);
				k = r->t.sw[x].k_of_phys[out];
				y = sw_neighbour(r, x, k);
				ck_assert_int_ge(y, 0);
				ck_assert_int_eq(dist[(size_t)y * S + d],
						 dist[(size_t)x * S + d] - 1);
				if (r->t.sw[y].level > r->t.sw[x].level)
					went_down = 1;
				else if (went_down)
					turned = 1;
				x = y;
				hops++;
			}
			ck_assert_int_eq(x, d);
			ck_assert_int_eq(hops, dist[(size_t)s * S + d]);
			if (ud)
				ck_assert_msg(!turned, "switch %d -> %d turns up after down", s, d);
			ck_assert_int_eq(ibu_lft_get(&r->lft, r->t.sw[d].node, lid), 0);
		}
	}
	free(dist);
	free(anc);
}

/* IBFT(4,3): SW<00,1> and SW<11,1> have no up/down path; the documented
 * rule goes down first (equal levels): leaf SW<01,2>... */
START_TEST(switch_lids_closed_form)
{
	static const int cfg[][3] = { { 4, 3, 0 }, { 8, 3, 1 }, { 4, 4, 0 },
				      { 6, 3, 0 }, { 4, 5, 0 }, { 6, 2, 1 },
				      { 8, 2, 0 }, { 6, 4, 0 } };
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = 11 + (uint64_t)_i };
	struct ibft_routed r;
	long no_updown = 0;

	ibft_route(&r, cfg[_i][0], cfg[_i][1], cfg[_i][2], LIDS_ALIGNED, &o);
	assert_switch_routes(&r, &no_updown);
	if (cfg[_i][1] >= 3)
		ck_assert_int_gt(no_updown, 0);	/* the rule is exercised */
	ibft_unroute(&r);
}
END_TEST


static const struct {
	const char *m, *w, *p;
} shapes[] = {
	{ "8,12", "1,4", "1,2" },		/* parallel cables */
	{ "4,2,3", "1,2,2", "1,2,2" },		/* parallel, 3 levels */
	{ "4,4,3", "1,2,2", "1,1,1" },		/* blocking, 3 of 4 pods */
	{ "6,4", "1,3", "1,1" },		/* blocking 6:3 */
};

#define NUM_SHAPES ((int)(sizeof(shapes) / sizeof(shapes[0])))

/* Switch-to-switch hops from t (-1: none) into d, by a search of f. */
static void bfs(const struct fixture *x, int t, int *d, int *q)
{
	const struct ibu_fabric *f = &x->f;
	int head = 0, tail = 0, n, p, y;

	for (n = 0; n < f->num_nodes; n++)
		d[n] = -1;
	d[t] = 0;
	q[tail++] = t;
	while (head < tail) {
		n = q[head++];
		for (p = 1; p <= f->nodes[n].num_ports; p++) {
			y = f->nodes[n].ports[p].peer_node;
			if (y >= 0 && ibu_node_is_switch(&f->nodes[y]) && d[y] < 0) {
				d[y] = d[n] + 1;
				q[tail++] = y;
			}
		}
	}
}

/* 1 when switches a and b have a common ancestor (or one is the other's):
 * their climbs meet. */
static int common_ancestor(const struct fixture *x, int a, int b, char *ua,
			   char *ub)
{
	const struct ibu_fabric *f = &x->f;
	int n, p, l, q;

	memset(ua, 0, (size_t)f->num_nodes);
	memset(ub, 0, (size_t)f->num_nodes);
	ua[a] = ub[b] = 1;
	for (l = 1; l < x->g.P.h; l++)
		for (n = 0; n < f->num_nodes; n++)
			for (p = 1; x->g.level[n] == l && p <= f->nodes[n].num_ports; p++) {
				q = f->nodes[n].ports[p].peer_node;
				if (q < 0 || x->g.level[q] != l + 1)
					continue;
				ua[q] |= ua[n];
				ub[q] |= ub[n];
			}
	for (n = 0; n < f->num_nodes; n++)
		if (ua[n] && ub[n])
			return 1;
	return 0;
}

/*
 * Shuffled PGFTs: every switch's walk to every switch's LID takes as many
 * hops as the graph's search says, turns down-up only where the two have
 * no common ancestor, ends at port 0; a leaf's ways to the other leaves
 * (ties among its parents) leave by more than one port.
 */
START_TEST(pgft_switch_lids_shortest)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = 41 + (uint64_t)_i };
	struct ibu_pgft_params P;
	struct ibu_err e = { 0 };
	struct fixture x;
	int N, *d, *q, s, t, n, hops, down, turned, leaf = -1, first = 0;
	int spread = 0;
	char *ua, *ub;

	memset(&x, 0, sizeof(x));
	ck_assert_int_eq(ibu_pgft_params_parse(shapes[_i].m, shapes[_i].w,
					       shapes[_i].p, &P, &e), 0);
	ck_assert_int_eq(ibu_gen_pgft(&x.f, &P, 0, 0, &o, &e), 0);
	ck_assert_msg(ibu_pgft_recognize(&x.f, &x.g, &e) == 0, "%s", e.msg);
	pgft_lids_and_route(&x);
	N = x.f.num_nodes;
	d = malloc((size_t)N * sizeof(int));
	q = malloc((size_t)N * sizeof(int));
	ua = malloc((size_t)N);
	ub = malloc((size_t)N);
	ck_assert(d && q && ua && ub);
	leaf = x.g.host[0].leaf;
	for (t = 0; t < N; t++) {
		uint32_t lid = x.f.nodes[t].ports[0].lid;

		if (x.g.level[t] < 1)
			continue;
		bfs(&x, t, d, q);
		for (s = 0; s < N; s++) {
			if (x.g.level[s] < 1)
				continue;
			for (n = s, hops = 0, down = 0, turned = 0;
			     n != t && hops <= N; hops++) {
				int p = ibu_lft_get(&x.lft, n, lid), y;

				ck_assert_int_ne(p, IBU_NO_PATH);
				ck_assert_int_ne(p, 0);
				y = x.f.nodes[n].ports[p].peer_node;
				ck_assert_int_eq(d[y], d[n] - 1);
				if (x.g.level[y] < x.g.level[n])
					down = 1;
				else if (down)
					turned = 1;
				n = y;
			}
			ck_assert_int_eq(hops, d[s]);
			ck_assert_int_eq(ibu_lft_get(&x.lft, t, lid), 0);
			if (common_ancestor(&x, s, t, ua, ub))
				ck_assert_msg(!turned, "'%s' -> '%s' turns",
					      x.f.nodes[s].name, x.f.nodes[t].name);
		}
		if (x.g.level[t] == 1 && t != leaf) {
			int p = ibu_lft_get(&x.lft, leaf, lid);

			if (!first)
				first = p;
			spread |= p != first;
		}
	}
	ck_assert_int_eq(spread, 1);
	free(d);
	free(q);
	free(ua);
	free(ub);
	pgft_fixture_free(&x);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pgft_plain");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, switch_own_lid_port0);
	tcase_add_loop_test(tc, switch_lids_closed_form, 0, 8);
	tcase_add_loop_test(tc, pgft_switch_lids_shortest, 0, NUM_SHAPES);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
