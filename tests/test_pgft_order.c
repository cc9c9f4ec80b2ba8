/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* A PGFT's host order from an order file (lib/fattree/pgft_order.c). */
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "pgft.h"
#include "gen.h"

struct fix {
	struct ibu_fabric f;
	struct ibu_pgft g;
	uint64_t *own;		/* port GUIDs in the engine's own order */
};

static void fix_up(struct fix *x, const char *m, const char *w, const char *p)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = 4 };
	struct ibu_pgft_params P;
	struct ibu_err e = { 0 };
	int D;

	ck_assert_int_eq(ibu_pgft_params_parse(m, w, p, &P, &e), 0);
	ck_assert_int_eq(ibu_gen_pgft(&x->f, &P, 0, 0, &o, &e), 0);
	ck_assert_msg(ibu_pgft_recognize(&x->f, &x->g, &e) == 0, "%s", e.msg);
	x->own = malloc((size_t)x->g.num_hosts * sizeof(*x->own));
	ck_assert_ptr_nonnull(x->own);
	for (D = 0; D < x->g.num_hosts; D++)
		x->own[D] = x->f.nodes[x->g.host[D].node].ports[x->g.host[D].port].guid;
}

static void fix_down(struct fix *x)
{
	free(x->own);
	ibu_pgft_free(&x->g);
	ibu_fabric_free(&x->f);
}

static uint64_t guid_of(const struct fix *x, int D)
{
	return x->f.nodes[x->g.host[D].node].ports[x->g.host[D].port].guid;
}

/* the port map follows the new numbering */
static void assert_map(const struct fix *x)
{
	int D;

	for (D = 0; D < x->g.num_hosts; D++)
		ck_assert_int_eq(ibu_pgft_host(&x->g, x->g.host[D].node,
					       x->g.host[D].port), D);
}

/* A file that keeps sub-trees together (here: the own order reversed,
 * which reverses leaves, pods and hosts alike) is taken exactly. */
START_TEST(consistent_file_kept)
{
	struct ibu_pgft_order_stats st;
	struct ibu_err e = { 0 };
	struct fix x;
	uint64_t *file;
	int D, n;

	fix_up(&x, "4,4,3", "1,4,4", "1,1,1");
	n = x.g.num_hosts;
	file = malloc((size_t)n * sizeof(*file));
	ck_assert_ptr_nonnull(file);
	for (D = 0; D < n; D++)
		file[D] = x.own[n - 1 - D];
	ck_assert_int_eq(ibu_pgft_apply_order(&x.f, &x.g, file, n, &st, &e), 0);
	ck_assert_int_eq(st.listed, n);
	ck_assert_int_eq(st.absent + st.unknown + st.reordered, 0);
	for (D = 0; D < n; D++)
		ck_assert_uint_eq(guid_of(&x, D), file[D]);
	assert_map(&x);
	free(file);
	fix_down(&x);
}
END_TEST

/* An interleaving file: hosts grouped by leaf again, each leaf placed by
 * its first listed host; omitted hosts last in the own order; unknown
 * GUIDs counted. */
START_TEST(interleaved_file_grouped)
{
	struct ibu_pgft_order_stats st;
	struct ibu_err e = { 0 };
	struct fix x;
	uint64_t file[5];
	int D;

	fix_up(&x, "4,6", "1,3", "1,1");
	/* 2nd host of leaf 1, 1st host of leaf 0, an unknown GUID, 1st of
	 * leaf 1: leaf 1 comes first, its hosts in file order */
	file[0] = x.own[5];
	file[1] = x.own[0];
	file[2] = 0xdeadbeefull;
	file[3] = x.own[4];
	file[4] = x.own[1];
	ck_assert_int_eq(ibu_pgft_apply_order(&x.f, &x.g, file, 5, &st, &e), 0);
	ck_assert_int_eq(st.listed, 4);
	ck_assert_int_eq(st.unknown, 1);
	ck_assert_int_eq(st.absent, x.g.num_hosts - 4);
	ck_assert_int_ge(st.reordered, 1);
	ck_assert_uint_eq(guid_of(&x, 0), x.own[5]);
	ck_assert_uint_eq(guid_of(&x, 1), x.own[4]);
	ck_assert_uint_eq(guid_of(&x, 2), x.own[6]);	/* rest of leaf 1 */
	ck_assert_uint_eq(guid_of(&x, 3), x.own[7]);
	ck_assert_uint_eq(guid_of(&x, 4), x.own[0]);	/* then leaf 0 */
	ck_assert_uint_eq(guid_of(&x, 5), x.own[1]);
	ck_assert_uint_eq(guid_of(&x, 6), x.own[2]);
	for (D = 8; D < x.g.num_hosts; D++)	/* the other leaves as before */
		ck_assert_uint_eq(guid_of(&x, D), x.own[D]);
	assert_map(&x);
	fix_down(&x);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pgft_order");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, consistent_file_kept);
	tcase_add_test(tc, interleaved_file_grouped);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
