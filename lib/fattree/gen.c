/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen.h"
#include "ibft.h"

/* A label as digits, written with '.' between digits. */
static void label_text(char *buf, size_t len, const char *head,
		       const int *d, int nd)
{
	size_t o = (size_t)snprintf(buf, len, "%s", head);
	int i;

	for (i = 0; i < nd && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%d", i ? "." : "",
				      d[i]);
}

/* digits of x, most significant first; digit 0 in base b0, others base h */
static void unrank(long x, int nd, int b0, int h, int *d)
{
	int i;

	for (i = nd - 1; i >= 1; i--) {
		d[i] = (int)(x % h);
		x /= h;
	}
	if (nd > 0)
		d[0] = (int)(x % b0);
}

struct gen {
	int m, n, h;
	long per_level[IBU_IBFT_MAX_N];	/* switches per level */
	long level_first[IBU_IBFT_MAX_N];	/* first switch slot of a level */
	long num_sw, num_ep;
	int *node_of_sw;		/* switch slot -> fabric node */
	int *node_of_ep;		/* pid -> fabric node */
	int **phys;			/* switch slot -> [k] physical port */
};

static long sw_slot(const struct gen *g, int level, const int *w)
{
	/* mixed radix, the inverse of unrank(): w0 most significant */
	long x = w[0];
	int i;

	for (i = 1; i < g->n - 1; i++)
		x = x * g->h + w[i];
	return g->level_first[level] + x;
}

static int build_nodes(struct gen *g, struct ibu_fabric *f,
		       const struct ibu_gen_opts *o, struct ibu_err *e)
{
	long total = g->num_sw + g->num_ep, i;
	int *order = malloc(total * sizeof(int));
	uint64_t st = o->seed ^ 0x5eedull;
	uint64_t ca_guid = 0x100000, sw_guid = 0x200000;
	const char *pre = o->prefix ? o->prefix : "";
	int nports = g->m + (o->extra_ports > 0 ? o->extra_ports : 0);
	int rc = IBU_OK, d[IBU_IBFT_MAX_N + 1];

	if (!order)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	/* order entries: >= 0 switch slot, < 0 end port -(pid+1) */
	order[0] = -1;
	for (i = 0; i < g->num_sw; i++)
		order[1 + i] = (int)i;
	for (i = 1; i < g->num_ep; i++)
		order[g->num_sw + i] = -(int)(i + 1);
	if (o->shuffle_records)
		ibu_gen_shuffle(order + 1, (int)total - 1, &st);
	for (i = 0; i < total && !rc; i++) {
		char name[128], head[32];
		int idx;

		if (order[i] < 0) {
			long pid = -order[i] - 1;

			unrank(pid, g->n, g->m, g->h, d);
			snprintf(head, sizeof(head), "%shca-", pre);
			label_text(name, sizeof(name), head, d, g->n);
			rc = ibu_fabric_add_node(f, IBU_NODE_CA, name, ca_guid,
						 1, &idx, e);
			ca_guid += 2;
			g->node_of_ep[pid] = idx;
		} else {
			long slot = order[i];
			int l = 0;

			while (l + 1 < g->n && slot >= g->level_first[l + 1])
				l++;
			unrank(slot - g->level_first[l], g->n - 1,
			       l == 0 ? g->h : g->m, g->h, d);
			snprintf(head, sizeof(head), "%ssw%d-", pre, l);
			label_text(name, sizeof(name), head, d, g->n - 1);
			rc = ibu_fabric_add_node(f, IBU_NODE_SWITCH, name,
						 sw_guid++, nports, &idx, e);
			g->node_of_sw[slot] = idx;
		}
	}
	free(order);
	return rc;
}

static int build_ports(struct gen *g, const struct ibu_gen_opts *o,
		       struct ibu_err *e)
{
	int nports = g->m + (o->extra_ports > 0 ? o->extra_ports : 0);
	uint64_t st = o->seed;
	long s;
	int k;

	for (s = 0; s < g->num_sw; s++) {
		int *perm = malloc((nports + 1) * sizeof(int));

		if (!perm)
			return ibu_err_set(e, IBU_ENOMEM, "out of memory");
		for (k = 0; k <= nports; k++)
			perm[k] = k;
		if (o->shuffle_ports)
			ibu_gen_shuffle(perm + 1, nports, &st);
		g->phys[s] = perm;
	}
	return IBU_OK;
}

