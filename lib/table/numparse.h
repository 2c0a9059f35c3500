/* SPDX-License-Identifier: GPL-2.0-only */
/* Fast, correctly rounded decimal-to-double parsing (same result as strtod). */
#ifndef IDLESCOPE_NUMPARSE_H
#define IDLESCOPE_NUMPARSE_H
#include <stdbool.h>
#include <stddef.h>

/*
 * Parse s[0..n) as a finite decimal number: [+-]digits[.digits][(e|E)[+-]digits]
 * (".5" and "5." accepted). Returns true and stores the correctly rounded double
 * on success; false for anything else: empty, text, hex, inf, nan, trailing bytes,
 * or a value beyond the doubles (overflow to infinity, or underflow to zero from digits
 * that are not all zero: 1e-400; subnormals such as 5e-324 are fine).
 */
bool isc_parse_double(const char *s, size_t n, double *out);

/* Whether s[0..n) is a decimal number by its form that is beyond the range of a double
 * (1e400, or 1e-400, which is not 0); *out is then +-inf or +-0 to say which way. */
bool isc_is_number_out_of_range(const char *s, size_t n, double *out);

/* The same for the longest number at the start of [s, end): returns where it stops, or
 * NULL when s does not start with a number (or it overflows). */
const char *isc_parse_double_prefix(const char *s, const char *end, double *out);

/* Bytes a caller of isc_parse_double_wide must be able to read from s, end or not. */
#define ISC_PARSE_SLACK 32

/* isc_parse_double_prefix, faster, for a number in a buffer that stays readable for
 * ISC_PARSE_SLACK bytes from s (the CSV reader's blocks): the same result, bytes from end on
 * are never taken into it. */
const char *isc_parse_double_wide(const char *s, const char *end, double *out);

#endif
