/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Shared helpers of the Check unit tests: each test file defines
 * `static Suite *suite(void)` and ends with IBU_UNIT_MAIN. */
#ifndef IBU_UNIT_H
#define IBU_UNIT_H

#include <check.h>
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

#endif
