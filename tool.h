/*
 * tool.h -- what the command-line programs share and the library must not
 * do: messages on stderr, exit codes, strict option values, progress, and
 * outputs committed together, their temporary files removed on any
 * failure or signal.
 *
 * Exit codes: 0 success, 1 failure (bad input, I/O, numerics), 2 usage.
 */
#ifndef LSV_TOOL_H
#define LSV_TOOL_H

#include <stddef.h>

#include "lapsvm.h"

#define EXIT_USAGE 2

extern const char *tool_name;  /* program name used in messages */
extern int tool_quiet;         /* -q: no progress, summaries or warnings */
/* 0 in a program that calls no BLAS and runs no threads (set before
 * tool_init): no memory is set aside for them under ulimit -v. */
extern int tool_uses_blas;

/* 1 on the ranks other than 0 of an MPI run: they print nothing (rank 0
 * speaks for all; their failures reach it by lsv_comm_agree). */
extern int tool_silent;

/* Program name, signal handlers (not for signals ignored at start: nohup,
 * background jobs); under an address-space limit, sets the threads and
 * BLAS buffers up front (exit 1 with a message if no room). */
void tool_init(const char *argv0);

/* "prog: message" on stderr, one line made safe by lsv_text_safe (a file
 * name, an option value or the program's name is input: control bytes
 * and the like are quoted); so are all the messages below. */
