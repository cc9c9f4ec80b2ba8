/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The cyclic rule as a verify hook (see cyclic_verify.h). */
#include <stdlib.h>
#include <string.h>
#include "cyclic_verify.h"
#include "cyclic.h"

static void check_entries(const struct ibu_cyclic_rule *c,
			  const struct ibu_fabric *f, const struct ibu_lft *lft,
			  struct ibu_verify_report *rp, struct ibu_verify_result *r)
{
	const struct ibu_ibft *t = c->t;
	const struct ibu_lidplan *pl = c->p;
	uint32_t lid;
	int s;

	for (lid = 1; lid <= pl->map.max_lid; lid++) {
		const struct ibu_lid_owner *lo = &pl->map.owner[lid];
		int pid;

		if (lo->node < 0 || ibu_node_is_switch(&f->nodes[lo->node]))
			continue;
		pid = ibu_ibft_ep(t, lo->node, lo->port);
		if (pid < 0)
			continue;
		for (s = 0; s < t->num_switches; s++) {
			const struct ibu_ibft_switch *sw = &t->sw[s];
			int k = ibu_cyclic_paper_port(t, pl->offset_digits,
						      c->offsets, s,
						      (uint32_t)pid, lo->offset);
			int want = k >= 1 && k <= t->m ? sw->phys_of_k[k] : -1;
			int got = ibu_lft_get(lft, sw->node, lid);
			char sl[64], el[64];

			r->rule_entries++;
			if (got == want)
				continue;
			r->rule_mismatches++;
			if (!rp->fn || rp->max_errors < 0 ||
			    rp->printed[IBU_VK_RULE] >= rp->max_errors) {
				rp->total[IBU_VK_RULE]++;
				continue;
			}
			ibu_ibft_sw_label(t, s, sl, sizeof(sl));
			ibu_ibft_ep_label(t, pid, el, sizeof(el));
			if (got == IBU_NO_PATH)
				ibu_verify_error(rp, IBU_VK_RULE,
					"cyclic: %s '%s': LID 0x%04x of %s (offset %u): expected paper port %d (port %d), found no entry",
					sl, f->nodes[sw->node].name, lid, el,
					lo->offset, k, want);
			else
				ibu_verify_error(rp, IBU_VK_RULE,
					"cyclic: %s '%s': LID 0x%04x of %s (offset %u): expected paper port %d (port %d), found port %d (paper port %d)",
					sl, f->nodes[sw->node].name, lid, el,
					lo->offset, k, want, got,
					got <= f->nodes[sw->node].num_ports ?
					sw->k_of_phys[got] : 0);
		}
	}
}

/*
 * For each (sampled) source: the up-ports its routes take toward every
 * other end port, on the LID cyclic selection picks, at the levels whose
 * up-digit the LID offset decides, must be one per switch.
 */
static int check_climbs(const struct ibu_cyclic_rule *c,
			const struct ibu_fabric *f, const struct ibu_lft *lft,
			struct ibu_verify_report *rp,
			struct ibu_verify_result *r, struct ibu_err *e)
{
	const struct ibu_ibft *t = c->t;
	const struct ibu_lidplan *pl = c->p;
	int *used = malloc((t->num_switches ? t->num_switches : 1) * sizeof(int));
	int step, src, dst, want = c->climb_sources;

