/* SPDX-License-Identifier: GPL-2.0-only */
/* The C tests' assertions: count failures, print where (file:line, the condition, and the test's
 * CHECK_CONTEXT when it defines one before including this, e.g. the scenario being run),
 * go on, and make the program exit non-zero at the end (return CHECK_DONE() from main). */
#ifndef TESTS_CHECK_H
#define TESTS_CHECK_H
#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_failures;

#define CHECK(cond) do { if (!(cond)) { check_failures++; \
	fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)

#ifndef CHECK_CONTEXT
#define CHECK_CONTEXT ((const char *)0)
#endif

/* CHECK_MSG(cond, fmt, ...): CHECK with a printf message saying what was found instead. */
#define CHECK_MSG(cond, ...) do { if (!(cond)) { const char *ctx_ = CHECK_CONTEXT; check_failures++; \
	fprintf(stderr, "%s:%d: CHECK failed: %s%s%s%s: ", __FILE__, __LINE__, #cond, \
		ctx_ ? " (" : "", ctx_ ? ctx_ : "", ctx_ ? ")" : ""); \
	fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

#define CHECK_EQ_DBL(a, b) do { double a_ = (a), b_ = (b); \
	if (!((isnan(a_) && isnan(b_)) || a_ == b_)) { check_failures++; \
	fprintf(stderr, "%s:%d: %s = %.17g, expected %.17g\n", __FILE__, __LINE__, #a, a_, b_); } } while (0)

#define CHECK_NEAR(a, b, rel) do { double a_ = (a), b_ = (b); \
	if (!(fabs(a_ - b_) <= (rel) * fmax(1e-300, fabs(b_)))) { check_failures++; \
	fprintf(stderr, "%s:%d: %s = %.17g, expected %.17g (rel %g)\n", __FILE__, __LINE__, #a, a_, b_, (double)(rel)); } } while (0)

#define CHECK_STR(a, b) do { const char *a_ = (a), *b_ = (b); \
	if (!a_ || strcmp(a_, b_)) { check_failures++; \
	fprintf(stderr, "%s:%d: %s = '%s', expected '%s'\n", __FILE__, __LINE__, #a, a_ ? a_ : "(null)", b_); } } while (0)

#define CHECK_DONE() (check_failures ? (fprintf(stderr, "%d check(s) failed\n", check_failures), 1) : 0)

#endif
