/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Validation of LFTs: reachability, loops, minimality, the cyclic rule. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "verify.h"
#include "lidplan.h"
#include "cyclic.h"

/* memo states of a switch for the current destination LID; >= 1 = hops */
enum { ST_UNVISITED = 0, ST_VISITING = -1, ST_BAD = -2 };

/* why a route does not arrive */
enum why {
	WHY_NOPATH = 1,		/* entry 0xFF */
	WHY_BADPORT,		/* port the switch does not have */
	WHY_UNCABLED,		/* port without a cable */
	WHY_WRONG_END,		/* delivered to an end port that is not the owner */
	WHY_PORT0,		/* port 0 at a switch that does not own the LID */
	WHY_LOOP,		/* came back to a switch */
};

enum kind { K_UNREACH, K_LOOP, K_NONMIN, K_CYCLIC, K_CLIMB, K_KINDS };

static const char *const kind_name[K_KINDS] = {
	"unreachable routes", "looping routes", "non-minimal routes",
	"cyclic mismatches", "sources without one ascending path",
};

struct ctx {
	const struct ibu_fabric *f;
	const struct ibu_lft *lft;
	const struct ibu_verify_opts *o;
	FILE *out;
	struct ibu_verify_result *r;
	int max_errors;
	long printed[K_KINDS];
	long total[K_KINDS];
	/* destination LID owners */
	uint32_t max_lid;
	struct ibu_lidmap lids;
	const struct ibu_lid_owner *own;	/* lids.owner: [0..max_lid] */
	/* memo for the current LID, per fabric node */
	int *st;
	uint8_t *why;
	int *at;		/* switch where the route failed / loop closed */
	int *at_port;		/* its out port */
	int *path;		/* walk stack */
	/* BFS distances (switches, including both ends) to the current owner */
	int *dist;
	int *queue;
	int dist_node, dist_port;
	/* source end ports */
	int *src_node, *src_port;
	long num_src;
};

static int nomem(struct ibu_err *e)
{
	return ibu_err_set(e, IBU_ENOMEM, "out of memory");
}

static void port_text(const struct ibu_fabric *f, int node, int port,
		      char *buf, size_t len)
{
	const struct ibu_node *n = &f->nodes[node];

	if (ibu_node_is_switch(n))
		snprintf(buf, len, "'%s'", n->name);
	else
		snprintf(buf, len, "'%s' port %d", n->name, port);
}

/* Can another error line of this kind be printed? Counts it either way. */
static int may_print(struct ctx *c, enum kind k)
{
	c->total[k]++;
	if (!c->out || c->max_errors < 0 || c->printed[k] >= c->max_errors)
		return 0;
	c->printed[k]++;
	return 1;
}

