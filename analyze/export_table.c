/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze export: a run's statistics as rows of the long table, CSV or JSON Lines. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text/json_num.h"
#include "text/util.h"
#include "export_table.h"
#include "out_format.h"

/* The run's description, the same in each of its rows. */
struct run_cols {
	const char *host, *kernel, *cpu_model, *method;
	char *config;          /* "name=value,name=value", "" outside an experiment */
	const cJSON *replicate;  /* number or NULL */
	const cJSON *settings;   /* object or NULL */
	char *settings_text;     /* it as compact JSON, "" without it */
};

static const char *const columns[] = {
	"run", "path", "host", "config", "replicate", "settings", "kernel", "cpu_model", "method",
	"by", "group", "rows", "metric", "func", "value",
};

/* remote.host (the name collect -H used), else the fleet directory's subdirectory (collect -H
 * and the Ansible role name it after the host), else system.hostname. */
static const char *run_host(const struct isc_run *run, const char *fleet_host)
{
	const char *h = isc_run_info_str(run, "remote.host");
	return h[0] ? h : fleet_host ? fleet_host : isc_run_info_str(run, "system.hostname");
}

static char *config_text(const cJSON *config)
{
	char *s = isc_xstrdup("");
	const cJSON *v;
	if (!cJSON_IsObject(config))
		return s;
	cJSON_ArrayForEach(v, config) {
		char *p = cJSON_IsString(v) ? NULL : cJSON_PrintUnformatted(v);
		char *next = isc_xasprintf("%s%s%s=%s", s, s[0] ? "," : "", v->string,
					   p ? p : v->valuestring);
		free(p);
		free(s);
		s = next;
	}
	return s;
}

static void run_cols_init(struct run_cols *c, const struct isc_run *run, const char *fleet_host)
{
	const cJSON *rep = isc_run_info_item(run, "experiment.replicate");
	const cJSON *set = isc_run_info_item(run, "settings");
	c->host = run_host(run, fleet_host);
	c->kernel = isc_run_info_str(run, "system.kernel.release");
	c->cpu_model = isc_run_info_str(run, "system.cpu.model_name");
	c->method = isc_run_info_str(run, "method");
	c->config = config_text(isc_run_info_item(run, "experiment.config"));
	c->replicate = cJSON_IsNumber(rep) ? rep : NULL;
	c->settings = cJSON_IsObject(set) ? set : NULL;
	c->settings_text = c->settings ? cJSON_PrintUnformatted(c->settings) : NULL;
	if (!c->settings_text)
		c->settings_text = isc_xstrdup("");
}

void export_header(FILE *f, enum export_format fmt)
{
	for (size_t i = 0; fmt == EXPORT_CSV && i < sizeof(columns) / sizeof(columns[0]); i++)
		fprintf(f, "%s%s", i ? "," : "", columns[i]);
	if (fmt == EXPORT_CSV)
		fputc('\n', f);
}

static void csv_num(FILE *f, double v)
{
	char num[ISC_NUM_STR_LEN];
	if (isfinite(v))  /* the shortest text that reads back as v; undefined is empty */
		fputs(isc_num_str(num, v), f);
}

static void csv_row(FILE *f, const struct isc_run *run, const struct run_cols *c, const char *by,
		    const char *group, size_t rows, const char *metric, const char *func, double v)
{
	const char *text[] = { run->name, run->path, c->host, c->config };
	for (size_t i = 0; i < 4; i++)
		csv_field(f, text[i]), fputc(',', f);
	if (c->replicate)
		csv_num(f, c->replicate->valuedouble);
	fputc(',', f);
	csv_field(f, c->settings_text);
	const char *more[] = { c->kernel, c->cpu_model, c->method, by, group };
	for (size_t i = 0; i < 5; i++)
		fputc(',', f), csv_field(f, more[i]);
	fprintf(f, ",%zu,", rows);
	csv_field(f, metric);
	fputc(',', f);
	csv_field(f, func);
	fputc(',', f);
	csv_num(f, v);
	fputc('\n', f);
}

static void jsonl_row(FILE *f, const struct isc_run *run, const struct run_cols *c, const char *by,
		      const char *group, size_t rows, const char *metric, const char *func, double v)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "run", run->name);
	cJSON_AddStringToObject(o, "path", run->path);
	cJSON_AddStringToObject(o, "host", c->host);
	cJSON_AddStringToObject(o, "config", c->config);
	if (c->replicate)
		isc_json_add_num(o, "replicate", c->replicate->valuedouble);
	else
		cJSON_AddNullToObject(o, "replicate");
	cJSON_AddItemToObject(o, "settings", c->settings ? cJSON_Duplicate(c->settings, 1)
							 : cJSON_CreateNull());
	cJSON_AddStringToObject(o, "kernel", c->kernel);
	cJSON_AddStringToObject(o, "cpu_model", c->cpu_model);
	cJSON_AddStringToObject(o, "method", c->method);
	cJSON_AddStringToObject(o, "by", by);
	cJSON_AddStringToObject(o, "group", group);
	isc_json_add_num(o, "rows", (double)rows);
	cJSON_AddStringToObject(o, "metric", metric);
	cJSON_AddStringToObject(o, "func", func);
	isc_json_add_num(o, "value", v);
	char *s = cJSON_PrintUnformatted(o);
	if (s)
		fputs(s, f), fputc('\n', f);
	free(s);
	cJSON_Delete(o);
}

/* The rows of all datapoints (by and group "") or of one group. */
static size_t group_rows(FILE *f, enum export_format fmt, const struct stats_result *r,
			 const struct run_cols *c, const char *by, const char *group, size_t rows,
			 const double *vals)
{
	for (size_t m = 0; m < r->nmetrics; m++)
		for (size_t i = 0; i < r->nfuncs; i++)
			(fmt == EXPORT_CSV ? csv_row : jsonl_row)(f, r->run, c, by, group, rows,
				r->metrics[m], r->funcs[i].name, vals[m * r->nfuncs + i]);
	return r->nmetrics * r->nfuncs;
}

size_t export_rows(FILE *f, enum export_format fmt, const struct stats_result *r,
		   const char *fleet_host)
{
	struct run_cols c;
	run_cols_init(&c, r->run, fleet_host);
	size_t n = group_rows(f, fmt, r, &c, "", "", r->run->dp->nrows, r->overall);
	for (size_t g = 0; r->group_col && g < r->groups.ngroups; g++)
		n += group_rows(f, fmt, r, &c, r->group_col, r->groups.labels[g], r->groups.counts[g],
				r->by_group + g * r->nmetrics * r->nfuncs);
	free(c.config);
	free(c.settings_text);
	return n;
}
