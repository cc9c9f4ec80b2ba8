/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The cyclic rule as a verify hook (see cyclic_verify.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cyclic_verify.h"
#include "cyclic.h"

/*
 * On a degraded tree the rule is what the engine computes around the
 * faults (lib/cyclic_faults.c): the paper's entries that survive and the
 * re-routed ones, into *exp.
 */
static int degraded_tables(const struct ibu_cyclic_rule *c,
			   const struct ibu_fabric *f, struct ibu_lft *exp,
			   struct ibu_err *e)
{
	int rc = ibu_lft_init(exp, f, c->p->map.max_lid, e);

	if (!rc)
		rc = ibu_cyclic_route_stats(f, c->t, c->p, c->offsets, exp,
					    NULL, e);
	if (rc)
		ibu_err_prefix(e, "the cyclic routes around the faults");
	return rc;
}

static int check_entries(const struct ibu_cyclic_rule *c,
			 const struct ibu_fabric *f, const struct ibu_lft *lft,
			 struct ibu_verify_report *rp,
			 struct ibu_verify_result *r, struct ibu_err *e)
{
	const struct ibu_ibft *t = c->t;
	const struct ibu_lidplan *pl = c->p;
	struct ibu_lft exp;
	uint32_t lid;
	int s, rc;

	memset(&exp, 0, sizeof(exp));
	if (t->num_faults) {
		rc = degraded_tables(c, f, &exp, e);
		if (rc) {
			ibu_lft_free(&exp);
			return rc;
		}
	}

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
			int want = t->num_faults ?
				   ibu_lft_get(&exp, sw->node, lid) :
				   k >= 1 && k <= t->m ? sw->phys_of_k[k] : -1;
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
			if (t->num_faults)
				ibu_verify_error(rp, IBU_VK_RULE,
					"cyclic: %s '%s': LID 0x%04x of %s (offset %u): expected port %d around the faults (paper port %d), found %d",
					sl, f->nodes[sw->node].name, lid, el,
					lo->offset, want, k, got);
			else if (got == IBU_NO_PATH)
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
	ibu_lft_free(&exp);
	return IBU_OK;
}

/* The DLIDs a source sends on: dst[i] end port, lid[i] its LID, line[i]
 * the pairs file's line (0: computed). */
struct climb_set {
	int num;
	int *dst;
	uint32_t *lid;
	int *line;
};

/* Source src's cyclic DLIDs (ibu_cyclic_offset). */
static void cyclic_set(const struct ibu_cyclic_rule *c,
		       const struct ibu_fabric *f, int src,
		       struct climb_set *cs)
{
	const struct ibu_ibft *t = c->t;
	int dst;

	cs->num = 0;
	for (dst = 0; dst < t->num_endports; dst++) {
		const struct ibu_ibft_endport *de = &t->ep[dst];
		const struct ibu_port *dp;
		unsigned off;

		if (dst == src || de->node < 0)
			continue;	/* absent end port */
		dp = &f->nodes[de->node].ports[de->port];
		if (!dp->lid)
			continue;
		off = ibu_cyclic_offset(t, c->p->offset_digits, c->offsets,
					(uint32_t)src, (uint32_t)dst);
		if (off >= (1u << dp->lmc))
			continue;
		cs->dst[cs->num] = dst;
		cs->lid[cs->num] = dp->lid + off;
		cs->line[cs->num] = 0;
		cs->num++;
	}
}

/* The end port of the tree that owns lid, -1 if none. */
static int lid_endport(const struct ibu_cyclic_rule *c,
		       const struct ibu_lidmap *map, uint32_t lid,
		       unsigned *offset)
{
	const struct ibu_lid_owner *o = ibu_lidmap_get(map, lid);

	if (!o || o->port == 0)
		return -1;
	*offset = o->offset;
	return ibu_ibft_ep(c->t, o->node, o->port);
}

/*
 * The pairs of a DLID file by source (counting sort): first[src] ..
 * first[src + 1] in order[]. A SLID that is no end port's base LID, a DLID
 * no end port of the tree owns: IBU_EPARSE with file:line.
 */
static int pairs_by_source(const struct ibu_cyclic_rule *c,
			   const struct ibu_lidmap *map, long *first,
			   long *order, int *srcpid, int *dstpid,
			   struct ibu_err *e)
{
	const struct ibu_dlid_pairs *dp = c->dlids;
	int N = c->t->num_endports, s;
	long i;

	for (s = 0; s <= N; s++)
		first[s] = 0;
	for (i = 0; i < dp->num; i++) {
		const struct ibu_dlid_pair *pr = &dp->pair[i];
		unsigned off;

		srcpid[i] = lid_endport(c, map, pr->slid, &off);
		if (srcpid[i] < 0 || off)
			return ibu_err_set(e, IBU_EPARSE,
					   "%s:%d: SLID 0x%04x is not the base LID of an end port of the fat tree",
					   dp->source, pr->line, pr->slid);
		dstpid[i] = lid_endport(c, map, pr->dlid, &off);
		if (dstpid[i] < 0)
			return ibu_err_set(e, IBU_EPARSE,
					   "%s:%d: DLID 0x%04x belongs to no end port of the fat tree",
					   dp->source, pr->line, pr->dlid);
		first[srcpid[i] + 1]++;
	}
	for (s = 0; s < N; s++)
		first[s + 1] += first[s];
	for (i = 0; i < dp->num; i++)
		order[first[srcpid[i]]++] = i;
	for (s = N; s > 0; s--)
		first[s] = first[s - 1];
	first[0] = 0;
	return IBU_OK;
}

/*
 * For each (sampled) source: the up-ports its routes take toward every
 * other end port, on the LID cyclic selection picks (or the DLIDs of the
 * pairs file), at the levels whose up-digit the LID offset decides, must
 * be one per switch.
 */
static int check_climbs(const struct ibu_cyclic_rule *c,
			const struct ibu_fabric *f, const struct ibu_lft *lft,
			const struct ibu_lidmap *map,
			struct ibu_verify_report *rp,
			struct ibu_verify_result *r, struct ibu_err *e)
{
	const struct ibu_ibft *t = c->t;
	const struct ibu_lidplan *pl = c->p;
	const struct ibu_dlid_pairs *dp = c->dlids;
	int N = t->num_endports, S = t->num_switches ? t->num_switches : 1;
	long np = dp && dp->num ? dp->num : 1, missing = 0, i;
	int *used = malloc(S * sizeof(int));
	char *seen = malloc(N ? N : 1);
	/* a source's DLIDs: N - 1 computed ones, or its lines of the file */
	long cap = dp ? (np > N ? np : N) : (N ? N : 1);
	struct climb_set cs = {
		0, malloc(cap * sizeof(int)), malloc(cap * sizeof(uint32_t)),
		malloc(cap * sizeof(int)),
	};
	long *first = dp ? malloc((N + 1) * sizeof(long)) : NULL;
	long *order = dp ? malloc(np * sizeof(long)) : NULL;
	int *srcpid = dp ? malloc(np * sizeof(int)) : NULL;
	int *dstpid = dp ? malloc(np * sizeof(int)) : NULL;
	int step, src, want = c->climb_sources, rc = IBU_OK;

	if (!used || !seen || !cs.dst || !cs.lid || !cs.line ||
	    (dp && (!first || !order || !srcpid || !dstpid))) {
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
		goto out;
	}
	if (dp) {
		rc = pairs_by_source(c, map, first, order, srcpid, dstpid, e);
		if (rc)
			goto out;
	}
	/* a leaf at level n-1 uses up-digit 0, level l digit n-1-l */
	r->path_levels = pl->offset_digits < t->n - 1 ? pl->offset_digits :
			  t->n - 1;
	step = want > 0 && want < N ? N / want : 1;
	for (src = 0; src < N; src += step) {
		int bad = 0, bad_sw = -1, bad_a = 0, bad_b = 0, bad_dst = -1;
		int bad_line = 0, k;

		if (t->ep[src].node < 0)
			continue;	/* absent end port */
		if (dp) {
			memset(seen, 0, N);
			cs.num = 0;
			for (i = first[src]; i < first[src + 1]; i++) {
				const struct ibu_dlid_pair *pr =
					&dp->pair[order[i]];

				cs.dst[cs.num] = dstpid[order[i]];
				cs.lid[cs.num] = pr->dlid;
				cs.line[cs.num] = pr->line;
				seen[dstpid[order[i]]] = 1;
				cs.num++;
			}
			for (k = 0; k < N; k++)
				missing += k != src && !seen[k] &&
					   t->ep[k].node >= 0;
		} else {
			cyclic_set(c, f, src, &cs);
		}
		memset(used, 0, S * sizeof(int));
		for (k = 0; k < cs.num && !bad; k++) {
			uint32_t lid = cs.lid[k];
			int x, hops = 0;

			if (cs.dst[k] == src)
				continue;
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
						bad_dst = cs.dst[k];
						bad_line = cs.line[k];
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
			if (dp)
				ibu_verify_error(rp, IBU_VK_PATH,
					"cyclic: %s climbs through %s '%s' on port %d and, toward %s (%s:%d), on port %d",
					el, sl, f->nodes[t->sw[bad_sw].node].name,
					bad_a, dl, dp->source, bad_line, bad_b);
			else
				ibu_verify_error(rp, IBU_VK_PATH,
					"cyclic: %s climbs through %s '%s' on port %d and, toward %s, on port %d",
					el, sl, f->nodes[t->sw[bad_sw].node].name,
					bad_a, dl, bad_b);
		} else {
			rp->total[IBU_VK_PATH]++;
		}
	}
	if (dp) {
		ibu_verify_info(rp, "cyclic: %ld DLID pairs from %s", dp->num,
				dp->source);
		if (missing && step == 1) {
			char text[160];

			snprintf(text, sizeof(text),
				 "cyclic: %ld ordered pairs of end ports have no line in %s",
				 missing, dp->source);
			r->warnings++;
			if (rp->fn)
				rp->fn(rp->arg, 'W', text);
		}
	}
out:
	free(used);
	free(seen);
	free(cs.dst);
	free(cs.lid);
	free(cs.line);
	free(first);
	free(order);
	free(srcpid);
	free(dstpid);
	return rc;
}

static int run(void *arg, const struct ibu_fabric *f,
	       const struct ibu_lft *lft, const struct ibu_lidmap *map,
	       struct ibu_verify_report *rp, struct ibu_verify_result *r,
	       struct ibu_err *e)
{
	const struct ibu_cyclic_rule *c = arg;
	int rc = IBU_OK;

	if (!c->t || !c->p)
		return ibu_err_set(e, IBU_EINVAL, "cyclic checks need a LID plan");
	rc = check_entries(c, f, lft, rp, r, e);
	if (rc)
		return rc;
	ibu_verify_info(rp, "cyclic: %ld entries of %d tree switches compared with the %s rule%s: %ld mismatches",
			r->rule_entries, c->t->num_switches,
			c->offsets == IBU_OFFSETS_PAPER ? "paper's" :
			"destination-rotated", c->t->num_faults ?
			" and its re-routes around the faults" : "",
			r->rule_mismatches);
	if (c->t->num_faults && !c->dlids) {
		/* re-routed entries leave the one-chain property where
		 * they turn away from a fault */
		ibu_verify_info(rp, "cyclic: degraded tree (%d faults): ascending paths not checked",
				c->t->num_faults);
		return IBU_OK;
	}
	/* with --dlids the pairs are resolved (file:line errors) even when
	 * the LID decides no level */
	if (c->p->offset_digits > 0 || c->dlids)
		rc = check_climbs(c, f, lft, map, rp, r, e);
	if (c->p->offset_digits == 0)
		ibu_verify_info(rp, "cyclic: LMC %d leaves every up-port to the destination (D-mod-k): ascending paths not checked",
				c->p->lmc);
	if (rc)
		return rc;
	if (!r->path_violations && r->path_sources && r->path_levels > 0)
		ibu_verify_info(rp, "cyclic: every source's routes share one ascending path on %s (%ld sources, %d of %d levels decided by the LID)",
				c->dlids ? "the given DLIDs" : "its cyclic DLIDs",
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
