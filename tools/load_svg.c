/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The link load of a fabric drawn by level, as SVG. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "atomicfile.h"
#include "opts.h"
#include "load_svg.h"

#define SPACING 14.0	/* px between neighbours in the widest row */
#define ROW_GAP 170.0
#define MARGIN 40.0
#define TOP 90.0

struct layout {
	int rows;
	int *row;		/* [node] 0 = top, -1 = not drawn */
	double *key;		/* [node] order inside the row */
	double *x;		/* [node] */
	int *order;		/* nodes sorted by (row, key) */
};

struct ent {
	int node, row;
	double key;
	uint64_t guid;
};

static int by_row_key(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;

	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return x->node - y->node;
}

/* l->order: nodes by (row, key, GUID). */
static int sort_nodes(struct layout *l, const struct ibu_fabric *f)
{
	struct ent *v = malloc((f->num_nodes ? f->num_nodes : 1) * sizeof(*v));
	int i;

	if (!v)
		return IBU_ENOMEM;
	for (i = 0; i < f->num_nodes; i++) {
		v[i].node = i;
		v[i].row = l->row[i];
		v[i].key = l->key[i];
		v[i].guid = f->nodes[i].guid;
	}
	qsort(v, f->num_nodes, sizeof(*v), by_row_key);
	for (i = 0; i < f->num_nodes; i++)
		l->order[i] = v[i].node;
	free(v);
	return IBU_OK;
}

/* The engine's own drawing: rows and keys from its layout op. */
static void layout_engine(struct layout *l, const struct ibu_fabric *f,
			  const struct ibu_engine_ops *ops, const void *topo)
{
	int n, row;
	double key;

	l->rows = 1;
	for (n = 0; n < f->num_nodes; n++) {
		if (ops->report.layout(f, topo, n, &row, &key))
			continue;
		l->row[n] = row;
		l->key[n] = key;
		if (row + 1 > l->rows)
			l->rows = row + 1;
	}
}

/* Orders the nodes at distance d by the mean position of their
 * neighbours in row `ref` (nodes without one keep to the end). */
static int barycenter(struct layout *l, const struct ibu_fabric *f,
		      const int *dist, int d, int ref)
{
	int i, n, p, k = 0;

	for (i = 0; i < f->num_nodes; i++)
		if (l->row[l->order[i]] == ref)
			l->x[l->order[i]] = k++;
	for (n = 0; n < f->num_nodes; n++) {
		double sum = 0;
		int cnt = 0;

		if (dist[n] != d)
			continue;
		for (p = 1; p <= f->nodes[n].num_ports; p++) {
			int v = f->nodes[n].ports[p].peer_node;

			if (v >= 0 && v != n && l->row[v] == ref) {
				sum += l->x[v];
				cnt++;
			}
		}
		l->key[n] = cnt ? sum / cnt : 1e12;
	}
	return sort_nodes(l, f);
}

/* Any fabric: BFS distance from the end ports; the farthest on top;
 * inside a row, the mean position of the neighbours one row below. */
