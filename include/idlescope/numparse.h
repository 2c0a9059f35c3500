/* Fast, correctly rounded decimal-to-double parsing (same result as strtod). */
#ifndef IDLESCOPE_NUMPARSE_H
#define IDLESCOPE_NUMPARSE_H
#include <stdbool.h>
#include <stddef.h>

/*
 * Parse s[0..n) as a finite decimal number: [+-]digits[.digits][(e|E)[+-]digits]
 * (".5" and "5." accepted). Returns true and stores the correctly rounded double
 * on success; false for anything else: empty, text, hex, inf, nan, trailing bytes,
 * or a value that overflows to infinity.
 */
bool is_parse_double(const char *s, size_t n, double *out);

/* The same for the longest number at the start of [s, end): returns where it stops, or
 * NULL when s does not start with a number (or it overflows). */
const char *is_parse_double_prefix(const char *s, const char *end, double *out);

#endif
