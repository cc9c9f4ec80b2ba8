/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* PGFT parameters (lib/fattree/pgft.c): parsed, refused, written; and an
 * IBFT's paper labels on the PGFT it is recognised as. (Recognition:
 * test_pgft_recognize.c.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "pgft.h"
#include "pgft_ibft.h"
#include "ibft_view.h"
#include "gen.h"

START_TEST(params_parse_and_text)
{
	struct ibu_pgft_params P;
	struct ibu_err e = { 0 };
	char buf[96];

	ck_assert_int_eq(ibu_pgft_params_parse("8,12", "1,4", "1,2", &P, &e), 0);
	ck_assert_int_eq(P.h, 2);
	ck_assert_int_eq(P.m[2], 12);
	ck_assert_int_eq(P.w[2], 4);
	ck_assert_int_eq(P.p[2], 2);
	ibu_pgft_params_text(&P, buf, sizeof(buf));
	ck_assert_str_eq(buf, "PGFT(2; 8,12; 1,4; 1,2)");
	/* hosts, leaves, tops; ports of a leaf: 8 down, 4 x 2 up */
	ck_assert_int_eq(ibu_pgft_level_size(&P, 0, 1000), 96);
	ck_assert_int_eq(ibu_pgft_level_size(&P, 1, 1000), 12);
	ck_assert_int_eq(ibu_pgft_level_size(&P, 2, 1000), 4);
	ck_assert_int_eq(ibu_pgft_level_size(&P, 0, 50), -1);
	ck_assert_int_eq(ibu_pgft_down_ports(&P, 1), 8);
	ck_assert_int_eq(ibu_pgft_up_ports(&P, 1), 8);
	ck_assert_int_eq(ibu_pgft_down_ports(&P, 2), 24);
	ck_assert_int_eq(ibu_pgft_up_ports(&P, 2), 0);
	ibu_pgft_params_text(&P, buf, 8);	/* cut, terminated */
	ck_assert_int_eq((int)strlen(buf), 7);
}
END_TEST

/* The lowest level whose sub-tree's hosts do not divide over its
 * up-cables. */
static const struct {
	const char *m, *w, *p;
	int level;
} uneven[] = {
	{ "8,12", "1,4", "1,2", 0 },	/* 8 hosts, 8 up-cables */
	{ "8,12", "1,3", "1,2", 1 },	/* 8 on 6: a top gone */
	{ "4,8", "1,3", "1,1", 1 },	/* IBFT(8,2) without a top */
	{ "18,8", "1,3", "1,1", 0 },	/* blocking 18:3 */
	{ "4,4,8", "1,4,4", "1,1,1", 0 },	/* IBFT(8,3) */
	{ "4,4,3", "1,2,2", "1,2,1", 0 },	/* pods: 16 on 2 x 2 */
	{ "4,4,2", "1,2,3", "1,1,1", 2 },	/* pods: 16 on 2 x 3 */
	{ "4,4,4", "1,3,2", "1,1,1", 1 },
};

START_TEST(uneven_level)
{
	struct ibu_pgft_params P;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_pgft_params_parse(uneven[_i].m, uneven[_i].w,
					       uneven[_i].p, &P, &e), 0);
	ck_assert_int_eq(ibu_pgft_uneven_level(&P), uneven[_i].level);
}
END_TEST

START_TEST(params_refused)
{
	static const char *bad[][3] = {
		{ "8,12", "1,4", "1" },		/* levels differ */
		{ "8,x", "1,4", "1,2" },
		{ "8,,12", "1,4", "1,2" },
		{ "8,0", "1,4", "1,2" },
		{ "8,255", "1,4", "1,2" },
		{ "8;12", "1,4", "1,2" },
		{ "", "", "" },
		{ "1,1,1,1,1,1,1,1,1", "1,1,1,1,1,1,1,1,1", "1,1,1,1,1,1,1,1,1" },
	};
	struct ibu_pgft_params P;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_pgft_params_parse(bad[_i][0], bad[_i][1],
					       bad[_i][2], &P, &e), IBU_EINVAL);
	ck_assert(e.msg[0]);
}
END_TEST

