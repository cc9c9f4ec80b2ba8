/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The paper's labels of a PGFT that is an exact IBFT (see pgft_ibft.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pgft_ibft.h"

#define W(x, node) ((x)->w + (size_t)(node) * IBU_PGFT_MAX_H)

/* IBFT(m,n) as a PGFT, leaves with up to m/2 end ports (absent end ports
 * are the paper's free PIDs, not another shape). */
static int ibft_shape(const struct ibu_pgft *g, int *half)
{
	const struct ibu_pgft_params *P = &g->P;
	int k = P->h >= 2 ? P->w[2] : 0, l;

	if (P->h < 2 || k < 2 || P->w[1] != 1 || P->m[P->h] != 2 * k ||
	    P->m[1] > k || g->num_faults || g->num_spine_hosts)
		return 0;
	for (l = 1; l <= P->h; l++)
		if (P->p[l] != 1 || (l > 1 && l < P->h && P->m[l] != k) ||
		    (l > 1 && P->w[l] != k))
			return 0;
	*half = k;
	return 1;
}

/* IBFT level of a switch of g (0 = top), -1 for anything else */
static int ib_level(const struct ibu_pgft *g, int node)
{
	return node >= 0 && node < g->num_nodes && g->level[node] >= 1 ?
	       g->P.h - g->level[node] : -1;
}

/* Switch peer of (node, port) one IBFT level below (dir 1) or above
 * (dir -1) node, else -1. */
static int peer_at(const struct ibu_fabric *f, const struct ibu_pgft *g,
		   int node, int port, int dir)
{
	int q = f->nodes[node].ports[port].peer_node;

	return q >= 0 && ib_level(g, q) >= 0 &&
	       ib_level(g, q) == ib_level(g, node) + dir ? q : -1;
}

/* Any switch one level below (dir 1) or above (dir -1) node, -1 if none. */
static int any_peer(const struct ibu_fabric *f, const struct ibu_pgft *g,
		    int node, int dir)
{
	int p, q;

	for (p = 1; p <= f->nodes[node].num_ports; p++)
		if ((q = peer_at(f, g, node, p, dir)) >= 0)
			return q;
	return -1;
}

struct ent {
	uint64_t group, key;
	int node;
};

static int cmp_ent(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->node > y->node) - (x->node < y->node);
}

/* Sorts v[0..k-1] and returns in digit[node] each key's rank inside its
 * group (equal keys share it); 0 when a rank reaches limit. */
static int rank_groups(struct ent *v, int k, int limit, int *digit)
{
	int i, d = 0;

	qsort(v, (size_t)k, sizeof(*v), cmp_ent);
	for (i = 0; i < k; i++) {
		if (i && v[i].group != v[i - 1].group)
			d = 0;
		else if (i && v[i].key != v[i - 1].key)
			d++;
		if (d >= limit)
			return 0;
		digit[v[i].node] = d;
	}
	return 1;
}

/*
 * Prefix digits, top down: a level-j switch reaches every leaf of its
 * level-j sub-tree, so key[s] (its smallest leaf GUID) names the
 * sub-tree; w_(j-1) = the sub-tree's rank under its parent's sub-tree.
 */
