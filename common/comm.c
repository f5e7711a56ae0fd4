/*
 * comm.c -- the collective operations of the distributed algorithms
 * (see lapsvm.h, "Communication between processes").
 *
 * Two implementations of one interface: with -DLSV_MPI (make MPI=1, built
 * by mpicc) each operation is the MPI call of the same name on a duplicate
 * of MPI_COMM_WORLD whose error handler returns codes (MPI_ERRORS_RETURN),
 * turned into a status and message here; without it, a communicator of
 * one process where every operation is a copy.  The algorithms call only
 * this file, so they are written once and the plain build needs no MPI.
 *
 * Every buffer is bytes (MPI_BYTE): the callers send packed arrays whose
 * layout both ends share (same binary on every rank).  MPI counts and
 * displacements are int, so a message or a gathered total over INT_MAX
 * bytes is refused before any transfer.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#ifdef LSV_MPI
#include <mpi.h>
#endif

#include "internal.h"

struct lsv_comm {
	int rank, size;
	size_t sent;    /* payload bytes handed to MPI for other ranks */
#ifdef LSV_MPI
	MPI_Comm mc;
	int inited;     /* this module called MPI_Init (and will finalize) */
#endif
};

struct lsv_comm_req {
	void *recv;
	size_t bytes;
#ifdef LSV_MPI
	MPI_Request rq[2];
#endif
};

void lsv_comm_block(size_t n, int r, int P, size_t *lo, size_t *nl)
{
	size_t g = (n + 15) / 16, a, b;

	if (P <= 1) {
		*lo = 0;
		*nl = n;
		return;
	}
	a = 16 * (g * (size_t)r / (size_t)P);
	b = 16 * (g * (size_t)(r + 1) / (size_t)P);
	*lo = a < n ? a : n;
	*nl = (b < n ? b : n) - *lo;
}

int lsv_comm_mpi(void)
{
#ifdef LSV_MPI
	return 1;
#else
	return 0;
#endif
}

int lsv_comm_rank(const lsv_comm *c)
{
	return c->rank;
}

int lsv_comm_size(const lsv_comm *c)
{
	return c->size;
}

size_t lsv_comm_sent(const lsv_comm *c)
{
	return c->sent;
}

/* A buffer of bytes (at least 1, so an empty message is not NULL). */
static lsv_status alloc_bytes(void **p, size_t bytes, lsv_error *err)
{
	*p = malloc(bytes ? bytes : 1);
	if (*p == NULL)
		return lsv_fail(err, LSV_ENOMEM,
				"out of memory for a message of %zu bytes", bytes);
	return LSV_OK;
}

static lsv_status too_big(size_t bytes, lsv_error *err)
{
	if (bytes > (size_t)INT_MAX)
		return lsv_fail(err, LSV_ETOOBIG,
				"a message of %zu bytes: MPI counts are limited to "
				"%d bytes (use more ranks)", bytes, INT_MAX);
	return LSV_OK;
}

#ifdef LSV_MPI

/* An MPI return code as a status: "MPI_Allreduce failed: <MPI's text>". */
static lsv_status mpi_check(int rc, const char *what, lsv_error *err)
{
	char text[MPI_MAX_ERROR_STRING];
	int len = 0;

	if (rc == MPI_SUCCESS)
		return LSV_OK;
	if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS)
		strcpy(text, "unknown MPI error");
	return lsv_fail(err, LSV_EIO, "%s failed: %s", what, text);
}

lsv_status lsv_comm_init(int *argc, char ***argv, lsv_comm **out,
			 lsv_error *err)
{
	lsv_comm *c = calloc(1, sizeof *c);
	int flag = 0, provided = 0;

	*out = NULL;
	if (c == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory for the communicator");
	MPI_Initialized(&flag);
	if (!flag) {
		/* only the main thread calls MPI; OpenMP threads compute */
		if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) !=
		    MPI_SUCCESS) {
			free(c);
			return lsv_fail(err, LSV_EIO, "MPI_Init_thread failed");
		}
		c->inited = 1;
	}
	/* MPI_Init's own failures abort under MPI_ERRORS_ARE_FATAL; from
	 * here on every error returns to us */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	if (mpi_check(MPI_Comm_dup(MPI_COMM_WORLD, &c->mc), "MPI_Comm_dup", err)) {
		if (c->inited)
			MPI_Finalize();
		free(c);
		return err ? err->status : LSV_EIO;
	}
	MPI_Comm_rank(c->mc, &c->rank);
	MPI_Comm_size(c->mc, &c->size);
	*out = c;
	return LSV_OK;
}

