/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * An IBFT on the cyclic engine's one path (lib/fattree/pgft_ibft.h through
 * lib/fattree/cyclic_pgft.h). Recognition: IBFT(m,n) as a PGFT with its
 * parameters and the paper's labels, read through tests/ibft_view.h
 * (shapes, shuffles, canonical labels, damaged trees, rejections with the
 * recogniser's own reasons). LIDs: the LMC the paper needs, the paper's
 * LID sets ([Zhou07] sect. 3.1) and their aligned shift, the LID space,
 * the guid2lid file OpenSM reads, LID owners.
 */
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "gen.h"
#include "cyclic_util.h"
#include "pgft_util.h"
#include "guid2lid.h"
#include "ibft_view.h"
#include "netfile.h"

START_TEST(needed_lmc_and_digits)
{
	ck_assert_int_eq(needed_lmc(4, 3), 2);
	ck_assert_int_eq(needed_lmc(8, 3), 4);
	ck_assert_int_eq(needed_lmc(8, 2), 2);
	ck_assert_int_eq(needed_lmc(6, 2), 2);	/* 3 paths */
	ck_assert_int_eq(needed_lmc(6, 3), 4);	/* 9 paths */
	ck_assert_int_eq(needed_lmc(16, 3), 6);
	ck_assert_int_eq(needed_lmc(32, 3), 8);	/* beyond IBA's 7 */
	ck_assert_int_eq(offset_digits(2, 3, 2), 2);
	ck_assert_int_eq(offset_digits(4, 3, 2), 1);
	ck_assert_int_eq(offset_digits(4, 3, 4), 2);
	ck_assert_int_eq(offset_digits(4, 3, 7), 2);	/* capped at n-1 */
	ck_assert_int_eq(offset_digits(3, 2, 1), 0);	/* 2 < 3 */
	ck_assert_int_eq(offset_digits(3, 3, 4), 2);
}
END_TEST

/* The largest LMC <= want whose paper numbering fits the LID space. */
static int fit_lmc(const struct ibu_fabric *f, int want, enum lid_numbering how)
{
	struct ibu_cyclic_pgft *c;
	struct ibu_err e = { 0 };
	int fit;

	ck_assert_int_eq(one_path(f, IBU_CYCLIC_PAPER, &c, &e), 0);
	ck_assert_ptr_nonnull(c->ibft);
	fit = ibu_pgft_ibft_fit_lmc(c->ibft, want, how == LIDS_PAPER_EXACT);
	ibu_cyclic_pgft_free(c);
	return fit;
}

static void setup(struct ibu_fabric *f, struct ibft_view *t, int m, int n)
{
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_gen_fattree(f, m, n, NULL, &e), 0);
	ck_assert_int_eq(ibft_view_recognize(f, t, &e), 0);
}

/* Paper Fig. 4: BaseLID(P(300)) = 49, LIDset(P(300)) = {49, 50, 51, 52}. */
START_TEST(paper_lidset_p300)
{
	struct ibu_fabric f;
	struct ibft_view t;
	struct lidplan p;
	struct ibu_err e = { 0 };
	int pid = 3 * 4, node, port, o;

	setup(&f, &t, 4, 3);
	ck_assert_int_eq(paper_lids(&f, 2, LIDS_PAPER_EXACT, &e), 0);
	ck_assert_int_eq(t.ep[pid].p[0], 3);
	node = t.ep[pid].node;
	port = t.ep[pid].port;
	ck_assert_int_eq(f.nodes[node].ports[port].lid, 49);
	ck_assert_int_eq(f.nodes[node].ports[port].lmc, 2);
	ck_assert_int_eq(lidplan_build(&f, &p, &e), 0);
	for (o = 0; o < 4; o++) {
		ck_assert_int_eq(p.map.owner[49 + o].node, node);
		ck_assert_int_eq(p.map.owner[49 + o].port, port);
		ck_assert_int_eq(p.map.owner[49 + o].offset, o);
	}
	ck_assert_int_ne(p.map.owner[53].node, node);
	/* P(200) = PID 8 -> 33 (path Q's LID) */
	ck_assert_int_eq(p.map.owner[33].node, t.ep[8].node);
	ck_assert_int_eq(p.lmc, 2);
	ck_assert_int_eq(p.lmc_needed, 2);
	ck_assert_int_eq(p.offset_digits, 2);
	/* 16 end ports x 4 LIDs, then 20 switch LIDs 65..84 */
	ck_assert_uint_eq(p.map.max_lid, 84);
	ck_assert_int_ge(p.map.owner[65].node, 0);
	ck_assert(ibu_node_is_switch(&f.nodes[p.map.owner[65].node]));
	lidplan_free(&p);
	ibft_view_free(&t);
	ibu_fabric_free(&f);
}
END_TEST

