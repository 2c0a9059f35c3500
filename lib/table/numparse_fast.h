/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fast path of isc_parse_double_wide (numparse.h) as inline functions, so that the CSV
 * reader's line loop runs it without a call (three latencies a wult row). Only numparse.c
 * and the reader include this.
 */
#ifndef IDLESCOPE_NUMPARSE_FAST_H
#define IDLESCOPE_NUMPARSE_FAST_H
#include <stdint.h>
#include <string.h>

#include "table/numparse.h"
#include "table/swar.h"

#define FAST_MAX_DIGITS 19
#define FAST_MAX_EXP 27   /* 5^27 < 2^63 */

typedef unsigned __int128 u128;

#define CLINGER_MAX_MANT (1ULL << 53)
#define CLINGER_MAX_EXP 22   /* 10^22 is the largest power of ten that is an exact double */

extern const double isc_np_exact_pow10[CLINGER_MAX_EXP + 1];
extern const uint64_t isc_np_pow10_u64[9];
/* 5^k, floor(2^(63+L) / 5^k) where L is the bit length of 5^k, and 63 + L (numparse.c) */
extern uint64_t isc_np_pow5[FAST_MAX_EXP + 1];
extern uint64_t isc_np_recip5[FAST_MAX_EXP + 1];
extern int isc_np_recip5_shift[FAST_MAX_EXP + 1];

/*
 * Round p * 2^e2 to a double, where p = hi * 2^64 + lo >= 2^126 and the true value lies in
 * [p, p + 2^64) when inexact (else it is p). The 53 kept bits are the top of hi; the k = 10
 * or 11 bits below them in hi decide the rounding, unless they sit right at the halfway
 * pattern, where the low word (or the inexactness) could tip it: then 0 (use strtod).
 * Returns the double's bits (never 0: p is not zero).
 */
static inline __attribute__((always_inline)) uint64_t round_to_bits(uint64_t hi, uint64_t lo, int e2,
								     int inexact)
{
	int k = 10 + (int)(hi >> 63);
	uint64_t mant = hi >> k, below = hi & ((1ULL << k) - 1), half = 1ULL << (k - 1);
	if (inexact) {
		if (below == half || below == half - 1)
			return 0;
		mant += below > half;
	} else {
		mant += below > half || (below == half && (lo != 0 || (mant & 1)));
	}
	e2 += 64 + k;
	if (mant == (1ULL << 53)) {
		mant >>= 1;
		e2++;
	}
	int biased = e2 + 52 + 1023;
	if (biased <= 0 || biased >= 2047)
		return 0;
	return ((uint64_t)biased << 52) | (mant & ((1ULL << 52) - 1));
}

/*
 * mant * 10^exp10 correctly rounded, for mant < 2^64 and |exp10| <= 27, without strtod:
 * 10^e = 5^e * 2^e; a multiply by 5^e is exact in 128 bits, a divide by 5^e is a multiply by
 * a 64-bit reciprocal that is short of the truth by less than 1, so the 128-bit product is
 * short by less than 2^64 units: only values that close to a halfway point go to strtod.
 * The bits of the double for mant > 0, or 0 for those values.
 */
static inline __attribute__((always_inline)) uint64_t fast_bits(uint64_t mant, int exp10)
{
	int lz = __builtin_clzll(mant);
	uint64_t w = mant << lz;   /* top bit set */
	u128 p;
	int e2, inexact = exp10 < 0;
	if (exp10 >= 0) {          /* w * 5^e, exact, normalised to p >= 2^126 */
		int z = __builtin_clzll(isc_np_pow5[exp10]);
		p = (u128)w * isc_np_pow5[exp10] << z;
		e2 = exp10 - lz - z;
	} else {
		p = (u128)w * isc_np_recip5[-exp10];
		e2 = -isc_np_recip5_shift[-exp10] - lz + exp10;
	}
	return round_to_bits((uint64_t)(p >> 64), (uint64_t)p, e2, inexact);
}

