/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * One eBB estimator for the passes on damaged trees (pgft_bisect.h has
 * the measure). One module so that every pass weighs a change on the same
 * pairs, drawn as the load tool draws its bisections.
 */
#include <stdlib.h>
#include <string.h>
#include "fabric_gen.h"
#include "pgft_bisect.h"

uint32_t ibu__bisect_lid(const struct router *r, int D)
{
	const struct ibu_pgft_host *h = &r->g->host[D];
	uint32_t lid = r->f->nodes[h->node].ports[h->port].lid;

	return lid <= r->lft->max_lid ? lid : 0;
}

int ibu__bisect_walk(const struct router *r, int s, uint32_t lid, int *slots,
		     int max)
{
	int n = 0, port, peer;

	if (!lid)
		return -1;
	for (;;) {
		if (!r->lft->row[s])
			return -1;
		port = r->lft->row[s][lid];
		if (port == 0)
			return n;
		if (port == IBU_NO_PATH || port > r->f->nodes[s].num_ports)
			return -1;
		peer = r->f->nodes[s].ports[port].peer_node;
		if (peer < 0)
			return -1;
		if (!ibu_is_sw(r->f, peer))
			return n;
		if (n == max)
			return -1;
		slots[n++] = r->pbase[s] + port;
		s = peer;
	}
}

/* Bisection k's pairs: a shuffle of its own seed (seed and k mixed as
 * the load tool mixes its samples), first half with second. */
static void draw(struct ibu__bisect *b, uint64_t seed, int k, int *perm)
{
	uint64_t s = seed ^ ((uint64_t)k * 0xd1b54a32d192ed03ULL);
	int *to = b->to + (size_t)k * (size_t)b->N, half = b->N / 2, i, j, x;

	for (i = 0; i < b->N; i++)
		perm[i] = i;
	for (i = 0; i < b->N - 1; i++) {
		j = i + (int)(ibu_gen_rand(&s) % (uint64_t)(b->N - i));
		x = perm[i];
		perm[i] = perm[j];
		perm[j] = x;
	}
	for (i = 0; i < b->N; i++)
		to[i] = -1;
	for (i = 0; i < half; i++) {
		to[perm[i]] = perm[half + i];
		to[perm[half + i]] = perm[i];
	}
}

int ibu__bisect_init(struct ibu__bisect *b, const struct router *r, int nb,
		     uint64_t seed, struct ibu_err *e)
{
	size_t ns = 1;
	int i, *perm;

	memset(b, 0, sizeof(*b));
	b->N = (int)r->g->num_hosts;
	b->nb = nb;
	for (i = 0; i < r->f->num_nodes; i++)
		ns += (size_t)r->f->nodes[i].num_ports + 1;
	b->to = malloc(((size_t)nb + 1) * ((size_t)b->N + 1) * sizeof(int));
	perm = malloc(((size_t)b->N + 1) * sizeof(int));
	b->load = calloc(ns, sizeof(uint32_t));
	b->touch = malloc(ns * sizeof(int));
	if (!b->to || !perm || !b->load || !b->touch) {
		free(perm);
		ibu__bisect_free(b);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	for (i = 0; i < nb; i++)
		draw(b, seed, i, perm);
	free(perm);
	return IBU_OK;
}

void ibu__bisect_free(struct ibu__bisect *b)
{
	free(b->to);
	free(b->load);
	free(b->touch);
	memset(b, 0, sizeof(*b));
}

/* Bisection k's flows onto load (add 1), or their sum of 1 / busiest
 * (add 0, load cleared after). */
static double flows(struct ibu__bisect *b, const struct router *r, int k,
		    int add)
{
	const int *to = b->to + (size_t)k * (size_t)b->N;
	int c[IBU__BISECT_HOPS], S, n, j;
	uint32_t m;
	double sum = 0;

	for (S = 0; S < b->N; S++) {
		if (to[S] < 0)
			continue;
		n = ibu__bisect_walk(r, r->g->host[S].leaf,
				     ibu__bisect_lid(r, to[S]), c,
				     IBU__BISECT_HOPS);
		for (j = 0, m = 1; j < n; j++) {
			if (add && !b->load[c[j]]++)
				b->touch[b->ntouch++] = c[j];
			m = b->load[c[j]] > m ? b->load[c[j]] : m;
		}
		sum += n >= 0 ? 1.0 / m : 0;
	}
	if (!add)
		while (b->ntouch > 0)
			b->load[b->touch[--b->ntouch]] = 0;
	return sum;
}

double ibu__bisect_one(struct ibu__bisect *b, const struct router *r, int k)
{
	flows(b, r, k, 1);
	return flows(b, r, k, 0);
}

double ibu__bisect_ebb(struct ibu__bisect *b, const struct router *r)
{
	double sum = 0;
	int k;

	if (b->N < 2 || b->nb < 1)
		return 0;
	for (k = 0; k < b->nb; k++)
		sum += ibu__bisect_one(b, r, k);
	return sum / b->nb / (b->N / 2 * 2);
}
