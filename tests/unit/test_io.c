/* Crash-safe outputs: nothing at the destination changes before commit. */
#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lapsvm.h"
#include "unit.h"

static char dir[1024];

static void make_dir(void)
{
	if (mkdtemp(unit_tmp(dir, sizeof dir, "lsv-unit")) == NULL)
		dir[0] = '\0';
}

static size_t count_entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;
	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void slurp(const char *path, char *buf, size_t cap)
{
	FILE *fp = fopen(path, "r");
	size_t m = 0;
	buf[0] = '\0';
	if (fp == NULL)
		return;
	m = fread(buf, 1, cap - 1, fp);
	buf[m] = '\0';
	fclose(fp);
}

static void out_replaces_file_only_on_commit(void)
{
	char path[4096], buf[64];
	lsv_out *o;
	lsv_error e;
	FILE *fp;

	make_dir();
	snprintf(path, sizeof path, "%s/model", dir);
	fp = fopen(path, "w");
	fputs("old\n", fp);
	fclose(fp);
	CHECK(lsv_out_open(path, &o, &e) == LSV_OK);
	fputs("new\n", lsv_out_file(o));
	slurp(path, buf, sizeof buf);
	CHECK_STR(buf, "old\n");       /* untouched while writing */
	CHECK(count_entries() == 2);   /* the file and the temporary */
	CHECK(strstr(lsv_out_tmpname(o), "/.model.tmp.") != NULL);
	CHECK(lsv_out_commit(o, &e) == LSV_OK);
	slurp(path, buf, sizeof buf);
	CHECK_STR(buf, "new\n");
	CHECK(count_entries() == 1);   /* temporary renamed away */
	unlink(path);
	rmdir(dir);
}

static void out_abort_leaves_old_file_and_no_temporary(void)
{
	char path[4096], buf[64];
	lsv_out *o;
	lsv_error e;
	FILE *fp;

	make_dir();
	snprintf(path, sizeof path, "%s/g", dir);
	fp = fopen(path, "w");
	fputs("old\n", fp);
	fclose(fp);
	CHECK(lsv_out_open(path, &o, &e) == LSV_OK);
	fputs("partial", lsv_out_file(o));
	lsv_out_abort(o);
	slurp(path, buf, sizeof buf);
	CHECK_STR(buf, "old\n");
	CHECK(count_entries() == 1);
	unlink(path);
	rmdir(dir);
}

static void out_gets_umask_mode_not_0600(void)
{
	char path[4096];
	lsv_out *o;
	lsv_error e;
	struct stat st;
	mode_t old = umask(022);

	make_dir();
	snprintf(path, sizeof path, "%s/m", dir);
	CHECK(lsv_out_open(path, &o, &e) == LSV_OK);
	CHECK(lsv_out_commit(o, &e) == LSV_OK);
	CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0644);
	umask(old);
	unlink(path);
	rmdir(dir);
}

static void out_in_missing_directory_fails_cleanly(void)
{
	lsv_out *o = (lsv_out *)1;
	lsv_error e;
	CHECK(lsv_out_open("/nonexistent-dir-lsv/x", &o, &e) == LSV_EIO);
	CHECK(o == NULL);
	CHECK(strstr(e.msg, "/nonexistent-dir-lsv/x: cannot create") == e.msg);
}

static void out_through_symlink_replaces_target_keeps_link(void)
{
	char path[4096], link[4096], buf[64];
	lsv_out *o;
	lsv_error e;
	struct stat st;
	FILE *fp;

	make_dir();
	snprintf(path, sizeof path, "%s/real", dir);
	snprintf(link, sizeof link, "%s/link", dir);
	fp = fopen(path, "w");
	fputs("old\n", fp);
	fclose(fp);
	CHECK(symlink("real", link) == 0);
	CHECK(lsv_out_open(link, &o, &e) == LSV_OK);
	fputs("new\n", lsv_out_file(o));
	CHECK(lsv_out_commit(o, &e) == LSV_OK);
	CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
	slurp(path, buf, sizeof buf);
	CHECK_STR(buf, "new\n");
	CHECK(count_entries() == 2);
	unlink(link);
	unlink(path);
	rmdir(dir);
}

static void out_to_a_device_writes_into_it(void)
{
	/* Renaming over /dev/null would destroy it: it is written into. */
	lsv_out *o;
	lsv_error e;
	struct stat st;
	CHECK(lsv_out_open("/dev/null", &o, &e) == LSV_OK);
	CHECK(lsv_out_tmpname(o) == NULL);
	fputs("x\n", lsv_out_file(o));
	CHECK(lsv_out_commit(o, &e) == LSV_OK);
	CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
}

static void out_to_a_directory_is_refused(void)
{
	lsv_out *o = (lsv_out *)1;
	lsv_error e;
	CHECK(lsv_out_open("/tmp", &o, &e) == LSV_EIO && o == NULL);
	CHECK_STR(e.msg, "/tmp: is a directory");
}

