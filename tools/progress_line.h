/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A progress line on stderr for runs longer than a second, only when
 * stderr is a terminal: "ibunion <cmd>: <what> 1234/3920 (31%), 2.4 s",
 * rewritten in place at most 10 times a second and erased at the end.
 * IBUNION_PROGRESS=always shows it from the start on any stderr (tests),
 * IBUNION_PROGRESS=never never.
 */
#ifndef IBU_TOOL_PROGRESS_H
#define IBU_TOOL_PROGRESS_H

#include <stdio.h>
#include "progress.h"

struct ibu_tool_progress {
	struct ibu_progress cb;	/* hand &cb to lib/ */
	FILE *out;
	const char *cmd;
	int enabled;
	double t0;		/* start, seconds */
	double after;		/* show once this many seconds have passed */
	double last;		/* last time a line was written */
	int shown;		/* a line is on the terminal */
};

void ibu_tool_progress_init(struct ibu_tool_progress *p, const char *cmd);
/* Erases the line (if one is shown). */
void ibu_tool_progress_done(struct ibu_tool_progress *p);

#endif
