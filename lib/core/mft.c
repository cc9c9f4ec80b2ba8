/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Multicast forwarding tables: the model (the dump_mfts text is lib/io/mft_dump.c). */
#include <stdlib.h>
#include <string.h>
#include "mft.h"

int ibu_pm_count(const struct ibu_portmask *m)
{
	int i, n = 0;

	for (i = 0; i < 4; i++)
		n += __builtin_popcountll(m->w[i]);
	return n;
}

int ibu_mft_init(struct ibu_mft *t, int num_nodes, struct ibu_err *e)
{
	memset(t, 0, sizeof(*t));
	if (num_nodes < 0)
		return ibu_err_set(e, IBU_EINVAL, "negative node count");
	t->num_nodes = num_nodes;
	t->dumped = calloc(num_nodes ? num_nodes : 1, 1);
	if (!t->dumped)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory (MFT)");
	return IBU_OK;
}

void ibu_mft_free(struct ibu_mft *t)
{
	int i;

	if (!t)
		return;
	for (i = 0; i < t->num_groups; i++)
		free(t->g[i].mask);
	free(t->g);
	free(t->dumped);
	memset(t, 0, sizeof(*t));
}

/* Position of mlid in the sorted group array (insertion point if absent). */
static int lower_bound(const struct ibu_mft *t, uint16_t mlid)
{
	int lo = 0, hi = t->num_groups;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (t->g[mid].mlid < mlid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int ibu_mft_find(const struct ibu_mft *t, uint16_t mlid)
{
	int i = lower_bound(t, mlid);

	return (i < t->num_groups && t->g[i].mlid == mlid) ? i : -1;
}

const struct ibu_portmask *ibu_mft_get(const struct ibu_mft *t, uint16_t mlid,
				       int node)
{
	int i = ibu_mft_find(t, mlid);

	if (i < 0 || node < 0 || node >= t->num_nodes)
		return NULL;
	return &t->g[i].mask[node];
}

struct ibu_mft_group *ibu_mft_group(struct ibu_mft *t, uint16_t mlid,
				    struct ibu_err *e)
{
	struct ibu_portmask *mask;
	int i;

	if (mlid < IBU_MCAST_LID_BASE || mlid > IBU_MAX_MLID) {
		ibu_err_set(e, IBU_EINVAL, "0x%x is not a multicast LID", mlid);
		return NULL;
	}
	i = lower_bound(t, mlid);
	if (i < t->num_groups && t->g[i].mlid == mlid)
		return &t->g[i];
	if (t->num_groups == t->cap_groups) {
		int cap = t->cap_groups ? 2 * t->cap_groups : 16;
		struct ibu_mft_group *g = realloc(t->g, cap * sizeof(*g));

		if (!g) {
			ibu_err_set(e, IBU_ENOMEM, "out of memory (MFT)");
			return NULL;
		}
		t->g = g;
		t->cap_groups = cap;
	}
	mask = calloc(t->num_nodes ? t->num_nodes : 1, sizeof(*mask));
	if (!mask) {
		ibu_err_set(e, IBU_ENOMEM, "out of memory (MFT)");
		return NULL;
	}
	memmove(&t->g[i + 1], &t->g[i], (t->num_groups - i) * sizeof(*t->g));
	t->g[i].mlid = mlid;
	t->g[i].mask = mask;
	t->num_groups++;
	return &t->g[i];
}

int ibu_mft_set(struct ibu_mft *t, uint16_t mlid, int node, int port,
		struct ibu_err *e)
{
	struct ibu_mft_group *g;

	if (node < 0 || node >= t->num_nodes || port < 0 ||
	    port > IBU_MAX_PORTS)
		return ibu_err_set(e, IBU_EINVAL,
				   "MFT entry node %d port %d out of range",
				   node, port);
	g = ibu_mft_group(t, mlid, e);
	if (!g)
		return e ? e->code : IBU_ENOMEM;
	ibu_pm_set(&g->mask[node], port);
	return IBU_OK;
}

void ibu_mft_clear_mlid(struct ibu_mft *t, uint16_t mlid)
{
	int i = ibu_mft_find(t, mlid);

	if (i < 0)
		return;
	free(t->g[i].mask);
	memmove(&t->g[i], &t->g[i + 1],
		(t->num_groups - i - 1) * sizeof(*t->g));
	t->num_groups--;
}

int ibu_mft_group_empty(const struct ibu_mft *t, int gi)
{
	int n;

	if (gi < 0 || gi >= t->num_groups)
		return 1;
	for (n = 0; n < t->num_nodes; n++)
		if (!ibu_pm_empty(&t->g[gi].mask[n]))
			return 0;
	return 1;
}