static void info(struct ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void info(struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	if (!c->out || c->o->quiet)
		return;
	fputs("-I- ", c->out);
	va_start(ap, fmt);
	vfprintf(c->out, fmt, ap);
	va_end(ap);
	fputc('\n', c->out);
}

static void warn(struct ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void warn(struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	c->r->warnings++;
	if (!c->out)
		return;
	fputs("-W- ", c->out);
	va_start(ap, fmt);
	vfprintf(c->out, fmt, ap);
	va_end(ap);
	fputc('\n', c->out);
}

/* ------------------------------------------------------------ set-up */

static int build_owners(struct ctx *c, struct ibu_err *e)
{
	const struct ibu_fabric *f = c->f;
	long unaligned = 0;
	int i, p, rc;

	rc = ibu_lidmap_build(f, &c->lids, e);
	if (rc)
		return rc;
	c->own = c->lids.owner;
	c->max_lid = c->lids.max_lid;
	for (i = 0; i < f->num_nodes; i++) {
		const struct ibu_node *n = &f->nodes[i];
		int first = ibu_node_is_switch(n) ? 0 : 1;
		int last = ibu_node_is_switch(n) ? 0 : n->num_ports;

		for (p = first; p <= last; p++) {
			const struct ibu_port *pt = &n->ports[p];

			unaligned += pt->lid && (pt->lid & ((1u << pt->lmc) - 1));
		}
	}
	if (unaligned)
		warn(c, "%ld ports have a LID set not aligned to its LMC (IBA requires alignment; OpenSM would refuse it)",
		     unaligned);
	return IBU_OK;
}

static int build_sources(struct ctx *c, struct ibu_err *e)
{
	const struct ibu_fabric *f = c->f;
	long n = ibu_fabric_count_endports(f), k = 0, nolid = 0, direct = 0;
	int i, p;

	c->src_node = malloc((n ? n : 1) * sizeof(int));
	c->src_port = malloc((n ? n : 1) * sizeof(int));
	if (!c->src_node || !c->src_port)
		return nomem(e);
	for (i = 0; i < f->num_nodes; i++) {
		const struct ibu_node *nd = &f->nodes[i];

		if (ibu_node_is_switch(nd))
			continue;
		for (p = 1; p <= nd->num_ports; p++) {
			const struct ibu_port *pt = &nd->ports[p];

			if (pt->peer_node < 0)
				continue;
			if (!pt->lid)
				nolid++;
			if (!ibu_node_is_switch(&f->nodes[pt->peer_node])) {
				direct++;
				continue;
			}
			c->src_node[k] = i;
			c->src_port[k] = p;
			k++;
		}
	}
	c->num_src = k;
	if (nolid)
		warn(c, "%ld cabled end ports have no LID (not a destination)",
		     nolid);
	if (direct)
		warn(c, "%ld end ports are cabled to an end port, not a switch (not a source)",
		     direct);
	return IBU_OK;
}

/* Switch distances from every switch to the owner (node, port). */
static void bfs(struct ctx *c, int node, int port)
{
	const struct ibu_fabric *f = c->f;
	int head = 0, tail = 0, i, p, start;

	if (c->dist_node == node && c->dist_port == port)
		return;
	c->dist_node = node;
	c->dist_port = port;
	for (i = 0; i < f->num_nodes; i++)
		c->dist[i] = 0;	/* 0 = unreachable */
	if (ibu_node_is_switch(&f->nodes[node]))
		start = node;
	else
		start = f->nodes[node].ports[port].peer_node;
	if (start < 0 || !ibu_node_is_switch(&f->nodes[start]))
		return;
	c->dist[start] = 1;
	c->queue[tail++] = start;
	while (head < tail) {
		int x = c->queue[head++];
		const struct ibu_node *n = &f->nodes[x];

		for (p = 1; p <= n->num_ports; p++) {
			int y = n->ports[p].peer_node;

			if (y < 0 || !ibu_node_is_switch(&f->nodes[y]) ||
			    c->dist[y])
				continue;
			c->dist[y] = c->dist[x] + 1;
			c->queue[tail++] = y;
		}
	}
}

/* ------------------------------------------------------------ walking */

/*
 * State of switch s for LID lid with owner o: hops (>= 1) or ST_BAD, with
 * why/at/at_port set. Iterative; every switch is evaluated once per LID.
 */
static int resolve(struct ctx *c, int s, uint32_t lid, const struct ibu_lid_owner *o)
{
	const struct ibu_fabric *f = c->f;
	int n = 0, x = s, res, i;

	for (;;) {
		const struct ibu_node *nd;
		uint8_t port;
		int peer;

		if (c->st[x] >= 1 || c->st[x] == ST_BAD) {
			res = x;
			break;
		}
		if (c->st[x] == ST_VISITING) {
			/* every switch on the walk loops or leads into it */
			for (i = 0; i < n; i++) {
				c->st[c->path[i]] = ST_BAD;
				c->why[c->path[i]] = WHY_LOOP;
				c->at[c->path[i]] = x;
				c->at_port[c->path[i]] = ibu_lft_get(c->lft, x, lid);
			}
			return c->st[s];
		}
		nd = &f->nodes[x];
		port = ibu_lft_get(c->lft, x, lid);
		c->at[x] = x;
		c->at_port[x] = port;
		res = x;
		if (port == 0) {
			if (o->node == x) {
				c->st[x] = 1;
			} else {
				c->st[x] = ST_BAD;
				c->why[x] = WHY_PORT0;
			}
			break;
		}
		if (port == IBU_NO_PATH) {
			c->st[x] = ST_BAD;
			c->why[x] = WHY_NOPATH;
			break;
		}
		if (port > nd->num_ports) {
			c->st[x] = ST_BAD;
			c->why[x] = WHY_BADPORT;
			break;
		}
		peer = nd->ports[port].peer_node;
		if (peer < 0) {
			c->st[x] = ST_BAD;
			c->why[x] = WHY_UNCABLED;
			break;
		}
		if (!ibu_node_is_switch(&f->nodes[peer])) {
			if (peer == o->node && nd->ports[port].peer_port == o->port) {
				c->st[x] = 1;
			} else {
				c->st[x] = ST_BAD;
				c->why[x] = WHY_WRONG_END;
			}
			break;
		}
		c->st[x] = ST_VISITING;
		c->path[n++] = x;
		x = peer;
	}
	for (i = n - 1; i >= 0; i--) {
		int y = c->path[i];

		if (c->st[res] == ST_BAD) {
			c->st[y] = ST_BAD;
			c->why[y] = c->why[res];
			c->at[y] = c->at[res];
			c->at_port[y] = c->at_port[res];
		} else {
			c->st[y] = c->st[res] + 1;
		}
		res = y;
	}
	return c->st[s];
}

static void why_text(struct ctx *c, int sw, uint32_t lid, char *buf,
		     size_t len)
{
	const struct ibu_fabric *f = c->f;
	int at = c->at[sw], port = c->at_port[sw];
	const struct ibu_node *n = &f->nodes[at];
	char peer[300];

	switch (c->why[sw]) {
	case WHY_NOPATH:
		snprintf(buf, len, "no entry (0xff) at '%s'", n->name);
		break;
	case WHY_BADPORT:
		snprintf(buf, len, "'%s' sends it to port %d of %d", n->name,
			 port, n->num_ports);
		break;
	case WHY_UNCABLED:
		snprintf(buf, len, "'%s' sends it to port %d, not cabled",
			 n->name, port);
		break;
	case WHY_WRONG_END:
		port_text(f, n->ports[port].peer_node, n->ports[port].peer_port,
			  peer, sizeof(peer));
		snprintf(buf, len, "'%s' port %d delivers it to %s", n->name,
			 port, peer);
		break;
	case WHY_PORT0:
		snprintf(buf, len, "'%s' keeps it (port 0) but does not own it",
			 n->name);
		break;
	case WHY_LOOP:
		snprintf(buf, len, "loop through '%s' port %d", n->name, port);
		break;
	default:
		snprintf(buf, len, "?");
	}
	(void)lid;
}

/* First switch on the route from sw where the remaining distance does not
 * shrink. */
static int detour_at(struct ctx *c, int sw, uint32_t lid)
{
	const struct ibu_fabric *f = c->f;
	int x = sw, steps = 0;

	while (steps++ < f->num_nodes) {
		uint8_t port = ibu_lft_get(c->lft, x, lid);
		int y;

		if (port == 0 || port > f->nodes[x].num_ports)
			break;
		y = f->nodes[x].ports[port].peer_node;
		if (y < 0 || !ibu_node_is_switch(&f->nodes[y]))
			break;
		if (c->dist[y] >= c->dist[x])
			return x;
		x = y;
	}
	return sw;
}

static void check_lid(struct ctx *c, uint32_t lid)
{
	const struct ibu_fabric *f = c->f;
	const struct ibu_lid_owner *o = &c->own[lid];
	struct ibu_verify_result *r = c->r;
	char src[300], dst[300], why[700];
	long k;
	int i;

	for (i = 0; i < f->num_nodes; i++)
		c->st[i] = ST_UNVISITED;
	bfs(c, o->node, o->port);
	port_text(f, o->node, o->port, dst, sizeof(dst));
	for (k = 0; k < c->num_src; k++) {
		int sn = c->src_node[k], sp = c->src_port[k];
		int sw = f->nodes[sn].ports[sp].peer_node, h;

		if (sn == o->node && sp == o->port)
			continue;
		r->pairs++;
		h = resolve(c, sw, lid, o);
		if (h == ST_BAD) {
			enum kind kd = c->why[sw] == WHY_LOOP ? K_LOOP : K_UNREACH;

			if (kd == K_LOOP)
				r->loops++;
			else
				r->unreachable++;
			if (may_print(c, kd)) {
				port_text(f, sn, sp, src, sizeof(src));
				why_text(c, sw, lid, why, sizeof(why));
				fprintf(c->out, "-E- %s: %s -> LID 0x%04x (%s): %s\n",
					kd == K_LOOP ? "loop" : "unreachable",
					src, lid, dst, why);
			}
			continue;
		}
		r->ok++;
		r->hops[h < IBU_VERIFY_MAX_HOPS ? h : IBU_VERIFY_MAX_HOPS]++;
		if (c->dist[sw] && h > c->dist[sw]) {
			r->nonminimal++;
			if (may_print(c, K_NONMIN)) {
				int at = detour_at(c, sw, lid);

				port_text(f, sn, sp, src, sizeof(src));
				fprintf(c->out,
					"-E- non-minimal: %s -> LID 0x%04x (%s): %d switches, shortest %d; detour at '%s' port %d\n",
					src, lid, dst, h, c->dist[sw],
					f->nodes[at].name,
					ibu_lft_get(c->lft, at, lid));
			}
		}
	}
}

/* ------------------------------------------------------------ cyclic */

static void check_cyclic_entries(struct ctx *c)
{
	const struct ibu_ibft *t = c->o->ibft;
	const struct ibu_lidplan *pl = c->o->plan;
	const struct ibu_fabric *f = c->f;
	struct ibu_verify_result *r = c->r;
	uint32_t lid;
	int s;

	for (lid = 1; lid <= pl->map.max_lid; lid++) {
		const struct ibu_lid_owner *lo = &pl->map.owner[lid];
		int pid;

		if (lo->node < 0 || ibu_node_is_switch(&f->nodes[lo->node]))
			continue;
		pid = ibu_ibft_ep(t, lo->node, lo->port);
		if (pid < 0)
			continue;
		for (s = 0; s < t->num_switches; s++) {
			const struct ibu_ibft_switch *sw = &t->sw[s];
			int k = ibu_cyclic_paper_port(t, pl->offset_digits, s,
						      (uint32_t)pid, lo->offset);
			int want = k >= 1 && k <= t->m ? sw->phys_of_k[k] : -1;
			int got = ibu_lft_get(c->lft, sw->node, lid);
			char sl[64], el[64];

			r->cyclic_entries++;
			if (got == want)
				continue;
			r->cyclic_mismatches++;
			if (!may_print(c, K_CYCLIC))
				continue;
			ibu_ibft_sw_label(t, s, sl, sizeof(sl));
			ibu_ibft_ep_label(t, pid, el, sizeof(el));
			if (got == IBU_NO_PATH)
				fprintf(c->out,
					"-E- cyclic: %s '%s': LID 0x%04x of %s (offset %u): expected paper port %d (port %d), found no entry\n",
					sl, f->nodes[sw->node].name, lid, el,
					lo->offset, k, want);
			else
				fprintf(c->out,
					"-E- cyclic: %s '%s': LID 0x%04x of %s (offset %u): expected paper port %d (port %d), found port %d (paper port %d)\n",
					sl, f->nodes[sw->node].name, lid, el,
					lo->offset, k, want, got,
					got <= f->nodes[sw->node].num_ports ?
					sw->k_of_phys[got] : 0);
		}
	}
}

/*
 * For each (sampled) source: the up-ports its routes take toward every
 * other end port, on the LID cyclic selection picks, at the levels whose
 * up-digit the LID offset decides, must be one per switch.
 */
static int check_climbs(struct ctx *c, struct ibu_err *e)
{
	const struct ibu_ibft *t = c->o->ibft;
	const struct ibu_lidplan *pl = c->o->plan;
	const struct ibu_fabric *f = c->f;
	struct ibu_verify_result *r = c->r;
	int *used = malloc((t->num_switches ? t->num_switches : 1) * sizeof(int));
	int step, src, dst, want = c->o->climb_sources;

	if (!used)
		return nomem(e);
	/* a leaf at level n-1 uses up-digit 0, level l digit n-1-l */
	r->climb_levels = pl->offset_digits < t->n - 1 ? pl->offset_digits :
			  t->n - 1;
	step = want > 0 && want < t->num_endports ? t->num_endports / want : 1;
	for (src = 0; src < t->num_endports; src += step) {
		int bad = 0, bad_sw = -1, bad_a = 0, bad_b = 0, bad_dst = -1;

		memset(used, 0, t->num_switches * sizeof(int));
		for (dst = 0; dst < t->num_endports && !bad; dst++) {
			const struct ibu_ibft_endport *de = &t->ep[dst];
			const struct ibu_port *dp = &f->nodes[de->node].ports[de->port];
			unsigned off;
			uint32_t lid;
			int x, hops = 0;

			if (dst == src || !dp->lid)
				continue;
			off = ibu_cyclic_offset(t, pl->offset_digits,
						(uint32_t)src, (uint32_t)dst);
			if (off >= (1u << dp->lmc))
				continue;
			lid = dp->lid + off;
			x = t->sw[t->ep[src].leaf].node;
			while (hops++ < t->num_switches) {
				int xs = ibu_ibft_sw(t, x), ys, port, y;

				port = ibu_lft_get(c->lft, x, lid);
				if (xs < 0 || port == 0 ||
				    port > f->nodes[x].num_ports)
					break;
				y = f->nodes[x].ports[port].peer_node;
				ys = y >= 0 ? ibu_ibft_sw(t, y) : -1;
				if (ys < 0 || t->sw[ys].level >= t->sw[xs].level)
					break;	/* no longer climbing */
				if (t->n - 1 - t->sw[xs].level < r->climb_levels) {
					if (!used[xs]) {
						used[xs] = port;
					} else if (used[xs] != port) {
						bad = 1;
						bad_sw = xs;
						bad_a = used[xs];
						bad_b = port;
						bad_dst = dst;
						break;
					}
				}
				x = y;
			}
		}
		r->climb_sources++;
		if (!bad)
			continue;
		r->climb_violations++;
		if (may_print(c, K_CLIMB)) {
			char sl[64], el[64], dl[64];

			ibu_ibft_sw_label(t, bad_sw, sl, sizeof(sl));
			ibu_ibft_ep_label(t, src, el, sizeof(el));
			ibu_ibft_ep_label(t, bad_dst, dl, sizeof(dl));
			fprintf(c->out,
				"-E- cyclic: %s climbs through %s '%s' on port %d and, toward %s, on port %d\n",
				el, sl, f->nodes[t->sw[bad_sw].node].name,
				bad_a, dl, bad_b);
		}
	}
	free(used);
	return IBU_OK;
}

/* ------------------------------------------------------------ driver */

static void print_totals(struct ctx *c)
{
	int k;

	if (!c->out)
		return;
	for (k = 0; k < K_KINDS; k++)
		if (c->total[k] > c->printed[k])
			fprintf(c->out, "-E- %ld %s in total, %ld shown\n",
				c->total[k], kind_name[k], c->printed[k]);
}

int ibu_verify_lft(const struct ibu_fabric *f, const struct ibu_lft *lft,
		   const struct ibu_verify_opts *o, FILE *out,
		   struct ibu_verify_result *r, struct ibu_err *e)
{
	static const struct ibu_verify_opts defaults;
	struct ctx c;
	uint32_t lid;
	long unowned = 0;
	int rc, i, nn = f->num_nodes ? f->num_nodes : 1;

	memset(r, 0, sizeof(*r));
	memset(&c, 0, sizeof(c));
	c.f = f;
	c.lft = lft;
	c.o = o ? o : &defaults;
	c.out = out;
	c.r = r;
	c.max_errors = c.o->max_errors ? c.o->max_errors :
		       IBU_VERIFY_DEFAULT_MAX_ERRORS;
	c.dist_node = -1;
	if (c.o->ibft && !c.o->plan)
		return ibu_err_set(e, IBU_EINVAL, "cyclic checks need a LID plan");
	rc = build_owners(&c, e);
	if (rc)
		goto out;
	c.st = malloc(nn * sizeof(int));
	c.why = malloc(nn);
	c.at = malloc(nn * sizeof(int));
	c.at_port = malloc(nn * sizeof(int));
	c.path = malloc(nn * sizeof(int));
	c.dist = malloc(nn * sizeof(int));
	c.queue = malloc(nn * sizeof(int));
	if (!c.st || !c.why || !c.at || !c.at_port || !c.path || !c.dist ||
	    !c.queue) {
		rc = nomem(e);
		goto out;
	}
	rc = build_sources(&c, e);
	if (rc)
		goto out;
	r->sources = c.num_src;
	for (lid = 1; lid <= c.max_lid; lid++)
		r->lids += c.own[lid].node >= 0;
	for (i = 0; i < f->num_nodes && i < lft->num_nodes; i++) {
		if (!lft->row[i])
			continue;
		for (lid = 1; lid <= lft->max_lid; lid++)
			if (lft->row[i][lid] != IBU_NO_PATH &&
			    (lid > c.max_lid || c.own[lid].node < 0))
				unowned++;
	}
	if (unowned)
		warn(&c, "%ld LFT entries route LIDs that no port owns", unowned);
	info(&c, "Checking unicast routes: %ld sources x %ld LIDs, %d switches",
	     r->sources, r->lids, ibu_fabric_count_switches(f));
	for (lid = 1; lid <= c.max_lid; lid++)
		if (c.own[lid].node >= 0)
			check_lid(&c, lid);
	if (c.o->ibft) {
		r->cyclic = 1;
		check_cyclic_entries(&c);
		info(&c, "cyclic: %ld entries of %d tree switches compared with the paper's rule: %ld mismatches",
		     r->cyclic_entries, c.o->ibft->num_switches,
		     r->cyclic_mismatches);
		if (c.o->plan->offset_digits > 0)
			rc = check_climbs(&c, e);
		else
			info(&c, "cyclic: LMC %d leaves every up-port to the destination (D-mod-k): ascending paths not checked",
			     c.o->plan->lmc);
		if (rc)
			goto out;
		if (!r->climb_violations && r->climb_sources)
			info(&c, "cyclic: every source's routes share one ascending path (%ld sources, %d of %d levels decided by the LID)",
			     r->climb_sources, r->climb_levels, c.o->ibft->n - 1);
	}
	print_totals(&c);
	if (c.out && !c.o->quiet) {
		int h;

		fprintf(c.out, "-I- hop histogram (switches traversed):");
		for (h = 0; h <= IBU_VERIFY_MAX_HOPS; h++)
			if (r->hops[h])
				fprintf(c.out, " %d%s:%ld", h,
					h == IBU_VERIFY_MAX_HOPS ? "+" : "",
					r->hops[h]);
		fputc('\n', c.out);
	}
out:
	ibu_lidmap_free(&c.lids);
	free(c.st);
	free(c.why);
	free(c.at);
	free(c.at_port);
	free(c.path);
	free(c.dist);
	free(c.queue);
	free(c.src_node);
	free(c.src_port);
	return rc;
}

long ibu_verify_problems(const struct ibu_verify_result *r)
{
	return r->unreachable + r->loops + r->nonminimal +
	       r->cyclic_mismatches + r->climb_violations;
}

void ibu_verify_print_summary(FILE *out, const char *who,
			      const struct ibu_verify_result *r)
{
	int h, first = 1;

	fprintf(out, "%s %s: %ld sources x %ld LIDs: %ld unreachable, %ld loops, %ld non-minimal",
		ibu_verify_problems(r) ? "-E-" : "-I-", who, r->sources, r->lids,
		r->unreachable, r->loops, r->nonminimal);
	if (r->cyclic)
		fprintf(out, ", %ld cyclic mismatches, %ld climb violations",
			r->cyclic_mismatches, r->climb_violations);
	fprintf(out, " (hops:");
	for (h = 0; h <= IBU_VERIFY_MAX_HOPS; h++)
		if (r->hops[h]) {
			fprintf(out, " %d%s:%ld", h,
				h == IBU_VERIFY_MAX_HOPS ? "+" : "", r->hops[h]);
			first = 0;
		}
	fprintf(out, "%s)\n", first ? " none" : "");
}
