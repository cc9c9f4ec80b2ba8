/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Fault-aware balance on a damaged PGFT: the compute hosts' LIDs.
 *
 * Each LID (host D, offset o) is routed as an in-tree toward D's leaf t
 * over the minimal up*|down* ways that survive (ud, pgft_route.c): a
 * switch above t goes down one of the cables to its child toward t, any
 * other switch up to a parent one hop closer. Where the generalised rule's
 * own choices survive on every switch that D's traffic crosses, the LID
 * keeps the rule exactly (intact parts of the tree keep D-mod-K and their
 * shift permutations). Where they do not (a lost up-slot, a parent cut
 * off from t, or a lost cable of the parallel group the rule's cable digit
 * names), the rule would pile the lost way's share onto one survivor, and
 * every source switch onto the same one. Such LIDs are routed after the
 * others, greedily against the flows already placed (an all-to-all of
 * the compute hosts, per offset): source leaves walk toward t one after
 * another, each undecided switch on the walk takes the way whose link
 * load plus onward cost is least (ties: the rule's way, then the next
 * ones), and the walk's flows are added at once. So the sources of one
 * destination spread over the surviving spines and cables in proportion
 * to what is left (LFTs are per switch: different source switches may
 * take different ways to one destination), on the way up and on the
 * destination's side. Deterministic and canonical: leaves in host order,
 * ways in slot and port order.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "pgft_router.h"

struct bal {
	struct router *r;
	long *load;		/* [pbase + port]: flows of this offset's pass */
	size_t nslots;
	long *cost;		/* [node]: onward busiest link to t, least */
	long *csum;		/* [node]: onward load sum on that way */
	long *w;		/* [node]: flows through it toward D */
	int *dec;		/* [node]: port toward D, 0: undecided */
	int *cable;		/* [node]: slot of the cable down toward t, -1 */
	int *order;		/* switches with a way to t, by ud ascending */
	int norder;
	int cut_leaves;		/* leaves with no up*|down* way to t */
	int cut_above;		/* switches above the leaves with none */
	int *plain;		/* [node]: plain hops to t, when cut_above */
	int plain_leaf;		/* the t of plain, -1 */
	int *path;		/* a walk's switches */
	int *leaves;		/* leaves with compute hosts, by first host */
	int nleaves;
	int *nhost;		/* [node]: compute hosts on the leaf */
	int *by_leaf;		/* hosts grouped by leaf, D ascending */
	int *leaf_start;	/* [leaf index]: first in by_leaf; nleaves + 1 */
	unsigned char *damaged;	/* [D]: routed greedily in this pass */
	long x[IBU_PGFT_MAX_H + 1];	/* ibu_pgft_digits of D */
	int o;			/* the offset of this pass */
};

static int is_closure(const struct bal *b, int s)
{
	return b->cable[s] >= 0;
}

static int peer(const struct bal *b, int s, int port)
{
	return b->r->f->nodes[s].ports[port].peer_node;
}

/* The up-slot the rule names at switch s of level l for (D, o). */
static int rule_slot(const struct bal *b, int l)
{
	const struct router *r = b->r;
	int U = r->U[l], k;

	k = (int)(b->x[l] % U);
	if (l <= r->levels)
		k += (int)((b->o / r->R[l]) % U);
	return k % U;
}

/* The rule's cable index in the parallel group down from closure switch
 * q (level l) toward t: the cable digit of D's climb into level l. */
static int rule_cable(const struct bal *b, int l)
{
	return (int)(b->x[l - 1] % b->r->g->P.p[l]);
}

/*
 * Switch s's ways toward t, the rule's first: n ways, way i's port in
 * ports[i]. Returns 1 when the rule's own way is among them.
 */
static int ways(const struct bal *b, int s, int *ports, int *n)
{
	const struct router *r = b->r;
	int l = r->g->level[s], i, k0, k, port, rule_ok;

	*n = 0;
	if (is_closure(b, s)) {
		int c = b->cable[s], len = r->glen[c];
		const int *grp = &r->gports[r->gstart[c]];

		k0 = rule_cable(b, l);
		rule_ok = k0 < len;
		for (i = 0; i < len; i++)
			ports[(*n)++] = grp[(k0 + i) % len];
		return rule_ok;
	}
	if (!r->U[l] || r->ud[s] == INT_MAX)
		return 0;
	k0 = rule_slot(b, l);
	rule_ok = 0;
	for (i = 0; i < r->U[l]; i++) {
		k = (k0 + i) % r->U[l];
		port = r->g->up[s][k];
		if (!port || r->ud[peer(b, s, port)] != r->ud[s] - 1)
			continue;
		if (!i)
			rule_ok = 1;
		ports[(*n)++] = port;
	}
	return rule_ok;
}

