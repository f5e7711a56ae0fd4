/*
 * text.c -- the line reader and tokenizer behind the data, graph and model
 * readers, so they all accept the same things: LF or CRLF line ends,
 * spaces or tabs between tokens, trailing blanks, a "# comment" to the end
 * of a line (SVMlight); and refuse the same things: NUL bytes.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "internal.h"

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

int lsv_lines_next(lsv_lines *r, char **s, lsv_error *err)
{
	ssize_t len;
	size_t m;
	char *hash;

again:
	errno = 0;
	len = getline(&r->buf, &r->cap, r->fp);
	if (len == -1) {
		if (ferror(r->fp)) {
			lsv_fail(err, LSV_EIO, "%s:%zu: read error: %s", r->name,
				 r->line + 1, strerror(errno ? errno : EIO));
			return -1;
		}
		return 0;
	}
	r->line++;
	m = (size_t)len;
	if (strlen(r->buf) != m) {
		lsv_fail(err, LSV_EFORMAT,
			 "%s:%zu: NUL byte in line (is this a text file?)", r->name,
			 r->line);
		return -1;
	}
	hash = strchr(r->buf, '#');
	if (hash != NULL) {
		size_t b = strspn(r->buf, " \t");
		if (r->buf + b == hash)
			goto again;  /* a comment line is not a row */
		m = (size_t)(hash - r->buf);
	}
	while (m > 0 && (r->buf[m - 1] == '\n' || r->buf[m - 1] == '\r' ||
			 is_blank(r->buf[m - 1])))
		m--;
	r->buf[m] = '\0';
	*s = r->buf;
	return 1;
}

void lsv_lines_done(lsv_lines *r)
{
	free(r->buf);
	r->buf = NULL;
	r->cap = 0;
}

char *lsv_token(char **s)
{
	char *p = *s, *tok;

	while (is_blank(*p))
		p++;
	if (*p == '\0') {
		*s = p;
		return NULL;
	}
	tok = p;
	while (*p && !is_blank(*p))
		p++;
	if (*p)
		*p++ = '\0';
	*s = p;
	return tok;
}

int lsv_grow(void **p, size_t *cap, size_t need, size_t sz)
{
	size_t c = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return 0;
	while (c < need) {
		if (c > SIZE_MAX / 2 / sz)
			return -1;
		c *= 2;
	}
	q = realloc(*p, c * sz);
	if (q == NULL)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}
