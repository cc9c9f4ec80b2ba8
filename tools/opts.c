/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "opts.h"

/* Whole text as an integer: optional '-' (if allowed), then decimal digits
 * or 0x and hex digits, nothing else. */
static int strict_number(const char *text, int allow_minus, int *neg,
			 unsigned long long *mag)
{
	const char *s = text;
	char *end;
	int base = 10;

	*neg = 0;
	if (!s || !*s)
		return -1;
	if (*s == '-' && allow_minus) {
		*neg = 1;
		s++;
	}
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		if (!isxdigit((unsigned char)*s))
			return -1;
	} else if (!isdigit((unsigned char)*s)) {
		return -1;
	}
	errno = 0;
	*mag = strtoull(s, &end, base);
	if (errno || *end)
		return -1;
	return 0;
}

int ibu_opt_int(const char *cmd, const char *what, const char *text, long lo,
		long hi, long *out)
{
	unsigned long long mag;
	int neg, ok;
	long v = 0;

	ok = !strict_number(text, lo < 0, &neg, &mag);
	if (ok) {
		if (neg)
			ok = mag <= (unsigned long long)LONG_MAX + 1;
		else
			ok = mag <= (unsigned long long)LONG_MAX;
	}
	if (ok) {
		v = neg ? (mag == (unsigned long long)LONG_MAX + 1 ? LONG_MIN :
			   -(long)mag) : (long)mag;
		ok = v >= lo && v <= hi;
	}
	if (!ok) {
		fprintf(stderr, "-E- ibunion %s: %s must be an integer in %ld..%ld, not '%s'\n",
			cmd, what, lo, hi, text ? text : "");
		return -1;
	}
	*out = v;
	return 0;
}

int ibu_opt_u64(const char *cmd, const char *what, const char *text,
		uint64_t *out)
{
	unsigned long long v;
	int neg;

	if (strict_number(text, 0, &neg, &v)) {
		fprintf(stderr, "-E- ibunion %s: %s must be an unsigned integer in 0..%llu (decimal or 0x hex), not '%s'\n",
			cmd, what, (unsigned long long)UINT64_MAX, text ? text : "");
		return -1;
	}
	*out = v;
	return 0;
}

void ibu_opt_report(const char *cmd, const struct ibu_err *e)
{
	fprintf(stderr, "-E- ibunion %s: %s\n", cmd,
		e->msg[0] ? e->msg : ibu_strerror(e->code));
}

void ibu_opt_scope_note(FILE *out, const char *cmd, const char *dump,
			const struct ibu_dump_scope *left)
{
	if (left->short_top)
		fprintf(out, "-W- ibunion %s: every table of %s stops one LID short of its range [0x0-0x%x]: dump_lfts leaves out the LID at a LinearFDBTop that is a multiple of 64, so LID 0x%x's owner and every route to it are missing here (read the switches with `ibunion check --live`, or dump them with ibroute)\n",
			cmd, dump, left->short_top, left->short_top);
	if (!left->switches && !left->ends)
		return;
	fprintf(out, "-W- ibunion %s: %d switch%s and %d end node%s not connected to any switch %s has a table for (cut off from OpenSM's subnet): left out\n",
		cmd, left->switches, left->switches == 1 ? "" : "es",
		left->ends, left->ends == 1 ? "" : "s", dump);
}

/*
 * Temporary names of the output files being written, removed by the
 * SIGINT/SIGTERM handler before the signal takes its default course: an
 * interrupted run leaves no ".name.tmp.PID.N" behind. Fixed slots, since
 * the handler may only touch async-signal-safe state.
 */
#define GUARD_SLOTS 8
static const struct ibu_atomicfile *guard_af[GUARD_SLOTS];
static char guard_path[GUARD_SLOTS][PATH_MAX];
static volatile sig_atomic_t guard_on[GUARD_SLOTS];
static int replace_link_target;

