/*
 * ref.h -- independent references and fixtures shared by the unit tests.
 *
 * ref_graph: an independent brute-force kNN / epsilon graph:
 * dense rows, every pair's distance by a plain loop over all features, a
 * full sort of each row's candidates by (distance, index).  Deliberately
 * the naive O(n^2 d) method, sharing no code with common/knn.c.
 */
#ifndef REF_H
#define REF_H

#include "lapsvm.h"

/* Returns a new graph (free with lsv_graph_free) or NULL when out of memory. */
lsv_graph *ref_graph(const lsv_data *x, const lsv_graph_param *p);

/* 1 if a and b are identical (same rows, columns and weights, bit for bit). */
int ref_graph_equal(const lsv_graph *a, const lsv_graph *b);

/* A data set from a dense row-major n x d array (zeros not stored; every
 * row counted labeled, labels 0; dim = the last nonzero feature + 1).
 * The caller owns it (lsv_data_free); NULL when out of memory. */
lsv_data *ref_dense(const double *a, size_t n, size_t d);

/* Solve A X = B (A n x n, B n x m, column-major) by Gaussian elimination
 * with partial pivoting, in place: A is overwritten, X returned in B.  The
 * tests' independent answer to the solvers' LAPACK calls. */
void ref_gauss(double *A, double *B, size_t n, size_t m);

/* d > 0: LAPACK dsyevr calls for an index range report d fewer
 * eigenpairs than asked, with info 0, as MRRR may on repeated eigenvalues
 * (short_dsyevr.c); 0 (the default): the real dsyevr untouched.  A test
 * that sets it resets it to 0. */
extern int ref_dsyevr_short;

#endif