static int wire(struct gen *g, struct ibu_fabric *f, struct ibu_err *e)
{
	int w[IBU_IBFT_MAX_N], pw[IBU_IBFT_MAX_N], p[IBU_IBFT_MAX_N + 1];
	int l, i, dgt, rc;
	long x;

	/* SW<w,l> port w'_l + 1  <->  SW<w',l+1> port w_(n-2) + m/2 + 1 */
	for (l = 0; l + 1 < g->n; l++) {
		for (x = 0; x < g->per_level[l + 1]; x++) {
			long child = g->level_first[l + 1] + x;

			unrank(x, g->n - 1, g->m, g->h, w);
			for (dgt = 0; dgt < g->h; dgt++) {
				int j = 0, kp = w[l] + 1, kc = dgt + g->h + 1;
				long parent;

				for (i = 0; i < g->n - 1; i++)
					if (i != l)
						pw[j++] = w[i];
				pw[g->n - 2] = dgt;
				parent = sw_slot(g, l, pw);
				rc = ibu_fabric_link(f, g->node_of_sw[parent],
						     g->phys[parent][kp],
						     g->node_of_sw[child],
						     g->phys[child][kc], e);
				if (rc)
					return rc;
			}
		}
	}
	/* leaf SW<p0..p(n-2), n-1> port p(n-1) + 1  <->  P(p) */
	for (x = 0; x < g->num_ep; x++) {
		long leaf;

		unrank(x, g->n, g->m, g->h, p);
		leaf = sw_slot(g, g->n - 1, p);
		rc = ibu_fabric_link(f, g->node_of_sw[leaf],
				     g->phys[leaf][p[g->n - 1] + 1],
				     g->node_of_ep[x], 1, e);
		if (rc)
			return rc;
	}
	return IBU_OK;
}

int ibu_gen_fattree(struct ibu_fabric *f, int m, int n,
		    const struct ibu_gen_opts *o, struct ibu_err *e)
{
	struct ibu_gen_opts defaults = { 0 };
	struct gen g;
	long s, pw = 1;
	int l, rc;

	if (!o)
		o = &defaults;
	if (m < 4 || m % 2 || m > IBU_MAX_PORTS || n < 2 || n > IBU_IBFT_MAX_N)
		return ibu_err_set(e, IBU_EINVAL,
				   "IBFT(%d,%d): m must be even in 4..254, n in 2..%d",
				   m, n, IBU_IBFT_MAX_N);
	if (ibu_gen_check_prefix(o, e))
		return IBU_EINVAL;
	memset(&g, 0, sizeof(g));
	g.m = m;
	g.n = n;
	g.h = m / 2;
	for (l = 0; l < n - 1; l++) {
		pw *= g.h;
		if (pw > 1000000)
			return ibu_err_set(e, IBU_EINVAL,
					   "IBFT(%d,%d) is too large to generate",
					   m, n);
	}
	/* pw = h^(n-1) */
	for (l = 0; l < n; l++) {
		g.per_level[l] = l == 0 ? pw : 2 * pw;
		g.level_first[l] = g.num_sw;
		g.num_sw += g.per_level[l];
	}
	g.num_ep = 2 * pw * g.h;
	rc = ibu_fabric_init(f, "generated");
	if (rc)
		return ibu_err_set(e, rc, "out of memory");
	g.node_of_sw = calloc(g.num_sw, sizeof(int));
	g.node_of_ep = calloc(g.num_ep, sizeof(int));
	g.phys = calloc(g.num_sw, sizeof(int *));
	if (!g.node_of_sw || !g.node_of_ep || !g.phys) {
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
		goto out;
	}
	rc = build_nodes(&g, f, o, e);
	if (!rc)
		rc = build_ports(&g, o, e);
	if (!rc)
		rc = wire(&g, f, e);
	if (!rc)
		rc = ibu_gen_damage(f, o, e);
	if (!rc)
		rc = ibu_fabric_index(f, e);
out:
	if (g.phys)
		for (s = 0; s < g.num_sw; s++)
			free(g.phys[s]);
	free(g.phys);
	free(g.node_of_sw);
	free(g.node_of_ep);
	if (rc)
		ibu_fabric_free(f);
	return rc;
}
