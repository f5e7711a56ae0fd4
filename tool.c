/*
 * tool.c -- messages, exit codes, option values, signals and progress for
 * the command-line programs (see tool.h).  In the spirit of sbase's
 * eprintf/strtonum: every message starts with the program's name, and a
 * bad option value says which option, what was given and what is allowed.
 */
/* MAP_ANONYMOUS and MAP_NORESERVE are not in POSIX. */
#define _DEFAULT_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "tool.h"

const char *tool_name = "lapsvm";
int tool_quiet = 0;
int tool_uses_blas = 1;

static struct timespec t0;
int tool_silent;
#ifdef _OPENMP
static volatile int started;  /* threads of the pool started up front */
#endif

/*
 * The run's outputs not yet committed.  tmpnames[] is what the signal
 * handler reads: copies of the temporary names (names[] owns them), freed
 * only when a later output reuses the slot, because the handler may run
 * in another thread (the OpenMP and BLAS threads take signals too) and
 * still hold one after its slot is cleared.  While the main thread
 * renames or removes the files (busy), a signal is only noted (deferred)
 * and acted on when that is done: a signal amid the renames must not stop
 * a commit halfway, with some outputs new and the others old.
 */
static lsv_out *outs[TOOL_MAX_OUTPUTS];
static const char *given[TOOL_MAX_OUTPUTS];  /* the names as given */
static char *names[TOOL_MAX_OUTPUTS];
static char *volatile tmpnames[TOOL_MAX_OUTPUTS];
static size_t nouts;
static volatile sig_atomic_t busy, deferred;

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double tool_elapsed(void)
{
	return now() - ((double)t0.tv_sec + 1e-9 * (double)t0.tv_nsec);
}

/* Only async-signal-safe calls: unlink every temporary file, then die by
 * the signal so the parent sees how the program ended. */
