/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* 2-D mesh recognition from the switch graph (see mesh.h for the steps). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mesh.h"
#include "mesh_faults.h"

struct rec {
	const struct ibu_fabric *f;
	struct ibu_mesh *t;
	struct ibu_err *e;
	int S;			/* switches found */
	int *node_of;		/* [s] fabric node, s in record order */
	int *deg;		/* [s] switch neighbours */
	int *nb;		/* [s * 4 + i] neighbour (record-order index) */
	int *nbport;		/* [s * 4 + i] physical port toward it */
	int *dA, *dB, *dtmp;	/* hop distances */
	int *queue;
	int A, B, C, D;		/* corners: origin, x end, y end, far */
};

#define NOT_MESH(r, step, fmt, ...) \
	ibu_err_set((r)->e, IBU_ETOPO, "not a 2-D mesh: %s: " fmt, step, \
		    __VA_ARGS__)

static const char *nm(const struct rec *r, int s)
{
	return r->f->nodes[r->node_of[s]].name;
}

static uint64_t guid(const struct rec *r, int s)
{
	return r->f->nodes[r->node_of[s]].guid;
}

/* lower GUID first, then record order (GUIDs should be unique) */
static int guid_less(const struct rec *r, int a, int b)
{
	if (guid(r, a) != guid(r, b))
		return guid(r, a) < guid(r, b);
	return a < b;
}

static int step_switches(struct rec *r)
{
	const struct ibu_fabric *f = r->f;
	struct ibu_mesh *t = r->t;
	int i;

	t->num_fabric_nodes = f->num_nodes;
	t->sw_of_node = malloc((f->num_nodes + 1) * sizeof(int));
	t->port_base = malloc((f->num_nodes + 1) * sizeof(int));
	r->node_of = malloc((f->num_nodes + 1) * sizeof(int));
	if (!t->sw_of_node || !t->port_base || !r->node_of)
		return ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
	r->S = 0;
	for (i = 0; i < f->num_nodes; i++) {
		t->sw_of_node[i] = -1;
		if (ibu_node_is_switch(&f->nodes[i]))
			r->node_of[r->S++] = i;
	}
	if (!r->S)
		return NOT_MESH(r, "switches", "%s", "no switch");
	r->deg = calloc(r->S, sizeof(int));
	r->nb = malloc(r->S * 4 * sizeof(int));
	r->nbport = malloc(r->S * 4 * sizeof(int));
	r->dA = malloc(r->S * sizeof(int));
	r->dB = malloc(r->S * sizeof(int));
	r->dtmp = malloc(r->S * sizeof(int));
	r->queue = malloc(r->S * sizeof(int));
	if (!r->deg || !r->nb || !r->nbport || !r->dA || !r->dB || !r->dtmp ||
	    !r->queue)
		return ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
	/* record-order index of every switch, temporarily in sw_of_node */
	for (i = 0; i < r->S; i++)
		t->sw_of_node[r->node_of[i]] = i;
	return IBU_OK;
}

/* Switch adjacency; CA-to-CA cables, loops and parallel links rejected. */
static int step_links(struct rec *r)
{
	const struct ibu_fabric *f = r->f;
	int i, p, s, j;

	for (i = 0; i < f->num_nodes; i++) {
		const struct ibu_node *n = &f->nodes[i];

		if (ibu_node_is_switch(n))
			continue;
		for (p = 1; p <= n->num_ports; p++) {
			int peer = n->ports[p].peer_node;

			if (peer >= 0 && !ibu_node_is_switch(&f->nodes[peer]))
				return NOT_MESH(r, "links", "end nodes '%s' and '%s' are cabled to each other",
						n->name, f->nodes[peer].name);
		}
	}
	for (s = 0; s < r->S; s++) {
		const struct ibu_node *n = &f->nodes[r->node_of[s]];

		for (p = 1; p <= n->num_ports; p++) {
			int peer = n->ports[p].peer_node, q;

			if (!ibu_is_sw(f, peer))
				continue;
			q = r->t->sw_of_node[peer];
			if (q == s)
				return NOT_MESH(r, "links", "switch '%s' is cabled to itself",
						nm(r, s));
			for (j = 0; j < r->deg[s] && j < 4; j++)
				if (r->nb[s * 4 + j] == q)
					return NOT_MESH(r, "links", "switches '%s' and '%s' are joined by more than one link",
							nm(r, s), nm(r, q));
			if (r->deg[s] < 4) {
				r->nb[s * 4 + r->deg[s]] = q;
				r->nbport[s * 4 + r->deg[s]] = p;
			}
			r->deg[s]++;
		}
	}
	return IBU_OK;
}

