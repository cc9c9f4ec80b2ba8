/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Every input file of lib/ is opened here and read once, as a stream, so
 * that whatever names a file works: a regular file, "-" (standard input),
 * a pipe, a FIFO, process substitution (/dev/fd/N), a device. What needs a
 * second pass (a format told by its first bytes, a dump read for its
 * switches and then for its tables) keeps what it read: the head read
 * ahead is replayed by the stream, a whole input is taken into memory
 * (bounded) and read again from there.
 *
 * Opening never blocks (O_NONBLOCK: a FIFO without a writer opens at
 * once), and a read that is not from a regular file waits for data at most
 * IBUNION_INPUT_TIMEOUT seconds (default 10, 0 = no bound): a FIFO nobody
 * writes then ends with "no data for 10 s" naming the file instead of
 * blocking forever (inside OpenSM too). The stream's read fails with
 * errno ETIMEDOUT; lineio turns that into the message.
 */
#ifndef IBU_INPUT_H
#define IBU_INPUT_H

#include <stddef.h>
#include <stdio.h>
#include "err.h"

#define IBU_INPUT_TIMEOUT_ENV "IBUNION_INPUT_TIMEOUT"
#define IBU_INPUT_TIMEOUT_DEFAULT 10
/* The most one input may put in memory (a fabric file of a few hundred
 * thousand nodes, an MFT dump of every switch, is far below). */
#define IBU_INPUT_MAX ((size_t)1 << 30)

/* Opens path ("-": standard input) for one pass; NULL with IBU_EIO
 * ("path: cannot open: why") on failure. Close with fclose(). */
FILE *ibu_input_open(const char *path, struct ibu_err *e);
/* The same, with up to peek bytes read ahead into *head / *head_len (fewer
 * at the end of the input); the stream still yields them first. *head
 * lives until fclose(). */
FILE *ibu_input_open_peek(const char *path, size_t peek, const char **head,
			  size_t *head_len, struct ibu_err *e);
/* The rest of in, into a new buffer (NUL-terminated, *len without it) of
 * at most max bytes; IBU_EIO "name: larger than N bytes" past that. */
int ibu_input_slurp(FILE *in, const char *name, size_t max, char **buf,
		    size_t *len, struct ibu_err *e);
/* path read once into memory (ibu_input_open + ibu_input_slurp). */
int ibu_input_read_all(const char *path, size_t max, char **buf,
		       size_t *len, struct ibu_err *e);
/* What a stream read, kept for another pass (ibu_input_tee). */
struct ibu_input_copy {
	char *buf;		/* NUL-terminated; free() it */
	size_t len, cap;
};
/* A stream that reads in (and closes it with itself) and appends every
 * byte to copy, at most IBU_INPUT_MAX (then a read error, EFBIG): one pass
 * streams, with the early errors of a line reader, and leaves the bytes
 * for the next passes (ibu_input_mem). */
FILE *ibu_input_tee(FILE *in, struct ibu_input_copy *copy, struct ibu_err *e);
/* A stream over buf[0..len) (not copied: buf must outlive it). */
FILE *ibu_input_mem(const char *buf, size_t len, struct ibu_err *e);
/* The bound in seconds (0: none), from IBUNION_INPUT_TIMEOUT. */
int ibu_input_timeout(void);
/* The message of a failed read at where ("file" or "file:line"): the
 * time bound for ETIMEDOUT, else "read error: why". Returns IBU_EIO
 * (IBU_ENOMEM for ENOMEM). */
int ibu_input_err(struct ibu_err *e, const char *where, int err);
/* How messages name path: "(stdin)" for "-". */
const char *ibu_input_name(const char *path);

#endif
