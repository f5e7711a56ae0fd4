/*
 * error.c -- status names and the error-message setter.
 *
 * The library reports failures by value: a status code and a one-line
 * message in a caller-supplied lsv_error.  Messages longer than the buffer
 * are cut and marked with "..." rather than overrunning anything.
 */
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

/* The message part of lsv_fail and lsv_fail_why; err is not NULL. */
static void set_msg(lsv_error *err, lsv_status s, const char *fmt, va_list ap)
{
	int len = vsnprintf(err->msg, sizeof err->msg, fmt, ap);

	if (len < 0)
		strcpy(err->msg, lsv_status_name(s));
	else if ((size_t)len >= sizeof err->msg)
		memcpy(err->msg + sizeof err->msg - 4, "...", 4);
}

lsv_status lsv_fail(lsv_error *err, lsv_status s, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return s;
	err->status = s;
	err->why = LSV_WHY_NONE;
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
	va_start(ap, fmt);
	set_msg(err, s, fmt, ap);
	va_end(ap);
	return s;
}
