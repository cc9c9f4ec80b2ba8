/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * ibunion mcast join|leave --mgid MGID [--send-only] ...   (SA client)
 * ibunion mcast tree FABRIC MEMBERS [--policy P] [-o MFTDUMP]
 * ibunion mcast check FABRIC MFTDUMP [--members FILE]
 * ibunion mcast load FABRIC MFTDUMP [--members FILE] [--trees]
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "opts.h"
#include "engine_pick.h"
#include "mcmembers.h"
#include "mft_dump.h"
#include "fabric_open.h"
#include "netfile.h"
#include "mcast_report.h"
#include "sa_client.h"
#include "engine.h"
#include "dump.h"

void ibu_cmd_mcast_usage(FILE *out)
{
	fprintf(out,
		"usage: ibunion mcast join|leave --mgid MGID [options]\n"
		"       ibunion mcast tree FABRIC MEMBERS [--policy P] [--lids-from DUMP]\n"
		"                          [-o MFTDUMP] [-q]\n"
		"       ibunion mcast check FABRIC MFTDUMP [--members FILE] [--max-errors N] [-q]\n"
		"       ibunion mcast load FABRIC MFTDUMP [--members FILE] [--trees] [-q]\n"
		"\n"
		"join/leave: send an SA MCMemberRecord Set/Delete from the local port\n"
		"  (on a simulated fabric: SIM_HOST=<node> LD_PRELOAD=libumad2sim.so) and\n"
		"  join prints the member line '0xMLID 0xPORTGUID full|send-only' (the\n"
		"  MEMBERS file format) with the MLID the SM assigned; leave prints\n"
		"  'left 0xPORTGUID MGID'.\n"
		"  --mgid MGID         ff12:601b:ffff::1, or a number n for ff12:601b:ffff::n;\n"
		"                      repeat it to join or leave several groups in turn\n"
		"                      through one open port (one line each; exit 3 when\n"
		"                      any failed, the others are still sent)\n"
		"  --send-only         join state SendOnlyNonMember (4): sends, never\n"
		"                      receives; the group must exist already\n"
		"  --send-only-full    join state SendOnlyFullMember (8)\n"
		"  --join-state N      any JoinState bits (default 1, FullMember)\n"
		"  --qkey Q            default 0x0b1b (IPoIB: OpenSM checks IPoIB-signature\n"
		"                      MGIDs against the broadcast group);  --pkey P  0xffff\n"
		"  --ca NAME, --ca-port N   local port (default: the first)\n"
		"  --timeout MS        SA timeout (default 1000)\n"
		"tree: compute the union trees of the groups of MEMBERS offline (MLID\n"
		"  order, the balanced load carried from group to group), print them and\n"
		"  write their MFTs in dump_mfts format (-o). Fat trees (cyclic) and 2-D\n"
		"  meshes (xy: roots on one common row, or the source's switch)\n"
		"  --policy balanced|source|lowest-guid|compact   apex policy (default compact)\n"
		"  --lids-from DUMP  LIDs of a dump_lfts dump (else FABRIC's, else the\n"
		"                engine's): unicast is routed first, as the plugin has it,\n"
		"                since a damaged fat tree's trees turn where it leaves room\n"
		"  -O KEY=VALUE  an engine option, as event_plugin_options (--policy P\n"
		"                is -O mcast_apex=P)\n"
		"check: flood every MLID of MFTDUMP (dump_mfts / ibroute -M) from every\n"
		"  member with the real replication rule; members from --members, else\n"
		"  every CA port the tables point at. Same as ibunion check --mcast.\n"
		"load: trees crossing each switch-to-switch link, tree tops; --trees\n"
		"  prints every tree.\n"
		"MEMBERS lines: 'MLID member [port=N] [full|send-only]', member = port GUID\n"
		"  or node name.\n"
		"exit status: 0 ok, 1 problems found (check), 2 usage, 3 cannot run\n");
}

/* ------------------------------------------------------------ join/leave */

/* One SA call through the open port, its line on stdout. */
static int join_one(struct ibu_sa_mcm_port *sp, int leave, int timeout,
		    struct ibu_sa_mcm *r)
{
	char err[256], gtext[64];

