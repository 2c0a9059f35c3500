/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze stats --list-metrics: names, units and descriptions of the datapoints' columns. */
#ifndef ANALYZE_METRICS_LIST_H
#define ANALYZE_METRICS_LIST_H
#include <stdio.h>

/* The unit and description of a column name ("us", "..."); NULL if not known. */
const char *metric_unit(const char *name);
const char *metric_desc(const char *name);

/* Print the known metrics (paths == NULL) or the columns of each run in paths[0..n) with
 * what is known of them. Returns an exit status. */
int list_metrics(FILE *f, char **paths, size_t n);

#endif
