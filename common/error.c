/*
 * error.c -- status names, the error-message setter, and the terminal-safe
 * copy of text that every message goes through.
 *
 * The library reports failures by value: a status code and a one-line
 * message in a caller-supplied lsv_error.  Messages longer than the buffer
 * are cut and marked with "..." rather than overrunning anything.  A
 * message echoes input (tokens, file names), and input can hold any byte:
 * every message is stored through lsv_text_safe, so no front end can put a
 * carriage return, an escape sequence or an invisible character on a
 * terminal by printing it.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "internal.h"

const char *lsv_status_name(lsv_status s)
{
	switch (s) {
	case LSV_OK: return "success";
	case LSV_EIO: return "input/output error";
	case LSV_EFORMAT: return "malformed input";
	case LSV_ENOMEM: return "out of memory";
	case LSV_ETOOBIG: return "problem too large";
	case LSV_EINVAL: return "invalid argument";
	case LSV_ENUMERIC: return "numerical failure";
	}
	return "unknown status";
}

/* The length of the valid UTF-8 sequence of 2 to 4 bytes at s, its code
 * point in *cp; 0 if s starts none (a lone or cut sequence, an overlong
 * form, a surrogate, beyond U+10FFFF).  Stops at the NUL of a cut one. */
static size_t utf8_seq(const unsigned char *s, unsigned long *cp)
{
	unsigned long c, min;
	size_t n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2, c = s[0] & 0x1fu, min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3, c = s[0] & 0x0fu, min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4, c = s[0] & 0x07u, min = 0x10000;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3fu);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/* Valid characters that still must not reach a terminal as they are:
 * the C1 controls (U+009B is a CSI, as ESC [ is), the byte order mark
 * (invisible: "found '1'" would hide why 1 was refused), the
 * bidirectional controls that reorder what is shown (Trojan Source,
 * CVE-2021-42574: ALM, LRM, RLM, LRE..RLO, LRI..PDI) and the Unicode line
 * and paragraph separators (a message is one line). */
static int hidden(unsigned long cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0xfeff || cp == 0x061c ||
	       cp == 0x200e || cp == 0x200f || cp == 0x2028 || cp == 0x2029 ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Byte c as the four characters \xNN into u; returns 4. */
static size_t hex_byte(char *u, unsigned char c)
{
	static const char digits[] = "0123456789abcdef";

	u[0] = '\\';
	u[1] = 'x';
	u[2] = digits[c >> 4];
	u[3] = digits[c & 15];
	return 4;
}

/*
 * The safe text of in, unit by unit (a byte or character as it is, or its
 * escape): written to out while whole units fit in room bytes, the first
 * that does not fit ending the writing (never half an escape or half a
 * character).  Returns the length of the whole safe text; *wrote gets the
 * bytes written.
 */
static size_t safe_units(char *out, size_t room, const char *in, size_t *wrote)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t total = 0, done = 0;
	int full = 0;

	while (*p != '\0') {
		char u[16];
		size_t ulen = 0, adv = 1, k = 0;
		unsigned long cp = 0;

		if (*p >= 0x20 && *p < 0x7f) {
			u[ulen++] = (char)*p;
		} else if (*p == '\t' || *p == '\n' || *p == '\r') {
			u[ulen++] = '\\';
			u[ulen++] = *p == '\t' ? 't' : *p == '\n' ? 'n' : 'r';
		} else if (*p < 0x80 || (k = utf8_seq(p, &cp)) == 0) {
			ulen = hex_byte(u, *p);  /* C0, DEL, not UTF-8 */
		} else if (hidden(cp)) {
			for (adv = 0; adv < k; adv++)
				ulen += hex_byte(u + ulen, p[adv]);
		} else {
			memcpy(u, p, k);
			ulen = adv = k;
		}
		if (!full && done + ulen <= room) {
			memcpy(out + done, u, ulen);
			done += ulen;
		} else {
			full = 1;
		}
		total += ulen;
		p += adv;
	}
	*wrote = done;
	return total;
}

size_t lsv_text_safe(char *out, size_t size, const char *in)
{
	size_t total, done, dots;

	if (size == 0)
		return safe_units(NULL, 0, in, &done);
	total = safe_units(out, size - 1, in, &done);
	if (total < size) {
		out[total] = '\0';
		return total;
	}
	/* Cut: whole units, then as much of "..." as fits. */
	dots = size - 1 < 3 ? size - 1 : 3;
	(void)safe_units(out, size - 1 - dots, in, &done);
	memcpy(out + done, "...", dots);
	out[done + dots] = '\0';
	return total;
}

/* The message part of lsv_fail and lsv_fail_why; err is not NULL.  The
 * text is formatted one byte longer than the message can hold, so a text
 * cut here is still too long for the message and gets its "..." from
 * lsv_text_safe (escaping never shortens). */
static void set_msg(lsv_error *err, lsv_status s, const char *fmt, va_list ap)
{
	char raw[LSV_ERRMSG_MAX + 1];
	int len = vsnprintf(raw, sizeof raw, fmt, ap);

	if (len < 0)
		strcpy(err->msg, lsv_status_name(s));
	else
		(void)lsv_text_safe(err->msg, sizeof err->msg, raw);
}

lsv_status lsv_fail(lsv_error *err, lsv_status s, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return s;
	err->status = s;
	err->why = LSV_WHY_NONE;
	err->row = 0;
	va_start(ap, fmt);
	set_msg(err, s, fmt, ap);
	va_end(ap);
	return s;
}

lsv_status lsv_fail_why(lsv_error *err, lsv_status s, lsv_why why,
			const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return s;
	err->status = s;
	err->why = why;
	err->row = 0;
	va_start(ap, fmt);
	set_msg(err, s, fmt, ap);
	va_end(ap);
	return s;
}

const char *lsv_error_row_text(const lsv_error *err)
{
	char head[32];
	int len = snprintf(head, sizeof head, "row %zu: ", err->row);

	return err->row > 0 && len > 0 &&
	       strncmp(err->msg, head, (size_t)len) == 0 ? err->msg + len : NULL;
}

lsv_status lsv_fail_row(lsv_error *err, lsv_status s, size_t row,
			const char *fmt, ...)
{
	char text[LSV_ERRMSG_MAX + 1];
	va_list ap;
	int len;

	if (err == NULL)
		return s;
	va_start(ap, fmt);
	len = vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	if (len < 0)
		strcpy(text, lsv_status_name(s));
	(void)lsv_fail(err, s, "row %zu: %s", row, text);
	err->row = row;
	return s;
}

lsv_status lsv_fail_open(lsv_error *err, const char *path)
{
	int e = errno;

	if (path[0] == '\0')
		return lsv_fail(err, LSV_EIO, "'': cannot open: the file name is "
				"empty");
	return lsv_fail(err, LSV_EIO, "%s: cannot open: %s", path, strerror(e));
}
