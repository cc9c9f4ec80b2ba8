/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The engine "pair", for tests only: two switches joined by one or more
 * parallel links, each with its end ports. It exists to show that a new
 * engine is its own file plus one registry line
 * (tests/engine_registry_pair.c): recognition, routing, the rule `ibunion
 * check` verifies, multicast trees, notes and an option all reach the
 * plugin and the tool without an edit to plugin/ or tools/.
 *
 * Routing: an end port on the same switch through its own port; anything
 * on the other switch over link (LID mod k) of the k parallel links
 * (option pair_spread=lid), or always over the first one
 * (pair_spread=first). Links are ordered by their local port: a choice of
 * route, not of structure (which comes from the link graph alone).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"

enum { SPREAD_LID = 0, SPREAD_FIRST = 1 };

struct pair_topo {
	int sw[2];		/* fabric nodes of the two switches */
	int k;			/* parallel links between them */
	int *link[2];		/* [side][i] local port of link i */
	int endports[2];	/* end ports cabled to each switch */
};

static int parse_spread(const char *text, int *value)
{
	if (!strcmp(text, "lid"))
		*value = SPREAD_LID;
	else if (!strcmp(text, "first"))
		*value = SPREAD_FIRST;
	else
		return IBU_EINVAL;
	return IBU_OK;
}

static void format_spread(int value, char *buf, size_t len)
{
	snprintf(buf, len, "%s", value == SPREAD_FIRST ? "first" : "lid");
}

static const struct ibu_engine_option options[] = {
	{ .key = "pair_spread", .values = "lid|first", .def = SPREAD_LID,
	  .help = "which of the parallel links a LID on the other switch "
		  "takes: lid (LID mod the number of links) or first",
	  .parse = parse_spread, .format = format_spread },
};

static void topo_free(void *topo)
{
	struct pair_topo *t = topo;

	if (!t)
		return;
	free(t->link[0]);
	free(t->link[1]);
	free(t);
}

/* The two switches, or IBU_ETOPO in the engine's own words. */
static int find_switches(const struct ibu_fabric *f, struct pair_topo *t,
			 struct ibu_err *e)
{
	int i, n = 0;

	for (i = 0; i < f->num_nodes; i++)
		if (ibu_node_is_switch(&f->nodes[i])) {
			if (n < 2)
				t->sw[n] = i;
			n++;
		}
	if (n != 2)
		return ibu_err_set(e, IBU_ETOPO,
				   "not a switch pair: %d switches, not 2", n);
	return IBU_OK;
}

/* Every cabled port of side s: a link to the other switch or an end
 * port; anything else (a third switch) is not a pair. */
static int count_ports(const struct ibu_fabric *f, struct pair_topo *t,
		       int s, struct ibu_err *e)
{
	const struct ibu_node *n = &f->nodes[t->sw[s]];
	int p, links = 0;

	for (p = 1; p <= n->num_ports; p++) {
		int peer = n->ports[p].peer_node;

		if (peer < 0)
			continue;
		if (peer == t->sw[!s]) {
			if (t->link[s])
				t->link[s][links] = p;
			links++;
		} else if (!ibu_node_is_switch(&f->nodes[peer])) {
			t->endports[s]++;
		}
	}
	if (!t->link[s])
		t->k = links;
	return IBU_OK;
}

static int recognise(const struct ibu_fabric *f,
		     const struct ibu_engine_opts *o, void **topo,
		     enum ibu_engine_decline_kind *why, struct ibu_err *e)
{
	struct pair_topo *t = calloc(1, sizeof(*t));
	int rc, s;

	(void)o;
	*topo = NULL;
	*why = IBU_DECLINE_RESOURCES;
	if (!t)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	rc = find_switches(f, t, e);
	if (!rc)
		rc = count_ports(f, t, 0, e);
	if (!rc && t->k == 0)
		rc = ibu_err_set(e, IBU_ETOPO,
				 "not a switch pair: '%s' and '%s' share no link",
				 f->nodes[t->sw[0]].name, f->nodes[t->sw[1]].name);
	for (s = 0; !rc && s < 2; s++) {
		t->link[s] = calloc((size_t)t->k, sizeof(int));
		t->endports[s] = 0;
		if (!t->link[s])
			rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
		else
			rc = count_ports(f, t, s, e);
	}
	if (rc) {
		*why = rc == IBU_ENOMEM ? IBU_DECLINE_RESOURCES :
		       IBU_DECLINE_TOPOLOGY;
		topo_free(t);
		return rc;
	}
	*topo = t;
	return IBU_OK;
}

