/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Shared bits of the libFuzzer targets (tests/fuzz/fuzz_*.c). Each target feeds
 * the input to one reader, as a file would, and where the reader accepts
 * it also checks a property (write it back, read it again, same content):
 * a property that fails calls fuzz_fail(), which aborts so libFuzzer keeps
 * the input as a crash.
 */
#ifndef IBU_FUZZ_H
#define IBU_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a read-only stream (a private copy: readers may not write
 * through it, but libFuzzer's buffer must stay untouched anyway). */
static inline FILE *fuzz_open(const uint8_t *data, size_t size, char **copy)
{
	*copy = malloc(size + 1);
	if (!*copy)
		abort();
	if (size)
		memcpy(*copy, data, size);
	(*copy)[size] = '\0';
	return fmemopen(*copy, size, "r");	/* size 0 is fine in glibc >= 2.22 */
}

static inline void fuzz_close(FILE *in, char *copy)
{
	if (in)
		fclose(in);
	free(copy);
}

/* The round trip: what a writer puts in memory, read again as a file. */
struct fuzz_mem {
	char *buf;
	size_t len;
};

static inline FILE *fuzz_mem_writer(struct fuzz_mem *m)
{
	FILE *out;

	m->buf = NULL;
	m->len = 0;
	out = open_memstream(&m->buf, &m->len);
	if (!out)
		abort();
	return out;
}

static inline FILE *fuzz_mem_reader(const struct fuzz_mem *m)
{
	FILE *in = fmemopen(m->buf, m->len, "r");

	if (!in)
		abort();
	return in;
}

/* The fabric the dump and members targets read against: IBFT(4,3) as
 * ibunion gen writes it (switch GUIDs 0x200000.., as ibsim gives them). */
static inline void fuzz_ibft43(struct ibu_fabric *f)
{
	struct ibu_gen_opts o = { .seed = 1 };
	struct ibu_err e = { 0 };

	if (ibu_gen_fattree(f, 4, 3, &o, &e))
		abort();
}

#define fuzz_fail(...)                                                  \
	do {                                                            \
		fprintf(stderr, "fuzz property failed: " __VA_ARGS__);  \
		fputc('\n', stderr);                                    \
		abort();                                                \
	} while (0)

/* Text taken from input reaches messages and names escaped (lib/core/err.c):
 * no control byte but the tab, whatever the input held. */
static inline void fuzz_no_control(const char *s, const char *what)
{
	for (; s && *s; s++)
		if (((unsigned char)*s < 0x20 && *s != '\t') || *s == 0x7f)
			fuzz_fail("%s holds the control byte 0x%02x", what,
				  (unsigned char)*s);
}

#endif
