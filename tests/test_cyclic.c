/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "cyclic_util.h"
#include "gen.h"
#include "engine.h"
#include "engine_options.h"

static int sw_by_label(const struct ibft_routed *r, int level, int a, int b)
{
	uint8_t w[2] = { (uint8_t)a, (uint8_t)b };
	int s = ibft_view_find_switch(&r->t, level, w);

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
static void assert_path(const struct ibft_routed *r, int src_pid, uint32_t lid,
			const struct hop *path, int hops, int dst_pid)
{
	const struct ibft_view_endport *src = &r->t.ep[src_pid];
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
	struct ibft_routed r;
	int i;

	ibft_route(&r, 4, 3, 2, LIDS_PAPER_EXACT, o);
	for (i = 0; i < 3; i++)
		q[i] = rr[i] = s[i] = t[i] = common[i];
	q[3] = rr[3] = (struct hop){ 1, 2, 0, 3, 1 };
	q[4] = (struct hop){ 2, 2, 0, 3, 1 };
	rr[4] = (struct hop){ 2, 2, 0, 3, 2 };
	s[3] = t[3] = (struct hop){ 1, 2, 0, 3, 2 };
	s[4] = (struct hop){ 2, 2, 1, 3, 1 };
	t[4] = (struct hop){ 2, 2, 1, 3, 2 };
	ck_assert_uint_eq(cyclic_offset(&r.t, r.p.offset_digits, r.mode,
					    0, 8), 0);
	assert_path(&r, pid_of(0, 0, 0), 33, q, 5, pid_of(2, 0, 0));
	assert_path(&r, pid_of(0, 0, 0), 37, rr, 5, pid_of(2, 0, 1));
	assert_path(&r, pid_of(0, 0, 0), 41, s, 5, pid_of(2, 1, 0));
	assert_path(&r, pid_of(0, 0, 0), 45, t, 5, pid_of(2, 1, 1));
	/* Fig. 5: P(000), P(001), P(010), P(011) use 33, 34, 35, 36 */
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(33 + cyclic_offset(&r.t, r.p.offset_digits,
							  r.mode, (uint32_t)i, 8),
				  33 + (unsigned)i);
	/* cyclic groups: CG(P(200),1,0) = {P(210)} uses offset 0, P(211) 1 */
	ck_assert_uint_eq(cyclic_offset(&r.t, r.p.offset_digits, r.mode,
					    10, 8), 0);
	ck_assert_uint_eq(cyclic_offset(&r.t, r.p.offset_digits, r.mode,
					    11, 8), 1);
	ck_assert_uint_eq(cyclic_offset(&r.t, r.p.offset_digits, r.mode,
					    9, 8), 0);
	ibft_unroute(&r);
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
	struct ibft_routed r;
	long h = m / 2, hn1 = 1, lid;
	int s, i;

	for (i = 0; i < n - 1; i++)
		hn1 *= h;
	ck_assert_int_eq(1L << lmc, hn1);
	ibft_route(&r, m, n, lmc, LIDS_PAPER_EXACT, o);
	for (s = 0; s < r.t.num_switches; s++) {
		const struct ibft_view_switch *sw = &r.t.sw[s];
		int l = sw->level;

		for (lid = 1; lid <= 2 * hn1 * h * hn1; lid++) {
			long pid = (lid - 1) / hn1, k, div = 1;
			const struct ibft_view_endport *ep = &r.t.ep[pid];
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
	ibft_unroute(&r);
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
static void assert_all_routes(struct ibft_routed *r)
{
	const struct ibu_fabric *f = &r->f;
	int S = r->t.num_switches, src;
	uint32_t lid;
	int *upk = malloc(S * sizeof(int));
	long *inl = malloc(S * sizeof(long));

	ck_assert_ptr_nonnull(upk);
	ck_assert_ptr_nonnull(inl);
	for (src = 0; src < r->t.num_endports; src++) {
		const struct ibft_view_endport *ep = &r->t.ep[src];
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
			dpid = ibft_view_ep(&r->t, o->node, o->port);
			ck_assert_int_eq(hops, 2 * (r->t.n - 1 -
				ibft_view_lca_level(&r->t, src, dpid)) + 1);
		}
		/* with its cyclic DLIDs a source climbs one chain (at the
		 * levels the offset decides) and, with every up-digit from
		 * the offset, its routes form a tree: each switch is entered
		 * through one link */
		memset(upk, 0, S * sizeof(int));
		memset(inl, 0, S * sizeof(long));
		for (dst = 0; dst < r->t.num_endports; dst++) {
			const struct ibu_port *dp =
				&f->nodes[r->t.ep[dst].node].ports[r->t.ep[dst].port];
			unsigned off = cyclic_offset(&r->t, r->p.offset_digits,
							 r->mode, (uint32_t)src,
							 (uint32_t)dst);
			int node = f->nodes[ep->node].ports[ep->port].peer_node;
			long from = 0;

			if (dst == src)
				continue;
			ck_assert_uint_lt(off, 1u << dp->lmc);
			lid = dp->lid + off;
			while (ibu_node_is_switch(&f->nodes[node])) {
				int s = ibft_view_sw(&r->t, node);
				uint8_t out = ibu_lft_get(&r->lft, node, lid);
				int k = r->t.sw[s].k_of_phys[out];
				int l = r->t.sw[s].level;

				if (k > r->t.half && l > 0 &&
				    r->t.n - 1 - l < r->p.offset_digits) {
					ck_assert_msg(upk[s] == 0 || upk[s] == k,
						      "src %d climbs two ways at level %d",
						      src, l);
					upk[s] = k;
				}
				if (r->p.offset_digits == r->t.n - 1 && from) {
					ck_assert_msg(inl[s] == 0 || inl[s] == from,
						      "src %d enters switch %d twice",
						      src, s);
					inl[s] = from;
				}
				from = (long)node * 256 + out + 1;
				node = f->nodes[node].ports[out].peer_node;
			}
			ck_assert_int_eq(node, r->t.ep[dst].node);
		}
	}
	free(upk);
	free(inl);
}

START_TEST(all_routes_paper_lmc)
{
	static const int cfg[][3] = { { 4, 3, 2 }, { 8, 3, 4 }, { 6, 2, 2 },
				      { 6, 3, 4 }, { 4, 4, 3 }, { 8, 2, 2 } };
	struct ibu_gen_opts o = { .shuffle_ports = 1, .seed = 3 };
	struct ibft_routed r;

	ibft_route_mode(&r, cfg[_i / 2][0], cfg[_i / 2][1], cfg[_i / 2][2],
		   LIDS_ALIGNED, &o, (enum ibu_cyclic_offsets)(_i % 2));
	assert_all_routes(&r);
	ibft_unroute(&r);
}
END_TEST

/* LMC smaller than the paper needs: the missing digits come from the
 * destination; routes stay minimal and loop-free. */
START_TEST(all_routes_small_lmc)
{
	static const int cfg[][3] = { { 8, 3, 2 }, { 8, 3, 0 }, { 4, 3, 1 },
				      { 6, 3, 1 }, { 4, 4, 0 } };
	struct ibft_routed r;

	ibft_route_mode(&r, cfg[_i / 2][0], cfg[_i / 2][1], cfg[_i / 2][2],
		   LIDS_ALIGNED, NULL, (enum ibu_cyclic_offsets)(_i % 2));
	ck_assert_int_lt(r.p.offset_digits, r.t.n - 1);
	assert_all_routes(&r);
	ibft_unroute(&r);
}
END_TEST

/* IBFT(6,2): (m/2)^(n-1) = 3 needs LMC 2; offset 3 follows digit 0 of 3
 * in base 3, i.e. the same up-port as offset 0. */
START_TEST(non_power_of_two)
{
	struct ibft_routed r;
	int s;

	ibft_route(&r, 6, 2, 2, LIDS_PAPER_EXACT, NULL);
	ck_assert_int_eq(r.p.lmc_needed, 2);
	ck_assert_int_eq(r.p.offset_digits, 1);
	for (s = 0; s < r.t.num_switches; s++) {
		int node = r.t.sw[s].node;
		uint32_t base = paper_base(17, 2, LIDS_PAPER_EXACT);
		unsigned o;

		if (r.t.sw[s].level == 0 || ibft_view_below(&r.t, s, 17))
			continue;
		for (o = 0; o < 3; o++)
			ck_assert_int_eq(r.t.sw[s].k_of_phys[ibu_lft_get(&r.lft, node, base + o)],
					 3 + 1 + (int)o);
		ck_assert_int_eq(ibu_lft_get(&r.lft, node, base + 3),
				 ibu_lft_get(&r.lft, node, base));
	}
	ibft_unroute(&r);
}
END_TEST

/* ------------------------------------------------ destination-rotated */

/* k^e */
static long ipow(long k, int e)
{
	long v = 1;

	while (e-- > 0)
		v *= k;
	return v;
}

/*
 * Rotated Eq. (2), recomputed here from the definition: at a switch of
 * level l not above D, paper port k + 1 + ((digit_j(o) + p_l) mod k) for
 * j = n-1-l < d, else k + 1 + p_l; every entry of every switch.
 */
START_TEST(rotated_equations)
{
	static const int cfg[][4] = {
		{ 4, 3, 2, 0 }, { 8, 3, 4, 1 }, { 6, 3, 4, 1 }, { 4, 4, 3, 0 },
		{ 6, 3, 1, 0 }, { 8, 3, 2, 1 }, { 4, 3, 7, 1 }, { 6, 2, 5, 0 },
	};
	struct ibu_gen_opts o = { .shuffle_ports = cfg[_i][3],
				  .shuffle_records = cfg[_i][3], .seed = 11 };
	struct ibft_routed r;
	uint32_t lid;
	int s;

	ibft_route_mode(&r, cfg[_i][0], cfg[_i][1], cfg[_i][2], LIDS_ALIGNED,
		   &o, IBU_OFFSETS_ROTATED);
	for (lid = 1; lid <= r.p.map.max_lid; lid++) {
		const struct ibu_lid_owner *ow = &r.p.map.owner[lid];
		int pid;

		if (ow->node < 0 || ibu_node_is_switch(&r.f.nodes[ow->node]))
			continue;
		pid = ibft_view_ep(&r.t, ow->node, ow->port);
		for (s = 0; s < r.t.num_switches; s++) {
			const struct ibft_view_switch *sw = &r.t.sw[s];
			int l = sw->level, j = r.t.n - 1 - l, k;
			const uint8_t *p = r.t.ep[pid].p;

			if (l == 0 || ibft_view_below(&r.t, s, pid))
				k = p[l] + 1;
			else if (j < r.p.offset_digits)
				k = r.t.half + 1 + (int)(((ow->offset /
					ipow(r.t.half, j)) % r.t.half + p[l]) %
							    r.t.half);
			else
				k = r.t.half + 1 + p[l];
			ck_assert_int_eq(sw->k_of_phys[ibu_lft_get(&r.lft, sw->node,
								   lid)], k);
		}
	}
	ibft_unroute(&r);
}
END_TEST

/* Flows per directed link, following the LFTs. */
struct loads {
	long *first;	/* [node] first slot */
	long *cnt;	/* [first[node] + port] */
	long slots;
};

static void loads_init(struct loads *L, const struct ibu_fabric *f)
{
	int i;

	L->first = malloc(f->num_nodes * sizeof(long));
	ck_assert_ptr_nonnull(L->first);
	L->slots = 0;
	for (i = 0; i < f->num_nodes; i++) {
		L->first[i] = L->slots;
		L->slots += f->nodes[i].num_ports + 1;
	}
	L->cnt = calloc(L->slots, sizeof(long));
	ck_assert_ptr_nonnull(L->cnt);
}

static void loads_clear(struct loads *L)
{
	memset(L->cnt, 0, L->slots * sizeof(long));
}

static long loads_max(const struct loads *L)
{
	long i, mx = 0;

	for (i = 0; i < L->slots; i++)
		if (L->cnt[i] > mx)
			mx = L->cnt[i];
	return mx;
}

static void loads_free(struct loads *L)
{
	free(L->first);
	free(L->cnt);
}

/* One flow from end port src to lid: +1 on every link it leaves by. */
static void add_flow(const struct ibft_routed *r, struct loads *L, int src,
		     uint32_t lid)
{
	const struct ibft_view_endport *ep = &r->t.ep[src];
	int node = r->f.nodes[ep->node].ports[ep->port].peer_node, hops = 0;

	L->cnt[L->first[ep->node] + ep->port]++;
	while (ibu_node_is_switch(&r->f.nodes[node])) {
		uint8_t out = ibu_lft_get(&r->lft, node, lid);

		ck_assert_int_ne(out, IBU_NO_PATH);
		ck_assert_int_lt(hops++, 2 * r->t.n);
		L->cnt[L->first[node] + out]++;
		node = r->f.nodes[node].ports[out].peer_node;
	}
}

static uint32_t base_lid(const struct ibft_routed *r, int pid)
{
	const struct ibft_view_endport *ep = &r->t.ep[pid];

	return r->f.nodes[ep->node].ports[ep->port].lid;
}

/* Busiest link of the all-to-all on base LIDs, and of the worst shift
 * permutation i -> i + c (PID order). */
static void base_loads(const struct ibft_routed *r, long *all, long *shift)
{
	struct loads L;
	int N = r->t.num_endports, a, b, c;

	loads_init(&L, &r->f);
	for (a = 0; a < N; a++)
		for (b = 0; b < N; b++)
			if (a != b)
				add_flow(r, &L, a, base_lid(r, b));
	*all = loads_max(&L);
	*shift = 0;
	for (c = 1; c < N; c++) {
		long mx;

		loads_clear(&L);
		for (a = 0; a < N; a++)
			add_flow(r, &L, a, base_lid(r, (a + c) % N));
		mx = loads_max(&L);
		if (mx > *shift)
			*shift = mx;
	}
	loads_free(&L);
}

/*
 * Rotated offsets: base LIDs spread as D-mod-k. All-to-all on base LIDs
 * loads no link more than the HCA links (2k^n - 1 flows), every shift
 * permutation puts at most one flow on any link; at every LMC.
 */
START_TEST(rotated_base_lids_spread)
{
	static const int cfg[][4] = {
		{ 4, 3, 2, 0 }, { 8, 3, 4, 1 }, { 6, 3, 4, 1 }, { 4, 4, 3, 0 },
		{ 8, 3, 0, 1 }, { 8, 3, 2, 0 }, { 6, 3, 1, 1 }, { 4, 3, 7, 1 },
		{ 6, 3, 7, 0 }, { 4, 4, 1, 1 }, { 8, 3, 6, 0 }, { 6, 2, 3, 1 },
	};
	struct ibu_gen_opts o = { .shuffle_ports = cfg[_i][3],
				  .shuffle_records = cfg[_i][3], .seed = 5 };
	struct ibft_routed r;
	long all, shift;

	ibft_route_mode(&r, cfg[_i][0], cfg[_i][1], cfg[_i][2], LIDS_ALIGNED,
		   &o, IBU_OFFSETS_ROTATED);
	base_loads(&r, &all, &shift);
	printf("# IBFT(%d,%d) lmc %d rotated: base-LID all-to-all busiest link %ld (HCA bound %d), worst shift %ld\n",
	       r.t.m, r.t.n, r.p.lmc, all, r.t.num_endports - 1, shift);
	ck_assert_int_eq(all, r.t.num_endports - 1);
	ck_assert_int_eq(shift, 1);
	ibft_unroute(&r);
}
END_TEST

/* The paper's Eq. 2 concentrates base LIDs (why rotated is the default);
 * at LMC 0 both rules are D-mod-k. */
START_TEST(paper_base_lids_concentrate)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .seed = 5 };
	struct ibft_routed r;
	long all, shift;

	ibft_route_mode(&r, 8, 3, 4, LIDS_ALIGNED, &o, IBU_OFFSETS_PAPER);
	base_loads(&r, &all, &shift);
	printf("# IBFT(8,3) lmc 4 paper: base-LID all-to-all busiest link %ld, worst shift %ld\n",
	       all, shift);
	ck_assert_int_eq(all, 1792);	/* all-to-all on IBFT(8,3), measured in ibsim */
	ck_assert_int_eq(shift, 16);
	ibft_unroute(&r);
	ibft_route_mode(&r, 8, 3, 0, LIDS_ALIGNED, &o, IBU_OFFSETS_PAPER);
	base_loads(&r, &all, &shift);
	ck_assert_int_eq(all, 127);
	ck_assert_int_eq(shift, 1);
	ibft_unroute(&r);
}
END_TEST

/* IBFT(6,3) (m/2 = 3, not a power of two) at every LMC 0..7, both rules:
 * every route arrives minimal, cyclic DLIDs climb one chain (a tree with
 * a full set); rotated base LIDs at the HCA bound, shifts at 1. */
START_TEST(every_lmc_ibft63)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = 21 + (uint64_t)_i };
	enum ibu_cyclic_offsets mode = (enum ibu_cyclic_offsets)(_i % 2);
	struct ibft_routed r;
	long all, shift;

	ibft_route_mode(&r, 6, 3, _i / 2, LIDS_ALIGNED, &o, mode);
	ck_assert_int_eq(r.p.lmc, _i / 2);
	ck_assert_int_eq(r.p.offset_digits, _i / 2 >= 4 ? 2 : _i / 2 >= 2);
	assert_all_routes(&r);
	if (mode == IBU_OFFSETS_ROTATED || r.p.offset_digits == 0) {
		base_loads(&r, &all, &shift);
		ck_assert_int_eq(all, r.t.num_endports - 1);
		ck_assert_int_eq(shift, 1);
	}
	ibft_unroute(&r);
}
END_TEST