static int side_of(const struct pair_topo *t, int node)
{
	return node == t->sw[0] ? 0 : node == t->sw[1] ? 1 : -1;
}

/* The port switch side s forwards LID lid (owned by o) through. */
static int port_for(const struct ibu_fabric *f, const struct pair_topo *t,
		    int spread, int s, uint32_t lid,
		    const struct ibu_lid_owner *o)
{
	int node = t->sw[s], dest_side;

	if (o->node == node)
		return 0;
	if (ibu_node_is_switch(&f->nodes[o->node]))
		dest_side = side_of(t, o->node);
	else
		dest_side = side_of(t, f->nodes[o->node].ports[o->port].peer_node);
	if (dest_side == s)
		return f->nodes[o->node].ports[o->port].peer_port;
	return t->link[s][spread == SPREAD_FIRST ? 0 : (int)(lid % (uint32_t)t->k)];
}

static int route(const struct ibu_fabric *f, void *topo,
		 const struct ibu_lidmap *map, const struct ibu_engine_opts *o,
		 struct ibu_lft *lft, struct ibu_err *e)
{
	const struct pair_topo *t = topo;
	int spread = ibu_engine_opt(o, &options[0]), s;
	uint32_t lid;

	(void)e;
	for (s = 0; s < 2; s++)
		for (lid = 1; lid <= map->max_lid; lid++) {
			const struct ibu_lid_owner *ow = ibu_lidmap_get(map, lid);

			if (ow)
				lft->row[t->sw[s]][lid] =
					(uint8_t)port_for(f, t, spread, s, lid, ow);
		}
	return IBU_OK;
}

static void describe(const struct ibu_fabric *f, const void *topo, char *buf,
		     size_t len)
{
	const struct pair_topo *t = topo;

	(void)f;
	snprintf(buf, len, "switch pair: %d parallel links, %d + %d end ports",
		 t->k, t->endports[0], t->endports[1]);
}

static int num_notes(const void *topo)
{
	const struct pair_topo *t = topo;

	return t->k == 1;
}

static void note(const struct ibu_fabric *f, const void *topo, int i,
		 struct ibu_engine_note *out)
{
	(void)f;
	(void)topo;
	(void)i;
	out->severity = IBU_NOTE_SEV_INFO;
	out->kind = IBU_NOTE_INFO;
	snprintf(out->text, sizeof(out->text),
		 "one link between the switches: no spreading");
}

static void node_label(const void *topo, int node, char *buf, size_t len)
{
	int s = side_of(topo, node);

	if (s >= 0)
		snprintf(buf, len, "PAIR-%c", 'A' + s);
	else
		snprintf(buf, len, "-");
}

/* --- the rule ibunion check verifies --- */

struct rule_state {
	const struct pair_topo *t;
	int spread;
};

static int rule_run(void *arg, const struct ibu_fabric *f,
		    const struct ibu_lft *lft, const struct ibu_lidmap *map,
		    struct ibu_verify_report *rp, struct ibu_verify_result *r,
		    struct ibu_err *e)
{
	const struct rule_state *st = arg;
	uint32_t lid;
	int s;

	(void)e;
	for (s = 0; s < 2; s++)
		for (lid = 1; lid <= map->max_lid && lid <= lft->max_lid;
		     lid++) {
			const struct ibu_lid_owner *ow = ibu_lidmap_get(map, lid);
			int want, have;

			if (!ow)
				continue;
			want = port_for(f, st->t, st->spread, s, lid, ow);
			have = lft->row[st->t->sw[s]][lid];
			r->rule_entries++;
			if (want == have)
				continue;
			r->rule_mismatches++;
			ibu_verify_error(rp, IBU_VK_RULE,
					 "pair: PAIR-%c: LID 0x%04x: expected port %d, found port %d",
					 'A' + s, lid, want, have);
		}
	return IBU_OK;
}

static void check_free(void *state)
{
	free(state);
}