/* mant * 10^exp10 (|exp10| <= FAST_MAX_EXP) correctly rounded into *out, +0.0 for mant 0;
 * 0 for the rare value fast_bits cannot round for sure (strtod's, then). */
static inline __attribute__((always_inline)) int isc_np_fast_value(uint64_t mant, int exp10, double *out)
{
	uint64_t bits = mant ? fast_bits(mant, exp10) : 0;
	if (mant && !bits)
		return 0;
	memcpy(out, &bits, sizeof(*out));  /* 0 bits: +0.0 */
	return 1;
}

/* The length of the digit run at the start of the 8 bytes v at p, cut at end unless the
 * caller knows a byte that is no digit comes first (ISC_NP_STOPPED). */
#define ISC_NP_BOUNDED 0
#define ISC_NP_STOPPED 1
static inline __attribute__((always_inline)) unsigned run_before(uint64_t v, const char *p, const char *end,
								 int stopped)
{
	unsigned n = isc_digit_run(v);
	return stopped ? n : (unsigned)isc_min_size(n, (size_t)(end - p));
}

/*
 * The same as fast_decimal for a number in a buffer readable for ISC_PARSE_SLACK bytes from
 * s, without a branch per digit: the integer part and up to 16 decimals are read as three
 * 8-byte words, each run cut at end. NULL sends the rest (an integer part of 8 digits or
 * more, more than 19 digits, an exponent, no digits) to the general parser. With
 * ISC_NP_STOPPED the caller promises a byte at or before end that is none of digit, '.',
 * 'e' and 'E' (a line's terminator), and the cuts and checks against end are left out; the
 * number must then end its field (a comma, a newline or end), anything else is NULL.
 */
static inline __attribute__((always_inline)) const char *isc_wide_decimal(const char *s, const char *end,
								    double *out, int stopped)
{
	int neg = *s == '-';  /* s < end, or a readable terminator when stopped */
	const char *p = s + neg;
	uint64_t v = isc_load8(p);
	unsigned n1 = run_before(v, p, end, stopped);
	if (n1 == 8)
		return NULL;
	uint64_t mant = isc_digits_value(v, n1);
	const char *q = p + n1;
	unsigned nf = 0;
	if ((stopped || q < end) && *q == '.') {
		q++;
		uint64_t a = isc_load8(q), b = isc_load8(q + 8);
		unsigned na = run_before(a, q, end, stopped);
		unsigned nb = na == 8 ? run_before(b, q + 8, end, stopped) : 0;
		if (n1 + na + nb > FAST_MAX_DIGITS)
			return NULL;
		mant = mant * isc_np_pow10_u64[na] + isc_digits_value(a, na);
		mant = mant * isc_np_pow10_u64[nb] + isc_digits_value(b, nb);
		nf = na + nb;
		q += nf;
	}
	if (n1 + nf == 0)
		return NULL;
	if (stopped ? !(*q == ',' || *q == '\n' || q == end)  /* what a field ends with, or else */
		    : q < end && ((unsigned)(*q - '0') < 10 || *q == 'e' || *q == 'E'))
		return NULL;
	double d;
	if (!isc_np_fast_value(mant, -(int)nf, &d))
		return NULL;
	*out = neg ? -d : d;
	return q;
}

/* isc_parse_double_wide, its common case inline. */
static inline const char *isc_parse_double_wide_inline(const char *s, const char *end, double *out)
{
	if (s < end) {
		const char *quick = isc_wide_decimal(s, end, out, ISC_NP_BOUNDED);
		if (quick)
			return quick;
	}
	return isc_parse_double_prefix(s, end, out);
}

/* The same for s < end in a line whose terminator (a byte none of digit, '.', 'e' and 'E')
 * comes at or before end and stays readable with ISC_PARSE_SLACK bytes after it. */
static inline const char *isc_parse_double_stopped(const char *s, const char *end, double *out)
{
	const char *quick = isc_wide_decimal(s, end, out, ISC_NP_STOPPED);
	return quick ? quick : isc_parse_double_prefix(s, end, out);
}

#endif
