/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Traffic patterns, DLID choice, and their link load on a fabric's tables. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "num.h"
#include "rails.h"
#include "traffic.h"
#include "cuts.h"

/* ------------------------------------------------------------ end ports */

struct ep_key {
	int node, port;
	int pid;		/* the engine's index, -1 outside */
	uint64_t guid;
};

static int ep_cmp(const void *a, const void *b)
{
	const struct ep_key *x = a, *y = b;

	if ((x->pid < 0) != (y->pid < 0))
		return x->pid < 0 ? 1 : -1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return x->port - y->port;
}

int ibu_endports_build(const struct ibu_fabric *f, ibu_endport_index_fn index,
		       const void *ctx, struct ibu_endports *ep,
		       struct ibu_err *e)
{
	struct ep_key *k;
	int n, p, num = 0, i, in_tree = 0;

	memset(ep, 0, sizeof(*ep));
	for (n = 0; n < f->num_nodes; n++) {
		const struct ibu_node *nd = &f->nodes[n];

		if (ibu_node_is_switch(nd))
			continue;
		for (p = 1; p <= nd->num_ports; p++)
			num += nd->ports[p].peer_node >= 0;
	}
	k = malloc((num ? num : 1) * sizeof(*k));
	ep->node = malloc((num ? num : 1) * sizeof(*ep->node));
	ep->port = malloc((num ? num : 1) * sizeof(*ep->port));
	if (!k || !ep->node || !ep->port) {
		free(k);
		ibu_endports_free(ep);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory (end ports)");
	}
	num = 0;
	for (n = 0; n < f->num_nodes; n++) {
		const struct ibu_node *nd = &f->nodes[n];

		if (ibu_node_is_switch(nd))
			continue;
		for (p = 1; p <= nd->num_ports; p++) {
			if (nd->ports[p].peer_node < 0)
				continue;
			k[num].node = n;
			k[num].port = p;
			k[num].guid = nd->ports[p].guid;
			k[num].pid = index ? index(ctx, n, p) : -1;
			in_tree += k[num].pid >= 0;
			num++;
		}
	}
	qsort(k, num, sizeof(*k), ep_cmp);
	for (i = 0; i < num; i++) {
		ep->node[i] = k[i].node;
		ep->port[i] = k[i].port;
	}
	ep->num = num;
	ep->by_engine = index && in_tree > 0;
	free(k);
	return IBU_OK;
}

void ibu_endports_free(struct ibu_endports *ep)
{
	if (!ep)
		return;
	free(ep->node);
	free(ep->port);
	memset(ep, 0, sizeof(*ep));
}

int ibu_endports_find(const struct ibu_endports *ep, int node, int port)
{
	int i;

	for (i = 0; i < ep->num; i++)
		if (ep->node[i] == node && ep->port[i] == port)
			return i;
	return -1;
}

/* ------------------------------------------------------------ names */

static const char *const dlid_names[] = { "base", "pairs", "cyclic" };

int ibu_dlid_mode_parse(const char *s, enum ibu_dlid_mode *m)
{
	int i;

	for (i = 0; i < 3; i++)
		if (!strcmp(s, dlid_names[i])) {
			*m = (enum ibu_dlid_mode)i;
			return IBU_OK;
		}
	return IBU_EINVAL;
}

const char *ibu_dlid_mode_name(enum ibu_dlid_mode m)
{
	return (unsigned)m < 3 ? dlid_names[m] : "?";
}

/* "1" -> count 1; "40%" -> percent 40. */
static int parse_amount(const char *s, int *count, int *pct)
{
	const char *end;
	int v;

	if (ibu_num_int(s, IBU_NUM_DEC, 1, 1000000, &v, &end))
		return -1;
	if (*end == '%' && !end[1]) {
		if (v > 100)
			return -1;
		*pct = v;
		*count = 0;
		return 0;
	}
	if (*end)
		return -1;
	*count = v;
	*pct = 0;
	return 0;
}

int ibu_pattern_parse(const char *s, struct ibu_pattern *p,
		      struct ibu_err *e)
{
	char buf[64], *a, *b;
	int cnt, pct;

