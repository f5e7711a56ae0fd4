/*
 * unit.h -- a minimal test harness: each test is a function; CHECK records
 * a failure (with file, line and the expression) without stopping the
 * test; the runner prints "N passed, N failed" and exits non-zero on any
 * failure.
 */
#ifndef UNIT_H
#define UNIT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A mkstemp/mkdtemp template "DIR/stem-XXXXXX" in buf (cap bytes), DIR
 * from TMPDIR or /tmp, so the tests honour the caller's scratch
 * directory; the template is cut to an empty string (mkstemp then fails,
 * and the test's CHECK says so) when it does not fit. */
static inline char *unit_tmp(char *buf, size_t cap, const char *stem)
{
	const char *d = getenv("TMPDIR");
	int w = snprintf(buf, cap, "%s/%s-XXXXXX", d && *d ? d : "/tmp", stem);
	if (w < 0 || (size_t)w >= cap)
		buf[0] = '\0';
	return buf;
}

typedef struct {
	const char *name;
	void (*fn)(void);
} unit_case;

extern int unit_failed_checks;

#define CHECK(cond)                                                          \
	do {                                                                 \
		if (!(cond)) {                                               \
			unit_failed_checks++;                                \
			fprintf(stderr, "  %s:%d: CHECK(%s) failed\n",       \
				__FILE__, __LINE__, #cond);                  \
		}                                                            \
	} while (0)

#define CHECK_STR(got, want)                                                 \
	do {                                                                 \
		const char *g_ = (got), *w_ = (want);                        \
		if (strcmp(g_, w_) != 0) {                                   \
			unit_failed_checks++;                                \
			fprintf(stderr,                                      \
				"  %s:%d: got  \"%s\"\n  %*s  want \"%s\"\n", \
				__FILE__, __LINE__, g_,                      \
				(int)strlen(__FILE__) + 6, "", w_);          \
		}                                                            \
	} while (0)

#endif
