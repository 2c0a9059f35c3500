/* SPDX-License-Identifier: GPL-2.0-only */
/* turbostat's text tables into a counter summary (turbostat_text.h). */
#include "formats/turbostat_text.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table/numparse.h"
#include "text/util.h"

#define TS_MAX_COLS 256

enum ts_kind { TS_SKIP, TS_AVG, TS_MAX, TS_RATE };

struct ts_table {
	size_t ncols;
	char *names[TS_MAX_COLS];
	enum ts_kind kind[TS_MAX_COLS];
	int time_col;               /* Time_Of_Day_Seconds, or -1 */
	/* the summary rows, one per interval: vals[interval * ncols + col] */
	double *vals;
	size_t nrows, cap;
};

/* How a column's summary values add up over the run. */
static enum ts_kind kind_of(const char *n)
{
	static const char *const skip[] = { "Package", "Die", "Node", "Core", "CPU", "APIC", "X2APIC",
					    "usec", "Time_Of_Day_Seconds", "sysfs" };
	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (!strcmp(n, skip[i]))
			return TS_SKIP;
	size_t len = strlen(n);
	if (len > 3 && !strcmp(n + len - 3, "Tmp"))
		return TS_MAX;
	if (strchr(n, '%') || (len > 3 && !strcmp(n + len - 3, "MHz")) ||
	    (len > 4 && !strcmp(n + len - 4, "Watt")) || !strcmp(n, "IPC"))
		return TS_AVG;
	if (!strcmp(n, "IRQ") || !strcmp(n, "SMI") || !strcmp(n, "NMI") || !strcmp(n, "POLL"))
		return TS_RATE;
	/* idle state entry counts: C1, C1E, C6, C10, C1ACPI ... */
	return n[0] == 'C' && n[1] >= '0' && n[1] <= '9' ? TS_RATE : TS_SKIP;
}

static char *next_field(char **p)
{
	while (**p == ' ' || **p == '\t')
		(*p)++;
	if (!**p || **p == '\n')
		return NULL;
	char *f = *p;
	while (**p && **p != ' ' && **p != '\t' && **p != '\n')
		(*p)++;
	if (**p)
		*(*p)++ = '\0';
	return f;
}

static bool is_heading(const char *line)
{
	return strstr(line, "Avg_MHz") && (strstr(line, "Busy%") || strstr(line, "%Busy")) &&
	       strstr(line, "Bzy_MHz");
}

static int take_heading(struct ts_table *t, char *line, const char *path, size_t lineno)
{
	size_t n = 0;
	char *names[TS_MAX_COLS], *f;
	while ((f = next_field(&line)) && n < TS_MAX_COLS)
		names[n++] = f;
	if (t->ncols) {  /* every table of one file has the same columns */
		bool same = n == t->ncols;
		for (size_t i = 0; same && i < n; i++)
			same = !strcmp(names[i], t->names[i]);
		if (!same) {
			isc_err("%s:%zu: the columns differ from the first table's", path, lineno);
			return -1;
		}
		return 0;
	}
	t->ncols = n;
	t->time_col = -1;
	for (size_t i = 0; i < n; i++) {
		t->names[i] = isc_xstrdup(names[i]);
		t->kind[i] = kind_of(names[i]);
		if (!strcmp(names[i], "Time_Of_Day_Seconds"))
			t->time_col = (int)i;
	}
	return 0;
}

/* The summary row after a heading: numbers, "-" for "not per-CPU" (no value). */
static int take_summary(struct ts_table *t, char *line, const char *path, size_t lineno)
{
	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->vals = isc_xrealloc(t->vals, t->cap * t->ncols * sizeof(double));
	}
	double *row = t->vals + t->nrows * t->ncols;
	char *f;
	size_t i = 0;
	for (; (f = next_field(&line)) && i < t->ncols; i++) {
		if (!strcmp(f, "-")) {
			row[i] = NAN;
		} else if (!isc_parse_double(f, strlen(f), &row[i])) {
			char q[64];
			isc_quote_for_msg(f, strlen(f), q, sizeof(q));
			isc_err("%s:%zu: field '%s': expected a number, got '%s'", path, lineno, t->names[i], q);
			return -1;
		}
	}
	for (; i < t->ncols; i++)  /* a single-CPU system leaves out Core and CPU */
		row[i] = NAN;
	t->nrows++;
	return 0;
}

