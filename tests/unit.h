/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Shared helpers of the Check unit tests: each test file defines
 * `static Suite *suite(void)` and ends with IBU_UNIT_MAIN. */
#ifndef IBU_UNIT_H
#define IBU_UNIT_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#define IBU_UNIT_MAIN                                                   \
	int main(void)                                                  \
	{                                                               \
		SRunner *sr = srunner_create(suite());                  \
		int failed;                                             \
		srunner_run_all(sr, CK_NORMAL);                         \
		failed = srunner_ntests_failed(sr);                     \
		srunner_free(sr);                                       \
		return failed ? EXIT_FAILURE : EXIT_SUCCESS;            \
	}

/* text into a new file named after the mkstemp() template tmpl (its
 * XXXXXX replaced); the test unlinks it. */
static inline void unit_write_temp(char *tmpl, const char *text)
{
	int fd = mkstemp(tmpl);
	FILE *out;

	ck_assert_int_ge(fd, 0);
	out = fdopen(fd, "w");
	ck_assert_ptr_nonnull(out);
	ck_assert_int_ge(fputs(text, out), 0);
	ck_assert_int_eq(fclose(out), 0);
}

#endif
