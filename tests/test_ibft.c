/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "gen.h"
#include "ibft_view.h"
#include "netfile.h"

/*
 * IBFT(m,n) recognition by the one recogniser (ibu_cyclic_pgft_recognise:
 * a PGFT with IBFT(m,n)'s parameters, the paper's labels from
 * lib/fattree/pgft_ibft.h), read through tests/ibft_view.h: shapes,
 * shuffles, canonical labels, damaged trees, rejections with the
 * recogniser's own reasons.
 */

/*
 * Independent restatement of the paper's link rule (sect. 2.2) checked on
 * every cabled port of the recognised tree, in paper port numbers.
 */
static void assert_paper_rule(const struct ibu_fabric *f,
			      const struct ibft_view *t)
{
	int s, k, i, h = t->half, n = t->n;

	for (s = 0; s < t->num_switches; s++) {
		const struct ibft_view_switch *sw = &t->sw[s];
		const struct ibu_node *nd = &f->nodes[sw->node];

		for (k = 1; k <= t->m; k++) {
			int phys = sw->phys_of_k[k];
			const struct ibu_port *pt;
			int peer, c;

			ck_assert_int_gt(phys, 0);
			ck_assert_int_eq(sw->k_of_phys[phys], k);
			pt = &nd->ports[phys];
			peer = pt->peer_node;
			ck_assert_int_ge(peer, 0);
			c = ibft_view_sw(t, peer);
			if (sw->level == n - 1 && k <= h) {
				/* leaf port p(n-1)+1 meets P(p), p = w + digit */
				int pid = ibft_view_ep(t, peer, pt->peer_port);

				ck_assert_int_ge(pid, 0);
				ck_assert_int_eq(t->ep[pid].p[n - 1] + 1, k);
				for (i = 0; i < n - 1; i++)
					ck_assert_int_eq(t->ep[pid].p[i], sw->w[i]);
			} else if (sw->level == 0 || k <= h) {
				/* down: k = w'_l + 1 and k' = w_(n-2) + h + 1 */
				const struct ibft_view_switch *cw = &t->sw[c];
				int l = sw->level;

				ck_assert_int_eq(cw->level, l + 1);
				ck_assert_int_eq(cw->w[l] + 1, k);
				ck_assert_int_eq(cw->k_of_phys[pt->peer_port],
						 sw->w[n - 2] + h + 1);
				for (i = 0; i < l; i++)
					ck_assert_int_eq(sw->w[i], cw->w[i]);
				for (i = l; i <= n - 3; i++)
					ck_assert_int_eq(sw->w[i], cw->w[i + 1]);
			} else {
				ck_assert_int_eq(t->sw[c].level, sw->level - 1);
			}
		}
	}
	/* labels are a bijection */
	for (s = 0; s < t->num_switches; s++)
		ck_assert_int_eq(ibft_view_find_switch(t, t->sw[s].level,
						      t->sw[s].w), s);
	for (i = 0; i < t->num_endports; i++)
		ck_assert_int_eq(t->ep[i].pid, (uint32_t)i);
}

static void recognise_generated(int m, int n, const struct ibu_gen_opts *o)
{
	struct ibu_fabric f;
	struct ibft_view t;
	struct ibu_err e = { 0 };
	int rc;

	ck_assert_int_eq(ibu_gen_fattree(&f, m, n, o, &e), 0);
	rc = ibft_view_recognize(&f, &t, &e);
	ck_assert_msg(rc == 0, "IBFT(%d,%d): %s", m, n, e.msg);
	ck_assert_int_eq(t.m, m);
	ck_assert_int_eq(t.n, n);
	assert_paper_rule(&f, &t);
	ibft_view_free(&t);
	ibu_fabric_free(&f);
}

static const int sizes[][2] = {
	{ 4, 2 }, { 4, 3 }, { 4, 4 }, { 6, 2 }, { 6, 3 }, { 8, 2 }, { 8, 3 },
	{ 10, 2 }, { 12, 3 }, { 16, 2 }, { 4, 5 },
};

