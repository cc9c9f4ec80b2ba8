/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* ibunion: the offline toolkit beside the OpenSM routing engine. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "commands.h"
#include "report_output.h"
#include "fabric_open.h"
#include "opts.h"
#include "live_args.h"
#include "osm_state.h"

static const struct ibu_command commands[] = {
	{ "gen", "write ibsim net files (fat trees, 2-D meshes)", ibu_cmd_gen, ibu_cmd_gen_usage },
	{ "lids", "write a guid2lid file with the paper's LID sets", ibu_cmd_lids, ibu_cmd_lids_usage },
	{ "route", "compute an engine's LFTs offline, in dump_lfts format", ibu_cmd_route, ibu_cmd_route_usage },
	{ "check", "validate LFT/MFT dumps against a fabric", ibu_cmd_check, ibu_cmd_check_usage },
	{ "diff", "compare two LFT dumps switch by switch", ibu_cmd_diff, ibu_cmd_diff_usage },
	{ "path", "the DLID each source should use toward each destination (cyclic path)", ibu_cmd_path, ibu_cmd_path_usage },
	{ "order", "the compute hosts in the engine's order (a host list for mpirun)", ibu_cmd_order, ibu_cmd_order_usage },
	{ "mcast", "join/leave multicast groups from a simulated HCA", ibu_cmd_mcast, ibu_cmd_mcast_usage },
	{ "load", "link load of traffic patterns on LFT/MFT dumps", ibu_cmd_load, ibu_cmd_load_usage },
	{ "trace", "hop-by-hop route between two ports (as ibtracert), from dumps or live", ibu_cmd_trace, ibu_cmd_trace_usage },
	{ "options", "the engines and their options (event_plugin_options, -O)", ibu_cmd_options, ibu_cmd_options_usage },
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
		"\n'ibunion <command> --help' describes one command;\n"
		"'ibunion -V' (--version) prints the version.\n"
		"every command takes --node-name-map FILE (node GUID -> name, the\n"
		"file ibnetdiscover reads) and --config FILE (OpenSM's opensm.conf,\n"
		"default /etc/opensm/opensm.conf: check, path, route, load, order\n"
		"and lids follow its options and what the plugin published in its\n"
		"dump_files_dir, else $OSM_TMP_DIR, else /var/log);\n"
		"check, diff, load, trace take -o FILE;\n"
		"-o FILE replaces a symbolic link FILE itself, with\n"
		"--replace-link-target the file it points to;\n"
		"-v (--verbose) lists every problem (check, diff, mcast check).\n"
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

/* -V/--version, as every infiniband-diags tool has it (also after the
 * command: `ibunion check -V`). */
static int is_version(const char *arg)
{
	return !strcmp(arg, "-V") || !strcmp(arg, "--version");
}

static void print_version(void)
{
	printf("ibunion %s\n", PACKAGE_VERSION);
}

/* The commands whose output is a report on stdout take -o FILE here. */
static int takes_report_output(const char *name)
{
	return !strcmp(name, "check") || !strcmp(name, "diff") ||
	       !strcmp(name, "load") || !strcmp(name, "trace");
}

/*
 * -v / --verbose: every problem listed, none cut at the default limits:
 * the command's own option for it is put in its place (check and mcast:
 * --max-errors, diff: --show, with the largest N they take).
 */
static int take_verbose(const char *name, int argc, char **argv,
			char **extra)
{
	int i, n = 1, v = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose"))
			v = 1;
		else
			argv[n++] = argv[i];
	}
	for (; i < argc; i++)
		argv[n++] = argv[i];
	argv[n] = NULL;
	if (!v)
		return n;
	if (!strcmp(name, "check") || (!strcmp(name, "mcast") && n > 1 &&
	    (!strcmp(argv[1], "check") || !strcmp(argv[1], "load")))) {
		extra[0] = "--max-errors";
		extra[1] = "1000000000";
	} else if (!strcmp(name, "diff")) {
		extra[0] = "--show";
		extra[1] = "1000000";
	} else {
		return n;	/* nothing is cut there */
	}
	/* after the action word of mcast, before the other arguments */
	i = !strcmp(name, "mcast") ? 2 : 1;
	memmove(argv + i + 2, argv + i, (size_t)(n - i + 1) * sizeof(*argv));
	argv[i] = extra[0];
	argv[i + 1] = extra[1];
	return n + 2;
}

