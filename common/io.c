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
	FILE *fp;
	char *path;  /* destination; NULL for standard output */
	char *tmp;   /* temporary file beside it */
	int direct;  /* fp is the destination itself (stdout, FIFO, device) */
};

/* An existing destination that is not a regular file (/dev/null, a FIFO,
 * a terminal) is written into, not replaced: renaming a file over it
 * would destroy it.  A symbolic link is followed, so the file it names is
 * replaced and the link kept. */
static lsv_status open_direct(lsv_out *o, const char *path, lsv_error *err)
{
	o->fp = fopen(path, "w");
	o->path = o->fp ? strdup(path) : NULL;
	if (o->fp != NULL && o->path == NULL) {
		fclose(o->fp);
		free(o);
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	}
	if (o->fp == NULL) {
		lsv_status st = lsv_fail(err, LSV_EIO, "%s: cannot open: %s", path,
					 strerror(errno));
		free(o);
		return st;
	}
	o->direct = 1;
	return LSV_OK;
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

lsv_status lsv_out_open(const char *path, lsv_out **out, lsv_error *err)
{
	lsv_out *o;
	const char *slash, *base;
	char *real = NULL;
	size_t dirlen, len, blen;
	struct stat sb;
	mode_t mask, mode;
	int fd;

	*out = NULL;
	o = calloc(1, sizeof *o);
	if (o == NULL)
		return lsv_fail(err, LSV_ENOMEM, "%s: out of memory", path);
	if (strcmp(path, "-") == 0) {
		o->fp = stdout;
		o->direct = 1;
		*out = o;
		return LSV_OK;
	}
	if (*path == '\0') {
		free(o);
		return lsv_fail(err, LSV_EINVAL, "empty output file name");
	}
	/* A link is followed, even to a file not there yet: the target is
	 * replaced and the link kept. */
	if (lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode)) {
		real = follow_links(path);
		if (real == NULL) {
			lsv_status st = lsv_fail(err, LSV_EIO,
						 "%s: cannot resolve the link: %s",
						 path, strerror(errno));
			free(o);
			return st;
		}
		path = real;
	}
	if (stat(path, &sb) == 0) {
		lsv_status st;
		if (S_ISDIR(sb.st_mode)) {
			st = lsv_fail(err, LSV_EIO, "%s: is a directory", path);
			free(real);
			free(o);
			return st;
		}
		if (!S_ISREG(sb.st_mode)) {
			if ((st = open_direct(o, path, err)) == LSV_OK)
				*out = o;
			free(real);
			return st;
		}
		/* Replacing a file keeps its permissions (a private 0600
		 * model must not become world-readable). */
		mode = sb.st_mode & 0777;
	} else {
		/* A new file gets the mode a plain fopen would give. */
		mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	slash = strrchr(path, '/');
	base = slash ? slash + 1 : path;
	dirlen = (size_t)(base - path);
	len = strlen(path);
	o->path = malloc(len + 1);
	o->tmp = malloc(len + sizeof "." TMP_SUFFIX);
	if (o->path == NULL || o->tmp == NULL) {
		lsv_out_abort(o);
		free(real);
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	}
	memcpy(o->path, path, len + 1);
	path = o->path;  /* real (the link's target) is no longer needed */
	base = path + dirlen;
	free(real);
	/* "dir/.base.tmp.XXXXXX": hidden, and named after its destination so a
	 * stray one (left by kill -9) is easy to recognise.  A legal name near
	 * NAME_MAX would overflow with the 12 added bytes, so base is cut
	 * short then; mkstemp's random part still keeps the name unique. */
	blen = strlen(base);
	if (blen > NAME_MAX - (sizeof "." TMP_SUFFIX - 1))
		blen = NAME_MAX - (sizeof "." TMP_SUFFIX - 1);
	memcpy(o->tmp, path, dirlen);
	o->tmp[dirlen] = '.';
	memcpy(o->tmp + dirlen + 1, base, blen);
	strcpy(o->tmp + dirlen + 1 + blen, TMP_SUFFIX);
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		lsv_status st = lsv_fail(err, LSV_EIO,
					 "%s: cannot create a file beside it: %s",
					 path, strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		lsv_out_abort(o);
		return st;
	}
	/* mkstemp makes the file 0600; give it the mode chosen above. */
	if (fchmod(fd, mode) != 0) {
		/* Not fatal: the output is still correct, only stricter. */
	}
	o->fp = fdopen(fd, "w");
	if (o->fp == NULL) {
		lsv_status st = lsv_fail(err, LSV_EIO, "%s: %s", path,
					 strerror(errno));
		close(fd);
		lsv_out_abort(o);
		return st;
	}
	*out = o;
	return LSV_OK;
}

FILE *lsv_out_file(lsv_out *o)
{
	return o->fp;
}

const char *lsv_out_tmpname(const lsv_out *o)
{
	return o->tmp;
}

lsv_status lsv_out_commit(lsv_out *o, lsv_error *err)
{
	lsv_status st = LSV_OK;
	int e = 0;

	if (o->direct) {  /* standard output, a FIFO, a device */
		int bad = fflush(o->fp) != 0 || ferror(o->fp);
		int e = errno;
		if (o->fp != stdout && fclose(o->fp) != 0 && !bad) {
			bad = 1;
			e = errno;
		}
		if (bad)
			st = lsv_fail(err, LSV_EIO, "%s: write error: %s",
				      o->path ? o->path : "(stdout)", strerror(e));
		free(o->path);
		free(o);
		return st;
	}
	if (fflush(o->fp) != 0 || ferror(o->fp) || fsync(fileno(o->fp)) != 0)
		e = errno ? errno : EIO;
	if (fclose(o->fp) != 0 && e == 0)
		e = errno;
	o->fp = NULL;
	if (e == 0 && rename(o->tmp, o->path) != 0)
		e = errno;
	if (e != 0) {
		st = lsv_fail(err, LSV_EIO, "%s: write error: %s (file not changed)",
			      o->path, strerror(e));
		lsv_out_abort(o);
		return st;
	}
	free(o->tmp);
	free(o->path);
	free(o);
	return LSV_OK;
}

void lsv_out_abort(lsv_out *o)
{
	if (o == NULL)
		return;
	if (o->fp != NULL && o->fp != stdout)
		fclose(o->fp);
	if (o->tmp != NULL)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	free(o);
}
