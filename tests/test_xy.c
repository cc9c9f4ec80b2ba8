/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include "mesh_util.h"
#include "lidmap.h"
#include "verify.h"
#include "xy.h"

struct xyfix {
	struct ibu_fabric f;
	struct ibu_mesh t;
	struct ibu_lidmap map;
	struct ibu_lft lft;
};

static void fix_up(struct xyfix *x, int X, int Y, int hcas,
		   const struct ibu_gen_opts *o, int lmc)
{
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_gen_mesh(&x->f, X, Y, hcas, o, &e), 0);
	ck_assert_int_eq(ibu_mesh_recognize(&x->f, &x->t, &e), 0);
	ck_assert_int_eq(ibu_xy_assign_lids(&x->f, &x->t, lmc, 0, &e), 0);
	ck_assert_int_eq(ibu_lidmap_build(&x->f, &x->map, &e), 0);
	ck_assert_int_eq(ibu_lft_init(&x->lft, &x->f, x->map.max_lid, &e), 0);
	ck_assert_msg(ibu_xy_route(&x->f, &x->t, &x->map, &x->lft, &e) == 0,
		      "%s", e.msg);
}

static void fix_down(struct xyfix *x)
{
	ibu_lft_free(&x->lft);
	ibu_lidmap_free(&x->map);
	ibu_mesh_free(&x->t);
	ibu_fabric_free(&x->f);
}

/* LID of the single HCA of N(x,y) */
static uint32_t hca_lid(const struct xyfix *x, int sx, int sy)
{
	const struct ibu_mesh_switch *w = &x->t.sw[ibu_mesh_index(&x->t, sx, sy)];
	const struct ibu_mesh_endport *ep = &x->t.ep[w->first_ep];

	return x->f.nodes[ep->node].ports[ep->port].lid;
}

static int dir_of(const struct xyfix *x, int sx, int sy, uint32_t lid)
{
	int s = ibu_mesh_index(&x->t, sx, sy);
	uint8_t p = ibu_lft_get(&x->lft, x->t.sw[s].node, lid);

	return ibu_mesh_port_dir(&x->t, x->t.sw[s].node, p);
}

/* [Zhou10] sect. 3.1 and 3.3.1 on the 5x5 mesh of Fig. 7 and 9. */
START_TEST(test_paper_cases)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .seed = 3 };
	struct xyfix x;
	int sx, sy;

	fix_up(&x, 5, 5, 1, &o, 0);
	/* lid = x * n + y + 1 */
	for (sx = 0; sx < 5; sx++)
		for (sy = 0; sy < 5; sy++)
			ck_assert_uint_eq(hca_lid(&x, sx, sy), (uint32_t)(sx * 5 + sy + 1));
	ck_assert_uint_eq(hca_lid(&x, 0, 3), 4);
	ck_assert_uint_eq(hca_lid(&x, 0, 4), 5);
	ck_assert_uint_eq(hca_lid(&x, 3, 3), 19);
	ck_assert_uint_eq(hca_lid(&x, 4, 0), 21);
	ck_assert_uint_eq(hca_lid(&x, 4, 2), 23);
	/* the worked example: N(2,2) -> N(0,3) (lid 4): case 2, case 2, case 3 */
	ck_assert_int_eq(dir_of(&x, 2, 2, 4), IBU_DIR_W);
	ck_assert_int_eq(dir_of(&x, 1, 2, 4), IBU_DIR_W);
	ck_assert_int_eq(dir_of(&x, 0, 2, 4), IBU_DIR_N);
	ck_assert_int_eq(dir_of(&x, 0, 3, 4), IBU_DIR_LOCAL);
	/* case 1: east; case 4: south */
	ck_assert_int_eq(dir_of(&x, 2, 2, 19), IBU_DIR_E);
	ck_assert_int_eq(dir_of(&x, 3, 2, 19), IBU_DIR_N);
	ck_assert_int_eq(dir_of(&x, 2, 2, 21), IBU_DIR_E);
	ck_assert_int_eq(dir_of(&x, 4, 2, 21), IBU_DIR_S);
	ck_assert_int_eq(dir_of(&x, 4, 1, 21), IBU_DIR_S);
	ck_assert_int_eq(dir_of(&x, 0, 4, 4), IBU_DIR_S);
	/* every entry: the paper's four cases with the row stride n */
	for (sx = 0; sx < 5; sx++)
		for (sy = 0; sy < 5; sy++) {
			uint32_t lid;

			for (lid = 1; lid <= 25; lid++) {
				int dx = (int)(lid - 1) / 5, dy = (int)(lid - 1) % 5;
				int want = dx > sx ? IBU_DIR_E : dx < sx ? IBU_DIR_W :
					   dy > sy ? IBU_DIR_N : dy < sy ? IBU_DIR_S :
					   IBU_DIR_LOCAL;

				ck_assert_int_eq(dir_of(&x, sx, sy, lid), want);
			}
		}
	fix_down(&x);
}
END_TEST

