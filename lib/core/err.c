/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "err.h"

static int c1_control(const unsigned char *s)
{
	return s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f;
}

static int ctl(unsigned char c)
{
	return (c < 0x20 && c != '\t') || c == 0x7f;
}

/* Bytes the escaped form of src needs, the terminating NUL included. */
static size_t escaped_len(const char *src)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t n = 1;

	for (; *s; s++) {
		if (c1_control(s)) {
			n += 8;
			s++;
		} else {
			n += ctl(*s) ? 4 : 1;
		}
	}
	return n;
}

size_t ibu_escape(char *dst, size_t cap, const char *src)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t o = 0;

	if (!cap)
		return 0;
	for (; *s; s++) {
		int two = c1_control(s), k, w = two ? 8 : ctl(*s) ? 4 : 1;

		if (o + (size_t)w >= cap)
			break;
		if (w == 1) {
			dst[o++] = (char)*s;
			continue;
		}
		for (k = 0; k <= two; k++)
			o += (size_t)snprintf(dst + o, cap - o, "\\x%02x", s[k]);
		s += two;
	}
	dst[o] = '\0';
	return o;
}

char *ibu_escape_dup(const char *src)
{
	size_t n = escaped_len(src);
	char *d = malloc(n);

	if (d)
		ibu_escape(d, n, src);
	return d;
}

/* The message in place, escaped (one pass through a copy). */
static void escape_msg(struct ibu_err *e)
{
	char raw[IBU_ERR_MSG_LEN];

	memcpy(raw, e->msg, sizeof(raw));
	ibu_escape(e->msg, sizeof(e->msg), raw);
}

int ibu_err_set(struct ibu_err *e, int code, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return code;
	e->code = code;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	escape_msg(e);
	return code;
}

void ibu_err_prefix(struct ibu_err *e, const char *fmt, ...)
{
	char old[IBU_ERR_MSG_LEN];
	size_t n;
	va_list ap;

	if (!e)
		return;
	memcpy(old, e->msg, sizeof(old));
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	n = strlen(e->msg);
	if (n + 2 < sizeof(e->msg)) {
		memcpy(e->msg + n, ": ", 2);
		n += 2;
		strncpy(e->msg + n, old, sizeof(e->msg) - n - 1);
		e->msg[sizeof(e->msg) - 1] = '\0';
	}
	escape_msg(e);
}

void ibu_err_clear(struct ibu_err *e)
{
	if (e) {
		e->code = IBU_OK;
		e->msg[0] = '\0';
	}
}

const char *ibu_strerror(int code)
{
	switch (code) {
	case IBU_OK: return "success";
	case IBU_ENOMEM: return "out of memory";
	case IBU_EIO: return "I/O error";
	case IBU_EPARSE: return "parse error";
	case IBU_ETOPO: return "unsupported topology";
	case IBU_EINVAL: return "invalid argument";
	case IBU_ELID: return "LID space problem";
	case IBU_ENOTFOUND: return "not found";
	default: return "unknown error";
	}
}
