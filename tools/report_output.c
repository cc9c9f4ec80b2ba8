/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "opts.h"
#include "report_output.h"

int ibu_report_output_take(const char *cmd, int argc, char **argv,
			   const char **path)
{
	return ibu_opt_take(cmd, argc, argv, "-o", "--output", path);
}

int ibu_report_output_begin(const char *cmd, const char *path,
			    struct ibu_report_output *r)
{
	r->saved_fd = -1;
	if (ibu_opt_out_open(cmd, path, &r->af))
		return -1;
	if (r->af.is_stdout)
		return 0;
	fflush(stdout);
	fflush(r->af.fp);
	r->saved_fd = dup(STDOUT_FILENO);
	if (r->saved_fd < 0 || dup2(fileno(r->af.fp), STDOUT_FILENO) < 0) {
		fprintf(stderr, "-E- ibunion %s: %s: cannot redirect the output: %s\n",
			cmd, path, strerror(errno));
		if (r->saved_fd >= 0)
			close(r->saved_fd);
		r->saved_fd = -1;
		ibu_atomicfile_abort(&r->af);
		return -1;
	}
	return 0;
}

int ibu_report_output_end(const char *cmd, struct ibu_report_output *r,
			  int keep)
{
	int werr = 0, err = 0;

	/* what the command printed went through stdout into the file */
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
			r->af.path ? r->af.path : "standard output",
			strerror(werr ? werr : err));
		keep = 0;
	}
	if (!keep) {
		ibu_atomicfile_abort(&r->af);
		return werr || err ? -1 : 0;
	}
	return ibu_opt_out_close(cmd, &r->af, 0, NULL);
}
