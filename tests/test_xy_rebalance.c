/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* A damaged mesh's plan rebalanced inside its own SL layers
 * (xy_rebalance.c), on shuffled generated meshes. */
#include "xy_detour_util.h"

/*
 * 10x10 meshes of the random league, where the plan's all-to-all busiest
 * channel is only brought down by the rebalance (without it each ends at
 * the figure of its comment): at most what it reached when this was
 * written, within 2 SL layers.
 */
START_TEST(test_rebalanced_busiest)
{
	static const struct busiest_case c[] = {
		/* 10x10 with 4 cuts and a switch missing (random league
		 * meshes): the balanced trees need a third layer, the plan
		 * is rebalanced inside the XY-first plan's 2 layers; limit:
		 * minhop's all-to-all busiest link on the same mesh */
		{ 10, 10, 1, 4, 1, 295988, 409 },	/* 464 */
		{ 10, 10, 1, 4, 1, 124215, 450 },	/* 554 */
		/* 10x10 with 3 cuts and a switch missing: the balanced
		 * plan rebalanced stays higher than the XY-first plan
		 * rebalanced, which is kept (the figure: the balanced
		 * plan rebalanced alone) */
		{ 10, 10, 1, 3, 1, 7, 254 },		/* 259 */
		/* 10x10 with 4 cuts and a switch missing, the faults
		 * close together (seed 53's m40): the XY-first plan
		 * rebalanced reached 439 (minhop 401, dfsssp 319 on 7
		 * VLs); the trees built with their layers, rebalanced */
		{ 10, 10, 1, 4, 1, 4943, 304 },		/* 439 */
	};
	assert_busiest_cases(c, (int)(sizeof(c) / sizeof(c[0])));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("xy_rebalance");
	TCase *tc = tcase_create("damaged");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_rebalanced_busiest);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
