/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Multicast flood check and link load, with the real replication rule. */
#include <stdlib.h>
#include <string.h>
#include "mcflood.h"

enum { ROLE_NONE = 0, ROLE_RECV = 1, ROLE_SEND_ONLY = 2 };

struct flood {
	const struct ibu_fabric *f;
	ibu_mcf_issue_fn issue;
	void *ctx;
	struct ibu_mcf_stats *st;
	struct ibu_linkload *ll;
	int *base;		/* [node] first slot */
	int num_slots;
	int *copies;		/* [slot] copies in this flood */
	uint8_t *role;		/* [slot] of the current MLID */
	uint32_t *linkmark;	/* [slot] MLID stamp: link counted */
	uint32_t *deadmark;	/* [slot] MLID stamp: dead port reported */
	uint32_t *visited;	/* [node] flood stamp */
	int *touched, num_touched;
	int *qnode, *qport;
	uint32_t gstamp, fstamp;
	/* the current MLID */
	uint16_t mlid;
	const struct ibu_portmask *mask;	/* [node] */
	struct ibu_mcast_member *inferred;
	int num_inferred;
};

static void report(struct flood *fl, enum ibu_mcf_kind kind,
		   const struct ibu_mcast_member *sender, int node, int port,
		   int copies)
{
	struct ibu_mcf_issue is = {
		.kind = kind, .mlid = fl->mlid,
		.sender_node = sender ? sender->node : -1,
		.sender_port = sender ? sender->port : -1,
		.node = node, .port = port, .copies = copies,
	};

	fl->st->count[kind]++;
	if (fl->issue)
		fl->issue(fl->ctx, &is);
}

static inline int slot(const struct flood *fl, int node, int port)
{
	return fl->base[node] + port;
}

static void receive(struct flood *fl, int node, int port)
{
	int s = slot(fl, node, port);

	if (!fl->copies[s]++)
		fl->touched[fl->num_touched++] = s;
}

static void cross(struct flood *fl, int node, int port, int peer, int pport)
{
	int a = slot(fl, node, port), b = slot(fl, peer, pport);

	if (!fl->ll || fl->linkmark[a] == fl->gstamp)
		return;
	fl->linkmark[a] = fl->gstamp;
	fl->linkmark[b] = fl->gstamp;
	ibu_linkload_add_cable(fl->ll, fl->f, node, port, 1);
}

/* One packet from sender through the tables of the current MLID. */
static void flood_one(struct flood *fl, const struct ibu_mcast_member *snd)
{
	const struct ibu_fabric *f = fl->f;
	int head = 0, tail = 0;

	fl->fstamp++;
	if (ibu_node_is_switch(&f->nodes[snd->node])) {
		fl->visited[snd->node] = fl->fstamp;
		fl->qnode[tail] = snd->node;
		fl->qport[tail++] = 0;
	} else {
		const struct ibu_port *p = &f->nodes[snd->node].ports[snd->port];

		if (p->peer_node < 0)
			return;
		cross(fl, snd->node, snd->port, p->peer_node, p->peer_port);
		if (!ibu_node_is_switch(&f->nodes[p->peer_node])) {
			receive(fl, p->peer_node, p->peer_port);
			return;
		}
		fl->visited[p->peer_node] = fl->fstamp;
		fl->qnode[tail] = p->peer_node;
		fl->qport[tail++] = p->peer_port;
	}
	while (head < tail) {
		int n = fl->qnode[head], in = fl->qport[head++], p;
		const struct ibu_node *nd = &f->nodes[n];
		const struct ibu_portmask *m = &fl->mask[n];

		if (ibu_pm_empty(m))
			continue;
		for (p = 0; p <= nd->num_ports; p++) {
			int peer, pp;

			if (p == in || !ibu_pm_test(m, p))
				continue;
			if (p == 0) {
				receive(fl, n, 0);
				continue;
			}
			peer = nd->ports[p].peer_node;
			pp = nd->ports[p].peer_port;
			if (peer < 0) {
				int s = slot(fl, n, p);

				if (fl->deadmark[s] != fl->gstamp) {
					fl->deadmark[s] = fl->gstamp;
					report(fl, IBU_MCF_DEAD_PORT, NULL, n, p, 0);
				}
				continue;
			}
			cross(fl, n, p, peer, pp);
			if (!ibu_node_is_switch(&f->nodes[peer])) {
				receive(fl, peer, pp);
			} else if (fl->visited[peer] == fl->fstamp) {
				report(fl, IBU_MCF_LOOP, snd, peer, pp, 2);
			} else {
				fl->visited[peer] = fl->fstamp;
				fl->qnode[tail] = peer;
				fl->qport[tail++] = pp;
			}
		}
	}
}

