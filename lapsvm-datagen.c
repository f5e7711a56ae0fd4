/*
 * lapsvm-datagen -- the toy data sets of the JMLR paper's Figures 2-3 (two
 * moons, two spirals) and of ManifoldBoost's Figure 3 (three rings),
 * generated from a seed so demos and tests need no download.
 *
 *     lapsvm-datagen [options] moons|spirals|rings [output_file]
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
"Usage: lapsvm-datagen [options] moons|spirals|rings [output_file]\n"
"Write a toy data set in LIBSVM format (two features; labels +1 and -1,\n"
"or 1, 2, 3 for the rings) to output_file, or standard output if it is\n"
"absent or '-'.\n"
"  moons   : upper arc (cos t, sin t) is +1, lower arc (1 - cos t,\n"
"            1/2 - sin t) is -1, t evenly spaced in [0, pi]\n"
"  spirals : Lang & Witbrock's two spirals (n = 194 gives the original)\n"
"  rings   : three concentric circles, class c of radius c (c = 1, 2, 3),\n"
"            n/3 points each evenly spaced in angle (Loeff et al. 2008,\n"
"            Figure 3)\n"
"\n"
"options:\n"
"-n n     : number of points, shared equally by the classes (default 200;\n"
"           the first classes get one more when it does not divide)\n"
"-e noise : standard deviation of Gaussian noise per coordinate\n"
"           (default 0.1 for moons and rings, 0 for spirals)\n"
"-S seed  : random seed (default 1); the same seed gives the same data\n"
"-l m     : keep the labels of only m points per class (the first m of\n"
"           each class in a seeded random order); write 0 for the rest\n"
"-h       : show this help\n"
"\n"
"Exit status: 0 success, 1 failure (I/O), 2 usage error.\n");
}

/* What the command line asked for. */
typedef struct {
	lsv_synth_kind kind;
	const char *name;	/* the data set as named: moons, spirals, rings */
	const char *outpath;
	long n;
	long keep;		/* -l: labels kept per class; -1: all */
	unsigned long long seed;
	double noise;		/* -1: the data set's default */
} options;

static void read_options(int argc, char **argv, options *o)
{
	int c;

	o->n = 200;
	o->keep = -1;
	o->seed = 1;
	o->noise = -1.0;
	o->outpath = "-";
	opterr = 0;
	while ((c = getopt(argc, argv, ":n:e:S:l:h")) != -1) {
		switch (c) {
		case 'n':
			o->n = tool_opt_long(c, optarg, 2, 100000000);
			break;
		case 'e':
			o->noise = tool_opt_double(c, optarg, 0.0, 1e6);
			break;
		case 'S':
			o->seed = (unsigned long long)tool_opt_long(c, optarg, 0,
								    LONG_MAX);
			break;
		case 'l':
			o->keep = tool_opt_long(c, optarg, 0, 100000000);
			break;
		case 'h':
			tool_help(usage);
		default:
			tool_option_error(c);
		}
	}
}

static lsv_synth_kind parse_kind(const char *name)
{
	if (strcmp(name, "moons") == 0)
		return LSV_SYNTH_MOONS;
	if (strcmp(name, "spirals") == 0)
		return LSV_SYNTH_SPIRALS;
	if (strcmp(name, "rings") == 0)
		return LSV_SYNTH_RINGS;
	tool_usage_error("unknown data set '%s' (expected moons, spirals or "
			 "rings)", name);
}

/* The data set and output operands, then -n and -l against the data
 * set's classes; -e's default is the data set's. */
static void check_operands(int argc, char **argv, options *o)
{
	int K;

	if (optind >= argc)
		tool_usage_error("missing data set name (moons, spirals or rings)");
	o->name = argv[optind];
	o->kind = parse_kind(o->name);
	if (argc - optind > 2)
		tool_usage_error("too many arguments");
	if (optind + 1 < argc)
		o->outpath = argv[optind + 1];
	if (o->noise < 0.0)
		o->noise = o->kind == LSV_SYNTH_SPIRALS ? 0.0 : 0.1;
	K = lsv_synth_classes(o->kind);
	if (o->n < K)
		tool_usage_error("option -n: %ld points cannot make the %d classes "
				 "of %s (expected at least %d)", o->n, K, o->name,
				 K);
	/* the smallest class has n / K points (the first classes get the
	 * remainder): -l beyond it would keep every label, not m */
	if (o->keep > o->n / K)
		tool_usage_error("option -l: %ld labels per class, but the smallest "
				 "class of %ld points of %s has %ld (expected at "
				 "most %ld)", o->keep, o->n, o->name, o->n / K,
				 o->n / K);
}

/* Seeded shuffle of each class; unlabel all but the first keep. */
static void keep_labels(lsv_data *x, const options *o)
{
	lsv_rng r;
	/* the classes are consecutive blocks of lsv_synth's sizes */
	size_t i, lo = 0, K = (size_t)lsv_synth_classes(o->kind);
	size_t *idx = malloc(x->n * sizeof *idx);
	size_t cl;

	if (idx == NULL)
		tool_die(1, "out of memory");
	lsv_rng_seed(&r, o->seed ^ 0x6c6162656c73ULL);
	for (cl = 0; cl < K; cl++) {
		size_t m = x->n / K + (cl < x->n % K);
		for (i = 0; i < m; i++)
			idx[i] = lo + i;
		for (i = m; i > 1; i--) {
			size_t j = (size_t)(lsv_rng_next(&r) % i), t = idx[i - 1];
			idx[i - 1] = idx[j];
			idx[j] = t;
		}
		for (i = (size_t)o->keep; i < m; i++)
			x->y[idx[i]] = 0.0;
		lo += m;
	}
	free(idx);
}

int main(int argc, char **argv)
{
	options o;
	lsv_data *x = NULL;
	lsv_error err;
	FILE *fp;

	tool_uses_blas = 0;  /* no BLAS, no threads */
	tool_init(argv[0]);
	tool_one_process(&argc, &argv);
	read_options(argc, argv, &o);
	check_operands(argc, argv, &o);
	fp = tool_output_open(o.outpath);  /* a bad destination fails at once */
	if (lsv_synth(o.kind, (size_t)o.n, o.noise, o.seed, &x, &err) != LSV_OK)
		tool_die_err(&err);
	if (o.keep >= 0)
		keep_labels(x, &o);
	if (lsv_data_write(fp, strcmp(o.outpath, "-") ? o.outpath : "(stdout)",
			   x, &err) != LSV_OK)
		tool_die_err(&err);
	tool_outputs_commit();
	lsv_data_free(x);
	return tool_done();
}