	memset(p, 0, sizeof(*p));
	if (strlen(s) >= sizeof(buf))
		goto bad;
	strcpy(buf, s);
	if (!strcmp(s, "all-to-all")) {
		p->kind = IBU_PAT_ALL_TO_ALL;
	} else if (!strcmp(s, "shift")) {
		p->kind = IBU_PAT_SHIFT;
	} else if (!strncmp(s, "shift:", 6)) {
		int k;

		if (ibu_num_int(s + 6, IBU_NUM_DEC, 1, 1000000, &k, NULL))
			goto bad;
		p->kind = IBU_PAT_SHIFT;
		p->k = k;
	} else if (!strcmp(s, "rail-shift") || !strncmp(s, "rail-shift:", 11)) {
		p->kind = IBU_PAT_RAIL_SHIFT;
		p->rail = -1;
		if (s[10] && ibu_num_int(s + 11, IBU_NUM_DEC, 1, 1000000,
					 &p->k, NULL))
			goto bad;
	} else if (!strncmp(s, "rail:", 5)) {
		p->kind = IBU_PAT_RAIL_SHIFT;
		a = buf + 5;
		b = strchr(a, ':');
		if (b)
			*b++ = 0;
		if (ibu_num_int(a, IBU_NUM_DEC, 0, 1000, &p->rail, NULL) ||
		    (b && ibu_num_int(b, IBU_NUM_DEC, 1, 1000000, &p->k, NULL)))
			goto bad;
	} else if (!strcmp(s, "random") || !strncmp(s, "random:", 7)) {
		p->kind = IBU_PAT_RANDOM;
		p->k = 1;
		if (s[6] && ibu_num_int(s + 7, IBU_NUM_DEC, 1, 100000, &p->k,
					NULL))
			goto bad;
	} else if (!strcmp(s, "ebb") || !strncmp(s, "ebb:", 4)) {
		p->kind = IBU_PAT_BISECT;
		p->k = IBU_EBB_SAMPLES;
		if (s[3] && ibu_num_int(s + 4, IBU_NUM_DEC, 1, 100000, &p->k,
					NULL))
			goto bad;
	} else if (!strcmp(s, "groups")) {
		p->kind = IBU_PAT_GROUPS;
	} else if (!strcmp(s, "groups-ucast")) {
		p->kind = IBU_PAT_GROUPS_UCAST;
	} else if (!strncmp(s, "mcast:", 6) || !strncmp(s, "ucast:", 6)) {
		p->kind = s[0] == 'm' ? IBU_PAT_MCAST : IBU_PAT_MCAST_UCAST;
		a = buf + 6;
		b = strchr(a, ':');
		if (!b)
			goto bad;
		*b++ = 0;
		if (parse_amount(a, &p->sources, &p->sources_pct) ||
		    parse_amount(b, &cnt, &pct) || !pct)
			goto bad;
		p->group_pct = pct;
	} else {
		goto bad;
	}
	snprintf(p->name, sizeof(p->name), "%s", s);
	return IBU_OK;
bad:
	return ibu_err_set(e, IBU_EINVAL,
			   "bad pattern '%s' (all-to-all, shift, shift:K, rail-shift, rail-shift:K, rail:R, rail:R:K, random, random:K, ebb, ebb:K, mcast:S:G%%, ucast:S:G%%, groups, groups-ucast)",
			   s);
}

int ibu_pattern_is_mcast(const struct ibu_pattern *p)
{
	return p->kind == IBU_PAT_MCAST || p->kind == IBU_PAT_GROUPS;
}

/* ------------------------------------------------------------ randomness */

/* splitmix64: a small seeded generator, state on the caller's stack. */
static uint64_t rnd_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int rnd_below(uint64_t *s, int n)
{
	return (int)(rnd_next(s) % (uint64_t)n);
}

/* First k entries of a seeded shuffle of 0..n-1 into out[0..n-1]. */
static void shuffle(uint64_t *s, int *out, int n, int k)
{
	int i;

	for (i = 0; i < n; i++)
		out[i] = i;
	for (i = 0; i < k && i < n - 1; i++) {
		int j = i + rnd_below(s, n - i), x = out[i];

		out[i] = out[j];
		out[j] = x;
	}
}

/* ------------------------------------------------------------ multicast */

