/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdlib.h>
#include <string.h>
#include "cyclic.h"

const char *ibu_cyclic_offsets_name(enum ibu_cyclic_offsets mode)
{
	return mode == IBU_OFFSETS_PAPER ? "paper" : "rotated";
}

int ibu_cyclic_offsets_parse(const char *text, enum ibu_cyclic_offsets *mode)
{
	if (!text)
		return -1;
	if (!strcmp(text, "rotated"))
		*mode = IBU_OFFSETS_ROTATED;
	else if (!strcmp(text, "paper"))
		*mode = IBU_OFFSETS_PAPER;
	else
		return -1;
	return 0;
}

/* r_l(D): what the destination adds to the offset digit at level l. */
static int rotation(enum ibu_cyclic_offsets mode, const uint8_t *dst, int level)
{
	return mode == IBU_OFFSETS_PAPER ? 0 : dst[level];
}

/* Lowest common ancestors' level of two labels (common prefix, <= n-1). */
static int label_lca(int n, const uint8_t *a, const uint8_t *b)
{
	int l = 0;

	while (l < n - 1 && a[l] == b[l])
		l++;
	return l;
}

unsigned ibu_cyclic_label_offset(int half, int n, int offset_digits,
				 enum ibu_cyclic_offsets mode,
				 const uint8_t *src_label,
				 const uint8_t *dst_label)
{
	int lca = label_lca(n, src_label, dst_label), j;
	unsigned o = 0, pw = 1;

	if (half < 1)
		return 0;
	/* the climb from the leaf (digit 0) to level lca + 1: at level
	 * l = n-1-j the source wants up-digit s_l, so digit j is s_l - r_l */
	for (j = 0; j < n - 1 - lca && j < offset_digits; j++) {
		int l = n - 1 - j;
		int dg = ((int)src_label[l] - rotation(mode, dst_label, l)) % half;

		o += pw * (unsigned)(dg < 0 ? dg + half : dg);
		pw *= (unsigned)half;
	}
	return o;
}

uint32_t ibu_cyclic_label_dlid(int half, int n, int lmc,
			       enum ibu_cyclic_offsets mode,
			       const uint8_t *src_label,
			       const uint8_t *dst_label,
			       uint32_t dst_base_lid)
{
	int d = ibu_lid_offset_digits(half, n, lmc);

	return dst_base_lid + ibu_cyclic_label_offset(half, n, d, mode,
						      src_label, dst_label);
}

int ibu_cyclic_up_digit(const struct ibu_ibft *t, int offset_digits,
			enum ibu_cyclic_offsets mode, int level, uint32_t pid,
			unsigned offset)
{
	const uint8_t *p = t->ep[pid].p;
	int j = t->n - 1 - level, i;

	if (j < offset_digits) {
		for (i = 0; i < j; i++)
			offset /= (unsigned)t->half;
		return (int)((offset % (unsigned)t->half +
			      (unsigned)rotation(mode, p, level)) %
			     (unsigned)t->half);
	}
	/* LMC set too small for this level: D-mod-k on the destination */
	return p[level];
}

int ibu_cyclic_paper_port(const struct ibu_ibft *t, int offset_digits,
			  enum ibu_cyclic_offsets mode, int sw, uint32_t pid,
			  unsigned offset)
{
	int l = t->sw[sw].level;

	if (l == 0 || ibu_ibft_below(t, sw, (int)pid))
		return t->ep[pid].p[l] + 1;				/* Eq. 1 */
	return t->half + 1 + ibu_cyclic_up_digit(t, offset_digits, mode, l,
						 pid, offset);		/* Eq. 2 */
}

unsigned ibu_cyclic_offset(const struct ibu_ibft *t, int offset_digits,
			   enum ibu_cyclic_offsets mode, uint32_t src_pid,
			   uint32_t dst_pid)
{
	return ibu_cyclic_label_offset(t->half, t->n, offset_digits, mode,
				       t->ep[src_pid].p, t->ep[dst_pid].p);
}

int ibu_cyclic_turn_switch(const struct ibu_ibft *t, int offset_digits,
			   enum ibu_cyclic_offsets mode, uint32_t src_pid,
			   uint32_t dst_pid, unsigned offset)
{
	const uint8_t *s = t->ep[src_pid].p;
	uint8_t w[IBU_IBFT_MAX_N];
	int lca = ibu_ibft_lca_level(t, (int)src_pid, (int)dst_pid), l, i = 0;

	/* A_lca = SW<s0 .. s(lca-1) u(n-1) .. u(lca+1), lca> */
	for (l = 0; l < lca; l++)
		w[i++] = s[l];
	for (l = t->n - 1; l > lca; l--)
		w[i++] = (uint8_t)ibu_cyclic_up_digit(t, offset_digits, mode, l,
						      dst_pid, offset);
	return ibu_ibft_find_switch(t, lca, w);
}

