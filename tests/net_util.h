/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* A fabric read from fixtures/, indexed: shared by the unit tests of the
 * files that refer to one (test_mft_dump, test_mcmembers). */
#ifndef IBU_TEST_NET_UTIL_H
#define IBU_TEST_NET_UTIL_H

#include <stdio.h>
#include "unit.h"
#include "fabric.h"
#include "netfile.h"

static inline void load_net(const char *name, struct ibu_fabric *f)
{
	char path[1024];
	struct ibu_err e = { 0 };
	int rc;

	snprintf(path, sizeof(path), "%s/%s", FIXTURES_DIR, name);
	rc = ibu_netfile_read(path, f, &e);
	ck_assert_msg(rc == 0, "%s", e.msg);
	ck_assert_int_eq(ibu_fabric_index(f, &e), 0);
}

#endif
