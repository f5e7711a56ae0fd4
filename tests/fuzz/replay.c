/*
 * replay.c -- runs a fuzz harness's LLVMFuzzerTestOneInput on files, so
 * the seed corpora and the regression inputs are exercised by `make test`
 * with any C compiler, without libFuzzer.
 *
 *     fuzz-data [-v] FILE|DIR ...
 *
 * A directory stands for the regular files in it (not recursively, in
 * name order, dot files skipped).  A failing invariant aborts, naming the
 * input (a sanitizer's report does not: -v names each input as it starts);
 * otherwise prints "NAME: N inputs" and exits 0.  An argument that cannot
 * be read is an error (exit 2).
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *current;  /* the input being run */
static int verbose;

static void on_abort(int sig)
{
	static const char pre[] = "replay: failed on input ";
	(void)sig;
	if (current != NULL) {
		(void)!write(2, pre, sizeof pre - 1);
		(void)!write(2, current, strlen(current));
		(void)!write(2, "\n", 1);
	}
	signal(SIGABRT, SIG_DFL);
	raise(SIGABRT);
}

static int run_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0, got;

	if (fp == NULL) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (len == cap) {
			unsigned char *b;
			cap = cap ? 2 * cap : 4096;
			b = realloc(buf, cap);
			if (b == NULL) {
				fprintf(stderr, "replay: %s: out of memory\n", path);
				free(buf);
				fclose(fp);
				return -1;
			}
			buf = b;
		}
		got = fread(buf + len, 1, cap - len, fp);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(fp)) {
		fprintf(stderr, "replay: %s: read error\n", path);
		free(buf);
		fclose(fp);
		return -1;
	}
	fclose(fp);
	/* An exact-size copy, so AddressSanitizer sees reads past the end. */
	{
		unsigned char *exact = malloc(len ? len : 1);
		if (exact == NULL) {
			free(buf);
			return -1;
		}
		memcpy(exact, buf, len);
		free(buf);
		if (verbose)
			fprintf(stderr, "%s\n", path);
		current = path;
		LLVMFuzzerTestOneInput(exact, len);
		current = NULL;
		free(exact);
	}
	return 0;
}

static int select_entry(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* The regular files of a directory; returns the count or -1. */
static long run_dir(const char *dir)
{
	struct dirent **list;
	long count = 0;
	int n, i, bad = 0;

	n = scandir(dir, &list, select_entry, alphasort);
	if (n < 0) {
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++) {
		char *path = malloc(strlen(dir) + strlen(list[i]->d_name) + 2);
		struct stat st;
		if (path == NULL) {
			bad = 1;
		} else {
			sprintf(path, "%s/%s", dir, list[i]->d_name);
			if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
				if (run_file(path) == 0)
					count++;
				else
					bad = 1;
			}
		}
		free(path);
		free(list[i]);
	}
	free(list);
	return bad ? -1 : count;
}

int main(int argc, char **argv)
{
	const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	long total = 0;
	int i, bad = 0;

	signal(SIGABRT, on_abort);
	for (i = 1; i < argc; i++) {
		struct stat st;
		if (strcmp(argv[i], "-v") == 0) {
			verbose = 1;
			continue;
		}
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
			bad = 1;
		} else if (S_ISDIR(st.st_mode)) {
			long n = run_dir(argv[i]);
			if (n < 0)
				bad = 1;
			else
				total += n;
		} else if (run_file(argv[i]) == 0) {
			total++;
		} else {
			bad = 1;
		}
	}
	printf("%s: %ld inputs\n", prog, total);
	return bad ? 2 : 0;
}
