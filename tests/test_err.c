/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* lib/core/err.c: messages, control bytes from input escaped. */
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "err.h"
#include "fabric.h"

START_TEST(escape_controls)
{
	char buf[64];

	ck_assert_uint_eq(ibu_escape(buf, sizeof(buf), "a\033]0;T\007b"), 14);
	ck_assert_str_eq(buf, "a\\x1b]0;T\\x07b");
	/* tab kept, DEL and the UTF-8 C1 CSI (U+009B) escaped, other UTF-8 kept */
	ibu_escape(buf, sizeof(buf), "\t\x7f\xc2\x9b\xc3\xa9\n\r");
	ck_assert_str_eq(buf, "\t\\x7f\\xc2\\x9b\xc3\xa9\\x0a\\x0d");
	/* idempotent */
	ibu_escape(buf, sizeof(buf), "\\x1b");
	ck_assert_str_eq(buf, "\\x1b");
	/* never past cap, never half an escape */
	ck_assert_uint_eq(ibu_escape(buf, 6, "ab\033cd"), 2);
	ck_assert_str_eq(buf, "ab");
}
END_TEST

START_TEST(messages_escaped)
{
	struct ibu_err e = { 0 };
	char *d;

	ibu_err_set(&e, IBU_EPARSE, "f:1: node '%s'", "\033[31mred");
	ck_assert_str_eq(e.msg, "f:1: node '\\x1b[31mred'");
	ibu_err_prefix(&e, "%s", "in\nject");
	ck_assert_str_eq(e.msg, "in\\x0aject: f:1: node '\\x1b[31mred'");
	d = ibu_escape_dup("\001");
	ck_assert_str_eq(d, "\\x01");
	free(d);
}
END_TEST

/* Names from input (a node description a host sets itself) are stored
 * escaped, so every report and log line that prints them is safe. */
START_TEST(node_names_escaped)
{
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	int idx;

	ck_assert_int_eq(ibu_fabric_init(&f, "t"), 0);
	ck_assert_int_eq(ibu_fabric_add_node(&f, IBU_NODE_CA, "h\033]0;PWNED\007",
					     1, 1, &idx, &e), 0);
	ck_assert_str_eq(f.nodes[idx].name, "h\\x1b]0;PWNED\\x07");
	/* found again by the raw name another input gives */
	ck_assert_int_eq(ibu_fabric_index(&f, &e), 0);
	ck_assert_int_eq(ibu_fabric_find_name(&f, "h\033]0;PWNED\007"), idx);
	ibu_fabric_free(&f);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("err");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, escape_controls);
	tcase_add_test(tc, messages_escaped);
	tcase_add_test(tc, node_names_escaped);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