/* The switch where a route stops climbing, from the LFTs. */
static int walk_turn(const struct ibft_routed *r, int src, uint32_t lid)
{
	const struct ibft_view_endport *ep = &r->t.ep[src];
	int node = r->f.nodes[ep->node].ports[ep->port].peer_node;
	int best = -1;

	while (ibu_node_is_switch(&r->f.nodes[node])) {
		int s = ibft_view_sw(&r->t, node);
		uint8_t out = ibu_lft_get(&r->lft, node, lid);

		if (best < 0 || r->t.sw[s].level < r->t.sw[best].level)
			best = s;
		node = r->f.nodes[node].ports[out].peer_node;
	}
	return best;
}

/*
 * For every pair (S, D), lca level L: the LIDs of D's set reach
 * k^min(d, n-1-L) distinct lca switches (offsets equal mod k^d share
 * one), as cyclic_turn_switch() says; every cyclic group CG(D, L, y)
 * uses one DLID and one turning switch (one descent).
 */
START_TEST(lid_set_distinct_lca_and_groups)
{
	static const int cfg[][5] = {
		/* m, n, lmc, shuffle, mode */
		{ 4, 3, 2, 0, 0 }, { 4, 3, 2, 1, 1 }, { 8, 3, 4, 1, 0 },
		{ 6, 3, 4, 1, 0 }, { 6, 3, 4, 0, 1 }, { 4, 4, 3, 1, 0 },
		{ 8, 3, 2, 0, 0 }, { 6, 3, 7, 1, 0 },
	};
	struct ibu_gen_opts o = { .shuffle_ports = cfg[_i][3],
				  .shuffle_records = cfg[_i][3], .seed = 9 };
	struct ibft_routed r;
	int N, S, a, b;
	char *seen;
	long *grp;
	int *gturn;

	ibft_route_mode(&r, cfg[_i][0], cfg[_i][1], cfg[_i][2], LIDS_ALIGNED,
		   &o, (enum ibu_cyclic_offsets)cfg[_i][4]);
	N = r.t.num_endports;
	S = r.t.num_switches;
	seen = calloc(S, 1);
	grp = malloc(r.t.n * ipow(r.t.half, r.t.n) * sizeof(long));
	gturn = malloc(r.t.n * ipow(r.t.half, r.t.n) * sizeof(int));
	ck_assert_ptr_nonnull(seen);
	ck_assert_ptr_nonnull(grp);
	ck_assert_ptr_nonnull(gturn);
	for (b = 0; b < N; b++) {
		uint32_t base = base_lid(&r, b);

		for (a = 0; a < r.t.n * ipow(r.t.half, r.t.n); a++)
			grp[a] = -1;
		for (a = 0; a < N; a++) {
			int L = ibft_view_lca_level(&r.t, a, b), e, distinct = 0;
			int d = r.p.offset_digits < r.t.n - 1 - L ?
				r.p.offset_digits : r.t.n - 1 - L;
			unsigned off, cnt = 1u << r.p.lmc;
			long y = 0, key;
			int i, turn;

			if (a == b)
				continue;
			memset(seen, 0, S);
			for (off = 0; off < cnt; off++) {
				int ts = walk_turn(&r, a, base + off);

				ck_assert_int_eq(ts, cyclic_turn_switch(&r.t,
					r.p.offset_digits, r.mode, (uint32_t)a,
					(uint32_t)b, off));
				ck_assert_int_eq(r.t.sw[ts].level, L);
				distinct += !seen[ts];
				seen[ts] = 1;
			}
			e = (int)ipow(r.t.half, d);
			ck_assert_int_eq(distinct, e);
			/* CG(D, L, y): y = s(L+1) .. s(n-1) */
			for (i = L + 1; i < r.t.n; i++)
				y = y * r.t.half + r.t.ep[a].p[i];
			key = (long)L * ipow(r.t.half, r.t.n) + y;
			off = cyclic_offset(&r.t, r.p.offset_digits, r.mode,
						(uint32_t)a, (uint32_t)b);
			turn = walk_turn(&r, a, base + off);
			if (grp[key] < 0) {
				grp[key] = off;
				gturn[key] = turn;
			}
			ck_assert_int_eq(grp[key], (long)off);
			ck_assert_int_eq(gturn[key], turn);
		}
	}
	free(seen);
	free(grp);
	free(gturn);
	ibft_unroute(&r);
}
END_TEST

