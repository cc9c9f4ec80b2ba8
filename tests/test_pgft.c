/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "pgft.h"
#include "pgft_ibft.h"
#include "ibft_view.h"
#include "gen.h"
#include "gen_mesh.h"

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

static const struct {
	const char *m, *w, *p;
	int radix, spine, removed;
} shapes[] = {
	{ "8,12", "1,4", "1,2", 0, 0, 0 },	/* parallel cables */
	{ "18,8", "1,3", "1,1", 36, 0, 0 },	/* blocking 18:3, empty ports */
	{ "4,4,5", "1,4,4", "1,1,1", 0, 0, 0 },	/* 5 of 8 pods */
	{ "4,2,3", "1,2,2", "1,2,2", 0, 0, 0 },	/* 3 levels, parallel */
	{ "8,12", "1,4", "1,2", 36, 3, 5 },	/* spine hosts, hosts missing */
	{ "2,2,2,4", "1,2,2,2", "1,1,1,1", 0, 0, 0 },	/* IBFT(4,4) */
	{ "6", "1", "1", 10, 0, 0 },	/* one switch: a tree without tops */
};

/* Generated, shuffled PGFTs are found with their parameters; the host
 * order keeps every leaf's hosts together, no gaps. */
START_TEST(recognise_generated)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = 11 + (uint64_t)_i };
	struct ibu_pgft_params P;
	struct ibu_fabric f;
	struct ibu_pgft g;
	struct ibu_err e = { 0 };
	char want[96], got[96];
	int l, d, changes = 0;

	o.remove_hosts = shapes[_i].removed;
	ck_assert_int_eq(ibu_pgft_params_parse(shapes[_i].m, shapes[_i].w,
					       shapes[_i].p, &P, &e), 0);
	ck_assert_int_eq(ibu_gen_pgft(&f, &P, shapes[_i].radix,
				      shapes[_i].spine, &o, &e), 0);
	ck_assert_msg(ibu_pgft_recognize(&f, &g, &e) == 0, "%s", e.msg);
	ibu_pgft_params_text(&P, want, sizeof(want));
	ibu_pgft_params_text(&g.P, got, sizeof(got));
	ck_assert_str_eq(got, want);
	ck_assert_int_eq(g.num_spine_hosts, shapes[_i].spine);
	ck_assert_int_eq(g.num_hosts + g.num_spine_hosts,
			 ibu_fabric_count_endports(&f));
	for (d = 0; d < g.num_hosts; d++) {
		ck_assert_int_eq(ibu_pgft_host(&g,
					       g.host[d].node, g.host[d].port), d);
		changes += d && g.host[d].leaf != g.host[d - 1].leaf;
	}
	ck_assert_int_eq(changes + 1, (int)ibu_pgft_level_size(&P, 1, 1 << 20));
	for (l = 1; l < P.h; l++)
		ck_assert_int_eq(ibu_pgft_up_ports(&g.P, l),
				 P.w[l + 1] * P.p[l + 1]);
	ibu_pgft_free(&g);
	ibu_fabric_free(&f);
}
END_TEST

/* Not PGFTs: a mesh (odd cycles), a cut cable (a switch with one parent
 * less than its peers), a missing switch. */
START_TEST(recognise_refused)
{
	struct ibu_gen_opts o = { .seed = 2 };
	struct ibu_pgft_params P;
	struct ibu_fabric f;
	struct ibu_pgft g;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_gen_mesh(&f, 3, 3, 1, &o, &e), 0);
	ck_assert_int_eq(ibu_pgft_recognize(&f, &g, &e), IBU_ETOPO);
	ibu_fabric_free(&f);
	ck_assert_int_eq(ibu_pgft_params_parse("8,12", "1,4", "1,2", &P, &e), 0);
	o.remove_links = 1;
	ck_assert_int_eq(ibu_gen_pgft(&f, &P, 0, 0, &o, &e), 0);
	ck_assert_int_eq(ibu_pgft_recognize(&f, &g, &e), IBU_ETOPO);
	ck_assert_ptr_nonnull(strstr(e.msg, "missing cable"));
	ibu_fabric_free(&f);
	ck_assert_int_eq(ibu_pgft_params_parse("4,4,4", "1,2,2", "1,1,1", &P, &e), 0);
	o.remove_links = 0;
	o.remove_switches = 1;
	ck_assert_int_eq(ibu_gen_pgft(&f, &P, 0, 0, &o, &e), 0);
	ck_assert_int_eq(ibu_pgft_recognize(&f, &g, &e), IBU_ETOPO);
	ibu_fabric_free(&f);
}
END_TEST

