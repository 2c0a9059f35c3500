/* SPDX-License-Identifier: GPL-2.0-only */
/* The info.yml that wult's reader (wult calc/report/filter 1.12) needs, from idlescope's info.json tree. */
#ifndef IDLESCOPE_WULT_INFO_H
#define IDLESCOPE_WULT_INFO_H
#include <cjson/cJSON.h>

/* The wult result format version written (wult 1.12 reads "1.3" without a warning). */
#define ISC_WULT_FORMAT_VERSION "1.3"

/*
 * info.yml text for the run described by info (reportid, cpu, method, start_time,
 * duration_s), written by idlescope `version`; malloc'd, NULL when out of memory. toolname is "wult": wult's reader
 * refuses any other ("unknown tool"); toolver says "idlescope VERSION" so that the run is not
 * taken for wult's (docs/format.md, "For wult").
 */
char *isc_wult_info_yml(const cJSON *info, const char *version);
#endif
