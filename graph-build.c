/*
 * graph-build -- build the adjacency graph of a data set (JMLR 2006,
 * Table 1, step 1) and write it in the graph format (see README).
 *
 *     graph-build [options] data_file [graph_file]
 *     graph-build -U old_graph [options] old_data new_data [graph_file]
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lapsvm.h"
#include "tool.h"

static void usage(void)
{
	printf(
"Usage: graph-build [options] data_file [graph_file]\n"
"       graph-build -U old_graph [options] old_data new_data [graph_file]\n"
"Build the nearest-neighbour graph of a data set in LIBSVM format (labels\n"
"are ignored, except with -y) and write its symmetric weight matrix W, one\n"
"row per line:\n"
"    i j:w j:w ...\n"
"data_file '-' reads standard input.  graph_file defaults to\n"
"data_file.graph, or standard output when reading standard input; '-'\n"
"writes standard output.  The output is replaced only when complete.\n"
"A graph written to a file (Euclidean or cosine, not -y) comes with its\n"
"record graph_file.knn, for -U: the chosen pairs with their exact\n"
"distances, the data's row count and fingerprint, the options.\n"
"\n"
"options:\n"
"-k k        : k nearest neighbours per point (default 6)\n"
"-e epsilon  : epsilon-ball graph instead: all pairs at distance < epsilon\n"
"-m          : mutual kNN: keep an edge only if both ends chose it\n"
"              (default: if either end did)\n"
"-d distance : euclidean (default) or cosine (1 - <a,b>/(|a||b|); rows with\n"
"              no non-zero value are left isolated); for images (-D):\n"
"              tangent: two-sided tangent distance (Simard, LeCun & Denker:\n"
"              x/y translation, rotation, scaling, two hyperbolic\n"
"              deformations, thickness), on each row's C Euclidean nearest\n"
"              rows; rotation: the least Euclidean distance over rotations\n"
"              of one image in [-180, 180] degrees, every pair\n"
"-D WxH      : the rows are W x H images (W columns, H rows, pixels row by\n"
"              row: pixel (r, c) is feature r W + c + 1), e.g. -D 16x16\n"
"-C C        : tangent: Euclidean candidates per row (default 20)\n"
"-s sigma    : tangent: the Gaussian smoothing (pixels) the tangent vectors\n"
"              are computed from (default 0.5; 0: none)\n"
"-r degrees  : rotation: the step between the rotations tried (default 9)\n"
"-w weight   : heat (default): exp(-d^2/(4t)), JMLR 2006 Table 1;\n"
"              binary: 1; distance: d (an edge of distance 0 is dropped)\n"
"-t t        : heat width t (default: mean squared distance of the chosen\n"
"              pairs)\n"
"-B rows     : rows per distance block (default: automatic, at most 2048)\n"
"-p products : single (default): block products in single precision\n"
"              (sgemm), each row's neighbours certified by the products'\n"
"              rounding bound and their distances recomputed in double;\n"
"              rows the bound cannot certify are redone in double (the\n"
"              whole scan if they are over 1/16 of the rows), so the graph\n"
"              is the same as with double: dgemm products, about half as\n"
"              fast (-f: single, kept for old scripts)\n"
"-A path     : auto (default), dense (BLAS blocks) or sparse (inverted\n"
"              index, for many features with few non-zeros); auto times\n"
"              both on 1000 sample rows and takes the faster (sets of 4000\n"
"              rows or more, under 25%% non-zeros; smaller sets: sparse\n"
"              below 1%% density with over 2000 features)\n"
"-y          : within each class only: the graph of each class's rows, so\n"
"              no edge joins two classes (lapsvm-train -y, class-dependent\n"
"              Laplacians); every row needs a class\n"
"-u marker   : with -y, the label of unlabeled rows, refused there\n"
"              (default 0; give another if 0 is a class)\n"
"-N          : write each row's k nearest neighbours instead of the graph,\n"
"              directed and unweighted: line i is 'i j:d j:d ...' by\n"
"              increasing distance d (not a graph file: not symmetric;\n"
"              not with -m, -w, -t)\n"
"-U old_graph: update: the graph of old_data followed by new_data (rows of\n"
"              new_data numbered after the old ones), byte for byte the\n"
"              graph a full build of the concatenation writes, from the\n"
"              distances of the new rows to every row only.  Needs\n"
"              old_graph.knn, the record written with old_graph, and the\n"
"              same graph options (-k/-e, -m, -d, -w, -t; -B, -p, -A may\n"
"              differ); the record must match old_data (rows, fingerprint)\n"
"              and old_graph.  Writes graph_file (default\n"
"              new_data.graph) and its record.  Not with -y, -N, -d\n"
"              tangent or rotation, or under mpirun\n"
"-q          : quiet: no progress, summary or warnings\n"
"Threads: OMP_NUM_THREADS (default: all cores).  A threaded BLAS (OpenBLAS)\n"
"is called once per block product and keeps its own threads.\n"
"Under mpirun (the MPI build, make MPI=1) the ranks share the neighbour\n"
"search, the graph is the same byte for byte; -y, -N, -d tangent, -d rotation\n"
"and -A sparse need one process.\n"
"-h          : show this help\n"
"\n"
"Exit status: 0 success, 1 failure (bad input, I/O), 2 usage error.\n");
}

/* -D WxH: two positive integers. */
static void parse_shape(const char *arg, int *w, int *h)
{
	const char *x = strchr(arg, 'x');
	char first[32];
	size_t len = x != NULL ? (size_t)(x - arg) : 0;
	lsv_error err;
	long a, b;

	if (x == NULL || len == 0 || len >= sizeof first)
		tool_usage_error("option -D: '%s' is not an image shape (expected "
				 "WIDTHxHEIGHT, e.g. 16x16)", arg);
	memcpy(first, arg, len);
	first[len] = '\0';
	if (lsv_parse_long(first, 1, 65535, &a, &err) != LSV_OK ||
	    lsv_parse_long(x + 1, 1, 65535, &b, &err) != LSV_OK)
		tool_usage_error("option -D: '%s' is not an image shape (expected "
				 "WIDTHxHEIGHT, each 1..65535, e.g. 16x16)", arg);
	*w = (int)a;
	*h = (int)b;
}

