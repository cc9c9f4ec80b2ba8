/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Host digits, lca levels and the advised DLID offsets on a PGFT. */
#include "pgft.h"

void ibu_pgft_digits(const struct ibu_pgft *g, long D, long *x)
{
	const struct ibu_pgft_params *P = &g->P;
	int l;

	x[1] = D;
	for (l = 1; l < P->h; l++)
		x[l + 1] = (x[l] / ibu_pgft_up_ports(P, l)) * P->p[l + 1] +
			   x[l] % P->p[l + 1];
}

int ibu_pgft_lca_level(const struct ibu_pgft *g, int S, int D)
{
	int l, H = g->P.h + 1;

	for (l = 1; l < g->P.h; l++)
		if (g->host_sub[(long)S * H + l] == g->host_sub[(long)D * H + l])
			return l;
	return g->P.h;
}

/* x[l] of host D under the rule: the generalised digits, or the paper's
 * PID digit of weight half^(l-1) (its p_(h-l)). */
static void rule_digits(const struct ibu_pgft *g,
			const struct ibu_pgft_paper *paper, long D, long *x)
{
	long v;
	int l;

	if (!paper) {
		ibu_pgft_digits(g, D, x);
		return;
	}
	for (v = paper->pid[D], l = 1; l <= g->P.h; l++, v /= paper->half)
		x[l] = v;
}

unsigned ibu_pgft_offset_rule(const struct ibu_pgft *g, int lmc,
			      const struct ibu_pgft_paper *paper, int S, int D)
{
	long xs[IBU_PGFT_MAX_H + 1], xd[IBU_PGFT_MAX_H + 1], R = 1, o = 0;
	int l, L = ibu_pgft_lca_level(g, S, D);
	int levels = ibu_pgft_offset_levels(g, lmc);

	rule_digits(g, paper, S, xs);
	rule_digits(g, paper, D, xd);
	for (l = 1; l < L && l <= levels; l++) {
		long U = ibu_pgft_up_ports(&g->P, l);
		long rd = paper && !paper->rotated ? 0 : xd[l];	/* Eq. 2 */

		if (l == 1)
			rd += ibu_pgft_rule_rotation(g, g->host[S].leaf, D);

		o += (((xs[l] - rd) % U + U) % U) * R;
		R *= U;
	}
	return (unsigned)o;
}

unsigned ibu_pgft_offset(const struct ibu_pgft *g, int lmc, int S, int D)
{
	return ibu_pgft_offset_rule(g, lmc, NULL, S, D);
}

int ibu_pgft_turn_rule(const struct ibu_fabric *f, const struct ibu_pgft *g,
		       int lmc, const struct ibu_pgft_paper *paper, int S, int D)
{
	long xs[IBU_PGFT_MAX_H + 1], xd[IBU_PGFT_MAX_H + 1];
	int l, s = g->host[S].leaf, L = ibu_pgft_lca_level(g, S, D);
	int levels = ibu_pgft_offset_levels(g, lmc);

	rule_digits(g, paper, S, xs);
	rule_digits(g, paper, D, xd);
	for (l = 1; l < L; l++) {
		long U = ibu_pgft_up_ports(&g->P, l);
		long i = l <= levels ? xs[l] % U : l > 1 ? xd[l] % U :
			 (xd[l] + ibu_pgft_rule_rotation(g, s, D)) % U;
		const int *up = paper ? paper->up[s] : g->up[s];
		long k;

		if (!up)
			return -1;
		/* a lost cable: the next slot that survives (the route
		 * may take another where that one leads nowhere) */
		for (k = 0; k < U && !up[(i + k) % U]; k++)
			;
		if (k == U)
			return -1;
		s = f->nodes[s].ports[up[(i + k) % U]].peer_node;
	}
	return s;
}

int ibu_pgft_turn_switch(const struct ibu_fabric *f, const struct ibu_pgft *g,
			 int lmc, int S, int D)
{
	return ibu_pgft_turn_rule(f, g, lmc, NULL, S, D);
}
