/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Output files that never leave a truncated result behind a success.
 *
 * A regular file (or a name that does not exist yet) is written to a
 * temporary name in the same directory (".<name>.tmp.<pid>.<n>", created
 * with O_EXCL) and renamed over the target only after fflush(), fsync() and
 * fclose() all succeeded; on any failure the temporary file is removed and
 * the target is left as it was. A target that exists and is not a regular
 * file (/dev/null, /dev/full, a FIFO, a terminal) is written directly, and
 * its fflush()/fclose() results are still checked. NULL or "-" is stdout
 * (flushed and checked, not closed). An existing target keeps its mode.
 *
 *	struct ibu_atomicfile af;
 *	if (ibu_atomicfile_open(&af, path, &e)) ...
 *	fprintf(af.fp, ...);
 *	rc = ibu_atomicfile_commit(&af, &e);	// or ibu_atomicfile_abort(&af)
 */
#ifndef IBU_ATOMICFILE_H
#define IBU_ATOMICFILE_H

#include <stdio.h>
#include "err.h"

struct ibu_atomicfile {
	FILE *fp;		/* write here */
	char *path;		/* the name given, for messages; NULL for stdout */
	char *target;		/* what the temporary file is renamed to */
	char *tmp;		/* temporary name, NULL when written directly */
	int is_stdout;
};

/* Opens the output; IBU_EIO ("path: cannot create ...: strerror") on failure. */
int ibu_atomicfile_open(struct ibu_atomicfile *af, const char *path,
			struct ibu_err *e);
/* Flushes, syncs, closes and renames into place. Returns IBU_EIO naming the
 * target and the system's reason (e.g. "No space left on device") when any
 * step failed; the target is then untouched (regular files) and af is
 * released either way. */
int ibu_atomicfile_commit(struct ibu_atomicfile *af, struct ibu_err *e);
/* Closes and removes the temporary file; the target stays as it was. */
void ibu_atomicfile_abort(struct ibu_atomicfile *af);

#endif
