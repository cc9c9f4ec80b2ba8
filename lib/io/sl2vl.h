/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * SL-to-VL mapping tables of a fabric, read from OpenSM's
 * opensm-sl2vl.dump (written with log flag 0x40 when QoS or an engine's
 * update_sl2vl is active):
 *
 *   Switch 0x0000000000200000, base LID 26, "sw-0.0"
 *   #in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15
 *   #--------------------------------------------------------
 *   1   2   : 0  1  0  1  0  1  0  1  0  1  0  1  0  1  0  1
 *   ...
 *   Channel Adapter 0x0000000000100001, base LID 1, "hca-0.0.0"
 *   ...
 *   0   0   : 0  0  ...          (a CA port: one table)
 *
 * Nodes are matched by port GUID. Tables the file does not hold map every
 * SL to VL 0. Topology-neutral.
 */
#ifndef IBU_SL2VL_H
#define IBU_SL2VL_H

#include <stdio.h>
#include "fabric.h"

struct ibu_sl2vl {
	int num_nodes;
	uint8_t **tbl;		/* [node] (in * (ports + 1) + out) * 16 + sl;
				 * CAs: [port * 16 + sl]; NULL = all VL 0 */
	int max_vl;		/* highest VL any table uses */
	long tables;		/* table lines read */
};

int ibu_sl2vl_read(const char *path, const struct ibu_fabric *f,
		   struct ibu_sl2vl *s, struct ibu_err *e);
int ibu_sl2vl_read_stream(FILE *in, const char *name,
			  const struct ibu_fabric *f, struct ibu_sl2vl *s,
			  struct ibu_err *e);
void ibu_sl2vl_free(struct ibu_sl2vl *s);

/* Empty tables for every node of f (every SL on VL 0), to fill with
 * ibu_sl2vl_set() (a reader of the live fabric does). */
int ibu_sl2vl_init(struct ibu_sl2vl *s, const struct ibu_fabric *f,
		   struct ibu_err *e);
/* The VLs of the 16 SLs from in_port to out_port at node (a CA: out_port
 * is its port, in_port ignored). */
int ibu_sl2vl_set(struct ibu_sl2vl *s, const struct ibu_fabric *f, int node,
		  int in_port, int out_port, const uint8_t vl[16],
		  struct ibu_err *e);
/* Writes every table held, in the opensm-sl2vl.dump form read above
 * (switches: the IN OUT pairs of port 0 or a cabled port into a cabled
 * port; CAs: one table per port, under its port GUID). Reading it back
 * with the same fabric gives the same tables on every pair a packet can
 * take. */
int ibu_sl2vl_write(FILE *out, const struct ibu_fabric *f,
		    const struct ibu_sl2vl *s, struct ibu_err *e);

/* VL of sl from in_port to out_port at node (a CA: out_port is its port,
 * in_port ignored). */
int ibu_sl2vl_get(const struct ibu_sl2vl *s, const struct ibu_fabric *f,
		  int node, int in_port, int out_port, int sl);

#endif
