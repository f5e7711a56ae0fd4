/* The LIBSVM-format reader: accepted forms, and every refusal with its
 * exact message. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "lapsvm.h"
#include "unit.h"

/* Read text (len bytes; may hold NUL) as file "t". */
static lsv_status read_mem(const char *text, size_t len, lsv_data **x,
			   lsv_error *e)
{
	FILE *fp = fmemopen((void *)text, len, "r");
	lsv_status st;
	if (fp == NULL)
		return LSV_EIO;
	st = lsv_data_read(fp, "t", 0.0, x, e);
	fclose(fp);
	return st;
}

static lsv_status read_str(const char *text, lsv_data **x, lsv_error *e)
{
	return read_mem(text, strlen(text), x, e);
}

static void data_reads_rows_labels_and_values(void)
{
	lsv_data *x;
	lsv_error e;
	CHECK(read_str("1 1:0.5 3:-2\n0 2:1\n-1\n+1 4:1e2\n", &x, &e) == LSV_OK);
	if (x == NULL)
		return;
	CHECK(x->n == 4);
	CHECK(x->l == 3);  /* the row labeled 0 is unlabeled */
	CHECK(x->dim == 4);
	CHECK(x->nnz == 4);
	CHECK(x->rowptr[0] == 0 && x->rowptr[1] == 2 && x->rowptr[2] == 3 &&
	      x->rowptr[3] == 3 && x->rowptr[4] == 4);
	CHECK(x->col[0] == 0 && x->col[1] == 2 && x->col[2] == 1 && x->col[3] == 3);
	CHECK(x->val[0] == 0.5 && x->val[1] == -2 && x->val[3] == 100);
	CHECK(x->y[0] == 1 && x->y[1] == 0 && x->y[2] == -1 && x->y[3] == 1);
	CHECK(!lsv_data_is_labeled(x, 1) && lsv_data_is_labeled(x, 2));
	lsv_data_free(x);
}

static void data_accepts_crlf_blanks_comments_and_no_final_newline(void)
{
	lsv_data *x;
	lsv_error e;
	CHECK(read_str("1\t1:2  3:4 \r\n-1 2:5 # a comment\r\n0 1:1", &x, &e) ==
	      LSV_OK);
	if (x == NULL)
		return;
	CHECK(x->n == 3 && x->nnz == 4 && x->val[1] == 4 && x->val[3] == 1);
	lsv_data_free(x);
}

static void data_labels_plus_one_decimal_and_negative_zero(void)
{
	lsv_data *x;
	lsv_error e;
	/* -0 equals the marker 0: it is an unlabeled row. */
	CHECK(read_str("+1 1:1\n1.0 1:2\n-0 1:3\n", &x, &e) == LSV_OK);
	if (x == NULL)
		return;
	CHECK(x->y[0] == 1 && x->y[1] == 1 && x->l == 2);
	/* ... and is stored as +0, so it prints as 0 wherever it goes */
	CHECK(x->y[2] == 0 && !signbit(x->y[2]));
	lsv_data_free(x);
}

static void data_unlabeled_marker_is_configurable(void)
{
	static const char text[] = "0 1:1\n-1 1:2\n-1 1:3\n";
	FILE *fp = fmemopen((void *)text, sizeof text - 1, "r");
	lsv_data *x;
	lsv_error e;
	CHECK(lsv_data_read(fp, "t", -1.0, &x, &e) == LSV_OK);
	fclose(fp);
	if (x == NULL)
		return;
	CHECK(x->l == 1 && x->unlabeled == -1.0);
	lsv_data_free(x);
	/* a marker -0 is the marker 0, stored (and so written) as +0 */
	fp = fmemopen((void *)text, sizeof text - 1, "r");
	CHECK(lsv_data_read(fp, "t", -0.0, &x, &e) == LSV_OK);
	fclose(fp);
	if (x == NULL)
		return;
	CHECK(x->l == 2 && x->unlabeled == 0 && !signbit(x->unlabeled));
	lsv_data_free(x);
}

