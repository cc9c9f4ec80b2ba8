/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdlib.h>
#include <string.h>
#include "dump_scope.h"

/* The fabric switch of table i, -1 if none (GUID first: a name is only a
 * hint, as in ibu_dump_apply()). */
static int table_node(const struct ibu_dump *d, int i,
		      const struct ibu_fabric *f)
{
	int n = ibu_fabric_find_guid(f, d->sw[i].guid);

	if (!ibu_is_sw(f, n) && d->sw[i].name[0])
		n = ibu_fabric_find_name(f, d->sw[i].name);
	return ibu_is_sw(f, n) ? n : -1;
}

/* Marks in keep[] every node reached from the queued seeds (q[0..n-1]). */
static void reach(const struct ibu_fabric *f, uint8_t *keep, int *q, int n)
{
	int h, p;

	for (h = 0; h < n; h++) {
		const struct ibu_node *nd = &f->nodes[q[h]];

		for (p = 1; p <= nd->num_ports; p++) {
			int m = nd->ports[p].peer_node;

			if (m >= 0 && !keep[m]) {
				keep[m] = 1;
				q[n++] = m;
			}
		}
	}
}

/* The LID dump_lfts left out of every table (see struct ibu_dump_scope),
 * 0 none. */
static uint32_t short_top(const struct ibu_dump *d)
{
	uint32_t top = 0;
	int i;

	for (i = 0; i < d->num_switches; i++) {
		const struct ibu_dump_switch *sw = &d->sw[i];

		if (sw->top < 64 || sw->top % 64 || sw->max_lid >= sw->top ||
		    (top && sw->top != top))
			return 0;
		top = sw->top;
	}
	return top > d->max_lid ? top : 0;
}

int ibu_dump_scope(const struct ibu_dump *d, struct ibu_fabric *f,
		   struct ibu_dump_scope *left, struct ibu_err *e)
{
	size_t nn = f->num_nodes ? (size_t)f->num_nodes : 1;
	uint8_t *keep = calloc(nn, 1);
	int *q = malloc(nn * sizeof(*q));
	int i, n = 0, rc = IBU_OK;

	memset(left, 0, sizeof(*left));
	left->short_top = short_top(d);
	if (!keep || !q) {
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
		goto out;
	}
	if (!f->indexed && (rc = ibu_fabric_index(f, e)))
		goto out;
	for (i = 0; i < d->num_switches; i++) {
		int s = table_node(d, i, f);

		if (s >= 0 && !keep[s]) {
			keep[s] = 1;
			q[n++] = s;
		}
	}
	if (!n)
		goto out;
	reach(f, keep, q, n);
	for (i = 0; i < f->num_nodes; i++) {
		keep[i] = !keep[i];	/* from here on: drop */
		if (keep[i] && ibu_is_sw(f, i))
			left->switches++;
		else if (keep[i])
			left->ends++;
	}
	if (left->switches + left->ends)
		rc = ibu_fabric_remove_nodes(f, keep, e);
out:
	free(keep);
	free(q);
	return rc;
}

int ibu_dump_read_lfts_scoped(const char *path, struct ibu_fabric *f,
			      struct ibu_lft *lft,
			      struct ibu_dump_scope *left, struct ibu_err *e)
{
	struct ibu_dump d;
	int rc;

	memset(lft, 0, sizeof(*lft));
	memset(left, 0, sizeof(*left));
	rc = ibu_dump_parse(path, &d, e);
	if (rc)
		return rc;
	rc = ibu_dump_scope(&d, f, left, e);
	if (!rc)
		rc = ibu_dump_apply(&d, f, lft, NULL, e);
	ibu_dump_free(&d);
	return rc;
}
