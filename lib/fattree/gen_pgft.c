/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The PGFT generator (see gen.h, pgft.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen.h"
#include "pgft.h"

#define PGEN_MAX_NODES 1000000L

/*
 * Slots: compute hosts (level 0) first, then the switches level by level,
 * then the hosts on spines. Paper port numbers of a level-l switch: down
 * ports 1..m_l p_l (child a, cable k: a p_l + k + 1), up ports after them
 * (parent b, cable k: m_l p_l + b p_(l+1) + k + 1), spine hosts after the
 * down ports of a top switch.
 */
struct pgen {
	const struct ibu_pgft_params *P;
	long size[IBU_PGFT_MAX_H + 1], first[IBU_PGFT_MAX_H + 1];
	long nslots, spine_first;
	int nports[IBU_PGFT_MAX_H + 1];	/* ports of a level-l switch */
	int *node_of;			/* slot -> fabric node */
	int **phys;			/* switch slot -> [paper port] phys */
	int rails;			/* > 0: hosts named as rail HCAs */
};

static int radix_of(const struct ibu_pgft_params *P, int l, int i)
{
	return i < l ? P->w[i + 1] : P->m[i + 1];
}

static void unrank(const struct ibu_pgft_params *P, int l, long x, int *d)
{
	int i;

	for (i = 0; i < P->h; i++) {
		d[i] = (int)(x % radix_of(P, l, i));
		x /= radix_of(P, l, i);
	}
}

static long rank(const struct ibu_pgft_params *P, int l, const int *d)
{
	long x = 0;
	int i;

	for (i = P->h - 1; i >= 0; i--)
		x = x * radix_of(P, l, i) + d[i];
	return x;
}

static int check_shape(struct pgen *g, int radix, int spine_hosts,
		       struct ibu_err *e)
{
	const struct ibu_pgft_params *P = g->P;
	long top_free;
	int l, need;

	if (P->h < 1 || P->h > IBU_PGFT_MAX_H)
		return ibu_err_set(e, IBU_EINVAL, "PGFT: 1..%d levels",
				   IBU_PGFT_MAX_H);
	if (P->w[1] != 1 || P->p[1] != 1)
		return ibu_err_set(e, IBU_EINVAL,
				   "PGFT: w1 and p1 must be 1 (one cable per host)");
	g->nslots = 0;
	for (l = 0; l <= P->h; l++) {
		g->size[l] = ibu_pgft_level_size(P, l, PGEN_MAX_NODES);
		if (g->size[l] < 0 || g->nslots + g->size[l] > PGEN_MAX_NODES)
			return ibu_err_set(e, IBU_EINVAL,
					   "PGFT: more than %ld nodes", PGEN_MAX_NODES);
		g->first[l] = g->nslots;
		g->nslots += g->size[l];
	}
	for (l = 1; l <= P->h; l++) {
		need = ibu_pgft_down_ports(P, l) + ibu_pgft_up_ports(P, l);
		if (radix > 0 && need > radix)
			return ibu_err_set(e, IBU_EINVAL,
					   "PGFT: a level-%d switch needs %d ports, more than the radix %d",
					   l, need, radix);
		if (need > IBU_MAX_PORTS)
			return ibu_err_set(e, IBU_EINVAL,
					   "PGFT: a level-%d switch needs %d ports (at most %d)",
					   l, need, IBU_MAX_PORTS);
		g->nports[l] = radix > 0 ? radix : need;
	}
	/* hosts on spines: free ports of the top switches */
	top_free = (long)(g->nports[P->h] - ibu_pgft_down_ports(P, P->h)) *
		   g->size[P->h];
	if (spine_hosts > 0 && radix <= 0) {
		int per = (int)((spine_hosts + g->size[P->h] - 1) /
				g->size[P->h]);

		if (g->nports[P->h] + per > IBU_MAX_PORTS)
			return ibu_err_set(e, IBU_EINVAL,
					   "PGFT: %d hosts on %ld top switches need more than %d ports each",
					   spine_hosts, g->size[P->h], IBU_MAX_PORTS);
		g->nports[P->h] += per;
		top_free = (long)per * g->size[P->h];
	}
	if (spine_hosts > top_free)
		return ibu_err_set(e, IBU_EINVAL,
				   "PGFT: %d hosts on spines, but the top switches have %ld free ports",
				   spine_hosts, top_free);
	g->spine_first = g->nslots;
	g->nslots += spine_hosts > 0 ? spine_hosts : 0;
	return IBU_OK;
}

static int slot_level(const struct pgen *g, long slot)
{
	int l = 0;

	if (slot >= g->spine_first)
		return -1;
	while (l < g->P->h && slot >= g->first[l + 1])
		l++;
	return l;
}

static void slot_name(const struct pgen *g, long slot, const char *pre,
		      char *buf, size_t len)
{
	int d[IBU_PGFT_MAX_H], l = slot_level(g, slot), i;
	size_t o;

	if (l < 0) {
		snprintf(buf, len, "%sspine-hca-%ld", pre, slot - g->spine_first);
		return;
	}
	if (!l && g->rails) {
		/* leaf k = unit k / R, rail k % R; the server is the host's
		 * place on its leaf within its unit; as real HCAs report it */
		long x = slot - g->first[0], m1 = g->P->m[1], k = x / m1;

		snprintf(buf, len, "%snode%03ld mlx5_%ld", pre,
			 k / g->rails * m1 + x % m1 + 1, k % g->rails);
		return;
	}
	unrank(g->P, l, slot - g->first[l], d);
	o = (size_t)(l ? snprintf(buf, len, "%ssw%d-", pre, l) :
			 snprintf(buf, len, "%shca-", pre));
	for (i = g->P->h - 1; i >= 0 && o < len; i--)
		o += (size_t)snprintf(buf + o, len - o, "%d%s", d[i],
				      i ? "." : "");
}

static int build_nodes(struct pgen *g, struct ibu_fabric *f,
		       const struct ibu_gen_opts *o, struct ibu_err *e)
{
	const char *pre = o->prefix ? o->prefix : "";
	uint64_t st = o->seed ^ 0x5eedull, ca = 0x100000, sw = 0x200000;
	int *order = malloc(g->nslots * sizeof(int)), rc = IBU_OK, idx;
	long i;

	if (!order)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (i = 0; i < g->nslots; i++)
		order[i] = (int)i;
	if (o->shuffle_records)	/* host 0 stays first: ibsim's SM port */
		ibu_gen_shuffle(order + 1, (int)g->nslots - 1, &st);
	for (i = 0; i < g->nslots && !rc; i++) {
		int l = slot_level(g, order[i]);
		char name[128];

		slot_name(g, order[i], pre, name, sizeof(name));
		if (l > 0) {
			rc = ibu_fabric_add_node(f, IBU_NODE_SWITCH, name, sw++,
						 g->nports[l], &idx, e);
		} else {
			rc = ibu_fabric_add_node(f, IBU_NODE_CA, name, ca, 1,
						 &idx, e);
			ca += 2;
		}
		g->node_of[order[i]] = idx;
	}
	free(order);
	return rc;
}

static int build_ports(struct pgen *g, const struct ibu_gen_opts *o,
		       struct ibu_err *e)
{
	uint64_t st = o->seed;
	long s;
	int k, l, n;

	for (s = g->first[1]; s < g->spine_first; s++) {
		l = slot_level(g, s);
		n = g->nports[l];
		g->phys[s] = malloc((n + 1) * sizeof(int));
		if (!g->phys[s])
			return ibu_err_set(e, IBU_ENOMEM, "out of memory");
		for (k = 0; k <= n; k++)
			g->phys[s][k] = k;
		if (o->shuffle_ports)
			ibu_gen_shuffle(g->phys[s] + 1, n, &st);
	}
	return IBU_OK;
}

/* physical port of paper port k of slot s (hosts: port 1) */
static int phys(const struct pgen *g, long s, int k)
{
	return g->phys[s] ? g->phys[s][k] : 1;
}

/* The p_l cables from level-(l-1) node x to each of its w_l parents. */
static int wire_node(struct pgen *g, struct ibu_fabric *f, int l, long x,
		     struct ibu_err *e)
{
	const struct ibu_pgft_params *P = g->P;
	int d[IBU_PGFT_MAX_H], a, b, k, rc, up0 = ibu_pgft_down_ports(P, l - 1);
	long child = g->first[l - 1] + x, parent;

	unrank(P, l - 1, x, d);
	a = d[l - 1];
	for (b = 0; b < P->w[l]; b++) {
		d[l - 1] = b;
		parent = g->first[l] + rank(P, l, d);
		for (k = 0; k < P->p[l]; k++) {
			rc = ibu_fabric_link(f, g->node_of[parent],
					     phys(g, parent, a * P->p[l] + k + 1),
					     g->node_of[child],
					     phys(g, child, up0 + b * P->p[l] + k + 1),
					     e);
			if (rc)
				return rc;
		}
	}
	return IBU_OK;
}

static int wire(struct pgen *g, struct ibu_fabric *f, struct ibu_err *e)
{
	const struct ibu_pgft_params *P = g->P;
	long x, ntop = g->size[P->h];
	int l, rc;

	for (l = 1; l <= P->h; l++)
		for (x = 0; x < g->size[l - 1]; x++) {
			rc = wire_node(g, f, l, x, e);
			if (rc)
				return rc;
		}
	for (x = g->spine_first; x < g->nslots; x++) {
		long j = x - g->spine_first, top = g->first[P->h] + j % ntop;
		int k = ibu_pgft_down_ports(P, P->h) + (int)(j / ntop) + 1;

		rc = ibu_fabric_link(f, g->node_of[top], phys(g, top, k),
				     g->node_of[x], 1, e);
		if (rc)
			return rc;
	}
	return IBU_OK;
}

int ibu_gen_pgft(struct ibu_fabric *f, const struct ibu_pgft_params *P,
		 int radix, int hosts_on_spines, const struct ibu_gen_opts *o,
		 struct ibu_err *e)
{
	return ibu_gen_pgft_rails(f, P, radix, hosts_on_spines, 0, o, e);
}

int ibu_gen_pgft_rails(struct ibu_fabric *f, const struct ibu_pgft_params *P,
		       int radix, int hosts_on_spines, int rails,
		       const struct ibu_gen_opts *o, struct ibu_err *e)
{
	struct ibu_gen_opts defaults = { 0 };
	struct pgen g;
	long s;
	int rc;

	if (!o)
		o = &defaults;
	memset(&g, 0, sizeof(g));
	g.P = P;
	g.rails = rails;
	if (rails < 0 || (rails && (P->h < 2 || P->m[2] % rails)))
		return ibu_err_set(e, IBU_EINVAL,
				   "%d rails: the level-2 switches' %d leaves are no whole number of units",
				   rails, P->h < 2 ? 0 : P->m[2]);
	rc = check_shape(&g, radix, hosts_on_spines, e);
	if (rc)
		return rc;
	rc = ibu_fabric_init(f, "generated");
	if (rc)
		return ibu_err_set(e, rc, "out of memory");
	g.node_of = calloc(g.nslots, sizeof(int));
	g.phys = calloc(g.nslots, sizeof(int *));
	if (!g.node_of || !g.phys)
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
	if (!rc)
		rc = build_nodes(&g, f, o, e);
	if (!rc)
		rc = build_ports(&g, o, e);
	if (!rc)
		rc = wire(&g, f, e);
	if (!rc)
		rc = ibu_gen_damage(f, o, e);
	if (!rc)
		rc = ibu_fabric_index(f, e);
	if (g.phys)
		for (s = 0; s < g.nslots; s++)
			free(g.phys[s]);
	free(g.phys);
	free(g.node_of);
	if (rc)
		ibu_fabric_free(f);
	return rc;
}