/* The integrator's function on labels alone agrees with the tree's, and
 * the worked example: P(000) -> P(211) uses 45 + 0 (paper), 45 + 3
 * (rotated: digits 0 - 1 mod 2 at both levels). */
START_TEST(label_dlid)
{
	static const uint8_t s000[3] = { 0, 0, 0 }, d211[3] = { 2, 1, 1 };
	struct ibft_routed r;
	int a, b;

	ck_assert_uint_eq(ibu_cyclic_label_dlid(2, 3, 2, IBU_OFFSETS_PAPER,
						s000, d211, 45), 45);
	ck_assert_uint_eq(ibu_cyclic_label_dlid(2, 3, 2, IBU_OFFSETS_ROTATED,
						s000, d211, 45), 48);
	/* same leaf: offset 0 */
	ck_assert_uint_eq(ibu_cyclic_label_dlid(2, 3, 2, IBU_OFFSETS_ROTATED,
						d211, (const uint8_t[]){ 2, 1, 0 },
						41), 41);
	ibft_route_mode(&r, 6, 3, 4, LIDS_ALIGNED, NULL, IBU_OFFSETS_ROTATED);
	for (a = 0; a < r.t.num_endports; a++)
		for (b = 0; b < r.t.num_endports; b++)
			ck_assert_uint_eq(ibu_cyclic_label_dlid(3, 3, 4, r.mode,
					r.t.ep[a].p, r.t.ep[b].p, base_lid(&r, b)),
				base_lid(&r, b) + cyclic_offset(&r.t,
					r.p.offset_digits, r.mode, (uint32_t)a,
					(uint32_t)b));
	ibft_unroute(&r);
}
END_TEST

