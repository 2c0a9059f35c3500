/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze diff: the comparison (lib/diff/diff.c) plus the counters, printed as text, CSV or JSON. */
#ifndef ANALYZE_DIFF_OUTPUT_H
#define ANALYZE_DIFF_OUTPUT_H
#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>

#include "diff_flags.h"
#include "diff/diff.h"

struct diff_causes;

/* Counter summaries (analyze counters' columns) side by side; ncols == 0 when the reference
 * has no counters.csv. */
struct diff_counters {
	size_t ncols;
	char **names;            /* the reference run's summary columns, in its order */
	double *run_vals;        /* [col * nruns + run]; NaN where a run lacks it */
	double *vals;            /* [col * nconfigs + config]: mean of its runs' values */
};

/* Read every run's counters summary: -1 after an error message for a malformed file. */
int diff_counters_load(struct diff_counters *c, const struct isc_diff *d);
void diff_counters_free(struct diff_counters *c);
cJSON *diff_counters_json(const struct diff_counters *c, const struct isc_diff *d);

/* Everything diff prints. */
struct diff_out {
	const struct isc_diff *d;
	const struct diff_counters *c;
	char **warn;             /* confounders (isc_diff_confounders) */
	size_t nwarn;
	const char *design;      /* the experiments' one-line description, or NULL */
	const struct isc_diff_flags *flags;  /* 0/1 columns (diff_flags.h), or NULL */
	const struct diff_causes *causes;    /* --causes (diff_causes.h), or NULL */
};

void diff_print_text(FILE *f, const struct diff_out *o);
void diff_print_csv(FILE *f, const struct diff_out *o);
/* The counters part alone (text: the table; CSV: the "counter" rows, without header), one
 * column per configuration of d. */
void diff_counters_text(FILE *f, const struct isc_diff *d, const struct diff_counters *c);
void diff_counters_csv(FILE *f, const struct isc_diff *d, const struct diff_counters *c);

/* analyze diff of counter-only runs (collect --counters): whether every path is one, and the
 * comparison of their counter summaries. */
bool diff_all_counter_only(char *const *paths, size_t n);
int diff_counters_only(char *const *paths, size_t n, int format);

#endif
