/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The engine interface: detection, the driver's stages, the
 * final table check, and the trees' allocation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "engines.h"
#include "gen.h"
#include "gen_mesh.h"
#include "pgft.h"

static void fattree(struct ibu_fabric *f, int m, int n, int lmc)
{
	const struct ibu_engine_ops *ops = ibu_engine_find("cyclic");
	struct ibu_gen_opts go;
	struct ibu_err e = { 0 };
	void *topo;
	enum ibu_engine_decline_kind kind;
	int used;

	memset(&go, 0, sizeof(go));
	ck_assert_int_eq(ibu_gen_fattree(f, m, n, &go, &e), 0);
	ck_assert_int_eq(ops->recognise(f, NULL, &topo, &kind, &e), 0);
	ck_assert_int_eq(ops->assign_lids(f, topo, lmc, 0, &used, &e), 0);
	ck_assert_int_eq(used, lmc);
	ops->topo_free(topo);
}

START_TEST(detect)
{
	struct ibu_fabric f;
	struct ibu_gen_opts go;
	struct ibu_err e = { 0 };
	const struct ibu_engine_ops *ops;
	void *topo;
	int a, b, p;

	memset(&go, 0, sizeof(go));
	ck_assert_int_eq(ibu_gen_fattree(&f, 4, 3, &go, &e), 0);
	ops = ibu_engine_detect(&f, NULL, &topo, &e);
	ck_assert_ptr_nonnull(ops);
	ck_assert_str_eq(ops->name, "cyclic");
	ops->topo_free(topo);
	ibu_fabric_free(&f);

	go.shuffle_ports = 1;
	go.shuffle_records = 1;
	go.seed = 7;
	ck_assert_int_eq(ibu_gen_mesh(&f, 3, 5, 2, &go, &e), 0);
	ops = ibu_engine_detect(&f, NULL, &topo, &e);
	ck_assert_ptr_nonnull(ops);
	ck_assert_str_eq(ops->name, "xy");
	ops->topo_free(topo);
	ibu_fabric_free(&f);

	/* two switches joined twice: neither engine; both reasons told */
	ck_assert_int_eq(ibu_fabric_init(&f, "unit"), 0);
	ck_assert_int_eq(ibu_fabric_add_node(&f, IBU_NODE_SWITCH, "A", 1, 8, &a, &e), 0);
	ck_assert_int_eq(ibu_fabric_add_node(&f, IBU_NODE_SWITCH, "B", 2, 8, &b, &e), 0);
	ck_assert_int_eq(ibu_fabric_link(&f, a, 1, b, 1, &e), 0);
	ck_assert_int_eq(ibu_fabric_link(&f, a, 2, b, 2, &e), 0);
	for (p = 3; p <= 4; p++) {
		int h;
		char name[8];

		snprintf(name, sizeof(name), "h%d", p);
		ck_assert_int_eq(ibu_fabric_add_node(&f, IBU_NODE_CA, name, 16 + p, 1, &h, &e), 0);
		ck_assert_int_eq(ibu_fabric_link(&f, p == 3 ? a : b, p, h, 1, &e), 0);
	}
	ck_assert_ptr_null(ibu_engine_detect(&f, NULL, &topo, &e));
	ck_assert_int_eq(e.code, IBU_ETOPO);
	ck_assert_ptr_nonnull(strstr(e.msg, "IBFT(m,n)"));
	ck_assert_ptr_nonnull(strstr(e.msg, "mesh"));
	ck_assert_ptr_null(topo);
	ibu_fabric_free(&f);
}
END_TEST

/* Switch `name` (GUID guid) with `hosts` CAs on ports 1..hosts: its
 * node index. */