static void evaluate(struct flood *fl, const struct ibu_mcast_member *mem,
		     int num, const struct ibu_mcast_member *snd)
{
	int i, ss = slot(fl, snd->node, snd->port);

	for (i = 0; i < num; i++) {
		int s = slot(fl, mem[i].node, mem[i].port), c = fl->copies[s];

		if (fl->role[s] == ROLE_SEND_ONLY) {
			continue;	/* strays below */
		} else if (s == ss) {
			if (c)
				report(fl, IBU_MCF_DUPLICATE, snd, mem[i].node,
				       mem[i].port, c);
		} else if (!c) {
			report(fl, IBU_MCF_MISSING, snd, mem[i].node,
			       mem[i].port, 0);
		} else {
			fl->st->deliveries++;
			if (c > 1)
				report(fl, IBU_MCF_DUPLICATE, snd, mem[i].node,
				       mem[i].port, c);
		}
	}
	for (i = 0; i < fl->num_touched; i++) {
		int s = fl->touched[i];

		if (fl->role[s] != ROLE_RECV) {
			int node = 0;

			/* slot -> (node, port): base[] is increasing */
			int lo = 0, hi = fl->f->num_nodes - 1;

			while (lo < hi) {
				int mid = lo + (hi - lo + 1) / 2;

				if (fl->base[mid] <= s)
					lo = mid;
				else
					hi = mid - 1;
			}
			node = lo;
			report(fl, IBU_MCF_STRAY, snd, node, s - fl->base[node],
			       fl->copies[s]);
		}
		fl->copies[s] = 0;
	}
	fl->num_touched = 0;
}

/* Members of the current MLID inferred from the tables. */
static int infer(struct flood *fl, struct ibu_err *e)
{
	const struct ibu_fabric *f = fl->f;
	int n, p;

	fl->num_inferred = 0;
	for (n = 0; n < f->num_nodes; n++) {
		const struct ibu_node *nd = &f->nodes[n];

		if (!ibu_node_is_switch(nd) || ibu_pm_empty(&fl->mask[n]))
			continue;
		for (p = 0; p <= nd->num_ports; p++) {
			struct ibu_mcast_member m = { .node = n, .port = 0 };

			if (!ibu_pm_test(&fl->mask[n], p))
				continue;
			if (p) {
				int peer = nd->ports[p].peer_node;

				if (peer < 0 || ibu_node_is_switch(&f->nodes[peer]))
					continue;
				m.node = peer;
				m.port = nd->ports[p].peer_port;
			}
			if (fl->role[slot(fl, m.node, m.port)])
				continue;
			fl->role[slot(fl, m.node, m.port)] = ROLE_RECV;
			fl->inferred[fl->num_inferred++] = m;
		}
	}
	(void)e;
	return IBU_OK;
}

static const struct ibu_portmask *empty_masks(int num_nodes)
{
	return calloc(num_nodes ? num_nodes : 1, sizeof(struct ibu_portmask));
}

static int check_group(struct flood *fl, const struct ibu_mft *mft, int gi,
		       const struct ibu_mcgroup *grp, int listed,
		       const struct ibu_portmask *none, struct ibu_err *e)
{
	const struct ibu_mcast_member *mem;
	int num, i, rc;

	fl->mask = gi >= 0 ? mft->g[gi].mask : none;
	fl->gstamp++;
	fl->st->groups++;
	if (grp) {
		for (i = 0; i < grp->num; i++) {
			const struct ibu_mcast_member *m = &grp->m[i];

			if (m->node < 0 || m->node >= fl->f->num_nodes ||
			    m->port < 0 || m->port > fl->f->nodes[m->node].num_ports)
				return ibu_err_set(e, IBU_EINVAL,
						   "MLID 0x%04x: member node %d port %d out of range",
						   fl->mlid, m->node, m->port);
		}
		for (i = 0; i < grp->num; i++) {
			int s = slot(fl, grp->m[i].node, grp->m[i].port);

			if (fl->role[s] != ROLE_RECV)
				fl->role[s] = grp->m[i].send_only ?
					      ROLE_SEND_ONLY : ROLE_RECV;
		}
		mem = grp->m;
		num = grp->num;
	} else {
		if (listed)
			report(fl, IBU_MCF_UNLISTED, NULL, -1, -1, 0);
		rc = infer(fl, e);
		if (rc)
			return rc;
		mem = fl->inferred;
		num = fl->num_inferred;
	}
	for (i = 0; i < num; i++) {
		fl->st->floods++;
		flood_one(fl, &mem[i]);
		evaluate(fl, mem, num, &mem[i]);
	}
	for (i = 0; i < num; i++)
		fl->role[slot(fl, mem[i].node, mem[i].port)] = ROLE_NONE;
	return IBU_OK;
}