/* Non-square: the row stride is n (errata), 4x4 example lid of N(3,2). */
START_TEST(test_row_stride)
{
	struct xyfix x;
	int sx, sy;

	fix_up(&x, 3, 6, 1, NULL, 0);
	ck_assert_int_eq(x.t.m, 3);
	ck_assert_int_eq(x.t.n, 6);
	for (sx = 0; sx < 3; sx++)
		for (sy = 0; sy < 6; sy++)
			ck_assert_uint_eq(hca_lid(&x, sx, sy), (uint32_t)(sx * 6 + sy + 1));
	/* switch LIDs follow the end ports */
	ck_assert_uint_eq(x.f.nodes[x.t.sw[0].node].ports[0].lid, 19);
	fix_down(&x);
	fix_up(&x, 4, 4, 1, NULL, 0);
	ck_assert_uint_eq(hca_lid(&x, 3, 2), 15);
	fix_down(&x);
}
END_TEST

/* Every route from every switch to every LID: X first, then Y, minimal. */
static void walk_all(const struct xyfix *x)
{
	uint32_t lid;
	int s;

	for (lid = 1; lid <= x->map.max_lid; lid++) {
		const struct ibu_lid_owner *o = ibu_lidmap_get(&x->map, lid);
		int dst, last;

		if (!o)
			continue;
		dst = ibu_xy_owner_switch(&x->t, o, &last);
		ck_assert_int_ge(dst, 0);
		for (s = 0; s < x->t.num_switches; s++) {
			int cur = s, hops = 0, seen_y = 0;

			for (;;) {
				int node = x->t.sw[cur].node;
				uint8_t p = ibu_lft_get(&x->lft, node, lid);
				int d = ibu_mesh_port_dir(&x->t, node, p);

				if (d == IBU_DIR_LOCAL) {
					ck_assert_int_eq(cur, dst);
					ck_assert_int_eq(p, last);
					break;
				}
				ck_assert_int_ge(d, 0);
				if (d == IBU_DIR_N || d == IBU_DIR_S)
					seen_y = 1;
				else
					ck_assert_msg(!seen_y, "X after Y");
				cur = ibu_mesh_neighbour(&x->t, cur, d);
				ck_assert_int_ge(cur, 0);
				hops++;
			}
			ck_assert_int_eq(hops, abs(x->t.sw[s].x - x->t.sw[dst].x) +
					 abs(x->t.sw[s].y - x->t.sw[dst].y));
		}
	}
}

START_TEST(test_walk_lmc_hcas)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1, .seed = 5 };
	struct ibu_verify_opts vo = { .max_errors = -1, .quiet = 1 };
	struct ibu_verify_result r;
	struct ibu_err e = { 0 };
	struct xyfix x;

	fix_up(&x, 4, 6, 2, &o, 2);
	walk_all(&x);
	ck_assert_int_eq(ibu_verify_lft(&x.f, &x.lft, &vo, NULL, NULL, &r, &e), 0);
	ck_assert_int_eq(ibu_verify_problems(&r), 0);
	ck_assert_int_eq(r.sources, 48);
	ck_assert_int_eq(r.lids, 48 * 4 + 24);
	fix_down(&x);
}
END_TEST

