/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * analyze stats: text, CSV and JSON output of a stats_result.
 * CSV: run,by,group,rows,metric,FUNC...: a row per metric, all datapoints first (by and group
 * empty), then each group (by the grouping column, group its value, which may be empty).
 * Undefined values (NaN, infinite) are empty in CSV and null in JSON; numbers read back as
 * the same double in both.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text/json_num.h"
#include "text/util.h"
#include "out_format.h"
#include "stats_result.h"

static void fmt_value(char *buf, size_t len, double v, enum isc_func_kind kind)
{
	double a = fabs(v);
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (kind == ISC_F_COUNT || a >= 1e6)
		snprintf(buf, len, a < 1e15 ? "%.0f" : "%.6e", v);
	else
		snprintf(buf, len, "%.3f", v);
}

static void print_table(FILE *f, const struct stats_result *r, const double *vals)
{
	size_t namew = 6, *w = isc_xcalloc(r->nfuncs, sizeof(size_t));
	char buf[64];
	for (size_t m = 0; m < r->nmetrics; m++)
		namew = strlen(r->metrics[m]) > namew ? strlen(r->metrics[m]) : namew;
	for (size_t i = 0; i < r->nfuncs; i++) {
		w[i] = strlen(r->funcs[i].name);
		for (size_t m = 0; m < r->nmetrics; m++) {
			fmt_value(buf, sizeof(buf), vals[m * r->nfuncs + i], r->funcs[i].kind);
			w[i] = strlen(buf) > w[i] ? strlen(buf) : w[i];
		}
	}
	fprintf(f, "%-*s", (int)namew, "Metric");
	for (size_t i = 0; i < r->nfuncs; i++)
		fprintf(f, "  %*s", (int)w[i], r->funcs[i].name);
	fputc('\n', f);
	for (size_t m = 0; m < r->nmetrics; m++) {
		fprintf(f, "%-*s", (int)namew, r->metrics[m]);
		for (size_t i = 0; i < r->nfuncs; i++) {
			fmt_value(buf, sizeof(buf), vals[m * r->nfuncs + i], r->funcs[i].kind);
			fprintf(f, "  %*s", (int)w[i], buf);
		}
		fputc('\n', f);
	}
	free(w);
}

static void print_hist(FILE *f, const char *metric, const struct isc_hist *h)
{
	uint64_t peak = 1;
	int wide = fmax(fabs(h->lo), fabs(h->hi)) >= 1e9;  /* edges as %g, not 300 digits */
	for (size_t b = 0; b < h->nbins; b++)
		peak = h->counts[b] > peak ? h->counts[b] : peak;
	fprintf(f, "\n%s histogram: %zu bins over [%g, %g], %llu values, %llu below, %llu above\n",
		metric, h->nbins, h->lo, h->hi, (unsigned long long)h->total,
		(unsigned long long)h->under, (unsigned long long)h->over);
	for (size_t b = 0; b < h->nbins; b++) {
		int bar = (int)((double)h->counts[b] * 50.0 / (double)peak + 0.5);
		fprintf(f, wide ? "  %12.6g .. %12.6g %c %10llu  %.*s\n" : "  %12.3f .. %12.3f %c %10llu  %.*s\n",
			isc_hist_edge(h, b), isc_hist_edge(h, b + 1), b + 1 == h->nbins ? ']' : ')',
			(unsigned long long)h->counts[b], bar,
			"##################################################");
	}
}

void stats_print_text(FILE *f, const struct stats_result *r)
{
	const struct isc_run *run = r->run;
	fprintf(f, "%s (%s): %zu datapoints\n", run->name, run->path, run->dp->nrows);
	if (r->nmetrics)
		print_table(f, r, r->overall);
	stats_print_flags(f, r, (size_t)-1);
	for (size_t m = 0; r->hists && m < r->nmetrics; m++)
		print_hist(f, r->metrics[m], &r->hists[m]);
	for (size_t g = 0; r->group_col && g < r->groups.ngroups; g++) {
		fprintf(f, "\n%s, %s = %s: %zu datapoints\n", run->name, r->group_col,
			r->groups.labels[g][0] ? r->groups.labels[g] : "(empty)", r->groups.counts[g]);
		if (r->nmetrics)
			print_table(f, r, r->by_group + g * r->nmetrics * r->nfuncs);
		stats_print_flags(f, r, g);
		for (size_t m = 0; r->hists && m < r->nmetrics; m++)
			print_hist(f, r->metrics[m], &r->hists[(1 + g) * r->nmetrics + m]);
	}
}

