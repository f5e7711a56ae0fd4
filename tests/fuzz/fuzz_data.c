/*
 * fuzz_data.c -- lsv_data_read on arbitrary bytes.
 *
 * A refused input must come back as an error naming the input, with
 * nothing returned.  An accepted one must be a well-formed set (rowptr,
 * strictly increasing 0-based columns below dim, finite values, l counting
 * the rows whose label differs from the marker), and lsv_data_write must
 * give text that reads back to the same set bit for bit, and once more
 * with another unlabeled marker (the first label).
 */
#include <math.h>

#include "fuzz.h"

static void check_set(const lsv_data *x, double marker)
{
	size_t i, p, l = 0, dim = 0;

	FUZZ_CHECK(x->n > 0 && x->rowptr != NULL && x->y != NULL);
	FUZZ_CHECK(x->unlabeled == marker || (isnan(marker) && isnan(x->unlabeled)));
	FUZZ_CHECK(x->rowptr[0] == 0 && x->rowptr[x->n] == x->nnz);
	for (i = 0; i < x->n; i++) {
		FUZZ_CHECK(x->rowptr[i] <= x->rowptr[i + 1]);
		FUZZ_CHECK(isfinite(x->y[i]));
		l += lsv_data_is_labeled(x, i) != 0;
		for (p = x->rowptr[i]; p < x->rowptr[i + 1]; p++) {
			FUZZ_CHECK(x->col[p] >= 0);
			FUZZ_CHECK(p == x->rowptr[i] || x->col[p] > x->col[p - 1]);
			FUZZ_CHECK(isfinite(x->val[p]));
			if ((size_t)x->col[p] + 1 > dim)
				dim = (size_t)x->col[p] + 1;
		}
	}
	FUZZ_CHECK(l == x->l);
	FUZZ_CHECK(dim == x->dim);
}

static int same_bits(const void *a, const void *b, size_t n)
{
	return n == 0 || memcmp(a, b, n) == 0;
}

static void check_same(const lsv_data *x, const lsv_data *y)
{
	FUZZ_CHECK(x->n == y->n && x->nnz == y->nnz && x->dim == y->dim);
	FUZZ_CHECK(same_bits(x->rowptr, y->rowptr, (x->n + 1) * sizeof *x->rowptr));
	FUZZ_CHECK(same_bits(x->y, y->y, x->n * sizeof *x->y));
	FUZZ_CHECK(same_bits(x->col, y->col, x->nnz * sizeof *x->col));
	FUZZ_CHECK(same_bits(x->val, y->val, x->nnz * sizeof *x->val));
}

static lsv_data *read_text(const char *text, size_t len, double marker)
{
	lsv_data *x;
	lsv_error err;
	FILE *fp = fuzz_open(text, len);
	lsv_status st = lsv_data_read(fp, "again", marker, &x, &err);

	fclose(fp);
	if (st != LSV_OK)
		fprintf(stderr, "written text refused: %s\n", err.msg);
	FUZZ_CHECK(st == LSV_OK);
	check_set(x, marker);
	return x;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	lsv_data *x, *y;
	lsv_error err;
	lsv_status st;
	char *text = NULL;
	size_t len = 0;
	FILE *fp = fuzz_open(data, size);

	st = lsv_data_read(fp, "fuzz", LSV_UNLABELED_DEFAULT, &x, &err);
	fclose(fp);
	if (st != LSV_OK) {
		fuzz_check_failure(st, x, &err, "fuzz");
		return 0;
	}
	check_set(x, LSV_UNLABELED_DEFAULT);

	fp = fuzz_memstream(&text, &len);
	FUZZ_CHECK(lsv_data_write(fp, "out", x, &err) == LSV_OK);
	FUZZ_CHECK(fclose(fp) == 0);
	y = read_text(text, len, LSV_UNLABELED_DEFAULT);
	check_same(x, y);
	lsv_data_free(y);
	y = read_text(text, len, x->y[0]);
	check_same(x, y);
	FUZZ_CHECK(y->l < y->n);
	lsv_data_free(y);

	free(text);
	lsv_data_free(x);
	return 0;
}