static void on_signal(int sig)
{
	int i;

	for (i = 0; i < GUARD_SLOTS; i++)
		if (guard_on[i])
			unlink(guard_path[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Only where the signal would kill us anyway (an ignored SIGINT, as under
 * nohup or `cmd &`, stays ignored). */
static void install(int sig)
{
	struct sigaction old, sa;

	if (sigaction(sig, NULL, &old) || old.sa_handler != SIG_DFL)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static void guard(const struct ibu_atomicfile *af)
{
	int i;

	if (!af->tmp || strlen(af->tmp) >= PATH_MAX)
		return;
	install(SIGINT);
	install(SIGTERM);
	for (i = 0; i < GUARD_SLOTS; i++)
		if (!guard_on[i]) {
			guard_af[i] = af;
			strcpy(guard_path[i], af->tmp);
			guard_on[i] = 1;
			return;
		}
}

static void unguard(const struct ibu_atomicfile *af)
{
	int i;

	for (i = 0; i < GUARD_SLOTS; i++)
		if (guard_on[i] && guard_af[i] == af)
			guard_on[i] = 0;
}

void ibu_out_replace_link_target(int yes)
{
	replace_link_target = yes;
}

/*
 * SIGINT and SIGTERM wait while the temporary file is created and
 * registered: one arriving between the two left ".name.tmp.PID.N" behind
 * (t0304 caught it once in a loaded CI run). Not around a FIFO or a
 * device, whose open may wait for a reader: Ctrl-C must still end that.
 */
int ibu_out_open(struct ibu_atomicfile *af, const char *path,
		 struct ibu_err *e)
{
	sigset_t block, old;
	struct stat st;
	int rc, hold = path && !(stat(path, &st) == 0 &&
				 (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)));

	sigemptyset(&old);
	if (hold) {
		install(SIGINT);
		install(SIGTERM);
		sigemptyset(&block);
		sigaddset(&block, SIGINT);
		sigaddset(&block, SIGTERM);
		hold = !sigprocmask(SIG_BLOCK, &block, &old);
	}
	rc = ibu_atomicfile_open_flags(af, path, replace_link_target ?
				       IBU_ATOMICFILE_FOLLOW : 0, e);
	if (!rc)
		guard(af);
	if (hold)
		sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

int ibu_out_commit(struct ibu_atomicfile *af, struct ibu_err *e)
{
	int rc = ibu_atomicfile_commit(af, e);

	unguard(af);	/* after: the name is renamed away or removed */
	return rc;
}

void ibu_out_abort(struct ibu_atomicfile *af)
{
	ibu_atomicfile_abort(af);
	unguard(af);
}

int ibu_opt_out_open(const char *cmd, const char *path,
		     struct ibu_atomicfile *af)
{
	struct ibu_err e = { 0 };

	if (ibu_out_open(af, path, &e)) {
		ibu_opt_report(cmd, &e);
		return -1;
	}
	return 0;
}

int ibu_opt_out_close(const char *cmd, struct ibu_atomicfile *af, int wrc,
		      const struct ibu_err *e)
{
	struct ibu_err ce = { 0 };

	if (!af->fp)
		return -1;
	if (wrc) {
		if (ferror(af->fp)) {
			/* the writer saw the stream fail: say why */
			/* the stream may have dropped its buffer: one more
			 * byte (the file is discarded anyway) to learn why */
			errno = 0;
			fputc('\n', af->fp);
			fflush(af->fp);
			fprintf(stderr, "-E- ibunion %s: %s: write failed: %s\n", cmd,
				af->path ? af->path : "standard output",
				strerror(errno ? errno : EIO));
		} else if (e) {
			ibu_opt_report(cmd, e);
		}
		ibu_out_abort(af);
		return -1;
	}
	if (ibu_out_commit(af, &ce)) {
		ibu_opt_report(cmd, &ce);
		return -1;
	}
	return 0;
}

int ibu_opt_take(const char *cmd, int argc, char **argv, const char *shopt,
		 const char *lopt, const char **val)
{
	size_t ll = strlen(lopt);
	int i, n = 1, done = 0;

	*val = NULL;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (done || !strcmp(a, "--")) {
			done = 1;
			argv[n++] = argv[i];
		} else if ((shopt && !strcmp(a, shopt)) || !strcmp(a, lopt)) {
			if (i + 1 >= argc) {
				fprintf(stderr, "-E- ibunion %s: %s needs a value\n", cmd, a);
				return -1;
			}
			*val = argv[++i];
		} else if (!strncmp(a, lopt, ll) && a[ll] == '=') {
			*val = a + ll + 1;
		} else if (shopt && !strncmp(a, shopt, strlen(shopt))) {
			*val = a + strlen(shopt);
		} else {
			argv[n++] = argv[i];
		}
	}
	argv[n] = NULL;
	return n;
}
