/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <string.h>
#include "xy_verify.h"
#include "xy.h"
#include "xy_detour.h"

struct ctx {
	const struct ibu_fabric *f;
	const struct ibu_mesh *t;
	struct ibu_verify_report *rp;
};

static void mismatch(void *arg, const struct ibu_xy_mismatch *mm)
{
	struct ctx *c = arg;
	char lab[32];

	ibu_mesh_sw_label(c->t, ibu_mesh_sw(c->t, mm->node), lab, sizeof(lab));
	if (mm->have == IBU_NO_PATH)
		ibu_verify_error(c->rp, IBU_VK_RULE,
				 "switch %s '%s': LID 0x%04x has no entry, XY goes to port %d (%s)",
				 lab, c->f->nodes[mm->node].name, mm->lid,
				 mm->want,
				 ibu_dir_name(ibu_mesh_port_dir(c->t, mm->node, mm->want)));
	else
		ibu_verify_error(c->rp, IBU_VK_RULE,
				 "switch %s '%s': LID 0x%04x goes to port %d (%s), XY to port %d (%s)",
				 lab, c->f->nodes[mm->node].name, mm->lid,
				 mm->have,
				 ibu_dir_name(ibu_mesh_port_dir(c->t, mm->node, mm->have)),
				 mm->want,
				 ibu_dir_name(ibu_mesh_port_dir(c->t, mm->node, mm->want)));
}

/* Detour pairs shown one per line (then only counted). */
#define DETOUR_LINES 20

/* Which switch pairs have a fault on their XY path, and which (the plan
 * moves more off XY to balance: the engine's summary counts those too). */
static void report_detours(struct ibu_verify_report *rp,
			   const struct ibu_mesh *t)
{
	char why[160];
	long n = 0, pairs = 0;
	int s, d;

	for (s = 0; s < t->num_switches; s++)
		for (d = 0; d < t->num_switches; d++) {
			if (s == d || !ibu_mesh_present(t, s) ||
			    !ibu_mesh_present(t, d))
				continue;
			pairs++;
			if (!ibu_xy_detour_why(t, s, d, why, sizeof(why)))
				continue;
			if (n++ < DETOUR_LINES)
				ibu_verify_info(rp, "xy: detour: %s: shortest surviving path, layer %d",
						why, ibu_xy_detour_layer(t, s, d));
		}
	ibu_verify_info(rp, "xy: %ld of %ld switch pairs have a fault on their XY path (%s), %d SL layers",
			n, pairs, n > DETOUR_LINES ? "the first 20 listed" : "all listed",
			t->dmg->num_layers);
}

static int run(void *arg, const struct ibu_fabric *f,
	       const struct ibu_lft *lft, const struct ibu_lidmap *map,
	       struct ibu_verify_report *rp, struct ibu_verify_result *r,
	       struct ibu_err *e)
{
	const struct ibu_xy_rule *xr = arg;
	struct ctx c = { f, xr->t, rp };

	if (xr->t->dmg) {
		ibu_verify_info(rp, "xy: damaged %d x %d mesh, %d faults: every entry against XY where the XY path survives, else the shortest detour",
				xr->t->m, xr->t->n, xr->t->dmg->num_faults);
		report_detours(rp, xr->t);
	} else {
		ibu_verify_info(rp, "xy: %d x %d mesh, %d switches, %d end ports: every entry against XY",
				xr->t->m, xr->t->n, xr->t->num_switches,
				xr->t->num_endports);
	}
	return ibu_xy_verify(xr->t, map, lft, mismatch, &c, &r->rule_entries,
			     &r->rule_mismatches, e);
}

void ibu_xy_verify_rule(struct ibu_verify_rule *rule, struct ibu_xy_rule *arg)
{
	memset(rule, 0, sizeof(*rule));
	rule->name = "xy";
	rule->mismatch_name = "XY mismatches";
	rule->arg = arg;
	rule->run = run;
}
