/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Our own reader of `ibnetdiscover --cache` files (libibnetdisc's binary
 * format, version 1, little endian). libibnetdisc's loader trusts every
 * count and field (a corrupted LMC makes it loop and grow without limit),
 * so the cache is never handed to it: every count is checked against the
 * bytes present before anything is allocated, so a damaged file costs at
 * most a few times its own size in memory and one pass in time. Errors
 * name the file and the byte offset of the bad field.
 */
#ifndef IBU_IBND_CACHE_H
#define IBU_IBND_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "fabric.h"

/* The first four bytes of every cache file. */
#define IBU_IBND_CACHE_MAGIC 0x8FE7832Bu

/* 1 when buf (len bytes) starts with the cache magic (either byte order,
 * so a byte-swapped cache reaches the reader and is refused by name). */
int ibu_ibnd_cache_sniff(const uint8_t *buf, size_t len);

/* Builds f from the len bytes of a cache file; name is for messages.
 * Nodes keep the file's order, as libibnetdisc lists them. */
int ibu_ibnd_cache_parse(const uint8_t *buf, size_t len, const char *name,
			 struct ibu_fabric *f, struct ibu_err *e);

/* Reads the file at path, then ibu_ibnd_cache_parse(). */
int ibu_ibnd_cache_read(const char *path, struct ibu_fabric *f,
			struct ibu_err *e);

#endif
