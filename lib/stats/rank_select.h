/* SPDX-License-Identifier: GPL-2.0-only */
/* Order statistics: multi-rank quickselect, and the sample-bracket method (lib-internal). */
#ifndef IDLESCOPE_RANK_SELECT_H
#define IDLESCOPE_RANK_SELECT_H
#include <stddef.h>

#define BRACKET_MAX 64

struct bracket {
	double lo, hi;
	size_t below;        /* values < lo */
	size_t eq_lo, eq_hi; /* values == lo, == hi (eq_hi 0 when lo == hi) */
	double *buf;         /* values in (lo, hi) */
	size_t n, cap;       /* buf has room for cap + BRACKET_SLACK */
};

#define BRACKET_SLACK 256    /* values a fill step may store past cap before it checks */

/*
 * The sample-bracket method: a sorted sample brackets each wanted rank with a value interval
 * that holds it with high probability; one pass over the data counts the values below each
 * interval and at its ends, and collects those strictly inside (ties at an end, a column of
 * mostly zeros, cost nothing); a selection within the small collections then finds the ranks.
 * It reads the data without moving it.
 */
struct brackets {
	struct bracket b[BRACKET_MAX];
	size_t nb;
	int owned;           /* the collections were allocated here (else they are in the arena) */
	int failed;          /* a collection outgrew its room */
};

#define BRACKET_SAMPLE 4096   /* the sample: the non-NaN values among a[0], a[stride], ... */
#define BRACKET_MIN_N 65536   /* fewer values (m) than this: no brackets */

/* 0 and ready for brackets_fill when the method applies (enough values, few ranks); else -1.
 * The collections go into arena[0..arena_n) when they fit there (arena may be NULL). */
int brackets_prepare(struct brackets *br, const double *a, size_t n, size_t m,
		     const size_t *idx, size_t ni, double *arena, size_t arena_n);
/* The same with the sample already taken (s values, any order; sorted here), for data that
 * is read a piece at a time. */
int brackets_prepare_sampled(struct brackets *br, double *sample, size_t s, size_t m,
			     const size_t *idx, size_t ni, double *arena, size_t arena_n);
/* The sample's stride over n values (m >= BRACKET_MIN_N makes it at least 1). */
static inline size_t brackets_stride(size_t n)
{
	return n / BRACKET_SAMPLE ? n / BRACKET_SAMPLE : 1;
}

/* The next values of the data, a[0..n), for every bracket (called on consecutive pieces). */
void brackets_fill(struct brackets *br, const double *a, size_t n);

/* Values of ranks idx[0..ni) into vals; -1 when a bracket missed (then select on a copy).
 * Frees the collections either way. */
int brackets_finish(struct brackets *br, const size_t *idx, size_t ni, double *vals);

#endif