/* by and group are "" for all datapoints; for a group, by is the grouping column and group
 * its value, which may be empty. */
static void csv_rows(FILE *f, const struct stats_result *r, const char *by, const char *group,
		     size_t rows, const double *vals)
{
	for (size_t m = 0; m < r->nmetrics; m++) {
		csv_field(f, r->run->name);
		fputc(',', f);
		csv_field(f, by);
		fputc(',', f);
		csv_field(f, group);
		fprintf(f, ",%zu,", rows);
		csv_field(f, r->metrics[m]);
		for (size_t i = 0; i < r->nfuncs; i++) {
			double v = vals[m * r->nfuncs + i];
			char num[ISC_NUM_STR_LEN];
			fputc(',', f);
			if (isfinite(v))  /* the shortest text that reads back as v, as in JSON */
				fputs(isc_num_str(num, v), f);
		}
		fputc('\n', f);
	}
}

void stats_print_csv(FILE *f, const struct stats_result *r, int header)
{
	if (header) {
		fputs("run,by,group,rows,metric", f);
		for (size_t i = 0; i < r->nfuncs; i++) {
			fputc(',', f);
			csv_field(f, r->funcs[i].name);
		}
		fputc('\n', f);
	}
	csv_rows(f, r, "", "", r->run->dp->nrows, r->overall);
	for (size_t g = 0; r->group_col && g < r->groups.ngroups; g++)
		csv_rows(f, r, r->group_col, r->groups.labels[g], r->groups.counts[g],
			 r->by_group + g * r->nmetrics * r->nfuncs);
}

static cJSON *metrics_json(const struct stats_result *r, const double *vals)
{
	cJSON *o = cJSON_CreateObject();
	for (size_t m = 0; m < r->nmetrics; m++) {
		cJSON *fo = cJSON_AddObjectToObject(o, r->metrics[m]);
		for (size_t i = 0; i < r->nfuncs; i++) {
			double v = vals[m * r->nfuncs + i];
			isc_json_add_num(fo, r->funcs[i].name, v);
		}
	}
	return o;
}

static cJSON *hist_json(const struct isc_hist *h)
{
	cJSON *o = cJSON_CreateObject();
	isc_json_add_num(o, "lo", h->lo);
	isc_json_add_num(o, "hi", h->hi);
	isc_json_add_num(o, "under", (double)h->under);
	isc_json_add_num(o, "over", (double)h->over);
	cJSON *c = cJSON_AddArrayToObject(o, "counts");
	for (size_t b = 0; b < h->nbins; b++)
		cJSON_AddItemToArray(c, isc_json_num((double)h->counts[b]));
	return o;
}

/* {METRIC: histogram} of the histograms from r->hists[first]. */
static cJSON *hists_json(const struct stats_result *r, size_t first)
{
	cJSON *h = cJSON_CreateObject();
	for (size_t m = 0; m < r->nmetrics; m++)
		cJSON_AddItemToObject(h, r->metrics[m], hist_json(&r->hists[first + m]));
	return h;
}

cJSON *stats_to_json(const struct stats_result *r)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "reportid", r->run->name);
	cJSON_AddStringToObject(o, "path", r->run->path);
	cJSON_AddStringToObject(o, "toolname", r->run->toolname);
	isc_json_add_num(o, "rows", (double)r->run->dp->nrows);
	cJSON_AddItemToObject(o, "metrics", metrics_json(r, r->overall));
	if (r->nflags)
		cJSON_AddItemToObject(o, "flags", stats_flags_json(r, (size_t)-1));
	if (r->group_col) {
		cJSON_AddStringToObject(o, "group_by", r->group_col);
		cJSON *groups = cJSON_AddObjectToObject(o, "groups");
		for (size_t g = 0; g < r->groups.ngroups; g++) {
			cJSON *go = cJSON_AddObjectToObject(groups, r->groups.labels[g]);
			isc_json_add_num(go, "rows", (double)r->groups.counts[g]);
			cJSON_AddItemToObject(go, "metrics",
					      metrics_json(r, r->by_group + g * r->nmetrics * r->nfuncs));
			if (r->nflags)
				cJSON_AddItemToObject(go, "flags", stats_flags_json(r, g));
			if (r->hists)
				cJSON_AddItemToObject(go, "histograms", hists_json(r, (1 + g) * r->nmetrics));
		}
	}
	if (r->hists)
		cJSON_AddItemToObject(o, "histograms", hists_json(r, 0));
	return o;
}
