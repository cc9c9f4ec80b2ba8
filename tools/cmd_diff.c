/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * ibunion diff [--fabric FABRIC] [--show N] [-q] DUMP_A DUMP_B
 * Compares two LFT dumps switch by switch. Without a fabric, switches are
 * matched by GUID and the dumps' own destination info names the LIDs; with
 * one, both dumps are matched to it (GUID, else name), so dumps of the same
 * fabric taken with different GUIDs compare too.
 */
#include <getopt.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "opts.h"
#include "fabric_open.h"
#include "netfile.h"
#include "dump.h"
#include "mft.h"
#include "json_out.h"
#include "input.h"

void ibu_cmd_diff_usage(FILE *out)
{
	fprintf(out,
		"usage: ibunion diff [options] DUMP_A DUMP_B\n"
		"  compares two LFT dumps (dump_lfts / ibroute / opensm-lfts.dump)\n"
		"  switch by switch and lists the LIDs whose out port differs; or\n"
		"  two MFT dumps (dump_mfts / ibroute -M) and the MLIDs whose port\n"
		"  set differs (told apart by their content)\n"
		"options:\n"
		"  --fabric FABRIC   match both dumps to FABRIC (ibsim net file or\n"
		"                    ibnetdiscover output) by GUID, else by name\n"
		"  --show N          list at most N runs of differing LIDs per switch\n"
		"                    (default 8; -v: all)\n"
		"  -q, --quiet       only the summary line\n"
		"  --json            only one JSON object: the counts, every switch's\n"
		"                    changed LID runs and every port's LID change\n"
		"                    (schema in ibunion(1))\n"
		"  -o, --output FILE  write the report to FILE instead of stdout\n"
		"exit status: 0 identical, 1 different, 2 usage, 3 bad input\n");
}

struct jbuf;

struct diff_args {
	const char *a, *b, *fabric;
	long show;
	int quiet;
	int json;
	struct jbuf *sw_json;	/* --json: the switches' changes */
	struct jbuf *lid_json;	/* --json: the ports whose LIDs changed */
};

struct totals {
	long switches;		/* compared */
	long switches_differ;
	long entries;		/* differing entries */
	long only_a, only_b;	/* switches with a table in one dump only */
	long owners;		/* LIDs owned differently */
};

static uint8_t port_at(const uint8_t *row, uint32_t max, uint32_t lid)
{
	return row && lid <= max ? row[lid] : IBU_NO_PATH;
}

static void port_str(uint8_t p, char *buf, size_t len)
{
	if (p == IBU_NO_PATH)
		snprintf(buf, len, "---");
	else
		snprintf(buf, len, "%03u", p);
}

/* "0x0005 (Hca1 #2)" from a standalone dump's ownership */
static void lid_name_dump(const struct ibu_dump *d, uint32_t lid, char *buf,
			  size_t len)
{
	const struct ibu_dump_port *p;

	if (lid > d->max_lid || d->owner[lid] < 0) {
		snprintf(buf, len, "0x%04x", lid);
		return;
	}
	p = &d->port[d->owner[lid]];
	if (p->lmc)
		snprintf(buf, len, "0x%04x (%s #%u)", lid,
			 p->name && p->name[0] ? p->name : "?",
			 lid - p->base + 1);
	else
		snprintf(buf, len, "0x%04x (%s)", lid,
			 p->name && p->name[0] ? p->name : "?");
}

/* The JSON lists (--json), grown as the switches are compared. */
struct jbuf {
	char *s;
	size_t len, cap;
	int failed;
	long items;
};

static int grow_buf(struct jbuf *b, size_t need)
{
	size_t cap = b->cap ? b->cap : 4096;
	char *g;

	while (cap < b->len + need)
		cap *= 2;
	g = realloc(b->s, cap);
	if (!g) {
		b->failed = 1;
		return -1;
	}
	b->s = g;
	b->cap = cap;
	return 0;
}

static void jb_printf(struct jbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void jb_printf(struct jbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!b || b->failed)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL,
			      b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->failed = 1;
			return;
		}
		if (b->s && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		if (grow_buf(b, (size_t)n + 1))
			return;
	}
}

