/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Rails of a rail-optimized cluster, learnt from node descriptions: an
 * HCA describes itself as "<host> <device>" ("node001 mlx5_3"), so the
 * server is the host part and the rail the device's rank among that
 * server's HCAs (mlx5_0 first; mlx5_9 before mlx5_10).
 */
#ifndef IBU_RAILS_H
#define IBU_RAILS_H

#include "err.h"

struct ibu_rails {
	int *server;		/* [hca] server index, by first appearance */
	int *rail;		/* [hca] rail */
	int *first;		/* [server] its first HCA */
	int num_servers, num_rails;
};

/* names[0..num-1]: the HCAs' node descriptions, in the engine's order. */
int ibu_rails_learn(const char *const *names, int num, struct ibu_rails *r,
		    struct ibu_err *e);
/* Rail-major order into out (num entries: rail 0's HCAs in the given
 * order, then rail 1's, ...); returns how many. */
int ibu_rails_major(const struct ibu_rails *r, int num, int *out);
void ibu_rails_free(struct ibu_rails *r);

#endif