static void data_refuses_each_malformed_line_with_its_message(void)
{
	struct { const char *in, *msg; } bad[] = {
		{"1 1:2\n\n", "t:2: empty line (expected 'label index:value ...')"},
		{"  \n", "t:1: empty line (expected 'label index:value ...')"},
		{"abc 1:2\n", "t:1: bad label (found 'abc', expected a number)"},
		{"nan 1:2\n", "t:1: bad label (found 'nan', expected a finite number)"},
		{"1:2 3:4\n", "t:1: missing label (found '1:2', expected a label first)"},
		{"1 0:2\n", "t:1: feature index out of range (found '0', expected 1..2147483647; a first feature 0:serial is a precomputed kernel's row, read with -t 4)"},
		{"1 0:? 1:2\n", "t:1: feature index out of range (found '0', expected 1..2147483647; a first feature 0:serial is a precomputed kernel's row, read with -t 4)"},
		{"1 0:0.5 1:2\n", "t:1: feature index out of range (found '0', expected 1..2147483647; indices start at 1: this file looks zero-based, as scikit-learn's dump_svmlight_file writes without zero_based=False)"},
		{"1 qid:2 1:2\n", "t:1: bad feature index (found 'qid:2', expected index:value; qid:n is SVMlight's query id (ranking data), not part of LIBSVM's format: delete the qid:n tokens)"},
		{"x\n-1 1\n1 0 3\n", "t:1: this looks like svm-scale's range file (svm-scale -s), not data (found 'x', expected 'label index:value ...'); svm-scale -r reads it"},
		{"x 1:1\n", "t:1: bad label (found 'x', expected a number)"},
		{"1 1:1\nx\n", "t:2: bad label (found 'x', expected a number)"},
		{"1 1:1 0:2\n", "t:1: feature index out of range (found '0', expected 1..2147483647)"},
		{"1 -1:2\n", "t:1: feature index out of range (found '-1', expected 1..2147483647)"},
		{"1 2147483648:1\n", "t:1: feature index out of range (found '2147483648', expected 1..2147483647)"},
		{"1 a:1\n", "t:1: bad feature index (found 'a:1', expected index:value with a positive integer index)"},
		{"1 :1\n", "t:1: bad feature index (found ':1', expected index:value with a positive integer index)"},
		{"1 3:1 2:1\n", "t:1: feature index 2 decreasing (found 2 after 3, expected indices strictly increasing)"},
		{"1 2:1 2:1\n", "t:1: feature index 2 repeated (found 2 after 2, expected indices strictly increasing)"},
		{"1 2:nan\n", "t:1: bad value for feature 2 (found 'nan', expected a finite number)"},
		{"1 2:-inf\n", "t:1: bad value for feature 2 (found '-inf', expected a finite number)"},
		{"1 2:1e999\n", "t:1: bad value for feature 2 (found '1e999', expected a number within the range of a double)"},
		{"1 2:1x\n", "t:1: bad value for feature 2 (found '1x', expected a number)"},
		{"1 2:\n", "t:1: bad value for feature 2 (found '', expected a number)"},
		{"1 2\n", "t:1: bad feature (found '2', expected index:value)"},
		{"1 1:1\n2 1:1 1:2:3\n", "t:2: feature index 1 repeated (found 1 after 1, expected indices strictly increasing)"},
		{"", "t: no data rows (empty file)"},
		{"# only a comment\n", "t: no data rows (empty file)"},
		{"1 1:1\n# comment\n\n", "t:3: empty line (expected 'label index:value ...')"},
		{"lapsvm_model 1\nsolver lapsvm\n", "t:1: this looks like a lapsvm model file, not data (found 'lapsvm_model', expected 'label index:value ...')"},
		{"# c\nsvm_type c_svc\n", "t:2: this looks like a LIBSVM model file, not data (found 'svm_type', expected 'label index:value ...')"},
		{"1 2:0.5 3:1\n2 1:0.5\n3 1:1\n", "t: this looks like a graph file, not data (line i starts with i and the entries are symmetric; expected 'label index:value ...')"},
	};
	size_t i;
	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		lsv_data *x = (lsv_data *)1;
		lsv_error e;
		CHECK(read_str(bad[i].in, &x, &e) == LSV_EFORMAT);
		CHECK(x == NULL);
		CHECK_STR(e.msg, bad[i].msg);
	}
}

static void data_refuses_nul_byte(void)
{
	static const char text[] = "1 1:2\n1 1:2\0 2:3\n";
	lsv_data *x;
	lsv_error e;
	CHECK(read_mem(text, sizeof text - 1, &x, &e) == LSV_EFORMAT);
	CHECK_STR(e.msg, "t:2: NUL byte in line (is this a text file?)");
}

