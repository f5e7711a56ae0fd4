/*
 * unit.h -- a minimal test harness: each test is a function; CHECK records
 * a failure (with file, line and the expression) without stopping the
 * test; the runner prints "N passed, N failed" and exits non-zero on any
 * failure.
 */
#ifndef UNIT_H
#define UNIT_H

#include <stdio.h>
#include <string.h>

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