static int layout_bfs(struct layout *l, const struct ibu_fabric *f)
{
	int *dist = malloc(f->num_nodes * sizeof(int));
	int *q = malloc(f->num_nodes * sizeof(int));
	int head = 0, tail = 0, n, p, maxd = 0, d;

	if (!dist || !q) {
		free(dist);
		free(q);
		return IBU_ENOMEM;
	}
	for (n = 0; n < f->num_nodes; n++) {
		dist[n] = -1;
		if (!ibu_node_is_switch(&f->nodes[n])) {
			dist[n] = 0;
			q[tail++] = n;
		}
	}
	if (!tail && f->num_nodes) {	/* switches only: start anywhere */
		dist[0] = 0;
		q[tail++] = 0;
	}
	while (head < tail) {
		int u = q[head++];

		for (p = 1; p <= f->nodes[u].num_ports; p++) {
			int v = f->nodes[u].ports[p].peer_node;

			if (v < 0 || dist[v] >= 0)
				continue;
			dist[v] = dist[u] + 1;
			if (dist[v] > maxd)
				maxd = dist[v];
			q[tail++] = v;
		}
	}
	for (n = 0; n < f->num_nodes; n++) {
		if (dist[n] < 0)
			dist[n] = maxd + 1;	/* unreachable: on top */
		if (dist[n] > maxd)
			maxd = dist[n];
	}
	l->rows = maxd + 1;
	for (n = 0; n < f->num_nodes; n++) {
		l->row[n] = maxd - dist[n];
		l->key[n] = 0;
	}
	/* bottom row in GUID order, then each row by its neighbours below */
	if (sort_nodes(l, f))
		goto nomem;
	/* up: each row by its neighbours below; then down again, each row
	 * by its neighbours above (untangles the rows the first pass fixed) */
	for (d = 1; d <= maxd; d++)
		if (barycenter(l, f, dist, d, (maxd - d) + 1))
			goto nomem;
	for (d = maxd - 1; d >= 0; d--)
		if (barycenter(l, f, dist, d, (maxd - d) - 1))
			goto nomem;
	free(dist);
	free(q);
	return IBU_OK;
nomem:
	free(dist);
	free(q);
	return IBU_ENOMEM;
}

static void esc(FILE *o, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", o); break;
		case '<': fputs("&lt;", o); break;
		case '>': fputs("&gt;", o); break;
		case '"': fputs("&quot;", o); break;
		default: fputc(*s, o);
		}
	}
}

/* The node's name, then the engine's label for it (a switch's, else
 * that of its first end port the engine knows). */
static void node_label(FILE *o, const struct ibu_fabric *f,
		       const struct ibu_engine_ops *ops, const void *topo,
		       int n)
{
	char lab[80] = "";
	int p;

	if (ops && ibu_node_is_switch(&f->nodes[n]) && ops->report.node_label) {
		ops->report.node_label(topo, n, lab, sizeof(lab));
	} else if (ops && ops->report.endport_index && ops->report.endport_label) {
		for (p = 1; p <= f->nodes[n].num_ports; p++)
			if (ops->report.endport_index(topo, n, p) >= 0) {
				ops->report.endport_label(topo, n, p, lab,
						   sizeof(lab));
				break;
			}
	}
	if (!strcmp(lab, "-"))
		lab[0] = '\0';
	esc(o, f->nodes[n].name);
	if (lab[0]) {
		fputc(' ', o);
		esc(o, lab);
	}
}

static void fmt(char *buf, size_t len, uint64_t v, uint64_t unit)
{
	if (v % unit == 0)
		snprintf(buf, len, "%" PRIu64, v / unit);
	else
		snprintf(buf, len, "%.2f", (double)v / (double)unit);
}

/* Grey when idle, else a hue from green (light load) to red (max), as
 * #rrggbb (HSL saturation 85%, lightness 42%). */
static void colour(char *buf, size_t len, uint64_t v, uint64_t max)
{
	double h, c, x, r, g, b = 0, l = 0.42, sat = 0.85, mm;

	if (!v || !max) {
		snprintf(buf, len, "#d4d4d4");
		return;
	}
	h = 120.0 * (1.0 - (double)v / (double)max) / 60.0;	/* 0..2 */
	c = (1.0 - (2 * l - 1 < 0 ? 1 - 2 * l : 2 * l - 1)) * sat;
	x = c * (1.0 - (h - 1 < 0 ? 1 - h : h - 1));
	if (h < 1) {
		r = c;
		g = x;
	} else {
		r = x;
		g = c;
	}
	mm = l - c / 2;
	snprintf(buf, len, "#%02x%02x%02x", (int)((r + mm) * 255 + 0.5),
		 (int)((g + mm) * 255 + 0.5), (int)((b + mm) * 255 + 0.5));
}

