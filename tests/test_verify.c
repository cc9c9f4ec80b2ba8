/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* LFT validation: hand-made fabrics with planted faults, real dumps, and
 * the cyclic rule on generated fat trees. */
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "verify.h"
#include "dump.h"
#include "netfile.h"
#include "gen.h"
#include "cyclic_util.h"
#include "pgft_verify.h"

#define FX(name) FIXTURES_DIR "/" name

/* Runs the checks, output captured in *text (caller frees). */
static void run(const struct ibu_fabric *f, const struct ibu_lft *l,
		const struct ibu_verify_opts *o, struct ibu_verify_result *r,
		char **text)
{
	struct ibu_err e = { 0 };
	size_t len = 0;
	FILE *out = open_memstream(text, &len);
	int rc;

	ck_assert_ptr_nonnull(out);
	rc = ibu_verify_lft(f, l, o, ibu_report_file, out, r, &e);
	fclose(out);
	ck_assert_msg(rc == 0, "verify: %s", e.msg);
	ck_assert_int_eq(r->ok + r->unreachable + r->loops + r->no_updown,
			 r->pairs);
	ck_assert_int_le(r->needed_turns, r->ok);
}

static int count_lines(const char *text, const char *prefix)
{
	int n = 0;
	size_t len = strlen(prefix);
	const char *s = text;

	while (s && *s) {
		if (!strncmp(s, prefix, len))
			n++;
		s = strchr(s, '\n');
		if (s)
			s++;
	}
	return n;
}

/* ------------------------------------------------ a hand-made triangle
 *
 *   a1 - A[1]   A[2] - B[2]   B[3] - C[2]   A[3] - C[3]   C[1] - c1   C[4] - c2
 * LIDs: A 1, B 2, C 3, a1 4, c1 5, c2 6.
 */
struct tri {
	struct ibu_fabric f;
	struct ibu_lft l;
	int A, B, C, a1, c1, c2;
};

static void tri_build(struct tri *t)
{
	static const uint8_t lft[3][7] = {
		/*      0   1  2  3  4  5  6 */
		{ 0xff, 0, 2, 3, 1, 3, 3 },	/* A */
		{ 0xff, 2, 0, 3, 2, 3, 3 },	/* B */
		{ 0xff, 3, 2, 0, 3, 1, 4 },	/* C */
	};
	struct ibu_err e = { 0 };
	int i;

	ck_assert_int_eq(ibu_fabric_init(&t->f, "triangle"), 0);
	ck_assert_int_eq(ibu_fabric_add_node(&t->f, IBU_NODE_SWITCH, "A", 0x10, 4, &t->A, &e), 0);
	ck_assert_int_eq(ibu_fabric_add_node(&t->f, IBU_NODE_SWITCH, "B", 0x20, 4, &t->B, &e), 0);
	ck_assert_int_eq(ibu_fabric_add_node(&t->f, IBU_NODE_SWITCH, "C", 0x30, 4, &t->C, &e), 0);
	ck_assert_int_eq(ibu_fabric_add_node(&t->f, IBU_NODE_CA, "a1", 0x100, 1, &t->a1, &e), 0);
	ck_assert_int_eq(ibu_fabric_add_node(&t->f, IBU_NODE_CA, "c1", 0x200, 1, &t->c1, &e), 0);
	ck_assert_int_eq(ibu_fabric_add_node(&t->f, IBU_NODE_CA, "c2", 0x300, 1, &t->c2, &e), 0);
	ck_assert_int_eq(ibu_fabric_link(&t->f, t->a1, 1, t->A, 1, &e), 0);
	ck_assert_int_eq(ibu_fabric_link(&t->f, t->A, 2, t->B, 2, &e), 0);
	ck_assert_int_eq(ibu_fabric_link(&t->f, t->B, 3, t->C, 2, &e), 0);
	ck_assert_int_eq(ibu_fabric_link(&t->f, t->A, 3, t->C, 3, &e), 0);
	ck_assert_int_eq(ibu_fabric_link(&t->f, t->C, 1, t->c1, 1, &e), 0);
	ck_assert_int_eq(ibu_fabric_link(&t->f, t->C, 4, t->c2, 1, &e), 0);
	t->f.nodes[t->A].ports[0].lid = 1;
	t->f.nodes[t->B].ports[0].lid = 2;
	t->f.nodes[t->C].ports[0].lid = 3;
	t->f.nodes[t->a1].ports[1].lid = 4;
	t->f.nodes[t->c1].ports[1].lid = 5;
	t->f.nodes[t->c2].ports[1].lid = 6;
	ck_assert_int_eq(ibu_lft_init(&t->l, &t->f, 6, &e), 0);
	for (i = 0; i < 3; i++)
		memcpy(t->l.row[t->A + i], lft[i], 7);
}