/* ---- routes to switch LIDs ----
 *
 * Closed form, no search. In the k-ary n-tree view of IBFT(m,n) a switch
 * is a word x0..x(n-2) and a level l; the link between levels l and l+1
 * changes digit l only. From the paper label w: x_i = w_i for i < l (the
 * sub-tree prefix) and x_(l+j) = w_(n-2-j) (the up-digits, newest first).
 * Paper port c + 1 of SW<x,l> leads down to the child with x_l = c, paper
 * port m/2 + 1 + u leads up to the parent with x_(l-1) = u.
 *
 * For a switch s (word a, level ls) and a destination switch d (word b,
 * level ld) let D = { i : a_i != b_i }, lo = min(ls, ld, min D) and
 * hi = max(ls, ld, max D + 1). Every digit in D must be crossed, so a
 * shortest walk covers the levels lo..hi: it is
 *   up/down (s climbs to level lo, then goes down), length
 *     (ls - lo) + (ld - lo), exactly when max D < max(ls, ld);
 *   otherwise (no up/down path, e.g. SW<00,1> to SW<11,1> in IBFT(4,3))
 *     up first  ls -> lo -> hi -> ld when ls < ld,
 *     down first ls -> hi -> lo -> ld when ls >= ld (ties go down first),
 *   and the other order is never shorter.
 * Hop rule at s, every choice on a shortest walk:
 *   up/down, s an ancestor of d (lo == ls): down to x_ls = b_ls (the
 *     destination's label digit);
 *   up/down otherwise, and up-first while ls > lo: up to x_(ls-1) =
 *     b_(ls-1) mod m/2 (forced where the digit is not crossed again, a
 *     free D-mod-k choice from the destination's label elsewhere);
 *   otherwise down to x_ls = b_ls.
 * Each hop shortens the shortest walk by one, so the routes are minimal
 * and loop-free, up/down wherever an up/down path exists.
 */

/* k-ary n-tree word of switch s into x[0..n-2] */
static void sw_word(const struct ibu_ibft *t, int s, uint8_t *x)
{
	int l = t->sw[s].level, i;

	for (i = 0; i < l; i++)
		x[i] = t->sw[s].w[i];
	for (i = l; i <= t->n - 2; i++)
		x[i] = t->sw[s].w[t->n - 2 - (i - l)];
}

/* Paper port at switch (a, ls) toward switch (b, ld); 0 when a == b. */
static int sw_route_k(int half, int nd, const uint8_t *a, int ls,
		      const uint8_t *b, int ld)
{
	int lo_d = nd, hi_d = -1, i, lo;

	for (i = 0; i < nd; i++)
		if (a[i] != b[i]) {
			if (lo_d == nd)
				lo_d = i;
			hi_d = i;
		}
	if (hi_d < 0 && ls == ld)
		return 0;
	lo = ls < ld ? ls : ld;
	if (lo_d < lo)
		lo = lo_d;
	if (hi_d < (ls > ld ? ls : ld)) {		/* up/down */
		if (lo == ls)
			return b[ls] + 1;
		return half + 1 + b[ls - 1] % half;
	}
	if (ls < ld && lo < ls)				/* up first */
		return half + 1 + b[ls - 1] % half;
	return b[ls] + 1;				/* down */
}

int ibu_cyclic_switch_port(const struct ibu_ibft *t, int sw, int dst_sw)
{
	uint8_t a[IBU_IBFT_MAX_N], b[IBU_IBFT_MAX_N];

	sw_word(t, sw, a);
	sw_word(t, dst_sw, b);
	return sw_route_k(t->half, t->n - 1, a, t->sw[sw].level, b,
			  t->sw[dst_sw].level);
}

/* Every switch's row, in one pass per row: routes to the switch LIDs. */
static int route_switch_lids(const struct ibu_fabric *f,
			     const struct ibu_ibft *t,
			     const struct ibu_lidplan *p, struct ibu_lft *lft,
			     struct ibu_err *e)
{
	int S = t->num_switches, nd = t->n - 1, d, s;
	uint32_t max = p->map.max_lid < lft->max_lid ? p->map.max_lid :
		       lft->max_lid;
	uint8_t *word = malloc((size_t)S * (nd ? nd : 1));
	uint32_t *lid = malloc(S * sizeof(*lid)), *cnt = malloc(S * sizeof(*cnt));