static int prefixes(const struct ibu_fabric *f, const struct ibu_pgft *g,
		    struct ibu_pgft_ibft *x, uint64_t *key, struct ent *v,
		    int *digit)
{
	int n = x->n, j, s, p, q, k;

	for (j = n - 1; j >= 1; j--)	/* smallest leaf GUID, bottom up */
		for (s = 0; s < g->num_nodes; s++) {
			if (ib_level(g, s) != j)
				continue;
			key[s] = j == n - 1 ? f->nodes[s].guid : UINT64_MAX;
			for (p = 1; j < n - 1 && p <= f->nodes[s].num_ports; p++)
				if ((q = peer_at(f, g, s, p, 1)) >= 0 &&
				    key[q] < key[s])
					key[s] = key[q];
		}
	for (j = 1; j < n; j++) {
		for (k = 0, s = 0; s < g->num_nodes; s++) {
			if (ib_level(g, s) != j)
				continue;
			q = any_peer(f, g, s, -1);
			if (q < 0)
				return 0;
			memcpy(W(x, s), W(x, q), (size_t)(j - 1));
			v[k].group = j == 1 ? 0 : key[q];
			v[k].key = key[s];
			v[k++].node = s;
		}
		if (!rank_groups(v, k, j == 1 ? x->m : x->half, digit))
			return 0;
		for (s = 0; s < g->num_nodes; s++)
			if (ib_level(g, s) == j)
				W(x, s)[j - 1] = (uint8_t)digit[s];
	}
	return 1;
}

/*
 * Suffix digits, bottom up: switches of one level with the same suffix
 * reach the same tops, so the smallest top above (top[s]) names the
 * class; a class's digit is its rank, by the smallest GUID among its
 * switches, inside the class of the level below (ibft.c's top classes).
 * A switch's suffix is its children's plus that digit.
 */
static int suffixes(const struct ibu_fabric *f, const struct ibu_pgft *g,
		    struct ibu_pgft_ibft *x, uint64_t *key, int *top,
		    struct ent *v, int *digit)
{
	int n = x->n, j, s, p, q, k;

	for (j = 0; j < n; j++)		/* smallest top above, top down */
		for (s = 0; s < g->num_nodes; s++) {
			if (ib_level(g, s) != j)
				continue;
			top[s] = j ? g->num_nodes : s;
			for (p = 1; j && p <= f->nodes[s].num_ports; p++)
				if ((q = peer_at(f, g, s, p, -1)) >= 0 &&
				    top[q] < top[s])
					top[s] = top[q];
		}
	for (j = n - 2; j >= 0; j--) {
		for (s = 0; s < g->num_nodes; s++)
			if (ib_level(g, s) == j)
				key[top[s]] = UINT64_MAX;
		for (s = 0; s < g->num_nodes; s++)
			if (ib_level(g, s) == j && f->nodes[s].guid < key[top[s]])
				key[top[s]] = f->nodes[s].guid;
		for (k = 0, s = 0; s < g->num_nodes; s++) {
			if (ib_level(g, s) != j)
				continue;
			q = any_peer(f, g, s, 1);
			if (q < 0)
				return 0;
			memcpy(W(x, s) + j, W(x, q) + j + 1, (size_t)(n - 2 - j));
			v[k].group = (uint64_t)top[q];
			v[k].key = key[top[s]];
			v[k++].node = s;
		}
		if (!rank_groups(v, k, x->half, digit))
			return 0;
		for (s = 0; s < g->num_nodes; s++)
			if (ib_level(g, s) == j)
				W(x, s)[n - 2] = (uint8_t)digit[s];
	}
	return 1;
}

/* The paper's link rule on every switch cable, and unique labels. */
static int rule_holds(const struct ibu_fabric *f, const struct ibu_pgft *g,
		      const struct ibu_pgft_ibft *x, int *owner)
{
	int n = x->n, s, p, q, l, i;

	for (i = 0; i < x->full_switches; i++)
		owner[i] = -1;
	for (s = 0; s < g->num_nodes; s++) {
		long slot = ibu_pgft_ibft_slot(g, x, s);

		if (slot < 0)
			continue;
		if (slot >= x->full_switches || owner[slot] >= 0)
			return 0;
		owner[slot] = s;
		l = ib_level(g, s);
		for (p = 1; p <= f->nodes[s].num_ports; p++) {
			q = peer_at(f, g, s, p, 1);
			if (q >= 0 &&
			    (memcmp(W(x, s), W(x, q), (size_t)l) ||
			     memcmp(W(x, s) + l, W(x, q) + l + 1,
				    (size_t)(n - 2 - l))))
				return 0;
		}
	}
	return 1;
}