static int parse_name(int opt, const char *arg, const char *const *names,
		      int count)
{
	int i;
	for (i = 0; i < count; i++)
		if (strcmp(arg, names[i]) == 0)
			return i;
	{
		char allowed[128] = "";
		for (i = 0; i < count; i++) {
			strcat(allowed, i ? ", " : "");
			strcat(allowed, names[i]);
		}
		tool_usage_error("option -%c: unknown value '%s' (expected one of %s)",
				 opt, arg, allowed);
	}
}

/* -y: every row needs a class; a row with the unlabeled marker has none
 * (it would be left isolated, which nobody asking for class graphs wants
 * silently). */
static void check_labeled(const lsv_data *x, const char *in)
{
	size_t i;

	for (i = 0; i < x->n; i++)
		if (!lsv_data_is_labeled(x, i))
			tool_die_row(in, i + 1, "the row is unlabeled (label %g, the "
				     "unlabeled marker): -y builds the graph within "
				     "each class, so every row needs a class (if %g is "
				     "a class, name another marker with -u)",
				     x->unlabeled, x->unlabeled);
}

/* Timing of the O(n^2 d) phase, for users tuning threads and BLAS. */
static void report_scan(const lsv_graph_info *info)
{
	if (info->rotations > 0)
		return;  /* no Euclidean scan: report_image said it all */
	if (info->rescanned > 0)
		tool_info("%zu rows were not certified by the single-precision "
			  "products: the scan was redone in double",
			  info->rescanned);
	if (info->trial_rows > 0)
		tool_info("path: %s, measured on %zu rows (dense %.3f s, sparse "
			  "%.3f s; -A sets it)", info->sparse ? "sparse" : "dense",
			  info->trial_rows, info->trial_dense, info->trial_sparse);
	if (info->recomputed > 0)
		tool_info("%zu rows were redone exactly against every row: a "
			  "candidate the heap turned away was within the products' "
			  "rounding bound of their k-th distance (%zu of them have "
			  "an exact tie at the k-th distance, which the lower "
			  "index breaks)", info->recomputed, info->ties);
	if (info->sparse)
		tool_info("scan: sparse inner products, %d threads, %.2f s",
			  info->threads, info->scan_seconds);
	else
		tool_info("scan: %d threads, %.2f s, of which %s block products "
			  "%.2f s (%.1f GFLOP/s)", info->threads,
			  info->scan_seconds, info->single ? "sgemm" : "dgemm",
			  info->gemm_seconds,
			  info->gemm_seconds > 0
				  ? info->gemm_flops / info->gemm_seconds / 1e9 : 0.0);
}

