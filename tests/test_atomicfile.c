/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* lib/core/atomicfile.c: temporary name + rename, failures leave the target. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "unit.h"
#include "atomicfile.h"

static char dir[256];

static void make_dir(void)
{
	snprintf(dir, sizeof(dir), "/tmp/ibu-atomicfile-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static int entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

static void slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static void cleanup(const char *path)
{
	unlink(path);
	ck_assert_int_eq(rmdir(dir), 0);	/* no temporary file left */
}

START_TEST(commit_renames)
{
	struct ibu_atomicfile af;
	struct ibu_err e = { 0 };
	char path[300], buf[64];
	struct stat st;

	make_dir();
	snprintf(path, sizeof(path), "%s/out.txt", dir);
	ck_assert_int_eq(ibu_atomicfile_open(&af, path, &e), 0);
	fputs("new\n", af.fp);
	/* nothing at the target until the commit */
	ck_assert_int_ne(stat(path, &st), 0);
	ck_assert_int_eq(entries(), 1);
	ck_assert_int_eq(ibu_atomicfile_commit(&af, &e), 0);
	slurp(path, buf, sizeof(buf));
	ck_assert_str_eq(buf, "new\n");
	ck_assert_int_eq(entries(), 1);
	cleanup(path);
}
END_TEST

START_TEST(abort_keeps_old_content_and_mode)
{
	struct ibu_atomicfile af;
	struct ibu_err e = { 0 };
	char path[300], buf[64];
	struct stat st;
	FILE *f;

	make_dir();
	snprintf(path, sizeof(path), "%s/out.txt", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("old\n", f);
	fclose(f);
	ck_assert_int_eq(chmod(path, 0640), 0);
	ck_assert_int_eq(ibu_atomicfile_open(&af, path, &e), 0);
	fputs("half", af.fp);
	ibu_atomicfile_abort(&af);
	slurp(path, buf, sizeof(buf));
	ck_assert_str_eq(buf, "old\n");
	ck_assert_int_eq(entries(), 1);
	/* a committed replacement keeps the mode */
	ck_assert_int_eq(ibu_atomicfile_open(&af, path, &e), 0);
	fputs("new\n", af.fp);
	ck_assert_int_eq(ibu_atomicfile_commit(&af, &e), 0);
	slurp(path, buf, sizeof(buf));
	ck_assert_str_eq(buf, "new\n");
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 0777, 0640);
	cleanup(path);
}
END_TEST

/* A full device: the failure is reported with the system's reason. */
START_TEST(dev_full_fails)
{
	struct ibu_atomicfile af;
	struct ibu_err e = { 0 };
	int i;

	if (access("/dev/full", W_OK))
		return;
	ck_assert_int_eq(ibu_atomicfile_open(&af, "/dev/full", &e), 0);
	ck_assert_ptr_null(af.tmp);	/* a device is written directly */
	for (i = 0; i < 1000; i++)
		fputs("0x0000000000100001 0x0004 0x0007\n\n", af.fp);
	ck_assert_int_eq(ibu_atomicfile_commit(&af, &e), IBU_EIO);
	ck_assert_msg(strstr(e.msg, "/dev/full: write failed: No space left on device"),
		      "%s", e.msg);
}
END_TEST

START_TEST(dev_null_works)
{
	struct ibu_atomicfile af;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_atomicfile_open(&af, "/dev/null", &e), 0);
	fputs("x\n", af.fp);
	ck_assert_int_eq(ibu_atomicfile_commit(&af, &e), 0);
}
END_TEST

START_TEST(missing_directory)
{
	struct ibu_atomicfile af;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_atomicfile_open(&af, "/nonexistent/dir/x", &e), IBU_EIO);
	ck_assert_msg(strstr(e.msg, "/nonexistent/dir/x"), "%s", e.msg);
	ck_assert_ptr_null(af.fp);
}
END_TEST

static void write_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	ck_assert_int_eq(chmod(path, mode), 0);
}

/* Every fsync() of the library, counted (linked with --wrap=fsync). */
int __real_fsync(int fd);
int __wrap_fsync(int fd);
static int fsyncs;

int __wrap_fsync(int fd)
{
	fsyncs++;
	return __real_fsync(fd);
}

static void write_via(const char *path, int flags, const char *text)
{
	struct ibu_atomicfile af;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_atomicfile_open_flags(&af, path, flags, &e), 0);
	fputs(text, af.fp);
	ck_assert_int_eq(ibu_atomicfile_commit(&af, &e), 0);
}

/* A fresh dir with "victim" (0600, "precious\n") and "link" to it; path
 * and link: 300 bytes each. */
static void plant_link(char *path, char *link)
{
	make_dir();
	snprintf(path, 300, "%s/victim", dir);
	snprintf(link, 300, "%s/link", dir);
	write_file(path, "precious\n", 0600);
	ck_assert_int_eq(symlink("victim", link), 0);
}