/* A name of a JSON string value: quotes and backslashes escaped. */
static void jb_str(struct jbuf *b, const char *s)
{
	jb_printf(b, "\"");
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\')
			jb_printf(b, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			jb_printf(b, "\\u%04x", (unsigned char)*s);
		else
			jb_printf(b, "%c", *s);
	}
	jb_printf(b, "\"");
}

static void jb_port(struct jbuf *b, uint8_t p)
{
	if (p == IBU_NO_PATH)
		jb_printf(b, "null");
	else
		jb_printf(b, "%u", p);
}

/* The LIDs lo..hi went from port x to port y: one line, one JSON item. */
static void print_range(const struct diff_args *a, uint32_t lo, uint32_t hi,
			uint8_t x, uint8_t y, const struct ibu_dump *da,
			const struct ibu_dump *db, int first)
{
	char pa[8], pb[8], n1[300], n2[300];
	const struct ibu_dump *d = da->max_lid >= lo && da->owner[lo] >= 0 ?
				   da : db;

	if (a->json) {
		jb_printf(a->sw_json, "%s{\"lids\":[%u,%u],\"a\":", first ? "" : ",",
			  lo, hi);
		jb_port(a->sw_json, x);
		jb_printf(a->sw_json, ",\"b\":");
		jb_port(a->sw_json, y);
		jb_printf(a->sw_json, "}");
		return;
	}
	port_str(x, pa, sizeof(pa));
	port_str(y, pb, sizeof(pb));
	lid_name_dump(d, lo, n1, sizeof(n1));
	if (lo == hi) {
		printf("    %s: %s -> %s\n", n1, pa, pb);
		return;
	}
	lid_name_dump(d, hi, n2, sizeof(n2));
	printf("    %s .. %s (%u LIDs): %s -> %s\n", n1, n2, hi - lo + 1, pa, pb);
}

/* Compares two rows: a switch line, then one line per run of LIDs that
 * moved from the same port to the same port (at most --show of them),
 * unless quiet; with --json one item per switch, every run listed. */
static void diff_rows(const struct diff_args *a, struct totals *t,
		      const char *name, uint64_t guid, const uint8_t *ra,
		      uint32_t ma, const uint8_t *rb, uint32_t mb,
		      const struct ibu_dump *da, const struct ibu_dump *db)
{
	uint32_t max = ma > mb ? ma : mb, lid, lo = 0;
	long n = 0, runs = 0;
	uint8_t px = 0, py = 0;

	t->switches++;
	for (lid = 1; lid <= max; lid++)
		n += port_at(ra, ma, lid) != port_at(rb, mb, lid);
	if (!n)
		return;
	t->switches_differ++;
	t->entries += n;
	if (a->quiet && !a->json)
		return;
	if (a->json) {
		jb_printf(a->sw_json, "%s{\"switch\":", a->sw_json->items++ ? "," : "");
		jb_str(a->sw_json, name);
		jb_printf(a->sw_json, ",\"guid\":\"0x%016" PRIx64 "\",\"lids_differ\":%ld,\"changes\":[",
			  guid, n);
	} else {
		printf("switch 0x%016" PRIx64 " ('%s'): %ld LIDs differ\n", guid,
		       name, n);
	}
	for (lid = 1; lid <= max + 1; lid++) {
		uint8_t x = port_at(ra, ma, lid), y = port_at(rb, mb, lid);
		int differs = lid <= max && x != y;

		/* a run ends where the LIDs stop moving the same way */
		if (lo && (!differs || x != px || y != py)) {
			if (a->json || runs < a->show)
				print_range(a, lo, lid - 1, px, py, da, db, !runs);
			runs++;
			lo = 0;
		}
		if (differs && !lo) {
			lo = lid;
			px = x;
			py = y;
		}
	}
	if (a->json)
		jb_printf(a->sw_json, "]}");
	else if (runs > a->show)
		printf("    ... %ld more runs of LIDs (--show N, or -v, lists them)\n",
		       runs - a->show);
}

