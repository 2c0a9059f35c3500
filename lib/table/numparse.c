/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Decimal to double, correctly rounded (the same double as strtod), fast for the numbers
 * found in datapoint files: up to 19 significant digits make an exact 64-bit mantissa and
 * a decimal exponent within +-27 is handled with 128-bit integer arithmetic
 * (isc_np_fast_value, numparse_fast.h).
 * Everything else, and the rare values too close to a rounding boundary, goes to strtod.
 * Digits are read eight at a time where possible (the SWAR method, as in simdjson).
 */
#include "table/numparse.h"
#include "table/numparse_fast.h"
#include "table/swar.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const double isc_np_exact_pow10[CLINGER_MAX_EXP + 1] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};
const uint64_t isc_np_pow10_u64[9] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000 };
uint64_t isc_np_pow5[FAST_MAX_EXP + 1];
uint64_t isc_np_recip5[FAST_MAX_EXP + 1];
int isc_np_recip5_shift[FAST_MAX_EXP + 1];

__attribute__((constructor)) static void init_tables(void)
{
	isc_np_pow5[0] = 1;
	for (int k = 1; k <= FAST_MAX_EXP; k++) {
		isc_np_pow5[k] = isc_np_pow5[k - 1] * 5;
		int bits = 64 - __builtin_clzll(isc_np_pow5[k]);
		isc_np_recip5_shift[k] = 63 + bits;
		isc_np_recip5[k] = (uint64_t)(((u128)1 << (63 + bits)) / isc_np_pow5[k]);
	}
}


struct scan {
	uint64_t mant;    /* first FAST_MAX_DIGITS significant digits */
	long exp10;       /* value = mant * 10^exp10 when fast */
	int sig;          /* significant digits seen */
	int neg;
};

/* Digits from s while below end; appends them to the mantissa. frac: they follow the point.
 * Runs of up to 8 digits are taken at once once the leading zeros are behind. */
static inline __attribute__((always_inline)) const char *scan_digits(const char *s, const char *end,
								       struct scan *sc, int frac, int *any)
{
	while (end - s >= 8 && (sc->mant != 0 || *s != '0')) {
		uint64_t v;
		memcpy(&v, s, 8);
		int n = (int)isc_digit_run(v);
		if (n == 0 || sc->sig + n > FAST_MAX_DIGITS)
			break;
		/* digits to the top bytes, zeros below: the run's value */
		uint64_t d = (v - ISC_SWAR_ZEROS) << (8 * (8 - n));
		sc->mant = sc->mant * isc_np_pow10_u64[n] + isc_eight_digits(d);
		sc->sig += n;
		sc->exp10 -= frac ? n : 0;
		s += n;
		*any = 1;
		if (n < 8)
			return s;
	}
	for (; s < end && (unsigned)(*s - '0') < 10; s++) {
		*any = 1;
		if (sc->mant == 0 && *s == '0') {  /* leading zeros are not significant */
			sc->exp10 -= frac;
			continue;
		}
		if (sc->sig < FAST_MAX_DIGITS) {
			sc->mant = sc->mant * 10 + (uint64_t)(*s - '0');
			sc->exp10 -= frac;
		} else {
			sc->exp10 += !frac;  /* a dropped integer digit scales by ten */
		}
		sc->sig++;
	}
	return s;
}

/* The longest prefix of [s, end) that is a decimal number; NULL if there is none. */
static const char *scan_number(const char *s, const char *end, struct scan *sc)
{
	int any = 0;
	memset(sc, 0, sizeof(*sc));
	if (s < end && (*s == '+' || *s == '-'))
		sc->neg = *s++ == '-';
	s = scan_digits(s, end, sc, 0, &any);
	if (s < end && *s == '.')
		s = scan_digits(s + 1, end, sc, 1, &any);
	if (!any)
		return NULL;
	if (s < end && (*s == 'e' || *s == 'E')) {
		const char *e = s + 1;
		int eneg = 0, edig = 0;
		long ev = 0;
		if (e < end && (*e == '+' || *e == '-'))
			eneg = *e++ == '-';
		for (; e < end && (unsigned)(*e - '0') < 10; e++, edig++)
			if (ev < 100000)
				ev = ev * 10 + (*e - '0');
		if (!edig)
			return NULL;
		sc->exp10 += eneg ? -ev : ev;
		s = e;
	}
	return s;
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
	errno = 0;
	double d = strtod(p, &end);
	/* beyond the doubles either way is an error: 1e400 (infinity) and 1e-400 (zero, from
	 * digits that are not all zero; strtod says ERANGE), not one an error and one 0 */
	int ok = end == p + n && isfinite(d) && !(d == 0 && errno == ERANGE);
	free(heap);
	if (ok)
		*out = d;
	return ok;
}