static void data_long_token_is_cut_in_message(void)
{
	char line[200];
	lsv_data *x;
	lsv_error e;
	memset(line, 'z', sizeof line);
	line[sizeof line - 1] = '\0';
	CHECK(read_str(line, &x, &e) == LSV_EFORMAT);
	CHECK(strstr(e.msg, "zzz...'") != NULL);
	CHECK(strlen(e.msg) < 120);
}

static void data_reads_a_one_megabyte_line(void)
{
	/* 100000 features on one line: no fixed-size line buffer. */
	size_t cap = 2 << 20, len = 0, f;
	char *text = malloc(cap);
	lsv_data *x;
	lsv_error e;
	len += (size_t)sprintf(text, "1");
	for (f = 1; f <= 100000; f++)
		len += (size_t)sprintf(text + len, " %zu:0.123456", f);
	text[len++] = '\n';
	CHECK(len > 1000000);
	CHECK(read_mem(text, len, &x, &e) == LSV_OK);
	if (x != NULL) {
		CHECK(x->nnz == 100000 && x->dim == 100000);
		lsv_data_free(x);
	}
	free(text);
}

static void data_write_reads_back_identically(void)
{
	char buf[4096];
	FILE *fp;
	lsv_data *x, *z;
	lsv_error e;
	size_t i;
	CHECK(read_str("1 1:0.1 7:3.14159265358979\n0\n-1 2:-1e-300\n", &x, &e) ==
	      LSV_OK);
	if (x == NULL)
		return;
	fp = fmemopen(buf, sizeof buf, "w");
	CHECK(lsv_data_write(fp, "m", x, &e) == LSV_OK);
	fclose(fp);
	CHECK(read_str(buf, &z, &e) == LSV_OK);
	if (z != NULL) {
		CHECK(z->n == x->n && z->nnz == x->nnz);
		for (i = 0; i < x->nnz; i++)
			CHECK(z->val[i] == x->val[i] && z->col[i] == x->col[i]);
		lsv_data_free(z);
	}
	lsv_data_free(x);
}

/* The one-pass path for "index:value" (plain integers, Clinger's decimals)
 * and the general path (signs, long mantissas, 11-digit indices) store
 * the values strtod reads, whichever path a token takes. */
static void data_values_equal_strtod_on_every_path(void)
{
	static const char *vals[] = {
		"255", "0", "007", "-3", "+4", "0.5", "1e2", "2.5E-3",
		"123456789012345", "1234567890123456", "12345678901234567890",
		"0.1000000000000000055511151231257827", "1e-300", "-0", "9e22",
		"3.", ".25",
	};
	char line[1024];
	size_t i, at;
	lsv_data *x;
	lsv_error e;

	at = (size_t)sprintf(line, "1");
	for (i = 0; i < sizeof vals / sizeof *vals; i++)
		at += (size_t)sprintf(line + at, i == 3 ? "\t%s%zu:%s" : " %s%zu:%s",
				      i == 5 ? "0000000" : i == 6 ? "00000000" : "",
				      i + 1, vals[i]);
	strcpy(line + at, "\n");
	CHECK(read_str(line, &x, &e) == LSV_OK);
	if (x == NULL)
		return;
	CHECK(x->nnz == sizeof vals / sizeof *vals);
	for (i = 0; i < x->nnz && i < sizeof vals / sizeof *vals; i++) {
		double w = strtod(vals[i], NULL);
		CHECK(x->col[i] == (int)i);
		CHECK(memcmp(&x->val[i], &w, sizeof w) == 0);
	}
	lsv_data_free(x);
}

/* A reader's col and val grow inside the room reserved for them without
 * moving (the pointers stay), up to the room exactly, then beyond it by
 * realloc with every value kept; a reservation is only for an empty set. */
static void data_values_grow_in_reserved_room_then_beyond(void)
{
	lsv_data x;
	lsv_values_cap c = {0, 0};
	int *col0;
	size_t i;

	memset(&x, 0, sizeof x);
	lsv_values_reserve(&x, &c, 100);
	CHECK(c.room == 100 && c.cap == 0 && x.col != NULL && x.val != NULL);
	if (x.col == NULL || x.val == NULL)
		return;
	col0 = x.col;
	CHECK(lsv_values_grow(&x, &c, 50) == 0);
	CHECK(c.cap >= 50 && c.cap <= 100 && x.col == col0);
	for (i = 0; i < 100; i++) {
		CHECK(lsv_values_grow(&x, &c, i + 1) == 0 && c.cap >= i + 1);
		x.col[i] = (int)i;
		x.val[i] = 0.5 * (double)i;
	}
	CHECK(c.cap == 100 && c.room == 100 && x.col == col0);
	lsv_values_reserve(&x, &c, 1000);  /* not empty: nothing changes */
	CHECK(c.room == 100 && x.col == col0);
	CHECK(lsv_values_grow(&x, &c, 101) == 0);
	CHECK(c.cap >= 101 && c.room == c.cap);
	for (i = 0; i < 100; i++)
		CHECK(x.col[i] == (int)i && x.val[i] == 0.5 * (double)i);
	free(x.col);
	free(x.val);
}

