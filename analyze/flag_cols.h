/* SPDX-License-Identifier: GPL-2.0-only */
/* 0/1 flag columns (IntrOff), shown as counts and shares rather than as metrics. */
#ifndef ANALYZE_FLAG_COLS_H
#define ANALYZE_FLAG_COLS_H
#include "diff/flags.h"  /* isc_is_flag_column, isc_flag_counts (lib/diff/flag_cols.c) */
#endif