struct hostent {
	int leaf, D;
	uint64_t guid;
};

static int cmp_host(const void *a, const void *b)
{
	const struct hostent *x = a, *y = b;

	if (x->leaf != y->leaf)
		return x->leaf < y->leaf ? -1 : 1;
	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return (x->D > y->D) - (x->D < y->D);
}

/* PIDs: the leaf's label, then the end port's rank on its leaf by port
 * GUID; *sorted = 1 when they grow with D. */
static int pids(const struct ibu_fabric *f, const struct ibu_pgft *g,
		struct ibu_pgft_ibft *x, int *sorted, struct ibu_err *e)
{
	struct hostent *v = malloc((size_t)(g->num_hosts ? g->num_hosts : 1) *
				   sizeof(*v));
	int i, d = 0, k, ok = 1;

	if (!v)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (i = 0; i < g->num_hosts; i++) {
		v[i].leaf = g->host[i].leaf;
		v[i].D = i;
		v[i].guid = f->nodes[g->host[i].node].ports[g->host[i].port].guid;
	}
	qsort(v, (size_t)g->num_hosts, sizeof(*v), cmp_host);
	for (i = 0; i < g->num_hosts && ok; i++) {
		uint32_t pid = 0;

		d = i && v[i].leaf == v[i - 1].leaf ? d + 1 : 0;
		ok = d < x->half && ib_level(g, v[i].leaf) == x->n - 1;
		for (k = 0; k < x->n - 1; k++)
			pid = pid * (uint32_t)x->half + W(x, v[i].leaf)[k];
		x->pid[v[i].D] = pid * (uint32_t)x->half + (uint32_t)d;
	}
	free(v);
	*sorted = 1;
	for (i = 1; i < g->num_hosts; i++)
		if (x->pid[i] <= x->pid[i - 1])
			*sorted = 0;
	return ok ? IBU_OK : IBU_ETOPO;
}

/* Renumbers g's hosts in PID order (lib/fattree/pgft_order.c). */
static int pid_order(const struct ibu_fabric *f, struct ibu_pgft *g,
		     const struct ibu_pgft_ibft *x, struct ibu_err *e)
{
	uint64_t *guid = malloc((size_t)(g->num_hosts ? g->num_hosts : 1) *
				sizeof(*guid));
	int *host = malloc((size_t)x->num_pids * sizeof(*host));
	struct ibu_pgft_order_stats st;
	int D, k = 0, pid, rc = IBU_ENOMEM;

	if (guid && host) {
		for (pid = 0; pid < x->num_pids; pid++)
			host[pid] = -1;		/* a free PID */
		for (D = 0; D < g->num_hosts; D++)
			host[x->pid[D]] = D;
		for (pid = 0; pid < x->num_pids; pid++)
			if ((D = host[pid]) >= 0)
				guid[k++] = f->nodes[g->host[D].node]
					    .ports[g->host[D].port].guid;
		rc = ibu_pgft_apply_order(f, g, guid, k, &st, e);
	} else {
		ibu_err_set(e, rc, "out of memory");
	}
	free(guid);
	free(host);
	return rc;
}

static int alloc_labels(const struct ibu_pgft *g, struct ibu_pgft_ibft *x,
			int half)
{
	long pw = 1;
	int i;

	x->half = half;
	x->m = 2 * half;
	x->n = g->P.h;
	x->num_nodes = g->num_nodes;
	for (i = 0; i < x->n - 1; i++)
		pw *= half;
	x->num_pids = (int)(2 * pw * half);
	x->full_switches = (int)((2 * x->n - 1) * pw);
	x->w = calloc((size_t)g->num_nodes, IBU_PGFT_MAX_H);
	x->pid = calloc((size_t)(g->num_hosts ? g->num_hosts : 1),
			sizeof(*x->pid));
	return x->w && x->pid ? IBU_OK : IBU_ENOMEM;
}