/*
 * The common case in one straight walk: [-]digits[.digits], at most 19 digits in all (leading
 * zeros included, so the mantissa is exact in 64 bits), no exponent. Then Clinger's single
 * operation or isc_np_fast_value; NULL sends everything else (and the rare value that cannot
 * round for sure) to the general scan below, which gives the same double.
 */
static inline __attribute__((always_inline)) const char *fast_decimal(const char *s, const char *end,
								    double *out)
{
	const char *p = s;
	int neg = p < end && *p == '-';
	uint64_t mant = 0;
	p += neg;
	const char *int_start = p;
	while (p < end && (unsigned)(*p - '0') < 10)
		mant = mant * 10 + (uint64_t)(*p++ - '0');
	size_t nint = (size_t)(p - int_start), nfrac = 0;
	if (nint > FAST_MAX_DIGITS)
		return NULL;
	if (p < end && *p == '.') {
		const char *frac = ++p;
		while (end - p >= 8) {
			uint64_t v;
			memcpy(&v, p, 8);
			int n = (int)isc_digit_run(v);
			if (n == 0 || nint + (size_t)(p - frac) + (size_t)n > FAST_MAX_DIGITS)
				break;
			mant = mant * isc_np_pow10_u64[n] + isc_eight_digits((v - ISC_SWAR_ZEROS) << (8 * (8 - n)));
			p += n;
			if (n < 8)
				break;
		}
		while (p < end && (unsigned)(*p - '0') < 10 && nint + (size_t)(p - frac) < FAST_MAX_DIGITS)
			mant = mant * 10 + (uint64_t)(*p++ - '0');
		nfrac = (size_t)(p - frac);
	}
	if (nint + nfrac == 0 || (p < end && ((unsigned)(*p - '0') < 10 || *p == 'e' || *p == 'E')))
		return NULL;  /* no digits, more than 19, or an exponent */
	double d;
	if (mant <= CLINGER_MAX_MANT && nfrac <= CLINGER_MAX_EXP)
		d = (double)mant / isc_np_exact_pow10[nfrac];
	else if (nfrac > FAST_MAX_EXP || !isc_np_fast_value(mant, -(int)nfrac, &d))
		return NULL;
	*out = neg ? -d : d;
	return p;
}

const char *isc_parse_double_wide(const char *s, const char *end, double *out)
{
	if (s < end) {
		const char *quick = isc_wide_decimal(s, end, out, ISC_NP_BOUNDED);
		if (quick)
			return quick;
	}
	return isc_parse_double_prefix(s, end, out);
}

const char *isc_parse_double_prefix(const char *s, const char *end, double *out)
{
	const char *quick = fast_decimal(s, end, out);
	if (quick)
		return quick;
	struct scan sc;
	double d;
	const char *stop = scan_number(s, end, &sc);
	if (!stop)
		return NULL;
	if (sc.sig <= FAST_MAX_DIGITS && sc.mant <= CLINGER_MAX_MANT && sc.exp10 >= -CLINGER_MAX_EXP && sc.exp10 <= CLINGER_MAX_EXP) {
		/* both operands exact doubles: one IEEE operation rounds correctly (Clinger) */
		d = (double)sc.mant;
		d = sc.exp10 < 0 ? d / isc_np_exact_pow10[-sc.exp10] : d * isc_np_exact_pow10[sc.exp10];
		*out = sc.neg ? -d : d;
		return stop;
	}
	int fast = sc.sig <= FAST_MAX_DIGITS && sc.exp10 >= -FAST_MAX_EXP && sc.exp10 <= FAST_MAX_EXP;
	if (!(fast && isc_np_fast_value(sc.mant, (int)sc.exp10, &d))) {
		if (!slow_value(s, (size_t)(stop - s), &d))
			return NULL;
		*out = d;  /* strtod saw the sign itself */
		return stop;
	}
	*out = sc.neg ? -d : d;
	return stop;
}

bool isc_parse_double(const char *s, size_t n, double *out)
{
	double d;
	if (isc_parse_double_prefix(s, s + n, &d) != s + n)
		return false;
	*out = d;
	return true;
}

bool isc_is_number_out_of_range(const char *s, size_t n, double *out)
{
	struct scan sc;
	double d;
	if (scan_number(s, s + n, &sc) != s + n || isc_parse_double(s, n, &d))
		return false;
	*out = sc.neg ? -HUGE_VAL : HUGE_VAL;
	if (sc.exp10 < 0)  /* too small rather than too large */
		*out = sc.neg ? -0.0 : 0.0;
	return true;
}