static void diff_owners(const struct diff_args *a, struct totals *t,
			const struct ibu_dump *da, const struct ibu_dump *db)
{
	uint32_t max = da->max_lid < db->max_lid ? da->max_lid : db->max_lid;
	uint32_t lid;
	long shown = 0;

	for (lid = 1; lid <= max; lid++) {
		int x = da->owner[lid], y = db->owner[lid];

		if (x < 0 || y < 0 || da->port[x].guid == db->port[y].guid)
			continue;
		t->owners++;
		if (!a->quiet && shown++ < a->show)
			printf("LID 0x%04x: port 0x%016" PRIx64 " ('%s') in %s, port 0x%016"
			       PRIx64 " ('%s') in %s\n", lid, da->port[x].guid,
			       da->port[x].name ? da->port[x].name : "", a->a,
			       db->port[y].guid,
			       db->port[y].name ? db->port[y].name : "", a->b);
	}
}

static void diff_standalone(const struct diff_args *a, struct totals *t,
			    const struct ibu_dump *da, const struct ibu_dump *db)
{
	int i, j;

	for (i = 0; i < da->num_switches; i++) {
		const struct ibu_dump_switch *x = &da->sw[i], *y;

		j = ibu_dump_find_switch(db, x->guid);
		if (j < 0) {
			t->only_a++;
			if (!a->quiet)
				printf("switch 0x%016" PRIx64 " ('%s'): only in %s\n",
				       x->guid, x->name, a->a);
			continue;
		}
		y = &db->sw[j];
		diff_rows(a, t, x->name, x->guid, x->port, x->max_lid, y->port,
			  y->max_lid, da, db);
	}
	for (j = 0; j < db->num_switches; j++)
		if (ibu_dump_find_switch(da, db->sw[j].guid) < 0) {
			t->only_b++;
			if (!a->quiet)
				printf("switch 0x%016" PRIx64 " ('%s'): only in %s\n",
				       db->sw[j].guid, db->sw[j].name, a->b);
		}
	diff_owners(a, t, da, db);
}

/* With a fabric: both dumps applied to their own copy of it. */
static int diff_fabric(const struct diff_args *a, struct totals *t,
		       const struct ibu_dump *da, const struct ibu_dump *db,
		       struct ibu_err *e)
{
	struct ibu_fabric fa, fb;
	struct ibu_lft la, lb;
	int *na = NULL, *nb = NULL, i, p, rc;
	char *in_a = NULL, *in_b = NULL;
	struct ibu_fabric two[2];

	memset(&la, 0, sizeof(la));
	memset(&lb, 0, sizeof(lb));

	/* one read of FABRIC, two models: each dump is applied to its own */
	rc = ibu_fabric_open_n(a->fabric, two, 2, NULL, e);
	if (rc)
		return rc;
	fa = two[0];
	fb = two[1];
	na = malloc((da->num_switches ? da->num_switches : 1) * sizeof(int));
	nb = malloc((db->num_switches ? db->num_switches : 1) * sizeof(int));
	in_a = calloc(fa.num_nodes, 1);
	in_b = calloc(fa.num_nodes, 1);
	if (!na || !nb || !in_a || !in_b) {
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
		goto out;
	}
	rc = ibu_dump_apply(da, &fa, &la, na, e);
	if (!rc)
		rc = ibu_dump_apply(db, &fb, &lb, nb, e);
	if (rc)
		goto out;
	for (i = 0; i < da->num_switches; i++)
		in_a[na[i]] = 1;
	for (i = 0; i < db->num_switches; i++)
		in_b[nb[i]] = 1;
	for (i = 0; i < fa.num_nodes; i++) {
		const struct ibu_node *n = &fa.nodes[i];

		if (!ibu_node_is_switch(n) || (!in_a[i] && !in_b[i]))
			continue;
		if (in_a[i] != in_b[i]) {
			if (in_a[i])
				t->only_a++;
			else
				t->only_b++;
			if (!a->quiet)
				printf("switch '%s': only in %s\n", n->name,
				       in_a[i] ? a->a : a->b);
			continue;
		}
		diff_rows(a, t, n->name, n->guid, la.row[i], la.max_lid,
			  lb.row[i], lb.max_lid, da, db);
	}
	/* LID assignments */
	for (i = 0; i < fa.num_nodes; i++) {
		const struct ibu_node *n = &fa.nodes[i];
		int first = ibu_node_is_switch(n) ? 0 : 1;
		int last = ibu_node_is_switch(n) ? 0 : n->num_ports;

		for (p = first; p <= last; p++) {
			const struct ibu_port *x = &n->ports[p];
			const struct ibu_port *y = &fb.nodes[i].ports[p];

			if (x->lid == y->lid && x->lmc == y->lmc)
				continue;
			t->owners++;
			if (a->json) {
				jb_printf(a->lid_json, "%s{\"node\":",
					  a->lid_json->items++ ? "," : "");
				jb_str(a->lid_json, n->name);
				jb_printf(a->lid_json, ",\"port\":%d,\"a\":{\"lid\":%u,\"lmc\":%d},\"b\":{\"lid\":%u,\"lmc\":%d}}",
					  p, x->lid, x->lmc, y->lid, y->lmc);
			}
			if (!a->quiet && t->owners <= a->show)
				printf("'%s' port %d: LID 0x%04x lmc %d in %s, 0x%04x lmc %d in %s\n",
				       n->name, p, x->lid, x->lmc, a->a, y->lid,
				       y->lmc, a->b);
		}
	}
out:
	free(na);
	free(nb);
	free(in_a);
	free(in_b);
	ibu_lft_free(&la);
	ibu_lft_free(&lb);
	ibu_fabric_free(&fa);
	ibu_fabric_free(&fb);
	return rc;
}

