/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What OpenSM was told and what the plugin did, for the commands that run
 * an engine (check, path, route, load, order, lids), so that they judge
 * and predict OpenSM's tables with no option repeated by hand:
 *
 *   OpenSM's configuration: --config FILE (default /etc/opensm/opensm.conf,
 *   as opensm itself): event_plugin_options, guid_routing_order_file,
 *   root_guid_file, qos, dump_files_dir;
 *   what the plugin published in the dump directory (dump_files_dir, else
 *   $OSM_TMP_DIR, else /var/log, as OpenSM): ibunion-routing.dump (the
 *   engine that routed, why ours declined, our topology, options, qos,
 *   VLs, the GUID files used), ibunion-host-order.dump,
 *   ibunion-path-sl.dump.
 *
 * The published state wins when it describes the fabric at hand (same
 * switch and end-port counts, every host of its order present); the
 * configuration serves otherwise. An option the user gave (-O) always
 * wins over both.
 */
#ifndef IBU_OSM_STATE_H
#define IBU_OSM_STATE_H

#include <stdint.h>
#include "engine.h"
#include "fabric.h"

/* --config FILE for this run (NULL: OpenSM's default file, if present). */
void ibu_osm_state_config(const char *path);

struct ibu_osm_published {
	int have;			/* ibunion-routing.dump was read */
	char path[4096];		/* its path */
	char engine[64];		/* the engine OpenSM used */
	char declined[2048];		/* "declined ENGINE: why" lines */
	char topology[1024];		/* ours: describe() */
	int ours;			/* engine is one of ours */
	int matches;			/* ... and describes the fabric at hand */
	int switches, end_ports, lmc, qos, max_vls;
};

/*
 * Applies OpenSM's configuration and the plugin's published state to eo
 * for fabric f (keys the user set stay), saying so on stderr once.
 * Returns 0, or -1 after printing why a file is bad (exit 3).
 */
int ibu_osm_state_apply(const char *cmd, const struct ibu_fabric *f,
			struct ibu_engine_opts *eo);
/* What was published (after ibu_osm_state_apply; have 0: nothing). */
const struct ibu_osm_published *ibu_osm_state_published(void);
/* The SL the plugin published for (slid, dlid): 0..15; -1 when no SLs
 * were published for this fabric. */
int ibu_osm_state_path_sl(uint16_t slid, uint16_t dlid);

#endif