static const struct {
	const char *m, *w, *p;
	int links, switches;
	uint64_t seed;
} damaged[] = {
	{ "8,12", "1,4", "1,2", 1, 0, 3 },	/* one of two parallel cables */
	{ "8,12", "1,4", "1,2", 3, 0, 4 },
	{ "4,4,3", "1,2,2", "1,2,1", 2, 0, 5 },
	{ "4,4,5", "1,2,4", "1,1,1", 0, 1, 6 },	/* a switch */
	{ "4,4,3", "1,2,2", "1,2,1", 2, 1, 5 },
	{ "2,2,2,2", "1,2,2,2", "1,1,1,1", 2, 0, 7 },
};

static int zero_slots(const struct ibu_fabric *f, const struct ibu_pgft *g)
{
	int n, k, z = 0;

	for (n = 0; n < f->num_nodes; n++)
		for (k = 0; g->up[n] && g->level[n] < g->P.h &&
		     k < ibu_pgft_up_ports(&g->P, g->level[n]); k++)
			z += !g->up[n][k];
	return z;
}

/*
 * A PGFT with cut cables or a missing switch keeps the parameters of
 * the tree it was built as (what the level's switches have at most): each
 * cut cable is one fault and one lost up-slot of its lower switch, a
 * missing switch one fault; every switch keeps the level and column it
 * has in the intact tree (siblings rank it); exact recognition, or a
 * limit below the count, refuses it.
 */
START_TEST(recognise_degraded)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = damaged[_i].seed };
	struct ibu_pgft_params P;
	struct ibu_fabric f, full;
	struct ibu_pgft g, gf;
	struct ibu_err e = { 0 };
	char want[96], got[96];
	int n, faults = damaged[_i].links + damaged[_i].switches;

	ck_assert_int_eq(ibu_pgft_params_parse(damaged[_i].m, damaged[_i].w,
					       damaged[_i].p, &P, &e), 0);
	ck_assert_int_eq(ibu_gen_pgft(&full, &P, 0, 0, &o, &e), 0);
	o.remove_links = damaged[_i].links;
	o.remove_switches = damaged[_i].switches;
	ck_assert_int_eq(ibu_gen_pgft(&f, &P, 0, 0, &o, &e), 0);
	ck_assert_msg(ibu_pgft_recognize(&full, &gf, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(ibu_pgft_recognize(&f, &g, &e), IBU_ETOPO);
	ck_assert_int_eq(ibu_pgft_recognize_limit(&f, &g, NULL, 0, faults - 1, &e),
			 IBU_ETOPO);
	ck_assert_ptr_nonnull(strstr(e.msg, "max_faults"));
	ck_assert_msg(ibu_pgft_recognize_limit(&f, &g, NULL, 0, -1, &e) == 0,
		      "%s", e.msg);
	ibu_pgft_params_text(&P, want, sizeof(want));
	ibu_pgft_params_text(&g.P, got, sizeof(got));
	ck_assert_str_eq(got, want);
	ck_assert_int_eq(g.num_faults, faults);
	ck_assert_int_eq(g.max_faults, ibu_pgft_default_max_faults(&P));
	if (!damaged[_i].switches)
		ck_assert_int_eq(zero_slots(&f, &g), faults);
	for (n = 0; n < f.num_nodes; n++) {
		int m = ibu_fabric_find_guid(&full, f.nodes[n].guid);

		if (!ibu_node_is_switch(&f.nodes[n]))
			continue;
		ck_assert_int_ge(m, 0);
		ck_assert_int_eq(g.level[n], gf.level[m]);
		ck_assert_msg(g.col[n] == gf.col[m],
			      "'%s': column %d, intact %d", f.nodes[n].name,
			      g.col[n], gf.col[m]);
	}
	ibu_pgft_free(&g);
	ck_assert_msg(ibu_pgft_recognize_limit(&f, &g, NULL, 0, faults, &e) == 0,
		      "%s", e.msg);
	ibu_pgft_free(&g);
	ibu_pgft_free(&gf);
	ibu_fabric_free(&f);
	ibu_fabric_free(&full);
}
END_TEST

/* Unplugs both ends of every cable of node n to a switch on level lv. */
static void unplug_to_level(struct ibu_fabric *f, const struct ibu_pgft *g,
			    int n, int lv)
{
	int p;

	for (p = 1; p <= f->nodes[n].num_ports; p++) {
		struct ibu_port *pt = &f->nodes[n].ports[p];
		int q = pt->peer_node;

		if (q < 0 || !ibu_node_is_switch(&f->nodes[q]) || g->level[q] != lv)
			continue;
		f->nodes[q].ports[pt->peer_port].peer_node = -1;
		f->nodes[q].ports[pt->peer_port].peer_port = 0;
		pt->peer_node = -1;
		pt->peer_port = 0;
	}
}

/*
 * PGFT(3; 4,4,3; 1,2,2; 1,1,1), shuffled, into f (its parameters in P),
 * with every cable of its first middle switch to level lv unplugged:
 * returns that switch, its column in the intact tree in *col.
 */
static int unplugged_middle(struct ibu_fabric *f, struct ibu_pgft_params *P,
			    int lv, int *col)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = 3 };
	struct ibu_pgft g;
	struct ibu_err e = { 0 };
	int n, mid = -1;

	ck_assert_int_eq(ibu_pgft_params_parse("4,4,3", "1,2,2", "1,1,1", P, &e), 0);
	ck_assert_int_eq(ibu_gen_pgft(f, P, 0, 0, &o, &e), 0);
	ck_assert_msg(ibu_pgft_recognize(f, &g, &e) == 0, "%s", e.msg);
	for (n = 0; n < f->num_nodes && mid < 0; n++)
		if (g.level[n] == 2)
			mid = n;
	*col = g.col[mid];
	unplug_to_level(f, &g, mid, lv);
	ibu_pgft_free(&g);
	return mid;
}

