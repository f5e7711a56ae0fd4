/*
 * io.c -- crash-safe output files.
 *
 * An output is written to a temporary file in the destination's own
 * directory (rename is atomic only within one file system), then flushed,
 * fsync'ed and renamed over the destination.  Whatever happens before the
 * rename -- bad input found late, a full disk, a kill -- the previous file
 * at that path is intact; a reader never sees half a model or graph.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "lapsvm.h"

#ifndef NAME_MAX
#define NAME_MAX 255
#endif
#ifndef PATH_MAX
#define PATH_MAX 4096
#endif
#define TMP_SUFFIX ".tmp.XXXXXX"
#define MAX_LINKS 40  /* as the kernel's own limit: a loop ends in ELOOP */

struct lsv_out {
	FILE *fp;    /* NULL once closed (standard output stays) */
	char *buf;   /* fp's buffer (lsv_big_buffer), freed after fclose */
	char *path;  /* destination; NULL for standard output */
	char *tmp;   /* temporary file beside it */
	/* What the messages call it: the name the user gave, with the file
	 * it leads to when that was a link ("out (a link to d/x)"); NULL:
	 * path itself.  The user's name, as a message naming only the
	 * target leaves a user who gave "out" wondering what was written. */
	char *name;
	int direct;  /* fp is the destination itself (stdout, FIFO, device) */
	int closed;  /* lsv_out_close was called (whatever it returned) */
	/* Where the rename will land, for lsv_out_same: the directory entry
	 * (the directory's device and inode, and the name in it), and the
	 * file there now if there is one. */
	int have_dir, exists;
	dev_t dir_dev, file_dev;
	ino_t dir_ino, file_ino;
	const char *base;  /* points into path */
};

/* An existing destination that is not a regular file (/dev/null, a FIFO,
 * a terminal) is written into, not replaced: renaming a file over it
 * would destroy it.  A symbolic link is followed, so the file it names is
 * replaced and the link kept. */
static lsv_status open_direct(lsv_out *o, const char *path, char *name,
			      lsv_error *err)
{
	o->fp = fopen(path, "w");
	o->path = o->fp ? strdup(path) : NULL;
	if (o->fp != NULL && o->path == NULL) {
		fclose(o->fp);
		free(name);
		free(o);
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	}
	if (o->fp == NULL) {
		lsv_status st = lsv_fail_open(err, name ? name : path);
		free(name);
		free(o);
		return st;
	}
	o->name = name;
	o->direct = 1;
	return LSV_OK;
}

/* "link (a link to target)", malloc'ed, or NULL when out of memory (the
 * messages then name the link alone). */
static char *link_name(const char *link, const char *target)
{
	char *s = malloc(strlen(link) + strlen(target) + sizeof " (a link to )");
	if (s != NULL)
		sprintf(s, "%s (a link to %s)", link, target);
	return s;
}

/* The output's name in messages. */
static const char *out_name(const lsv_out *o)
{
	return o->name ? o->name : o->path ? o->path : "(stdout)";
}

/* Follow a chain of symbolic links by hand: realpath() fails on a link
 * whose target does not exist yet, yet the output must still go to that
 * target and the link be kept.  A relative target is relative to the
 * link's own directory.  Returns a malloc'ed path (the end of the chain,
 * existing or not), or NULL with errno set. */
static char *follow_links(const char *path)
{
	char *cur = strdup(path);
	char buf[PATH_MAX];
	int hops;

	for (hops = 0; cur != NULL; hops++) {
		struct stat sb;
		const char *slash;
		size_t dirlen;
		ssize_t n;
		char *next;

		if (lstat(cur, &sb) != 0 || !S_ISLNK(sb.st_mode))
			return cur;
		n = hops < MAX_LINKS ? readlink(cur, buf, sizeof buf) : -1;
		if (hops >= MAX_LINKS)
			errno = ELOOP;
		else if (n == (ssize_t)sizeof buf)
			errno = ENAMETOOLONG;
		if (n < 0 || n == (ssize_t)sizeof buf) {
			free(cur);
			return NULL;
		}
		slash = strrchr(cur, '/');
		dirlen = buf[0] != '/' && slash ? (size_t)(slash - cur) + 1 : 0;
		next = malloc(dirlen + (size_t)n + 1);
		if (next != NULL) {
			memcpy(next, cur, dirlen);
			memcpy(next + dirlen, buf, (size_t)n);
			next[dirlen + (size_t)n] = '\0';
		}
		free(cur);
		cur = next;
	}
	errno = ENOMEM;
	return NULL;
}