static int switch_with_hosts(struct ibu_fabric *f, const char *name,
			     uint64_t guid, int hosts)
{
	struct ibu_err e = { 0 };
	char hname[32];
	int s, h, p;

	ck_assert_int_eq(ibu_fabric_add_node(f, IBU_NODE_SWITCH, name, guid, 8, &s, &e), 0);
	for (p = 1; p <= hosts; p++) {
		snprintf(hname, sizeof(hname), "h%d.%d", (int)guid, p);
		ck_assert_int_eq(ibu_fabric_add_node(f, IBU_NODE_CA, hname, 16 * guid + (uint64_t)p, 1, &h, &e), 0);
		ck_assert_int_eq(ibu_fabric_link(f, s, p, h, 1, &e), 0);
	}
	return s;
}

/* Detection gives f to engine `want`; xy's own recognise takes it with
 * decline kind `kind`. */
static void assert_detect_and_xy(struct ibu_fabric *f, const char *want,
				 enum ibu_engine_decline_kind kind)
{
	struct ibu_err e = { 0 };
	const struct ibu_engine_ops *ops;
	enum ibu_engine_decline_kind got = IBU_DECLINE_NONE;
	void *topo;

	ck_assert_int_eq(ibu_fabric_index(f, &e), 0);
	ops = ibu_engine_detect(f, NULL, &topo, &e);
	ck_assert_msg(ops != NULL, "%s", e.msg);
	ck_assert_str_eq(ops->name, want);
	ops->topo_free(topo);
	ops = ibu_engine_find("xy");
	ck_assert_int_eq(ops->recognise(f, NULL, &topo, &got, &e), 0);
	ck_assert_int_eq(got, kind);
	ops->topo_free(topo);
}

/* One switch: xy takes it as the 1 x 1 mesh (degenerate) when named,
 * detection gives it to cyclic, the one-level tree of its hosts. */
START_TEST(detect_one_switch)
{
	struct ibu_fabric f;

	ck_assert_int_eq(ibu_fabric_init(&f, "unit"), 0);
	switch_with_hosts(&f, "S", 1, 3);
	assert_detect_and_xy(&f, "cyclic", IBU_DECLINE_DEGENERATE);
	ibu_fabric_free(&f);
}
END_TEST

/* Two switches: a line, the 2 x 1 mesh, and no fat tree.  With hosts on
 * both it is xy's own; where one has none (as a spine) xy takes it as a
 * degenerate case, which detection still gives it (no later engine
 * takes it). */
START_TEST(detect_line)
{
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	int a, b, hosts = _i ? 0 : 2;

	ck_assert_int_eq(ibu_fabric_init(&f, "unit"), 0);
	a = switch_with_hosts(&f, "S0", 1, 2);
	b = switch_with_hosts(&f, "S1", 2, hosts);
	ck_assert_int_eq(ibu_fabric_link(&f, a, 8, b, 7, &e), 0);
	assert_detect_and_xy(&f, "xy", hosts ? IBU_DECLINE_NONE :
				       IBU_DECLINE_DEGENERATE);
	ibu_fabric_free(&f);
}
END_TEST

START_TEST(run_cyclic)
{
	const struct ibu_engine_ops *ops = ibu_engine_find("cyclic");
	struct ibu_engine_opts o;
	struct ibu_engine_result r;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	char what[256];
	int i, sw = 0;

	fattree(&f, 4, 3, 2);
	ibu_engine_opts_default(&o);
	ck_assert_msg(ibu_engine_run(ops, &f, &o, &r, &e) == 0, "%s", e.msg);
	ck_assert_ptr_eq(r.ops, ops);
	ck_assert_uint_eq(r.map.max_lid, r.lft.max_lid);
	for (i = 0; i < f.num_nodes; i++)
		if (ibu_node_is_switch(&f.nodes[i])) {
			ck_assert_ptr_nonnull(r.lft.row[i]);
			/* a switch's own LID goes to port 0 */
			ck_assert_int_eq(r.lft.row[i][f.nodes[i].ports[0].lid], 0);
			sw++;
		}
	ck_assert_int_eq(sw, 20);
	ops->describe(&f, r.topo, what, sizeof(what));
	ck_assert_str_eq(what, "IBFT(4,3): 20 switches, 16 end ports, LMC in use 2 (paper needs 2)");
	ibu_engine_result_free(&r);
	ck_assert_ptr_null(r.topo);
	ibu_fabric_free(&f);
}
END_TEST

