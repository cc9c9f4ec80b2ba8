/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <string.h>
#include "unit.h"
#include "cdg.h"
#include "cdg_ports.h"
#include "fabric_gen.h"
#include "gen.h"
#include "pgft.h"

/* A random fabric: ns switches with up to 254 ports (the masks of more
 * than one word), random switch-to-switch cables on random port numbers,
 * one or two CAs on most switches. */
struct rfab {
	struct ibu_fabric f;
	struct ibu_lft lft;
	int ns;
	uint32_t nlids;
	uint64_t st;
};

static int free_port(struct ibu_fabric *f, int s, uint64_t *st)
{
	int tries, p;

	for (tries = 0; tries < 64; tries++) {
		p = 1 + (int)(ibu_gen_rand(st) % (uint64_t)f->nodes[s].num_ports);
		if (f->nodes[s].ports[p].peer_node < 0)
			return p;
	}
	return -1;
}

static void rfab_cable(struct rfab *x, int a, int b)
{
	struct ibu_err e = { 0 };
	int pa = free_port(&x->f, a, &x->st), pb = free_port(&x->f, b, &x->st);

	if (pa > 0 && pb > 0 && a != b)
		ck_assert_int_eq(ibu_fabric_link(&x->f, a, pa, b, pb, &e), 0);
}

static void rfab_up(struct rfab *x, uint64_t seed)
{
	struct ibu_err e = { 0 };
	int i, k, idx, ncab;
	char name[32];

	memset(x, 0, sizeof(*x));
	x->st = seed * 0x9E3779B97F4A7C15ull + 1;
	x->ns = 3 + (int)(ibu_gen_rand(&x->st) % 6);
	ck_assert_int_eq(ibu_fabric_init(&x->f, "random"), 0);
	for (i = 0; i < x->ns; i++) {
		int np = ibu_gen_rand(&x->st) % 3 ? 8 :
			8 + (int)(ibu_gen_rand(&x->st) % 247);

		snprintf(name, sizeof(name), "s%d", i);
		ck_assert_int_eq(ibu_fabric_add_node(&x->f, IBU_NODE_SWITCH, name,
						     0x100 + i, np, &idx, &e), 0);
	}
	for (i = 1; i < x->ns; i++)	/* connected: a random tree ... */
		rfab_cable(x, i, (int)(ibu_gen_rand(&x->st) % (uint64_t)i));
	ncab = (int)(ibu_gen_rand(&x->st) % (uint64_t)(2 * x->ns));
	for (k = 0; k < ncab; k++)	/* ... and more cables, some parallel */
		rfab_cable(x, (int)(ibu_gen_rand(&x->st) % (uint64_t)x->ns),
			   (int)(ibu_gen_rand(&x->st) % (uint64_t)x->ns));
	for (i = 0; i < x->ns; i++)
		for (k = (int)(ibu_gen_rand(&x->st) % 3); k > 0; k--) {
			int p = free_port(&x->f, i, &x->st);

			if (p < 0)
				continue;
			snprintf(name, sizeof(name), "c%d.%d", i, k);
			ck_assert_int_eq(ibu_fabric_add_node(&x->f, IBU_NODE_CA, name,
							     0x1000 + 16 * i + k, 1,
							     &idx, &e), 0);
			ck_assert_int_eq(ibu_fabric_link(&x->f, i, p, idx, 1, &e), 0);
		}
	x->nlids = 3 + (uint32_t)(ibu_gen_rand(&x->st) % 10);
	ck_assert_int_eq(ibu_lft_init(&x->lft, &x->f, x->nlids, &e), 0);
}

static void rfab_down(struct rfab *x)
{
	ibu_lft_free(&x->lft);
	ibu_fabric_free(&x->f);
}

/* Ports of s to switch neighbours, and to CAs. */
static int ports_to(const struct ibu_fabric *f, int s, int sw, int *out)
{
	int p, n = 0;

	for (p = 1; p <= f->nodes[s].num_ports; p++) {
		int q = f->nodes[s].ports[p].peer_node;

		if (q >= 0 && ibu_node_is_switch(&f->nodes[q]) == sw)
			out[n++] = p;
	}
	return n;
}

/*
 * Routes lid toward a random switch t: a random BFS tree (ties broken at
 * random), the LID ending at t's port 0 or one of its CAs; now and then
 * a random entry anywhere (a detour or a forwarding loop), now and then
 * none. Trees of different LIDs close cycles with each other often
 * enough that both answers come up.
 */
