/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Shared bits of the libFuzzer targets (fuzz/fuzz_*.c). Each target feeds
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

#define fuzz_fail(...)                                                  \
	do {                                                            \
		fprintf(stderr, "fuzz property failed: " __VA_ARGS__);  \
		fputc('\n', stderr);                                    \
		abort();                                                \
	} while (0)

#endif