void lsv_comm_end(lsv_comm *c)
{
	if (c == NULL)
		return;
	MPI_Comm_free(&c->mc);
	if (c->inited)
		MPI_Finalize();
	free(c);
}

lsv_status lsv_comm_allreduce_double(lsv_comm *c, double *v, size_t n,
				     lsv_comm_op op, lsv_error *err)
{
	lsv_status st;
	if ((st = too_big(n * sizeof *v, err)) != LSV_OK)
		return st;
	c->sent += c->size > 1 ? n * sizeof *v : 0;
	return mpi_check(MPI_Allreduce(MPI_IN_PLACE, v, (int)n, MPI_DOUBLE,
				       op == LSV_COMM_SUM ? MPI_SUM : MPI_MAX,
				       c->mc), "MPI_Allreduce", err);
}

lsv_status lsv_comm_allreduce_size(lsv_comm *c, size_t *v, size_t n,
				   lsv_comm_op op, lsv_error *err)
{
	lsv_status st;
	/* size_t is 64 bits on the platforms MPI runs on here */
	if ((st = too_big(n * sizeof *v, err)) != LSV_OK)
		return st;
	c->sent += c->size > 1 ? n * sizeof *v : 0;
	return mpi_check(MPI_Allreduce(MPI_IN_PLACE, v, (int)n,
				       MPI_UNSIGNED_LONG_LONG,
				       op == LSV_COMM_SUM ? MPI_SUM : MPI_MAX,
				       c->mc), "MPI_Allreduce", err);
}

lsv_status lsv_comm_bcast(lsv_comm *c, int root, void *buf, size_t bytes,
			  lsv_error *err)
{
	lsv_status st;
	if ((st = too_big(bytes, err)) != LSV_OK)
		return st;
	if (c->rank == root)
		c->sent += bytes * (size_t)(c->size - 1);
	return mpi_check(MPI_Bcast(buf, (int)bytes, MPI_BYTE, root, c->mc),
			 "MPI_Bcast", err);
}

/* counts (size_t) as int counts and displacements, refusing totals over
 * INT_MAX; *total is their sum. */
static lsv_status int_layout(const lsv_comm *c, const size_t *counts,
			     int *ic, int *id, size_t *total, lsv_error *err)
{
	size_t sum = 0;
	int r;
	for (r = 0; r < c->size; r++) {
		if (counts[r] > (size_t)INT_MAX - sum)
			return too_big((size_t)INT_MAX + 1, err);
		ic[r] = (int)counts[r];
		id[r] = (int)sum;
		sum += counts[r];
	}
	*total = sum;
	return LSV_OK;
}

/* Scratch int arrays of one entry per rank: counts and displacements. */
static lsv_status int_pair(const lsv_comm *c, int **a, int **b, lsv_error *err)
{
	*a = malloc((size_t)c->size * sizeof **a);
	*b = malloc((size_t)c->size * sizeof **b);
	if (*a == NULL || *b == NULL) {
		free(*a);
		free(*b);
		*a = *b = NULL;
		return lsv_fail(err, LSV_ENOMEM, "out of memory for %d ranks",
				c->size);
	}
	return LSV_OK;
}

/* gatherv and allgatherv: every rank's size first, then the bytes. */
/* into: NULL, or the caller's buffer of cap bytes to receive in (no
 * allocation: a solver that gathers a slice at a time keeps one). */
