/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Link load: flows per directed link, by following LFTs and MFT floods. */
#include <stdlib.h>
#include <string.h>
#include "linkload.h"

int ibu_linkload_init(struct ibu_linkload *ll, const struct ibu_fabric *f,
		      struct ibu_err *e)
{
	int n, nn = f->num_nodes ? f->num_nodes : 1;

	memset(ll, 0, sizeof(*ll));
	ll->base = malloc(nn * sizeof(*ll->base));
	if (!ll->base)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory (link load)");
	for (n = 0; n < f->num_nodes; n++) {
		ll->base[n] = ll->num_slots;
		ll->num_slots += f->nodes[n].num_ports + 1;
	}
	ll->num_nodes = f->num_nodes;
	ll->load = calloc(ll->num_slots + 1, sizeof(*ll->load));
	if (!ll->load) {
		free(ll->base);
		memset(ll, 0, sizeof(*ll));
		return ibu_err_set(e, IBU_ENOMEM, "out of memory (link load)");
	}
	return IBU_OK;
}

void ibu_linkload_free(struct ibu_linkload *ll)
{
	if (!ll)
		return;
	free(ll->base);
	free(ll->load);
	memset(ll, 0, sizeof(*ll));
}

void ibu_linkload_reset(struct ibu_linkload *ll)
{
	if (ll->load)
		memset(ll->load, 0, (ll->num_slots + 1) * sizeof(*ll->load));
}

void ibu_linkload_port_of(const struct ibu_linkload *ll, int slot, int *node,
			  int *port)
{
	int lo = 0, hi = ll->num_nodes - 1;

	/* base[] is increasing */
	while (lo < hi) {
		int mid = lo + (hi - lo + 1) / 2;

		if (ll->base[mid] <= slot)
			lo = mid;
		else
			hi = mid - 1;
	}
	*node = lo;
	*port = slot - ll->base[lo];
}

void ibu_walk_init(struct ibu_walk *w)
{
	memset(w, 0, sizeof(*w));
	w->end_node = w->end_port = -1;
}

void ibu_walk_free(struct ibu_walk *w)
{
	if (!w)
		return;
	free(w->slot);
	free(w->seen);
	free(w->qnode);
	free(w->qport);
	free(w->qdepth);
	ibu_walk_init(w);
}

static void walk_start(struct ibu_walk *w)
{
	w->num = 0;
	w->max_links = w->max_switches = w->deliveries = 0;
	w->end_node = w->end_port = -1;
	w->status = IBU_WALK_OK;
}

static int walk_push(struct ibu_walk *w, int slot, struct ibu_err *e)
{
	if (w->num == w->cap) {
		int cap = w->cap ? 2 * w->cap : 16;
		int *s = realloc(w->slot, cap * sizeof(*s));

		if (!s)
			return ibu_err_set(e, IBU_ENOMEM,
					   "out of memory (link load walk)");
		w->slot = s;
		w->cap = cap;
	}
	w->slot[w->num++] = slot;
	return IBU_OK;
}

static int check_source(const struct ibu_fabric *f,
			const struct ibu_linkload *ll, int node, int port,
			struct ibu_err *e)
{
	if (node < 0 || node >= f->num_nodes || node >= ll->num_nodes ||
	    port < 0 || port > f->nodes[node].num_ports)
		return ibu_err_set(e, IBU_EINVAL,
				   "walk: source node %d port %d out of range",
				   node, port);
	if (!ibu_node_is_switch(&f->nodes[node]) && port == 0)
		return ibu_err_set(e, IBU_EINVAL,
				   "walk: source '%s' is not a switch: port 0",
				   f->nodes[node].name);
	return IBU_OK;
}