/* Offset of the curve of cable (n, p) -> q: 0 for the only cable of a
 * pair of nodes in different rows; parallel cables fan out, cables
 * inside a row bulge. */
static double bend_of(const struct ibu_fabric *f, int n, int p, int q,
		      int same_row)
{
	int i, idx = 0, cnt = 0;

	for (i = 1; i <= f->nodes[n].num_ports; i++)
		if (f->nodes[n].ports[i].peer_node == q) {
			idx += i < p;
			cnt++;
		}
	return (idx - (cnt - 1) / 2.0) * 16.0 + (same_row ? 40.0 : 0.0);
}

static int draw(FILE *o, const struct ibu_fabric *f,
		const struct ibu_engine_ops *ops, const void *topo,
		const struct ibu_linkload *ll, uint64_t unit,
		 const char *title, const struct layout *l)
{
	int *count = calloc(l->rows + 1, sizeof(int));
	int *seen = calloc(l->rows + 1, sizeof(int));
	int i, n, p, widest = 1;
	uint64_t max = 0;
	double width, height;
	char a[32], b[32], m[32], col[40];

	if (!count || !seen) {
		free(count);
		free(seen);
		return IBU_ENOMEM;
	}
	for (n = 0; n < f->num_nodes; n++)
		if (l->row[n] >= 0 && ++count[l->row[n]] > widest)
			widest = count[l->row[n]];
	width = 2 * MARGIN + widest * SPACING;
	if (width < 700)
		width = 700;
	height = TOP + (l->rows - 1) * ROW_GAP + 70;
	for (i = 0; i < f->num_nodes; i++) {
		n = l->order[i];
		if (l->row[n] < 0)
			continue;
		l->x[n] = MARGIN + (seen[l->row[n]]++ + 0.5) *
			  (width - 2 * MARGIN) / count[l->row[n]];
	}
	for (n = 0; n < f->num_nodes; n++)
		for (p = 1; p <= f->nodes[n].num_ports; p++)
			if (f->nodes[n].ports[p].peer_node >= 0 &&
			    ibu_linkload_get(ll, n, p) > max)
				max = ibu_linkload_get(ll, n, p);
	fmt(m, sizeof(m), max, unit);
	fprintf(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n",
		width, height, width, height);
	fprintf(o, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n<text x=\"%.0f\" y=\"26\" font-size=\"16\">",
		MARGIN);
	esc(o, title);
	fprintf(o, "</text>\n<text x=\"%.0f\" y=\"48\" font-size=\"12\">load in messages (busier direction): grey idle, green .. red = %s; hover for details</text>\n",
		MARGIN, m);
	for (i = 0; i <= 10; i++) {
		colour(col, sizeof(col), i ? (uint64_t)i : 0, 10);
		fprintf(o, "<rect x=\"%.0f\" y=\"58\" width=\"24\" height=\"10\" fill=\"%s\"/>\n",
			MARGIN + i * 26, i ? col : "#d4d4d4");
	}
	fprintf(o, "<g stroke-linecap=\"round\">\n");
	for (n = 0; n < f->num_nodes; n++) {
		const struct ibu_node *nd = &f->nodes[n];

		for (p = 1; p <= nd->num_ports; p++) {
			int q = nd->ports[p].peer_node, qp = nd->ports[p].peer_port;
			uint64_t up, down, v;
			double w, x1, y1, x2, y2, bend;

			if (q < 0 || l->row[n] < 0 || l->row[q] < 0 ||
			    q < n || (q == n && qp < p))
				continue;
			up = ibu_linkload_get(ll, n, p);
			down = ibu_linkload_get(ll, q, qp);
			v = up > down ? up : down;
			colour(col, sizeof(col), v, max);
			fmt(a, sizeof(a), up, unit);
			fmt(b, sizeof(b), down, unit);
			w = 0.6 + (max ? 5.4 * (double)v / (double)max : 0);
			x1 = l->x[n];
			y1 = TOP + l->row[n] * ROW_GAP;
			x2 = l->x[q];
			y2 = TOP + l->row[q] * ROW_GAP;
			bend = bend_of(f, n, p, q, l->row[n] == l->row[q]);
			if (bend == 0) {
				fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.2f\"><title>",
					x1, y1, x2, y2, col, w);
			} else {
				/* parallel cables and cables inside a row: a
				 * curve bent off the straight line */
				double dx = x2 - x1, dy = y2 - y1;
				double len = sqrt(dx * dx + dy * dy);

				if (len < 1)
					len = 1;
				fprintf(o, "<path d=\"M %.1f %.1f Q %.1f %.1f %.1f %.1f\" fill=\"none\" stroke=\"%s\" stroke-width=\"%.2f\"><title>",
					x1, y1, (x1 + x2) / 2 - dy / len * bend,
					(y1 + y2) / 2 + dx / len * bend, x2, y2,
					col, w);
			}
			node_label(o, f, ops, topo, n);
			fprintf(o, " port %d -&gt; ", p);
			node_label(o, f, ops, topo, q);
			fprintf(o, " port %d: %s; back: %s</title></%s>\n", qp,
				a, b, bend == 0 ? "line" : "path");
		}
	}
	fprintf(o, "</g>\n<g stroke=\"#333\" stroke-width=\"0.8\">\n");
	for (n = 0; n < f->num_nodes; n++) {
		double x = l->x[n], y = TOP + l->row[n] * ROW_GAP;

		if (l->row[n] < 0)
			continue;
		if (ibu_node_is_switch(&f->nodes[n]))
			fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"#5b7bd5\"><title>",
				x - 5, y - 5);
		else
			fprintf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#f2c14e\"><title>",
				x, y);
		node_label(o, f, ops, topo, n);
		fprintf(o, "</title></%s>\n",
			ibu_node_is_switch(&f->nodes[n]) ? "rect" : "circle");
	}
	fprintf(o, "</g>\n</svg>\n");
	free(count);
	free(seen);
	return IBU_OK;
}