/* GUIDs through an odd multiplier: unique still, in another order, so
 * the canonical digit choices (smallest GUIDs) are exercised. */
static void scramble_guids(struct ibu_fabric *f)
{
	int n, p;

	for (n = 0; n < f->num_nodes; n++) {
		f->nodes[n].guid *= 0x9E3779B97F4A7C15ull;
		for (p = 0; p <= f->nodes[n].num_ports; p++)
			f->nodes[n].ports[p].guid *= 0x9E3779B97F4A7C15ull;
	}
}

static const struct {
	int m, n, scramble, removed;
} ibfts[] = {
	{ 4, 3, 0, 0 }, { 6, 2, 0, 0 }, { 8, 2, 0, 0 }, { 8, 3, 0, 0 },
	{ 4, 3, 1, 0 }, { 6, 2, 1, 0 }, { 8, 2, 1, 0 }, { 8, 3, 1, 0 },
	{ 8, 3, 1, 7 },		/* absent end ports: free PIDs */
};

/* The paper's rule, checked on (g, x) alone: every label unique and in
 * range, every surviving switch cable joins SW<w,l> and SW<w',l+1> with
 * w0..w(l-1) = w'0..w'(l-1) and w(l)..w(n-3) = w'(l+1)..w'(n-2)
 * ([Zhou07] sect. 2.2), paper ports unique on each switch, 1..m/2 down
 * (a top's 1..m) and m/2+1..m up, a down port k leading to the child
 * with w'_l = k-1 (or the end port with p(n-1) = k-1), an up port to the
 * parent with last digit k-m/2-1; PIDs unique and below their leaf's
 * label. exact: every label slot holds a switch and every switch above
 * the leaves has all m paper ports cabled, so with the above SW<w,l> and
 * SW<w',l+1> are cabled iff their digits agree but for digit l; the PIDs
 * are a bijection onto the present hosts. */
static void port_holds(const struct ibu_fabric *f, const struct ibu_pgft *g,
		       const struct ibu_pgft_ibft *x, int node, int p, int kp)
{
	const uint8_t *w = x->w + (size_t)node * IBU_PGFT_MAX_H, *c;
	int q = f->nodes[node].ports[p].peer_node, n = x->n, D;
	int l = g->P.h - g->level[node];

	if (g->level[q] == g->level[node] + 1) {	/* a parent */
		c = x->w + (size_t)q * IBU_PGFT_MAX_H;
		ck_assert_int_eq(kp, x->half + 1 + c[n - 2]);
		return;
	}
	ck_assert_int_le(kp, l ? x->half : x->m);
	if (g->level[q] >= 1) {				/* a child switch */
		ck_assert_int_eq(g->level[q], g->level[node] - 1);
		c = x->w + (size_t)q * IBU_PGFT_MAX_H;
		ck_assert_int_eq(kp, c[l] + 1);
		ck_assert(!memcmp(w, c, (size_t)l));
		ck_assert(!memcmp(w + l, c + l + 1, (size_t)(n - 2 - l)));
		return;
	}
	D = ibu_pgft_host(g, q, f->nodes[node].ports[p].peer_port);
	ck_assert_int_ge(D, 0);
	ck_assert_int_eq(l, n - 1);
	ck_assert_int_eq(kp, (int)(x->pid[D] % (uint32_t)x->half) + 1);
}

static void switch_holds(const struct ibu_fabric *f, const struct ibu_pgft *g,
			 const struct ibu_pgft_ibft *x, int node, int exact)
{
	const uint8_t *w = x->w + (size_t)node * IBU_PGFT_MAX_H;
	char k[IBU_MAX_PORTS + 2] = { 0 };
	int p, i, cabled = 0, l = g->P.h - g->level[node];

	for (i = 0; i < x->n - 1; i++)
		ck_assert_int_lt(w[i], i == 0 && l ? x->m : x->half);
	for (p = 1; p <= f->nodes[node].num_ports; p++) {
		int kp = ibu_pgft_ibft_port(f, g, x, node, p);

		if (f->nodes[node].ports[p].peer_node < 0)
			continue;
		ck_assert(kp >= 1 && kp <= x->m && !k[kp]);
		k[kp] = 1;
		cabled++;
		port_holds(f, g, x, node, p, kp);
	}
	if (exact && l < x->n - 1)
		ck_assert_int_eq(cabled, x->m);
}

