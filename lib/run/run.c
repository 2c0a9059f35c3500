/* SPDX-License-Identifier: GPL-2.0-only */
/* Opening runs: idlescope run directories, wult raw results, bare datapoints.csv files. */
#include "run/run.h"

#include <errno.h>
#include <stdbool.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "text/json_num.h"
#include "text/textsafe.h"
#include "text/util.h"
#include "run/discards.h"

static char *path_join(const char *dir, const char *name)
{
	return isc_xasprintf("%s%s%s", dir, dir[0] && dir[strlen(dir) - 1] == '/' ? "" : "/", name);
}

static char *base_name(const char *path)
{
	char *copy = isc_xstrdup(path);
	size_t n = strlen(copy);
	while (n > 1 && copy[n - 1] == '/')
		copy[--n] = '\0';
	char *b = isc_xstrdup(basename(copy));
	free(copy);
	return b;
}

/* info.json, else info.yml; a broken one is a warning and the run goes on without it. */
static cJSON *load_info(const char *dir)
{
	char err[512] = "";
	char *json = path_join(dir, "info.json"), *yml = path_join(dir, "info.yml");
	struct stat st;
	cJSON *info = NULL;
	if (lstat(json, &st) == 0)
		info = isc_json_load(json, err, sizeof(err));
	else if (lstat(yml, &st) == 0)
		info = isc_yaml_load(yml, err, sizeof(err));
	if (!info && err[0])
		isc_warn("%s; going on without run metadata", err);
	free(json);
	free(yml);
	return info ? info : cJSON_CreateObject();
}

static const char *str_field(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) && v->valuestring[0] ? v->valuestring : NULL;
}

/* Why a directory's datapoints.csv cannot be reached: only a plain ENOENT means there is none;
 * a dangling or looping symlink and an unsearchable directory say so. */
static int no_datapoints(const char *dir, const char *dp)
{
	int e = errno;
	struct stat st;
	if (e == ENOENT && lstat(dp, &st) == 0 && S_ISLNK(st.st_mode))
		isc_err("%s: dangling symbolic link (its target: %s)", dp, strerror(e));
	else if (e == ENOENT)
		isc_err("%s: not a run directory (no datapoints.csv)%s", dir, isc_is_counter_only_dir(dir) ?
		       "; it is a counter-only run: 'analyze counters' reads it, and 'analyze diff'"
		       " and 'report' take it with other counter-only runs" : "");
	else
		isc_err("%s: %s", dp, strerror(e));
	return -1;
}

static int locate(struct isc_run *r, const char *path, bool counters_only)
{
	struct stat st;
	if (stat(path, &st) < 0) {
		isc_err("%s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		r->dir = isc_xstrdup(path);
		r->dp_path = path_join(path, "datapoints.csv");
		if (counters_only) {  /* collect --counters: counters.csv without datapoints */
			char *c = path_join(path, "counters.csv");
			int rc = stat(c, &st);
			free(c);
			if (rc == 0) {
				free(r->dp_path);
				r->dp_path = NULL;
				return 0;
			}
		}
		return stat(r->dp_path, &st) < 0 ? no_datapoints(path, r->dp_path) : 0;
	}
	if (!S_ISREG(st.st_mode)) {
		isc_err("%s: not a run directory or a CSV file", path);
		return -1;
	}
	char *copy = isc_xstrdup(path);
	r->dir = isc_xstrdup(dirname(copy));
	free(copy);
	r->dp_path = isc_xstrdup(path);
	return 0;
}

/* "stop_reason" (latency runs) or "stopped_by" (counter runs) as a quoted, printable part. */
static char *stop_part(const cJSON *info)
{
	static const char *const keys[] = { "stop_reason", "stopped_by" };
	for (size_t i = 0; i < 2; i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(info, keys[i]);
		if (!cJSON_IsString(v))
			continue;
		char q[80];
		isc_quote_for_msg(v->valuestring, strlen(v->valuestring), q, sizeof(q));
		return isc_xasprintf(", \"%s\": \"%s\"%s", keys[i], q, strcmp(v->valuestring, "running") ? ""
				    : " (the collector was killed, or is still running)");
	}
	return isc_xstrdup("");
}

char *isc_info_incomplete(const cJSON *info)
{
	if (!cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(info, "complete")))
		return NULL;
	char *stop = stop_part(info), *why;
	why = isc_xasprintf("info.json says \"complete\": false%s", stop);
	free(stop);
	return why;
}

