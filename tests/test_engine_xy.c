/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The xy engine's table (lib/mesh/engine_xy.c): detection, the driver's
 * run, the report hooks, its options, and a damaged mesh (notes, trees,
 * declines). */
#include "mesh_util.h"
#include "engines.h"
#include "mesh_faults.h"
#include "verify.h"
#include "xy.h"
#include "xy_mcast.h"

START_TEST(test_engine)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1, .seed = 11 };
	struct ibu_engine_opts eo;
	struct ibu_engine_result r;
	struct ibu_fabric f;
	struct ibu_mesh t;
	struct ibu_err e = { 0 };
	const struct ibu_engine_ops *ops;
	void *topo;
	char buf[200];

	ibu_engine_opts_default(&eo);
	ck_assert_ptr_eq(ibu_engine_find("xy"), &ibu_engine_xy);
	ck_assert_int_eq(ibu_gen_mesh(&f, 5, 3, 2, &o, &e), 0);
	ck_assert_int_eq(ibu_mesh_recognize(&f, &t, &e), 0);
	ck_assert_int_eq(ibu_xy_assign_lids(&f, &t, 0, 0, &e), 0);
	ibu_mesh_free(&t);
	ops = ibu_engine_detect(&f, &eo, &topo, &e);
	ck_assert_ptr_eq(ops, &ibu_engine_xy);
	ops->describe(&f, topo, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "mesh: 15 switches, 30 end ports (2 per switch)"), "%s", buf);
	ops->topo_free(topo);
	ck_assert_msg(ibu_engine_run(&ibu_engine_xy, &f, &eo, &r, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(r.lft.max_lid, 45);
	ibu_engine_result_free(&r);
	/* OpenSM-like LIDs: any numbering works */
	{
		int i, lid = 100;

		for (i = 0; i < f.num_nodes; i++) {
			int p = ibu_node_is_switch(&f.nodes[i]) ? 0 : 1;

			f.nodes[i].ports[p].lid = (uint16_t)(lid += 3);
		}
	}
	ck_assert_int_eq(ibu_engine_run(&ibu_engine_xy, &f, &eo, &r, &e), 0);
	ibu_engine_result_free(&r);
	ibu_fabric_free(&f);
	/* a fat tree is not for xy */
	ck_assert_int_eq(ibu_gen_fattree(&f, 4, 3, NULL, &e), 0);
	ck_assert_int_eq(ibu_engine_run(&ibu_engine_xy, &f, &eo, &r, &e), IBU_ETOPO);
	ck_assert_int_eq(r.stage, IBU_STAGE_RECOGNISE);
	ibu_fabric_free(&f);
}
END_TEST

/* The drawing and the host order: a row of switches per y (the largest on
 * top), each followed by its end ports' row; end ports numbered in
 * position order (x-major switches, then port GUID), whatever the records'
 * order. */
START_TEST(test_layout_and_order)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1, .seed = 5 };
	struct ibu_engine_opts eo;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	const struct ibu_engine_ops *ops;
	void *topo;
	int n, p, row, seen[12] = { 0 }, i, last = -1;
	double key;

	ibu_engine_opts_default(&eo);
	ck_assert_int_eq(ibu_gen_mesh(&f, 3, 2, 2, &o, &e), 0);
	ops = ibu_engine_detect(&f, &eo, &topo, &e);
	ck_assert_ptr_eq(ops, &ibu_engine_xy);
	for (n = 0; n < f.num_nodes; n++) {
		const struct ibu_mesh *t = topo;
		int s = ibu_mesh_sw(t, n);

		ck_assert_int_eq(ops->report.layout(&f, topo, n, &row, &key), 0);
		if (s >= 0) {
			ck_assert_int_eq(row, 2 * (1 - t->sw[s].y));
			ck_assert_int_eq((int)key, t->sw[s].x);
			ck_assert_int_eq(ops->report.endport_index(topo, n, 1), -1);
			continue;
		}
		ck_assert_int_eq(row % 2, 1);	/* below its switch */
		i = ops->report.endport_index(topo, n, 1);
		ck_assert(i >= 0 && i < 12);
		seen[i]++;
		s = t->ep[i].sw;
		ck_assert_int_eq(row, 2 * (1 - t->sw[s].y) + 1);
		ck_assert_int_eq((int)key, t->sw[s].x);
		for (p = 2; p <= f.nodes[n].num_ports; p++)
			ck_assert_int_eq(ops->report.endport_index(topo, n, p), -1);
	}
	for (i = 0; i < 12; i++) {
		const struct ibu_mesh *t = topo;

		ck_assert_int_eq(seen[i], 1);
		ck_assert_int_ge(t->ep[i].sw, last);	/* x-major */
		last = t->ep[i].sw;
	}
	ops->topo_free(topo);
	ibu_fabric_free(&f);
}
END_TEST

