/*
 * lapsvm-pca -- project data sets on the principal components of one of
 * them (the paper's USPS protocol: 100 components of the training images).
 *
 *     lapsvm-pca [options] fit_file fit_out [file out ...]
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lapsvm.h"
#include "tool.h"

static void usage(void)
{
	printf(
"Usage: lapsvm-pca [options] fit_file fit_out [file out ...]\n"
"Fit principal components to the rows of fit_file (LIBSVM format) and\n"
"write its rows projected on the first k of them, y = V'(x - mean), to\n"
"fit_out; then project each further file with the same components.  Labels\n"
"are kept.  '-' reads standard input (once) or writes standard output\n"
"(once).  The outputs are replaced together, only when all are complete.\n"
"\n"
"options:\n"
"-k k : number of components, at most the number of features (default 100,\n"
"       or every feature when there are fewer)\n"
"-q   : quiet: no summary\n"
"-h   : show this help\n"
"\n"
"Exit status: 0 success, 1 failure (bad input, I/O), 2 usage error.\n");
}

/* Warns when a further file has features the fit file lacks: no
 * component weighs them (lsv_pca_project skips them), so two rows that
 * differ only there get the same projection, and the user should know. */
static void warn_unfitted_features(const char *path, const lsv_data *x,
				   size_t d)
{
	size_t i, p, rows = 0, first = 0;

	for (i = 0; i < x->n; i++) {
		int beyond = 0;
		for (p = x->rowptr[i]; p < x->rowptr[i + 1]; p++)
			if ((size_t)x->col[p] >= d && x->val[p] != 0.0) {
				beyond = 1;
				if (first == 0 || (size_t)x->col[p] + 1 < first)
					first = (size_t)x->col[p] + 1;
			}
		rows += beyond;
	}
	if (rows > 0)
		tool_info("warning: %s: %zu row%s features the fit file lacks "
			  "(from feature %zu; it has %zu): no component weighs "
			  "them, so the projection leaves them out",
			  strcmp(path, "-") ? path : "(stdin)", rows,
			  rows == 1 ? " has" : "s have", first, d);
}

/* The command line: -k and the (file, out) pairs after the options. */
typedef struct {
	long k;		/* -1: 100, or every feature when fewer */
	int nin;	/* the number of pairs */
	char **pairs;	/* fit_file fit_out [file out ...] */
} options;