void isc_info_warn_incomplete(const cJSON *info, const char *path)
{
	char *why = isc_info_incomplete(info);
	if (why)
		isc_warn("%s: incomplete run: %s", path, why);
	free(why);
}

static int run_open(const char *path, bool counters_only, struct isc_run **out)
{
	struct isc_run *r = isc_xcalloc(1, sizeof(*r));
	*out = NULL;
	r->path = isc_xstrdup(path);
	if (locate(r, path, counters_only) < 0) {
		isc_run_free(r);
		return -1;
	}
	r->info = load_info(r->dir);
	isc_info_warn_incomplete(r->info, path);
	isc_info_warn_biased(r->info, path);
	const char *id = str_field(r->info, "reportid");
	/* Without a reportid: the directory's name, or the file's for a bare CSV in "." The
	 * name is a label in every output: control characters and invalid UTF-8 in it are written
	 * as \xNN here, once, so that it reads the same in text, CSV, JSON and HTML. */
	char *raw = id ? isc_xstrdup(id) : base_name(strcmp(r->dir, ".") ? r->dir : path);
	r->name = isc_text_dup(raw, ISC_TEXT_LINE);
	free(raw);
	r->toolname = str_field(r->info, "toolname");
	if (!r->toolname)
		r->toolname = "unknown";
	isc_run_compat(r);
	*out = r;
	return 0;
}

int isc_run_open(const char *path, struct isc_run **out)
{
	return run_open(path, false, out);
}

int isc_run_open_counters(const char *path, struct isc_run **out)
{
	return run_open(path, true, out);
}

void isc_run_dp_opts(const struct isc_run *r, struct isc_table_opts *o)
{
	const cJSON *complete = cJSON_GetObjectItemCaseSensitive(r->info, "complete");
	const cJSON *rows = cJSON_GetObjectItemCaseSensitive(r->info, "datapoints");
	/* a whole last line without its newline is kept only when info.json vouches for it */
	uint64_t n;
	if (cJSON_IsTrue(complete) && isc_json_count(rows, &n)) {
		o->known_complete = true;
		o->known_rows = (size_t)n;
	}
}

int isc_run_load_dp(struct isc_run *r, const struct isc_table_opts *opts)
{
	struct isc_table_opts o = opts ? *opts : (struct isc_table_opts){ 0 };
	isc_run_dp_opts(r, &o);
	isc_table_free(r->dp);
	r->dp = NULL;
	return isc_table_read(r->dp_path, &o, &r->dp);
}

void isc_run_free(struct isc_run *r)
{
	if (!r)
		return;
	isc_table_free(r->dp);
	cJSON_Delete(r->info);
	free(r->path);
	free(r->dir);
	free(r->dp_path);
	free(r->name);
	free(r);
}

void isc_runs_uniquify_names(struct isc_run **runs, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		int dup = 0;
		for (size_t k = 0; k < i; k++)
			dup += strcmp(runs[k]->name, runs[i]->name) == 0;
		for (int suffix = 2; dup; suffix++) {
			char *cand = isc_xasprintf("%s-%d", runs[i]->name, suffix);
			dup = 0;
			for (size_t k = 0; k < n; k++)
				dup += k != i && strcmp(runs[k]->name, cand) == 0;
			if (!dup) {
				free(runs[i]->name);
				runs[i]->name = cand;
			} else {
				free(cand);
			}
		}
	}
}

const cJSON *isc_run_info_item(const struct isc_run *r, const char *key)
{
	const cJSON *v = r->info;
	char part[128];
	for (const char *p = key; v && *p;) {
		const char *dot = strchr(p, '.');
		size_t len = dot ? (size_t)(dot - p) : strlen(p);
		if (len >= sizeof(part))
			return NULL;
		memcpy(part, p, len);
		part[len] = '\0';
		v = cJSON_GetObjectItemCaseSensitive(v, part);
		p += len + (dot ? 1 : 0);
	}
	return v;
}

const char *isc_run_info_str(const struct isc_run *r, const char *key)
{
	static __thread char num[64];
	const cJSON *v = isc_run_info_item(r, key);
	if (cJSON_IsString(v))
		return v->valuestring;
	if (cJSON_IsNumber(v)) {
		snprintf(num, sizeof(num), "%.15g", v->valuedouble);
		return num;
	}
	if (cJSON_IsBool(v))
		return cJSON_IsTrue(v) ? "true" : "false";
	return "";
}