int ibu_walk_ucast(const struct ibu_fabric *f, const struct ibu_linkload *ll,
		   const struct ibu_lft *lft, int node, int port,
		   uint32_t dlid, struct ibu_walk *w, struct ibu_err *e)
{
	int sw, in_switches = 0, rc;

	rc = check_source(f, ll, node, port, e);
	if (rc)
		return rc;
	walk_start(w);
	if (ibu_node_is_switch(&f->nodes[node])) {
		sw = node;
	} else {
		const struct ibu_port *p = &f->nodes[node].ports[port];

		if (p->peer_node < 0) {
			w->status = IBU_WALK_NO_ROUTE;
			return IBU_OK;
		}
		rc = walk_push(w, ibu_linkload_slot(ll, node, port), e);
		if (rc)
			return rc;
		if (!ibu_node_is_switch(&f->nodes[p->peer_node])) {
			/* CA cabled to a CA: it can only reach its peer */
			w->end_node = p->peer_node;
			w->end_port = p->peer_port;
			w->max_links = 1;
			w->deliveries = 1;
			return IBU_OK;
		}
		sw = p->peer_node;
	}
	for (;;) {
		const struct ibu_node *nd = &f->nodes[sw];
		uint8_t out = ibu_lft_get(lft, sw, dlid);
		const struct ibu_port *p;

		if (++in_switches > f->num_nodes) {
			w->status = IBU_WALK_LOOP;
			break;
		}
		if (out == IBU_NO_PATH) {
			w->status = IBU_WALK_NO_ROUTE;
			break;
		}
		if (out == 0) {
			w->end_node = sw;
			w->end_port = 0;
			w->deliveries = 1;
			break;
		}
		if (out > nd->num_ports || nd->ports[out].peer_node < 0) {
			w->status = IBU_WALK_DEAD_PORT;
			break;
		}
		p = &nd->ports[out];
		rc = walk_push(w, ibu_linkload_slot(ll, sw, out), e);
		if (rc)
			return rc;
		if (!ibu_node_is_switch(&f->nodes[p->peer_node])) {
			w->end_node = p->peer_node;
			w->end_port = p->peer_port;
			w->deliveries = 1;
			break;
		}
		sw = p->peer_node;
	}
	if (w->status == IBU_WALK_OK) {
		w->max_links = w->num;
		w->max_switches = in_switches;
	}
	return IBU_OK;
}

static int mcast_scratch(const struct ibu_fabric *f, struct ibu_walk *w,
			 struct ibu_err *e)
{
	int nn = f->num_nodes ? f->num_nodes : 1;

	if (w->scratch_nodes == nn)
		return IBU_OK;
	free(w->seen);
	free(w->qnode);
	free(w->qport);
	free(w->qdepth);
	w->seen = calloc(nn, sizeof(*w->seen));
	w->qnode = malloc(nn * sizeof(*w->qnode));
	w->qport = malloc(nn * sizeof(*w->qport));
	w->qdepth = malloc(nn * sizeof(*w->qdepth));
	w->stamp = 0;
	if (!w->seen || !w->qnode || !w->qport || !w->qdepth) {
		free(w->seen);
		free(w->qnode);
		free(w->qport);
		free(w->qdepth);
		w->seen = NULL;
		w->qnode = w->qport = w->qdepth = NULL;
		w->scratch_nodes = 0;
		return ibu_err_set(e, IBU_ENOMEM,
				   "out of memory (multicast walk)");
	}
	w->scratch_nodes = nn;
	return IBU_OK;
}

/* A copy reached a receiver depth links from the sender through
 * switches switches. */
static void delivered(struct ibu_walk *w, int links, int switches)
{
	w->deliveries++;
	if (links > w->max_links ||
	    (links == w->max_links && switches > w->max_switches)) {
		w->max_links = links;
		w->max_switches = switches;
	}
}

/* The multicast walk's first queue entry (queue entries: a switch, the
 * port a copy came in on, links so far) at *tail: 0 to go on, 1 when the
 * walk has ended already (no cable, a CA cabled to a CA), < 0 an error. */
static int mcast_seed(const struct ibu_fabric *f,
		      const struct ibu_linkload *ll, int node, int port,
		      struct ibu_walk *w, int *tail, struct ibu_err *e)
{
	const struct ibu_port *p = &f->nodes[node].ports[port];
	int rc;

	if (ibu_node_is_switch(&f->nodes[node])) {
		w->seen[node] = w->stamp;
		w->qnode[*tail] = node;
		w->qport[*tail] = 0;
		w->qdepth[(*tail)++] = 0;
		return 0;
	}
	if (p->peer_node < 0) {
		w->status = IBU_WALK_NO_ROUTE;
		return 1;
	}
	rc = walk_push(w, ibu_linkload_slot(ll, node, port), e);
	if (rc)
		return rc;
	if (!ibu_node_is_switch(&f->nodes[p->peer_node])) {
		delivered(w, 1, 0);
		return 1;
	}
	w->seen[p->peer_node] = w->stamp;
	w->qnode[*tail] = p->peer_node;
	w->qport[*tail] = p->peer_port;
	w->qdepth[(*tail)++] = 1;
	return 0;
}

int ibu_walk_mcast(const struct ibu_fabric *f, const struct ibu_linkload *ll,
		   const struct ibu_portmask *mask, int node, int port,
		   struct ibu_walk *w, struct ibu_err *e)
{
	int head = 0, tail = 0, rc;

