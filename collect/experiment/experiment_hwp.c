/* SPDX-License-Identifier: GPL-2.0-only */
/* The HWP fields of every configuration of the plan checked against each other before
 * anything is written (--set hwp-min=highest --set hwp-max=lowest is refused). */
#include <string.h>

#include "experiment.h"
#include "settings/hwp_combo.h"

int plan_hwp_check(const struct plan *p, struct isc_settings *s, char *why, size_t len)
{
	const struct factor *fac[3] = { 0 };
	size_t idx[3] = { 0 };
	for (size_t i = 0; i < p->nfactors + p->nfixed; i++)
		for (int f = 0; f < 3; f++)
			if (!strcmp(plan_factor(p, i)->name, isc_hwp_fields[f]))
				fac[f] = plan_factor(p, i), idx[f] = i;
	if (!fac[0] && !fac[1] && !fac[2])
		return 0;
	for (size_t c = 0; c < p->nconfigs; c++) {
		const char *values[3] = { 0 };
		const struct isc_target *tgts[3] = { 0 };
		for (int f = 0; f < 3; f++) {
			if (!fac[f])
				continue;
			values[f] = idx[f] < p->nfactors ? plan_value(p, c, idx[f]) : fac[f]->values[0];
			tgts[f] = &fac[f]->tgt;
		}
		if (isc_hwp_combo_check(s, values, tgts, why, len) < 0)
			return -1;
	}
	return 0;
}
