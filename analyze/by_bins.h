/* analyze stats --by on a numeric column: equal-width bins instead of one group per value. */
#ifndef ANALYZE_BY_BINS_H
#define ANALYZE_BY_BINS_H
#include <stddef.h>
#include "idlescope/bins.h"
#include "idlescope/select.h"
#include "idlescope/table.h"

/* More distinct values than this in a numeric --by column without a bin count: binned. */
#define BY_AUTO_LIMIT IS_BY_AUTO_LIMIT
#define BY_AUTO_BINS IS_BY_AUTO_BINS

/* "LDist:10" -> *col "LDist" (malloc'd), *nbins 10: 1. A spec without ":N": 0. A bad N: -1
 * after a message. The parser analyze diff shares (is_by_bins_parse, bins.h). */
int by_bins_parse(const char *spec, char **col, size_t *nbins);

/*
 * Group t's rows by col: nbins > 0 bins a numeric column into nbins equal-width bins over
 * its values ("[lo, hi)", the last "[lo, hi]"; rows without a value in group ""); nbins == 0
 * groups by value, but a numeric column with more than BY_AUTO_LIMIT values is binned into
 * BY_AUTO_BINS with a note. A text column with nbins > 0 is an error. -1 after a message.
 */
int by_bins_group(const struct is_table *t, const char *col, size_t nbins, struct is_groups *g);

#endif
