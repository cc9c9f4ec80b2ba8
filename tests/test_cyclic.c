/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "cyclic.h"
#include "gen.h"

struct routed {
	struct ibu_fabric f;
	struct ibu_ibft t;
	struct ibu_lidplan p;
	struct ibu_lft lft;
};

static void route(struct routed *r, int m, int n, int lmc,
		  enum ibu_lid_numbering how, const struct ibu_gen_opts *o)
{
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_gen_fattree(&r->f, m, n, o, &e), 0);
	ck_assert_msg(ibu_ibft_recognize(&r->f, &r->t, &e) == 0, "%s", e.msg);
	ck_assert_msg(ibu_lidplan_assign_paper(&r->f, &r->t, lmc, how, &e) == 0,
		      "%s", e.msg);
	ck_assert_int_eq(ibu_lidplan_build(&r->f, &r->t, &r->p, &e), 0);
	ck_assert_int_eq(ibu_lft_init(&r->lft, &r->f, r->p.map.max_lid, &e), 0);
	ck_assert_msg(ibu_cyclic_route(&r->f, &r->t, &r->p, &r->lft, &e) == 0,
		      "%s", e.msg);
}

static void unroute(struct routed *r)
{
	ibu_lft_free(&r->lft);
	ibu_lidplan_free(&r->p);
	ibu_ibft_free(&r->t);
	ibu_fabric_free(&r->f);
}

static int sw_by_label(const struct routed *r, int level, int a, int b)
{
	uint8_t w[2] = { (uint8_t)a, (uint8_t)b };
	int s = ibu_ibft_find_switch(&r->t, level, w);

	ck_assert_int_ge(s, 0);
	return s;
}

static int pid_of(int p0, int p1, int p2)
{
	return p0 * 4 + p1 * 2 + p2;	/* IBFT(4,3) */
}

/* One hop of a paper path: switch, paper in-port, paper out-port. */
struct hop {
	int level, w0, w1, in, out;
};

/* Walks lid from end port src and compares hop by hop with the paper. */
static void assert_path(const struct routed *r, int src_pid, uint32_t lid,
			const struct hop *path, int hops, int dst_pid)
{
	const struct ibu_ibft_endport *src = &r->t.ep[src_pid];
	const struct ibu_port *pt = &r->f.nodes[src->node].ports[src->port];
	int node = pt->peer_node, in_phys = pt->peer_port, i;

	for (i = 0; i < hops; i++) {
		int s = sw_by_label(r, path[i].level, path[i].w0, path[i].w1);
		uint8_t out;

		ck_assert_int_eq(node, r->t.sw[s].node);
		ck_assert_int_eq(r->t.sw[s].k_of_phys[in_phys], path[i].in);
		out = ibu_lft_get(&r->lft, node, lid);
		ck_assert_int_eq(r->t.sw[s].k_of_phys[out], path[i].out);
		in_phys = r->f.nodes[node].ports[out].peer_port;
		node = r->f.nodes[node].ports[out].peer_node;
	}
	ck_assert_int_eq(node, r->t.ep[dst_pid].node);
	ck_assert_int_eq(in_phys, r->t.ep[dst_pid].port);
}

/* Paper, Fig. 6/7: P(000) reaches P(200), P(201), P(210), P(211) through
 * paths Q, R, S, T by LIDs 33, 37, 41, 45. */
static void worked_example(const struct ibu_gen_opts *o)
{
	static const struct hop common[] = {
		{ 2, 0, 0, 1, 3 }, { 1, 0, 0, 1, 3 }, { 0, 0, 0, 1, 3 },
	};
	struct hop q[5], rr[5], s[5], t[5];
	struct routed r;
	int i;

	route(&r, 4, 3, 2, IBU_LIDS_PAPER_EXACT, o);
	for (i = 0; i < 3; i++)
		q[i] = rr[i] = s[i] = t[i] = common[i];
	q[3] = rr[3] = (struct hop){ 1, 2, 0, 3, 1 };
	q[4] = (struct hop){ 2, 2, 0, 3, 1 };
	rr[4] = (struct hop){ 2, 2, 0, 3, 2 };
	s[3] = t[3] = (struct hop){ 1, 2, 0, 3, 2 };
	s[4] = (struct hop){ 2, 2, 1, 3, 1 };
	t[4] = (struct hop){ 2, 2, 1, 3, 2 };
	ck_assert_uint_eq(ibu_cyclic_offset(&r.t, r.p.offset_digits, 0, 8), 0);
	assert_path(&r, pid_of(0, 0, 0), 33, q, 5, pid_of(2, 0, 0));
	assert_path(&r, pid_of(0, 0, 0), 37, rr, 5, pid_of(2, 0, 1));
	assert_path(&r, pid_of(0, 0, 0), 41, s, 5, pid_of(2, 1, 0));
	assert_path(&r, pid_of(0, 0, 0), 45, t, 5, pid_of(2, 1, 1));
	/* Fig. 5: P(000), P(001), P(010), P(011) use 33, 34, 35, 36 */
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(33 + ibu_cyclic_offset(&r.t, r.p.offset_digits,
							  (uint32_t)i, 8),
				  33 + (unsigned)i);
	/* cyclic groups: CG(P(200),1,0) = {P(210)} uses offset 0, P(211) 1 */
	ck_assert_uint_eq(ibu_cyclic_offset(&r.t, r.p.offset_digits, 10, 8), 0);
	ck_assert_uint_eq(ibu_cyclic_offset(&r.t, r.p.offset_digits, 11, 8), 1);
	ck_assert_uint_eq(ibu_cyclic_offset(&r.t, r.p.offset_digits, 9, 8), 0);
	unroute(&r);
}