	ibu_sa_format_mgid(r->mgid, gtext, sizeof(gtext));
	if (ibu_sa_mcm_send(sp, leave, timeout, r, err, sizeof(err))) {
		fprintf(stderr, "-E- ibunion mcast: %s %s: %s\n",
			leave ? "leave" : "join", gtext, err);
		return -1;
	}
	if (leave)
		printf("left 0x%016" PRIx64 " %s lid %u\n", r->port_guid, gtext,
		       r->port_lid);
	else
		printf("0x%04x 0x%016" PRIx64 " %s # joined %s lid %u join-state %u\n",
		       r->mlid, r->port_guid,
		       (r->join_state & (IBU_JOIN_FULL | IBU_JOIN_NON)) ?
		       "full" : "send-only", gtext, r->port_lid,
		       r->join_state_out);
	return 0;
}

/*
 * Every --mgid in its order through one open port: a host joining many
 * groups costs one process and one port resolution, not one per group
 * (a join storm's client must not be slower than the SM it measures).
 * A failed group is reported and the others still tried.
 */
static int cmd_join(int argc, char **argv, int leave)
{
	static const struct option lo[] = {
		{ "mgid", required_argument, NULL, 'g' },
		{ "send-only", no_argument, NULL, 's' },
		{ "send-only-full", no_argument, NULL, 'S' },
		{ "join-state", required_argument, NULL, 'j' },
		{ "qkey", required_argument, NULL, 'k' },
		{ "pkey", required_argument, NULL, 'p' },
		{ "ca", required_argument, NULL, 'C' },
		{ "ca-port", required_argument, NULL, 'P' },
		{ "timeout", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	struct ibu_sa_mcm r = { .qkey = 0x0b1b, .pkey = 0xffff,
				.join_state = IBU_JOIN_FULL };
	struct ibu_sa_mcm_port sp;
	const char *ca = NULL, **mgids;
	long v, ca_port = 0, timeout = 1000;
	char err[256];
	int c, i, n = 0, failed = 0, ret = IBU_EXIT_USAGE;

	/* at most one --mgid per argument */
	mgids = calloc((size_t)argc + 1, sizeof(*mgids));
	if (!mgids) {
		fprintf(stderr, "-E- ibunion mcast: out of memory\n");
		return IBU_EXIT_ERROR;
	}
	optind = 1;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'g': mgids[n++] = optarg; break;
		case 's': r.join_state = IBU_JOIN_SEND_ONLY; break;
		case 'S': r.join_state = IBU_JOIN_SEND_ONLY_FULL; break;
		case 'j':
			if (ibu_opt_int("mcast", "--join-state", optarg, 1, 15, &v))
				goto out;
			r.join_state = (uint8_t)v;
			break;
		case 'k':
			if (ibu_opt_int("mcast", "--qkey", optarg, 0, 0xffffffffL, &v))
				goto out;
			r.qkey = (uint32_t)v;
			break;
		case 'p':
			if (ibu_opt_int("mcast", "--pkey", optarg, 0, 0xffff, &v))
				goto out;
			r.pkey = (uint16_t)v;
			break;
		case 'C': ca = optarg; break;
		case 'P':
			if (ibu_opt_int("mcast", "--ca-port", optarg, 0, 254, &ca_port))
				goto out;
			break;
		case 't':
			if (ibu_opt_int("mcast", "--timeout", optarg, 1, 600000, &timeout))
				goto out;
			break;
		default:
			ibu_cmd_mcast_usage(stderr);
			goto out;
		}
	}
	if (optind != argc || !n) {
		fprintf(stderr, "-E- ibunion mcast: %s needs --mgid and no other arguments\n",
			leave ? "leave" : "join");
		goto out;
	}
	/* all MGIDs checked before the first is sent */
	for (i = 0; i < n; i++) {
		uint8_t g[16];

		if (ibu_sa_parse_mgid(mgids[i], g) || g[0] != 0xff) {
			fprintf(stderr, "-E- ibunion mcast: --mgid '%s' is not a multicast GID\n",
				mgids[i]);
			goto out;
		}
	}
	if (ibu_sa_mcm_open(ca, (int)ca_port, (int)timeout, &sp, err,
			    sizeof(err))) {
		fprintf(stderr, "-E- ibunion mcast: %s: %s\n",
			leave ? "leave" : "join", err);
		ret = IBU_EXIT_ERROR;
		goto out;
	}
	for (i = 0; i < n; i++) {
		ibu_sa_parse_mgid(mgids[i], r.mgid);
		if (join_one(&sp, leave, (int)timeout, &r))
			failed++;
	}
	ibu_sa_mcm_close(&sp);
	ret = failed ? IBU_EXIT_ERROR : IBU_EXIT_OK;
out:
	free(mgids);
	return ret;
}

