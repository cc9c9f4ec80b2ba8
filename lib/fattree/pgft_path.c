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

unsigned ibu_pgft_offset(const struct ibu_pgft *g, int lmc, int S, int D)
{
	long xs[IBU_PGFT_MAX_H + 1], xd[IBU_PGFT_MAX_H + 1], R = 1, o = 0;
	int l, L = ibu_pgft_lca_level(g, S, D);
	int levels = ibu_pgft_offset_levels(g, lmc);

	ibu_pgft_digits(g, S, xs);
	ibu_pgft_digits(g, D, xd);
	for (l = 1; l < L && l <= levels; l++) {
		long U = ibu_pgft_up_ports(&g->P, l);

		o += (((xs[l] - xd[l]) % U + U) % U) * R;
		R *= U;
	}
	return (unsigned)o;
}

int ibu_pgft_turn_switch(const struct ibu_fabric *f, const struct ibu_pgft *g,
			 int lmc, int S, int D)
{
	long xs[IBU_PGFT_MAX_H + 1], xd[IBU_PGFT_MAX_H + 1];
	int l, s = g->host[S].leaf, L = ibu_pgft_lca_level(g, S, D);
	int levels = ibu_pgft_offset_levels(g, lmc);

	ibu_pgft_digits(g, S, xs);
	ibu_pgft_digits(g, D, xd);
	for (l = 1; l < L; l++) {
		long U = ibu_pgft_up_ports(&g->P, l);
		long i = l <= levels ? xs[l] % U : xd[l] % U;

		long k;

		if (!g->up[s])
			return -1;
		/* a lost cable: the next slot that survives (the route
		 * may take another where that one leads nowhere) */
		for (k = 0; k < U && !g->up[s][(i + k) % U]; k++)
			;
		if (k == U)
			return -1;
		s = f->nodes[s].ports[g->up[s][(i + k) % U]].peer_node;
	}
	return s;
}