/*
 * The plugin's way: tables written straight into rows the caller owns
 * (OpenSM's new_lft, padded to a block): the same entries as the
 * driver's own tables, what lies past the LID top untouched, the rows
 * left alone by the free; a row too short is refused before routing.
 */
START_TEST(run_into_caller_rows)
{
	const struct ibu_engine_ops *ops = ibu_engine_find("cyclic");
	struct ibu_engine_result own, into;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	uint8_t *rows[64] = { 0 }, buf[64][128];
	uint32_t cap[64] = { 0 };
	int i;

	fattree(&f, 4, 3, 2);
	ck_assert_int_le(f.num_nodes, 64);
	ck_assert_msg(ibu_engine_run(ops, &f, NULL, &own, &e) == 0, "%s", e.msg);
	ck_assert_uint_lt(own.lft.max_lid + 1, 128);
	memset(buf, 0x5a, sizeof(buf));
	for (i = 0; i < f.num_nodes; i++)
		if (ibu_node_is_switch(&f.nodes[i])) {
			rows[i] = buf[i];
			cap[i] = 128;
		}
	ck_assert_msg(ibu_engine_run_into(ops, &f, NULL, rows, cap, &into,
					  &e) == 0, "%s", e.msg);
	for (i = 0; i < f.num_nodes; i++) {
		if (!rows[i])
			continue;
		ck_assert_ptr_eq(into.lft.row[i], rows[i]);
		ck_assert_mem_eq(rows[i], own.lft.row[i], own.lft.max_lid + 1);
		ck_assert_int_eq(rows[i][own.lft.max_lid + 1], 0x5a);
	}
	ibu_engine_result_free(&into);
	for (i = 0; i < f.num_nodes; i++)	/* the free left them alone */
		if (rows[i])
			ck_assert_mem_eq(rows[i], own.lft.row[i],
					 own.lft.max_lid + 1);
	for (i = 0; i < f.num_nodes; i++)
		if (rows[i])
			cap[i] = own.lft.max_lid;	/* one entry short */
	ck_assert_int_eq(ibu_engine_run_into(ops, &f, NULL, rows, cap, &into,
					     &e), IBU_EINVAL);
	ck_assert_int_eq(into.stage, IBU_STAGE_ALLOC);
	ck_assert_msg(strstr(e.msg, "forwarding table of") != NULL, "%s", e.msg);
	ibu_engine_result_free(&own);
	ibu_fabric_free(&f);
}
END_TEST

/*
 * An unchanged subnet re-swept: the model of the first run routes again
 * (recognition and plan skipped) to the very same tables, summary and
 * notes; fabrics that differ in a cable, a LID or a name are not "same".
 * Cases: IBFT, degraded IBFT, PGFT with parallel cables, damaged mesh,
 * PGFT with cut cables.
 */