START_TEST(offsets_names)
{
	enum ibu_cyclic_offsets m = IBU_OFFSETS_PAPER;

	ck_assert_int_eq(ibu_cyclic_offsets_parse("rotated", &m), 0);
	ck_assert_int_eq(m, IBU_OFFSETS_ROTATED);
	ck_assert_int_eq(ibu_cyclic_offsets_parse("paper", &m), 0);
	ck_assert_int_eq(m, IBU_OFFSETS_PAPER);
	ck_assert_int_eq(ibu_cyclic_offsets_parse("Paper", &m), -1);
	ck_assert_int_eq(ibu_cyclic_offsets_parse("", &m), -1);
	ck_assert_int_eq(ibu_cyclic_offsets_parse(NULL, &m), -1);
	ck_assert_str_eq(ibu_cyclic_offsets_name(IBU_OFFSETS_ROTATED), "rotated");
	ck_assert_str_eq(ibu_cyclic_offsets_name(IBU_OFFSETS_PAPER), "paper");
}
END_TEST

/* ---- offsets=paper through the engine: the PGFT router with Eq. 2 ---- */

/* The engine's tables (offsets mode) for r's fabric and LIDs. */
static void engine_tables(const struct ibft_routed *r, enum ibu_cyclic_offsets mode,
			  struct ibu_engine_result *res)
{
	const struct ibu_engine_ops *ops = ibu_engine_find("cyclic");
	struct ibu_engine_opts o;
	struct ibu_err e = { 0 };

