/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * libFuzzer target: what `ibunion path` does with its FABRIC (a net file
 * or ibnetdiscover output carrying LIDs, as read by lib/netfile.c), on
 * exact and degraded fat trees: recognition, the LID plan, then for every
 * ordered pair of present end ports the cyclic offset, the DLID and the
 * switch the path turns at. Absent end ports (degraded trees) are skipped
 * as tools/cmd_path.c skips them. Properties: the DLID stays inside the
 * destination's LID set, and the turn switch is above both end ports.
 */
#include "fuzz.h"
#include "netfile.h"
#include "ibft.h"
#include "lidplan.h"
#include "cyclic.h"

static void one_pair(const struct ibu_fabric *f, const struct ibu_ibft *t,
		     const struct ibu_lidplan *p, enum ibu_cyclic_offsets mode,
		     int s, int d)
{
	const struct ibu_port *dp =
		&f->nodes[t->ep[d].node].ports[t->ep[d].port];
	unsigned off;
	char buf[64];
	int turn;

	off = ibu_cyclic_offset(t, p->offset_digits, mode, (uint32_t)s,
				(uint32_t)d);
	if (dp->lid && off >= (1u << p->lmc))
		fuzz_fail("P%d -> P%d: offset %u outside LMC %d\n", s, d, off,
			  p->lmc);
	turn = ibu_cyclic_turn_switch(t, p->offset_digits, mode, (uint32_t)s,
				      (uint32_t)d, off);
	if (turn >= t->num_switches)
		fuzz_fail("P%d -> P%d: turn switch %d of %d\n", s, d, turn,
			  t->num_switches);
	if (turn >= 0) {
		if (!ibu_ibft_below(t, turn, s) || !ibu_ibft_below(t, turn, d))
			fuzz_fail("P%d -> P%d: turns at a switch not above both\n",
				  s, d);
		ibu_ibft_sw_label(t, turn, buf, sizeof(buf));
	}
	ibu_ibft_ep_label(t, s, buf, sizeof(buf));
}

static void all_pairs(const struct ibu_fabric *f, const struct ibu_ibft *t,
		      const struct ibu_lidplan *p, enum ibu_cyclic_offsets mode)
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibu_fabric f;
	struct ibu_ibft t;
	struct ibu_lidplan p;
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
	if (ibu_fabric_count_endports(&f) <= 256 && ibu_fabric_max_lid(&f) &&
	    !ibu_ibft_recognize(&f, &t, &e)) {
		if (!ibu_lidplan_build(&f, &t, &p, &e)) {
			all_pairs(&f, &t, &p, IBU_OFFSETS_ROTATED);
			all_pairs(&f, &t, &p, IBU_OFFSETS_PAPER);
			ibu_lidplan_free(&p);
		}
		ibu_ibft_free(&t);
	}
	ibu_fabric_free(&f);
	return 0;
}
