/*
 * fuzz.h -- shared by the fuzz harnesses (tests/fuzz/fuzz_*.c): the bytes
 * as a FILE, a text buffer as a FILE, and FUZZ_CHECK, which aborts (a
 * crash to libFuzzer and to the replay driver) when an invariant fails.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lapsvm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond)                                                     \
	do {                                                                 \
		if (!(cond)) {                                               \
			fprintf(stderr, "%s:%d: FUZZ_CHECK(%s) failed\n",    \
				__FILE__, __LINE__, #cond);                  \
			abort();                                             \
		}                                                            \
	} while (0)

/* A read-only FILE over size bytes (NUL bytes included; fmemopen in "r"
 * mode reads exactly size bytes). */
static inline FILE *fuzz_open(const void *data, size_t size)
{
	static char empty[1];
	FILE *fp = fmemopen(size ? (void *)data : empty, size, "r");
	FUZZ_CHECK(fp != NULL);
	return fp;
}

/* A failed read: nothing returned, the status recorded in err, and a
 * one-line message that names the input (every reader message starts
 * with the name it was given) and is safe to print: its own
 * lsv_text_safe copy (no control byte, no invalid UTF-8, whatever bytes
 * of the input it quotes). */
static inline void fuzz_check_failure(lsv_status st, const void *out,
				      const lsv_error *err, const char *name)
{
	char safe[LSV_ERRMSG_MAX];

	FUZZ_CHECK(st != LSV_OK);
	FUZZ_CHECK(out == NULL);
	FUZZ_CHECK(err->status == st);
	FUZZ_CHECK(memchr(err->msg, '\0', sizeof err->msg) != NULL);
	FUZZ_CHECK(strncmp(err->msg, name, strlen(name)) == 0);
	FUZZ_CHECK(strchr(err->msg, '\n') == NULL);
	FUZZ_CHECK(lsv_text_safe(safe, sizeof safe, err->msg) < sizeof safe);
	FUZZ_CHECK(strcmp(safe, err->msg) == 0);
}

/* A FILE writing into a new buffer; after fclose, *buf (owned) holds
 * *len bytes and a terminating NUL. */
static inline FILE *fuzz_memstream(char **buf, size_t *len)
{
	FILE *fp = open_memstream(buf, len);
	FUZZ_CHECK(fp != NULL);
	return fp;
}

#endif