static int step_degrees(struct rec *r)
{
	int s, corners = 0, first = -1;

	for (s = 0; s < r->S; s++) {
		if (r->deg[s] < 2 || r->deg[s] > 4)
			return NOT_MESH(r, "degrees", "switch '%s' has %d switch neighbours (mesh switches have 2, 3 or 4)",
					nm(r, s), r->deg[s]);
		if (r->deg[s] == 2) {
			corners++;
			if (first < 0 || guid_less(r, s, first))
				first = s;
		}
	}
	if (corners != 4)
		return NOT_MESH(r, "degrees", "%d switches have 2 switch neighbours (a mesh has 4 corners)",
				corners);
	r->A = first;
	return IBU_OK;
}

static void bfs(struct rec *r, int src, int *dist)
{
	int head = 0, tail = 0, s, j;

	for (s = 0; s < r->S; s++)
		dist[s] = -1;
	dist[src] = 0;
	r->queue[tail++] = src;
	while (head < tail) {
		s = r->queue[head++];
		for (j = 0; j < r->deg[s]; j++) {
			int q = r->nb[s * 4 + j];

			if (dist[q] < 0) {
				dist[q] = dist[s] + 1;
				r->queue[tail++] = q;
			}
		}
	}
}

/* Corners B (end of the x axis), C (end of the y axis), D (far corner). */
static int step_distances(struct rec *r)
{
	int s, k = 0, cand[3], a, i, nb_b = 0;

	bfs(r, r->A, r->dA);
	for (s = 0; s < r->S; s++) {
		if (r->dA[s] < 0)
			return NOT_MESH(r, "distances", "switch '%s' is not connected to switch '%s'",
					nm(r, s), nm(r, r->A));
		if (r->deg[s] == 2 && s != r->A)
			cand[k++] = s;
	}
	/* far corner: the unique farthest one */
	r->D = cand[0];
	for (i = 1; i < 3; i++)
		if (r->dA[cand[i]] > r->dA[r->D])
			r->D = cand[i];
	for (i = 0; i < 3; i++)
		if (cand[i] != r->D && r->dA[cand[i]] == r->dA[r->D])
			return NOT_MESH(r, "distances", "corners '%s' and '%s' are both farthest from '%s'",
					nm(r, cand[i]), nm(r, r->D), nm(r, r->A));
	/* x axis toward the origin's lower-GUID neighbour a */
	a = r->nb[r->A * 4 + 0];
	if (guid_less(r, r->nb[r->A * 4 + 1], a))
		a = r->nb[r->A * 4 + 1];
	r->B = r->C = -1;
	for (i = 0; i < 3; i++) {
		if (cand[i] == r->D)
			continue;
		bfs(r, cand[i], r->dtmp);
		if (r->dtmp[a] == r->dA[cand[i]] - 1) {
			nb_b++;
			r->B = cand[i];
		} else {
			r->C = cand[i];
		}
	}
	if (nb_b != 1 || r->C < 0)
		return NOT_MESH(r, "distances", "the corners seen from '%s' do not span two borders",
				nm(r, r->A));
	bfs(r, r->B, r->dB);
	return IBU_OK;
}