/* The image distances: what was computed, on which candidates. */
static void report_image(const lsv_graph_param *p, const lsv_graph_info *info)
{
	if (p->distance == LSV_DIST_TANGENT)
		tool_info("tangent distance (%dx%d images, tangents smoothed with "
			  "sigma %g px) on each row's C = %d Euclidean nearest rows "
			  "(-C): %zu pairs, %.2f s", p->width, p->height, p->smooth,
			  info->candidates, info->image_pairs, info->image_seconds);
	else if (p->distance == LSV_DIST_ROTATION)
		tool_info("rotation-invariant distance (%dx%d images): %d rotations "
			  "%g degrees apart in [-180, 180], every pair; %.2f s",
			  p->width, p->height, info->rotations, p->angle_step,
			  info->image_seconds);
}

/* -N: the directed k nearest neighbours, "i j:d ..." per row. */
static void write_lists(const lsv_data *x, const char *in,
			const lsv_graph_param *p, FILE *fp)
{
	lsv_graph_info info;
	lsv_error err;
	int *idx;
	double *dist;
	size_t i, r;

	if (lsv_knn_lists(x, p, &idx, &dist, &info, &err) != LSV_OK)
		tool_die_graph_err(in, &err);
	/* a write error stops the loop; tool_outputs_commit reports it */
	for (i = 0; i < x->n && !ferror(fp); i++) {
		fprintf(fp, "%zu", i + 1);
		for (r = 0; r < (size_t)info.k; r++) {
			size_t at = i * (size_t)info.k + r;
			if (idx[at] < 0)
				break;
			fprintf(fp, " %d:%.17g", idx[at] + 1, dist[at]);
		}
		putc('\n', fp);
	}
	tool_outputs_commit();
	tool_info("%zu rows: the %d nearest neighbours of each; %.2f s", x->n,
		  info.k, tool_elapsed());
	report_image(p, &info);
	report_scan(&info);
	free(idx);
	free(dist);
}

/* The bytes each rank sent and its scan time, on rank 0's stderr. */
static void report_ranks(const lsv_graph_info *info)
{
	double *v = tool_rank_values(info->scan_seconds, info->gemm_seconds);
	int r;

	for (r = 0; r < tool_nproc; r++)
		tool_info("rank %d of %d: scan %.2f s (%s block products %.2f s), "
			  "sent %.0f bytes", r, tool_nproc, v[3 * r + 1],
			  info->single ? "sgemm" : "dgemm", v[3 * r + 2], v[3 * r]);
	free(v);
}

/* "path.knn": where the record of the graph at path goes. */
static char *record_path(const char *path)
{
	char *r = malloc(strlen(path) + sizeof ".knn");
	if (r == NULL)
		tool_die(1, "out of memory");
	sprintf(r, "%s.knn", path);
	return r;
}

/* Does a graph built with p get a record (a file to write it beside)?
 * Only a graph written to a file: a new path or a regular file.  A
 * device, a pipe or a FIFO is written into directly and has no
 * "beside", and neither has a name under /dev or /proc (/dev/stdout
 * redirected to a file is a regular file, but /dev/stdout.knn would be a
 * stray file in /dev). */
static int has_record(const lsv_graph_param *p, const char *outpath)
{
	struct stat sb;

	if (strcmp(outpath, "-") == 0 || strncmp(outpath, "/dev/", 5) == 0 ||
	    strncmp(outpath, "/proc/", 6) == 0 ||
	    (stat(outpath, &sb) == 0 && !S_ISREG(sb.st_mode)))
		return 0;
	return p->distance == LSV_DIST_EUCLIDEAN ||
	       p->distance == LSV_DIST_COSINE;
}

static const char *shown(const char *path)
{
	return strcmp(path, "-") ? path : "(stdin)";
}

/* Writes the graph to fp (outpath, "-": stdout) and, when rfp is open,
 * its record to rfp (rout), then renames both into place together. */
static void write_graph(FILE *fp, const char *outpath, const lsv_graph *g,
			FILE *rfp, const char *rout,
			const lsv_graph_record *rec)
{
	lsv_error err;

	if (lsv_graph_write(fp, strcmp(outpath, "-") ? outpath : "(stdout)", g,
			    &err) != LSV_OK)
		tool_die_err(&err);
	if (rfp != NULL && lsv_graph_record_write(rfp, rout, rec, &err) != LSV_OK)
		tool_die_err(&err);
	tool_outputs_commit();
}

/* -U's inputs checked before any is read.  The graph updated in place
 * (the output is old_graph) replaces the old graph and its record rin
 * together, atomically, after both are read.  Any other output must leave
 * both alone: an output named old_graph.knn would replace the record with
 * a graph. */