static lsv_status gather_any(lsv_comm *c, int root, const void *send,
			     size_t bytes, void **recv, size_t *counts,
			     void *into, size_t cap, lsv_error *err)
{
	unsigned long long mine = bytes, *all = NULL;
	int *ic = NULL, *id = NULL, r, everyone = root < 0;
	size_t total = 0;
	lsv_status st;

	*recv = NULL;
	st = too_big(bytes, err);
	all = malloc((size_t)c->size * sizeof *all);
	if (all == NULL && st == LSV_OK)
		st = lsv_fail(err, LSV_ENOMEM, "out of memory for %d ranks", c->size);
	/* a rank that cannot take part must not leave the others waiting */
	if ((st = lsv_comm_agree(c, st, err)) != LSV_OK) {
		free(all);
		return st;
	}
	st = mpi_check(MPI_Allgather(&mine, 1, MPI_UNSIGNED_LONG_LONG, all, 1,
				     MPI_UNSIGNED_LONG_LONG, c->mc),
		       "MPI_Allgather", err);
	if (st == LSV_OK && (everyone || c->rank == root)) {
		for (r = 0; r < c->size; r++)
			counts[r] = (size_t)all[r];
		st = int_pair(c, &ic, &id, err);
		if (st == LSV_OK)
			st = int_layout(c, counts, ic, id, &total, err);
		if (st == LSV_OK && into != NULL && total > cap)
			st = lsv_fail(err, LSV_EINVAL, "gathering %zu bytes into "
				      "a buffer of %zu", total, cap);
		else if (st == LSV_OK && into != NULL)
			*recv = into;
		else if (st == LSV_OK)
			st = alloc_bytes(recv, total, err);
	}
	/* a failure above is local to a rank: the others would wait for it,
	 * so every rank learns it before the transfer */
	st = lsv_comm_agree(c, st, err);
	if (st == LSV_OK) {
		c->sent += (everyone ? (size_t)(c->size - 1) : c->rank != root) * bytes;
		if (everyone)
			st = mpi_check(MPI_Allgatherv(send, (int)bytes, MPI_BYTE,
						      *recv, ic, id, MPI_BYTE, c->mc),
				       "MPI_Allgatherv", err);
		else
			st = mpi_check(MPI_Gatherv(send, (int)bytes, MPI_BYTE, *recv,
						   ic, id, MPI_BYTE, root, c->mc),
				       "MPI_Gatherv", err);
	}
	if (st != LSV_OK) {
		if (into == NULL)
			free(*recv);
		*recv = NULL;
	}
	free(all);
	free(ic);
	free(id);
	return st;
}

lsv_status lsv_comm_gatherv(lsv_comm *c, int root, const void *send,
			    size_t bytes, void **recv, size_t *counts,
			    lsv_error *err)
{
	return gather_any(c, root, send, bytes, recv, counts, NULL, 0, err);
}

lsv_status lsv_comm_allgatherv(lsv_comm *c, const void *send, size_t bytes,
			       void **recv, size_t *counts, lsv_error *err)
{
	return gather_any(c, -1, send, bytes, recv, counts, NULL, 0, err);
}

lsv_status lsv_comm_allgatherv_into(lsv_comm *c, const void *send,
				    size_t bytes, void *recv, size_t cap,
				    size_t *counts, lsv_error *err)
{
	void *got;
	return gather_any(c, -1, send, bytes, &got, counts, recv, cap, err);
}

lsv_status lsv_comm_allgatherv_placed(lsv_comm *c, void *buf,
				      const size_t *counts, lsv_error *err)
{
	int *ic = NULL, *id = NULL;
	size_t total;
	lsv_status st = int_pair(c, &ic, &id, err);

	if (st == LSV_OK)
		st = int_layout(c, counts, ic, id, &total, err);
	/* every rank has the same counts, so the same verdict, but the
	 * allocation above is each rank's own */
	if ((st = lsv_comm_agree(c, st, err)) == LSV_OK) {
		c->sent += (size_t)(c->size - 1) * counts[c->rank];
		st = mpi_check(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_BYTE, buf, ic,
					      id, MPI_BYTE, c->mc),
			       "MPI_Allgatherv", err);
	}
	free(ic);
	free(id);
	return st;
}