static void tri_free(struct tri *t)
{
	ibu_lft_free(&t->l);
	ibu_fabric_free(&t->f);
}

START_TEST(tri_clean)
{
	struct tri t;
	struct ibu_verify_result r;
	char *out;

	tri_build(&t);
	run(&t.f, &t.l, NULL, &r, &out);
	ck_assert_int_eq(r.sources, 3);
	ck_assert_int_eq(r.lids, 6);
	ck_assert_int_eq(r.pairs, 15);
	ck_assert_int_eq(ibu_verify_problems(&r), 0);
	ck_assert_int_eq(r.hops[1], 5);
	ck_assert_int_eq(r.hops[2], 10);
	ck_assert_int_eq(count_lines(out, "-E-"), 0);
	ck_assert_ptr_nonnull(strstr(out, "-I- hop histogram (switches traversed): 1:5 2:10"));
	free(out);
	tri_free(&t);
}
END_TEST

/* One planted fault per case: switch, LID, new port, and what it causes. */
static const struct {
	int sw;			/* 0 A, 1 B, 2 C */
	uint32_t lid;
	uint8_t port;
	long unreachable, loops, nonminimal;
	const char *text;
} fault[] = {
	{ 0, 5, 0xff, 1, 0, 0,
	  "-E- unreachable: 'a1' port 1 -> LID 0x0005 ('c1' port 1): no entry (0xff) at 'A'" },
	{ 0, 5, 4, 1, 0, 0, "'A' sends it to port 4, not cabled" },
	{ 0, 5, 7, 1, 0, 0, "'A' sends it to port 7 of 4" },
	{ 0, 5, 0, 1, 0, 0, "'A' keeps it (port 0) but does not own it" },
	/* C delivers c1's LID to c2: a1's and c2's routes both fail */
	{ 2, 5, 4, 2, 0, 0, "'C' port 4 delivers it to 'c2' port 1" },
	/* A -> B -> A */
	{ 1, 5, 2, 0, 1, 0, "-E- loop: 'a1' port 1 -> LID 0x0005 ('c1' port 1): loop through" },
	/* A -> B -> C: 3 switches where 2 do */
	{ 0, 5, 2, 0, 0, 1,
	  "-E- non-minimal: 'a1' port 1 -> LID 0x0005 ('c1' port 1): 3 switches, shortest 2; detour at 'A' port 2" },
	/* a switch LID: C keeps B's LID */
	{ 2, 2, 0, 2, 0, 0, "-> LID 0x0002 ('B'): 'C' keeps it (port 0)" },
};

START_TEST(tri_fault)
{
	struct tri t;
	struct ibu_verify_result r;
	char *out;

	tri_build(&t);
	if (_i == 5) {		/* the loop needs A to send LID 5 to B too */
		t.l.row[t.A][5] = 2;
	}
	t.l.row[t.A + fault[_i].sw][fault[_i].lid] = fault[_i].port;
	run(&t.f, &t.l, NULL, &r, &out);
	ck_assert_int_eq(r.unreachable, fault[_i].unreachable);
	ck_assert_int_eq(r.loops, fault[_i].loops);
	ck_assert_int_eq(r.nonminimal, fault[_i].nonminimal);
	ck_assert_msg(strstr(out, fault[_i].text) != NULL,
		      "case %d: no '%s' in:\n%s", _i, fault[_i].text, out);
	ck_assert_int_eq(count_lines(out, "-E- "),
			 fault[_i].unreachable + fault[_i].loops +
			 fault[_i].nonminimal);
	free(out);
	tri_free(&t);
}
END_TEST

/*
 * Up*|down* by rank: A and C on top (A above C by index), B below. A -> B
 * -> C for c1's LID goes down, then up: a turn, and longer than the legal
 * A -> C. Without ranks the same tables only show the detour.
 */
START_TEST(tri_updown)
{
	static const int rank[6] = { 0, 1, 0, 2, 2, 2 };	/* A B C a1 c1 c2 */
	struct ibu_verify_opts o = { .rank = rank };
	struct tri t;
	struct ibu_verify_result r;
	char *out;

	tri_build(&t);
	run(&t.f, &t.l, &o, &r, &out);
	ck_assert_int_eq(ibu_verify_problems(&r), 0);
	ck_assert_int_eq(r.turns, 0);
	free(out);
	t.l.row[t.A][5] = 2;		/* A -> B -> C */
	run(&t.f, &t.l, &o, &r, &out);
	ck_assert_int_eq(r.turns, 1);
	ck_assert_int_eq(r.nonminimal, 1);
	ck_assert_ptr_nonnull(strstr(out,
		"-E- down-up turn: 'a1' port 1 -> LID 0x0005 ('c1' port 1)"));
	free(out);
	run(&t.f, &t.l, NULL, &r, &out);	/* without ranks: no turns */
	ck_assert_int_eq(r.turns, 0);
	ck_assert_int_eq(r.nonminimal, 1);
	free(out);
	tri_free(&t);
}
END_TEST

