/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by collect/counters_*.c: counters.csv in a run directory. */
#ifndef COLLECT_COUNTERS_COLLECT_H
#define COLLECT_COUNTERS_COLLECT_H
#include <stdio.h>
#include "counters/sample/counters.h"

/* Create <dirfd>/counters.csv (an old file or planted symlink is replaced) and write the
 * header. NULL after printing an error. */
FILE *counters_csv_open(int dirfd, const char *dirpath, const struct cnt_set *s);
/* Take a snapshot and append its rows, flushed. -1 after printing an error. */
int counters_csv_snapshot(FILE *f, struct cnt_set *s, const char *dirpath);
/* Close; -1 after printing an error when something was not written. */
int counters_csv_close(FILE *f, const char *dirpath);

#endif