/* ------------------------------------------------------------ offline tree */

static int read_fabric(const char *path, struct ibu_fabric *f)
{
	struct ibu_err e = { 0 };

	if (ibu_fabric_open(path, f, NULL, &e)) {
		ibu_opt_report("mcast", &e);
		return -1;
	}
	if (ibu_fabric_index(f, &e)) {
		ibu_opt_report("mcast", &e);
		ibu_fabric_free(f);
		return -1;
	}
	return 0;
}

/* One tree: its header, then each switch with its ports (and the
 * engine's own numbers of them, when it has some). */
static void print_tree(const struct ibu_engine_ops *ops, const void *topo,
		       const struct ibu_fabric *f,
		       const struct ibu_engine_tree *tree, uint16_t mlid)
{
	char lab[64];
	int i, p;

	printf("-I- MLID 0x%04x: %d members (%d receive), %s, %d switches\n",
	       mlid, tree->num_members, tree->num_receivers, tree->info,
	       tree->num_switches);
	for (i = 0; i < tree->num_switches; i++) {
		const struct ibu_portmask *pm = &tree->ports[i];
		int n = tree->nodes[i];

		if (ops->report.node_label)
			ops->report.node_label(topo, n, lab, sizeof(lab));
		else
			snprintf(lab, sizeof(lab), "-");
		printf("      %s '%s': ports", lab, f->nodes[n].name);
		for (p = 0; p < 256; p++)
			if (ibu_pm_test(pm, p))
				printf(" %d", p);
		if (ops->report.port_number && ops->report.port_numbering) {
			printf(" (%s", ops->report.port_numbering);
			for (p = 1; p < 256; p++)
				if (ibu_pm_test(pm, p))
					printf(" %d", ops->report.port_number(topo, n, p));
			printf(")");
		}
		printf("\n");
	}
}

/* The tree of one group into the MFTs. */
static int tree_to_mft(const struct ibu_engine_tree *tree, uint16_t mlid,
		       struct ibu_mft *mft, struct ibu_err *e)
{
	int i, p;

	for (i = 0; i < tree->num_switches; i++)
		for (p = 0; p < 256; p++)
			if (ibu_pm_test(&tree->ports[i], p) &&
			    ibu_mft_set(mft, mlid, tree->nodes[i], p, e))
				return e->code;
	return IBU_OK;
}

/* A switch as a member is legal (its port 0 joins, as for the SMA) but
 * rare in a members file: more often a mistyped GUID, so say so. */
static void warn_switch_members(const struct ibu_fabric *f,
				const struct ibu_mcmembers *mm)
{
	int gi, i;

	for (gi = 0; gi < mm->num_groups; gi++)
		for (i = 0; i < mm->g[gi].num; i++) {
			const struct ibu_mcast_member *m = &mm->g[gi].m[i];

			if (ibu_node_is_switch(&f->nodes[m->node]))
				printf("-W- MLID 0x%04x: member '%s' (0x%016llx) is a switch: its port 0 joins the group\n",
				       mm->g[gi].mlid, f->nodes[m->node].name,
				       (unsigned long long)f->nodes[m->node].guid);
		}
}

/*
 * The unicast routing the plugin has when it builds the trees (a damaged
 * fat tree's trees may turn where unicast leaves them room): LIDs from
 * the dump, else the fabric's, else the engine's numbering, on topo
 * (lent to *res). 0 and *res on success; else the trees are built without
 * it (as before routing).
 */
