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

/* ---- routes to switch LIDs ---- */

struct swroute {
	const struct ibu_fabric *f;
	const struct ibu_ibft *t;
	int *down;	/* hops down to the destination, -1: not an ancestor */
	int *ud;	/* up-then-down distance, -1: none */
	int *bfs;	/* plain shortest distance */
	int *queue;
};

static int sw_peer(const struct swroute *r, int s, int k)
{
	int phys = r->t->sw[s].phys_of_k[k];
	int peer = r->f->nodes[r->t->sw[s].node].ports[phys].peer_node;

	return peer < 0 ? -1 : r->t->sw_of_node[peer];
}

static void distances(struct swroute *r, int dst)
{
	const struct ibu_ibft *t = r->t;
	int S = t->num_switches, head = 0, tail = 0, s, k, l;

	for (s = 0; s < S; s++)
		r->down[s] = r->ud[s] = r->bfs[s] = -1;
	/* ancestors: climb from dst */
	r->down[dst] = 0;
	r->queue[tail++] = dst;
	while (head < tail) {
		s = r->queue[head++];
		for (k = t->half + 1; k <= t->m && t->sw[s].level > 0; k++) {
			int p = sw_peer(r, s, k);

			if (p >= 0 && r->down[p] < 0) {
				r->down[p] = r->down[s] + 1;
				r->queue[tail++] = p;
			}
		}
	}
	/* up-then-down: from the top level downwards */
	for (l = 0; l < t->n; l++)
		for (s = 0; s < S; s++) {
			if (t->sw[s].level != l)
				continue;
			if (r->down[s] >= 0) {
				r->ud[s] = r->down[s];
				continue;
			}
			for (k = t->half + 1; k <= t->m && l > 0; k++) {
				int p = sw_peer(r, s, k);

				if (p >= 0 && r->ud[p] >= 0 &&
				    (r->ud[s] < 0 || r->ud[p] + 1 < r->ud[s]))
					r->ud[s] = r->ud[p] + 1;
			}
		}
	/* plain BFS for pairs no up/down route joins */
	head = tail = 0;
	r->bfs[dst] = 0;
	r->queue[tail++] = dst;
	while (head < tail) {
		s = r->queue[head++];
		for (k = 1; k <= t->m; k++) {
			int p = sw_peer(r, s, k);

			if (p >= 0 && r->bfs[p] < 0) {
				r->bfs[p] = r->bfs[s] + 1;
				r->queue[tail++] = p;
			}
		}
	}
}

/* Paper port toward dst from s; candidates are spread by spread % count. */
static int next_k(const struct swroute *r, int s, long spread)
{
	const struct ibu_ibft *t = r->t;
	int cand[IBU_MAX_PORTS + 1], nc = 0, k, lo = 1, hi = t->m;
	const int *dist;
	int want;

	if (r->down[s] > 0) {			/* ancestor: go down */
		dist = r->down;
		hi = t->sw[s].level == 0 ? t->m : t->half;
	} else if (r->ud[s] > 0) {		/* climb toward an ancestor */
		dist = r->ud;
		lo = t->half + 1;
	} else {				/* no up/down route exists */
		dist = r->bfs;
	}
	want = dist[s] - 1;
	for (k = lo; k <= hi; k++) {
		int p = sw_peer(r, s, k);

		if (p >= 0 && dist[p] == want)
			cand[nc++] = k;
	}
	return nc ? cand[spread % nc] : 0;
}

static int route_switch_lids(const struct ibu_fabric *f,
			     const struct ibu_ibft *t,
			     const struct ibu_lidplan *p, struct ibu_lft *lft,
			     struct ibu_err *e)
{
	int S = t->num_switches, d, s, rc = IBU_OK;
	struct swroute r = { f, t, NULL, NULL, NULL, NULL };

	r.down = malloc(S * sizeof(int));
	r.ud = malloc(S * sizeof(int));
	r.bfs = malloc(S * sizeof(int));
	r.queue = malloc(S * sizeof(int));
	if (!r.down || !r.ud || !r.bfs || !r.queue) {
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
		goto out;
	}
	for (d = 0; d < S; d++) {
		const struct ibu_port *lp = &f->nodes[t->sw[d].node].ports[0];
		uint32_t lid, cnt = 1u << lp->lmc, o;

		if (!lp->lid)
			continue;
		distances(&r, d);
		for (s = 0; s < S; s++) {
			uint8_t *row = lft->row[t->sw[s].node];
			int k = s == d ? 0 :
				next_k(&r, s, ibu_ibft_sw_slot(t, d));
			uint8_t port = s == d ? 0 :
				k ? t->sw[s].phys_of_k[k] : IBU_NO_PATH;

			for (o = 0; o < cnt; o++) {
				lid = lp->lid + o;
				if (lid <= lft->max_lid && lid <= p->map.max_lid)
					row[lid] = port;
			}
		}
	}
out:
	free(r.down);
	free(r.ud);
	free(r.bfs);
	free(r.queue);
	return rc;
}

int ibu_cyclic_route(const struct ibu_fabric *f, const struct ibu_ibft *t,
		     const struct ibu_lidplan *p, enum ibu_cyclic_offsets mode,
		     struct ibu_lft *lft, struct ibu_err *e)
{
	uint32_t lid, max = p->map.max_lid < lft->max_lid ? p->map.max_lid : lft->max_lid;
	int s;

	for (lid = 1; lid <= max; lid++) {
		const struct ibu_lid_owner *o = &p->map.owner[lid];
		int pid;

		if (o->node < 0 || ibu_node_is_switch(&f->nodes[o->node]))
			continue;
		pid = ibu_ibft_ep(t, o->node, o->port);
		if (pid < 0)
			continue;	/* not a processing node of the tree */
		for (s = 0; s < t->num_switches; s++) {
			int k = ibu_cyclic_paper_port(t, p->offset_digits,
						      mode, s, (uint32_t)pid,
						      o->offset);

			lft->row[t->sw[s].node][lid] = t->sw[s].phys_of_k[k];
		}
	}
	return route_switch_lids(f, t, p, lft, e);
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
