/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The fabric model every front end (ibsim net file, ibnetdiscover file,
 * OpenSM's subnet, live discovery) is translated into: nodes with numbered
 * physical ports, links between ports, GUIDs and LIDs with their LMC.
 * Node and port identity never carries topology meaning; algorithms derive
 * structure from the links only.
 */
#ifndef IBU_FABRIC_H
#define IBU_FABRIC_H

#include <stdint.h>
#include <stddef.h>
#include "err.h"

#define IBU_MAX_PORTS 254
#define IBU_MAX_UCAST_LID 0xBFFF
#define IBU_MCAST_LID_BASE 0xC000
#define IBU_NO_PATH 0xFF

enum ibu_node_type {
	IBU_NODE_CA = 1,
	IBU_NODE_SWITCH = 2,
	IBU_NODE_ROUTER = 3,
};

struct ibu_port {
	int peer_node;		/* node index of the far end, -1 when not cabled */
	int peer_port;		/* port number at the far end */
	uint64_t guid;		/* port GUID (switch ports share the node GUID) */
	uint16_t lid;		/* base LID, 0 = unknown; for switches only port 0 */
	uint8_t lmc;
	int line;		/* source line that stated the port GUID, 0 if none */
};

struct ibu_node {
	enum ibu_node_type type;
	char *name;		/* node id / description, for messages only */
	uint64_t guid;		/* node GUID */
	int num_ports;		/* physical ports are 1..num_ports */
	struct ibu_port *ports;	/* num_ports + 1 entries; [0] is switch port 0 */
	int line;		/* source line of the record, 0 if none */
};

struct ibu_fabric {
	struct ibu_node *nodes;
	int num_nodes;
	int cap_nodes;
	char *source;		/* where the model came from, for messages */
	/* lookup indexes, built lazily by ibu_fabric_index() */
	int *by_name;		/* node indices sorted by name */
	int *by_guid;		/* node indices sorted by node GUID */
	int indexed;
};

int ibu_fabric_init(struct ibu_fabric *f, const char *source);
void ibu_fabric_free(struct ibu_fabric *f);

/* Appends a node; *idx receives its index. name is copied. */
int ibu_fabric_add_node(struct ibu_fabric *f, enum ibu_node_type type,
			const char *name, uint64_t guid, int num_ports,
			int *idx, struct ibu_err *e);
/* Cables port pa of node a to port pb of node b (both directions). */
int ibu_fabric_link(struct ibu_fabric *f, int a, int pa, int b, int pb,
		    struct ibu_err *e);

/* Removes the nodes with drop[i] set (their cables with them); the other
 * nodes keep their order, GUIDs and port numbers. */
int ibu_fabric_remove_nodes(struct ibu_fabric *f, const uint8_t *drop,
			    struct ibu_err *e);

/* Sorted lookup tables; call after the last add_node (add_node drops them). */
int ibu_fabric_index(struct ibu_fabric *f, struct ibu_err *e);
int ibu_fabric_find_name(const struct ibu_fabric *f, const char *name);
int ibu_fabric_find_guid(const struct ibu_fabric *f, uint64_t node_guid);
/* Node and port owning a port GUID (CA port or switch node GUID); -1 if none. */
int ibu_fabric_find_port_guid(const struct ibu_fabric *f, uint64_t port_guid,
			      int *port);

static inline int ibu_node_is_switch(const struct ibu_node *n)
{
	return n->type == IBU_NODE_SWITCH;
}

/* Node n of f is a switch (n < 0, e.g. the peer of an uncabled port: no). */
static inline int ibu_is_sw(const struct ibu_fabric *f, int n)
{
	return n >= 0 && ibu_node_is_switch(&f->nodes[n]);
}

/* Node n's name for messages, "?" when it has none. */
static inline const char *ibu_node_name(const struct ibu_fabric *f, int n)
{
	return f->nodes[n].name ? f->nodes[n].name : "?";
}

/*
 * GUIDs must be unique: no two nodes share a node GUID and no two cabled
 * ports share a port GUID (a switch's port GUID is its node GUID). A
 * repeat is IBU_EPARSE naming source:line of the later record (the record
 * or port line that stated it) and the line of the first.
 */
int ibu_fabric_check_guids(const struct ibu_fabric *f, struct ibu_err *e);

/*
 * 1 when a and b are the same subnet node for node: types, GUIDs, names,
 * ports, cables and LIDs, in the same order (what an engine's model of a
 * re-swept, unchanged subnet may be reused for).
 */
int ibu_fabric_same(const struct ibu_fabric *a, const struct ibu_fabric *b);

/* Number of switches and of cabled end ports (CA/router ports with a peer). */
int ibu_fabric_count_switches(const struct ibu_fabric *f);
int ibu_fabric_count_endports(const struct ibu_fabric *f);
/* Highest base LID + 2^lmc - 1 over all ports; 0 when no LID is known. */
uint32_t ibu_fabric_max_lid(const struct ibu_fabric *f);
/* Every port's LID and LMC back to 0 (unknown): no stale LID survives a
 * new assignment. */
void ibu_fabric_clear_lids(struct ibu_fabric *f);
/*
 * Calls fn for every LID-holding port of f: each CA/router port and each
 * switch port 0 that has a LID. Stops at the first non-zero return of fn
 * and returns it.
 */
int ibu_fabric_foreach_lid_port(const struct ibu_fabric *f,
				int (*fn)(void *ctx, int node, int port,
					  const struct ibu_port *pt),
				void *ctx);
/* The LID-holding port of a node's end port / switch (port 0 for switches). */
const struct ibu_port *ibu_fabric_lid_port(const struct ibu_fabric *f,
					   int node, int port);

#endif
