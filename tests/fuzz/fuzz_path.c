/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * libFuzzer target: what `ibunion path` does with its FABRIC (a net file
 * or ibnetdiscover output carrying LIDs, as read by lib/io/netfile.c), on
 * exact and degraded fat trees: recognition, the LID plan, then for every
 * ordered pair of present end ports the cyclic offset, the DLID and the
 * switch the path turns at. Absent end ports (degraded trees) are skipped
 * as tools/cmd_path.c skips them. Properties: the DLID stays inside the
 * destination's LID set, and the turn switch is above both end ports.
 * A fabric that is no exact IBFT goes through the PGFT recognition (which
 * the plugin runs on every fabric OpenSM sees) and, when it is one, the
 * PGFT's LIDs, routes and advised offsets: the route of every pair on
 * its advised DLID arrives and turns where ibu_pgft_turn_switch() says;
 * a PGFT with faults (within the default max_faults) the same, except
 * where no up*|down* way is left, and its turn switch is only computed.
 */
#include "fuzz.h"
#include "netfile.h"
#include "../ibft_view.h"
#include "../cyclic_util.h"	/* the paper's equations on labels */
#include "cyclic.h"
#include "pgft.h"
#include "lidmap.h"
#include "lft.h"

static void one_pair(const struct ibu_fabric *f, const struct ibft_view *t,
		     const struct lidplan *p, enum ibu_cyclic_offsets mode,
		     int s, int d)
{
	const struct ibu_port *dp =
		&f->nodes[t->ep[d].node].ports[t->ep[d].port];
	unsigned off;
	char buf[64];
	int turn;

	off = cyclic_offset(t, p->offset_digits, mode, (uint32_t)s,
				(uint32_t)d);
	if (dp->lid && off >= (1u << p->lmc))
		fuzz_fail("P%d -> P%d: offset %u outside LMC %d\n", s, d, off,
			  p->lmc);
	turn = cyclic_turn_switch(t, p->offset_digits, mode, (uint32_t)s,
				      (uint32_t)d, off);
	if (turn >= t->num_switches)
		fuzz_fail("P%d -> P%d: turn switch %d of %d\n", s, d, turn,
			  t->num_switches);
	if (turn >= 0) {
		if (!ibft_view_below(t, turn, s) || !ibft_view_below(t, turn, d))
			fuzz_fail("P%d -> P%d: turns at a switch not above both\n",
				  s, d);
		ibft_view_sw_label(t, turn, buf, sizeof(buf));
	}
	ibft_view_ep_label(t, s, buf, sizeof(buf));
}

static void all_pairs(const struct ibu_fabric *f, const struct ibft_view *t,
		      const struct lidplan *p, enum ibu_cyclic_offsets mode)
{
	int s, d;

	for (s = 0; s < t->num_endports; s++) {
		if (t->ep[s].node < 0)
			continue;
		for (d = 0; d < t->num_endports; d++)
			if (d != s && t->ep[d].node >= 0)
				one_pair(f, t, p, mode, s, d);
	}
}

/* S's route toward D on the advised DLID: arrives, turns as predicted
 * (on a PGFT with faults: arrives, unless S's leaf has no entry at all,
 * where no up*|down* way is left; turns where the faults allow). */
static void pgft_pair(struct ibu_fabric *f, const struct ibu_pgft *g,
		      const struct ibu_lft *lft, int lmc, int S, int D)
{
	const struct ibu_port *dp = &f->nodes[g->host[D].node].ports[g->host[D].port];
	uint32_t lid = dp->lid + ibu_pgft_offset(g, lmc, S, D);
	int n = g->host[S].leaf, top = n, hops, p, turn;

	if (g->num_faults && ibu_lft_get(lft, n, lid) == IBU_NO_PATH)
		return;
	for (hops = 0; hops < 2 * IBU_PGFT_MAX_H + 2; hops++) {
		p = ibu_lft_get(lft, n, lid);
		if (p == IBU_NO_PATH || p < 1 || p > f->nodes[n].num_ports)
			fuzz_fail("host %d -> %d: no entry at node %d\n", S, D, n);
		if (g->level[n] > g->level[top])
			top = n;
		n = f->nodes[n].ports[p].peer_node;
		if (n < 0)
			fuzz_fail("host %d -> %d: uncabled port\n", S, D);
		if (!ibu_node_is_switch(&f->nodes[n]))
			break;
	}
	if (n != g->host[D].node)
		fuzz_fail("host %d -> %d: arrives at node %d\n", S, D, n);
	turn = ibu_pgft_turn_switch(f, g, lmc, S, D);
	if (turn >= g->num_nodes || (!g->num_faults && top != turn))
		fuzz_fail("host %d -> %d: turns elsewhere\n", S, D);
}

static void pgft_all(struct ibu_fabric *f)
{
	struct ibu_pgft g;
	struct ibu_lidmap map;
	struct ibu_lft lft;
	struct ibu_err e = { 0 };
	int lmc, S, D;

	if (ibu_pgft_recognize_limit(f, &g, NULL, 0, -1, &e))
		return;
	lmc = ibu_pgft_fit_lmc(&g, ibu_pgft_needed_lmc(&g));
	if (lmc >= 0 && !ibu_pgft_assign_lids(f, &g, lmc, &e) &&
	    !ibu_lidmap_build(f, &map, &e)) {
		if (!ibu_pgft_route(f, &g, &map, lmc, &lft, &e)) {
			for (S = 0; S < g.num_hosts; S++)
				for (D = 0; D < g.num_hosts; D++)
					if (S != D)
						pgft_pair(f, &g, &lft, lmc, S, D);
			ibu_lft_free(&lft);
		}
		ibu_lidmap_free(&map);
	}
	ibu_pgft_free(&g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibu_fabric f;
	struct ibft_view t;
	struct lidplan p;
	struct ibu_err e = { 0 };
	char *copy;
	FILE *in = fuzz_open(data, size, &copy);
	int rc;

	if (!in)
		abort();
	rc = ibu_netfile_read_stream(in, "fuzz.net", &f, &e);
	fuzz_close(in, copy);
	if (rc)
		return 0;
	/* bounded work per input: path is quadratic in the end ports */
	if (ibu_fabric_count_endports(&f) <= 256 &&
	    ibft_view_recognize_limit(&f, &t, 0, &e))
		pgft_all(&f);
	else if (ibu_fabric_count_endports(&f) <= 256)
		ibft_view_free(&t);
	if (ibu_fabric_count_endports(&f) <= 256 && ibu_fabric_max_lid(&f) &&
	    !ibft_view_recognize(&f, &t, &e)) {
		if (!lidplan_build(&f, &p, &e)) {
			all_pairs(&f, &t, &p, IBU_OFFSETS_ROTATED);
			all_pairs(&f, &t, &p, IBU_OFFSETS_PAPER);
			lidplan_free(&p);
		}
		ibft_view_free(&t);
	}
	ibu_fabric_free(&f);
	return 0;
}
