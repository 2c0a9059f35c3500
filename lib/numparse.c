/*
 * Decimal to double, correctly rounded, fast for the numbers found in datapoint files.
 *
 * Fast path: up to 19 significant digits give an exact 64-bit integer mantissa M, and a
 * decimal exponent e with |e| <= 27 gives an exact power 10^|e| in an x87 long double
 * (64-bit significand: 5^27 < 2^64). One long double multiply or divide then yields the
 * true value rounded to 64 bits. Rounding that again to 53 bits is correct unless the
 * 64-bit result lies within one long double ulp of a point halfway between two doubles;
 * in that rare case (about 3 in 2048) and in every case outside the fast path we call
 * strtod, which is always right.
 */
#include "idlescope/numparse.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FAST_MAX_DIGITS 19
#define FAST_MAX_EXP 27

#if LDBL_MANT_DIG == 64
static const long double pow10_ld[FAST_MAX_EXP + 1] = {
	1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,  1e8L,  1e9L,
	1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L,
	1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L,
};

/* True when rounding the 64-bit significand of x to 53 bits could differ from rounding the
 * exact value: the 11 dropped bits are within one unit of the halfway pattern 0x400. */
static int near_halfway(long double x)
{
	union { long double ld; struct { uint64_t mant; uint16_t sexp; } p; } u;
	u.ld = x;
	unsigned low = (unsigned)(u.p.mant & 0x7ff);
	return low >= 0x3ff && low <= 0x401;
}

static int fast_value(uint64_t mant, int exp10, double *out)
{
	if (mant == 0) {
		*out = 0.0;
		return 1;
	}
	if (exp10 < -FAST_MAX_EXP || exp10 > FAST_MAX_EXP)
		return 0;
	long double v = exp10 < 0 ? (long double)mant / pow10_ld[-exp10]
				  : (long double)mant * pow10_ld[exp10];
	if (near_halfway(v))
		return 0;
	double d = (double)v;
	if (!isfinite(d) || (d < DBL_MIN))  /* leave subnormals and overflow to strtod */
		return 0;
	*out = d;
	return 1;
}
#else
static int fast_value(uint64_t mant, int exp10, double *out)
{
	/* Clinger's exact fast path only: both operands exact in a double. */
	static const double p10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
				      1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
				      1e20, 1e21, 1e22 };
	if (mant > (1ULL << 53) || exp10 < -22 || exp10 > 22)
		return 0;
	*out = exp10 < 0 ? (double)mant / p10[-exp10] : (double)mant * p10[exp10];
	return 1;
}
#endif

/* Validate the syntax; collect the mantissa and exponent while at it. Returns 0 if the
 * text is not a plain decimal number; *fast is cleared if the fast path cannot be used. */
static int scan(const char *s, size_t n, uint64_t *mant, int *exp10, int *neg, int *fast)
{
	size_t i = 0;
	int digits = 0, sig = 0, seen_digit = 0;
	uint64_t m = 0;
	long e = 0;

	*neg = 0;
	*fast = 1;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		*neg = s[i++] == '-';
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, seen_digit = 1) {
		if (m == 0 && s[i] == '0')
			continue;  /* leading zeros are not significant */
		if (sig < FAST_MAX_DIGITS)
			m = m * 10 + (uint64_t)(s[i] - '0');
		else
			*fast = 0;
		sig++;
	}
	digits = sig;
	if (i < n && s[i] == '.') {
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, seen_digit = 1) {
			if (m == 0 && s[i] == '0') {
				e--;
				continue;
			}
			if (sig < FAST_MAX_DIGITS) {
				m = m * 10 + (uint64_t)(s[i] - '0');
				e--;
			} else {
				*fast = 0;
			}
			sig++;
		}
	}
	if (!seen_digit)
		return 0;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		int eneg = 0, edig = 0;
		long ev = 0;
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			eneg = s[i++] == '-';
		for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, edig++)
			if (ev < 100000)
				ev = ev * 10 + (s[i] - '0');
		if (!edig)
			return 0;
		e += eneg ? -ev : ev;
	}
	if (i != n)
		return 0;
	(void)digits;
	if (e < -100000 || e > 100000)
		*fast = 0;
	*mant = m;
	*exp10 = (int)(e < -100000 ? -100000 : e > 100000 ? 100000 : e);
	return 1;
}

static int slow_value(const char *s, size_t n, double *out)
{
	char buf[128];
	char *heap = NULL, *p = buf, *end;
	if (n >= sizeof(buf)) {
		heap = malloc(n + 1);
		if (!heap)
			return 0;
		p = heap;
	}
	memcpy(p, s, n);
	p[n] = '\0';
	double d = strtod(p, &end);
	int ok = end == p + n && isfinite(d);
	free(heap);
	if (ok)
		*out = d;
	return ok;
}

bool is_parse_double(const char *s, size_t n, double *out)
{
	uint64_t mant;
	int exp10, neg, fast;
	double d;

	if (!scan(s, n, &mant, &exp10, &neg, &fast))
		return false;
	if (!(fast && fast_value(mant, exp10, &d)) && !slow_value(s, n, &d))
		return false;
	*out = neg ? -d : d;
	return true;
}
