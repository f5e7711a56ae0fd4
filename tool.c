/*
 * tool.c -- messages, exit codes, option values, signals and progress for
 * the command-line programs (see tool.h).  In the spirit of sbase's
 * eprintf/strtonum: every message starts with the program's name, and a
 * bad option value says which option, what was given and what is allowed.
 */
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tool.h"

const char *tool_name = "lapsvm";
int tool_quiet = 0;

static struct timespec t0;
static const char *volatile tracked;

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

static void on_signal(int sig)
{
	/* Only async-signal-safe calls: unlink, then die by the same signal
	 * so the parent sees how the program ended. */
	if (tracked != NULL)
		unlink(tracked);
	signal(sig, SIG_DFL);
	raise(sig);
}

void tool_init(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');
	int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
	size_t i;

	tool_name = slash ? slash + 1 : argv0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < sizeof sigs / sizeof *sigs; i++) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(sigs[i], &sa, NULL);
	}
}

void tool_track(const char *tmpname)
{
	tracked = tmpname;
}

static void vmsg(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", tool_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
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

void tool_usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '%s -h' for more information.\n", tool_name);
	exit(EXIT_USAGE);
}

void tool_option_error(int c)
{
	if (c == ':')
		tool_usage_error("option -%c needs a value", optopt);
	tool_usage_error("unknown option -%c", optopt);
}

double tool_opt_double(int opt, const char *arg, double min, double max)
{
	lsv_error err;
	double v;

	if (lsv_parse_double(arg, &v, &err) != LSV_OK)
		tool_usage_error("option -%c: '%s' %s (expected a number in "
				 "[%g, %g])", opt, arg,
				 strcmp(err.msg, "not finite") == 0 ? "is not finite"
				 : strcmp(err.msg, "not a number") == 0 ||
				   strcmp(err.msg, "empty number") == 0
					 ? "is not a number" : "is out of range",
				 min, max);
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
				 strncmp(err.msg, "out of range", 12) == 0
					 ? "out of range" : "is not an integer",
				 min, max);
	return v;
}

FILE *tool_output_open(const char *path, lsv_out **out)
{
	lsv_error err;

	if (lsv_out_open(path, out, &err) != LSV_OK)
		tool_die_err(&err);
	tool_track(lsv_out_tmpname(*out));
	return lsv_out_file(*out);
}

void tool_output_commit(lsv_out *out)
{
	lsv_error err;
	lsv_status st = lsv_out_commit(out, &err);

	tool_track(NULL);
	if (st != LSV_OK)
		tool_die_err(&err);
}

void tool_output_fail(lsv_out *out, const lsv_error *err)
{
	lsv_out_abort(out);
	tool_track(NULL);
	tool_die_err(err);
}

void tool_progress(void *ctx, size_t done, size_t total)
{
	static double last;
	double t = tool_elapsed();
	(void)ctx;

	if (tool_quiet || t < 3.0 || (t - last < 1.0 && done < total))
		return;
	last = t;
	fprintf(stderr, "%s: %zu/%zu rows (%.0f%%), %.1f s, about %.0f s left\n",
		tool_name, done, total, 100.0 * (double)done / (double)total, t,
		done ? t * (double)(total - done) / (double)done : 0.0);
}