lsv_status lsv_comm_scatterv(lsv_comm *c, int root, const void *send,
			     const size_t *counts, void **recv, size_t *bytes,
			     lsv_error *err)
{
	unsigned long long *all = NULL, mine = 0;
	int *ic = NULL, *id = NULL, r;
	size_t total = 0;
	lsv_status st = LSV_OK;

	*recv = NULL;
	*bytes = 0;
	all = malloc((size_t)c->size * sizeof *all);
	if (all == NULL)
		st = lsv_fail(err, LSV_ENOMEM, "out of memory for %d ranks", c->size);
	if (st == LSV_OK && c->rank == root) {
		for (r = 0; r < c->size; r++)
			all[r] = counts[r];
		st = int_pair(c, &ic, &id, err);
		if (st == LSV_OK)
			st = int_layout(c, counts, ic, id, &total, err);
	}
	if ((st = lsv_comm_agree(c, st, err)) != LSV_OK)
		goto done;
	st = mpi_check(MPI_Scatter(all, 1, MPI_UNSIGNED_LONG_LONG, &mine, 1,
				   MPI_UNSIGNED_LONG_LONG, root, c->mc),
		       "MPI_Scatter", err);
	if (st == LSV_OK)
		st = alloc_bytes(recv, (size_t)mine, err);
	if ((st = lsv_comm_agree(c, st, err)) != LSV_OK)
		goto done;
	if (c->rank == root)
		c->sent += total - counts[root];
	st = mpi_check(MPI_Scatterv(send, ic, id, MPI_BYTE, *recv, (int)mine,
				    MPI_BYTE, root, c->mc), "MPI_Scatterv", err);
	*bytes = (size_t)mine;
done:
	if (st != LSV_OK) {
		free(*recv);
		*recv = NULL;
		*bytes = 0;
	}
	free(all);
	free(ic);
	free(id);
	return st;
}

lsv_status lsv_comm_alltoallv(lsv_comm *c, const void *send,
			      const size_t *scounts, void **recv,
			      size_t *rcounts, lsv_error *err)
{
	unsigned long long *s64 = NULL, *r64 = NULL;
	int *sc = NULL, *sd = NULL, *rc = NULL, *rd = NULL, r;
	size_t stotal = 0, rtotal = 0;
	lsv_status st;

	*recv = NULL;
	s64 = malloc((size_t)c->size * sizeof *s64);
	r64 = malloc((size_t)c->size * sizeof *r64);
	if (s64 == NULL || r64 == NULL)
		st = lsv_fail(err, LSV_ENOMEM, "out of memory for %d ranks", c->size);
	else
		st = int_pair(c, &sc, &sd, err);
	if (st == LSV_OK)
		st = int_pair(c, &rc, &rd, err);
	if (st == LSV_OK) {
		for (r = 0; r < c->size; r++)
			s64[r] = scounts[r];
		st = int_layout(c, scounts, sc, sd, &stotal, err);
	}
	if ((st = lsv_comm_agree(c, st, err)) == LSV_OK)
		st = mpi_check(MPI_Alltoall(s64, 1, MPI_UNSIGNED_LONG_LONG, r64, 1,
					    MPI_UNSIGNED_LONG_LONG, c->mc),
			       "MPI_Alltoall", err);
	if (st == LSV_OK) {
		for (r = 0; r < c->size; r++)
			rcounts[r] = (size_t)r64[r];
		st = int_layout(c, rcounts, rc, rd, &rtotal, err);
	}
	if (st == LSV_OK)
		st = alloc_bytes(recv, rtotal, err);
	if ((st = lsv_comm_agree(c, st, err)) == LSV_OK) {
		c->sent += stotal - scounts[c->rank];
		st = mpi_check(MPI_Alltoallv(send, sc, sd, MPI_BYTE, *recv, rc, rd,
					     MPI_BYTE, c->mc), "MPI_Alltoallv", err);
	}
	if (st != LSV_OK) {
		free(*recv);
		*recv = NULL;
	}
	free(s64);
	free(r64);
	free(sc);
	free(sd);
	free(rc);
	free(rd);
	return st;
}

