/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include "mesh_util.h"
#include "netfile.h"

static void recognise_gen(int X, int Y, int hcas, const struct ibu_gen_opts *o,
			  int same_axes)
{
	struct ibu_fabric f;
	struct ibu_mesh t;
	struct ibu_err e = { 0 };
	int rc, x, y;

	ck_assert_int_eq(ibu_gen_mesh(&f, X, Y, hcas, o, &e), 0);
	rc = ibu_mesh_recognize(&f, &t, &e);
	ck_assert_msg(rc == 0, "%dx%d: %s", X, Y, e.msg);
	ck_assert_msg((t.m == X && t.n == Y) || (!same_axes && t.m == Y && t.n == X),
		      "%dx%d recognised as %dx%d", X, Y, t.m, t.n);
	tm_assert_mesh(&f, &t);
	for (x = 0; x < t.num_switches; x++)
		ck_assert_int_eq(t.sw[x].num_eps, hcas);
	if (same_axes)
		for (x = 0; x < X; x++)
			for (y = 0; y < Y; y++) {
				int s = tm_sw_by_name(&f, &t, x, y);

				ck_assert_int_eq(t.sw[s].x, x);
				ck_assert_int_eq(t.sw[s].y, y);
			}
	ibu_mesh_free(&t);
	ibu_fabric_free(&f);
}

START_TEST(test_square_and_not)
{
	static const int dims[][3] = {
		{ 2, 2, 1 }, { 4, 4, 1 }, { 5, 5, 1 }, { 3, 6, 1 }, { 6, 3, 1 },
		{ 2, 7, 1 }, { 16, 16, 1 }, { 4, 4, 2 }, { 3, 5, 0 }, { 3, 3, 3 },
	};
	size_t i;

	for (i = 0; i < sizeof(dims) / sizeof(dims[0]); i++)
		recognise_gen(dims[i][0], dims[i][1], dims[i][2], NULL, 1);
}
END_TEST

START_TEST(test_shuffled)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1 };
	uint64_t seed;

	for (seed = 1; seed <= 6; seed++) {
		o.seed = seed;
		o.shuffle_records = 0;
		/* ports only: GUIDs unchanged, so the same coordinates */
		recognise_gen(5, 5, 1, &o, 1);
		recognise_gen(3, 6, 2, &o, 1);
		o.shuffle_records = 1;
		recognise_gen(4, 4, 1, &o, 0);
		recognise_gen(3, 6, 2, &o, 0);
		recognise_gen(7, 2, 1, &o, 0);
	}
}
END_TEST

/* The orientation depends on GUIDs and links only: the same fabric read
 * back from its net file (another record order would change GUIDs) gives
 * the same coordinates for every node GUID. */
START_TEST(test_canonical_roundtrip)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1, .seed = 9 };
	struct ibu_fabric f, g;
	struct ibu_mesh t, u;
	struct ibu_err e = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int s;

	ck_assert_int_eq(ibu_gen_mesh(&f, 4, 6, 1, &o, &e), 0);
	mem = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(mem);
	ck_assert_int_eq(ibu_netfile_write(mem, &f, &e), 0);
	fclose(mem);
	mem = fmemopen(buf, len, "r");
	ck_assert_int_eq(ibu_netfile_read_stream(mem, "mem", &g, &e), 0);
	fclose(mem);
	free(buf);
	ck_assert_int_eq(ibu_mesh_recognize(&f, &t, &e), 0);
	ck_assert_int_eq(ibu_mesh_recognize(&g, &u, &e), 0);
	ck_assert_int_eq(t.m, u.m);
	for (s = 0; s < t.num_switches; s++)
		ck_assert_uint_eq(f.nodes[t.sw[s].node].guid,
				  g.nodes[u.sw[s].node].guid);
	/* origin: the corner with the lowest GUID; x toward its lower neighbour */
	for (s = 0; s < t.num_switches; s++) {
		const struct ibu_mesh_switch *w = &t.sw[s];
		int corner = (w->x == 0 || w->x == t.m - 1) &&
			     (w->y == 0 || w->y == t.n - 1);

		if (corner)
			ck_assert_uint_ge(f.nodes[w->node].guid,
					  f.nodes[t.sw[0].node].guid);
	}
	ck_assert_uint_lt(f.nodes[t.sw[ibu_mesh_index(&t, 1, 0)].node].guid,
			  f.nodes[t.sw[ibu_mesh_index(&t, 0, 1)].node].guid);
	ibu_mesh_free(&t);
	ibu_mesh_free(&u);
	ibu_fabric_free(&f);
	ibu_fabric_free(&g);
}
END_TEST

