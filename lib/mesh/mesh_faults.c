/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Damaged mesh recognition: grid embedding of the surviving switch graph
 * (see mesh_faults.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine_options.h"
#include "mesh_faults.h"

/* Embedding search budget: placements tried before giving up. A damaged
 * mesh's squares pin almost every placement, so real meshes need a few
 * thousand; the budget only bounds graphs that are no mesh at all. */
#define EMBED_BUDGET 4000000L
/* Grid of (2S+1)^2 points: bounds the switch count the search accepts. */
#define EMBED_MAX_SWITCHES 1024

static const int DX[IBU_DIRS] = { 1, 0, -1, 0 };
static const int DY[IBU_DIRS] = { 0, 1, 0, -1 };

struct emb {
	const struct ibu_fabric *f;
	int S, E, W;		/* switches, links, grid width 2S+1 */
	int *node_of;		/* [s] fabric node */
	int *idx_of;		/* [node] s or -1 */
	int *deg, *nb, *nbport;	/* [s * 4 + i] */
	int *order, *parent;	/* BFS order and parent */
	int *px, *py;		/* placement */
	int *occ;		/* [grid point] s + 1, 0 free */
	int *best_x, *best_y;
	long best_links;	/* grid links of the best box, -1 none */
	int max_faults;		/* IBU_MAX_FAULTS_DEFAULT: the default */
	long steps;
};

/* The default's floor on meshes of 4 x 4 and up: an interior switch lost
 * (its 4 links) plus 4 cut cables, so a 4 x 4 (a sixth of 24 is 4) keeps
 * xy through one lost switch.  Rings stay out: the 12-ring misses 12 of a
 * 4 x 4's links, and 3 x 3 boxes (the 8-ring) keep a sixth. */
#define MESH_MIN_DEFAULT_FAULTS 8

int ibu_mesh_default_max_faults(int m, int n)
{
	int d = (2 * m * n - m - n) / 6;

	if (m >= 4 && n >= 4 && d < MESH_MIN_DEFAULT_FAULTS)
		d = MESH_MIN_DEFAULT_FAULTS;
	return d;
}

static long box_links(int m, int n)
{
	return 2L * m * n - m - n;
}

static long limit_of(const struct emb *b, int m, int n)
{
	return ibu_fault_limit(b->max_faults,
			       ibu_mesh_default_max_faults(m, n));
}

static int linked(const struct emb *b, int s, int q)
{
	int i;

	for (i = 0; i < b->deg[s]; i++)
		if (b->nb[s * 4 + i] == q)
			return 1;
	return 0;
}

/* Adjacency of the switches; what no mesh can have is declined. */
static int graph(struct emb *b, struct ibu_err *e)
{
	const struct ibu_fabric *f = b->f;
	int i, p, s;

	for (i = 0; i < f->num_nodes; i++)
		if (ibu_node_is_switch(&f->nodes[i])) {
			b->idx_of[i] = b->S;
			b->node_of[b->S++] = i;
		} else {
			b->idx_of[i] = -1;
		}
	if (b->S < 4 || b->S > EMBED_MAX_SWITCHES)
		return ibu_err_set(e, IBU_ETOPO, "%d switches (damaged meshes: 4 to %d)",
				   b->S, EMBED_MAX_SWITCHES);
	for (s = 0; s < b->S; s++) {
		const struct ibu_node *n = &f->nodes[b->node_of[s]];

		for (p = 1; p <= n->num_ports; p++) {
			int peer = n->ports[p].peer_node, q;

			if (peer < 0 || b->idx_of[peer] < 0)
				continue;
			q = b->idx_of[peer];
			if (q == s || linked(b, s, q) || b->deg[s] == 4)
				return ibu_err_set(e, IBU_ETOPO,
						   "switch '%s' has a loop, a parallel link or more than 4 switch neighbours",
						   n->name);
			b->nb[s * 4 + b->deg[s]] = q;
			b->nbport[s * 4 + b->deg[s]] = p;
			b->deg[s]++;
			b->E++;
		}
	}
	b->E /= 2;
	return IBU_OK;
}

/* BFS from the best-connected switch (lowest GUID among them). */
static int bfs_order(struct emb *b, struct ibu_err *e)
{
	int s, seed = 0, head = 0, tail = 0, i;

	for (s = 1; s < b->S; s++) {
		const struct ibu_node *a = &b->f->nodes[b->node_of[s]],
				      *c = &b->f->nodes[b->node_of[seed]];

		if (b->deg[s] > b->deg[seed] ||
		    (b->deg[s] == b->deg[seed] && a->guid < c->guid))
			seed = s;
	}
	for (s = 0; s < b->S; s++)
		b->parent[s] = -2;
	b->parent[seed] = -1;
	b->order[tail++] = seed;
	while (head < tail) {
		s = b->order[head++];
		for (i = 0; i < b->deg[s]; i++) {
			int q = b->nb[s * 4 + i];

			if (b->parent[q] == -2) {
				b->parent[q] = s;
				b->order[tail++] = q;
			}
		}
	}
	if (tail < b->S)
		for (s = 0; s < b->S; s++)
			if (b->parent[s] == -2)
				return ibu_err_set(e, IBU_ETOPO, "switch '%s' is not connected to switch '%s'",
						   b->f->nodes[b->node_of[s]].name,
						   b->f->nodes[b->node_of[seed]].name);
	return IBU_OK;
}

struct box {
	int x0, x1, y0, y1;
};

/* Places order[k..]; keeps the placement with the smallest box. */
static void place(struct emb *b, int k, struct box bx)
{
	int s, par, c, i;

	if (b->best_links >= 0 && b->steps > EMBED_BUDGET)
		return;
	if (k == b->S) {
		long L = box_links(bx.x1 - bx.x0 + 1, bx.y1 - bx.y0 + 1);

		if (b->best_links < 0 || L < b->best_links) {
			b->best_links = L;
			memcpy(b->best_x, b->px, b->S * sizeof(int));
			memcpy(b->best_y, b->py, b->S * sizeof(int));
		}
		return;
	}
	if (b->steps > 4 * EMBED_BUDGET)
		return;
	s = b->order[k];
	par = b->parent[s];
	for (c = 0; c < IBU_DIRS; c++) {
		int x = b->px[par] + DX[c], y = b->py[par] + DY[c], ok = 1, m, n;
		struct box nbx = bx;
		long L;

		b->steps++;
		/* symmetry: the seed's first neighbour lies east, and the
		 * first switch off the x axis lies north */
		if (k == 1 && c != IBU_DIR_E)
			continue;
		if (y < 0 && bx.y0 == 0 && bx.y1 == 0)
			continue;
		if (b->occ[(x + b->S) * b->W + y + b->S])
			continue;
		for (i = 0; i < b->deg[s] && ok; i++) {
			int q = b->nb[s * 4 + i];

			if (b->px[q] != INT32_MIN &&
			    abs(b->px[q] - x) + abs(b->py[q] - y) != 1)
				ok = 0;
		}
		if (!ok)
			continue;
		if (x < nbx.x0) nbx.x0 = x;
		if (x > nbx.x1) nbx.x1 = x;
		if (y < nbx.y0) nbx.y0 = y;
		if (y > nbx.y1) nbx.y1 = y;
		m = nbx.x1 - nbx.x0 + 1;
		n = nbx.y1 - nbx.y0 + 1;
		L = box_links(m, n);
		/* the box only grows: prune on the limit and on the best */
		if (L - b->E > limit_of(b, m, n) ||
		    (b->best_links >= 0 && L >= b->best_links))
			continue;
		b->px[s] = x;
		b->py[s] = y;
		b->occ[(x + b->S) * b->W + y + b->S] = s + 1;
		place(b, k + 1, nbx);
		b->occ[(x + b->S) * b->W + y + b->S] = 0;
		b->px[s] = INT32_MIN;
	}
}

/* Transform o (bit 0: mirror x, bit 1: mirror y, bit 2: swap axes) of a
 * normalised point in an m x n box. */
static void xform(int o, int m, int n, int x, int y, int *ox, int *oy)
{
	if (o & 1)
		x = m - 1 - x;
	if (o & 2)
		y = n - 1 - y;
	if (o & 4) {
		int t = x;

		x = y;
		y = t;
	}
	*ox = x;
	*oy = y;
}

/* node GUID at (x, y) of the box under transform o; missing = highest */
static uint64_t guid_at(const struct emb *b, const int *at, int o, int m,
			int n, int x, int y)
{
	int s, ax, ay, om = (o & 4) ? n : m, on = (o & 4) ? m : n;

	if (x >= om || y >= on)
		return UINT64_MAX;
	/* inverse: try every box point (boxes are small; runs once) */
	for (ax = 0; ax < m; ax++)
		for (ay = 0; ay < n; ay++) {
			int tx, ty;

			xform(o, m, n, ax, ay, &tx, &ty);
			if (tx == x && ty == y) {
				s = at[ax * n + ay];
				return s < 0 ? UINT64_MAX :
					       b->f->nodes[b->node_of[s]].guid;
			}
		}
	return UINT64_MAX;
}

static int orientation(const struct emb *b, const int *at, int m, int n)
{
	static const int px[3] = { 0, 1, 0 }, py[3] = { 0, 0, 1 };
	int o, best = 0, i;

	for (o = 1; o < 8; o++)
		for (i = 0; i < 3; i++) {
			uint64_t a = guid_at(b, at, o, m, n, px[i], py[i]),
				 c = guid_at(b, at, best, m, n, px[i], py[i]);

			if (a != c) {
				if (a < c)
					best = o;
				break;
			}
		}
	return best;
}

static int add_fault(struct ibu_mesh_damage *d, enum ibu_mesh_fault_kind k,
		     int sw, int dir, struct ibu_err *e)
{
	struct ibu_mesh_fault *nf = realloc(d->faults,
					    (d->num_faults + 1) * sizeof(*nf));

	if (!nf)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	d->faults = nf;
	nf[d->num_faults].kind = k;
	nf[d->num_faults].sw = sw;
	nf[d->num_faults].dir = dir;
	d->num_faults++;
	return IBU_OK;
}

/* Fills t from the best placement: switches, ports, faults, end ports. */
/* Each mesh position's switch ports toward its neighbours, from the
 * embedding's links. */
static void grid_ports(const struct emb *b, struct ibu_mesh *t)
{
	int s, dd, j;

	for (s = 0; s < t->num_switches; s++) {
		int node = t->sw[s].node, bs;

		if (node < 0)
			continue;
		bs = b->idx_of[node];
		for (dd = 0; dd < IBU_DIRS; dd++) {
			int q = ibu_mesh_neighbour(t, s, dd);

			if (q < 0 || t->sw[q].node < 0)
				continue;
			for (j = 0; j < b->deg[bs]; j++)
				if (b->node_of[b->nb[bs * 4 + j]] == t->sw[q].node)
					t->sw[s].port[dd] = b->nbport[bs * 4 + j];
		}
	}
}

/* The damage record: missing switches and links, in mesh order. */
static int list_faults(const struct emb *b, struct ibu_mesh *t,
		       struct ibu_err *e)
{
	struct ibu_mesh_damage *d = t->dmg;
	int s, dd, rc;

	d->missing_links = (int)(box_links(t->m, t->n) - b->E);
	d->max_faults = (int)limit_of(b, t->m, t->n);
	for (s = 0; s < t->num_switches; s++) {
		rc = IBU_OK;
		if (t->sw[s].node < 0) {
			d->missing_switches++;
			rc = add_fault(d, IBU_MESH_MISSING_SWITCH, s, -1, e);
		}
		for (dd = IBU_DIR_E; !rc && dd <= IBU_DIR_N; dd++) {
			int q = ibu_mesh_neighbour(t, s, dd);

			if (q >= 0 && t->sw[s].node >= 0 && t->sw[q].node >= 0 &&
			    !t->sw[s].port[dd])
				rc = add_fault(d, IBU_MESH_MISSING_LINK, s, dd, e);
		}
		if (rc)
			return rc;
	}
	return IBU_OK;
}

/* t's switches from the box [x0, x0 + m) x [y0, y0 + n) of the best
 * embedding (at[]: embedding switch of each box cell, -1 none), turned to
 * the canonical orientation. */
static int place_switches(const struct emb *b, struct ibu_mesh *t,
			  const int *at, int m, int n, struct ibu_err *e)
{
	int o = orientation(b, at, m, n), i;

	t->m = (o & 4) ? n : m;
	t->n = (o & 4) ? m : n;
	t->num_switches = m * n;
	t->num_fabric_nodes = b->f->num_nodes;
	t->sw = calloc((size_t)m * n, sizeof(*t->sw));
	t->sw_of_node = malloc((b->f->num_nodes + 1) * sizeof(int));
	t->port_base = malloc((b->f->num_nodes + 1) * sizeof(int));
	t->dmg = calloc(1, sizeof(*t->dmg));
	if (!t->sw || !t->sw_of_node || !t->port_base || !t->dmg)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (i = 0; i < b->f->num_nodes; i++)
		t->sw_of_node[i] = -1;
	for (i = 0; i < m * n; i++) {
		int x, y, idx;

		xform(o, m, n, i / n, i % n, &x, &y);
		idx = x * t->n + y;
		t->sw[idx].x = x;
		t->sw[idx].y = y;
		t->sw[idx].node = at[i] < 0 ? -1 : b->node_of[at[i]];
		if (at[i] >= 0)
			t->sw_of_node[b->node_of[at[i]]] = idx;
	}
	return IBU_OK;
}

static int build(struct emb *b, struct ibu_mesh *t, struct ibu_err *e)
{
	int x0 = INT32_MAX, y0 = INT32_MAX, x1 = INT32_MIN, y1 = INT32_MIN;
	int s, m, n, i, rc, *at;

	for (s = 0; s < b->S; s++) {
		if (b->best_x[s] < x0) x0 = b->best_x[s];
		if (b->best_x[s] > x1) x1 = b->best_x[s];
		if (b->best_y[s] < y0) y0 = b->best_y[s];
		if (b->best_y[s] > y1) y1 = b->best_y[s];
	}
	m = x1 - x0 + 1;
	n = y1 - y0 + 1;
	if (m < 3 || n < 3)
		return ibu_err_set(e, IBU_ETOPO, "the switches fit a %d x %d box (damaged meshes: at least 3 x 3)",
				   m, n);
	at = malloc((size_t)m * n * sizeof(int));
	if (!at)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (i = 0; i < m * n; i++)
		at[i] = -1;
	for (s = 0; s < b->S; s++)
		at[(b->best_x[s] - x0) * n + b->best_y[s] - y0] = s;
	rc = place_switches(b, t, at, m, n, e);
	free(at);
	if (rc)
		return rc;
	grid_ports(b, t);
	rc = list_faults(b, t, e);
	return rc ? rc : ibu_mesh_endports(b->f, t, e);
}

static int emb_alloc(struct emb *b, struct ibu_err *e)
{
	int N = b->f->num_nodes + 1;

	b->node_of = malloc(N * sizeof(int));
	b->idx_of = malloc(N * sizeof(int));
	b->deg = calloc(N, sizeof(int));
	b->nb = malloc(N * 4 * sizeof(int));
	b->nbport = malloc(N * 4 * sizeof(int));
	b->order = malloc(N * sizeof(int));
	b->parent = malloc(N * sizeof(int));
	b->px = malloc(N * sizeof(int));
	b->py = malloc(N * sizeof(int));
	b->best_x = malloc(N * sizeof(int));
	b->best_y = malloc(N * sizeof(int));
	if (!b->node_of || !b->idx_of || !b->deg || !b->nb || !b->nbport ||
	    !b->order || !b->parent || !b->px || !b->py || !b->best_x ||
	    !b->best_y)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	return IBU_OK;
}

static void emb_free(struct emb *b)
{
	free(b->node_of);
	free(b->idx_of);
	free(b->deg);
	free(b->nb);
	free(b->nbport);
	free(b->order);
	free(b->parent);
	free(b->px);
	free(b->py);
	free(b->best_x);
	free(b->best_y);
	free(b->occ);
}

/* A mesh of S switches has at most 2S - 2 sqrt(S) links: a torus has 2S. */
static int too_many_links(int S, int E)
{
	int r = 0;

	while ((r + 1) * (r + 1) <= S)
		r++;
	return E > 2 * S - 2 * r;
}

static int embed(const struct ibu_fabric *f, struct ibu_mesh *t,
		 int max_faults, struct ibu_err *e)
{
	struct emb b;
	struct box bx = { 0, 0, 0, 0 };
	int rc, s;

	memset(&b, 0, sizeof(b));
	b.f = f;
	b.max_faults = max_faults;
	b.best_links = -1;
	rc = emb_alloc(&b, e);
	if (!rc)
		rc = graph(&b, e);
	if (!rc && too_many_links(b.S, b.E))
		rc = ibu_err_set(e, IBU_ETOPO, "%d links between %d switches: more than any 2-D mesh has (a torus?)",
				 b.E, b.S);
	if (!rc)
		rc = bfs_order(&b, e);
	if (!rc) {
		b.W = 2 * b.S + 1;
		b.occ = calloc((size_t)b.W * b.W, sizeof(int));
		if (!b.occ)
			rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	if (!rc) {
		for (s = 0; s < b.S; s++)
			b.px[s] = INT32_MIN;
		s = b.order[0];
		b.px[s] = b.py[s] = 0;
		b.occ[b.S * b.W + b.S] = s + 1;
		place(&b, 1, bx);
		if (b.best_links < 0)
			rc = ibu_err_set(e, IBU_ETOPO, "the switch graph fits no grid with at most %s missing links%s",
					 max_faults == IBU_MAX_FAULTS_DEFAULT ?
					 "the default (one sixth, at least 8 from 4 x 4 up)" : "max_faults",
					 b.steps > 4 * EMBED_BUDGET ? " (search budget spent)" : "");
	}
	if (!rc)
		rc = build(&b, t, e);
	emb_free(&b);
	return rc;
}

int ibu_mesh_recognize_damaged(const struct ibu_fabric *f, struct ibu_mesh *t,
			       int max_faults, struct ibu_err *e)
{
	char intact[sizeof(e->msg)];
	int rc = ibu_mesh_recognize(f, t, e);

	if (rc != IBU_ETOPO)
		return rc;
	snprintf(intact, sizeof(intact), "%s", e->msg);
	ibu_err_clear(e);
	memset(t, 0, sizeof(*t));
	rc = embed(f, t, max_faults, e);
	if (rc) {
		char why[sizeof(e->msg)];

		snprintf(why, sizeof(why), "%s", e->msg);
		ibu_mesh_free(t);
		if (rc == IBU_ETOPO)
			ibu_err_set(e, rc, "%s; nor a damaged mesh: %s", intact,
				    why);
		return rc;
	}
	if (t->dmg->missing_links > t->dmg->max_faults) {
		ibu_mesh_free(t);
		return ibu_err_set(e, IBU_ETOPO, "%s; as a damaged mesh it misses too many links (limit max_faults)",
				   intact);
	}
	return IBU_OK;
}

void ibu_mesh_damage_free(struct ibu_mesh_damage *d)
{
	if (!d)
		return;
	free(d->faults);
	free(d->dir);
	free(d->xy);
	free(d->layer);
	free(d->mup);
	memset(d, 0, sizeof(*d));
}

void ibu_mesh_fault_text(const struct ibu_fabric *f, const struct ibu_mesh *t,
			 int i, char *buf, size_t len)
{
	const struct ibu_mesh_fault *ft;
	char a[32], b[32];
	int q;

	if (!t->dmg || i < 0 || i >= t->dmg->num_faults) {
		snprintf(buf, len, "-");
		return;
	}
	ft = &t->dmg->faults[i];
	ibu_mesh_sw_label(t, ft->sw, a, sizeof(a));
	if (ft->kind == IBU_MESH_MISSING_SWITCH) {
		snprintf(buf, len, "missing switch %s (its links are missing with it)", a);
		return;
	}
	q = ibu_mesh_neighbour(t, ft->sw, ft->dir);
	ibu_mesh_sw_label(t, q, b, sizeof(b));
	snprintf(buf, len, "missing cable %s %s - %s ('%s' - '%s')", a,
		 ibu_dir_name(ft->dir), b, f->nodes[t->sw[ft->sw].node].name,
		 f->nodes[t->sw[q].node].name);
}