/* The cost of leaving s on port: the busiest link of the way on (this
 * link or beyond), then the sum of the loads along it. */
static void way_cost(const struct bal *b, int s, int port, long *max,
		     long *sum)
{
	long l = b->load[b->r->pbase[s] + port];
	int q = peer(b, s, port);

	*max = l > b->cost[q] ? l : b->cost[q];
	*sum = l + b->csum[q];
}

/* The way of s with the least busiest link, then the least load sum; ties
 * to the earliest (the rule's, then the next ones). 0: none. */
static int cheapest(const struct bal *b, int s)
{
	int ports[IBU_MAX_PORTS], n, i, best = 0;
	long m, sm, bm = LONG_MAX, bs = LONG_MAX;

	ways(b, s, ports, &n);
	for (i = 0; i < n; i++) {
		way_cost(b, s, ports[i], &m, &sm);
		if (m < bm || (m == bm && sm < bs)) {
			bm = m;
			bs = sm;
			best = ports[i];
		}
	}
	return best;
}

/* s's onward cost on its decided (or cheapest) way. */
static void set_cost(struct bal *b, int s, int port)
{
	if (!port) {
		b->cost[s] = b->csum[s] = LONG_MAX / 4;
		return;
	}
	way_cost(b, s, port, &b->cost[s], &b->csum[s]);
}

/* t's closure, up*|down* hops, and the switches that reach t by hops. */
static void prepare_leaf(struct bal *b, int t)
{
	struct router *r = b->r;
	int i, d, l, s, maxd = 0;

	ibu__pgft_leaf_closure(r, t);
	ibu__pgft_updown_dist(r, t);
	for (l = 1; l <= r->g->P.h; l++)
		for (i = 0; i < r->nlevel[l]; i++)
			b->cable[r->by_level[l][i]] = -1;
	for (i = 0; i < r->nclos; i++)
		b->cable[r->clos_q[i]] = r->clos_c[i];
	for (l = 1; l <= r->g->P.h; l++)
		for (i = 0; i < r->nlevel[l]; i++) {
			s = r->by_level[l][i];
			if (r->ud[s] != INT_MAX && r->ud[s] > maxd)
				maxd = r->ud[s];
		}
	b->norder = 0;
	b->cut_leaves = b->cut_above = 0;
	for (l = 1; l <= r->g->P.h; l++)
		for (i = 0; i < r->nlevel[l]; i++)
			if (r->ud[r->by_level[l][i]] == INT_MAX) {
				b->cut_leaves += l == 1;
				b->cut_above += l > 1;
			}
	for (d = 0; d <= maxd; d++)
		for (l = 1; l <= r->g->P.h; l++)
			for (i = 0; i < r->nlevel[l]; i++) {
				s = r->by_level[l][i];
				if (r->ud[s] == d)
					b->order[b->norder++] = s;
			}
}

/* Host D's LID at this pass's offset, 0 when it has none. */
static uint32_t host_lid(const struct bal *b, int D)
{
	const struct ibu_pgft_host *h = &b->r->g->host[D];
	const struct ibu_port *p = &b->r->f->nodes[h->node].ports[h->port];
	uint32_t lid = p->lid + (uint32_t)b->o;

	if (!p->lid || b->o >= (1 << p->lmc) || lid > b->r->lft->max_lid)
		return 0;
	return lid;
}

static void start_lid(struct bal *b, int D, int t)
{
	const struct ibu_pgft_host *h = &b->r->g->host[D];
	int i;

	ibu_pgft_digits(b->r->g, D, b->x);
	for (i = 0; i < b->norder; i++)
		b->dec[b->order[i]] = 0;
	b->dec[t] = b->r->f->nodes[h->node].ports[h->port].peer_port;
}

/*
 * Switches above the leaves that no up*|down* way leaves toward t: no
 * end port's route crosses them, so a plain shortest path serves their
 * own packets (traps, replies to the SM) without a credit-loop risk to
 * anyone's traffic; not when hosts sit above the leaves (their routes
 * could turn there).
 */
static void route_cut_above(struct bal *b, int t, uint32_t lid)
{
	struct router *r = b->r;
	int l, i, s;

	if (!b->cut_above || r->g->num_spine_hosts)
		return;
	if (b->plain_leaf != t) {
		ibu__pgft_plain_dist(r, t, b->plain);
		b->plain_leaf = t;
	}
	for (l = 2; l <= r->g->P.h; l++)
		for (i = 0; i < r->nlevel[l]; i++) {
			s = r->by_level[l][i];
			if (r->ud[s] != INT_MAX || b->plain[s] == INT_MAX)
				continue;
			r->lft->row[s][lid] = (uint8_t)ibu__pgft_pick_plain(
				r, s, b->plain, b->plain[s] - 1, lid);
			r->st.outside++;
		}
}

