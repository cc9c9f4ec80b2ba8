/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The paper's IBFT(m,n) labels ([Zhou07] sect. 2.2) as flat arrays for
 * the tests: switches by index (fabric node order), end ports by PID,
 * paper port numbers both ways, label slots, and the missing switches and
 * cables the labels show. Everything comes from the one recogniser
 * (ibu_cyclic_pgft_recognise, its ->ibft labels and ibu_pgft_ibft_*):
 * the view only re-indexes it. A fabric the product takes for a PGFT that
 * is no IBFT(m,n) is an IBU_ETOPO here ("not an IBFT: PGFT(...)").
 *
 * Two checks make the view able to fail on the product: every label slot
 * holds at most one switch, every end port one PID; and the missing
 * switches and cables found from the labels (a free slot; a paper port of
 * a present switch whose labelled neighbour is present but not cabled)
 * are as many as the product's fault count.
 */
#ifndef IBU_TESTS_IBFT_VIEW_H
#define IBU_TESTS_IBFT_VIEW_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cyclic_pgft.h"
#include "engine_options.h"
#include "unit.h"

#define IBFT_VIEW_MAX_N IBU_PGFT_MAX_H

struct ibft_view_switch {
	int node;			/* fabric node index */
	int level;			/* 0 = top */
	uint8_t w[IBFT_VIEW_MAX_N];	/* label digits w0..w(n-2) */
	uint8_t *phys_of_k;		/* [k] physical port of paper k */
	uint8_t *k_of_phys;		/* [phys] paper port, 0 = none */
};

struct ibft_view_endport {
	int node, port;			/* -1: absent (a free PID) */
	int leaf;			/* switch index of its leaf */
	uint8_t p[IBFT_VIEW_MAX_N];	/* label digits p0..p(n-1) */
	uint32_t pid;
	int D;				/* the product's host index */
};

enum ibft_view_fault_kind {
	IBFT_VIEW_MISSING_SWITCH = 1,
	IBFT_VIEW_MISSING_LINK,
};

struct ibft_view_fault {
	enum ibft_view_fault_kind kind;
	int level;			/* switch: its level; link: upper's */
	uint8_t w[IBFT_VIEW_MAX_N];	/* missing switch: its label */
	int upper, lower;		/* link: switch indices */
	int k_upper, k_lower;		/* link: paper ports */
};

struct ibft_view {
	int m, n, half;
	int num_switches;		/* present switches (sw[]) */
	int full_switches;		/* label slots */
	int num_endports;		/* the PID space (ep[]) */
	int present_endports;
	struct ibft_view_switch *sw;
	struct ibft_view_endport *ep;	/* by PID */
	int *sw_of_node;		/* fabric node -> switch index, -1 */
	int *sw_of_label;		/* label slot -> switch index, -1 */
	long level_first[IBFT_VIEW_MAX_N];	/* first slot of a level */
	int num_faults;			/* the product's count */
	int max_faults;			/* the limit it applied */
	struct ibft_view_fault *faults;	/* from the labels: switches,
					 * then links, in label order */
	struct ibu_cyclic_pgft *c;	/* the product's recognition */
	const struct ibu_fabric *f;
};

static inline void ibft_view_free(struct ibft_view *t);

static inline int ibft_view_fail(struct ibft_view *t, struct ibu_err *e,
				 int rc, const char *msg)
{
	ibft_view_free(t);
	return ibu_err_set(e, rc, "%s", msg);
}

static inline long ibft_view_slot_of(const struct ibft_view *t, int level,
				     const uint8_t *w)
{
	long x = w[0];
	int i;

	for (i = 1; i < t->n - 1; i++)
		x = x * t->half + w[i];
	return t->level_first[level] + x;
}

