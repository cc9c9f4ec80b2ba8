/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "engine.h"

const char *ibu_engine_stage_name(enum ibu_engine_stage s)
{
	switch (s) {
	case IBU_STAGE_RECOGNISE: return "recognising the topology";
	case IBU_STAGE_PLAN: return "planning the LIDs";
	case IBU_STAGE_ALLOC: return "allocating the forwarding tables";
	case IBU_STAGE_ROUTE: return "computing the routes";
	case IBU_STAGE_CHECK: return "checking the tables";
	}
	return "?";
}

int ibu_engine_tree_alloc(struct ibu_engine_tree *t, int num_switches,
			  struct ibu_err *e)
{
	size_t n = num_switches > 0 ? (size_t)num_switches : 1;

	memset(t, 0, sizeof(*t));
	t->root = -1;
	t->num_switches = num_switches;
	t->nodes = malloc(n * sizeof(*t->nodes));
	t->ports = calloc(n, sizeof(*t->ports));
	if (!t->nodes || !t->ports) {
		ibu_engine_tree_free(t);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	return IBU_OK;
}

void ibu_engine_tree_free(struct ibu_engine_tree *t)
{
	if (!t)
		return;
	free(t->nodes);
	free(t->ports);
	memset(t, 0, sizeof(*t));
	t->root = -1;
}

/*
 * The tables must be complete before anyone writes them into switches:
 * every LID a port owns is routed on every switch, through a port the
 * switch has, and a switch's own LID maps to port 0.
 */
/* 1 when every entry of row[from..to] is a port 1..np: eight at a time
 * where np < 128 (a zero byte, or one above np, sets a high bit). */
static int ports_only(const uint8_t *row, uint32_t from, uint32_t to,
		      unsigned np)
{
	const uint64_t ones = 0x0101010101010101ull, high = ones << 7;
	uint64_t x, bad = 0;
	uint32_t lid = from;

	if (np < 128)
		for (; lid + 7 <= to && lid + 7 > lid; lid += 8) {
			memcpy(&x, row + lid, sizeof(x));
			bad |= (x - ones) & ~x & high;
			bad |= ((x + ones * (127 - np)) | x) & high;
		}
	for (; lid <= to && lid >= from; lid++)
		bad |= (uint8_t)(row[lid] - 1) >= np;
	return !bad;
}

/*
 * 1 when row i passes check_tables() for sure: every entry up to top is a
 * port 1..num_ports but those of the switch's own LIDs (port 0's set, as
 * ibu_lidmap_build() reads them), which are 0. A row it cannot clear
 * (an unassigned LID, a bad entry) gets the entry-by-entry look.
 */
static int row_clear(const struct ibu_fabric *f, const struct ibu_lidmap *map,
		     int i, const uint8_t *row, uint32_t top)
{
	const struct ibu_port *p0 = &f->nodes[i].ports[0];
	unsigned np = (unsigned)f->nodes[i].num_ports;
	uint32_t lid, lo = p0->lid, hi = lo + (1u << p0->lmc) - 1;

	if (!lo || lo > top)
		return ports_only(row, 1, top, np);
	hi = hi < top ? hi : top;
	for (lid = lo; lid <= hi; lid++)
		if (map->owner[lid].node != i || row[lid] != 0)
			return 0;
	return ports_only(row, 1, lo - 1, np) &&
	       ports_only(row, hi + 1, top, np);
}

static int check_tables(const struct ibu_engine_ops *ops, const void *topo,
			const struct ibu_fabric *f,
			const struct ibu_lidmap *map,
			const struct ibu_lft *lft, struct ibu_err *e)
{
	uint32_t lid, top = map->max_lid < lft->max_lid ? map->max_lid :
							   lft->max_lid;
	int i;

	for (i = 0; i < f->num_nodes; i++) {
		const struct ibu_node *n = &f->nodes[i];
		const uint8_t *row = i < lft->num_nodes ? lft->row[i] : NULL;

		if (!ibu_node_is_switch(n))
			continue;
		if (!row)
			return ibu_err_set(e, IBU_EINVAL,
					   "switch '%s' has no forwarding table",
					   n->name);
		if (n->num_ports < 255 && row_clear(f, map, i, row, top))
			continue;
		for (lid = 1; lid <= map->max_lid && lid <= lft->max_lid;
		     lid++) {
			const struct ibu_lid_owner *o = ibu_lidmap_get(map, lid);
			uint8_t port = row[lid];

			if (port != IBU_NO_PATH && port > n->num_ports)
				return ibu_err_set(e, IBU_EINVAL,
						   "switch '%s' would forward LID %u to port %u of %d",
						   n->name, lid, port,
						   n->num_ports);
			if (!o)
				continue;
			if (port == IBU_NO_PATH && !(ops->may_leave_unrouted &&
			    ops->may_leave_unrouted(topo, i, lid)))
				return ibu_err_set(e, IBU_EINVAL,
						   "switch '%s' has no route to LID %u of '%s'",
						   n->name, lid,
						   f->nodes[o->node].name);
			if (o->node == i && port != 0)
				return ibu_err_set(e, IBU_EINVAL,
						   "switch '%s' forwards its own LID %u to port %u",
						   n->name, lid, port);
		}
	}
	return IBU_OK;
}

/* Closes stage r->stage: its wall time since *t0, and restarts *t0. */
static void stage_done(struct ibu_engine_result *r, struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	r->stage_ms[r->stage] = (double)(t1.tv_sec - t0->tv_sec) * 1e3 +
				(double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
	*t0 = t1;
}

void ibu_engine_decline_set(struct ibu_engine_decline *d, int rc,
			    enum ibu_engine_decline_kind kind,
			    const struct ibu_err *e)
{
	const char *text = e && e->msg[0] ? e->msg : ibu_strerror(rc);

	memset(d, 0, sizeof(*d));
	if (rc == IBU_OK)
		return;
	d->kind = kind != IBU_DECLINE_NONE ? kind : IBU_DECLINE_ERROR;
	snprintf(d->text, sizeof(d->text), "%s", text);
}

int ibu_engine_run(const struct ibu_engine_ops *ops,
		   const struct ibu_fabric *f,
		   const struct ibu_engine_opts *o,
		   struct ibu_engine_result *r, struct ibu_err *e)
{
	return ibu_engine_run_into(ops, f, o, NULL, NULL, r, e);
}

/* Stages ALLOC, ROUTE and CHECK on r's model (topology and LID plan). */
static int route_stages(const struct ibu_fabric *f,
			const struct ibu_engine_opts *o, uint8_t *const *rows,
			const uint32_t *cap, struct ibu_engine_result *r,
			struct timespec *t0, struct ibu_err *e)
{
	const struct ibu_engine_ops *ops = r->ops;
	int rc;

	r->stage = IBU_STAGE_ALLOC;
	rc = rows ? ibu_lft_init_rows(&r->lft, f, r->map.max_lid, rows, cap, e) :
		    ibu_lft_init(&r->lft, f, r->map.max_lid, e);
	if (rc)
		return rc;
	stage_done(r, t0);
	r->stage = IBU_STAGE_ROUTE;
	rc = ops->route(f, r->topo, &r->map, o, &r->lft, e);
	if (rc)
		return rc;
	stage_done(r, t0);
	r->stage = IBU_STAGE_CHECK;
	rc = check_tables(ops, r->topo, f, &r->map, &r->lft, e);
	if (rc)
		return rc;
	stage_done(r, t0);
	return IBU_OK;
}

/* After a failed stage: e names it, nothing stays allocated, r keeps the
 * engine, the stage and why recognition declined. */
static int run_failed(struct ibu_engine_result *r, int rc, struct ibu_err *e)
{
	const struct ibu_engine_ops *ops = r->ops;
	enum ibu_engine_stage st = r->stage;
	struct ibu_engine_decline d = r->decline;

	if (st != IBU_STAGE_RECOGNISE)
		ibu_err_prefix(e, "%s", ibu_engine_stage_name(st));
	ibu_engine_result_free(r);
	r->ops = ops;
	r->stage = st;
	r->decline = d;
	return rc;
}

/* Every stage; topo: recognise's result on f and o, already at hand (the
 * stage is then skipped), or NULL; lent: topo stays the caller's. */
static int run_stages(const struct ibu_engine_ops *ops,
		      const struct ibu_fabric *f,
		      const struct ibu_engine_opts *o, void *topo, int lent,
		      uint8_t *const *rows, const uint32_t *cap,
		      struct ibu_engine_result *r, struct ibu_err *e)
{
	struct ibu_engine_opts defaults;
	enum ibu_engine_decline_kind why = IBU_DECLINE_NONE;
	struct timespec t0;
	int rc = IBU_OK;

	if (!o) {
		ibu_engine_opts_default(&defaults);
		o = &defaults;
	}
	memset(r, 0, sizeof(*r));
	r->ops = ops;
	r->stage = IBU_STAGE_RECOGNISE;
	r->topo = topo;
	r->topo_lent = lent;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!topo)
		rc = ops->recognise(f, o, &r->topo, &why, e);
	ibu_engine_decline_set(&r->decline, rc, why, e);
	if (rc)
		return run_failed(r, rc, e);
	stage_done(r, &t0);
	r->stage = IBU_STAGE_PLAN;
	rc = ibu_lidmap_build(f, &r->map, e);
	if (!rc && ops->plan)
		rc = ops->plan(f, r->topo, &r->map, e);
	if (!rc) {
		stage_done(r, &t0);
		rc = route_stages(f, o, rows, cap, r, &t0, e);
	}
	return rc ? run_failed(r, rc, e) : IBU_OK;
}

int ibu_engine_run_into(const struct ibu_engine_ops *ops,
			const struct ibu_fabric *f,
			const struct ibu_engine_opts *o, uint8_t *const *rows,
			const uint32_t *cap, struct ibu_engine_result *r,
			struct ibu_err *e)
{
	return run_stages(ops, f, o, NULL, 0, rows, cap, r, e);
}

int ibu_engine_run_recognised(const struct ibu_engine_ops *ops,
			      const struct ibu_fabric *f,
			      const struct ibu_engine_opts *o, void *topo,
			      struct ibu_engine_result *r, struct ibu_err *e)
{
	return run_stages(ops, f, o, topo, 0, NULL, NULL, r, e);
}

int ibu_engine_run_lent(const struct ibu_engine_ops *ops,
			const struct ibu_fabric *f,
			const struct ibu_engine_opts *o, void *topo,
			struct ibu_engine_result *r, struct ibu_err *e)
{
	if (!topo)
		return ibu_err_set(e, IBU_EINVAL, "no recognised topology to lend");
	return run_stages(ops, f, o, topo, 1, NULL, NULL, r, e);
}

int ibu_engine_rerun_into(const struct ibu_fabric *f,
			  const struct ibu_engine_opts *o,
			  uint8_t *const *rows, const uint32_t *cap,
			  struct ibu_engine_result *r, struct ibu_err *e)
{
	struct ibu_engine_opts defaults;
	struct timespec t0;
	int rc;

