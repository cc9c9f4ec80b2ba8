/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * lib/core/lineio.c: lines of every length around its chunk sizes come back
 * whole, with and without a final newline, "\r\n" stripped; a NUL byte is
 * named with its line; a line past IBU_LINE_MAX is an error, not memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "lineio.h"

/* text of len bytes: two lines of lengths a and b, b without "\n" when
 * last_nl is 0 */
static char *two_lines(size_t a, size_t b, int last_nl, size_t *len)
{
	char *t = malloc(a + b + 2);
	size_t i;

	ck_assert_ptr_nonnull(t);
	for (i = 0; i < a; i++)
		t[i] = (char)('a' + i % 26);
	t[a] = '\n';
	for (i = 0; i < b; i++)
		t[a + 1 + i] = (char)('A' + i % 26);
	*len = a + 1 + b;
	if (last_nl)
		t[(*len)++] = '\n';
	return t;
}

START_TEST(lengths_around_chunks)
{
	static const size_t len[] = { 0, 1, 2, 125, 126, 127, 128, 129, 254,
				      255, 256, 257, 511, 512, 513, 4095,
				      4096, 4097, 100000 };
	size_t i, j, n;
	int nl;

	for (i = 0; i < sizeof(len) / sizeof(len[0]); i++)
		for (j = 0; j < sizeof(len) / sizeof(len[0]); j += 3)
			for (nl = 0; nl < 2; nl++) {
				char *t = two_lines(len[i], len[j], nl, &n);
				FILE *in = fmemopen(t, n, "r");
				struct ibu_lines l;
				struct ibu_err e = { 0 };
				size_t k;

				ck_assert_ptr_nonnull(in);
				ibu_lines_init(&l, in, "t");
				ck_assert_int_eq(ibu_lines_next(&l, &e), 1);
				ck_assert_uint_eq(l.len, len[i]);
				ck_assert_uint_eq(strlen(l.line), len[i]);
				for (k = 0; k < len[i]; k++)
					ck_assert_int_eq(l.line[k], 'a' + (int)(k % 26));
				if (len[j] || nl) {
					ck_assert_int_eq(ibu_lines_next(&l, &e), 1);
					ck_assert_uint_eq(l.len, len[j]);
					ck_assert_int_eq(l.lineno, 2);
					for (k = 0; k < len[j]; k++)
						ck_assert_int_eq(l.line[k], 'A' + (int)(k % 26));
				}
				ck_assert_int_eq(ibu_lines_next(&l, &e), 0);
				ibu_lines_free(&l);
				fclose(in);
				free(t);
			}
}
END_TEST

static int first(const char *text, size_t n, struct ibu_lines *l,
		 struct ibu_err *e, FILE **in)
{
	*in = fmemopen((void *)text, n, "r");
	ck_assert_ptr_nonnull(*in);
	ibu_lines_init(l, *in, "t");
	return ibu_lines_next(l, e);
}

START_TEST(crlf_and_nul)
{
	static const char crlf[] = "ab\r\ncd", nul[] = "ok\nx\0y\n", nul2[] = "\0";
	struct ibu_lines l;
	struct ibu_err e = { 0 };
	FILE *in;

	ck_assert_int_eq(first(crlf, sizeof(crlf) - 1, &l, &e, &in), 1);
	ck_assert_str_eq(l.line, "ab");
	ck_assert_int_eq(ibu_lines_next(&l, &e), 1);
	ck_assert_str_eq(l.line, "cd");
	ibu_lines_free(&l);
	fclose(in);
	ck_assert_int_eq(first(nul, sizeof(nul) - 1, &l, &e, &in), 1);
	ck_assert_int_eq(ibu_lines_next(&l, &e), IBU_EPARSE);
	ck_assert_str_eq(e.msg, "t:2: NUL byte in line");
	ibu_lines_free(&l);
	fclose(in);
	/* a lone NUL at the end, no newline */
	ck_assert_int_eq(first(nul2, 1, &l, &e, &in), IBU_EPARSE);
	ck_assert_str_eq(e.msg, "t:1: NUL byte in line");
	ibu_lines_free(&l);
	fclose(in);
}
END_TEST

START_TEST(line_too_long)
{
	size_t n = 3u << 20;
	char *t = malloc(n);
	struct ibu_lines l;
	struct ibu_err e = { 0 };
	FILE *in;

	ck_assert_ptr_nonnull(t);
	memset(t, 'x', n);
	ck_assert_int_eq(first(t, n, &l, &e, &in), IBU_EPARSE);
	ck_assert_msg(strstr(e.msg, "t:1: line longer than"), "%s", e.msg);
	ck_assert_uint_le(l.cap, 4u << 20);	/* memory stayed bounded */
	ibu_lines_free(&l);
	fclose(in);
	free(t);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("lineio");
	TCase *tc = tcase_create("lines");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, lengths_around_chunks);
	tcase_add_test(tc, crlf_and_nul);
	tcase_add_test(tc, line_too_long);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