static void labels_hold(const struct ibu_fabric *f, const struct ibu_pgft *g,
			const struct ibu_pgft_ibft *x, int exact)
{
	char *slot = calloc((size_t)x->full_switches, 1);
	char *used = calloc((size_t)x->num_pids, 1);
	int node, i, D, n = x->n, slots = 0, hosts = 0;

	ck_assert(slot && used);
	for (node = 0; node < f->num_nodes; node++) {
		long v = ibu_pgft_ibft_slot(g, x, node);

		if (v < 0)
			continue;
		ck_assert(v < x->full_switches && !slot[v]);
		slot[v] = 1;
		slots++;
		switch_holds(f, g, x, node, exact);
	}
	for (D = 0; D < g->num_hosts; D++) {
		const uint8_t *w = x->w + (size_t)g->host[D].leaf * IBU_PGFT_MAX_H;
		uint32_t pre = 0;

		ck_assert(x->pid[D] < (uint32_t)x->num_pids && !used[x->pid[D]]);
		used[x->pid[D]] = 1;
		for (i = 0; i < n - 1; i++)
			pre = pre * (uint32_t)x->half + w[i];
		ck_assert_uint_eq(x->pid[D] / (uint32_t)x->half, pre);
		ck_assert(!D || x->pid[D] > x->pid[D - 1]);	/* PID order */
	}
	/* every CA port cabled to a leaf is a host with a PID */
	for (node = 0; node < f->num_nodes; node++)
		for (i = 1; !ibu_node_is_switch(&f->nodes[node]) &&
		     i <= f->nodes[node].num_ports; i++)
			hosts += f->nodes[node].ports[i].peer_node >= 0;
	ck_assert_int_eq(hosts, g->num_hosts);
	if (exact)
		ck_assert_int_eq(slots, x->full_switches);
	free(slot);
	free(used);
}

/* Exact IBFTs, shuffled: the labels obey the paper's rule (labels_hold,
 * exact), the PIDs are a bijection onto the present hosts in D order. */
