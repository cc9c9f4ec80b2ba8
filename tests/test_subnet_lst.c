/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * opensm-subnet.lst as OpenSM wrote it (fixtures/ft43-shuf17.subnet.lst,
 * captured from ibsim running fixtures/ft43-shuf17.net): the same fabric
 * as the net file, node for node and cable for cable, the same labels;
 * broken lines are refused with file:line.
 */
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "ibft_view.h"
#include "netfile.h"
#include "subnet_lst.h"

START_TEST(same_fabric_as_the_net_file)
{
	struct ibu_fabric a, b;
	struct ibft_view ta, tb;
	struct ibu_err e = { 0 };
	int i, p;

	ck_assert_msg(ibu_netfile_read(FIXTURES_DIR "/ft43-shuf17.net", &a, &e) == 0,
		      "%s", e.msg);
	ck_assert_msg(ibu_subnet_lst_read(FIXTURES_DIR "/ft43-shuf17.subnet.lst",
					  &b, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(a.num_nodes, b.num_nodes);
	for (i = 0; i < a.num_nodes; i++) {
		const struct ibu_node *x = &a.nodes[i];
		int j = ibu_fabric_find_guid(&b, x->guid);

		ck_assert_int_ge(j, 0);
		ck_assert_int_eq(b.nodes[j].type, x->type);
		ck_assert_int_eq(b.nodes[j].num_ports, x->num_ports);
		ck_assert_str_eq(b.nodes[j].name, x->name);
		for (p = 1; p <= x->num_ports; p++) {
			const struct ibu_port *q = &b.nodes[j].ports[p];

			if (x->ports[p].peer_node < 0) {
				ck_assert_int_lt(q->peer_node, 0);
				continue;
			}
			ck_assert_int_ge(q->peer_node, 0);
			ck_assert(b.nodes[q->peer_node].guid ==
				  a.nodes[x->ports[p].peer_node].guid);
			ck_assert_int_eq(q->peer_port, x->ports[p].peer_port);
			if (!ibu_node_is_switch(x))
				ck_assert(q->guid == x->ports[p].guid);
		}
		/* OpenSM's LIDs are in the file */
		ck_assert_int_gt(ibu_fabric_lid_port(&b, j, 1)->lid, 0);
	}
	ck_assert_int_eq(ibft_view_recognize(&a, &ta, &e), 0);
	ck_assert_int_eq(ibft_view_recognize(&b, &tb, &e), 0);
	for (i = 0; i < ta.num_switches; i++) {
		int j = ibft_view_sw(&tb, ibu_fabric_find_guid(&b,
					a.nodes[ta.sw[i].node].guid));

		ck_assert_int_ge(j, 0);
		ck_assert_mem_eq(ta.sw[i].w, tb.sw[j].w, IBFT_VIEW_MAX_N);
		ck_assert_int_eq(ta.sw[i].level, tb.sw[j].level);
	}
	ibft_view_free(&ta);
	ibft_view_free(&tb);
	ibu_fabric_free(&a);
	ibu_fabric_free(&b);
}
END_TEST

static void expect_error(const char *text, const char *needle)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	struct ibu_fabric f;
	struct ibu_err e = { 0 };

	ck_assert_ptr_nonnull(in);
	ck_assert_int_eq(ibu_subnet_lst_read_stream(in, "x.lst", &f, &e),
			 IBU_EPARSE);
	ck_assert_msg(strstr(e.msg, needle), "'%s' lacks '%s'", e.msg, needle);
	fclose(in);
}

#define END_A "{ SW Ports:04 SystemGUID:0000000000200000 NodeGUID:0000000000200000 PortGUID:0000000000200000 VenID:000000 DevID:0000 Rev:000000A1 {s0} LID:0002 PN:01 }"
#define END_B "{ CA Ports:01 SystemGUID:0000000000100000 NodeGUID:0000000000100000 PortGUID:0000000000100001 VenID:000000 DevID:0000 Rev:000000A1 {h0} LID:0001 PN:01 }"

START_TEST(broken_lines)
{
	expect_error("", "no link lines");
	expect_error(END_A " " END_B " PHY=4x\ngarbage\n", "x.lst:2:");
	expect_error(END_A "\n", "x.lst:1:");
	/* port 5 of a 4-port switch */
	expect_error("{ SW Ports:04 SystemGUID:0000000000200000 NodeGUID:0000000000200000 PortGUID:0000000000200000 VenID:000000 DevID:0000 Rev:000000A1 {s0} LID:0002 PN:05 } " END_B "\n",
		     "x.lst:1:");
}
END_TEST

/* strict input: every field a strict hex number in its range, one LID a port */
static void expect_field_error(const char *from, const char *to,
			       const char *needle)
{
	char a[sizeof(END_A) + 64], line[2 * sizeof(a) + 16];
	const char *at = strstr(END_A, from);

	ck_assert_ptr_nonnull(at);
	snprintf(a, sizeof(a), "%.*s%s%s", (int)(at - END_A), END_A, to,
		 at + strlen(from));
	snprintf(line, sizeof(line), "%s %s\n", a, END_B);
	expect_error(line, needle);
}

START_TEST(strict_fields)
{
	expect_field_error("PN:01", "PN:100000001", "x.lst:1: not an opensm-subnet.lst link line: bad PN");
	expect_field_error("PN:01", "PN:01zz", "x.lst:1: not an opensm-subnet.lst link line: bad PN");
	expect_field_error("Ports:04", "Ports:100000004", "x.lst:1: not an opensm-subnet.lst link line: bad Ports");
	expect_field_error("LID:0002", "LID:FFFF", "bad LID");
	expect_field_error("LID:0002", "LID:C000", "bad LID");
	expect_field_error("LID:0002", "LID:0000", "bad LID");
	expect_field_error("NodeGUID:0000000000200000", "NodeGUID:00000000002000000", "bad NodeGUID");
	expect_field_error("PortGUID:0000000000200000", "PortGUID:10000000000200000", "bad NodeGUID/PortGUID");
	/* the switch again with another LID */
	expect_error(END_A " " END_B "\n"
		     "{ SW Ports:04 SystemGUID:0000000000200000 NodeGUID:0000000000200000 PortGUID:0000000000200000 VenID:000000 DevID:0000 Rev:000000A1 {s0} LID:0003 PN:02 } "
		     "{ CA Ports:01 SystemGUID:0000000000100002 NodeGUID:0000000000100002 PortGUID:0000000000100003 VenID:000000 DevID:0000 Rev:000000A1 {h1} LID:0004 PN:01 }\n",
		     "x.lst:2: 's0' port 0 has LID 0003 here, 0002 on line 1");
}
END_TEST

START_TEST(sniff)
{
	ck_assert(ibu_subnet_lst_sniff("  " END_A " " END_B));
	ck_assert(!ibu_subnet_lst_sniff("Switch 4 \"s0\""));
	ck_assert(!ibu_subnet_lst_sniff("# { NodeGUID: PN: }"));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("subnet_lst");
	TCase *tc = tcase_create("read");

	tcase_add_test(tc, same_fabric_as_the_net_file);
	tcase_add_test(tc, broken_lines);
	tcase_add_test(tc, strict_fields);
	tcase_add_test(tc, sniff);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