/* Switches by fabric node order, their labels and paper ports. */
static inline int ibft_view_switches(struct ibft_view *t)
{
	const struct ibu_fabric *f = t->f;
	const struct ibu_pgft *g = &t->c->g;
	const struct ibu_pgft_ibft *x = t->c->ibft;
	int i, s = 0, p;

	for (i = 0; i < f->num_nodes; i++)
		t->sw_of_node[i] = g->level[i] >= 1 ? s++ : -1;
	t->num_switches = s;
	t->sw = calloc(s ? s : 1, sizeof(*t->sw));
	if (!t->sw)
		return IBU_ENOMEM;
	for (i = 0; i < f->num_nodes; i++) {
		struct ibft_view_switch *sw = &t->sw[t->sw_of_node[i] < 0 ?
						     0 : t->sw_of_node[i]];

		if (t->sw_of_node[i] < 0)
			continue;
		sw->node = i;
		sw->level = g->P.h - g->level[i];
		memcpy(sw->w, x->w + (size_t)i * IBU_PGFT_MAX_H, t->n - 1);
		sw->phys_of_k = calloc(t->m + 1, 1);
		sw->k_of_phys = calloc(f->nodes[i].num_ports + 1, 1);
		if (!sw->phys_of_k || !sw->k_of_phys)
			return IBU_ENOMEM;
		for (p = 1; p <= f->nodes[i].num_ports; p++) {
			int k = ibu_pgft_ibft_port(f, g, x, i, p);

			if (k < 1)
				continue;
			if (k > t->m || sw->phys_of_k[k])
				return IBU_ETOPO;
			sw->phys_of_k[k] = (uint8_t)p;
			sw->k_of_phys[p] = (uint8_t)k;
		}
	}
	return IBU_OK;
}

/* Label slots; two switches in one slot is a product error. */
static inline int ibft_view_slots(struct ibft_view *t)
{
	long per = t->full_switches / (2 * t->n - 1);
	int s, l;

	t->level_first[0] = 0;
	for (l = 1; l < t->n; l++)
		t->level_first[l] = t->level_first[l - 1] +
				    (l == 1 ? per : 2 * per);
	t->sw_of_label = malloc(t->full_switches * sizeof(int));
	if (!t->sw_of_label)
		return IBU_ENOMEM;
	for (s = 0; s < t->full_switches; s++)
		t->sw_of_label[s] = -1;
	for (s = 0; s < t->num_switches; s++) {
		long x = ibft_view_slot_of(t, t->sw[s].level, t->sw[s].w);

		if (x != ibu_pgft_ibft_slot(&t->c->g, t->c->ibft,
					    t->sw[s].node) ||
		    t->sw_of_label[x] >= 0)
			return IBU_ETOPO;
		t->sw_of_label[x] = s;
	}
	return IBU_OK;
}

/* End ports by PID; absent ones keep their digits, node -1. */
static inline int ibft_view_endports(struct ibft_view *t)
{
	const struct ibu_pgft *g = &t->c->g;
	int pid, D, k;

	t->ep = calloc(t->num_endports, sizeof(*t->ep));
	if (!t->ep)
		return IBU_ENOMEM;
	for (pid = 0; pid < t->num_endports; pid++) {
		struct ibft_view_endport *ep = &t->ep[pid];
		uint32_t v = (uint32_t)pid;

		ep->node = ep->port = ep->leaf = ep->D = -1;
		ep->pid = (uint32_t)pid;
		for (k = t->n - 1; k >= 1; k--, v /= (uint32_t)t->half)
			ep->p[k] = (uint8_t)(v % (uint32_t)t->half);
		ep->p[0] = (uint8_t)v;
	}
	for (D = 0; D < g->num_hosts; D++) {
		struct ibft_view_endport *ep;

		pid = (int)t->c->ibft->pid[D];
		if (pid < 0 || pid >= t->num_endports || t->ep[pid].node >= 0)
			return IBU_ETOPO;
		ep = &t->ep[pid];
		ep->node = g->host[D].node;
		ep->port = g->host[D].port;
		ep->leaf = t->sw_of_node[g->host[D].leaf];
		ep->D = D;
		t->present_endports++;
	}
	return IBU_OK;
}

static inline int ibft_view_add_fault(struct ibft_view *t, int *num,
				      const struct ibft_view_fault *x)
{
	struct ibft_view_fault *nf = realloc(t->faults,
					     (*num + 1) * sizeof(*nf));

	if (!nf)
		return IBU_ENOMEM;
	t->faults = nf;
	t->faults[(*num)++] = *x;
	return IBU_OK;
}

static inline int ibft_view_find_switch(const struct ibft_view *t,
					int level, const uint8_t *w);

/* The paper's links missing between present switches (link rule: the
 * child of SW<w,l> through down port k has w_l = k-1 and the suffix
 * shifted by one). */
