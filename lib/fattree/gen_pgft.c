/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The fat-tree generator (see gen.h): one wiring for PGFT(P) and IBFT(m,n);
 * an IBFT only names its nodes and orders its records as [Zhou07] does. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen.h"
#include "pgft.h"

#define PGEN_MAX_NODES 1000000L
/* IBFT(m,n) goes to n = 16 levels, deeper than ibu_pgft_params holds */
#define PGEN_MAX_H 16
_Static_assert(IBU_PGFT_MAX_H <= PGEN_MAX_H, "PGFT deeper than the generator");

/*
 * Slots: compute hosts (level 0) first, then the switches level by level,
 * then the hosts on spines. Paper port numbers of a level-l switch: down
 * ports 1..m_l p_l (child a, cable k: a p_l + k + 1), up ports after them
 * (parent b, cable k: m_l p_l + b p_(l+1) + k + 1), spine hosts after the
 * down ports of a top switch. These are [Zhou07]'s port numbers of an IBFT.
 */
struct pgen {
	int h, m[PGEN_MAX_H + 1], w[PGEN_MAX_H + 1], p[PGEN_MAX_H + 1];
	long size[PGEN_MAX_H + 1], first[PGEN_MAX_H + 1];
	long nslots, spine_first, max_nodes;
	int nports[PGEN_MAX_H + 1];	/* ports of a level-l switch */
	int *node_of;			/* slot -> fabric node */
	int **phys;			/* switch slot -> [paper port] phys */
	int rails;			/* > 0: hosts named as rail HCAs */
	int ibft;			/* [Zhou07] names and record order */
};

static int radix_of(const struct pgen *g, int l, int i)
{
	return i < l ? g->w[i + 1] : g->m[i + 1];
}

static int down_ports(const struct pgen *g, int l)
{
	return l >= 1 && l <= g->h ? g->m[l] * g->p[l] : 0;
}

static int up_ports(const struct pgen *g, int l)
{
	return l >= 0 && l < g->h ? g->w[l + 1] * g->p[l + 1] : 0;
}

/*
 * The digits d[] (pgft.h) of a level-l node's name, most significant first;
 * rank() and unrank() read them in this order, so a level's slots follow
 * its names. PGFT: d[h-1]..d[0]. An IBFT switch SW<w,h-l> ([Zhou07], level
 * 0 at the top) is labelled by its a-digits d[h-1]..d[l], then by its up
 * choices in the order they were taken, d[1]..d[l-1] (the paper's link rule
 * drops the child's digit l and appends the choice); d[0] (w_1 = 1) is
 * always 0 and not written.
 */
static int digit_order(const struct pgen *g, int l, int *pos)
{
	int i, n = 0;

	for (i = g->h - 1; i >= (g->ibft && l ? l : 0); i--)
		pos[n++] = i;
	for (i = 1; g->ibft && i < l; i++)
		pos[n++] = i;
	return n;
}

static void unrank(const struct pgen *g, int l, long x, int *d)
{
	int pos[PGEN_MAX_H], n = digit_order(g, l, pos), i;

	memset(d, 0, PGEN_MAX_H * sizeof(*d));
	for (i = n - 1; i >= 0; i--) {
		d[pos[i]] = (int)(x % radix_of(g, l, pos[i]));
		x /= radix_of(g, l, pos[i]);
	}
}

static long rank(const struct pgen *g, int l, const int *d)
{
	int pos[PGEN_MAX_H], n = digit_order(g, l, pos), i;
	long x = 0;

	for (i = 0; i < n; i++)
		x = x * radix_of(g, l, pos[i]) + d[pos[i]];
	return x;
}

/* Nodes at level l: prod m_(l+1..h) * prod w_(1..l); -1 above max_nodes. */
static long level_size(const struct pgen *g, int l)
{
	long n = 1;
	int i;

	for (i = 1; i <= g->h; i++) {
		n *= i <= l ? g->w[i] : g->m[i];
		if (n > g->max_nodes)
			return -1;
	}
	return n;
}

static int check_shape(struct pgen *g, int radix, int spine_hosts,
		       struct ibu_err *e)
{
	long top_free;
	int l, need;

