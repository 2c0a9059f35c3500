/* analyze diff: the comparison (lib/diff.c) plus the counters, printed as text, CSV or JSON. */
#ifndef ANALYZE_DIFF_OUTPUT_H
#define ANALYZE_DIFF_OUTPUT_H
#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>

#include "idlescope/diff.h"

/* Counter summaries (analyze counters' columns) side by side; ncols == 0 when the reference
 * has no counters.csv. */
struct diff_counters {
	size_t ncols;
	char **names;            /* the reference's summary columns, in its order */
	double *vals;            /* [col * nruns + run]; NaN where a run lacks it */
};

/* Read every run's counters summary: -1 after an error message for a malformed file. */
int diff_counters_load(struct diff_counters *c, struct is_run **runs, size_t nruns);
void diff_counters_free(struct diff_counters *c);
cJSON *diff_counters_json(const struct diff_counters *c, size_t nruns);

void diff_print_text(FILE *f, const struct is_diff *d, const struct diff_counters *c);
void diff_print_csv(FILE *f, const struct is_diff *d, const struct diff_counters *c);
/* The counters part alone (text: the table; CSV: the "counter" rows, without header). */
void diff_counters_text(FILE *f, struct is_run *const *runs, size_t nruns, const struct diff_counters *c);
void diff_counters_csv(FILE *f, struct is_run *const *runs, size_t nruns, const struct diff_counters *c);

/* analyze diff of counter-only runs (collect --counters): whether every path is one, and the
 * comparison of their counter summaries. */
bool diff_all_counter_only(char *const *paths, size_t n);
int diff_counters_only(char *const *paths, size_t n, int format);

#endif
