/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The engine "cyclic" (lib/fattree/engine_cyclic.c): a fat tree recognised
 * once as the PGFT it is, an IBFT's paper labels on it (the paper's rule
 * only with offsets=paper, a PGFT keeping the generalised one with a
 * note), LIDs at the LMC the rule needs or what fits, one route: the
 * tables ibu_pgft_route_stats() writes for the same LIDs, exact or
 * degraded; an admin's host order, the notes of a degraded tree, and the
 * ops the tools call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "engines.h"
#include "cyclic_pgft.h"
#include "gen.h"
#include "gen_mesh.h"
#include "lidmap.h"
#include "pgft.h"
#include "pgft_verify.h"

/* offsets=paper is the IBFT's Eq. 2: a PGFT says it keeps the rotated
 * rule (a warning note), with the same tables as without the option. */
START_TEST(paper_offsets_on_pgft_noted)
{
	const struct ibu_engine_ops *ops = ibu_engine_find("cyclic");
	struct ibu_gen_opts go = { .seed = 2 };
	struct ibu_pgft_params P = { .h = 2, .m = { 0, 4, 4 },
				     .w = { 0, 1, 2 }, .p = { 0, 1, 2 } };
	struct ibu_engine_opts o;
	struct ibu_engine_result a, b;
	struct ibu_engine_note note;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	int i, n;

	ck_assert_int_eq(ibu_gen_pgft(&f, &P, 0, 0, &go, &e), 0);
	with_lids(ops, &f, NULL, 2);
	ck_assert_msg(ibu_engine_run(ops, &f, NULL, &a, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(ops->num_notes(a.topo), 0);
	ibu_engine_opts_default(&o);
	ck_assert_int_eq(ibu_engine_opts_parse_word(&o, "offsets=paper", NULL), 0);
	ck_assert_msg(ibu_engine_run(ops, &f, &o, &b, &e) == 0, "%s", e.msg);
	n = ops->num_notes(b.topo);
	ck_assert_int_eq(n, 1);
	ops->note(&f, b.topo, n - 1, &note);
	ck_assert_int_eq(note.severity, IBU_NOTE_SEV_WARNING);
	ck_assert_msg(!strncmp(note.text, "offsets=paper not applied", 25), "%s",
		      note.text);
	for (i = 0; i < f.num_nodes; i++)
		if (a.lft.row[i])
			ck_assert_mem_eq(a.lft.row[i], b.lft.row[i],
					 a.lft.max_lid + 1);
	ibu_engine_result_free(&a);
	ibu_engine_result_free(&b);
	ibu_fabric_free(&f);
}
END_TEST

/* The summary and the last note of an engine run on f with o. */
static void run_summary(const struct ibu_engine_ops *ops,
			const struct ibu_fabric *f,
			const struct ibu_engine_opts *o, char *sum, size_t len,
			struct ibu_engine_note *last)
{
	struct ibu_engine_result r;
	struct ibu_err e = { 0 };
	int n;

	ck_assert_msg(ibu_engine_run(ops, f, o, &r, &e) == 0, "%s", e.msg);
	ops->describe(f, r.topo, sum, len);
	n = ops->num_notes(r.topo);
	ck_assert_int_ge(n, 1);
	ops->note(f, r.topo, n - 1, last);
	ibu_engine_result_free(&r);
}

/*
 * guid_routing_order_file on an IBFT: the hosts are numbered in the
 * admin's order by the generalised rule (the IBFT as the PGFT it is);
 * with offsets=paper the paper's labels stay and a note says the file
 * was not applied.
 */
START_TEST(order_file_on_ibft)
{
	const struct ibu_engine_ops *ops = ibu_engine_find("cyclic");
	struct ibu_gen_opts go = { .shuffle_ports = 1, .shuffle_records = 1,
				   .seed = 3 };
	struct ibu_engine_opts o;
	struct ibu_engine_note note;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	uint64_t guid[64];
	char sum[512];
	int i, n = 0;

	ck_assert_int_eq(ibu_gen_fattree(&f, 4, 3, &go, &e), 0);
	with_lids(ops, &f, NULL, 2);
	for (i = f.num_nodes - 1; i >= 0 && n < 64; i--)
		if (!ibu_node_is_switch(&f.nodes[i]))
			guid[n++] = f.nodes[i].ports[1].guid;
	ck_assert_int_eq(n, 16);
	ibu_engine_opts_default(&o);
	o.host_order = guid;
	o.num_host_order = n;
	run_summary(ops, &f, &o, sum, sizeof(sum), &note);
	ck_assert_msg(!strncmp(sum, "PGFT(3; 2,2,4; 1,2,2; 1,1,1)", 28), "%s", sum);
	ck_assert_msg(strstr(note.text, "guid_routing_order_file, 16 compute hosts listed"),
		      "%s", note.text);
	ck_assert_int_eq(ibu_engine_opts_parse_word(&o, "offsets=paper", NULL), 0);
	run_summary(ops, &f, &o, sum, sizeof(sum), &note);
	ck_assert_msg(!strncmp(sum, "IBFT(4,3)", 9), "%s", sum);
	ck_assert_msg(strstr(note.text, "not applied: with offsets=paper"), "%s",
		      note.text);
	ibu_fabric_free(&f);
}
END_TEST

/* The notes of a degraded tree, worded by the engine: one warning per
 * fault, their count, then the entries left unrouted. */
static void notes_of_degraded(const struct ibu_fabric *f,
			      const struct ibu_engine_result *r, long unrouted)
{
	const struct ibu_engine_ops *ops = r->ops;
	struct ibu_engine_note note;
	char want[64];
	int n = ops->num_notes(r->topo);

	ck_assert_int_eq(n, 2 + (unrouted > 0));  /* 1 fault, the count */
	ops->note(f, r->topo, 0, &note);
	ck_assert_int_eq(note.kind, IBU_NOTE_FAULT);
	ck_assert_int_eq(note.severity, IBU_NOTE_SEV_WARNING);
	ck_assert_msg(!strncmp(note.text, "fault 1 of 1: missing cable ", 28),
		      "%s", note.text);
	ops->note(f, r->topo, 1, &note);
	ck_assert_int_eq(note.kind, IBU_NOTE_FAULTS);
	ck_assert_str_eq(note.text,
			 "1 faults (missing links and switches) routed around");
	if (!unrouted)
		return;
	ops->note(f, r->topo, 2, &note);
	ck_assert_int_eq(note.kind, IBU_NOTE_UNROUTED);
	snprintf(want, sizeof(want), "%ld (leaf switch, LID) entries", unrouted);
	ck_assert_msg(!strncmp(note.text, want, strlen(want)), "%s", note.text);
}

/*
 * A degraded tree: where no up*|down* path is left (a leaf that lost its
 * parent toward some switches' LIDs) the engine routes with one down-up
 * turn, so every switch has an entry for every LID, the check stage lets
 * it pass, and the summary counts the turned entries.
 */
START_TEST(run_cyclic_degraded)
{
	const struct ibu_engine_ops *ops = ibu_engine_find("cyclic");
	struct ibu_gen_opts go = { .shuffle_ports = 1, .shuffle_records = 1,
				   .remove_links = 1, .seed = 3 };
	struct ibu_engine_result r;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	char what[512];
	void *topo;
	enum ibu_engine_decline_kind kind;
	uint32_t lid;
	long unrouted = 0;
	int i, p, used;

	ck_assert_int_eq(ibu_gen_fattree(&f, 8, 3, &go, &e), 0);
	ck_assert_int_eq(ops->recognise(&f, NULL, &topo, &kind, &e), 0);
	ck_assert_int_eq(ops->assign_lids(&f, topo, 4, 0, &used, &e), 0);
	ops->topo_free(topo);
	ck_assert_msg(ibu_engine_run(ops, &f, NULL, &r, &e) == 0, "%s", e.msg);
	for (i = 0; i < f.num_nodes; i++) {
		int leaf = 0;

		if (!ibu_node_is_switch(&f.nodes[i]))
			continue;
		for (p = 1; p <= f.nodes[i].num_ports; p++)
			leaf |= f.nodes[i].ports[p].peer_node >= 0 &&
				!ibu_node_is_switch(&f.nodes[f.nodes[i].ports[p].peer_node]);
		for (lid = 1; lid <= r.map.max_lid; lid++)
			if (ibu_lidmap_get(&r.map, lid) &&
			    r.lft.row[i][lid] == IBU_NO_PATH) {
				ck_assert_msg(leaf, "'%s' has no entry for LID %u",
					      f.nodes[i].name, lid);
				unrouted++;
			}
	}
	ck_assert_int_eq(unrouted, 0);
	ops->describe(&f, r.topo, what, sizeof(what));
	ck_assert_msg(strstr(what, "degraded: 1 faults") &&
		      strstr(what, ", 0 left unrouted at leaves") &&
		      !strstr(what, "; 0 turned once"), "%s", what);
	notes_of_degraded(&f, &r, unrouted);
	ibu_engine_result_free(&r);
	ibu_fabric_free(&f);
}
END_TEST

/*
 * The VL plan through the engine's ops: IBFT(4,3) with 4 cut cables and a
 * switch gone (seed 138028) routed with qos TRUE: in use, SL 1 for exactly
 * the pairs whose route in the tables turns down-up (some of them),
 * multicast DLIDs SL 0, SL 0 -> VL 0 and SL 1 -> VL 1 at every port, the
 * other SLs as QoS maps them;
 * the same fabric with qos FALSE or turns=shared: no plan (path_sl -1,
 * sl2vl refused: OpenSM keeps its QoS SLs and SL2VL tables).
 */
START_TEST(own_vl_plan_ops)
{
	const struct ibu_engine_ops *ops = ibu_engine_find("cyclic");
	struct ibu_gen_opts go = { .shuffle_ports = 1, .shuffle_records = 1,
				   .remove_links = 4, .remove_switches = 1,
				   .seed = 138028 };
	const struct ibu_cyclic_pgft *c;
	struct ibu_engine_result r;
	struct ibu_engine_opts eo;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	enum ibu_engine_decline_kind kind;
	uint8_t vl[16];
	uint32_t s, d;
	void *topo;
	int used, sl, ones = 0, k, mode;

	ck_assert_int_eq(ibu_gen_fattree(&f, 4, 3, &go, &e), 0);
	ck_assert_int_eq(ops->recognise(&f, NULL, &topo, &kind, &e), 0);
	ck_assert_int_eq(ops->assign_lids(&f, topo, 0, 0, &used, &e), 0);
	ops->topo_free(topo);
	for (mode = 0; mode < 3; mode++) {
		ibu_engine_opts_default(&eo);
		eo.qos = mode != 1;
		eo.max_vls = 4;
		if (mode == 2)
			ck_assert_int_eq(ibu_engine_opts_parse_word(&eo, "turns=shared", NULL), 0);
		ck_assert_msg(ibu_engine_run(ops, &f, &eo, &r, &e) == 0, "%s", e.msg);
		c = r.topo;
		ck_assert_int_eq(ops->vl.in_use(r.topo), mode == 0);
		if (mode) {
			ck_assert_int_eq(ops->vl.path_sl(&f, r.topo, &r.map, &eo, 1, 2), -1);
			ck_assert_int_eq(ops->vl.sl2vl(&f, r.topo, &eo, 0, 1, 2, vl), IBU_EINVAL);
			ibu_engine_result_free(&r);
			continue;
		}
		for (s = 1; s <= r.map.max_lid; s++)
			for (d = 1; d <= r.map.max_lid; d++) {
				const struct ibu_lid_owner *o = ibu_lidmap_get(&r.map, s);
				int sw;

				if (!o || !ibu_lidmap_get(&r.map, d))
					continue;
				sw = ibu_node_is_switch(&f.nodes[o->node]) ? o->node :
				     f.nodes[o->node].ports[o->port].peer_node;
				sl = ops->vl.path_sl(&f, r.topo, &r.map, &eo,
						     (uint16_t)s, (uint16_t)d);
				ck_assert_int_eq(sl, ibu_lft_route_has_valley(&f, &r.lft, sw, d, c->g.level));
				ones += sl;
			}
		ck_assert_int_gt(ones, 0);
		ck_assert_int_eq(ops->vl.path_sl(&f, r.topo, &r.map, &eo, 1, 0xC001), 0);
		ck_assert_int_eq(ops->vl.sl2vl(&f, r.topo, &eo, 0, 1, 2, vl), 0);
		for (k = 0; k < 16; k++)
			ck_assert_int_eq(vl[k], k < 2 ? k : IBU_VL_KEEP);
		ibu_engine_result_free(&r);
	}
	ibu_fabric_free(&f);
}
END_TEST

/* The ops the tools use in place of the fat-tree calls: ranks, end-port
 * order and labels, advised DLIDs and the drawing layout agree with each
 * other on a shuffled tree. */
START_TEST(cyclic_tool_ops)
{
	const struct ibu_engine_ops *ops = ibu_engine_find("cyclic");
	struct ibu_gen_opts go = { .shuffle_ports = 1, .shuffle_records = 1,
				   .seed = 5 };
	struct ibu_engine_opts eo;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	char lab[64];
	int seen[16] = { 0 }, n, p, row, used, leaves = 0, tops = 0;
	double key;
	void *topo;
	enum ibu_engine_decline_kind kind;

	ck_assert_int_eq(ibu_gen_fattree(&f, 4, 3, &go, &e), 0);
	ck_assert_int_eq(ops->recognise(&f, NULL, &topo, &kind, &e), 0);
	ck_assert_int_eq(ops->assign_lids(&f, topo, 2, 0, &used, &e), 0);
	ibu_engine_opts_default(&eo);
	for (n = 0; n < f.num_nodes; n++) {
		ck_assert_int_eq(ops->report.layout(&f, topo, n, &row, &key), 0);
		if (ibu_node_is_switch(&f.nodes[n])) {
			ck_assert_int_eq(row, ops->report.rank(topo, n));
			tops += row == 0;
			leaves += row == 2;
			continue;
		}
		ck_assert_int_eq(row, 3);	/* end ports below the leaves */
		for (p = 1; p <= f.nodes[n].num_ports; p++) {
			int i = ops->report.endport_index(topo, n, p);
			long off;

			if (i < 0)
				continue;
			ck_assert_int_lt(i, 16);
			seen[i]++;
			ck_assert_int_eq((int)key, i);
			ops->report.endport_label(topo, n, p, lab, sizeof(lab));
			ck_assert_msg(lab[0] == 'P' && lab[1] == '(', "%s", lab);
			off = ops->advice.offset(&f, topo, &eo, n, p, n, p);
			ck_assert(off >= 0 && off < 4);
		}
	}
	ck_assert_int_eq(tops, 4);	/* IBFT(4,3): 4 + 8 + 8 switches */
	ck_assert_int_eq(leaves, 8);
	for (n = 0; n < 16; n++)
		ck_assert_int_eq(seen[n], 1);
	ops->topo_free(topo);
	ibu_fabric_free(&f);
}
END_TEST


/*
 * The rule each kind asks for: on IBFT(4,3) the labels always, the
 * paper's rule (plain or rotated) only when asked; a PGFT that is no
 * IBFT neither; a degraded IBFT keeps its labels, refused when no fault
 * is allowed; a mesh is no tree (nothing returned).
 */
START_TEST(recognise_rule_kinds)
{
	static const enum ibu_cyclic_rule_kind kinds[] = {
		IBU_CYCLIC_GENERALISED, IBU_CYCLIC_PAPER,
		IBU_CYCLIC_PAPER_ROTATED,
	};
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = 4 };
	struct ibu_pgft_params P = { .h = 2, .m = { 0, 8, 12 },
				     .w = { 0, 1, 4 }, .p = { 0, 1, 2 } };
	struct ibu_cyclic_pgft *c = NULL;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	int k;

	ck_assert_int_eq(ibu_gen_fattree(&f, 4, 3, &o, &e), 0);
	for (k = 0; k < 3; k++) {
		ck_assert_int_eq(ibu_cyclic_pgft_recognise(&f, NULL, 0, 0,
							   kinds[k], &c, &e), 0);
		ck_assert_ptr_eq(c->f, &f);
		ck_assert_ptr_nonnull(c->ibft);
		ck_assert_int_eq(c->lmc_needed, ibu_pgft_needed_lmc(&c->g));
		ck_assert_int_eq(c->paper != NULL, k > 0);
		if (k > 0)
			ck_assert_int_eq(c->paper->rotated, k == 2);
		ibu_cyclic_pgft_free(c);
	}
	ibu_fabric_free(&f);
	ck_assert_int_eq(ibu_gen_pgft(&f, &P, 0, 0, &o, &e), 0);
	ck_assert_int_eq(ibu_cyclic_pgft_recognise(&f, NULL, 0, 0,
						   IBU_CYCLIC_PAPER, &c, &e), 0);
	ck_assert_ptr_null(c->ibft);
	ck_assert_ptr_null(c->paper);
	ibu_cyclic_pgft_free(c);
	ibu_fabric_free(&f);
	o.remove_links = 2;
	ck_assert_int_eq(ibu_gen_fattree(&f, 8, 3, &o, &e), 0);
	ck_assert_int_eq(ibu_cyclic_pgft_recognise(&f, NULL, 0, 0,
						   IBU_CYCLIC_PAPER, &c, &e),
			 IBU_ETOPO);
	ck_assert_ptr_null(c);
	ck_assert_int_eq(ibu_cyclic_pgft_recognise(&f, NULL, 0,
						   IBU_MAX_FAULTS_DEFAULT,
						   IBU_CYCLIC_PAPER, &c, &e), 0);
	ck_assert_int_eq(c->g.num_faults, 2);
	ck_assert_ptr_nonnull(c->ibft);
	ck_assert_ptr_nonnull(c->paper);
	ibu_cyclic_pgft_free(c);
	ibu_fabric_free(&f);
	o.remove_links = 0;
	ck_assert_int_eq(ibu_gen_mesh(&f, 3, 3, 1, &o, &e), 0);
	c = (struct ibu_cyclic_pgft *)&f;	/* must become NULL */
	ck_assert_int_eq(ibu_cyclic_pgft_recognise(&f, NULL, 0,
						   IBU_MAX_FAULTS_DEFAULT,
						   IBU_CYCLIC_GENERALISED, &c,
						   &e), IBU_ETOPO);
	ck_assert_ptr_null(c);
	ibu_fabric_free(&f);
}
END_TEST

/* Node n's LID: a switch's port 0, an end node's port 1. */
static uint16_t node_lid(const struct ibu_fabric *f, int n)
{
	return f->nodes[n].ports[ibu_node_is_switch(&f->nodes[n]) ? 0 : 1].lid;
}

/*
 * LIDs on a PGFT that is no IBFT (2048 hosts: PGFT(2; 32,64; 1,16;
 * 1,2), needs LMC 5): asked for none, the largest LMC up to the rule's
 * that fits the unicast space (4); asked for one that does not fit,
 * refused; what it assigns is ibu_pgft_assign_lids' numbering.
 */
START_TEST(lids_fit_the_space)
{
	struct ibu_pgft_params P = { .h = 2, .m = { 0, 32, 64 },
				     .w = { 0, 1, 16 }, .p = { 0, 1, 2 } };
	struct ibu_gen_opts o = { .seed = 1 };
	struct ibu_cyclic_pgft *c;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	uint16_t *lid;
	int used = -1, n, want;

	ck_assert_int_eq(ibu_gen_pgft(&f, &P, 0, 0, &o, &e), 0);
	ck_assert_int_eq(ibu_cyclic_pgft_recognise(&f, NULL, 0, 0,
						   IBU_CYCLIC_PAPER, &c, &e), 0);
	ck_assert_ptr_null(c->ibft);
	ck_assert_int_eq(c->lmc_needed, 5);
	want = ibu_pgft_fit_lmc(&c->g, 5);
	ck_assert_int_lt(want, 5);
	ck_assert_int_eq(ibu_cyclic_pgft_assign_lids(&f, c, -1, 0, &used, &e), 0);
	ck_assert_int_eq(used, want);
	lid = malloc((size_t)f.num_nodes * sizeof(*lid));
	ck_assert_ptr_nonnull(lid);
	for (n = 0; n < f.num_nodes; n++)
		lid[n] = node_lid(&f, n);
	ck_assert_int_eq(ibu_pgft_assign_lids(&f, &c->g, want, &e), 0);
	for (n = 0; n < f.num_nodes; n++)
		ck_assert_uint_eq(lid[n], node_lid(&f, n));
	free(lid);
	ck_assert_int_eq(ibu_cyclic_pgft_assign_lids(&f, c, 5, 0, &used, &e),
			 IBU_ELID);
	ibu_cyclic_pgft_free(c);
	ibu_fabric_free(&f);
}
END_TEST

/*
 * One route: the engine's tables are ibu_pgft_route_stats()' on the same
 * LIDs (the hosts' LMC), on a shuffled PGFT with parallel cables, exact
 * and with cut cables and a switch gone (the fault-aware passes too).
 */
START_TEST(tables_are_the_routers)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = 12, .remove_links = _i ? 2 : 0,
				  .remove_switches = _i ? 1 : 0 };
	struct ibu_pgft_params P = { .h = 3, .m = { 0, 4, 4, 3 },
				     .w = { 0, 1, 2, 2 }, .p = { 0, 1, 2, 1 } };
	const struct ibu_engine_ops *ops = ibu_engine_find("cyclic");
	struct ibu_engine_result r;
	struct ibu_fabric f;
	struct ibu_pgft g;
	struct ibu_lidmap map;
	struct ibu_lft lft;
	struct ibu_err e = { 0 };
	int s, lmc;

	ck_assert_int_eq(ibu_gen_pgft(&f, &P, 0, 0, &o, &e), 0);
	with_lids(ops, &f, NULL, 1);
	ck_assert_msg(ibu_engine_run(ops, &f, NULL, &r, &e) == 0, "%s", e.msg);
	ck_assert_msg(ibu_pgft_recognize_limit(&f, &g, NULL, 0,
					       IBU_MAX_FAULTS_DEFAULT, &e) == 0,
		      "%s", e.msg);
	ck_assert_int_eq(g.num_faults > 0, _i);
	lmc = ibu_pgft_hosts_lmc(&f, &g);
	ck_assert_int_eq(lmc, 1);
	ck_assert_int_eq(ibu_lidmap_build(&f, &map, &e), 0);
	ck_assert_int_eq(ibu_lft_init(&lft, &f, map.max_lid, &e), 0);
	ck_assert_int_eq(ibu_pgft_route_stats(&f, &g, &map, lmc, &lft, NULL,
					      &e), 0);
	ck_assert_uint_eq(r.map.max_lid, map.max_lid);
	for (s = 0; s < f.num_nodes; s++)
		if (ibu_node_is_switch(&f.nodes[s]))
			ck_assert_mem_eq(r.lft.row[s], lft.row[s],
					 (size_t)map.max_lid + 1);
	ibu_lft_free(&lft);
	ibu_lidmap_free(&map);
	ibu_pgft_free(&g);
	ibu_engine_result_free(&r);
	ibu_fabric_free(&f);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("engine_cyclic");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, recognise_rule_kinds);
	tcase_add_test(tc, lids_fit_the_space);
	tcase_add_loop_test(tc, tables_are_the_routers, 0, 2);
	tcase_add_test(tc, paper_offsets_on_pgft_noted);
	tcase_add_test(tc, order_file_on_ibft);
	tcase_add_test(tc, run_cyclic_degraded);
	tcase_add_test(tc, own_vl_plan_ops);
	tcase_add_test(tc, cyclic_tool_ops);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