/* A middle switch that lost every cable to its parents: each of them is
 * a fault (the tree is never taken as exact with lost up-slots), and its
 * children still tell its column. */
START_TEST(recognise_parentless_middle)
{
	struct ibu_pgft_params P;
	struct ibu_fabric f;
	struct ibu_pgft g;
	struct ibu_err e = { 0 };
	char txt[256];
	int col, mid = unplugged_middle(&f, &P, 3, &col);

	ck_assert_int_eq(ibu_pgft_recognize(&f, &g, &e), IBU_ETOPO);
	ck_assert_msg(ibu_pgft_recognize_limit(&f, &g, NULL, 0, -1, &e) == 0,
		      "%s", e.msg);
	ck_assert_int_eq(g.num_faults, 2);
	ck_assert_int_eq(g.level[mid], 2);
	ck_assert_int_eq(g.col[mid], col);	/* told by its children */
	ibu_pgft_fault_text(&f, &g, 0, txt, sizeof(txt));
	ck_assert_msg(strstr(txt, "every parent: 0 of 2"), "%s", txt);
	ibu_pgft_free(&g);
	ibu_fabric_free(&f);
}
END_TEST

/* A middle switch that lost every cable to its children: the distance
 * count puts it above the tops; it goes back under them, and each lost
 * cable is a fault (4 leaves, one cable each). */
START_TEST(recognise_childless_middle)
{
	struct ibu_pgft_params P;
	struct ibu_fabric f;
	struct ibu_pgft g;
	struct ibu_err e = { 0 };
	char want[96], got[96];
	int col, mid = unplugged_middle(&f, &P, 1, &col);

	ck_assert_int_eq(ibu_pgft_recognize_limit(&f, &g, NULL, 0, 3, &e), IBU_ETOPO);
	ck_assert_msg(ibu_pgft_recognize_limit(&f, &g, NULL, 0, 4, &e) == 0,
		      "%s", e.msg);
	ibu_pgft_params_text(&P, want, sizeof(want));
	ibu_pgft_params_text(&g.P, got, sizeof(got));
	ck_assert_str_eq(got, want);
	ck_assert_int_eq(g.level[mid], 2);
	ck_assert_int_eq(g.num_faults, 4);
	ibu_pgft_free(&g);
	ibu_fabric_free(&f);
}
END_TEST

/* Unplugs both ends of the first cable between switches a and b. */
static void unplug_cable(struct ibu_fabric *f, int a, int b)
{
	int p;

	for (p = 1; p <= f->nodes[a].num_ports; p++) {
		struct ibu_port *pt = &f->nodes[a].ports[p];

		if (pt->peer_node != b)
			continue;
		f->nodes[b].ports[pt->peer_port].peer_node = -1;
		f->nodes[b].ports[pt->peer_port].peer_port = 0;
		pt->peer_node = -1;
		pt->peer_port = 0;
		return;
	}
}

