/*
 * lapsvm.h -- the one public header of liblapsvm, the library shared by
 * graph-build, lapsvm-train and lapsvm-predict.
 *
 * Semi-supervised learning by manifold regularization (Belkin, Niyogi &
 * Sindhwani, "Manifold Regularization", JMLR 7, 2006).  Notation follows
 * the paper: l labeled rows, u unlabeled rows, n = l + u, W the graph's
 * weight matrix, L its Laplacian, K the Gram matrix.
 *
 * Conventions, for every function declared here:
 *   - Every symbol starts with lsv_ / LSV_.
 *   - A function that can fail returns an lsv_status (LSV_OK == 0) and, on
 *     failure, fills the caller's lsv_error with a one-line message that
 *     names the file and line where there is one ("FILE:LINE: what is wrong
 *     (found X, expected Y)").  The library never prints, never exits and
 *     never aborts; the tools own messages and exit codes.
 *   - On failure nothing is returned through out-parameters (they are set
 *     to NULL) and nothing the caller owns has been modified.
 *   - "Owns" in a comment means: the caller must release it with the
 *     matching lsv_*_free function.  Free functions accept NULL.
 */
#ifndef LAPSVM_H
#define LAPSVM_H

#include <stddef.h>
#include <stdio.h>

#define LSV_VERSION "0.1.0"

/* ------------------------------------------------------------------ */
/* Status codes and error messages (common/error.c)                    */
/* ------------------------------------------------------------------ */

typedef enum {
	LSV_OK = 0,
	LSV_EIO,      /* a file could not be opened, read or written */
	LSV_EFORMAT,  /* malformed input: the message names file and line */
	LSV_ENOMEM,   /* an allocation failed */
	LSV_ETOOBIG,  /* a size check refused an allocation before trying */
	LSV_EINVAL,   /* an argument or parameter is out of its range */
	LSV_ENUMERIC  /* a numerical failure (singular system, no convergence) */
} lsv_status;

#define LSV_ERRMSG_MAX 1024

/* Why a number was refused (lsv_parse_double, lsv_parse_long), so callers
 * word their own messages from a code, never from the text. */
typedef enum {
	LSV_WHY_NONE = 0,   /* not a number-parsing failure */
	LSV_WHY_EMPTY,      /* empty string */
	LSV_WHY_SYNTAX,     /* not a decimal number (or not an integer) */
	LSV_WHY_NONFINITE,  /* spelled nan / inf, or overflowed to infinity */
	LSV_WHY_RANGE       /* outside a double's range or the given bounds */
} lsv_why;

typedef struct {
	lsv_status status;
	lsv_why why;               /* set by lsv_fail to LSV_WHY_NONE */
	size_t row;                /* a data row's failure: its number (from
				      1), which msg opens with ("row N: ..."),
				      so a tool can say file:N (a data file's
				      rows are its lines); 0 otherwise */
	char msg[LSV_ERRMSG_MAX];  /* truncated with "..." if longer; safe to
				      print (lsv_text_safe) */
} lsv_error;

/* err->msg after its opening "row N: " (N = err->row, a data row's
 * failure), or NULL when the failure is no row's: the words a caller puts
 * after its own name for the row (file:line). */
const char *lsv_error_row_text(const lsv_error *err);

/* A short name for a status ("malformed input", ...); never NULL. */
const char *lsv_status_name(lsv_status s);

/* Sets err (which may be NULL) to status s with a printf-style message and
 * returns s, so a failing path reads `return lsv_fail(err, LSV_EINVAL, ...)`. */
