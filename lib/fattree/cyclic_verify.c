/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The cyclic rule as a verify hook (see cyclic_verify.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cyclic_verify.h"
#include "cyclic.h"

/*
 * On a degraded tree the rule is what the engine computes around the
 * faults (the PGFT router with the paper's rule, lib/fattree/pgft.h): the
 * paper's entries that survive and the re-routed ones, into *exp.
 */
static int degraded_tables(const struct ibu_cyclic_rule *c,
			   const struct ibu_fabric *f, struct ibu_lft *exp,
			   struct ibu_err *e)
{
	int rc = ibu_lft_init(exp, f, c->p->map.max_lid, e);

	if (!rc)
		rc = c->expect ? c->expect(c->expect_ctx, f, exp, e) :
		     ibu_err_set(e, IBU_EINVAL, "no tables to compare with");
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
/* The work of the climb check: per-source DLID sets, the ports used at
 * each switch, the pairs of a DLID file by source, the first violation. */
struct climbs {
	const struct ibu_cyclic_rule *c;
	const struct ibu_fabric *f;
	const struct ibu_lft *lft;
	int *used;		/* [switch] up-port taken, 0 none yet */
	char *seen;		/* [end port] has a line in the file */
	struct climb_set cs;
	long *first, *order;	/* the file's pairs by source */
	int *srcpid, *dstpid;
	long missing;		/* ordered pairs without a line */
	int bad_sw, bad_a, bad_b, bad_dst, bad_line;	/* the violation */
};

static void climbs_free(struct climbs *w)
{
	free(w->used);
	free(w->seen);
	free(w->cs.dst);
	free(w->cs.lid);
	free(w->cs.line);
	free(w->first);
	free(w->order);
	free(w->srcpid);
	free(w->dstpid);
}

static int climbs_alloc(struct climbs *w, const struct ibu_cyclic_rule *c,
			struct ibu_err *e)
{
	const struct ibu_dlid_pairs *dp = c->dlids;
	int N = c->t->num_endports;
	size_t S = c->t->num_switches ? (size_t)c->t->num_switches : 1;
	long np = dp && dp->num ? dp->num : 1;
	/* a source's DLIDs: N - 1 computed ones, or its lines of the file */
	long cap = dp ? (np > N ? np : N) : (N ? N : 1);

	w->used = malloc(S * sizeof(int));
	w->seen = malloc(N ? (size_t)N : 1);
	w->cs.dst = malloc((size_t)cap * sizeof(int));
	w->cs.lid = malloc((size_t)cap * sizeof(uint32_t));
	w->cs.line = malloc((size_t)cap * sizeof(int));
	if (dp) {
		w->first = malloc(((size_t)N + 1) * sizeof(long));
		w->order = malloc((size_t)np * sizeof(long));
		w->srcpid = malloc((size_t)np * sizeof(int));
		w->dstpid = malloc((size_t)np * sizeof(int));
	}
	if (!w->used || !w->seen || !w->cs.dst || !w->cs.lid ||
	    !w->cs.line || (dp && (!w->first || !w->order || !w->srcpid ||
				   !w->dstpid)))
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	return IBU_OK;
}

/* Source src's lines of the DLID file into w->cs; the end ports it has
 * no line toward are counted in w->missing. */
static void file_set(struct climbs *w, int src)
{
	const struct ibu_ibft *t = w->c->t;
	const struct ibu_dlid_pairs *dp = w->c->dlids;
	int N = t->num_endports, k;
	long i;

	memset(w->seen, 0, N ? (size_t)N : 1);
	w->cs.num = 0;
	for (i = w->first[src]; i < w->first[src + 1]; i++) {
		const struct ibu_dlid_pair *pr = &dp->pair[w->order[i]];

		w->cs.dst[w->cs.num] = w->dstpid[w->order[i]];
		w->cs.lid[w->cs.num] = pr->dlid;
		w->cs.line[w->cs.num] = pr->line;
		w->seen[w->dstpid[w->order[i]]] = 1;
		w->cs.num++;
	}
	for (k = 0; k < N; k++)
		w->missing += k != src && !w->seen[k] && t->ep[k].node >= 0;
}

/* Follows DLID k of the set up from src's leaf: 1 (violation kept in w)
 * when a switch of a level the LID decides climbs on another port than
 * for an earlier DLID of the same source. */
static int climb_one(struct climbs *w, int src, int k, int levels)
{
	const struct ibu_ibft *t = w->c->t;
	const struct ibu_fabric *f = w->f;
	uint32_t lid = w->cs.lid[k];
	int x = t->sw[t->ep[src].leaf].node, hops = 0;

	while (hops++ < t->num_switches) {
		int xs = ibu_ibft_sw(t, x), ys, port, y;

		port = ibu_lft_get(w->lft, x, lid);
		if (xs < 0 || port == 0 || port > f->nodes[x].num_ports)
			break;
		y = f->nodes[x].ports[port].peer_node;
		ys = y >= 0 ? ibu_ibft_sw(t, y) : -1;
		if (ys < 0 || t->sw[ys].level >= t->sw[xs].level)
			break;	/* no longer climbing */
		if (t->n - 1 - t->sw[xs].level < levels) {
			if (!w->used[xs]) {
				w->used[xs] = port;
			} else if (w->used[xs] != port) {
				w->bad_sw = xs;
				w->bad_a = w->used[xs];
				w->bad_b = port;
				w->bad_dst = w->cs.dst[k];
				w->bad_line = w->cs.line[k];
				return 1;
			}
		}
		x = y;
	}
	return 0;
}

/* One source breaking the path property, under the error cap. */
static void report_climb(const struct climbs *w, int src,
			 struct ibu_verify_report *rp)
{
	const struct ibu_ibft *t = w->c->t;
	const struct ibu_dlid_pairs *dp = w->c->dlids;
	const char *name = w->f->nodes[t->sw[w->bad_sw].node].name;
	char sl[64], el[64], dl[64];

	if (!rp->fn || rp->max_errors < 0 ||
	    rp->printed[IBU_VK_PATH] >= rp->max_errors) {
		rp->total[IBU_VK_PATH]++;
		return;
	}
	ibu_ibft_sw_label(t, w->bad_sw, sl, sizeof(sl));
	ibu_ibft_ep_label(t, src, el, sizeof(el));
	ibu_ibft_ep_label(t, w->bad_dst, dl, sizeof(dl));
	if (dp)
		ibu_verify_error(rp, IBU_VK_PATH,
			"cyclic: %s climbs through %s '%s' on port %d and, toward %s (%s:%d), on port %d",
			el, sl, name, w->bad_a, dl, dp->source, w->bad_line,
			w->bad_b);
	else
		ibu_verify_error(rp, IBU_VK_PATH,
			"cyclic: %s climbs through %s '%s' on port %d and, toward %s, on port %d",
			el, sl, name, w->bad_a, dl, w->bad_b);
}

/* After the sources of a DLID file: how many pairs it had, and the ones
 * it lacked (when every source was checked). */
static void report_file(const struct climbs *w, int every_source,
			struct ibu_verify_report *rp,
			struct ibu_verify_result *r)
{
	const struct ibu_dlid_pairs *dp = w->c->dlids;
	char text[160];

	ibu_verify_info(rp, "cyclic: %ld DLID pairs from %s", dp->num,
			dp->source);
	if (!w->missing || !every_source)
		return;
	snprintf(text, sizeof(text),
		 "cyclic: %ld ordered pairs of end ports have no line in %s",
		 w->missing, dp->source);
	r->warnings++;
	if (rp->fn)
		rp->fn(rp->arg, 'W', text);
}

static int check_climbs(const struct ibu_cyclic_rule *c,
			const struct ibu_fabric *f, const struct ibu_lft *lft,
			const struct ibu_lidmap *map,
			struct ibu_verify_report *rp,
			struct ibu_verify_result *r, struct ibu_err *e)
{
	const struct ibu_ibft *t = c->t;
	const struct ibu_lidplan *pl = c->p;
	struct climbs w = { .c = c, .f = f, .lft = lft };
	int N = t->num_endports, want = c->climb_sources, step, src, k, bad;
	int rc = climbs_alloc(&w, c, e);

	if (!rc && c->dlids)
		rc = pairs_by_source(c, map, w.first, w.order, w.srcpid,
				     w.dstpid, e);
	if (rc) {
		climbs_free(&w);
		return rc;
	}
	/* a leaf at level n-1 uses up-digit 0, level l digit n-1-l */
	r->path_levels = pl->offset_digits < t->n - 1 ? pl->offset_digits :
			  t->n - 1;
	step = want > 0 && want < N ? N / want : 1;
	for (src = 0; src < N; src += step) {
		if (t->ep[src].node < 0)
			continue;	/* absent end port */
		if (c->dlids)
			file_set(&w, src);
		else
			cyclic_set(c, f, src, &w.cs);
		memset(w.used, 0, (t->num_switches ? t->num_switches : 1) *
		       sizeof(int));
		for (k = 0, bad = 0; k < w.cs.num && !bad; k++)
			bad = w.cs.dst[k] != src &&
			      climb_one(&w, src, k, r->path_levels);
		r->path_sources++;
		if (!bad)
			continue;
		r->path_violations++;
		report_climb(&w, src, rp);
	}
	if (c->dlids)
		report_file(&w, step == 1, rp, r);
	climbs_free(&w);
	return IBU_OK;
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
