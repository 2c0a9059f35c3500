/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze stats --causes: a metric's datapoints above and at/below a percentile, broken down
 * by what else ran on the measured CPU in their window (the cause columns, docs/format.md). */
#ifndef ANALYZE_STATS_CAUSES_H
#define ANALYZE_STATS_CAUSES_H
#include <cjson/cJSON.h>
#include <stdio.h>

#include "table/table.h"

/* Text (json NULL) or JSON (added to json as "causes") for every metric in metrics[] that the
 * table has; 0, or -1 after an error naming the file (no cause column). The columns it reads:
 * isc_cause_columns (causes/causes.h). */
int stats_causes(const struct isc_table *t, const char *const *metrics, size_t nmetrics, double pct,
		 FILE *out, cJSON *json);

#endif
