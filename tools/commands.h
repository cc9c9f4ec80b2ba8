/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The ibunion subcommands: each parses its arguments, calls lib/, prints. */
#ifndef IBU_COMMANDS_H
#define IBU_COMMANDS_H

#include <stdio.h>

/* Exit codes shared by all subcommands. */
enum {
	IBU_EXIT_OK = 0,	/* everything holds */
	IBU_EXIT_FAIL = 1,	/* checked and found problems */
	IBU_EXIT_USAGE = 2,	/* bad command line */
	IBU_EXIT_ERROR = 3,	/* could not run: bad input file, I/O, memory */
};

struct ibu_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
	void (*usage)(FILE *out);
};

int ibu_cmd_gen(int argc, char **argv);
void ibu_cmd_gen_usage(FILE *out);
int ibu_cmd_check(int argc, char **argv);
void ibu_cmd_check_usage(FILE *out);
int ibu_cmd_diff(int argc, char **argv);
void ibu_cmd_diff_usage(FILE *out);
int ibu_cmd_lids(int argc, char **argv);
void ibu_cmd_lids_usage(FILE *out);
int ibu_cmd_route(int argc, char **argv);
void ibu_cmd_route_usage(FILE *out);
int ibu_cmd_path(int argc, char **argv);
void ibu_cmd_path_usage(FILE *out);
int ibu_cmd_mcast(int argc, char **argv);
void ibu_cmd_mcast_usage(FILE *out);
int ibu_cmd_load(int argc, char **argv);
void ibu_cmd_load_usage(FILE *out);
int ibu_cmd_order(int argc, char **argv);
void ibu_cmd_order_usage(FILE *out);
int ibu_cmd_trace(int argc, char **argv);
void ibu_cmd_trace_usage(FILE *out);
int ibu_cmd_options(int argc, char **argv);
void ibu_cmd_options_usage(FILE *out);

#endif