static int step_coordinates(struct rec *r)
{
	struct ibu_mesh *t = r->t;
	int m = r->dA[r->B] + 1, n = r->dA[r->C] + 1, s;

	if ((long)m * n != r->S)
		return NOT_MESH(r, "coordinates", "borders of %d and %d switches but %d switches in all",
				m, n, r->S);
	if (r->dA[r->D] != m + n - 2)
		return NOT_MESH(r, "coordinates", "far corner '%s' is %d hops from '%s', a %d x %d mesh has %d",
				nm(r, r->D), r->dA[r->D], nm(r, r->A), m, n,
				m + n - 2);
	t->m = m;
	t->n = n;
	t->num_switches = r->S;
	t->sw = calloc(r->S, sizeof(*t->sw));
	if (!t->sw)
		return ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
	for (s = 0; s < r->S; s++)
		t->sw[s].node = -1;
	for (s = 0; s < r->S; s++) {
		int a = r->dA[s], b = r->dB[s], xx = a - b + m - 1,
		    yy = a + b - m + 1, x, y, idx;

		if (xx % 2 || yy % 2 || xx < 0 || yy < 0 || xx / 2 >= m ||
		    yy / 2 >= n)
			return NOT_MESH(r, "coordinates", "switch '%s' is %d hops from '%s' and %d from '%s': no grid position",
					nm(r, s), a, nm(r, r->A), b, nm(r, r->B));
		x = xx / 2;
		y = yy / 2;
		idx = x * n + y;
		if (t->sw[idx].node >= 0)
			return NOT_MESH(r, "coordinates", "switches '%s' and '%s' both sit at (%d,%d)",
					r->f->nodes[t->sw[idx].node].name,
					nm(r, s), x, y);
		t->sw[idx].node = r->node_of[s];
		t->sw[idx].x = x;
		t->sw[idx].y = y;
	}
	return IBU_OK;
}

/* A subnet of one switch, the 1 x 1 mesh: what the SM sees of a mesh
 * whose faults cut its own switch off (every route ends at the switch
 * it starts from; another engine would route it the same way). */
static int step_one_switch(struct rec *r)
{
	struct ibu_mesh *t = r->t;

	t->m = t->n = t->num_switches = 1;
	t->sw = calloc(1, sizeof(*t->sw));
	if (!t->sw)
		return ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
	t->sw[0].node = r->node_of[0];
	return IBU_OK;
}

/* 1 when the switches form a line: two ends of one neighbour, the
 * others of two, every one reached from an end (no ring beside it). */
static int is_line(struct rec *r)
{
	int s, ends = 0, end = -1;

	for (s = 0; s < r->S; s++) {
		if (r->deg[s] < 1 || r->deg[s] > 2)
			return 0;
		if (r->deg[s] == 1) {
			ends++;
			end = s;
		}
	}
	if (ends != 2)
		return 0;
	bfs(r, end, r->dA);
	for (s = 0; s < r->S; s++)
		if (r->dA[s] < 0)
			return 0;
	return 1;
}

/* A line of switches, the m x 1 mesh: what the SM sees of a mesh whose
 * faults left it one row (every route is the only path there is).  x
 * runs from the end with the lower GUID, as the origin of a mesh does. */
static int step_line(struct rec *r)
{
	struct ibu_mesh *t = r->t;
	int s, a = -1, x;

	for (s = 0; s < r->S; s++)
		if (r->deg[s] == 1 && (a < 0 || guid_less(r, s, a)))
			a = s;
	bfs(r, a, r->dA);
	t->m = t->num_switches = r->S;
	t->n = 1;
	t->sw = calloc(r->S, sizeof(*t->sw));
	if (!t->sw)
		return ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
	for (s = 0; s < r->S; s++) {
		x = r->dA[s];
		t->sw[x].node = r->node_of[s];
		t->sw[x].x = x;
	}
	return IBU_OK;
}

