/* Order statistics: multi-rank quickselect, and the sample-bracket method (lib-internal). */
#ifndef IDLESCOPE_RANK_SELECT_H
#define IDLESCOPE_RANK_SELECT_H
#include <stddef.h>

#define BRACKET_MAX 64

struct bracket {
	double lo, hi;
	size_t below;        /* values < lo */
	double *buf;         /* values in [lo, hi] */
	size_t n, cap;
};

/*
 * The sample-bracket method: a sorted sample brackets each wanted rank with a value interval
 * that holds it with high probability; a pass per interval counts the values below it and
 * collects those inside; a selection within the small
 * collections then finds the ranks. It reads the data without moving it.
 */
struct brackets {
	struct bracket b[BRACKET_MAX];
	size_t nb;
	size_t budget;       /* give up when the collections would pass this many values */
	size_t total_cap;
	int failed;
};

/* 0 and ready for brackets_add when the method applies (enough values, few ranks); else -1. */
int brackets_prepare(struct brackets *br, const double *a, size_t n, size_t m,
		     const size_t *idx, size_t ni);

/* One pass per bracket over a[0..n): count the values below it, collect those inside. */
void brackets_fill(struct brackets *br, const double *a, size_t n);

/* Values of ranks idx[0..ni) into vals; -1 when a bracket missed (then select on a copy).
 * Frees the collections either way. */
int brackets_finish(struct brackets *br, const size_t *idx, size_t ni, double *vals);

#endif
