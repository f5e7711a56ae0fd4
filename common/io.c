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
};

lsv_status lsv_out_open(const char *path, lsv_out **out, lsv_error *err)
{
	lsv_out *o;
	const char *slash, *base;
	size_t dirlen, len;
	mode_t mask;
	int fd;

	*out = NULL;
	o = calloc(1, sizeof *o);
	if (o == NULL)
		return lsv_fail(err, LSV_ENOMEM, "%s: out of memory", path);
	if (strcmp(path, "-") == 0) {
		o->fp = stdout;
		*out = o;
		return LSV_OK;
	}
	if (*path == '\0') {
		free(o);
		return lsv_fail(err, LSV_EINVAL, "empty output file name");
	}
	slash = strrchr(path, '/');
	base = slash ? slash + 1 : path;
	dirlen = (size_t)(base - path);
	len = strlen(path);
	o->path = malloc(len + 1);
	o->tmp = malloc(len + 16);
	if (o->path == NULL || o->tmp == NULL) {
		lsv_out_abort(o);
		return lsv_fail(err, LSV_ENOMEM, "%s: out of memory", path);
	}
	memcpy(o->path, path, len + 1);
	/* "dir/.base.tmp.XXXXXX": hidden, and named after its destination so a
	 * stray one (left by kill -9) is easy to recognise. */
	memcpy(o->tmp, path, dirlen);
	sprintf(o->tmp + dirlen, ".%s.tmp.XXXXXX", base);
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		int e = errno;
		free(o->tmp);
		o->tmp = NULL;
		lsv_out_abort(o);
		return lsv_fail(err, LSV_EIO, "%s: cannot create a file beside it: %s",
				path, strerror(e));
	}
	/* mkstemp makes the file 0600; give it the mode a plain fopen would. */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) != 0) {
		/* Not fatal: the output is still correct, only stricter. */
	}
	o->fp = fdopen(fd, "w");
	if (o->fp == NULL) {
		int e = errno;
		close(fd);
		lsv_out_abort(o);
		return lsv_fail(err, LSV_EIO, "%s: %s", path, strerror(e));
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

	if (o->path == NULL) {  /* standard output: flush and report */
		if (fflush(o->fp) != 0 || ferror(o->fp))
			st = lsv_fail(err, LSV_EIO, "(stdout): write error: %s",
				      strerror(errno));
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
	if (o->path != NULL && o->fp != NULL)
		fclose(o->fp);
	if (o->tmp != NULL)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	free(o);
}
