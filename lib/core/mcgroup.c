/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <string.h>
#include "err.h"
#include "mcgroup.h"

int ibu_mcast_policy_parse(const char *s, enum ibu_mcast_policy *p)
{
	if (!s)
		return IBU_EINVAL;
	if (!strcmp(s, "balanced"))
		*p = IBU_MCAST_BALANCED;
	else if (!strcmp(s, "source"))
		*p = IBU_MCAST_SOURCE;
	else if (!strcmp(s, "lowest-guid"))
		*p = IBU_MCAST_LOWEST_GUID;
	else if (!strcmp(s, "compact"))
		*p = IBU_MCAST_COMPACT;
	else
		return IBU_EINVAL;
	return IBU_OK;
}

const char *ibu_mcast_policy_name(enum ibu_mcast_policy p)
{
	switch (p) {
	case IBU_MCAST_BALANCED: return "balanced";
	case IBU_MCAST_SOURCE: return "source";
	case IBU_MCAST_LOWEST_GUID: return "lowest-guid";
	case IBU_MCAST_COMPACT: return "compact";
	}
	return "?";
}