START_TEST(paper_paths_qrst)
{
	worked_example(NULL);
}
END_TEST

START_TEST(paper_paths_qrst_shuffled)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = 1000 + (uint64_t)_i };

	worked_example(&o);
}
END_TEST

/*
 * Eq. (1) and (2) with the paper's own LID arithmetic, on every switch and
 * every end-port LID (paper numbering, 2^LMC = (m/2)^(n-1)).
 */
static void assert_equations(int m, int n, int lmc, const struct ibu_gen_opts *o)
{
	struct routed r;
	long h = m / 2, hn1 = 1, lid;
	int s, i;

	for (i = 0; i < n - 1; i++)
		hn1 *= h;
	ck_assert_int_eq(1L << lmc, hn1);
	route(&r, m, n, lmc, IBU_LIDS_PAPER_EXACT, o);
	for (s = 0; s < r.t.num_switches; s++) {
		const struct ibu_ibft_switch *sw = &r.t.sw[s];
		int l = sw->level;

		for (lid = 1; lid <= 2 * hn1 * h * hn1; lid++) {
			long pid = (lid - 1) / hn1, k, div = 1;
			const struct ibu_ibft_endport *ep = &r.t.ep[pid];
			int below = 1;

			for (i = 0; i < l; i++)
				below &= sw->w[i] == ep->p[i];
			if (below) {
				k = ep->p[l] + 1;
			} else {
				for (i = 0; i < (n - 1) - l; i++)
					div *= h;
				k = ((lid - 1) / div) % h + h + 1;
			}
			ck_assert_msg(sw->k_of_phys[ibu_lft_get(&r.lft, sw->node,
								(uint32_t)lid)] == k,
				      "SW level %d lid %ld: want paper port %ld", l,
				      lid, k);
		}
	}
	unroute(&r);
}

START_TEST(equations_ibft43)
{
	assert_equations(4, 3, 2, NULL);
}
END_TEST

START_TEST(equations_ibft83_shuffled)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = 77 };

	assert_equations(8, 3, 4, &o);
}
END_TEST

START_TEST(equations_ibft44)
{
	assert_equations(4, 4, 3, NULL);
}
END_TEST

/*
 * Walks every end port to every LID: the owner is reached, end ports in
 * exactly 2 (n-1-lca) + 1 switches, switches without loops; and, with a
 * full LMC set, a source's climbs share one up-port per switch.
 */
static void assert_all_routes(struct routed *r)
{
	const struct ibu_fabric *f = &r->f;
	int S = r->t.num_switches, src;
	uint32_t lid;
	int *upk = malloc(S * sizeof(int));

	ck_assert_ptr_nonnull(upk);
	for (src = 0; src < r->t.num_endports; src++) {
		const struct ibu_ibft_endport *ep = &r->t.ep[src];
		int dst;

		for (lid = 1; lid <= r->p.map.max_lid; lid++) {
			const struct ibu_lid_owner *o = &r->p.map.owner[lid];
			const struct ibu_port *pt = &f->nodes[ep->node].ports[ep->port];
			int node = pt->peer_node, hops = 0, dpid;

			if (o->node < 0)
				continue;
			while (node != o->node && ibu_node_is_switch(&f->nodes[node]) &&
			       hops <= S) {
				uint8_t out = ibu_lft_get(&r->lft, node, lid);

				ck_assert_int_ne(out, IBU_NO_PATH);
				ck_assert_int_ge(f->nodes[node].ports[out].peer_node, 0);
				node = f->nodes[node].ports[out].peer_node;
				hops++;
			}
			ck_assert_msg(node == o->node, "src %d lid %u lost", src, lid);
			if (ibu_node_is_switch(&f->nodes[o->node]))
				continue;
			dpid = ibu_ibft_ep(&r->t, o->node, o->port);
			ck_assert_int_eq(hops, 2 * (r->t.n - 1 -
				ibu_ibft_lca_level(&r->t, src, dpid)) + 1);
		}
		/* the union of this source's cyclic routes climbs as a tree */
		memset(upk, 0, S * sizeof(int));
		for (dst = 0; dst < r->t.num_endports; dst++) {
			const struct ibu_port *dp =
				&f->nodes[r->t.ep[dst].node].ports[r->t.ep[dst].port];
			unsigned off = ibu_cyclic_offset(&r->t, r->p.offset_digits,
							 (uint32_t)src, (uint32_t)dst);
			int node = f->nodes[ep->node].ports[ep->port].peer_node;

			if (off >= (1u << dp->lmc))
				continue;
			lid = dp->lid + off;
			while (ibu_node_is_switch(&f->nodes[node])) {
				int s = ibu_ibft_sw(&r->t, node);
				uint8_t out = ibu_lft_get(&r->lft, node, lid);
				int k = r->t.sw[s].k_of_phys[out];

				/* a source's climb is its own only when every
				 * up-digit comes from the LID offset */
				if (k > r->t.half && r->t.sw[s].level > 0 &&
				    r->p.offset_digits == r->t.n - 1) {
					ck_assert(upk[s] == 0 || upk[s] == k);
					upk[s] = k;
				}
				node = f->nodes[node].ports[out].peer_node;
			}
		}
	}
	free(upk);
}