lsv_status lsv_comm_shift_start(lsv_comm *c, const void *send, size_t bytes,
				lsv_comm_req **req, lsv_error *err)
{
	int next = (c->rank + 1) % c->size, prev = (c->rank + c->size - 1) % c->size;
	unsigned long long mine = bytes, theirs = 0;
	lsv_comm_req *q = calloc(1, sizeof *q);
	lsv_status st = LSV_OK;

	*req = NULL;
	if (q == NULL)
		st = lsv_fail(err, LSV_ENOMEM, "out of memory for a request");
	if (st == LSV_OK)
		st = too_big(bytes, err);
	/* the sizes first (small, blocking), so the receiver can allocate;
	 * a rank that cannot send must not leave its neighbour waiting */
	if ((st = lsv_comm_agree(c, st, err)) == LSV_OK)
		st = mpi_check(MPI_Sendrecv(&mine, 1, MPI_UNSIGNED_LONG_LONG, next, 1,
					    &theirs, 1, MPI_UNSIGNED_LONG_LONG, prev,
					    1, c->mc, MPI_STATUS_IGNORE),
			       "MPI_Sendrecv", err);
	if (st == LSV_OK)
		st = alloc_bytes(&q->recv, (size_t)theirs, err);
	if ((st = lsv_comm_agree(c, st, err)) != LSV_OK) {
		if (q != NULL)
			free(q->recv);
		free(q);
		return st;
	}
	q->bytes = (size_t)theirs;
	c->sent += bytes;
	st = mpi_check(MPI_Irecv(q->recv, (int)theirs, MPI_BYTE, prev, 2, c->mc,
				 &q->rq[0]), "MPI_Irecv", err);
	if (st == LSV_OK)
		st = mpi_check(MPI_Isend(send, (int)bytes, MPI_BYTE, next, 2, c->mc,
					 &q->rq[1]), "MPI_Isend", err);
	if (st != LSV_OK) {
		free(q->recv);
		free(q);
		return st;
	}
	*req = q;
	return LSV_OK;
}

lsv_status lsv_comm_shift_finish(lsv_comm *c, lsv_comm_req *req,
				 void **recv, size_t *bytes, lsv_error *err)
{
	lsv_status st;
	(void)c;
	st = mpi_check(MPI_Waitall(2, req->rq, MPI_STATUSES_IGNORE),
		       "MPI_Waitall", err);
	*recv = st == LSV_OK ? req->recv : NULL;
	*bytes = st == LSV_OK ? req->bytes : 0;
	if (st != LSV_OK)
		free(req->recv);
	free(req);
	return st;
}

lsv_status lsv_comm_agree(lsv_comm *c, lsv_status st, lsv_error *err)
{
	int mine = st != LSV_OK ? c->rank : c->size, first = c->size;
	struct {
		int status;
		unsigned long long row;  /* err->row, as a fixed-size type */
		char msg[LSV_ERRMSG_MAX];
	} m;
	lsv_error scratch;
	lsv_status rc;

	if (err == NULL) {
		/* no message to send if this rank is the first that failed:
		 * the status's name, as lsv_fail gives when it cannot format */
		memset(&scratch, 0, sizeof scratch);
		strcpy(scratch.msg, lsv_status_name(st));
		err = &scratch;
	}
	rc = mpi_check(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, c->mc),
		       "MPI_Allreduce", err);
	if (rc != LSV_OK)
		return rc;
	if (first == c->size)
		return LSV_OK;
	memset(&m, 0, sizeof m);
	if (c->rank == first) {
		m.status = (int)st;
		m.row = err->row;
		memcpy(m.msg, err->msg, sizeof m.msg);
		c->sent += sizeof m * (size_t)(c->size - 1);
	}
	rc = mpi_check(MPI_Bcast(&m, (int)sizeof m, MPI_BYTE, first, c->mc),
		       "MPI_Bcast", err);
	if (rc != LSV_OK)
		return rc;
	m.msg[sizeof m.msg - 1] = '\0';
	err->status = (lsv_status)m.status;
	err->why = LSV_WHY_NONE;
	err->row = (size_t)m.row;
	memcpy(err->msg, m.msg, sizeof m.msg);
	return (lsv_status)m.status;
}

#else /* serial: one process, every operation a copy */