/*
 * Every top switch of PGFT(3; 4,4,4; 1,2,2; 1,1,1) lost one cable down,
 * each to another middle switch: no switch of the top level has its 4
 * children, yet the 4 pods below say the shape. Recognised as built, 4
 * faults; every switch keeps its level and column.
 */
START_TEST(recognise_every_top_short)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = 6 };
	struct ibu_pgft_params P;
	struct ibu_fabric f;
	struct ibu_pgft g, gf;
	struct ibu_err e = { 0 };
	char want[96], got[96];
	int n, p, q, *cut;

	ck_assert_int_eq(ibu_pgft_params_parse("4,4,4", "1,2,2", "1,1,1", &P, &e), 0);
	ck_assert_int_eq(ibu_gen_pgft(&f, &P, 0, 0, &o, &e), 0);
	ck_assert_msg(ibu_pgft_recognize(&f, &gf, &e) == 0, "%s", e.msg);
	cut = calloc((size_t)f.num_nodes, sizeof(*cut));
	ck_assert_ptr_nonnull(cut);
	for (n = 0; n < f.num_nodes; n++)
		for (p = 1; gf.level[n] == 3 && p <= f.nodes[n].num_ports; p++) {
			q = f.nodes[n].ports[p].peer_node;
			if (q >= 0 && !cut[q] && gf.level[q] == 2) {
				cut[q] = 1;
				unplug_cable(&f, n, q);
				break;
			}
		}
	free(cut);
	ck_assert_int_eq(ibu_pgft_recognize(&f, &g, &e), IBU_ETOPO);
	ck_assert_msg(ibu_pgft_recognize_limit(&f, &g, NULL, 0, 4, &e) == 0,
		      "%s", e.msg);
	ibu_pgft_params_text(&P, want, sizeof(want));
	ibu_pgft_params_text(&g.P, got, sizeof(got));
	ck_assert_str_eq(got, want);
	ck_assert_int_eq(g.num_faults, 4);
	for (n = 0; n < f.num_nodes; n++) {
		if (!ibu_node_is_switch(&f.nodes[n]))
			continue;
		ck_assert_int_eq(g.level[n], gf.level[n]);
		ck_assert_int_eq(g.col[n], gf.col[n]);
	}
	ibu_pgft_free(&g);
	ibu_pgft_free(&gf);
	ibu_fabric_free(&f);
}
END_TEST

/* A middle switch that lost both its leaves (`ibunion gen fattree 4 3
 * --remove-links 2 --remove-switches 2 --seed 1 --shuffle-ports
 * --shuffle-records`: a top is gone too) is counted one level above the
 * tops, where two of the three tops left have it as a parent: it goes
 * back under them, and the tree is IBFT(4,3) with 4 faults. */
START_TEST(recognise_childless_under_few_tops)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = 1, .remove_links = 2,
				  .remove_switches = 2 };
	struct ibu_fabric f;
	struct ibu_pgft g;
	struct ibu_err e = { 0 };
	char got[96];
	int mid;

	ck_assert_int_eq(ibu_gen_fattree(&f, 4, 3, &o, &e), 0);
	mid = ibu_fabric_find_name(&f, "sw1-1.1");
	ck_assert_int_ge(mid, 0);
	ck_assert_msg(ibu_pgft_recognize_limit(&f, &g, NULL, 0,
					       IBU_MAX_FAULTS_DEFAULT, &e) == 0,
		      "%s", e.msg);
	ibu_pgft_params_text(&g.P, got, sizeof(got));
	ck_assert_str_eq(got, "PGFT(3; 2,2,4; 1,2,2; 1,1,1)");
	ck_assert_int_eq(g.level[mid], 2);
	ck_assert_int_eq(g.num_faults, 4);
	ibu_pgft_free(&g);
	ibu_fabric_free(&f);
}
END_TEST

/* A middle switch that lost both parents is ranked by a child that kept
 * another parent: its first child here lost that one (`gen pgft --m
 * 4,4,4 --w 1,2,2 --p 1,1,1 --remove-links 4 --remove-switches 1 --seed
 * 208148 --shuffle-ports --shuffle-records`), which left it a column of
 * its own: "3 parent columns, each switch at most 2". */
