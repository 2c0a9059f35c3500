/*
 * 0/1 flag columns (IntrOff), shown as counts and shares rather than as metrics, and compared
 * as proportions between configurations (analyze stats, analyze diff, report).
 */
#ifndef IDLESCOPE_FLAGS_H
#define IDLESCOPE_FLAGS_H
#include <stdbool.h>
#include <stddef.h>

#include "diff/diff.h"
#include "table/table.h"

/* A known flag column of t whose values are all 0 or 1. */
bool is_flag_column(const struct is_table *t, const char *name);
/* Rows with a value and rows that are 1, of v at rows[0..n) (v[0..n) when rows is NULL). */
void is_flag_counts(const double *v, const size_t *rows, size_t n, size_t *values, size_t *set);

/* One flag against the reference in one part: level run when both configurations have two or
 * more runs with values (Welch's t on the runs' shares), else datapoint (proptest.h). */
struct is_diff_flag_test {
	bool valid;
	enum is_diff_level level;
	const char *method;      /* "welch-run-shares", "fisher-exact" or "two-proportion-z" */
	double diff, p;          /* share minus the reference's share; two-sided p */
	bool differs;            /* level datapoint: p < IS_DIFF_ALPHA */
	bool significant;        /* level run: p < IS_DIFF_ALPHA */
};

struct is_diff_flags {
	size_t n;
	char **names;
	char **skip;             /* the flags and the columns without values: not metrics */
	size_t nskip;
	char *empty;             /* the columns without values, "IntrLatency, IntrOff (in b)", or NULL */
	size_t nparts, nruns, nconfigs;  /* parts: all datapoints, then d->groups in order */
	size_t *values, *set;    /* [(part * n + flag) * nruns + run] */
	struct is_diff_flag_test *tests;  /* [(part * n + flag) * nconfigs + config] */
};

/* Before is_diff_compute: which columns (chosen by re, NULL = all) are flags and which have no
 * values in some run (one note naming them); fl->skip lists both for is_diff_opts. */
void is_diff_flags_columns(struct is_diff_flags *fl, struct is_run **runs, size_t nruns,
			   const char *re);
/* After it: the counts per part and run, and the tests. */
int is_diff_flags_compute(struct is_diff_flags *fl, const struct is_diff *d);
void is_diff_flags_free(struct is_diff_flags *fl);

/* Counts of flag k in part p for configuration c (its runs summed). */
void is_diff_flag_counts(const struct is_diff_flags *fl, const struct is_diff *d, size_t p,
			 size_t k, size_t c, size_t *values, size_t *set);
/* The test of flag k in part p for configuration c >= 1, NULL when there is none. */
const struct is_diff_flag_test *is_diff_flag_test_of(const struct is_diff_flags *fl, size_t p,
						     size_t k, size_t c);
/* "significant", "not significant", "differs in these runs" or "no difference found". */
const char *is_diff_flag_words(const struct is_diff_flag_test *t);

#endif
