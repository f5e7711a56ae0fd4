/*
 * internal.h -- private helpers shared by the library's modules.  Not part
 * of the public API (lapsvm.h); the tools never include it.
 */
#ifndef LSV_INTERNAL_H
#define LSV_INTERNAL_H

#include <stdio.h>
#include <string.h>

#include "lapsvm.h"

/* lsv_fail that also sets err->why (lsv_fail sets LSV_WHY_NONE): how the
 * number parsers say why a number was refused.  err may be NULL. */
lsv_status lsv_fail_why(lsv_error *err, lsv_status s, lsv_why why,
			const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

/* lsv_fail for a failure of one data row: the message is "row N: " and
 * fmt's text, and err->row is N (lsv_fail sets it to 0).  err may be NULL. */
lsv_status lsv_fail_row(lsv_error *err, lsv_status s, size_t row,
			const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

/* The failure of fopen(path): "PATH: cannot open: " and strerror(errno),
 * errno read first; an empty path says so ("'': cannot open: the file name
 * is empty"), where strerror's "No such file or directory" after an
 * invisible name would leave the user guessing.  Returns LSV_EIO. */
lsv_status lsv_fail_open(lsv_error *err, const char *path);

/* Tokens are shown in messages cut to this many characters. */
#define LSV_SHOW 40

/* Line-by-line reader for the text formats: one pass, no fixed buffer. */
typedef struct {
	FILE *fp;
	const char *name;
	char *buf;
	size_t cap;
	size_t line;  /* number of the line last returned, 1-based */
	/* A part of a file (lsv_data_read_part): the offset the stream is at
	 * and the offset where the part ends; end 0: read to the end.  A line
	 * belongs to the part its first byte is in. */
	long long at, end;
} lsv_lines;

/* Next line with its end (LF or CRLF), trailing blanks and any "# comment"
 * removed; lines holding only a comment are skipped (SVMlight).  Returns 1
 * with *s set, 0 at end of input, or -1 with err set (read error, NUL
 * byte, a UTF-8 or UTF-16 byte order mark at the start of the input).  The
 * line stays valid until the next call. */
int lsv_lines_next(lsv_lines *r, char **s, lsv_error *err);
void lsv_lines_done(lsv_lines *r);

/* Give a stream just opened a 1 MiB buffer: stdio's default is the file
 * system's block size (4 KiB), one read or write system call per 4 KiB,
 * which on a virtual machine costs more than parsing the bytes.  Returns
 * the buffer, to be freed after fclose (NULL: stdio's own stays). */
char *lsv_big_buffer(FILE *fp);

/* Next blank-separated token of *s, NUL-terminated in place; NULL if none. */
char *lsv_token(char **s);

/* Grow *p (elements of size sz, capacity *cap) to hold at least need
 * elements, doubling.  Returns 0, or -1 on overflow or allocation failure
 * (then *p and *cap are unchanged). */
int lsv_grow(void **p, size_t *cap, size_t need, size_t sz);

/* Map the pages of bytes [from, to) of the block p at once (large blocks
 * only; common/text.c says why); advice, ignored where unsupported. */
void lsv_prefault(void *p, size_t from, size_t to);

/* malloc(bytes) (1 for 0) with the pages of a large block mapped at once:
 * for the large arrays that are filled whole right away. */
void *lsv_malloc_mapped(size_t bytes);

/* The shared capacity of a data set's col and val while a reader fills
 * them: cap values usable, room values allocated (room > cap only when
 * reserved by lsv_values_reserve).  common/data.c. */
typedef struct {
	size_t cap, room;
} lsv_values_cap;

/* Room for up to room values (allocated, not yet mapped) in the empty
 * x, when there is memory for it; else nothing changes. */
void lsv_values_reserve(lsv_data *x, lsv_values_cap *c, size_t room);

/* col and val grown to hold at least need values: within the room by
 * mapping more of it, beyond by lsv_grow.  0, or -1 when out of memory
 * (x unchanged). */
int lsv_values_grow(lsv_data *x, lsv_values_cap *c, size_t need);

/* |z| of a row z of k values, computed without overflow or underflow; 0
 * when z is zero or its norm is not finite.  A cluster model's embedded
 * row z becomes z_j / |z| (unchanged when |z| is 0): the one scaling, in
 * training (k-means, common/cluster.c) and in prediction
 * (lsv_model_label), so both divide by the same number. */
double lsv_unit_norm(const double *z, int k);

/* lsv_kernel_matrix, naming the rows of a and b aname and bname ("row",
 * "expansion point", "test row") in its message if a value is not finite. */
lsv_status lsv_kernel_matrix_named(const lsv_kernel *k, const lsv_data *a,
				   const size_t *ia, size_t na,
				   const lsv_data *b, const size_t *ib,
				   size_t nb, double *K, const char *aname,
				   const char *bname, lsv_error *err);

/* The precomputed kernel (common/precomputed.c): K[i + j na] = k(a_i, b_j)
 * = a_i's value at b_j's serial number (LIBSVM's), or b_j's at a_i's
 * when a_i holds only its serial number (an expansion point);
 * LSV_EINVAL when neither holds the other's. */
lsv_status lsv_precomputed_matrix(const lsv_data *a, const size_t *ia,
				  size_t na, const lsv_data *b,
				  const size_t *ib, size_t nb, double *K,
				  const char *aname, const char *bname,
				  lsv_error *err);
/* Keep of each row of sv (expansion points of a precomputed model) its
 * serial number only, as LIBSVM's model does (LSV_EINVAL if a row has
 * none). */
lsv_status lsv_precomputed_serials(lsv_data *sv, lsv_error *err);

/* "NAME:LINE: what (found 'TOKEN', expected WANT)", the token cut to
 * LSV_SHOW characters; returns LSV_EFORMAT. */
lsv_status lsv_bad_token(lsv_error *err, const char *name, size_t line,
			 const char *what, const char *tok, const char *want);

/* The number at the start of s if it is one strtod reads exactly without
 * being called: [-+]digits[.digits][(e|E)[-+]digits] with at most 15
 * significant digits and a power of ten within 10^-22..10^22 (Clinger's
 * fast path: both factors exact, one correctly rounded multiply or
 * divide, so the same double as strtod's).  Returns 1 with *out and *end
 * (the first byte after the number; the caller checks what it is), or 0
 * (then strtod must decide). */
int lsv_fast_decimal(const char *s, const char **end, double *out);

/* snprintf(buf, LSV_G17_MAX, "%.17g", v), the same bytes, faster
 * (common/format.c); the length.  buf holds LSV_G17_MAX bytes. */
#define LSV_G17_MAX 32
int lsv_format_g17(char *buf, double v);

/* " j:v" as "%zu:%.17g" (an entry of a graph, record or data row) and a
 * row number "%zu"; the length.  buf holds LSV_ENTRY_MAX bytes. */
#define LSV_ENTRY_MAX 64
int lsv_format_entry(char *buf, size_t j, double v);
int lsv_format_row(char *buf, size_t i);

/* lsv_data_fingerprint's hash: its start, and one row of m values
 * (common/update.c) continuing h. */
#define LSV_FNV_OFFSET 0xcbf29ce484222325ULL
#define LSV_FNV_PRIME 0x100000001b3ULL
unsigned long long lsv_row_fingerprint(unsigned long long h, const int *col,
				       const double *val, size_t m);

/* Its step: one 64-bit word into h (the data's values are tens of
 * millions of words: eight times fewer steps than bytes), FNV-1a's xor
 * and multiply on the whole word, then an xor-shift so that high bits
 * reach the low ones; the same on any machine (no bytes of memory are
 * read).  A value's word is its bits, -0 as 0 (the same distances). */
static inline unsigned long long lsv_fnv_u64(unsigned long long h,
					     unsigned long long v)
{
	h = (h ^ v) * LSV_FNV_PRIME;
	return h ^ (h >> 29);
}

static inline unsigned long long lsv_fnv_bits(double v)
{
	unsigned long long u;
	if (v == 0.0)
		v = 0.0;
	memcpy(&u, &v, sizeof u);
	return u;
}

/*
 * lsv_row_fingerprint of the rows a reader stores, one row behind it
 * (common/data.c): row r's length is hashed when it is complete, and its
 * pairs one per value stored of row r + 1, the rest before row r + 1's
 * length.  The same words in the same order, so the same hash; but the
 * hash is a serial chain (a multiply's latency per word, two words per
 * value), and interleaved with the parsing of the next row it runs beside
 * it instead of after it.  Offsets, not pointers: the arrays may move as
 * they grow.
 */
typedef struct {
	unsigned long long h;
	size_t at, end;  /* values [at, end) of the data still to hash */
} lsv_fp_lag;

static inline void lsv_fp_lag_step(lsv_fp_lag *f, const lsv_data *x)
{
	if (f->at < f->end) {
		f->h = lsv_fnv_u64(f->h, (unsigned long long)x->col[f->at]);
		f->h = lsv_fnv_u64(f->h, lsv_fnv_bits(x->val[f->at]));
		f->at++;
	}
}

/* The values still pending, then the length of the row of values
 * [from, to), whose values are then pending. */
void lsv_fp_lag_row(lsv_fp_lag *f, const lsv_data *x, size_t from,
		    size_t to);
/* The hash, once the values still pending are hashed. */
unsigned long long lsv_fp_lag_done(lsv_fp_lag *f, const lsv_data *x);

/* What a number should have been, from lsv_parse_double's reason. */
const char *lsv_want_number(const lsv_error *why);

/* The rows rows[0..m) of x as a data set of their own (labels kept, l =
 * m); NULL when out of memory.  The caller owns the result. */
lsv_data *lsv_data_rows(const lsv_data *x, const size_t *rows, size_t m);

/* Append the "index:value ..." tokens of s as the features of the row
 * being read into x (x->col, x->val, x->nnz, x->dim; *cap is their
 * shared capacity), with the data format's rules and messages; with lag,
 * the rows' fingerprint one row behind. */
lsv_status lsv_parse_features(char *s, lsv_data *x, lsv_values_cap *cap,
			      lsv_fp_lag *lag, const char *name, size_t line,
			      lsv_error *err);

/* The set of features that occur in some rows of a data set, numbered
 * 0..m-1 in increasing index order, so dense blocks are only as wide as the
 * features really used (a file may use index 2^31 - 1 once). */
typedef struct {
	size_t m;      /* distinct features */
	size_t dim;    /* the data's dim */
	int *table;    /* dim entries (compact number or -1), or NULL */
	int *sorted;   /* the m features, when there is no table */
} lsv_fmap;

/* Map of the features of rows[0..nrows) of x (rows NULL: all rows). */
lsv_status lsv_fmap_build(const lsv_data *x, const size_t *rows, size_t nrows,
			  lsv_fmap *f, lsv_error *err);
/* Compact number of 0-based feature col, or -1 if it does not occur. */
int lsv_fmap_get(const lsv_fmap *f, int col);
void lsv_fmap_free(lsv_fmap *f);

/* A pair of rows chosen by the neighbour search (common/knn.c): row i
 * chose row j (kNN), or i and j are closer than epsilon (then both
 * directions are given); d is their distance, d2 its square. */
typedef struct {
	int i, j;
	double d;
	double d2;
} lsv_pair;

/* The pairs lsv_graph_build would weigh and symmetrize (common/knn.c):
 * kNN lists in row order, or both directions of every epsilon pair, with
 * the same checks and info.  *pairs (NULL if none) is the caller's to
 * free.  The within-class graphs (common/classes.c) gather them class by
 * class and assemble one graph. */
lsv_status lsv_knn_pairs(const lsv_data *x, const lsv_graph_param *p,
			 lsv_pair **pairs, size_t *npairs,
			 lsv_graph_info *info, lsv_error *err);

/* An update (common/update.c): x is old rows [0, n0) followed by new
 * rows; old holds the pairs lsv_knn_pairs gave for the old rows alone (d
 * and d2 exact).  *pairs are those lsv_knn_pairs would give for all of x,
 * bit for bit, from the products of the new rows with every row only
 * (dense blocks always). */
lsv_status lsv_knn_pairs_update(const lsv_data *x, size_t n0,
				const lsv_graph_param *p, const lsv_pair *old,
				size_t nold, lsv_pair **pairs, size_t *npairs,
				lsv_graph_info *info, lsv_error *err);

/* The distributed neighbour search (common/knn.c): this rank's rows q
 * (columns numbered 0..dc-1 over the whole data), global rows [row0,
 * row0 + q->n) of n, against every rank's rows by the ring; *pairs as
 * lsv_knn_pairs gives for those rows (global indices, row order).  Every
 * rank of comm calls it; a failure anywhere is every rank's (same status
 * and message). */
lsv_status lsv_knn_pairs_ring(lsv_comm *comm, const lsv_data *q, size_t row0,
			      size_t n, size_t dc, const lsv_graph_param *p,
			      lsv_pair **pairs, size_t *npairs,
			      lsv_graph_info *info, lsv_error *err);

/* The graph of n rows from the chosen pairs (common/weights.c): weights
 * (p->weight, p->t) and symmetrization (union or p->mutual in kNN mode,
 * as given in epsilon mode, p->epsilon > 0); sets info->t, edges,
 * isolated and dropped.  On success *out is a new graph the caller owns;
 * fails only for memory (LSV_ENOMEM). */
lsv_status lsv_graph_assemble(size_t n, const lsv_pair *pairs, size_t npairs,
			      const lsv_graph_param *p, lsv_graph **out,
			      lsv_graph_info *info, lsv_error *err);

/* OpenBLAS's thread count set to n (when that BLAS is in use): returns the
 * count before, or 0 when the BLAS has no such control (common/knn.c). */
int lsv_blas_threads_set(int n);

/* The image distances (common/tangent.c), called by lsv_graph_build and
 * lsv_knn_lists for LSV_DIST_TANGENT and LSV_DIST_ROTATION: each row's k
 * nearest rows (idx, dist: n x info->k, row-major, by increasing distance
 * then index, -1 / 0 past the candidates a row has). */
lsv_status lsv_image_lists(const lsv_data *x, const lsv_graph_param *p,
			   int **idx, double **dist, lsv_graph_info *info,
			   lsv_error *err);

#endif