/* A regular file large enough for the reader to reserve room by its size
 * (over 4 MiB: a bound of 2^20 values) reads as the same bytes through a stream
 * that has no size (no reservation); its fingerprint, hashed one row
 * behind the parser over rows of changing lengths, equals
 * lsv_data_fingerprint of what was read. */
static void data_file_reads_as_its_stream(void)
{
	size_t cap = 12 << 20, len = 0, r, f;
	char *text = malloc(cap), path[4096];
	int fd = mkstemp(unit_tmp(path, sizeof path, "lapsvm-reserve"));
	FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
	lsv_data *x = NULL, *z = NULL;
	unsigned long long h = 0;
	lsv_error e;

	CHECK(text != NULL && fp != NULL);
	if (text == NULL || fp == NULL) {
		free(text);
		return;
	}
	for (r = 0; len < (size_t)(5 << 20); r++) {
		len += (size_t)sprintf(text + len, "%zu", r % 3);
		for (f = 1; f <= 1 + (r * 37) % 250; f++)
			len += (size_t)sprintf(text + len, " %zu:%zu", f + r % 5,
					       (f * r) % 256);
		text[len++] = '\n';
	}
	fwrite(text, 1, len, fp);
	fclose(fp);
	CHECK(lsv_data_read_path_fp(path, 0.0, &x, &h, &e) == LSV_OK);
	CHECK(read_mem(text, len, &z, &e) == LSV_OK);
	CHECK(x != NULL && z != NULL);
	if (x != NULL && z != NULL) {
		CHECK(len > ((size_t)4 << 20));  /* a bound of 2^20 values */
		CHECK(x->n == z->n && x->nnz == z->nnz && x->dim == z->dim &&
		      x->l == z->l);
		CHECK(memcmp(x->rowptr, z->rowptr, (x->n + 1) * sizeof *x->rowptr) == 0);
		CHECK(memcmp(x->col, z->col, x->nnz * sizeof *x->col) == 0);
		CHECK(memcmp(x->val, z->val, x->nnz * sizeof *x->val) == 0);
		CHECK(memcmp(x->y, z->y, x->n * sizeof *x->y) == 0);
		CHECK(h == lsv_data_fingerprint(z));
	}
	lsv_data_free(x);
	lsv_data_free(z);
	remove(path);
	free(text);
}

/* Write text to a new temporary file named in path (a mkstemp template). */
static int temp_text(char *path, const char *text)
{
	int fd = mkstemp(path);
	FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (fp == NULL)
		return 0;
	fputs(text, fp);
	return fclose(fp) == 0;
}

/* Parts of a file: cut at any two byte offsets, the three parts (each from
 * the line start at or after its cut, lines numbered by the newlines
 * before) hold the whole file's rows in order, value for value; a bad line
 * gets the whole file's line number from the part that holds it. */