/* Removes every flag (before any "--") from argv; *found when one was. */
static int take_flag(int argc, char **argv, const char *flag, int *found)
{
	int i, n = 1, done = 0;

	*found = 0;
	for (i = 1; i < argc; i++) {
		done |= !strcmp(argv[i], "--");
		if (!done && !strcmp(argv[i], flag))
			*found = 1;
		else
			argv[n++] = argv[i];
	}
	argv[n] = NULL;
	return n;
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

/* The options main() takes for every command (-v, --node-name-map, -o),
 * then the live fabric's (run_command), then the command. */
static int run_args(const struct ibu_command *c, int argc, char **argv)
{
	struct ibu_report_output out;
	const char *path, *map, *conf;
	char *extra[2];
	int rc, follow;

	argc = take_verbose(c->name, argc, argv, extra);
	/* -o FILE replaces a link named FILE, not its target, unless asked */
	argc = take_flag(argc, argv, "--replace-link-target", &follow);
	ibu_out_replace_link_target(follow);
	/* every command that reads a FABRIC names its nodes by the map */
	argc = ibu_opt_take(c->name, argc, argv, NULL, "--node-name-map", &map);
	if (argc < 0)
		return IBU_EXIT_USAGE;
	ibu_fabric_open_name_map(map);
	/* OpenSM's configuration, for the commands that run an engine */
	argc = ibu_opt_take(c->name, argc, argv, NULL, "--config", &conf);
	if (argc < 0)
		return IBU_EXIT_USAGE;
	ibu_osm_state_config(conf);
	if (!takes_report_output(c->name))
		return run_command(c, argc, argv);
	argc = ibu_report_output_take(c->name, argc, argv, &path);
	if (argc < 0)
		return IBU_EXIT_USAGE;
	if (!path)
		return run_command(c, argc, argv);
	if (ibu_report_output_begin(c->name, path, &out))
		return IBU_EXIT_ERROR;
	rc = run_command(c, argc, argv);
	/* a report was written (all holds, or problems found): keep it */
	if (ibu_report_output_end(c->name, &out,
				  rc == IBU_EXIT_OK || rc == IBU_EXIT_FAIL))
		return IBU_EXIT_ERROR;
	return rc;
}

/* The options main() handles rewrite argv: on a copy with room for the
 * two words -v may add. */
static int run(const struct ibu_command *c, int argc, char **argv)
{
	char **copy = malloc(((size_t)argc + 3) * sizeof(*copy));
	int rc;

	if (!copy) {
		fprintf(stderr, "-E- ibunion %s: out of memory\n", c->name);
		return IBU_EXIT_ERROR;
	}
	memcpy(copy, argv, (size_t)argc * sizeof(*copy));
	copy[argc] = NULL;
	rc = run_args(c, argc, copy);
	free(copy);
	return rc;
}

/* -h or --help anywhere before "--": `ibunion gen mesh --help` and every
 * two-word command describe themselves too (no command takes -h). */
static int wants_help(int argc, char **argv)
{
	int i;

	for (i = 2; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	return 0;
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
	if (is_version(argv[1])) {
		print_version();
		return stdout_checked(NULL, IBU_EXIT_OK);
	}
	for (i = 0; i < NCMD; i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		if (wants_help(argc, argv)) {
			commands[i].usage(stdout);
			return stdout_checked(argv[1], IBU_EXIT_OK);
		}
		if (argc > 2 && is_version(argv[2])) {
			print_version();
			return stdout_checked(argv[1], IBU_EXIT_OK);
		}
		return stdout_checked(argv[1],
				      run(&commands[i], argc - 1, argv + 1));
	}
	fprintf(stderr, "-E- ibunion: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return IBU_EXIT_USAGE;
}