static void route_lid(struct rfab *x, uint32_t lid)
{
	const struct ibu_fabric *f = &x->f;
	int t = (int)(ibu_gen_rand(&x->st) % (uint64_t)x->ns), q[8], d[8];
	int ports[256], head = 0, tail = 0, i, n, k;

	for (i = 0; i < x->ns; i++)
		d[i] = -1;
	d[t] = 0;
	q[tail++] = t;
	n = ports_to(f, t, 0, ports);
	x->lft.row[t][lid] = n && ibu_gen_rand(&x->st) % 2 ?
		(uint8_t)ports[ibu_gen_rand(&x->st) % (uint64_t)n] : 0;
	while (head < tail) {
		int s = q[head++];

		n = ports_to(f, s, 1, ports);
		ibu_gen_shuffle(ports, n, &x->st);
		for (k = 0; k < n; k++) {
			const struct ibu_port *pt = &f->nodes[s].ports[ports[k]];

			if (d[pt->peer_node] >= 0)
				continue;
			d[pt->peer_node] = d[s] + 1;
			x->lft.row[pt->peer_node][lid] = (uint8_t)pt->peer_port;
			q[tail++] = pt->peer_node;
		}
	}
	for (k = ibu_gen_rand(&x->st) % 4 == 0; k > 0; k--) {
		int s = (int)(ibu_gen_rand(&x->st) % (uint64_t)x->ns);

		n = ports_to(f, s, 1, ports);
		x->lft.row[s][lid] = n && ibu_gen_rand(&x->st) % 4 ?
			(uint8_t)ports[ibu_gen_rand(&x->st) % (uint64_t)n] :
			IBU_NO_PATH;
	}
}

/* Both graphs' answers; the cycle given back is one (each channel's mask
 * holds the next one's port, the next one leaves the switch it enters). */
static int answer(struct ibu_cdg *old, struct ibu_cdg_ports *g, int incr)
{
	struct ibu_cdg_channel *c = NULL, *o = NULL;
	struct ibu_err e = { 0 };
	int len = 0, olen = 0, rc, orc, i;

	rc = incr ? ibu_cdg_ports_find_new_cycle(g, &c, &len, &e) :
		ibu_cdg_ports_find_cycle(g, &c, &len, &e);
	orc = ibu_cdg_find_cycle(old, &o, &olen, &e);
	ck_assert_int_ge(rc, 0);
	ck_assert_int_eq(rc, orc);
	/* asked again without the cycle: what the search proved */
	ck_assert_int_eq(ibu_cdg_ports_find_new_cycle(g, NULL, &olen, &e), rc);
	ck_assert_int_eq(rc ? len >= 2 : len == 0, 1);
	for (i = 0; i < len; i++) {
		const struct ibu_cdg_channel *a = &c[i], *b = &c[(i + 1) % len];
		const struct ibu_port *pt = &g->f->nodes[a->node].ports[a->port];
		int ch = g->base[a->node] + a->port;

		ck_assert_int_eq(a->vl, 0);
		ck_assert_int_eq(pt->peer_node, b->node);
		ck_assert(g->mask[(size_t)ch * g->words + (b->port >> 6)] &
			  1ull << (b->port & 63));
	}
	free(c);
	free(o);
	return rc;
}

/* The whole graph built from the same tables: the same answer. */
START_TEST(random_tables_agree)
{
	struct ibu_err e = { 0 };
	int seed, cyclic = 0, acyclic = 0;

	for (seed = 1; seed <= 400; seed++) {
		struct rfab x;
		struct ibu_cdg old;
		struct ibu_cdg_ports g;
		uint32_t lid;

		rfab_up(&x, (uint64_t)seed);
		for (lid = 1; lid <= x.nlids; lid++)
			route_lid(&x, lid);
		ck_assert_int_eq(ibu_cdg_init(&old, &x.f, NULL, &e), 0);
		ck_assert_int_eq(ibu_cdg_ports_init(&g, &x.f, &e), 0);
		for (lid = 1; lid <= x.nlids; lid++) {
			ck_assert_int_eq(ibu_cdg_add_lid(&old, &x.lft, lid, &e), 0);
			ck_assert_int_eq(ibu_cdg_ports_add_lid(&g, &x.lft, lid, &e), 0);
		}
		if (answer(&old, &g, 0))
			cyclic++;
		else
			acyclic++;
		ibu_cdg_ports_free(&g);
		ibu_cdg_free(&old);
		rfab_down(&x);
	}
	/* both answers came up often: the comparison means something */
	ck_assert_int_ge(cyclic, 50);
	ck_assert_int_ge(acyclic, 50);
}
END_TEST