	if (!r->ops || !r->topo)
		return ibu_err_set(e, IBU_EINVAL, "no earlier run to reuse");
	if (!o) {
		ibu_engine_opts_default(&defaults);
		o = &defaults;
	}
	ibu_lft_free(&r->lft);
	memset(r->stage_ms, 0, sizeof(r->stage_ms));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = route_stages(f, o, rows, cap, r, &t0, e);
	return rc ? run_failed(r, rc, e) : IBU_OK;
}

void ibu_engine_result_free(struct ibu_engine_result *r)
{
	if (!r)
		return;
	if (r->topo && r->ops && !r->topo_lent)
		r->ops->topo_free(r->topo);
	ibu_lidmap_free(&r->map);
	ibu_lft_free(&r->lft);
	memset(r, 0, sizeof(*r));
}

const struct ibu_engine_ops *ibu_engine_find(const char *name)
{
	const struct ibu_engine_ops *const *engines = ibu_engine_list();
	int i;

	for (i = 0; engines[i]; i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

const struct ibu_engine_ops *ibu_engine_detect(const struct ibu_fabric *f,
					       const struct ibu_engine_opts *o,
					       void **topo, struct ibu_err *e)
{
	const struct ibu_engine_ops *const *engines = ibu_engine_list();
	/* room for the words around it in e: the reasons are never cut */
	char why[IBU_ERR_MSG_LEN - 64] = "";
	enum ibu_engine_decline_kind kind;
	struct ibu_err one;
	int i, len = 0, rc;
	/* the first engine that takes the fabric only as a degenerate case,
	 * unless a later one takes it */
	const struct ibu_engine_ops *weak = NULL;
	void *wtopo = NULL;

	*topo = NULL;
	for (i = 0; engines[i]; i++) {
		ibu_err_clear(&one);
		kind = IBU_DECLINE_NONE;
		rc = engines[i]->recognise(f, o, topo, &kind, &one);
		if (!rc && kind == IBU_DECLINE_DEGENERATE) {
			if (weak) {
				engines[i]->topo_free(*topo);
			} else {
				weak = engines[i];
				wtopo = *topo;
			}
			*topo = NULL;
			continue;
		}
		if (!rc) {
			if (weak)
				weak->topo_free(wtopo);
			return engines[i];
		}
		if (kind != IBU_DECLINE_TOPOLOGY && kind != IBU_DECLINE_CONFIG) {
			if (weak)
				weak->topo_free(wtopo);
			ibu_err_set(e, rc, "%s", one.msg);
			return NULL;
		}
		/* the engine's words already name its topology */
		len += snprintf(why + len, sizeof(why) - (size_t)len, "%s%s",
				len ? "; " : "", one.msg);
		if (len >= (int)sizeof(why))
			len = (int)sizeof(why) - 1;
	}
	if (weak) {
		*topo = wtopo;
		return weak;
	}
	ibu_err_set(e, IBU_ETOPO, "no engine recognises the fabric (%s)", why);
	return NULL;
}
