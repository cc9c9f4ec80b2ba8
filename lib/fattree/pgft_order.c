/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The compute hosts of a PGFT numbered in the admin's order (OpenSM's
 * guid_routing_order_file), kept topology-consistent: sub-trees in the
 * order of their first listed host, top level first, then leaves, then
 * hosts in file order. D-mod-K then spreads shift permutations in that
 * order as it does in the engine's own; hosts the file omits follow in
 * the engine's order, leaving no gap.
 */
#include <stdlib.h>
#include <string.h>
#include "pgft.h"

int ibu__cmp_okey(const void *a, const void *b)
{
	const struct ibu__okey *x = a, *y = b;
	int i;

	for (i = 0; i <= IBU_PGFT_MAX_H; i++)
		if (x->key[i] != y->key[i])
			return x->key[i] < y->key[i] ? -1 : 1;
	return 0;
}

struct gpos {
	uint64_t guid;
	int pos;
};

/* pos[D]: D's line in the file, else num + D (after every listed one). */
static int positions(const struct ibu_fabric *f, const struct ibu_pgft *g,
		     const uint64_t *guid, int num, uint64_t *pos,
		     struct ibu_pgft_order_stats *st)
{
	struct gpos *s = malloc(((size_t)num + 1) * sizeof(*s)), q, *hit;
	int i, D;

	if (!s)
		return IBU_ENOMEM;
	for (i = 0; i < num; i++)
		s[i] = (struct gpos){ guid[i], i };
	qsort(s, (size_t)num, sizeof(*s), ibu__cmp_u64);
	for (D = 0; D < g->num_hosts; D++) {
		q.guid = f->nodes[g->host[D].node].ports[g->host[D].port].guid;
		hit = bsearch(&q, s, (size_t)num, sizeof(*s), ibu__cmp_u64);
		pos[D] = hit ? (uint64_t)hit->pos : (uint64_t)num + (uint64_t)D;
		st->listed += hit != NULL;
	}
	st->absent = g->num_hosts - st->listed;
	st->unknown = num - st->listed;
	free(s);
	return IBU_OK;
}

/* key[D]: each level's sub-tree ranked by its least pos, then pos. */
static int keys(const struct ibu_pgft *g, const uint64_t *pos,
		struct ibu__okey *k)
{
	int H = g->P.h, n = g->num_hosts, D, l, j, first, i = 0;
	struct ibu__gkey *t = malloc(((size_t)n + 1) * sizeof(*t));

	if (!t)
		return IBU_ENOMEM;
	for (D = 0; D < n; D++)
		k[D] = (struct ibu__okey){ .D = D };
	for (l = H - 1; l >= 1; l--, i++) {
		for (D = 0; D < n; D++) {
			t[D].group = g->host_sub[(size_t)D * (H + 1) + l];
			t[D].key = pos[D];
			t[D].i = D;
		}
		/* sorted by (sub-tree, pos): a sub-tree's first entry has its
		 * least pos */
		qsort(t, (size_t)n, sizeof(*t), ibu__cmp_gkey);
		for (j = first = 0; j < n; j++) {
			if (t[j].group != t[first].group)
				first = j;
			k[t[j].i].key[i] = t[first].key;
		}
	}
	for (D = 0; D < n; D++)
		k[D].key[i] = pos[D];
	free(t);
	return IBU_OK;
}

/* g's hosts (and their sub-tree rows and port map) in the order k. */
static int renumber(struct ibu_pgft *g, const struct ibu__okey *k)
{
	int H = g->P.h, n = g->num_hosts, D;
	struct ibu_pgft_host *host = malloc(((size_t)n + 1) * sizeof(*host));
	uint64_t *sub = malloc(((size_t)n + 1) * (size_t)(H + 1) * sizeof(*sub));

	if (!host || !sub) {
		free(host);
		free(sub);
		return IBU_ENOMEM;
	}
	for (D = 0; D < n; D++) {
		host[D] = g->host[k[D].D];
		memcpy(sub + (size_t)D * (H + 1),
		       g->host_sub + (size_t)k[D].D * (H + 1),
		       (size_t)(H + 1) * sizeof(*sub));
		g->host_of_port[g->host_base[host[D].node] + host[D].port] = D;
	}
	free(g->host);
	free(g->host_sub);
	g->host = host;
	g->host_sub = sub;
	return ibu__pgft_rank_leaves(g);
}

/* Listed hosts whose place among the listed ones is not the file's (0:
 * the file kept sub-trees together and its order survives), -1 ENOMEM. */
static int moved(const struct ibu__okey *k, int n, const uint64_t *pos,
		 int num)
{
	uint64_t *seq = malloc(2 * ((size_t)n + 1) * sizeof(*seq)), *srt;
	int D, c = 0, r = 0;

	if (!seq)
		return -1;
	srt = seq + n + 1;
	for (D = 0; D < n; D++)
		if (pos[k[D].D] < (uint64_t)num)
			seq[c++] = pos[k[D].D];
	memcpy(srt, seq, (size_t)c * sizeof(*srt));
	qsort(srt, (size_t)c, sizeof(*srt), ibu__cmp_u64);
	for (D = 0; D < c; D++)
		r += seq[D] != srt[D];
	free(seq);
	return r;
}

int ibu_pgft_apply_order(const struct ibu_fabric *f, struct ibu_pgft *g,
			 const uint64_t *guid, int num,
			 struct ibu_pgft_order_stats *st, struct ibu_err *e)
{
	size_t n = (size_t)g->num_hosts + 1;
	uint64_t *pos = malloc(n * sizeof(*pos));
	struct ibu__okey *k = malloc(n * sizeof(*k));
	int rc = IBU_ENOMEM;

	memset(st, 0, sizeof(*st));
	if (pos && k && !positions(f, g, guid, num, pos, st) && !keys(g, pos, k)) {
		qsort(k, (size_t)g->num_hosts, sizeof(*k), ibu__cmp_okey);
		st->reordered = moved(k, g->num_hosts, pos, num);
		rc = st->reordered < 0 ? IBU_ENOMEM : renumber(g, k);
	}
	free(pos);
	free(k);
	return rc ? ibu_err_set(e, rc, "out of memory") : IBU_OK;
}