START_TEST(ibft_labels)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = 5 + (uint64_t)_i,
				  .remove_hosts = ibfts[_i].removed };
	struct ibu_fabric f;
	struct ibu_pgft g;
	struct ibu_pgft_ibft *x;
	struct ibu_err e = { 0 };
	int half = ibfts[_i].m / 2, pids = 2, i;

	for (i = 0; i < ibfts[_i].n; i++)
		pids *= half;
	ck_assert_int_eq(ibu_gen_fattree(&f, ibfts[_i].m, ibfts[_i].n, &o, &e), 0);
	if (ibfts[_i].scramble)
		scramble_guids(&f);
	ck_assert_msg(ibu_pgft_recognize(&f, &g, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(g.num_faults, 0);
	ck_assert_int_eq(ibu_pgft_ibft_build(&f, &g, 1, &x, &e), 0);
	ck_assert_ptr_nonnull(x);
	ck_assert_int_eq(x->m, ibfts[_i].m);
	ck_assert_int_eq(x->n, ibfts[_i].n);
	ck_assert_int_eq(x->num_pids, pids);
	ck_assert_int_eq(x->full_switches, (2 * x->n - 1) * pids / 2 / half);
	ck_assert_int_eq(g.num_hosts, pids - ibfts[_i].removed);
	labels_hold(&f, &g, x, 1);
	ibu_pgft_ibft_free(x);
	ibu_pgft_free(&g);
	ibu_fabric_free(&f);
}
END_TEST

static int find_named(const struct ibu_fabric *f, const char *name)
{
	int node = ibu_fabric_find_name(f, name);

	ck_assert_msg(node >= 0, "no node %s", name);
	return node;
}

/*
 * [Zhou07]'s IBFT(4,3), unshuffled: the generator names every node by
 * its paper label and gives GUIDs in label order, so every label is the
 * name's ("sw1-2.0" is SW<20,1>, "hca-2.1.1" is P(211), PID 11); the
 * worked examples: SW<00,0>'s paper port 3 meets SW<20,1>'s paper port 3,
 * PID(P(200)) = 8, PID(P(211)) = 11.
 */
START_TEST(ibft_labels_paper)
{
	struct ibu_fabric f;
	struct ibu_pgft g;
	struct ibu_pgft_ibft *x;
	struct ibu_err e = { 0 };
	char want[64], got[64];
	int node, D, p, top, mid;

	ck_assert_int_eq(ibu_gen_fattree(&f, 4, 3, NULL, &e), 0);
	ck_assert_int_eq(ibu_pgft_recognize(&f, &g, &e), 0);
	ck_assert_int_eq(ibu_pgft_ibft_build(&f, &g, 1, &x, &e), 0);
	ck_assert_ptr_nonnull(x);
	labels_hold(&f, &g, x, 1);
	for (node = 0; node < f.num_nodes; node++) {
		const char *nm = f.nodes[node].name;

		if (!ibu_node_is_switch(&f.nodes[node]))
			continue;
		snprintf(want, sizeof(want), "SW<%c%c,%c>", nm[4], nm[6], nm[2]);
		ibu_pgft_ibft_sw_label(&g, x, node, got, sizeof(got));
		ck_assert_str_eq(got, want);
	}
	ck_assert_int_eq(g.num_hosts, 16);
	for (D = 0; D < g.num_hosts; D++) {
		const char *nm = f.nodes[g.host[D].node].name;

		snprintf(want, sizeof(want), "P(%c%c%c)", nm[4], nm[6], nm[8]);
		ibu_pgft_ibft_ep_label(x, D, got, sizeof(got));
		ck_assert_str_eq(got, want);
		ck_assert_uint_eq(x->pid[D], (uint32_t)((nm[4] - '0') * 4 +
				  (nm[6] - '0') * 2 + nm[8] - '0'));
	}
	ck_assert_uint_eq(x->pid[ibu_pgft_host(&g, find_named(&f, "hca-2.0.0"), 1)], 8);
	ck_assert_uint_eq(x->pid[ibu_pgft_host(&g, find_named(&f, "hca-2.1.1"), 1)], 11);
	top = find_named(&f, "sw0-0.0");
	mid = find_named(&f, "sw1-2.0");
	for (p = 1; p < f.nodes[top].num_ports &&
	     ibu_pgft_ibft_port(&f, &g, x, top, p) != 3; p++)
		;
	ck_assert_int_eq(ibu_pgft_ibft_port(&f, &g, x, top, p), 3);
	ck_assert_int_eq(f.nodes[top].ports[p].peer_node, mid);
	ck_assert_int_eq(ibu_pgft_ibft_port(&f, &g, x, mid,
					    f.nodes[top].ports[p].peer_port), 3);
	ibu_pgft_ibft_free(x);
	ibu_pgft_free(&g);
	ibu_fabric_free(&f);
}
END_TEST

static const struct {
	int m, n, links, switches;
} degraded_ibfts[] = {
	{ 4, 3, 1, 0 }, { 4, 3, 2, 1 }, { 4, 3, 0, 1 }, { 8, 3, 1, 0 },
	{ 8, 3, 3, 2 }, { 8, 3, 0, 3 }, { 6, 3, 4, 1 }, { 4, 4, 2, 1 },
	{ 8, 2, 2, 0 }, { 6, 2, 1, 0 },
};

/* Degraded IBFTs, shuffled (ibunion gen fattree M N --remove-links K
 * --remove-switches S --shuffle-ports --shuffle-records --seed X): a PGFT
 * with an IBFT's parameters gets labels that obey the paper's rule on
 * every surviving cable (labels_hold), and the missing switches and
 * cables those labels show are the faults recognition counted. (A
 * 2-level tree that lost a switch is a smaller PGFT: fewer tops or
 * pods.) */
START_TEST(ibft_labels_degraded)
{
	int seed, labelled = 0, unlabelled = 0;

	for (seed = 1; seed <= 12; seed++) {
		struct ibu_gen_opts o = {
			.shuffle_ports = 1, .shuffle_records = 1,
			.seed = (uint64_t)(seed * 7 + _i),
			.remove_links = degraded_ibfts[_i].links,
			.remove_switches = degraded_ibfts[_i].switches };
		struct ibu_fabric f;
		struct ibft_view t;
		struct ibu_pgft g;
		struct ibu_pgft_ibft *x;
		struct ibu_err e = { 0 };
		int rt, rg, m, n;

		ck_assert_int_eq(ibu_gen_fattree(&f, degraded_ibfts[_i].m,
						 degraded_ibfts[_i].n, &o, &e), 0);
		if (seed % 2)
			scramble_guids(&f);
		rg = ibu_pgft_recognize_limit(&f, &g, NULL, 0,
					      IBU_MAX_FAULTS_DEFAULT, &e);
		if (rg) {
			ibu_fabric_free(&f);
			continue;
		}
		ck_assert_int_eq(ibu_pgft_ibft_build(&f, &g, 1, &x, &e), 0);
		/* an IBFT's parameters without labels: the damage left
		 * free digits the paper's rule cannot fix (the former IBFT recogniser rejected
		 * those too); rare */
		unlabelled += !x && ibu_pgft_is_ibft(&g.P, &m, &n);
		if (x) {
			labelled++;
			labels_hold(&f, &g, x, 0);
			/* the view counts the faults the labels show and
			 * fails unless they are the product's */
			rt = ibft_view_recognize(&f, &t, &e);
			ck_assert_msg(rt == 0, "seed %d: %s", seed, e.msg);
			ck_assert_int_eq(t.num_faults, g.num_faults);
			ibft_view_free(&t);
		}
		ibu_pgft_ibft_free(x);
		ibu_pgft_free(&g);
		ibu_fabric_free(&f);
	}
	ck_assert_int_ge(labelled, 8);	/* most damaged trees are IBFTs */
	ck_assert_int_le(unlabelled, 1);
}
END_TEST

/* A PGFT that is no IBFT gets no paper labels. */
START_TEST(ibft_labels_none)
{
	struct ibu_gen_opts o = { .seed = 3 };
	struct ibu_pgft_params P;
	struct ibu_fabric f;
	struct ibu_pgft g;
	struct ibu_pgft_ibft dummy, *x = &dummy;	/* must become NULL */
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_pgft_params_parse("8,12", "1,4", "1,2", &P, &e), 0);
	ck_assert_int_eq(ibu_gen_pgft(&f, &P, 0, 0, &o, &e), 0);
	ck_assert_int_eq(ibu_pgft_recognize(&f, &g, &e), 0);
	ck_assert_int_eq(ibu_pgft_ibft_build(&f, &g, 1, &x, &e), 0);
	ck_assert_ptr_null(x);
	ibu_pgft_free(&g);
	ibu_fabric_free(&f);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pgft");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, params_parse_and_text);
	tcase_add_loop_test(tc, params_refused, 0, 8);
	tcase_add_loop_test(tc, uneven_level, 0,
			    (int)(sizeof(uneven) / sizeof(uneven[0])));
	tcase_add_loop_test(tc, ibft_labels, 0,
			    (int)(sizeof(ibfts) / sizeof(ibfts[0])));
	tcase_add_test(tc, ibft_labels_paper);
	tcase_add_loop_test(tc, ibft_labels_degraded, 0,
			    (int)(sizeof(degraded_ibfts) /
				  sizeof(degraded_ibfts[0])));
	tcase_add_test(tc, ibft_labels_none);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