/* vl_plan=: every documented value parses and prints back as itself;
 * anything else is refused and leaves the value alone. */
START_TEST(test_options)
{
	const struct ibu_engine_option *vl = NULL;
	char values[128], buf[64], *tok, *save = NULL;
	int i, v, n = 0;

	for (i = 0; i < ibu_engine_xy.num_options; i++)
		if (!strcmp(ibu_engine_xy.options[i].key, "vl_plan"))
			vl = &ibu_engine_xy.options[i];
	ck_assert_ptr_nonnull(vl);
	ck_assert_int_eq(vl->needs_qos, 1);
	vl->format(vl->def, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1");
	snprintf(values, sizeof(values), "%s", vl->values);
	for (tok = strtok_r(values, "|", &save); tok;
	     tok = strtok_r(NULL, "|", &save), n++) {
		v = -1;
		ck_assert_msg(vl->parse(tok, &v) == 0, "%s", tok);
		vl->format(v, buf, sizeof(buf));
		ck_assert_str_eq(buf, tok);
	}
	ck_assert_int_eq(n, 5);
	v = 77;
	ck_assert_int_eq(vl->parse("3", &v), IBU_EINVAL);
	ck_assert_int_eq(vl->parse("", &v), IBU_EINVAL);
	ck_assert_int_eq(v, 77);
}
END_TEST

/* The rule hook: a rule named "xy", no extra summary, and the engine's
 * own tables pass it, every entry compared (12 switches x 24 LIDs: 12
 * HCAs, 12 switches). */
START_TEST(test_rule_hook)
{
	const struct ibu_engine_ops *ops = &ibu_engine_xy;
	struct ibu_engine_opts eo;
	struct ibu_engine_result r;
	struct ibu_engine_check_in in = { 0 };
	struct ibu_verify_opts vo = { .max_errors = -1, .quiet = 1 };
	struct ibu_verify_rule rule;
	struct ibu_verify_result vr;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	enum ibu_engine_decline_kind kind;
	void *topo, *state = NULL;
	char info[64] = "x";
	int used;

	ibu_engine_opts_default(&eo);
	ck_assert_int_eq(ibu_gen_mesh(&f, 4, 3, 1, NULL, &e), 0);
	ck_assert_int_eq(ops->recognise(&f, &eo, &topo, &kind, &e), 0);
	ck_assert_int_eq(ops->assign_lids(&f, topo, 0, 0, &used, &e), 0);
	ops->topo_free(topo);
	ck_assert_msg(ibu_engine_run(ops, &f, &eo, &r, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(ops->rule.check(&f, r.topo, &eo, &in, &rule, &state,
					 info, sizeof(info), &e), 0);
	ck_assert_str_eq(rule.name, "xy");
	ck_assert_str_eq(info, "");
	vo.rule = &rule;
	ck_assert_int_eq(ibu_verify_lft(&f, &r.lft, &vo, NULL, NULL, &vr, &e), 0);
	ck_assert_ptr_eq(vr.rule, &rule);
	ck_assert_int_eq(vr.rule_entries, 12 * 24);
	ck_assert_int_eq(vr.rule_mismatches, 0);
	ck_assert_int_eq(ibu_verify_problems(&vr), 0);
	ops->rule.state_free(state);
	ibu_engine_result_free(&r);
	ibu_fabric_free(&f);
}
END_TEST

/* the engine: routes a damaged mesh with qos (unknown or on), declines
 * without qos and when the VLs cannot hold the layers, names the faults */
START_TEST(test_engine_damaged)
{
	const struct ibu_engine_ops *ops = ibu_engine_find("xy");
	struct ibu_gen_opts go = { .shuffle_ports = 1, .shuffle_records = 1,
				   .remove_links = 4, .seed = 7 };
	struct ibu_engine_opts o;
	struct ibu_engine_result r;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	const struct ibu_mesh *t;
	struct ibu_engine_note nt;
	void *topo;
	enum ibu_engine_decline_kind kind;
	int used, layers;

	ck_assert_int_eq(ibu_gen_mesh(&f, 6, 6, 1, &go, &e), 0);
	ibu_engine_opts_default(&o);
	ck_assert_msg(ops->recognise(&f, &o, &topo, &kind, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(ops->assign_lids(&f, topo, 0, 0, &used, &e), 0);
	ops->topo_free(topo);
	o.qos = 1;
	ck_assert_msg(ibu_engine_run(ops, &f, &o, &r, &e) == 0, "%s", e.msg);
	t = r.topo;
	ck_assert_ptr_nonnull(t->dmg);
	/* a note per fault, then their count */
	ck_assert_int_eq(ops->num_notes(r.topo), t->dmg->num_faults + 1);
	ck_assert_int_ge(t->dmg->num_faults, 1);
	ops->note(&f, r.topo, 0, &nt);
	ck_assert_int_eq(nt.kind, IBU_NOTE_FAULT);
	ck_assert_msg(strstr(nt.text, "missing cable N("), "%s", nt.text);
	ops->note(&f, r.topo, t->dmg->num_faults, &nt);
	ck_assert_int_eq(nt.kind, IBU_NOTE_FAULTS);
	layers = t->dmg->num_layers;
	{	/* trees of the damaged mesh count in the multicast load */
		struct ibu_mcast_member m[3];
		struct ibu_engine_tree tr;
		void *st = NULL;
		int k;

		for (k = 0; k < 3; k++) {
			m[k].node = t->ep[k * 5].node;
			m[k].port = t->ep[k * 5].port;
			m[k].send_only = 0;
		}
		ck_assert_int_eq(ops->mcast.state_new(&f, r.topo, &st, &e), 0);
		ck_assert_int_eq(ops->mcast.tree(&f, r.topo, st, m, 3, &o, 0xc001,
						 &tr, &e), 0);
		ck_assert_ptr_nonnull(strstr(tr.info, "mcast_apex does not apply"));
		ibu_engine_tree_free(&tr);
		ck_assert_int_eq(ops->mcast.tree(&f, r.topo, st, m, 2, &o, 0xc002,
						 &tr, &e), 0);
		ibu_engine_tree_free(&tr);
		ck_assert_int_eq(ibu_xy_mcast_load_count(st), 2);
		ops->mcast.release(st, 0xc001);
		ck_assert_int_eq(ibu_xy_mcast_load_count(st), 1);
		ops->mcast.state_free(st);
	}
	ibu_engine_result_free(&r);
	o.qos = 0;
	ck_assert_int_eq(ibu_engine_run(ops, &f, &o, &r, &e), IBU_ETOPO);
	ck_assert_msg(strstr(e.msg, "qos TRUE"), "%s", e.msg);
	ck_assert_int_ge(layers, 2);	/* this damage needs a detour layer */
	{
		o.qos = 1;
		o.max_vls = layers - 1;
		ck_assert_int_eq(ibu_engine_run(ops, &f, &o, &r, &e), IBU_ETOPO);
		ck_assert_msg(strstr(e.msg, "SL layers"), "%s", e.msg);
	}
	ibu_fabric_free(&f);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("engine_xy");
	TCase *tc = tcase_create("ops");

	tcase_add_test(tc, test_engine);
	tcase_add_test(tc, test_layout_and_order);
	tcase_add_test(tc, test_options);
	tcase_add_test(tc, test_rule_hook);
	tcase_add_test(tc, test_engine_damaged);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