	if (!word || !lid || !cnt) {
		free(word);
		free(lid);
		free(cnt);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	for (d = 0; d < S; d++) {
		const struct ibu_port *lp = &f->nodes[t->sw[d].node].ports[0];

		sw_word(t, d, word + (size_t)d * nd);
		lid[d] = lp->lid;
		cnt[d] = lp->lid ? 1u << lp->lmc : 0;
	}
	for (s = 0; s < S; s++) {
		const struct ibu_ibft_switch *sw = &t->sw[s];
		const uint8_t *a = word + (size_t)s * nd;
		uint8_t *row = lft->row[sw->node];

		for (d = 0; d < S; d++) {
			uint32_t l, end = lid[d] + cnt[d];
			uint8_t port;
			int k;

			if (!cnt[d])
				continue;
			k = sw_route_k(t->half, nd, a, sw->level,
				       word + (size_t)d * nd, t->sw[d].level);
			/* a paper port without a cable (never in an exact
			 * IBFT): no route, for fault handling to repair */
			port = !k ? 0 : sw->phys_of_k[k] ? sw->phys_of_k[k] :
			       IBU_NO_PATH;
			for (l = lid[d]; l < end && l <= max; l++)
				row[l] = port;
		}
	}
	free(word);
	free(lid);
	free(cnt);
	return IBU_OK;
}

/*
 * End-port LIDs: each LID's label and up-digits (Eq. 1 / Eq. 2 inputs) are
 * worked out once, then every switch's row is filled in LID order, one
 * pass per row (the same ports as ibu_cyclic_paper_port()).
 */
int ibu_cyclic_route(const struct ibu_fabric *f, const struct ibu_ibft *t,
		     const struct ibu_lidplan *p, enum ibu_cyclic_offsets mode,
		     struct ibu_lft *lft, struct ibu_err *e)
{
	return ibu_cyclic_route_stats(f, t, p, mode, lft, NULL, e);
}

int ibu_cyclic_route_stats(const struct ibu_fabric *f,
			   const struct ibu_ibft *t,
			   const struct ibu_lidplan *p,
			   enum ibu_cyclic_offsets mode, struct ibu_lft *lft,
			   struct ibu_cyclic_stats *st, struct ibu_err *e)
{
	uint32_t lid, max = p->map.max_lid < lft->max_lid ? p->map.max_lid : lft->max_lid;
	uint32_t nl = 0, i;
	int n = t->n, s, l;
	uint32_t *lids = malloc(((size_t)max + 1) * sizeof(*lids));
	uint8_t *dig = malloc(((size_t)max + 1) * 2 * (size_t)n);
	int rc;

	if (!lids || !dig) {
		free(lids);
		free(dig);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	/* per routed LID: label p0..p(n-1), then up-digits at levels 0..n-1 */
	for (lid = 1; lid <= max; lid++) {
		const struct ibu_lid_owner *o = &p->map.owner[lid];
		uint8_t *d = dig + (size_t)nl * 2 * n;
		int pid;

		if (o->node < 0 || ibu_node_is_switch(&f->nodes[o->node]))
			continue;
		pid = ibu_ibft_ep(t, o->node, o->port);
		if (pid < 0)
			continue;	/* not a processing node of the tree */
		memcpy(d, t->ep[pid].p, (size_t)n);
		d[n] = 0;
		for (l = 1; l < n; l++)
			d[n + l] = (uint8_t)ibu_cyclic_up_digit(t, p->offset_digits,
								mode, l,
								(uint32_t)pid,
								o->offset);
		lids[nl++] = lid;
	}
	for (s = 0; s < t->num_switches; s++) {
		const struct ibu_ibft_switch *sw = &t->sw[s];
		uint8_t *row = lft->row[sw->node];
		int lv = sw->level;

		for (i = 0; i < nl; i++) {
			const uint8_t *d = dig + (size_t)i * 2 * n;
			int below = 1, k;

			for (l = 0; l < lv && below; l++)
				below = d[l] == sw->w[l];
			k = below ? d[lv] + 1 :				/* Eq. 1 */
			    t->half + 1 + d[n + lv];			/* Eq. 2 */
			row[lids[i]] = sw->phys_of_k[k];
		}
	}
	free(lids);
	free(dig);
	rc = ibu_cyclic_reroute_faults(f, t, p, lft, st, e);
	if (!rc)
		rc = route_switch_lids(f, t, p, lft, e);
	return rc ? rc : ibu_cyclic_reroute_switch_lids(f, t, p, lft, st, e);
}

int ibu_cyclic_tables(const struct ibu_fabric *f,
		      enum ibu_cyclic_offsets mode, struct ibu_ibft *t,
		      struct ibu_lidplan *p, struct ibu_lft *lft,
		      struct ibu_err *e)
{
	int rc;

	memset(p, 0, sizeof(*p));
	memset(lft, 0, sizeof(*lft));
	rc = ibu_ibft_recognize(f, t, e);
	if (rc)
		return rc;
	rc = ibu_lidplan_build(f, t, p, e);
	if (!rc)
		rc = ibu_lft_init(lft, f, p->map.max_lid, e);
	if (!rc)
		rc = ibu_cyclic_route(f, t, p, mode, lft, e);
	if (rc) {
		ibu_lft_free(lft);
		ibu_lidplan_free(p);
		ibu_ibft_free(t);
	}
	return rc;
}
