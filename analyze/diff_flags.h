/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * analyze diff: 0/1 flag columns (IntrOff) compared as proportions, and columns without
 * values left out with one note (as analyze stats does); the numbers: diff/flags.h.
 */
#ifndef ANALYZE_DIFF_FLAGS_H
#define ANALYZE_DIFF_FLAGS_H
#include <cjson/cJSON.h>
#include <stdio.h>

#include "diff/diff.h"
#include "diff/flags.h"

void diff_flags_text(FILE *f, const struct isc_diff_flags *fl, const struct isc_diff *d, size_t part);
void diff_flags_csv(FILE *f, const struct isc_diff_flags *fl, const struct isc_diff *d, size_t part,
		    const char *by, const char *group);
/* {NAME: {"values": [..], "set": [..], "share": [..], "runs": [{"values", "set", "share"}],
 *  "tests": [null, {"level", "method", "diff", "p", "differs", "significant", "p_adj" (level
 *  run)}]}} */
cJSON *diff_flags_json(const struct isc_diff_flags *fl, const struct isc_diff *d, size_t part);

#endif
