/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "netfile.h"

static int parse(const char *text, struct ibu_fabric *f, struct ibu_err *e)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	int rc;

	ck_assert_ptr_nonnull(in);
	rc = ibu_netfile_read_stream(in, "t.net", f, e);
	fclose(in);
	return rc;
}

static const char two_switch[] =
	"# example\n"
	"Switch\t8 \"Switch1\"\n[1]\t\"Hca1\"[1]\n[2]\t\"Hca3\"[1]\n[3]\t\"Switch2\"[3]\n[5]\t\"Switch2\"[5]\n\n"
	"Switch 8 \"Switch2\"\n[1]\t\"Hca2\"[1]\n[2]\t\"Hca4\"[1]\n[3]\t\"Switch1\"[3]\n[5]\t\"Switch1\"[5]\n\n"
	"Hca\t2 \"Hca1\"\n[1]\t\"Switch1\"[1]\n\nHca\t2 \"Hca2\"\n[1]\t\"Switch2\"[1]\n\n"
	"Hca\t2 \"Hca3\"\n[1]\t\"Switch1\"[2]\n\nHca\t2 \"Hca4\"\n[1]\t\"Switch2\"[2]\n";

/* GUIDs exactly as ibsim assigns them (research: Hca1 port 0x100001,
 * Hca4 port 0x10000a, switches 0x200000 and 0x200001). */
START_TEST(ibsim_guids)
{
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	int h4, s2, port;

	ck_assert_int_eq(parse(two_switch, &f, &e), 0);
	ck_assert_int_eq(f.num_nodes, 6);
	ck_assert_int_eq(ibu_fabric_count_switches(&f), 2);
	ck_assert_int_eq(ibu_fabric_count_endports(&f), 4);
	s2 = ibu_fabric_find_name(&f, "Switch2");
	ck_assert_uint_eq(f.nodes[s2].guid, 0x200001);
	h4 = ibu_fabric_find_name(&f, "Hca4");
	ck_assert_uint_eq(f.nodes[h4].guid, 0x100009);
	ck_assert_uint_eq(f.nodes[h4].ports[1].guid, 0x10000a);
	ck_assert_int_eq(ibu_fabric_find_port_guid(&f, 0x10000a, &port), h4);
	ck_assert_int_eq(port, 1);
	ck_assert_int_eq(ibu_fabric_find_port_guid(&f, 0x200001, &port), s2);
	ck_assert_int_eq(port, 0);
	/* parallel links 3 and 5 */
	ck_assert_int_eq(f.nodes[s2].ports[5].peer_port, 5);
	ck_assert_int_eq(f.nodes[f.nodes[s2].ports[5].peer_node].guid, 0x200000);
	ibu_fabric_free(&f);
}
END_TEST

/* ibnetdiscover output: GUID directives, descriptions, LIDs in comments. */
START_TEST(ibnetdiscover_format)
{
	static const char text[] =
		"#\n# Topology file\n#\nvendid=0x0\ndevid=0x0\nsysimgguid=0x200013\n"
		"switchguid=0x200013(200013)\n"
		"Switch\t4 \"S-0000000000200013\"\t\t# \"leafA\" base port 0 lid 80 lmc 0\n"
		"[1]\t\"H-000000000010001c\"[1](10001d) \t\t# \"hostA\" lid 100 4xSDR\n\n"
		"vendid=0x0\ncaguid=0x10001c\n"
		"Ca\t1 \"H-000000000010001c\"\t\t# \"hostA\"\n"
		"[1](10001d) \t\"S-0000000000200013\"[1]\t\t# lid 100 lmc 2 \"leafA\" lid 80 4xSDR\n";
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	int s, h;

	ck_assert_msg(parse(text, &f, &e) == 0, "%s", e.msg);
	s = ibu_fabric_find_name(&f, "leafA");
	h = ibu_fabric_find_name(&f, "hostA");
	ck_assert_int_ge(s, 0);
	ck_assert_int_ge(h, 0);
	ck_assert_uint_eq(f.nodes[s].guid, 0x200013);
	ck_assert_uint_eq(f.nodes[s].ports[0].lid, 80);
	ck_assert_uint_eq(f.nodes[h].guid, 0x10001c);
	ck_assert_uint_eq(f.nodes[h].ports[1].guid, 0x10001d);
	ck_assert_uint_eq(f.nodes[h].ports[1].lid, 100);
	ck_assert_uint_eq(f.nodes[h].ports[1].lmc, 2);
	ck_assert_int_eq(f.nodes[s].ports[1].peer_node, h);
	ck_assert_uint_eq(ibu_fabric_max_lid(&f), 103);
	ibu_fabric_free(&f);
}
END_TEST

struct bad {
	const char *text;
	const char *msg;
};