START_TEST(rerun_same_subnet)
{
	const struct ibu_engine_ops *ops;
	struct ibu_gen_opts go = { .shuffle_ports = 1, .shuffle_records = 1,
				   .seed = 5 };
	struct ibu_pgft_params P = { .h = 2, .m = { 0, 4, 6 },
				     .w = { 0, 1, 3 }, .p = { 0, 1, 2 } };
	struct ibu_engine_opts o;
	struct ibu_engine_result r;
	struct ibu_fabric f, g;
	struct ibu_err e = { 0 };
	char before[512], after[512];
	uint8_t *copy;
	size_t width;
	int i, notes, sw = 0;


	ibu_engine_opts_default(&o);
	ck_assert_int_eq(ibu_engine_opt_put(&o, ibu_engine_option_find("max_faults"), 20), 0);
	switch (_i) {
	case 0:
		ck_assert_int_eq(ibu_gen_fattree(&f, 4, 3, &go, &e), 0);
		break;
	case 1:
		go.remove_links = 2;
		ck_assert_int_eq(ibu_gen_fattree(&f, 8, 3, &go, &e), 0);
		break;
	case 2:
		ck_assert_int_eq(ibu_gen_pgft(&f, &P, 0, 0, &go, &e), 0);
		break;
	case 4:		/* a PGFT with cut cables */
		go.remove_links = 2;
		ck_assert_int_eq(ibu_gen_pgft(&f, &P, 0, 0, &go, &e), 0);
		break;
	default:
		go.remove_links = 1;
		o.qos = 1;
		o.max_vls = 8;
		ck_assert_int_eq(ibu_gen_mesh(&f, 4, 4, 1, &go, &e), 0);
		break;
	}
	ops = ibu_engine_find(_i == 3 ? "xy" : "cyclic");
	with_lids(ops, &f, &o, _i == 3 ? 0 : 1);
	ck_assert_msg(ibu_engine_run(ops, &f, &o, &r, &e) == 0, "%s", e.msg);
	width = (size_t)r.lft.max_lid + 1;
	copy = malloc((size_t)f.num_nodes * width);
	ck_assert_ptr_nonnull(copy);
	for (i = 0; i < f.num_nodes; i++)
		if (r.lft.row[i]) {
			memcpy(copy + (size_t)i * width, r.lft.row[i], width);
			memset(r.lft.row[i], 0x11, width);	/* stale */
			sw++;
		}
	ck_assert_int_gt(sw, 0);
	ops->describe(&f, r.topo, before, sizeof(before));
	notes = ops->num_notes ? ops->num_notes(r.topo) : 0;
	ck_assert_msg(ibu_engine_rerun_into(&f, &o, NULL, NULL, &r, &e) == 0,
		      "%s", e.msg);
	for (i = 0; i < f.num_nodes; i++)
		if (r.lft.row[i])
			ck_assert_mem_eq(r.lft.row[i], copy + (size_t)i * width,
					 width);
	ck_assert_double_eq(r.stage_ms[IBU_STAGE_RECOGNISE], 0);
	ops->describe(&f, r.topo, after, sizeof(after));
	ck_assert_str_eq(after, before);
	ck_assert_int_eq(ops->num_notes ? ops->num_notes(r.topo) : 0, notes);
	/* what "same" means: a second build of the fabric is; a LID, a name
	 * or a cable changed is not */
	ck_assert(ibu_fabric_same(&f, &f));
	ck_assert_int_eq(ibu_fabric_init(&g, "copy"), 0);
	for (i = 0; i < f.num_nodes; i++) {
		int idx;

		ck_assert_int_eq(ibu_fabric_add_node(&g, f.nodes[i].type,
						     f.nodes[i].name,
						     f.nodes[i].guid,
						     f.nodes[i].num_ports,
						     &idx, &e), 0);
		memcpy(g.nodes[idx].ports, f.nodes[i].ports,
		       ((size_t)f.nodes[i].num_ports + 1) *
		       sizeof(*f.nodes[i].ports));
	}
	ck_assert(ibu_fabric_same(&f, &g));
	for (i = 0; i < f.num_nodes && f.nodes[i].ports[1].peer_node < 0; i++)
		;
	ck_assert_int_lt(i, f.num_nodes);
	g.nodes[i].ports[1].lid ^= 1;
	ck_assert(!ibu_fabric_same(&f, &g));
	g.nodes[i].ports[1].lid ^= 1;
	g.nodes[i].ports[1].peer_port++;
	ck_assert(!ibu_fabric_same(&f, &g));
	g.nodes[i].ports[1].peer_port--;
	g.nodes[i].name[0] ^= 1;
	ck_assert(!ibu_fabric_same(&f, &g));
	ibu_fabric_free(&g);
	ibu_engine_result_free(&r);
	free(copy);
	ibu_fabric_free(&f);
}
END_TEST