START_TEST(recognise_parentless_by_any_child)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = 208148, .remove_links = 4,
				  .remove_switches = 1 };
	struct ibu_pgft_params P;
	struct ibu_fabric f;
	struct ibu_pgft g;
	struct ibu_err e = { 0 };
	int a, b;

	ck_assert_int_eq(ibu_pgft_params_parse("4,4,4", "1,2,2", "1,1,1", &P, &e), 0);
	ck_assert_int_eq(ibu_gen_pgft(&f, &P, 0, 0, &o, &e), 0);
	a = ibu_fabric_find_name(&f, "sw2-0.0.0");
	b = ibu_fabric_find_name(&f, "sw2-0.1.0");
	ck_assert_int_ge(a, 0);
	ck_assert_int_ge(b, 0);
	ck_assert_msg(ibu_pgft_recognize_limit(&f, &g, NULL, 0,
					       IBU_MAX_FAULTS_DEFAULT, &e) == 0,
		      "%s", e.msg);
	ck_assert_int_eq(g.level[a], 2);
	ck_assert_int_ne(g.col[a], g.col[b]);
	ck_assert_int_lt(g.col[a], 2);
	ibu_pgft_free(&g);
	ibu_fabric_free(&f);
}
END_TEST

/* A leaf whose hosts are all gone is still a leaf (no fault, no gap):
 * on 2, 3 and 4 levels, where the distance count alone puts it higher. */
START_TEST(recognise_empty_leaf)
{
	static const char *sh[][3] = {
		{ "3,4", "1,2", "1,2" }, { "2,2,3", "1,2,2", "1,1,1" },
		{ "2,2,2,2", "1,2,2,2", "1,1,1,1" },
	};
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = 2 };
	struct ibu_pgft_params P;
	struct ibu_fabric f;
	struct ibu_pgft g;
	struct ibu_err e = { 0 };
	char want[96], got[96];
	int n, p, leaf = -1, hosts = 0;

	ck_assert_int_eq(ibu_pgft_params_parse(sh[_i][0], sh[_i][1], sh[_i][2],
					       &P, &e), 0);
	ck_assert_int_eq(ibu_gen_pgft(&f, &P, 0, 0, &o, &e), 0);
	/* unplug every host of the first leaf found (both cable ends) */
	for (n = 0; n < f.num_nodes && leaf < 0; n++)
		for (p = 1; !ibu_node_is_switch(&f.nodes[n]) &&
		     p <= f.nodes[n].num_ports; p++)
			if (f.nodes[n].ports[p].peer_node >= 0)
				leaf = f.nodes[n].ports[p].peer_node;
	ck_assert_int_ge(leaf, 0);
	for (p = 1; p <= f.nodes[leaf].num_ports; p++) {
		struct ibu_port *pt = &f.nodes[leaf].ports[p];
		int h = pt->peer_node;

		if (h < 0 || ibu_node_is_switch(&f.nodes[h]))
			continue;
		f.nodes[h].ports[pt->peer_port].peer_node = -1;
		f.nodes[h].ports[pt->peer_port].peer_port = 0;
		pt->peer_node = -1;
		pt->peer_port = 0;
		hosts++;
	}
	ck_assert_int_gt(hosts, 0);
	ck_assert_msg(ibu_pgft_recognize(&f, &g, &e) == 0, "%s", e.msg);
	ibu_pgft_params_text(&P, want, sizeof(want));
	ibu_pgft_params_text(&g.P, got, sizeof(got));
	ck_assert_str_eq(got, want);
	ck_assert_int_eq(g.level[leaf], 1);
	ck_assert_int_eq(g.num_faults, 0);
	ck_assert_int_eq(g.num_hosts, ibu_fabric_count_endports(&f));
	ibu_pgft_free(&g);
	ibu_fabric_free(&f);
}
END_TEST

/* The top switches of f by the generator's names (the test knows what it
 * built; the engine never reads names): their node GUIDs. */
static int tops_of(const struct ibu_fabric *f, int h, uint64_t *out, int max)
{
	char prefix[8];
	int i, n = 0;

	snprintf(prefix, sizeof(prefix), "sw%d-", h);
	for (i = 0; i < f->num_nodes && n < max; i++)
		if (!strncmp(f->nodes[i].name, prefix, strlen(prefix)))
			out[n++] = f->nodes[i].guid;
	return n;
}

/*
 * Hosts on the top switches of a 3-level PGFT make those tops look like
 * leaves: the end ports alone cannot place them. Named in a
 * root_guid_file, the tops give the levels: the same parameters as the
 * generator's, the spine hosts above the leaves. Without hosts on
 * spines the roots change nothing; unknown GUIDs are skipped; roots that
 * are no tops, or none of this fabric, are refused.
 */
