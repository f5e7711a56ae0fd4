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
 * A tool opens its temporary files when it starts, so their existence
 * does not say it is held: with LAPSVM_TEST_FSYNC_HELD=PREFIX too, the
 * shim creates the file PREFIX.PID when it starts to wait.
 *
 *     cc -shared -fPIC -o fsync-gate.so fsync-gate.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int fsync(int fd)
{
	static int (*real)(int);
	const char *gate = getenv("LAPSVM_TEST_FSYNC_GATE");
	const char *held = getenv("LAPSVM_TEST_FSYNC_HELD");

	if (gate != NULL) {
		const struct timespec ms = {0, 1000000};
		if (held != NULL && access(gate, F_OK) != 0) {
			char name[4096];
			int hfd;
			snprintf(name, sizeof name, "%s.%ld", held, (long)getpid());
			if ((hfd = open(name, O_WRONLY | O_CREAT, 0644)) >= 0)
				close(hfd);
		}
		while (access(gate, F_OK) != 0)
			nanosleep(&ms, NULL);
	}
	if (real == NULL)
		*(void **)(&real) = dlsym(RTLD_NEXT, "fsync");
	return real(fd);
}