void ibu_mflows_free(struct ibu_mflows *s)
{
	if (!s)
		return;
	free(s->f);
	memset(s, 0, sizeof(*s));
}

static int mflow_add(struct ibu_mflows *s, uint16_t mlid, int node, int port,
		     struct ibu_err *e)
{
	if (s->num == s->cap) {
		int cap = s->cap ? 2 * s->cap : 16;
		struct ibu_mflow *f = realloc(s->f, cap * sizeof(*f));

		if (!f)
			return ibu_err_set(e, IBU_ENOMEM,
					   "out of memory (multicast senders)");
		s->f = f;
		s->cap = cap;
	}
	s->f[s->num].mlid = mlid;
	s->f[s->num].node = node;
	s->f[s->num++].port = port;
	return IBU_OK;
}

static int amount(int count, int pct, int n)
{
	int v = pct ? (int)((long)pct * n / 100 + ((long)pct * n % 100 >= 50))
		    : count;

	if (v < 1)
		v = 1;
	return v > n ? n : v;
}

int ibu_traffic_mcast_case(const struct ibu_endports *ep,
			   const struct ibu_pattern *p, uint64_t seed,
			   uint16_t mlid_base, struct ibu_mcmembers *mm,
			   struct ibu_mflows *senders, struct ibu_err *e)
{
	int n = ep->num, g, s, i, j, rc = IBU_OK;
	int *grp = NULL, *src = NULL;
	char *in_grp = NULL;
	uint64_t rs = seed * 2 + 1, ss = ~seed * 2;

	if (p->kind != IBU_PAT_MCAST && p->kind != IBU_PAT_MCAST_UCAST)
		return ibu_err_set(e, IBU_EINVAL, "%s is not a multicast case",
				   p->name);
	if (n < 1)
		return ibu_err_set(e, IBU_EINVAL, "no end ports");
	g = amount(0, p->group_pct, n);
	s = amount(p->sources, p->sources_pct, n);
	if ((long)mlid_base + s - 1 > IBU_MAX_MLID || mlid_base < IBU_MCAST_LID_BASE)
		return ibu_err_set(e, IBU_EINVAL,
				   "%d sources do not fit MLIDs from 0x%04x", s,
				   mlid_base);
	grp = malloc(n * sizeof(*grp));
	src = malloc(n * sizeof(*src));
	in_grp = calloc(n, 1);
	if (!grp || !src || !in_grp) {
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory (multicast case)");
		goto out;
	}
	shuffle(&rs, grp, n, g);
	shuffle(&ss, src, n, s);
	for (i = 0; i < g; i++)
		in_grp[grp[i]] = 1;
	for (j = 0; j < s; j++) {
		uint16_t mlid = (uint16_t)(mlid_base + j);
		struct ibu_mcast_member m;

		for (i = 0; i < g; i++) {
			m.node = ep->node[grp[i]];
			m.port = ep->port[grp[i]];
			m.send_only = 0;
			rc = ibu_mcmembers_add(mm, mlid, &m, e);
			if (rc)
				goto out;
		}
		m.node = ep->node[src[j]];
		m.port = ep->port[src[j]];
		m.send_only = !in_grp[src[j]];
		rc = ibu_mcmembers_add(mm, mlid, &m, e);
		if (!rc)
			rc = mflow_add(senders, mlid, m.node, m.port, e);
		if (rc)
			goto out;
	}
out:
	free(grp);
	free(src);
	free(in_grp);
	return rc;
}

int ibu_traffic_group_senders(const struct ibu_mcmembers *mm,
			      struct ibu_mflows *senders, struct ibu_err *e)
{
	int gi, i, rc;

	for (gi = 0; gi < mm->num_groups; gi++) {
		const struct ibu_mcgroup *g = &mm->g[gi];
		int any = 0;

		for (i = 0; i < g->num; i++)
			any |= g->m[i].send_only;
		for (i = 0; i < g->num; i++) {
			if (any && !g->m[i].send_only)
				continue;
			rc = mflow_add(senders, g->mlid, g->m[i].node,
				       g->m[i].port, e);
			if (rc)
				return rc;
		}
	}
	return IBU_OK;
}

/* ------------------------------------------------------------ evaluation */