/* A damaged 6x6 mesh (i = 0; its recognition plans the detours) or
 * IBFT(8,3) (i = 1), recognised into *topo, with LIDs, and routed by
 * ibu_engine_run() into *a. */
static const struct ibu_engine_ops *run_damaged(int i, struct ibu_fabric *f,
						void **topo,
						struct ibu_engine_result *a)
{
	const char *names[2] = { "xy", "cyclic" };
	struct ibu_gen_opts go = { .shuffle_ports = 1, .shuffle_records = 1,
				   .remove_links = 3, .seed = 7 };
	const struct ibu_engine_ops *ops = ibu_engine_find(names[i]);
	struct ibu_err e = { 0 };
	enum ibu_engine_decline_kind kind;
	int used;

	ck_assert_int_eq(i ? ibu_gen_fattree(f, 8, 3, &go, &e) :
			 ibu_gen_mesh(f, 6, 6, 2, &go, &e), 0);
	ck_assert_int_eq(ops->recognise(f, NULL, topo, &kind, &e), 0);
	ck_assert_int_eq(ops->assign_lids(f, *topo, 0, 0, &used, &e), 0);
	ck_assert_msg(ibu_engine_run(ops, f, NULL, a, &e) == 0, "%s", e.msg);
	return ops;
}

static void assert_same_tables(const struct ibu_fabric *f,
			       const struct ibu_engine_result *a,
			       const struct ibu_engine_result *b)
{
	uint32_t lid;
	int s;

	ck_assert_uint_eq(a->map.max_lid, b->map.max_lid);
	for (s = 0; s < f->num_nodes; s++)
		for (lid = 0; a->lft.row[s] && lid <= a->map.max_lid; lid++)
			ck_assert_uint_eq(a->lft.row[s][lid], b->lft.row[s][lid]);
}

/* Every end port on the first one's LID: the plan stage fails. */
static void one_lid_for_all(struct ibu_fabric *f)
{
	int s, first = -1;

	for (s = 0; s < f->num_nodes; s++)
		if (!ibu_node_is_switch(&f->nodes[s]) && first < 0)
			first = s;
		else if (!ibu_node_is_switch(&f->nodes[s]))
			f->nodes[s].ports[1].lid = f->nodes[first].ports[1].lid;
}

/* A topology recognised beforehand (the tools' engine pick) routes as
 * ibu_engine_run() does: the same tables on a damaged mesh, whose
 * recognition plans the detours, and on a damaged fat tree; the result
 * owns the topology, also when a later stage fails. */
START_TEST(run_recognised_same_tables)
{
	struct ibu_engine_result a, b;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	enum ibu_engine_decline_kind kind;
	void *topo;
	const struct ibu_engine_ops *ops = run_damaged(_i, &f, &topo, &a);

	ck_assert_msg(ibu_engine_run_recognised(ops, &f, NULL, topo, &b, &e) == 0,
		      "%s", e.msg);
	ck_assert_ptr_eq(b.topo, topo);
	assert_same_tables(&f, &a, &b);
	ibu_engine_result_free(&a);
	ibu_engine_result_free(&b);
	/* two end ports claim one LID: the plan stage fails and the
	 * topology goes with the result */
	ck_assert_int_eq(ops->recognise(&f, NULL, &topo, &kind, &e), 0);
	one_lid_for_all(&f);
	ck_assert_int_eq(ibu_engine_run_recognised(ops, &f, NULL, topo, &b, &e),
			 IBU_ELID);
	ck_assert_int_eq(b.stage, IBU_STAGE_PLAN);
	ck_assert_ptr_null(b.topo);
	ibu_fabric_free(&f);
}
END_TEST

/* A lent topology (load and mcast keep theirs past the run) routes as
 * ibu_engine_run() does, run after run on the same model; the result
 * never frees it, also when a stage fails. */
