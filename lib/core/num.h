/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The one number parser of every reader. strtol and friends skip blanks,
 * take a sign, read "010" as octal and, cast to int, wrap 4294967300 to 4:
 * here a number is digits only, range-checked with overflow refused, and
 * the caller says what may follow it.
 */
#ifndef IBU_NUM_H
#define IBU_NUM_H

#include <stdint.h>

enum ibu_num_base {
	IBU_NUM_AUTO = 0,	/* "0x" then hex, else decimal (never octal) */
	IBU_NUM_DEC = 10,	/* decimal digits */
	IBU_NUM_HEX = 16,	/* hex digits, an optional 0x/0X first */
};

/*
 * Reads the number at s. 0 when at least one digit was read, the value
 * is within [min, max] and, with end NULL, nothing follows the digits;
 * with end given, *end points after the digits (the caller checks what
 * follows). -1 otherwise (no digit, sign, blank, overflow, range).
 */
int ibu_num(const char *s, int base, uint64_t min, uint64_t max,
	    uint64_t *v, const char **end);

/* The same for int-sized fields (max <= INT_MAX). */
int ibu_num_int(const char *s, int base, int min, int max, int *v,
		const char **end);

/* A GUID: an optional 0x, then 1 to 16 hex digits (a 17th is an error,
 * not a silent ULLONG_MAX). Same end convention. */
int ibu_num_guid(const char *s, uint64_t *v, const char **end);

#endif