	if (g->w[1] != 1 || g->p[1] != 1)
		return ibu_err_set(e, IBU_EINVAL,
				   "PGFT: w1 and p1 must be 1 (one cable per host)");
	g->nslots = 0;
	for (l = 0; l <= g->h; l++) {
		g->size[l] = level_size(g, l);
		if (g->size[l] < 0 || g->nslots + g->size[l] > g->max_nodes)
			return ibu_err_set(e, IBU_EINVAL,
					   "PGFT: more than %ld nodes", g->max_nodes);
		g->first[l] = g->nslots;
		g->nslots += g->size[l];
	}
	for (l = 1; l <= g->h; l++) {
		need = down_ports(g, l) + up_ports(g, l);
		if (radix > 0 && need > radix)
			return ibu_err_set(e, IBU_EINVAL,
					   "PGFT: a level-%d switch needs %d ports, more than the radix %d",
					   l, need, radix);
		if (need > IBU_MAX_PORTS)
			return ibu_err_set(e, IBU_EINVAL,
					   "PGFT: a level-%d switch needs %d ports (at most %d)",
					   l, need, IBU_MAX_PORTS);
		g->nports[l] = radix > 0 ? radix : need;
	}
	/* hosts on spines: free ports of the top switches */
	top_free = (long)(g->nports[g->h] - down_ports(g, g->h)) *
		   g->size[g->h];
	if (spine_hosts > 0 && radix <= 0) {
		int per = (int)((spine_hosts + g->size[g->h] - 1) /
				g->size[g->h]);

		if (g->nports[g->h] + per > IBU_MAX_PORTS)
			return ibu_err_set(e, IBU_EINVAL,
					   "PGFT: %d hosts on %ld top switches need more than %d ports each",
					   spine_hosts, g->size[g->h], IBU_MAX_PORTS);
		g->nports[g->h] += per;
		top_free = (long)per * g->size[g->h];
	}
	if (spine_hosts > top_free)
		return ibu_err_set(e, IBU_EINVAL,
				   "PGFT: %d hosts on spines, but the top switches have %ld free ports",
				   spine_hosts, top_free);
	g->spine_first = g->nslots;
	g->nslots += spine_hosts > 0 ? spine_hosts : 0;
	return IBU_OK;
}

static int slot_level(const struct pgen *g, long slot)
{
	int l = 0;

	if (slot >= g->spine_first)
		return -1;
	while (l < g->h && slot >= g->first[l + 1])
		l++;
	return l;
}

static void slot_name(const struct pgen *g, long slot, const char *pre,
		      char *buf, size_t len)
{
	int d[PGEN_MAX_H], pos[PGEN_MAX_H], l = slot_level(g, slot), n, i;
	size_t o;

	if (l < 0) {
		snprintf(buf, len, "%sspine-hca-%ld", pre, slot - g->spine_first);
		return;
	}
	if (!l && g->rails) {
		/* leaf k = unit k / R, rail k % R; the server is the host's
		 * place on its leaf within its unit; as real HCAs report it */
		long x = slot - g->first[0], m1 = g->m[1], k = x / m1;

		snprintf(buf, len, "%snode%03ld mlx5_%ld", pre,
			 k / g->rails * m1 + x % m1 + 1, k % g->rails);
		return;
	}
	unrank(g, l, slot - g->first[l], d);
	n = digit_order(g, l, pos);
	o = (size_t)(l ? snprintf(buf, len, "%ssw%d-", pre,
				  g->ibft ? g->h - l : l) :
			 snprintf(buf, len, "%shca-", pre));
	for (i = 0; i < n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%d", i ? "." : "",
				      d[pos[i]]);
}

/* The k-th switch level in record order: the leaves first, or as [Zhou07]
 * numbers an IBFT's levels, the top first. */
static int level_at(const struct pgen *g, int k)
{
	return g->ibft ? g->h - k : k + 1;
}

/* Host 0 first (ibsim's SM port), the other compute hosts before the
 * switches (after them in an IBFT), the hosts on spines last. */