static void check_update_inputs(const char *oldg, const char *rin,
				const char *oldd, const char *newd,
				const char *outpath)
{
	tool_check_input(oldd);
	tool_check_input(newd);
	if (!tool_same_file(outpath, oldg)) {
		tool_check_input(oldg);
		tool_check_input(rin);
	}
}

/* The record rin of the old graph oldg; its absence names the rebuild. */
static lsv_graph_record *read_record(const char *oldg, const char *rin,
				     const char *oldd)
{
	lsv_graph_record *old;
	lsv_error err;

	if (lsv_graph_record_read_path(rin, &old, &err) != LSV_OK) {
		if (err.status == LSV_EIO)
			tool_die(1, "%s: -U needs the record graph-build writes "
				 "beside each graph it builds into a file, and %s has "
				 "none (%s); rebuild the graph from old_data with "
				 "this graph-build: graph-build [options] %s %s",
				 oldg, oldg, err.msg, oldd, oldg);
		tool_die_err(&err);
	}
	return old;
}

/* The old data, checked against the record old of the graph oldg (and
 * the options p); then the graph itself against its record. */
static lsv_data *read_old(const char *oldg, const char *oldd,
			  const lsv_graph_record *old,
			  const lsv_graph_param *p, double marker)
{
	lsv_data *a;
	lsv_error err;
	unsigned long long gfp, afp;

	/* the old data's fingerprint hashed as they are read */
	if (lsv_data_read_path_fp(oldd, marker, &a, &afp, &err) != LSV_OK)
		tool_die_err(&err);
	if (lsv_graph_record_check_data(old, a, afp, p, &err) != LSV_OK)
		tool_die(1, "%s: %s: %s", oldg, shown(oldd), err.msg);
	/* the graph the record describes: its bytes, not parsed */
	if (lsv_file_fingerprint(oldg, &gfp, &err) != LSV_OK)
		tool_die_err(&err);
	if (gfp != old->graph_fp)
		tool_die(1, "%s: the graph changed since its record was written "
			 "(fingerprint %016llx; the record's: %016llx)", oldg, gfp,
			 old->graph_fp);
	return a;
}

/* The new data, checked against the old data's (the record old). */
static lsv_data *read_new(const char *newd, const char *oldd,
			  const lsv_graph_record *old, double marker)
{
	lsv_data *b;
	lsv_error err;

	if (lsv_data_read_path(newd, marker, &b, &err) != LSV_OK)
		tool_die_err(&err);
	if (lsv_graph_record_check_new(old, b, &err) != LSV_OK) {
		if (lsv_error_row_text(&err) != NULL)
			tool_die_row(newd, err.row, "%s (old data %s)",
				     lsv_error_row_text(&err), shown(oldd));
		tool_die(1, "%s: %s (old data %s)", shown(newd), err.msg,
			 shown(oldd));
	}
	return b;
}

/*
 * -U: the old graph's record (old_graph.knn) checked against old_graph,
 * old_data and the options; new_data checked against the old data; then
 * the graph of the concatenation by lsv_graph_update and its record.
 * Every check fails before anything is written.
 */
static void update(const char *oldg, const char *oldd, const char *newd,
		   const char *outpath, lsv_graph_param *p, double marker,
		   lsv_graph **gout, lsv_data **xout, lsv_graph_info *info)
{
	FILE *fp, *rfp = NULL;
	char *rin = record_path(oldg), *rout = NULL;
	lsv_graph_record *old, *rec;
	lsv_data *b, *x;
	lsv_graph *g;
	lsv_error err;
	size_t n0;
	double t_read, t_built;

	fp = tool_output_open(outpath);
	if (has_record(p, outpath)) {
		rout = record_path(outpath);
		rfp = tool_output_open(rout);
	}
	check_update_inputs(oldg, rin, oldd, newd, outpath);
	old = read_record(oldg, rin, oldd);
	x = read_old(oldg, oldd, old, p, marker);
	b = read_new(newd, oldd, old, marker);
	n0 = x->n;
	if (lsv_data_append(x, b, &err) != LSV_OK)
		tool_die_err(&err);
	lsv_data_free(b);
	t_read = tool_elapsed();
	if (!tool_quiet) {
		p->progress = tool_progress;
		p->progress_ctx = NULL;
	}
	/* a row's failure is the old data's or, past its n0 rows, the new's */
	if (lsv_graph_update(x, n0, p, old, &g, &rec, info, &err) != LSV_OK)
		tool_die_data_err(err.row > 0 && err.row <= n0 ? oldd : newd,
				  err.row > n0 ? n0 : 0, &err);
	lsv_graph_record_free(old);
	t_built = tool_elapsed();
	write_graph(fp, outpath, g, rfp, rout, rec);
	tool_info("update: %zu old rows + %zu new: the new rows' distances to "
		  "every row (%.3g GFLOP in the block products, %.2f s); reading "
		  "and checks %.2f s, update %.2f s, writing %.2f s", n0,
		  x->n - n0, info->gemm_flops / 1e9, info->scan_seconds, t_read,
		  t_built - t_read, tool_elapsed() - t_built);
	lsv_graph_record_free(rec);
	free(rin);
	free(rout);
	*gout = g;
	*xout = x;
}