/*
 * Pairs without any up*|down* path: the cable A - C cut, ranks A top, C
 * middle, B bottom. A -> B is down and B -> C up, so a1 has no legal path
 * to C's LIDs (C, c1, c2) and c1, c2 none to A's (A, a1): 7 pairs. Routed
 * through B they take the one turn they need (no error: tri_updown has a
 * turn where a legal path exists); left unrouted they are no error (a
 * warning), and without ranks they are unreachable.
 */
START_TEST(tri_no_updown)
{
	static const int rank[6] = { 0, 2, 1, 3, 3, 3 };	/* A B C a1 c1 c2 */
	struct ibu_verify_opts o = { .rank = rank };
	struct tri t;
	struct ibu_verify_result r;
	char *out;

	tri_build(&t);
	t.f.nodes[t.A].ports[3].peer_node = -1;	/* cut A[3] - C[3] */
	t.f.nodes[t.C].ports[3].peer_node = -1;
	t.l.row[t.A][3] = t.l.row[t.A][5] = t.l.row[t.A][6] = 2;
	t.l.row[t.C][1] = t.l.row[t.C][4] = 2;
	/* the turn is the only way: reached, not an error (whether it is
	 * safe is check --deadlock's question) */
	run(&t.f, &t.l, &o, &r, &out);
	ck_assert_int_eq(r.turns, 0);
	ck_assert_int_eq(r.needed_turns, 7);
	ck_assert_int_eq(r.unreachable, 0);
	ck_assert_int_eq(ibu_verify_problems(&r), 0);
	ck_assert_ptr_nonnull(strstr(out, "-I- 7 routes take a down-up turn where no up*/down* path exists"));
	free(out);
	t.l.row[t.A][3] = t.l.row[t.A][5] = t.l.row[t.A][6] = 0xff;
	t.l.row[t.C][1] = t.l.row[t.C][4] = 0xff;
	run(&t.f, &t.l, &o, &r, &out);
	ck_assert_int_eq(r.turns, 0);
	ck_assert_int_eq(r.unreachable, 0);
	ck_assert_int_eq(r.no_updown, 7);
	ck_assert_int_eq(ibu_verify_problems(&r), 0);
	ck_assert_ptr_nonnull(strstr(out, "-W- 7 routes left unrouted where no up*/down* path exists"));
	free(out);
	run(&t.f, &t.l, NULL, &r, &out);	/* without ranks: unreachable */
	ck_assert_int_eq(r.unreachable, 7);
	free(out);
	tri_free(&t);
}
END_TEST

START_TEST(max_errors_and_totals)
{
	struct tri t;
	struct ibu_verify_result r;
	struct ibu_verify_opts o = { .max_errors = 1 };
	char *out;

	tri_build(&t);
	t.l.row[t.C][4] = IBU_NO_PATH;	/* c1 and c2 lose a1 */
	run(&t.f, &t.l, &o, &r, &out);
	ck_assert_int_eq(r.unreachable, 2);
	ck_assert_int_eq(count_lines(out, "-E- unreachable:"), 1);
	ck_assert_ptr_nonnull(strstr(out, "-E- 2 unreachable routes in total, 1 shown"));
	free(out);
	o.max_errors = -1;
	o.quiet = 1;
	run(&t.f, &t.l, &o, &r, &out);
	ck_assert_int_eq(r.unreachable, 2);
	ck_assert_int_eq(count_lines(out, "-E- unreachable:"), 0);
	ck_assert_int_eq(count_lines(out, "-I-"), 0);
	ck_assert_ptr_nonnull(strstr(out, "-E- 2 unreachable routes in total, 0 shown"));
	free(out);
	tri_free(&t);
}
END_TEST

