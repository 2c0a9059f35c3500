/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * AVX-512 line splitting and short-number conversion (csv_lanes.h). The line's first 128
 * bytes are two registers; its separators' offsets are compressed into one (VBMI2). A packed
 * field is the 8 bytes that end at its end, picked from the two registers (VBMI), so that its
 * last digit is the top byte of its lane. The digits before and after the point are valued as
 * two 8-digit numbers (pairs, quads, then the whole, with multiply-adds), and the code is
 * int * 10^scale + frac * 10^(scale - decimals): what the byte-wise parser computes for these
 * shapes (colpack.h).
 */
#include "table/csv_lanes.h"
#include "table/numparse_fast.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

void isc_lanes_plan(struct isc_lane_plan *pl)
{
	memset(pl->end_of, 0, sizeof(pl->end_of));
	memset(pl->start_of, 0, sizeof(pl->start_of));
	pl->live[0] = pl->live[1] = pl->after_sep[0] = pl->after_sep[1] = 0;
	pl->live_lanes[0] = pl->live_lanes[1] = 0;
	memset(pl->num_end_of, 0, sizeof(pl->num_end_of));
	memset(pl->num_start_of, 0, sizeof(pl->num_start_of));
	pl->num_live[0] = pl->num_live[1] = pl->num_after_sep[0] = pl->num_after_sep[1] = 0;
	for (unsigned i = 0; i < pl->nnum; i++) {
		unsigned h = i / 2, at = 32 * (i % 2), f = pl->num_field[i];
		memset(pl->num_end_of[h] + at, (int)f, 32);
		memset(pl->num_start_of[h] + at, f ? (int)f - 1 : 0, 32);
		pl->num_live[h] |= 0xFFFFFFFFULL << at;
		if (f)
			pl->num_after_sep[h] |= 0xFFFFFFFFULL << at;
	}
	for (unsigned l = 0; l < pl->nlanes; l++) {
		unsigned h = l / 8, at = 8 * (l % 8), f = pl->field[l];
		memset(pl->end_of[h] + at, (int)f, 8);
		memset(pl->start_of[h] + at, f ? (int)f - 1 : 0, 8);
		pl->live[h] |= 0xFFULL << at;
		pl->live_lanes[h] |= (uint8_t)(1u << (l % 8));
		if (f)
			pl->after_sep[h] |= 0xFFULL << at;
	}
}

#if defined(__x86_64__)
#include <immintrin.h>

#define LANES_TARGET __attribute__((target("avx512f,avx512bw,avx512cd,avx512vl,avx512vbmi,avx512vbmi2")))

/* Found once; the reader's threads may ask at the same time (the same answer). */
bool isc_lanes_usable(void)
{
	static atomic_int usable = -1;
	int u = atomic_load_explicit(&usable, memory_order_relaxed);
	if (u < 0) {
		const char *off = getenv("IDLESCOPE_NO_AVX512");
		__builtin_cpu_init();
		u = !(off && strcmp(off, "1") == 0) && __builtin_cpu_supports("avx512f") &&
		    __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512cd") &&
		    __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vbmi") &&
		    __builtin_cpu_supports("avx512vbmi2");
		atomic_store_explicit(&usable, u, memory_order_relaxed);
	}
	return u;
}

static const uint64_t pow10_u64[8] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000 };

/* The values of the 8-digit numbers in the lanes of d (digit values 0..9 a byte, the first
 * digit the lowest byte). */
LANES_TARGET static inline __m512i lane_values(__m512i d)
{
	__m512i pairs = _mm512_maddubs_epi16(d, _mm512_set1_epi16(0x010A));          /* 10a + b */
	__m512i quads = _mm512_madd_epi16(pairs, _mm512_set1_epi32(0x00010064));     /* 100a + b */
	return _mm512_add_epi64(_mm512_mul_epu32(quads, _mm512_set1_epi64(10000)),
				_mm512_srli_epi64(quads, 32));
}