/*
 * A router's trials: LIDs re-routed one at a time, each added after a
 * mark, the answer of the incremental search compared with the full one
 * of cdg.c; kept when acyclic (and now and then when cyclic, so a cyclic
 * graph's later answers are checked too), else rolled back, which must
 * give the masks back exactly.
 */
static void trials(uint64_t seed, int *rejected, int *kept)
{
	struct ibu_err e = { 0 };
	struct ibu_cdg old;
	struct ibu_cdg_ports g;
	struct rfab x;
	uint64_t *before;
	size_t words;
	uint32_t lid;
	int k;

	rfab_up(&x, seed);
	for (lid = 1; lid <= x.nlids / 2; lid++)
		route_lid(&x, lid);
	ck_assert_int_eq(ibu_cdg_init(&old, &x.f, NULL, &e), 0);
	ck_assert_int_eq(ibu_cdg_ports_init(&g, &x.f, &e), 0);
	words = (size_t)g.num_ch * g.words;
	before = malloc(words * sizeof(*before));
	ck_assert_ptr_nonnull(before);
	for (lid = 1; lid <= x.nlids / 2; lid++) {
		ck_assert_int_eq(ibu_cdg_add_lid(&old, &x.lft, lid, &e), 0);
		ck_assert_int_eq(ibu_cdg_ports_add_lid(&g, &x.lft, lid, &e), 0);
	}
	for (k = 0; k < 24; k++) {
		long deps = g.deps;
		int rc;

		lid = 1 + (uint32_t)(ibu_gen_rand(&x.st) % x.nlids);
		route_lid(&x, lid);
		memcpy(before, g.mask, words * sizeof(*before));
		ibu_cdg_mark(&old);
		ibu_cdg_ports_mark(&g);
		ck_assert_int_eq(ibu_cdg_add_lid(&old, &x.lft, lid, &e), 0);
		ck_assert_int_eq(ibu_cdg_ports_add_lid(&g, &x.lft, lid, &e), 0);
		rc = answer(&old, &g, 1);
		if (!rc || ibu_gen_rand(&x.st) % 8 == 0) {
			ibu_cdg_commit(&old);
			ibu_cdg_ports_commit(&g);
			(*kept)++;
			continue;
		}
		(*rejected)++;
		ck_assert_int_eq(ibu_cdg_rollback(&old, &e), 0);
		ibu_cdg_ports_rollback(&g);
		ck_assert_int_eq(memcmp(before, g.mask, words * sizeof(*before)), 0);
		ck_assert_int_eq(g.deps, deps);
		/* the graph the mark saw is back: the full answer agrees
		 * (every other time, so the next trial also starts from an
		 * unproven graph) */
		if (ibu_gen_rand(&x.st) % 2)
			answer(&old, &g, 0);
	}
	free(before);
	ibu_cdg_ports_free(&g);
	ibu_cdg_free(&old);
	rfab_down(&x);
}

START_TEST(trials_agree_and_rollback_restores)
{
	int seed, rejected = 0, kept = 0;

	for (seed = 1; seed <= 300; seed++)
		trials((uint64_t)seed, &rejected, &kept);
	ck_assert_int_ge(rejected, 100);
	ck_assert_int_ge(kept, 100);
}
END_TEST

/*
 * A ring of four switches, one CA each, every LID routed two hops the
 * same way round: the textbook credit loop ([DallySeitz87]), the four
 * ring channels in order. Routed the shortest way (the two-hop LID split
 * at the ring's seam), no loop.
 */
static void ring(struct ibu_fabric *f, struct ibu_lft *lft)
{
	struct ibu_err e = { 0 };
	int i, idx;
	char name[16];

	ck_assert_int_eq(ibu_fabric_init(f, "ring"), 0);
	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		ck_assert_int_eq(ibu_fabric_add_node(f, IBU_NODE_SWITCH, name,
						     0x10 + i, 3, &idx, &e), 0);
	}
	for (i = 0; i < 4; i++) {	/* port 1 clockwise, 2 back, 3 the CA */
		snprintf(name, sizeof(name), "c%d", i);
		ck_assert_int_eq(ibu_fabric_link(f, i, 1, (i + 1) % 4, 2, &e), 0);
		ck_assert_int_eq(ibu_fabric_add_node(f, IBU_NODE_CA, name,
						     0x20 + i, 1, &idx, &e), 0);
		ck_assert_int_eq(ibu_fabric_link(f, i, 3, idx, 1, &e), 0);
	}
	ck_assert_int_eq(ibu_lft_init(lft, f, 4, &e), 0);
}

