/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Twin switches (one level, the same switch neighbours: the tops of one
 * IBFT group, the leaves of one pod) and what they spare the routing of
 * switch LIDs. Hops from twins agree on every switch but themselves, so
 * one kept BFS per class serves its members and every switch next to it
 * (IBFT(24,3): 36 BFS instead of 432); twins that are not the target are
 * equally far, so a choice looks once per neighbour class; a source's
 * twins see the same distances, so the first one's candidates serve them
 * all (memo); and a twin's whole LID is replayed from the first's. The
 * classes come from the graph itself: intact or damaged trees alike.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "pgft_router.h"

/* Neighbour classes mixed into one target's hops at most: beyond, a BFS
 * is as cheap. */
#define MAX_MIX 3

/* What the first twin of a class chose, for the others under the same
 * tag (one pass toward one target), through each one's own ports; res:
 * a group position, MEMO_ALL (the whole base list), _NONE or _SCAN. */
struct twin_memo {
	int *tag, *res, *d;	/* [class] */
};

#define MEMO_UP 0
#define MEMO_PLAIN 1
#define MEMO_SCAN (-1)
#define MEMO_NONE (-2)
#define MEMO_ALL (-3)

struct pgft_twins {
	int ns;			/* switches, by compact index */
	int *idx;		/* [node] compact index (-1: no switch) */
	int *node;		/* [compact] node */
	int ncls;
	int *cls;		/* [node] twin class */
	int *mstart, *msize;	/* [class] its members in mem */
	int *mem;
	int **cd;		/* [class] plain hops from it (compact), kept */
	long budget;		/* ints cd may still take */
	int *gbase, *ng;	/* [node] neighbour groups, one per class */
	int *gnb, *gstart, *glen;	/* [group] a member, its ports */
	int *gport;		/* ports of each group, ascending */
	struct twin_memo memo[2];	/* MEMO_UP, MEMO_PLAIN */
	int gen;		/* plain_dist calls: the plain memo's tag */
	const int *gen_d;	/* the array the last one filled */
	struct twin_tpl **tpl;	/* [class] a member's LID routed, kept */
	int *live;		/* [node] stamp: replay computes it */
	int *block;		/* the one the int arrays are in */
};

/* The entries toward twin t0's own LID, without the LID: a twin t
 * replays them but at t0 and the children t and t0 share, the only
 * switches whose way differs (the rest see the same distances). */
struct twin_tpl {
	int valid;		/* 1 usable, 0 being recorded, -1 never */
	int t0;
	const int **list;	/* [compact] candidates (NULL: in pool) */
	int *off, *k, *d;	/* [compact] pool offset, count, distance */
	unsigned char *kind;	/* [compact] IBU__TPL_*, 0: above t0 */
	int *pool, npool, cap;
};

/* Memory the kept hops may take: beyond it, a BFS per LID as before. */
#define CD_BUDGET (16L << 20)	/* ints */

struct twin_key {
	int lv, n;		/* level, distinct switch neighbours */
	const int *nb;		/* those, sorted */
	int node;
};

/* 0: twins (same level, same neighbours) */
static int cmp_twin(const struct twin_key *x, const struct twin_key *y)
{
	if (x->lv != y->lv)
		return x->lv < y->lv ? -1 : 1;
	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return memcmp(x->nb, y->nb, (size_t)x->n * sizeof(int));
}

