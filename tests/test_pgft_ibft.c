/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * An IBFT's LIDs on the cyclic engine's one path (lib/fattree/pgft_ibft.h
 * through lib/fattree/cyclic_pgft.h): the LMC the paper needs, the
 * paper's LID sets ([Zhou07] sect. 3.1) and their aligned shift, the LID
 * space, the guid2lid file OpenSM reads, LID owners.
 */
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "gen.h"
#include "cyclic_util.h"
#include "guid2lid.h"
#include "ibft_view.h"

START_TEST(needed_lmc_and_digits)
{
	ck_assert_int_eq(needed_lmc(4, 3), 2);
	ck_assert_int_eq(needed_lmc(8, 3), 4);
	ck_assert_int_eq(needed_lmc(8, 2), 2);
	ck_assert_int_eq(needed_lmc(6, 2), 2);	/* 3 paths */
	ck_assert_int_eq(needed_lmc(6, 3), 4);	/* 9 paths */
	ck_assert_int_eq(needed_lmc(16, 3), 6);
	ck_assert_int_eq(needed_lmc(32, 3), 8);	/* beyond IBA's 7 */
	ck_assert_int_eq(offset_digits(2, 3, 2), 2);
	ck_assert_int_eq(offset_digits(4, 3, 2), 1);
	ck_assert_int_eq(offset_digits(4, 3, 4), 2);
	ck_assert_int_eq(offset_digits(4, 3, 7), 2);	/* capped at n-1 */
	ck_assert_int_eq(offset_digits(3, 2, 1), 0);	/* 2 < 3 */
	ck_assert_int_eq(offset_digits(3, 3, 4), 2);
}
END_TEST

/* The largest LMC <= want whose paper numbering fits the LID space. */
static int fit_lmc(const struct ibu_fabric *f, int want, enum lid_numbering how)
{
	struct ibu_cyclic_pgft *c;
	struct ibu_err e = { 0 };
	int fit;

	ck_assert_int_eq(one_path(f, IBU_CYCLIC_PAPER, &c, &e), 0);
	ck_assert_ptr_nonnull(c->ibft);
	fit = ibu_pgft_ibft_fit_lmc(c->ibft, want, how == LIDS_PAPER_EXACT);
	ibu_cyclic_pgft_free(c);
	return fit;
}

static void setup(struct ibu_fabric *f, struct ibft_view *t, int m, int n)
{
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_gen_fattree(f, m, n, NULL, &e), 0);
	ck_assert_int_eq(ibft_view_recognize(f, t, &e), 0);
}

/* Paper Fig. 4: BaseLID(P(300)) = 49, LIDset(P(300)) = {49, 50, 51, 52}. */
START_TEST(paper_lidset_p300)
{
	struct ibu_fabric f;
	struct ibft_view t;
	struct lidplan p;
	struct ibu_err e = { 0 };
	int pid = 3 * 4, node, port, o;

	setup(&f, &t, 4, 3);
	ck_assert_int_eq(paper_lids(&f, 2, LIDS_PAPER_EXACT, &e), 0);
	ck_assert_int_eq(t.ep[pid].p[0], 3);
	node = t.ep[pid].node;
	port = t.ep[pid].port;
	ck_assert_int_eq(f.nodes[node].ports[port].lid, 49);
	ck_assert_int_eq(f.nodes[node].ports[port].lmc, 2);
	ck_assert_int_eq(lidplan_build(&f, &p, &e), 0);
	for (o = 0; o < 4; o++) {
		ck_assert_int_eq(p.map.owner[49 + o].node, node);
		ck_assert_int_eq(p.map.owner[49 + o].port, port);
		ck_assert_int_eq(p.map.owner[49 + o].offset, o);
	}
	ck_assert_int_ne(p.map.owner[53].node, node);
	/* P(200) = PID 8 -> 33 (path Q's LID) */
	ck_assert_int_eq(p.map.owner[33].node, t.ep[8].node);
	ck_assert_int_eq(p.lmc, 2);
	ck_assert_int_eq(p.lmc_needed, 2);
	ck_assert_int_eq(p.offset_digits, 2);
	/* 16 end ports x 4 LIDs, then 20 switch LIDs 65..84 */
	ck_assert_uint_eq(p.map.max_lid, 84);
	ck_assert_int_ge(p.map.owner[65].node, 0);
	ck_assert(ibu_node_is_switch(&f.nodes[p.map.owner[65].node]));
	lidplan_free(&p);
	ibft_view_free(&t);
	ibu_fabric_free(&f);
}
END_TEST

/* The aligned numbering OpenSM accepts keeps order and sets: 2^lmc (PID+1). */
START_TEST(aligned_numbering)
{
	struct ibu_fabric f;
	struct ibft_view t;
	struct ibu_err e = { 0 };
	uint32_t pid;

	setup(&f, &t, 8, 3);
	ck_assert_int_eq(paper_lids(&f, 4, LIDS_ALIGNED, &e), 0);
	for (pid = 0; pid < (uint32_t)t.num_endports; pid++) {
		const struct ibu_port *pt = &f.nodes[t.ep[pid].node].ports[t.ep[pid].port];

		ck_assert_uint_eq(pt->lid, (pid + 1) * 16);
		ck_assert_uint_eq(pt->lid % 16, 0);
	}
	ck_assert_uint_eq(paper_base(12, 2, LIDS_ALIGNED), 52);
	ck_assert_uint_eq(paper_base(12, 2, LIDS_PAPER_EXACT), 49);
	ibft_view_free(&t);
	ibu_fabric_free(&f);
}
END_TEST

