/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What differs between configurations besides what was varied: the system description and
 * settings in info.json, and the machine load in the counters.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "counters/derive/counters_summary.h"
#include "diff/diff.h"
#include "text/util.h"
#include "diff/diff_design.h"

/* info.json fields that describe the system and the measurement (not the run's identity). */
static const char *const info_keys[] = {
	"toolname", "toolver", "method", "event_source", "cpu", "ldist_min_ns", "ldist_max_ns",
	"pm_qos.requested_us", "system.hostname", "system.kernel.release", "system.kernel.version",
	"system.cmdline", "system.cpu.vendor", "system.cpu.family", "system.cpu.model",
	"system.cpu.stepping", "system.cpu.model_name", "system.cpu.microcode", "system.kernel.machine",
	"system.cpus_online",
	"system.clocksource.current", "system.cpuidle.driver", "system.cpuidle.governor",
	"system.cpuidle.states", "system.pm_qos.cpu_dma_latency_us",
	"system.pm_qos.resume_latency_us", "settings_cpus",
};

/* A varied setting also changes these descriptive fields: they are expected to differ. */
static const struct { const char *setting, *key; } implied[] = {
	{ "cstates", "system.cpuidle.states" }, { "idle-governor", "system.cpuidle.governor" },
	{ "pm-qos", "pm_qos.requested_us" }, { "pm-qos", "system.pm_qos.cpu_dma_latency_us" },
	{ "method", "method" }, { "method", "event_source" }, { "cpu", "cpu" },
};

struct warnings {
	char **v;
	size_t n;
};

static void add(struct warnings *w, char *msg)
{
	w->v = isc_xrealloc(w->v, (w->n + 1) * sizeof(char *));
	w->v[w->n++] = msg;
}

static bool varied_key(const char *key, const char *const *varied, size_t nvaried)
{
	for (size_t i = 0; i < nvaried; i++) {
		if (!strncmp(key, "settings.", 9) && !strcmp(key + 9, varied[i]))
			return true;
		for (size_t k = 0; k < sizeof(implied) / sizeof(implied[0]); k++)
			if (!strcmp(implied[k].setting, varied[i]) && !strcmp(implied[k].key, key))
				return true;
	}
	return false;
}

/* A field as one line of text; "(none)" when absent. */
static char *field_text(const struct isc_run *r, const char *key)
{
	const cJSON *v = isc_run_info_item(r, key);
	if (!v || cJSON_IsNull(v))
		return isc_xstrdup("(none)");
	if (cJSON_IsString(v))
		return isc_xstrdup(v->valuestring);
	char *s = cJSON_PrintUnformatted(v), *out = isc_xstrdup(s ? s : "?");
	free(s);
	return out;
}

/* "a: x; b: y" with every distinct value of each configuration ("x | y" within one). Returns
 * NULL when every run has the same value. */
static char *compare_field(const struct isc_diff *d, const char *key)
{
	char *first = field_text(d->runs[0], key), *line = isc_xstrdup("");
	bool differ = false;
	for (size_t c = 0; c < d->nconfigs; c++) {
		char *vals = isc_xstrdup("");
		for (size_t i = 0; i < d->configs[c].nruns; i++) {
			char *v = field_text(d->runs[d->configs[c].runs[i]], key);
			differ |= strcmp(v, first) != 0;
			bool seen = false;  /* each distinct value once */
			for (size_t j = 0; j < i && !seen; j++) {
				char *u = field_text(d->runs[d->configs[c].runs[j]], key);
				seen = !strcmp(u, v);
				free(u);
			}
			char *next = seen ? isc_xstrdup(vals)
					  : isc_xasprintf("%s%s%s", vals, *vals ? " | " : "", v);
			free(vals);
			free(v);
			vals = next;
		}
		char *next = isc_xasprintf("%s%s%s: %.200s", line, c ? "; " : "", d->configs[c].name,
					  vals);
		free(vals);
		free(line);
		line = next;
	}
	free(first);
	if (!differ) {
		free(line);
		return NULL;
	}
	char *msg = isc_xasprintf("%s differs: %s", key, line);
	free(line);
	return msg;
}