/* Every link joins grid neighbours and every neighbour pair is linked. */
static int step_grid(struct rec *r)
{
	struct ibu_mesh *t = r->t;
	int s, j, d;
	static const int dx[IBU_DIRS] = { 1, 0, -1, 0 };
	static const int dy[IBU_DIRS] = { 0, 1, 0, -1 };

	/* switch index by fabric node, replacing the record-order index */
	for (s = 0; s < r->S; s++)
		r->dtmp[s] = -1;
	for (s = 0; s < t->num_switches; s++)
		r->dtmp[t->sw_of_node[t->sw[s].node]] = s;
	for (s = 0; s < r->S; s++)
		t->sw_of_node[r->node_of[s]] = r->dtmp[s];
	for (s = 0; s < r->S; s++) {
		struct ibu_mesh_switch *w = &t->sw[r->dtmp[s]];

		for (j = 0; j < r->deg[s]; j++) {
			const struct ibu_mesh_switch *v =
				&t->sw[r->dtmp[r->nb[s * 4 + j]]];
			int ddx = v->x - w->x, ddy = v->y - w->y;

			for (d = 0; d < IBU_DIRS; d++)
				if (ddx == dx[d] && ddy == dy[d])
					break;
			if (d == IBU_DIRS)
				return NOT_MESH(r, "grid", "'%s' at (%d,%d) is linked to '%s' at (%d,%d)",
						nm(r, s), w->x, w->y,
						r->f->nodes[v->node].name, v->x,
						v->y);
			w->port[d] = r->nbport[s * 4 + j];
		}
		for (d = 0; d < IBU_DIRS; d++) {
			int x = w->x + dx[d], y = w->y + dy[d];

			if (x >= 0 && x < t->m && y >= 0 && y < t->n &&
			    !w->port[d])
				return NOT_MESH(r, "grid", "'%s' at (%d,%d) has no link to (%d,%d)",
						nm(r, s), w->x, w->y, x, y);
		}
	}
	return IBU_OK;
}

struct ep_key {
	uint64_t guid;
	struct ibu_mesh_endport ep;
};

static int ep_cmp(const void *a, const void *b)
{
	const struct ep_key *x = a, *y = b;

	if (x->ep.sw != y->ep.sw)
		return x->ep.sw < y->ep.sw ? -1 : 1;
	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	if (x->ep.node != y->ep.node)
		return x->ep.node < y->ep.node ? -1 : 1;
	return x->ep.port - y->ep.port;
}

/* End ports by switch, then port GUID; port directions. */
static int step_endports(struct rec *r)
{
	return ibu_mesh_endports(r->f, r->t, r->e);
}

int ibu_mesh_endports(const struct ibu_fabric *f, struct ibu_mesh *t,
		      struct ibu_err *e)
{
	struct ep_key *k;
	int i, p, s, d, cnt = 0, slots = 0;

	for (i = 0; i < f->num_nodes; i++) {
		t->port_base[i] = slots;
		slots += f->nodes[i].num_ports + 1;
	}
	t->port_base[f->num_nodes] = slots;
	t->dir_of_port = malloc((slots + 1) * sizeof(int));
	t->ep_of_port = malloc((slots + 1) * sizeof(int));
	if (!t->dir_of_port || !t->ep_of_port)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (i = 0; i < f->num_nodes; i++) {
		const struct ibu_node *n = &f->nodes[i];
		int sw = t->sw_of_node[i];

		for (p = 0; p <= n->num_ports; p++) {
			t->dir_of_port[t->port_base[i] + p] =
				sw < 0 ? -1 : IBU_DIR_LOCAL;
			t->ep_of_port[t->port_base[i] + p] = -1;
		}
		if (sw >= 0)
			for (d = 0; d < IBU_DIRS; d++)
				if (t->sw[sw].port[d])
					t->dir_of_port[t->port_base[i] +
						       t->sw[sw].port[d]] = d;
		if (ibu_node_is_switch(n))
			continue;
		for (p = 1; p <= n->num_ports; p++)
			if (n->ports[p].peer_node >= 0)
				cnt++;
	}
	k = calloc(cnt ? cnt : 1, sizeof(*k));
	t->ep = calloc(cnt ? cnt : 1, sizeof(*t->ep));
	if (!k || !t->ep) {
		free(k);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	cnt = 0;
	for (i = 0; i < f->num_nodes; i++) {
		const struct ibu_node *n = &f->nodes[i];

		if (ibu_node_is_switch(n))
			continue;
		for (p = 1; p <= n->num_ports; p++) {
			const struct ibu_port *pt = &n->ports[p];

			if (pt->peer_node < 0)
				continue;
			k[cnt].guid = pt->guid;
			k[cnt].ep.node = i;
			k[cnt].ep.port = p;
			k[cnt].ep.sw = t->sw_of_node[pt->peer_node];
			k[cnt].ep.sw_port = pt->peer_port;
			cnt++;
		}
	}
	qsort(k, cnt, sizeof(*k), ep_cmp);
	for (s = 0; s < t->num_switches; s++)
		t->sw[s].first_ep = cnt;
	for (i = cnt - 1; i >= 0; i--) {
		t->ep[i] = k[i].ep;
		t->ep_of_port[t->port_base[k[i].ep.node] + k[i].ep.port] = i;
		t->sw[k[i].ep.sw].first_ep = i;
		t->sw[k[i].ep.sw].num_eps++;
	}
	t->num_endports = cnt;
	free(k);
	return IBU_OK;
}

int ibu_mesh_recognize(const struct ibu_fabric *f, struct ibu_mesh *t,
		       struct ibu_err *e)
{
	struct rec r;
	int rc;

