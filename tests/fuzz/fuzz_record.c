/*
 * fuzz_record.c -- lsv_graph_record_read (the graph record of
 * graph-build, FILE.knn, read back by graph-build -U) on arbitrary bytes.
 *
 * A refused input must come back as an error naming the input, with
 * nothing returned.  An accepted record must keep the format's promises
 * (rows in 1..INT_MAX, rowptr from 0 to the pair count, every pair's row
 * below n and not its own, every key finite and >= 0, the options one
 * line), and lsv_graph_record_write must give text that reads back to the
 * same record bit for bit and writes the same bytes again.
 */
#include <limits.h>
#include <math.h>

#include "fuzz.h"

static void check_record(const lsv_graph_record *r)
{
	size_t i, p;

	FUZZ_CHECK(r->n > 0 && r->n <= (size_t)INT_MAX && r->rowptr != NULL);
	FUZZ_CHECK(r->dense == 0 || r->dense == 1);
	FUZZ_CHECK(memchr(r->options, '\0', sizeof r->options) != NULL);
	FUZZ_CHECK(strchr(r->options, '\n') == NULL);
	FUZZ_CHECK(r->rowptr[0] == 0);
	for (i = 0; i < r->n; i++) {
		FUZZ_CHECK(r->rowptr[i] <= r->rowptr[i + 1]);
		for (p = r->rowptr[i]; p < r->rowptr[i + 1]; p++) {
			FUZZ_CHECK(r->col[p] >= 0 && (size_t)r->col[p] < r->n);
			FUZZ_CHECK((size_t)r->col[p] != i);
			FUZZ_CHECK(isfinite(r->key[p]) && r->key[p] >= 0.0);
		}
	}
}

static void check_same(const lsv_graph_record *a, const lsv_graph_record *b)
{
	size_t m = a->rowptr[a->n];

	FUZZ_CHECK(a->n == b->n && a->dim == b->dim && a->dense == b->dense);
	FUZZ_CHECK(a->data_fp == b->data_fp && a->graph_fp == b->graph_fp);
	FUZZ_CHECK(strcmp(a->options, b->options) == 0);
	FUZZ_CHECK(memcmp(a->rowptr, b->rowptr, (a->n + 1) * sizeof *a->rowptr) == 0);
	FUZZ_CHECK(m == 0 || memcmp(a->col, b->col, m * sizeof *a->col) == 0);
	FUZZ_CHECK(m == 0 || memcmp(a->key, b->key, m * sizeof *a->key) == 0);
}

/* The record's text, in a new buffer (*len bytes). */
static char *written(const lsv_graph_record *r, size_t *len)
{
	char *text = NULL;
	lsv_error err;
	FILE *fp = fuzz_memstream(&text, len);

	FUZZ_CHECK(lsv_graph_record_write(fp, "out", r, &err) == LSV_OK);
	FUZZ_CHECK(fclose(fp) == 0);
	return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	lsv_graph_record *r, *s;
	lsv_error err;
	lsv_status st;
	char *text, *again;
	size_t len, len2;
	FILE *fp = fuzz_open(data, size);

	st = lsv_graph_record_read(fp, "fuzz", &r, &err);
	fclose(fp);
	if (st != LSV_OK) {
		fuzz_check_failure(st, r, &err, "fuzz");
		return 0;
	}
	check_record(r);

	text = written(r, &len);
	fp = fuzz_open(text, len);
	st = lsv_graph_record_read(fp, "again", &s, &err);
	fclose(fp);
	if (st != LSV_OK)
		fprintf(stderr, "written record refused: %s\n", err.msg);
	FUZZ_CHECK(st == LSV_OK);
	check_same(r, s);
	again = written(s, &len2);
	FUZZ_CHECK(len == len2 && memcmp(text, again, len) == 0);

	free(again);
	free(text);
	lsv_graph_record_free(s);
	lsv_graph_record_free(r);
	return 0;
}
