/* SPDX-License-Identifier: GPL-2.0-only */
/* The HWP request fields of one run checked against each other (hwp_combo.c). */
#ifndef IDLESCOPE_SETTINGS_HWP_COMBO_H
#define IDLESCOPE_SETTINGS_HWP_COMBO_H
#include <stddef.h>
#include "settings/settings.h"
#include "settings/target.h"

/* The fields, in the order of isc_hwp_combo_check's arrays. */
extern const char *const isc_hwp_fields[3];   /* hwp-min, hwp-max, hwp-desired */

/* One run's values of isc_hwp_fields (NULL: not set in that run) on their targets, with the
 * fields it leaves as they are now: on every CPU a field is written, min <= max and, unless
 * desired is 0 (auto), min <= desired <= max. 0, or -1 with one line in why. */
int isc_hwp_combo_check(struct isc_settings *s, const char *const values[3], const struct isc_target *const tgts[3],
			char *why, size_t len);

#endif