	memset(t, 0, sizeof(*t));
	memset(&r, 0, sizeof(r));
	r.f = f;
	r.t = t;
	r.e = e;
	rc = step_switches(&r);
	if (!rc)
		rc = step_links(&r);
	if (!rc && r.S == 1)
		rc = step_one_switch(&r);
	else if (!rc && is_line(&r))
		rc = step_line(&r);
	else if (!rc && r.S < 4)
		rc = NOT_MESH(&r, "switches", "%d switches (a mesh has one, a line of them or at least 2 x 2)",
			      r.S);
	else if (!rc) {
		rc = step_degrees(&r);
		if (!rc)
			rc = step_distances(&r);
		if (!rc)
			rc = step_coordinates(&r);
	}
	if (!rc)
		rc = step_grid(&r);
	if (!rc)
		rc = step_endports(&r);
	free(r.node_of);
	free(r.deg);
	free(r.nb);
	free(r.nbport);
	free(r.dA);
	free(r.dB);
	free(r.dtmp);
	free(r.queue);
	if (rc)
		ibu_mesh_free(t);
	return rc;
}

void ibu_mesh_free(struct ibu_mesh *t)
{
	if (!t)
		return;
	free(t->sw);
	free(t->ep);
	free(t->sw_of_node);
	free(t->dir_of_port);
	free(t->ep_of_port);
	free(t->port_base);
	ibu_mesh_damage_free(t->dmg);
	free(t->dmg);
	memset(t, 0, sizeof(*t));
}

int ibu_mesh_sw(const struct ibu_mesh *t, int node)
{
	if (node < 0 || node >= t->num_fabric_nodes)
		return -1;
	return t->sw_of_node[node];
}

int ibu_mesh_ep(const struct ibu_mesh *t, int node, int port)
{
	if (node < 0 || node >= t->num_fabric_nodes || port < 0 ||
	    t->port_base[node] + port >= t->port_base[node + 1])
		return -1;
	return t->ep_of_port[t->port_base[node] + port];
}

int ibu_mesh_port_dir(const struct ibu_mesh *t, int node, int port)
{
	if (node < 0 || node >= t->num_fabric_nodes || port < 0 ||
	    t->port_base[node] + port >= t->port_base[node + 1])
		return -1;
	return t->dir_of_port[t->port_base[node] + port];
}

const char *ibu_dir_name(int d)
{
	static const char *const names[] = { "E", "N", "W", "S", "local" };

	return d >= 0 && d <= IBU_DIR_LOCAL ? names[d] : "?";
}

void ibu_mesh_sw_label(const struct ibu_mesh *t, int sw, char *buf,
		       size_t len)
{
	if (sw < 0 || sw >= t->num_switches)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "N(%d,%d)", t->sw[sw].x, t->sw[sw].y);
}
