/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include "ibft.h"
/* placeholder: being written */
int ibu_ibft_recognize(const struct ibu_fabric *f, struct ibu_ibft *t, struct ibu_err *e)
{ (void)f; (void)t; return ibu_err_set(e, IBU_ETOPO, "not implemented"); }
void ibu_ibft_free(struct ibu_ibft *t) { (void)t; }