/* What the command line asked for, beside the graph options themselves. */
typedef struct {
	lsv_graph_param p;
	const char *oldgraph;	/* -U old_graph, or NULL */
	double marker;		/* -u: the label of unlabeled rows */
	int lists;		/* -N: neighbour lists, not a graph */
	int classes;		/* -y: graphs within each class */
	int k_given, t_given, u_given, D_given, w_given;
	int tangent_opt;	/* the letter of -C or -s, if given; else 0 */
	int rotation_opt;	/* 'r' if -r was given; else 0 */
} options;

static const char *const dists[] = {"euclidean", "cosine", "tangent",
				    "rotation"};

/* One option of the graph itself (its lsv_graph_param); 0 if c is none. */
static int graph_option(int c, const char *arg, options *o)
{
	static const char *const weights[] = {"binary", "heat", "distance"};
	static const char *const paths[] = {"dense", "auto", "sparse"};
	static const char *const precisions[] = {"single", "double"};
	lsv_graph_param *p = &o->p;

	switch (c) {
	case 'k':
		p->k = (int)tool_opt_long(c, arg, 1, INT_MAX);
		o->k_given = 1;
		break;
	case 'e':
		p->epsilon = tool_opt_double(c, arg, 0x1p-1022, 1e300);
		break;
	case 'm':
		p->mutual = 1;
		break;
	case 'd':
		p->distance = (lsv_distance)parse_name(c, arg, dists, 4);
		break;
	case 'w':
		p->weight = (lsv_weight)parse_name(c, arg, weights, 3);
		o->w_given = 1;
		break;
	case 't':
		p->t = tool_opt_double(c, arg, 0x1p-1022, 1e300);
		o->t_given = 1;
		break;
	case 'B':
		p->block = (size_t)tool_opt_long(c, arg, 1, 1 << 20);
		break;
	case 'f':
		p->single = 1;
		break;
	case 'p':
		p->single = parse_name(c, arg, precisions, 2) == 0;
		break;
	case 'A':
		p->sparse = parse_name(c, arg, paths, 3) - 1;
		break;
	default:
		return 0;
	}
	return 1;
}

/* One option of the image distances (-d tangent, -d rotation); 0 if c is
 * none. */
static int image_option(int c, const char *arg, options *o)
{
	lsv_graph_param *p = &o->p;

	switch (c) {
	case 'D':
		parse_shape(arg, &p->width, &p->height);
		o->D_given = 1;
		break;
	case 'C':
		p->candidates = (int)tool_opt_long(c, arg, 1, INT_MAX);
		o->tangent_opt = c;
		break;
	case 's':
		p->smooth = tool_opt_double(c, arg, 0.0, 100.0);
		o->tangent_opt = c;
		break;
	case 'r':
		p->angle_step = tool_opt_double(c, arg, 1e-3, 180.0);
		o->rotation_opt = c;
		break;
	default:
		return 0;
	}
	return 1;
}

static void parse_options(int argc, char **argv, options *o)
{
	int c;

	memset(o, 0, sizeof *o);
	lsv_graph_param_default(&o->p);
	o->marker = LSV_UNLABELED_DEFAULT;
	opterr = 0;
	while ((c = getopt(argc, argv, ":k:e:md:w:t:B:fp:A:Nyu:D:C:s:r:U:qh")) != -1) {
		if (graph_option(c, optarg, o) || image_option(c, optarg, o))
			continue;
		switch (c) {
		case 'N':
			o->lists = 1;
			break;
		case 'y':
			o->classes = 1;
			break;
		case 'u':
			o->marker = tool_opt_double(c, optarg, -1e300, 1e300);
			if (o->marker == 0.0)
				o->marker = 0.0;  /* -0 is the label 0, as the reader has it */
			o->u_given = 1;
			break;
		case 'U':
			o->oldgraph = optarg;
			break;
		case 'q':
			tool_quiet = 1;
			break;
		case 'h':
			tool_help(usage);
		default:
			tool_option_error(c);
		}
	}
}

