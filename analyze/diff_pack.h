/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze diff with packed number columns (lib/table/colpack.h): which readers take them. */
#ifndef IDLESCOPE_DIFF_PACK_H
#define IDLESCOPE_DIFF_PACK_H
#include <stdbool.h>

#include "run/run.h"

/* Whether the runs may be loaded packed: not for --causes (its reader takes arrays of
 * doubles), nor with IDLESCOPE_NO_PACK set. */
bool diff_pack_ok(bool causes);

/* Unpack what other readers than the metric comparison, the flag counts and the design
 * check read as arrays of doubles: the grouping column (--by's argument, by_col its column
 * when it has bins; either may be NULL). */
void diff_unpack_others(struct isc_run **runs, size_t n, const char *by, const char *by_col);

#endif