struct run {
	const struct ibu_traffic_in *in;
	struct ibu_linkload *ll;
	struct ibu_traffic_result *r;
	struct ibu_walk w;
	int timing;		/* second pass: times, not loads */
	uint64_t unit;
	double bw;		/* flow bandwidth, summed (timing pass) */
	struct ibu_err *e;
};

static void note_unrouted(struct run *ru, int sn, int sp, int dn, int dp,
			  uint32_t dlid, const char *why)
{
	const struct ibu_fabric *f = ru->in->f;

	if (ru->timing)
		return;
	if (!ru->r->unrouted++)
		snprintf(ru->r->first_unrouted, sizeof(ru->r->first_unrouted),
			 "'%s'/%d -> '%s'/%d DLID 0x%04x: %s",
			 f->nodes[sn].name, sp, dn >= 0 ? f->nodes[dn].name : "?",
			 dp, dlid, why);
}

static const char *walk_why(const struct ibu_walk *w)
{
	switch (w->status) {
	case IBU_WALK_NO_ROUTE:
		return "no route";
	case IBU_WALK_LOOP:
		return "loop";
	case IBU_WALK_DEAD_PORT:
		return "entry names an uncabled port";
	default:
		return "delivered to the wrong port";
	}
}

static void account(struct run *ru, uint64_t weight)
{
	if (!ru->timing) {
		ibu_linkload_add_walk(ru->ll, &ru->w, weight);
		ru->r->walks++;
	} else {
		double load = (double)ibu_linkload_walk_max(ru->ll, &ru->w) /
			      (double)ru->unit;
		double t = IBU_TRAFFIC_FLIGHT_NS * ru->w.max_links +
			   IBU_TRAFFIC_SWITCH_NS * ru->w.max_switches +
			   IBU_TRAFFIC_BYTE_NS * (double)ru->in->size * load;

		if (t > ru->r->time_ns)
			ru->r->time_ns = t;
		if (load > 0)	/* its share of the busiest link's bandwidth */
			ru->bw += (double)weight / (double)ru->unit / load;
	}
}

/* One unicast message from end port a to end port b. */
static int ucast(struct run *ru, int sn, int sp, int dn, int dp)
{
	const struct ibu_traffic_in *in = ru->in;
	const struct ibu_port *lp = ibu_fabric_lid_port(in->f, dn, dp);
	uint32_t base, lids = 1, k, first = 0;
	uint64_t weight = ru->unit;
	int rc;

	if (!ru->timing)
		ru->r->messages++;
	if (!lp || !lp->lid) {
		note_unrouted(ru, sn, sp, dn, dp, 0, "destination has no LID");
		return IBU_OK;
	}
	base = lp->lid;
	if (in->dlids == IBU_DLIDS_PAIRS) {
		lids = 1u << lp->lmc;
		weight = ru->unit >> lp->lmc;
	} else if (in->dlids == IBU_DLIDS_ADVISED && in->advised) {
		long off = in->advised(in->advised_ctx, sn, sp, dn, dp);

		first = off < 0 ? 0 : (unsigned)off & ((1u << lp->lmc) - 1);
	}
	for (k = first; k < first + lids; k++) {
		rc = ibu_walk_ucast(in->f, ru->ll, in->lft, sn, sp, base + k,
				    &ru->w, ru->e);
		if (rc)
			return rc;
		if (ru->w.status != IBU_WALK_OK || ru->w.end_node != dn ||
		    ru->w.end_port != dp) {
			note_unrouted(ru, sn, sp, dn, dp, base + k,
				      walk_why(&ru->w));
			continue;
		}
		account(ru, weight);
	}
	return IBU_OK;
}

static int pass_permutation(struct run *ru, const int *to)
{
	const struct ibu_endports *ep = ru->in->ep;
	int i, rc;

	for (i = 0; i < ep->num; i++) {
		if (to[i] == i)
			continue;
		rc = ucast(ru, ep->node[i], ep->port[i], ep->node[to[i]],
			   ep->port[to[i]]);
		if (rc)
			return rc;
	}
	return IBU_OK;
}