START_TEST(ring_credit_loop)
{
	struct ibu_cdg_channel *c = NULL;
	struct ibu_err e = { 0 };
	struct ibu_cdg_ports g;
	struct ibu_fabric f;
	struct ibu_lft lft;
	int s, d, len, i, at;

	ring(&f, &lft);
	/* LID d + 1 is c<d>: clockwise (port 1) until its switch */
	for (d = 0; d < 4; d++)
		for (s = 0; s < 4; s++)
			lft.row[s][d + 1] = s == d ? 3 : 1;
	ck_assert_int_eq(ibu_cdg_ports_init(&g, &f, &e), 0);
	for (d = 1; d <= 4; d++)
		ck_assert_int_eq(ibu_cdg_ports_add_lid(&g, &lft, (uint32_t)d, &e), 0);
	ck_assert_int_eq(ibu_cdg_ports_find_cycle(&g, &c, &len, &e), 1);
	ck_assert_int_eq(len, 4);
	for (i = 0, at = c[0].node; i < 4; i++) {
		ck_assert_int_eq(c[i].node, (at + i) % 4);
		ck_assert_int_eq(c[i].port, 1);
	}
	free(c);
	ibu_cdg_ports_free(&g);
	/* shortest: the two-hop LIDs clockwise from s0, s1 only, the others
	 * the other way round; the clockwise channel s3 -> s0 and the
	 * counter-clockwise one s0 -> s3 then carry no two-hop route */
	for (d = 0; d < 4; d++)
		for (s = 0; s < 4; s++)
			lft.row[s][d + 1] = s == d ? 3 :
				(d - s + 4) % 4 == 1 ||
				((d - s + 4) % 4 == 2 && s < 2) ? 1 : 2;
	ck_assert_int_eq(ibu_cdg_ports_init(&g, &f, &e), 0);
	for (d = 1; d <= 4; d++)
		ck_assert_int_eq(ibu_cdg_ports_add_lid(&g, &lft, (uint32_t)d, &e), 0);
	ck_assert_int_eq(ibu_cdg_ports_find_cycle(&g, NULL, &len, &e), 0);
	/* a trial that closes the loop is found from its new dependencies,
	 * and its rollback gives the acyclic graph back */
	ibu_cdg_ports_mark(&g);
	for (s = 0; s < 4; s++)
		lft.row[s][2] = s == 1 ? 3 : 1;	/* c1 clockwise from s2: 3 hops */
	ck_assert_int_eq(ibu_cdg_ports_add_lid(&g, &lft, 2, &e), 0);
	ck_assert_int_eq(ibu_cdg_ports_find_new_cycle(&g, NULL, &len, &e), 1);
	ibu_cdg_ports_rollback(&g);
	ck_assert_int_eq(ibu_cdg_ports_find_cycle(&g, NULL, &len, &e), 0);
	ibu_cdg_ports_free(&g);
	ibu_lft_free(&lft);
	ibu_fabric_free(&f);
}
END_TEST

/*
 * The ring with levels 1, 2, 1, 2 and every route clockwise: a route
 * that enters a level-1 switch from a level-2 one and climbs again has a
 * valley. Of the twelve routes, the two of two hops without one (s0 to
 * c2, s2 to c0) and those of one hop make layer 0, acyclic; the rest,
 * layer 1, hold the loop; the two layers together are add_lid's graph.
 */