lsv_status lsv_comm_init(int *argc, char ***argv, lsv_comm **out,
			 lsv_error *err)
{
	(void)argc;
	(void)argv;
	*out = calloc(1, sizeof **out);
	if (*out == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory for the communicator");
	(*out)->size = 1;
	return LSV_OK;
}

void lsv_comm_end(lsv_comm *c)
{
	free(c);
}

lsv_status lsv_comm_allreduce_double(lsv_comm *c, double *v, size_t n,
				     lsv_comm_op op, lsv_error *err)
{
	(void)c;
	(void)v;
	(void)n;
	(void)op;
	(void)err;
	return LSV_OK;
}

lsv_status lsv_comm_allreduce_size(lsv_comm *c, size_t *v, size_t n,
				   lsv_comm_op op, lsv_error *err)
{
	(void)c;
	(void)v;
	(void)n;
	(void)op;
	(void)err;
	return LSV_OK;
}

lsv_status lsv_comm_agree(lsv_comm *c, lsv_status st, lsv_error *err)
{
	(void)c;
	(void)err;
	return st;
}

lsv_status lsv_comm_bcast(lsv_comm *c, int root, void *buf, size_t bytes,
			  lsv_error *err)
{
	(void)c;
	(void)root;
	(void)buf;
	(void)bytes;
	(void)err;
	return LSV_OK;
}

/* A copy of bytes of send into a new *recv. */
static lsv_status copy_out(const void *send, size_t bytes, void **recv,
			   lsv_error *err)
{
	lsv_status st;
	*recv = NULL;
	if ((st = too_big(bytes, err)) != LSV_OK)
		return st;
	if ((st = alloc_bytes(recv, bytes, err)) != LSV_OK)
		return st;
	if (bytes > 0)
		memcpy(*recv, send, bytes);
	return LSV_OK;
}

lsv_status lsv_comm_gatherv(lsv_comm *c, int root, const void *send,
			    size_t bytes, void **recv, size_t *counts,
			    lsv_error *err)
{
	(void)c;
	(void)root;
	counts[0] = bytes;
	return copy_out(send, bytes, recv, err);
}

lsv_status lsv_comm_allgatherv(lsv_comm *c, const void *send, size_t bytes,
			       void **recv, size_t *counts, lsv_error *err)
{
	(void)c;
	counts[0] = bytes;
	return copy_out(send, bytes, recv, err);
}

lsv_status lsv_comm_allgatherv_into(lsv_comm *c, const void *send,
				    size_t bytes, void *recv, size_t cap,
				    size_t *counts, lsv_error *err)
{
	(void)c;
	if (bytes > cap)
		return lsv_fail(err, LSV_EINVAL, "gathering %zu bytes into a "
				"buffer of %zu", bytes, cap);
	counts[0] = bytes;
	if (bytes > 0)
		memcpy(recv, send, bytes);
	return LSV_OK;
}

/* One rank: its bytes are all there are, in place already. */
lsv_status lsv_comm_allgatherv_placed(lsv_comm *c, void *buf,
				      const size_t *counts, lsv_error *err)
{
	(void)c;
	(void)buf;
	(void)counts;
	(void)err;
	return LSV_OK;
}

lsv_status lsv_comm_scatterv(lsv_comm *c, int root, const void *send,
			     const size_t *counts, void **recv, size_t *bytes,
			     lsv_error *err)
{
	lsv_status st;
	(void)c;
	(void)root;
	*bytes = 0;
	if ((st = copy_out(send, counts[0], recv, err)) == LSV_OK)
		*bytes = counts[0];
	return st;
}

lsv_status lsv_comm_alltoallv(lsv_comm *c, const void *send,
			      const size_t *scounts, void **recv,
			      size_t *rcounts, lsv_error *err)
{
	(void)c;
	rcounts[0] = scounts[0];
	return copy_out(send, scounts[0], recv, err);
}

lsv_status lsv_comm_shift_start(lsv_comm *c, const void *send, size_t bytes,
				lsv_comm_req **req, lsv_error *err)
{
	lsv_comm_req *q = calloc(1, sizeof *q);
	lsv_status st;
	(void)c;
	*req = NULL;
	if (q == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory for a request");
	if ((st = copy_out(send, bytes, &q->recv, err)) != LSV_OK) {
		free(q);
		return st;
	}
	q->bytes = bytes;
	*req = q;
	return LSV_OK;
}

lsv_status lsv_comm_shift_finish(lsv_comm *c, lsv_comm_req *req,
				 void **recv, size_t *bytes, lsv_error *err)
{
	(void)c;
	(void)err;
	*recv = req->recv;
	*bytes = req->bytes;
	free(req);
	return LSV_OK;
}

#endif