static int pass_all_to_all(struct run *ru)
{
	const struct ibu_endports *ep = ru->in->ep;
	int i, j, rc;

	for (i = 0; i < ep->num; i++)
		for (j = 0; j < ep->num; j++) {
			if (i == j)
				continue;
			rc = ucast(ru, ep->node[i], ep->port[i], ep->node[j],
				   ep->port[j]);
			if (rc)
				return rc;
		}
	return IBU_OK;
}

/* Receiving CA members of the group of mlid. */
static const struct ibu_mcgroup *group_of(const struct run *ru, uint16_t mlid)
{
	return ru->in->mm ? ibu_mcmembers_find(ru->in->mm, mlid) : NULL;
}

static int pass_mcast(struct run *ru)
{
	const struct ibu_traffic_in *in = ru->in;
	int i, rc;

	for (i = 0; i < in->senders->num; i++) {
		const struct ibu_mflow *s = &in->senders->f[i];
		const struct ibu_mcgroup *g = group_of(ru, s->mlid);
		int gi = ibu_mft_find(in->mft, s->mlid), want = 0, j;

		if (!ru->timing)
			ru->r->messages++;
		for (j = 0; g && j < g->num; j++)
			want += !g->m[j].send_only &&
				!(g->m[j].node == s->node &&
				  g->m[j].port == s->port);
		if (gi < 0) {
			note_unrouted(ru, s->node, s->port, -1, 0, s->mlid,
				      "no switch holds the MLID");
			continue;
		}
		rc = ibu_walk_mcast(in->f, ru->ll, in->mft->g[gi].mask,
				    s->node, s->port, &ru->w, ru->e);
		if (rc)
			return rc;
		if (ru->w.status != IBU_WALK_OK)
			note_unrouted(ru, s->node, s->port, -1, 0, s->mlid,
				      walk_why(&ru->w));
		else if (g && ru->w.deliveries != want)
			note_unrouted(ru, s->node, s->port, -1, 0, s->mlid,
				      "copies delivered differ from the receivers");
		account(ru, ru->unit);
	}
	return IBU_OK;
}

static int pass_mcast_ucast(struct run *ru)
{
	const struct ibu_traffic_in *in = ru->in;
	int i, j, rc;

	for (i = 0; i < in->senders->num; i++) {
		const struct ibu_mflow *s = &in->senders->f[i];
		const struct ibu_mcgroup *g = group_of(ru, s->mlid);

		for (j = 0; g && j < g->num; j++) {
			const struct ibu_mcast_member *m = &g->m[j];

			if (m->send_only ||
			    ibu_node_is_switch(&in->f->nodes[m->node]) ||
			    (m->node == s->node && m->port == s->port))
				continue;
			rc = ucast(ru, s->node, s->port, m->node, m->port);
			if (rc)
				return rc;
		}
	}
	return IBU_OK;
}

/* The rails of the end ports, and per rail its HCAs in end-port order:
 * pos[i] = place of HCA i in its rail, at[rail * n + place] = i. */
struct rail_ctx {
	struct ibu_rails r;
	int *pos, *at, *len;
};

static void rail_ctx_free(struct rail_ctx *c)
{
	ibu_rails_free(&c->r);
	free(c->pos);
	free(c->at);
	free(c->len);
}

static int rail_ctx_build(const struct ibu_traffic_in *in,
			  struct rail_ctx *c, struct ibu_err *e)
{
	int n = in->ep->num, i, rc;
	const char **names = malloc((n ? (size_t)n : 1) * sizeof(char *));

	memset(c, 0, sizeof(*c));
	if (!names)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory (pattern)");
	for (i = 0; i < n; i++)
		names[i] = in->f->nodes[in->ep->node[i]].name;
	rc = ibu_rails_learn(names, n, &c->r, e);
	free(names);
	if (rc)
		return rc;
	c->pos = malloc((n ? (size_t)n : 1) * sizeof(int));
	c->at = malloc(((size_t)n * (size_t)c->r.num_rails + 1) * sizeof(int));
	c->len = calloc((size_t)c->r.num_rails + 1, sizeof(int));
	if (!c->pos || !c->at || !c->len)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory (pattern)");
	for (i = 0; i < n; i++) {
		int rl = c->r.rail[i];

		c->pos[i] = c->len[rl];
		c->at[rl * n + c->len[rl]++] = i;
	}
	return IBU_OK;
}

