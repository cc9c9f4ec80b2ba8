/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The xy engine's rule as a verify hook (lib/mesh/xy_verify.c): the XY
 * tables pass it, a broken entry is reported with its switch, LID and
 * both ports. */
#include <stdio.h>
#include <string.h>
#include "mesh_util.h"
#include "engines.h"
#include "lft.h"
#include "verify.h"
#include "xy.h"
#include "mesh_faults.h"
#include "xy_verify.h"

/* The report's lines, one after another ("L text\n"). */
struct lines {
	char buf[8192];
	size_t len;
};

static void collect(void *arg, char level, const char *text)
{
	struct lines *l = arg;
	int n = snprintf(l->buf + l->len, sizeof(l->buf) - l->len, "%c %s\n",
			 level, text);

	ck_assert(n > 0 && (size_t)n < sizeof(l->buf) - l->len);
	l->len += (size_t)n;
}

/* Lines that begin with head. */
static int count_lines(const struct lines *l, const char *head)
{
	const char *c;
	int n = 0;

	for (c = l->buf; c && *c; c = strchr(c, '\n'), c = c ? c + 1 : NULL)
		n += !strncmp(c, head, strlen(head));
	return n;
}

/* An X x Y mesh (damaged by go), LIDs and tables from the xy engine. */
static void routed(struct ibu_fabric *f, struct ibu_engine_result *r, int X,
		   int Y, const struct ibu_gen_opts *go)
{
	const struct ibu_engine_ops *ops = &ibu_engine_xy;
	struct ibu_engine_opts eo;
	struct ibu_err e = { 0 };
	enum ibu_engine_decline_kind kind;
	void *topo;
	int used;

	ibu_engine_opts_default(&eo);
	eo.qos = 1;
	ck_assert_int_eq(ibu_gen_mesh(f, X, Y, 1, go, &e), 0);
	ck_assert_msg(ops->recognise(f, &eo, &topo, &kind, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(ops->assign_lids(f, topo, 0, 0, &used, &e), 0);
	ops->topo_free(topo);
	ck_assert_msg(ibu_engine_run(ops, f, &eo, r, &e) == 0, "%s", e.msg);
}

static void verify(const struct ibu_fabric *f, const struct ibu_engine_result *r,
		   struct lines *l, struct ibu_verify_result *vr)
{
	struct ibu_xy_rule arg = { r->topo };
	struct ibu_verify_rule rule;
	struct ibu_verify_opts vo = { 0 };
	struct ibu_err e = { 0 };

	ibu_xy_verify_rule(&rule, &arg);
	ck_assert_str_eq(rule.name, "xy");
	ck_assert_str_eq(rule.mismatch_name, "XY mismatches");
	vo.rule = &rule;
	memset(l, 0, sizeof(*l));
	ck_assert_int_eq(ibu_verify_lft(f, &r->lft, &vo, collect, l, vr, &e), 0);
	ck_assert_ptr_eq(vr->rule, &rule);
}

/* The HCA LID of N(x,y). */
static uint32_t lid_at(const struct ibu_fabric *f, const struct ibu_mesh *t,
		       int x, int y)
{
	const struct ibu_mesh_endport *ep = &t->ep[t->sw[ibu_mesh_index(t, x, y)].first_ep];

	return f->nodes[ep->node].ports[ep->port].lid;
}

/* 4 x 3 mesh: the XY tables pass (12 switches x 24 LIDs); N(0,0) sending
 * the HCA of N(3,0) north instead of east is one mismatch, named; an
 * entry left empty is one too. */
START_TEST(valid_and_broken)
{
	struct ibu_fabric f;
	struct ibu_engine_result r;
	struct ibu_verify_result vr;
	const struct ibu_mesh *t;
	struct lines l;
	char want[160];
	int s, node;
	uint32_t lid;
	uint8_t keep;

	routed(&f, &r, 4, 3, NULL);
	t = r.topo;
	verify(&f, &r, &l, &vr);
	ck_assert_int_eq(vr.rule_entries, 12 * 24);
	ck_assert_int_eq(vr.rule_mismatches, 0);
	ck_assert_int_eq(count_lines(&l, "E "), 0);
	ck_assert_msg(strstr(l.buf, "I xy: 4 x 3 mesh, 12 switches, 12 end ports: every entry against XY"),
		      "%s", l.buf);

	s = ibu_mesh_index(t, 0, 0);
	node = t->sw[s].node;
	lid = lid_at(&f, t, 3, 0);
	keep = r.lft.row[node][lid];
	ck_assert_int_eq(keep, t->sw[s].port[IBU_DIR_E]);
	r.lft.row[node][lid] = (uint8_t)t->sw[s].port[IBU_DIR_N];
	verify(&f, &r, &l, &vr);
	ck_assert_int_eq(vr.rule_mismatches, 1);
	ck_assert_int_eq(count_lines(&l, "E switch "), 1);
	snprintf(want, sizeof(want),
		 "E switch N(0,0) '%s': LID 0x%04x goes to port %d (N), XY to port %d (E)",
		 f.nodes[node].name, lid, t->sw[s].port[IBU_DIR_N],
		 t->sw[s].port[IBU_DIR_E]);
	ck_assert_msg(strstr(l.buf, want), "want '%s' in\n%s", want, l.buf);

	r.lft.row[node][lid] = IBU_NO_PATH;
	verify(&f, &r, &l, &vr);
	ck_assert_int_eq(vr.rule_mismatches, 1);
	snprintf(want, sizeof(want),
		 "E switch N(0,0) '%s': LID 0x%04x has no entry, XY goes to port %d (E)",
		 f.nodes[node].name, lid, t->sw[s].port[IBU_DIR_E]);
	ck_assert_msg(strstr(l.buf, want), "want '%s' in\n%s", want, l.buf);
	r.lft.row[node][lid] = keep;
	verify(&f, &r, &l, &vr);
	ck_assert_int_eq(vr.rule_mismatches, 0);
	ibu_engine_result_free(&r);
	ibu_fabric_free(&f);
}
END_TEST

/* Switch pairs whose XY path meets a missing cable or switch, walked on
 * the fabric's own cables. */
static long broken_xy_pairs(const struct ibu_fabric *f, const struct ibu_mesh *t)
{
	long n = 0;
	int s, d, cur, next, p;

	for (s = 0; s < t->num_switches; s++)
		for (d = 0; d < t->num_switches; d++) {
			int cut = 0;

			if (s == d || !ibu_mesh_present(t, s) || !ibu_mesh_present(t, d))
				continue;
			for (cur = s; cur != d && !cut; cur = next) {
				const struct ibu_node *nd = &f->nodes[t->sw[cur].node];

				next = ibu_mesh_neighbour(t, cur, ibu_xy_dir(t, cur, d));
				ck_assert_int_ge(next, 0);
				cut = 1;
				if (ibu_mesh_present(t, next))
					for (p = 1; p <= nd->num_ports; p++)
						if (nd->ports[p].peer_node == t->sw[next].node)
							cut = 0;
			}
			n += cut;
		}
	return n;
}

/* A damaged mesh: its tables (detours where XY does not survive) pass;
 * the report says it is damaged and counts the pairs whose XY path meets
 * a fault. */
START_TEST(damaged_detours)
{
	struct ibu_gen_opts go = { .remove_links = 2, .seed = 3 };
	struct ibu_fabric f;
	struct ibu_engine_result r;
	struct ibu_verify_result vr;
	const struct ibu_mesh *t;
	struct lines l;
	char want[128];
	long pairs, broken;

	routed(&f, &r, 5, 5, &go);
	t = r.topo;
	ck_assert_ptr_nonnull(t->dmg);
	verify(&f, &r, &l, &vr);
	ck_assert_int_eq(vr.rule_mismatches, 0);
	ck_assert_int_gt(vr.rule_entries, 0);
	snprintf(want, sizeof(want), "I xy: damaged 5 x 5 mesh, %d faults",
		 t->dmg->num_faults);
	ck_assert_msg(strstr(l.buf, want), "%s", l.buf);
	pairs = (long)(25 - t->dmg->missing_switches) *
		(24 - t->dmg->missing_switches);
	broken = broken_xy_pairs(&f, t);
	ck_assert_int_gt(broken, 0);
	snprintf(want, sizeof(want), "I xy: %ld of %ld switch pairs have a fault on their XY path",
		 broken, pairs);
	ck_assert_msg(strstr(l.buf, want), "want '%s' in\n%s", want, l.buf);
	ck_assert_int_eq(count_lines(&l, "I xy: detour: "),
			 broken < 20 ? (int)broken : 20);
	ibu_engine_result_free(&r);
	ibu_fabric_free(&f);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("xy_verify");
	TCase *tc = tcase_create("rule");

	tcase_add_test(tc, valid_and_broken);
	tcase_add_test(tc, damaged_detours);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
