/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* --live / -C / -P on the command line (see live_args.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include "commands.h"
#include "live_args.h"
#include "opts.h"

/* ibu_live_args(): the command has nothing to do (exit 0 unrun) */
#define IBU_EXIT_NOTHING (-1)

/* What a subcommand gets instead of its files. */
enum live_input {
	IN_FABRIC = 1 << 0,	/* FABRIC */
	IN_LFTS = 1 << 1,	/* an LFT dump, right after FABRIC */
	IN_LFTS_ONLY = 1 << 2,	/* an LFT dump as the first DUMP (diff) */
	IN_MCAST = 1 << 3,	/* --mcast MFTDUMP --members FILE when groups exist */
	IN_SL2VL = 1 << 4,	/* --sl2vl FILE with --deadlock */
	IN_LIDS_FROM = 1 << 5,	/* --lids-from LFTDUMP (path) */
	IN_MFT_POS = 1 << 6,	/* MFTDUMP after FABRIC, --members (mcast check/load) */
	IN_MEMBERS_POS = 1 << 7,	/* MEMBERS after FABRIC (mcast tree) */
};

struct live_cmd {
	const char *cmd, *action;	/* action: mcast's second word */
	unsigned in;
};

static const struct live_cmd live_cmds[] = {
	{ "check", NULL, IN_FABRIC | IN_LFTS | IN_MCAST | IN_SL2VL },
	{ "diff", NULL, IN_LFTS_ONLY },
	{ "load", NULL, IN_FABRIC | IN_LFTS | IN_MCAST },
	{ "route", NULL, IN_FABRIC },
	{ "lids", NULL, IN_FABRIC },
	{ "path", NULL, IN_FABRIC | IN_LIDS_FROM },
	{ "trace", NULL, IN_FABRIC | IN_LFTS },
	{ "mcast", "check", IN_FABRIC | IN_MFT_POS },
	{ "mcast", "load", IN_FABRIC | IN_MFT_POS },
	{ "mcast", "tree", IN_FABRIC | IN_MEMBERS_POS },
};

struct live_req {
	struct ibu_live_opts o;
	const char *save;	/* --live-save DIR */
	int live;
	int skip;		/* leading words kept in place (cmd, action) */
	const struct live_cmd *lc;
	char **rest;		/* argv without the live options */
	int nrest;
};

static const struct live_cmd *find_cmd(const char *cmd, int argc, char **argv)
{
	size_t i;

	for (i = 0; i < sizeof(live_cmds) / sizeof(live_cmds[0]); i++) {
		const struct live_cmd *c = &live_cmds[i];

		if (strcmp(c->cmd, cmd))
			continue;
		if (!c->action || (argc > 1 && !strcmp(argv[1], c->action)))
			return c;
	}
	return NULL;
}

/* The value of option word argv[*i] when it is sh ("-C x", "-Cx", or NULL
 * for none) or lng ("--Ca x", "--Ca=x"), advancing *i past a separate
 * value; NULL with *found 0 when the word is another one. A missing value
 * is *found 1 and NULL. */
static const char *opt_value(int argc, char **argv, int *i, const char *sh,
			     const char *lng, int *found)
{
	const char *w = argv[*i], *v;
	size_t ll = strlen(lng);

	*found = 0;
	if (sh && !strncmp(w, sh, 2) && w[1] != '-')
		v = w + 2;
	else if (!strncmp(w, lng, ll) && (w[ll] == '\0' || w[ll] == '='))
		v = w[ll] == '=' ? w + ll + 1 : w + ll;
	else
		return NULL;
	*found = 1;
	if (*v || (v > w && v[-1] == '='))
		return v;
	return *i + 1 < argc ? argv[++*i] : NULL;
}

/* One live option at argv[*i]: 1 taken, 0 not one, -1 bad (printed). */
static int take_option(const char *cmd, int argc, char **argv, int *i,
		       struct live_req *r)
{
	const char *val;
	int found;
	long v;

	if (!strcmp(argv[*i], "--live")) {
		r->live = 1;
		return 1;
	}
	val = opt_value(argc, argv, i, "-C", "--Ca", &found);
	if (found) {
		r->o.ca = val;
	} else {
		val = opt_value(argc, argv, i, "-P", "--Port", &found);
		if (found && val) {
			if (ibu_opt_int(cmd, "-P", val, 0, 254, &v))
				return -1;
			r->o.ca_port = (int)v;
		} else if (!found) {
			val = opt_value(argc, argv, i, NULL, "--live-save", &found);
			if (found)
				r->save = val;
		}
	}
	if (!found) {
		val = opt_value(argc, argv, i, NULL, "--smkey", &found);
		if (found && val &&
		    ibu_opt_u64(cmd, "--smkey", val, &r->o.sm_key))
			return -1;
	}
	if (!found)
		return 0;
	if (!val || !*val) {
		fprintf(stderr, "-E- ibunion %s: %s needs a value\n", cmd, argv[*i]);
		return -1;
	}
	r->live = 1;
	return 1;
}

/* Takes the live options out of argv; IBU_EXIT_USAGE on a bad one. */
static int split_args(const char *cmd, int argc, char **argv,
		      struct live_req *r)
{
	int i, t;

	r->rest = calloc((size_t)argc + 1, sizeof(char *));
	if (!r->rest) {
		fprintf(stderr, "-E- ibunion %s: out of memory\n", cmd);
		return IBU_EXIT_ERROR;
	}
	for (i = 0; i < argc; i++) {
		if (i >= r->skip && !strcmp(argv[i], "--")) {
			while (i < argc)	/* operands only from here */
				r->rest[r->nrest++] = argv[i++];
			break;
		}
		t = i < r->skip ? 0 : take_option(cmd, argc, argv, &i, r);
		if (t < 0)
			return IBU_EXIT_USAGE;
		if (!t)
			r->rest[r->nrest++] = argv[i];
	}
	return IBU_EXIT_OK;
}

static int has_word(char **v, int n, const char *w)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], w) || (!strncmp(v[i], w, strlen(w)) &&
					 v[i][strlen(w)] == '='))
			return 1;
	return 0;
}

