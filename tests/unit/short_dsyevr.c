/*
 * short_dsyevr.c -- the unit tests' LAPACK dsyevr: every call goes on to
 * the real one (the shared liblapack's, found by dlsym(RTLD_NEXT)), and
 * while a test sets ref_dsyevr_short = d > 0 a call for an index range
 * (RANGE 'I') then reports d fewer eigenpairs than asked, the first ones
 * kept, with info 0.  That is what MRRR does on (nearly) repeated
 * eigenvalues with some LAPACKs (the reference LAPACK on I plus 1e-100
 * noise: 8 of the 12 largest, test_kdesign.c), and what the matrices of
 * a clustering or a graph's Laplacian that the tests build do not
 * provoke reliably.  The executable's definition takes the library's
 * calls too (liblapsvm.a is linked into it; liblapack is shared).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

#include "blas.h"
#include "ref.h"

int ref_dsyevr_short;

typedef void dsyevr_fn(const char *, const char *, const char *, const int *,
		       double *, const int *, const double *, const double *,
		       const int *, const int *, const double *, int *,
		       double *, double *, const int *, int *, double *,
		       const int *, int *, const int *, int *, size_t, size_t,
		       size_t);

void dsyevr_(const char *jobz, const char *range, const char *uplo,
	     const int *n, double *a, const int *lda, const double *vl,
	     const double *vu, const int *il, const int *iu,
	     const double *abstol, int *m, double *w, double *z,
	     const int *ldz, int *isuppz, double *work, const int *lwork,
	     int *iwork, const int *liwork, int *info, size_t lj, size_t lr,
	     size_t lu)
{
	static dsyevr_fn *real;
	int query = *lwork == -1 || *liwork == -1;

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "dsyevr_");
	if (real == NULL) {  /* a static LAPACK: no real one to call */
		*m = 0;
		*info = -1000;
		return;
	}
	real(jobz, range, uplo, n, a, lda, vl, vu, il, iu, abstol, m, w, z,
	     ldz, isuppz, work, lwork, iwork, liwork, info, lj, lr, lu);
	if (ref_dsyevr_short > 0 && !query && *info == 0 &&
	    (*range == 'I' || *range == 'i'))
		*m = *m > ref_dsyevr_short ? *m - ref_dsyevr_short : 0;
}