START_TEST(layers_split_by_valley)
{
	static const int level[4] = { 1, 2, 1, 2 }, flat[4] = { 1, 1, 1, 1 };
	struct ibu_err e = { 0 };
	struct ibu_cdg_ports all, l0, l1;
	struct ibu_fabric f;
	struct ibu_lft lft;
	int s, d, p, q, len;

	ring(&f, &lft);
	for (d = 0; d < 4; d++)
		for (s = 0; s < 4; s++)
			lft.row[s][d + 1] = s == d ? 3 : 1;
	ck_assert_int_eq(ibu_lft_route_has_valley(&f, &lft, 1, 1, level), 1);
	ck_assert_int_eq(ibu_lft_route_has_valley(&f, &lft, 2, 1, level), 0);
	ck_assert_int_eq(ibu_lft_route_has_valley(&f, &lft, 0, 3, level), 0);
	ck_assert_int_eq(ibu_lft_route_has_valley(&f, &lft, 0, 4, level), 1);
	ck_assert_int_eq(ibu_lft_route_has_valley(&f, &lft, 3, 4, level), 0);
	ck_assert_int_eq(ibu_cdg_ports_init(&all, &f, &e), 0);
	ck_assert_int_eq(ibu_cdg_ports_init(&l0, &f, &e), 0);
	ck_assert_int_eq(ibu_cdg_ports_init(&l1, &f, &e), 0);
	for (d = 1; d <= 4; d++) {
		ck_assert_int_eq(ibu_cdg_ports_add_lid(&all, &lft, (uint32_t)d, &e), 0);
		ck_assert_int_eq(ibu_cdg_ports_add_lid_layer(&l0, &lft, (uint32_t)d,
							     level, 0, &e), 0);
		ck_assert_int_eq(ibu_cdg_ports_add_lid_layer(&l1, &lft, (uint32_t)d,
							     level, 1, &e), 0);
	}
	ck_assert_int_eq(l0.deps, 2);
	ck_assert(ibu_cdg_ports_has(&l0, 0, 1, 1));	/* s0 -> s1 -> s2 */
	ck_assert(ibu_cdg_ports_has(&l0, 2, 1, 1));	/* s2 -> s3 -> s0 */
	for (s = 0; s < 4; s++)
		for (p = 1; p <= 3; p++)
			for (q = 0; q <= 3; q++)
				ck_assert_int_eq(ibu_cdg_ports_has(&all, s, p, q),
						 ibu_cdg_ports_has(&l0, s, p, q) |
						 ibu_cdg_ports_has(&l1, s, p, q));
	ck_assert_int_eq(ibu_cdg_ports_find_cycle(&l0, NULL, &len, &e), 0);
	ck_assert_int_eq(ibu_cdg_ports_find_cycle(&l1, NULL, &len, &e), 1);
	ck_assert_int_eq(len, 4);
	/* switches of one level make no valley; a route that loops (s0
	 * sends c0's packets on round the ring) counts as one */
	ck_assert_int_eq(ibu_lft_route_has_valley(&f, &lft, 1, 1, flat), 0);
	lft.row[0][1] = 1;
	ck_assert_int_eq(ibu_lft_route_has_valley(&f, &lft, 1, 1, flat), 1);
	ibu_cdg_ports_free(&all);
	ibu_cdg_ports_free(&l0);
	ibu_cdg_ports_free(&l1);
	ibu_lft_free(&lft);
	ibu_fabric_free(&f);
}
END_TEST

/*
 * add_unicast (switch by switch, LIDs in chunks) against add_lid (LID by
 * LID): the same masks on random tables with forwarding loops, detours
 * and missing entries, LIDs past several chunks, some of them owned by
 * no port (not followed) and a table shorter than the map.
 */
START_TEST(unicast_same_as_per_lid)
{
	struct ibu_err e = { 0 };
	int seed, differ = 0;

	for (seed = 1; seed <= 40; seed++) {
		struct ibu_cdg_ports a, b;
		struct ibu_lidmap map;
		struct rfab x;
		uint32_t lid;
		size_t words;

		rfab_up(&x, (uint64_t)seed + 1000);
		ibu_lft_free(&x.lft);
		x.nlids = 1500 + (uint32_t)(ibu_gen_rand(&x.st) % 2000);
		ck_assert_int_eq(ibu_lft_init(&x.lft, &x.f, x.nlids, &e), 0);
		map.max_lid = x.nlids + (seed % 2 ? 40 : 0);
		map.owner = calloc(map.max_lid + 1, sizeof(*map.owner));
		ck_assert_ptr_nonnull(map.owner);
		for (lid = 0; lid <= map.max_lid; lid++)
			map.owner[lid].node = lid && ibu_gen_rand(&x.st) % 5 ?
				0 : -1;
		for (lid = 1; lid <= x.nlids; lid++)
			route_lid(&x, lid);
		ck_assert_int_eq(ibu_cdg_ports_init(&a, &x.f, &e), 0);
		ck_assert_int_eq(ibu_cdg_ports_init(&b, &x.f, &e), 0);
		ck_assert_int_eq(ibu_cdg_ports_add_unicast(&a, &x.lft, &map, &e), 0);
		for (lid = 1; lid <= x.nlids; lid++)
			if (ibu_lidmap_get(&map, lid))
				ck_assert_int_eq(ibu_cdg_ports_add_lid(&b, &x.lft,
								       lid, &e), 0);
		words = (size_t)a.num_ch * a.words;
		ck_assert_int_eq(memcmp(a.mask, b.mask, words * 8), 0);
		ck_assert_int_eq(a.deps, b.deps);
		ck_assert_int_gt(a.deps, 0);
		/* the map's holes matter: every LID gives more */
		for (lid = 1; lid <= x.nlids; lid++)
			ck_assert_int_eq(ibu_cdg_ports_add_lid(&b, &x.lft, lid,
							       &e), 0);
		differ += b.deps > a.deps;
		ibu_cdg_ports_free(&a);
		ibu_cdg_ports_free(&b);
		free(map.owner);
		rfab_down(&x);
	}
	ck_assert_int_ge(differ, 1);
}
END_TEST

