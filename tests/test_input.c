/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* lib/core/input.c: every input read once, from whatever a path names. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "unit.h"
#include "input.h"
#include "lineio.h"

static const char text[] = "line one\nline two\nthree\n";
static char dir[256], path[300];

static void make_file(void)
{
	FILE *f;

	snprintf(dir, sizeof(dir), "/tmp/ibu-input-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/in.txt", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void drop_file(void)
{
	unlink(path);
	rmdir(dir);
}

static void read_rest(FILE *in, char *buf, size_t len)
{
	size_t n = fread(buf, 1, len - 1, in);

	buf[n] = '\0';
}

/* The head read ahead is replayed: the stream yields the whole input. */
START_TEST(peek_replays_head)
{
	struct ibu_err e = { 0 };
	const char *head;
	size_t hl;
	char buf[128];
	FILE *in;

	make_file();
	in = ibu_input_open_peek(path, 6, &head, &hl, &e);
	ck_assert_ptr_nonnull(in);
	ck_assert_uint_eq(hl, 6);
	ck_assert(!memcmp(head, "line o", 6));
	read_rest(in, buf, sizeof(buf));
	ck_assert_str_eq(buf, text);
	fclose(in);
	drop_file();
}
END_TEST

/* Standard input ("-") that is a pipe: read once, named "(stdin)". */
START_TEST(stdin_pipe)
{
	struct ibu_err e = { 0 };
	char *buf;
	size_t len;
	int p[2];

	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_eq(write(p[1], text, strlen(text)), (int)strlen(text));
	close(p[1]);
	ck_assert_int_ge(dup2(p[0], STDIN_FILENO), 0);
	close(p[0]);
	ck_assert_int_eq(ibu_input_read_all("-", IBU_INPUT_MAX, &buf, &len, &e), 0);
	ck_assert_uint_eq(len, strlen(text));
	ck_assert_str_eq(buf, text);
	free(buf);
	ck_assert_str_eq(ibu_input_name("-"), "(stdin)");
}
END_TEST

/* A tee keeps what one pass read for the next. */
START_TEST(tee_keeps_bytes)
{
	struct ibu_input_copy copy = { NULL, 0, 0 };
	struct ibu_err e = { 0 };
	char buf[128];
	FILE *in;

	make_file();
	in = ibu_input_open(path, &e);
	ck_assert_ptr_nonnull(in);
	in = ibu_input_tee(in, &copy, &e);
	ck_assert_ptr_nonnull(in);
	read_rest(in, buf, sizeof(buf));
	fclose(in);
	ck_assert_str_eq(copy.buf, text);
	in = ibu_input_mem(copy.buf, copy.len, &e);
	ck_assert_ptr_nonnull(in);
	read_rest(in, buf, sizeof(buf));
	ck_assert_str_eq(buf, text);
	fclose(in);
	free(copy.buf);
	drop_file();
}
END_TEST

/* A FIFO nobody writes: the open returns at once, the read ends within
 * the bound with a message naming the file and the line. */
START_TEST(fifo_without_writer)
{
	struct ibu_err e = { 0 };
	struct ibu_lines l;
	time_t t0 = time(NULL);
	char fifo[300];
	FILE *in;

	snprintf(dir, sizeof(dir), "/tmp/ibu-input-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	setenv(IBU_INPUT_TIMEOUT_ENV, "1", 1);
	ck_assert_int_eq(ibu_input_timeout(), 1);
	in = ibu_input_open(fifo, &e);
	ck_assert_ptr_nonnull(in);
	ibu_lines_init(&l, in, fifo);
	ck_assert_int_eq(ibu_lines_next(&l, &e), IBU_EIO);
	ck_assert_msg(strstr(e.msg, "/fifo:1: no data for 1 s"), "%s", e.msg);
	ck_assert_int_le(time(NULL) - t0, 3);
	ibu_lines_free(&l);
	fclose(in);
	unlink(fifo);
	rmdir(dir);
}
END_TEST

START_TEST(refusals)
{
	struct ibu_err e = { 0 };
	char *buf;
	size_t len;
	FILE *in;

	ck_assert_ptr_null(ibu_input_open("/tmp", &e));
	ck_assert_msg(strstr(e.msg, "/tmp: cannot open: Is a directory"), "%s", e.msg);
	ck_assert_ptr_null(ibu_input_open("/nonexistent/x", &e));
	ck_assert_msg(strstr(e.msg, "No such file"), "%s", e.msg);
	make_file();
	in = ibu_input_open(path, &e);
	ck_assert_int_eq(ibu_input_slurp(in, "in.txt", 8, &buf, &len, &e), IBU_EIO);
	ck_assert_str_eq(e.msg, "in.txt: larger than 8 bytes");
	fclose(in);
	drop_file();
	setenv(IBU_INPUT_TIMEOUT_ENV, "x", 1);
	ck_assert_int_eq(ibu_input_timeout(), IBU_INPUT_TIMEOUT_DEFAULT);
	setenv(IBU_INPUT_TIMEOUT_ENV, "0", 1);
	ck_assert_int_eq(ibu_input_timeout(), 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("input");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, peek_replays_head);
	tcase_add_test(tc, stdin_pipe);
	tcase_add_test(tc, tee_keeps_bytes);
	tcase_add_test(tc, fifo_without_writer);
	tcase_add_test(tc, refusals);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
