/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The part of a fabric file that a dump's tables cover.
 *
 * OpenSM sweeps from its own port: a switch or host that the faults cut off
 * from it is never discovered, gets no LID and no table. A fabric file of the
 * whole cluster (an ibsim net file, an older ibnetdiscover) still holds such
 * islands; read beside a dump, every host on them looks unreachable and the
 * engines see two fabrics where OpenSM routed one. ibu_dump_scope() removes
 * them: it keeps every connected part of the fabric that holds a switch the
 * dump has a table for, the tools then judge what OpenSM was told.
 */
#ifndef IBU_DUMP_SCOPE_H
#define IBU_DUMP_SCOPE_H

#include "dump.h"

/* What ibu_dump_scope() left out. */
struct ibu_dump_scope {
	int switches, ends;	/* switches, end nodes (CAs, routers) removed */
	uint32_t short_top;	/* the LID every table's header range ends at,
				 * a multiple of 64, that no entry reaches:
				 * dump_lfts stops one LID short of such a
				 * LinearFDBTop, so its owner is not in the
				 * dump (0: the tables reach their tops) */
};

/*
 * Removes from f the nodes not connected (by cables) to a switch of f that
 * d has a table for (matched as ibu_dump_apply() matches: GUID, else name);
 * left gets the counts. When no table matches a switch of f, f is left
 * whole (ibu_dump_apply() then names the mismatch). Node indices change.
 */
int ibu_dump_scope(const struct ibu_dump *d, struct ibu_fabric *f,
		   struct ibu_dump_scope *left, struct ibu_err *e);

/* ibu_dump_parse() + ibu_dump_scope() + ibu_dump_apply(). */
int ibu_dump_read_lfts_scoped(const char *path, struct ibu_fabric *f,
			      struct ibu_lft *lft,
			      struct ibu_dump_scope *left, struct ibu_err *e);

#endif