START_TEST(generated_plain)
{
	recognise_generated(sizes[_i][0], sizes[_i][1], NULL);
}
END_TEST

START_TEST(generated_shuffled)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .extra_ports = 0 };
	int seed;

	for (seed = 1; seed <= 5; seed++) {
		o.seed = (uint64_t)seed * 7919 + (uint64_t)_i;
		o.extra_ports = seed % 3;
		recognise_generated(sizes[_i][0], sizes[_i][1], &o);
	}
}
END_TEST

/* Unshuffled, the generator gives GUIDs in label order, and the free digit
 * choices follow GUID order: names and labels coincide. */
START_TEST(plain_labels_match_generator)
{
	struct ibu_fabric f;
	struct ibft_view t;
	struct ibu_err e = { 0 };
	int s;

	ck_assert_int_eq(ibu_gen_fattree(&f, 4, 3, NULL, &e), 0);
	ck_assert_int_eq(ibft_view_recognize(&f, &t, &e), 0);
	for (s = 0; s < t.num_switches; s++) {
		char want[32];

		snprintf(want, sizeof(want), "sw%d-%u.%u", t.sw[s].level,
			 t.sw[s].w[0], t.sw[s].w[1]);
		ck_assert_str_eq(f.nodes[t.sw[s].node].name, want);
	}
	ibft_view_free(&t);
	ibu_fabric_free(&f);
}
END_TEST

static void expect_reject(struct ibu_fabric *f, const char *needle)
{
	struct ibft_view t;
	struct ibu_err e = { 0 };
	int rc = ibft_view_recognize(f, &t, &e);

	ck_assert_int_eq(rc, IBU_ETOPO);
	ck_assert_msg(strstr(e.msg, needle), "message '%s' lacks '%s'", e.msg,
		      needle);
	ck_assert_ptr_null(t.sw);
}

/* A missing link is a fault of a degraded tree (tests/test_cyclic_faults.c);
 * with a limit of 0 faults only exact trees pass. */
START_TEST(reject_missing_link)
{
	struct ibu_gen_opts o = { .remove_links = 1, .seed = 5 };
	struct ibu_fabric f;
	struct ibft_view t;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_gen_fattree(&f, 8, 3, &o, &e), 0);
	ck_assert_int_eq(ibft_view_recognize(&f, &t, &e), 0);
	ck_assert_int_eq(t.num_faults, 1);
	ck_assert_int_eq(t.faults[0].kind, IBFT_VIEW_MISSING_LINK);
	ibft_view_free(&t);
	ck_assert_int_eq(ibft_view_recognize_limit(&f, &t, 0, &e), IBU_ETOPO);
	ck_assert_msg(strstr(e.msg, "(max_faults 0)"), "%s", e.msg);
	ibu_fabric_free(&f);
}
END_TEST

START_TEST(reject_rewired)
{
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	int a = -1, b = -1, i;

	/* swap the far ends of two up-links of different leaves: degrees and
	 * counts stay right, only the link rule can tell */
	ck_assert_int_eq(ibu_gen_fattree(&f, 4, 3, NULL, &e), 0);
	a = ibu_fabric_find_name(&f, "sw2-0.0");
	b = ibu_fabric_find_name(&f, "sw2-1.0");
	ck_assert_int_ge(a, 0);
	ck_assert_int_ge(b, 0);
	{
		struct ibu_port *pa = &f.nodes[a].ports[3], *pb = &f.nodes[b].ports[3];
		int na = pa->peer_node, qa = pa->peer_port;
		int nb = pb->peer_node, qb = pb->peer_port;

		pa->peer_node = nb; pa->peer_port = qb;
		pb->peer_node = na; pb->peer_port = qa;
		f.nodes[nb].ports[qb].peer_node = a;
		f.nodes[nb].ports[qb].peer_port = 3;
		f.nodes[na].ports[qa].peer_node = b;
		f.nodes[na].ports[qa].peer_port = 3;
	}
	expect_reject(&f, "not an IBFT: PGFT(3; 2,2,4; 1,2,2; 1,1,1)");
	(void)i;
	ibu_fabric_free(&f);
}
END_TEST