static double now(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return tv.tv_sec + tv.tv_usec / 1e6;
}

/* The snapshot directory: --live-save DIR (created if missing) or a
 * private temporary one. */
static int snapshot_dir(const char *cmd, const struct live_req *r,
			struct ibu_live_session *s)
{
	const char *tmp = getenv("TMPDIR");

	if (r->save) {
		if (mkdir(r->save, 0777) && errno != EEXIST) {
			fprintf(stderr, "-E- ibunion %s: --live-save: %s: %s\n", cmd,
				r->save, strerror(errno));
			return IBU_EXIT_ERROR;
		}
		snprintf(s->dir, sizeof(s->dir), "%s", r->save);
		s->keep = 1;
		return IBU_EXIT_OK;
	}
	snprintf(s->dir, sizeof(s->dir), "%s/ibunion-live.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(s->dir)) {
		fprintf(stderr, "-E- ibunion %s: cannot create a temporary directory in %s: %s\n",
			cmd, tmp && *tmp ? tmp : "/tmp", strerror(errno));
		s->dir[0] = '\0';
		return IBU_EXIT_ERROR;
	}
	return IBU_EXIT_OK;
}

/* Is any LFT entry set? (A fabric no SM has swept holds none: say so
 * rather than let the dump reader call the snapshot a failed dump.) */
static int lft_entries(const struct ibu_lft *l)
{
	uint32_t lid;
	int i;

	for (i = 0; i < l->num_nodes; i++)
		for (lid = 1; l->row[i] && lid <= l->max_lid; lid++)
			if (l->row[i][lid] != IBU_NO_PATH)
				return 1;
	return 0;
}

/* Reads the fabric and writes the snapshot; -I- line on stderr (stdout
 * belongs to the command: route prints tables there). */
static int read_and_save(const char *cmd, struct live_req *r,
			 struct ibu_live_session *s, int *has_groups,
			 int *has_vls)
{
	struct ibu_live lv;
	struct ibu_err e = { 0 };
	double t0 = now();
	int rc;

	rc = ibu_live_read(&r->o, &lv, &e);
	if (rc) {
		ibu_opt_report(cmd, &e);
		return IBU_EXIT_ERROR;
	}
	*has_groups = (lv.what & IBU_LIVE_MFT) &&
		      (lv.mft.num_groups > 0 || lv.members.num_groups > 0);
	*has_vls = (lv.what & IBU_LIVE_SL2VL) && lv.sl2vl.max_vl > 0;
	fprintf(stderr, "-I- live: %d nodes (%d switches, %d end ports), %ld SMPs for the tables",
		lv.f.num_nodes, ibu_fabric_count_switches(&lv.f),
		ibu_fabric_count_endports(&lv.f), lv.smps);
	if (lv.what & IBU_LIVE_MFT)
		fprintf(stderr, ", %d MLIDs, %ld MCMemberRecords (%ld SA queries)",
			lv.mft.num_groups, lv.sa_records, lv.sa_queries);
	if (lv.what & IBU_LIVE_SL2VL)
		fprintf(stderr, ", %ld SL2VL tables (VLs up to %d)",
			lv.sl2vl.tables, lv.sl2vl.max_vl);
	fprintf(stderr, ", read in %.2f s\n", now() - t0);
	if ((r->lc->in & (IN_LFTS | IN_LFTS_ONLY | IN_LIDS_FROM)) &&
	    !lft_entries(&lv.lft)) {
		fprintf(stderr, "-E- ibunion %s: live: no switch holds an LFT entry (no subnet manager has routed this fabric yet?)\n",
			cmd);
		ibu_live_free(&lv);
		return IBU_EXIT_ERROR;
	}
	rc = ibu_live_save(&lv, s->dir, &s->files, &e);
	ibu_live_free(&lv);
	if (rc) {
		ibu_opt_report(cmd, &e);
		return IBU_EXIT_ERROR;
	}
	if (s->keep)
		fprintf(stderr, "-I- live: snapshot saved in %s\n", s->dir);
	return IBU_EXIT_OK;
}