/* The operands (nargs of them): data_file [graph_file], or with -U
 * old_data new_data [graph_file]. */
static void check_operands(const options *o, int nargs)
{
	if (o->oldgraph != NULL && nargs < 2)
		tool_usage_error("-U needs old_data and new_data (graph-build -U "
				 "old_graph [options] old_data new_data "
				 "[graph_file])");
	if (nargs < 1)
		tool_usage_error("missing data_file");
	if (nargs > (o->oldgraph != NULL ? 3 : 2))
		tool_usage_error(o->oldgraph != NULL
				 ? "too many arguments (expected old_data new_data "
				   "[graph_file])"
				 : "too many arguments (expected data_file "
				   "[graph_file])");
}

/* What neither -U nor mpirun takes, in the order they name it; NULL if
 * nothing. */
static const char *one_process_only(const options *o)
{
	const lsv_graph_param *p = &o->p;

	return o->classes ? "-y (graphs within each class)"
		: o->lists ? "-N (neighbour lists)"
		: p->distance == LSV_DIST_TANGENT ? "-d tangent"
		: p->distance == LSV_DIST_ROTATION ? "-d rotation" : NULL;
}

/* kNN against epsilon-ball, -N's lists against a graph's shape, -u and
 * -t against what they apply to. */
static void check_graph_kind(const options *o)
{
	const lsv_graph_param *p = &o->p;

	if (p->epsilon > 0.0 && o->k_given)
		tool_usage_error("-k and -e exclude each other (kNN or epsilon-ball)");
	if (p->epsilon > 0.0 && p->mutual)
		tool_usage_error("-m applies to kNN graphs; an epsilon-ball graph is "
				 "already symmetric");
	if (o->lists && p->epsilon > 0.0)
		tool_usage_error("-N lists k nearest neighbours; it does not apply "
				 "with -e");
	/* the lists are each row's own picks with their distances: no
	 * symmetrization to make mutual, no weight to choose */
	if (o->lists && (p->mutual || o->w_given || o->t_given))
		tool_usage_error("-N lists each row's neighbours with their "
				 "distances; %s shapes a graph and does not apply",
				 p->mutual ? "-m" : o->w_given ? "-w" : "-t");
	if (o->lists && o->classes)
		tool_usage_error("-N lists the neighbours among all rows; it does not "
				 "apply with -y");
	if (o->u_given && !o->classes)
		tool_usage_error("-u names the unlabeled rows for -y; without -y "
				 "labels are ignored");
	if (o->t_given && p->weight != LSV_WEIGHT_HEAT)
		tool_usage_error("-t applies only to heat weights (-w heat)");
}

/* The image distances' options (-D, -C, -s, -r) against -d. */
static void check_image(const options *o)
{
	const lsv_graph_param *p = &o->p;

	if (p->distance == LSV_DIST_TANGENT || p->distance == LSV_DIST_ROTATION) {
		const char *dn = dists[p->distance];
		if (!o->D_given)
			tool_usage_error("-d %s needs the image shape: -D WIDTHxHEIGHT "
					 "(e.g. -D 16x16)", dn);
		if (p->epsilon > 0.0)
			tool_usage_error("-e with -d %s: the image distances build kNN "
					 "graphs (-k)", dn);
		if (p->sparse > 0)
			tool_usage_error("-A sparse with -d %s: images are dense rows",
					 dn);
		if (p->distance == LSV_DIST_ROTATION && o->tangent_opt)
			tool_usage_error("-%c applies to -d tangent", o->tangent_opt);
		if (p->distance == LSV_DIST_TANGENT && o->rotation_opt)
			tool_usage_error("-r applies to -d rotation");
	} else if (o->D_given) {
		tool_usage_error("-D declares the image shape of -d tangent or -d "
				 "rotation");
	} else if (o->tangent_opt || o->rotation_opt) {
		tool_usage_error("-%c applies to -d %s",
				 o->tangent_opt ? o->tangent_opt : o->rotation_opt,
				 o->tangent_opt ? "tangent" : "rotation");
	}
}

/* The options that exclude each other, and the operands (nargs of them)
 * they need; P processes. */