START_TEST(all_routes_paper_lmc)
{
	static const int cfg[][3] = { { 4, 3, 2 }, { 8, 3, 4 }, { 6, 2, 2 },
				      { 6, 3, 4 }, { 4, 4, 3 }, { 8, 2, 2 } };
	struct ibu_gen_opts o = { .shuffle_ports = 1, .seed = 3 };
	struct routed r;

	route(&r, cfg[_i][0], cfg[_i][1], cfg[_i][2], IBU_LIDS_ALIGNED, &o);
	assert_all_routes(&r);
	unroute(&r);
}
END_TEST

/* LMC smaller than the paper needs: the missing digits come from the
 * destination; routes stay minimal and loop-free. */
START_TEST(all_routes_small_lmc)
{
	static const int cfg[][3] = { { 8, 3, 2 }, { 8, 3, 0 }, { 4, 3, 1 },
				      { 6, 3, 1 }, { 4, 4, 0 } };
	struct routed r;

	route(&r, cfg[_i][0], cfg[_i][1], cfg[_i][2], IBU_LIDS_ALIGNED, NULL);
	ck_assert_int_lt(r.p.offset_digits, r.t.n - 1);
	assert_all_routes(&r);
	unroute(&r);
}
END_TEST

/* IBFT(6,2): (m/2)^(n-1) = 3 needs LMC 2; offset 3 follows digit 0 of 3
 * in base 3, i.e. the same up-port as offset 0. */
START_TEST(non_power_of_two)
{
	struct routed r;
	int s;

	route(&r, 6, 2, 2, IBU_LIDS_PAPER_EXACT, NULL);
	ck_assert_int_eq(r.p.lmc_needed, 2);
	ck_assert_int_eq(r.p.offset_digits, 1);
	for (s = 0; s < r.t.num_switches; s++) {
		int node = r.t.sw[s].node;
		uint32_t base = ibu_lidplan_paper_base(17, 2, IBU_LIDS_PAPER_EXACT);
		unsigned o;

		if (r.t.sw[s].level == 0 || ibu_ibft_below(&r.t, s, 17))
			continue;
		for (o = 0; o < 3; o++)
			ck_assert_int_eq(r.t.sw[s].k_of_phys[ibu_lft_get(&r.lft, node, base + o)],
					 3 + 1 + (int)o);
		ck_assert_int_eq(ibu_lft_get(&r.lft, node, base + 3),
				 ibu_lft_get(&r.lft, node, base));
	}
	unroute(&r);
}
END_TEST

START_TEST(switch_own_lid_port0)
{
	struct routed r;
	int s;

	route(&r, 8, 3, 4, IBU_LIDS_ALIGNED, NULL);
	for (s = 0; s < r.t.num_switches; s++) {
		int node = r.t.sw[s].node;

		ck_assert_int_eq(ibu_lft_get(&r.lft, node,
					     r.f.nodes[node].ports[0].lid), 0);
	}
	unroute(&r);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("cyclic");
	TCase *tc = tcase_create("paper");
	TCase *tg = tcase_create("general");

	tcase_add_test(tc, paper_paths_qrst);
	tcase_add_loop_test(tc, paper_paths_qrst_shuffled, 0, 4);
	tcase_add_test(tc, equations_ibft43);
	tcase_add_test(tc, equations_ibft83_shuffled);
	tcase_add_test(tc, equations_ibft44);
	tcase_add_test(tc, non_power_of_two);
	tcase_set_timeout(tg, 120);
	tcase_add_loop_test(tg, all_routes_paper_lmc, 0, 6);
	tcase_add_loop_test(tg, all_routes_small_lmc, 0, 5);
	tcase_add_test(tg, switch_own_lid_port0);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, tg);
	return s;
}

IBU_UNIT_MAIN