/* Writes the LID's in-tree; flows of w added to the loads. */
static void commit(struct bal *b, uint32_t lid)
{
	struct router *r = b->r;
	int i, s;

	for (i = 0; i < b->norder; i++) {
		s = b->order[i];
		r->lft->row[s][lid] = b->dec[s] ? (uint8_t)b->dec[s] :
				       IBU_NO_PATH;
		if (i && b->dec[s])
			b->load[r->pbase[s] + b->dec[s]] += b->w[s];
	}
}

/*
 * The rule's in-tree for (D, this offset): 1 when every switch that D's
 * traffic crosses can take the rule's way (b->w then holds the flows;
 * switches no flow crosses take their cheapest way), 0 when one cannot.
 */
static int rule_tree(struct bal *b, int t)
{
	int ports[IBU_MAX_PORTS], n, i, s, ok;

	for (i = 1; i < b->norder; i++) {
		s = b->order[i];
		ok = ways(b, s, ports, &n);
		b->dec[s] = ok ? ports[0] : 0;
		b->w[s] = s != t ? b->nhost[s] : 0;
	}
	b->w[t] = 0;
	for (i = b->norder - 1; i > 0; i--) {
		s = b->order[i];
		if (!b->w[s])
			continue;
		if (!b->dec[s])
			return 0;
		b->w[peer(b, s, b->dec[s])] += b->w[s];
	}
	for (i = 1; i < b->norder; i++)
		if (!b->dec[b->order[i]]) {
			b->dec[b->order[i]] = cheapest(b, b->order[i]);
			b->r->st.rerouted++;
		}
	return 1;
}

/* Least onward costs toward t over the current loads. */
static void costs(struct bal *b)
{
	int i, s;

	b->cost[b->order[0]] = b->csum[b->order[0]] = 0;
	for (i = 1; i < b->norder; i++) {
		s = b->order[i];
		set_cost(b, s, cheapest(b, s));
	}
}

/* Source leaf s's flows (wt) toward t: the decided ways where a switch
 * has one, else its cheapest now; then the walk's costs again. */
static void walk(struct bal *b, int s, int t, long wt)
{
	int n = 0, u = s, i, slot;

	while (u != t && n < b->norder) {
		if (!b->dec[u])
			b->dec[u] = cheapest(b, u);
		if (!b->dec[u])
			break;
		slot = b->r->pbase[u] + b->dec[u];
		b->load[slot] += wt;
		b->w[u] += wt;
		b->path[n++] = u;
		u = peer(b, u, b->dec[u]);
	}
	for (i = n - 1; i >= 0; i--)
		set_cost(b, b->path[i], b->dec[b->path[i]]);
}

/* A damaged LID of D: the source leaves, from a start that turns with D,
 * walk in; switches no walk crossed take their cheapest way. */
static void greedy_tree(struct bal *b, int D, int t, uint32_t lid)
{
	struct router *r = b->r;
	int i, s;

	costs(b);
	for (i = 0; i < b->norder; i++)
		b->w[b->order[i]] = 0;
	for (i = 0; i < b->nleaves; i++) {
		s = b->leaves[(i + D) % b->nleaves];
		if (s != t && r->ud[s] != INT_MAX)
			walk(b, s, t, b->nhost[s]);
	}
	for (i = 1; i < b->norder; i++)
		if (!b->dec[b->order[i]])
			b->dec[b->order[i]] = cheapest(b, b->order[i]);
	for (i = 1; i < b->norder; i++) {
		int ports[IBU_MAX_PORTS], n;

		s = b->order[i];
		r->lft->row[s][lid] = b->dec[s] ? (uint8_t)b->dec[s] :
				       IBU_NO_PATH;
		if (!ways(b, s, ports, &n) || ports[0] != b->dec[s])
			r->st.rerouted++;
	}
	r->lft->row[t][lid] = (uint8_t)b->dec[t];
	r->st.balanced++;
}

