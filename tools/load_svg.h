/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The link load of a fabric as an SVG picture, readable in a browser:
 * nodes by level (a fat tree's levels from its recognition, top switches
 * first; any other fabric in BFS layers counted from the end ports, the
 * farthest switches on top), end ports at the bottom, every row named at
 * the left and every node by its name; every cable a line whose colour
 * shows the load of its busier direction against the pattern's lower
 * bound (greens up to the bound, so an optimal load is green; yellow,
 * orange, red at twice the bound) and whose width grows with it; a
 * legend; hovering a line or node shows names, labels, ports and both
 * directions' loads.
 */
#ifndef IBU_LOAD_SVG_H
#define IBU_LOAD_SVG_H

#include <stdint.h>
#include "fabric.h"
#include "engine.h"
#include "linkload.h"

/* Writes path atomically (a temporary name, renamed after a successful
 * fclose). ops (may be NULL: a generic layout) is the engine that
 * recognised f, topo its topology: its layout and labels are drawn;
 * loads are shown divided by unit; bound (messages) is the colours'
 * reference, <= 0: the busiest link instead (the legend says so). */
int ibu_load_svg_write(const char *path, const struct ibu_fabric *f,
		       const struct ibu_engine_ops *ops, const void *topo,
		       const struct ibu_linkload *ll, uint64_t unit,
		       double bound, const char *title, struct ibu_err *e);

#endif