static int route_first(struct ibu_fabric *f, const struct ibu_engine_ops *ops,
		       void *topo, const struct ibu_engine_opts *eo,
		       const char *dump, struct ibu_engine_result *res)
{
	struct ibu_err e = { 0 };
	struct ibu_lft scratch;
	int used, rc = IBU_OK, assigned = 0;

	if (dump) {
		rc = ibu_dump_read_lfts(dump, f, &scratch, &e);
		if (!rc)
			ibu_lft_free(&scratch);
	} else if (ibu_fabric_max_lid(f) <= 0 && ops->assign_lids) {
		rc = ops->assign_lids(f, topo, -1, 0, &used, &e);
		assigned = !rc;
	}
	if (!rc)	/* recognised once: topo stays ours */
		rc = ibu_engine_run_lent(ops, f, eo, topo, res, &e);
	if (assigned)	/* the tables written carry the fabric's own LIDs */
		ibu_fabric_clear_lids(f);
	if (rc)
		fprintf(stderr, "-W- mcast: no unicast routing to build the trees beside (%s): a member the faults cut off from every apex is refused\n",
			e.msg);
	return rc;
}

/* *topo afresh from ops (the trees then built as before routing). */
static int recognise_again(const struct ibu_fabric *f,
			   const struct ibu_engine_ops *ops,
			   const struct ibu_engine_opts *eo, void **topo,
			   struct ibu_err *e)
{
	enum ibu_engine_decline_kind why;

	ops->topo_free(*topo);
	*topo = NULL;
	return ops->recognise(f, eo, topo, &why, e);
}

/* The MFTs in dump_mfts format into path (temp name, renamed). */
static int write_mfts(const char *path, const struct ibu_fabric *f,
		      const struct ibu_mft *mft)
{
	struct ibu_err e = { 0 };
	struct ibu_atomicfile af;
	int wrc;

	if (ibu_opt_out_open("mcast", path, &af))
		return IBU_EXIT_ERROR;
	wrc = ibu_mft_write(af.fp, f, mft, &e);
	return ibu_opt_out_close("mcast", &af, wrc, &e) ? IBU_EXIT_ERROR :
							 IBU_EXIT_OK;
}

/*
 * The trees of every group through the multicast ops of the engine that
 * recognises the fabric, the load carried from group to group.
 */
static int tree_by_engine(struct ibu_fabric *f, const char *fabric,
			  const char *members,
			  const struct ibu_engine_opts *eo, const char *dump,
			  const char *outpath, int quiet)
{
	struct ibu_engine_result res;
	int routed = 0;
	const struct ibu_engine_ops *ops;
	struct ibu_mcmembers mm;
	struct ibu_mft mft = { 0 };
	struct ibu_err e = { 0 };
	void *topo = NULL, *state = NULL;
	int gi, ret = IBU_EXIT_ERROR;
	char desc[512];

	ibu_mcmembers_init(&mm);
	ops = ibu_engine_detect(f, eo, &topo, &e);
	if (!ops || !ops->mcast.tree) {
		if (ops)
			ibu_err_set(&e, IBU_EINVAL, "engine %s builds no multicast trees",
				    ops->name);
		ibu_err_prefix(&e, "%s", fabric);
		ibu_opt_report("mcast", &e);
		goto out;
	}
	/* the line as before routing: what the trees are built on */
	ops->describe(f, topo, desc, sizeof(desc));
	if (ops->route) {
		routed = !route_first(f, ops, topo, eo, dump, &res);
		/* a failed run may have left part of it in topo */
		if (!routed && recognise_again(f, ops, eo, &topo, &e)) {
			ibu_opt_report("mcast", &e);
			goto out;
		}
	}
	if (ibu_mcmembers_read(members, f, &mm, &e) ||
	    ibu_mft_init(&mft, f->num_nodes, &e) ||
	    (ops->mcast.state_new && ops->mcast.state_new(f, topo, &state, &e))) {
		ibu_opt_report("mcast", &e);
		goto out;
	}
	if (!quiet)
		printf("-I- %s: %s\n", ops->name, desc);
	warn_switch_members(f, &mm);
	for (gi = 0; gi < mm.num_groups; gi++) {
		const struct ibu_mcgroup *g = &mm.g[gi];
		struct ibu_engine_tree tree;

		if (ops->mcast.tree(f, topo, state, g->m, g->num, eo, g->mlid,
				    &tree, &e)) {
			ibu_err_prefix(&e, "MLID 0x%04x", g->mlid);
			ibu_opt_report("mcast", &e);
			goto out;
		}
		if (tree_to_mft(&tree, g->mlid, &mft, &e)) {
			ibu_opt_report("mcast", &e);
			ibu_engine_tree_free(&tree);
			goto out;
		}
		if (!quiet)
			print_tree(ops, topo, f, &tree, g->mlid);
		ibu_engine_tree_free(&tree);
	}
	ret = outpath ? write_mfts(outpath, f, &mft) : IBU_EXIT_OK;
out:
	if (state && ops->mcast.state_free)
		ops->mcast.state_free(state);
	if (routed)
		ibu_engine_result_free(&res);
	if (topo && ops)
		ops->topo_free(topo);
	ibu_mft_free(&mft);
	ibu_mcmembers_free(&mm);
	return ret;
}

