/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * analyze stats: columns that are not metrics. A column without any value is left out with
 * one note; a 0/1 flag (IntrOff) is shown as how many rows have a value and how many of
 * them are 1, not as percentiles.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text/json_num.h"
#include "text/util.h"
#include "flag_cols.h"
#include "stats_result.h"

void stats_split_columns(struct stats_result *r, bool flags_apart)
{
	const struct isc_table *t = r->run->dp;
	char *empty = NULL;
	size_t keep = 0;
	r->flags = isc_xcalloc(r->nmetrics + 1, sizeof(*r->flags));
	for (size_t m = 0; m < r->nmetrics; m++) {
		const char *name = r->metrics[m];
		if (t->nrows && !isc_table_col_has_value(t, name)) {
			char *s = isc_xasprintf("%s%s%s", empty ? empty : "", empty ? ", " : "", name);
			free(empty);
			empty = s;
		} else if (flags_apart && isc_is_flag_column(t, name)) {
			r->flags[r->nflags++] = name;
		} else {
			r->metrics[keep++] = name;
		}
	}
	r->nmetrics = keep;
	if (empty)
		isc_note("%s: no values in %s; left out", t->path, empty);
	free(empty);
}

static void flags_table(FILE *f, const struct stats_result *r, const size_t *rows, size_t n)
{
	size_t w = 4;
	for (size_t k = 0; k < r->nflags; k++)
		w = strlen(r->flags[k]) > w ? strlen(r->flags[k]) : w;
	fprintf(f, "%-*s  %10s  %10s  %7s\n", (int)w, "Flag", "values", "set (1)", "share");
	for (size_t k = 0; k < r->nflags; k++) {
		size_t values, set;
		isc_col_flag_counts(isc_table_col(r->run->dp, r->flags[k]), rows, n, &values, &set);
		char share[32] = "-";
		if (values)
			snprintf(share, sizeof(share), "%.2f%%", 100.0 * (double)set / (double)values);
		fprintf(f, "%-*s  %10zu  %10zu  %7s\n", (int)w, r->flags[k], values, set, share);
	}
}

void stats_print_flags(FILE *f, const struct stats_result *r, size_t group)
{
	if (!r->nflags)
		return;
	if (r->nmetrics)
		fputc('\n', f);
	if (group == (size_t)-1)
		flags_table(f, r, NULL, r->run->dp->nrows);
	else
		flags_table(f, r, r->groups.rows[group], r->groups.counts[group]);
}

cJSON *stats_flags_json(const struct stats_result *r, size_t group)
{
	cJSON *o = cJSON_CreateObject();
	for (size_t k = 0; k < r->nflags; k++) {
		size_t values, set;
		const struct isc_column *c = isc_table_col(r->run->dp, r->flags[k]);
		if (group == (size_t)-1)
			isc_col_flag_counts(c, NULL, r->run->dp->nrows, &values, &set);
		else
			isc_col_flag_counts(c, r->groups.rows[group], r->groups.counts[group], &values, &set);
		cJSON *fo = cJSON_AddObjectToObject(o, r->flags[k]);
		isc_json_add_num(fo, "values", (double)values);
		isc_json_add_num(fo, "set", (double)set);
		isc_json_add_num(fo, "share", values ? (double)set / (double)values : NAN);
	}
	return o;
}