START_TEST(reject_example_fabric)
{
	static const char net[] =
		"Switch 8 \"Switch1\"\n[1] \"Hca1\"[1]\n[2] \"Hca3\"[1]\n[3] \"Switch2\"[3]\n[5] \"Switch2\"[5]\n\n"
		"Switch 8 \"Switch2\"\n[1] \"Hca2\"[1]\n[2] \"Hca4\"[1]\n[3] \"Switch1\"[3]\n[5] \"Switch1\"[5]\n\n"
		"Hca 2 \"Hca1\"\n[1] \"Switch1\"[1]\n\nHca 2 \"Hca2\"\n[1] \"Switch2\"[1]\n\n"
		"Hca 2 \"Hca3\"\n[1] \"Switch1\"[2]\n\nHca 2 \"Hca4\"\n[1] \"Switch2\"[2]\n";
	FILE *in = fmemopen((void *)net, sizeof(net) - 1, "r");
	struct ibu_fabric f;
	struct ibu_err e = { 0 };

	ck_assert_ptr_nonnull(in);
	ck_assert_int_eq(ibu_netfile_read_stream(in, "2sw2path4hca", &f, &e), 0);
	fclose(in);
	expect_reject(&f, "not a PGFT: 1 leaf switch");
	ibu_fabric_free(&f);
}
END_TEST

START_TEST(lca_and_below)
{
	struct ibu_fabric f;
	struct ibft_view t;
	struct ibu_err e = { 0 };
	uint8_t w20[] = { 2, 0 };
	int sw20_1;

	ck_assert_int_eq(ibu_gen_fattree(&f, 4, 3, NULL, &e), 0);
	ck_assert_int_eq(ibft_view_recognize(&f, &t, &e), 0);
	/* paper: gcp(P(200), P(211)) = 2, lca = {SW<20,1>, SW<21,1>} */
	ck_assert_int_eq(ibft_view_lca_level(&t, 8, 11), 1);
	/* PID(P(200)) = 8, PID(P(211)) = 11 */
	ck_assert_int_eq(t.ep[8].p[0], 2);
	ck_assert_int_eq(t.ep[11].p[1], 1);
	ck_assert_int_eq(t.ep[11].p[2], 1);
	sw20_1 = ibft_view_find_switch(&t, 1, w20);
	ck_assert_int_ge(sw20_1, 0);
	ck_assert(ibft_view_below(&t, sw20_1, 8));
	ck_assert(ibft_view_below(&t, sw20_1, 11));
	ck_assert(!ibft_view_below(&t, sw20_1, 0));
	ibft_view_free(&t);
	ibu_fabric_free(&f);
}
END_TEST

/*
 * The same fabric as f with nodes in another order and every switch's
 * physical ports permuted; GUIDs (node and port) are kept.
 */
