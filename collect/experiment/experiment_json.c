/* SPDX-License-Identifier: GPL-2.0-only */
/* experiment.json: the design, the settings before, every run taken (in order) and whether
 * everything was restored. docs/format.md, "experiment.json". */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experiment.h"
#include "text/util.h"
#include "idlescope/version.h"

static cJSON *design_json(const struct plan *p, const struct exp_opts *x)
{
	cJSON *d = cJSON_CreateObject(), *fs = cJSON_AddArrayToObject(d, "factors"), *fixed;
	for (size_t f = 0; f < p->nfactors; f++) {
		cJSON *o = cJSON_CreateObject(), *vals = cJSON_AddArrayToObject(o, "values");
		cJSON_AddStringToObject(o, "name", p->factors[f].name);
		for (size_t v = 0; v < p->factors[f].nvalues; v++)
			cJSON_AddItemToArray(vals, cJSON_CreateString(p->factors[f].values[v]));
		cJSON_AddItemToArray(fs, o);
	}
	fixed = cJSON_AddObjectToObject(d, "fixed");
	for (size_t i = 0; i < p->nfixed; i++)
		cJSON_AddStringToObject(fixed, p->fixed[i].name, p->fixed[i].values[0]);
	cJSON_AddNumberToObject(d, "repeat", p->repeat);
	cJSON_AddStringToObject(d, "order", plan_order_name(p->order));
	if (p->order == ORDER_RANDOM)
		cJSON_AddNumberToObject(d, "seed", (double)p->seed);
	else
		cJSON_AddNullToObject(d, "seed");
	cJSON_AddNumberToObject(d, "settle_s", x->settle_s);
	cJSON_AddStringToObject(d, "settings_cpus", x->measured_only ? "measured" : "all");
	cJSON_AddItemToObject(d, "targets", plan_targets_json(p));
	cJSON *plan = cJSON_AddArrayToObject(d, "plan");
	for (size_t i = 0; i < p->nruns; i++)
		cJSON_AddItemToArray(plan, cJSON_CreateString(p->runs[i].dir));
	return d;
}

cJSON *experiment_json_new(const struct plan *p, const struct exp_opts *x, int argc, char **argv,
			   cJSON *settings_before)
{
	char ts[64];
	cJSON *e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "format", "idlescope-experiment");
	cJSON_AddStringToObject(e, "format_version", EXPERIMENT_FORMAT_VERSION);
	cJSON_AddStringToObject(e, "toolname", "idlescope");
	cJSON_AddStringToObject(e, "toolver", IDLESCOPE_VERSION);
	cJSON *cmd = cJSON_AddArrayToObject(e, "command_line");
	for (int i = 0; i < argc; i++)
		cJSON_AddItemToArray(cmd, cJSON_CreateString(argv[i]));
	cJSON_AddItemToObject(e, "design", design_json(p, x));
	cJSON_AddItemToObject(e, "settings_before", settings_before);
	isc_iso_time(ts, sizeof(ts));
	cJSON_AddStringToObject(e, "start_time", ts);
	cJSON_AddNullToObject(e, "end_time");
	cJSON_AddArrayToObject(e, "runs");
	cJSON_AddArrayToObject(e, "slow_runs");
	cJSON_AddBoolToObject(e, "complete", false);
	cJSON_AddStringToObject(e, "stop_reason", "running");
	cJSON_AddNullToObject(e, "restored");
	cJSON_AddNullToObject(e, "settings_after");
	return e;
}

static cJSON *copy_of(const cJSON *info, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(info, key);
	return v ? cJSON_Duplicate(v, 1) : cJSON_CreateNull();
}

void experiment_json_add_run(cJSON *e, const struct plan *p, size_t k, const cJSON *run_info, int status)
{
	const struct plan_run *r = &p->runs[k];
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "path", r->dir);
	cJSON_AddItemToObject(o, "config", plan_config_json(p, r->config));
	cJSON_AddNumberToObject(o, "replicate", r->replicate);
	cJSON_AddItemToObject(o, "start_time", copy_of(run_info, "start_time"));
	cJSON_AddItemToObject(o, "end_time", copy_of(run_info, "end_time"));
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(run_info, "complete");
	cJSON_AddBoolToObject(o, "complete", cJSON_IsTrue(c) && status == 0);
	cJSON_AddItemToObject(o, "datapoints", copy_of(run_info, "datapoints"));
	cJSON_AddItemToObject(o, "stop_reason", copy_of(run_info, "stop_reason"));
	cJSON_AddNumberToObject(o, "exit_status", status);
	static const char *const judged[] = { "duration_s", "attempts", "discarded_pct", "mostly_discarded", "warnings" };
	for (size_t i = 0; i < sizeof(judged) / sizeof(judged[0]); i++)
		cJSON_AddItemToObject(o, judged[i], copy_of(run_info, judged[i]));
	cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(e, "runs"), o);
}

/* tmp + fsync + rename: a reader sees the old or the new file, never half of one. */
int experiment_json_write(int dirfd, const cJSON *e)
{
	char *text = cJSON_Print(e);
	int fd = openat(dirfd, ".experiment.json.tmp", O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	size_t n = strlen(text);
	bool ok = fd >= 0 && write(fd, text, n) == (ssize_t)n && write(fd, "\n", 1) == 1 && fsync(fd) == 0;
	if (fd >= 0 && close(fd) < 0)
		ok = false;
	ok = ok && renameat(dirfd, ".experiment.json.tmp", dirfd, "experiment.json") == 0;
	free(text);
	if (!ok)
		isc_err("experiment.json: cannot write it: %m");
	return ok ? 0 : -1;
}