static inline int ibft_view_missing_links(struct ibft_view *t, int *num)
{
	int slot, k, i, h = t->half, n = t->n;

	for (slot = 0; slot < t->full_switches; slot++) {
		int s = t->sw_of_label[slot];
		const struct ibft_view_switch *sw = s >= 0 ? &t->sw[s] : NULL;

		if (!sw || sw->level == n - 1)
			continue;
		for (k = 1; k <= (sw->level == 0 ? t->m : h); k++) {
			struct ibft_view_fault x = {
				.kind = IBFT_VIEW_MISSING_LINK };
			uint8_t w[IBFT_VIEW_MAX_N];

			if (sw->phys_of_k[k])
				continue;
			memcpy(w, sw->w, sizeof(w));
			w[sw->level] = (uint8_t)(k - 1);
			for (i = sw->level + 1; i <= n - 2; i++)
				w[i] = sw->w[i - 1];
			x.lower = ibft_view_find_switch(t, sw->level + 1, w);
			if (x.lower < 0)
				continue;	/* a missing switch */
			x.level = sw->level;
			memcpy(x.w, sw->w, sizeof(x.w));
			x.upper = s;
			x.k_upper = k;
			x.k_lower = h + 1 + sw->w[n - 2];
			if (ibft_view_add_fault(t, num, &x))
				return IBU_ENOMEM;
		}
	}
	return IBU_OK;
}

static inline int ibft_view_faults(struct ibft_view *t)
{
	int l, i, num = 0;
	long slot;

	for (l = 0; l < t->n; l++)
		for (slot = t->level_first[l]; slot < (l + 1 < t->n ?
		     t->level_first[l + 1] : t->full_switches); slot++) {
			struct ibft_view_fault x = {
				.kind = IBFT_VIEW_MISSING_SWITCH, .level = l,
				.upper = -1, .lower = -1 };
			long v = slot - t->level_first[l];

			if (t->sw_of_label[slot] >= 0)
				continue;
			for (i = t->n - 2; i >= 1; i--, v /= t->half)
				x.w[i] = (uint8_t)(v % t->half);
			x.w[0] = (uint8_t)v;
			if (ibft_view_add_fault(t, &num, &x))
				return IBU_ENOMEM;
		}
	if (ibft_view_missing_links(t, &num))
		return IBU_ENOMEM;
	return num == t->num_faults ? IBU_OK : IBU_ETOPO;
}

/* Recognition by the product within max_faults (IBU_MAX_FAULTS_DEFAULT,
 * 0: exact trees only). */
static inline int ibft_view_recognize_limit(const struct ibu_fabric *f,
					    struct ibft_view *t, int max_faults,
					    struct ibu_err *e)
{
	char d[160], msg[256];
	int rc;

	memset(t, 0, sizeof(*t));
	t->f = f;
	rc = ibu_cyclic_pgft_recognise(f, NULL, 0, max_faults,
				       IBU_CYCLIC_GENERALISED, &t->c, e);
	if (rc)
		return rc;
	if (!t->c->ibft) {
		ibu_pgft_params_text(&t->c->g.P, d, sizeof(d));
		snprintf(msg, sizeof(msg), "not an IBFT: %s", d);
		return ibft_view_fail(t, e, IBU_ETOPO, msg);
	}
	t->m = t->c->ibft->m;
	t->n = t->c->ibft->n;
	t->half = t->c->ibft->half;
	t->full_switches = t->c->ibft->full_switches;
	t->num_endports = t->c->ibft->num_pids;
	t->num_faults = t->c->g.num_faults;
	t->max_faults = t->c->g.max_faults;
	t->sw_of_node = malloc((f->num_nodes + 1) * sizeof(int));
	rc = t->sw_of_node ? ibft_view_switches(t) : IBU_ENOMEM;
	if (!rc)
		rc = ibft_view_slots(t);
	if (!rc)
		rc = ibft_view_endports(t);
	if (!rc)
		rc = ibft_view_faults(t);
	if (rc == IBU_ENOMEM)
		return ibft_view_fail(t, e, rc, "out of memory");
	if (rc)
		return ibft_view_fail(t, e, rc,
				      "ibft_view: labels against the rule");
	return IBU_OK;
}

static inline int ibft_view_recognize(const struct ibu_fabric *f,
				      struct ibft_view *t, struct ibu_err *e)
{
	return ibft_view_recognize_limit(f, t, IBU_MAX_FAULTS_DEFAULT, e);
}

static inline void ibft_view_free(struct ibft_view *t)
{
	int s;

	for (s = 0; t->sw && s < t->num_switches; s++) {
		free(t->sw[s].phys_of_k);
		free(t->sw[s].k_of_phys);
	}
	free(t->sw);
	free(t->ep);
	free(t->sw_of_node);
	free(t->sw_of_label);
	free(t->faults);
	ibu_cyclic_pgft_free(t->c);
	memset(t, 0, sizeof(*t));
}