static const struct bad bad_inputs[] = {
	{ "Switch 4 \"a\"\n[9] \"b\"[1]\n\nHca 1 \"b\"\n[1] \"a\"[9]\n", "t.net:2: port 9 of 'a'" },
	{ "Switch 4 \"a\"\n[1] \"nobody\"[1]\n", "t.net:2: port 1 of 'a' is cabled to unknown node 'nobody'" },
	{ "Switch 4 a\n", "t.net:1: node header without a quoted id" },
	{ "Switch \"a\"\n", "t.net:1: node header without a port count" },
	{ "[1] \"a\"[1]\n", "t.net:1: port line outside a node record" },
	{ "Switch 4 \"a\"\n[x] \"b\"[1]\n", "t.net:2: bad port number" },
	{ "Switch 4 \"a\"\n\nSwitch 4 \"a\"\n", "node id 'a' already used at line 1" },
	{ "Switch 4 \"a\"\n[1] \"b\"[2]\n\nHca 1 \"b\"\n[1] \"a\"[1]\n", "'b' has only 1 ports" },
	{ "Switch 4 \"a\"\n[1] \"b\"[1]\n[2] \"b\"[1]\n\nHca 1 \"b\"\n", "t.net:3: 'a'[2] - 'b'[1]: port already cabled elsewhere" },
	{ "# nothing\n", "no node records" },
	{ "Switch 300 \"a\"\n", "t.net:1: port count out of range" },
	/* hostile input: an input without records is an error naming its end */
	{ "", "t.net:1: no node records" },
	/* hostile input: node GUIDs are unique (switchguid= repeating a GUID) */
	{ "switchguid=0x10\nSwitch 2 \"a\"\n[1] \"b\"[1]\n\nswitchguid=0x10\nSwitch 2 \"b\"\n[1] \"a\"[1]\n",
	  "t.net:6: node GUID 0x0000000000000010 of 'b' is already used by 'a' (line 2)" },
	{ "caguid=0x50\nHca 1 \"h1\"\n[1] \"s\"[1]\n\ncaguid=0x50\nHca 1 \"h2\"\n[1] \"s\"[2]\n\nSwitch 2 \"s\"\n[1] \"h1\"[1]\n[2] \"h2\"[1]\n",
	  "t.net:6: node GUID 0x0000000000000050" },
	/* hostile input: port GUIDs are unique (ibnetdiscover port lines) */
	{ "caguid=0x50\nCa 1 \"h1\"\n[1](77) \"s\"[1]\n\ncaguid=0x60\nCa 1 \"h2\"\n[1](77) \"s\"[2]\n\nSwitch 2 \"s\"\n[1] \"h1\"[1]\n[2] \"h2\"[1]\n",
	  "t.net:7: port GUID 0x0000000000000077 of 'h2' is already used by 'h1' (line 3)" },
	/* a CA port GUID equal to a switch's GUID */
	{ "switchguid=0x77\nSwitch 2 \"s\"\n[1] \"h1\"[1]\n\ncaguid=0x50\nCa 1 \"h1\"\n[1](77) \"s\"[1]\n",
	  "t.net:7: port GUID 0x0000000000000077 of 'h1' is already used by 's' (line 2)" },
	{ "switchguid=zz\nSwitch 2 \"s\"\n", "t.net:1: GUID directive without a number" },
	/* strict numbers, no GUID 0, no junk */
	{ "Switch 4294967300 \"a\"\n", "t.net:1: port count out of range" },
	{ "Switch 4 \"a\"\n[4294967297] \"b\"[1]\n", "t.net:2: bad port number" },
	{ "Switch 4 \"a\"\n[1] \"b\"[4294967297]\n", "t.net:2: bad remote port number" },
	{ "Switch 4 \"a\"\n[+1] \"b\"[1]\n", "t.net:2: bad port number" },
	{ "switchguid=0x0\nSwitch 2 \"s\"\n", "t.net:1: GUID 0 in a GUID directive" },
	{ "switchguid=0x10000000000000000\nSwitch 2 \"s\"\n", "t.net:1: bad number in GUID directive" },
	{ "Ca 1 \"h\"\n[1](00000000000000077) \"s\"[1]\n", "t.net:2: bad port GUID" },
	{ "Ca 1 \"h\"\n[1](77) \"s\"[1] # lid 99999999999 lmc 0\n", "t.net:2: bad LID in comment" },
	{ "Ca 1 \"h\"\n[1](77) \"s\"[1] # lid 5 lmc 9\n", "t.net:2: bad LMC in comment" },
	{ "junk\nSwitch 2 \"s\"\n", "t.net:1: no node records (not a net file?)" },
	/* found by fuzz_ibnetdiscover: an error in a switch header's comment
	 * left the node without its id, and the clean-up read past them */
	{ "Hca 1 \"h\"\n[1] \"s\"[1]\n\nSwitch 2 \"s\" # \"d\" lid 99999999999\n", "t.net:4: bad LID in comment" },
	{ "Switch 2 \"s\"\n\njunk\n", "t.net:3: not a net file line" },
	{ "switchguid=0x1g\nSwitch 2 \"s\"\n", "t.net:1: bad number in GUID directive" },
	{ "Ca 1 \"h\"\n[1](zz) \"s\"[1]\n", "t.net:2: bad port GUID" },
};

