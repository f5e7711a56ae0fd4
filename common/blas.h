/*
 * blas.h -- private: the Fortran BLAS/LAPACK entry points the library
 * calls.  Declared here rather than through cblas.h/lapacke.h so that the
 * library links with plain -llapack -lblas and any BLAS (reference,
 * OpenBLAS, ...) can be swapped in at run time.  Character arguments carry
 * gfortran's hidden length arguments at the end; implementations written
 * in C ignore them.  Integers are Fortran INTEGER (32-bit): callers check
 * sizes against INT_MAX first.
 */
#ifndef LSV_BLAS_H
#define LSV_BLAS_H

#include <stddef.h>

void dgemm_(const char *transa, const char *transb, const int *m,
	    const int *n, const int *k, const double *alpha, const double *a,
	    const int *lda, const double *b, const int *ldb, const double *beta,
	    double *c, const int *ldc, size_t la, size_t lb);

void sgemm_(const char *transa, const char *transb, const int *m,
	    const int *n, const int *k, const float *alpha, const float *a,
	    const int *lda, const float *b, const int *ldb, const float *beta,
	    float *c, const int *ldc, size_t la, size_t lb);

/* Nonzero if the BLAS in use runs its own threads (OpenBLAS with more
 * than one); then the library calls it once per product instead of once
 * per OpenMP thread, so cores are not oversubscribed. */
int lsv_blas_threaded(void);

void dgesv_(const int *n, const int *nrhs, double *a, const int *lda,
	    int *ipiv, double *b, const int *ldb, int *info);

void dposv_(const char *uplo, const int *n, const int *nrhs, double *a,
	    const int *lda, double *b, const int *ldb, int *info, size_t lu);

void dsyrk_(const char *uplo, const char *trans, const int *n, const int *k,
	    const double *alpha, const double *a, const int *lda,
	    const double *beta, double *c, const int *ldc, size_t lu, size_t lt);

void dsyev_(const char *jobz, const char *uplo, const int *n, double *a,
	    const int *lda, double *w, double *work, const int *lwork,
	    int *info, size_t lj, size_t lu);

void dsyevd_(const char *jobz, const char *uplo, const int *n, double *a,
	     const int *lda, double *w, double *work, const int *lwork,
	     int *iwork, const int *liwork, int *info, size_t lj, size_t lu);
/* Selected eigenpairs (RANGE 'I': the il-th to iu-th smallest) by the
 * MRRR algorithm. */
void dsyevr_(const char *jobz, const char *range, const char *uplo,
	     const int *n, double *a, const int *lda, const double *vl,
	     const double *vu, const int *il, const int *iu,
	     const double *abstol, int *m, double *w, double *z,
	     const int *ldz, int *isuppz, double *work, const int *lwork,
	     int *iwork, const int *liwork, int *info, size_t lj, size_t lr,
	     size_t lu);

void dgemv_(const char *trans, const int *m, const int *n,
	    const double *alpha, const double *a, const int *lda,
	    const double *x, const int *incx, const double *beta, double *y,
	    const int *incy, size_t lt);

/* Cholesky with complete pivoting of a positive semi-definite matrix:
 * P'AP = L L' to the numerical rank. */
void dpstrf_(const char *uplo, const int *n, double *a, const int *lda,
	     int *piv, int *rank, const double *tol, double *work, int *info,
	     size_t lu);
/* Combining graph Laplacians (combine.c): Cholesky and its solves, the
 * matrix-vector product, and the subset eigensolver. */
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda,
	     int *info, size_t lu);
void dpotrs_(const char *uplo, const int *n, const int *nrhs,
	     const double *a, const int *lda, double *b, const int *ldb,
	     int *info, size_t lu);
void dgemv_(const char *trans, const int *m, const int *n,
	    const double *alpha, const double *a, const int *lda,
	    const double *x, const int *incx, const double *beta, double *y,
	    const int *incy, size_t lt);
void dsymm_(const char *side, const char *uplo, const int *m, const int *n,
	    const double *alpha, const double *a, const int *lda,
	    const double *b, const int *ldb, const double *beta, double *c,
	    const int *ldc, size_t ls, size_t lu);
void dsyevr_(const char *jobz, const char *range, const char *uplo,
	     const int *n, double *a, const int *lda, const double *vl,
	     const double *vu, const int *il, const int *iu,
	     const double *abstol, int *m, double *w, double *z,
	     const int *ldz, int *isuppz, double *work, const int *lwork,
	     int *iwork, const int *liwork, int *info, size_t lj, size_t lr,
	     size_t lu);
#endif
