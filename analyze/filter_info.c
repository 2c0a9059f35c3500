/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze filter: the new run's info.json, the source's metadata and how it was filtered. */
#include "filter_info.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "formats/wult_info.h"
#include "text/json_num.h"
#include "text/json_out.h"
#include "text/util.h"
#include "idlescope/version.h"

static void set_str(cJSON *o, const char *key, const char *v)
{
	cJSON_DeleteItemFromObjectCaseSensitive(o, key);
	if (v)
		cJSON_AddStringToObject(o, key, v);
}

static void set_num(cJSON *o, const char *key, double v)
{
	cJSON_DeleteItemFromObjectCaseSensitive(o, key);
	isc_json_add_num(o, key, v);
}

static cJSON *filtered_from(const struct filter_opts *o, const struct isc_run *src)
{
	cJSON *f = cJSON_CreateObject();
	char *abs = realpath(o->in, NULL);
	char when[32];
	time_t now = time(NULL);
	struct tm tm;
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	set_str(f, "path", abs ? abs : o->in);
	free(abs);
	set_str(f, "reportid", src->name);
	set_str(f, "toolname", src->toolname);
	set_str(f, "toolver", isc_run_info_str(src, "toolver"));
	set_str(f, "format_version", isc_run_info_str(src, "format_version"));
	set_str(f, "include", o->load.include);
	set_str(f, "exclude", o->load.exclude);
	set_str(f, "metrics", o->metrics_re);
	set_num(f, "rows_in", (double)o->rows_in);
	set_num(f, "rows_out", (double)o->rows_out);
	set_str(f, "time", when);
	return f;
}

static int write_text(const char *dir, const char *name, const char *text)
{
	char *path = isc_xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	int rc = f && text && fputs(text, f) >= 0 ? 0 : -1;
	if (f && fclose(f) != 0)
		rc = -1;
	if (rc < 0)
		isc_err("%s: cannot write", path);
	free(path);
	return rc;
}

int filter_write_info(const struct filter_opts *o, const struct isc_run *src, const char *dir)
{
	cJSON *info = cJSON_Duplicate(src->info, 1);
	set_str(info, "toolname", "idlescope");
	set_str(info, "toolver", IDLESCOPE_VERSION);
	set_str(info, "format_version", ISC_FORMAT_VERSION);
	set_str(info, "reportid", o->reportid);
	set_num(info, "datapoints", (double)o->rows_out);
	cJSON_DeleteItemFromObjectCaseSensitive(info, "filtered_from");
	cJSON_AddItemToObject(info, "filtered_from", filtered_from(o, src));
	char *json = isc_json_render(info, true);
	char *text = json ? isc_xasprintf("%s\n", json) : NULL;
	char *yml = isc_wult_info_yml(info, IDLESCOPE_VERSION);
	cJSON_Delete(info);
	int rc = write_text(dir, "info.json", text) < 0 || write_text(dir, "info.yml", yml) < 0 ? -1 : 0;
	free(json);
	free(text);
	free(yml);
	return rc;
}
