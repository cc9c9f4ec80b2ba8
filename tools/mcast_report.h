/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Printing the multicast flood check and link load of an MFT dump, in the
 * -I-/-W-/-E- style; shared by `ibunion mcast check|load` and
 * `ibunion check --mcast`.
 */
#ifndef IBU_MCAST_REPORT_H
#define IBU_MCAST_REPORT_H

#include <stdio.h>
#include "fabric.h"

struct ibu_mcast_report_opts {
	const char *members;	/* member file, NULL: members inferred */
	long max_errors;	/* per kind; < 0 unlimited */
	int quiet;		/* only problems and the summary */
	int trees;		/* load: print every tree's switches */
	const char *cmd;	/* error prefix ("mcast check"); NULL: "check" */
};

/*
 * Reads the MFT dump mfts against f (indexed here), floods every MLID from
 * every member and prints the problems and a summary. Returns an
 * IBU_EXIT_* code: OK, FAIL (problems) or ERROR (bad input).
 */
int ibu_mcast_report_check(FILE *out, struct ibu_fabric *f, const char *mfts,
			   const struct ibu_mcast_report_opts *o);
/* Link load: trees per link, tree tops; IBU_EXIT_OK or IBU_EXIT_ERROR. */
int ibu_mcast_report_load(FILE *out, struct ibu_fabric *f, const char *mfts,
			  const struct ibu_mcast_report_opts *o);

#endif