/*
 * add_unicast_lazy against add_unicast through a router's trials: the
 * trial LIDs (eager) re-routed one at a time, added after a mark, kept
 * or rolled back alike in both graphs; every answer the same, the lazy
 * graph never holding a dependency the full one lacks.
 */
static void lazy_trials(uint64_t seed, int *cyclic, int *fewer)
{
	struct ibu_err e = { 0 };
	struct ibu_cdg_ports a, b;
	struct ibu_lidmap map;
	struct rfab x;
	uint32_t lid, eager[16];
	int k, n, len, rc;
	size_t i;

	rfab_up(&x, seed + 5000);
	map.max_lid = x.nlids;
	map.owner = calloc(map.max_lid + 1, sizeof(*map.owner));
	ck_assert_ptr_nonnull(map.owner);
	for (lid = 0; lid <= map.max_lid; lid++)
		map.owner[lid].node = lid ? 0 : -1;
	for (lid = 1; lid <= x.nlids; lid++)
		route_lid(&x, lid);
	n = 1 + (int)(ibu_gen_rand(&x.st) % 4);
	for (k = 0; k < n; k++)
		eager[k] = 1 + (uint32_t)(ibu_gen_rand(&x.st) % x.nlids);
	ck_assert_int_eq(ibu_cdg_ports_init(&a, &x.f, &e), 0);
	ck_assert_int_eq(ibu_cdg_ports_init(&b, &x.f, &e), 0);
	ck_assert_int_eq(ibu_cdg_ports_add_unicast(&a, &x.lft, &map, &e), 0);
	ck_assert_int_eq(ibu_cdg_ports_add_unicast_lazy(&b, &x.lft, &map,
							eager, n, &e), 0);
	ck_assert_int_eq(ibu_cdg_ports_add_unicast_lazy(&b, &x.lft, &map,
							eager, n, &e), IBU_EINVAL);
	*fewer += b.deps < a.deps;
	{
		struct ibu_cdg_ports c;	/* a lazy graph is not copied */

		ck_assert_int_eq(ibu_cdg_ports_copy(&c, &b, &e), IBU_EINVAL);
	}
	rc = ibu_cdg_ports_find_cycle(&a, NULL, &len, &e);
	*cyclic += rc;
	ck_assert_int_eq(ibu_cdg_ports_find_cycle(&b, NULL, &len, &e), rc);
	for (k = 0; k < 12; k++) {
		lid = eager[ibu_gen_rand(&x.st) % (uint64_t)n];
		route_lid(&x, lid);
		ibu_cdg_ports_mark(&a);
		ibu_cdg_ports_mark(&b);
		ck_assert_int_eq(ibu_cdg_ports_add_lid(&a, &x.lft, lid, &e), 0);
		ck_assert_int_eq(ibu_cdg_ports_add_lid(&b, &x.lft, lid, &e), 0);
		rc = ibu_cdg_ports_find_new_cycle(&a, NULL, &len, &e);
		ck_assert_int_eq(ibu_cdg_ports_find_new_cycle(&b, NULL, &len,
							      &e), rc);
		if (!rc || ibu_gen_rand(&x.st) % 4 == 0) {
			ibu_cdg_ports_commit(&a);
			ibu_cdg_ports_commit(&b);
		} else {
			ibu_cdg_ports_rollback(&a);
			ibu_cdg_ports_rollback(&b);
		}
		ck_assert_int_eq(ibu_cdg_ports_find_cycle(&b, NULL, &len, &e),
				 ibu_cdg_ports_find_cycle(&a, NULL, &len, &e));
	}
	for (i = 0; i < (size_t)a.num_ch * a.words; i++)
		ck_assert_int_eq(b.mask[i] & ~a.mask[i], 0);
	ibu_cdg_ports_free(&a);
	ibu_cdg_ports_free(&b);
	free(map.owner);
	rfab_down(&x);
}

