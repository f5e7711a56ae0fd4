/*
 * fuzz_precomputed.c -- lsv_precomputed_read (LIBSVM's -t 4 kernel rows)
 * on arbitrary bytes.
 *
 * Read twice: as a training kernel (expect 0) and as test rows against
 * the first byte's value of training rows.  A refused input must come
 * back as an error naming the input, with nothing returned.  An accepted
 * training kernel must keep the format's promises (n rows of the serial
 * number then columns 1..n in order, serial numbers 1..n each once,
 * finite values and labels, symmetric within the tolerance), and the
 * kernel it stands for, M(p,q) = row p at the column of q's serial
 * number, written by lsv_precomputed_write, must read back as rows 1..n
 * holding M bit for bit.  Accepted test rows hold the serial slot then
 * exactly the expected columns.
 */
#include <math.h>

#include "fuzz.h"

static double serial(const lsv_data *x, size_t i)
{
	FUZZ_CHECK(x->rowptr[i] < x->rowptr[i + 1]);
	FUZZ_CHECK(x->col[x->rowptr[i]] == LSV_SERIAL_COL);
	return x->val[x->rowptr[i]];
}

/* Rows of the serial slot then columns 0..cols-1, finite, labels finite,
 * l counting the labeled rows. */
static void check_rows(const lsv_data *x, size_t cols)
{
	size_t i, p, l = 0;

	FUZZ_CHECK(x->n > 0 && x->rowptr[0] == 0 && x->rowptr[x->n] == x->nnz);
	FUZZ_CHECK(x->dim == cols);
	for (i = 0; i < x->n; i++) {
		FUZZ_CHECK(x->rowptr[i + 1] - x->rowptr[i] == cols + 1);
		FUZZ_CHECK(isfinite(x->y[i]));
		l += lsv_data_is_labeled(x, i) != 0;
		(void)serial(x, i);
		for (p = x->rowptr[i] + 1; p < x->rowptr[i + 1]; p++) {
			FUZZ_CHECK(x->col[p] == (int)(p - x->rowptr[i] - 1));
			FUZZ_CHECK(isfinite(x->val[p]));
		}
	}
	FUZZ_CHECK(l == x->l);
}

static lsv_status read_bytes(const void *data, size_t size, size_t expect,
			     const char *name, lsv_data **x, lsv_error *err)
{
	FILE *fp = fuzz_open(data, size);
	lsv_status st = lsv_precomputed_read(fp, name, LSV_UNLABELED_DEFAULT,
					     expect, x, err);

	fclose(fp);
	if (st != LSV_OK)
		fuzz_check_failure(st, *x, err, name);
	return st;
}

/* The training kernel: its promises, then the round trip of M. */
static void check_training(const lsv_data *x)
{
	size_t n = x->n, p, q, *seen;
	double *M, big = 0.0;
	char *text = NULL;
	size_t len = 0;
	lsv_data *y;
	lsv_error err;
	FILE *fp;

	check_rows(x, n);
	seen = calloc(n, sizeof *seen);
	M = malloc(n * n * sizeof *M);
	FUZZ_CHECK(seen != NULL && M != NULL);
	for (q = 0; q < n; q++) {
		double s = serial(x, q);
		FUZZ_CHECK(s >= 1.0 && s <= (double)n && s == floor(s));
		FUZZ_CHECK(seen[(size_t)s - 1]++ == 0);
	}
	for (p = 0; p < n; p++)
		for (q = 0; q < n; q++) {
			M[p + q * n] = x->val[x->rowptr[p] + (size_t)serial(x, q)];
			big = fmax(big, fabs(M[p + q * n]));
		}
	for (p = 0; p < n; p++)
		for (q = 0; q < n; q++)
			FUZZ_CHECK(fabs(M[p + q * n] - M[q + p * n]) <=
				   LSV_PRECOMPUTED_SYM_TOL * big);

	fp = fuzz_memstream(&text, &len);
	FUZZ_CHECK(lsv_precomputed_write(fp, "out", M, n, x->y, NULL, &err) == LSV_OK);
	FUZZ_CHECK(fclose(fp) == 0);
	if (read_bytes(text, len, 0, "again", &y, &err) != LSV_OK) {
		fprintf(stderr, "written kernel refused: %s\n", err.msg);
		abort();
	}
	check_rows(y, n);
	FUZZ_CHECK(y->n == n && y->l == x->l);
	FUZZ_CHECK(memcmp(y->y, x->y, n * sizeof *x->y) == 0);
	for (p = 0; p < n; p++) {
		FUZZ_CHECK(serial(y, p) == (double)(p + 1));
		FUZZ_CHECK(memcmp(&y->val[y->rowptr[p] + 1], &M[p], sizeof *M) == 0);
		for (q = 0; q < n; q++)
			FUZZ_CHECK(memcmp(&y->val[y->rowptr[p] + 1 + q],
					  &M[p + q * n], sizeof *M) == 0);
	}
	lsv_data_free(y);
	free(text);
	free(M);
	free(seen);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	lsv_data *x;
	lsv_error err;
	size_t first = size ? data[0] : 0;

	/* test rows against `first` training rows ('1' is 49) */
	if (first > 0 && read_bytes(data, size, first, "fuzz", &x, &err) ==
	    LSV_OK) {
		check_rows(x, first);
		lsv_data_free(x);
	}
	if (read_bytes(data, size, 0, "fuzz", &x, &err) == LSV_OK) {
		check_training(x);
		lsv_data_free(x);
	}
	return 0;
}