static void permute_fabric(const struct ibu_fabric *f, struct ibu_fabric *g,
			   uint64_t seed)
{
	int N = f->num_nodes, i, p, *order = malloc(N * sizeof(int));
	int **perm = calloc(N, sizeof(int *)), *idx = malloc(N * sizeof(int));
	uint64_t st = seed;
	struct ibu_err e = { 0 };

	ck_assert(order && perm && idx);
	for (i = 0; i < N; i++)
		order[i] = i;
	for (i = N - 1; i > 0; i--) {
		int j = (int)(ibu_gen_rand(&st) % (uint64_t)(i + 1)), x = order[i];

		order[i] = order[j];
		order[j] = x;
	}
	ck_assert_int_eq(ibu_fabric_init(g, "permuted"), 0);
	for (i = 0; i < N; i++) {
		const struct ibu_node *n = &f->nodes[order[i]];
		int np = n->num_ports, k;

		ck_assert_int_eq(ibu_fabric_add_node(g, n->type, n->name, n->guid,
						     np, &idx[order[i]], &e), 0);
		perm[order[i]] = malloc((np + 1) * sizeof(int));
		ck_assert(perm[order[i]]);
		for (p = 0; p <= np; p++)
			perm[order[i]][p] = p;
		for (p = np; ibu_node_is_switch(n) && p > 1; p--) {
			k = 1 + (int)(ibu_gen_rand(&st) % (uint64_t)p);
			int x = perm[order[i]][p];

			perm[order[i]][p] = perm[order[i]][k];
			perm[order[i]][k] = x;
		}
	}
	for (i = 0; i < N; i++) {
		const struct ibu_node *n = &f->nodes[i];

		for (p = 1; p <= n->num_ports; p++) {
			const struct ibu_port *pt = &n->ports[p];

			g->nodes[idx[i]].ports[perm[i][p]].guid = pt->guid;
			if (pt->peer_node < 0 || pt->peer_node < i ||
			    (pt->peer_node == i && pt->peer_port < p))
				continue;
			ck_assert_int_eq(ibu_fabric_link(g, idx[i], perm[i][p],
					 idx[pt->peer_node],
					 perm[pt->peer_node][pt->peer_port],
					 &e), 0);
		}
	}
	for (i = 0; i < N; i++)
		free(perm[i]);
	free(perm);
	free(order);
	free(idx);
}

/* Labels per GUID: switches by node GUID, end ports by port GUID. */
static void assert_same_labels(const struct ibu_fabric *f,
			       const struct ibft_view *a,
			       const struct ibu_fabric *g,
			       const struct ibft_view *b)
{
	int s, pid;

	ck_assert_int_eq(a->num_switches, b->num_switches);
	for (s = 0; s < a->num_switches; s++) {
		uint64_t guid = f->nodes[a->sw[s].node].guid;
		int node = ibu_fabric_find_guid(g, guid), t;

		ck_assert_int_ge(node, 0);
		t = ibft_view_sw(b, node);
		ck_assert_int_ge(t, 0);
		ck_assert_int_eq(a->sw[s].level, b->sw[t].level);
		ck_assert_mem_eq(a->sw[s].w, b->sw[t].w, IBFT_VIEW_MAX_N);
	}
	for (pid = 0; pid < a->num_endports; pid++) {
		const struct ibft_view_endport *ep = &a->ep[pid];
		uint64_t pg = f->nodes[ep->node].ports[ep->port].guid;
		int port, node = ibu_fabric_find_port_guid(g, pg, &port);

		ck_assert_int_ge(node, 0);
		ck_assert_int_eq(ibft_view_ep(b, node, port), pid);
	}
}

/* Canonical labels: record order and port numbers change nothing. */
START_TEST(canonical_under_permutation)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = 99 };
	struct ibu_fabric f, g;
	struct ibft_view a, b;
	struct ibu_err e = { 0 };
	int m = sizes[_i][0], n = sizes[_i][1], round;

	o.seed += (uint64_t)_i;
	ck_assert_int_eq(ibu_gen_fattree(&f, m, n, &o, &e), 0);
	ck_assert_int_eq(ibu_fabric_index(&f, &e), 0);
	ck_assert_msg(ibft_view_recognize(&f, &a, &e) == 0, "%s", e.msg);
	for (round = 1; round <= 3; round++) {
		permute_fabric(&f, &g, (uint64_t)(round * 1000 + _i));
		ck_assert_int_eq(ibu_fabric_index(&g, &e), 0);
		ck_assert_msg(ibft_view_recognize(&g, &b, &e) == 0, "%s", e.msg);
		assert_same_labels(&f, &a, &g, &b);
		ibft_view_free(&b);
		ibu_fabric_free(&g);
	}
	ibft_view_free(&a);
	ibu_fabric_free(&f);
}
END_TEST

