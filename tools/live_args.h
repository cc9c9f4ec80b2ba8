/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Input selection for the live fabric: `--live`, `-C CA`, `-P PORT` (as in
 * infiniband-diags; either one means "read the fabric this port sees") and
 * `--live-save DIR` on every subcommand that takes FABRIC or a dump. The
 * fabric is read once (tools/live.c), written as a snapshot (an
 * ibnetdiscover cache, a dump_lfts dump, a dump_mfts dump, the SA's members,
 * an SL2VL dump) and the command line is rewritten to name those files, so
 * every subcommand runs its usual readers and checks on them unchanged.
 */
#ifndef IBU_LIVE_ARGS_H
#define IBU_LIVE_ARGS_H

#include "live.h"

struct ibu_live_session {
	int active;		/* the command line asked for the live fabric */
	int keep;		/* --live-save: leave the snapshot in place */
	char dir[4096];		/* the snapshot's directory */
	struct ibu_live_files files;
	int argc;		/* the rewritten command line */
	char **argv;
};

/*
 * cmd is the subcommand name, argv[0] == cmd. When the live options are
 * absent returns IBU_EXIT_OK with s->active 0 and argv untouched; else
 * reads the fabric, fills s->argc/argv and returns IBU_EXIT_OK, or prints
 * why and returns IBU_EXIT_USAGE / IBU_EXIT_ERROR, or a negative value
 * when the command has nothing to do (mcast check/load/tree on a fabric
 * without groups: a line says so; exit 0 without running it).
 */
int ibu_live_args(const char *cmd, int argc, char **argv,
		  struct ibu_live_session *s);
/* Removes a temporary snapshot and frees the command line. */
void ibu_live_session_end(struct ibu_live_session *s);

#endif