lsv_status lsv_fail(lsv_error *err, lsv_status s, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

/*
 * A copy of in that is safe to show on a terminal, for messages that echo
 * input (every lsv_error message is stored through it):
 *   - tab, line feed and carriage return as \t \n \r; the other C0
 *     controls and DEL as \xNN (ESC is \x1b);
 *   - bytes that are not part of valid UTF-8 as \xNN (lower-case hex);
 *   - valid UTF-8 as it is, except the C1 controls U+0080..U+009F, the
 *     byte order mark U+FEFF, the bidirectional controls U+061C, U+200E,
 *     U+200F, U+202A..U+202E, U+2066..U+2069 and the separators U+2028,
 *     U+2029, which are written as their bytes in \xNN form (U+FEFF is
 *     \xef\xbb\xbf).
 * Printable ASCII is kept, the backslash included: so a safe text is its
 * own safe copy, and a message the library made safe passes a tool's
 * messages unchanged instead of doubling every backslash (the price: a
 * literal "\r" in input reads like an escaped carriage return).  Assumes a
 * UTF-8 terminal, as nearly every terminal is; escaping every non-ASCII
 * byte would garble every accented file name.
 * Writes at most size bytes, NUL included (nothing if size is 0); a text
 * that does not fit is cut between whole characters and escapes and ends
 * with "..." (as much of it as fits).  Returns the length of the whole safe
 * text, as snprintf does: it was cut if the result is >= size.
 */
size_t lsv_text_safe(char *out, size_t size, const char *in);

/* ------------------------------------------------------------------ */
/* Strict number parsing (common/parse.c)                              */
/* ------------------------------------------------------------------ */

/* Parse all of s as a finite decimal floating-point number: optional sign,
 * digits with an optional point, optional exponent.  Rejects empty strings,
 * leading or trailing blanks, hexadecimal, "nan", "inf" and values that
 * overflow a double.  Returns LSV_OK or LSV_EINVAL with err->why saying
 * why (and a short reason such as "not a number" in err->msg, without any
 * file prefix). */
lsv_status lsv_parse_double(const char *s, double *out, lsv_error *err);

/* Parse all of s as a decimal integer (optional sign) in [min, max];
 * err->why is LSV_WHY_EMPTY, LSV_WHY_SYNTAX or LSV_WHY_RANGE on failure. */
lsv_status lsv_parse_long(const char *s, long min, long max, long *out,
			  lsv_error *err);

/* ------------------------------------------------------------------ */
/* Data sets in LIBSVM sparse text format (common/data.c)              */
/* ------------------------------------------------------------------ */

/*
 * One row per line: `label index:value index:value ...` with 1-based,
 * strictly increasing indices.  Rows whose label equals the unlabeled
 * marker (0 by default) are the unlabeled points.  Stored in compressed
 * sparse row form with 0-based feature columns.
 */
typedef struct {
	size_t n;          /* rows */
	size_t l;          /* rows whose label differs from the marker */
	size_t dim;        /* largest 1-based feature index seen (0: none) */
	size_t nnz;        /* stored (index, value) pairs */
	size_t *rowptr;    /* n + 1 offsets into col and val */
	int *col;          /* 0-based feature index of each stored value */
	double *val;       /* the values, all finite */
	double *y;         /* n labels as read (the marker for unlabeled rows) */
	double unlabeled;  /* the marker this set was read with */
} lsv_data;

#define LSV_UNLABELED_DEFAULT 0.0
#define LSV_MAX_FEATURE 2147483647L  /* largest accepted feature index */

/* Read a whole data set from fp in one pass (so a pipe works); name is
 * used in messages.  On success *out is a new set that the caller owns.
 * A set with no rows is an error (LSV_EFORMAT, "no data rows"). */
lsv_status lsv_data_read(FILE *fp, const char *name, double unlabeled,
			 lsv_data **out, lsv_error *err);

/* As lsv_data_read, opening path; "-" reads standard input. */
lsv_status lsv_data_read_path(const char *path, double unlabeled,
			      lsv_data **out, lsv_error *err);
/* The same, and *fp the data's lsv_data_fingerprint, hashed as each row
 * is read (while its values are in cache: no pass over them after). */
lsv_status lsv_data_read_path_fp(const char *path, double unlabeled,
				 lsv_data **out, unsigned long long *fp,
				 lsv_error *err);

/*
 * Parts of one file, for several processes reading it at once: a part is
 * the lines whose first byte lies in a byte range, so ranges cut anywhere
 * partition the lines.  lsv_file_line_start: the first line start at or
 * after byte off (the file's size if there is none).
 * lsv_file_count_lines: the newline bytes in [from, to).
 * lsv_data_read_part: the rows of the lines starting in [start, end),
 * start a line start, read as lsv_data_read reads, with the lines numbered
 * from first_line (the file's number of the part's first line) in
 * messages; a part may hold no row, and is not checked for looking like a
 * graph (lsv_data_read's check needs every row).  *out is the caller's.
 */
lsv_status lsv_file_line_start(const char *path, long long off,
			       long long *start, lsv_error *err);
lsv_status lsv_file_count_lines(const char *path, long long from,
				long long to, size_t *count, lsv_error *err);
lsv_status lsv_data_read_part(const char *path, double unlabeled,
			      long long start, long long end,
			      size_t first_line, lsv_data **out,
			      lsv_error *err);

void lsv_data_free(lsv_data *x);

/* Nonzero if row i is labeled (its label differs from the marker). */
int lsv_data_is_labeled(const lsv_data *x, size_t i);

/* The number of distinct labels among the labeled rows, counting stopped
 * at most (at most 16: "more than two classes?" reads the rows only until
 * it knows). */
size_t lsv_data_classes(const lsv_data *x, size_t most);

/* ------------------------------------------------------------------ */
/* Graphs (common/graph.c, common/knn.c, common/weights.c)            */
/* ------------------------------------------------------------------ */

/*
 * A symmetric sparse weight matrix W over the n data rows, in compressed
 * sparse row form with both directions stored, columns increasing within
 * each row, no self loops and all weights finite and > 0.
 *
 * File format (same syntax as the data): line i holds row i of W as
 *     i j:w j:w ...
 * with 1-based increasing j.  A row with no neighbours is `i` alone.
 */
typedef struct {
	size_t n;          /* rows (= nodes) */
	size_t nnz;        /* stored entries: twice the number of edges */
	size_t *rowptr;    /* n + 1 offsets into col and w */
	int *col;          /* 0-based neighbour of each entry */
	double *w;         /* weight of each entry, > 0 */
} lsv_graph;

/* Distances.  The last two are for images (common/tangent.c): rows are
 * width x height images, pixel (r, c) -- row r from the top, column c
 * from the left, 0-based -- being feature r width + c + 1 (row-major, as
 * the USPS and MNIST files).  Tangent: two-sided tangent distance (Simard,
 * LeCun & Denker) on each row's C Euclidean nearest candidates; rotation:
 * the least Euclidean distance over rotations of one image in
 * [-180, 180] degrees (Argyriou et al.'s "low-quality" distance). */
typedef enum {
	LSV_DIST_EUCLIDEAN = 0,
	LSV_DIST_COSINE,
	LSV_DIST_TANGENT,
	LSV_DIST_ROTATION
} lsv_distance;
typedef enum {
	LSV_WEIGHT_BINARY = 0,  /* w = 1 */
	LSV_WEIGHT_HEAT,        /* w = exp(-d^2 / (4 t)), JMLR 2006 Table 1 */
	LSV_WEIGHT_DISTANCE     /* w = d */
} lsv_weight;

typedef struct {
	int k;                 /* kNN mode: neighbours chosen by each point */
	double epsilon;        /* > 0: epsilon-ball mode (all pairs with d < epsilon) */
	int mutual;            /* kNN mode: keep an edge only if both ends chose it */
	lsv_distance distance;
	lsv_weight weight;
	double t;              /* heat width; <= 0: the mean of the squared
				  distances of the chosen pairs */
	size_t block;          /* rows per distance block; 0: automatic */
	int single;            /* 1 (default): block products in single
				  precision (sgemm), every row's neighbours
				  certified by the products' rounding bound
				  (the rows it cannot certify are redone in
				  double, or the whole scan if they are many),
				  so the graph is the same as with 0: double
				  products (dgemm) */
	int sparse;            /* 0: automatic (sparse products for data with
				  many features and few non-zeros), 1: always
				  sparse, -1: always dense blocks */
	/* Called after each block pair with (rows done, n), rows done being
	 * the share of the work done, in rows; may be NULL. */
	void (*progress)(void *ctx, size_t done, size_t total);
	void *progress_ctx;
	/* Images (LSV_DIST_TANGENT, LSV_DIST_ROTATION): the shape, and each
	 * distance's own setting. */
	int width, height;     /* pixels; width * height features */
	int candidates;        /* tangent: the C Euclidean nearest rows whose
				  tangent distance is computed (default 20,
				  as the paper's authors) */
	double smooth;         /* tangent: standard deviation (pixels) of the
				  Gaussian the tangent vectors are computed
				  from (default 0.5; 0: none) */
	double angle_step;     /* rotation: degrees between the rotations
				  tried (default 9, the authors' pi/20) */
} lsv_graph_param;

/* What a build did, for the tool to report. */
typedef struct {
	int k;                 /* neighbours actually chosen (k capped at n - 1) */
	double t;              /* heat width used (0 if not heat) */
	size_t edges;          /* undirected edges in the result */
	size_t isolated;       /* rows with no edge */
	size_t zero_rows;      /* rows with no non-zero value (cosine: isolated) */
	size_t dropped;        /* edges dropped because their weight was 0
				  (distance weights of duplicates, heat underflow) */
	int sparse;            /* the sparse path was used */
	int threads;           /* OpenMP threads used for the scan */
	double gemm_seconds;   /* wall time in the block products */
	double gemm_flops;     /* their floating-point operations */
	double scan_seconds;   /* wall time of the whole O(n^2 d) scan */
	size_t recomputed;     /* rows whose candidates the rounding bound could
				  not certify, redone exactly against all rows */
	size_t rescanned;      /* > 0: that many rows of a single-precision
				  scan were uncertified, so the scan was redone
				  with double products */
	int single;            /* the products kept were single precision */
	size_t trial_rows;     /* > 0: the automatic path choice timed both
				  paths on this many rows (seconds below) */
	double trial_dense, trial_sparse;
	size_t ties;           /* uncertified rows whose k-th and next
				  distances are exactly equal */
	/* Images: C (candidates per row, capped at n - 1) and the pairs
	 * whose tangent distance was computed, or the rotations tried; the
	 * time of that phase. */
	int candidates;
	size_t image_pairs;
	int rotations;
	double image_seconds;
} lsv_graph_info;

/* Defaults: k = 6 nearest neighbours, union, Euclidean, heat weights with
 * t = mean squared kNN distance, automatic block size, no progress. */
void lsv_graph_param_default(lsv_graph_param *p);

/* Check p; LSV_EINVAL with a message naming the bad field otherwise. */
lsv_status lsv_graph_param_check(const lsv_graph_param *p, lsv_error *err);

/*
 * Build the graph of x (labels are ignored).  Exact: the inner products of
 * each pair of row blocks come once from one BLAS sgemm or dgemm (|a|^2 +
 * |b|^2 - 2 a.b of the centered rows, both directions from the same
 * product), a few more than k
 * candidates per row are kept by partial selection (bounded heaps), and the
 * survivors are re-ranked by their exactly recomputed distance, ties broken
 * by the lower index.  The selection runs on OpenMP threads; the products
 * use a threaded BLAS as it is, or one BLAS call per thread otherwise.
 * Memory O(block * dim + block^2 + n * k).  On success *out is a new graph
 * that the caller owns; info (may be NULL) describes it.
 *
 * Data whose squared row norm exceeds DBL_MAX / 4 (values beyond about
 * 1e154: the distances would overflow a double) are refused with
 * LSV_EINVAL, the message naming the 1-based row but no file (x has no
 * name; the caller adds it): "row 2: feature values too large (squared
 * norm inf, expected at most 4.49423e+307): distances would overflow a
 * double; rescale the data".  lsv_knn_lists refuses them the same way.
 * Once p passes lsv_graph_param_check, LSV_EINVAL from either always means
 * the data were refused (lsv_knn_lists: in kNN mode); the other failures
 * are LSV_ENOMEM and LSV_ETOOBIG.
 */
lsv_status lsv_graph_build(const lsv_data *x, const lsv_graph_param *p,
			   lsv_graph **out, lsv_graph_info *info,
			   lsv_error *err);

/* The directed k nearest neighbours of every row, before any
 * symmetrization (kNN mode; p->weight and p->mutual play no part): idx
 * and dist are n x info->k, row-major, each row by increasing distance then
 * index; a row with fewer candidates (k capped, cosine zero rows) ends in
 * -1 / 0.  The caller frees both with free(). */
lsv_status lsv_knn_lists(const lsv_data *x, const lsv_graph_param *p,
			 int **idx, double **dist, lsv_graph_info *info,
			 lsv_error *err);

/* Read a graph in one pass.  expect_n > 0 requires exactly that many rows
 * (the data set the graph goes with); 0 accepts any count.  Checks every
 * entry and the symmetry of W.  The caller owns *out. */
lsv_status lsv_graph_read(FILE *fp, const char *name, size_t expect_n,
			  lsv_graph **out, lsv_error *err);
lsv_status lsv_graph_read_path(const char *path, size_t expect_n,
			       lsv_graph **out, lsv_error *err);

/* Write g in the graph format; weights with %.17g so they read back exactly. */
lsv_status lsv_graph_write(FILE *fp, const char *name, const lsv_graph *g,
			   lsv_error *err);

void lsv_graph_free(lsv_graph *g);

/*
 * Incremental graphs (common/update.c): rows appended to a data set.
 *
 * A graph's record is what a later update needs and the graph file lacks
 * (it holds weights, and the default heat width is the mean of the chosen
 * pairs' squared distances, which new pairs change): every pair the
 * neighbour search chose, in the build's order, with its exact ranking
 * key (the squared Euclidean distance, or the cosine distance); and what
 * the graph belongs to: the data's row count, largest feature index and
 * fingerprint, the graph options, the graph's own fingerprint.
 *
 * lsv_graph_update(x, n0, p, old): x is the old rows [0, n0) followed by
 * the new ones; old is the record of the graph built by the same p on
 * those old rows.  The result is bit for bit lsv_graph_build(x, p) (and
 * its record), from the distances of the new rows to every row only:
 * O(n_new n d) products, by the same dense blocks as a full build.  kNN
 * and epsilon graphs, Euclidean and cosine distances; not the image
 * distances (LSV_EINVAL).
 */
#define LSV_OPTIONS_MAX 256

typedef struct {
	size_t n;                   /* rows of the data */
	size_t dim;                 /* their largest feature index */
	int dense;                  /* every row stores dim values */
	unsigned long long data_fp; /* lsv_data_fingerprint of the data */
	unsigned long long graph_fp; /* lsv_graph_fingerprint of the graph */
	char options[LSV_OPTIONS_MAX]; /* lsv_graph_options of the build */
	size_t *rowptr;             /* n + 1: row i's pairs */
	int *col;                   /* the row each pair joins, 0-based */
	double *key;                /* its exact ranking key */
} lsv_graph_record;

/* How the rows' variance is spread over the features.  The features'
 * variances sum to half the mean squared distance between rows (times
 * (n-1)/n), which sets the default RBF width and the kNN graph: when one
 * feature holds most of it and the typical feature is far smaller,
 * distances see that feature alone, as with unscaled features in
 * different units. */
typedef struct {
	size_t feature;    /* 1-based: the feature of largest variance (0:
			    * none varies, or not examined) */
	double share;      /* its variance over the sum of all */
	double std_ratio;  /* its standard deviation over the median one of
			    * the other varying features (1 when none) */
	size_t varying;    /* features whose variance is above 1e-12 of the
			    * sum (a constant's is rounding) */
} lsv_feature_spread;

/* Fills *s for the rows of x: two passes over the stored values, O(dim)
 * memory; sets of over 2^24 features are not examined (sparse text, on
 * one scale).  Returns LSV_ENOMEM (err set) only if the dim-sized arrays
 * cannot be allocated. */
lsv_status lsv_data_feature_spread(const lsv_data *x, lsv_feature_spread *s,
				   lsv_error *err);

/* A 64-bit hash of the rows' features (FNV-1a over 64-bit words: each
 * row's count, then its stored index:value pairs, -0 as 0; not the
 * labels, which a graph does not read).  A concatenation's is its first
 * part's continued, so an update hashes only the new rows. */
unsigned long long lsv_data_fingerprint(const lsv_data *x);
/* 64-bit FNV-1a of the graph's text as lsv_graph_write writes it; and of
 * a file's bytes, the same number for a file lsv_graph_write wrote (so an
 * update checks the old graph without parsing it). */
unsigned long long lsv_graph_fingerprint(const lsv_graph *g);
lsv_status lsv_file_fingerprint(const char *path, unsigned long long *out,
				lsv_error *err);
/* The options that make the graph, as graph-build spells them ("-k 6 -d
 * euclidean -w heat"): -k or -e, -m, -d, -w, -t; not those that leave the
 * graph unchanged (-B, -p, -A, -q). */
void lsv_graph_options(const lsv_graph_param *p, char *buf, size_t size);

/* A new set: the rows of a, then those of b (b's labels, a's marker). */
lsv_status lsv_data_concat(const lsv_data *a, const lsv_data *b,
			   lsv_data **out, lsv_error *err);
/* The same in place: b's rows appended to a (on failure a is unchanged). */
lsv_status lsv_data_append(lsv_data *a, const lsv_data *b, lsv_error *err);

/* lsv_graph_build, and its record (*rec, the caller's). */
lsv_status lsv_graph_build_record(const lsv_data *x, const lsv_graph_param *p,
				  lsv_graph **out, lsv_graph_record **rec,
				  lsv_graph_info *info, lsv_error *err);
lsv_status lsv_graph_update(const lsv_data *x, size_t n0,
			    const lsv_graph_param *p,
			    const lsv_graph_record *old, lsv_graph **out,
			    lsv_graph_record **rec, lsv_graph_info *info,
			    lsv_error *err);

/* Does rec belong to graph g, built by p on data x?  LSV_EINVAL with the
 * first thing that differs (rows, options, data, graph), no file names
 * (the caller adds them).  x NULL: only the graph; g NULL: not the graph. */
lsv_status lsv_graph_record_check(const lsv_graph_record *rec,
				  const lsv_data *x, const lsv_graph_param *p,
				  const lsv_graph *g, lsv_error *err);
/* Its data checks alone, given the data x and their fingerprint fp
 * (lsv_data_read_path_fp's): rows, options, fingerprint, and rec's
 * features line (dimension, dense or sparse), which no fingerprint
 * covers, against x itself. */
lsv_status lsv_graph_record_check_data(const lsv_graph_record *rec,
				       const lsv_data *x, unsigned long long fp,
				       const lsv_graph_param *p, lsv_error *err);

/* Can the rows xnew be appended to the data of rec?  LSV_EINVAL if the
 * old data are dense (every row stores dim values) and a new row reaches
 * a feature beyond them or does not store each one (the message names its
 * 1-based row; the caller adds the file). */
lsv_status lsv_graph_record_check_new(const lsv_graph_record *rec,
				      const lsv_data *xnew, lsv_error *err);

/* The record file: a header, then line i "i j:key j:key ..." (keys with
 * %.17g, exact).  The reader checks every line (name: the input's, for
 * messages); *out is the caller's on success, NULL on failure. */
lsv_status lsv_graph_record_write(FILE *fp, const char *name,
				  const lsv_graph_record *rec, lsv_error *err);
lsv_status lsv_graph_record_read(FILE *fp, const char *name,
				 lsv_graph_record **out, lsv_error *err);
lsv_status lsv_graph_record_read_path(const char *path,
				      lsv_graph_record **out, lsv_error *err);
void lsv_graph_record_free(lsv_graph_record *rec);

/*
 * Class-dependent graphs (common/classes.c; JMLR 2006 Section 6.2): a
 * graph whose edges never join two classes, so that its Laplacian is
 * blockdiag(L_c), one block per class.
 *
 * lsv_graph_build_classes: the graph of lsv_graph_build built within each
 * class of x's labeled rows separately (kNN or epsilon pairs among the
 * class's rows only, then weighed and symmetrized as one graph: the heat
 * width t is the mean over the chosen pairs of every class).  Unlabeled
 * rows get no edge.  info->k is the smallest k used (a class of m rows
 * offers m - 1 neighbours); the other counts are over all classes.
 *
 * lsv_graph_check_classes: LSV_OK if every edge of g joins two labeled
 * rows of x of the same class, else LSV_EINVAL naming the first edge that
 * does not ("row 4: edge 4-9 joins class 1 and class 2", or "... reaches
 * row 9, which is unlabeled"; no file name: the caller adds it).
 *
 * lsv_graph_within_classes: the subgraph of g keeping exactly those edges
 * (so an unlabeled row of x is left isolated).  Cross validation gives a
 * fold the graph of its training rows this way.
 */
lsv_status lsv_graph_build_classes(const lsv_data *x,
				   const lsv_graph_param *p, lsv_graph **out,
				   lsv_graph_info *info, lsv_error *err);
lsv_status lsv_graph_check_classes(const lsv_graph *g, const lsv_data *x,
				   lsv_error *err);
lsv_status lsv_graph_within_classes(const lsv_graph *g, const lsv_data *x,
				    lsv_graph **out, lsv_error *err);

/* ------------------------------------------------------------------ */
/* Kernels (common/kernel.c)                                           */
/* ------------------------------------------------------------------ */

/* LIBSVM's kernels, with its numbers (-t) and meaning:
 *   0 linear      u'v
 *   1 polynomial  (gamma u'v + coef0)^degree
 *   2 RBF         exp(-gamma |u - v|^2)   (a width sigma is gamma = 1/(2 sigma^2))
 *   4 precomputed K(x_i, x_j) given in the data (below) */
typedef enum {
	LSV_KERNEL_LINEAR = 0,
	LSV_KERNEL_POLY = 1,
	LSV_KERNEL_RBF = 2,
	LSV_KERNEL_PRECOMPUTED = 4  /* LIBSVM's -t 4: the values read from
				       the data (common/precomputed.c) */
} lsv_kernel_type;

typedef struct {
	lsv_kernel_type type;
	int degree;
	double gamma;
	double coef0;
} lsv_kernel;

/*
 * Precomputed kernels (common/precomputed.c), LIBSVM's -t 4 format:
 *     label 0:i 1:K(x_i,x_1) ... n:K(x_i,x_n)
 * the serial number i (1-based) first, then the kernel against every
 * training row, column j being the row whose serial number is j.
 * In memory each row stores the serial number at column LSV_SERIAL_COL
 * (written back as index 0), then the values at columns 0..n-1.
 * expect 0 reads a training file: n rows, each of n columns with no gap,
 * serial numbers 1..n each once, values finite, and symmetric:
 * |K(p,q) - K(q,p)| <= LSV_PRECOMPUTED_SYM_TOL max|K| (LSV_EFORMAT naming
 * file:line otherwise).  expect > 0 reads test rows "label 0:? 1:K(x,x_1)
 * ... expect:K(x,x_expect)" against a model's expect = l + u training
 * rows (the 0: value, any number or '?', is not used).
 */
#define LSV_SERIAL_COL (-1)
#define LSV_PRECOMPUTED_SYM_TOL 1e-6
lsv_status lsv_precomputed_read(FILE *fp, const char *name, double unlabeled,
				size_t expect, lsv_data **out, lsv_error *err);
lsv_status lsv_precomputed_read_path(const char *path, double unlabeled,
				     size_t expect, lsv_data **out,
				     lsv_error *err);
/* Write the n x n kernel K (column-major) over rows labeled y in that
 * format: row i's serial number serial[i] (a permutation of 1..n, the
 * serial numbers of the file K came from; NULL: 1..n in row order), its
 * columns by serial number (column t: the row whose serial is t), so that
 * test files indexed like the original still fit. */
lsv_status lsv_precomputed_write(FILE *fp, const char *name, const double *K,
				 size_t n, const double *y, const size_t *serial,
				 lsv_error *err);

/* "linear", "polynomial", "rbf", "precomputed"; NULL for an unknown type. */
const char *lsv_kernel_name(lsv_kernel_type t);

/* Check k; LSV_EINVAL naming the bad field otherwise. */
lsv_status lsv_kernel_check(const lsv_kernel *k, lsv_error *err);

/*
 * K = k(a_i, b_j) for rows ia[0..na) of a and ib[0..nb) of b (a NULL index
 * list means all rows, in order), written column-major into the caller's
 * na x nb array: K[i + j na].  Inner products come from dgemm over dense
 * blocks of the features that occur in the chosen rows of b; a feature of a
 * absent from b adds nothing to u'v but counts in |u - v|^2.  Memory
 * beyond K: O((na_block + nb) d_b).
 */
lsv_status lsv_kernel_matrix(const lsv_kernel *k, const lsv_data *a,
			     const size_t *ia, size_t na, const lsv_data *b,
			     const size_t *ib, size_t nb, double *K,
			     lsv_error *err);

/*
 * The mean squared Euclidean distance between two distinct rows of x,
 * 1/(n(n-1)) sum_{i != j} |x_i - x_j|^2 = 2/(n-1) sum_i |x_i - mean|^2,
 * exactly, in O(nnz + features) time (two passes, centred, so data far
 * from the origin lose nothing to cancellation).  0 when n < 2.  The
 * default RBF width of lapsvm-train is gamma = 1 / this.  LSV_EINVAL,
 * naming the row, if a row's squared norm overflows a double.
 */
lsv_status lsv_mean_sqdist(const lsv_data *x, double *out, lsv_error *err);

/* ------------------------------------------------------------------ */
/* Laplacians (common/laplacian.c)                                     */
/* ------------------------------------------------------------------ */

/*
 * Dense n x n Laplacian of g (column-major, caller's array): L = D - W, or
 * normalized L = I - D^-1/2 W D^-1/2 (JMLR 2006 Remark 3).  An isolated node
 * (degree 0) gets a zero row and column in both -- f^T L f =
 * 1/2 sum_ij W_ij (f_i - f_j)^2 (or its normalized form) has no term for
 * it -- so no division by zero.  power p > 1 gives L^p (p - 1 dgemm).
 */
lsv_status lsv_laplacian_dense(const lsv_graph *g, int normalized, int power,
			       double *L, lsv_error *err);

/*
 * The same Laplacian as a sparse operator: Y = scale L^p X for X with C
 * columns of n (column-major), in O(p C nnz(W)) time and no n x n array
 * (p sparse products; columns spread over OpenMP threads).  init reads g
 * (which must outlive L) and owns the degree arrays; free releases them.
 */
typedef struct {
	size_t n;
	const lsv_graph *g;
	double *deg, *isd;  /* degrees, 1/sqrt(degree) (0 if isolated) */
	int normalized, power;
	double *sw;         /* NULL, or sqrt of the row weights (lsv_lapop_scale) */
} lsv_lapop;

lsv_status lsv_lapop_init(lsv_lapop *L, const lsv_graph *g, int normalized,
			  int power, lsv_error *err);
/* Weigh the rows: the operator becomes D L^p D, D = diag(sqrt(w_i)) (w: n
 * finite values > 0, copied).  On a graph without edges between classes,
 * w_i the weight of row i's class, this is blockdiag(w_c L_c^p): the
 * class-dependent intrinsic term (common/classes.c).  LSV_EINVAL for a
 * weight that is not a finite number > 0. */
lsv_status lsv_lapop_scale(lsv_lapop *L, const double *w, lsv_error *err);
lsv_status lsv_lapop_apply(const lsv_lapop *L, const double *X, double *Y,
			   size_t C, double scale, lsv_error *err);
/* Rows [lo, lo + nr) of the same Y, the other rows of Y left as scratch
 * (a distributed solver's own rows; X whole, since a row of L X reads its
 * neighbours): O(p C nnz) for p > 1 (the inner products whole), the last
 * product over the rows' edges only.  LSV_EINVAL for rows outside n. */
lsv_status lsv_lapop_apply_rows(const lsv_lapop *L, const double *X,
				double *Y, size_t C, double scale, size_t lo,
				size_t nr, lsv_error *err);
void lsv_lapop_free(lsv_lapop *L);

/* ------------------------------------------------------------------ */
/* Names (common/names.c)                                              */
/* ------------------------------------------------------------------ */

/* One table of names per enumeration, used alike by the command line, the
 * model reader and writer and messages, so each name is spelled once.  A
 * table ends with {NULL, -1}. */
typedef struct {
	const char *name;
	int value;
} lsv_name;

extern const lsv_name lsv_solver_names[];     /* lapsvm, laprls, tsvm */
extern const lsv_name lsv_method_names[];     /* direct, pcg, pcg-early, newton */
extern const lsv_name lsv_kernel_names[];     /* linear, polynomial, rbf */
extern const lsv_name lsv_laplacian_names[];  /* normalized, unnormalized */
extern const lsv_name lsv_cluster_rows_names[]; /* unit, raw */
extern const lsv_name lsv_boost_learner_names[]; /* tree, rbf */
extern const lsv_name lsv_kdesign_names[];    /* cluster, diffusion, maxalign, spectral */
extern const lsv_name lsv_la_basis_names[];   /* kernel, laplacian */
extern const lsv_name lsv_lap_graph_names[];  /* kernel, graph */

/* The value named s in t, or -1. */
int lsv_name_value(const lsv_name *t, const char *s);
/* The name of value v in t, or NULL. */
const char *lsv_name_of(const lsv_name *t, int v);
/* "a, b or c": the names of t into buf (cut to size), for messages. */
const char *lsv_name_list(const lsv_name *t, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* Training (common/train.c: the driver and its table of methods; one  */
/* file per solver, see common/solver.h) and models (common/model.c)   */
/* ------------------------------------------------------------------ */

typedef enum {
	LSV_SOLVER_LAPSVM = 0,  /* hinge loss (JMLR eqs. 10-12); SVM at gamma_I = 0 */
	LSV_SOLVER_LAPRLS = 1,  /* squared loss (eq. 8); RLS at gamma_I = 0 */
	LSV_SOLVER_TSVM = 2,    /* Joachims' transductive SVM (label switching); no graph */
	LSV_SOLVER_CLUSTER = 3, /* regularized spectral clustering (JMLR 2006
				   Section 6.1, eq. 14): no labels used */
	LSV_SOLVER_COMBINE = 4, /* the best convex combination of several graphs'
				   Laplacian kernels (Argyriou, Herbster & Pontil,
				   NIPS 2005; common/combine.c), transductive,
				   with LapRLS / LapSVM on sum_q lambda_q L_q as
				   its model for new points */
	LSV_SOLVER_LABELAWARE = 5, /* label-aware base kernels (Wang, Zhang,
				   Jiang & Marsic, AAAI 2014; common/
				   labelaware.c): a kernel learned by alignf
				   from label-aware vectors and kernel
				   eigenvectors, then the SVM on it */
	LSV_SOLVER_BOOST = 6,    /* ManifoldBoost (Loeff, Forsyth & Ramachandran,
				   ICML 2008; common/boost.c): an additive model
				   of regression trees, no kernel */
	LSV_SOLVER_KDESIGN = 7   /* the kernel designs of Wang et al.'s Table 1
				   (common/kdesign.c): a kernel over the n
				   training rows from a spectrum (lsv_kdesign),
				   then the SVM on it; transductive */
} lsv_solver;

/* The kernel designs of -s kdesign (lapsvm-train -J; common/kdesign.c),
 * each K~ = sum_j mu_j z_j z_j' over k eigenvectors of the n rows. */
typedef enum {
	LSV_KDESIGN_CLUSTER = 0,  /* cluster kernel, linear-step transfer
				     (Chapelle, Weston & Schoelkopf 2003) */
	LSV_KDESIGN_DIFFUSION,    /* exp(-lambda_j / delta) on the normalized
				     Laplacian's k smallest eigenpairs */
	LSV_KDESIGN_MAXALIGN,     /* alignf weights on the top-k kernel
				     eigenvectors */
	LSV_KDESIGN_SPECTRAL      /* Zhu, Kandola, Ghahramani & Lafferty 2004:
				     order-constrained weights on the k smallest
				     Laplacian eigenvectors */
} lsv_kdesign;

/* The eigenvectors v_j of the label-aware base kernels (-J of -s
 * labelaware). */
typedef enum {
	LSV_LA_KERNEL = 0,        /* the top-k of the kernel K (default): new
				     points by the Nystrom extension */
	LSV_LA_LAPLACIAN          /* the bottom-k of the normalized graph
				     Laplacian: transductive */
} lsv_la_basis;

/* The weights W of the normalized Laplacian I - D^-1/2 W D^-1/2 whose
 * bottom eigenvectors -s kdesign -J diffusion|spectral and -s labelaware
 * -J laplacian take (lapsvm-train -V). */
typedef enum {
	LSV_LAP_KERNEL = 0,       /* W = K, the dense kernel matrix, D_ii =
				     sum_j K_ij (Wang et al.'s Table 1, after
				     Zhu et al. 2004; default): no graph */
	LSV_LAP_GRAPH             /* W = the training graph (-G, or the k-NN
				     graph built) */
} lsv_lap_graph;

/* How a solver's objective is minimized (lapsvm-train -M).  Which
 * solver x method pairs exist is the method table's business (train.c);
 * lsv_train_param_check refuses the others, listing the supported ones. */
typedef enum {
	LSV_METHOD_DIRECT = 0,  /* LapRLS: one LU of eq. 8; LapSVM: its dual by
				   SMO; the TSVM's label switching */
	LSV_METHOD_PCG,         /* primal preconditioned CG, one product with K
				   per iteration (Melacci & Belkin, JMLR 12,
				   2011); LapSVM: inside Newton steps */
	LSV_METHOD_PCG_EARLY,   /* the same, stopping once the unlabeled
				   predictions are stable */
	LSV_METHOD_NEWTON,      /* primal finite Newton: n x n LU steps, or on
				   a feature map (Nystrom landmarks, or the
				   data for the linear kernel) */
	LSV_METHOD_RANDOM       /* combine: each step takes the first improving
				   kernel in a random order (the authors'
				   code), seeded; direct takes the argmax */
} lsv_method;

/* Decisions that respect class proportions (common/balance.c): after
 * any method's fit, each function's bias is shifted so that a fraction
 * r of the unlabeled training rows is positive (lsv_balance_shift). */
typedef enum {
	LSV_BALANCE_NONE = 0,   /* the bias as the solver found it */
	LSV_BALANCE_LABELED,    /* r: each class's fraction among the labeled
				   rows (binary: of labels[0]; one-vs-rest:
				   every function its class's) */
	LSV_BALANCE_GIVEN       /* r = balance_r for labels[0]; two classes
				   only */
} lsv_balance;

/* "lapsvm", "laprls", "tsvm", "cluster"; NULL for an unknown solver. */
const char *lsv_solver_name(lsv_solver s);
/* "direct", "pcg", "pcg-early", "newton"; NULL for an unknown method. */
const char *lsv_method_name(lsv_method m);

/*
 * Regularization with the scaling of JMLR eq. 4:
 *   1/l sum_{i<=l} V(x_i, y_i, f) + gamma_A |f|_K^2 + gamma_I/(l+u)^2 f'Lf.
 * The paper quotes gamma_A l and gamma_I l/(l+u)^2; SVM users' C is
 * 1/(2 gamma_A l).  How each solver's objective constants follow from
 * gamma_A and gamma_I is tabled once, in common/solver.h.
 */
typedef struct {
	lsv_solver solver;
	lsv_method method;
	lsv_kernel kernel;      /* RBF gamma 0: 1 / the mean squared distance
				   between rows (lsv_mean_sqdist); polynomial
				   gamma 0: 1 / features, as LIBSVM */
	double gamma_A;         /* > 0 */
	double gamma_I;         /* >= 0; 0 gives RLS / SVM */
	int normalized;         /* Laplacian I - D^-1/2 W D^-1/2 (default 1) */
	int power;              /* Laplacian power p (default 1) */
	double eps;             /* dual solver's stopping tolerance (default 1e-3) */
	long max_iter;          /* dual solver's iteration cap (0: automatic) */
	/* PCG (and the CG of the sparse linear map): stop on the relative
	 * residual pcg_tol or after pcg_max_iter iterations; pcg-early also
	 * stops when under 1.5% of the unlabeled signs changed over the last
	 * sqrt(n)/2 iterations. */
	double pcg_tol;         /* default 1e-6 (lapsvm-train -e with these methods) */
	long pcg_max_iter;      /* default 0: 10 n for PCG, 10 (m + 1) for
				   the linear map's m + 1 unknowns (at most
				   100000); a solve stopped there is counted
				   in lsv_train_report.cg_capped */
	/* Newton on a feature map: the Nystrom map of the kernel with
	 * `landmarks` rows sampled uniformly (seeded by `seed`), or, with
	 * landmarks = 0 and the linear kernel, the data themselves (sparse,
	 * never an n x n array). */
	long landmarks;         /* Nystrom landmarks m (0: none) */
	/* NULL, or the processes (common/comm.c) among which Newton on a
	 * feature map and PCG on the kernel (laprls or lapsvm -M pcg,
	 * pcg-early) split the rows (lapsvm-train under mpirun): every rank
	 * calls lsv_train with the same data, graph and parameters and gets
	 * the same model; each computes only its block of the rows of Phi
	 * or of K.  With more than one rank the other methods are refused
	 * (LSV_EINVAL; lsv_train_distributed says which). */
	struct lsv_comm *comm;
	unsigned long long seed;/* landmark sampling */
	double mem_limit;       /* bytes the dense arrays may take (0: the
				   physical memory) */
	/* TSVM only.  The labeled points' cost is the SVM's, C = 1/(2 gamma_A l). */
	double tsvm_cstar;      /* cost C* of the unlabeled points (0: C) */
	double tsvm_r;          /* fraction of the unlabeled points put in the
				   positive class, in (0, 1) (0: that class's
				   fraction among the labeled rows) */
	long tsvm_max_switches; /* cap on label switches per binary problem
				   (0: none) */
	/* Every method: the bias shift for class proportions (the TSVM's
	 * own fraction constraint is tsvm_r; this shifts after it). */
	lsv_balance balance;    /* default LSV_BALANCE_NONE */
	double balance_r;       /* LSV_BALANCE_GIVEN: the positive fraction of
				   the unlabeled rows, 0 < r < 1 */
	/* Clustering only (LSV_SOLVER_CLUSTER): minimize gamma_A |f|_K^2 +
	 * gamma_I f'L^p f with sum_i f(x_i) = 0, sum_i f(x_i)^2 = 1 (no loss,
	 * so no l or n scaling: only gamma_A / gamma_I matters), c clusters
	 * from the c - 1 smallest solutions (k-means seeded by `seed` when
	 * c > 2). */
	int clusters;           /* c >= 2 (default 2) */
	/* c > 2 only: how the rows of the embedding become clusters.
	 * cluster_unit 1 (default): each row (f_1(x_i) .. f_{c-1}(x_i)) is
	 * scaled to unit length before k-means (Ng, Jordan & Weiss 2002),
	 * and a new point's row likewise before its nearest centroid
	 * (lsv_model_label); 0: the rows as they are.  cluster_restarts:
	 * k-means++ runs, the lowest inertia kept (default 10). */
	int cluster_unit;
	int cluster_restarts;
	/* Class-dependent Laplacians (JMLR 2006 Section 6.2, common/
	 * classes.c): the intrinsic term is gamma_I/(l+u)^2 sum_c w_c f_c'
	 * L_c^p f_c, each class on its own graph.  The graph must then have
	 * no edge between two classes nor at an unlabeled row
	 * (lsv_graph_check_classes; training refuses it otherwise). */
	int class_graph;        /* 0 (default) or 1 */
	int nr_weight;          /* weights given, LIBSVM's style: w_c =
				   weight[j] for the class weight_label[j],
				   1 for the other classes (the caller owns
				   the arrays; a model keeps its own record,
				   lsv_model.class_weight) */
	const double *weight_label;
	const double *weight;   /* finite, > 0; needs class_graph */
	/* LSV_SOLVER_COMBINE only (common/combine.c).  The square-loss fit
	 * (K_ll(lambda) + mu I) c = y on the graphs' normalized Laplacian
	 * kernels; mu = combine_mu, or l * 1e-5 when 0 (the authors' code;
	 * the paper's text says 1e-5).  At most combine_steps steps of the
	 * paper's Figure 1 (default 100; 0 keeps the starting weights).
	 * combine_rank r > 0: each kernel from the r smallest nonzero
	 * eigenpairs of its Laplacian instead of the exact pseudo-inverse;
	 * 0: exact up to LSV_COMBINE_EXACT_MAX rows, r = LSV_COMBINE_RANK
	 * past that.  The model for new points is combine_ext (LapRLS or
	 * LapSVM, direct) with L = sum_q lambda_q L_q and the ambient
	 * kernel, gamma_A and gamma_I as for that solver. */
	double combine_mu;      /* >= 0; 0: l * 1e-5 */
	long combine_steps;     /* >= 0, default 100 */
	long combine_rank;      /* >= 0, default 0 (automatic) */
	lsv_solver combine_ext; /* LSV_SOLVER_LAPRLS (default) or _LAPSVM */
	/* combine: nonzero declares the two classes, combine_labels[0] the
	 * one f > 0 predicts, so that labeled rows of one class only can
	 * train: the square loss fits all-equal targets, and the kernels'
	 * functions have zero (degree-weighted) mean on each connected
	 * component, so their signs still split the rows (the authors' l = 4
	 * selections hold such draws).  Every labeled row must be one of
	 * the two. */
	int combine_two;
	double combine_labels[2];
	/* combine: also fit each graph's kernel alone, (K_q,ll + mu I) c = y
	 * (the paper's eq. 2.5), into report->single_f; not saved. */
	int combine_singles;
	/* The classes' order, when not NULL (class_order_n of them): each
	 * class of the labeled rows takes its place in it, so the first (the
	 * one f > 0 predicts, which -p r's fraction is of) is the same
	 * whatever rows are labeled; cross validation gives each fold the
	 * whole data's order.  NULL: the order of first appearance in the
	 * rows, +1 before -1.  Not owned. */
	const double *class_order;
	int class_order_n;
	/* LSV_SOLVER_LABELAWARE only (common/labelaware.c): the number k of
	 * kernel eigenvectors v_j (the largest eigenvalues of the n x n
	 * kernel); 0: n/10 rounded down, at least 1 (the paper's 10%). */
	long la_k;
	/* labelaware: where the v_j come from (default LSV_LA_KERNEL); with
	 * LSV_LA_LAPLACIAN the graph is the training graph (-G or built). */
	lsv_la_basis la_basis;
	/* LSV_SOLVER_KDESIGN only (common/kdesign.c): the design; la_k is its
	 * number k of eigenvectors (0: n/10, at least 1); kd_delta the
	 * diffusion kernel's delta (> 0; 0: the median of its k Laplacian
	 * eigenvalues). */
	lsv_kdesign kdesign;
	double kd_delta;
	/* kdesign diffusion and spectral, labelaware with LSV_LA_LAPLACIAN:
	 * the W of their normalized Laplacian (default LSV_LAP_KERNEL). */
	lsv_lap_graph lap_graph;
	/* LSV_SOLVER_BOOST only (common/boost.c): at most boost_rounds
	 * rounds M (1..LSV_BOOST_MAX_ROUNDS, default 100) of regression trees
	 * of depth boost_depth (1..LSV_BOOST_MAX_DEPTH, default 3; 1: stumps),
	 * each added with shrinkage boost_shrinkage (0 < nu <= 1, default
	 * 0.1); stop early when the cost changes by less than boost_tol
	 * relative in a round (>= 0, default 1e-6; 0: never). */
	long boost_rounds;
	int boost_depth;
	double boost_shrinkage;
	double boost_tol;
	/* boost: the base learner (LSV_BOOST_TREE, default, or
	 * LSV_BOOST_RBF: boost_rbfs greedy RBFs exp(-kernel.gamma |x - c|^2)
	 * centred on training rows per function and round, 1..
	 * LSV_BOOST_MAX_RBFS, default 15; the kernel must then be the RBF) */
	int boost_learner;
	int boost_rbfs;
	/* boost: 0 (default) learns from the labeled rows; c >= 2 clusters
	 * all the rows into c instead (the paper's Section 4, labels unused):
	 * c - 1 functions under the augmented Lagrangian of sum F = 0,
	 * sum F^2 = n (and, for c > 2, sum F_j F_k = 0), then k-means. */
	int boost_clusters;
	/* boost clustering: F_0, the start of the c - 1 functions
	 * (LSV_BOOST_INIT_RANDOM, default: a learner fitted to seeded
	 * N(0, 0.1^2) values, the paper's Algorithm 3 line 1;
	 * LSV_BOOST_INIT_SPECTRAL: fitted to the c - 1 bottom nontrivial
	 * eigenvectors of L, at the same scale; a dense eigenproblem, n^2
	 * memory, for n small enough).  0 without boost_clusters. */
	int boost_init;
	/* A warm start (lsv_train_param_default: NULL, a cold start): a model
	 * trained on a prefix of these rows by an iterative kernel method
	 * (lapsvm -M pcg, pcg-early or newton on the n x n kernel; laprls
	 * -M pcg or pcg-early) or by Newton on a feature map (lapsvm and
	 * laprls -M newton with landmarks, or on the linear kernel's data).
	 * Its expansion coefficients start the solver,
	 * the rows it has not seen at 0; the minimizer is the same, so the
	 * result equals a cold start to the solver's tolerance.  A feature
	 * map starts from the model's w and b: Nystrom keeps the model's
	 * landmarks (its expansion points, which must be rows of x in order;
	 * landmarks must equal the model's) instead of sampling, so the
	 * result is the cold start on those landmarks; the linear map takes
	 * the model's feature weights (each feature must occur in x).  A
	 * model whose coefficients and biases are all 0 starts the cold run
	 * (on its landmarks).  Refused
	 * (LSV_EINVAL) unless: the method is one of those and of the model's
	 * family (the same fit: lapsvm pcg, pcg-early and newton share one;
	 * laprls pcg and pcg-early another), the kernel and its parameters
	 * are the model's (type, degree, the resolved gamma, coef0), so are
	 * the Laplacian's normalization and power and the classes in order,
	 * the model has at most n training rows, and its expansion points
	 * (not the linear map's: they are weights) are rows of x in the
	 * same order (each matched to the first equal row after the
	 * previous match: the model was trained on a prefix).
	 * gamma_A and gamma_I may differ (-a and -i scale with l and n, which
	 * grow with the data): the start is then only less close.  Not
	 * saved: a trained model's param.init is NULL. */
	const struct lsv_model_s *init;
} lsv_train_param;

/* The base learners of ManifoldBoost (lsv_train_param.boost_learner). */
typedef enum { LSV_BOOST_TREE = 0, LSV_BOOST_RBF = 1 } lsv_boost_learner;
typedef enum { LSV_BOOST_INIT_RANDOM = 0, LSV_BOOST_INIT_SPECTRAL = 1 } lsv_boost_init;

#define LSV_BOOST_MAX_DEPTH 10
#define LSV_BOOST_MAX_ROUNDS 100000
#define LSV_BOOST_MAX_RBFS 1000
/* nodes of a tree of the largest depth: 2^(depth+1) - 1 */
#define LSV_BOOST_MAX_NODES ((1 << (LSV_BOOST_MAX_DEPTH + 1)) - 1)

/*
 * One regression tree of a boosted model.  Node 0 is the root.  A split
 * node (feature >= 0, 0-based) sends x to node left when x[feature] <=
 * threshold (a feature a sparse row does not store is 0), else to node
 * right; both children have larger indices than their parent (< nnodes)
 * and every node but the root has exactly one parent, so the nodes form
 * one tree and every path ends.  A leaf (feature -1) gives value, already
 * multiplied by the shrinkage; a split's threshold is 0 for a leaf and a
 * split's value 0.
 */
typedef struct {
	int feature;
	double threshold;
	int left, right;
	double value;
} lsv_tree_node;

typedef struct {
	int fn;                /* the function it adds to (0..nr_fn-1) */
	int nnodes;            /* 1..LSV_BOOST_MAX_NODES */
	lsv_tree_node *node;
} lsv_tree;

/* combine: exact pseudo-inverses up to this many rows; past it, the
 * LSV_COMBINE_RANK smallest nonzero eigenpairs of each Laplacian. */
#define LSV_COMBINE_EXACT_MAX 4000
#define LSV_COMBINE_RANK 200

void lsv_train_param_default(lsv_train_param *p);
lsv_status lsv_train_param_check(const lsv_train_param *p, lsv_error *err);

/* 1 if p's method splits its rows over the ranks of p->comm (Newton on a
 * feature map; PCG on the kernel, LapRLS or LapSVM), 0 if it runs on one
 * process only, -1 if p names no training method at all (the parameter
 * check says so, listing the methods). */
int lsv_train_distributed(const lsv_train_param *p);

/*
 * A trained model: nr_fn decision functions (1 for two classes, else one
 * per class, one-vs-rest)
 *     f_c(x) = sum_i coef[i nr_fn + c] k(sv_i, x) + bias[c]
 * over the expansion points sv (labeled and unlabeled training rows, by
 * the representer theorem, JMLR eq. 5).  With two classes f > 0 predicts
 * labels[0]; with more, the class of the largest f_c.  A cluster model
 * (param.solver LSV_SOLVER_CLUSTER) has nr_class clusters labeled 1..c
 * and nr_fn = c - 1 embedding functions (1 for c = 2: f > 0 is cluster
 * 1); with c > 2 a point belongs to the nearest of the centroids, its
 * embedding first scaled to unit length when param.cluster_unit is set.
 */
typedef struct lsv_model_s {
	lsv_train_param param;  /* solver, kernel, gammas, Laplacian */
	size_t l, u;            /* labeled / unlabeled training rows */
	double unlabeled;       /* the unlabeled marker used in training */
	int nr_class;
	double *labels;         /* nr_class labels, in class order */
	int nr_fn;
	double *bias;           /* nr_fn */
	double *shift;          /* NULL, or nr_fn: the balance shifts already
				   added to bias (model key balance_shift) */
	double *class_weight;   /* NULL, or nr_class (in labels' order): the
				   class-dependent Laplacians' w_c (model key
				   intrinsic_weights; param.class_graph is 1) */
	lsv_data *sv;           /* expansion points (their y is unused: 0) */
	double *coef;           /* sv->n x nr_fn, row-major */
	double *centroids;      /* cluster models with nr_class > 2: the
				   nr_class x nr_fn centres of the embedding
				   (row-major), a point's cluster is the
				   nearest; else NULL */
	char *graph;            /* one line describing the graph used, or NULL */
	/* combine: the ngraphs graphs' learned weights lambda_q (>= 0, sum 1)
	 * and a one-line description of each (NULL, or entries NULL, when
	 * not known); model lines "combined_graph WEIGHT DESCRIPTION". */
	size_t ngraphs;
	double *graph_weight;
	char **graph_desc;
	/* labelaware (common/labelaware.c): f_c(x) gains the term
	 *     sum_i la_coef[c nr_class + i] S_i(x) / sum_i S_i(x),
	 * S_i(x) = sum of k(sv_s, x) over the la_rows[i] expansion points
	 * of class i, which come first, class by class (the labeled rows);
	 * 0 where sum_i S_i(x) is not > 0.  NULL for other solvers. */
	size_t *la_rows;        /* nr_class counts */
	double *la_coef;        /* nr_fn x nr_class, row-major */
	/* boost (param.solver LSV_SOLVER_BOOST): with trees
	 * (param.boost_learner LSV_BOOST_TREE) no expansion points (sv
	 * empty) and f_c(x) = bias[c] + the sum of the trees with fn = c
	 * (model lines "boost_tree"); with RBFs the kernel expansion above
	 * (kernel rbf, its gamma the RBFs' width, sv their centres) and no
	 * trees.  With more than two classes (and no boost_clusters) the
	 * functions are centred, f_c(x) - 1/nr_fn sum_k f_k(x) (the
	 * symmetric multiple-logistic transform: they sum to 0). */
	size_t ntrees;
	lsv_tree *trees;
} lsv_model;

/*
 * What one training run did, for the caller to report: not part of the
 * model, never saved.  lsv_train fills the caller's struct (which it
 * zeroes first); the caller releases its arrays with
 * lsv_train_report_free.
 */
typedef struct {
	const char *path;       /* the method-table row that trained, e.g.
				   "lapsvm direct (dual)" (static text) */
	double kernel_seconds;  /* wall time computing the n x n kernel */
	double solve_seconds;   /* wall time of the solver after it */
	long newton_steps;      /* primal Newton steps, summed over functions */
	long newton_cap;        /* the Newton step cap per function ... */
	int newton_capped;      /* ... and whether some function stopped there */
	long pcg_iterations;    /* PCG iterations (pcg methods), all steps */
	double warm_residual;   /* PCG from a warm start (p->init): the
				   relative residual sqrt(s'Ks / c'Kc) at the
				   start of the first solve, the largest over
				   the functions (PCG stops below pcg_tol:
				   each decade costs iterations); the linear
				   map's CG from a warm start: |r - Hz| / |r|
				   at the start of the first Newton step's
				   solve, the largest over the functions;
				   else 0 */
	long cg_iterations;     /* CG iterations of the sparse linear map */
	/* PCG (pcg methods) and the linear map's CG: the iteration cap of
	 * one solve, how many solves stopped there above the tolerance, and
	 * the largest relative residual they reached (PCG's sqrt(s'Ks /
	 * c'Kc), CG's |r - Hz| / |r|) */
	long cg_cap;
	long cg_capped;
	double cg_capped_residual;
	long switches;          /* TSVM label switches, all functions */
	int switch_capped;      /* some TSVM problem stopped at the switch cap */
	/* combine: steps of the paper's Figure 1 taken, whether the step cap
	 * stopped it (else no kernel improved), the objective
	 * sum_c mu y_c'(K_ll(lambda) + mu I)^-1 y_c at the start and at the
	 * end, mu itself, the rank r of the eigenpair path (0: exact), and
	 * the number of graphs whose kernel is 0 on the labeled rows (every
	 * labeled row isolated in them: they can get no weight). */
	long combine_steps;
	int combine_capped;
	double combine_obj0, combine_obj;
	double combine_mu;
	long combine_rank;
	size_t combine_zero;
	/* combine with combine_singles: each graph's own fit, the decision
	 * values of the n rows under graph q at single_f[(q n + i) nr_fn + c]
	 * (0 for a graph whose kernel is 0 on the labeled rows). */
	double *single_f;
	double gamma_data;      /* > 0: the RBF gamma was not given and came
				   from the data: 1 / lsv_mean_sqdist */
	/* The kernel matrix, checked on up to 64 spread rows: off the
	 * diagonal every normalized value k_ij / sqrt(k_ii k_jj) is below
	 * 1e-6 (numerically the identity: the width is far too narrow for
	 * the data's distances), or above 1 - 1e-6 (numerically all ones:
	 * far too wide).  Training goes on; the caller may warn. */
	int kernel_identity, kernel_constant;
	double *train_f;        /* NULL, or the decision values of the n
				   training rows (n x nr_fn, row-major), from
				   the solver's own K or features; with a
				   balance, always set and shifted too */
	double *ystar;          /* TSVM: the final +-1 labels of the n
				   training rows for each function (n x nr_fn,
				   row-major; labeled rows keep their own) */
	/* Clustering: the rank r of the kernel's basis kept, the largest
	 * eigenvalue used (the (c-1)-th smallest) and its relative gap to
	 * the next; cluster_unsure when that gap is below 1e-8 or a
	 * constraint (f'f = 1, v0'f = 0) failed its check: the embedding is
	 * then not determined by the data. */
	size_t cluster_rank;
	double cluster_lambda, cluster_gap;
	double cluster_check;   /* the largest violation of f_j'f_j = 1,
				   f_i'f_j = 0, v0'f_j/|v0| = 0 */
	int cluster_unsure;
	size_t cluster_components;  /* connected components of the graph */
	/* labelaware: c label-aware vectors and k kernel eigenvectors (q =
	 * c + k base kernels) over la_n training rows, their alignf weights la_weight (q: the c u's,
	 * then the v's by decreasing eigenvalue), the base vectors la_Z over
	 * the n training rows (n x q, column-major), so that the learned
	 * kernel is la_Z diag(la_weight) la_Z' (lsv_learned_kernel); the
	 * centered alignment with the one-hot target on the labeled block of
	 * the learned kernel (la_align) and of the kernel it came from
	 * (la_align_input); the k-th eigenvalue used (la_lambda_k); the
	 * time split in seconds: base vectors (eigenvectors), alignf, SVM. */
	size_t la_n, la_c, la_k;
	double *la_weight, *la_Z;
	double la_align, la_align_input, la_lambda_k;
	double la_eig_seconds, la_align_seconds, la_svm_seconds;
	/* kdesign: the same fields (la_c = 0: the k eigenvectors only), and
	 * the diffusion kernel's delta used (0 for the other designs). */
	double kd_delta;
	/* boost: rounds taken, whether the relative cost change stopped it
	 * (else the round cap), the cost V at F_0 and at the end. */
	long boost_rounds;
	int boost_converged;
	double boost_cost0, boost_cost;
	/* boost clustering: the largest constraint violation |h_a| at the
	 * end (mean F_j, mean F_j^2 - 1, mean F_j F_k) */
	double boost_violation;
} lsv_train_report;

void lsv_train_report_free(lsv_train_report *r);  /* its arrays, not r */

/* The learned kernel of a labelaware training run over its n training
 * rows, K~ = la_Z diag(la_weight) la_Z' (n x n, column-major, into the
 * caller's K): LSV_EINVAL if r holds none or n differs. */
lsv_status lsv_learned_kernel(const lsv_train_report *r, size_t n, double *K,
			      lsv_error *err);

/* Progress callbacks during training (each may be NULL). */
typedef struct {
	/* TSVM: after each annealing step of binary problem fn. */
	void (*tsvm)(void *ctx, int fn, double cstar_neg, double cstar_pos,
		     long switches);
	void *ctx;
	/* boost: after round m, the cost V = loss + reg (its two terms). */
	void (*boost)(void *ctx, long round, double cost, double loss,
		      double reg);
} lsv_train_progress;

/*
 * Train on x (labeled and unlabeled rows) with graph g (n = x->n rows;
 * may be NULL when gamma_I == 0).  Class order: first appearance in x,
 * except that a {+1, -1} problem puts +1 first.  Errors: no labeled row,
 * one class only, a graph of the wrong size, a singular system, a
 * solver x method pair the method table does not have, p->balance
 * LSV_BALANCE_GIVEN with more than two classes (refused before training).
 * With p->balance set, after the solver's fit each bias is shifted
 * (lsv_balance_shift, common/balance.c), m->shift records the shifts and
 * report->train_f (always set then) holds the shifted values.  progress and
 * report may be NULL.  The caller owns *out and report's arrays.
 * With p->class_graph, g must have no edge between two classes nor at an
 * unlabeled row; unlabeled rows then have no term in eq. 4 and no
 * coefficient, so the n x n methods solve the labeled rows alone (the
 * same function; gamma_I keeps its 1/(l+u)^2).
 */
lsv_status lsv_train(const lsv_data *x, const lsv_graph *g,
		     const lsv_train_param *p,
		     const lsv_train_progress *progress, lsv_model **out,
		     lsv_train_report *report, lsv_error *err);

/*
 * Training many times on the same rows (cross validation, a grid of
 * settings): the n x n kernel depends on the rows and the kernel only, not
 * on the labels, gamma_A, gamma_I or the graph, so it can be computed once.
 * lsv_train_kernel computes it exactly as lsv_train does (p->kernel, a
 * gamma of 0 resolved to 1/x->dim); the caller frees *K with free().
 * lsv_train_with_kernel is lsv_train handed that K (column-major n x n),
 * for any data set with the same rows as the one K was computed from
 * (labels may differ) and the same kernel: the results are identical to
 * lsv_train's.  Methods that use no n x n kernel (feature maps, and RLS /
 * the SVM at gamma_I = 0, trained on the labeled rows alone) ignore K.
 */
lsv_status lsv_train_kernel(const lsv_data *x, const lsv_train_param *p,
			    double **K, lsv_error *err);
/*
 * Training on several graphs over the rows of x: -s combine (the only
 * solver that takes more than one).  g[0..ng) are the graphs (each n
 * rows), start the starting weights of the combination (ng values >= 0,
 * not all 0, scaled to sum 1; NULL: the average, 1/ng each, the paper's
 * start).  The model records the learned weights (graph_weight; the
 * caller may set graph_desc) and report->train_f holds the combination's
 * own transductive values K_{.l}(lambda) c of every training row (-o);
 * the model's expansion is its extension to new points.  With one graph
 * and any solver, the same as lsv_train.
 */
lsv_status lsv_train_graphs(const lsv_data *x, const lsv_graph *const *g,
			    size_t ng, const double *start,
			    const lsv_train_param *p,
			    const lsv_train_progress *progress,
			    lsv_model **out, lsv_train_report *report,
			    lsv_error *err);

/* The combination's text inputs (common/combine.c), read with the data
 * format's line rules (CRLF, blanks, "# comments" and comment lines).
 * lsv_weights_read_path: one number >= 0 per line, exactly expect of them,
 * not all 0 (the caller owns *w).  lsv_graph_list_read_path: one graph
 * file per line (the whole line, blanks inside kept), a relative path
 * taken from the list's own directory; at least one (the caller frees
 * each (*files)[i] and *files). */
lsv_status lsv_weights_read_path(const char *path, size_t expect, double **w,
				 lsv_error *err);
lsv_status lsv_graph_list_read_path(const char *path, char ***files,
				    size_t *count, lsv_error *err);

lsv_status lsv_train_with_kernel(const lsv_data *x, const lsv_graph *g,
				 const lsv_train_param *p, const double *K,
				 const lsv_train_progress *progress,
				 lsv_model **out, lsv_train_report *report,
				 lsv_error *err);

/* NULL if m can predict new points, else what it is, for a message: a
 * transductive model (-s kdesign, -s labelaware -J laplacian), whose
 * kernel exists on its training rows only (lsv_model_decision refuses
 * it; lapsvm-train -o gives its predictions). */
const char *lsv_model_transductive(const lsv_model *m);

/* Decision values of rows of x: scores is x->n x m->nr_fn, row-major.
 * LSV_EINVAL for a transductive model (lsv_model_transductive). */
lsv_status lsv_model_decision(const lsv_model *m, const lsv_data *x,
			      double *scores, lsv_error *err);

/* The predicted label of a row from its nr_fn scores. */
double lsv_model_label(const lsv_model *m, const double *scores);

/*
 * Model file: text, first line "lapsvm_model 1", then "key value" lines,
 * then "SV" and one line per expansion point: its nr_fn coefficients then
 * its features (index:value).  Numbers are written with %.17g.  The
 * reader validates every line and names file:line on error.
 */
lsv_status lsv_model_write(FILE *fp, const char *name, const lsv_model *m,
			   lsv_error *err);
lsv_status lsv_model_read(FILE *fp, const char *name, lsv_model **out,
			  lsv_error *err);
lsv_status lsv_model_read_path(const char *path, lsv_model **out,
			       lsv_error *err);
void lsv_model_free(lsv_model *m);

/*
 * The dual QP of the hinge-loss solvers (common/smo.c):
 *     min 1/2 b'Qb - e'b  subject to  y'b = 0,  0 <= b_i <= C_i,
 * Q dense symmetric l x l (column-major), y_i = +-1.  SMO with the
 * second-order working set of Fan, Chen & Lin (JMLR 6, 2005), as LIBSVM,
 * stopping when the maximal KKT violation m(b) - M(b) < eps.  Fills
 * beta (l), rho (decision values are sum ... - rho) and, if not NULL, the
 * number of iterations.  warm: start from the caller's beta, which must be
 * feasible; else from 0.  max_iter 0 means max(10^7, 100 l).  LSV_ENUMERIC
 * if the cap is reached.
 */
lsv_status lsv_smo(const double *Q, const double *y, const double *C,
		   size_t l, double eps, long max_iter, int warm, double *beta,
		   double *rho, long *iters, lsv_error *err);

/* ------------------------------------------------------------------ */
/* Model selection (common/grid.c)                                     */
/* ------------------------------------------------------------------ */

#define LSV_LIST_MAX 1000  /* values one list may give */

/*
 * A list of parameter values: elements separated by commas, each a number
 * or a range, "start:stop:xFACTOR" (start, start F, start F^2, ... up to
 * stop; start > 0, F > 1) or "start:stop:+STEP" (start, start + STEP, ...;
 * STEP > 0).  Range values are rounded to 15 significant digits (so
 * 1e-6:1e2:x10 gives exactly 1e-06, 1e-05, ..., 100) and stop is included
 * when reached within 1e-9 relative.  Every value must lie in [min, max]
 * and, if integer, be whole.  Refused (LSV_EINVAL, the message quoting the
 * bad piece): an empty list or element, a malformed range, a factor <= 1
 * or step <= 0, start > stop, more than LSV_LIST_MAX values.  On success
 * *out holds *count >= 1 values in the order given; the caller frees it.
 */
lsv_status lsv_parse_list(const char *s, double min, double max, int integer,
			  double **out, size_t *count, lsv_error *err);

/*
 * Stratified k-fold assignment of the labeled rows of x: each class's
 * labeled rows (classes by first appearance) are shuffled by a generator
 * seeded with seed and dealt round-robin to the folds, the deal going on
 * from one class to the next so fold sizes differ by at most one.  fold
 * (n entries) gets 0..k-1 for labeled rows, -1 for unlabeled ones.
 * LSV_EINVAL if k < 2 or some class has fewer than k labeled rows (every
 * fold holds out at least one row of each class and trains on the rest, so every
 * class is in every training set).
 */
lsv_status lsv_cv_folds(const lsv_data *x, long k, unsigned long long seed,
			int *fold, lsv_error *err);

/*
 * Cross validation of settings (common/cv.c).  Each of the m settings
 * p[0..m) is scored by the folds of lsv_cv_folds (fold, n entries; folds
 * of them): every fold trains on all rows with its held-out labeled rows
 * marked unlabeled and predicts them.  A held-out row scores
 *     h_i = 1/nr_fn sum_c max(0, 1 - y_ic f_c(x_i) / s_c),
 * y_ic = +1 for the row's class and -1 otherwise (one function for two
 * classes), s_c the root mean square of the fold model's f_c on its
 * training rows (so the score does not depend on f's scale); the loss is
 * the mean over the classes of each class's mean h_i (each class weighs
 * the same), with the held-out rows predicted right beside it.  Boosting
 * (LSV_SOLVER_BOOST) is scored by its class-balanced held-out error
 * instead (h_i = 1 for a mistake, else 0), and its class-balanced
 * held-out deviance log(1 + exp(-2 y_i F(x_i))) of the fold model's F
 * (-log p_y of the multiple logistic transform with one F per class) is
 * the tie breaker (cv.c says why).
 *
 * Sharing: when the settings differ only in gamma_A and gamma_I and the
 * method solves eq. 4 exactly on the kernel (LapRLS direct or newton,
 * LapSVM direct), one factorization serves every setting and fold (the
 * deformed kernel, see cv.c); the scores equal retraining's up to
 * rounding; p->balance shifts each fold model's bias as lsv_train does.
 * Otherwise (or with LSV_CV_RETRAIN, or when the factorization
 * would not fit in memory) every fold of every setting is trained by
 * lsv_train_with_kernel.  K: the n x n kernel of the settings' kernel
 * (lsv_train_kernel), or NULL (computed when needed).  After each setting
 * progress->scored (if set) gets its index and score.  *shared (may be
 * NULL) says which way was taken.
 */
typedef struct {
	double loss;      /* class-balanced held-out scaled hinge loss
			     (boosting: error) */
	size_t correct;   /* held-out rows predicted right */
	double tie;       /* boosting: class-balanced held-out deviance,
			     else 0 */
} lsv_cv_score;

typedef enum {
	LSV_CV_SHARE,     /* share the factorization when the algebra allows */
	LSV_CV_RETRAIN    /* train every fold of every setting (for checking) */
} lsv_cv_mode;

typedef struct {
	void (*scored)(void *ctx, size_t k, const lsv_cv_score *s);
	void *ctx;
	const lsv_train_progress *train;  /* handed to each training, or NULL */
	/* if not NULL, called before the call's m settings share one
	 * factorization: their scores then all come after it, at once */
	void (*sharing)(void *ctx, size_t m);
} lsv_cv_progress;

lsv_status lsv_cv_settings(const lsv_data *x, const lsv_graph *g,
			   const lsv_train_param *p, size_t m, const double *K,
			   const int *fold, long folds, lsv_cv_mode mode,
			   const lsv_cv_progress *progress,
			   lsv_cv_score *scores, int *shared, lsv_error *err);

/*
 * Class-dependent Laplacians (p->class_graph) build their graph from the
 * labels, so a fold's graph must not know its held-out rows' labels.
 * lsv_cv_settings gives each fold the subgraph of g without the edges at
 * its held-out rows (lsv_graph_within_classes of the fold's labels: they
 * are isolated, so they get no coefficient and no graph term); g's other
 * edges were chosen by whoever built g.  lsv_cv_settings_rebuild builds
 * each fold's graph anew instead, lsv_graph_build_classes with gp on the
 * fold's training labels only, as lsv_train would on that training set.
 * Class-dependent settings are never shared (the graph changes with the
 * fold): every fold is trained, on its training rows alone (lsv_train).
 */
lsv_status lsv_cv_settings_rebuild(const lsv_data *x, const lsv_graph_param *gp,
				   const lsv_train_param *p, size_t m,
				   const double *K, const int *fold, long folds,
				   lsv_cv_mode mode,
				   const lsv_cv_progress *progress,
				   lsv_cv_score *scores, int *shared,
				   lsv_error *err);

/* The best of m scored settings: the lowest loss; losses equal to 1e-12
 * relative are a tie, broken by the lower tie (likewise to 1e-12), then
 * toward stronger regularization (larger gamma_A, then smaller gamma_I),
 * then the first. */
size_t lsv_cv_best(const lsv_cv_score *s, const lsv_train_param *p,
		   size_t m);

/* ------------------------------------------------------------------ */
/* Metrics (common/metrics.c)                                          */
/* ------------------------------------------------------------------ */

/*
 * Precision-recall break-even point of a ranking: with P positives
 * (pos[i] != 0) among n, rank by decreasing score and take the top P;
 * there precision = recall = TP/P, returned in [0, 1].  *err_rate (may be
 * NULL) gets the error rate of that threshold, (FP + FN)/n = 2 (P - TP)/n.
 * Ties in score do not depend on row order: if the P-th score is shared
 * by g rows, gp of them positive, with `a` rows scoring higher (a < P <=
 * a + g), TP counts the positives above plus (P - a) gp / g, the expected
 * number under a random order of the tied rows (so TP may be fractional;
 * all scores equal gives P/n).  P = 0 returns 0.
 */
double lsv_prbep(const double *score, const int *pos, size_t n,
		 double *err_rate);

/*
 * Agreement of a clustering with classes over n rows: cluster[i] in
 * 0..nc-1, label[i] the class (its distinct values are the classes).
 * *acc: the fraction of rows right under the best one-to-one matching of
 * clusters to classes (Hungarian method on the contingency table; a
 * cluster or class left unmatched counts as wrong), *matched the rows
 * right.  *nmi: normalized mutual information I(C;Y) / ((H(C) + H(Y))/2)
 * (the arithmetic-mean normalization, scikit-learn's default), 1 when
 * both partitions have a single part.  n = 0 gives 0 and 0.  LSV_EINVAL
 * for a cluster index out of range, LSV_ENOMEM.
 */
lsv_status lsv_cluster_agreement(const int *cluster, int nc,
				 const double *label, size_t n, double *acc,
				 size_t *matched, double *nmi, lsv_error *err);

/* ------------------------------------------------------------------ */
/* Principal components (common/pca.c)                                 */
/* ------------------------------------------------------------------ */

/* A fitted projection: y = V'(x - mean), V the k leading eigenvectors of
 * the covariance of the rows it was fitted on. */
typedef struct {
	size_t d;          /* input features (1..d) */
	size_t k;          /* components */
	double *mean;      /* d */
	double *V;         /* d x k, column-major, columns by decreasing variance */
	double *variance;  /* k eigenvalues of the covariance, decreasing */
	double total;      /* trace of the covariance (total variance) */
} lsv_pca;

/* Fit k components to the rows of x (covariance by dsyrk over blocks of
 * rows, eigenvectors by dsyev; with fewer rows n than features d, the
 * n x n Gram matrix of the centered rows instead; each vector's largest
 * entry is made positive so the result is deterministic).  Needs k <= d
 * and O(min(n, d)^2) memory.  The caller owns *out. */
lsv_status lsv_pca_fit(const lsv_data *x, size_t k, lsv_pca **out,
		       lsv_error *err);

/* Project x (features beyond p->d are ignored) into a new data set with k
 * dense features and x's labels; the caller owns *out. */
lsv_status lsv_pca_project(const lsv_pca *p, const lsv_data *x,
			   lsv_data **out, lsv_error *err);

void lsv_pca_free(lsv_pca *p);

/* ------------------------------------------------------------------ */
/* Files (common/io.c)                                                 */
/* ------------------------------------------------------------------ */

/*
 * Crash-safe output.  lsv_out_open creates a temporary file beside path
 * (same directory, so the final rename is atomic); lsv_out_close flushes,
 * checks and fsyncs it; lsv_out_commit closes it if that is not done yet
 * and renames it over path; lsv_out_abort removes it.  A path of "-"
 * writes straight to standard output, and an existing path that is not a
 * regular file (/dev/null, a FIFO) is written into, not replaced.  Until
 * the rename, an existing file at path is untouched.  A replaced file
 * keeps its permission bits, a new one gets 0666 minus the umask; a
 * symbolic link is followed (even to a target not there yet) and kept; a
 * name near NAME_MAX gets a shortened temporary name.  The caller owns *out
 * until commit or abort, which free it.
 *
 * Several outputs of one run are committed together by closing every one
 * first (a full disk is found there, while nothing is replaced yet), then
 * committing each: after a successful close, commit only renames.
 */
typedef struct lsv_out lsv_out;

lsv_status lsv_out_open(const char *path, lsv_out **out, lsv_error *err);
FILE *lsv_out_file(lsv_out *o);
/* Path of the temporary file (NULL for "-"), e.g. for a signal handler. */
const char *lsv_out_tmpname(const lsv_out *o);
/* Completes the output without touching path: "PATH: write error: WHY"
 * (PATH "(stdout)" for "-") if any write, the flush or the fsync failed.
 * o stays the caller's either way; after a failure, only lsv_out_abort.
 * A second call does nothing and returns LSV_OK. */
lsv_status lsv_out_close(lsv_out *o, lsv_error *err);
lsv_status lsv_out_commit(lsv_out *o, lsv_error *err);  /* frees o */
void lsv_out_abort(lsv_out *o);                           /* frees o */
/* Nonzero if a and b would end up in one place, so that one of them would
 * be lost: both standard output, or both renamed onto one directory entry
 * (the same name reached through a link, ".", ".." or another name of its
 * directory, or two names of one existing file in one directory).
 * Outputs written into a device or FIFO are never the same. */
int lsv_out_same(const lsv_out *a, const lsv_out *b);
/* Nonzero if committing o would replace the file that path names now (an
 * input of the same run): its destination is that file (the same device
 * and inode, links followed).  "-", a missing path and outputs written
 * into a device or FIFO are never. */
int lsv_out_replaces(const lsv_out *o, const char *path);

/* ------------------------------------------------------------------ */
/* Communication between processes (common/comm.c)                     */
/* ------------------------------------------------------------------ */

/*
 * The few collective operations the distributed algorithms use, written
 * once against this interface: built with -DLSV_MPI (make MPI=1, mpicc)
 * they are MPI calls on a duplicate of MPI_COMM_WORLD; otherwise a serial
 * implementation of size 1 (every operation a copy).  Every rank calls
 * each collective in the same order.  Buffers are bytes; a message over
 * INT_MAX bytes (MPI's int count) is refused (LSV_ETOOBIG).  An MPI error
 * becomes a status and message (MPI_ERRORS_RETURN): nothing here prints,
 * exits or aborts.
 *
 * Received buffers (*recv) are allocated here (malloc, at least 1 byte)
 * and owned by the caller.  counts arrays have one entry per rank.
 * lsv_comm_sent counts the bytes this rank handed to MPI for other ranks
 * (payload only), for scaling measurements.
 */
typedef struct lsv_comm lsv_comm;
typedef enum { LSV_COMM_SUM = 0, LSV_COMM_MAX } lsv_comm_op;

/* 1 if built with MPI. */
int lsv_comm_mpi(void);
/* MPI_Init (funneled threads: only the main thread communicates) and the
 * communicator; serial: a communicator of one.  *out is owned: release it
 * with lsv_comm_end, which calls MPI_Finalize. */
lsv_status lsv_comm_init(int *argc, char ***argv, lsv_comm **out,
			 lsv_error *err);
void lsv_comm_end(lsv_comm *c);
int lsv_comm_rank(const lsv_comm *c);
int lsv_comm_size(const lsv_comm *c);
size_t lsv_comm_sent(const lsv_comm *c);

/* v[0..n) reduced elementwise over the ranks, the result on every rank. */
lsv_status lsv_comm_allreduce_double(lsv_comm *c, double *v, size_t n,
				     lsv_comm_op op, lsv_error *err);
lsv_status lsv_comm_allreduce_size(lsv_comm *c, size_t *v, size_t n,
				   lsv_comm_op op, lsv_error *err);
/* The error-flag agreement that ends a phase: st is this rank's outcome
 * (its message in *err if not LSV_OK).  Returns LSV_OK if every rank
 * succeeded; otherwise, on every rank, the status and message of the
 * lowest failing rank, so all ranks stop together with one message. */
lsv_status lsv_comm_agree(lsv_comm *c, lsv_status st, lsv_error *err);
/* bytes of buf at root copied to every rank's buf. */
lsv_status lsv_comm_bcast(lsv_comm *c, int root, void *buf, size_t bytes,
			  lsv_error *err);
/* Rank r's send (bytes) concatenated in rank order into *recv at root
 * (counts[r] its size; both only at root, NULL elsewhere). */
lsv_status lsv_comm_gatherv(lsv_comm *c, int root, const void *send,
			    size_t bytes, void **recv, size_t *counts,
			    lsv_error *err);
/* The same on every rank. */
lsv_status lsv_comm_allgatherv(lsv_comm *c, const void *send, size_t bytes,
			       void **recv, size_t *counts, lsv_error *err);
/* The same into the caller's recv of cap bytes (nothing allocated: a
 * buffer reused over many gathers is not mapped afresh each time);
 * LSV_EINVAL on every rank if the ranks' bytes add up to more than cap. */
lsv_status lsv_comm_allgatherv_into(lsv_comm *c, const void *send,
				    size_t bytes, void *recv, size_t cap,
				    size_t *counts, lsv_error *err);
/* All-gather in place: counts[r] bytes from rank r (every rank passes
 * the same counts), rank r's at offset counts[0] + ... + counts[r - 1] of
 * buf on every rank, where this rank's bytes already are; the others'
 * arrive around them.  buf is the caller's (nothing allocated), so it can
 * be an array grown by realloc whose pages are not touched twice. */
lsv_status lsv_comm_allgatherv_placed(lsv_comm *c, void *buf,
				      const size_t *counts, lsv_error *err);
/* Root's send, counts[r] bytes for rank r in rank order (counts and send
 * read at root only), each rank's part into *recv (*bytes). */
lsv_status lsv_comm_scatterv(lsv_comm *c, int root, const void *send,
			     const size_t *counts, void **recv, size_t *bytes,
			     lsv_error *err);
/* scounts[r] bytes of send (in rank order) to rank r; what each rank sent
 * here concatenated in rank order into *recv, rcounts[r] from rank r. */
lsv_status lsv_comm_alltoallv(lsv_comm *c, const void *send,
			      const size_t *scounts, void **recv,
			      size_t *rcounts, lsv_error *err);
/* Ring shift: send (bytes) to rank + 1, receive from rank - 1 (cyclic).
 * Started and finished apart, so the transfer overlaps the caller's work
 * in between: lsv_comm_shift_start returns a request (owned until
 * lsv_comm_shift_finish, which frees it and gives the received buffer);
 * send must stay untouched until then.  One shift at a time. */
typedef struct lsv_comm_req lsv_comm_req;
lsv_status lsv_comm_shift_start(lsv_comm *c, const void *send, size_t bytes,
				lsv_comm_req **req, lsv_error *err);
lsv_status lsv_comm_shift_finish(lsv_comm *c, lsv_comm_req *req,
				 void **recv, size_t *bytes, lsv_error *err);

/*
 * The rows of rank r of P in the distributed training (lapsvm-train under
 * mpirun; common/comm.c): [*lo, *lo + *nl), whole groups of 16 rows,
 * lo = min(n, 16 floor(g r / P)) with g = ceil(n / 16) groups.  At the
 * ends of 16-row groups, a rank's block product meets the BLAS's row
 * groups where one process's product over all n rows does (OpenBLAS
 * rounds the rows of a partial group at the end of a matrix differently,
 * measured), so the products are the one-process ones.  A rank may hold
 * no row (n < 16 (P - 1) + 1 leaves some empty).
 */
void lsv_comm_block(size_t n, int r, int P, size_t *lo, size_t *nl);

/*
 * lsv_graph_build over the ranks of comm (common/knn.c): the rows in 1-D
 * blocks, rank r holding rows [n r / P, n (r + 1) / P) (rank 0 reads the
 * data, x, and scatters; x is ignored elsewhere), the blocks passed around
 * the ring, and the chosen pairs gathered on rank 0, which assembles the
 * graph (*out only there).  The graph is byte for byte that of
 * lsv_graph_build for every P (exact distances, ties by global row index).
 * Euclidean and cosine, kNN (union or mutual) and epsilon; the image
 * distances are refused (LSV_EINVAL).  Every rank calls it and gets the
 * same status and message.  info: k, zero_rows, threads, single, the
 * scan's times on this rank, and on rank 0 the assembly's fields.
 */
lsv_status lsv_graph_build_dist(lsv_comm *comm, const lsv_data *x,
				const lsv_graph_param *p, lsv_graph **out,
				lsv_graph_info *info, lsv_error *err);
/* The same from rows every rank read itself (lsv_data_read_dist): x this
 * rank's rows [row0, row0 + x->n) of the n, in rank order; the rows move
 * to the blocks above first (one all-to-all).  The same graph. */
lsv_status lsv_graph_build_dist_rows(lsv_comm *comm, const lsv_data *x,
				     size_t row0, size_t n,
				     const lsv_graph_param *p, lsv_graph **out,
				     lsv_graph_info *info, lsv_error *err);

/*
 * Inputs read once (common/share.c): root's *x (or *g) copied to every
 * rank, where *x (*g) becomes a new set (graph) that the caller owns;
 * root's is left as it is.  Every rank calls it; the graph may be NULL at
 * root (then NULL everywhere).  Every rank gets the same status.
 */
lsv_status lsv_data_share(lsv_comm *c, int root, lsv_data **x, lsv_error *err);
/*
 * A regular file read by every rank at once (common/share.c): rank r the
 * lines starting in bytes [size r / P, size (r + 1) / P) (lsv_data_read_part),
 * numbered as in the whole file, so a bad line gets the message one
 * process would give (the lowest rank's failure is everyone's).  *x:
 * this rank's rows, in file order, the rows *row0.. of the *n in all
 * (the caller's; x->dim the largest feature index over all ranks).  "No
 * data rows" if there are none at all.  *graph_like is 1 when every label
 * is its row's number (1..n in order), the first sign lsv_data_read takes
 * of a graph file: the caller reads such a file whole instead, so that it
 * is refused as one process refuses it.
 */
lsv_status lsv_data_read_dist(lsv_comm *c, const char *path, double unlabeled,
			      lsv_data **x, size_t *row0, size_t *n,
			      int *graph_like, lsv_error *err);
/*
 * The parts read by lsv_data_read_dist put together on every rank: *x,
 * this rank's part, becomes the whole set, the parts' rows in rank order,
 * with the same rows, labels, dim and l as one process's lsv_data_read of
 * the file (the part's arrays grown by realloc and filled in place: the
 * pages of this rank's rows are not written twice).  On failure *x is
 * freed and NULL.  lapsvm-train's inputs, which every rank needs whole,
 * each rank parsing only its part.  Every rank calls it and gets the same
 * status.
 */
lsv_status lsv_data_allgather(lsv_comm *c, lsv_data **x, lsv_error *err);
lsv_status lsv_graph_share(lsv_comm *c, int root, lsv_graph **g,
			   lsv_error *err);

/* ------------------------------------------------------------------ */
/* Seeded randomness and synthetic data (common/rng.c, common/synth.c)  */
/* ------------------------------------------------------------------ */

/* xoshiro256** seeded through splitmix64: the same seed gives the same
 * stream on every machine. */
typedef struct { unsigned long long s[4]; } lsv_rng;

void lsv_rng_seed(lsv_rng *r, unsigned long long seed);
unsigned long long lsv_rng_next(lsv_rng *r);
double lsv_rng_uniform(lsv_rng *r);   /* in [0, 1) */
double lsv_rng_normal(lsv_rng *r);    /* standard normal */

typedef enum { LSV_SYNTH_MOONS = 0, LSV_SYNTH_SPIRALS, LSV_SYNTH_RINGS }
	lsv_synth_kind;

/* The classes of a toy set: 2, or 3 for the rings. */
int lsv_synth_classes(lsv_synth_kind kind);

/*
 * Two-class 2-D toy data: n rows (n/2 per class, the first class +1),
 * labels +1 / -1.  Moons: upper (cos t, sin t), lower (1 - cos t,
 * 0.5 - sin t), t evenly spaced in [0, pi], plus N(0, noise^2) per
 * coordinate.  Spirals: Lang & Witbrock's two spirals (96 * n / 194 turns
 * scaled), plus noise.  The caller owns *out (a dense lsv_data, l = n).
 */
lsv_status lsv_synth(lsv_synth_kind kind, size_t n, double noise,
		     unsigned long long seed, lsv_data **out, lsv_error *err);

/* Write x in LIBSVM format, values with %.17g. */
lsv_status lsv_data_write(FILE *fp, const char *name, const lsv_data *x,
			  lsv_error *err);

#endif /* LAPSVM_H */
