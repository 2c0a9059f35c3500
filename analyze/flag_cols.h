/* 0/1 flag columns (IntrOff), shown as counts and shares rather than as metrics. */
#ifndef ANALYZE_FLAG_COLS_H
#define ANALYZE_FLAG_COLS_H
#include <stdbool.h>

#include "idlescope/table.h"

/* A known flag column of t whose values are all 0 or 1 (stats_flags.c). */
bool is_flag_column(const struct is_table *t, const char *name);

#endif