/* One offset: the LIDs the rule keeps, then the damaged ones. */
static void pass(struct bal *b)
{
	int li, j, D, t, any;
	uint32_t lid;

	memset(b->load, 0, sizeof(long) * b->nslots);
	memset(b->damaged, 0, (size_t)b->r->g->num_hosts);
	for (li = 0; li < b->nleaves; li++) {
		t = b->leaves[li];
		prepare_leaf(b, t);
		for (j = b->leaf_start[li]; j < b->leaf_start[li + 1]; j++) {
			D = b->by_leaf[j];
			lid = host_lid(b, D);
			if (!lid)
				continue;
			b->r->st.unrouted += b->cut_leaves;
			start_lid(b, D, t);
			route_cut_above(b, t, lid);
			if (rule_tree(b, t))
				commit(b, lid);
			else
				b->damaged[D] = 1;
		}
	}
	for (li = 0; li < b->nleaves; li++) {
		t = b->leaves[li];
		for (any = 0, j = b->leaf_start[li]; j < b->leaf_start[li + 1]; j++)
			any |= b->damaged[b->by_leaf[j]];
		if (!any)
			continue;
		prepare_leaf(b, t);
		for (j = b->leaf_start[li]; j < b->leaf_start[li + 1]; j++) {
			D = b->by_leaf[j];
			if (!b->damaged[D])
				continue;
			start_lid(b, D, t);
			greedy_tree(b, D, t, host_lid(b, D));
		}
	}
}

/* Leaves by their first host, and each leaf's hosts in D order. */
static void index_leaves(struct bal *b)
{
	const struct ibu_pgft *g = b->r->g;
	int *slot = b->path;	/* scratch: [node] leaf index + 1 */
	int D, li, n = b->r->f->num_nodes;

	memset(slot, 0, sizeof(int) * (size_t)(n ? n : 1));
	for (D = 0; D < g->num_hosts; D++) {
		int leaf = g->host[D].leaf;

		if (!slot[leaf]) {
			b->leaves[b->nleaves] = leaf;
			slot[leaf] = ++b->nleaves;
		}
		b->nhost[leaf]++;
	}
	b->leaf_start[0] = 0;
	for (li = 0; li < b->nleaves; li++)
		b->leaf_start[li + 1] = b->leaf_start[li] + b->nhost[b->leaves[li]];
	for (li = 0; li < b->nleaves; li++)
		b->nhost[b->leaves[li]] = 0;	/* refilled as the fill cursor */
	for (D = 0; D < g->num_hosts; D++) {
		int leaf = g->host[D].leaf;

		li = slot[leaf] - 1;
		b->by_leaf[b->leaf_start[li] + b->nhost[leaf]++] = D;
	}
}

static void bal_free(struct bal *b)
{
	free(b->load);
	free(b->cost);
	free(b->csum);
	free(b->w);
	free(b->dec);
	free(b->cable);
	free(b->order);
	free(b->path);
	free(b->leaves);
	free(b->nhost);
	free(b->by_leaf);
	free(b->leaf_start);
	free(b->damaged);
}

static int bal_init(struct bal *b, struct router *r, struct ibu_err *e)
{
	size_t n = (size_t)(r->f->num_nodes ? r->f->num_nodes : 1);
	size_t hosts = (size_t)(r->g->num_hosts ? r->g->num_hosts : 1);

	int i;

	memset(b, 0, sizeof(*b));
	b->r = r;
	for (i = 0; i < r->f->num_nodes; i++)
		b->nslots += (size_t)r->f->nodes[i].num_ports + 1;
	b->load = calloc(b->nslots + 1, sizeof(long));
	b->cost = calloc(n, sizeof(long));
	b->csum = calloc(n, sizeof(long));
	b->w = calloc(n, sizeof(long));
	b->dec = calloc(n, sizeof(int));
	b->cable = malloc(n * sizeof(int));
	b->order = calloc(n, sizeof(int));
	b->path = calloc(n, sizeof(int));
	b->leaves = calloc(n, sizeof(int));
	b->nhost = calloc(n, sizeof(int));
	b->by_leaf = calloc(hosts, sizeof(int));
	b->leaf_start = calloc(n + 1, sizeof(int));
	b->damaged = calloc(hosts, 1);
	if (!b->load || !b->cost || !b->csum || !b->w || !b->dec || !b->cable ||
	    !b->order || !b->path || !b->leaves || !b->nhost || !b->by_leaf ||
	    !b->leaf_start || !b->damaged) {
		bal_free(b);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	memset(b->cable, 0xff, n * sizeof(int));
	index_leaves(b);
	return IBU_OK;
}

int ibu__pgft_balance(struct router *r, int *plain, struct ibu_err *e)
{
	struct bal b;
	int D, offsets = 1, rc;

	rc = bal_init(&b, r, e);
	if (rc)
		return rc;
	b.plain = plain;
	b.plain_leaf = -1;
	for (D = 0; D < r->g->num_hosts; D++) {
		const struct ibu_pgft_host *h = &r->g->host[D];
		int lmc = r->f->nodes[h->node].ports[h->port].lmc;

		if ((1 << lmc) > offsets)
			offsets = 1 << lmc;
	}
	for (b.o = 0; b.o < offsets; b.o++)
		pass(&b);
	bal_free(&b);
	return IBU_OK;
}