START_TEST(lazy_same_answers)
{
	int seed, cyclic = 0, fewer = 0;

	for (seed = 1; seed <= 400; seed++)
		lazy_trials((uint64_t)seed, &cyclic, &fewer);
	/* both answers, and graphs the laziness made smaller */
	ck_assert_int_ge(cyclic, 50);
	ck_assert_int_le(cyclic, 350);
	ck_assert_int_ge(fewer, 50);
}
END_TEST

/* The dependency (a -> b) of old between switch-to-switch channels, with
 * cdg.c's numbering (one VL: a channel is its slot). */
static int old_dep(const struct ibu_cdg *old, uint64_t key, int *a, int *b)
{
	const struct ibu_fabric *f = old->f;
	uint32_t ch[2] = { (uint32_t)(key >> 32), (uint32_t)key };
	int i, n;

	for (i = 0; i < 2; i++) {
		for (n = 0; old->base[n + 1] <= (int)ch[i]; n++)
			;
		if (!ibu_node_is_switch(&f->nodes[n]) ||
		    f->nodes[n].ports[ch[i] - old->base[n]].peer_node < 0 ||
		    !ibu_node_is_switch(&f->nodes[f->nodes[n].ports[ch[i] -
						  old->base[n]].peer_node]))
			return 0;
		(i ? b : a)[0] = (int)ch[i];
	}
	return 1;
}

/* A damaged fat tree routed with its turns: the same dependencies
 * between switches as cdg.c's add_unicast, and no cycle. */
START_TEST(routed_tree_same_deps)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .remove_links = 4, .remove_switches = 1,
				  .seed = 8 };
	struct ibu_pgft_route_stats st;
	struct ibu_lidmap map;
	struct ibu_err e = { 0 };
	struct ibu_cdg_ports g;
	struct ibu_fabric f;
	struct ibu_pgft pg;
	struct ibu_lft lft;
	struct ibu_cdg old;
	long same = 0;
	size_t i;
	int a, b, len;

	ck_assert_int_eq(ibu_gen_fattree(&f, 8, 3, &o, &e), 0);
	ck_assert_msg(ibu_pgft_recognize_limit(&f, &pg, NULL, 0, -1, &e) == 0,
		      "%s", e.msg);
	ck_assert_int_eq(ibu_pgft_assign_lids(&f, &pg, 0, &e), 0);
	ck_assert_int_eq(ibu_lidmap_build(&f, &map, &e), 0);
	ck_assert_int_eq(ibu_lft_init(&lft, &f, map.max_lid, &e), 0);
	ck_assert_int_eq(ibu_pgft_route_stats(&f, &pg, &map, 0, &lft, &st, &e), 0);
	ck_assert_int_gt(st.turned, 0);
	ck_assert_int_eq(ibu_cdg_init(&old, &f, NULL, &e), 0);
	ck_assert_int_eq(ibu_cdg_add_unicast(&old, &lft, &map, &e), 0);
	ck_assert_int_eq(ibu_cdg_ports_init(&g, &f, &e), 0);
	ck_assert_int_eq(ibu_cdg_ports_add_unicast(&g, &lft, &map, &e), 0);
	for (i = 0; i < old.cap; i++) {
		if (!old.set[i] || !old_dep(&old, old.set[i] - 1, &a, &b))
			continue;
		/* same numbering: slot = node's base + port in both */
		ck_assert_int_eq(g.next[a], g.base[g.node_of[b]]);
		ck_assert(g.mask[(size_t)a * g.words + ((b - g.next[a]) >> 6)] &
			  1ull << ((b - g.next[a]) & 63));
		same++;
	}
	ck_assert_int_eq(same, g.deps);
	ck_assert_int_gt(same, 100);
	ck_assert_int_eq(ibu_cdg_ports_find_cycle(&g, NULL, &len, &e), 0);
	ibu_cdg_ports_free(&g);
	ibu_cdg_free(&old);
	ibu_lft_free(&lft);
	ibu_lidmap_free(&map);
	ibu_pgft_free(&pg);
	ibu_fabric_free(&f);
}
END_TEST