static void assert_rejected(struct ibu_fabric *f, const char *why)
{
	struct ibu_mesh t;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_mesh_recognize(f, &t, &e), IBU_ETOPO);
	ck_assert_msg(strstr(e.msg, "not a 2-D mesh") && strstr(e.msg, why),
		      "want '%s', got '%s'", why, e.msg);
	ibu_fabric_free(f);
}

START_TEST(test_rejections)
{
	struct ibu_fabric f;
	struct ibu_err e = { 0 };

	tm_grid(&f, 4, 4, 1, 1, 1);		/* torus */
	assert_rejected(&f, "0 switches have 2 switch neighbours");
	tm_grid(&f, 4, 3, 1, 0, 1);		/* cylinder */
	assert_rejected(&f, "degrees");
	tm_grid(&f, 6, 1, 1, 0, 1);		/* ring of 6 */
	assert_rejected(&f, "6 switches have 2 switch neighbours");
	ck_assert_int_eq(ibu_gen_fattree(&f, 4, 3, NULL, &e), 0);
	assert_rejected(&f, "");
	ck_assert_int_eq(ibu_gen_fattree(&f, 8, 2, NULL, &e), 0);
	assert_rejected(&f, "");
	tm_grid(&f, 3, 1, 1, 0, 1);		/* ring of 3 */
	assert_rejected(&f, "3 switches");
	tm_grid(&f, 0, 0, 0, 0, 0);		/* nothing */
	assert_rejected(&f, "no switch");
}
END_TEST

/* A line of 3 switches beside a ring of 3: two ends, no switch of more
 * than two neighbours, but not one line. */
static void two_parts(struct ibu_fabric *f)
{
	static const int link[][2] = { { 0, 1 }, { 1, 2 }, { 3, 4 }, { 4, 5 },
				       { 5, 3 } };
	struct ibu_err e = { 0 };
	int sw[6], i;
	char name[16];

	ck_assert_int_eq(ibu_fabric_init(f, "two parts"), 0);
	for (i = 0; i < 6; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		ck_assert_int_eq(ibu_fabric_add_node(f, IBU_NODE_SWITCH, name,
						     0x300 + (uint64_t)i, 8,
						     &sw[i], &e), 0);
	}
	for (i = 0; i < 5; i++)
		ck_assert_int_eq(ibu_fabric_link(f, sw[link[i][0]], 1 + i % 2,
						 sw[link[i][1]], 3 + i % 2, &e), 0);
	ck_assert_int_eq(ibu_fabric_index(f, &e), 0);
}

/* A line of switches is the m x 1 mesh (what the SM sees of a mesh whose
 * faults left it one row): x runs from the end with the lower GUID,
 * whatever the record and port order. */
START_TEST(test_line)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1 };
	struct ibu_fabric f;
	struct ibu_mesh t;
	struct ibu_err e = { 0 };
	char name[16];
	int x, X;

	for (X = 2; X <= 7; X++) {
		tm_grid(&f, X, 1, 0, 0, 2);
		ck_assert_msg(ibu_mesh_recognize(&f, &t, &e) == 0, "%s", e.msg);
		ck_assert_int_eq(t.m, X);
		ck_assert_int_eq(t.n, 1);
		tm_assert_mesh(&f, &t);
		for (x = 0; x < X; x++) {	/* GUIDs rise with x */
			snprintf(name, sizeof(name), "s%d.0", x);
			ck_assert_int_eq(t.sw[x].node,
					 ibu_fabric_find_name(&f, name));
		}
		ibu_mesh_free(&t);
		ibu_fabric_free(&f);
	}
	for (o.seed = 1; o.seed <= 4; o.seed++)
		recognise_gen(1, 6, 2, &o, 0);
	two_parts(&f);
	assert_rejected(&f, "degrees");
}
END_TEST

