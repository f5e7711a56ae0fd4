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
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lapsvm.h"

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

lsv_status lsv_out_open(const char *path, lsv_out **out, lsv_error *err)
{
	lsv_out *o;
	const char *slash, *base;
	char *real = NULL;
	size_t dirlen, len;
	struct stat sb;
	mode_t mask;
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
	if (stat(path, &sb) == 0) {
		lsv_status st;
		if (S_ISDIR(sb.st_mode)) {
			free(o);
			return lsv_fail(err, LSV_EIO, "%s: is a directory", path);
		}
		if (!S_ISREG(sb.st_mode)) {
			if ((st = open_direct(o, path, err)) == LSV_OK)
				*out = o;
			return st;
		}
		if (lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode))
			path = real = realpath(path, NULL);
		if (path == NULL) {
			free(o);
			return lsv_fail(err, LSV_EIO, "cannot resolve a link: %s",
					strerror(errno));
		}
	}
	slash = strrchr(path, '/');
	base = slash ? slash + 1 : path;
	dirlen = (size_t)(base - path);
	len = strlen(path);
	o->path = malloc(len + 1);
	o->tmp = malloc(len + 16);
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
	 * stray one (left by kill -9) is easy to recognise. */
	memcpy(o->tmp, path, dirlen);
	sprintf(o->tmp + dirlen, ".%s.tmp.XXXXXX", base);
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
	/* mkstemp makes the file 0600; give it the mode a plain fopen would. */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) != 0) {
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
