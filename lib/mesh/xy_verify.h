/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The xy engine's rule as a verify hook (struct ibu_verify_rule): every
 * entry of every mesh switch for every LID that has an owner must be the
 * XY entry of lib/mesh/xy.h (`ibunion check --xy`).
 */
#ifndef IBU_XY_VERIFY_H
#define IBU_XY_VERIFY_H

#include "verify.h"
#include "mesh.h"

struct ibu_xy_rule {
	const struct ibu_mesh *t;
};

/* Fills rule so that it checks the tables against arg (kept by caller). */
void ibu_xy_verify_rule(struct ibu_verify_rule *rule, struct ibu_xy_rule *arg);

#endif
