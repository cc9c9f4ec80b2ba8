/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The cyclic engine's rule as a verify hook (struct ibu_verify_rule): every
 * entry of every tree switch for every end-port LID is compared with the
 * rule of lib/fattree/cyclic.h (offsets rotated or paper), and each source's climbs toward all destinations
 * (on the LID ibu_cyclic_offset() picks) must use one up-port per switch
 * at the levels the LID offset decides.
 */
#ifndef IBU_CYCLIC_VERIFY_H
#define IBU_CYCLIC_VERIFY_H

#include "verify.h"
#include "ibft.h"
#include "lidplan.h"
#include "cyclic.h"
#include "dlids.h"

struct ibu_cyclic_rule {
	const struct ibu_ibft *t;
	const struct ibu_lidplan *p;	/* LID plan of the same fabric */
	enum ibu_cyclic_offsets offsets;	/* the rule the entries and the
						 * cyclic DLIDs follow */
	const struct ibu_dlid_pairs *dlids;	/* non-NULL: check the climbs
						 * on these DLIDs (a SLID or
						 * DLID no end port owns:
						 * IBU_EPARSE, file:line) */
	int climb_sources;	/* sources checked for one ascending path,
				 * 0 = all, else an evenly spread sample */
	/* a degraded tree: fills exp (every entry IBU_NO_PATH, up to the
	 * plan's highest LID) with what the engine routes around the faults;
	 * NULL: a degraded tree's entries are not checked */
	int (*expect)(void *ctx, const struct ibu_fabric *f,
		      struct ibu_lft *exp, struct ibu_err *e);
	void *expect_ctx;
};

/* Fills rule so that it checks the tables against arg (kept by caller). */
void ibu_cyclic_verify_rule(struct ibu_verify_rule *rule,
			    struct ibu_cyclic_rule *arg);

#endif