/* A port without a LID is not a destination, and is warned about. */
START_TEST(lidless_port_warned)
{
	struct tri t;
	struct ibu_verify_result r;
	char *out;

	tri_build(&t);
	t.f.nodes[t.c2].ports[1].lid = 0;
	run(&t.f, &t.l, NULL, &r, &out);
	ck_assert_int_eq(r.lids, 5);
	ck_assert_int_eq(ibu_verify_problems(&r), 0);
	ck_assert_ptr_nonnull(strstr(out, "-W- 1 cabled end ports have no LID"));
	/* ... and LID 6 is now routed but owned by nobody */
	ck_assert_ptr_nonnull(strstr(out, "-W- 3 LFT entries route LIDs that no port owns"));
	free(out);
	tri_free(&t);
}
END_TEST

/* ------------------------------------------------ real dumps */

static void load(const char *net, const char *dump, struct ibu_fabric *f,
		 struct ibu_lft *l)
{
	struct ibu_err e = { 0 };

	ck_assert_msg(ibu_netfile_read(net, f, &e) == 0, "%s", e.msg);
	ck_assert_msg(ibu_dump_read_lfts(dump, f, l, &e) == 0, "%s", e.msg);
}

START_TEST(real_minhop_dumps_pass)
{
	struct ibu_fabric f;
	struct ibu_lft l;
	struct ibu_verify_result r;
	char *out;

	load(FX("ft43.net"), FX("ft43-lmc2.lfts"), &f, &l);
	run(&f, &l, NULL, &r, &out);
	ck_assert_int_eq(r.sources, 16);
	ck_assert_int_eq(r.lids, 84);
	ck_assert_int_eq(r.pairs, 16 * 84 - 16 * 4);
	ck_assert_int_eq(ibu_verify_problems(&r), 0);
	/* to the 60 end-port LIDs of the other 15 hosts: 4 via the leaf,
	 * 8 via level 1, 48 via the top */
	ck_assert_int_eq(r.hops[1], 16 * 4 + 16);	/* + own leaf's LID */
	ck_assert_int_eq(r.hops[5], 16 * 48 + 16 * 6);
	free(out);
	ibu_lft_free(&l);
	ibu_fabric_free(&f);

	load(FX("2sw2path4hca-lmc1.ibnd"), FX("2sw2path4hca-lmc1.osm-lfts.dump"),
	     &f, &l);
	run(&f, &l, NULL, &r, &out);
	ck_assert_int_eq(r.sources, 4);
	ck_assert_int_eq(r.lids, 10);
	ck_assert_int_eq(ibu_verify_problems(&r), 0);
	free(out);
	ibu_lft_free(&l);
	ibu_fabric_free(&f);
}
END_TEST

static int port_to(const struct ibu_fabric *f, int a, int b)
{
	int p;

	for (p = 1; p <= f->nodes[a].num_ports; p++)
		if (f->nodes[a].ports[p].peer_node == b)
			return p;
	ck_abort_msg("'%s' is not cabled to '%s'", f->nodes[a].name,
		     f->nodes[b].name);
	return -1;
}

START_TEST(real_dump_planted_faults)
{
	struct ibu_fabric f;
	struct ibu_lft l;
	struct ibu_verify_result r;
	char *out;
	int leaf, up, h;
	uint32_t far;

	load(FX("ft43.net"), FX("ft43-lmc2.lfts"), &f, &l);
	leaf = ibu_fabric_find_name(&f, "S2-3.1");
	/* H-0.0.0's base LID (4) unreachable from the two hosts of S2-3.1 */
	l.row[leaf][4] = IBU_NO_PATH;
	run(&f, &l, NULL, &r, &out);
	ck_assert_int_eq(r.unreachable, 2);
	ck_assert_int_eq(r.loops + r.nonminimal, 0);
	ck_assert_int_eq(count_lines(out, "-E- unreachable:"), 2);
	ck_assert_ptr_nonnull(strstr(out, "-> LID 0x0004 ('H-0.0.0' port 1): no entry (0xff) at 'S2-3.1'"));
	free(out);
	l.row[leaf][4] = 3;

	/* a loop: S2-0.0 sends a far LID up, its parent sends it back */
	leaf = ibu_fabric_find_name(&f, "S2-0.0");
	h = ibu_fabric_find_name(&f, "H-3.1.1");
	far = f.nodes[h].ports[1].lid;
	up = f.nodes[leaf].ports[l.row[leaf][far]].peer_node;
	l.row[up][far] = (uint8_t)port_to(&f, up, leaf);
	run(&f, &l, NULL, &r, &out);
	ck_assert_int_ge(r.loops, 2);	/* both hosts of S2-0.0 */
	ck_assert_int_eq(r.unreachable, 0);
	ck_assert_ptr_nonnull(strstr(out, "-E- loop: 'H-0.0.0' port 1 -> LID"));
	free(out);
	ibu_lft_free(&l);
	ibu_fabric_free(&f);
}
END_TEST