START_TEST(run_lent_keeps_topology)
{
	struct ibu_engine_result a, b;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	void *topo;
	const struct ibu_engine_ops *ops = run_damaged(_i, &f, &topo, &a);
	char what[512];
	int run;

	for (run = 0; run < 2; run++) {
		ck_assert_msg(ibu_engine_run_lent(ops, &f, NULL, topo, &b, &e) == 0,
			      "%s", e.msg);
		ck_assert_ptr_eq(b.topo, topo);
		assert_same_tables(&f, &a, &b);
		ibu_engine_result_free(&b);
	}
	ibu_engine_result_free(&a);
	one_lid_for_all(&f);
	ck_assert_int_eq(ibu_engine_run_lent(ops, &f, NULL, topo, &b, &e),
			 IBU_ELID);
	ck_assert_int_eq(b.stage, IBU_STAGE_PLAN);
	ck_assert_ptr_null(b.topo);
	/* still the caller's: freed once, here */
	ops->describe(&f, topo, what, sizeof(what));
	ck_assert(what[0]);
	ops->topo_free(topo);
	ck_assert_int_eq(ibu_engine_run_lent(ops, &f, NULL, NULL, &b, &e),
			 IBU_EINVAL);
	ibu_fabric_free(&f);
}
END_TEST

START_TEST(stage_named_on_failure)
{
	const struct ibu_engine_ops *ops = ibu_engine_find("cyclic");
	struct ibu_engine_result r;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	int i, first = -1;

	fattree(&f, 4, 3, 0);
	/* two end ports claim one LID: the plan stage fails */
	for (i = 0; i < f.num_nodes; i++)
		if (!ibu_node_is_switch(&f.nodes[i])) {
			if (first < 0)
				first = i;
			else {
				f.nodes[i].ports[1].lid = f.nodes[first].ports[1].lid;
				break;
			}
		}
	ck_assert_int_eq(ibu_engine_run(ops, &f, NULL, &r, &e), IBU_ELID);
	ck_assert_int_eq(r.stage, IBU_STAGE_PLAN);
	ck_assert_msg(!strncmp(e.msg, "planning the LIDs: ", 19), "%s", e.msg);
	ck_assert_ptr_null(r.topo);
	ck_assert_ptr_null(r.lft.row);
	ibu_fabric_free(&f);
}
END_TEST

/* A route that forgets the last LID, or names a port that does not exist:
 * the check stage refuses the tables. */
static int bad_mode;

static int bad_route(const struct ibu_fabric *f, void *topo,
		     const struct ibu_lidmap *map,
		     const struct ibu_engine_opts *o, struct ibu_lft *lft,
		     struct ibu_err *e)
{
	const struct ibu_engine_ops *cyc = ibu_engine_find("cyclic");
	int rc = cyc->route(f, topo, map, o, lft, e), i;

	for (i = 0; !rc && i < f->num_nodes; i++)
		if (lft->row[i]) {
			if (bad_mode == 0)
				lft->row[i][map->max_lid] = IBU_NO_PATH;
			else if (bad_mode == 1)
				lft->row[i][map->max_lid] = 200;
			else	/* its own LID out of port 1 */
				lft->row[i][f->nodes[i].ports[0].lid] = 1;
			break;
		}
	return rc;
}

START_TEST(check_refuses_incomplete_tables)
{
	struct ibu_engine_ops ops = *ibu_engine_find("cyclic");
	struct ibu_engine_result r;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };

	ops.route = bad_route;
	/* LMC 0 for the own LID: no unassigned LID makes the row look odd */
	fattree(&f, 4, 3, _i == 2 ? 0 : 1);
	bad_mode = _i;
	ck_assert_int_eq(ibu_engine_run(&ops, &f, NULL, &r, &e), IBU_EINVAL);
	ck_assert_int_eq(r.stage, IBU_STAGE_CHECK);
	ck_assert_msg(strstr(e.msg, _i == 0 ? "has no route to LID" :
			     _i == 1 ? "to port 200" :
			     "forwards its own LID"), "%s", e.msg);
	ck_assert_ptr_null(r.lft.row);
	ibu_fabric_free(&f);
}
END_TEST