	if (!used)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	/* a leaf at level n-1 uses up-digit 0, level l digit n-1-l */
	r->path_levels = pl->offset_digits < t->n - 1 ? pl->offset_digits :
			  t->n - 1;
	step = want > 0 && want < t->num_endports ? t->num_endports / want : 1;
	for (src = 0; src < t->num_endports; src += step) {
		int bad = 0, bad_sw = -1, bad_a = 0, bad_b = 0, bad_dst = -1;

		memset(used, 0, t->num_switches * sizeof(int));
		for (dst = 0; dst < t->num_endports && !bad; dst++) {
			const struct ibu_ibft_endport *de = &t->ep[dst];
			const struct ibu_port *dp = &f->nodes[de->node].ports[de->port];
			unsigned off;
			uint32_t lid;
			int x, hops = 0;

			if (dst == src || !dp->lid)
				continue;
			off = ibu_cyclic_offset(t, pl->offset_digits,
						c->offsets, (uint32_t)src,
						(uint32_t)dst);
			if (off >= (1u << dp->lmc))
				continue;
			lid = dp->lid + off;
			x = t->sw[t->ep[src].leaf].node;
			while (hops++ < t->num_switches) {
				int xs = ibu_ibft_sw(t, x), ys, port, y;

				port = ibu_lft_get(lft, x, lid);
				if (xs < 0 || port == 0 ||
				    port > f->nodes[x].num_ports)
					break;
				y = f->nodes[x].ports[port].peer_node;
				ys = y >= 0 ? ibu_ibft_sw(t, y) : -1;
				if (ys < 0 || t->sw[ys].level >= t->sw[xs].level)
					break;	/* no longer climbing */
				if (t->n - 1 - t->sw[xs].level < r->path_levels) {
					if (!used[xs]) {
						used[xs] = port;
					} else if (used[xs] != port) {
						bad = 1;
						bad_sw = xs;
						bad_a = used[xs];
						bad_b = port;
						bad_dst = dst;
						break;
					}
				}
				x = y;
			}
		}
		r->path_sources++;
		if (!bad)
			continue;
		r->path_violations++;
		if (rp->fn && rp->max_errors >= 0 &&
		    rp->printed[IBU_VK_PATH] < rp->max_errors) {
			char sl[64], el[64], dl[64];

			ibu_ibft_sw_label(t, bad_sw, sl, sizeof(sl));
			ibu_ibft_ep_label(t, src, el, sizeof(el));
			ibu_ibft_ep_label(t, bad_dst, dl, sizeof(dl));
			ibu_verify_error(rp, IBU_VK_PATH,
				"cyclic: %s climbs through %s '%s' on port %d and, toward %s, on port %d",
				el, sl, f->nodes[t->sw[bad_sw].node].name,
				bad_a, dl, bad_b);
		} else {
			rp->total[IBU_VK_PATH]++;
		}
	}
	free(used);
	return IBU_OK;
}

static int run(void *arg, const struct ibu_fabric *f,
	       const struct ibu_lft *lft, const struct ibu_lidmap *map,
	       struct ibu_verify_report *rp, struct ibu_verify_result *r,
	       struct ibu_err *e)
{
	const struct ibu_cyclic_rule *c = arg;
	int rc = IBU_OK;

	(void)map;
	if (!c->t || !c->p)
		return ibu_err_set(e, IBU_EINVAL, "cyclic checks need a LID plan");
	check_entries(c, f, lft, rp, r);
	ibu_verify_info(rp, "cyclic: %ld entries of %d tree switches compared with the %s rule: %ld mismatches",
			r->rule_entries, c->t->num_switches,
			c->offsets == IBU_OFFSETS_PAPER ? "paper's" :
			"destination-rotated", r->rule_mismatches);
	if (c->p->offset_digits > 0)
		rc = check_climbs(c, f, lft, rp, r, e);
	else
		ibu_verify_info(rp, "cyclic: LMC %d leaves every up-port to the destination (D-mod-k): ascending paths not checked",
				c->p->lmc);
	if (rc)
		return rc;
	if (!r->path_violations && r->path_sources)
		ibu_verify_info(rp, "cyclic: every source's routes share one ascending path (%ld sources, %d of %d levels decided by the LID)",
				r->path_sources, r->path_levels, c->t->n - 1);
	return IBU_OK;
}

void ibu_cyclic_verify_rule(struct ibu_verify_rule *rule,
			    struct ibu_cyclic_rule *arg)
{
	memset(rule, 0, sizeof(*rule));
	rule->name = "cyclic";
	rule->mismatch_name = "cyclic mismatches";
	rule->path_name = "sources without one ascending path";
	rule->path_short = "climb violations";
	rule->arg = arg;
	rule->run = run;
}
