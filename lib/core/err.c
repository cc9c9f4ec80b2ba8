/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdio.h>
#include <string.h>
#include "err.h"

int ibu_err_set(struct ibu_err *e, int code, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return code;
	e->code = code;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
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
