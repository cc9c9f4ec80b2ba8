/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Multicast member files (lib/io/mcmembers.c): ibunion's own form and
 * saquery's, written and read back, bad input named by file and line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "unit.h"
#include "mcmembers.h"
#include "net_util.h"

/* Members read from text, the messages naming it name. */
static int read_members(const char *text, const char *name,
			const struct ibu_fabric *f, struct ibu_mcmembers *mm,
			struct ibu_err *e)
{
	FILE *io = fmemopen((void *)text, strlen(text), "r");
	int rc;

	ck_assert_ptr_nonnull(io);
	rc = ibu_mcmembers_read_stream(io, name, f, mm, e);
	fclose(io);
	return rc;
}

START_TEST(member_files)
{
	static const char text[] =
		"# joins\n"
		"0xc001 0x0000000000100001 full   # Hca1 by port GUID\n"
		"0xc001 Hca2 send-only\n"
		"0xc001 Hca2\n"
		"49154 Switch1 send-only\n"
		"0xc002 Hca3 port=1\n";
	static const char *const bad[] = {
		"0xc001\n", "0xbfff Hca1\n", "0xc001 NoSuchNode\n",
		"0xc001 Hca1 port=3\n", "0xc001 Hca1 maybe\n",
		"0xc001 Switch1 port=3\n",
		/* hostile input: no records; a number that is not one */
		"", "# nothing but a comment\n", "0xc001 Hca1 port=\n",
		"+0xc001 Hca1\n",
	};
	struct ibu_fabric f;
	struct ibu_mcmembers mm, back;
	const struct ibu_mcgroup *g;
	struct ibu_err e = { 0 };
	char *buf = NULL;
	size_t len = 0, i;
	FILE *io;

	load_net("2sw2path4hca.net", &f);
	ck_assert_msg(read_members(text, "m", &f, &mm, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(mm.num_groups, 2);
	g = ibu_mcmembers_find(&mm, 0xc001);
	ck_assert_int_eq(g->num, 2);
	ck_assert_int_eq(g->m[0].node, ibu_fabric_find_name(&f, "Hca1"));
	ck_assert_int_eq(g->m[0].port, 1);
	ck_assert_int_eq(g->m[1].send_only, 0);	/* full wins */
	g = ibu_mcmembers_find(&mm, 0xc002);
	ck_assert_int_eq(g->num, 2);
	ck_assert_int_eq(g->m[0].port, 0);	/* the switch */
	ck_assert_int_eq(g->m[0].send_only, 1);
	ck_assert_ptr_null(ibu_mcmembers_find(&mm, 0xc003));

	io = open_memstream(&buf, &len);
	ck_assert_int_eq(ibu_mcmembers_write(io, &f, &mm, &e), 0);
	fclose(io);
	ck_assert_msg(read_members(buf, "back", &f, &back, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(back.num_groups, 2);
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(back.g[i].num, mm.g[i].num);
		ck_assert(!memcmp(back.g[i].m, mm.g[i].m,
				  mm.g[i].num * sizeof(*mm.g[i].m)));
	}
	free(buf);
	ibu_mcmembers_free(&back);
	ibu_mcmembers_free(&mm);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(read_members(bad[i], "bad", &f, &mm, &e) < 0,
			      "case %zu", i);
		ck_assert_msg(!strncmp(e.msg, "bad:1:", 6), "case %zu: %s", i, e.msg);
	}
	ibu_fabric_free(&f);
}
END_TEST

/* One block of `saquery -m --smkey KEY` output for a port GUID. */
static void sa_block(FILE *out, unsigned mlid, uint64_t guid, unsigned state)
{
	fprintf(out, "MCMemberRecord member dump:\n"
		"\t\tMGID....................ff12:601b:ffff::1\n"
		"\t\tMlid....................0x%X\n"
		"\t\tPortGid.................fe80:0:0:0:%x:%x:%x:%x\n"
		"\t\tScopeState..............0x%X\n"
		"\t\tProxyJoin...............0x0\n"
		"\t\tNodeDescription.........<unknown>\n", mlid,
		(unsigned)(guid >> 48 & 0xffff), (unsigned)(guid >> 32 & 0xffff),
		(unsigned)(guid >> 16 & 0xffff), (unsigned)(guid & 0xffff), state);
}

/* saquery -m output is a members file (join state from
 * ScopeState: full and non-member receive, send-only does not). */
START_TEST(saquery_members)
{
	static const char *const bad[] = {
		/* without --smkey OpenSM hides the PortGID */
		"MCMemberRecord member dump:\n\t\tMlid....................0xC001\n"
		"\t\tPortGid.................::\n\t\tScopeState..............0x0\n",
		"MCMemberRecord member dump:\n\t\tMlid....................0xC001\n",
		"MCMemberRecord member dump:\n\t\tMlid....................0xBFFF\n",
		"MCMemberRecord member dump:\n\t\tPortGid.................fe80::zz\n",
		"MCMemberRecord member dump:\n\t\tMlid....................0xC001\n"
		"\t\tPortGid.................fe80::dead:beef\n",
		/* saquery -m MLID: PortGid lines only */
		"\t\tPortGid.................fe80::10:1 (hca-0.0.0)\n",
		"MCMemberRecord group dump:\n",
	};
	struct ibu_fabric f;
	struct ibu_mcmembers mm;
	const struct ibu_mcgroup *g;
	struct ibu_err e = { 0 };
	int h1, h2, h3, h4;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *io;

	load_net("2sw2path4hca.net", &f);
	h1 = ibu_fabric_find_name(&f, "Hca1");
	h2 = ibu_fabric_find_name(&f, "Hca2");
	h3 = ibu_fabric_find_name(&f, "Hca3");
	h4 = ibu_fabric_find_name(&f, "Hca4");
	io = open_memstream(&buf, &len);
	sa_block(io, 0xC001, f.nodes[h3].ports[1].guid, 0x4);	/* send-only */
	sa_block(io, 0xC001, f.nodes[h1].ports[1].guid, 0x1);	/* full */
	sa_block(io, 0xC002, f.nodes[h2].ports[1].guid, 0x2);	/* non-member */
	sa_block(io, 0xC002, f.nodes[h4].ports[1].guid, 0x8);	/* send-only full */
	fclose(io);
	ck_assert_msg(read_members(buf, "sa", &f, &mm, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(mm.num_groups, 2);
	g = ibu_mcmembers_find(&mm, 0xc001);
	ck_assert_int_eq(g->num, 2);
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(g->m[i].port, 1);
		ck_assert_int_eq(g->m[i].send_only, g->m[i].node == h3);
	}
	g = ibu_mcmembers_find(&mm, 0xc002);
	ck_assert_int_eq(g->num, 2);
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(g->m[i].send_only, g->m[i].node == h4);
	ibu_mcmembers_free(&mm);
	free(buf);

	/* saquery MCMR --smkey KEY: mlid and JoinState fields */
	io = open_memstream(&buf, &len);
	fprintf(io, "MCMember Record dump:\n"
		"\t\tMGID....................ff12:601b:ffff::1\n"
		"\t\tPortGid.................fe80::%x:%x\n"
		"\t\tqkey....................0x0\n"
		"\t\tmlid....................0xc003\n"
		"\t\tJoinState...............0x4\n",
		(unsigned)(f.nodes[h2].ports[1].guid >> 16 & 0xffff),
		(unsigned)(f.nodes[h2].ports[1].guid & 0xffff));
	fclose(io);
	ck_assert_msg(read_members(buf, "sa", &f, &mm, &e) == 0, "%s", e.msg);
	g = ibu_mcmembers_find(&mm, 0xc003);
	ck_assert_int_eq(g->num, 1);
	ck_assert_int_eq(g->m[0].node, h2);
	ck_assert_int_eq(g->m[0].send_only, 1);
	ibu_mcmembers_free(&mm);
	free(buf);
	buf = NULL;
	len = 0;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(read_members(bad[i], "sa", &f, &mm, &e) < 0, "case %zu", i);
		ck_assert_msg(!strncmp(e.msg, "sa:", 3), "case %zu: %s", i, e.msg);
	}
	ck_assert_msg(read_members(bad[0], "sa", &f, &mm, &e) < 0, "PortGid ::");
	ck_assert_msg(strstr(e.msg, "--smkey"), "%s", e.msg);
	ibu_fabric_free(&f);
}
END_TEST

/* Members added in any order: groups sorted by MLID, a repeated port
 * merged (receiving wins, in either order), a bad record after good ones
 * named by the file's path and its own line. */
START_TEST(merge_order_and_line)
{
	static const char text[] =
		"0xc002 Hca1\n"
		"# a comment\n"
		"0xc001 Hca2 send-only\n"
		"0xc001 Hca9\n";
	char path[] = "/tmp/test_mcmembers.XXXXXX", want[64];
	struct ibu_mcast_member a = { 3, 1, 1 }, b = { 3, 1, 0 }, c = { 4, 1, 1 };
	struct ibu_mcmembers mm;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	const struct ibu_mcgroup *g;

	ibu_mcmembers_init(&mm);
	ck_assert_int_eq(ibu_mcmembers_add(&mm, 0xc005, &a, &e), 0);
	ck_assert_int_eq(ibu_mcmembers_add(&mm, 0xc001, &b, &e), 0);
	ck_assert_int_eq(ibu_mcmembers_add(&mm, 0xc003, &c, &e), 0);
	ck_assert_int_eq(ibu_mcmembers_add(&mm, 0xc001, &a, &e), 0);
	ck_assert_int_eq(ibu_mcmembers_add(&mm, 0xc005, &b, &e), 0);
	ck_assert_int_eq(mm.num_groups, 3);
	ck_assert_int_eq(mm.g[0].mlid, 0xc001);
	ck_assert_int_eq(mm.g[1].mlid, 0xc003);
	ck_assert_int_eq(mm.g[2].mlid, 0xc005);
	g = ibu_mcmembers_find(&mm, 0xc001);
	ck_assert_int_eq(g->num, 1);
	ck_assert_int_eq(g->m[0].send_only, 0);
	g = ibu_mcmembers_find(&mm, 0xc005);
	ck_assert_int_eq(g->num, 1);
	ck_assert_int_eq(g->m[0].send_only, 0);
	g = ibu_mcmembers_find(&mm, 0xc003);
	ck_assert_int_eq(g->num, 1);
	ck_assert_int_eq(g->m[0].send_only, 1);
	ibu_mcmembers_free(&mm);

	load_net("2sw2path4hca.net", &f);
	unit_write_temp(path, text);
	ck_assert_int_lt(ibu_mcmembers_read(path, &f, &mm, &e), 0);
	snprintf(want, sizeof(want), "%s:4:", path);
	ck_assert_msg(!strncmp(e.msg, want, strlen(want)), "%s", e.msg);
	unlink(path);
	ibu_fabric_free(&f);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("mcmembers");
	TCase *tc = tcase_create("files");

	tcase_add_test(tc, member_files);
	tcase_add_test(tc, saquery_members);
	tcase_add_test(tc, merge_order_and_line);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
