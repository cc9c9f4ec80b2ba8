/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Error codes and messages shared by every lib/ function that can fail.
 * A failing function returns a negative IBU_E* code and, when given an
 * ibu_err, leaves a one-line human message there ("file:line: problem").
 */
#ifndef IBU_ERR_H
#define IBU_ERR_H

#include <stdarg.h>

enum ibu_errcode {
	IBU_OK = 0,
	IBU_ENOMEM = -1,	/* allocation failed */
	IBU_EIO = -2,		/* cannot open/read/write a file */
	IBU_EPARSE = -3,	/* malformed input (file:line in the message) */
	IBU_ETOPO = -4,		/* fabric is not the topology asked for */
	IBU_EINVAL = -5,	/* bad argument or inconsistent data */
	IBU_ELID = -6,		/* LID space or LMC problem */
	IBU_ENOTFOUND = -7,	/* looked-up object does not exist */
};

/* long enough for every engine's reason at once (detection joins them):
 * a reason is never cut */
#define IBU_ERR_MSG_LEN 2048

struct ibu_err {
	int code;
	char msg[IBU_ERR_MSG_LEN];
};

/*
 * Copies src into dst (cap bytes, always terminated) with every control
 * byte written as "\xHH": bytes below 0x20 but the tab, 0x7f, and the
 * UTF-8 C1 controls U+0080..U+009F (0xc2 0x80..0x9f), so that text taken
 * from input (a node description, a line of a file) cannot move the
 * cursor, set a terminal's title or forge a log line. Idempotent (the
 * escape itself holds no control byte). Returns strlen(dst).
 */
size_t ibu_escape(char *dst, size_t cap, const char *src);
/* The same into a new string (NULL when out of memory). */
char *ibu_escape_dup(const char *src);

/* Records code and message in e (if e != NULL), control bytes escaped
 * (ibu_escape), and returns code. */
int ibu_err_set(struct ibu_err *e, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Prefixes the existing message with "what: " (escaped as well). */
void ibu_err_prefix(struct ibu_err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ibu_err_clear(struct ibu_err *e);
/* Short stable name of a code, e.g. "parse error". */
const char *ibu_strerror(int code);

#endif
