/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* ibunion: the offline toolkit beside the OpenSM routing engine. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "config.h"
#include "commands.h"
#include "live_args.h"

static const struct ibu_command commands[] = {
	{ "gen", "write ibsim net files (fat trees, 2-D meshes)", ibu_cmd_gen, ibu_cmd_gen_usage },
	{ "lids", "write a guid2lid file with the paper's LID sets", ibu_cmd_lids, ibu_cmd_lids_usage },
	{ "route", "compute the cyclic LFTs offline, in dump_lfts format", ibu_cmd_route, ibu_cmd_route_usage },
	{ "check", "validate LFT/MFT dumps against a fabric", ibu_cmd_check, ibu_cmd_check_usage },
	{ "diff", "compare two LFT dumps switch by switch", ibu_cmd_diff, ibu_cmd_diff_usage },
	{ "path", "the DLID each source should use toward each destination (cyclic path)", ibu_cmd_path, ibu_cmd_path_usage },
	{ "mcast", "join/leave multicast groups from a simulated HCA", ibu_cmd_mcast, ibu_cmd_mcast_usage },
	{ "load", "link load of traffic patterns on LFT/MFT dumps", ibu_cmd_load, ibu_cmd_load_usage },
	{ "trace", "hop-by-hop route between two ports (as ibtracert), from dumps or live", ibu_cmd_trace, ibu_cmd_trace_usage },
};
#define NCMD (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: ibunion <command> [options]\n\ncommands:\n");
	for (i = 0; i < NCMD; i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\nEvery command that takes FABRIC or a dump reads the live fabric instead\n"
		"with --live, or -C CA / -P PORT (as infiniband-diags), [--live-save DIR]\n"
		"[--smkey KEY] (man ibunion: LIVE FABRIC).\n"
		"\n'ibunion <command> --help' describes one command.\n"
		"exit status: 0 all holds, 1 problems found, 2 usage, 3 cannot run\n");
}

/*
 * Every report goes to stdout: a full disk or a closed pipe must not pass
 * for a clean run, whatever the command returned (it may have printed its
 * last lines after its own checks).
 */
static int stdout_checked(const char *cmd, int rc)
{
	int err;

	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	if (rc == IBU_EXIT_ERROR)	/* the command said why already */
		return rc;
	err = errno;
	fprintf(stderr, "ibunion%s%s: stdout: write failed%s%s\n",
		cmd ? " " : "", cmd ? cmd : "", err ? ": " : "",
		err ? strerror(err) : "");
	return IBU_EXIT_ERROR;
}

/* --live / -C / -P (tools/live_args.c) replace FABRIC and the dumps by a
 * snapshot of the live fabric before the command parses its arguments. */
static int run_command(const struct ibu_command *c, int argc, char **argv)
{
	struct ibu_live_session s;
	int rc = ibu_live_args(c->name, argc, argv, &s);

	if (!rc)
		rc = s.active ? c->run(s.argc, s.argv) : c->run(argc, argv);
	else if (rc < 0)	/* the live fabric left nothing to do */
		rc = IBU_EXIT_OK;
	ibu_live_session_end(&s);
	return rc;
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return IBU_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return stdout_checked(NULL, IBU_EXIT_OK);
	}
	if (!strcmp(argv[1], "--version")) {
		printf("ibunion %s\n", PACKAGE_VERSION);
		return stdout_checked(NULL, IBU_EXIT_OK);
	}
	for (i = 0; i < NCMD; i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		if (argc > 2 && (!strcmp(argv[2], "-h") ||
				 !strcmp(argv[2], "--help"))) {
			commands[i].usage(stdout);
			return stdout_checked(argv[1], IBU_EXIT_OK);
		}
		return stdout_checked(argv[1], run_command(&commands[i],
							   argc - 1, argv + 1));
	}
	fprintf(stderr, "ibunion: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return IBU_EXIT_USAGE;
}