/* A mesh is not a fat tree: the result says so, in the engine's words,
 * with the kind the plugin logs as ERR 5A01; a tree has no notes. */
START_TEST(decline_kind_and_words)
{
	struct ibu_gen_opts go;
	struct ibu_engine_result r;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };

	memset(&go, 0, sizeof(go));
	ck_assert_int_eq(ibu_gen_mesh(&f, 3, 3, 1, &go, &e), 0);
	ck_assert_int_eq(ibu_engine_run(ibu_engine_find("cyclic"), &f, NULL,
					&r, &e), IBU_ETOPO);
	ck_assert_int_eq(r.decline.kind, IBU_DECLINE_TOPOLOGY);
	ck_assert_msg(!strncmp(r.decline.text, "not an IBFT(m,n): ", 18),
		      "%s", r.decline.text);
	ck_assert_ptr_null(r.topo);
	ibu_fabric_free(&f);
	fattree(&f, 4, 2, 0);
	ck_assert_int_eq(ibu_engine_run(ibu_engine_find("cyclic"), &f, NULL,
					&r, &e), 0);
	ck_assert_int_eq(r.decline.kind, IBU_DECLINE_NONE);
	ck_assert_int_eq(r.ops->num_notes(r.topo), 0);
	ibu_engine_result_free(&r);
	ibu_fabric_free(&f);
}
END_TEST

/* The engine chooses the kind: a damaged mesh is xy's topology, so qos
 * off declines it as configuration, not as "not a mesh". */
START_TEST(decline_kind_by_engine)
{
	struct ibu_gen_opts go = { .remove_links = 1, .seed = 3 };
	struct ibu_engine_opts eo;
	struct ibu_engine_result r;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_gen_mesh(&f, 4, 4, 1, &go, &e), 0);
	ibu_engine_opts_default(&eo);
	eo.qos = 0;
	ck_assert_int_ne(ibu_engine_run(ibu_engine_find("xy"), &f, &eo, &r,
					&e), 0);
	ck_assert_int_eq(r.decline.kind, IBU_DECLINE_CONFIG);
	ck_assert_msg(strstr(r.decline.text, "qos TRUE"), "%s", r.decline.text);
	eo.qos = 1;
	ck_assert_int_eq(ibu_engine_run(ibu_engine_find("xy"), &f, &eo, &r,
					&e), 0);
	ibu_engine_result_free(&r);
	ibu_fabric_free(&f);
}
END_TEST

START_TEST(tree_alloc)
{
	struct ibu_engine_tree t;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_engine_tree_alloc(&t, 3, &e), 0);
	ck_assert_int_eq(t.root, -1);
	ck_assert_int_eq(t.num_switches, 3);
	ck_assert(ibu_pm_empty(&t.ports[2]));
	ibu_engine_tree_free(&t);
	ck_assert_ptr_null(t.nodes);
	ck_assert_int_eq(ibu_engine_tree_alloc(&t, 0, &e), 0);
	ibu_engine_tree_free(&t);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("engine");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, detect);
	tcase_add_test(tc, detect_one_switch);
	tcase_add_loop_test(tc, detect_line, 0, 2);
	tcase_add_test(tc, run_cyclic);
	tcase_add_loop_test(tc, run_recognised_same_tables, 0, 2);
	tcase_add_loop_test(tc, run_lent_keeps_topology, 0, 2);
	tcase_add_test(tc, stage_named_on_failure);
	tcase_add_loop_test(tc, check_refuses_incomplete_tables, 0, 3);
	tcase_add_test(tc, decline_kind_and_words);
	tcase_add_test(tc, decline_kind_by_engine);
	tcase_add_test(tc, tree_alloc);
	tcase_add_test(tc, run_into_caller_rows);
	tcase_add_loop_test(tc, rerun_same_subnet, 0, 5);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
