/* SPDX-License-Identifier: GPL-2.0-only */
/* The intro: the runs side by side, what differs between them highlighted. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "text/util.h"
#include "run/discards.h"
#include "report.h"

/* Each row tries its keys in order: idlescope's info.json names first, then wult's. */
static const struct field {
	const char *label;
	const char *keys[4];
	const char *suffix;       /* appended to a plain number, e.g. " s" */
} fields[] = {
	{ "Tool", { "toolname" }, NULL },
	{ "Tool version", { "toolver", "tool_version" }, NULL },
	{ "Format version", { "format_version" }, NULL },
	{ "Method", { "method", "devid" }, NULL },
	{ "Event source", { "event_source", "devdescr" }, NULL },
	{ "Measured CPU", { "cpu" }, NULL },
	{ "Datapoints collected", { "datapoints" }, NULL },
	{ "Discarded", { "discards" }, NULL },
	{ "Complete", { "complete" }, NULL },
	{ "Stopped by", { "stop_reason", "stopped_by" }, NULL },
	{ "Start time", { "start_time", "date" }, NULL },
	{ "Duration", { "duration_s" }, " s" },
	{ "Host", { "system.hostname", "hostname" }, NULL },
	{ "Kernel", { "system.kernel.release", "system.kernel", "kernel" }, NULL },
	{ "CPU model", { "system.cpu.model_name", "system.cpu_model", "cpu_model" }, NULL },
	{ "Clock source", { "system.clocksource.current" }, NULL },
	{ "cpuidle driver", { "system.cpuidle.driver", "system.cpuidle_driver" }, NULL },
	{ "cpuidle governor", { "system.cpuidle.governor", "system.cpuidle_governor" }, NULL },
	{ "Idle states (latency/residency)", { "system.cpuidle.states", "system.idle_states" }, NULL },
	{ "PM QoS", { "pm_qos", "system.pm_qos" }, NULL },
};

static char *field_text(const struct isc_run *r, const struct field *f)
{
	for (size_t k = 0; k < 4 && f->keys[k]; k++) {
		const cJSON *v = isc_run_info_item(r, f->keys[k]);
		char *t = json_text(v);
		if (t && f->suffix && cJSON_IsNumber(v)) {
			char *s = isc_xasprintf("%.4g%s", v->valuedouble, f->suffix);
			free(t);
			t = s;
		}
		if (t)
			return t;
	}
	return NULL;
}

/* "1000 - 4000 us" from info.json's ldist_min_ns/ldist_max_ns. */
static char *ldist_text(const struct isc_run *r)
{
	const cJSON *lo = isc_run_info_item(r, "ldist_min_ns"), *hi = isc_run_info_item(r, "ldist_max_ns");
	if (!cJSON_IsNumber(lo) || !cJSON_IsNumber(hi))
		return NULL;
	return isc_xasprintf("%g \u2013 %g us", lo->valuedouble / 1000, hi->valuedouble / 1000);
}

/* The command line (an array of arguments) as one line. */
static char *cmdline_text(const struct isc_run *r)
{
	const cJSON *a = isc_run_info_item(r, "cmdline");
	char *s = NULL;
	if (!cJSON_IsArray(a))
		return json_text(a);
	for (const cJSON *c = a->child; c; c = c->next) {
		char *next = isc_xasprintf("%s%s%s", s ? s : "", s ? " " : "",
					  cJSON_IsString(c) ? c->valuestring : "?");
		free(s);
		s = next;
	}
	return s;
}

static bool all_equal(char **v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (!v[i] != !v[0] || (v[i] && strcmp(v[i], v[0])))
			return false;
	return true;
}

/* One row; vals[r] may be NULL (shown as a dash). Nothing when every value is missing. */
static void row(struct report *rep, const char *label, char **vals, bool code)
{
	FILE *f = rep->html;
	bool any = false;
	for (size_t r = 0; r < rep->nruns; r++)
		any |= vals[r] != NULL;
	if (!any)
		return;
	fprintf(f, "<tr%s><th>", rep->nruns > 1 && !all_equal(vals, rep->nruns) ? " class=\"differs\"" : "");
	html_esc(f, label);
	fputs("</th>", f);
	for (size_t r = 0; r < rep->nruns; r++) {
		if (!vals[r]) {
			fputs("<td class=\"missing\">\u2014</td>", f);
			continue;
		}
		fputs(code ? "<td><code>" : "<td>", f);
		html_esc(f, vals[r]);
		fputs(code ? "</code></td>" : "</td>", f);
	}
	fputs("</tr>\n", f);
}