/* Switch labels into x; IBU_ETOPO when they break the paper's rule. */
static int switch_labels(const struct ibu_fabric *f, const struct ibu_pgft *g,
			 struct ibu_pgft_ibft *x, struct ibu_err *e)
{
	size_t N = (size_t)g->num_nodes + 1;
	uint64_t *key = malloc(N * sizeof(*key));
	int *top = malloc(N * sizeof(*top)), *digit = malloc(N * sizeof(int));
	int *owner = malloc((size_t)x->full_switches * sizeof(int));
	struct ent *v = malloc(N * sizeof(*v));
	int rc;

	if (!key || !top || !digit || !owner || !v)
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
	else
		rc = prefixes(f, g, x, key, v, digit) &&
		     suffixes(f, g, x, key, top, v, digit) &&
		     rule_holds(f, g, x, owner) ? IBU_OK : IBU_ETOPO;
	free(key);
	free(top);
	free(digit);
	free(owner);
	free(v);
	return rc;
}

int ibu_pgft_ibft_build(const struct ibu_fabric *f, struct ibu_pgft *g,
			struct ibu_pgft_ibft **out,
			struct ibu_err *e)
{
	struct ibu_pgft_ibft *x;
	int half, rc, sorted;

	*out = NULL;
	if (!ibft_shape(g, &half))
		return IBU_OK;
	x = calloc(1, sizeof(*x));
	if (!x || alloc_labels(g, x, half)) {
		ibu_pgft_ibft_free(x);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	rc = switch_labels(f, g, x, e);
	if (!rc)
		rc = pids(f, g, x, &sorted, e);
	if (!rc && !sorted) {
		rc = pid_order(f, g, x, e);
		if (!rc)
			rc = pids(f, g, x, &sorted, e);
	}
	if (rc) {		/* IBU_ETOPO: no IBFT after all, PGFT labels */
		ibu_pgft_ibft_free(x);
		return rc == IBU_ETOPO ? IBU_OK : rc;
	}
	*out = x;
	return IBU_OK;
}

void ibu_pgft_ibft_free(struct ibu_pgft_ibft *x)
{
	if (!x)
		return;
	free(x->w);
	free(x->pid);
	free(x);
}

static void digits_text(char *buf, size_t len, const uint8_t *d, int nd,
			int big)
{
	size_t o = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < nd && o + 1 < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%u",
				      big && i ? "." : "", d[i]);
}

void ibu_pgft_ibft_sw_label(const struct ibu_pgft *g,
			    const struct ibu_pgft_ibft *x, int node, char *buf,
			    size_t len)
{
	char d[4 * IBU_PGFT_MAX_H + 8];

	if (ib_level(g, node) < 0) {
		snprintf(buf, len, "-");
		return;
	}
	digits_text(d, sizeof(d), W(x, node), x->n - 1, x->m > 10);
	snprintf(buf, len, "SW<%s,%d>", d, ib_level(g, node));
}

void ibu_pgft_ibft_ep_label(const struct ibu_pgft_ibft *x, int D, char *buf,
			    size_t len)
{
	char d[4 * IBU_PGFT_MAX_H + 8];
	uint8_t p[IBU_PGFT_MAX_H];
	uint32_t pid;
	int k;

	if (D < 0) {
		snprintf(buf, len, "-");
		return;
	}
	for (pid = x->pid[D], k = x->n - 1; k >= 1; k--) {
		p[k] = (uint8_t)(pid % (uint32_t)x->half);
		pid /= (uint32_t)x->half;
	}
	p[0] = (uint8_t)pid;
	digits_text(d, sizeof(d), p, x->n, x->m > 10);
	snprintf(buf, len, "P(%s)", d);
}

