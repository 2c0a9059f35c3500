/* SPDX-License-Identifier: GPL-2.0-only */
/* The --causes breakdown pools a run's requested states (causes_states.c). */
#ifndef ANALYZE_CAUSES_STATES_H
#define ANALYZE_CAUSES_STATES_H
#include "table/table.h"

/* Warn once when the table's rows are in more than one ReqCState, naming up to four. */
void causes_warn_states(const struct isc_table *t);

#endif
