/*
 * text.c -- the line reader and tokenizer behind the data, graph and model
 * readers, so they all accept the same things: LF or CRLF line ends,
 * spaces or tabs between tokens, trailing blanks, a "# comment" to the end
 * of a line (SVMlight); and refuse the same things: NUL bytes, and a byte
 * order mark at the start, named as such (it is invisible: the first label
 * would be refused as "found '1', expected a number").  Refused, not
 * skipped, as every reader is strict: the formats are plain text, LIBSVM
 * and SVMlight do not read such a file either, and a file this toolkit
 * accepts should read the same in the tools it is exchanged with.
 */
#define _DEFAULT_SOURCE  /* madvise (Linux) */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "internal.h"

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Byte order marks, and the magic bytes of compressed files, what a
 * message says of each.  Looked for before the NUL check, which UTF-16
 * text or a .gz would fail with a vaguer message. */
static const struct {
	const char *bytes, *says;
} marks[] = {
	{"\xef\xbb\xbf", "a UTF-8 byte order mark (\\xef\\xbb\\xbf); save it "
			  "without one"},
	{"\xff\xfe", "a UTF-16 byte order mark (\\xff\\xfe); save it as ASCII "
		     "or UTF-8 text without one"},
	{"\xfe\xff", "a UTF-16 byte order mark (\\xfe\\xff); save it as ASCII "
		     "or UTF-8 text without one"},
	{"\x1f\x8b", "gzip's magic bytes (\\x1f\\x8b): it is compressed; "
		     "decompress it first (gunzip, or zcat FILE | ... -)"},
	{"\xfd""7zXZ", "xz's magic bytes: it is compressed; decompress it "
		       "first (unxz, or xzcat FILE | ... -)"},
	{"PK\x03\x04", "a zip archive's magic bytes (PK\\x03\\x04): extract "
			"the data file first (unzip)"},
};

/* What to say of the byte order mark line 1 (len bytes) starts with, or
 * NULL if it starts with none.  bzip2's magic is text ("BZh", a level
 * 1-9, then a block's "1AY&SY" or the empty stream's end marker), so it
 * is matched whole: a list of file names may start with "BZh". */
static const char *starts_with_mark(const char *s, size_t len)
{
	size_t i, n;

	for (i = 0; i < sizeof marks / sizeof *marks; i++) {
		n = strlen(marks[i].bytes);
		if (len >= n && memcmp(s, marks[i].bytes, n) == 0)
			return marks[i].says;
	}
	if (len >= 10 && memcmp(s, "BZh", 3) == 0 && s[3] >= '1' &&
	    s[3] <= '9' && (memcmp(s + 4, "1AY&SY", 6) == 0 ||
			    memcmp(s + 4, "\x17\x72\x45\x38\x50\x90", 6) == 0))
		return "bzip2's magic bytes (BZh): it is compressed; decompress "
		       "it first (bunzip2, or bzcat FILE | ... -)";
	return NULL;
}

int lsv_lines_next(lsv_lines *r, char **s, lsv_error *err)
{
	ssize_t len;
	size_t m;
	char *hash;
	const char *mark;

again:
	if (r->end > 0 && r->at >= r->end)
		return 0;  /* the next line starts in the next part */
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
	r->at += len;
	m = (size_t)len;
	if (r->line == 1 && (mark = starts_with_mark(r->buf, m)) != NULL) {
		lsv_fail(err, LSV_EFORMAT, "%s:1: the file starts with %s",
			 r->name, mark);
		return -1;
	}
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

char *lsv_big_buffer(FILE *fp)
{
	/* glibc ignores the size unless given the buffer itself */
	size_t size = (size_t)1 << 20;
	char *buf = malloc(size);

	/* failure leaves stdio's own buffer: slower, not wrong */
	if (buf != NULL && setvbuf(fp, buf, _IOFBF, size) != 0) {
		free(buf);
		buf = NULL;
	}
	return buf;
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

/* A large array (a data set's values: hundreds of MB) filled in order
 * takes one page fault per 4 KiB page as it goes, and on a virtual
 * machine the fault costs more than the parsing that fills the page: the
 * grown part [from, to) of a large array (from 1 MiB) is mapped at once,
 * one call (advice: ignored where unsupported). */
void lsv_prefault(void *q, size_t from, size_t to)
{
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
	const uintptr_t page = 4096;
	uintptr_t a = ((uintptr_t)q + from + page - 1) & ~(page - 1);
	uintptr_t e = ((uintptr_t)q + to) & ~(page - 1);

	if (to >= ((size_t)1 << 20) && e > a)
		(void)madvise((void *)a, e - a, MADV_POPULATE_WRITE);
#else
	(void)q;
	(void)from;
	(void)to;
#endif
}

void *lsv_malloc_mapped(size_t bytes)
{
	void *p = malloc(bytes ? bytes : 1);

	if (p != NULL)
		lsv_prefault(p, 0, bytes);
	return p;
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
	lsv_prefault(q, *cap * sz, c * sz);
	*p = q;
	*cap = c;
	return 0;
}
