/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * SubnGet SMPs to LID-routed nodes, several in flight at once (as
 * ibnetdiscover keeps several outstanding): the live reader asks thousands
 * of table blocks, one round trip at a time would be as slow as dump_lfts.
 * Glue around libibumad/libibmad: lives in tools/.
 */
#ifndef IBU_LIVE_SMP_H
#define IBU_LIVE_SMP_H

#include <stdint.h>
#include <infiniband/mad.h>
#include "err.h"

struct ibu_smp_req {
	uint16_t lid;		/* destination (LID-routed) */
	uint16_t attr;
	uint32_t mod;
	int node, a, b;		/* the caller's: which table this block fills */
};

/* Called with each answer's 64 data bytes; a non-zero return stops the
 * batch and is returned. */
typedef int (*ibu_smp_done)(void *ctx, const struct ibu_smp_req *r,
			    const uint8_t *data);

/*
 * Sends every request, at most window at a time, and calls done for each
 * answer (in arrival order). A request without an answer within
 * timeout_ms (0: 1000) or answered with a bad status is an error naming
 * its LID, attribute and modifier.
 */
int ibu_smp_batch(struct ibmad_port *port, const struct ibu_smp_req *reqs,
		  long n, int window, int timeout_ms, ibu_smp_done done,
		  void *ctx, struct ibu_err *e);

#endif