/* ---------------------------------------------------------------- MFTs */

static void mask_str(const struct ibu_portmask *m, char *buf, size_t len)
{
	size_t o = 0;
	int p, n = 0;

	buf[0] = '\0';
	for (p = 0; p < 256 && o + 5 < len; p++)
		if (m && ibu_pm_test(m, p))
			o += (size_t)snprintf(buf + o, len - o, "%s%d", n++ ? "," : "", p);
	if (!n)
		snprintf(buf, len, "-");
}

static int same_mask(const struct ibu_portmask *x, const struct ibu_portmask *y)
{
	static const struct ibu_portmask none;

	return !memcmp(x ? x : &none, y ? y : &none, sizeof(none));
}

/* Every MLID either dump holds at switch n; prints unless quiet. */
static void diff_mft_switch(const struct diff_args *a, struct totals *t,
			    const struct ibu_fabric *f, int n,
			    const struct ibu_mft *ma, const struct ibu_mft *mb)
{
	char x[400], y[400];
	long diff = 0, shown = 0;
	int i = 0, j = 0;

	t->switches++;
	while (i < ma->num_groups || j < mb->num_groups) {
		uint16_t mlid = j >= mb->num_groups ||
			(i < ma->num_groups && ma->g[i].mlid <= mb->g[j].mlid) ?
			ma->g[i].mlid : mb->g[j].mlid;
		const struct ibu_portmask *pa = ibu_mft_get(ma, mlid, n);
		const struct ibu_portmask *pb = ibu_mft_get(mb, mlid, n);

		i += i < ma->num_groups && ma->g[i].mlid == mlid;
		j += j < mb->num_groups && mb->g[j].mlid == mlid;
		if (same_mask(pa, pb))
			continue;
		if (!diff++ && !a->quiet)
			printf("switch 0x%016" PRIx64 " ('%s'): MLIDs differ:",
			       f->nodes[n].guid, f->nodes[n].name);
		if (a->quiet || shown++ >= a->show)
			continue;
		mask_str(pa, x, sizeof(x));
		mask_str(pb, y, sizeof(y));
		printf(" 0x%04x {%s}->{%s}", mlid, x, y);
	}
	if (!diff)
		return;
	t->switches_differ++;
	t->entries += diff;
	if (!a->quiet)
		printf("%s (%ld)\n", shown < diff ? " ..." : "", diff);
}

/* An MFT dump, read once: its bytes, for the two passes over it. */
struct mft_text {
	const char *name;
	char *buf;
	size_t len;
};

/* One pass over a dump held in memory: its switches, or its tables. */
static int mft_pass(const struct mft_text *d, struct ibu_fabric *f,
		    struct ibu_mft *t, struct ibu_err *e)
{
	FILE *in = ibu_input_mem(d->buf, d->len, e);
	int rc;

	if (!in)
		return e->code;
	rc = t ? ibu_mft_read_stream(in, d->name, f, t, e) :
	     ibu_mft_add_switches_stream(in, d->name, f, e);
	fclose(in);
	return rc;
}