static void check_options(const options *o, int P, int nargs)
{
	const lsv_graph_param *p = &o->p;
	const char *what = one_process_only(o);
	lsv_error err;

	check_operands(o, nargs);
	if (o->oldgraph != NULL && (what != NULL || P > 1))
		tool_usage_error("-U updates Euclidean and cosine kNN or "
				 "epsilon graphs on one process, not with %s: "
				 "build the grown data's graph in full",
				 what != NULL ? what : "mpirun");
	check_graph_kind(o);
	check_image(o);
	if (P > 1 && (what != NULL || p->sparse > 0))
		tool_usage_error("%s is not distributed: run it on one process "
				 "(without mpirun, or -np 1)",
				 what != NULL ? what : "-A sparse");
	if (lsv_graph_param_check(p, &err) != LSV_OK)
		tool_usage_error("%s", err.msg);
	if (p->distance == LSV_DIST_COSINE && p->epsilon > 2.0)
		tool_info("warning: cosine distances are at most 2; -e %g keeps "
			  "every pair", p->epsilon);
}

/* What the graph's construction met that the user should know. */
static void warn_graph(const options *o, const lsv_graph_info *info)
{
	const lsv_graph_param *p = &o->p;

	if (p->epsilon == 0.0 && info->k < p->k && o->classes)
		tool_info("warning: k = %d but the smallest class offers only %d "
			  "candidate neighbours per point; its rows use k = %d",
			  p->k, info->k, info->k);
	else if (p->epsilon == 0.0 && info->k < p->k)
		tool_info("warning: k = %d but each point has only %d candidate "
			  "neighbours; using k = %d", p->k, info->k, info->k);
	if (p->distance == LSV_DIST_COSINE && info->zero_rows > 0)
		tool_info("warning: %zu rows have no non-zero value; cosine distance "
			  "is undefined for them, so they are isolated",
			  info->zero_rows);
	if (p->weight == LSV_WEIGHT_HEAT && info->t == 0.0 && info->edges > 0)
		tool_info("warning: every chosen pair is at distance 0 (duplicate "
			  "points): the heat width t is 0 and every weight is 1");
	if (info->dropped > 0)
		tool_info("warning: %zu edges had weight 0 (%s) and were dropped",
			  info->dropped,
			  p->weight == LSV_WEIGHT_DISTANCE ? "duplicate points"
							   : "heat weight underflow");
}

/* The closing lines: the graph's size, its weights, the time taken. */
static void summarize(const options *o, const lsv_graph *g,
		      const lsv_graph_info *info)
{
	const lsv_graph_param *p = &o->p;

	if (p->epsilon > 0.0)
		tool_info("%zu rows, epsilon = %g: %zu edges, %zu isolated rows; "
			  "%.2f s", g->n, p->epsilon, info->edges, info->isolated,
			  tool_elapsed());
	else
		/* within each class k is capped class by class (warn_graph
		 * names the smallest class's): the k asked for is the graph's */
		tool_info("%zu rows, k = %d%s%s: %zu edges, %zu isolated rows; "
			  "%.2f s", g->n, o->classes ? p->k : info->k,
			  p->mutual ? " (mutual)" : "",
			  o->classes ? " within each class" : "", info->edges,
			  info->isolated, tool_elapsed());
	if (p->weight == LSV_WEIGHT_HEAT)
		tool_info("heat weights exp(-d^2/(4t)) with t = %.6g", info->t);
	report_image(p, info);
	if (tool_nproc == 1)
		report_scan(info);
}

/* One process: the graph of in (or -N's lists) written to outpath, with
 * its record where it has one. */
static void build(options *o, const char *in, const char *outpath)
{
	lsv_graph_param *p = &o->p;
	lsv_graph_record *rec = NULL;
	lsv_graph_info info;
	lsv_graph *g;
	lsv_data *x;
	lsv_error err;
	FILE *fp, *rfp = NULL;
	char *rout = NULL;
	lsv_status st;

	/* Before the data are read: a bad destination fails at once. */
	fp = tool_output_open(outpath);
	if (!o->classes && !o->lists && has_record(p, outpath)) {
		rout = record_path(outpath);
		rfp = tool_output_open(rout);
	}
	tool_check_input(in);
	if (lsv_data_read_path(in, o->marker, &x, &err) != LSV_OK)
		tool_die_err(&err);
	if (o->classes)
		check_labeled(x, in);
	if (!tool_quiet) {
		p->progress = tool_progress;
		p->progress_ctx = NULL;
	}
	if (o->lists) {
		write_lists(x, in, p, fp);
		lsv_data_free(x);
		return;
	}
	st = o->classes ? lsv_graph_build_classes(x, p, &g, &info, &err)
	     : rfp != NULL ? lsv_graph_build_record(x, p, &g, &rec, &info, &err)
	     : lsv_graph_build(x, p, &g, &info, &err);
	if (st != LSV_OK)
		tool_die_graph_err(in, &err);
	warn_graph(o, &info);
	if (p->distance == LSV_DIST_EUCLIDEAN)
		tool_scale_warning(x);
	write_graph(fp, outpath, g, rfp, rout, rec);
	summarize(o, g, &info);
	lsv_graph_record_free(rec);
	free(rout);
	lsv_graph_free(g);
	lsv_data_free(x);
}