static int check_rule(const struct ibu_fabric *f, void *topo,
		      const struct ibu_engine_opts *o,
		      const struct ibu_engine_check_in *in,
		      struct ibu_verify_rule *rule, void **state, char *info,
		      size_t len, struct ibu_err *e)
{
	struct rule_state *st = calloc(1, sizeof(*st));

	(void)in;
	*state = st;
	if (!st)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	st->t = topo;
	st->spread = ibu_engine_opt(o, &options[0]);
	memset(rule, 0, sizeof(*rule));
	rule->name = "pair";
	rule->mismatch_name = "pair mismatches";
	rule->arg = st;
	rule->run = rule_run;
	describe(f, topo, info, len);
	return IBU_OK;
}

/* --- multicast: both switches when members sit on both --- */

/* Nothing to balance, but the contract wants a state (non-NULL). */
static int mcast_state_new(const struct ibu_fabric *f, const void *topo,
			   void **state, struct ibu_err *e)
{
	(void)f;
	(void)topo;
	*state = calloc(1, sizeof(int));
	return *state ? IBU_OK : ibu_err_set(e, IBU_ENOMEM, "out of memory");
}

static void mcast_state_free(void *state)
{
	free(state);
}

static void mcast_release(void *state, uint32_t key)
{
	(void)state;
	(void)key;
}

static void mcast_prune(void *state, int (*alive)(void *ctx, uint32_t key),
			void *ctx)
{
	(void)state;
	(void)alive;
	(void)ctx;
}

/* Which sides hold members ([s] bit 1) and receivers ([s] bit 2). */
static void member_sides(const struct ibu_fabric *f,
			 const struct pair_topo *t,
			 const struct ibu_mcast_member *m, int n, int use[2],
			 struct ibu_engine_tree *tree)
{
	int i;

	for (i = 0; i < n; i++) {
		int sw = ibu_node_is_switch(&f->nodes[m[i].node]) ? m[i].node :
			 f->nodes[m[i].node].ports[m[i].port].peer_node;
		int s = side_of(t, sw);

		if (s < 0)
			continue;
		use[s] |= 1;
		tree->num_members++;
		if (!m[i].send_only) {
			use[s] |= 2;
			tree->num_receivers++;
		}
	}
}

static int mcast_tree(const struct ibu_fabric *f, const void *topo,
		      void *state, const struct ibu_mcast_member *m, int n,
		      const struct ibu_engine_opts *o, uint32_t key,
		      struct ibu_engine_tree *tree, struct ibu_err *e)
{
	const struct pair_topo *t = topo;
	int use[2] = { 0, 0 }, i, s, rc, link;

	(void)state;
	link = t->link[0][ibu_engine_opt(o, &options[0]) == SPREAD_FIRST ? 0 :
			  (int)(key % (uint32_t)t->k)];
	rc = ibu_engine_tree_alloc(tree, 2, e);
	if (rc)
		return rc;
	member_sides(f, t, m, n, use, tree);
	tree->num_switches = 0;
	for (s = 0; s < 2; s++) {
		if (!use[s])
			continue;
		tree->nodes[tree->num_switches] = t->sw[s];
		for (i = 0; i < n; i++)
			if (!m[i].send_only &&
			    !ibu_node_is_switch(&f->nodes[m[i].node]) &&
			    f->nodes[m[i].node].ports[m[i].port].peer_node == t->sw[s])
				ibu_pm_set(&tree->ports[tree->num_switches],
					   f->nodes[m[i].node].ports[m[i].port].peer_port);
		if (use[0] && use[1])	/* both ends of one link */
			ibu_pm_set(&tree->ports[tree->num_switches],
				   s == 0 ? link :
				   f->nodes[t->sw[0]].ports[link].peer_port);
		tree->num_switches++;
	}
	tree->root = tree->num_switches ? tree->nodes[0] : -1;
	snprintf(tree->info, sizeof(tree->info), "root %s",
		 tree->root == t->sw[1] ? "PAIR-B" :
		 tree->root == t->sw[0] ? "PAIR-A" : "none");
	return IBU_OK;
}

/* --- ibunion path: the link a destination's LID takes, no offset --- */

static int endport_index(const void *topo, int node, int port)
{
	(void)port;
	/* record order: a test engine's stable order */
	return side_of(topo, node) >= 0 ? -1 : node;
}

static long advised_offset(const struct ibu_fabric *f, void *topo,
			   const struct ibu_engine_opts *o, int sn, int sp,
			   int dn, int dp)
{
	(void)f;
	(void)topo;
	(void)o;
	(void)sp;
	(void)dp;
	return sn == dn ? -1 : 0;
}