/* cmd [action] <injected options> <files> <the user's other words> */
static int build_argv(const char *cmd, const struct live_req *r,
		      struct ibu_live_session *s, int has_groups, int has_vls)
{
	unsigned in = r->lc->in;
	char **v = calloc((size_t)r->nrest + 16, sizeof(char *));
	int n = 0, i;

	if (!v) {
		fprintf(stderr, "-E- ibunion %s: out of memory\n", cmd);
		return IBU_EXIT_ERROR;
	}
	for (i = 0; i < r->skip; i++)
		v[n++] = r->rest[i];
	if ((in & IN_MCAST) && has_groups &&
	    !has_word(r->rest, r->nrest, "--mcast")) {
		v[n++] = "--mcast";
		v[n++] = s->files.mfts;
		if (!has_word(r->rest, r->nrest, "--members")) {
			v[n++] = "--members";
			v[n++] = s->files.members;
		}
	}
	if ((in & IN_MFT_POS) && !has_word(r->rest, r->nrest, "--members")) {
		v[n++] = "--members";
		v[n++] = s->files.members;
	}
	if ((in & IN_SL2VL) && has_vls &&
	    has_word(r->rest, r->nrest, "--deadlock") &&
	    !has_word(r->rest, r->nrest, "--sl2vl")) {
		v[n++] = "--sl2vl";
		v[n++] = s->files.sl2vl;
	}
	if ((in & IN_LIDS_FROM) && !has_word(r->rest, r->nrest, "--lids-from")) {
		v[n++] = "--lids-from";
		v[n++] = s->files.lfts;
	}
	if (in & IN_FABRIC)
		v[n++] = s->files.fabric;
	if (in & (IN_LFTS | IN_LFTS_ONLY))
		v[n++] = s->files.lfts;
	if (in & IN_MFT_POS)
		v[n++] = s->files.mfts;
	if (in & IN_MEMBERS_POS)
		v[n++] = s->files.members;
	for (i = r->skip; i < r->nrest; i++)
		v[n++] = r->rest[i];
	v[n] = NULL;
	s->argc = n;
	s->argv = v;
	return IBU_EXIT_OK;
}

int ibu_live_args(const char *cmd, int argc, char **argv,
		  struct ibu_live_session *s)
{
	struct live_req r;
	int rc, groups = 0, vls = 0;

	memset(s, 0, sizeof(*s));
	memset(&r, 0, sizeof(r));
	r.lc = find_cmd(cmd, argc, argv);
	if (!r.lc)
		return IBU_EXIT_OK;
	r.skip = r.lc->action ? 2 : 1;
	r.o.sm_key = 1;	/* OpenSM's default sa_key */
	rc = split_args(cmd, argc, argv, &r);
	if (rc || !r.live) {
		free(r.rest);
		return rc;
	}
	s->active = 1;
	if (r.lc->in & (IN_MCAST | IN_MFT_POS | IN_MEMBERS_POS))
		r.o.what |= IBU_LIVE_MFT;
	if ((r.lc->in & IN_SL2VL) && has_word(r.rest, r.nrest, "--deadlock"))
		r.o.what |= IBU_LIVE_SL2VL;
	rc = snapshot_dir(cmd, &r, s);
	if (!rc)
		rc = read_and_save(cmd, &r, s, &groups, &vls);
	if (!rc && !groups && (r.lc->in & (IN_MFT_POS | IN_MEMBERS_POS))) {
		/* nothing to check is no bad input */
		printf("-I- %s %s: no multicast group on the live fabric (no switch holds an MLID, the SA lists no member)\n",
		       cmd, r.lc->action);
		rc = IBU_EXIT_NOTHING;
	}
	if (!rc)
		rc = build_argv(cmd, &r, s, groups, vls);
	free(r.rest);	/* the words themselves belong to the caller's argv */
	return rc;
}

void ibu_live_session_end(struct ibu_live_session *s)
{
	const char *f[] = { s->files.fabric, s->files.lfts, s->files.mfts,
			    s->files.members, s->files.sl2vl };
	size_t i;

	free(s->argv);
	s->argv = NULL;
	if (!s->active || s->keep || !s->dir[0])
		return;
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (f[i][0])
			unlink(f[i]);
	rmdir(s->dir);
}