static void info_warnings(const struct isc_diff *d, const char *const *varied, size_t nvaried,
			  struct warnings *w)
{
	for (size_t k = 0; k < sizeof(info_keys) / sizeof(info_keys[0]); k++) {
		char *msg = varied_key(info_keys[k], varied, nvaried) ? NULL
			    : compare_field(d, info_keys[k]);
		if (msg)
			add(w, msg);
	}
	/* every recorded setting (info.json "settings", from collect --set/--matrix) */
	char **names = NULL;
	size_t n = 0;
	for (size_t r = 0; r < d->nruns; r++) {
		const cJSON *s = cJSON_GetObjectItemCaseSensitive(d->runs[r]->info, "settings"), *it;
		cJSON_ArrayForEach(it, s) {
			bool have = false;
			for (size_t i = 0; i < n && !have; i++)
				have = !strcmp(names[i], it->string);
			if (!have) {
				names = isc_xrealloc(names, (n + 1) * sizeof(char *));
				names[n++] = it->string;
			}
		}
	}
	for (size_t i = 0; i < n; i++) {
		char *key = isc_xasprintf("settings.%s", names[i]);
		char *msg = varied_key(key, varied, nvaried) ? NULL : compare_field(d, key);
		if (msg)
			add(w, msg);
		free(key);
	}
	free(names);
}

/* Each configuration's mean of a counter column over its runs that have it. */
static double config_mean(const struct isc_diff *d, cJSON **sum, size_t c, const char *col,
			   char *runs, size_t len)
{
	double total = 0;
	size_t n = 0, at = 0;
	runs[0] = '\0';
	for (size_t i = 0; i < d->configs[c].nruns; i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(sum[d->configs[c].runs[i]], col);
		if (!cJSON_IsNumber(v))
			continue;
		total += v->valuedouble;
		n++;
		if (at < len)
			at += (size_t)snprintf(runs + at, len - at, "%s%.1f", at ? ", " : "",
					       v->valuedouble);
	}
	return n ? total / (double)n : NAN;
}

static void load_warnings(const struct isc_diff *d, cJSON **sum, struct warnings *w)
{
	static const struct { const char *col; double points, ratio; } load[] = {
		{ "Busy%", ISC_CONFOUND_BUSY_POINTS, 0 }, { "OS_Busy%", ISC_CONFOUND_BUSY_POINTS, 0 },
		{ "IRQ/s", 0, ISC_CONFOUND_IRQ_RATIO },
	};
	char rr[256], rc[256];
	for (size_t k = 0; k < sizeof(load) / sizeof(load[0]); k++) {
		double ref = config_mean(d, sum, 0, load[k].col, rr, sizeof(rr));
		for (size_t c = 1; c < d->nconfigs && !isnan(ref); c++) {
			double v = config_mean(d, sum, c, load[k].col, rc, sizeof(rc));
			bool off = load[k].points ? fabs(v - ref) > load[k].points
						  : fabs(v - ref) > load[k].ratio * fabs(ref);
			if (isnan(v) || !off)
				continue;
			add(w, isc_xasprintf("machine load: %s %.1f in %s (%s), %.1f in %s (%s)",
					    load[k].col, ref, d->configs[0].name, rr, v,
					    d->configs[c].name, rc));
		}
	}
}

size_t isc_diff_confounders(const struct isc_diff *d, const char *const *varied, size_t nvaried,
			   char ***out)
{
	struct warnings w = { 0 };
	info_warnings(d, varied, nvaried, &w);
	cJSON **sum = isc_xcalloc(d->nruns + 1, sizeof(cJSON *));
	bool any = false;
	for (size_t r = 0; r < d->nruns; r++)
		any |= isc_counters_summary(d->runs[r]->dir, &sum[r], NULL) > 0;
	if (any)
		load_warnings(d, sum, &w);
	isc_diff_discard_warnings(d, &w.v, &w.n);
	char **cw;
	size_t ncw = isc_counters_check_lines(d->runs, d->nruns, &cw);
	for (size_t i = 0; i < ncw; i++)
		add(&w, cw[i]);
	free(cw);
	isc_diff_design_warnings(d, &w.v, &w.n);
	for (size_t r = 0; r < d->nruns; r++)
		cJSON_Delete(sum[r]);
	free(sum);
	*out = w.v;
	return w.n;
}