/* One switch is the 1 x 1 mesh (the subnet an SM sees when faults cut
 * its switch off the rest). */
START_TEST(test_one_switch)
{
	struct ibu_fabric f;
	struct ibu_mesh t;
	struct ibu_err e = { 0 };

	tm_grid(&f, 1, 1, 0, 0, 3);
	ck_assert_msg(ibu_mesh_recognize(&f, &t, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(t.m, 1);
	ck_assert_int_eq(t.n, 1);
	ck_assert_int_eq(t.sw[0].num_eps, 3);
	tm_assert_mesh(&f, &t);
	ibu_mesh_free(&t);
	ibu_fabric_free(&f);
}
END_TEST

START_TEST(test_rejections_damaged)
{
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	int a, b;

	/* a link removed inside: extra corners or wrong distances */
	tm_grid(&f, 4, 4, 0, 0, 1);
	a = ibu_fabric_find_name(&f, "s1.1");
	f.nodes[f.nodes[a].ports[1].peer_node].ports[3].peer_node = -1;
	f.nodes[a].ports[1].peer_node = -1;
	assert_rejected(&f, "");
	/* a diagonal shortcut through two spare ports */
	tm_grid(&f, 4, 4, 0, 0, 1);
	a = ibu_fabric_find_name(&f, "s1.1");
	b = ibu_fabric_find_name(&f, "s2.2");
	ck_assert_int_eq(ibu_fabric_link(&f, a, 7, b, 7, &e), 0);
	assert_rejected(&f, "");
	/* parallel link */
	tm_grid(&f, 3, 3, 0, 0, 1);
	a = ibu_fabric_find_name(&f, "s0.0");
	b = ibu_fabric_find_name(&f, "s1.0");
	ck_assert_int_eq(ibu_fabric_link(&f, a, 7, b, 7, &e), 0);
	assert_rejected(&f, "more than one link");
	/* two meshes side by side */
	{
		struct ibu_gen_opts o = { .prefix = "b-" };
		struct ibu_fabric g;
		int i, idx, p;

		tm_grid(&f, 2, 2, 0, 0, 0);
		ck_assert_int_eq(ibu_gen_mesh(&g, 2, 2, 0, &o, &e), 0);
		for (i = 0; i < g.num_nodes; i++)
			ck_assert_int_eq(ibu_fabric_add_node(&f, g.nodes[i].type,
				g.nodes[i].name, 0x300000 + i, g.nodes[i].num_ports,
				&idx, &e), 0);
		for (i = 0; i < g.num_nodes; i++)
			for (p = 1; p <= g.nodes[i].num_ports; p++)
				if (g.nodes[i].ports[p].peer_node > i)
					ck_assert_int_eq(ibu_fabric_link(&f, 4 + i, p,
						4 + g.nodes[i].ports[p].peer_node,
						g.nodes[i].ports[p].peer_port, &e), 0);
		ibu_fabric_free(&g);
		assert_rejected(&f, "8 switches have 2");
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("mesh");
	TCase *tc = tcase_create("recognition");

	tcase_add_test(tc, test_square_and_not);
	tcase_add_test(tc, test_shuffled);
	tcase_add_test(tc, test_canonical_roundtrip);
	tcase_add_test(tc, test_rejections);
	tcase_add_test(tc, test_one_switch);
	tcase_add_test(tc, test_line);
	tcase_add_test(tc, test_rejections_damaged);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
