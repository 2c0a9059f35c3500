/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze stats: the numbers for one run, computed (stats_compute.c) then printed (stats_output.c). */
#ifndef ANALYZE_STATS_RESULT_H
#define ANALYZE_STATS_RESULT_H
#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>

#include "run/run.h"
#include "table/select.h"
#include "stats/stats.h"

struct stats_result {
	const struct isc_run *run;
	const char **metrics;    /* numeric columns, table order */
	size_t nmetrics;
	const struct isc_func *funcs;
	size_t nfuncs;
	double *overall;         /* [metric][func] */
	const char *group_col;   /* NULL: no groups */
	struct isc_groups groups;
	double *by_group;        /* [group][metric][func] */
	struct isc_hist *hists;   /* [metric] with --hist, else NULL */
	const char **flags;      /* 0/1 columns shown as counts (stats_flags.c), not metrics */
	size_t nflags;
};

/* Leave out the metrics without any value (one note) and, with flags_apart, move the 0/1
 * flags (IntrOff) to r->flags. */
void stats_split_columns(struct stats_result *r, bool flags_apart);
/* The flags table of all rows (group (size_t)-1) or of a group; JSON: {FLAG: {values, set,
 * share}}. */
void stats_print_flags(FILE *f, const struct stats_result *r, size_t group);
cJSON *stats_flags_json(const struct stats_result *r, size_t group);

/* Fill r->overall, r->by_group (when group_col) and, with nbins > 0, r->hists. */
void stats_compute_all(struct stats_result *r, size_t nbins, const double *hist_range);
void stats_result_free(struct stats_result *r);

void stats_print_text(FILE *f, const struct stats_result *r);
void stats_print_csv(FILE *f, const struct stats_result *r, int header);
cJSON *stats_to_json(const struct stats_result *r);

#endif