/* The codes of lanes 8h.. into codes[], from the line's bytes v0, v1 and its field ends. */
LANES_TARGET static int eight_lanes(const struct isc_lane_plan *pl, unsigned h, __m512i v0, __m512i v1,
				    __m512i ends, uint64_t *codes)
{
	const __mmask64 live = pl->live[h];
	const __m512i one = _mm512_set1_epi8(1), eight = _mm512_set1_epi8(8);
	__m512i e = _mm512_permutexvar_epi8(_mm512_loadu_si512((const void *)pl->end_of[h]), ends);
	__m512i s = _mm512_maskz_add_epi8(pl->after_sep[h],
					  _mm512_permutexvar_epi8(_mm512_loadu_si512((const void *)pl->start_of[h]), ends), one);
	__m512i len = _mm512_sub_epi8(e, s);
	/* a field of 1 to 8 bytes */
	if ((_mm512_cmpeq_epi8_mask(len, _mm512_setzero_si512()) | _mm512_cmpgt_epu8_mask(len, eight)) & live)
		return -1;
	/* e - 8 + i, signed: offsets before the line's start are negative, outside the field (the
	 * bytes picked for them, by the low 7 bits, are not used) */
	__m512i idx = _mm512_add_epi8(e, _mm512_set1_epi64((long long)0xFFFEFDFCFBFAF9F8ULL));
	__m512i v = _mm512_permutex2var_epi8(v0, idx, v1);
	__mmask64 field = _mm512_cmpge_epi8_mask(idx, s) & live;
	__mmask64 first = _mm512_cmpeq_epi8_mask(idx, s) & live;
	__mmask64 digit = _mm512_cmple_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8('0')), _mm512_set1_epi8(9)) & field;
	__mmask64 point = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('.')) & field;
	/* only digits and points, no point first (no integer digit), at most one a lane */
	if ((digit | point) != field || (point & first))
		return -1;
	__m512i npts = _mm512_sad_epu8(_mm512_maskz_mov_epi8(point, one), _mm512_setzero_si512());
	if (_mm512_cmpgt_epu64_mask(npts, _mm512_set1_epi64(1)))
		return -1;
	/* decimals: the bytes above the point's; 0 without a point (lzcnt 64, masked) */
	__mmask8 has_pt = _mm512_cmpneq_epi64_mask(npts, _mm512_setzero_si512());
	__m512i dec = _mm512_maskz_srli_epi64(has_pt, _mm512_lzcnt_epi64(_mm512_maskz_set1_epi8(point, (char)0xFF)), 3);
	__m512i scale = _mm512_loadu_si512((const void *)(pl->scale + 8 * h));
	if (_mm512_mask_cmpgt_epu64_mask(pl->live_lanes[h], dec, scale))
		return -1;
	__m512i d = _mm512_maskz_sub_epi8(digit, v, _mm512_set1_epi8('0'));
	/* each lane's bytes after its point: -(point << 1) a byte (bits k..7 for 2^k; 0 for 0) */
	uint64_t up = ~(((uint64_t)point << 1) & 0xFEFEFEFEFEFEFEFEULL);
	__mmask64 above = ((up & 0x7F7F7F7F7F7F7F7FULL) + 0x0101010101010101ULL) ^ (up & 0x8080808080808080ULL);
	/* the integer digits (below the point) moved up past it and the decimals */
	__m512i frac = _mm512_maskz_mov_epi8(above, d);
	__m512i shift = _mm512_maskz_add_epi64(has_pt, _mm512_slli_epi64(dec, 3), _mm512_set1_epi64(8));
	__m512i ints = _mm512_sllv_epi64(_mm512_maskz_mov_epi8(~above, d), shift);
	__m512i pows = _mm512_loadu_si512((const void *)pow10_u64);
	__m512i code = _mm512_add_epi64(_mm512_mul_epu32(lane_values(ints), _mm512_permutexvar_epi64(scale, pows)),
					_mm512_mul_epu32(lane_values(frac),
							 _mm512_permutexvar_epi64(_mm512_sub_epi64(scale, dec), pows)));
	__m512i max = _mm512_loadu_si512((const void *)(pl->code_max + 8 * h));
	if (_mm512_mask_cmpgt_epu64_mask(pl->live_lanes[h], code, max))
		return -1;
	_mm512_storeu_si512((void *)codes, code);
	return 0;
}

/* At most one point a 32-byte half, and 1 to 19 digits in each half in use. */
static bool num_counts(uint64_t point, uint64_t digit, uint64_t live)
{
	for (unsigned i = 0; i < 2; i++, point >>= 32, digit >>= 32, live >>= 32) {
		int np = __builtin_popcount((uint32_t)point), nd = __builtin_popcount((uint32_t)digit);
		if ((uint32_t)live && (np > 1 || nd == 0 || nd > 19))
			return false;
	}
	return true;
}

/*
 * Number fields 2h and 2h + 1 of the plan, one a 256-bit half: the 32 bytes that end at the
 * field's end, picked again without its point (the bytes before it move up by one), so that
 * its digits are right-aligned in four 8-digit lanes, of which the last three hold them.
 */