static void count_mm(void *ctx, const struct ibu_xy_mismatch *mm)
{
	(void)mm;
	(*(int *)ctx)++;
}

START_TEST(test_verify)
{
	struct xyfix x;
	struct ibu_err e = { 0 };
	long entries, bad;
	int seen = 0, node;

	fix_up(&x, 3, 4, 1, NULL, 0);
	ck_assert_int_eq(ibu_xy_verify(&x.t, &x.map, &x.lft, count_mm, &seen,
				       &entries, &bad, &e), 0);
	ck_assert_int_eq(bad, 0);
	ck_assert_int_eq(entries, 12 * 24);
	node = x.t.sw[ibu_mesh_index(&x.t, 1, 1)].node;
	/* YX instead of XY toward N(2,3) */
	x.lft.row[node][hca_lid(&x, 2, 3)] =
		(uint8_t)x.t.sw[ibu_mesh_index(&x.t, 1, 1)].port[IBU_DIR_N];
	ck_assert_int_eq(ibu_xy_verify(&x.t, &x.map, &x.lft, count_mm, &seen,
				       &entries, &bad, &e), 0);
	ck_assert_int_eq(bad, 1);
	ck_assert_int_eq(seen, 1);
	fix_down(&x);
}
END_TEST

/* The 1 x 1 mesh (one switch): every end port's LID leaves by its own
 * port, and the tables pass the XY check. */
START_TEST(test_one_switch)
{
	struct xyfix x;
	struct ibu_err e = { 0 };
	long entries, bad;
	int seen = 0, i;

	fix_up(&x, 1, 1, 3, NULL, 1);
	for (i = 0; i < x.t.num_endports; i++) {
		const struct ibu_mesh_endport *ep = &x.t.ep[i];
		uint32_t lid = x.f.nodes[ep->node].ports[ep->port].lid;

		ck_assert_int_eq(ibu_lft_get(&x.lft, x.t.sw[0].node, lid),
				 ep->sw_port);
		ck_assert_int_eq(ibu_lft_get(&x.lft, x.t.sw[0].node, lid + 1),
				 ep->sw_port);
	}
	ck_assert_int_eq(ibu_xy_verify(&x.t, &x.map, &x.lft, count_mm, &seen,
				       &entries, &bad, &e), 0);
	ck_assert_int_eq(bad, 0);
	ck_assert_int_gt(entries, 0);
	fix_down(&x);
}
END_TEST

/* The m x 1 mesh (a line of switches, ports and records shuffled):
 * every LID is reached along the line, each hop toward it, and the
 * tables pass the XY check. */
START_TEST(test_line)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = 5 };
	struct xyfix x;
	struct ibu_err e = { 0 };
	long entries, bad;
	int seen = 0, a, b, d;

	fix_up(&x, 1, 5, 2, &o, 1);
	ck_assert_int_eq(x.t.m, 5);
	ck_assert_int_eq(x.t.n, 1);
	for (a = 0; a < 5; a++)
		for (b = 0; b < 5; b++) {
			d = dir_of(&x, a, 0, hca_lid(&x, b, 0));
			ck_assert_int_eq(d, a < b ? IBU_DIR_E :
					 a > b ? IBU_DIR_W : IBU_DIR_LOCAL);
		}
	ck_assert_int_eq(ibu_xy_verify(&x.t, &x.map, &x.lft, count_mm, &seen,
				       &entries, &bad, &e), 0);
	ck_assert_int_eq(bad, 0);
	ck_assert_int_eq(seen, 0);
	ck_assert_int_gt(entries, 0);
	fix_down(&x);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("xy");
	TCase *tc = tcase_create("unicast");

	tcase_add_test(tc, test_paper_cases);
	tcase_add_test(tc, test_row_stride);
	tcase_add_test(tc, test_walk_lmc_hcas);
	tcase_add_test(tc, test_verify);
	tcase_add_test(tc, test_one_switch);
	tcase_add_test(tc, test_line);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