/* ------------------------------------------------ cyclic */

struct tree {
	struct ibu_fabric f;
	struct ibft_view t;
	struct lidplan p;
	struct ibu_lft l;
	struct ibu_cyclic_pgft *c[2];	/* the engine's view, by rule */
};

/* The engine's tree under rule mode: the PGFT with the paper's labels. */
static struct ibu_cyclic_pgft *one_rule(const struct ibu_fabric *f,
					enum ibu_cyclic_offsets mode)
{
	struct ibu_cyclic_pgft *c;
	struct ibu_err e = { 0 };

	ck_assert_msg(one_path(f, mode == IBU_OFFSETS_PAPER ?
			       IBU_CYCLIC_PAPER : IBU_CYCLIC_PAPER_ROTATED,
			       &c, &e) == 0, "%s", e.msg);
	ck_assert_ptr_nonnull(c->paper);
	return c;
}

static void tree_route_mode(struct tree *x, int m, int n, int lmc,
			    enum lid_numbering how, int shuffle,
			    enum ibu_cyclic_offsets mode)
{
	struct ibu_gen_opts o = { .seed = 7, .shuffle_ports = shuffle,
				  .shuffle_records = shuffle };
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_gen_fattree(&x->f, m, n, &o, &e), 0);
	ck_assert_msg(ibft_view_recognize(&x->f, &x->t, &e) == 0, "%s", e.msg);
	ck_assert_msg(paper_lids(&x->f, lmc, how, &e) == 0,
		      "%s", e.msg);
	ck_assert_int_eq(lidplan_build(&x->f, &x->p, &e), 0);
	ck_assert_int_eq(ibu_lft_init(&x->l, &x->f, x->p.map.max_lid, &e), 0);
	ck_assert_msg(cyclic_route(&x->f, &x->p, mode, &x->l,
				       &e) == 0, "%s", e.msg);
	x->c[IBU_OFFSETS_ROTATED] = one_rule(&x->f, IBU_OFFSETS_ROTATED);
	x->c[IBU_OFFSETS_PAPER] = one_rule(&x->f, IBU_OFFSETS_PAPER);
}

/* The default rule (destination-rotated offsets). */
static void tree_route(struct tree *x, int m, int n, int lmc,
		       enum lid_numbering how, int shuffle)
{
	tree_route_mode(x, m, n, lmc, how, shuffle, IBU_OFFSETS_ROTATED);
}

static void tree_free(struct tree *x)
{
	ibu_cyclic_pgft_free(x->c[0]);
	ibu_cyclic_pgft_free(x->c[1]);
	ibu_lft_free(&x->l);
	lidplan_free(&x->p);
	ibft_view_free(&x->t);
	ibu_fabric_free(&x->f);
}

static struct ibu_verify_rule rule;
static struct ibu_pgft_rule crule;

/* The engine's rule check (lib/fattree/pgft_verify.h) under c's rule. */
static void rule_of(const struct ibu_cyclic_pgft *c, const struct lidplan *p)
{
	crule.g = &c->g;
	crule.lmc = p->lmc;
	crule.paper = c->paper;
	crule.labels = c->ibft;
	ibu_pgft_verify_rule(&rule, &crule);
}

static void cyclic_opts(struct tree *x, struct ibu_verify_opts *o)
{
	memset(o, 0, sizeof(*o));
	crule.climb_sources = 0;
	crule.dlids = NULL;
	rule_of(x->c[IBU_OFFSETS_ROTATED], &x->p);
	o->rule = &rule;
}

START_TEST(cyclic_ibft43_passes)
{
	static const enum lid_numbering how[2] = {
		LIDS_ALIGNED, LIDS_PAPER_EXACT,
	};
	struct tree x;
	struct ibu_verify_opts o;
	struct ibu_verify_result r;
	char *out;

	tree_route(&x, 4, 3, 2, how[_i % 2], _i / 2);
	cyclic_opts(&x, &o);
	run(&x.f, &x.l, &o, &r, &out);
	ck_assert_msg(ibu_verify_problems(&r) == 0, "%s", out);
	ck_assert_int_eq(!!r.rule, 1);
	ck_assert_int_eq(r.sources, 16);
	ck_assert_int_eq(r.lids, 16 * 4 + 20);
	ck_assert_int_eq(r.rule_entries, 20 * 16 * 4);
	ck_assert_int_eq(r.path_sources, 16);
	ck_assert_int_eq(r.path_levels, 2);
	ck_assert_ptr_nonnull(strstr(out, "-I- cyclic: every source's routes share one ascending path"));
	ck_assert_int_eq(count_lines(out, "-E-"), 0);
	if (how[_i % 2] == LIDS_PAPER_EXACT)
		ck_assert_ptr_nonnull(strstr(out, "-W- 16 ports have a LID set not aligned"));
	free(out);
	tree_free(&x);
}
END_TEST

