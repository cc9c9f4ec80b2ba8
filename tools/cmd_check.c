/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* placeholder, being written */
#include "commands.h"

int ibu_cmd_check(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "ibunion check: not implemented yet\n");
	return IBU_EXIT_ERROR;
}

void ibu_cmd_check_usage(FILE *out)
{
	fprintf(out, "usage: ibunion check ...\n");
}
