/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Progress of long computations (dumps of large fabrics, validation),
 * reported to the caller: lib/ never prints. The front end decides what to
 * show (tools/progress_line.c: a line on a terminal after a second).
 */
#ifndef IBU_PROGRESS_H
#define IBU_PROGRESS_H

#include <stdint.h>

/* done out of total units of what; total 0 = unknown */
typedef void (*ibu_progress_fn)(void *arg, const char *what, uint64_t done,
				uint64_t total);

struct ibu_progress {
	ibu_progress_fn fn;
	void *arg;
};

static inline void ibu_progress_report(const struct ibu_progress *p,
				       const char *what, uint64_t done,
				       uint64_t total)
{
	if (p && p->fn)
		p->fn(p->arg, what, done, total);
}

#endif