/*
 * A top or middle switch keeps any number of its m cables (1 to
 * m-1); the tree stays recognised, every switch keeps its level and label,
 * and each lost cable is one missing link. The cables kept are chosen by
 * their far end's level (a middle switch keeps its up links first, so
 * 1..m/2 leaves it with up links only), never by port number.
 */
static void cut_to(struct ibu_fabric *f, const struct ibft_view *t, int sw,
		   int keep)
{
	struct ibu_node *n = &f->nodes[t->sw[sw].node];
	int order[2 * 256], k = 0, up, p;

	/* up links first, then down links */
	for (up = 1; up >= 0; up--)
		for (p = 1; p <= n->num_ports; p++) {
			int c = n->ports[p].peer_node;

			if (c < 0 || t->sw_of_node[c] < 0)
				continue;
			if ((t->sw[t->sw_of_node[c]].level < t->sw[sw].level) == up)
				order[k++] = p;
		}
	for (p = keep; p < k; p++) {
		struct ibu_port *a = &n->ports[order[p]];

		f->nodes[a->peer_node].ports[a->peer_port].peer_node = -1;
		a->peer_node = -1;
	}
}

static void degrade_one(int m, int level, int keep, int seed)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = (uint64_t)seed };
	struct ibu_fabric f;
	struct ibft_view a, b;
	struct ibu_err e = { 0 };
	int s, victim = -1;

	ck_assert_int_eq(ibu_gen_fattree(&f, m, 3, &o, &e), 0);
	ck_assert_msg(ibft_view_recognize(&f, &a, &e) == 0, "%s", e.msg);
	for (s = 0; s < a.num_switches && victim < 0; s++)
		if (a.sw[s].level == level)
			victim = s;
	cut_to(&f, &a, victim, keep);
	ck_assert_msg(ibft_view_recognize_limit(&f, &b, 1000, &e) == 0,
		      "IBFT(%d,3), level-%d switch keeping %d cables: %s", m,
		      level, keep, e.msg);
	ck_assert_int_eq(b.num_faults, m - keep);
	for (s = 0; s < a.num_switches; s++) {
		int t = b.sw_of_node[a.sw[s].node];

		ck_assert_int_eq(b.sw[t].level, a.sw[s].level);
		ck_assert(!memcmp(b.sw[t].w, a.sw[s].w, sizeof(a.sw[s].w)));
	}
	ibft_view_free(&a);
	ibft_view_free(&b);
	ibu_fabric_free(&f);
}

START_TEST(degraded_top_any_cables)
{
	int keep;

	for (keep = 1; keep < 8; keep++)
		degrade_one(8, 0, keep, 3 + _i);
	for (keep = 1; keep < 4; keep++)
		degrade_one(4, 0, keep, 3 + _i);
}
END_TEST

START_TEST(degraded_middle_any_cables)
{
	int keep;

	for (keep = 1; keep < 8; keep++)
		degrade_one(8, 1, keep, 3 + _i);
	for (keep = 1; keep < 4; keep++)
		degrade_one(4, 1, keep, 3 + _i);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("ibft");
	TCase *tc = tcase_create("recognize");
	int ns = sizeof(sizes) / sizeof(sizes[0]);

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, generated_plain, 0, ns);
	tcase_add_loop_test(tc, generated_shuffled, 0, ns);
	tcase_add_test(tc, plain_labels_match_generator);
	tcase_add_test(tc, reject_missing_link);
	tcase_add_test(tc, reject_rewired);
	tcase_add_test(tc, reject_example_fabric);
	tcase_add_test(tc, lca_and_below);
	tcase_add_loop_test(tc, canonical_under_permutation, 0, ns);
	tcase_add_loop_test(tc, degraded_top_any_cables, 0, 3);
	tcase_add_loop_test(tc, degraded_middle_any_cables, 0, 3);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
