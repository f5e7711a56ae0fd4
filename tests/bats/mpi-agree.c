/*
 * mpi-agree.c -- lsv_comm_agree with err NULL on the rank that fails
 * (lapsvm.h allows a NULL err; lsv_fail then writes no message), built
 * with mpicc against the MPI build's library by mpi.bats and run on two
 * ranks.  Rank 0 fails with LSV_EIO and no lsv_error; rank 1 succeeds and
 * prints what the agreement gave it: "STATUS ROW MSG".  The stack is
 * dirtied first, so a message sent without being set shows as the
 * 'X's it held.
 */
#include <stdio.h>
#include <string.h>

#include "lapsvm.h"

/* Fills stack that lsv_comm_agree's frame will reuse. */
static void dirty_stack(void)
{
	volatile char junk[16384];
	size_t i;

	for (i = 0; i < sizeof junk; i++)
		junk[i] = 'X';
}

int main(int argc, char **argv)
{
	lsv_comm *c = NULL;
	lsv_error e;
	lsv_status st;

	if (lsv_comm_init(&argc, &argv, &c, &e) != LSV_OK) {
		fprintf(stderr, "mpi-agree: %s\n", e.msg);
		return 1;
	}
	if (lsv_comm_size(c) != 2) {
		fprintf(stderr, "mpi-agree: run it on 2 ranks\n");
		lsv_comm_end(c);
		return 2;
	}
	dirty_stack();
	if (lsv_comm_rank(c) == 0) {
		st = lsv_comm_agree(c, LSV_EIO, NULL);
	} else {
		memset(&e, 0, sizeof e);
		st = lsv_comm_agree(c, LSV_OK, &e);
		printf("%d %zu %s\n", (int)st, e.row, e.msg);
	}
	lsv_comm_end(c);
	return st == LSV_EIO ? 0 : 1;
}
