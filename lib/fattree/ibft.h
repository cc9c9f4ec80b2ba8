/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * IBFT(m,n) recognition ([Zhou07], sect. 2.2) from the link graph alone.
 *
 * Switch SW<w,l>: level l (0 = top .. n-1 = leaf), label w0..w(n-2).
 * End port P(p): label p0..p(n-1), p0 in 0..m-1, others in 0..m/2-1.
 * Paper port k of a switch (1..m): top switches k = child's digit + 1;
 * others down k = 1..m/2, up k = m/2 + 1 + parent's last digit.
 * Every physical port number, name and GUID is arbitrary: levels come from
 * distances to the leaves, prefixes from the sub-trees (descendant leaves),
 * suffixes from the top switches' descendant classes. The result is then
 * verified link by link against the paper's rule; anything else is rejected
 * with a reason.
 *
 * Canonical labels: the labelling of an IBFT is unique up to the tree's
 * automorphisms, and every free digit is fixed by GUIDs alone:
 *  - prefix digit w(l-1) of a level-l sub-tree: sub-trees under one parent
 *    sub-tree are numbered in the order of the smallest node GUID among
 *    their leaf switches;
 *  - suffix digits: switches that the rule leaves interchangeable are
 *    numbered in the order of the smallest node GUID among their
 *    descendants at the distinguishing level;
 *  - end-port digit p(n-1): the end ports of one leaf are numbered in the
 *    order of their port GUIDs.
 * Record order, node names and physical port numbers never matter, so a
 * fabric read from an ibsim net file, from ibnetdiscover output or from
 * OpenSM's subnet gets the same label for every GUID, hence the same LID
 * plan, routes and multicast trees.
 */
#ifndef IBU_IBFT_H
#define IBU_IBFT_H

#include "fabric.h"

#define IBU_IBFT_MAX_N 16

struct ibu_ibft_switch {
	int node;			/* fabric node index */
	int level;			/* 0 = top */
	uint8_t w[IBU_IBFT_MAX_N];	/* label digits w0..w(n-2) */
	uint8_t *phys_of_k;		/* [k] physical port of paper port k, 1..m */
	uint8_t *k_of_phys;		/* [phys] paper port, 0 = not part of the tree */
};

struct ibu_ibft_endport {
	int node;			/* fabric node index (CA) */
	int port;			/* physical port on that node */
	int leaf;			/* switch index of its leaf */
	uint8_t p[IBU_IBFT_MAX_N];	/* label digits p0..p(n-1) */
	uint32_t pid;			/* rank of the label, p0 most significant */
};

/*
 * Degraded trees: a fabric that is an IBFT(m,n) with missing links and
 * missing switches is recognised from the surviving graph (m = the most
 * cabled ports of any switch, levels from the distance to the leaves, a
 * leaf without any end port found by its parents). Absent end ports
 * (powered-off hosts, free leaf ports) are not faults: their PIDs stay
 * unused (ep[pid].node == -1). Every missing switch-to-switch link between
 * two present switches and every missing switch is a fault; more faults
 * than the limit (ibu_ibft_default_max_faults: 10% of the IBFT's
 * switch-to-switch links, at least 1) is a rejection, as is anything no
 * IBFT can degrade to (a mesh, a cable between two leaves or two switches
 * of one level, a switch with more than m/2 down- or up-links, end ports
 * above the leaves, a disconnected switch graph).
 */
enum ibu_ibft_fault_kind {
	IBU_IBFT_MISSING_SWITCH = 1,
	IBU_IBFT_MISSING_LINK,
};

struct ibu_ibft_fault {
	enum ibu_ibft_fault_kind kind;
	int level;			/* missing switch: its level;
					 * link: level of the upper end */
	uint8_t w[IBU_IBFT_MAX_N];	/* missing switch: its label */
	int upper, lower;		/* link: switch indices of both ends */
	int k_upper, k_lower;		/* link: paper ports at both ends */
};

struct ibu_ibft {
	int m, n, half;			/* half = m/2 */
	int num_switches;		/* switches present (sw[] entries) */
	int full_switches;		/* (2n-1)(m/2)^(n-1): label slots */
	int num_endports;		/* 2(m/2)^n: the PID space (ep[]) */
	int present_endports;		/* PIDs with an end port */
	struct ibu_ibft_switch *sw;	/* by switch index */
	struct ibu_ibft_endport *ep;	/* by PID: ep[pid].pid == pid;
					 * node == -1: absent end port */
	int *sw_of_node;		/* fabric node -> switch index, -1 */
	int *ep_base_of_node;		/* fabric node -> first ep_of_port slot */
	int *ep_of_port;		/* (node, port) -> pid, -1 (see ibu_ibft_ep) */
	int num_fabric_nodes;
	int *sw_of_label;		/* label slot -> switch index, -1 missing */
	long level_first[IBU_IBFT_MAX_N];	/* first label slot of a level */
	int num_faults;			/* missing switches + missing links */
	int max_faults;			/* the limit that was applied */
	struct ibu_ibft_fault *faults;	/* switches first, then links, in
					 * label order */
};

/* Recognises f as an IBFT(m,n), exact or degraded within the default fault
 * limit; m and n are derived, not given. */
int ibu_ibft_recognize(const struct ibu_fabric *f, struct ibu_ibft *t,
		       struct ibu_err *e);
/* The same with a fault limit: IBU_MAX_FAULTS_DEFAULT = the default
 * (ibu_fault_limit), 0 = exact trees only. */
int ibu_ibft_recognize_limit(const struct ibu_fabric *f, struct ibu_ibft *t,
			     int max_faults, struct ibu_err *e);
void ibu_ibft_free(struct ibu_ibft *t);
/* 10% of the (n-1) m (m/2)^(n-1) switch-to-switch links, at least 1. */
int ibu_ibft_default_max_faults(int m, int n);
/* One line naming fault i: "missing switch SW<01,0>", "missing link
 * SW<00,0> port 3 - SW<20,1> port 3 ('name' - 'name')". */
void ibu_ibft_fault_text(const struct ibu_fabric *f, const struct ibu_ibft *t,
			 int i, char *buf, size_t len);

/* PID of the end port at (node, port), -1 if it is not a processing node. */
int ibu_ibft_ep(const struct ibu_ibft *t, int node, int port);
/* Switch index of a fabric node, -1 if not a switch of the tree. */
int ibu_ibft_sw(const struct ibu_ibft *t, int node);
/* Label slot of a switch: rank of (level, label), a canonical index
 * 0..full_switches-1 (sw_of_label[slot] == sw). */
long ibu_ibft_sw_slot(const struct ibu_ibft *t, int sw);
/* Switch index with label (w, level); -1 if none. */
int ibu_ibft_find_switch(const struct ibu_ibft *t, int level, const uint8_t *w);

/* Label text "SW<w0..,l>" / "P(p0..)" (digits > 9 are separated by '.'). */
void ibu_ibft_sw_label(const struct ibu_ibft *t, int sw, char *buf, size_t len);
void ibu_ibft_ep_label(const struct ibu_ibft *t, int pid, char *buf, size_t len);

/* Is end port pid below switch sw (w0..w(l-1) == p0..p(l-1))? */
int ibu_ibft_below(const struct ibu_ibft *t, int sw, int pid);
/* Level of the lowest common ancestors of two end ports (paper Def. 2). */
int ibu_ibft_lca_level(const struct ibu_ibft *t, int pid_a, int pid_b);

#endif
