/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Link load: how many flows cross each directed link of a fabric, found by
 * following the forwarding tables the switches hold.
 *
 * A directed link is named by the port it leaves: (node, port), port >= 1
 * and cabled; HCA links count in both directions (the HCA's port toward
 * its switch, the switch's port toward the HCA) like switch-to-switch
 * links. Slot numbers index the counters: slot = base[node] + port.
 *
 * A walk is what one packet does:
 *   unicast    from a source port, through LFT entry [switch][DLID] at every
 *              switch, until it leaves the fabric at a CA port or a switch
 *              entry 0 delivers it to the switch itself;
 *   multicast  from a sender, a switch forwards to every port of its MFT
 *              mask for the MLID but the one the packet came in on (port 0:
 *              the switch receives); CAs receive. Every link a copy crosses
 *              is in the walk once.
 * The counters take weighted walks (the caller decides what one flow
 * weighs: a whole message, or a part of one spread over several DLIDs).
 * Topology-neutral: nothing here knows fat trees or meshes.
 */
#ifndef IBU_LINKLOAD_H
#define IBU_LINKLOAD_H

#include <stdint.h>
#include "fabric.h"
#include "lft.h"
#include "mft.h"

struct ibu_linkload {
	int num_nodes;
	int num_slots;
	int *base;		/* [node] first slot; slot = base[node] + port */
	uint64_t *load;		/* [slot] weight of the flows leaving node
				 * through port */
};

int ibu_linkload_init(struct ibu_linkload *ll, const struct ibu_fabric *f,
		      struct ibu_err *e);
void ibu_linkload_free(struct ibu_linkload *ll);
/* Every counter back to 0. */
void ibu_linkload_reset(struct ibu_linkload *ll);

static inline int ibu_linkload_slot(const struct ibu_linkload *ll, int node,
				    int port)
{
	return ll->base[node] + port;
}

static inline uint64_t ibu_linkload_get(const struct ibu_linkload *ll,
					int node, int port)
{
	return ll->load[ll->base[node] + port];
}

/* Node and port of a slot. */
void ibu_linkload_port_of(const struct ibu_linkload *ll, int slot, int *node,
			  int *port);

enum ibu_walk_status {
	IBU_WALK_OK = 0,	/* delivered (unicast: see end_node/end_port) */
	IBU_WALK_NO_ROUTE,	/* a switch has no entry for the DLID, or the
				 * source port is not cabled */
	IBU_WALK_LOOP,		/* unicast: more hops than switches; multicast:
				 * a switch got the packet twice */
	IBU_WALK_DEAD_PORT,	/* an entry names an uncabled port */
};

/* The directed links one packet crosses (a walk), with its delivery depth. */
struct ibu_walk {
	int *slot;		/* links crossed, in the order crossed */
	int num, cap;
	int max_links;		/* links on the longest delivery path */
	int max_switches;	/* switches on that path */
	int deliveries;		/* ports that received a copy */
	int end_node, end_port;	/* unicast: where it left the fabric */
	enum ibu_walk_status status;
	/* multicast scratch, sized on first use */
	int scratch_nodes;
	uint32_t stamp, *seen;	/* [node] */
	int *qnode, *qport, *qdepth;
};

void ibu_walk_init(struct ibu_walk *w);
void ibu_walk_free(struct ibu_walk *w);

/*
 * Unicast walk of a packet for dlid sent from (node, port) (a CA port, or
 * port 0 of a switch). The outcome is in w->status; the return value is 0
 * or a negative IBU_E* (memory, a node/port out of range).
 */
int ibu_walk_ucast(const struct ibu_fabric *f, const struct ibu_linkload *ll,
		   const struct ibu_lft *lft, int node, int port,
		   uint32_t dlid, struct ibu_walk *w, struct ibu_err *e);

/*
 * Multicast walk (flood) from (node, port) through mask[fabric node], the
 * MFT masks of one MLID (ibu_mft.g[i].mask). max_links/max_switches are
 * those of the deepest receiver.
 */
int ibu_walk_mcast(const struct ibu_fabric *f, const struct ibu_linkload *ll,
		   const struct ibu_portmask *mask, int node, int port,
		   struct ibu_walk *w, struct ibu_err *e);

/* Adds weight to every link of the walk. */
void ibu_linkload_add_walk(struct ibu_linkload *ll, const struct ibu_walk *w,
			   uint64_t weight);
/* Adds weight to both directions of the cable at (node, port). */
void ibu_linkload_add_cable(struct ibu_linkload *ll,
			    const struct ibu_fabric *f, int node, int port,
			    uint64_t weight);
/* Largest counter over the walk's links (0 for an empty walk). */
uint64_t ibu_linkload_walk_max(const struct ibu_linkload *ll,
			       const struct ibu_walk *w);

/* Is the cable at (node, port) switch-to-switch? */
int ibu_link_is_switch_link(const struct ibu_fabric *f, int node, int port);

struct ibu_linkload_stats {
	uint64_t max_any;		/* busiest directed link */
	int max_any_node, max_any_port;	/* -1 when every link is idle */
	uint64_t max_sw;		/* busiest directed switch-to-switch link */
	int max_sw_node, max_sw_port;
	uint64_t max_hca;		/* busiest directed link with a CA end */
	int max_hca_node, max_hca_port;
	uint64_t total;			/* sum over every directed link: the
					 * link traversals */
	long sw_cables, sw_cables_used;	/* switch-to-switch cables, and those
					 * with load in either direction */
	long hca_cables;		/* cables with a CA end */
};

/* Statistics over every cabled port of f; the first link reaching a
 * maximum (node order, port order) is the one named. */
void ibu_linkload_stats(const struct ibu_linkload *ll,
			const struct ibu_fabric *f,
			struct ibu_linkload_stats *st);

#endif