static void data_parts_cut_anywhere_are_the_whole_files_rows(void)
{
	static const char text[] =
		"1 1:0.5 3:2\r\n# a comment\n-1 2:1.25\n\t# indented\n"
		"1 1:1 2:2 3:3 # tail\n-1 3:7\n1 2:0.125";
	char path[4096], bad[4096];
	size_t len = strlen(text), a, b, k, fails = 0;
	lsv_data *whole = NULL;
	lsv_error e;

	CHECK(temp_text(unit_tmp(path, sizeof path, "lapsvm-parts"), text));
	CHECK(lsv_data_read_path(path, 0.0, &whole, &e) == LSV_OK);
	if (whole == NULL) {
		remove(path);
		return;
	}
	for (a = 0; a <= len; a++)
		for (b = a; b <= len; b++) {
			long long cut[4] = {0, (long long)a, (long long)b,
					    (long long)len}, start[4];
			size_t n = 0, nnz = 0, line = 1, lines;
			for (k = 0; k < 4; k++)
				if (lsv_file_line_start(path, cut[k], &start[k], &e) !=
				    LSV_OK)
					fails++;
			for (k = 0; k < 3; k++) {
				lsv_data *x = NULL;
				size_t i;
				if (lsv_data_read_part(path, 0.0, start[k], start[k + 1],
						       line, &x, &e) != LSV_OK ||
				    lsv_file_count_lines(path, start[k], start[k + 1],
							 &lines, &e) != LSV_OK) {
					fails++;
					lsv_data_free(x);
					continue;
				}
				for (i = 0; i < x->n; i++, n++) {
					size_t w = whole->rowptr[n], r = x->rowptr[i],
					       c = x->rowptr[i + 1] - r;
					if (n >= whole->n || x->y[i] != whole->y[n] ||
					    c != whole->rowptr[n + 1] - w ||
					    memcmp(x->col + r, whole->col + w, c * sizeof *x->col) ||
					    memcmp(x->val + r, whole->val + w, c * sizeof *x->val))
						fails++;
					nnz += c;
				}
				line += lines;
				lsv_data_free(x);
			}
			if (n != whole->n || nnz != whole->nnz)
				fails++;
		}
	CHECK(fails == 0);
	CHECK(whole->n == 5);
	/* line 8 is bad; the part that starts at line 5 says 8 */
	CHECK(temp_text(unit_tmp(bad, sizeof bad, "lapsvm-parts"), "1 1:1\n1 1:2\n# c\n1 1:3\n1 1:4\n1 1:5\n"
			"1 1:6\n1 1:x\n"));
	{
		lsv_data *x = NULL;
		long long s5, end;
		CHECK(lsv_file_line_start(bad, 20, &s5, &e) == LSV_OK);
		CHECK(s5 == 22);  /* "1 1:4", line 5, starts at byte 22 */
		CHECK(lsv_file_line_start(bad, 22, &end, &e) == LSV_OK && end == 22);
		CHECK(lsv_file_line_start(bad, 1000, &end, &e) == LSV_OK && end == 46);
		CHECK(lsv_data_read_part(bad, 0.0, s5, end, 5, &x, &e) == LSV_EFORMAT);
		CHECK(x == NULL);
		CHECK(strstr(e.msg, ":8: bad value for feature 1 (found 'x'") != NULL);
		/* a part with no line start holds no row, and is no error */
		CHECK(lsv_data_read_part(bad, 0.0, s5, s5, 5, &x, &e) == LSV_OK);
		CHECK(x != NULL && x->n == 0 && x->rowptr[0] == 0);
		lsv_data_free(x);
	}
	lsv_data_free(whole);
	remove(path);
	remove(bad);
}

/* The feature map numbers the features that occur, in increasing order:
 * when all occur (the first row has every one) it is the identity, later
 * rows unread; when one never occurs it has no number. */
static void fmap_numbers_the_features_that_occur(void)
{
	lsv_data *x;
	lsv_fmap f;
	lsv_error e;

	CHECK(read_str("1 1:1 2:1 3:1 4:1\n1 2:5\n0 4:1\n", &x, &e) == LSV_OK);
	if (x != NULL) {
		CHECK(lsv_fmap_build(x, NULL, 0, &f, &e) == LSV_OK);
		CHECK(f.m == 4 && lsv_fmap_get(&f, 0) == 0 &&
		      lsv_fmap_get(&f, 3) == 3);
		lsv_fmap_free(&f);
		lsv_data_free(x);
	}
	CHECK(read_str("1 1:1 3:1\n1 3:5\n0 5:1\n", &x, &e) == LSV_OK);
	if (x != NULL) {
		size_t rows[] = {2, 0};
		CHECK(lsv_fmap_build(x, NULL, 0, &f, &e) == LSV_OK);
		CHECK(f.m == 3 && lsv_fmap_get(&f, 0) == 0 &&
		      lsv_fmap_get(&f, 1) == -1 && lsv_fmap_get(&f, 2) == 1 &&
		      lsv_fmap_get(&f, 3) == -1 && lsv_fmap_get(&f, 4) == 2);
		lsv_fmap_free(&f);
		CHECK(lsv_fmap_build(x, rows, 2, &f, &e) == LSV_OK);
		CHECK(f.m == 3 && lsv_fmap_get(&f, 4) == 2);
		lsv_fmap_free(&f);
		rows[0] = 1;
		CHECK(lsv_fmap_build(x, rows, 1, &f, &e) == LSV_OK);
		CHECK(f.m == 1 && lsv_fmap_get(&f, 2) == 0 &&
		      lsv_fmap_get(&f, 0) == -1);
		lsv_fmap_free(&f);
		lsv_data_free(x);
	}
}