static void read_options(int argc, char **argv, options *o)
{
	int c;

	o->k = -1;
	opterr = 0;
	while ((c = getopt(argc, argv, ":k:qh")) != -1) {
		switch (c) {
		case 'k':
			o->k = tool_opt_long(c, optarg, 1, INT_MAX);
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

/* The operands: (file, out) pairs, standard input read at most once. */
static void check_operands(int argc, char **argv, options *o)
{
	int a, stdin_used = 0;

	if (argc - optind < 2)
		tool_usage_error("missing %s", argc - optind ? "fit_out" : "fit_file");
	if ((argc - optind) % 2 != 0)
		tool_usage_error("the last input file '%s' has no output file",
				 argv[argc - 1]);
	for (a = optind; a < argc; a += 2)
		if (strcmp(argv[a], "-") == 0 && stdin_used++)
			tool_usage_error("standard input can be read only once");
	o->nin = (argc - optind) / 2;
	if (o->nin > TOOL_MAX_OUTPUTS)
		tool_usage_error("%d input files: at most %d in one run", o->nin,
				 TOOL_MAX_OUTPUTS);
	o->pairs = argv + optind;
}

/* Every destination before any input is read: a bad one fails at once,
 * and none is replaced until all are written.  Then each input checked
 * before any is read. */
static FILE **open_outputs(const options *o)
{
	FILE **fp;
	int a;

	if ((fp = calloc((size_t)o->nin, sizeof *fp)) == NULL)
		tool_die(1, "out of memory");
	for (a = 0; a < o->nin; a++)
		fp[a] = tool_output_open(o->pairs[2 * a + 1]);
	for (a = 0; a < o->nin; a++)
		tool_check_input(o->pairs[2 * a]);
	return fp;
}

/* The first k principal components of the rows x of the fit file path:
 * k is -k's, or 100, or every feature when there are fewer. */
static lsv_pca *fit(const char *path, const lsv_data *x, long k)
{
	lsv_pca *pc;
	lsv_error err;

	if (x->dim == 0)
		tool_die(1, "%s: no row has a feature: there is nothing to project",
			 path);
	if (k < 0)
		k = x->dim < 100 ? (long)x->dim : 100;
	if ((size_t)k > x->dim)
		tool_die(1, "%s: -k %ld but the data has %zu features (expected "
			 "1..%zu components)", path, k, x->dim, x->dim);
	if (lsv_pca_fit(x, (size_t)k, &pc, &err) != LSV_OK)  /* name the file */
		tool_die(1, "%s: %s", path, err.msg);
	return pc;
}

/* The share of the variance the k components keep. */
static void report_fit(const lsv_pca *pc, const lsv_data *x)
{
	double kept = 0.0;
	size_t j;

	for (j = 0; j < pc->k; j++)
		kept += pc->variance[j];
	if (pc->total > 0)
		tool_info("%zu rows, %zu features: %zu component%s keep%s "
			  "%.2f%% of the variance", x->n, x->dim, pc->k,
			  pc->k == 1 ? "" : "s", pc->k == 1 ? "s" : "",
			  100.0 * kept / pc->total);
	else
		tool_info("%zu rows, %zu features: the rows do not vary "
			  "(every projection is 0)", x->n, x->dim);
}

/* Every input read before the projections: a bad file is found before
 * the work.  The fit file's rows x are the first. */
static lsv_data **read_inputs(const options *o, lsv_data *x,
			      const lsv_pca *pc)
{
	lsv_data **in = calloc((size_t)o->nin, sizeof *in);
	lsv_error err;
	int i;

	if (in == NULL)
		tool_die(1, "out of memory");
	in[0] = x;
	for (i = 1; i < o->nin; i++)
		if (lsv_data_read_path(o->pairs[2 * i], LSV_UNLABELED_DEFAULT,
				       &in[i], &err))
			tool_die_err(&err);
		else
			warn_unfitted_features(o->pairs[2 * i], in[i], pc->d);
	return in;
}

/* Each input's projection written to its output; the inputs freed. */
static void project_all(const options *o, const lsv_pca *pc, lsv_data **in,
			FILE **fp)
{
	lsv_data *y;
	lsv_error err;
	int i;

	for (i = 0; i < o->nin; i++) {
		const char *path = o->pairs[2 * i + 1];
		if (lsv_pca_project(pc, in[i], &y, &err) != LSV_OK ||
		    lsv_data_write(fp[i], strcmp(path, "-") ? path
				   : "(stdout)", y, &err) != LSV_OK)
			tool_die_err(&err);
		lsv_data_free(y);
		lsv_data_free(in[i]);
	}
}

int main(int argc, char **argv)
{
	options o;
	lsv_data *x, **in;
	lsv_pca *pc;
	lsv_error err;
	FILE **fp;

	tool_init(argv[0]);
	tool_one_process(&argc, &argv);
	read_options(argc, argv, &o);
	check_operands(argc, argv, &o);
	fp = open_outputs(&o);
	if (lsv_data_read_path(o.pairs[0], LSV_UNLABELED_DEFAULT, &x, &err))
		tool_die_err(&err);
	pc = fit(o.pairs[0], x, o.k);
	report_fit(pc, x);
	in = read_inputs(&o, x, pc);
	project_all(&o, pc, in, fp);
	tool_outputs_commit();
	free(in);
	free(fp);
	lsv_pca_free(pc);
	return tool_done();
}