static int path_info(const struct ibu_fabric *f, void *topo,
		     const struct ibu_engine_opts *o,
		     struct ibu_engine_path_info *pi, struct ibu_err *e)
{
	const struct pair_topo *t = topo;

	(void)f;
	(void)o;
	(void)e;
	memset(pi, 0, sizeof(*pi));
	snprintf(pi->topology, sizeof(pi->topology), "pair(%d)", t->k);
	snprintf(pi->title, sizeof(pi->title), "pair(%d), base LIDs", t->k);
	pi->turn_head = "crosses at";
	return IBU_OK;
}

/* The switch of the source's side. */
static int turn_node(const struct ibu_fabric *f, void *topo,
		     const struct ibu_engine_opts *o, int sn, int sp, int dn,
		     int dp, long off)
{
	(void)topo;
	(void)o;
	(void)dn;
	(void)dp;
	(void)off;
	return f->nodes[sn].ports[sp].peer_node;
}

/* --- ibunion gen pair K H: K parallel links, H end ports a side --- */

static int make_pair(struct ibu_fabric *f, char *const *pos,
		     const struct ibu_gen_arg *args, int nargs,
		     const struct ibu_gen_opts *o, char *head, size_t len,
		     struct ibu_err *e)
{
	int k, h, sw[2], s, i, n, rc;
	char name[64];

	(void)args;
	(void)nargs;
	if (ibu_gen_arg_int("K", pos[0], 1, 16, &k, e) ||
	    ibu_gen_arg_int("H", pos[1], 0, 16, &h, e))
		return IBU_EINVAL;
	rc = ibu_fabric_init(f, "generated");
	if (rc)
		return ibu_err_set(e, rc, "out of memory");
	for (s = 0; s < 2 && !rc; s++) {
		snprintf(name, sizeof(name), "%sside-%d", o->prefix ? o->prefix : "", s);
		rc = ibu_fabric_add_node(f, IBU_NODE_SWITCH, name,
					 0x300000ull + (uint64_t)s, k + h,
					 &sw[s], e);
	}
	for (i = 0; i < k && !rc; i++)
		rc = ibu_fabric_link(f, sw[0], 1 + i, sw[1], 1 + i, e);
	for (s = 0; s < 2 && !rc; s++)
		for (i = 0; i < h && !rc; i++) {
			snprintf(name, sizeof(name), "host-%d-%d", s, i);
			rc = ibu_fabric_add_node(f, IBU_NODE_CA, name,
						 0x310000ull + (uint64_t)(s * 64 + i),
						 1, &n, e);
			if (!rc)
				rc = ibu_fabric_link(f, sw[s], 1 + k + i, n, 1, e);
		}
	if (!rc)
		rc = ibu_gen_damage(f, o, e);
	if (!rc)
		rc = ibu_fabric_index(f, e);
	if (rc) {
		ibu_fabric_free(f);
		return rc;
	}
	snprintf(head, len, "switch pair, %d links, %d hosts a side", k, h);
	return IBU_OK;
}

static const char *const pair_keys[] = { NULL };
static const struct ibu_engine_gen pair_gen = {
	.shape = "pair", .synopsis = "K H [options]",
	.help = "  pair: two switches joined by K parallel links, H hosts each\n",
	.keys = pair_keys, .keys_help = "", .num_positional = 2,
	.make = make_pair,
};

const struct ibu_engine_ops ibu_engine_pair = {
	.name = "pair",
	.topology = "switch pair",
	.options = options,
	.num_options = (int)(sizeof(options) / sizeof(options[0])),
	.recognise = recognise,
	.topo_free = topo_free,
	.route = route,
	.describe = describe,
	.num_notes = num_notes,
	.note = note,
	.report = {
		.node_label = node_label,
		.endport_index = endport_index,
	},
	.rule = {
		.check = check_rule,
		.state_free = check_free,
	},
	.advice = {
		.offset = advised_offset,
		.info = path_info,
		.turn_node = turn_node,
	},
	.mcast = {
		.state_new = mcast_state_new,
		.state_free = mcast_state_free,
		.release = mcast_release,
		.prune = mcast_prune,
		.tree = mcast_tree,
	},
	.gen = &pair_gen,
	.num_gen = 1,
};
