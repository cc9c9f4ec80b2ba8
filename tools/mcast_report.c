/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* -I-/-W-/-E- reports of the multicast flood check and link load. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "opts.h"
#include "engine.h"
#include "mcflood.h"
#include "mcmembers.h"
#include "mft_dump.h"
#include "mcast_report.h"

struct inputs {
	struct ibu_mft mft;
	struct ibu_mcmembers mm;
	int have_mft, have_mm;
};

static void inputs_free(struct inputs *in)
{
	if (in->have_mft)
		ibu_mft_free(&in->mft);
	if (in->have_mm)
		ibu_mcmembers_free(&in->mm);
}

static int read_inputs(const char *cmd, struct ibu_fabric *f, const char *mfts,
		       const struct ibu_mcast_report_opts *o, struct inputs *in)
{
	struct ibu_err e = { 0 };

	memset(in, 0, sizeof(*in));
	if (ibu_fabric_index(f, &e) ||
	    ibu_mft_read(mfts, f, &in->mft, &e)) {
		ibu_opt_report(cmd, &e);
		return -1;
	}
	in->have_mft = 1;
	if (o->members) {
		if (ibu_mcmembers_read(o->members, f, &in->mm, &e)) {
			ibu_opt_report(cmd, &e);
			inputs_free(in);
			return -1;
		}
		in->have_mm = 1;
	}
	return 0;
}

static void port_name(const struct ibu_fabric *f, int node, int port,
		      char *buf, size_t len)
{
	if (node < 0 || node >= f->num_nodes)
		snprintf(buf, len, "?");
	else if (ibu_node_is_switch(&f->nodes[node]))
		snprintf(buf, len, "switch '%s' port %d", f->nodes[node].name,
			 port);
	else
		snprintf(buf, len, "'%s'/%d", f->nodes[node].name, port);
}

struct printer {
	FILE *out;
	const struct ibu_fabric *f;
	const struct ibu_mcmembers *mm;
	const char *members;
	long max;
	long seen[IBU_MCF_KINDS];
};

static int is_member(const struct ibu_mcmembers *mm, uint16_t mlid, int node,
		     int port)
{
	const struct ibu_mcgroup *g = mm ? ibu_mcmembers_find(mm, mlid) : NULL;
	int i;

	for (i = 0; g && i < g->num; i++)
		if (g->m[i].node == node && g->m[i].port == port)
			return 1;
	return 0;
}

static void on_issue(void *arg, const struct ibu_mcf_issue *is)
{
	struct printer *pr = arg;
	char snd[300], at[300];

	if (pr->max >= 0 && pr->seen[is->kind]++ >= pr->max)
		return;
	port_name(pr->f, is->sender_node, is->sender_port, snd, sizeof(snd));
	port_name(pr->f, is->node, is->port, at, sizeof(at));
	switch (is->kind) {
	case IBU_MCF_MISSING:
		fprintf(pr->out, "-E- MLID 0x%04x: sent by %s, member %s got no copy\n",
			is->mlid, snd, at);
		break;
	case IBU_MCF_DUPLICATE:
		if (is->node == is->sender_node && is->port == is->sender_port)
			fprintf(pr->out, "-E- MLID 0x%04x: sender %s got %d copies of its own packet\n",
				is->mlid, snd, is->copies);
		else
			fprintf(pr->out, "-E- MLID 0x%04x: sent by %s, member %s got %d copies\n",
				is->mlid, snd, at, is->copies);
		break;
	case IBU_MCF_STRAY:
		fprintf(pr->out, "-E- MLID 0x%04x: sent by %s, %s %s got %d cop%s\n",
			is->mlid, snd,
			is_member(pr->mm, is->mlid, is->node, is->port) ?
				"send-only member" : "non-member",
			at, is->copies, is->copies == 1 ? "y" : "ies");
		break;
	case IBU_MCF_LOOP:
		fprintf(pr->out, "-E- MLID 0x%04x: sent by %s, switch '%s' received the packet twice (loop; again on port %d)\n",
			is->mlid, snd, pr->f->nodes[is->node].name, is->port);
		break;
	case IBU_MCF_DEAD_PORT:
		fprintf(pr->out, "-W- MLID 0x%04x: switch '%s' forwards to port %d, which is not cabled\n",
			is->mlid, pr->f->nodes[is->node].name, is->port);
		break;
	case IBU_MCF_UNLISTED:
		fprintf(pr->out, "-W- MLID 0x%04x is programmed but has no member in %s: members inferred from the tables\n",
			is->mlid, pr->members);
		break;
	case IBU_MCF_KINDS:
		break;
	}
}