/* One flipped up-port entry is a cyclic mismatch (and nothing else). */
START_TEST(cyclic_flip_caught)
{
	struct tree x;
	struct ibu_verify_opts o;
	struct ibu_verify_result r;
	const struct ibft_view_switch *sw;
	char *out, sl[64];
	uint32_t lid;
	int s, k, other;

	tree_route(&x, 4, 3, 2, LIDS_ALIGNED, 1);
	/* a leaf, and an end-port LID of another pod: it goes up */
	for (s = 0; s < x.t.num_switches && x.t.sw[s].level != 2; s++)
		;
	sw = &x.t.sw[s];
	for (lid = 1; lid <= x.p.map.max_lid; lid++)
		if (x.p.map.owner[lid].node >= 0 &&
		    x.p.map.owner[lid].port &&
		    !ibft_view_below(&x.t, s, ibft_view_ep(&x.t, x.p.map.owner[lid].node,
							 x.p.map.owner[lid].port)))
			break;
	k = sw->k_of_phys[x.l.row[sw->node][lid]];
	ck_assert_int_gt(k, 2);		/* an up-port: 3 or 4 */
	other = sw->phys_of_k[k == 3 ? 4 : 3];
	x.l.row[sw->node][lid] = (uint8_t)other;
	cyclic_opts(&x, &o);
	run(&x.f, &x.l, &o, &r, &out);
	ck_assert_int_eq(r.rule_mismatches, 1);
	ck_assert_int_eq(r.unreachable + r.loops + r.nonminimal, 0);
	ibft_view_sw_label(&x.t, s, sl, sizeof(sl));
	ck_assert_msg(strstr(out, sl) && strstr(out, "-E- cyclic: "), "%s", out);
	ck_assert_int_eq(count_lines(out, "-E- cyclic: SW<"), 1);
	free(out);
	tree_free(&x);
}
END_TEST

/* A climb that splits: the up-port of a leaf for one LID of every end port
 * of one pod moved, so the sources under that leaf climb two ways. */
START_TEST(cyclic_split_climb_caught)
{
	struct tree x;
	struct ibu_verify_opts o;
	struct ibu_verify_result r;
	const struct ibft_view_switch *sw;
	char *out;
	uint32_t lid;
	int s, moved = 0;

	tree_route(&x, 4, 3, 2, LIDS_ALIGNED, 0);
	for (s = 0; s < x.t.num_switches && x.t.sw[s].level != 2; s++)
		;
	sw = &x.t.sw[s];
	/* every LID that climbs from this leaf on paper port 3 goes on 4 */
	for (lid = 1; lid <= x.p.map.max_lid; lid++) {
		uint8_t port = x.l.row[sw->node][lid];

		if (x.p.map.owner[lid].node < 0 || !x.p.map.owner[lid].port ||
		    port == IBU_NO_PATH || sw->k_of_phys[port] != 3)
			continue;
		if (ibft_view_ep(&x.t, x.p.map.owner[lid].node, x.p.map.owner[lid].port) % 4 != 3)
			continue;	/* only toward some destinations */
		x.l.row[sw->node][lid] = sw->phys_of_k[4];
		moved++;
	}
	ck_assert_int_gt(moved, 0);
	cyclic_opts(&x, &o);
	run(&x.f, &x.l, &o, &r, &out);
	ck_assert_int_eq(r.rule_mismatches, moved);
	ck_assert_int_ge(r.path_violations, 1);
	ck_assert_ptr_nonnull(strstr(out, "climbs through"));
	free(out);
	tree_free(&x);
}
END_TEST

/* The cyclic tables go through the dump writer and reader unchanged and
 * still pass, LMC 1 on IBFT(4,3) (one offset digit, one D-mod-k level). */