/* The destination's directory, dev and inode (path[0..dirlen) names it,
 * "." if empty): two names of one directory ("d/../d", "./d", a link)
 * give the same.  0 if it cannot be found (then paths are compared). */
static int dir_id(lsv_out *o, size_t dirlen)
{
	struct stat sb;
	char save = o->path[dirlen];
	int ok;

	o->path[dirlen] = '\0';  /* "/x": dirlen 1, the root */
	ok = stat(dirlen ? o->path : ".", &sb) == 0;
	o->path[dirlen] = save;
	if (ok) {
		o->dir_dev = sb.st_dev;
		o->dir_ino = sb.st_ino;
	}
	return ok;
}

/* Standard output ("-"): written into, never renamed or closed. */
static lsv_out *open_stdout(lsv_out *o)
{
	o->fp = stdout;
	o->direct = 1;
	return o;
}

/* A link at path is followed (even to a file not there yet: the target
 * is replaced and the link kept): *real the end of the chain, *name
 * "path (a link to real)" for the messages (NULL when out of memory:
 * they then name real).  Both NULL when path is no link. */
static lsv_status resolve_link(const char *path, char **real, char **name,
			       lsv_error *err)
{
	struct stat sb;

	*real = *name = NULL;
	if (lstat(path, &sb) != 0 || !S_ISLNK(sb.st_mode))
		return LSV_OK;
	*real = follow_links(path);
	if (*real == NULL)
		return lsv_fail(err, LSV_EIO, "%s: cannot resolve the link: %s",
				path, strerror(errno));
	*name = link_name(path, *real);
	return LSV_OK;
}

/* The mode of the new file: a file replaced keeps its permissions (a
 * private 0600 model must not become world-readable); a new one gets
 * what a plain fopen would give, 0666 less the umask. */
static mode_t output_mode(const struct stat *sb, int exists)
{
	mode_t mask;

	if (exists)
		return sb->st_mode & 0777;
	mask = umask(0);
	umask(mask);
	return 0666 & ~mask;
}

/* o's destination path (its directory path[0..dirlen), its name after
 * that) and room for the temporary name; where the rename will land for
 * lsv_out_same (sb: the file there now, when exists).  0 when out of
 * memory. */
static int set_destination(lsv_out *o, const char *path, size_t dirlen,
			   int exists, const struct stat *sb)
{
	size_t len = strlen(path);

	o->path = malloc(len + 1);
	o->tmp = malloc(len + sizeof "." TMP_SUFFIX);
	if (o->path == NULL || o->tmp == NULL) {
		/* no temporary file yet: lsv_out_abort must not unlink the
		 * uninitialised name */
		free(o->tmp);
		o->tmp = NULL;
		return 0;
	}
	memcpy(o->path, path, len + 1);
	o->base = o->path + dirlen;
	if ((o->exists = exists) != 0) {
		o->file_dev = sb->st_dev;
		o->file_ino = sb->st_ino;
	}
	o->have_dir = dir_id(o, dirlen);
	return 1;
}

/* The temporary file "dir/.base.tmp.XXXXXX" opened for writing with the
 * given mode: hidden, and named after its destination so a stray one
 * (left by kill -9) is easy to recognise.  A legal name near NAME_MAX
 * would overflow with the 12 added bytes, so base is cut short then;
 * mkstemp's random part still keeps the name unique.  On failure o is
 * freed (nothing left on disk). */
