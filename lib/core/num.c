/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Strict numbers (see num.h): by hand, so no locale, blank or sign. */
#include <stddef.h>
#include "num.h"

static int digit(char c, int base)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (base == 16 && c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (base == 16 && c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* At most maxdigits significant digits when maxdigits > 0. */
static int parse(const char *s, int base, int maxdigits, uint64_t *v,
		 const char **end)
{
	uint64_t x = 0;
	int d, n = 0;

	if (!s)
		return -1;
	if (base != IBU_NUM_DEC && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
	    digit(s[2], 16) >= 0) {
		s += 2;
		base = 16;
	} else if (base == IBU_NUM_AUTO) {
		base = 10;
	}
	for (; (d = digit(*s, base)) >= 0; s++, n++) {
		if (x > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return -1;	/* ERANGE */
		x = x * (uint64_t)base + (uint64_t)d;
		if (maxdigits > 0 && n >= maxdigits)
			return -1;
	}
	if (!n || (!end && *s))
		return -1;
	if (end)
		*end = s;
	*v = x;
	return 0;
}

int ibu_num(const char *s, int base, uint64_t min, uint64_t max,
	    uint64_t *v, const char **end)
{
	uint64_t x;
	const char *e;

	if (parse(s, base, 0, &x, end ? &e : NULL) || x < min || x > max)
		return -1;
	if (end)
		*end = e;
	*v = x;
	return 0;
}

int ibu_num_int(const char *s, int base, int min, int max, int *v,
		const char **end)
{
	uint64_t x;

	if (min < 0 || ibu_num(s, base, (uint64_t)min, (uint64_t)max, &x, end))
		return -1;
	*v = (int)x;
	return 0;
}

int ibu_num_guid(const char *s, uint64_t *v, const char **end)
{
	uint64_t x;
	const char *e;

	if (parse(s, IBU_NUM_HEX, 16, &x, end ? &e : NULL))
		return -1;
	if (end)
		*end = e;
	*v = x;
	return 0;
}