START_TEST(cyclic_through_dump)
{
	struct tree x;
	struct ibu_fabric g;
	struct ibu_lft m;
	struct ibu_cyclic_pgft *c2;
	struct lidplan p2;
	struct ibu_verify_opts o;
	struct ibu_verify_result r;
	struct ibu_dump d;
	struct ibu_err e = { 0 };
	char *text = NULL, *out;
	size_t len = 0;
	FILE *f;

	tree_route(&x, 4, 3, 1, LIDS_ALIGNED, 1);
	f = open_memstream(&text, &len);
	ck_assert_int_eq(ibu_dump_write_lfts(f, &x.f, &x.l, &e), 0);
	fclose(f);
	f = open_memstream(&out, &len);
	ck_assert_int_eq(ibu_netfile_write(f, &x.f, &e), 0);
	fclose(f);
	f = fmemopen(out, strlen(out), "r");
	ck_assert_int_eq(ibu_netfile_read_stream(f, "gen.net", &g, &e), 0);
	fclose(f);
	free(out);
	f = fmemopen(text, strlen(text), "r");
	ck_assert_msg(ibu_dump_parse_stream(f, "cyclic.dump", &d, &e) == 0, "%s", e.msg);
	fclose(f);
	ck_assert_msg(ibu_dump_apply(&d, &g, &m, NULL, &e) == 0, "%s", e.msg);
	c2 = one_rule(&g, IBU_OFFSETS_ROTATED);
	ck_assert_int_eq(lidplan_build(&g, &p2, &e), 0);
	ck_assert_int_eq(p2.lmc, 1);
	memset(&o, 0, sizeof(o));
	crule.climb_sources = 0;
	crule.dlids = NULL;
	rule_of(c2, &p2);
	o.rule = &rule;
	run(&g, &m, &o, &r, &out);
	ck_assert_msg(ibu_verify_problems(&r) == 0, "%s", out);
	ck_assert_int_eq(r.rule_entries, 20 * 16 * 2);
	ck_assert_int_eq(r.path_levels, 1);
	free(out);
	free(text);
	ibu_dump_free(&d);
	lidplan_free(&p2);
	ibu_cyclic_pgft_free(c2);
	ibu_lft_free(&m);
	ibu_fabric_free(&g);
	tree_free(&x);
}
END_TEST

/*
 * Each rule passes when checked as itself and fails entry by entry when
 * checked as the other one (the base LIDs of destinations whose digits
 * are not all 0 differ). IBFT(8,3), IBFT(6,3) at LMC 4, IBFT(4,4) at
 * LMC 3, shuffled.
 */
START_TEST(cyclic_modes_distinguished)
{
	static const int cfg[][3] = { { 8, 3, 4 }, { 6, 3, 4 }, { 4, 4, 3 } };
	enum ibu_cyclic_offsets built = (enum ibu_cyclic_offsets)(_i % 2);
	enum ibu_cyclic_offsets other = built == IBU_OFFSETS_PAPER ?
		IBU_OFFSETS_ROTATED : IBU_OFFSETS_PAPER;
	struct tree x;
	struct ibu_verify_opts o;
	struct ibu_verify_result r;
	char *out;

	tree_route_mode(&x, cfg[_i / 2][0], cfg[_i / 2][1], cfg[_i / 2][2],
			LIDS_ALIGNED, 1, built);
	cyclic_opts(&x, &o);
	rule_of(x.c[built], &x.p);
	run(&x.f, &x.l, &o, &r, &out);
	ck_assert_msg(ibu_verify_problems(&r) == 0, "%s", out);
	ck_assert_int_eq(r.path_levels, x.t.n - 1);
	free(out);
	rule_of(x.c[other], &x.p);
	o.max_errors = 1;
	run(&x.f, &x.l, &o, &r, &out);
	ck_assert_int_gt(r.rule_mismatches, 0);
	ck_assert_int_eq(r.unreachable + r.loops + r.nonminimal, 0);
	ck_assert_ptr_nonnull(strstr(out, "-E- cyclic: SW<"));
	free(out);
	tree_free(&x);
}
END_TEST

/* Pairs (SLID, DLID) for every ordered pair: the cyclic DLIDs, or the
 * base LIDs (base = 1). */
static void make_pairs(const struct tree *x, enum ibu_cyclic_offsets mode,
		       int base, struct ibu_dlid_pairs *dp)
{
	int N = x->t.num_endports, a, b;

	memset(dp, 0, sizeof(*dp));
	dp->pair = calloc((size_t)N * N, sizeof(*dp->pair));
	dp->source = strdup("t.pairs");
	ck_assert_ptr_nonnull(dp->pair);
	ck_assert_ptr_nonnull(dp->source);
	for (a = 0; a < N; a++)
		for (b = 0; b < N; b++) {
			const struct ibft_view_endport *sa = &x->t.ep[a], *db = &x->t.ep[b];
			struct ibu_dlid_pair *pr = &dp->pair[dp->num];

			if (a == b)
				continue;
			pr->slid = x->f.nodes[sa->node].ports[sa->port].lid;
			pr->dlid = x->f.nodes[db->node].ports[db->port].lid;
			if (!base)
				pr->dlid += cyclic_offset(&x->t,
					x->p.offset_digits, mode, (uint32_t)a,
					(uint32_t)b);
			pr->line = (int)++dp->num;
		}
}

