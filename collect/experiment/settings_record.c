/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What every run records about the settings in info.json: "settings" (every setting this
 * machine has, read at the start of the run), "settings_cpus" (all or measured),
 * "settings_changed" (name -> {"before", "after"}, those this run's driver changed),
 * "settings_targets" (name -> {"target", "cpus"}: the CPUs each was written on) and, for a
 * run of an experiment, "experiment" ({"directory", "config", "replicate", "run"}).
 *
 * A driver (experiment_run.c) hands the last two to its child runs in the environment
 * variable RUN_CONTEXT_ENV as one JSON object:
 *   {"sysroot": "", "settings_cpus": "all", "settings_changed": {...}, "settings_targets": {...},
 *    "experiment": {...}}
 */
#include <stdlib.h>
#include <string.h>

#include "experiment.h"
#include "settings/settings.h"
#include "text/util.h"

static const char *rec_sysroot;
static bool rec_measured;

void settings_record_setup(const char *sysroot, bool measured_only)
{
	rec_sysroot = sysroot;
	rec_measured = measured_only;
}

void collect_settings_record(cJSON *info, int cpu)
{
	const char *env = getenv(RUN_CONTEXT_ENV);
	cJSON *ctx = env ? cJSON_Parse(env) : NULL;
	const cJSON *root = cJSON_GetObjectItemCaseSensitive(ctx, "sysroot");
	const cJSON *cpus = cJSON_GetObjectItemCaseSensitive(ctx, "settings_cpus");
	const char *sysroot = cJSON_IsString(root) ? root->valuestring : rec_sysroot;
	bool measured = cJSON_IsString(cpus) ? !strcmp(cpus->valuestring, "measured") : rec_measured;

	struct isc_settings *s = isc_settings_open(sysroot, cpu, !measured);
	cJSON_AddItemToObject(info, "settings", isc_settings_record(s));
	isc_settings_close(s);
	cJSON_AddStringToObject(info, "settings_cpus", measured ? "measured" : "all");
	cJSON *changed = cJSON_DetachItemFromObjectCaseSensitive(ctx, "settings_changed");
	cJSON_AddItemToObject(info, "settings_changed", cJSON_IsObject(changed) ? changed : cJSON_CreateObject());
	if (!cJSON_IsObject(changed))
		cJSON_Delete(changed);
	cJSON *targets = cJSON_DetachItemFromObjectCaseSensitive(ctx, "settings_targets");
	cJSON_AddItemToObject(info, "settings_targets", cJSON_IsObject(targets) ? targets : cJSON_CreateObject());
	if (!cJSON_IsObject(targets))
		cJSON_Delete(targets);
	cJSON *exp = cJSON_DetachItemFromObjectCaseSensitive(ctx, "experiment");
	if (cJSON_IsObject(exp))
		cJSON_AddItemToObject(info, "experiment", exp);
	else
		cJSON_Delete(exp);
	cJSON_Delete(ctx);
}