/* A damaged IBFT keeps the paper's LIDs in the default mode too, so a
 * cut does not renumber what `ibunion route` assigns. */
START_TEST(damaged_keeps_paper_lids)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .remove_links = 2, .seed = 4 };
	struct ibu_fabric f;
	struct ibft_view t;
	struct ibu_cyclic_pgft *c;
	struct ibu_err e = { 0 };
	int used, n = 0;
	uint32_t pid;

	ck_assert_int_eq(ibu_gen_fattree(&f, 8, 3, &o, &e), 0);
	ck_assert_msg(ibft_view_recognize_limit(&f, &t, 4, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(t.num_faults, 2);
	ck_assert_msg(one_path(&f, IBU_CYCLIC_GENERALISED, &c, &e) == 0, "%s",
		      e.msg);
	ck_assert_int_eq(c->g.num_faults, 2);
	ck_assert_int_eq(ibu_cyclic_pgft_assign_lids(&f, c, 4, 0, &used, &e), 0);
	ck_assert_int_eq(used, 4);
	for (pid = 0; pid < (uint32_t)t.num_endports; pid++) {
		if (t.ep[pid].node < 0)
			continue;
		ck_assert_uint_eq(f.nodes[t.ep[pid].node].ports[t.ep[pid].port].lid,
				  (pid + 1) * 16);
		n++;
	}
	ck_assert_int_eq(n, 128);
	ibu_cyclic_pgft_free(c);
	ibft_view_free(&t);
	ibu_fabric_free(&f);
}
END_TEST

START_TEST(lid_space_limit)
{
	struct ibu_fabric f;
	struct ibft_view t;
	struct ibu_err e = { 0 };

	/* IBFT(32,2): 512 end ports; LMC 7 needs 65k LIDs */
	setup(&f, &t, 32, 2);
	ck_assert_int_eq(paper_lids(&f, 7, LIDS_ALIGNED, &e),
			 IBU_ELID);
	ck_assert_ptr_nonnull(strstr(e.msg, "0xBFFF"));
	ck_assert_int_eq(fit_lmc(&f, 7, LIDS_ALIGNED), 6);
	ck_assert_int_eq(paper_lids(&f, 6, LIDS_ALIGNED, &e), 0);
	ck_assert_int_eq(paper_lids(&f, 8, LIDS_ALIGNED, &e),
			 IBU_EINVAL);
	ibft_view_free(&t);
	ibu_fabric_free(&f);
}
END_TEST

START_TEST(guid2lid_format)
{
	struct ibu_fabric f;
	struct ibft_view t;
	struct ibu_err e = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	setup(&f, &t, 4, 2);
	ck_assert_int_eq(paper_lids(&f, 1, LIDS_ALIGNED, &e), 0);
	out = open_memstream(&buf, &len);
	ck_assert_int_eq(ibu_guid2lid_write(out, &f, &e), 0);
	fclose(out);
	/* first record: hca-0.0 (GUID 0x100000, port GUID 0x100001), PID 0 */
	ck_assert_ptr_nonnull(strstr(buf, "0x0000000000100001 0x0002 0x0003\n\n"));
	/* 8 end ports + 6 switches, each record followed by a blank line */
	{
		int recs = 0;
		const char *c;

		for (c = buf; (c = strstr(c, "\n\n")); c += 2)
			recs++;
		ck_assert_int_eq(recs, 14);
	}
	free(buf);
	ibft_view_free(&t);
	ibu_fabric_free(&f);
}
END_TEST

START_TEST(owner_conflict)
{
	struct ibu_fabric f;
	struct ibft_view t;
	struct lidplan p;
	struct ibu_err e = { 0 };

	setup(&f, &t, 4, 2);
	ck_assert_int_eq(paper_lids(&f, 1, LIDS_ALIGNED, &e), 0);
	/* two ports claim LID 2 */
	f.nodes[t.ep[1].node].ports[t.ep[1].port].lid = 2;
	ck_assert_int_eq(lidplan_build(&f, &p, &e), IBU_ELID);
	ck_assert_ptr_nonnull(strstr(e.msg, "0x0002"));
	ibft_view_free(&t);
	ibu_fabric_free(&f);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pgft_ibft");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, needed_lmc_and_digits);
	tcase_add_test(tc, paper_lidset_p300);
	tcase_add_test(tc, aligned_numbering);
	tcase_add_test(tc, damaged_keeps_paper_lids);
	tcase_add_test(tc, lid_space_limit);
	tcase_add_test(tc, guid2lid_format);
	tcase_add_test(tc, owner_conflict);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