/* The aligned numbering OpenSM accepts keeps order and sets: 2^lmc (PID+1). */
START_TEST(aligned_numbering)
{
	struct ibu_fabric f;
	struct ibft_view t;
	struct ibu_err e = { 0 };
	uint32_t pid;

	setup(&f, &t, 8, 3);
	ck_assert_int_eq(paper_lids(&f, 4, LIDS_ALIGNED, &e), 0);
	for (pid = 0; pid < (uint32_t)t.num_endports; pid++) {
		const struct ibu_port *pt = &f.nodes[t.ep[pid].node].ports[t.ep[pid].port];

		ck_assert_uint_eq(pt->lid, (pid + 1) * 16);
		ck_assert_uint_eq(pt->lid % 16, 0);
	}
	ck_assert_uint_eq(paper_base(12, 2, LIDS_ALIGNED), 52);
	ck_assert_uint_eq(paper_base(12, 2, LIDS_PAPER_EXACT), 49);
	ibft_view_free(&t);
	ibu_fabric_free(&f);
}
END_TEST

/* A damaged IBFT keeps the paper's LIDs in the default mode too, so a
 * cut does not renumber what `ibunion route` assigns. */
START_TEST(damaged_keeps_paper_lids)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .remove_links = 2, .seed = 4 };
	struct ibu_fabric f;
	struct ibft_view t;
	struct ibu_cyclic_pgft *c;
	struct ibu_err e = { 0 };
	int used, n = 0;
	uint32_t pid;

	ck_assert_int_eq(ibu_gen_fattree(&f, 8, 3, &o, &e), 0);
	ck_assert_msg(ibft_view_recognize_limit(&f, &t, 4, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(t.num_faults, 2);
	ck_assert_msg(one_path(&f, IBU_CYCLIC_GENERALISED, &c, &e) == 0, "%s",
		      e.msg);
	ck_assert_int_eq(c->g.num_faults, 2);
	ck_assert_int_eq(ibu_cyclic_pgft_assign_lids(&f, c, 4, 0, &used, &e), 0);
	ck_assert_int_eq(used, 4);
	for (pid = 0; pid < (uint32_t)t.num_endports; pid++) {
		if (t.ep[pid].node < 0)
			continue;
		ck_assert_uint_eq(f.nodes[t.ep[pid].node].ports[t.ep[pid].port].lid,
				  (pid + 1) * 16);
		n++;
	}
	ck_assert_int_eq(n, 128);
	ibu_cyclic_pgft_free(c);
	ibft_view_free(&t);
	ibu_fabric_free(&f);
}
END_TEST

START_TEST(lid_space_limit)
{
	struct ibu_fabric f;
	struct ibft_view t;
	struct ibu_err e = { 0 };

	/* IBFT(32,2): 512 end ports; LMC 7 needs 65k LIDs */
	setup(&f, &t, 32, 2);
	ck_assert_int_eq(paper_lids(&f, 7, LIDS_ALIGNED, &e),
			 IBU_ELID);
	ck_assert_ptr_nonnull(strstr(e.msg, "0xBFFF"));
	ck_assert_int_eq(fit_lmc(&f, 7, LIDS_ALIGNED), 6);
	ck_assert_int_eq(paper_lids(&f, 6, LIDS_ALIGNED, &e), 0);
	ck_assert_int_eq(paper_lids(&f, 8, LIDS_ALIGNED, &e),
			 IBU_EINVAL);
	ibft_view_free(&t);
	ibu_fabric_free(&f);
}
END_TEST

START_TEST(guid2lid_format)
{
	struct ibu_fabric f;
	struct ibft_view t;
	struct ibu_err e = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	setup(&f, &t, 4, 2);
	ck_assert_int_eq(paper_lids(&f, 1, LIDS_ALIGNED, &e), 0);
	out = open_memstream(&buf, &len);
	ck_assert_int_eq(ibu_guid2lid_write(out, &f, &e), 0);
	fclose(out);
	/* first record: hca-0.0 (GUID 0x100000, port GUID 0x100001), PID 0 */
	ck_assert_ptr_nonnull(strstr(buf, "0x0000000000100001 0x0002 0x0003\n\n"));
	/* 8 end ports + 6 switches, each record followed by a blank line */
	{
		int recs = 0;
		const char *c;

		for (c = buf; (c = strstr(c, "\n\n")); c += 2)
			recs++;
		ck_assert_int_eq(recs, 14);
	}
	free(buf);
	ibft_view_free(&t);
	ibu_fabric_free(&f);
}
END_TEST

START_TEST(owner_conflict)
{
	struct ibu_fabric f;
	struct ibft_view t;
	struct lidplan p;
	struct ibu_err e = { 0 };

	setup(&f, &t, 4, 2);
	ck_assert_int_eq(paper_lids(&f, 1, LIDS_ALIGNED, &e), 0);
	/* two ports claim LID 2 */
	f.nodes[t.ep[1].node].ports[t.ep[1].port].lid = 2;
	ck_assert_int_eq(lidplan_build(&f, &p, &e), IBU_ELID);
	ck_assert_ptr_nonnull(strstr(e.msg, "0x0002"));
	ibft_view_free(&t);
	ibu_fabric_free(&f);
}
END_TEST

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
	ibft_view_expect_reject(&f, IBU_MAX_FAULTS_DEFAULT,
				"not an IBFT: PGFT(3; 2,2,4; 1,2,2; 1,1,1)");
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
	ibft_view_expect_reject(&f, IBU_MAX_FAULTS_DEFAULT,
				"not a PGFT: 1 leaf switch");
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
	Suite *s = suite_create("pgft_ibft");
	TCase *tr = tcase_create("recognise");
	TCase *tc = tcase_create("lids");
	int ns = sizeof(sizes) / sizeof(sizes[0]);

	tcase_set_timeout(tr, 120);
	tcase_add_loop_test(tr, generated_plain, 0, ns);
	tcase_add_loop_test(tr, generated_shuffled, 0, ns);
	tcase_add_test(tr, plain_labels_match_generator);
	tcase_add_test(tr, reject_missing_link);
	tcase_add_test(tr, reject_rewired);
	tcase_add_test(tr, reject_example_fabric);
	tcase_add_test(tr, lca_and_below);
	tcase_add_loop_test(tr, canonical_under_permutation, 0, ns);
	tcase_add_loop_test(tr, degraded_top_any_cables, 0, 3);
	tcase_add_loop_test(tr, degraded_middle_any_cables, 0, 3);
	suite_add_tcase(s, tr);
	tcase_add_test(tc, needed_lmc_and_digits);
	tcase_add_test(tc, paper_lidset_p300);
	tcase_add_test(tc, aligned_numbering);
	tcase_add_test(tc, damaged_keeps_paper_lids);
	tcase_add_test(tc, lid_space_limit);
	tcase_add_test(tc, guid2lid_format);
	tcase_add_test(tc, owner_conflict);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