static int cmd_tree(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "lids-from", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	struct ibu_engine_opts eo;
	const char *outpath = NULL, *dump = NULL;
	struct ibu_fabric f;
	int c, quiet = 0, ret;

	ibu_engine_opts_default(&eo);
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:qO:", lo, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (ibu_engine_opt_alias("mcast", &eo, "mcast_apex",
						 optarg))
				return IBU_EXIT_USAGE;
			break;
		case 'O':
			if (ibu_engine_opt_arg("mcast", &eo, optarg))
				return IBU_EXIT_USAGE;
			break;
		case 'o': outpath = optarg; break;
		case 'q': quiet = 1; break;
		case 'd': dump = optarg; break;
		default:
			ibu_cmd_mcast_usage(stderr);
			return IBU_EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		ibu_cmd_mcast_usage(stderr);
		return IBU_EXIT_USAGE;
	}
	if (read_fabric(argv[optind], &f))
		return IBU_EXIT_ERROR;
	ret = tree_by_engine(&f, argv[optind], argv[optind + 1], &eo, dump,
			     outpath, quiet);
	ibu_fabric_free(&f);
	return ret;
}

/* ------------------------------------------------------------ check/load */

static int cmd_report(int argc, char **argv, int load)
{
	static const struct option lo[] = {
		{ "members", required_argument, NULL, 'm' },
		{ "max-errors", required_argument, NULL, 'e' },
		{ "trees", no_argument, NULL, 't' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	struct ibu_mcast_report_opts o = { .max_errors = 20 };
	struct ibu_fabric f;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "q", lo, NULL)) != -1) {
		switch (c) {
		case 'm': o.members = optarg; break;
		case 'e':
			if (ibu_opt_int("mcast", "--max-errors", optarg, 0,
					1000000000, &o.max_errors))
				return IBU_EXIT_USAGE;
			break;
		case 't': o.trees = 1; break;
		case 'q': o.quiet = 1; break;
		default:
			ibu_cmd_mcast_usage(stderr);
			return IBU_EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		ibu_cmd_mcast_usage(stderr);
		return IBU_EXIT_USAGE;
	}
	if (read_fabric(argv[optind], &f))
		return IBU_EXIT_ERROR;
	o.cmd = load ? "mcast load" : "mcast check";
	ret = load ? ibu_mcast_report_load(stdout, &f, argv[optind + 1], &o) :
		     ibu_mcast_report_check(stdout, &f, argv[optind + 1], &o);
	ibu_fabric_free(&f);
	return ret;
}

int ibu_cmd_mcast(int argc, char **argv)
{
	if (argc < 2) {
		ibu_cmd_mcast_usage(stderr);
		return IBU_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "join"))
		return cmd_join(argc - 1, argv + 1, 0);
	if (!strcmp(argv[1], "leave"))
		return cmd_join(argc - 1, argv + 1, 1);
	if (!strcmp(argv[1], "tree"))
		return cmd_tree(argc - 1, argv + 1);
	if (!strcmp(argv[1], "check"))
		return cmd_report(argc - 1, argv + 1, 0);
	if (!strcmp(argv[1], "load"))
		return cmd_report(argc - 1, argv + 1, 1);
	fprintf(stderr, "-E- ibunion mcast: unknown action '%s'\n", argv[1]);
	ibu_cmd_mcast_usage(stderr);
	return IBU_EXIT_USAGE;
}