static lsv_status open_temp(lsv_out *o, size_t dirlen, mode_t mode,
			    lsv_error *err)
{
	size_t blen = strlen(o->base);
	lsv_status st;
	int fd;

	if (blen > NAME_MAX - (sizeof "." TMP_SUFFIX - 1))
		blen = NAME_MAX - (sizeof "." TMP_SUFFIX - 1);
	memcpy(o->tmp, o->path, dirlen);
	o->tmp[dirlen] = '.';
	memcpy(o->tmp + dirlen + 1, o->base, blen);
	strcpy(o->tmp + dirlen + 1 + blen, TMP_SUFFIX);
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		st = lsv_fail(err, LSV_EIO, "%s: cannot create a file beside it: "
			      "%s", out_name(o), strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		lsv_out_abort(o);
		return st;
	}
	/* mkstemp makes the file 0600; give it the mode chosen. */
	if (fchmod(fd, mode) != 0) {
		/* Not fatal: the output is still correct, only stricter. */
	}
	o->fp = fdopen(fd, "w");
	if (o->fp == NULL) {
		st = lsv_fail(err, LSV_EIO, "%s: %s", out_name(o), strerror(errno));
		close(fd);
		lsv_out_abort(o);
		return st;
	}
	o->buf = lsv_big_buffer(o->fp);
	return LSV_OK;
}

/*
 * The output to a regular file at path (the end of any link; shown: what
 * the messages call it; name: o's malloc'ed message name or NULL, now
 * o's), new or replaced (exists, sb: the file there now): its mode, its
 * destination, and the temporary file beside it.  On failure o and name
 * are freed.
 */
static lsv_status open_replacing(lsv_out *o, const char *path,
				 const char *shown, char *name, int exists,
				 const struct stat *sb, lsv_error *err)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t dirlen = (size_t)(base - path);
	mode_t mode = output_mode(sb, exists);

	/* The temporary name is cut short (open_temp): a new name too long
	 * to exist would fail only at the rename, after the work, and after
	 * the run's other outputs were replaced (graph-build's graph, then
	 * its record graph.knn). */
	if (!exists && strlen(base) > NAME_MAX) {
		lsv_status st = lsv_fail(err, LSV_EIO, "%s: cannot create: %s (a "
					 "file name has at most %d bytes)", shown,
					 strerror(ENAMETOOLONG), NAME_MAX);
		free(name);
		free(o);
		return st;
	}
	o->name = name;  /* freed with o from here on */
	if (!set_destination(o, path, dirlen, exists, sb)) {
		lsv_out_abort(o);
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	}
	return open_temp(o, dirlen, mode, err);
}

lsv_status lsv_out_open(const char *path, lsv_out **out, lsv_error *err)
{
	lsv_out *o;
	const char *shown = path;
	char *real = NULL, *name = NULL;
	struct stat sb;
	lsv_status st;
	int exists;

	*out = NULL;
	o = calloc(1, sizeof *o);
	if (o == NULL)
		return lsv_fail(err, LSV_ENOMEM, "%s: out of memory", path);
	if (strcmp(path, "-") == 0) {
		*out = open_stdout(o);
		return LSV_OK;
	}
	if (*path == '\0') {
		free(o);
		return lsv_fail(err, LSV_EINVAL, "empty output file name");
	}
	/* A device, pipe or FIFO, reached through links or not, is written
	 * into directly.  Checked before the links are followed by name:
	 * /dev/stdout on a pipe is a link to /proc/self/fd/1, whose own link
	 * text ("pipe:[1234]") names no file, though the kernel opens it. */
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode) &&
	    !S_ISDIR(sb.st_mode))
		st = open_direct(o, path, NULL, err);
	else if ((st = resolve_link(path, &real, &name, err)) != LSV_OK)
		free(o);
	else {
		if (real != NULL)
			path = real;
		if (name != NULL)
			shown = name;
		exists = stat(path, &sb) == 0;
		if (exists && S_ISDIR(sb.st_mode)) {
			st = lsv_fail(err, LSV_EIO, "%s: is a directory", shown);
			free(name);
			free(o);
		} else if (exists && !S_ISREG(sb.st_mode))
			st = open_direct(o, path, name, err);
		else
			st = open_replacing(o, path, shown, name, exists, &sb, err);
		free(real);  /* o holds its own copy of path */
	}
	if (st == LSV_OK)
		*out = o;
	return st;
}