	ibu_engine_opts_default(&o);
	ck_assert_int_eq(ibu_engine_opt_put(&o, ibu_engine_option_find("offsets"),
					    (int)mode), 0);
	ck_assert_msg(ibu_engine_run(ops, &r->f, &o, res, &e) == 0, "%s", e.msg);
}

/*
 * Every entry toward an end port's LID equals Eq. 1 / Eq. 2 of the paper
 * (cyclic_paper_port) on IBFT(4,2), (4,3), (6,3), (8,3), LMC 0 to
 * one past what the paper needs, ports and records shuffled.
 */
START_TEST(paper_engine_equals_equations)
{
	static const int cfg[][2] = { { 4, 2 }, { 4, 3 }, { 6, 3 }, { 8, 3 } };
	int m = cfg[_i % 4][0], n = cfg[_i % 4][1], lmc;
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = 31 + (uint64_t)_i };

	for (lmc = 0; lmc <= needed_lmc(m, n) + 1; lmc++) {
		struct ibu_engine_result res;
		struct ibft_routed r;
		long host = 0, sw_diff = 0, sw_all = 0;
		uint32_t lid;
		int s;

		ibft_route(&r, m, n, lmc, _i < 4 ? LIDS_PAPER_EXACT :
		      LIDS_ALIGNED, &o);
		engine_tables(&r, IBU_OFFSETS_PAPER, &res);
		for (lid = 1; lid <= r.p.map.max_lid; lid++) {
			const struct ibu_lid_owner *lo = &r.p.map.owner[lid];
			int pid = lo->node < 0 ? -1 :
				  ibft_view_ep(&r.t, lo->node, lo->port);

			for (s = 0; s < r.t.num_switches; s++) {
				int node = r.t.sw[s].node, got, want;

				got = ibu_lft_get(&res.lft, node, lid);
				want = ibu_lft_get(&r.lft, node, lid);
				if (pid < 0) {
					ck_assert(lo->node < 0 ||
						  got != IBU_NO_PATH);
					sw_all += lo->node >= 0;
					sw_diff += lo->node >= 0 && got != want;
					continue;
				}
				want = r.t.sw[s].phys_of_k[cyclic_paper_port(
					&r.t, r.p.offset_digits,
					IBU_OFFSETS_PAPER, s, (uint32_t)pid,
					lo->offset)];
				ck_assert_msg(got == want,
					      "IBFT(%d,%d) LMC %d switch %d LID %u: %d, paper %d",
					      m, n, lmc, s, lid, got, want);
				host++;
			}
		}
		ck_assert_int_gt(host, 0);
		/* switch LIDs: the PGFT router's up*|down* ways (ties by
		 * LID, one down-up turn where none exists), not the closed
		 * form's D-mod-k walk: 102 of 400 entries differ on
		 * IBFT(4,3), 2704 of 6400 on IBFT(8,3) */
		ck_assert_int_le(sw_diff, sw_all);
		ibu_engine_result_free(&res);
		ibft_unroute(&r);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("cyclic");
	TCase *tc = tcase_create("paper");
	TCase *tg = tcase_create("general");
	TCase *tr = tcase_create("rotated");

	tcase_add_test(tc, paper_paths_qrst);
	tcase_add_loop_test(tc, paper_paths_qrst_shuffled, 0, 4);
	tcase_add_test(tc, equations_ibft43);
	tcase_add_test(tc, equations_ibft83_shuffled);
	tcase_add_test(tc, equations_ibft44);
	tcase_add_test(tc, non_power_of_two);
	tcase_add_loop_test(tg, paper_engine_equals_equations, 0, 8);
	tcase_set_timeout(tg, 120);
	tcase_add_loop_test(tg, all_routes_paper_lmc, 0, 12);
	tcase_add_loop_test(tg, all_routes_small_lmc, 0, 10);
	tcase_set_timeout(tr, 300);
	tcase_add_loop_test(tr, rotated_equations, 0, 8);
	tcase_add_loop_test(tr, rotated_base_lids_spread, 0, 12);
	tcase_add_test(tr, paper_base_lids_concentrate);
	tcase_add_loop_test(tr, every_lmc_ibft63, 0, 16);
	tcase_add_loop_test(tr, lid_set_distinct_lca_and_groups, 0, 8);
	tcase_add_test(tr, label_dlid);
	tcase_add_test(tr, offsets_names);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, tg);
	suite_add_tcase(s, tr);
	return s;
}

IBU_UNIT_MAIN