static void record_order(const struct pgen *g, int *order)
{
	long i, n = 0, hosts = g->size[0];
	int k, l;

	order[n++] = 0;
	for (i = 1; !g->ibft && i < hosts; i++)
		order[n++] = (int)i;
	for (k = 0; k < g->h; k++)
		for (l = level_at(g, k), i = 0; i < g->size[l]; i++)
			order[n++] = (int)(g->first[l] + i);
	for (i = 1; g->ibft && i < hosts; i++)
		order[n++] = (int)i;
	for (i = g->spine_first; i < g->nslots; i++)
		order[n++] = (int)i;
}

static int build_nodes(struct pgen *g, struct ibu_fabric *f,
		       const struct ibu_gen_opts *o, struct ibu_err *e)
{
	const char *pre = o->prefix ? o->prefix : "";
	uint64_t st = o->seed ^ 0x5eedull, ca = 0x100000, sw = 0x200000;
	int *order = malloc(g->nslots * sizeof(int)), rc = IBU_OK, idx;
	long i;

	if (!order)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	record_order(g, order);
	if (o->shuffle_records)	/* host 0 stays first: ibsim's SM port */
		ibu_gen_shuffle(order + 1, (int)g->nslots - 1, &st);
	for (i = 0; i < g->nslots && !rc; i++) {
		int l = slot_level(g, order[i]);
		char name[128];

		slot_name(g, order[i], pre, name, sizeof(name));
		if (l > 0) {
			rc = ibu_fabric_add_node(f, IBU_NODE_SWITCH, name, sw++,
						 g->nports[l], &idx, e);
		} else {
			rc = ibu_fabric_add_node(f, IBU_NODE_CA, name, ca, 1,
						 &idx, e);
			ca += 2;
		}
		g->node_of[order[i]] = idx;
	}
	free(order);
	return rc;
}

/* Each switch's physical port of each paper port, drawn in record order
 * of the levels. */
static int build_ports(struct pgen *g, const struct ibu_gen_opts *o,
		       struct ibu_err *e)
{
	uint64_t st = o->seed;
	long s;
	int k, l, i, n;

	for (k = 0; k < g->h; k++) {
		l = level_at(g, k);
		n = g->nports[l];
		for (s = g->first[l]; s < g->first[l] + g->size[l]; s++) {
			g->phys[s] = malloc((n + 1) * sizeof(int));
			if (!g->phys[s])
				return ibu_err_set(e, IBU_ENOMEM, "out of memory");
			for (i = 0; i <= n; i++)
				g->phys[s][i] = i;
			if (o->shuffle_ports)
				ibu_gen_shuffle(g->phys[s] + 1, n, &st);
		}
	}
	return IBU_OK;
}

/* physical port of paper port k of slot s (hosts: port 1) */
static int phys(const struct pgen *g, long s, int k)
{
	return g->phys[s] ? g->phys[s][k] : 1;
}

/* The p_l cables from level-(l-1) node x to each of its w_l parents. */
static int wire_node(struct pgen *g, struct ibu_fabric *f, int l, long x,
		     struct ibu_err *e)
{
	int d[PGEN_MAX_H], a, b, k, rc, up0 = down_ports(g, l - 1);
	long child = g->first[l - 1] + x, parent;

	unrank(g, l - 1, x, d);
	a = d[l - 1];
	for (b = 0; b < g->w[l]; b++) {
		d[l - 1] = b;
		parent = g->first[l] + rank(g, l, d);
		for (k = 0; k < g->p[l]; k++) {
			rc = ibu_fabric_link(f, g->node_of[parent],
					     phys(g, parent, a * g->p[l] + k + 1),
					     g->node_of[child],
					     phys(g, child, up0 + b * g->p[l] + k + 1),
					     e);
			if (rc)
				return rc;
		}
	}
	return IBU_OK;
}