	rc = check_source(f, ll, node, port, e);
	if (!rc)
		rc = mcast_scratch(f, w, e);
	if (rc)
		return rc;
	walk_start(w);
	if (++w->stamp == 0) {
		memset(w->seen, 0, w->scratch_nodes * sizeof(*w->seen));
		w->stamp = 1;
	}
	rc = mcast_seed(f, ll, node, port, w, &tail, e);
	if (rc)
		return rc < 0 ? rc : IBU_OK;
	while (head < tail) {
		int n = w->qnode[head], in = w->qport[head];
		int d = w->qdepth[head++], q;
		const struct ibu_node *nd = &f->nodes[n];
		const struct ibu_portmask *m = &mask[n];

		/* d links so far: from a CA sender this is switch number d
		 * on the path, from a switch sender number d + 1 */
		int sw = ibu_node_is_switch(&f->nodes[node]) ? d + 1 : d;

		if (ibu_pm_empty(m))
			continue;
		for (q = 0; q <= nd->num_ports; q++) {
			const struct ibu_port *p;

			if (q == in || !ibu_pm_test(m, q))
				continue;
			if (q == 0) {
				if (n != node)
					delivered(w, d, sw);
				continue;
			}
			p = &nd->ports[q];
			if (p->peer_node < 0) {
				w->status = IBU_WALK_DEAD_PORT;
				continue;
			}
			rc = walk_push(w, ibu_linkload_slot(ll, n, q), e);
			if (rc)
				return rc;
			if (!ibu_node_is_switch(&f->nodes[p->peer_node])) {
				delivered(w, d + 1, sw);
			} else if (w->seen[p->peer_node] == w->stamp) {
				w->status = IBU_WALK_LOOP;
			} else {
				w->seen[p->peer_node] = w->stamp;
				w->qnode[tail] = p->peer_node;
				w->qport[tail] = p->peer_port;
				w->qdepth[tail++] = d + 1;
			}
		}
	}
	return IBU_OK;
}

void ibu_linkload_add_walk(struct ibu_linkload *ll, const struct ibu_walk *w,
			   uint64_t weight)
{
	int i;

	for (i = 0; i < w->num; i++)
		ll->load[w->slot[i]] += weight;
}

void ibu_linkload_add_cable(struct ibu_linkload *ll,
			    const struct ibu_fabric *f, int node, int port,
			    uint64_t weight)
{
	const struct ibu_port *p = &f->nodes[node].ports[port];
	int a = ibu_linkload_slot(ll, node, port);

	ll->load[a] += weight;
	if (p->peer_node >= 0) {
		int b = ibu_linkload_slot(ll, p->peer_node, p->peer_port);

		if (b != a)
			ll->load[b] += weight;
	}
}

uint64_t ibu_linkload_walk_max(const struct ibu_linkload *ll,
			       const struct ibu_walk *w)
{
	uint64_t m = 0;
	int i;

	for (i = 0; i < w->num; i++)
		if (ll->load[w->slot[i]] > m)
			m = ll->load[w->slot[i]];
	return m;
}

int ibu_link_is_switch_link(const struct ibu_fabric *f, int node, int port)
{
	const struct ibu_node *nd = &f->nodes[node];
	int peer;

	if (port < 1 || port > nd->num_ports)
		return 0;
	peer = nd->ports[port].peer_node;
	return peer >= 0 && ibu_node_is_switch(nd) &&
	       ibu_node_is_switch(&f->nodes[peer]);
}

static void take_max(uint64_t v, int n, int p, uint64_t *max, int *mn, int *mp)
{
	if (v > *max) {
		*max = v;
		*mn = n;
		*mp = p;
	}
}

void ibu_linkload_stats(const struct ibu_linkload *ll,
			const struct ibu_fabric *f,
			struct ibu_linkload_stats *st)
{
	int n, p;

	memset(st, 0, sizeof(*st));
	st->max_any_node = st->max_sw_node = st->max_hca_node = -1;
	st->max_any_port = st->max_sw_port = st->max_hca_port = -1;
	for (n = 0; n < f->num_nodes && n < ll->num_nodes; n++) {
		const struct ibu_node *nd = &f->nodes[n];

		for (p = 1; p <= nd->num_ports; p++) {
			const struct ibu_port *pt = &nd->ports[p];
			uint64_t v = ll->load[ll->base[n] + p];
			int sw_link, first;

			if (pt->peer_node < 0)
				continue;
			sw_link = ibu_link_is_switch_link(f, n, p);
			/* each cable once: from its lower (node, port) end */
			first = n < pt->peer_node ||
				(n == pt->peer_node && p <= pt->peer_port);
			st->total += v;
			take_max(v, n, p, &st->max_any, &st->max_any_node,
				 &st->max_any_port);
			if (sw_link) {
				take_max(v, n, p, &st->max_sw, &st->max_sw_node,
					 &st->max_sw_port);
				if (first) {
					uint64_t back = ll->load[ll->base[pt->peer_node] +
								 pt->peer_port];

					st->sw_cables++;
					st->sw_cables_used += v || back;
				}
			} else {
				take_max(v, n, p, &st->max_hca,
					 &st->max_hca_node, &st->max_hca_port);
				st->hca_cables += first;
			}
		}
	}
}
