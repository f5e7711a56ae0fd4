/*
 * format.c -- printf's "%.17g" without printf, for the writers of large
 * files (graphs, their records): the same bytes, several times faster.
 *
 * "%.17g" is v rounded to 17 significant digits, correctly (the exact
 * binary value, ties to even), then printed fixed or with an exponent and
 * without trailing zeros.  For v = M 2^E (M < 2^53 an integer) and 17
 * digits D = round(v 10^K), K = 16 - floor(log10 v), the exact product is
 * M 5^K 2^(E+K): for 1e-16 <= |v| < 1e17 (0 <= K <= 32, 5^32 < 2^75) it
 * fits in 128 bits, and the rounding is a shift with its remainder, exact.
 * Anything else (0, subnormal, tiny, huge, non-finite, a compiler without
 * 128-bit integers) goes to snprintf.  tests/unit/test_format.c compares
 * the two on millions of values, ties included.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* Decimal digits of u, no sign. */
static int format_u64(char *buf, unsigned long long u)
{
	char t[24];
	int n = 0, i;

	do {
		t[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u > 0);
	for (i = 0; i < n; i++)
		buf[i] = t[n - 1 - i];
	buf[n] = '\0';
	return n;
}

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 u128;

static const unsigned long long pow5[28] = {
	1ULL, 5ULL, 25ULL, 125ULL, 625ULL, 3125ULL, 15625ULL, 78125ULL,
	390625ULL, 1953125ULL, 9765625ULL, 48828125ULL, 244140625ULL,
	1220703125ULL, 6103515625ULL, 30517578125ULL, 152587890625ULL,
	762939453125ULL, 3814697265625ULL, 19073486328125ULL,
	95367431640625ULL, 476837158203125ULL, 2384185791015625ULL,
	11920928955078125ULL, 59604644775390625ULL, 298023223876953125ULL,
	1490116119384765625ULL, 7450580596923828125ULL};

#define TEN16 10000000000000000ULL
#define TEN17 100000000000000000ULL

/* The 17 digits D (10^16 <= D < 10^17) and exponent X of a (>= 1e-16,
 * < 1e17): a = D 10^(X-16) rounded to nearest, ties to even.  0 if the
 * 128-bit product cannot hold it (then snprintf decides). */
static int digits17(double a, unsigned long long *dout, int *xout)
{
	int e2, x = (int)floor(log10(a)), tries;
	unsigned long long m = (unsigned long long)ldexp(frexp(a, &e2), 53);
	int e = e2 - 53;

	/* log10 may be one off near a power of ten: the range of D says */
	for (tries = 0; tries < 3; tries++) {
		int k = 16 - x, sh;
		u128 p, q, r = 0, half = 0;
		if (k < 0 || k > 32)
			return 0;
		p = (u128)m * pow5[k < 27 ? k : 27];
		if (k > 27)
			p *= pow5[k - 27];
		sh = e + k;
		if (sh >= 0) {
			if (sh > 64)
				return 0;
			q = p << sh;  /* exact; at most about 10^18 */
		} else {
			if (-sh >= 128)
				return 0;
			q = p >> -sh;
			r = p & (((u128)1 << -sh) - 1);
			half = (u128)1 << (-sh - 1);
		}
		if (q >= TEN17) {
			x++;
			continue;
		}
		if (q < TEN16) {
			x--;
			continue;
		}
		if (sh < 0 && (r > half || (r == half && (q & 1))))
			q++;
		if (q == TEN17) {
			q = TEN16;
			x++;
		}
		*dout = (unsigned long long)q;
		*xout = x;
		return 1;
	}
	return 0;
}
#endif

int lsv_format_g17(char *buf, double v)
{
#ifdef __SIZEOF_INT128__
	unsigned long long d;
	char dig[17];
	char *p = buf;
	int x, nd, i;
	double a = fabs(v);

	/* an integer below 2^53 has at most 16 digits, all significant and
	 * none after a point: "%.17g" prints just them (the keys of integer
	 * data, squared distances, are such) */
	if (a >= 1.0 && a < 0x1p53 && a == (double)(unsigned long long)a) {
		if (v < 0)
			*p++ = '-';
		return (int)(p - buf) + format_u64(p, (unsigned long long)a);
	}
	if (!(a >= 1e-16 && a < 1e17) || !digits17(a, &d, &x))
		return snprintf(buf, LSV_G17_MAX, "%.17g", v);
	for (i = 16; i >= 0; i--) {
		dig[i] = (char)('0' + d % 10);
		d /= 10;
	}
	for (nd = 17; nd > 1 && dig[nd - 1] == '0'; nd--)
		;  /* %g drops trailing zeros */
	if (v < 0)
		*p++ = '-';
	if (x < -4 || x >= 17) {
		int ax = x < 0 ? -x : x;
		*p++ = dig[0];
		if (nd > 1) {
			*p++ = '.';
			memcpy(p, dig + 1, (size_t)nd - 1);
			p += nd - 1;
		}
		*p++ = 'e';
		*p++ = x < 0 ? '-' : '+';
		if (ax >= 100)
			*p++ = (char)('0' + ax / 100);
		*p++ = (char)('0' + ax / 10 % 10);
		*p++ = (char)('0' + ax % 10);
	} else if (x >= 0) {
		memcpy(p, dig, (size_t)x + 1);
		p += x + 1;
		if (nd > x + 1) {
			*p++ = '.';
			memcpy(p, dig + x + 1, (size_t)(nd - x - 1));
			p += nd - x - 1;
		}
	} else {
		*p++ = '0';
		*p++ = '.';
		for (i = 0; i < -x - 1; i++)
			*p++ = '0';
		memcpy(p, dig, (size_t)nd);
		p += nd;
	}
	*p = '\0';
	return (int)(p - buf);
#else
	return snprintf(buf, LSV_G17_MAX, "%.17g", v);
#endif
}

int lsv_format_entry(char *buf, size_t j, double v)
{
	int n;

	buf[0] = ' ';
	n = 1 + format_u64(buf + 1, j);
	buf[n++] = ':';
	return n + lsv_format_g17(buf + n, v);
}

int lsv_format_row(char *buf, size_t i)
{
	return format_u64(buf, i);
}
