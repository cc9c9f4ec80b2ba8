/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "opts.h"
#include "report_output.h"

int ibu_report_output_take(const char *cmd, int argc, char **argv,
			   const char **path)
{
	return ibu_opt_take(cmd, argc, argv, "-o", "--output", path);
}

/* A directory that cannot be opened is said before the command runs; the
 * file itself is only created once the report is complete. */
static int dir_usable(const char *cmd, const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path))
			  : strdup(".");
	int fd, err;

	if (!dir) {
		fprintf(stderr, "-E- ibunion %s: out of memory\n", cmd);
		return 0;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	err = errno;
	free(dir);
	if (fd < 0) {
		fprintf(stderr, "-E- ibunion %s: %s: cannot create: %s\n", cmd,
			path, strerror(err));
		return 0;
	}
	close(fd);
	return 1;
}

int ibu_report_output_begin(const char *cmd, const char *path,
			    struct ibu_report_output *r)
{
	memset(r, 0, sizeof(*r));
	r->saved_fd = -1;
	r->path = path;
	if (!path || !strcmp(path, "-"))
		return 0;
	if (!dir_usable(cmd, path))
		return -1;
	/* the report is spooled to an unnamed file (nothing to leave behind
	 * on a signal) and copied into place once the inputs were read */
	fflush(stdout);
	r->spool = tmpfile();
	r->saved_fd = r->spool ? dup(STDOUT_FILENO) : -1;
	if (r->saved_fd < 0 || dup2(fileno(r->spool), STDOUT_FILENO) < 0) {
		fprintf(stderr, "-E- ibunion %s: %s: cannot redirect the output: %s\n",
			cmd, path, strerror(errno));
		if (r->saved_fd >= 0)
			close(r->saved_fd);
		r->saved_fd = -1;
		if (r->spool)
			fclose(r->spool);
		r->spool = NULL;
		return -1;
	}
	return 0;
}

/* The spooled report into path, through lib/core/atomicfile. */
static int copy_out(const char *cmd, struct ibu_report_output *r)
{
	char buf[65536];
	size_t n;
	int bad = 0;

	if (ibu_opt_out_open(cmd, r->path, &r->af))
		return -1;
	rewind(r->spool);
	while (!bad && (n = fread(buf, 1, sizeof(buf), r->spool)) > 0)
		bad = fwrite(buf, 1, n, r->af.fp) != n;
	if (ferror(r->spool)) {
		fprintf(stderr, "-E- ibunion %s: %s: cannot read the spooled report: %s\n",
			cmd, r->path, strerror(errno));
		ibu_out_abort(&r->af);
		return -1;
	}
	return ibu_opt_out_close(cmd, &r->af, bad, NULL);
}

int ibu_report_output_end(const char *cmd, struct ibu_report_output *r,
			  int keep)
{
	int werr = 0, err = 0, rc;

	if (!r->spool)
		return 0;
	/* what the command printed went through stdout into the spool */
	if (fflush(stdout) || ferror(stdout)) {
		werr = errno ? errno : EIO;
		clearerr(stdout);
	}
	if (r->saved_fd >= 0) {
		if (dup2(r->saved_fd, STDOUT_FILENO) < 0)
			err = errno;
		close(r->saved_fd);
		r->saved_fd = -1;
	}
	if (keep && (werr || err)) {
		fprintf(stderr, "-E- ibunion %s: %s: write failed: %s\n", cmd,
			r->path, strerror(werr ? werr : err));
		keep = 0;
	}
	rc = keep ? copy_out(cmd, r) : (werr || err ? -1 : 0);
	fclose(r->spool);
	r->spool = NULL;
	return rc;
}
