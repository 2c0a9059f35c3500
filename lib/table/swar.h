/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Eight bytes at a time (SWAR: SIMD within a register), for the CSV reader's number and field
 * scanning. Bytes are loaded little-endian: the first byte is the lowest.
 */
#ifndef IDLESCOPE_SWAR_H
#define IDLESCOPE_SWAR_H
#include <stdint.h>
#include <string.h>

#define ISC_SWAR_ONES 0x0101010101010101ULL
#define ISC_SWAR_ZEROS 0x3030303030303030ULL  /* eight '0' */

static inline uint64_t isc_load8(const char *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

/* How many of the 8 bytes of v are ASCII digits before the first non-digit. A byte is a
 * digit when its high nibble is 3 and adding 6 keeps it so. */
static inline unsigned isc_digit_run(uint64_t v)
{
	uint64_t nd = ((v & 0xF0F0F0F0F0F0F0F0ULL) ^ ISC_SWAR_ZEROS) |
		      (((v + 0x0606060606060606ULL) & 0xF0F0F0F0F0F0F0F0ULL) ^ ISC_SWAR_ZEROS);
	return nd ? (unsigned)__builtin_ctzll(nd) >> 3 : 8;
}

/* Value of 8 digit values 0..9 in the bytes of d, first byte most significant (pairs, then
 * quads, then the whole). */
static inline uint64_t isc_eight_digits(uint64_t d)
{
	d = (d * 10) + (d >> 8);
	d = (((d & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32))) +
	     (((d >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32)))) >> 32;
	return d;
}

/* Value of the first n (0..8) digit bytes of v: they move to the top bytes, zeros below.
 * Two shifts of at most 32, as one of 64 (n = 0) is undefined. */
static inline uint64_t isc_digits_value(uint64_t v, unsigned n)
{
	unsigned half = 4 * (8 - n);
	return isc_eight_digits(((v - ISC_SWAR_ZEROS) << half) << half);
}

/* The index of the first byte of v equal to c, or 8. */
static inline unsigned isc_byte_index(uint64_t v, unsigned char c)
{
	uint64_t x = v ^ (ISC_SWAR_ONES * c);
	uint64_t hit = (x - ISC_SWAR_ONES) & ~x & (ISC_SWAR_ONES << 7);  /* exact for the first */
	return hit ? (unsigned)__builtin_ctzll(hit) >> 3 : 8;
}

static inline size_t isc_min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

#endif
