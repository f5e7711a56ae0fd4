/*
 * fsync-gate.c -- an LD_PRELOAD shim for tests/bats/crash.bats.
 *
 * With LAPSVM_TEST_FSYNC_GATE=PATH in the environment, fsync() waits until
 * the file PATH exists before doing its work.  A tool commits an output by
 * writing its temporary file, fsync'ing it and renaming it over the
 * destination, so a tool held here has its whole output written to the
 * temporary file but not yet renamed: the moment a kill or a signal is the
 * most likely to leave a stray file or a damaged destination.  The test
 * kills it there, or opens the gate for several tools at once.
 *
 *     cc -shared -fPIC -o fsync-gate.so fsync-gate.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int fsync(int fd)
{
	static int (*real)(int);
	const char *gate = getenv("LAPSVM_TEST_FSYNC_GATE");

	if (gate != NULL) {
		const struct timespec ms = {0, 1000000};
		while (access(gate, F_OK) != 0)
			nanosleep(&ms, NULL);
	}
	if (real == NULL)
		*(void **)(&real) = dlsym(RTLD_NEXT, "fsync");
	return real(fd);
}