static void out_close_completes_the_file_and_leaves_the_destination(void)
{
	char path[4096], buf[64];
	lsv_out *o;
	lsv_error e;
	FILE *fp;

	make_dir();
	snprintf(path, sizeof path, "%s/p", dir);
	fp = fopen(path, "w");
	fputs("old\n", fp);
	fclose(fp);
	CHECK(lsv_out_open(path, &o, &e) == LSV_OK);
	fputs("new\n", lsv_out_file(o));
	CHECK(lsv_out_close(o, &e) == LSV_OK);
	slurp(lsv_out_tmpname(o), buf, sizeof buf);
	CHECK_STR(buf, "new\n");        /* complete on disk */
	slurp(path, buf, sizeof buf);
	CHECK_STR(buf, "old\n");        /* not yet in place */
	CHECK(lsv_out_close(o, &e) == LSV_OK);  /* a second close: nothing */
	CHECK(lsv_out_commit(o, &e) == LSV_OK);
	slurp(path, buf, sizeof buf);
	CHECK_STR(buf, "new\n");
	CHECK(count_entries() == 1);
	unlink(path);
	rmdir(dir);
}

static void out_close_reports_a_write_error_and_leaves_it_to_abort(void)
{
	lsv_out *o;
	lsv_error e;
	if (access("/dev/full", W_OK) != 0)
		return;  /* no /dev/full here */
	CHECK(lsv_out_open("/dev/full", &o, &e) == LSV_OK);
	fputs("x\n", lsv_out_file(o));  /* buffered: fails when flushed */
	CHECK(lsv_out_close(o, &e) == LSV_EIO);
	CHECK_STR(e.msg, "/dev/full: write error: No space left on device");
	lsv_out_abort(o);
}

static void out_same_finds_one_destination_by_any_name(void)
{
	char p[4096], dotp[4096], link[4096], q[4096], sub[4096], upp[4096];
	lsv_out *a, *b, *c, *l, *u, *s1, *s2, *n1, *n2;
	lsv_error e;

	make_dir();
	snprintf(p, sizeof p, "%s/p", dir);
	snprintf(dotp, sizeof dotp, "%s/./p", dir);
	snprintf(link, sizeof link, "%s/link", dir);
	snprintf(q, sizeof q, "%s/q", dir);
	snprintf(sub, sizeof sub, "%s/sub", dir);
	snprintf(upp, sizeof upp, "%s/sub/../p", dir);
	CHECK(mkdir(sub, 0700) == 0);
	CHECK(symlink("p", link) == 0);  /* to a file not there yet */
	CHECK(lsv_out_open(p, &a, &e) == LSV_OK);
	CHECK(lsv_out_open(dotp, &b, &e) == LSV_OK);
	CHECK(lsv_out_open(link, &l, &e) == LSV_OK);
	CHECK(lsv_out_open(upp, &u, &e) == LSV_OK);
	CHECK(lsv_out_open(q, &c, &e) == LSV_OK);
	CHECK(lsv_out_same(a, b) && lsv_out_same(a, l) && lsv_out_same(a, u));
	CHECK(!lsv_out_same(a, c));
	CHECK(lsv_out_open("-", &s1, &e) == LSV_OK);
	CHECK(lsv_out_open("-", &s2, &e) == LSV_OK);
	CHECK(lsv_out_same(s1, s2) && !lsv_out_same(s1, a));
	/* written into, not renamed over: never the same */
	CHECK(lsv_out_open("/dev/null", &n1, &e) == LSV_OK);
	CHECK(lsv_out_open("/dev/null", &n2, &e) == LSV_OK);
	CHECK(!lsv_out_same(n1, n2));
	lsv_out_abort(a);
	lsv_out_abort(b);
	lsv_out_abort(l);
	lsv_out_abort(u);
	lsv_out_abort(c);
	lsv_out_abort(s1);
	lsv_out_abort(s2);
	lsv_out_abort(n1);
	lsv_out_abort(n2);
	CHECK(count_entries() == 2);  /* link and sub: no temporary left */
	unlink(link);
	rmdir(sub);
	rmdir(dir);
}

const unit_case io_cases[] = {
	{"out_through_symlink_replaces_target_keeps_link",
	 out_through_symlink_replaces_target_keeps_link},
	{"out_to_a_device_writes_into_it", out_to_a_device_writes_into_it},
	{"out_to_a_directory_is_refused", out_to_a_directory_is_refused},
	{"out_replaces_file_only_on_commit", out_replaces_file_only_on_commit},
	{"out_abort_leaves_old_file_and_no_temporary",
	 out_abort_leaves_old_file_and_no_temporary},
	{"out_gets_umask_mode_not_0600", out_gets_umask_mode_not_0600},
	{"out_in_missing_directory_fails_cleanly", out_in_missing_directory_fails_cleanly},
	{"out_close_completes_the_file_and_leaves_the_destination",
	 out_close_completes_the_file_and_leaves_the_destination},
	{"out_close_reports_a_write_error_and_leaves_it_to_abort",
	 out_close_reports_a_write_error_and_leaves_it_to_abort},
	{"out_same_finds_one_destination_by_any_name",
	 out_same_finds_one_destination_by_any_name},
	{NULL, NULL},
};
