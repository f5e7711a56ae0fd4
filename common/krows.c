/*
 * krows.c -- the n x n kernel held by rows, and its products with vectors
 * whole on every process: the exact-kernel solvers written once for one
 * process and for P ranks (solver.h, lsv_krows).
 *
 * Distribution (lapsvm-train -M pcg under mpirun): rank r of P holds its
 * block of about n/P rows of K (lsv_comm_block: whole groups of 16 rows;
 * its nl rows x all n columns, O(n^2/P) memory), computed from the data
 * by lsv_kernel_matrix, the serial kernel code.  Y = K X (X n x C, the
 * same on every rank) is nl x C block products, one dgemm on each rank,
 * and one allgatherv of the blocks, after which every rank holds the
 * whole Y: the rows of one process's product, each entry the same sum
 * (a row's sum is dgemm's over its n columns on either side, and the
 * blocks end where dgemm's row groups do).  One process: one dgemm on the
 * whole K, nothing gathered.
 */
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "solver.h"

static int dist(const lsv_krows *K)
{
	return K->comm != NULL && lsv_comm_size(K->comm) > 1;
}

void lsv_block_rows(lsv_comm *comm, size_t n, size_t *lo, size_t *nl)
{
	if (comm == NULL)
		lsv_comm_block(n, 0, 1, lo, nl);
	else
		lsv_comm_block(n, lsv_comm_rank(comm), lsv_comm_size(comm), lo, nl);
}

lsv_krows lsv_fit_krows(const lsv_fit *F)
{
	lsv_krows K;

	if (F->Kr != NULL)
		return *F->Kr;
	K.K = F->K;
	K.n = F->n;
	K.lo = 0;
	K.nl = F->n;
	K.comm = NULL;
	return K;
}

lsv_status lsv_krows_agree(const lsv_krows *K, lsv_status st, lsv_error *err)
{
	return dist(K) ? lsv_comm_agree(K->comm, st, err) : st;
}

lsv_status lsv_krows_gather(const lsv_krows *K, const double *T, int C,
			    double *Y, lsv_error *err)
{
	size_t n = K->n, P, r, c, i, at = 0, *counts;
	double *all = NULL;
	void *recv = NULL;
	lsv_status st = LSV_OK;

	if (!dist(K)) {
		if (T != Y)
			memcpy(Y, T, n * (size_t)C * sizeof *Y);
		return LSV_OK;
	}
	P = (size_t)lsv_comm_size(K->comm);
	counts = malloc(P * sizeof *counts);
	if (counts == NULL)
		st = lsv_fail(err, LSV_ENOMEM, "out of memory for %zu ranks", P);
	/* lsv_comm_allgatherv agrees its own failures, not this one */
	if ((st = lsv_comm_agree(K->comm, st, err)) != LSV_OK) {
		free(counts);  /* allocated here when another rank failed */
		return st;
	}
	st = lsv_comm_allgatherv(K->comm, T, K->nl * (size_t)C * sizeof *T,
				 &recv, counts, err);
	all = recv;
	/* rank r's block: nl_r x C column-major, its rows starting at the
	 * sum of the rows before it */
	for (r = 0; st == LSV_OK && r < P; r++) {
		size_t nl = counts[r] / ((size_t)C * sizeof *all), lo = at / (size_t)C;
		for (c = 0; c < (size_t)C; c++)
			for (i = 0; i < nl; i++)
				Y[lo + i + c * n] = all[at + i + c * nl];
		at += nl * (size_t)C;
	}
	free(recv);
	free(counts);
	return st;
}

lsv_status lsv_krows_mul(const lsv_krows *K, const double *X, int C,
			 double *Y, lsv_error *err)
{
	int N = (int)K->n, NL = (int)K->nl;
	const double one = 1.0, zero = 0.0;
	double *T;
	lsv_status st = LSV_OK;

	if (!dist(K)) {
		dgemm_("N", "N", &N, &C, &N, &one, K->K, &N, X, &N, &zero, Y, &N,
		       1, 1);
		return LSV_OK;
	}
	T = lsv_alloc(K->nl * (size_t)C, sizeof *T);
	if (T == NULL)
		st = lsv_fail(err, LSV_ENOMEM, "out of memory for a block of %zu "
			      "rows of a kernel product", K->nl);
	if ((st = lsv_comm_agree(K->comm, st, err)) != LSV_OK) {
		free(T);
		return st;
	}
	if (NL > 0)  /* a rank may hold no rows (n < P) */
		dgemm_("N", "N", &NL, &C, &N, &one, K->K, &NL, X, &N, &zero, T,
		       &NL, 1, 1);
	st = lsv_krows_gather(K, T, C, Y, err);
	free(T);
	return st;
}
