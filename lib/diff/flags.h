/* SPDX-License-Identifier: GPL-2.0-only */
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
bool isc_is_flag_column(const struct isc_table *t, const char *name);
/* Rows with a value and rows that are 1, of v at rows[0..n) (v[0..n) when rows is NULL). */
void isc_flag_counts(const double *v, const size_t *rows, size_t n, size_t *values, size_t *set);
/* The same of column c, packed or not, a block at a time. */
void isc_col_flag_counts(const struct isc_column *c, const size_t *rows, size_t n, size_t *values,
			 size_t *set);

/* One flag against the reference in one part: level run when both configurations have two or
 * more runs with values (Welch's t on the runs' shares), else datapoint (proptest.h). */
struct isc_diff_flag_test {
	bool valid;
	enum isc_diff_level level;
	const char *method;      /* "welch-run-shares", "fisher-exact" or "two-proportion-z" */
	double diff, p;          /* share minus the reference's share; two-sided p */
	bool differs;            /* level datapoint: p < ISC_DIFF_ALPHA */
	bool significant;        /* level run: in the family, Holm-adjusted p < ISC_DIFF_ALPHA */
	double p_adj;            /* level run: the Holm-adjusted p (NaN outside the family) */
	struct isc_verdict v;     /* level run: the verdict in the family (no margin) */
};

struct isc_diff_flags {
	size_t n;
	char **names;
	char **skip;             /* the flags and the columns without values: not metrics */
	size_t nskip;
	char *empty;             /* the columns without values, "IntrLatency, IntrOff (in b)", or NULL */
	size_t nparts, nruns, nconfigs;  /* parts: all datapoints, then d->groups in order */
	size_t *values, *set;    /* [(part * n + flag) * nruns + run] */
	struct isc_diff_flag_test *tests;  /* [(part * n + flag) * nconfigs + config] */
};

/* Before isc_diff_compute: which columns (chosen by re, NULL = all) are flags and which have no
 * values in some run (one note naming them); fl->skip lists both for isc_diff_opts. */
void isc_diff_flags_columns(struct isc_diff_flags *fl, struct isc_run **runs, size_t nruns,
			   const char *re);
/* After it: the counts per part and run, and the tests; the run-level tests of the tested
 * parts join d's family of verdicts (d->family, adjusted again). */
int isc_diff_flags_compute(struct isc_diff_flags *fl, struct isc_diff *d);
void isc_diff_flags_free(struct isc_diff_flags *fl);

/* Counts of flag k in part p for configuration c (its runs summed). */
void isc_diff_flag_counts(const struct isc_diff_flags *fl, const struct isc_diff *d, size_t p,
			 size_t k, size_t c, size_t *values, size_t *set);
/* The test of flag k in part p for configuration c >= 1, NULL when there is none. */
const struct isc_diff_flag_test *isc_diff_flag_test_of(const struct isc_diff_flags *fl, size_t p,
						     size_t k, size_t c);
/* "significant", "not significant", "descriptive (not in the family)", "no test (no run-to-run
 * spread)", "differs in these runs" or "no difference found". */
const char *isc_diff_flag_words(const struct isc_diff_flag_test *t);

#endif
