/*
 * analyze diff: 0/1 flag columns (IntrOff) compared as proportions, and columns without
 * values left out with one note (as analyze stats does).
 */
#ifndef ANALYZE_DIFF_FLAGS_H
#define ANALYZE_DIFF_FLAGS_H
#include <cjson/cJSON.h>
#include <stdio.h>

#include "idlescope/diff.h"

/* One flag against the reference in one part: level run when both configurations have two or
 * more runs with values (Welch's t on the runs' shares), else datapoint (proptest.h). */
struct diff_flag_test {
	bool valid;
	enum is_diff_level level;
	const char *method;      /* "welch-run-shares", "fisher-exact" or "two-proportion-z" */
	double diff, p;          /* share minus the reference's share; two-sided p */
	bool differs;            /* level datapoint: p < IS_DIFF_ALPHA */
	bool significant;        /* level run: p < IS_DIFF_ALPHA */
};

struct diff_flags {
	size_t n;
	char **names;
	char **skip;             /* the flags and the columns without values: not metrics */
	size_t nskip;
	size_t nparts, nruns, nconfigs;  /* parts: all datapoints, then d->groups in order */
	size_t *values, *set;    /* [(part * n + flag) * nruns + run] */
	struct diff_flag_test *tests;  /* [(part * n + flag) * nconfigs + config] */
};

/* Before is_diff_compute: which columns (chosen by re, NULL = all) are flags and which have no
 * values in some run (one note naming them); fl->skip lists both for is_diff_opts. */
void diff_flags_columns(struct diff_flags *fl, struct is_run **runs, size_t nruns, const char *re);
/* After it: the counts per part and run, and the tests. */
int diff_flags_compute(struct diff_flags *fl, const struct is_diff *d);
void diff_flags_free(struct diff_flags *fl);

/* Counts of flag k in part p for configuration c (its runs summed). */
void diff_flag_counts(const struct diff_flags *fl, const struct is_diff *d, size_t p, size_t k,
		      size_t c, size_t *values, size_t *set);
void diff_flags_text(FILE *f, const struct diff_flags *fl, const struct is_diff *d, size_t part);
void diff_flags_csv(FILE *f, const struct diff_flags *fl, const struct is_diff *d, size_t part,
		    const char *by, const char *group);
/* {NAME: {"values": [..], "set": [..], "share": [..], "runs": [{"values", "set", "share"}],
 *  "tests": [null, {"level", "method", "diff", "p", "differs", "significant"}]}} */
cJSON *diff_flags_json(const struct diff_flags *fl, const struct is_diff *d, size_t part);

#endif