static int read_tables(FILE *in, struct ts_table *t, const char *path)
{
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	bool want_summary = false;
	int rc = 0;
	while (rc == 0 && getline(&line, &cap, in) > 0) {
		lineno++;
		if (!strncmp(line, "turbostat: ", 11))
			continue;  /* jitter and other notes */
		if (is_heading(line)) {
			rc = take_heading(t, line, path, lineno);
			want_summary = true;
		} else if (want_summary && line[strspn(line, " \t\n")]) {
			rc = take_summary(t, line, path, lineno);
			want_summary = false;
		}
	}
	free(line);
	if (rc == 0 && !t->nrows) {
		isc_err("%s: no turbostat table (a heading with Avg_MHz, Busy%% and Bzy_MHz and a row)", path);
		rc = -1;
	}
	return rc;
}

static double column_summary(const struct ts_table *t, size_t c, double span)
{
	double acc = t->kind[c] == TS_MAX ? -INFINITY : 0;
	size_t n = 0;
	for (size_t r = t->kind[c] == TS_RATE ? 1 : 0; r < t->nrows; r++) {
		double v = t->vals[r * t->ncols + c];
		if (isnan(v))
			continue;
		acc = t->kind[c] == TS_MAX ? fmax(acc, v) : acc + v;
		n++;
	}
	if (!n)
		return NAN;
	return t->kind[c] == TS_MAX ? acc : t->kind[c] == TS_AVG ? acc / (double)n : acc / span;
}

static cJSON *make_summary(const struct ts_table *t, double span)
{
	cJSON *s = cJSON_CreateObject();
	for (size_t c = 0; c < t->ncols; c++) {
		if (t->kind[c] == TS_SKIP || (t->kind[c] == TS_RATE && !(span > 0)))
			continue;
		double v = column_summary(t, c, span);
		if (isnan(v))
			continue;
		char name[160];
		snprintf(name, sizeof(name), "%s%s", t->names[c], t->kind[c] == TS_RATE ? "/s" : "");
		cJSON_AddNumberToObject(s, name, v);
	}
	return s;
}

static cJSON *number_or_null(double v)
{
	return isnan(v) ? cJSON_CreateNull() : cJSON_CreateNumber(v);
}

static cJSON *make_series(const struct ts_table *t)
{
	cJSON *s = cJSON_CreateObject(), *tt = cJSON_AddArrayToObject(s, "t");
	double t0 = t->vals[t->time_col];
	for (size_t r = 0; r < t->nrows; r++)
		cJSON_AddItemToArray(tt, cJSON_CreateNumber(t->vals[r * t->ncols + (size_t)t->time_col] - t0));
	for (size_t c = 0; c < t->ncols; c++) {
		if (t->kind[c] != TS_AVG && t->kind[c] != TS_MAX)
			continue;
		cJSON *a = cJSON_AddArrayToObject(s, t->names[c]);
		for (size_t r = 0; r < t->nrows; r++)
			cJSON_AddItemToArray(a, number_or_null(t->vals[r * t->ncols + c]));
	}
	return s;
}

int isc_turbostat_summary(const char *path, cJSON **summary, cJSON **series)
{
	struct ts_table t = { .time_col = -1 };
	FILE *in = fopen(path, "r");
	*summary = NULL;
	if (series)
		*series = NULL;
	if (!in) {
		isc_err("%s: %s", path, strerror(errno));
		return -1;
	}
	int rc = read_tables(in, &t, path);
	fclose(in);
	if (rc == 0) {
		double span = NAN;
		if (t.time_col >= 0 && t.nrows > 1)
			span = t.vals[(t.nrows - 1) * t.ncols + (size_t)t.time_col] - t.vals[(size_t)t.time_col];
		*summary = make_summary(&t, span);
		if (series && t.time_col >= 0 && !isnan(t.vals[t.time_col]))
			*series = make_series(&t);
	}
	for (size_t i = 0; i < t.ncols; i++)
		free(t.names[i]);
	free(t.vals);
	return rc < 0 ? -1 : 1;
}