/* Four rows, hand-computed: feature 1 is 0, 100, 200, 300 (n var =
 * 2 150^2 + 2 50^2 = 50000), feature 2 is 0, 1, 0, 1 stored as zeros
 * omitted (n var = 1), feature 3 is 1 everywhere (0: not varying),
 * feature 4 is 2 on row 3 only (mean 0.5, n var = 1.5^2 + 3 0.5^2 = 3).
 * Share 50000 / 50004; the median of {1, 3, 50000} is 3. */
static void data_feature_spread_matches_hand_variances(void)
{
	lsv_data *x = NULL;
	lsv_error e;
	lsv_feature_spread s;

	CHECK(read_str("1 1:0 3:1\n-1 1:100 2:1 3:1\n0 1:200 3:1 4:2\n"
		       "0 1:300 2:1 3:1\n", &x, &e) == LSV_OK);
	if (x == NULL)
		return;
	CHECK(lsv_data_feature_spread(x, &s, &e) == LSV_OK);
	CHECK(s.feature == 1 && s.varying == 3);
	CHECK(fabs(s.share - 50000.0 / 50004.0) < 1e-15);
	CHECK(fabs(s.std_ratio - sqrt(50000.0 / 3.0)) < 1e-12 * s.std_ratio);
	lsv_data_free(x);
	/* two features: the ratio is to the other one (feature 1 n var
	 * 5e6, feature 2 n var 1); the median of both would be their mean */
	CHECK(read_str("1 1:0\n-1 1:1000 2:1\n0 1:2000\n0 1:3000 2:1\n",
		       &x, &e) == LSV_OK);
	if (x == NULL)
		return;
	CHECK(lsv_data_feature_spread(x, &s, &e) == LSV_OK);
	CHECK(s.feature == 1 && s.varying == 2);
	CHECK(fabs(s.std_ratio - sqrt(5e6)) < 1e-12 * s.std_ratio);
	lsv_data_free(x);
	/* all rows one point: nothing varies */
	CHECK(read_str("1 1:5 2:-1\n-1 1:5 2:-1\n", &x, &e) == LSV_OK);
	if (x == NULL)
		return;
	CHECK(lsv_data_feature_spread(x, &s, &e) == LSV_OK);
	CHECK(s.feature == 0 && s.varying == 0 && s.share == 0.0);
	lsv_data_free(x);
}

const unit_case data_cases[] = {
	{"data_feature_spread_matches_hand_variances",
	 data_feature_spread_matches_hand_variances},
	{"data_values_grow_in_reserved_room_then_beyond",
	 data_values_grow_in_reserved_room_then_beyond},
	{"data_file_reads_as_its_stream", data_file_reads_as_its_stream},
	{"data_parts_cut_anywhere_are_the_whole_files_rows",
	 data_parts_cut_anywhere_are_the_whole_files_rows},
	{"fmap_numbers_the_features_that_occur",
	 fmap_numbers_the_features_that_occur},
	{"data_values_equal_strtod_on_every_path", data_values_equal_strtod_on_every_path},
	{"data_reads_rows_labels_and_values", data_reads_rows_labels_and_values},
	{"data_accepts_crlf_blanks_comments_and_no_final_newline",
	 data_accepts_crlf_blanks_comments_and_no_final_newline},
	{"data_labels_plus_one_decimal_and_negative_zero",
	 data_labels_plus_one_decimal_and_negative_zero},
	{"data_unlabeled_marker_is_configurable", data_unlabeled_marker_is_configurable},
	{"data_refuses_each_malformed_line_with_its_message",
	 data_refuses_each_malformed_line_with_its_message},
	{"data_refuses_nul_byte", data_refuses_nul_byte},
	{"data_long_token_is_cut_in_message", data_long_token_is_cut_in_message},
	{"data_reads_a_one_megabyte_line", data_reads_a_one_megabyte_line},
	{"data_write_reads_back_identically", data_write_reads_back_identically},
	{NULL, NULL},
};
