/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "lidplan.h"
#include "guid2lid.h"

int ibu_lid_needed_lmc(int m, int n)
{
	/* (m/2)^(n-1) paths; stop counting once beyond any real LMC */
	uint64_t paths = 1;
	int i, lmc = 0;

	for (i = 0; i < n - 1 && paths < (1ull << 40); i++)
		paths *= (uint64_t)(m / 2);
	while (lmc < 40 && (1ull << lmc) < paths)
		lmc++;
	return lmc;
}

int ibu_lid_offset_digits(int half, int n, int lmc)
{
	uint64_t pw = 1;
	int d = 0;

	while (d < n - 1 && pw * (uint64_t)half <= (1ull << lmc)) {
		pw *= (uint64_t)half;
		d++;
	}
	return d;
}

struct min_lmc {
	const struct ibu_ibft *t;
	int lmc;
};

static int tree_lmc(void *ctx, int node, int port, const struct ibu_port *pt)
{
	struct min_lmc *c = ctx;

	if (port && ibu_ibft_ep(c->t, node, port) >= 0 &&
	    (c->lmc < 0 || pt->lmc < c->lmc))
		c->lmc = pt->lmc;
	return 0;
}

int ibu_lidplan_build(const struct ibu_fabric *f, const struct ibu_ibft *t,
		      struct ibu_lidplan *p, struct ibu_err *e)
{
	struct min_lmc c = { t, -1 };
	int rc;

	memset(p, 0, sizeof(*p));
	rc = ibu_lidmap_build(f, &p->map, e);
	if (rc)
		return rc;
	ibu_fabric_foreach_lid_port(f, tree_lmc, &c);
	p->lmc = c.lmc < 0 ? 0 : c.lmc;
	p->lmc_needed = ibu_lid_needed_lmc(t->m, t->n);
	p->offset_digits = ibu_lid_offset_digits(t->half, t->n, p->lmc);
	return IBU_OK;
}

void ibu_lidplan_free(struct ibu_lidplan *p)
{
	if (!p)
		return;
	ibu_lidmap_free(&p->map);
	memset(p, 0, sizeof(*p));
}

uint32_t ibu_lidplan_paper_base(uint32_t pid, int lmc,
				enum ibu_lid_numbering how)
{
	if (how == IBU_LIDS_PAPER_EXACT)
		return (pid << lmc) + 1;
	return (pid + 1) << lmc;
}

/* Highest LID the numbering needs, as 64 bits so nothing wraps. */
static uint64_t paper_top(const struct ibu_ibft *t, int lmc,
			  enum ibu_lid_numbering how)
{
	uint64_t sw0 = how == IBU_LIDS_PAPER_EXACT ?
		((uint64_t)t->num_endports << lmc) + 1 :
		((uint64_t)t->num_endports + 1) << lmc;

	return sw0 + (uint64_t)t->full_switches - 1;
}

int ibu_lidplan_fit_lmc(const struct ibu_ibft *t, int want,
			enum ibu_lid_numbering how)
{
	int lmc;

	if (want > IBU_MAX_LMC)
		want = IBU_MAX_LMC;
	for (lmc = want; lmc >= 0; lmc--)
		if (paper_top(t, lmc, how) <= IBU_MAX_UCAST_LID)
			return lmc;
	return -1;
}

int ibu_lidplan_assign_paper(struct ibu_fabric *f, const struct ibu_ibft *t,
			     int lmc, enum ibu_lid_numbering how,
			     struct ibu_err *e)
{
	uint32_t pid, next;
	long slot, slots;
	int i, p;

	if (lmc < 0 || lmc > IBU_MAX_LMC)
		return ibu_err_set(e, IBU_EINVAL, "LMC %d is outside 0..7", lmc);
	if (paper_top(t, lmc, how) > IBU_MAX_UCAST_LID)
		return ibu_err_set(e, IBU_ELID,
				   "IBFT(%d,%d) at LMC %d needs LIDs up to 0x%" PRIx64
				   ", beyond the unicast space 0xBFFF (largest LMC that fits: %d)",
				   t->m, t->n, lmc, paper_top(t, lmc, how),
				   ibu_lidplan_fit_lmc(t, lmc, how));
	/* clear every LID first so no stale LID survives */
	for (i = 0; i < f->num_nodes; i++)
		for (p = 0; p <= f->nodes[i].num_ports; p++) {
			f->nodes[i].ports[p].lid = 0;
			f->nodes[i].ports[p].lmc = 0;
		}
	for (pid = 0; pid < (uint32_t)t->num_endports; pid++) {
		struct ibu_port *pt;

		if (t->ep[pid].node < 0)
			continue;	/* absent end port: its LIDs stay free */
		pt = &f->nodes[t->ep[pid].node].ports[t->ep[pid].port];

		pt->lid = (uint16_t)ibu_lidplan_paper_base(pid, lmc, how);
		pt->lmc = (uint8_t)lmc;
	}
	next = how == IBU_LIDS_PAPER_EXACT ?
		((uint32_t)t->num_endports << lmc) + 1 :
		((uint32_t)t->num_endports + 1) << lmc;
	slots = t->full_switches;	/* label slots cover all switches */
	for (slot = 0; slot < slots; slot++) {
		int s = t->sw_of_label[slot];

		if (s < 0) {
			next++;		/* a missing switch keeps its LID free */
			continue;
		}
		f->nodes[t->sw[s].node].ports[0].lid = (uint16_t)next++;
	}
	return IBU_OK;
}

int ibu_lidplan_write_guid2lid(FILE *out, const struct ibu_fabric *f,
			       struct ibu_err *e)
{
	return ibu_guid2lid_write(out, f, e);
}