/* hostile input: an embedded NUL is a parse error with file:line, not a cut line */
START_TEST(nul_byte)
{
	static const char text[] = "Switch 2 \"a\"\n[1] \"b\"[1]\n\nSwitch 2 \"b\"\n[1] \"a\0x\"[1]\n";
	FILE *in = fmemopen((void *)text, sizeof(text) - 1, "r");
	struct ibu_fabric f;
	struct ibu_err e = { 0 };

	ck_assert_ptr_nonnull(in);
	ck_assert_int_eq(ibu_netfile_read_stream(in, "t.net", &f, &e), IBU_EPARSE);
	fclose(in);
	ck_assert_msg(strstr(e.msg, "t.net:5: NUL byte in line"), "%s", e.msg);
}
END_TEST

/* hostile input: the writer refuses a name the reader could not give back */
START_TEST(write_refuses_unreadable_names)
{
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	ck_assert_int_eq(parse(two_switch, &f, &e), 0);
	free(f.nodes[0].name);
	f.nodes[0].name = strdup("a\"b");
	ck_assert_ptr_nonnull(f.nodes[0].name);
	out = open_memstream(&buf, &len);
	ck_assert_int_eq(ibu_netfile_write(out, &f, &e), IBU_EINVAL);
	fclose(out);
	ck_assert_msg(strstr(e.msg, "a\"b"), "%s", e.msg);
	free(buf);
	buf = NULL;
	/* found by fuzz_ibnetdiscover: ibnetdiscover names nodes by their
	 * descriptions, which repeat; the writer refuses, as the reader would */
	free(f.nodes[0].name);
	f.nodes[0].name = strdup("Hca3");
	ck_assert_ptr_nonnull(f.nodes[0].name);
	out = open_memstream(&buf, &len);
	ck_assert_int_eq(ibu_netfile_write(out, &f, &e), IBU_EINVAL);
	fclose(out);
	ck_assert_msg(strstr(e.msg, "two nodes are named 'Hca3'"), "%s", e.msg);
	free(buf);
	ibu_fabric_free(&f);
}
END_TEST

START_TEST(errors_name_file_and_line)
{
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	int rc = parse(bad_inputs[_i].text, &f, &e);

	ck_assert_int_lt(rc, 0);
	ck_assert_msg(strstr(e.msg, bad_inputs[_i].msg), "got '%s', want '%s'",
		      e.msg, bad_inputs[_i].msg);
	ck_assert_int_eq(f.num_nodes, 0);
}
END_TEST

/* strict input: a UTF-8 byte order mark is no junk line */
START_TEST(byte_order_mark)
{
	struct ibu_fabric f;
	struct ibu_err e = { 0 };

	ck_assert_msg(parse("\xef\xbb\xbfSwitch 2 \"a\"\n[1] \"b\"[1]\n\nSwitch 2 \"b\"\n[1] \"a\"[1]\n",
			    &f, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(f.num_nodes, 2);
	ibu_fabric_free(&f);
}
END_TEST

START_TEST(missing_file)
{
	struct ibu_fabric f;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_netfile_read("/nonexistent/x.net", &f, &e), IBU_EIO);
	ck_assert_ptr_nonnull(strstr(e.msg, "/nonexistent/x.net"));
}
END_TEST

START_TEST(write_read_round_trip)
{
	struct ibu_fabric f, g;
	struct ibu_err e = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *out;
	int i, p;

	ck_assert_int_eq(parse(two_switch, &f, &e), 0);
	out = open_memstream(&buf, &len);
	ck_assert_int_eq(ibu_netfile_write(out, &f, &e), 0);
	fclose(out);
	ck_assert_int_eq(parse(buf, &g, &e), 0);
	ck_assert_int_eq(g.num_nodes, f.num_nodes);
	for (i = 0; i < f.num_nodes; i++) {
		ck_assert_str_eq(g.nodes[i].name, f.nodes[i].name);
		ck_assert_uint_eq(g.nodes[i].guid, f.nodes[i].guid);
		for (p = 1; p <= f.nodes[i].num_ports; p++) {
			ck_assert_int_eq(g.nodes[i].ports[p].peer_node,
					 f.nodes[i].ports[p].peer_node);
			ck_assert_int_eq(g.nodes[i].ports[p].peer_port,
					 f.nodes[i].ports[p].peer_port);
		}
	}
	free(buf);
	ibu_fabric_free(&f);
	ibu_fabric_free(&g);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("netfile");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, ibsim_guids);
	tcase_add_test(tc, ibnetdiscover_format);
	tcase_add_loop_test(tc, errors_name_file_and_line, 0,
			    sizeof(bad_inputs) / sizeof(bad_inputs[0]));
	tcase_add_test(tc, missing_file);
	tcase_add_test(tc, byte_order_mark);
	tcase_add_test(tc, write_read_round_trip);
	tcase_add_test(tc, nul_byte);
	tcase_add_test(tc, write_refuses_unreadable_names);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
