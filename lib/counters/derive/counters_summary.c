/* SPDX-License-Identifier: GPL-2.0-only */
/* A run's counter summary for analyze diff and report (counters_summary.h). */
#include "counters/derive/counters_summary.h"
#include "formats/interrupts_text.h"
#include "run/run.h"
#include "formats/turbostat_text.h"

#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>

#include "counters/derive/counters_derive.h"
#include "text/util.h"

static cJSON *number_or_null(double v)
{
	return isnan(v) ? cJSON_CreateNull() : cJSON_CreateNumber(v);
}

/*
 * Event counts (IRQ, NMI, SMI, idle-state entries, --add deltas) grow with the length of the
 * window; runs of different lengths compare only as rates, so they are given per second
 * ("IRQ/s"). Energy is already a rate (Watts).
 */
static bool is_event_count(const struct cnt_result *r, size_t k)
{
	static const char *const energy[] = { "PkgWatt", "CorWatt", "RAMWatt", "Pkg_J", "Cor_J", "RAM_J" };
	if (r->agg[k] != CNT_AGG_SUM)
		return false;
	for (size_t i = 0; i < sizeof(energy) / sizeof(energy[0]); i++)
		if (!strcmp(r->cols[k], energy[i]))
			return false;
	return true;
}

static const char *summary_name(const struct cnt_result *r, size_t k, char *buf, size_t len)
{
	if (!is_event_count(r, k))
		return r->cols[k];
	snprintf(buf, len, "%s/s", r->cols[k]);
	return buf;
}

static double summary_value(const struct cnt_result *r, size_t k, const struct cnt_out_interval *iv)
{
	double v = iv->summary[k], secs = iv->t1 - iv->t0;
	if (!is_event_count(r, k))
		return v;
	return secs > 0 ? v / secs : NAN;
}

static cJSON *make_series(const struct cnt_data *d)
{
	struct cnt_derive_opts o = { 0 };
	struct cnt_result r;
	if (cnt_derive(d, &o, &r))
		return NULL;
	cJSON *s = cJSON_CreateObject();
	cJSON *t = cJSON_AddArrayToObject(s, "t");
	for (size_t i = 0; i < r.niv; i++)
		cJSON_AddItemToArray(t, cJSON_CreateNumber(r.iv[i].t1));
	for (size_t k = 0; k < r.ncols; k++) {
		char name[160];
		cJSON *a = cJSON_AddArrayToObject(s, summary_name(&r, k, name, sizeof(name)));
		for (size_t i = 0; i < r.niv; i++)
			cJSON_AddItemToArray(a, number_or_null(summary_value(&r, k, &r.iv[i])));
	}
	cnt_result_free(&r);
	return s;
}

static int counters_or_turbostat(const char *rundir, cJSON **summary, cJSON **series);

static int turbostat_fallback(const char *rundir, cJSON **summary, cJSON **series)
{
	struct stat st;
	char *ts = isc_xasprintf("%s/stats/turbostat.raw.txt", rundir);
	int rc = stat(ts, &st) == 0 && S_ISREG(st.st_mode) ? isc_turbostat_summary(ts, summary, series) : 0;
	free(ts);
	return rc;
}

long isc_counters_measured_cpu(const char *rundir)
{
	char err[256], *p = isc_xasprintf("%s/info.json", rundir);
	struct stat st;
	cJSON *info = stat(p, &st) == 0 ? isc_json_load(p, err, sizeof(err)) : NULL;
	free(p);
	if (!info) {
		p = isc_xasprintf("%s/info.yml", rundir);
		info = stat(p, &st) == 0 ? isc_yaml_load(p, err, sizeof(err)) : NULL;
		free(p);
	}
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(info, "cpu");
	if (!c)
		c = cJSON_GetObjectItemCaseSensitive(info, "cpunum");
	double v = cJSON_IsNumber(c) ? c->valuedouble : cJSON_IsString(c) ? strtod(c->valuestring, NULL) : -1;
	cJSON_Delete(info);
	return v >= 0 && v <= 1048575 && v == floor(v) ? (long)v : -1;
}

/* stats/interrupts.raw.txt of a wult result: the measured CPU's interrupt rates, added. */
static int add_interrupts(const char *rundir, cJSON **summary)
{
	struct stat st;
	char *p = isc_xasprintf("%s/stats/interrupts.raw.txt", rundir);
	long cpu = stat(p, &st) == 0 && S_ISREG(st.st_mode) ? isc_counters_measured_cpu(rundir) : -1;
	int rc = 0;
	if (cpu >= 0) {
		cJSON *s = *summary ? *summary : cJSON_CreateObject();
		rc = isc_interrupts_summary(p, cpu, s);
		if (!*summary && rc > 0)
			*summary = s;
		else if (!*summary)
			cJSON_Delete(s);
	}
	free(p);
	return rc;
}

int isc_counters_summary(const char *rundir, cJSON **summary, cJSON **series)
{
	*summary = NULL;
	if (series)
		*series = NULL;
	int rc = counters_or_turbostat(rundir, summary, series);
	int irc = rc < 0 ? 0 : add_interrupts(rundir, summary);
	if (irc < 0) {
		cJSON_Delete(*summary);
		*summary = NULL;
		if (series) {
			cJSON_Delete(*series);
			*series = NULL;
		}
		return -1;
	}
	return rc < 0 ? -1 : rc > 0 || irc > 0 ? 1 : 0;
}

static int counters_or_turbostat(const char *rundir, cJSON **summary, cJSON **series)
{
	struct cnt_data *d;
	int rc = cnt_data_load(rundir, &d);
	if (rc == 0)  /* no counters.csv: a wult result's turbostat output, if it has one */
		return turbostat_fallback(rundir, summary, series);
	if (rc < 0)
		return rc;
	struct cnt_derive_opts o = { .whole_run = true };
	struct cnt_result r;
	if (cnt_derive(d, &o, &r)) {
		cnt_data_free(d);
		return -1;
	}
	*summary = cJSON_CreateObject();
	for (size_t k = 0; k < r.ncols; k++) {
		char name[160];
		double v = summary_value(&r, k, &r.iv[0]);
		if (!isnan(v))
			cJSON_AddNumberToObject(*summary, summary_name(&r, k, name, sizeof(name)), v);
	}
	cnt_result_free(&r);
	if (series)
		*series = make_series(d);
	cnt_data_free(d);
	return 1;
}

int isc_counters_summary_cpu(const char *rundir, long cpu, cJSON **summary)
{
	struct cnt_data *d;
	struct cnt_result r;
	struct cnt_derive_opts o = { .whole_run = true };
	*summary = NULL;
	int rc = cpu < 0 ? 0 : cnt_data_load(rundir, &d);
	if (rc <= 0)
		return rc;
	if (cnt_derive(d, &o, &r)) {
		cnt_data_free(d);
		return -1;
	}
	const struct cnt_out_interval *iv = &r.iv[0];
	for (size_t j = 0; j < iv->ncpus; j++) {
		if (iv->cpus[j].cpu != cpu)
			continue;
		*summary = cJSON_CreateObject();
		for (size_t k = 0; k < r.ncols; k++) {
			char name[160];
			double v = iv->cpus[j].v[k], secs = iv->t1 - iv->t0;
			if (is_event_count(&r, k))
				v = secs > 0 ? v / secs : NAN;
			if (!isnan(v))
				cJSON_AddNumberToObject(*summary, summary_name(&r, k, name, sizeof(name)), v);
		}
	}
	cnt_result_free(&r);
	cnt_data_free(d);
	return *summary ? 1 : 0;
}