/* check --dlids: the cyclic DLIDs of `ibunion path` pass, base DLIDs make
 * every source climb several ways (rotated), a SLID or DLID no end port holds is a
 * file:line error; missing pairs are a warning. */
START_TEST(cyclic_dlids)
{
	enum ibu_cyclic_offsets mode = (enum ibu_cyclic_offsets)(_i % 2);
	struct ibu_dlid_pairs dp;
	struct tree x;
	struct ibu_verify_opts o;
	struct ibu_verify_result r;
	struct ibu_err e = { 0 };
	char *out;

	tree_route_mode(&x, _i < 2 ? 6 : 8, 3, 4, LIDS_ALIGNED, 1, mode);
	cyclic_opts(&x, &o);
	rule_of(x.c[mode], &x.p);
	make_pairs(&x, mode, 0, &dp);
	crule.dlids = &dp;
	run(&x.f, &x.l, &o, &r, &out);
	ck_assert_msg(ibu_verify_problems(&r) == 0, "%s", out);
	ck_assert_int_eq(r.path_sources, x.t.num_endports);
	ck_assert_ptr_nonnull(strstr(out, "on the given DLIDs"));
	ck_assert_int_eq(r.warnings, 0);
	free(out);
	/* one pair missing: a warning, still no problem */
	dp.num--;
	run(&x.f, &x.l, &o, &r, &out);
	ck_assert_int_eq(ibu_verify_problems(&r), 0);
	ck_assert_ptr_nonnull(strstr(out, "-W- cyclic: 1 ordered pairs of end ports have no line in t.pairs"));
	free(out);
	/* a DLID of a switch, a SLID that is not a base LID */
	dp.num++;
	dp.pair[5].dlid = x.f.nodes[x.t.sw[0].node].ports[0].lid;
	ck_assert_int_eq(ibu_verify_lft(&x.f, &x.l, &o, NULL, NULL, &r, &e),
			 IBU_EPARSE);
	ck_assert_msg(strstr(e.msg, "t.pairs:6: DLID 0x"), "%s", e.msg);
	dp.pair[5].dlid = dp.pair[4].dlid;
	dp.pair[7].slid++;
	ck_assert_int_eq(ibu_verify_lft(&x.f, &x.l, &o, NULL, NULL, &r, &e),
			 IBU_EPARSE);
	ck_assert_msg(strstr(e.msg, "t.pairs:8: SLID 0x"), "%s", e.msg);
	ibu_dlid_pairs_free(&dp);
	/* base LIDs: under the rotated rule every source climbs more than
	 * one way; under Eq. 2 they all climb the first up-ports (one chain,
	 * the same for every source of a leaf: the concentration) */
	make_pairs(&x, mode, 1, &dp);
	o.max_errors = 2;
	run(&x.f, &x.l, &o, &r, &out);
	if (mode == IBU_OFFSETS_ROTATED) {
		ck_assert_int_eq(r.path_violations, x.t.num_endports);
		ck_assert_ptr_nonnull(strstr(out, "(t.pairs:"));
	} else {
		ck_assert_int_eq(r.path_violations, 0);
	}
	free(out);
	ibu_dlid_pairs_free(&dp);
	crule.dlids = NULL;
	tree_free(&x);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("verify");
	TCase *tc = tcase_create("triangle");
	TCase *real = tcase_create("real");
	TCase *cyc = tcase_create("cyclic");

	tcase_add_test(tc, tri_clean);
	tcase_add_loop_test(tc, tri_fault, 0, sizeof(fault) / sizeof(fault[0]));
	tcase_add_test(tc, tri_updown);
	tcase_add_test(tc, tri_no_updown);
	tcase_add_test(tc, max_errors_and_totals);
	tcase_add_test(tc, lidless_port_warned);
	suite_add_tcase(s, tc);
	tcase_add_test(real, real_minhop_dumps_pass);
	tcase_add_test(real, real_dump_planted_faults);
	suite_add_tcase(s, real);
	tcase_add_loop_test(cyc, cyclic_ibft43_passes, 0, 4);
	tcase_add_test(cyc, cyclic_flip_caught);
	tcase_add_test(cyc, cyclic_split_climb_caught);
	tcase_add_test(cyc, cyclic_through_dump);
	tcase_add_loop_test(cyc, cyclic_modes_distinguished, 0, 6);
	tcase_add_loop_test(cyc, cyclic_dlids, 0, 4);
	suite_add_tcase(s, cyc);
	return s;
}

IBU_UNIT_MAIN
