/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdio.h>
#include "num.h"
#include "pgft.h"

/* "a,b,c" -> v[1..n]; returns n, or -1 with a message. */
static int parse_list(const char *what, const char *text, int *v,
		      struct ibu_err *e)
{
	const char *s = text, *end;
	int n = 0, x;

	for (;;) {
		if (ibu_num_int(s, IBU_NUM_DEC, 1, 254, &x, &end))
			return ibu_err_set(e, IBU_EINVAL,
					   "%s '%s': item %d is not a number in 1..254",
					   what, text, n + 1), -1;
		if (n == IBU_PGFT_MAX_H)
			return ibu_err_set(e, IBU_EINVAL,
					   "%s '%s': more than %d levels",
					   what, text, IBU_PGFT_MAX_H), -1;
		v[++n] = x;
		if (!*end)
			return n;
		if (*end != ',')
			return ibu_err_set(e, IBU_EINVAL,
					   "%s '%s': '%c' where a ',' or the end was expected",
					   what, text, *end), -1;
		s = end + 1;
	}
}

int ibu_pgft_params_parse(const char *m, const char *w, const char *p,
			  struct ibu_pgft_params *P, struct ibu_err *e)
{
	const char *what[3] = { "--m", "--w", "--p" }, *text[3] = { m, w, p };
	int *v[3] = { P->m, P->w, P->p }, h[3], i;

	for (i = 0; i < 3; i++)
		if ((h[i] = parse_list(what[i], text[i], v[i], e)) < 0)
			return IBU_EINVAL;
	if (h[0] != h[1] || h[0] != h[2])
		return ibu_err_set(e, IBU_EINVAL,
				   "--m, --w and --p give %d, %d and %d levels: one number per level each",
				   h[0], h[1], h[2]);
	if (h[0] < 1)
		return ibu_err_set(e, IBU_EINVAL, "a PGFT has at least one level");
	P->h = h[0];
	P->m[0] = P->w[0] = P->p[0] = 0;
	return IBU_OK;
}

void ibu_pgft_params_text(const struct ibu_pgft_params *P, char *buf,
			  size_t len)
{
	const int *v[3] = { P->m, P->w, P->p };
	size_t o;
	int i, l;

	if (!len)
		return;
	o = (size_t)snprintf(buf, len, "PGFT(%d", P->h);
	for (i = 0; i < 3; i++) {
		if (o < len)
			o += (size_t)snprintf(buf + o, len - o, "; ");
		for (l = 1; l <= P->h && o < len; l++)
			o += (size_t)snprintf(buf + o, len - o, "%s%d",
					      l > 1 ? "," : "", v[i][l]);
	}
	if (o < len)
		snprintf(buf + o, len - o, ")");
}

long ibu_pgft_level_size(const struct ibu_pgft_params *P, int l, long limit)
{
	long n = 1;
	int i;

	for (i = 1; i <= P->h; i++) {
		n *= i <= l ? P->w[i] : P->m[i];
		if (n > limit)
			return -1;
	}
	return n;
}

int ibu_pgft_down_ports(const struct ibu_pgft_params *P, int l)
{
	return l >= 1 && l <= P->h ? P->m[l] * P->p[l] : 0;
}

int ibu_pgft_up_ports(const struct ibu_pgft_params *P, int l)
{
	return l >= 0 && l < P->h ? P->w[l + 1] * P->p[l + 1] : 0;
}

int ibu_pgft_uneven_level(const struct ibu_pgft_params *P)
{
	long hosts = 1, group = 1, up;
	int l;

	for (l = 1; l < P->h; l++) {
		hosts *= P->m[l];
		group *= l > 1 ? P->w[l] : 1;	/* level-l switches in one */
		up = group * ibu_pgft_up_ports(P, l);
		if (up <= 0 || hosts % up)
			return l;
		if (hosts > (1L << 40) || group > (1L << 20))
			return 0;	/* no fabric: nothing to balance */
	}
	return 0;
}

int ibu_pgft_is_ibft(const struct ibu_pgft_params *P, int *m, int *n)
{
	int k = P->m[1], l;

	if (P->h < 2 || P->w[1] != 1 || P->m[P->h] != 2 * k)
		return 0;
	for (l = 1; l <= P->h; l++)
		if (P->p[l] != 1 || (l < P->h && P->m[l] != k) ||
		    (l > 1 && P->w[l] != k))
			return 0;
	*m = 2 * k;
	*n = P->h;
	return 1;
}

int ibu__cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int ibu__cmp_gkey(const void *a, const void *b)
{
	const struct ibu__gkey *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}