FILE *lsv_out_file(lsv_out *o)
{
	return o->fp;
}

const char *lsv_out_tmpname(const lsv_out *o)
{
	return o->tmp;
}

lsv_status lsv_out_close(lsv_out *o, lsv_error *err)
{
	int e = 0;

	if (o->closed)
		return LSV_OK;
	o->closed = 1;
	/* errno may hold anything from the work since the last write: only
	 * what flushing now sets is the cause (a failed write leaves its data
	 * in the buffer, so flushing tries again and sets it anew). */
	errno = 0;
	if (fflush(o->fp) != 0 || ferror(o->fp) ||
	    (!o->direct && fsync(fileno(o->fp)) != 0))
		e = errno ? errno : EIO;
	if (o->fp != stdout) {
		if (fclose(o->fp) != 0 && e == 0)
			e = errno ? errno : EIO;
		o->fp = NULL;
		free(o->buf);
		o->buf = NULL;
	}
	if (e != 0)
		return lsv_fail(err, LSV_EIO, "%s: write error: %s",
				out_name(o), strerror(e));
	return LSV_OK;
}

lsv_status lsv_out_commit(lsv_out *o, lsv_error *err)
{
	lsv_status st;

	if ((st = lsv_out_close(o, err)) != LSV_OK) {
		if (!o->direct && err != NULL) {
			char msg[sizeof err->msg];
			memcpy(msg, err->msg, sizeof msg);
			lsv_fail(err, st, "%s (file not changed)", msg);
		}
		lsv_out_abort(o);
		return st;
	}
	if (!o->direct && rename(o->tmp, o->path) != 0) {
		st = lsv_fail(err, LSV_EIO, "%s: cannot rename the new file into "
			      "place: %s (file not changed)", out_name(o),
			      strerror(errno));
		lsv_out_abort(o);
		return st;
	}
	/* A direct output was written in place: nothing to rename. */
	free(o->tmp);
	free(o->path);
	free(o->name);
	free(o);
	return LSV_OK;
}

int lsv_out_same(const lsv_out *a, const lsv_out *b)
{
	if (a->path == NULL || b->path == NULL)  /* standard output */
		return a->path == b->path;
	/* Written into (/dev/null, a FIFO): nothing is renamed, nothing
	 * lost by writing it twice. */
	if (a->direct || b->direct)
		return 0;
	if (!a->have_dir || !b->have_dir)
		return strcmp(a->path, b->path) == 0;
	if (a->dir_dev != b->dir_dev || a->dir_ino != b->dir_ino)
		return 0;
	/* One directory: the same name, or two names of one existing file
	 * there (on a case-insensitive file system "Out" and "out"; two hard
	 * links there are refused too, to be safe).  The directory, not the
	 * file, decides: a file not there yet has no inode to compare, and
	 * two renames into different directories lose nothing. */
	return strcmp(a->base, b->base) == 0 ||
	       (a->exists && b->exists && a->file_dev == b->file_dev &&
		a->file_ino == b->file_ino);
}

int lsv_out_replaces(const lsv_out *o, const char *path)
{
	struct stat sb;

	/* "-" is standard input, which may be the output file itself
	 * (prog - out < out) */
	if (o->path == NULL || o->direct || !o->exists ||
	    (strcmp(path, "-") == 0 ? fstat(STDIN_FILENO, &sb)
				    : stat(path, &sb)) != 0)
		return 0;
	/* Another hard link to the input would leave the input's own name
	 * intact, but is refused too, to be safe (as lsv_out_same). */
	return sb.st_dev == o->file_dev && sb.st_ino == o->file_ino;
}

void lsv_out_abort(lsv_out *o)
{
	if (o == NULL)
		return;
	if (o->fp != NULL && o->fp != stdout)
		fclose(o->fp);
	free(o->buf);
	if (o->tmp != NULL)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	free(o->name);
	free(o);
}
