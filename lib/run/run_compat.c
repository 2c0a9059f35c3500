/* SPDX-License-Identifier: GPL-2.0-only */
/* Older and foreign run metadata: format versions we do not know, wult's old key names. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/run.h"
#include "text/util.h"

/* wult's raw result format versions this reader was written against. */
static const char *const wult_known[] = { "1.0", "1.1", "1.2", "1.3" };

static bool known_version(const char *tool, const char *v)
{
	if (!strcmp(tool, "wult")) {
		for (size_t i = 0; i < sizeof(wult_known) / sizeof(wult_known[0]); i++)
			if (!strcmp(v, wult_known[i]))
				return true;
		return false;
	}
	/* idlescope: any minor version of major 1 (docs/format.md, Versioning) */
	size_t major = strlen(ISC_FORMAT_VERSION) - strlen(strchr(ISC_FORMAT_VERSION, '.'));
	return !strncmp(v, ISC_FORMAT_VERSION, major + 1) && v[major + 1] >= '0' && v[major + 1] <= '9';
}

void isc_run_compat(struct isc_run *r)
{
	const cJSON *fv = cJSON_GetObjectItemCaseSensitive(r->info, "format_version");
	const char *tool = r->toolname;
	/* wult before 1.10 or so wrote the measured CPU as "cpunum" */
	const cJSON *cpunum = cJSON_GetObjectItemCaseSensitive(r->info, "cpunum");
	if (cpunum && !cJSON_HasObjectItem(r->info, "cpu"))
		cJSON_AddItemToObject(r->info, "cpu", cJSON_Duplicate(cpunum, 1));
	if (!fv || (strcmp(tool, "wult") && strcmp(tool, "idlescope")))
		return;
	const char *v = isc_run_info_str(r, "format_version");
	char *json = isc_xasprintf("%s/info.json", r->dir);
	const char *info_name = access(json, F_OK) == 0 ? "info.json" : "info.yml";
	free(json);
	if (!known_version(tool, v))
		isc_warn("%s/%s: format_version '%s' is not one this reader knows (%s); reading it as "
			"the newest known, some columns or keys may be misread", r->dir, info_name, v,
			strcmp(tool, "wult") ? "idlescope " ISC_FORMAT_VERSION " and other 1.x" : "wult 1.0 to 1.3");
}

bool isc_is_counter_only_dir(const char *path)
{
	struct stat st;
	char *dp = isc_xasprintf("%s/datapoints.csv", path), *cnt = isc_xasprintf("%s/counters.csv", path);
	bool yes = stat(path, &st) == 0 && S_ISDIR(st.st_mode) && stat(dp, &st) < 0 && stat(cnt, &st) == 0;
	free(dp);
	free(cnt);
	return yes;
}
