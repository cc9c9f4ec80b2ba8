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

struct layout {
	int rows;
	int *row;		/* [node] 0 = top, -1 = not drawn */
	double *key;		/* [node] order inside the row */
	double *x;		/* [node] */
	double top;		/* y of row 0: below the legend and the top
				 * switches' names */
	enum { ROWS_LEVELS, ROWS_MESH, ROWS_LAYERS } kind;	/* row names */
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
		if (ops->layout(f, topo, n, &row, &key))
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

	if (ops && ibu_node_is_switch(&f->nodes[n]) && ops->node_label) {
		ops->node_label(topo, n, lab, sizeof(lab));
	} else if (ops && ops->endport_index && ops->endport_label) {
		for (p = 1; p <= f->nodes[n].num_ports; p++)
			if (ops->endport_index(topo, n, p) >= 0) {
				ops->endport_label(topo, n, p, lab,
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

static void fmt(char *buf, size_t len, double v)
{
	if (v == floor(v))
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.2f", v);
}

/* Colour stops of the load against the bound: at or below it greens (an
 * optimal load is green, never red), above it yellow, orange, red at
 * twice the bound, darker beyond. */
static const struct stop {
	double t;
	int r, g, b;
} below[] = { { 0.0, 0xc7, 0xe9, 0xc0 }, { 1.0, 0x1a, 0x96, 0x41 } },
  above[] = { { 1.0, 0xfe, 0xe0, 0x8b }, { 1.5, 0xfd, 0xae, 0x61 },
	      { 2.0, 0xd7, 0x19, 0x1c }, { 3.0, 0x67, 0x00, 0x0d } };

static void interp(char *buf, size_t len, const struct stop *s, int n,
		   double t)
{
	int i = 0;
	double u;

	if (t <= s[0].t)
		i = 0, t = s[0].t;
	while (i < n - 2 && t > s[i + 1].t)
		i++;
	if (t > s[n - 1].t)
		t = s[n - 1].t;
	u = (t - s[i].t) / (s[i + 1].t - s[i].t);
	if (u < 0)
		u = 0;
	snprintf(buf, len, "#%02x%02x%02x",
		 (int)(s[i].r + u * (s[i + 1].r - s[i].r) + 0.5),
		 (int)(s[i].g + u * (s[i + 1].g - s[i].g) + 0.5),
		 (int)(s[i].b + u * (s[i + 1].b - s[i].b) + 0.5));
}

/* Grey when idle, else the colour of load v (messages) against ref. */
static void colour(char *buf, size_t len, double v, double ref)
{
	double t;

	if (v <= 0 || ref <= 0) {
		snprintf(buf, len, "#d4d4d4");
		return;
	}
	t = v / ref;
	if (t <= 1.0 + 1e-9)
		interp(buf, len, below, 2, t);
	else
		interp(buf, len, above, 4, t);
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

/* A cable that skips rows (a mesh's north-south cables pass the row of
 * end ports between) bends off the nodes it passes. */
static double bend_of_cable(const struct ibu_fabric *f, const struct layout *l,
			    int n, int p, int q)
{
	int span = l->row[n] > l->row[q] ? l->row[n] - l->row[q] :
		   l->row[q] - l->row[n];

	return bend_of(f, n, p, q, span == 0) + (span > 1 ? 22.0 : 0.0);
}

/* What the picture is drawn against. */
struct scale {
	double ref;		/* the colours' reference: the bound, or max */
	double max;		/* busiest link, messages */
	int by_bound;		/* ref is the pattern's bound */
	uint64_t unit;
};

struct canvas {
	double width, height, left, label_px, font;
	int rows;
};

static double row_y(const struct layout *l, int row)
{
	return l->top + row * ROW_GAP;
}

static void legend_swatch(FILE *o, double x, const char *col,
			  const char *text)
{
	fprintf(o, "<rect x=\"%.0f\" y=\"64\" width=\"22\" height=\"12\" fill=\"%s\" stroke=\"#888\" stroke-width=\"0.5\"/>\n<text x=\"%.0f\" y=\"88\" font-size=\"10\">%s</text>\n",
		x, col, x, text);
}

/* Title, what the colours and widths mean, and the colour legend. */
static void header(FILE *o, const char *title, const struct scale *sc)
{
	static const double ts[] = { 0.5, 1.0, 1.25, 1.5, 2.0, 3.0 };
	char col[16], v[32], text[96];
	unsigned i;

	fprintf(o, "<text x=\"%.0f\" y=\"24\" font-size=\"16\" font-weight=\"bold\">",
		MARGIN);
	esc(o, title);
	fmt(v, sizeof(v), sc->ref);
	fprintf(o, "</text>\n<text x=\"%.0f\" y=\"42\" font-size=\"11\">colour: a cable's busier direction, in messages, against %s = %s%s; green up to it</text>\n",
		MARGIN, sc->by_bound ? "B" : "the busiest link", v,
		sc->by_bound ? ", the lower bound of the busiest link for any tables" :
		" (no bound known)");
	fmt(v, sizeof(v), sc->max);
	fprintf(o, "<text x=\"%.0f\" y=\"56\" font-size=\"11\" fill=\"#444\">width: against the busiest link, %s messages (%.2f x %s); hover a cable or node for names, labels, ports, both directions</text>\n",
		MARGIN, v, sc->ref > 0 ? sc->max / sc->ref : 0.0,
		sc->by_bound ? "B" : "max");
	legend_swatch(o, MARGIN, "#d4d4d4", "idle");
	for (i = 0; i < sizeof(ts) / sizeof(ts[0]); i++) {
		colour(col, sizeof(col), ts[i] * sc->ref, sc->ref);
		fmt(v, sizeof(v), ts[i] * sc->ref);
		snprintf(text, sizeof(text), "%s%.3g %s (%s)",
			 i == sizeof(ts) / sizeof(ts[0]) - 1 ? "&gt;= " : "",
			 ts[i], sc->by_bound ? "B" : "max", v);
		legend_swatch(o, MARGIN + 40 + i * 96, col, text);
	}
	fprintf(o, "<rect x=\"%.0f\" y=\"62\" width=\"10\" height=\"10\" fill=\"#5b7bd5\"/><text x=\"%.0f\" y=\"71\" font-size=\"10\">switch</text>\n<circle cx=\"%.0f\" cy=\"67\" r=\"4\" fill=\"#f2c14e\" stroke=\"#333\" stroke-width=\"0.8\"/><text x=\"%.0f\" y=\"71\" font-size=\"10\">end port</text>\n",
		MARGIN + 40 + 6 * 96 + 10, MARGIN + 40 + 6 * 96 + 24,
		MARGIN + 40 + 6 * 96 + 80, MARGIN + 40 + 6 * 96 + 88);
}

static void draw_link(FILE *o, const struct ibu_fabric *f,
		      const struct ibu_engine_ops *ops, const void *topo,
		      const struct ibu_linkload *ll, const struct scale *sc,
		      const struct layout *l, int n, int p)
{
	int q = f->nodes[n].ports[p].peer_node;
	int qp = f->nodes[n].ports[p].peer_port;
	double up = (double)ibu_linkload_get(ll, n, p) / (double)sc->unit;
	double down = (double)ibu_linkload_get(ll, q, qp) / (double)sc->unit;
	double v = up > down ? up : down, w, bend;
	double x1 = l->x[n], y1 = row_y(l, l->row[n]), x2 = l->x[q];
	double y2 = row_y(l, l->row[q]);
	char a[32], b[32], col[16];

	colour(col, sizeof(col), v, sc->ref);
	fmt(a, sizeof(a), up);
	fmt(b, sizeof(b), down);
	w = 0.6 + (sc->max > 0 ? 5.4 * v / sc->max : 0);
	bend = bend_of_cable(f, l, n, p, q);
	if (bend == 0) {
		fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.2f\"><title>",
			x1, y1, x2, y2, col, w);
	} else {
		/* parallel cables and cables inside a row: a curve bent
		 * off the straight line */
		double dx = x2 - x1, dy = y2 - y1;
		double len = sqrt(dx * dx + dy * dy);

		if (len < 1)
			len = 1;
		fprintf(o, "<path d=\"M %.1f %.1f Q %.1f %.1f %.1f %.1f\" fill=\"none\" stroke=\"%s\" stroke-width=\"%.2f\"><title>",
			x1, y1, (x1 + x2) / 2 - dy / len * bend,
			(y1 + y2) / 2 + dx / len * bend, x2, y2, col, w);
	}
	node_label(o, f, ops, topo, n);
	fprintf(o, " port %d -&gt; ", p);
	node_label(o, f, ops, topo, q);
	fprintf(o, " port %d: %s; back: %s</title></%s>\n", qp, a, b,
		bend == 0 ? "line" : "path");
}

/* The name of row r holding switches: a fat tree's level, a mesh's y
 * (switch rows counted from the bottom), or the distance to the end
 * ports. */
static void row_name(FILE *o, const struct ibu_fabric *f,
		     const struct layout *l, int r, int rows)
{
	int k, n, lower = 0;

	if (l->kind == ROWS_LEVELS) {
		fprintf(o, "level %d%s", r, r == 0 ? " (top)" :
			r == rows - 2 ? " (leaves)" : "");
		return;
	}
	for (k = r + 1; k < rows; k++)
		for (n = 0; n < f->num_nodes; n++)
			if (l->row[n] == k &&
			    ibu_node_is_switch(&f->nodes[n])) {
				lower++;
				break;
			}
	if (l->kind == ROWS_MESH)
		fprintf(o, "y = %d", lower);
	else
		fprintf(o, "%d hops up", rows - 1 - r);
}

/* Row names at the left: the end ports' rows, and the switches'. */
static void draw_rows(FILE *o, const struct ibu_fabric *f,
		      const struct layout *l, const struct canvas *cv)
{
	int r, n, sw, ep;

	for (r = 0; r < cv->rows; r++) {
		sw = ep = 0;
		for (n = 0; n < f->num_nodes; n++)
			if (l->row[n] == r) {
				sw += ibu_node_is_switch(&f->nodes[n]);
				ep += !ibu_node_is_switch(&f->nodes[n]);
			}
		if (!sw && !ep)
			continue;
		fprintf(o, "<text x=\"8\" y=\"%.1f\" font-size=\"12\" font-weight=\"bold\">", row_y(l, r) + 4);
		if (!sw)
			fprintf(o, "end ports");
		else
			row_name(o, f, l, r, cv->rows);
		fprintf(o, "</text>\n<text x=\"8\" y=\"%.1f\" font-size=\"10\" fill=\"#444\">%d %s</text>\n",
			row_y(l, r) + 18, sw + ep, sw ? "switches" : "ports");
	}
}

/* Node names: rotated when the row is dense (upward above a switch,
 * downward below an end port), on a white halo over the cables. */
static void draw_names(FILE *o, const struct ibu_fabric *f,
		       const struct layout *l, const struct canvas *cv)
{
	int n;

	fprintf(o, "<g font-size=\"%.1f\" fill=\"#111\" stroke=\"white\" stroke-width=\"2.5\" paint-order=\"stroke\">\n",
		cv->font);
	for (n = 0; n < f->num_nodes; n++) {
		int sw = ibu_node_is_switch(&f->nodes[n]);
		double x = l->x[n], y = row_y(l, l->row[n]);

		if (l->row[n] < 0)
			continue;
		fprintf(o, "<text transform=\"translate(%.1f %.1f) rotate(-90)\" text-anchor=\"%s\" dominant-baseline=\"middle\">",
			x, sw ? y - 9 : y + 8, sw ? "start" : "end");
		esc(o, f->nodes[n].name);
		fprintf(o, "</text>\n");
	}
	fprintf(o, "</g>\n");
}

static void draw_nodes(FILE *o, const struct ibu_fabric *f,
		       const struct ibu_engine_ops *ops, const void *topo,
		       const struct layout *l)
{
	int n;

	fprintf(o, "<g stroke=\"#333\" stroke-width=\"0.8\">\n");
	for (n = 0; n < f->num_nodes; n++) {
		double x = l->x[n], y = row_y(l, l->row[n]);

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
	fprintf(o, "</g>\n");
}

/* Canvas size and every node's x: rows spread over the width. */
static int place(const struct ibu_fabric *f, struct layout *l,
		 struct canvas *cv)
{
	int *count = calloc(l->rows + 1, sizeof(int));
	int *seen = calloc(l->rows + 1, sizeof(int));
	int i, n, widest = 1;
	size_t longest = 4;

	if (!count || !seen) {
		free(count);
		free(seen);
		return IBU_ENOMEM;
	}
	for (n = 0; n < f->num_nodes; n++) {
		if (l->row[n] >= 0 && ++count[l->row[n]] > widest)
			widest = count[l->row[n]];
		if (l->row[n] >= 0 && strlen(f->nodes[n].name) > longest)
			longest = strlen(f->nodes[n].name);
	}
	cv->rows = l->rows;
	cv->left = 110;
	cv->width = cv->left + MARGIN + widest * SPACING;
	if (cv->width < 1000)
		cv->width = 1000;
	cv->font = (cv->width - cv->left - MARGIN) / widest * 0.75;
	cv->font = cv->font > 11 ? 11 : cv->font < 5 ? 5 : cv->font;
	cv->label_px = longest * cv->font * 0.6 + 16;
	l->top = 100 + cv->label_px;
	cv->height = row_y(l, l->rows - 1) + cv->label_px + 20;
	for (i = 0; i < f->num_nodes; i++) {
		n = l->order[i];
		if (l->row[n] < 0)
			continue;
		l->x[n] = cv->left + (seen[l->row[n]]++ + 0.5) *
			  (cv->width - cv->left - MARGIN) / count[l->row[n]];
	}
	free(count);
	free(seen);
	return IBU_OK;
}

static int draw(FILE *o, const struct ibu_fabric *f,
		const struct ibu_engine_ops *ops, const void *topo,
		const struct ibu_linkload *ll, struct scale *sc,
		const char *title, struct layout *l)
{
	struct canvas cv;
	int n, p;
	uint64_t max = 0;

	if (place(f, l, &cv))
		return IBU_ENOMEM;
	for (n = 0; n < f->num_nodes; n++)
		for (p = 1; p <= f->nodes[n].num_ports; p++)
			if (f->nodes[n].ports[p].peer_node >= 0 &&
			    ibu_linkload_get(ll, n, p) > max)
				max = ibu_linkload_get(ll, n, p);
	sc->max = (double)max / (double)sc->unit;
	sc->by_bound = sc->ref > 0;
	if (!sc->by_bound)
		sc->ref = sc->max;
	fprintf(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n",
		cv.width, cv.height, cv.width, cv.height);
	fprintf(o, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	header(o, title, sc);
	draw_rows(o, f, l, &cv);
	fprintf(o, "<g stroke-linecap=\"round\">\n");
	for (n = 0; n < f->num_nodes; n++)
		for (p = 1; p <= f->nodes[n].num_ports; p++) {
			int q = f->nodes[n].ports[p].peer_node;
			int qp = f->nodes[n].ports[p].peer_port;

			if (q < 0 || l->row[n] < 0 || l->row[q] < 0 ||
			    q < n || (q == n && qp < p))
				continue;
			draw_link(o, f, ops, topo, ll, sc, l, n, p);
		}
	fprintf(o, "</g>\n");
	draw_nodes(o, f, ops, topo, l);
	draw_names(o, f, l, &cv);
	fprintf(o, "</svg>\n");
	return IBU_OK;
}

int ibu_load_svg_write(const char *path, const struct ibu_fabric *f,
		       const struct ibu_engine_ops *ops, const void *topo,
		       const struct ibu_linkload *ll, uint64_t unit,
		       double bound, const char *title, struct ibu_err *e)
{
	struct scale sc = { .ref = bound, .unit = unit ? unit : 1 };
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
	if (ops && ops->layout) {
		layout_engine(&l, f, ops, topo);
		l.kind = strstr(ops->topology, "mesh") ? ROWS_MESH : ROWS_LEVELS;
		rc = sort_nodes(&l, f);
	} else {
		l.kind = ROWS_LAYERS;
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
	rc = draw(o, f, ops, topo, ll, &sc, title, &l);
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