/* Both MFT dumps on FABRIC, or on the switches their headers name. */
static int diff_mfts(const struct diff_args *a, struct totals *t,
		     const struct mft_text *da, const struct mft_text *db,
		     struct ibu_err *e)
{
	struct ibu_fabric f;
	struct ibu_mft ma, mb;
	int rc, n;

	if (a->fabric)
		rc = ibu_fabric_open(a->fabric, &f, NULL, e);
	else
		rc = ibu_fabric_init(&f, "the switches of both dumps");
	if (rc)
		return rc;
	if (!a->fabric) {
		rc = mft_pass(da, &f, NULL, e);
		if (!rc)
			rc = mft_pass(db, &f, NULL, e);
	}
	if (!rc)
		rc = ibu_fabric_index(&f, e);
	if (rc || (rc = mft_pass(da, &f, &ma, e))) {
		ibu_fabric_free(&f);
		return rc;
	}
	rc = mft_pass(db, &f, &mb, e);
	if (rc) {
		ibu_mft_free(&ma);
		ibu_fabric_free(&f);
		return rc;
	}
	for (n = 0; n < f.num_nodes; n++) {
		if (!ma.dumped[n] && !mb.dumped[n])
			continue;
		if (ma.dumped[n] != mb.dumped[n]) {
			*(ma.dumped[n] ? &t->only_a : &t->only_b) += 1;
			if (!a->quiet)
				printf("switch 0x%016" PRIx64 " ('%s'): only in %s\n",
				       f.nodes[n].guid, f.nodes[n].name,
				       ma.dumped[n] ? a->a : a->b);
			continue;
		}
		diff_mft_switch(a, t, &f, n, &ma, &mb);
	}
	ibu_mft_free(&ma);
	ibu_mft_free(&mb);
	ibu_fabric_free(&f);
	return IBU_OK;
}

/* --json: the verdict as one object (schema: ibunion(1), JSON OUTPUT). */
static void json_verdict(const struct diff_args *a, const struct totals *t,
			 int mfts, int identical)
{
	printf("{\"command\":\"diff\",\"kind\":\"%s\",\"a\":", mfts ? "mft" : "lft");
	ibu_json_str(stdout, a->a);
	printf(",\"b\":");
	ibu_json_str(stdout, a->b);
	printf(",\"fabric\":");
	ibu_json_str(stdout, a->fabric);
	printf(",\"identical\":%s,\"switches\":%ld,\"switches_differ\":%ld,\"entries_differ\":%ld,\"only_a\":%ld,\"only_b\":%ld",
	       identical ? "true" : "false", t->switches, t->switches_differ,
	       t->entries, t->only_a, t->only_b);
	if (!mfts) {
		printf(",\"%s\":%ld", a->fabric ? "ports_other_lids" : "lids_other_owners",
		       t->owners);
		/* per switch, the runs of LIDs that moved; per port, its LIDs */
		printf(",\"switch_changes\":[%s]", a->sw_json->s ? a->sw_json->s : "");
		if (a->fabric)
			printf(",\"lid_changes\":[%s]",
			       a->lid_json->s ? a->lid_json->s : "");
		printf(",\"lists_complete\":%s",
		       a->sw_json->failed || a->lid_json->failed ? "false" : "true");
	}
	printf("}\n");
}

/* Prints the verdict; the exit status. */
static int diff_verdict(const struct diff_args *a, const struct totals *t,
			int mfts)
{
	int identical = !t->switches_differ && !t->only_a && !t->only_b &&
			!t->owners;

	if (a->json) {
		json_verdict(a, t, mfts, identical);
		return identical ? IBU_EXIT_OK : IBU_EXIT_FAIL;
	}
	if (!t->switches_differ && !t->only_a && !t->only_b && !t->owners) {
		printf("-I- diff: identical: %ld switches, same %s\n",
		       t->switches, mfts ? "MFTs" : "LFTs and LIDs");
		return IBU_EXIT_OK;
	}
	if (mfts)
		printf("-I- diff: %ld of %ld switches differ in %ld MLIDs; %ld switches only in %s, %ld only in %s\n",
		       t->switches_differ, t->switches, t->entries, t->only_a,
		       a->a, t->only_b, a->b);
	else
		printf("-I- diff: %ld of %ld switches differ in %ld entries; %ld switches only in %s, %ld only in %s; %ld %s\n",
		       t->switches_differ, t->switches, t->entries, t->only_a,
		       a->a, t->only_b, a->b, t->owners,
		       a->fabric ? "ports with other LIDs" : "LIDs with other owners");
	return IBU_EXIT_FAIL;
}