START_TEST(recognise_with_roots)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = 7 };
	struct ibu_pgft_params P;
	struct ibu_fabric f;
	struct ibu_pgft g, a;
	struct ibu_err e = { 0 };
	uint64_t roots[64];
	char want[96], got[96];
	int n, d;

	ck_assert_int_eq(ibu_pgft_params_parse("4,4,3", "1,2,2", "1,1,1", &P, &e), 0);
	ck_assert_int_eq(ibu_gen_pgft(&f, &P, 0, 2, &o, &e), 0);
	ck_assert_int_eq(ibu_pgft_recognize(&f, &g, &e), IBU_ETOPO);
	n = tops_of(&f, 3, roots, 63);
	ck_assert_int_eq(n, 4);
	roots[n] = 0xdeadbeefull;	/* another subnet's switch */
	ck_assert_msg(ibu_pgft_recognize_roots(&f, &g, roots, n + 1, &e) == 0,
		      "%s", e.msg);
	ibu_pgft_params_text(&P, want, sizeof(want));
	ibu_pgft_params_text(&g.P, got, sizeof(got));
	ck_assert_str_eq(got, want);
	ck_assert_int_eq(g.num_spine_hosts, 2);
	ck_assert_int_eq(g.num_hosts, 48);
	ibu_pgft_free(&g);
	/* roots that are leaves, or none of the fabric's */
	ck_assert_int_eq(tops_of(&f, 1, roots, 63), 12);
	ck_assert_int_eq(ibu_pgft_recognize_roots(&f, &g, roots, 12, &e), IBU_ETOPO);
	roots[0] = 0xdeadbeefull;
	ck_assert_int_eq(ibu_pgft_recognize_roots(&f, &g, roots, 1, &e), IBU_ETOPO);
	ck_assert_ptr_nonnull(strstr(e.msg, "root_guid_file"));
	ibu_fabric_free(&f);

	/* no hosts on spines: the same tree either way */
	ck_assert_int_eq(ibu_gen_pgft(&f, &P, 0, 0, &o, &e), 0);
	ck_assert_int_eq(ibu_pgft_recognize(&f, &a, &e), 0);
	n = tops_of(&f, 3, roots, 63);
	ck_assert_int_eq(ibu_pgft_recognize_roots(&f, &g, roots, n, &e), 0);
	ck_assert_int_eq(g.num_hosts, a.num_hosts);
	for (d = 0; d < g.num_hosts; d++) {
		ck_assert_int_eq(g.host[d].node, a.host[d].node);
		ck_assert_int_eq(g.host[d].port, a.host[d].port);
	}
	ibu_pgft_free(&a);
	ibu_pgft_free(&g);
	ibu_fabric_free(&f);
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

/* The default fault limit: a tenth of the switch-to-switch cables, a
 * small tree up to a third of them (at most 7). */
START_TEST(default_fault_limit)
{
	static const struct {
		const char *m, *w, *p;
		int limit;
	} t[] = {
		{ "4,6", "1,1", "1,2", 4 },	/* 12 cables: 4 */
		{ "4,6", "1,2", "1,2", 7 },	/* 24: a third is 8, at most 7 */
		{ "8,12", "1,4", "1,2", 9 },	/* 96: a tenth */
		{ "2,3", "1,1", "1,1", 1 },	/* 3: one */
	};
	struct ibu_pgft_params P;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_pgft_params_parse(t[_i].m, t[_i].w, t[_i].p, &P,
					       &e), 0);
	ck_assert_int_eq(ibu_pgft_default_max_faults(&P), t[_i].limit);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pgft");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, params_parse_and_text);
	tcase_add_loop_test(tc, default_fault_limit, 0, 4);
	tcase_add_loop_test(tc, params_refused, 0, 8);
	tcase_add_loop_test(tc, recognise_generated, 0,
			    (int)(sizeof(shapes) / sizeof(shapes[0])));
	tcase_add_test(tc, recognise_refused);
	tcase_add_loop_test(tc, recognise_degraded, 0,
			    (int)(sizeof(damaged) / sizeof(damaged[0])));
	tcase_add_loop_test(tc, recognise_empty_leaf, 0, 3);
	tcase_add_test(tc, recognise_parentless_middle);
	tcase_add_test(tc, recognise_childless_middle);
	tcase_add_test(tc, recognise_every_top_short);
	tcase_add_test(tc, recognise_childless_under_few_tops);
	tcase_add_test(tc, recognise_parentless_by_any_child);
	tcase_add_test(tc, recognise_with_roots);
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