static const char *const kind_names[IBU_MCF_KINDS] = {
	[IBU_MCF_MISSING] = "missing copies",
	[IBU_MCF_DUPLICATE] = "duplicate copies",
	[IBU_MCF_STRAY] = "copies to non-receivers",
	[IBU_MCF_LOOP] = "loops",
	[IBU_MCF_DEAD_PORT] = "uncabled MFT ports",
	[IBU_MCF_UNLISTED] = "MLIDs without listed members",
};

int ibu_mcast_report_check(FILE *out, struct ibu_fabric *f, const char *mfts,
			   const struct ibu_mcast_report_opts *o)
{
	const char *cmd = o->cmd ? o->cmd : "check";
	struct printer pr = { .out = out, .f = f, .max = o->max_errors,
			      .members = o->members };
	struct ibu_mcf_stats st;
	struct ibu_err e = { 0 };
	struct inputs in;
	int n, tables = 0, k;

	if (read_inputs(cmd, f, mfts, o, &in))
		return IBU_EXIT_ERROR;
	pr.mm = in.have_mm ? &in.mm : NULL;
	for (n = 0; n < f->num_nodes; n++) {
		if (!ibu_node_is_switch(&f->nodes[n]))
			continue;
		if (in.mft.dumped[n])
			tables++;
		else if (!o->quiet)
			fprintf(out, "-W- switch '%s' (0x%016" PRIx64 ") has no MFT in %s\n",
				f->nodes[n].name, f->nodes[n].guid, mfts);
	}
	if (!o->quiet)
		fprintf(out, "-I- %s: %d switch MFTs, %d MLIDs programmed; members %s%s\n",
			mfts, tables, in.mft.num_groups,
			o->members ? "from " : "inferred from the tables",
			o->members ? o->members : "");
	if (ibu_mcf_run(f, &in.mft, pr.mm, on_issue, &pr, &st, NULL, &e)) {
		ibu_opt_report(cmd, &e);
		inputs_free(&in);
		return IBU_EXIT_ERROR;
	}
	for (k = 0; k < IBU_MCF_KINDS; k++)
		if (pr.max >= 0 && pr.seen[k] > pr.max)
			fprintf(out, "-W- %ld more %s not shown\n",
				pr.seen[k] - pr.max, kind_names[k]);
	fprintf(out, "-I- mcast check: %ld MLIDs, %ld senders flooded, %ld copies delivered to members\n",
		st.groups, st.floods, st.deliveries);
	fprintf(out, "-I- mcast check: missing %ld, duplicate %ld, to non-receivers %ld, loops %ld, uncabled ports %ld\n",
		st.count[IBU_MCF_MISSING], st.count[IBU_MCF_DUPLICATE],
		st.count[IBU_MCF_STRAY], st.count[IBU_MCF_LOOP],
		st.count[IBU_MCF_DEAD_PORT]);
	inputs_free(&in);
	if (ibu_mcf_problems(&st)) {
		fprintf(out, "-E- mcast check FAILED: %ld problems\n",
			ibu_mcf_problems(&st));
		return IBU_EXIT_FAIL;
	}
	fprintf(out, "-I- mcast check passed: every member got exactly one copy from every sender\n");
	return IBU_EXIT_OK;
}

/* ------------------------------------------------------------ load */

/* The engine that labels and ranks the switches (NULL: names only). */
struct ranked {
	const struct ibu_engine_ops *ops;
	void *topo;
};

static int rank_of(const void *ctx, int node)
{
	const struct ranked *r = ctx;

	return r->ops->report.rank(r->topo, node);
}

static void sw_label(const struct ibu_fabric *f, const struct ranked *r,
		     int node, char *buf, size_t len)
{
	char lab[64] = "";

	if (r->ops && r->ops->report.node_label)
		r->ops->report.node_label(r->topo, node, lab, sizeof(lab));
	if (lab[0] && strcmp(lab, "-"))
		snprintf(buf, len, "%s '%s'", lab, f->nodes[node].name);
	else
		snprintf(buf, len, "'%s'", f->nodes[node].name);
}

