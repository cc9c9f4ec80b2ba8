/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Output files written to a temporary name and renamed (see atomicfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "atomicfile.h"

#define TMP_TRIES 100

static void release(struct ibu_atomicfile *af)
{
	free(af->path);
	free(af->target);
	free(af->tmp);
	memset(af, 0, sizeof(*af));
}

/* Temporary name ".<base>.tmp.<pid>.<n>" beside path. */
static char *tmp_name(const char *path, int n)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	const char *base = path + dirlen;
	size_t len = strlen(path) + 64;
	char *t = malloc(len);

	if (!t)
		return NULL;
	snprintf(t, len, "%.*s.%s.tmp.%ld.%d", (int)dirlen, path, base,
		 (long)getpid(), n);
	return t;
}

int ibu_atomicfile_open(struct ibu_atomicfile *af, const char *path,
			struct ibu_err *e)
{
	struct stat st;
	int have_st, fd = -1, n, err;
	mode_t mode = 0666;

	memset(af, 0, sizeof(*af));
	if (!path || !strcmp(path, "-")) {
		af->fp = stdout;
		af->is_stdout = 1;
		return IBU_OK;
	}
	if (!*path)
		return ibu_err_set(e, IBU_EINVAL, "empty output file name");
	have_st = stat(path, &st) == 0;
	if (have_st && !S_ISREG(st.st_mode)) {
		/* a device, FIFO or terminal: no rename possible */
		af->path = strdup(path);
		if (!af->path)
			return ibu_err_set(e, IBU_ENOMEM, "out of memory");
		af->fp = fopen(path, "w");
		if (!af->fp) {
			err = errno;
			release(af);
			return ibu_err_set(e, IBU_EIO, "%s: cannot open for writing: %s",
					   path, strerror(err));
		}
		return IBU_OK;
	}
	if (have_st)
		mode = st.st_mode & 07777;
	af->path = strdup(path);
	if (!af->path)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	/* write beside the file a symlink points to, so rename keeps the link */
	af->target = have_st ? realpath(path, NULL) : strdup(path);
	if (!af->target) {
		err = errno;
		release(af);
		return ibu_err_set(e, err == ENOMEM ? IBU_ENOMEM : IBU_EIO,
				   "%s: %s", path, strerror(err));
	}
	for (n = 0; n < TMP_TRIES; n++) {
		af->tmp = tmp_name(af->target, n);
		if (!af->tmp) {
			release(af);
			return ibu_err_set(e, IBU_ENOMEM, "out of memory");
		}
		fd = open(af->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
		if (fd >= 0 || errno != EEXIST)
			break;
		free(af->tmp);
		af->tmp = NULL;
	}
	if (fd < 0) {
		err = n == TMP_TRIES ? EEXIST : errno;
		ibu_err_set(e, IBU_EIO, "%s: cannot create a temporary file beside it: %s",
			    path, strerror(err));
		release(af);
		return IBU_EIO;
	}
	/* the creation mode went through the umask; an existing file keeps its own */
	if (have_st && fchmod(fd, mode) != 0) {
		/* not fatal: the content is what matters */
	}
	af->fp = fdopen(fd, "w");
	if (!af->fp) {
		err = errno;
		close(fd);
		unlink(af->tmp);
		release(af);
		return ibu_err_set(e, IBU_EIO, "%s: %s", path, strerror(err));
	}
	return IBU_OK;
}

int ibu_atomicfile_commit(struct ibu_atomicfile *af, struct ibu_err *e)
{
	int err = 0, bad;
	const char *name = af->path ? af->path : "standard output";

	if (!af->fp)
		return ibu_err_set(e, IBU_EINVAL, "output file not open");
	errno = 0;
	bad = fflush(af->fp) != 0 || ferror(af->fp);
	if (bad)
		err = errno ? errno : EIO;
	if (af->is_stdout) {
		release(af);
		if (bad)
			return ibu_err_set(e, IBU_EIO, "%s: write failed: %s",
					   name, strerror(err));
		return IBU_OK;
	}
	if (!bad && af->tmp && fsync(fileno(af->fp)) != 0) {
		bad = 1;
		err = errno;
	}
	if (fclose(af->fp) != 0 && !bad) {
		bad = 1;
		err = errno;
	}
	af->fp = NULL;
	if (!bad && af->tmp && rename(af->tmp, af->target) != 0) {
		bad = 1;
		err = errno;
	}
	if (bad) {
		ibu_err_set(e, IBU_EIO, "%s: write failed: %s%s", name,
			    strerror(err),
			    af->tmp ? " (nothing written, the file is unchanged)" : "");
		if (af->tmp)
			unlink(af->tmp);
		release(af);
		return IBU_EIO;
	}
	release(af);
	return IBU_OK;
}

void ibu_atomicfile_abort(struct ibu_atomicfile *af)
{
	if (af->fp && !af->is_stdout)
		fclose(af->fp);
	else if (af->fp)
		fflush(af->fp);
	if (af->tmp)
		unlink(af->tmp);
	release(af);
}