/* f is refused (IBU_ETOPO, no labels) with a message holding needle. */
static inline void ibft_view_expect_reject(const struct ibu_fabric *f,
					   int limit, const char *needle)
{
	struct ibft_view t;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibft_view_recognize_limit(f, &t, limit, &e), IBU_ETOPO);
	ck_assert_msg(strstr(e.msg, needle), "'%s' lacks '%s'", e.msg, needle);
	ck_assert_ptr_null(t.sw);
}

/* The product's default limit for an IBFT(m,n)'s PGFT. */
static inline int ibft_view_default_max_faults(int m, int n)
{
	struct ibu_pgft_params P = { .h = n };
	int l;

	for (l = 1; l <= n; l++) {
		P.m[l] = l == n ? m : m / 2;
		P.w[l] = l == 1 ? 1 : m / 2;
		P.p[l] = 1;
	}
	return ibu_pgft_default_max_faults(&P);
}

/* PID of the end port at (node, port), -1 if none. */
static inline int ibft_view_ep(const struct ibft_view *t, int node, int port)
{
	int D;

	if (!t->c || node < 0 || node >= t->f->num_nodes)
		return -1;
	D = ibu_pgft_host(&t->c->g, node, port);
	return D >= 0 ? (int)t->c->ibft->pid[D] : -1;
}

static inline int ibft_view_sw(const struct ibft_view *t, int node)
{
	return t->sw_of_node && node >= 0 && node < t->f->num_nodes ?
	       t->sw_of_node[node] : -1;
}

static inline long ibft_view_sw_slot(const struct ibft_view *t, int sw)
{
	return ibu_pgft_ibft_slot(&t->c->g, t->c->ibft, t->sw[sw].node);
}

static inline int ibft_view_find_switch(const struct ibft_view *t, int level,
					const uint8_t *w)
{
	int i;

	if (level < 0 || level >= t->n || !t->sw_of_label ||
	    w[0] >= (level == 0 ? t->half : t->m))
		return -1;
	for (i = 1; i < t->n - 1; i++)
		if (w[i] >= t->half)
			return -1;
	return t->sw_of_label[ibft_view_slot_of(t, level, w)];
}

static inline void ibft_view_sw_label(const struct ibft_view *t, int sw,
				      char *buf, size_t len)
{
	ibu_pgft_ibft_sw_label(&t->c->g, t->c->ibft, t->sw[sw].node, buf, len);
}

/* The product's text for a present end port, the same digits for a free
 * PID. */
static inline void ibft_view_ep_label(const struct ibft_view *t, int pid,
				      char *buf, size_t len)
{
	char d[4 * IBFT_VIEW_MAX_N + 8];

	if (t->ep[pid].D >= 0) {
		ibu_pgft_ibft_ep_label(t->c->ibft, t->ep[pid].D, buf, len);
		return;
	}
	ibu_pgft_ibft_digits(d, sizeof(d), t->ep[pid].p, t->n, t->m > 10);
	snprintf(buf, len, "P(%s)", d);
}

/* "missing switch SW<01,0>", "missing link SW<00,0> port 3 - SW<20,1>
 * port 3 ('name' - 'name')" */
static inline void ibft_view_fault_text(const struct ibu_fabric *f,
					const struct ibft_view *t, int i,
					char *buf, size_t len)
{
	const struct ibft_view_fault *x = &t->faults[i];
	char a[64], b[64];

	if (x->kind == IBFT_VIEW_MISSING_SWITCH) {
		ibu_pgft_ibft_digits(a, sizeof(a), x->w, t->n - 1, t->m > 10);
		snprintf(buf, len, "missing switch SW<%s,%d>", a, x->level);
		return;
	}
	ibft_view_sw_label(t, x->upper, a, sizeof(a));
	ibft_view_sw_label(t, x->lower, b, sizeof(b));
	snprintf(buf, len, "missing link %s port %d - %s port %d ('%s' - '%s')",
		 a, x->k_upper, b, x->k_lower,
		 f->nodes[t->sw[x->upper].node].name,
		 f->nodes[t->sw[x->lower].node].name);
}

/* Is end port pid below switch sw (w0..w(l-1) == p0..p(l-1))? */
static inline int ibft_view_below(const struct ibft_view *t, int sw, int pid)
{
	int i;

	for (i = 0; i < t->sw[sw].level; i++)
		if (t->sw[sw].w[i] != t->ep[pid].p[i])
			return 0;
	return 1;
}

/* Level of the lowest common ancestors of two end ports (paper Def. 2). */
static inline int ibft_view_lca_level(const struct ibft_view *t, int a, int b)
{
	int i;

	for (i = 0; i < t->n - 1; i++)
		if (t->ep[a].p[i] != t->ep[b].p[i])
			return i;
	return t->n - 1;
}

#endif