/* link is now a regular file holding text; path, what it pointed to,
 * still holds "precious\n". */
static void assert_replaced(const char *link, const char *path,
			    const char *text)
{
	struct stat st;
	char buf[64];

	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	slurp(link, buf, sizeof(buf));
	ck_assert_str_eq(buf, text);
	slurp(path, buf, sizeof(buf));
	ck_assert_str_eq(buf, "precious\n");
}

/* A planted link is replaced by the file; what it points to is untouched. */
START_TEST(symlink_replaced_target_untouched)
{
	char path[300], link[300];
	struct stat st;

	plant_link(path, link);
	write_via(link, 0, "via link\n");
	assert_replaced(link, path, "via link\n");
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0600);
	/* the plugin's strict mode: the same */
	unlink(link);
	ck_assert_int_eq(symlink("victim", link), 0);
	write_via(link, IBU_ATOMICFILE_STRICT, "strict\n");
	assert_replaced(link, path, "strict\n");
	unlink(link);
	unlink(path);
	cleanup(path);
}
END_TEST

/* The plugin's mode (strict, no fsync: an OpenSM sweep must not wait on
 * the disk): still a rename over a planted link, the content whole, and
 * no fsync(); without the flag, the file and its directory are synced. */
START_TEST(nosync_renames_without_fsync)
{
	char path[300], link[300], buf[64];

	plant_link(path, link);
	fsyncs = 0;
	write_via(link, IBU_ATOMICFILE_STRICT | IBU_ATOMICFILE_NOSYNC,
		  "dump\n");
	ck_assert_int_eq(fsyncs, 0);
	assert_replaced(link, path, "dump\n");
	write_via(link, IBU_ATOMICFILE_STRICT, "synced\n");
	ck_assert_int_eq(fsyncs, 2);
	slurp(link, buf, sizeof(buf));
	ck_assert_str_eq(buf, "synced\n");
	unlink(link);
	unlink(path);
	cleanup(path);
}
END_TEST

/* Asked to, the link's target is replaced and the link stays. */
START_TEST(symlink_follow_when_asked)
{
	char path[300], link[300], buf[64];
	struct stat st;

	make_dir();
	snprintf(path, sizeof(path), "%s/real", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	write_file(path, "", 0644);
	ck_assert_int_eq(symlink("real", link), 0);
	write_via(link, IBU_ATOMICFILE_FOLLOW, "via link\n");
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	slurp(path, buf, sizeof(buf));
	ck_assert_str_eq(buf, "via link\n");
	unlink(link);
	cleanup(path);
}
END_TEST

/* setuid, setgid, sticky and execute bits are never carried over. */
START_TEST(no_setuid_carried)
{
	char path[300];
	struct stat st;
	mode_t um = umask(022);

	make_dir();
	snprintf(path, sizeof(path), "%s/x", dir);
	write_file(path, "old\n", 06755);
	write_via(path, 0, "new\n");
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0644);
	umask(um);
	cleanup(path);
}
END_TEST

/* A link to a character device (/dev/stdout, /dev/null) is written through;
 * a FIFO in the strict mode is replaced, never opened (it would block). */
START_TEST(device_link_and_strict_fifo)
{
	char link[300], fifo[300], buf[64];
	struct stat st;

	make_dir();
	snprintf(link, sizeof(link), "%s/null", dir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	ck_assert_int_eq(symlink("/dev/null", link), 0);
	write_via(link, 0, "gone\n");
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	unlink(link);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	write_via(fifo, IBU_ATOMICFILE_STRICT, "file\n");
	ck_assert_int_eq(lstat(fifo, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	slurp(fifo, buf, sizeof(buf));
	ck_assert_str_eq(buf, "file\n");
	cleanup(fifo);
}
END_TEST

START_TEST(directory_refused)
{
	struct ibu_atomicfile af;
	struct ibu_err e = { 0 };

	make_dir();
	ck_assert_int_eq(ibu_atomicfile_open(&af, dir, &e), IBU_EIO);
	ck_assert_msg(strstr(e.msg, "not a regular file"), "%s", e.msg);
	ck_assert_int_eq(ibu_atomicfile_open(&af, "/tmp/", &e), IBU_EIO);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("atomicfile");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, commit_renames);
	tcase_add_test(tc, abort_keeps_old_content_and_mode);
	tcase_add_test(tc, dev_full_fails);
	tcase_add_test(tc, dev_null_works);
	tcase_add_test(tc, missing_directory);
	tcase_add_test(tc, symlink_replaced_target_untouched);
	tcase_add_test(tc, symlink_follow_when_asked);
	tcase_add_test(tc, nosync_renames_without_fsync);
	tcase_add_test(tc, no_setuid_carried);
	tcase_add_test(tc, device_link_and_strict_fifo);
	tcase_add_test(tc, directory_refused);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
