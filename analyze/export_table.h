/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * analyze export: the long table, one row per run x group x metric x function, with the
 * run's description (host, configuration, replicate, settings, kernel, CPU model, method)
 * in every row; CSV or JSON Lines (docs/export.md).
 */
#ifndef ANALYZE_EXPORT_TABLE_H
#define ANALYZE_EXPORT_TABLE_H
#include <stdio.h>

#include "stats_result.h"

enum export_format { EXPORT_CSV, EXPORT_JSONL };

/* The CSV header line (nothing for JSON Lines). */
void export_header(FILE *f, enum export_format fmt);
/* Every row of one run's statistics; returns how many were written. fleet_host: the
 * subdirectory of the fleet directory the run came from (NULL: not from one). */
size_t export_rows(FILE *f, enum export_format fmt, const struct stats_result *r,
		   const char *fleet_host);

#endif