static int wire(struct pgen *g, struct ibu_fabric *f, struct ibu_err *e)
{
	long x, ntop = g->size[g->h];
	int l, rc;

	for (l = 1; l <= g->h; l++)
		for (x = 0; x < g->size[l - 1]; x++) {
			rc = wire_node(g, f, l, x, e);
			if (rc)
				return rc;
		}
	for (x = g->spine_first; x < g->nslots; x++) {
		long j = x - g->spine_first, top = g->first[g->h] + j % ntop;
		int k = down_ports(g, g->h) + (int)(j / ntop) + 1;

		rc = ibu_fabric_link(f, g->node_of[top], phys(g, top, k),
				     g->node_of[x], 1, e);
		if (rc)
			return rc;
	}
	return IBU_OK;
}

/* Builds the fabric of g's shape (parameters, rails, ibft set). */
static int generate(struct pgen *g, struct ibu_fabric *f, int radix,
		    int spine_hosts, const struct ibu_gen_opts *o,
		    struct ibu_err *e)
{
	long s;
	int rc = check_shape(g, radix, spine_hosts, e);

	if (rc)
		return rc;
	rc = ibu_fabric_init(f, "generated");
	if (rc)
		return ibu_err_set(e, rc, "out of memory");
	g->node_of = calloc(g->nslots, sizeof(int));
	g->phys = calloc(g->nslots, sizeof(int *));
	if (!g->node_of || !g->phys)
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
	if (!rc)
		rc = build_nodes(g, f, o, e);
	if (!rc)
		rc = build_ports(g, o, e);
	if (!rc)
		rc = wire(g, f, e);
	if (!rc)
		rc = ibu_gen_damage(f, o, e);
	if (!rc)
		rc = ibu_fabric_index(f, e);
	if (g->phys)
		for (s = 0; s < g->nslots; s++)
			free(g->phys[s]);
	free(g->phys);
	free(g->node_of);
	if (rc)
		ibu_fabric_free(f);
	return rc;
}

int ibu_gen_pgft(struct ibu_fabric *f, const struct ibu_pgft_params *P,
		 int radix, int hosts_on_spines, const struct ibu_gen_opts *o,
		 struct ibu_err *e)
{
	return ibu_gen_pgft_rails(f, P, radix, hosts_on_spines, 0, o, e);
}

int ibu_gen_pgft_rails(struct ibu_fabric *f, const struct ibu_pgft_params *P,
		       int radix, int hosts_on_spines, int rails,
		       const struct ibu_gen_opts *o, struct ibu_err *e)
{
	struct ibu_gen_opts defaults = { 0 };
	struct pgen g;

	if (rails < 0 || (rails && (P->h < 2 || P->m[2] % rails)))
		return ibu_err_set(e, IBU_EINVAL,
				   "%d rails: the level-2 switches' %d leaves are no whole number of units",
				   rails, P->h < 2 ? 0 : P->m[2]);
	if (P->h < 1 || P->h > IBU_PGFT_MAX_H)
		return ibu_err_set(e, IBU_EINVAL, "PGFT: 1..%d levels",
				   IBU_PGFT_MAX_H);
	memset(&g, 0, sizeof(g));
	g.h = P->h;
	memcpy(g.m, P->m, sizeof(P->m));
	memcpy(g.w, P->w, sizeof(P->w));
	memcpy(g.p, P->p, sizeof(P->p));
	g.rails = rails;
	g.max_nodes = PGEN_MAX_NODES;
	return generate(&g, f, radix, hosts_on_spines, o ? o : &defaults, e);
}

int ibu_gen_fattree(struct ibu_fabric *f, int m, int n,
		    const struct ibu_gen_opts *o, struct ibu_err *e)
{
	struct ibu_gen_opts defaults = { 0 };
	struct pgen g;
	long pw = 1;
	int l;

	if (!o)
		o = &defaults;
	if (m < 4 || m % 2 || m > IBU_MAX_PORTS || n < 2 || n > PGEN_MAX_H)
		return ibu_err_set(e, IBU_EINVAL,
				   "IBFT(%d,%d): m must be even in 4..254, n in 2..%d",
				   m, n, PGEN_MAX_H);
	if (ibu_gen_check_prefix(o, e))
		return IBU_EINVAL;
	for (l = 0; l < n - 1; l++) {	/* (m/2)^(n-1) top switches */
		pw *= m / 2;
		if (pw > 1000000)
			return ibu_err_set(e, IBU_EINVAL,
					   "IBFT(%d,%d) is too large to generate",
					   m, n);
	}
	memset(&g, 0, sizeof(g));
	g.h = n;
	for (l = 1; l <= n; l++) {
		g.m[l] = l < n ? m / 2 : m;
		g.w[l] = l > 1 ? m / 2 : 1;
		g.p[l] = 1;
	}
	g.ibft = 1;
	g.max_nodes = INT_MAX;	/* as large as the check above lets it be */
	return generate(&g, f, o->extra_ports > 0 ? m + o->extra_ports : 0, 0,
			o, e);
}

