/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Output files that never leave a truncated result behind a success, and
 * never write through a link somebody else planted.
 *
 * The directory of the name is opened once; a temporary file is created in
 * it (".<name>.tmp.<pid>.<n>", O_EXCL, so no link is followed) and renamed
 * within it over the name only after fflush(), fsync() and fclose() all
 * succeeded; on any failure the temporary file is removed and the name is
 * left as it was. The name's last component is never followed when it is a
 * symbolic link: the link itself is replaced and its target stays
 * untouched, unless IBU_ATOMICFILE_FOLLOW asks to replace the target. One
 * exception keeps `-o /dev/stdout` and `-o /dev/null` working: a link to a
 * character device or a FIFO (whose content cannot be damaged) is written
 * through, as is a character device or FIFO named directly, with its
 * fflush()/fclose() results still checked. Block devices, directories and
 * sockets are refused. With IBU_ATOMICFILE_STRICT nothing is written
 * directly: whatever the name is, it is replaced by a rename (the plugin's
 * dump files in a directory others may write to). IBU_ATOMICFILE_NOSYNC
 * skips the fsync()s: the rename still comes after a checked fclose(), so a
 * reader never sees a partial file, but after a power cut the name may
 * hold the old content (OpenSM's sweep must not wait on the disk).
 *
 * The new file gets the creation mode the umask allows (0666 & ~umask); an
 * existing regular file it replaces can only take bits away (a 0600 file
 * stays 0600), so no setuid, setgid, sticky or execute bit is ever carried
 * over. NULL or "-" is stdout (flushed and checked, not closed).
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

enum {
	IBU_ATOMICFILE_FOLLOW = 1,	/* a symlink's target is replaced */
	IBU_ATOMICFILE_STRICT = 2,	/* always a rename, nothing followed */
	IBU_ATOMICFILE_NOSYNC = 4,	/* no fsync() of file or directory */
};

struct ibu_atomicfile {
	FILE *fp;		/* write here */
	char *path;		/* the name given, for messages; NULL for stdout */
	char *tmp;		/* full temporary name, NULL when written directly */
	char *tmp_base;		/* its last component, inside dirfd */
	char *base;		/* what the temporary file is renamed to, in dirfd */
	int dirfd;		/* the directory both live in, -1 none */
	int is_stdout;
	int nosync;		/* IBU_ATOMICFILE_NOSYNC */
};

/* Opens the output; IBU_EIO ("path: cannot create ...: strerror") on failure. */
int ibu_atomicfile_open(struct ibu_atomicfile *af, const char *path,
			struct ibu_err *e);
/* The same with IBU_ATOMICFILE_* flags. */
int ibu_atomicfile_open_flags(struct ibu_atomicfile *af, const char *path,
			      int flags, struct ibu_err *e);
/* Flushes, syncs, closes and renames into place. Returns IBU_EIO naming the
 * target and the system's reason (e.g. "No space left on device") when any
 * step failed; the target is then untouched (regular files) and af is
 * released either way. */
int ibu_atomicfile_commit(struct ibu_atomicfile *af, struct ibu_err *e);
/* Closes and removes the temporary file; the target stays as it was. */
void ibu_atomicfile_abort(struct ibu_atomicfile *af);

#endif
