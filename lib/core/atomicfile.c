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
	if (af->base && af->dirfd >= 0)	/* a zeroed af holds no fd */
		close(af->dirfd);
	free(af->path);
	free(af->tmp);
	free(af->tmp_base);
	free(af->base);
	memset(af, 0, sizeof(*af));
	af->dirfd = -1;
}

static int fail(struct ibu_atomicfile *af, struct ibu_err *e, int err,
		const char *what)
{
	int code = err == ENOMEM ? IBU_ENOMEM : IBU_EIO;

	ibu_err_set(e, code, "%s: %s: %s", af->path ? af->path : "output",
		    what, strerror(err));
	release(af);
	return code;
}

/* Opens the directory of name (everything before the last '/') and keeps
 * the last component in af->base; "" and names ending in '/' are refused. */
static int open_dir(struct ibu_atomicfile *af, const char *name)
{
	const char *slash = strrchr(name, '/');
	char *dir;

	if (!slash) {
		af->base = strdup(name);
		dir = strdup(".");
	} else {
		af->base = strdup(slash + 1);
		dir = slash == name ? strdup("/") :
		      strndup(name, (size_t)(slash - name));
	}
	if (!af->base || !dir) {
		free(dir);
		return ENOMEM;
	}
	if (!*af->base || !strcmp(af->base, ".") || !strcmp(af->base, "..")) {
		free(dir);
		return EISDIR;
	}
	af->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	return af->dirfd < 0 ? errno : 0;
}

/* Creates ".<base>.tmp.<pid>.<n>" in the directory; returns its fd. */
static int create_tmp(struct ibu_atomicfile *af)
{
	const char *slash = strrchr(af->path, '/');
	size_t dirlen = slash ? (size_t)(slash - af->path) + 1 : 0;
	size_t len = strlen(af->base) + 64;
	int n, fd = -1;

	for (n = 0; n < TMP_TRIES && fd < 0; n++) {
		free(af->tmp_base);
		af->tmp_base = malloc(len);
		if (!af->tmp_base)
			return -ENOMEM;
		snprintf(af->tmp_base, len, ".%s.tmp.%ld.%d", af->base,
			 (long)getpid(), n);
		/* O_EXCL: an existing name, a planted link included, fails */
		fd = openat(af->dirfd, af->tmp_base,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0666);
		if (fd < 0 && errno != EEXIST)
			return -errno;
	}
	if (fd < 0)
		return -EEXIST;
	/* the full name, for messages and for a signal handler's unlink() */
	af->tmp = malloc(dirlen + strlen(af->tmp_base) + 1);
	if (!af->tmp) {
		unlinkat(af->dirfd, af->tmp_base, 0);
		close(fd);
		return -ENOMEM;
	}
	memcpy(af->tmp, af->path, dirlen);
	strcpy(af->tmp + dirlen, af->tmp_base);
	return fd;
}

/* The mode the umask gave the new file, less what the old file lacked. */
static void restrict_mode(int fd, const struct stat *old)
{
	struct stat now;

	if (!old || !S_ISREG(old->st_mode) || fstat(fd, &now))
		return;
	if (fchmod(fd, now.st_mode & old->st_mode & 0777)) {
		/* not fatal: the file then has the umask's mode */
	}
}

static int open_tmp(struct ibu_atomicfile *af, const struct stat *old,
		    struct ibu_err *e)
{
	int fd = create_tmp(af);

	if (fd < 0)
		return fail(af, e, -fd, "cannot create a temporary file beside it");
	restrict_mode(fd, old);
	af->fp = fdopen(fd, "w");
	if (!af->fp) {
		int err = errno;

		close(fd);
		unlinkat(af->dirfd, af->tmp_base, 0);
		return fail(af, e, err, "cannot open");
	}
	return IBU_OK;
}

/* A character device or FIFO: no rename possible, no content to damage. */
static int open_direct(struct ibu_atomicfile *af, int follow,
		       struct ibu_err *e)
{
	int fd = openat(af->dirfd, af->base, O_WRONLY | O_NOCTTY | O_CLOEXEC |
			(follow ? 0 : O_NOFOLLOW));

	if (fd < 0)
		return fail(af, e, errno, "cannot open for writing");
	af->fp = fdopen(fd, "w");
	if (!af->fp) {
		int err = errno;

		close(fd);
		return fail(af, e, err, "cannot open for writing");
	}
	return IBU_OK;
}

static int writable_in_place(const struct stat *st)
{
	return S_ISCHR(st->st_mode) || S_ISFIFO(st->st_mode);
}