/*
 * A multicast tree beside unicast: a random spanning tree of the
 * switches (each a member through port 0, so every tree cable carries
 * floods both ways) added with ibu_cdg_ports_add_tree to a copy of the
 * unicast graph gives cdg.c's answer for unicast plus the flooded MFT;
 * the copy answers as its source, and ibu_cdg_ports_has reads the masks.
 */
START_TEST(tree_beside_unicast_agrees)
{
	struct ibu_err e = { 0 };
	int seed, cyclic = 0, acyclic = 0;

	for (seed = 1; seed <= 300; seed++) {
		struct rfab x;
		struct ibu_cdg old;
		struct ibu_cdg_ports g, c;
		struct ibu_mft mft;
		int seen[256] = { 0 }, queue[256], head = 0, tail = 0, s, p, q, len;
		uint32_t lid;

		rfab_up(&x, (uint64_t)seed + 1000);
		for (lid = 1; lid <= x.nlids; lid++)
			route_lid(&x, lid);
		ck_assert_int_eq(ibu_cdg_init(&old, &x.f, NULL, &e), 0);
		ck_assert_int_eq(ibu_cdg_ports_init(&g, &x.f, &e), 0);
		for (lid = 1; lid <= x.nlids; lid++) {
			ck_assert_int_eq(ibu_cdg_add_lid(&old, &x.lft, lid, &e), 0);
			ck_assert_int_eq(ibu_cdg_ports_add_lid(&g, &x.lft, lid, &e), 0);
		}
		ck_assert_int_eq(ibu_cdg_ports_copy(&c, &g, &e), 0);
		ck_assert_int_eq(ibu_cdg_ports_find_cycle(&c, NULL, &len, &e),
				 ibu_cdg_ports_find_cycle(&g, NULL, &len, &e));
		ck_assert_int_eq(ibu_mft_init(&mft, x.f.num_nodes, &e), 0);
		queue[tail++] = (int)(ibu_gen_rand(&x.st) % (uint64_t)x.ns);
		seen[queue[0]] = 1;
		while (head < tail) {
			s = queue[head++];
			ck_assert_int_eq(ibu_mft_set(&mft, 0xc000, s, 0, &e), 0);
			for (p = 1; p <= x.f.nodes[s].num_ports; p++) {
				q = x.f.nodes[s].ports[p].peer_node;
				if (q < 0 || !ibu_node_is_switch(&x.f.nodes[q]) || seen[q])
					continue;
				seen[q] = 1;
				queue[tail++] = q;
				ck_assert_int_eq(ibu_mft_set(&mft, 0xc000, s, p, &e), 0);
				ck_assert_int_eq(ibu_mft_set(&mft, 0xc000, q,
					x.f.nodes[s].ports[p].peer_port, &e), 0);
			}
		}
		for (s = 0; s < x.ns; s++)
			ck_assert_int_eq(ibu_cdg_ports_add_tree(&c, s,
					 &ibu_mft_group(&mft, 0xc000, &e)->mask[s], &e), 0);
		ck_assert_int_eq(ibu_cdg_add_mcast(&old, &mft, NULL, &e), 0);
		if (answer(&old, &c, 0))
			cyclic++;
		else
			acyclic++;
		for (s = 0; s < x.ns; s++)	/* has() reads the masks */
			for (p = 1; p <= x.f.nodes[s].num_ports; p++) {
				int ch = c.base[s] + p, o = p % 8;

				if (c.next[ch] >= 0)
					ck_assert_int_eq(ibu_cdg_ports_has(&c, s, p, o),
						(int)(c.mask[(size_t)ch * c.words] >> o & 1));
			}
		ibu_mft_free(&mft);
		ibu_cdg_ports_free(&c);
		ibu_cdg_ports_free(&g);
		ibu_cdg_free(&old);
		rfab_down(&x);
	}
	ck_assert_int_ge(cyclic, 30);
	ck_assert_int_ge(acyclic, 30);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("cdg_ports");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, random_tables_agree);
	tcase_add_test(tc, trials_agree_and_rollback_restores);
	tcase_add_test(tc, ring_credit_loop);
	tcase_add_test(tc, layers_split_by_valley);
	tcase_add_test(tc, routed_tree_same_deps);
	tcase_add_test(tc, unicast_same_as_per_lid);
	tcase_add_test(tc, lazy_same_answers);
	tcase_add_test(tc, tree_beside_unicast_agrees);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