/* Shift k of rail pattern p into to (n end ports): HCA r of the j-th
 * server of rail r to that of server j + k (other rails: none, for rail:R). */
static void rail_perm(const struct ibu_pattern *p, const struct rail_ctx *rc,
		      int k, int n, int *to)
{
	int i;

	for (i = 0; i < n; i++) {
		int rl = rc->r.rail[i];

		to[i] = p->rail >= 0 && rl != p->rail ? i :
			rc->at[rl * n + (rc->pos[i] + k) % rc->len[rl]];
	}
}

struct pass_args {
	const struct ibu_pattern *p;
	const int *to;		/* permutation patterns */
	const struct rail_ctx *rails;	/* rail patterns */
};

static int one_pass(struct run *ru, const struct pass_args *a)
{
	switch (a->p->kind) {
	case IBU_PAT_ALL_TO_ALL:
		return pass_all_to_all(ru);
	case IBU_PAT_SHIFT:
	case IBU_PAT_RAIL_SHIFT:
	case IBU_PAT_RANDOM:
	case IBU_PAT_BISECT:
		return pass_permutation(ru, a->to);
	case IBU_PAT_MCAST:
	case IBU_PAT_GROUPS:
		return pass_mcast(ru);
	case IBU_PAT_MCAST_UCAST:
	case IBU_PAT_GROUPS_UCAST:
		return pass_mcast_ucast(ru);
	}
	return IBU_EINVAL;
}

/* Loads, then times against those loads. */
static int evaluate(struct run *ru, const struct pass_args *a,
		    struct ibu_traffic_result *r)
{
	int rc;

	memset(r, 0, sizeof(*r));
	r->unit = ru->unit;
	ru->r = r;
	ru->bw = 0;
	ibu_linkload_reset(ru->ll);
	ru->timing = 0;
	rc = one_pass(ru, a);
	if (rc)
		return rc;
	ru->timing = 1;
	rc = one_pass(ru, a);
	if (rc)
		return rc;
	ibu_linkload_stats(ru->ll, ru->in->f, &r->st);
	r->flow_bw = ru->bw;	/* a sum until ibu_traffic_run divides */
	if (ibu_pattern_is_mcast(a->p))
		r->bound = (double)r->st.max_hca / (double)ru->unit;
	else if (a->p->kind == IBU_PAT_ALL_TO_ALL ||
		 a->p->kind == IBU_PAT_SHIFT || a->p->kind == IBU_PAT_RANDOM ||
		 a->p->kind == IBU_PAT_BISECT || a->p->kind == IBU_PAT_RAIL_SHIFT)
		r->bound = ibu_cuts_bound(ru->in->cuts, ru->in->ep->num, a->to);
	else	/* the paper's cases: the end ports' cables carry their
		 * demand, whatever the tables */
		r->bound = (double)r->st.max_hca / (double)ru->unit;
	/* one DLID a destination: whole destinations a port */
	if (a->p->kind == IBU_PAT_ALL_TO_ALL &&
	    ru->in->dlids == IBU_DLIDS_BASE && ru->in->cuts &&
	    ru->in->cuts->num_ep == ru->in->ep->num &&
	    ibu_cuts_a2a_one_dlid(ru->in->cuts) > r->bound)
		r->bound = ibu_cuts_a2a_one_dlid(ru->in->cuts);
	return IBU_OK;
}

static int worse(const struct ibu_traffic_result *a,
		 const struct ibu_traffic_result *b)
{
	if (a->st.max_any != b->st.max_any)
		return a->st.max_any > b->st.max_any;
	if (a->st.max_sw != b->st.max_sw)
		return a->st.max_sw > b->st.max_sw;
	return a->time_ns > b->time_ns;
}

/* The rails of a rail pattern; *kmax: the largest rail's HCAs. */
static int rail_setup(const struct ibu_traffic_in *in,
		      const struct ibu_pattern *p, struct rail_ctx *rails,
		      int *kmax, struct ibu_err *e)
{
	int i, rc = rail_ctx_build(in, rails, e);

	if (rc)
		return rc;
	if (p->rail >= rails->r.num_rails)
		return ibu_err_set(e, IBU_EINVAL,
				   "rail %d: the end ports have %d rails (0..%d)",
				   p->rail, rails->r.num_rails,
				   rails->r.num_rails - 1);
	for (i = 0, *kmax = 0; i < rails->r.num_rails; i++)
		if (rails->len[i] > *kmax)
			*kmax = rails->len[i];
	return IBU_OK;
}

