/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* FABRIC arguments of every subcommand (see fabric_open.h). */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fabric_open.h"
#include "ibnd_cache.h"
#include "netfile.h"
#include "subnet_lst.h"

const char *ibu_fabric_format_name(enum ibu_fabric_format fmt)
{
	switch (fmt) {
	case IBU_FABRIC_NETFILE: return "net file / ibnetdiscover output";
	case IBU_FABRIC_SUBNET_LST: return "opensm-subnet.lst";
	case IBU_FABRIC_IBND_CACHE: return "ibnetdiscover cache";
	}
	return "?";
}

/*
 * An ibnetdiscover cache is told by its magic number, not by binary bytes:
 * a text file with a stray NUL must reach the text readers, which name its
 * file and line.
 */
static int sniff(FILE *in, enum ibu_fabric_format *fmt)
{
	unsigned char buf[4096];
	size_t n = fread(buf, 1, sizeof(buf), in), start = 0;

	if (ferror(in))
		return -1;
	if (ibu_ibnd_cache_sniff(buf, n)) {
		*fmt = IBU_FABRIC_IBND_CACHE;
		return 0;
	}
	*fmt = IBU_FABRIC_NETFILE;
	/* first line that is neither blank nor a comment, after a UTF-8
	 * byte order mark; a line longer than the buffer is judged by its
	 * start (opensm-subnet.lst lines start with their keys) */
	if (n >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		start = 3;
	while (start < n) {
		size_t end = start, len;
		char line[sizeof(buf) + 1];
		const char *s = line;

		while (end < n && buf[end] != '\n')
			end++;
		len = end - start;
		memcpy(line, buf + start, len);
		line[len] = '\0';
		while (isspace((unsigned char)*s))
			s++;
		if (*s && *s != '#') {
			if (ibu_subnet_lst_sniff(s))
				*fmt = IBU_FABRIC_SUBNET_LST;
			break;
		}
		start = end + 1;
	}
	return 0;
}

int ibu_fabric_open(const char *path, struct ibu_fabric *f,
		    enum ibu_fabric_format *fmt, struct ibu_err *e)
{
	enum ibu_fabric_format k;
	FILE *in = fopen(path, "rb");
	int rc;

	if (!in)
		return ibu_err_set(e, IBU_EIO, "%s: cannot open", path);
	rc = sniff(in, &k);
	fclose(in);
	if (rc)
		return ibu_err_set(e, IBU_EIO, "%s: read error", path);
	if (fmt)
		*fmt = k;
	switch (k) {
	case IBU_FABRIC_SUBNET_LST:
		return ibu_subnet_lst_read(path, f, e);
	case IBU_FABRIC_IBND_CACHE:
		/* our own bounded reader: libibnetdisc's trusts the file */
		return ibu_ibnd_cache_read(path, f, e);
	case IBU_FABRIC_NETFILE:
		break;
	}
	return ibu_netfile_read(path, f, e);
}