/* One switch of a tree: its ports, and the engine's numbers of them. */
static void print_switch(FILE *out, const struct ibu_fabric *f,
			 const struct ranked *r,
			 const struct ibu_portmask *m, int n)
{
	char lab[400];
	int p;

	sw_label(f, r, n, lab, sizeof(lab));
	fprintf(out, "      %s: ports", lab);
	for (p = 0; p < 256; p++)
		if (ibu_pm_test(m, p))
			fprintf(out, " %d", p);
	if (r->ops && r->ops->report.port_number && r->ops->report.port_numbering &&
	    r->ops->report.port_number(r->topo, n, 1) >= 0) {
		fprintf(out, " (%s", r->ops->report.port_numbering);
		for (p = 1; p < 256; p++)
			if (ibu_pm_test(m, p))
				fprintf(out, " %d", r->ops->report.port_number(r->topo, n, p));
		fprintf(out, ")");
	}
	fputc('\n', out);
}

/* The switches of group gi, top rank first (in fabric order without
 * ranks). */
static void print_tree(FILE *out, const struct ibu_fabric *f,
		       const struct ranked *r, const struct ibu_mft *mft,
		       int gi, int ranks)
{
	int level, n;

	for (level = 0; level < (r->ops ? ranks : 1); level++)
		for (n = 0; n < f->num_nodes; n++) {
			const struct ibu_portmask *m = &mft->g[gi].mask[n];

			if (ibu_pm_empty(m) ||
			    (r->ops && rank_of(r, n) != level))
				continue;
			print_switch(out, f, r, m, n);
		}
}

/* Switches with rank 0, how many carry a tree top, the most on one. */
static void count_tops(const struct ibu_fabric *f, const struct ranked *r,
		       const int *top_count, int *total, int *used, int *most)
{
	int n;

	for (n = 0; r->ops && n < f->num_nodes; n++) {
		if (!ibu_node_is_switch(&f->nodes[n]) || rank_of(r, n) != 0)
			continue;
		(*total)++;
		*used += top_count && top_count[n] > 0;
		if (top_count && top_count[n] > *most)
			*most = top_count[n];
	}
}

/* The highest switch rank + 1: the levels print_tree walks. */
static int num_ranks(const struct ibu_fabric *f, const struct ranked *r)
{
	int n, top = 0;

	for (n = 0; r->ops && n < f->num_nodes; n++)
		if (ibu_node_is_switch(&f->nodes[n]) && rank_of(r, n) >= top)
			top = rank_of(r, n) + 1;
	return top;
}

