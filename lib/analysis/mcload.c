/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Multicast load tracking shared by the engines (see mcload.h). */
#include <stdlib.h>
#include <string.h>
#include "mcload.h"

struct ibu_mcload_rec {
	uint32_t key;
	int n[IBU_MCLOAD_MAX_KINDS];
	int *items;		/* kind 0's n[0] items, then kind 1's, ... */
};

int ibu_mcload_init(struct ibu_mcload *l, int num_kinds, const int *size,
		    struct ibu_err *e)
{
	int k;

	memset(l, 0, sizeof(*l));
	if (num_kinds < 1 || num_kinds > IBU_MCLOAD_MAX_KINDS)
		return ibu_err_set(e, IBU_EINVAL, "%d kinds of multicast load",
				   num_kinds);
	l->num_kinds = num_kinds;
	for (k = 0; k < num_kinds; k++) {
		l->size[k] = size[k] > 0 ? size[k] : 0;
		l->count[k] = calloc(l->size[k] ? (size_t)l->size[k] : 1,
				     sizeof(*l->count[k]));
		if (!l->count[k]) {
			ibu_mcload_free(l);
			return ibu_err_set(e, IBU_ENOMEM,
					   "out of memory (multicast load)");
		}
	}
	return IBU_OK;
}

void ibu_mcload_reset(struct ibu_mcload *l)
{
	int i, k;

	for (i = 0; i < l->num_rec; i++)
		free(l->rec[i].items);
	l->num_rec = 0;
	for (k = 0; k < l->num_kinds; k++)
		if (l->count[k])
			memset(l->count[k], 0,
			       (size_t)l->size[k] * sizeof(*l->count[k]));
}

void ibu_mcload_free(struct ibu_mcload *l)
{
	int k;

	if (!l)
		return;
	ibu_mcload_reset(l);
	free(l->rec);
	for (k = 0; k < IBU_MCLOAD_MAX_KINDS; k++)
		free(l->count[k]);
	memset(l, 0, sizeof(*l));
}

/* Index of the first record whose key is >= key. */
static int rec_pos(const struct ibu_mcload *l, uint32_t key)
{
	int lo = 0, hi = l->num_rec;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (l->rec[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Adds d (+1 or -1, never below 0) to every item of r. */
static void rec_apply(struct ibu_mcload *l, const struct ibu_mcload_rec *r,
		      int d)
{
	const int *it = r->items;
	int k, i;

	for (k = 0; k < l->num_kinds; it += r->n[k], k++)
		for (i = 0; i < r->n[k]; i++) {
			uint32_t *c;

			if (it[i] < 0 || it[i] >= l->size[k])
				continue;
			c = &l->count[k][it[i]];
			if (d > 0)
				(*c)++;
			else if (*c)
				(*c)--;
		}
}

static void rec_drop(struct ibu_mcload *l, int i)
{
	rec_apply(l, &l->rec[i], -1);
	free(l->rec[i].items);
	memmove(&l->rec[i], &l->rec[i + 1],
		(size_t)(l->num_rec - i - 1) * sizeof(*l->rec));
	l->num_rec--;
}

void ibu_mcload_release(struct ibu_mcload *l, uint32_t key)
{
	int i;

	if (!l)
		return;
	i = rec_pos(l, key);
	if (i < l->num_rec && l->rec[i].key == key)
		rec_drop(l, i);
}

void ibu_mcload_prune(struct ibu_mcload *l,
		      int (*alive)(void *ctx, uint32_t key), void *ctx)
{
	int i;

	for (i = l->num_rec - 1; i >= 0; i--)
		if (!alive(ctx, l->rec[i].key))
			rec_drop(l, i);
}

int ibu_mcload_count(const struct ibu_mcload *l)
{
	return l->num_rec;
}

/* Room for one more record. */
static int rec_room(struct ibu_mcload *l, struct ibu_err *e)
{
	struct ibu_mcload_rec *nr;
	int cap;

	if (l->num_rec < l->cap_rec)
		return IBU_OK;
	cap = l->cap_rec ? 2 * l->cap_rec : 64;
	nr = realloc(l->rec, (size_t)cap * sizeof(*nr));
	if (!nr)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory (multicast load)");
	l->rec = nr;
	l->cap_rec = cap;
	return IBU_OK;
}

int ibu_mcload_add(struct ibu_mcload *l, uint32_t key,
		   const int *const *items, const int *n, struct ibu_err *e)
{
	struct ibu_mcload_rec r;
	size_t total = 0, at = 0;
	int k, i;

	ibu_mcload_release(l, key);
	memset(&r, 0, sizeof(r));
	r.key = key;
	for (k = 0; k < l->num_kinds; k++) {
		r.n[k] = n[k] > 0 ? n[k] : 0;
		total += (size_t)r.n[k];
	}
	if (rec_room(l, e))
		return IBU_ENOMEM;
	r.items = malloc((total ? total : 1) * sizeof(*r.items));
	if (!r.items)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory (multicast load)");
	for (k = 0; k < l->num_kinds; at += (size_t)r.n[k], k++)
		if (r.n[k])
			memcpy(r.items + at, items[k],
			       (size_t)r.n[k] * sizeof(*r.items));
	rec_apply(l, &r, +1);
	i = rec_pos(l, key);
	memmove(&l->rec[i + 1], &l->rec[i],
		(size_t)(l->num_rec - i) * sizeof(*l->rec));
	l->rec[i] = r;
	l->num_rec++;
	return IBU_OK;
}

void ibu_mcload_state_free(void *state)
{
	if (!state)
		return;
	ibu_mcload_free(state);
	free(state);
}

void ibu_mcload_state_release(void *state, uint32_t key)
{
	ibu_mcload_release(state, key);
}

void ibu_mcload_state_prune(void *state,
			    int (*alive)(void *ctx, uint32_t key), void *ctx)
{
	ibu_mcload_prune(state, alive, ctx);
}
