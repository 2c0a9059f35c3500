/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a datapoints column is to the method that wrote it: an outcome (what was measured:
 * WakeLatency, IntrLatency, residencies) or an input (a design variable the collector
 * controls: LDist, drawn from a random generator, SilentTime, which follows from it, LTime,
 * the launch time it sets). Comparisons give verdicts on outcomes; inputs are checked for
 * having been measured under the same design (docs/diff.md, "Outcomes and inputs").
 */
#ifndef IDLESCOPE_COL_ROLES_H
#define IDLESCOPE_COL_ROLES_H
#include <stdbool.h>

#include "run/run.h"

enum isc_col_role { ISC_ROLE_OUTCOME, ISC_ROLE_INPUT };

/* The role of column col in run r, by the method info.json ("method") or wult's info.yml
 * ("devid") names. A column no method lists is an outcome, so nothing measured is hidden. */
enum isc_col_role isc_col_role(const struct isc_run *r, const char *col);

#endif