/* What to do with the name as it stands (see atomicfile.h). */
static int open_existing(struct ibu_atomicfile *af, const struct stat *lst,
			 int flags, struct ibu_err *e)
{
	struct stat st;

	if (flags & IBU_ATOMICFILE_STRICT)
		return open_tmp(af, NULL, e);
	if (S_ISLNK(lst->st_mode)) {
		/* a link to stdout, /dev/null or a FIFO is written through;
		 * any other link is replaced, its target left alone */
		if (!fstatat(af->dirfd, af->base, &st, 0) && writable_in_place(&st))
			return open_direct(af, 1, e);
		return open_tmp(af, NULL, e);
	}
	if (writable_in_place(lst))
		return open_direct(af, 0, e);
	if (!S_ISREG(lst->st_mode))
		return fail(af, e, S_ISDIR(lst->st_mode) ? EISDIR : EINVAL,
			    "not a regular file, a character device or a FIFO");
	return open_tmp(af, lst, e);
}

int ibu_atomicfile_open_flags(struct ibu_atomicfile *af, const char *path,
			      int flags, struct ibu_err *e)
{
	struct stat lst;
	char *real = NULL;
	int err;

	memset(af, 0, sizeof(*af));
	af->dirfd = -1;
	af->nosync = !!(flags & IBU_ATOMICFILE_NOSYNC);
	if (!path || !strcmp(path, "-")) {
		af->fp = stdout;
		af->is_stdout = 1;
		return IBU_OK;
	}
	if (!*path)
		return ibu_err_set(e, IBU_EINVAL, "empty output file name");
	af->path = strdup(path);
	if (!af->path)
		return fail(af, e, ENOMEM, "cannot open");
	/* asked to: the file a link points to is the one replaced */
	if ((flags & IBU_ATOMICFILE_FOLLOW) && !(flags & IBU_ATOMICFILE_STRICT))
		real = realpath(path, NULL);
	err = open_dir(af, real ? real : path);
	free(real);
	if (err)
		return fail(af, e, err, "cannot create");
	if (fstatat(af->dirfd, af->base, &lst, AT_SYMLINK_NOFOLLOW)) {
		if (errno != ENOENT)
			return fail(af, e, errno, "cannot create");
		return open_tmp(af, NULL, e);
	}
	return open_existing(af, &lst, flags, e);
}

int ibu_atomicfile_open(struct ibu_atomicfile *af, const char *path,
			struct ibu_err *e)
{
	return ibu_atomicfile_open_flags(af, path, 0, e);
}

/* fflush, fsync (a temporary file, unless nosync), fclose, rename: the
 * first errno. */
static int finish(struct ibu_atomicfile *af)
{
	int err = 0;

	errno = 0;
	if (fflush(af->fp) != 0 || ferror(af->fp))
		err = errno ? errno : EIO;
	if (!err && af->tmp && !af->nosync && fsync(fileno(af->fp)) != 0)
		err = errno;
	if (fclose(af->fp) != 0 && !err)
		err = errno ? errno : EIO;
	af->fp = NULL;
	if (!err && af->tmp &&
	    renameat(af->dirfd, af->tmp_base, af->dirfd, af->base) != 0)
		err = errno;
	/* the rename itself is durable once the directory is */
	if (!err && af->tmp && !af->nosync && fsync(af->dirfd)) {
		/* not fatal: the file is in place */
	}
	return err;
}

int ibu_atomicfile_commit(struct ibu_atomicfile *af, struct ibu_err *e)
{
	int err = 0, bad;
	const char *name = af->path ? af->path : "standard output";

	if (!af->fp)
		return ibu_err_set(e, IBU_EINVAL, "output file not open");
	if (af->is_stdout) {
		errno = 0;
		bad = fflush(af->fp) != 0 || ferror(af->fp);
		if (bad)
			err = errno ? errno : EIO;
		release(af);
		if (bad)
			return ibu_err_set(e, IBU_EIO, "%s: write failed: %s",
					   name, strerror(err));
		return IBU_OK;
	}
	err = finish(af);
	if (err) {
		ibu_err_set(e, IBU_EIO, "%s: write failed: %s%s", name,
			    strerror(err),
			    af->tmp ? " (nothing written, the file is unchanged)" : "");
		if (af->tmp)
			unlinkat(af->dirfd, af->tmp_base, 0);
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
		unlinkat(af->dirfd, af->tmp_base, 0);
	release(af);
}