long ibu_pgft_ibft_slot(const struct ibu_pgft *g, const struct ibu_pgft_ibft *x,
			int node)
{
	long per = x->full_switches / (2 * x->n - 1), v;
	int l = ib_level(g, node), i;

	if (l < 0)
		return -1;
	for (v = W(x, node)[0], i = 1; i < x->n - 1; i++)
		v = v * x->half + W(x, node)[i];
	return (l ? per + 2 * per * (l - 1) : 0) + v;
}

int ibu_pgft_ibft_port(const struct ibu_fabric *f, const struct ibu_pgft *g,
		       const struct ibu_pgft_ibft *x, int node, int port)
{
	int l = ib_level(g, node), q, D;

	if (l < 0 || port < 1 || port > f->nodes[node].num_ports)
		return -1;
	if ((q = peer_at(f, g, node, port, -1)) >= 0)
		return x->half + 1 + W(x, q)[x->n - 2];
	if ((q = peer_at(f, g, node, port, 1)) >= 0)
		return W(x, q)[l] + 1;
	q = f->nodes[node].ports[port].peer_node;
	D = q >= 0 ? ibu_pgft_host(g, q, f->nodes[node].ports[port].peer_port) :
	    -2;
	return D >= 0 ? (int)(x->pid[D] % (uint32_t)x->half) + 1 : -1;
}

/* First switch LID and the highest LID the numbering needs (64 bits: no
 * wrap). */
static uint64_t first_sw_lid(const struct ibu_pgft_ibft *x, int lmc,
			     int paper_exact)
{
	return paper_exact ? ((uint64_t)x->num_pids << lmc) + 1 :
	       ((uint64_t)x->num_pids + 1) << lmc;
}

int ibu_pgft_ibft_fit_lmc(const struct ibu_pgft_ibft *x, int want,
			  int paper_exact)
{
	int lmc;

	for (lmc = want > IBU_PGFT_MAX_LMC ? IBU_PGFT_MAX_LMC : want; lmc >= 0;
	     lmc--)
		if (first_sw_lid(x, lmc, paper_exact) + (uint64_t)x->full_switches
		    - 1 <= IBU_MAX_UCAST_LID)
			return lmc;
	return -1;
}

int ibu_pgft_ibft_assign_lids(struct ibu_fabric *f, const struct ibu_pgft *g,
			      const struct ibu_pgft_ibft *x, int lmc,
			      int paper_exact, struct ibu_err *e)
{
	uint64_t sw0 = first_sw_lid(x, lmc, paper_exact);
	int i, p, D;

	if (lmc < 0 || lmc > IBU_PGFT_MAX_LMC ||
	    sw0 + (uint64_t)x->full_switches - 1 > IBU_MAX_UCAST_LID)
		return ibu_err_set(e, IBU_ELID,
				   "IBFT(%d,%d) at LMC %d needs more LIDs than the unicast space 0x0001-0xBFFF holds; the largest LMC that fits is %d",
				   x->m, x->n, lmc,
				   ibu_pgft_ibft_fit_lmc(x, lmc, paper_exact));
	for (i = 0; i < f->num_nodes; i++)	/* no stale LID survives */
		for (p = 0; p <= f->nodes[i].num_ports; p++) {
			f->nodes[i].ports[p].lid = 0;
			f->nodes[i].ports[p].lmc = 0;
		}
	for (D = 0; D < g->num_hosts; D++) {
		struct ibu_port *pt = &f->nodes[g->host[D].node]
				       .ports[g->host[D].port];

		pt->lid = (uint16_t)(paper_exact ? (x->pid[D] << lmc) + 1 :
				     (x->pid[D] + 1) << lmc);
		pt->lmc = (uint8_t)lmc;
	}
	for (i = 0; i < g->num_nodes; i++)	/* label order; none missing */
		if (ib_level(g, i) >= 0)
			f->nodes[i].ports[0].lid =
				(uint16_t)(sw0 + (uint64_t)ibu_pgft_ibft_slot(g, x, i));
	return IBU_OK;
}