/* `ibunion gen fattree|pgft|rail`: the arguments, read here so that the
 * tool only dispatches by shape name. */
static int make_fattree(struct ibu_fabric *f, char *const *pos,
			const struct ibu_gen_arg *args, int nargs,
			const struct ibu_gen_opts *o, char *head, size_t len,
			struct ibu_err *e)
{
	int m, n, rc;

	(void)args;
	(void)nargs;
	if (ibu_gen_arg_int("M", pos[0], 4, 254, &m, e) ||
	    ibu_gen_arg_int("N", pos[1], 2, 16, &n, e))
		return IBU_EINVAL;
	rc = ibu_gen_fattree(f, m, n, o, e);
	if (!rc)
		snprintf(head, len, "IBFT(%d,%d)", m, n);
	return rc;
}

static int make_pgft(struct ibu_fabric *f, char *const *pos,
		     const struct ibu_gen_arg *args, int nargs,
		     const struct ibu_gen_opts *o, char *head, size_t len,
		     struct ibu_err *e)
{
	const char *pm = ibu_gen_arg_find(args, nargs, "m");
	const char *pw = ibu_gen_arg_find(args, nargs, "w");
	const char *pp = ibu_gen_arg_find(args, nargs, "p");
	const char *r = ibu_gen_arg_find(args, nargs, "radix");
	const char *k = ibu_gen_arg_find(args, nargs, "hosts-on-spines");
	struct ibu_pgft_params P;
	int radix = 0, spine_hosts = 0, rc;

	(void)pos;
	if (!pm || !pw || !pp)
		return ibu_err_set(e, IBU_EINVAL, "pgft takes --m, --w and --p");
	if ((r && ibu_gen_arg_int("--radix", r, 2, IBU_MAX_PORTS, &radix, e)) ||
	    (k && ibu_gen_arg_int("--hosts-on-spines", k, 0, 100000,
				  &spine_hosts, e)))
		return IBU_EINVAL;
	rc = ibu_pgft_params_parse(pm, pw, pp, &P, e);
	if (!rc)
		rc = ibu_gen_pgft(f, &P, radix, spine_hosts, o, e);
	if (!rc)
		ibu_pgft_params_text(&P, head, len);
	return rc;
}

/*
 * gen rail --units U --servers S --rails R [--levels 2|3] [--units-per-pod G]:
 * non-blocking. 2 levels: PGFT(2; S,U*R; 1,S; 1,1): every rail leaf has
 * its S servers' HCAs and one cable to each of S spines. 3 levels: pods
 * of G units, PGFT(3; S,G*R,U/G; 1,S,G*R; 1,1,1).
 */
static int make_rail(struct ibu_fabric *f, char *const *pos,
		     const struct ibu_gen_arg *args, int nargs,
		     const struct ibu_gen_opts *o, char *head, size_t len,
		     struct ibu_err *e)
{
	const char *pu = ibu_gen_arg_find(args, nargs, "units");
	const char *ps = ibu_gen_arg_find(args, nargs, "servers");
	const char *pr = ibu_gen_arg_find(args, nargs, "rails");
	const char *pl = ibu_gen_arg_find(args, nargs, "levels");
	const char *pg = ibu_gen_arg_find(args, nargs, "units-per-pod");
	int u, sv, r, lv = 2, gp = 2, rc;
	char m[64], w[64], p[16];
	struct ibu_pgft_params P;

