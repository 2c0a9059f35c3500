/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A run: a directory with info.json + datapoints.csv (idlescope, docs/format.md),
 * a wult raw result (info.yml + datapoints.csv), or a bare datapoints.csv path.
 */
#ifndef IDLESCOPE_RUN_H
#define IDLESCOPE_RUN_H
#include <stdbool.h>
#include <cjson/cJSON.h>
#include "formats/yaml_json.h"  /* isc_yaml_load, the ISC_META_* limits info.json shares */
#include "table/table.h"

#define ISC_FORMAT_VERSION "1.1"

struct isc_run {
	char *path;       /* as given by the user */
	char *dir;        /* directory that holds the files */
	char *dp_path;    /* datapoints.csv */
	char *name;       /* reportid, else directory name; unique within one invocation */
	const char *toolname;  /* "idlescope", "wult", or "unknown" (points into info) */
	cJSON *info;      /* info.json, or info.yml converted to JSON; an empty object if absent */
	struct isc_table *dp;   /* datapoints (NULL until loaded) */
};

/*
 * Open a run and read its metadata (not the datapoints). A missing info file is fine;
 * an unreadable or malformed one is a warning and the run goes on with empty metadata.
 * Returns -1 after printing an error when the path is not a run at all.
 */
int isc_run_open(const char *path, struct isc_run **out);
/* A run whose info says "complete": false (killed, stopped by a signal, an error): why, as
 * 'info.json says "complete": false, "stop_reason": "signal SIGINT"' (malloc'd); NULL when
 * it does not say so. isc_run_open() warns about it once: "RUN: incomplete run: <why>". */
char *isc_info_incomplete(const cJSON *info);
void isc_info_warn_incomplete(const cJSON *info, const char *path);
/* After opening (called by isc_run_open): warn once when format_version is not one we know,
 * and read wult's old "cpunum" key as "cpu". */
void isc_run_compat(struct isc_run *r);
/* The same, for a counter-only run (collect --counters): a directory with counters.csv and
 * no datapoints.csv opens with dp_path NULL. Other runs open as with isc_run_open. */
int isc_run_open_counters(const char *path, struct isc_run **out);
/* Whether path is a directory with counters.csv and no datapoints.csv. */
bool isc_is_counter_only_dir(const char *path);
/* The reader's options that the metadata sets (a complete run's row count) into *o. */
void isc_run_dp_opts(const struct isc_run *r, struct isc_table_opts *o);
/* Read datapoints.csv into run->dp. */
int isc_run_load_dp(struct isc_run *r, const struct isc_table_opts *opts);
void isc_run_free(struct isc_run *r);

/* Make run names unique across runs: the second "x" becomes "x-2", and so on. */
void isc_runs_uniquify_names(struct isc_run **runs, size_t n);

/* An info field (NULL if absent); nested keys with dots: "system.kernel". */
const cJSON *isc_run_info_item(const struct isc_run *r, const char *key);
/* The same as a string ("" if absent or not a string, number or boolean). */
const char *isc_run_info_str(const struct isc_run *r, const char *key);

/* Parse a JSON object file (info.json) the same way. */
cJSON *isc_json_load(const char *path, char *err, size_t errlen);

#endif