static void free_vals(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i]);
		v[i] = NULL;
	}
}

static void table_head(struct report *rep, const char *cls)
{
	fprintf(rep->html, "<table class=\"%s\">\n<thead><tr><th></th>", cls);
	for (size_t r = 0; r < rep->nruns; r++) {
		fprintf(rep->html, "<th><span class=\"swatch\" style=\"background:%s\"></span>",
			run_colour(colour_of(rep, r)));
		html_esc(rep->html, rep->runs[r]->name);
		bool ref = rep->config_of[r] == 0 && rep->nruns > 1 && !rep->grouped;
		fputs(ref ? "<br><small>reference</small></th>" : "</th>", rep->html);
	}
	fputs("</tr></thead>\n<tbody>\n", rep->html);
}

/* Every info field as a dotted path, for the "all metadata" table. */
static void flatten(const cJSON *o, const char *prefix, char ***keys, size_t *n)
{
	for (const cJSON *c = o ? o->child : NULL; c; c = c->next) {
		char *k = prefix ? isc_xasprintf("%s.%s", prefix, c->string) : isc_xstrdup(c->string);
		if (cJSON_IsObject(c) && c->child) {
			flatten(c, k, keys, n);
			free(k);
			continue;
		}
		bool seen = false;
		for (size_t i = 0; i < *n && !seen; i++)
			seen = !strcmp((*keys)[i], k);
		if (seen) {
			free(k);
			continue;
		}
		*keys = isc_xrealloc(*keys, (*n + 1) * sizeof(**keys));
		(*keys)[(*n)++] = k;
	}
}

static void all_metadata(struct report *rep, char **vals)
{
	char **keys = NULL;
	size_t nkeys = 0;
	for (size_t r = 0; r < rep->nruns; r++)
		flatten(rep->runs[r]->info, NULL, &keys, &nkeys);
	if (!nkeys)
		return;
	fputs("<details>\n<summary>All metadata fields</summary>\n", rep->html);
	table_head(rep, "intro");
	for (size_t k = 0; k < nkeys; k++) {
		for (size_t r = 0; r < rep->nruns; r++)
			vals[r] = json_text(isc_run_info_item(rep->runs[r], keys[k]));
		row(rep, keys[k], vals, true);
		free_vals(vals, rep->nruns);
		free(keys[k]);
	}
	free(keys);
	fputs("</tbody></table>\n</details>\n", rep->html);
}

/* What differs between the configurations besides what was varied: a box above every verdict. */
static void confounders(struct report *rep)
{
	FILE *f = rep->html;
	if (!rep->nwarn)
		return;
	fputs("<div class=\"warnings\"><p>Besides what was varied, the configurations differ in "
	      "(read the verdicts with this in mind):</p>\n<ul>\n", f);
	for (size_t i = 0; i < rep->nwarn; i++) {
		fputs("<li>", f);
		html_esc(f, rep->warn[i]);
		fputs("</li>\n", f);
	}
	fputs("</ul></div>\n", f);
}

/* The experiment's design and the configurations with their runs, in order. */
static void design(struct report *rep)
{
	FILE *f = rep->html;
	if (!rep->grouped && !rep->cl.design)
		return;
	fputs("<p class=\"note\">", f);
	if (rep->cl.design) {
		fputs("Experiment ", f);
		html_esc(f, rep->cl.design);
		fputs(". ", f);
	}
	fprintf(f, "%zu configurations, the first the reference: ", rep->nconfigs);
	for (size_t c = 0; c < rep->nconfigs; c++) {
		fprintf(f, "%s<span class=\"swatch\" style=\"background:%s\"></span><b>", c ? "; " : "",
			run_colour(c));
		html_esc(f, rep->configs[c].name);
		fputs("</b> (", f);
		for (size_t i = 0; i < rep->configs[c].nruns; i++) {
			fputs(i ? ", " : "", f);
			html_esc(f, rep->runs[rep->configs[c].runs[i]]->name);
		}
		fputs(")", f);
	}
	fputs(". Runs are listed by configuration, each in the order given or taken. With two or more "
	      "runs per configuration the verdicts compare the runs' medians (runs weighted by "
	      "precision, one Holm-adjusted family per comparison, three or more runs a side for an "
	      "answer); replicate runs share their configuration's colour.</p>\n", f);
}