	(void)pos;
	if (!pu || !ps || !pr)
		return ibu_err_set(e, IBU_EINVAL, "rail takes --units, --servers and --rails");
	if (ibu_gen_arg_int("--units", pu, 1, 1024, &u, e) ||
	    ibu_gen_arg_int("--servers", ps, 1, 127, &sv, e) ||
	    ibu_gen_arg_int("--rails", pr, 1, 16, &r, e) ||
	    (pl && ibu_gen_arg_int("--levels", pl, 2, 3, &lv, e)) ||
	    (pg && ibu_gen_arg_int("--units-per-pod", pg, 1, 1024, &gp, e)))
		return IBU_EINVAL;
	if (lv == 3 && u % gp)
		return ibu_err_set(e, IBU_EINVAL,
				   "rail: %d units are no whole number of pods of %d",
				   u, gp);
	if (lv == 2) {
		snprintf(m, sizeof(m), "%d,%d", sv, u * r);
		snprintf(w, sizeof(w), "1,%d", sv);
		snprintf(p, sizeof(p), "1,1");
	} else {
		snprintf(m, sizeof(m), "%d,%d,%d", sv, gp * r, u / gp);
		snprintf(w, sizeof(w), "1,%d,%d", sv, gp * r);
		snprintf(p, sizeof(p), "1,1,1");
	}
	rc = ibu_pgft_params_parse(m, w, p, &P, e);
	if (!rc)
		rc = ibu_gen_pgft_rails(f, &P, 0, 0, r, o, e);
	if (!rc) {
		int n = snprintf(head, len, "rail-optimized: %d units x %d servers x %d rails, ",
				 u, sv, r);

		if (n > 0 && (size_t)n < len)
			ibu_pgft_params_text(&P, head + n, len - (size_t)n);
	}
	return rc;
}

static const char *const rail_keys[] = {
	"units", "servers", "rails", "levels", "units-per-pod", NULL
};

static const char *const pgft_keys[] = {
	"m", "w", "p", "radix", "hosts-on-spines", NULL
};
static const char *const no_keys[] = { NULL };

const struct ibu_engine_gen ibu_cyclic_gen[IBU_CYCLIC_NUM_GEN] = {
	{ .shape = "fattree", .synopsis = "M N [options]",
	  .help = "  fattree: the m-port n-tree IBFT(M,N), wired by the paper's link\n"
		  "  rule (M even >= 4, N >= 2)\n",
	  .keys = no_keys, .keys_help = "", .num_positional = 2,
	  .make = make_fattree },
	{ .shape = "pgft",
	  .synopsis = "--m M1,..,Mh --w W1,..,Wh --p P1,..,Ph [options]",
	  .help = "  pgft: the parallel-ports generalised fat tree PGFT(h; M; W; P):\n"
		  "  a level-l switch has Ml children, a level-(l-1) node Wl parents\n"
		  "  and Pl cables to each (level 1 = leaves; W1 = P1 = 1; a smaller\n"
		  "  Mh = fewer pods, fewer up- than down-cables = a blocking level)\n",
	  .keys = pgft_keys,
	  .keys_help = "  --m, --w, --p LIST    pgft: the parameters, one per level\n"
		       "  --radix R             pgft: every switch has R ports (the ports\n"
		       "                        the tree does not use stay empty)\n"
		       "  --hosts-on-spines K   pgft: K more hosts cabled to the top\n"
		       "                        switches (storage, login nodes)\n",
	  .num_positional = 0, .make = make_pgft },
	{ .shape = "rail",
	  .synopsis = "--units U --servers S --rails R [--levels 2|3] [options]",
	  .help = "  rail: a rail-optimized cluster (non-blocking PGFT): U scalable\n"
		  "  units of S servers with R HCAs each; HCA r of every server of a\n"
		  "  unit goes to the unit's rail-r leaf; HCAs are named\n"
		  "  '<server> mlx5_<r>' as real ones describe themselves\n",
	  .keys = rail_keys,
	  .keys_help = "  --units, --servers, --rails N   rail: the cluster's shape\n"
		       "  --levels 2|3          rail: spines above the rail leaves (2), or\n"
		       "                        pods of units under a core (3)\n"
		       "  --units-per-pod G     rail, 3 levels: units per pod (default 2)\n",
	  .num_positional = 0, .make = make_rail },
};
