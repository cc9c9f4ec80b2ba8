/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "progress_line.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void show(void *arg, const char *what, uint64_t done, uint64_t total)
{
	struct ibu_tool_progress *p = arg;
	double t = now();

	if (t - p->t0 < p->after || (p->shown && t - p->last < 0.1 &&
				      (!total || done < total)))
		return;
	if (total)
		fprintf(p->out, "\r-I- ibunion %s: %s %llu/%llu (%llu%%), %.1f s\033[K",
			p->cmd, what, (unsigned long long)done,
			(unsigned long long)total,
			(unsigned long long)(done * 100 / total), t - p->t0);
	else
		fprintf(p->out, "\r-I- ibunion %s: %s %llu, %.1f s\033[K", p->cmd,
			what, (unsigned long long)done, t - p->t0);
	fflush(p->out);
	p->shown = 1;
	p->last = t;
}

void ibu_tool_progress_init(struct ibu_tool_progress *p, const char *cmd)
{
	const char *env = getenv("IBUNION_PROGRESS");

	memset(p, 0, sizeof(*p));
	p->out = stderr;
	p->cmd = cmd;
	p->t0 = now();
	p->after = 1.0;
	if (env && !strcmp(env, "always")) {
		p->enabled = 1;
		p->after = 0;
	} else {
		p->enabled = !(env && !strcmp(env, "never")) &&
			     isatty(fileno(stderr));
	}
	if (p->enabled) {
		p->cb.fn = show;
		p->cb.arg = p;
	}
}

void ibu_tool_progress_done(struct ibu_tool_progress *p)
{
	if (p->shown) {
		fputs(p->after > 0 ? "\r\033[K" : "\n", p->out);
		fflush(p->out);
	}
	p->shown = 0;
}