/* A run whose info says "complete": false is said to be so before anything else about it. */
static void incomplete_notes(struct report *rep)
{
	for (size_t r = 0; r < rep->nruns; r++) {
		char *why = isc_info_incomplete(rep->runs[r]->info);
		if (!why)
			continue;
		fputs("<p class=\"incomplete\"><strong>Incomplete run</strong> ", rep->html);
		html_esc(rep->html, rep->runs[r]->name);
		fputs(": ", rep->html);
		html_esc(rep->html, why);
		fputs(". Its datapoints are those written before it stopped.</p>\n", rep->html);
		free(why);
	}
}

/* A run that discarded more than half of its attempts (discards.h): what its datapoints are. */
static void biased_notes(struct report *rep)
{
	for (size_t r = 0; r < rep->nruns; r++) {
		char *why = isc_info_biased(rep->runs[r]->info);
		if (!why)
			continue;
		fputs("<p class=\"incomplete\"><strong>Biased run</strong> ", rep->html);
		html_esc(rep->html, rep->runs[r]->name);
		fputs(": ", rep->html);
		html_esc(rep->html, why);
		fputs(".</p>\n", rep->html);
		free(why);
	}
}

void section_intro(struct report *rep)
{
	FILE *f = rep->html;
	char **vals = isc_xcalloc(rep->nruns, sizeof(*vals));

	fputs("<section id=\"runs\">\n<h2>Runs</h2>\n", f);
	confounders(rep);
	design(rep);
	if (rep->nruns > 1 && !rep->grouped && rep->configs[0].runs[0] == 0)
		fputs("<p class=\"note\">The first run is the reference: changes are against it. "
		      "Rows where the runs differ are highlighted.</p>\n", f);
	incomplete_notes(rep);
	biased_notes(rep);
	table_head(rep, "intro");
	if (rep->grouped || rep->configs[0].runs[0] != 0) {
		for (size_t r = 0; r < rep->nruns; r++)
			vals[r] = isc_xasprintf("%s%s", rep->configs[rep->config_of[r]].name,
					       rep->config_of[r] ? "" : " (reference)");
		row(rep, "Configuration", vals, false);
		free_vals(vals, rep->nruns);
	}
	for (size_t r = 0; r < rep->nruns; r++) {  /* the run's own ID, not the uniquified name */
		const cJSON *id = isc_run_info_item(rep->runs[r], "reportid");
		vals[r] = isc_xstrdup(cJSON_IsString(id) && id->valuestring[0] ? id->valuestring
									 : rep->runs[r]->name);
	}
	row(rep, "Report ID", vals, false);
	free_vals(vals, rep->nruns);
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		for (size_t r = 0; r < rep->nruns; r++)
			vals[r] = field_text(rep->runs[r], &fields[i]);
		row(rep, fields[i].label, vals, false);
		free_vals(vals, rep->nruns);
		if (i == 5) {  /* after the measured CPU */
			for (size_t r = 0; r < rep->nruns; r++)
				vals[r] = ldist_text(rep->runs[r]);
			row(rep, "LDist range", vals, false);
			free_vals(vals, rep->nruns);
		}
	}
	for (size_t r = 0; r < rep->nruns; r++)
		vals[r] = cmdline_text(rep->runs[r]);
	row(rep, "Command line", vals, true);
	free_vals(vals, rep->nruns);
	for (size_t r = 0; r < rep->nruns; r++) {
		vals[r] = isc_xmalloc(40);
		group_digits(vals[r], 40, rep->runs[r]->dp->nrows);
	}
	row(rep, rep->o->include || rep->o->exclude ? "Datapoints in this report (filtered)"
						      : "Datapoints in this report", vals, false);
	free_vals(vals, rep->nruns);
	for (size_t r = 0; r < rep->nruns; r++)
		vals[r] = isc_xstrdup(rep->runs[r]->path);
	row(rep, "Path", vals, true);
	free_vals(vals, rep->nruns);
	if (rep->o->copy_raw) {
		fputs("<tr><th>Raw data</th>", f);
		for (size_t r = 0; r < rep->nruns; r++) {
			char *d = raw_dir_name(r);
			fputs("<td><a href=\"raw/", f);
			html_esc(f, d);
			fputs("/\">raw/", f);
			html_esc(f, d);
			fputs("/</a></td>", f);
			free(d);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
	if (rep->left_out) {
		fputs("<p class=\"note\">Metrics left out because some runs do not have them: ", f);
		html_esc(f, rep->left_out);
		fputs(".</p>\n", f);
	}
	if (rep->fl.empty) {  /* the note on stderr, isc_diff_flags_columns */
		fputs("<p class=\"note\">No values in ", f);
		html_esc(f, rep->fl.empty);
		fputs("; left out (no table, no plot).</p>\n", f);
	}
	all_metadata(rep, vals);
	fputs("</section>\n", f);
	free(vals);
}
