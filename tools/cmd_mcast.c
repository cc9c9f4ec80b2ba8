/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* placeholder, being written */
#include "commands.h"

int ibu_cmd_mcast(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "ibunion mcast: not implemented yet\n");
	return IBU_EXIT_ERROR;
}

void ibu_cmd_mcast_usage(FILE *out)
{
	fprintf(out, "usage: ibunion mcast ...\n");
}