/* Both MFT dumps, each read once into memory; A's stream is open. */
static int run_mfts(const struct diff_args *a, struct totals *t, FILE *in_a,
		    struct ibu_err *e)
{
	struct mft_text da = { ibu_input_name(a->a), NULL, 0 };
	struct mft_text db = { ibu_input_name(a->b), NULL, 0 };
	int rc = ibu_input_slurp(in_a, da.name, IBU_INPUT_MAX, &da.buf, &da.len, e);

	if (!rc)
		rc = ibu_input_read_all(a->b, IBU_INPUT_MAX, &db.buf, &db.len, e);
	if (!rc)
		rc = diff_mfts(a, t, &da, &db, e);
	free(da.buf);
	free(db.buf);
	return rc;
}

/* Both LFT dumps, streamed (they run to gigabytes); A's stream is open. */
static int run_lfts(const struct diff_args *a, struct totals *t, FILE *in_a,
		    struct ibu_err *e)
{
	struct ibu_dump da, db;
	int rc = ibu_dump_parse_stream(in_a, ibu_input_name(a->a), &da, e);

	if (rc)
		return rc;
	rc = ibu_dump_parse(a->b, &db, e);
	if (rc) {
		ibu_dump_free(&da);
		return rc;
	}
	if (a->fabric)
		rc = diff_fabric(a, t, &da, &db, e);
	else
		diff_standalone(a, t, &da, &db);
	ibu_dump_free(&da);
	ibu_dump_free(&db);
	return rc;
}

/* Every input read once: A's head tells LFTs from MFTs and is replayed.
 * Returns 1 (MFTs) or 0 (LFTs) after a comparison, < 0 on error. */
static int diff_inputs(const struct diff_args *a, struct totals *t,
		       struct ibu_err *e)
{
	const char *head;
	size_t len;
	FILE *in = ibu_input_open_peek(a->a, IBU_MFT_SNIFF_BYTES, &head, &len, e);
	int mfts, rc;

	if (!in)
		return e->code;
	mfts = ibu_mft_sniff_text(head, len);
	rc = mfts ? run_mfts(a, t, in, e) : run_lfts(a, t, in, e);
	fclose(in);
	return rc ? rc : mfts;
}

static int diff_run(int argc, char **argv, struct diff_args *ap);

int ibu_cmd_diff(int argc, char **argv)
{
	struct jbuf sw_json = { 0 }, lid_json = { 0 };
	struct diff_args a = { .show = 8, .sw_json = &sw_json,
			       .lid_json = &lid_json };
	int rc = diff_run(argc, argv, &a);

	free(sw_json.s);
	free(lid_json.s);
	return rc;
}

static int diff_run(int argc, char **argv, struct diff_args *ap)
{
	static const struct option lo[] = {
		{ "fabric", required_argument, NULL, 'f' },
		{ "show", required_argument, NULL, 's' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "json", no_argument, NULL, 'J' },
		{ NULL, 0, NULL, 0 },
	};
	struct diff_args a = *ap;
	struct ibu_err e = { 0 };
	struct totals t;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "q", lo, NULL)) != -1) {
		switch (c) {
		case 'f': a.fabric = optarg; break;
		case 'q': a.quiet = 1; break;
		case 'J': a.json = a.quiet = 1; break;
		case 's':
			if (ibu_opt_int("diff", "--show", optarg, 0, 1000000,
					&a.show))
				return IBU_EXIT_USAGE;
			break;
		default:
			ibu_cmd_diff_usage(stderr);
			return IBU_EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		ibu_cmd_diff_usage(stderr);
		return IBU_EXIT_USAGE;
	}
	a.a = argv[optind];
	a.b = argv[optind + 1];
	memset(&t, 0, sizeof(t));
	rc = diff_inputs(&a, &t, &e);
	if (rc < 0) {
		fflush(stdout);
		ibu_opt_report("diff", &e);
		return IBU_EXIT_ERROR;
	}
	return diff_verdict(&a, &t, rc);
}