static int cmp_key(const void *a, const void *b)
{
	const struct twin_key *x = a, *y = b;
	int c = cmp_twin(x, y);

	return c ? c : (x->node > y->node) - (x->node < y->node);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Switches sorted by level and neighbours: a class is a run, its members
 * contiguous in mem by node number. */
static int classes(const struct router *r, struct pgft_twins *tw)
{
	struct twin_key *key = malloc((size_t)tw->ns * sizeof(*key) + 1);
	int i, s, n, o = 0, *nb;

	for (i = 0; i < tw->ns; i++)
		o += r->ndn[tw->node[i]];
	nb = malloc((size_t)o * sizeof(int) + 1);
	if (!key || !nb) {
		free(key);
		free(nb);
		return IBU_ENOMEM;
	}
	for (i = 0, o = 0; i < tw->ns; o += n, i++) {
		s = tw->node[i];
		n = r->ndn[s];
		memcpy(nb + o, r->dnn + r->dnbase[s], (size_t)n * sizeof(int));
		qsort(nb + o, (size_t)n, sizeof(int), cmp_int);
		key[i] = (struct twin_key){ r->g->level[s], n, nb + o, s };
	}
	qsort(key, (size_t)tw->ns, sizeof(*key), cmp_key);
	for (i = 0; i < tw->ns; i++) {
		if (!i || cmp_twin(&key[i - 1], &key[i]))
			tw->mstart[tw->ncls++] = i;
		tw->msize[tw->ncls - 1]++;
		tw->cls[key[i].node] = tw->ncls - 1;
		tw->mem[i] = key[i].node;
	}
	free(key);
	free(nb);
	return IBU_OK;
}

/* Switch s's cables grouped by its neighbours' classes, in class order
 * (twins then list the same classes at the same positions), each group's
 * ports ascending (gnb: the lowest one's peer). */
static void group_switch(const struct router *r, struct pgft_twins *tw,
			 int s, int *ng)
{
	const struct ibu_port *pt = r->f->nodes[s].ports;
	int i, j, c, b = r->nbbase[s], *p = &tw->gport[b], g = *ng - 1;

	for (i = 0; i < r->nnb[s]; i++) {	/* stable: ports ascending */
		c = tw->cls[r->nbn[b + i]];
		for (j = i; j > 0 && tw->cls[pt[p[j - 1]].peer_node] > c; j--)
			p[j] = p[j - 1];
		p[j] = r->nbp[b + i];
	}
	tw->gbase[s] = *ng;
	for (i = 0; i < r->nnb[s]; i++) {
		c = pt[p[i]].peer_node;
		if (g < *ng || tw->cls[c] != tw->cls[tw->gnb[g]]) {
			tw->gstart[++g] = b + i;
			tw->gnb[g] = c;
		}
		tw->glen[g]++;
	}
	tw->ng[s] = g + 1 - *ng;
	*ng = g + 1;
}

/* Every int array of tw in one block: 15 of a switch (n: nodes) each, 4
 * of a switch cable (neighbour groups) each; the kept ones apart. */
static int twins_alloc(const struct router *r, struct pgft_twins *tw, int n)
{
	int **pn[] = { &tw->idx, &tw->node, &tw->cls, &tw->mstart,
		       &tw->msize, &tw->mem, &tw->gbase, &tw->ng, &tw->live,
		       &tw->memo[0].tag, &tw->memo[0].res, &tw->memo[0].d,
		       &tw->memo[1].tag, &tw->memo[1].res, &tw->memo[1].d };
	int **pg[] = { &tw->gnb, &tw->gstart, &tw->glen, &tw->gport }, *m;
	size_t i, ng = 1;

	for (i = 0; i < (size_t)r->f->num_nodes; i++)
		ng += (size_t)r->nnb[i];
	tw->cd = calloc((size_t)n, sizeof(int *));
	tw->tpl = calloc((size_t)n, sizeof(*tw->tpl));
	m = tw->block = calloc(15 * (size_t)n + 4 * ng, sizeof(int));
	if (!tw->cd || !tw->tpl || !m)
		return IBU_ENOMEM;
	for (i = 0; i < sizeof(pn) / sizeof(pn[0]); i++, m += n)
		*pn[i] = m;
	for (i = 0; i < sizeof(pg) / sizeof(pg[0]); i++, m += ng)
		*pg[i] = m;
	return IBU_OK;
}

int ibu__pgft_twins_init(struct router *r, struct ibu_err *e)
{
	const struct ibu_fabric *f = r->f;
	struct pgft_twins *tw = calloc(1, sizeof(*tw));
	int n = f->num_nodes ? f->num_nodes : 1, i;

	r->tw = tw;
	if (!tw || twins_alloc(r, tw, n))
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (i = 0; i < f->num_nodes; i++) {
		tw->idx[i] = -1;
		if (ibu_node_is_switch(&f->nodes[i])) {
			tw->idx[i] = tw->ns;
			tw->node[tw->ns++] = i;
		}
	}
	tw->budget = CD_BUDGET;
	if (classes(r, tw))
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (i = 0, n = 0; i < tw->ns; i++)
		group_switch(r, tw, tw->node[i], &n);
	return IBU_OK;
}

static void tpl_free(struct twin_tpl *t)
{
	if (!t)
		return;
	free(t->list);
	free(t->off);	/* k, d and kind too */
	free(t->pool);
	free(t);
}

void ibu__pgft_twins_free(struct router *r)
{
	struct pgft_twins *tw = r->tw;
	int c;

	if (!tw)
		return;
	for (c = 0; tw->cd && c < tw->ncls; c++)
		free(tw->cd[c]);
	for (c = 0; tw->tpl && c < tw->ncls; c++)
		tpl_free(tw->tpl[c]);
	free(tw->tpl);
	free(tw->cd);
	free(tw->block);
	free(tw);
	r->tw = NULL;
}

/* Plain BFS hops from switch t over the switch graph into d. */
static void bfs(struct router *r, int t, int *d)
{
	int head = 0, tail = 0, n, i, q;

	for (n = 0; n < r->f->num_nodes; n++)
		d[n] = INT_MAX;
	d[t] = 0;
	r->queue[tail++] = t;
	while (head < tail) {
		n = r->queue[head++];
		for (i = r->dnbase[n]; i < r->dnbase[n] + r->ndn[n]; i++) {
			q = r->dnn[i];
			if (d[q] == INT_MAX) {
				d[q] = d[n] + 1;
				r->queue[tail++] = q;
			}
		}
	}
}

/* Hops from class c's first member to every switch (compact), kept (a
 * BFS in d, scratch of a node each); NULL when the budget is spent or
 * memory short (then a BFS per LID). */
static const int *class_dist(struct router *r, int c, int *d)
{
	struct pgft_twins *tw = r->tw;
	int *a, i;

	if (tw->cd[c])
		return tw->cd[c];
	if (tw->budget < tw->ns || !(a = malloc((size_t)tw->ns * sizeof(int))))
		return NULL;
	tw->budget -= tw->ns;
	bfs(r, tw->mem[tw->mstart[c]], d);
	for (i = 0; i < tw->ns; i++)
		a[i] = d[tw->node[i]];
	tw->cd[c] = a;
	return a;
}

/* t has twins: its class's hops, 0 at t, 2 at the other twins. */
static int from_twins(struct router *r, int t, int *d)
{
	const struct pgft_twins *tw = r->tw;
	int c = tw->cls[t], i, m;
	const int *a = class_dist(r, c, d);

	if (!a)
		return 0;
	for (i = 0; i < tw->ns; i++)
		d[tw->node[i]] = a[i];
	for (i = 0; i < tw->msize[c]; i++) {
		m = tw->mem[tw->mstart[c] + i];
		d[m] = m == t ? 0 : r->ndn[t] ? 2 : INT_MAX;
	}
	return 1;
}

/* 1 + the least hops of t's neighbour classes (each wholly among its
 * neighbours); 0: too many classes or no memory. */
static int from_neighbours(struct router *r, int t, int *d)
{
	const struct pgft_twins *tw = r->tw;
	const int *a[MAX_MIX];
	int k = tw->ng[t], j, i, v;

	if (!k || k > MAX_MIX)
		return 0;
	for (j = 0; j < k; j++)
		if (!(a[j] = class_dist(r, tw->cls[tw->gnb[tw->gbase[t] + j]],
					d)))
			return 0;
	for (i = 0; i < tw->ns; i++) {
		for (v = a[0][i], j = 1; j < k; j++)
			if (a[j][i] < v)
				v = a[j][i];
		d[tw->node[i]] = v == INT_MAX ? INT_MAX : v + 1;
	}
	for (i = r->dnbase[t]; i < r->dnbase[t] + r->ndn[t]; i++)
		d[r->dnn[i]] = 1;
	d[t] = 0;
	return 1;
}

void ibu__pgft_plain_dist(struct router *r, int t, int *d)
{
	struct pgft_twins *tw = r->tw;

	tw->gen++;
	tw->gen_d = d;
	if (tw->msize[tw->cls[t]] > 1 && from_twins(r, t, d))
		return;
	if (from_neighbours(r, t, d))
		return;
	bfs(r, t, d);
}

static int memo_get(const struct router *r, int which, int s, int tag,
		    const int *base, int nbase, struct ibu__choice *ch,
		       int *d)
{
	const struct pgft_twins *tw = r->tw;
	const struct twin_memo *m;
	int c, g;

	if (!tag || tw->msize[c = tw->cls[s]] < 2)
		return 0;	/* tag 0: the memo's initial one */
	m = &tw->memo[which];
	if (m->tag[c] != tag || m->res[c] == MEMO_SCAN)
		return 0;
	*d = m->d[c];
	if (m->res[c] == MEMO_NONE) {
		ch->k = 0;
	} else if (m->res[c] == MEMO_ALL) {
		ch->list = base;
		ch->k = nbase;
	} else {
		g = tw->gbase[s] + m->res[c];
		ch->list = &tw->gport[tw->gstart[g]];
		ch->k = tw->glen[g];
	}
	return 1;
}

/* The group of s with exactly ports cand[0..k-1], or MEMO_SCAN. */
static int group_of(const struct router *r, int s, const int *cand, int k)
{
	const struct pgft_twins *tw = r->tw;
	int c = tw->cls[r->f->nodes[s].ports[cand[0]].peer_node], g, j;

	for (g = tw->gbase[s]; tw->cls[tw->gnb[g]] != c; g++)
		;
	for (j = 0; j < k && j < tw->glen[g] &&
	     tw->gport[tw->gstart[g] + j] == cand[j]; j++)
		;
	return j == k && k == tw->glen[g] ? g - tw->gbase[s] : MEMO_SCAN;
}

static void memo_put(const struct router *r, int which, int s, int tag,
		     const struct ibu__choice *ch, int nbase, int d)
{
	const int *cand = ch->list;
	int k = ch->k;
	struct pgft_twins *tw = r->tw;
	struct twin_memo *m;
	int c;

	if (!tag || tw->msize[c = tw->cls[s]] < 2)
		return;
	m = &tw->memo[which];
	if (m->tag[c] == tag)
		return;
	m->tag[c] = tag;
	m->d[c] = d;
	m->res[c] = !k ? MEMO_NONE : k == nbase ? MEMO_ALL :
		    group_of(r, s, cand, k);
}

void ibu__pgft_pick_up(struct router *r, int s, struct ibu__choice *c)
{
	int i, d, best = INT_MAX, k = 0;
	const int *up = &r->upp[r->upbase[s]];

	if (memo_get(r, MEMO_UP, s, r->stamp, up, r->nup[s],
			       c, &r->dist[s]))
		return;
	for (i = r->upbase[s]; i < r->upbase[s] + r->nup[s]; i++) {
		d = r->dist[r->upn[i]];
		if (d < 0 || d > best)
			continue;
		if (d < best) {
			best = d;
			k = 0;
		}
		c->buf[k++] = r->upp[i];
	}
	r->dist[s] = k ? best + 1 : -1;
	c->list = c->buf;
	c->k = k;
	memo_put(r, MEMO_UP, s, r->stamp, c, r->nup[s],
			   r->dist[s]);
}

/* s's neighbours at plain dist want: twins other than the target (want
 * 0 names it alone) are equally far, so one look per class. */
void ibu__pgft_plain_choice(const struct router *r, int s, const int *dist,
			    int want, struct ibu__choice *c)
{
	const struct pgft_twins *tw = r->tw;
	const int *nbp = &r->nbp[r->nbbase[s]];
	int g, q = 0, k = 0, sel = 0, i, d;
	int tag = dist == tw->gen_d && want ? tw->gen : 0;

	if (tag && memo_get(r, MEMO_PLAIN, s, tag, nbp,
				      r->nnb[s], c, &d))
		return;
	if (want && (!tag || tw->msize[tw->cls[s]] < 2)) {
		for (g = tw->gbase[s]; g < tw->gbase[s] + tw->ng[s]; g++)
			if (dist[tw->gnb[g]] == want) {
				q++;
				k += tw->glen[g];
				sel = g;
			}
		c->k = k;
		if (q == 1) {
			c->list = &tw->gport[tw->gstart[sel]];
			return;
		}
		if (q == tw->ng[s]) {
			c->list = nbp;
			return;
		}
	}
	for (i = 0, k = 0; i < r->nnb[s]; i++)
		if (dist[r->nbn[r->nbbase[s] + i]] == want)
			c->buf[k++] = nbp[i];
	c->list = c->buf;
	c->k = k;
	if (tag)
		memo_put(r, MEMO_PLAIN, s, tag, c, r->nnb[s], 0);
}

int ibu__pgft_pick_plain(const struct router *r, int s, const int *dist,
			 int want, uint32_t lid)
{
	struct ibu__choice c;

	ibu__pgft_plain_choice(r, s, dist, want, &c);
	return ibu__choice_port(&c, lid);
}

/* --- replay of a twin's switch LID --- */

static struct twin_tpl *tpl_new(struct pgft_twins *tw)
{
	struct twin_tpl *t = calloc(1, sizeof(*t));
	size_t n = (size_t)tw->ns + 1;

	if (!t)
		return NULL;
	t->list = calloc(n, sizeof(*t->list));
	t->off = calloc(4 * n, sizeof(int));
	if (!t->list || !t->off) {
		tpl_free(t);
		return NULL;
	}
	t->k = t->off + n;
	t->d = t->off + 2 * n;
	t->kind = (unsigned char *)(t->off + 3 * n);
	return t;
}

void ibu__pgft_rec_note(struct router *r, int s, int kind,
			const struct ibu__choice *c)
{
	struct twin_tpl *t = r->rec;
	int i = r->tw->idx[s], *p;

	t->kind[i] = (unsigned char)kind;
	t->d[i] = r->dist[s];
	t->k[i] = c->k;
	t->list[i] = c->k ? c->list : NULL;
	t->off[i] = -1;
	if (!c->k || c->list != c->buf)
		return;
	if (t->npool + c->k > t->cap) {
		int nc = t->cap ? 2 * t->cap : 256;

		while (nc < t->npool + c->k)
			nc *= 2;
		if (!(p = realloc(t->pool, (size_t)nc * sizeof(int)))) {
			t->valid = -1;	/* keeps failing: never replayed */
			return;
		}
		t->pool = p;
		t->cap = nc;
	}
	memcpy(t->pool + t->npool, c->buf, (size_t)c->k * sizeof(int));
	t->list[i] = NULL;
	t->off[i] = t->npool;
	t->npool += c->k;
}

/* t0, or a child of t and t0, toward t: as route_updown and finish would
 * (t0's plain candidates: every neighbour, all one hop from its twin). */
static void replay_live(struct router *r, int s, uint32_t lid, int uni)
{
	struct ibu__choice c;

	ibu__pgft_climb_choice(r, s, uni, &c);
	r->tdist[s] = r->dist[s];
	if (c.k) {
		r->lft->row[s][lid] = (uint8_t)ibu__choice_port(&c, lid);
	} else if (r->nnb[s]) {
		r->lft->row[s][lid] = (uint8_t)r->nbp[r->nbbase[s] +
			(int)(lid % (uint32_t)r->nnb[s])];
		r->st.outside++;
	} else {
		r->st.unrouted++;
	}
}

/* The template's entries of level l (not above t, not live): the rows,
 * finish()'s counts; the distances only on t's level, whose children
 * replay_live() computes. Returns what ibu__pgft_uni_add gathers. */
static int replay_level(struct router *r, const struct twin_tpl *tp, int l,
			int lt, uint32_t lid)
{
	const struct pgft_twins *tw = r->tw;
	const int *bl = r->by_level[l], *list;
	int i, j, s, k, uni = IBU__UNI_NONE, stamp = r->stamp;

	for (i = 0; i < r->nlevel[l]; i++) {
		s = bl[i];
		if (r->above[s] == stamp || tw->live[s] == stamp)
			continue;
		j = tw->idx[s];
		if ((k = tp->k[j]) != 0) {
			list = tp->list[j] ? tp->list[j] : tp->pool + tp->off[j];
			r->lft->row[s][lid] = (uint8_t)list[lid % (uint32_t)k];
		}
		if (tp->kind[j] == IBU__TPL_PLAIN)
			r->st.outside++;
		else if (tp->kind[j] == IBU__TPL_UNROUTED)
			r->st.unrouted++;
		if (l == lt) {
			r->tdist[s] = r->dist[s] = tp->d[j];
			ibu__pgft_uni_add(&uni, tp->d[j]);
		}
	}
	return uni;
}

static int replay(struct router *r, int t, uint32_t lid)
{
	struct pgft_twins *tw = r->tw;
	const struct twin_tpl *tp;
	int l, i, n, uni, ult = IBU__UNI_NONE, lt;

	if (!(tp = tw->tpl[tw->cls[t]]) || tp->valid != 1 || tp->t0 == t)
		return 0;
	/* t0 has no up*|down* way to t when t had none to t0; with end ports
	 * its entry waits for the turn search: routed in full */
	i = tw->idx[t];
	if (r->hosted[tp->t0] &&
	    (tp->kind[i] != IBU__TPL_UPDOWN || !tp->k[i]))
		return 0;
	n = ibu__pgft_mark_above(r, t, lid);
	r->child[t] = 0;
	lt = r->g->level[t];
	for (i = r->dnbase[t]; i < r->dnbase[t] + r->ndn[t]; i++)
		if (r->g->level[r->dnn[i]] == lt - 1)
			tw->live[r->dnn[i]] = r->stamp;
	tw->live[tp->t0] = r->stamp;
	for (i = 0; i < n; i++)		/* the closure above t, and t */
		r->lft->row[r->queue[i]][lid] = (uint8_t)r->child[r->queue[i]];
	for (l = r->g->P.h; l >= 1; l--) {
		uni = replay_level(r, tp, l, lt, lid);
		if (l == lt) {	/* t0: every parent above t */
			replay_live(r, tp->t0, lid, IBU__UNI_MIXED);
			ibu__pgft_uni_add(&uni, r->dist[tp->t0]);
			ult = uni;
		} else if (l == lt - 1) {
			for (i = r->dnbase[t]; i < r->dnbase[t] + r->ndn[t]; i++)
				if (r->g->level[r->dnn[i]] == lt - 1)
					replay_live(r, r->dnn[i], lid, ult);
		}
	}
	return 1;
}

int ibu__pgft_route_switch(struct router *r, int t, uint32_t lid,
			   struct ibu_err *e)
{
	struct pgft_twins *tw = r->tw;
	int nd = r->ndefer, rc, c = tw->cls[t];

	if (replay(r, t, lid))
		return IBU_OK;
	/* the first twin's entries, for the others (no memory: routed) */
	if (!tw->tpl[c] && tw->msize[c] >= 2 && tw->budget >= 4L * tw->ns &&
	    (tw->tpl[c] = tpl_new(tw))) {
		tw->budget -= 4L * tw->ns;
		tw->tpl[c]->t0 = t;
		r->rec = tw->tpl[c];
	}
	rc = ibu__pgft_route_turned(r, t, 0, lid,
				    ibu__pgft_route_updown(r, t, 0, lid, 0), e);
	if (r->rec && !r->rec->valid)	/* no entry waits for a turn */
		r->rec->valid = !rc && r->ndefer == nd ? 1 : -1;
	r->rec = NULL;
	return rc;
}