LANES_TARGET static int two_nums(const struct isc_lane_plan *pl, unsigned h, __m512i v0, __m512i v1,
				 __m512i ends, double *nums)
{
	const __mmask64 live = pl->num_live[h], upper = 0xFFFFFFFF00000000ULL;
	const __m512i one = _mm512_set1_epi8(1);
	const __m512i iota32 = _mm512_set_epi8(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
					       15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
					       31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
					       15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
	__m512i e = _mm512_permutexvar_epi8(_mm512_loadu_si512((const void *)pl->num_end_of[h]), ends);
	__m512i s = _mm512_maskz_add_epi8(pl->num_after_sep[h],
					  _mm512_permutexvar_epi8(_mm512_loadu_si512((const void *)pl->num_start_of[h]), ends), one);
	if (_mm512_cmpgt_epu8_mask(_mm512_sub_epi8(e, s), _mm512_set1_epi8(31)) & live)
		return -1;   /* longer than the window */
	/* e - 32 + j, signed: offsets before the line's start are negative, outside the field */
	__m512i g = _mm512_add_epi8(_mm512_sub_epi8(e, _mm512_set1_epi8(32)), iota32);
	__mmask64 field = _mm512_cmpge_epi8_mask(g, s) & live;
	__m512i raw = _mm512_permutex2var_epi8(v0, g, v1);
	__mmask64 point = _mm512_cmpeq_epi8_mask(raw, _mm512_set1_epi8('.')) & field;
	__mmask64 digit = _mm512_cmple_epu8_mask(_mm512_sub_epi8(raw, _mm512_set1_epi8('0')), _mm512_set1_epi8(9)) & field;
	if ((point | digit) != field || !num_counts(point, digit, live))
		return -1;
	int at[2], dec[2];
	for (unsigned i = 0; i < 2; i++) {
		uint32_t pm = (uint32_t)(point >> (32 * i));
		at[i] = pm ? __builtin_ctz(pm) : -128;   /* -128: no byte moves */
		dec[i] = pm ? 31 - at[i] : 0;
	}
	__m512i vat = _mm512_mask_set1_epi8(_mm512_set1_epi8((char)at[0]), upper, (char)at[1]);
	__m512i idx = _mm512_mask_sub_epi8(g, _mm512_cmple_epi8_mask(iota32, vat), g, one);
	__mmask64 digits = _mm512_cmpge_epi8_mask(idx, s) & live;
	__m512i v = _mm512_permutex2var_epi8(v0, idx, v1);
	uint64_t q[8];
	_mm512_storeu_si512((void *)q, lane_values(_mm512_maskz_sub_epi8(digits, v, _mm512_set1_epi8('0'))));
	for (unsigned i = 0; i < 2 && 2 * h + i < pl->nnum; i++) {
		uint64_t mant = (q[4 * i + 1] * 100000000 + q[4 * i + 2]) * 100000000 + q[4 * i + 3];
		/* always the 128-bit product, never one division for a mantissa below 2^53: that
		 * branch went at random between 16- and 17-digit latencies; a value it cannot round
		 * for sure gives the line back (to strtod) */
		if (!isc_np_fast_value(mant, -dec[i], &nums[2 * h + i]))
			return -1;
	}
	return 0;
}

LANES_TARGET int isc_lanes_line(const struct isc_lane_plan *pl, const char *p, uint8_t *ends, uint64_t *codes,
				double *nums)
{
	__m512i v0 = _mm512_loadu_si512((const void *)p), v1 = _mm512_loadu_si512((const void *)(p + 64));
	const __m512i comma = _mm512_set1_epi8(','), nl = _mm512_set1_epi8('\n');
	uint64_t n0 = _mm512_cmpeq_epi8_mask(v0, nl), n1 = _mm512_cmpeq_epi8_mask(v1, nl);
	uint64_t s0 = _mm512_cmpeq_epi8_mask(v0, comma), s1 = _mm512_cmpeq_epi8_mask(v1, comma);
	int newline;
	if (n0) {
		newline = __builtin_ctzll(n0);
		s0 = (s0 & ((n0 & -n0) - 1)) | (n0 & -n0);
		s1 = 0;
	} else if (n1) {
		newline = 64 + __builtin_ctzll(n1);
		s1 = (s1 & ((n1 & -n1) - 1)) | (n1 & -n1);
	} else {
		return -1;
	}
	unsigned k0 = (unsigned)__builtin_popcountll(s0);
	if (k0 + (unsigned)__builtin_popcountll(s1) != pl->nfields)
		return -1;
	const __m512i iota = _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48,
					     47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32,
					     31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
					     15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
	__m512i e = _mm512_maskz_compress_epi8(s0, iota);
	if (s1)
		e = _mm512_mask_expand_epi8(e, ~0ULL << k0, _mm512_maskz_compress_epi8(s1, _mm512_add_epi8(iota, _mm512_set1_epi8(64))));
	_mm512_storeu_si512((void *)ends, e);
	if ((pl->nlanes && eight_lanes(pl, 0, v0, v1, e, codes) < 0) ||
	    (pl->nlanes > 8 && eight_lanes(pl, 1, v0, v1, e, codes + 8) < 0))
		return -1;
	for (unsigned h = 0; 2 * h < pl->nnum; h++)
		if (two_nums(pl, h, v0, v1, e, nums) < 0)
			return -1;
	return newline;
}

#else

bool isc_lanes_usable(void)
{
	return false;
}

int isc_lanes_line(const struct isc_lane_plan *pl, const char *p, uint8_t *ends, uint64_t *codes, double *nums)
{
	(void)pl, (void)p, (void)ends, (void)codes, (void)nums;
	return -1;
}

#endif