int ibu_mcast_report_load(FILE *out, struct ibu_fabric *f, const char *mfts,
			  const struct ibu_mcast_report_opts *o)
{
	const char *cmd = o->cmd ? o->cmd : "mcast load";
	struct ibu_linkload ll;
	struct ibu_linkload_stats ls;
	struct ibu_mcf_stats st;
	struct ibu_err e = { 0 };
	struct ranked rk = { NULL, NULL };
	struct inputs in;
	int have_t, gi, n, p, tops_total = 0, tops_used = 0, max_top_trees = 0;
	int ranks;
	int *top_count = NULL;
	long links = 0, hist[17] = { 0 }, over = 0;
	char a[400], b[400];

	if (read_inputs(cmd, f, mfts, o, &in))
		return IBU_EXIT_ERROR;
	if (ibu_mcf_run(f, &in.mft, in.have_mm ? &in.mm : NULL, NULL, NULL,
			&st, &ll, &e)) {
		ibu_opt_report(cmd, &e);
		inputs_free(&in);
		return IBU_EXIT_ERROR;
	}
	rk.ops = ibu_engine_detect(f, NULL, &rk.topo, &e);
	if (rk.ops && !rk.ops->report.rank) {
		rk.ops->topo_free(rk.topo);
		rk.ops = NULL;
		rk.topo = NULL;
		ibu_err_set(&e, IBU_ETOPO, "its engine has no up*/down* ranks");
	}
	have_t = rk.ops != NULL;
	if (!have_t)
		fprintf(out, "-W- %s: no labels, no tree tops (%s)\n",
			f->source ? f->source : "fabric", e.msg);
	else
		top_count = calloc(f->num_nodes ? f->num_nodes : 1,
				   sizeof(*top_count));
	ranks = num_ranks(f, &rk);

	for (gi = 0; gi < in.mft.num_groups; gi++) {
		int tops[8], level = -1, cnt = 0, sws = 0, i;

		if (ibu_mft_group_empty(&in.mft, gi))
			continue;
		for (n = 0; n < f->num_nodes; n++)
			sws += !ibu_pm_empty(&in.mft.g[gi].mask[n]);
		if (have_t) {
			cnt = ibu_mcf_tops(&in.mft, gi, rank_of, &rk, tops, 8,
					   &level);
			for (i = 0; i < cnt && i < 8; i++)
				if (top_count)
					top_count[tops[i]]++;
		}
		if (o->quiet)
			continue;
		fprintf(out, "-I- MLID 0x%04x: %d switches", in.mft.g[gi].mlid, sws);
		if (have_t && cnt > 0) {
			fprintf(out, ", top%s at level %d:", cnt > 1 ? "s" : "", level);
			for (i = 0; i < cnt && i < 8; i++) {
				char lab[64] = "-";

				if (rk.ops->report.node_label)
					rk.ops->report.node_label(rk.topo, tops[i], lab,
							   sizeof(lab));
				fprintf(out, " %s", lab);
			}
			if (cnt > 8)
				fprintf(out, " ...");
		}
		fputc('\n', out);
		if (o->trees)
			print_tree(out, f, &rk, &in.mft, gi, ranks);
	}
	count_tops(f, &rk, top_count, &tops_total, &tops_used, &max_top_trees);
	for (n = 0; n < f->num_nodes; n++) {
		const struct ibu_node *nd = &f->nodes[n];

		if (!ibu_node_is_switch(nd))
			continue;
		for (p = 1; p <= nd->num_ports; p++) {
			int peer = nd->ports[p].peer_node;
			uint64_t v = ibu_linkload_get(&ll, n, p);

			if (peer < 0 || !ibu_node_is_switch(&f->nodes[peer]) ||
			    peer < n || (peer == n && nd->ports[p].peer_port < p))
				continue;
			links++;
			if (v <= 16)
				hist[v]++;
			else
				over++;
		}
	}
	fprintf(out, "-I- trees per switch-to-switch link:");
	for (p = 0; p <= 16; p++)
		if (hist[p])
			fprintf(out, " %d:%ld", p, hist[p]);
	if (over)
		fprintf(out, " >16:%ld", over);
	fputc('\n', out);
	ibu_linkload_stats(&ll, f, &ls);
	if (ls.max_sw_node >= 0) {
		const struct ibu_port *pt = &f->nodes[ls.max_sw_node].ports[ls.max_sw_port];

		sw_label(f, &rk, ls.max_sw_node, a, sizeof(a));
		sw_label(f, &rk, pt->peer_node, b, sizeof(b));
		fprintf(out, "-I- busiest switch-to-switch link: %s port %d <-> %s port %d, %" PRIu64 " trees\n",
			a, ls.max_sw_port, b, pt->peer_port, ls.max_sw);
	}
	if (have_t)
		fprintf(out, "-I- tree tops at level 0: %d of %d top switches used, at most %d trees on one\n",
			tops_used, tops_total, max_top_trees);
	fprintf(out, "-I- summary: mlids=%d max-trees-per-link=%" PRIu64 " links-used=%ld/%ld top-switches-used=%d/%d max-trees-per-link-any=%" PRIu64 "\n",
		in.mft.num_groups, ls.max_sw, ls.sw_cables_used, links,
		tops_used, tops_total, ls.max_any);
	if (ibu_mcf_problems(&st))
		fprintf(out, "-W- these tables fail the flood check (%ld problems): see ibunion check --mcast\n",
			ibu_mcf_problems(&st));
	free(top_count);
	if (rk.topo)
		rk.ops->topo_free(rk.topo);
	ibu_linkload_free(&ll);
	inputs_free(&in);
	return IBU_EXIT_OK;
}