int ibu_load_svg_write(const char *path, const struct ibu_fabric *f,
		       const struct ibu_engine_ops *ops, const void *topo,
		       const struct ibu_linkload *ll, uint64_t unit,
		       const char *title, struct ibu_err *e)
{
	struct layout l = { 0 };
	int nn = f->num_nodes ? f->num_nodes : 1, rc = IBU_OK, n;
	struct ibu_atomicfile af;
	FILE *o;

	l.row = malloc(nn * sizeof(*l.row));
	l.key = malloc(nn * sizeof(*l.key));
	l.x = calloc(nn, sizeof(*l.x));
	l.order = malloc(nn * sizeof(*l.order));
	if (!l.row || !l.key || !l.x || !l.order) {
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory (svg)");
		goto out;
	}
	for (n = 0; n < f->num_nodes; n++)
		l.row[n] = -1;
	if (ops && ops->report.layout) {
		layout_engine(&l, f, ops, topo);
		rc = sort_nodes(&l, f);
	} else {
		rc = layout_bfs(&l, f);
	}
	if (rc) {
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory (svg)");
		goto out;
	}
	rc = ibu_out_open(&af, path, e);
	if (rc)
		goto out;
	o = af.fp;
	rc = draw(o, f, ops, topo, ll, unit ? unit : 1, title, &l);
	if (rc || ferror(o)) {
		int err = errno;

		rc = rc ? ibu_err_set(e, rc, "out of memory (svg)")
			: ibu_err_set(e, IBU_EIO, "%s: write failed: %s", path,
				      strerror(err ? err : EIO));
		ibu_out_abort(&af);
		goto out;
	}
	rc = ibu_out_commit(&af, e);
out:
	free(l.row);
	free(l.key);
	free(l.x);
	free(l.order);
	return rc;
}