static void die_by(int sig)
{
	size_t i;

	for (i = 0; i < TOOL_MAX_OUTPUTS; i++) {
		const char *t = tmpnames[i];
		if (t != NULL)
			unlink(t);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void on_signal(int sig)
{
	if (busy)
		deferred = sig;
	else
		die_by(sig);
}

/* The end of a busy stretch: a signal that came meanwhile acts now. */
static void release_signals(void)
{
	busy = 0;
	if (deferred)
		die_by(deferred);
}

/* At exit (tool_die, a usage error, a return from main): outputs not
 * committed are removed, so a failure leaves no temporary file. */
static void abort_outputs(void)
{
	size_t i;

	busy = 1;
	for (i = 0; i < nouts; i++) {
		tmpnames[i] = NULL;
		lsv_out_abort(outs[i]);
		outs[i] = NULL;
	}
	nouts = 0;
	release_signals();
}

/*
 * Under an address-space limit (ulimit -v), make sure the threads and the
 * BLAS can get their memory before any work starts, and fail with a
 * message if they cannot:
 *   - OpenMP creates its threads on the first parallel region and exits
 *     with its own message ("libgomp: Thread creation failed") if it cannot;
 *   - OpenBLAS (before 0.3.30) retries forever when it cannot map a work
 *     buffer (128 MiB on x86-64) for a thread calling it: the program hangs.
 * So: check that room for the thread stacks and one buffer per thread is
 * left (fewer threads if not), create the thread pool now, and have
 * OpenBLAS map its buffers now; both are reused for the whole run.  Does
 * nothing without a limit.
 */
#define MIB ((size_t)1 << 20)
#define BLAS_BUFFER (129 * MIB)  /* OpenBLAS's BUFFER_SIZE, and its header */

/* Address space for the stacks of threads - 1 more threads and for
 * buffers BLAS work buffers, plus some slack. */
static size_t room_needed(int threads, size_t stack, int buffers)
{
	return (size_t)(threads - 1) * (stack + MIB) +
	       (size_t)buffers * BLAS_BUFFER + (buffers ? 16 : 2) * MIB;
}

static int room_left(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return 0;
	munmap(p, bytes);
	return 1;
}

static void reserve_for_limit(void)
{
	struct rlimit as, st;
	void *(*balloc)(int) = NULL;
	void (*bfree)(void *) = NULL;
	int (*bthreads)(void) = NULL;
	void *self, *bufs[128];
	size_t stack = 8 * MIB;
	int threads = 1, workers = 0, nbuf, i;

	if (!tool_uses_blas || getrlimit(RLIMIT_AS, &as) != 0 ||
	    as.rlim_cur == RLIM_INFINITY)
		return;
	if (getrlimit(RLIMIT_STACK, &st) == 0 && st.rlim_cur != RLIM_INFINITY &&
	    st.rlim_cur < 64 * MIB)
		stack = (size_t)st.rlim_cur;
	self = dlopen(NULL, RTLD_LAZY);
	if (self != NULL) {
		*(void **)(&balloc) = dlsym(self, "blas_memory_alloc");
		*(void **)(&bfree) = dlsym(self, "blas_memory_free");
		*(void **)(&bthreads) = dlsym(self, "openblas_get_num_threads");
		dlclose(self);
	}
	if (balloc == NULL || bfree == NULL)
		balloc = NULL;
	/* OpenBLAS's own threads map a buffer each as they start, maybe not
	 * yet done: count them too. */
	if (balloc != NULL && bthreads != NULL)
		workers = bthreads() - 1;
	if (workers < 0 || workers > 63)
		workers = workers < 0 ? 0 : 63;
#ifdef _OPENMP
	threads = omp_get_max_threads();
#endif
	if (threads > 64)
		threads = 64;
	if (threads < 1)
		threads = 1;
	/* One buffer for each thread that may call the BLAS at once. */
	for (;;) {
		nbuf = balloc != NULL ? threads + workers : 0;
		if (room_left(room_needed(threads, stack, nbuf)) || threads == 1)
			break;
		threads /= 2;
	}
	if (!room_left(room_needed(threads, stack, nbuf))) {
		tool_msg("out of memory: the address-space limit (ulimit -v %llu "
			 "KB) leaves less than the %zu MB %s needs to start (raise "
			 "the limit)", (unsigned long long)as.rlim_cur / 1024,
			 room_needed(threads, stack, nbuf) / MIB,
			 balloc ? "the BLAS (OpenBLAS)" : "the program");
		/* Not exit(): an OpenBLAS thread stuck retrying its own buffer
		 * would make the library's exit handler wait forever. */
		_exit(EXIT_FAILURE);
	}
#ifdef _OPENMP
	omp_set_num_threads(threads);
	/* Creates the thread pool now.  The region must do something the
	 * compiler cannot remove: an empty one is dropped at -O2, and the
	 * threads would then start at the first real parallel region, where
	 * a failure is libgomp's own unprefixed message. */
	started = 0;
#pragma omp parallel
	{
#pragma omp atomic
		started++;
	}
#endif
	/* Mapped now, freed into OpenBLAS's pool: later calls reuse them. */
	for (i = 0; i < nbuf; i++)
		bufs[i] = balloc(0);
	for (i = 0; i < nbuf; i++)
		bfree(bufs[i]);
}

void tool_init(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');
	int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
	size_t i;

	tool_name = slash ? slash + 1 : argv0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < sizeof sigs / sizeof *sigs; i++) {
		struct sigaction sa, old;
		/* A signal the caller ignores stays ignored: nohup ignores
		 * HUP, a shell ignores INT and QUIT in background jobs; a
		 * handler would let them kill the program after all. */
		if (sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(sigs[i], &sa, NULL);
	}
	/* Past a file size limit (ulimit -f) a write fails with EFBIG, a
	 * write error like a full disk, instead of killing the program with
	 * its temporary file left behind. */
	signal(SIGXFSZ, SIG_IGN);
	atexit(abort_outputs);
	reserve_for_limit();
}

int tool_done(void)
{
	/* Results printed on stdout (accuracy, the -v table, -h) sit in its
	 * buffer until exit, and exit() reports no error: flush and check
	 * here, or a full disk or a closed pipe would lose them silently. */
	if (fflush(stdout) != 0)
		tool_die(1, "standard output: write error: %s", strerror(errno));
	if (ferror(stdout))
		tool_die(1, "standard output: write error");
	return 0;
}

/*
 * One line on stderr, "prog: " first if named, made safe (lsv_text_safe):
 * every message passes here, and what messages echo is input -- file
 * names, option values, the program's own name, and the library's
 * messages (already safe: a safe text is its own safe copy).  Written
 * with one call, so lines of threads do not interleave.  Out of memory
 * (the message may say so), the line is cut to buffers on the stack.
 */
static void vline(int named, const char *fmt, va_list ap)
{
	char raw[1024], safe[1024], *line = NULL, *shown = NULL;
	size_t head = named ? strlen(tool_name) + 2 : 0, need;
	va_list aq;
	int len;

	if (tool_silent)
		return;

	va_copy(aq, ap);
	len = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (len >= 0)
		line = malloc(head + (size_t)len + 1);
	if (line != NULL) {
		if (named)
			sprintf(line, "%s: ", tool_name);
		vsnprintf(line + head, (size_t)len + 1, fmt, ap);
	} else {
		line = raw;
		if (named)
			snprintf(raw, sizeof raw, "%s: ", tool_name);
		else
			raw[0] = '\0';
		head = strlen(raw);
		if (vsnprintf(raw + head, sizeof raw - head, fmt, ap) >=
		    (int)(sizeof raw - head))
			memcpy(raw + sizeof raw - 4, "...", 4);
	}
	need = lsv_text_safe(NULL, 0, line) + 1;
	if (line != raw)
		shown = malloc(need);
	if (shown != NULL)
		lsv_text_safe(shown, need, line);
	else
		lsv_text_safe(safe, sizeof safe, line);
	fprintf(stderr, "%s\n", shown != NULL ? shown : safe);
	free(shown);
	if (line != raw)
		free(line);
}

static void vmsg(const char *fmt, va_list ap)
{
	vline(1, fmt, ap);
}

/* A line without the program's name first, made safe as vmsg's are. */
static void line_unnamed(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vline(0, fmt, ap);
	va_end(ap);
}

void tool_msg(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void tool_info(const char *fmt, ...)
{
	va_list ap;
	if (tool_quiet)
		return;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void tool_scale_warning(const lsv_data *x)
{
	lsv_feature_spread s;
	lsv_error err;

	if (tool_quiet || lsv_data_feature_spread(x, &s, &err) != LSV_OK)
		return;  /* a hint: no room for it is no failure */
	if (s.varying >= 2 && s.share > 0.5 && s.std_ratio > 5.0)
		tool_info("warning: feature %zu holds %.0f%% of the rows' "
			  "variance (its standard deviation is %.3g times the "
			  "%s), so Euclidean distances (the RBF "
			  "kernel, the kNN graph) see little else: if the features "
			  "are in different units, scale them first (e.g. "
			  "svm-scale, Debian's libsvm-tools)", s.feature,
			  100.0 * s.share, s.std_ratio,
			  s.varying == 2 ? "other feature's" : "median feature's");
}

void tool_die(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	exit(code);
}

void tool_die_err(const lsv_error *err)
{
	tool_die(EXIT_FAILURE, "%s", err->msg);
}

size_t tool_data_line(const char *path, size_t row)
{
	struct stat sb;
	FILE *fp;
	char *buf = NULL;
	size_t cap = 0, line = 0, rows = 0;

	/* read again: only a regular file gives the same lines twice */
	if (row == 0 || strcmp(path, "-") == 0 || stat(path, &sb) != 0 ||
	    !S_ISREG(sb.st_mode) || (fp = fopen(path, "r")) == NULL)
		return 0;
	while (rows < row && getline(&buf, &cap, fp) != -1) {
		line++;
		if (buf[strspn(buf, " \t")] != '#')  /* a comment is no row */
			rows++;
	}
	free(buf);
	fclose(fp);
	return rows == row ? line : 0;
}

void tool_die_row(const char *path, size_t row, const char *fmt, ...)
{
	const char *name = strcmp(path, "-") ? path : "(stdin)";
	size_t line = tool_data_line(path, row);
	char what[LSV_ERRMSG_MAX + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (line > 0)
		tool_die(EXIT_FAILURE, "%s:%zu: %s", name, line, what);
	tool_die(EXIT_FAILURE, "%s: row %zu: %s", name, row, what);
}

void tool_die_data_err(const char *path, size_t before, const lsv_error *err)
{
	const char *what = lsv_error_row_text(err);

	if (what != NULL && err->row > before)
		tool_die_row(path, err->row - before, "%s", what);
	tool_die_err(err);
}

void tool_die_graph_err(const char *path, const lsv_error *err)
{
	if (lsv_error_row_text(err) == NULL && err->status == LSV_EINVAL)
		tool_die(EXIT_FAILURE, "%s: %s",
			 strcmp(path, "-") ? path : "(stdin)", err->msg);
	tool_die_data_err(path, 0, err);
}

void tool_usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	line_unnamed("Try '%s -h' for more information.", tool_name);
	exit(EXIT_USAGE);
}

void tool_option_error(int c)
{
	if (c == ':')
		tool_usage_error("option -%c needs a value", optopt);
	tool_usage_error("unknown option -%c", optopt);
}

void tool_help(void (*usage)(void))
{
	usage();
	exit(tool_done());
}

const char *tool_why(const lsv_error *e)
{
	return e->why == LSV_WHY_NONFINITE ? "is not finite"
	       : e->why == LSV_WHY_RANGE ? "is out of range"
	       : "is not a number";
}

double tool_opt_double(int opt, const char *arg, double min, double max)
{
	lsv_error err;
	double v;

	if (lsv_parse_double(arg, &v, &err) != LSV_OK)
		tool_usage_error("option -%c: '%s' %s (expected a number in "
				 "[%g, %g])", opt, arg, tool_why(&err), min, max);
	if (v < min || v > max)
		tool_usage_error("option -%c: '%s' out of range (expected a number "
				 "in [%g, %g])", opt, arg, min, max);
	return v;
}

long tool_opt_long(int opt, const char *arg, long min, long max)
{
	lsv_error err;
	long v;

	if (lsv_parse_long(arg, min, max, &v, &err) != LSV_OK)
		tool_usage_error("option -%c: '%s' %s (expected an integer in "
				 "%ld..%ld)", opt, arg,
				 err.why == LSV_WHY_RANGE ? "out of range"
				 : "is not an integer",
				 min, max);
	return v;
}

FILE *tool_output_open(const char *path)
{
	lsv_error err;
	lsv_out *o;
	size_t i, k = nouts;

	if (k == TOOL_MAX_OUTPUTS)
		tool_die(EXIT_FAILURE, "%s: too many outputs in one run (at most %d)",
			 path, TOOL_MAX_OUTPUTS);
	/* Signals are not held here: opening a FIFO waits for its reader,
	 * and ^C must still work then. */
	if (lsv_out_open(path, &o, &err) != LSV_OK)
		tool_die_err(&err);
	free(names[k]);
	names[k] = NULL;
	if (lsv_out_tmpname(o) != NULL &&
	    (names[k] = strdup(lsv_out_tmpname(o))) == NULL) {
		lsv_out_abort(o);
		tool_die(EXIT_FAILURE, "out of memory");
	}
	outs[k] = o;
	given[k] = path;
	tmpnames[k] = names[k];
	nouts = k + 1;
	/* Two temporary files renamed onto one name: the first is lost. */
	for (i = 0; i < k; i++) {
		if (!lsv_out_same(outs[i], o))
			continue;
		if (strcmp(path, "-") == 0)
			tool_usage_error("standard output ('-') is named for two "
					 "outputs: each output of a run needs its "
					 "own file");
		if (strcmp(given[i], path) == 0)
			tool_usage_error("'%s' is named for two outputs: each "
					 "output of a run needs its own file", path);
		tool_usage_error("'%s' and '%s' are the same file: each output "
				 "of a run needs its own", given[i], path);
	}
	return lsv_out_file(o);
}

void tool_check_input(const char *path)
{
	size_t i;

	for (i = 0; i < nouts; i++)
		if (lsv_out_replaces(outs[i], path)) {
			if (strcmp(given[i], path) == 0)
				tool_usage_error("'%s' is both an input and an output: "
						 "the output would replace it (give the "
						 "output another name)", path);
			tool_usage_error("the output '%s' is the input '%s': it would "
					 "replace it (give the output another name)",
					 given[i], path);
		}
}

int tool_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return strcmp(a, "-") != 0 && strcmp(b, "-") != 0 &&
	       stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int tool_regular_file(const char *path)
{
	struct stat sb;
	return strcmp(path, "-") != 0 && stat(path, &sb) == 0 &&
	       S_ISREG(sb.st_mode);
}

/* The rename of output failed (its file not changed): say which outputs
 * this run replaced already and which not, exit 1.  Only a directory
 * changed under the program (removed, renamed, made read-only) gets
 * here. */
static void commit_failed(size_t failed, const lsv_error *err)
{
	size_t i, n, len;
	char *text = NULL;
	FILE *m = open_memstream(&text, &len);

	/* one message, through tool_msg: the names are input, quoted there */
	if (m != NULL) {
		fputs(err->msg, m);
		for (i = 0, n = 0; i < failed; i++)
			if (names[i] != NULL)
				fprintf(m, "%s%s", n++ ? ", " : "; replaced: ",
					given[i]);
		for (i = failed + 1, n = 0; i < nouts; i++)
			if (names[i] != NULL)
				fprintf(m, "%s%s", n++ ? ", " : "; not replaced: ",
					given[i]);
		if (fclose(m) != 0) {
			free(text);
			text = NULL;
		}
	}
	tool_msg("%s", text != NULL ? text : err->msg);
	free(text);
	for (i = failed + 1; i < nouts; i++) {
		tmpnames[i] = NULL;
		lsv_out_abort(outs[i]);
		outs[i] = NULL;
	}
	nouts = 0;
	release_signals();
	exit(EXIT_FAILURE);
}

void tool_outputs_commit(void)
{
	lsv_error err;
	size_t i, files = 0;

	for (i = 0; i < nouts; i++)
		files += names[i] != NULL;
	/* Every output complete (a full disk shows here) before any is
	 * renamed: a failure then replaces nothing; exit aborts them all. */
	for (i = 0; i < nouts; i++)
		if (lsv_out_close(outs[i], &err) != LSV_OK)
			tool_die(EXIT_FAILURE, "%s%s", err.msg,
				 files == 0 ? ""
				 : files == 1 && names[i] != NULL
				 ? " (file not changed)"
				 : " (no output file replaced)");
	busy = 1;
	for (i = 0; i < nouts; i++) {
		lsv_out *o = outs[i];
		outs[i] = NULL;
		tmpnames[i] = NULL;
		if (lsv_out_commit(o, &err) != LSV_OK)  /* only renames now */
			commit_failed(i, &err);
	}
	nouts = 0;
	release_signals();
}

void tool_progress(void *ctx, size_t done, size_t total)
{
	static double last, start;
	double t = tool_elapsed();
	(void)ctx;

	if (done == 0) {  /* a phase starts: its rate is measured from here */
		start = t;
		return;
	}
	if (tool_quiet || t < 3.0 || (t - last < 1.0 && done < total))
		return;
	last = t;
	tool_msg("%zu/%zu rows (%.0f%%), %.1f s, about %.0f s left", done, total,
		 100.0 * (double)done / (double)total, t,
		 (t - start) * (double)(total - done) / (double)done);
}

/* ------------------------------------------------------------ MPI ranks */

lsv_comm *tool_comm;
int tool_nproc = 1;
int tool_rank;
static int solo;  /* rank 0 in a phase the other ranks wait at */

static void comm_exit(void)
{
	lsv_error err;
	if (tool_comm == NULL)
		return;
	/* Outputs not committed go first, before MPI_Finalize (which waits
	 * for every rank): once another rank has left, mpirun may kill this
	 * one before the atexit handler registered earlier would run. */
	abort_outputs();
	if (solo) {
		/* rank 0 is dying (its message is out): the others must too */
		solo = 0;
		lsv_fail(&err, LSV_EIO, "rank 0 failed");
		lsv_comm_agree(tool_comm, LSV_EIO, &err);
	}
	lsv_comm_end(tool_comm);
	tool_comm = NULL;
}

void tool_comm_start(int *argc, char ***argv)
{
	lsv_error err;

	if (!lsv_comm_mpi())
		return;
	if (lsv_comm_init(argc, argv, &tool_comm, &err) != LSV_OK)
		tool_die_err(&err);
	atexit(comm_exit);
	tool_nproc = lsv_comm_size(tool_comm);
	tool_rank = lsv_comm_rank(tool_comm);
	tool_silent = tool_rank != 0;
}

void tool_one_process(int *argc, char ***argv)
{
	tool_comm_start(argc, argv);
	if (tool_nproc > 1)
		tool_usage_error("not distributed: run it on one process "
				 "(without mpirun, or -np 1): under mpirun each of "
				 "the %d ranks would write the whole output",
				 tool_nproc);
}

int tool_rank0_begin(void)
{
	solo = tool_nproc > 1 && tool_rank == 0;
	return tool_rank == 0;
}

void tool_rank0_end(void)
{
	lsv_error err;
	if (tool_nproc == 1)
		return;
	solo = 0;
	if (lsv_comm_agree(tool_comm, LSV_OK, &err) != LSV_OK) {
		if (tool_rank == 0)
			tool_die_err(&err);
		exit(EXIT_FAILURE);
	}
}

double *tool_rank_values(double a, double b)
{
	double *v = calloc(3 * (size_t)tool_nproc, sizeof *v);
	lsv_error err;

	if (v == NULL)
		tool_die(1, "out of memory");
	v[3 * tool_rank] = (double)lsv_comm_sent(tool_comm);
	v[3 * tool_rank + 1] = a;
	v[3 * tool_rank + 2] = b;
	if (lsv_comm_allreduce_double(tool_comm, v, 3 * (size_t)tool_nproc,
				      LSV_COMM_SUM, &err) != LSV_OK)
		tool_die_err(&err);
	return v;
}
