/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* placeholder, being written */
#include "commands.h"

int ibu_cmd_route(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "ibunion route: not implemented yet\n");
	return IBU_EXIT_ERROR;
}

void ibu_cmd_route_usage(FILE *out)
{
	fprintf(out, "usage: ibunion route ...\n");
}