/*
 * Under mpirun (P > 1 ranks of the MPI build; tool.h: rank 0's phases):
 * rank 0 alone opens the output and writes the graph (the same crash-safe
 * temporary file and rename).  A regular file: every rank reads its part
 * of the rows (no rank holds them all).  Standard input, or a file whose
 * labels are its row numbers (a graph file given as data: refused as one
 * process refuses it): rank 0 reads, the others wait.  Then the search is
 * shared (lsv_graph_build_dist).
 */
static void build_ranks(options *o, const char *in, const char *outpath)
{
	lsv_graph_param *p = &o->p;
	lsv_graph_info info;
	lsv_graph *g = NULL;
	lsv_data *x = NULL;
	lsv_error err;
	FILE *fp = NULL;
	int parts = 0;

	if (tool_rank0_begin()) {
		fp = tool_output_open(outpath);
		tool_check_input(in);
		parts = tool_regular_file(in);
		p->progress = tool_quiet ? NULL : tool_progress;
		p->progress_ctx = NULL;
	}
	tool_rank0_end();
	if (lsv_comm_bcast(tool_comm, 0, &parts, sizeof parts, &err) != LSV_OK)
		tool_die_err(&err);
	if (parts) {
		size_t row0, n;
		int graph_like;
		if (lsv_data_read_dist(tool_comm, in, o->marker, &x, &row0, &n,
				       &graph_like, &err) != LSV_OK)
			tool_die_err(&err);
		if (graph_like) {
			lsv_data_free(x);
			x = NULL;
			parts = 0;
		} else if (lsv_graph_build_dist_rows(tool_comm, x, row0, n, p, &g,
						     &info, &err) != LSV_OK)
			tool_die_graph_err(in, &err);
	}
	if (!parts) {
		if (tool_rank0_begin() &&
		    lsv_data_read_path(in, o->marker, &x, &err) != LSV_OK)
			tool_die_err(&err);
		tool_rank0_end();
		if (lsv_graph_build_dist(tool_comm, x, p, &g, &info, &err) !=
		    LSV_OK)
			tool_die_graph_err(in, &err);
	}
	lsv_data_free(x);  /* the graph is all that is written */
	if (!tool_quiet)
		report_ranks(&info);
	if (tool_rank0_begin()) {
		warn_graph(o, &info);
		write_graph(fp, outpath, g, NULL, NULL, NULL);
		summarize(o, g, &info);
	}
	tool_rank0_end();  /* the other ranks wait for rank 0's writing */
	lsv_graph_free(g);
}

int main(int argc, char **argv)
{
	options o;
	const char *in, *outpath;
	char *deflt = NULL;

	tool_init(argv[0]);
	tool_comm_start(&argc, &argv);
	parse_options(argc, argv, &o);
	check_options(&o, tool_nproc, argc - optind);
	if (o.oldgraph != NULL) {
		if ((strcmp(o.oldgraph, "-") == 0) + (strcmp(argv[optind], "-") == 0) +
		    (strcmp(argv[optind + 1], "-") == 0) > 1)
			tool_usage_error("-U: only one of old_graph, old_data and "
					 "new_data can be standard input");
		optind++;  /* old_data: update() reads it; in is new_data */
	}
	in = argv[optind];
	if (optind + 1 < argc) {
		outpath = argv[optind + 1];
	} else if (strcmp(in, "-") == 0) {
		outpath = "-";
	} else {
		deflt = malloc(strlen(in) + sizeof ".graph");
		if (deflt == NULL)
			tool_die(1, "out of memory");
		sprintf(deflt, "%s.graph", in);
		outpath = deflt;
	}
	if (tool_nproc > 1) {
		build_ranks(&o, in, outpath);
	} else if (o.oldgraph != NULL) {
		lsv_graph_info info;
		lsv_graph *g;
		lsv_data *x;
		update(o.oldgraph, argv[optind - 1], in, outpath, &o.p, o.marker,
		       &g, &x, &info);
		summarize(&o, g, &info);
		lsv_graph_free(g);
		lsv_data_free(x);
	} else {
		build(&o, in, outpath);
	}
	free(deflt);
	return tool_done();
}
