/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A multicast group as every engine sees it: its members and the policy
 * that places the tree's root (apex on a fat tree, root switch on a mesh).
 * Topology-neutral.
 */
#ifndef IBU_MCGROUP_H
#define IBU_MCGROUP_H

/*
 * Root (apex) policies; on a fat tree among the common ancestors at the
 * group's level, on a mesh among the switches of the root row:
 *   balanced     the least loaded (lib/analysis/mcload.h counters)
 *   source       the one on the cyclic climb of the send-only member with
 *                the lowest PID (the paper's one-to-many tree); a group
 *                without a send-only CA member falls back to balanced
 *                (tree->policy tells which policy chose)
 *   lowest-guid  the lowest node GUID (reproducible, load-blind)
 *   compact      balanced among the candidates whose tree adds the fewest
 *                switches to those that ever held a tree (fat trees: OpenSM
 *                resends every MFT block in use to every switch that ever
 *                held an MLID after every join or leave, so keeping that
 *                set small keeps each change cheap); where the engine
 *                keeps no such set (mesh) it is balanced; default
 */
enum ibu_mcast_policy {
	IBU_MCAST_BALANCED = 0,
	IBU_MCAST_SOURCE,
	IBU_MCAST_LOWEST_GUID,
	IBU_MCAST_COMPACT,
};

/* "balanced" / "source" / "lowest-guid" / "compact"; IBU_EINVAL for anything else. */
int ibu_mcast_policy_parse(const char *s, enum ibu_mcast_policy *p);
const char *ibu_mcast_policy_name(enum ibu_mcast_policy p);

struct ibu_mcast_member {
	int node;		/* fabric node: a CA, or a switch (port 0) */
	int port;		/* physical port of the CA; 0 for a switch */
	int send_only;		/* sends, never receives */
};

#endif
