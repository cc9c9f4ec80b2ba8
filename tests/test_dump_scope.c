/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The part of a fabric file a dump covers: islands OpenSM never saw are
 * left out, the part it routed is kept whole. */
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "dump_scope.h"
#include "netfile.h"

#define FX(name) FIXTURES_DIR "/" name

/* 2sw2path4hca.net, and with island: plus a switch and a host cabled to
 * each other only (a leaf the faults cut off from the SM). */
static void read_fabric(int island, struct ibu_fabric *f)
{
	static const char extra[] =
		"\nSwitch 8 \"Switch3\"\n[1]\t\"Hca5\"[1]\n\n"
		"Hca 2 \"Hca5\"\n[1]\t\"Switch3\"[1]\n";
	char *text = NULL;
	size_t len = 0;
	FILE *in = fopen(FX("2sw2path4hca.net"), "r"), *out;
	struct ibu_err e = { 0 };
	int c, rc;

	ck_assert_ptr_nonnull(in);
	out = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(out);
	while ((c = fgetc(in)) != EOF)
		fputc(c, out);
	if (island)
		fputs(extra, out);
	fclose(in);
	fclose(out);
	in = fmemopen(text, len, "r");
	ck_assert_ptr_nonnull(in);
	rc = ibu_netfile_read_stream(in, "t.net", f, &e);
	fclose(in);
	free(text);
	ck_assert_msg(rc == 0, "%s", e.msg);
}

static void read_dump(const char *text, struct ibu_dump *d)
{
	struct ibu_err e = { 0 };
	FILE *in = text ? fmemopen((void *)text, strlen(text), "r") :
		   fopen(FX("2sw2path4hca-lmc0.lfts"), "r");
	int rc;

	ck_assert_ptr_nonnull(in);
	rc = ibu_dump_parse_stream(in, "t.dump", d, &e);
	fclose(in);
	ck_assert_msg(rc == 0, "%s", e.msg);
}

/* A fabric (island: with the island) scoped by a dump (text, NULL: the
 * fixture's dump). */
struct scoped {
	struct ibu_fabric f;
	struct ibu_dump d;
	struct ibu_dump_scope left;
};

static void scope_up(struct scoped *s, int island, const char *dump)
{
	struct ibu_err e = { 0 };

	read_fabric(island, &s->f);
	read_dump(dump, &s->d);
	ck_assert_msg(ibu_dump_scope(&s->d, &s->f, &s->left, &e) == 0, "%s",
		      e.msg);
}

static void scope_down(struct scoped *s)
{
	ibu_dump_free(&s->d);
	ibu_fabric_free(&s->f);
}

START_TEST(island_left_out)
{
	struct scoped s;
	struct ibu_lft l;
	struct ibu_err e = { 0 };

	read_fabric(1, &s.f);
	ck_assert_int_eq(s.f.num_nodes, 8);
	ibu_fabric_free(&s.f);
	scope_up(&s, 1, NULL);
	ck_assert_int_eq(s.left.switches, 1);
	ck_assert_int_eq(s.left.ends, 1);
	ck_assert_int_eq(s.f.num_nodes, 6);
	ck_assert_int_eq(ibu_fabric_find_name(&s.f, "Switch3"), -1);
	ck_assert_int_eq(ibu_fabric_find_name(&s.f, "Hca5"), -1);
	ck_assert_int_ge(ibu_fabric_find_name(&s.f, "Hca4"), 0);
	/* what is left takes the dump: every end port has its LID */
	ck_assert_int_eq(ibu_dump_apply(&s.d, &s.f, &l, NULL, &e), 0);
	ck_assert_int_eq(s.f.nodes[ibu_fabric_find_name(&s.f, "Hca4")].ports[1].lid, 6);
	ibu_lft_free(&l);
	scope_down(&s);
}
END_TEST

/* One table (ibroute of one switch) keeps everything connected to it. */
START_TEST(one_table_keeps_its_fabric)
{
	static const char one[] =
		"Unicast lids [0x0-0x2] of switch Lid 1 guid 0x0000000000200000 (Switch1):\n"
		"  Lid  Out   Destination\n"
		"       Port     Info \n"
		"0x0001 000 : (Switch portguid 0x0000000000200000: 'Switch1')\n"
		"0x0002 001 : (Channel Adapter portguid 0x0000000000100001: 'Hca1')\n"
		"2 valid lids dumped \n";
	struct scoped s;

	scope_up(&s, 0, one);
	ck_assert_int_eq(s.left.switches + s.left.ends, 0);
	ck_assert_int_eq(s.f.num_nodes, 6);
	scope_down(&s);
	scope_up(&s, 1, one);
	ck_assert_int_eq(s.left.switches, 1);
	ck_assert_int_eq(s.f.num_nodes, 6);
	scope_down(&s);
}
END_TEST

/* A dump of another fabric scopes nothing: ibu_dump_apply() names it. */
START_TEST(foreign_dump_left_to_apply)
{
	static const char other[] =
		"Unicast lids [0x0-0x1] of switch Lid 1 guid 0x0000000000290000 (SwitchX):\n"
		"0x0001 000 : (Switch portguid 0x0000000000290000: 'SwitchX')\n"
		"1 valid lids dumped \n";
	struct scoped s;
	struct ibu_lft l;
	struct ibu_err e = { 0 };

	scope_up(&s, 1, other);
	ck_assert_int_eq(s.left.switches + s.left.ends, 0);
	ck_assert_int_eq(s.f.num_nodes, 8);
	ck_assert_int_eq(ibu_dump_apply(&s.d, &s.f, &l, NULL, &e), IBU_ENOTFOUND);
	ck_assert_msg(strstr(e.msg, "t.dump:1:"), "%s", e.msg);
	ibu_lft_free(&l);
	scope_down(&s);
}
END_TEST

/* dump_lfts stops one LID short of a LinearFDBTop that is a multiple of
 * 64: the LID its headers end at is named, only there. */
START_TEST(short_top_named)
{
	static const char head[] =
		"Unicast lids [0x0-0x%x] of switch Lid 1 guid 0x0000000000200000 (Switch1):\n"
		"0x0001 000 : (Switch portguid 0x0000000000200000: 'Switch1')\n"
		"0x0002 001 : (Channel Adapter portguid 0x0000000000100001: 'Hca1')\n"
		"%s"
		"%d valid lids dumped \n";
	static const struct { unsigned top; const char *last; int n; unsigned want; } c[] = {
		{ 0x40, "", 2, 0x40 },	/* entries stop short of 64 */
		{ 0x80, "", 2, 0x80 },
		{ 0x40, "0x0040 001 : (Channel Adapter portguid 0x0000000000100002: 'Hca2')\n", 3, 0 },
		{ 0x3f, "", 2, 0 },	/* not a multiple of 64 */
		{ 0x2, "", 2, 0 },
	};
	char text[1024];
	struct scoped s;
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(text, sizeof(text), head, c[i].top, c[i].last, c[i].n);
		scope_up(&s, 0, text);
		ck_assert_msg(s.left.short_top == c[i].want, "case %zu: 0x%x",
			      i, s.left.short_top);
		scope_down(&s);
	}
	scope_up(&s, 0, NULL);	/* the fixture's dump reaches its tops */
	ck_assert_uint_eq(s.left.short_top, 0);
	scope_down(&s);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("dump_scope");
	TCase *tc = tcase_create("scope");

	tcase_add_test(tc, island_left_out);
	tcase_add_test(tc, one_table_keeps_its_fabric);
	tcase_add_test(tc, foreign_dump_left_to_apply);
	tcase_add_test(tc, short_top_named);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