void tool_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Same unless quiet. */
void tool_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Unless quiet, a warning when one feature of x holds over half the
 * rows' variance with a standard deviation over 5 times the median
 * feature's, among 3 or more varying features (lsv_data_feature_spread):
 * Euclidean distances, hence the RBF kernel and the kNN graph, then see
 * that feature alone, the mark of unscaled features in different units.
 * x must hold all the rows (not a rank's block). */
void tool_scale_warning(const lsv_data *x);
/* "prog: message", then exit with code. */
void tool_die(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
/* "prog: <err->msg>", exit 1. */
void tool_die_err(const lsv_error *err) __attribute__((noreturn));
/* A library call failed on the data read from path ("-": standard input),
 * whose rows are the rows before + 1, before + 2, ... of the data the call
 * saw (0 unless files were joined): tool_die_row when the failure is one
 * of its rows' (err->row), else "prog: <err->msg>"; exit 1. */
void tool_die_data_err(const char *path, size_t before, const lsv_error *err)
	__attribute__((noreturn));
/* The line of the data file path that holds its row'th row (from 1),
 * counted as the data reader counts (a line whose first non-blank
 * character is '#' is a comment, no row); 0 when path cannot be read a
 * second time (standard input, a pipe) or has fewer rows. */
size_t tool_data_line(const char *path, size_t row);

/* A failure of data row `row` of path: "prog: FILE:LINE: <what>", or
 * "prog: FILE: row N: <what>" when the line cannot be found again
 * (tool_data_line); exit 1. */
void tool_die_row(const char *path, size_t row, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));

/* lsv_graph_build or lsv_knn_lists failed on the data of path, with
 * parameters lsv_graph_param_check accepts: as tool_die_data_err(path, 0,
 * err), and "prog: FILE: <err->msg>" when the data were refused for no one
 * row (LSV_EINVAL). */
void tool_die_graph_err(const char *path, const lsv_error *err)
	__attribute__((noreturn));
/* "prog: message" and "Try 'prog -h'", exit 2. */
void tool_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/* getopt returned ':' (an option without its value) or '?' (an unknown
 * option; optopt names it): a usage error, exit 2. */
void tool_option_error(int c) __attribute__((noreturn));

/* -h: usage() prints the program's help on standard output; then exit 0,
 * or 1 if standard output could not take it (tool_done). */
void tool_help(void (*usage)(void)) __attribute__((noreturn));

/* Option values, parsed strictly; a bad one is a usage error naming the
 * option, the value and the accepted range. */
double tool_opt_double(int opt, const char *arg, double min, double max);
/* Why lsv_parse_double refused a number, for an option's message: "is not
 * finite", "is out of range" or "is not a number". */
const char *tool_why(const lsv_error *e);
long tool_opt_long(int opt, const char *arg, long min, long max);

/* At the end of main, "return tool_done();": flushes standard output and
 * checks it; a write error there (results lost) is "prog: standard
 * output: write error", exit 1.  Returns 0. */
int tool_done(void);

/*
 * Outputs.  All the outputs of a run are opened before its work (so a bad
 * destination fails at once) and committed together at its end: each is
 * written to a temporary file (lsv_out) and no destination is replaced
 * until every one is complete.  Until then a signal (INT, TERM, HUP, PIPE)
 * or any exit (tool_die, a usage error) removes every temporary file.
 *
 * tool_output_open: lsv_out_open, dying with its message (exit 1) if it
 * fails; the name "-" is standard output.  Two outputs of the run that
 * would end in one place (lsv_out_same) are a usage error.  At most
 * TOOL_MAX_OUTPUTS are open at once.
 *
 * tool_outputs_commit: completes every open output (flush, fsync), then,
 * if all succeeded, renames each into place.  A failure is one message
 * naming the file, exit 1; a write error replaces no file.  A rename can
 * fail only if a directory changes under the program: the message then
 * also lists the outputs already replaced and those not.
 */
#define TOOL_MAX_OUTPUTS 256
FILE *tool_output_open(const char *path);
void tool_outputs_commit(void);

/* path is an input of the run: a usage error if one of the outputs opened
 * so far would replace it ("lapsvm-train data data" would leave a model
 * where the data were).  Call it after opening the outputs. */
void tool_check_input(const char *path);

/* Are a and b names of the same existing file (neither "-")? */
int tool_same_file(const char *a, const char *b);

/* Can every rank of mpirun read its own part of path? (a regular file,
 * not "-": a pipe or standard input is read by rank 0 alone) */
int tool_regular_file(const char *path);

/* Progress callback for the library: quiet for the first 3 seconds, then
 * at most one line a second with rows done, rate and time left.  A call
 * with done = 0 starts a phase (prints nothing): the time left is
 * estimated from the rate since then. */
void tool_progress(void *ctx, size_t done, size_t total);

/* Seconds since tool_init. */
double tool_elapsed(void);

/*
 * Under mpirun (the MPI build, P > 1 ranks): every rank parses the same
 * options; rank 0 alone opens the outputs and reads the inputs in a phase
 * of its own, bracketed by tool_rank0_begin/tool_rank0_end, while the
 * other ranks wait at an agreement (lsv_comm_agree).  Every exit passes an
 * atexit handler: if rank 0 dies inside its phase (its message is out), it
 * first tells the waiting ranks, so none hangs; then every rank finalizes
 * MPI.  Only rank 0 prints (tool_silent elsewhere).
 */
extern lsv_comm *tool_comm;  /* NULL unless tool_comm_start made one */
extern int tool_nproc;       /* ranks (1 without MPI) */
extern int tool_rank;        /* this rank (0 without MPI) */

/* The MPI build: MPI initialized, the exit handler set, tool_nproc and
 * tool_rank known (exit 1 with a message if MPI fails).  Nothing in the
 * plain build. */
void tool_comm_start(int *argc, char ***argv);
/* A tool that is not distributed (lapsvm-predict, lapsvm-pca,
 * lapsvm-datagen): under mpirun with P > 1 ranks a usage error (exit 2,
 * said once), so that P copies never write the same output. */
void tool_one_process(int *argc, char ***argv);
/* Rank 0 starts a phase of its own: 1 on rank 0, 0 elsewhere. */
int tool_rank0_begin(void);
/* The phase's end: rank 0 says it went well; the other ranks exit 1
 * silently if it failed (rank 0 has said why).  Nothing on one rank. */
void tool_rank0_end(void);
/* Every rank's bytes sent and two numbers of its own (a, b), as 3 P
 * values (rank r: sent, a, b at 3 r), owned by the caller; collective. */
double *tool_rank_values(double a, double b);

#endif