/* Sample idx (from 0) of a pattern of several permutations into to. */
static void sample(const struct ibu_pattern *p, const struct rail_ctx *rails,
		   uint64_t seed, int idx, int *to, int n)
{
	uint64_t s = seed ^ ((uint64_t)idx * 0xd1b54a32d192ed03ULL);
	int i, half = n / 2;

	if (p->kind == IBU_PAT_SHIFT) {
		for (i = 0; i < n; i++)
			to[i] = (i + (p->k ? p->k : idx + 1)) % n;
		return;
	}
	if (p->kind == IBU_PAT_RAIL_SHIFT) {
		rail_perm(p, rails, p->k ? p->k : idx + 1, n, to);
		return;
	}
	if (p->kind == IBU_PAT_RANDOM) {
		shuffle(&s, to, n, n);	/* sample 0: the seed's, as before */
		return;
	}
	/* bisection: a shuffle, its first half paired with its second */
	{
		int *perm = to + n;

		shuffle(&s, perm, n, n);
		for (i = 0; i < n; i++)
			to[i] = i;
		for (i = 0; i < half; i++) {
			to[perm[i]] = perm[half + i];
			to[perm[half + i]] = perm[i];
		}
	}
}

/* Folds sample cur into r: counts add up, r keeps the worst sample's
 * loads (in best[]) and figures. */
static void fold(struct ibu_traffic_result *r, struct ibu_traffic_result *cur,
		 int first, struct ibu_linkload *ll, uint64_t *best)
{
	long msgs = r->messages + cur->messages;
	long walks = r->walks + cur->walks;
	long unr = r->unrouted + cur->unrouted;
	double bw = r->flow_bw + cur->flow_bw;
	char firstu[sizeof(r->first_unrouted)];

	memcpy(firstu, r->unrouted ? r->first_unrouted : cur->first_unrouted,
	       sizeof(firstu));
	if (first || worse(cur, r)) {
		*r = *cur;
		memcpy(best, ll->load, (ll->num_slots + 1) * sizeof(*best));
	}
	r->messages = msgs;
	r->walks = walks;
	r->unrouted = unr;
	r->flow_bw = bw;
	memcpy(r->first_unrouted, firstu, sizeof(firstu));
}

/* Several permutations (every shift, random:K, ebb:K): the worst one's
 * loads stay in ll. */
static int run_samples(struct run *ru, struct pass_args *a, int count,
		       int *to, struct ibu_traffic_result *r)
{
	struct ibu_linkload *ll = ru->ll;
	struct ibu_traffic_result cur;
	uint64_t *best;
	int j, n = ru->in->ep->num, rc = IBU_OK;

	best = calloc(ll->num_slots + 1, sizeof(*best));
	if (!best)
		return ibu_err_set(ru->e, IBU_ENOMEM, "out of memory (pattern)");
	for (j = 0; j < count; j++) {
		sample(a->p, a->rails, ru->in->seed, j, to, n);
		rc = evaluate(ru, a, &cur);
		if (rc)
			break;
		if (ru->in->sample_bw && j < ru->in->sample_cap)
			ru->in->sample_bw[j] = cur.messages ?
				cur.flow_bw / (double)cur.messages : 0;
		cur.worst_k = a->p->kind == IBU_PAT_SHIFT ||
			      a->p->kind == IBU_PAT_RAIL_SHIFT ?
			      (a->p->k ? a->p->k : j + 1) : j + 1;
		fold(r, &cur, j == 0, ll, best);
	}
	r->permutations = count;
	if (!rc && count)
		memcpy(ll->load, best, (ll->num_slots + 1) * sizeof(*best));
	else if (!count)
		ibu_linkload_reset(ll);
	free(best);
	return rc;
}

