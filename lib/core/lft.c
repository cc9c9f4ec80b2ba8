/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdlib.h>
#include <string.h>
#include "lft.h"

int ibu_lft_init(struct ibu_lft *l, const struct ibu_fabric *f,
		 uint32_t max_lid, struct ibu_err *e)
{
	int i;

	memset(l, 0, sizeof(*l));
	if (max_lid > IBU_MAX_UCAST_LID)
		return ibu_err_set(e, IBU_ELID, "LID 0x%x beyond unicast space",
				   max_lid);
	l->row = calloc(f->num_nodes ? f->num_nodes : 1, sizeof(*l->row));
	if (!l->row)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	l->num_nodes = f->num_nodes;
	l->max_lid = max_lid;
	for (i = 0; i < f->num_nodes; i++) {
		if (!ibu_node_is_switch(&f->nodes[i]))
			continue;
		l->row[i] = malloc(max_lid + 1);
		if (!l->row[i]) {
			ibu_lft_free(l);
			return ibu_err_set(e, IBU_ENOMEM, "out of memory");
		}
		memset(l->row[i], IBU_NO_PATH, max_lid + 1);
	}
	return IBU_OK;
}

void ibu_lft_free(struct ibu_lft *l)
{
	int i;

	if (!l || !l->row)
		return;
	for (i = 0; i < l->num_nodes; i++)
		free(l->row[i]);
	free(l->row);
	memset(l, 0, sizeof(*l));
}

long ibu_lft_count_diff(const struct ibu_lft *a, const struct ibu_lft *b)
{
	uint32_t max = a->max_lid > b->max_lid ? a->max_lid : b->max_lid;
	long diff = 0;
	uint32_t lid;
	int i;

	for (i = 0; i < a->num_nodes && i < b->num_nodes; i++) {
		if (!a->row[i] && !b->row[i])
			continue;
		for (lid = 1; lid <= max; lid++)
			diff += ibu_lft_get(a, i, lid) != ibu_lft_get(b, i, lid);
	}
	return diff;
}