/* The flood's per-port and per-node scratch; -1 when out of memory. */
static int flood_alloc(struct flood *fl)
{
	const struct ibu_fabric *f = fl->f;
	int n, nn = f->num_nodes ? f->num_nodes : 1;

	fl->base = malloc(nn * sizeof(*fl->base));
	if (!fl->base)
		return -1;
	for (n = 0; n < f->num_nodes; n++) {
		fl->base[n] = fl->num_slots;
		fl->num_slots += f->nodes[n].num_ports + 1;
	}
	fl->copies = calloc(fl->num_slots + 1, sizeof(*fl->copies));
	fl->role = calloc(fl->num_slots + 1, 1);
	fl->linkmark = calloc(fl->num_slots + 1, sizeof(*fl->linkmark));
	fl->deadmark = calloc(fl->num_slots + 1, sizeof(*fl->deadmark));
	fl->touched = malloc((fl->num_slots + 1) * sizeof(*fl->touched));
	fl->inferred = malloc((fl->num_slots + 1) * sizeof(*fl->inferred));
	fl->visited = calloc(nn, sizeof(*fl->visited));
	fl->qnode = malloc(nn * sizeof(*fl->qnode));
	fl->qport = malloc(nn * sizeof(*fl->qport));
	if (!fl->copies || !fl->role || !fl->linkmark || !fl->deadmark ||
	    !fl->touched || !fl->inferred || !fl->visited || !fl->qnode ||
	    !fl->qport)
		return -1;
	return 0;
}

static void flood_free(struct flood *fl)
{
	free(fl->base);
	free(fl->copies);
	free(fl->role);
	free(fl->linkmark);
	free(fl->deadmark);
	free(fl->touched);
	free(fl->inferred);
	free(fl->visited);
	free(fl->qnode);
	free(fl->qport);
}

/* Every MLID of the tables and of the member list, in order. */
static int flood_groups(struct flood *fl, const struct ibu_mft *mft,
			const struct ibu_mcmembers *mm,
			const struct ibu_portmask *none, struct ibu_err *e)
{
	int gi = 0, mi = 0, rc = IBU_OK;

	while (!rc && (gi < mft->num_groups || (mm && mi < mm->num_groups))) {
		uint16_t a = gi < mft->num_groups ? mft->g[gi].mlid : 0xFFFF;
		uint16_t b = (mm && mi < mm->num_groups) ? mm->g[mi].mlid : 0xFFFF;

		if (a <= b && gi < mft->num_groups) {
			fl->mlid = a;
			rc = check_group(fl, mft, gi, a == b ? &mm->g[mi] : NULL,
					 mm != NULL, none, e);
			gi++;
			if (a == b)
				mi++;
		} else {
			fl->mlid = b;
			rc = check_group(fl, mft, -1, &mm->g[mi], 1, none, e);
			mi++;
		}
	}
	return rc;
}

int ibu_mcf_run(const struct ibu_fabric *f, const struct ibu_mft *mft,
		const struct ibu_mcmembers *mm, ibu_mcf_issue_fn issue,
		void *ctx, struct ibu_mcf_stats *st,
		struct ibu_linkload *ll, struct ibu_err *e)
{
	struct flood fl = { .f = f, .issue = issue, .ctx = ctx, .st = st,
			    .ll = ll };
	const struct ibu_portmask *none = NULL;
	int rc = IBU_OK;

	memset(st, 0, sizeof(*st));
	if (mft->num_nodes != f->num_nodes)
		return ibu_err_set(e, IBU_EINVAL,
				   "MFT model has %d nodes, fabric %d",
				   mft->num_nodes, f->num_nodes);
	if (ll) {
		rc = ibu_linkload_init(ll, f, e);
		if (rc)
			return rc;
	}
	none = empty_masks(f->num_nodes);
	if (flood_alloc(&fl) || !none)
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory (multicast flood)");
	else
		rc = flood_groups(&fl, mft, mm, none, e);
	flood_free(&fl);
	free((void *)none);
	if (rc && ll)
		ibu_linkload_free(ll);
	return rc;
}

long ibu_mcf_problems(const struct ibu_mcf_stats *st)
{
	return st->count[IBU_MCF_MISSING] + st->count[IBU_MCF_DUPLICATE] +
	       st->count[IBU_MCF_STRAY] + st->count[IBU_MCF_LOOP];
}

int ibu_mcf_tops(const struct ibu_mft *mft, int gi,
		 int (*rank)(const void *ctx, int node), const void *ctx,
		 int *tops, int max, int *level)
{
	int n, best = -1, cnt = 0;

	if (gi < 0 || gi >= mft->num_groups)
		return -1;
	for (n = 0; n < mft->num_nodes; n++) {
		int r;

		if (ibu_pm_empty(&mft->g[gi].mask[n]))
			continue;
		r = rank(ctx, n);
		if (r < 0)
			continue;
		if (best < 0 || r < best) {
			best = r;
			cnt = 0;
		}
		if (r == best) {
			if (cnt < max)
				tops[cnt] = n;
			cnt++;
		}
	}
	if (level)
		*level = best;
	return best < 0 ? -1 : cnt;
}
