/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdlib.h>
#include <string.h>
#include "lidmap.h"

struct build {
	const struct ibu_fabric *f;
	struct ibu_lidmap *m;
	struct ibu_err *e;
};

static int claim(void *ctx, int node, int port, const struct ibu_port *pt)
{
	struct build *b = ctx;
	uint32_t k, cnt = 1u << pt->lmc;

	for (k = 0; k < cnt; k++) {
		struct ibu_lid_owner *o = &b->m->owner[pt->lid + k];

		if (o->node >= 0 && (o->node != node || o->port != port))
			return ibu_err_set(b->e, IBU_ELID,
					   "LID 0x%04x is owned by both '%s' port %d and '%s' port %d",
					   pt->lid + k, b->f->nodes[o->node].name,
					   o->port, b->f->nodes[node].name, port);
		o->node = node;
		o->port = (int16_t)port;
		o->offset = (uint8_t)k;
	}
	return 0;
}

int ibu_lidmap_build(const struct ibu_fabric *f, struct ibu_lidmap *m,
		     struct ibu_err *e)
{
	struct build b = { f, m, e };
	uint32_t lid;
	int rc;

	memset(m, 0, sizeof(*m));
	m->max_lid = ibu_fabric_max_lid(f);
	if (m->max_lid > IBU_MAX_UCAST_LID)
		return ibu_err_set(e, IBU_ELID,
				   "LID 0x%x is beyond the unicast space 0xBFFF",
				   m->max_lid);
	m->owner = malloc((m->max_lid + 1) * sizeof(*m->owner));
	if (!m->owner)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (lid = 0; lid <= m->max_lid; lid++)
		m->owner[lid].node = -1;
	rc = ibu_fabric_foreach_lid_port(f, claim, &b);
	if (rc)
		ibu_lidmap_free(m);
	return rc;
}

void ibu_lidmap_free(struct ibu_lidmap *m)
{
	if (!m)
		return;
	free(m->owner);
	memset(m, 0, sizeof(*m));
}