static int check_in(const struct ibu_traffic_in *in,
		    const struct ibu_pattern *p, const struct ibu_linkload *ll,
		    struct ibu_err *e)
{
	if (ll->num_nodes != in->f->num_nodes)
		return ibu_err_set(e, IBU_EINVAL,
				   "link load sized for %d nodes, fabric has %d",
				   ll->num_nodes, in->f->num_nodes);
	if (ibu_pattern_is_mcast(p) && !in->mft)
		return ibu_err_set(e, IBU_EINVAL,
				   "pattern %s needs multicast tables", p->name);
	if ((p->kind == IBU_PAT_MCAST || p->kind == IBU_PAT_MCAST_UCAST ||
	     p->kind == IBU_PAT_GROUPS || p->kind == IBU_PAT_GROUPS_UCAST) &&
	    (!in->senders || !in->mm))
		return ibu_err_set(e, IBU_EINVAL,
				   "pattern %s needs a member list and senders",
				   p->name);
	return IBU_OK;
}

/* One message weighs 2^(largest LMC) under `pairs`, so that every part of
 * a split is a whole number. */
static uint64_t unit_of(const struct ibu_traffic_in *in)
{
	int i, maxlmc = 0;

	if (in->dlids != IBU_DLIDS_PAIRS)
		return 1;
	for (i = 0; i < in->ep->num; i++) {
		const struct ibu_port *lp =
			ibu_fabric_lid_port(in->f, in->ep->node[i], in->ep->port[i]);

		if (lp && lp->lmc > maxlmc)
			maxlmc = lp->lmc;
	}
	return 1ULL << maxlmc;
}

int ibu_traffic_run(const struct ibu_traffic_in *in,
		    const struct ibu_pattern *p, struct ibu_linkload *ll,
		    struct ibu_traffic_result *r, struct ibu_err *e)
{
	struct run ru = { .in = in, .ll = ll, .e = e };
	struct rail_ctx rails;
	struct pass_args a = { .p = p, .rails = &rails };
	int *to = NULL, n = in->ep->num, rc, count = 0, kmax = 0;

	memset(&rails, 0, sizeof(rails));
	memset(r, 0, sizeof(*r));
	rc = check_in(in, p, ll, e);
	if (rc)
		return rc;
	ru.unit = unit_of(in);
	r->unit = ru.unit;
	if (p->kind == IBU_PAT_SHIFT)
		count = p->k ? 1 : (n > 1 ? n - 1 : 0);
	else if (p->kind == IBU_PAT_RANDOM || p->kind == IBU_PAT_BISECT)
		count = p->k > 0 ? p->k : 1;
	ibu_walk_init(&ru.w);
	if (p->kind == IBU_PAT_RAIL_SHIFT) {
		rc = rail_setup(in, p, &rails, &kmax, e);
		count = p->k ? 1 : (kmax > 1 ? kmax - 1 : 0);
	}
	if (!rc && (p->kind == IBU_PAT_SHIFT || p->kind == IBU_PAT_RANDOM ||
		    p->kind == IBU_PAT_BISECT || p->kind == IBU_PAT_RAIL_SHIFT)) {
		/* twice n: ebb's shuffle sits after the permutation */
		to = malloc((2 * n + 1) * sizeof(*to));
		if (!to)
			rc = ibu_err_set(e, IBU_ENOMEM, "out of memory (pattern)");
		a.to = to;
		if (!rc)
			rc = run_samples(&ru, &a, count, to, r);
	} else if (!rc) {
		rc = evaluate(&ru, &a, r);
	}
	if (!rc)
		r->flow_bw = r->messages ? r->flow_bw / (double)r->messages : 0;
	ibu_walk_free(&ru.w);
	free(to);
	rail_ctx_free(&rails);
	return rc;
}

void ibu_traffic_ci95(const double *x, const double *ref, int n,
		      double *mean, double *ci95)
{
	double s = 0, ss = 0, d;
	int i;

	*mean = 0;
	*ci95 = 0;
	if (n < 1)
		return;
	for (i = 0; i < n; i++)
		s += x[i] - (ref ? ref[i] : 0);
	*mean = s / n;
	if (n < 2)
		return;
	for (i = 0; i < n; i++) {
		d = x[i] - (ref ? ref[i] : 0) - *mean;
		ss += d * d;
	}
	*ci95 = 1.96 * sqrt(ss / (n - 1) / n);
}
