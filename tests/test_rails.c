/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Rails learnt from node descriptions (lib/core/rails.c). */
#include "unit.h"
#include "rails.h"

/* servers by host part, rails by device rank (mlx5_9 before mlx5_10),
 * whatever order the HCAs come in */
START_TEST(servers_and_rails)
{
	static const char *const names[] = {
		"gpu2 mlx5_10", "gpu1 mlx5_0", "gpu2 mlx5_9", "gpu1 mlx5_10",
		"gpu1 mlx5_9", "gpu2 mlx5_0",
	};
	static const int server[] = { 0, 1, 0, 1, 1, 0 };
	static const int rail[] = { 2, 0, 1, 2, 1, 0 };
	static const int major[] = { 1, 5, 2, 4, 0, 3 };
	struct ibu_rails r;
	struct ibu_err e = { 0 };
	int out[6], i;

	ck_assert_int_eq(ibu_rails_learn(names, 6, &r, &e), 0);
	ck_assert_int_eq(r.num_servers, 2);
	ck_assert_int_eq(r.num_rails, 3);
	for (i = 0; i < 6; i++) {
		ck_assert_int_eq(r.server[i], server[i]);
		ck_assert_int_eq(r.rail[i], rail[i]);
	}
	ck_assert_int_eq(r.first[0], 0);
	ck_assert_int_eq(r.first[1], 1);
	ck_assert_int_eq(ibu_rails_major(&r, 6, out), 6);
	for (i = 0; i < 6; i++)
		ck_assert_int_eq(out[i], major[i]);
	ibu_rails_free(&r);
}
END_TEST

/* a name without a device part is a server with one HCA (rail 0) */
START_TEST(plain_names)
{
	static const char *const names[] = { "a", "b", "a mlx5_1" };
	struct ibu_rails r;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_rails_learn(names, 3, &r, &e), 0);
	ck_assert_int_eq(r.num_servers, 2);
	ck_assert_int_eq(r.server[2], 0);
	ck_assert_int_eq(r.rail[0], 0);
	ck_assert_int_eq(r.rail[2], 1);
	ibu_rails_free(&r);
	ck_assert_int_eq(ibu_rails_learn(names, 0, &r, &e), 0);
	ck_assert_int_eq(r.num_servers, 0);
	ibu_rails_free(&r);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("rails");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, servers_and_rails);
	tcase_add_test(tc, plain_names);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
