/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdlib.h>
#include <string.h>
#include "cdg.h"

static int nvls(const struct ibu_cdg *g)
{
	return g->vl.num_vls;
}

static int slot(const struct ibu_cdg *g, int node, int port)
{
	return g->base[node] + port;
}

static uint32_t chan_id(const struct ibu_cdg *g, int node, int port, int vl)
{
	return (uint32_t)slot(g, node, port) * (uint32_t)nvls(g) + (uint32_t)vl;
}

int ibu_cdg_init(struct ibu_cdg *g, const struct ibu_fabric *f,
		 const struct ibu_cdg_vl *vl, struct ibu_err *e)
{
	int i;
	size_t seen;

	memset(g, 0, sizeof(*g));
	g->f = f;
	if (vl) {
		g->vl = *vl;
		if (g->vl.num_vls < 1 || g->vl.num_vls > IBU_CDG_MAX_VLS)
			return ibu_err_set(e, IBU_EINVAL, "%d VLs (1..%d)",
					   g->vl.num_vls, IBU_CDG_MAX_VLS);
	} else {
		g->vl.num_vls = 1;
	}
	g->num_sls = g->vl.path_sl && g->vl.vl ? 16 : 1;
	g->base = malloc((f->num_nodes + 1) * sizeof(int));
	if (!g->base)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (i = 0; i < f->num_nodes; i++) {
		g->base[i] = g->num_slots;
		g->num_slots += f->nodes[i].num_ports + 1;
	}
	g->base[f->num_nodes] = g->num_slots;
	seen = (size_t)g->num_slots * nvls(g) * g->num_sls;
	g->seen = calloc(seen ? seen : 1, sizeof(uint32_t));
	g->qnode = malloc((size_t)(g->num_slots + 1) * nvls(g) * g->num_sls *
			  sizeof(int));
	g->qport = malloc((size_t)(g->num_slots + 1) * nvls(g) * g->num_sls *
			  sizeof(int));
	g->qch = malloc((size_t)(g->num_slots + 1) * nvls(g) * g->num_sls *
			sizeof(int));
	g->cap = 1024;
	g->set = calloc(g->cap, sizeof(uint64_t));
	if (!g->seen || !g->qnode || !g->qport || !g->qch || !g->set) {
		ibu_cdg_free(g);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	return IBU_OK;
}

void ibu_cdg_free(struct ibu_cdg *g)
{
	if (!g)
		return;
	free(g->base);
	free(g->seen);
	free(g->qnode);
	free(g->qport);
	free(g->qch);
	free(g->set);
	free(g->log);
	memset(g, 0, sizeof(*g));
}

static uint64_t hash64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static int set_insert(struct ibu_cdg *g, uint64_t key, struct ibu_err *e)
{
	size_t mask, i;

	key++;
	if ((g->num_deps + 1) * 2 > g->cap) {
		size_t ncap = g->cap * 2, j;
		uint64_t *n = calloc(ncap, sizeof(uint64_t));

		if (!n)
			return ibu_err_set(e, IBU_ENOMEM, "out of memory");
		for (j = 0; j < g->cap; j++) {
			uint64_t k = g->set[j];

			if (!k)
				continue;
			for (i = hash64(k) & (ncap - 1); n[i];
			     i = (i + 1) & (ncap - 1))
				;
			n[i] = k;
		}
		free(g->set);
		g->set = n;
		g->cap = ncap;
	}
	mask = g->cap - 1;
	for (i = hash64(key) & mask; g->set[i]; i = (i + 1) & mask)
		if (g->set[i] == key)
			return IBU_OK;
	if (g->logging) {
		if (g->nlog == g->logcap) {
			size_t nc = g->logcap ? g->logcap * 2 : 256;
			uint64_t *l = realloc(g->log, nc * sizeof(uint64_t));

			if (!l)
				return ibu_err_set(e, IBU_ENOMEM, "out of memory");
			g->log = l;
			g->logcap = nc;
		}
		g->log[g->nlog++] = key;
	}
	g->set[i] = key;
	g->num_deps++;
	return IBU_OK;
}

void ibu_cdg_mark(struct ibu_cdg *g)
{
	g->logging = 1;
	g->nlog = 0;
}

void ibu_cdg_commit(struct ibu_cdg *g)
{
	g->logging = 0;
	g->nlog = 0;
}

static int cmp_key(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Open addressing cannot just clear a slot (it would cut probe chains):
 * the set is rebuilt without the logged keys. */
int ibu_cdg_rollback(struct ibu_cdg *g, struct ibu_err *e)
{
	uint64_t *n, k;
	size_t i, j, mask = g->cap - 1;

	if (!g->nlog)
		return IBU_OK;
	n = calloc(g->cap, sizeof(uint64_t));
	if (!n)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	qsort(g->log, g->nlog, sizeof(uint64_t), cmp_key);
	for (j = 0; j < g->cap; j++) {
		k = g->set[j];
		if (!k || bsearch(&k, g->log, g->nlog, sizeof(uint64_t), cmp_key))
			continue;
		for (i = hash64(k) & mask; n[i]; i = (i + 1) & mask)
			;
		n[i] = k;
	}
	free(g->set);
	g->set = n;
	g->num_deps -= g->nlog;
	g->nlog = 0;
	return IBU_OK;
}

static int dep(struct ibu_cdg *g, uint32_t a, uint32_t b, struct ibu_err *e)
{
	return set_insert(g, (uint64_t)a << 32 | b, e);
}

int ibu_cdg_add_dep(struct ibu_cdg *g, const struct ibu_cdg_channel *a,
		    const struct ibu_cdg_channel *b, struct ibu_err *e)
{
	const struct ibu_cdg_channel *c[2] = { a, b };
	int i;

	for (i = 0; i < 2; i++)
		if (c[i]->node < 0 || c[i]->node >= g->f->num_nodes ||
		    c[i]->port < 0 || c[i]->port > g->f->nodes[c[i]->node].num_ports ||
		    c[i]->vl < 0 || c[i]->vl >= nvls(g))
			return ibu_err_set(e, IBU_EINVAL, "no such channel");
	return dep(g, chan_id(g, a->node, a->port, a->vl),
		   chan_id(g, b->node, b->port, b->vl), e);
}

static int sl_of(struct ibu_cdg *g, int node, int port, uint32_t dlid,
		 struct ibu_err *e, int *sl)
{
	*sl = 0;
	if (g->num_sls == 1)
		return IBU_OK;
	*sl = g->vl.path_sl(g->vl.ctx, node, port, dlid);
	if (*sl < 0 || *sl > 15)
		return ibu_err_set(e, IBU_EINVAL,
				   "SL %d for '%s' port %d to LID 0x%04x", *sl,
				   g->f->nodes[node].name, port, dlid);
	return IBU_OK;
}

static int vl_of(struct ibu_cdg *g, int node, int in, int out, int sl,
		 struct ibu_err *e, int *vl)
{
	*vl = 0;
	if (!g->vl.vl)
		return IBU_OK;
	*vl = g->vl.vl(g->vl.ctx, node, in, out, sl);
	if (*vl < 0 || *vl >= nvls(g))
		return ibu_err_set(e, IBU_EINVAL,
				   "'%s' maps SL %d from port %d to port %d onto VL %d (%d data VLs)",
				   g->f->nodes[node].name, sl, in, out, *vl,
				   nvls(g));
	return IBU_OK;
}

/* first visit of (channel, sl) under the current stamp? */
static int fresh(struct ibu_cdg *g, uint32_t ch, int sl)
{
	uint32_t *s = &g->seen[(size_t)ch * g->num_sls + sl];

	if (*s == g->stamp)
		return 0;
	*s = g->stamp;
	return 1;
}

static void next_stamp(struct ibu_cdg *g)
{
	if (++g->stamp == 0) {
		memset(g->seen, 0, (size_t)g->num_slots * nvls(g) * g->num_sls *
				   sizeof(uint32_t));
		g->stamp = 1;
	}
}

/* follows one unicast route from (node, port) to lid */
static int follow(struct ibu_cdg *g, const struct ibu_lft *lft, int src,
		  int sport, uint32_t lid, struct ibu_err *e)
{
	const struct ibu_fabric *f = g->f;
	const struct ibu_port *pt = &f->nodes[src].ports[sport];
	int sl, vl, node, in, hops = 0, rc;
	uint32_t ch;

	rc = sl_of(g, src, sport, lid, e, &sl);
	if (!rc)
		rc = vl_of(g, src, 0, sport, sl, e, &vl);
	if (rc)
		return rc;
	ch = chan_id(g, src, sport, vl);
	node = pt->peer_node;
	in = pt->peer_port;
	g->routes++;
	while (ibu_node_is_switch(&f->nodes[node]) && hops++ <= f->num_nodes) {
		const struct ibu_node *n = &f->nodes[node];
		uint8_t out = ibu_lft_get(lft, node, lid);
		uint32_t next;

		if (out == 0 || out == IBU_NO_PATH || out > n->num_ports ||
		    n->ports[out].peer_node < 0)
			break;
		rc = vl_of(g, node, in, out, sl, e, &vl);
		if (rc)
			return rc;
		next = chan_id(g, node, out, vl);
		rc = dep(g, ch, next, e);
		if (rc)
			return rc;
		if (!fresh(g, next, sl))
			break;
		ch = next;
		in = n->ports[out].peer_port;
		node = n->ports[out].peer_node;
	}
	return IBU_OK;
}

int ibu_cdg_add_lid(struct ibu_cdg *g, const struct ibu_lft *lft,
		    uint32_t lid, struct ibu_err *e)
{
	const struct ibu_fabric *f = g->f;
	int i, p, rc;

	next_stamp(g);
	for (i = 0; i < f->num_nodes; i++) {
		const struct ibu_node *n = &f->nodes[i];

		if (ibu_node_is_switch(n))
			continue;
		for (p = 1; p <= n->num_ports; p++) {
			int peer = n->ports[p].peer_node;

			if (!ibu_is_sw(f, peer))
				continue;
			rc = follow(g, lft, i, p, lid, e);
			if (rc)
				return rc;
		}
	}
	return IBU_OK;
}

int ibu_cdg_add_unicast(struct ibu_cdg *g, const struct ibu_lft *lft,
			const struct ibu_lidmap *map, struct ibu_err *e)
{
	uint32_t lid;
	int rc;

	for (lid = 1; lid <= map->max_lid; lid++) {
		if (!ibu_lidmap_get(map, lid))
			continue;
		rc = ibu_cdg_add_lid(g, lft, lid, e);
		if (rc)
			return rc;
	}
	return IBU_OK;
}

/* floods mask from one sender; queue entries (node, in port, channel) */
static int flood(struct ibu_cdg *g, const struct ibu_mft_group *grp,
		 const struct ibu_mcast_member *snd, struct ibu_err *e)
{
	const struct ibu_fabric *f = g->f;
	int head = 0, tail = 0, sl, vl, rc;

	rc = sl_of(g, snd->node, snd->port, grp->mlid, e, &sl);
	if (rc)
		return rc;
	g->floods++;
	if (ibu_node_is_switch(&f->nodes[snd->node])) {
		g->qnode[tail] = snd->node;
		g->qport[tail] = 0;
		g->qch[tail++] = -1;
	} else {
		const struct ibu_port *pt = &f->nodes[snd->node].ports[snd->port];

		if (!ibu_is_sw(f, pt->peer_node))
			return IBU_OK;
		rc = vl_of(g, snd->node, 0, snd->port, sl, e, &vl);
		if (rc)
			return rc;
		g->qnode[tail] = pt->peer_node;
		g->qport[tail] = pt->peer_port;
		g->qch[tail++] = (int)chan_id(g, snd->node, snd->port, vl);
	}
	while (head < tail) {
		int node = g->qnode[head], in = g->qport[head];
		int ch = g->qch[head++], p;
		const struct ibu_node *n = &f->nodes[node];
		const struct ibu_portmask *m = &grp->mask[node];

		for (p = 1; p <= n->num_ports; p++) {
			uint32_t next;
			int peer = n->ports[p].peer_node;

			if (p == in || !ibu_pm_test(m, p) || peer < 0)
				continue;
			rc = vl_of(g, node, in, p, sl, e, &vl);
			if (rc)
				return rc;
			next = chan_id(g, node, p, vl);
			if (ch >= 0) {
				rc = dep(g, (uint32_t)ch, next, e);
				if (rc)
					return rc;
			}
			if (!ibu_node_is_switch(&f->nodes[peer]) ||
			    !fresh(g, next, sl))
				continue;
			g->qnode[tail] = peer;
			g->qport[tail] = n->ports[p].peer_port;
			g->qch[tail++] = (int)next;
		}
	}
	return IBU_OK;
}

/* members of a group inferred from its masks */
static int infer(const struct ibu_fabric *f, const struct ibu_mft_group *grp,
		 struct ibu_mcast_member **out, int *num, struct ibu_err *e)
{
	int n, p, cnt = 0, cap = 16;
	struct ibu_mcast_member *m = malloc(cap * sizeof(*m));

	if (!m)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (n = 0; n < f->num_nodes; n++) {
		const struct ibu_node *nd = &f->nodes[n];

		if (!ibu_node_is_switch(nd) || ibu_pm_empty(&grp->mask[n]))
			continue;
		for (p = 0; p <= nd->num_ports; p++) {
			struct ibu_mcast_member mm = { n, 0, 0 };
			int peer = p ? nd->ports[p].peer_node : n;

			if (!ibu_pm_test(&grp->mask[n], p) || peer < 0)
				continue;
			if (p) {
				if (ibu_node_is_switch(&f->nodes[peer]))
					continue;
				mm.node = peer;
				mm.port = nd->ports[p].peer_port;
			}
			if (cnt == cap) {
				struct ibu_mcast_member *x;

				cap *= 2;
				x = realloc(m, cap * sizeof(*m));
				if (!x) {
					free(m);
					return ibu_err_set(e, IBU_ENOMEM, "out of memory");
				}
				m = x;
			}
			m[cnt++] = mm;
		}
	}
	*out = m;
	*num = cnt;
	return IBU_OK;
}

int ibu_cdg_add_mcast(struct ibu_cdg *g, const struct ibu_mft *mft,
		      const struct ibu_mcmembers *mm, struct ibu_err *e)
{
	int gi, i, rc;

	if (mft->num_nodes < g->f->num_nodes)
		return ibu_err_set(e, IBU_EINVAL, "MFT of another fabric");
	for (gi = 0; gi < mft->num_groups; gi++) {
		const struct ibu_mft_group *grp = &mft->g[gi];
		const struct ibu_mcgroup *mg = mm ? ibu_mcmembers_find(mm, grp->mlid) : NULL;
		struct ibu_mcast_member *inf = NULL;
		const struct ibu_mcast_member *mem;
		int num = 0;

		if (mg) {
			mem = mg->m;
			num = mg->num;
		} else {
			rc = infer(g->f, grp, &inf, &num, e);
			if (rc)
				return rc;
			mem = inf;
		}
		g->groups++;
		next_stamp(g);
		for (i = 0, rc = 0; i < num && !rc; i++)
			if (mem[i].node >= 0 && mem[i].node < g->f->num_nodes)
				rc = flood(g, grp, &mem[i], e);
		free(inf);
		if (rc)
			return rc;
	}
	return IBU_OK;
}

long ibu_cdg_num_channels(const struct ibu_cdg *g)
{
	size_t n = (size_t)g->num_slots * nvls(g), i;
	unsigned char *used = calloc(n ? n : 1, 1);
	long cnt = 0;

	if (!used)
		return -1;
	for (i = 0; i < g->cap; i++) {
		uint64_t k = g->set[i];

		if (!k)
			continue;
		k--;
		used[k >> 32] = 1;
		used[k & 0xffffffffu] = 1;
	}
	for (i = 0; i < n; i++)
		cnt += used[i];
	free(used);
	return cnt;
}

static void channel_of(const struct ibu_cdg *g, uint32_t id,
		       struct ibu_cdg_channel *c)
{
	int s = (int)(id / (uint32_t)nvls(g)), lo = 0, hi = g->f->num_nodes - 1;

	while (lo < hi) {
		int mid = lo + (hi - lo + 1) / 2;

		if (g->base[mid] <= s)
			lo = mid;
		else
			hi = mid - 1;
	}
	c->node = lo;
	c->port = s - g->base[lo];
	c->vl = (int)(id % (uint32_t)nvls(g));
}

int ibu_cdg_find_cycle(const struct ibu_cdg *g, struct ibu_cdg_channel **cycle,
		       int *len, struct ibu_err *e)
{
	size_t n = (size_t)g->num_slots * nvls(g), m = g->num_deps, i, k = 0;
	uint64_t *edges = malloc((m ? m : 1) * sizeof(uint64_t));
	size_t *first = calloc(n + 1, sizeof(size_t));
	unsigned char *color = calloc(n ? n : 1, 1);
	uint32_t *stack = malloc((n ? n : 1) * sizeof(uint32_t));
	size_t *it = malloc((n ? n : 1) * sizeof(size_t));
	int found = 0, rc = IBU_OK;
	size_t root;

	*cycle = NULL;
	*len = 0;
	if (!edges || !first || !color || !stack || !it) {
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < g->cap; i++)
		if (g->set[i])
			edges[k++] = g->set[i] - 1;
	qsort(edges, m, sizeof(uint64_t), cmp_key);
	for (i = 0; i < m; i++)
		first[(edges[i] >> 32) + 1]++;
	for (i = 0; i < n; i++)
		first[i + 1] += first[i];
	/* iterative DFS: color 0 new, 1 on the stack, 2 done */
	for (root = 0; root < n && !found; root++) {
		size_t sp = 0;

		if (color[root] || first[root] == first[root + 1])
			continue;
		stack[sp] = (uint32_t)root;
		it[sp++] = first[root];
		color[root] = 1;
		while (sp && !found) {
			uint32_t v = stack[sp - 1];

			if (it[sp - 1] == first[v + 1]) {
				color[v] = 2;
				sp--;
				continue;
			}
			{
				uint32_t w = (uint32_t)(edges[it[sp - 1]++] & 0xffffffffu);

				if (color[w] == 1) {
					size_t j = sp;
					int c;

					while (stack[j - 1] != w)
						j--;
					*len = (int)(sp - (j - 1));
					*cycle = malloc(*len * sizeof(**cycle));
					if (!*cycle) {
						rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
						goto out;
					}
					for (c = 0; c < *len; c++)
						channel_of(g, stack[j - 1 + c], &(*cycle)[c]);
					found = 1;
				} else if (!color[w]) {
					color[w] = 1;
					stack[sp] = w;
					it[sp++] = first[w];
				}
			}
		}
	}
out:
	free(edges);
	free(first);
	free(color);
	free(stack);
	free(it);
	return rc ? rc : found;
}
