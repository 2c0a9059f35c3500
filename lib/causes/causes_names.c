/* SPDX-License-Identifier: GPL-2.0-only */
/* The cause columns' names and families, and which column a cause needs (causes.h). */
#include "causes/causes.h"

#include <stdio.h>
#include <string.h>

const char *const isc_cause_count_cols[ISC_CAUSE_NCOUNT] = { "IRQCnt", "SWIRQCnt", "NMICnt", "SMICnt",
							     "StealTime" };
const char *const isc_cause_families[ISC_CAUSE_NCOUNT] = { "IRQ", "softirq", "NMI", "SMI", "steal" };

int isc_cause_column_of(const char *name)
{
	name += strspn(name, " ");
	if (!strcmp(name, "IRQ only") || !strncmp(name, "IRQ ", 4) || !strcmp(name, "IRQ"))
		return ISC_CNT_IRQ;
	if (!strcmp(name, "softirq only") || !strncmp(name, "softirq ", 8) || !strcmp(name, "softirq"))
		return ISC_CNT_SOFTIRQ;
	if (!strcmp(name, "NMI"))
		return ISC_CNT_NMI;
	if (!strcmp(name, "SMI"))
		return ISC_CNT_SMI;
	if (!strcmp(name, "steal") || !strcmp(name, "steal only"))
		return ISC_CNT_STEAL;
	return -1;
}

void isc_causes_family_list(unsigned measured, char *buf, size_t size)
{
	static const char *const shown[ISC_CAUSE_NCOUNT] = { "IRQ", "softirq", "NMI", "SMI", "steal time" };
	size_t n = 0, left = 0;
	for (size_t k = 0; k < ISC_CAUSE_NCOUNT; k++)
		left += (measured >> k) & 1;
	buf[0] = 0;
	for (size_t k = 0; k < ISC_CAUSE_NCOUNT && size; k++) {
		if (!((measured >> k) & 1))
			continue;
		left--;
		n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "%s%s", shown[k],
				      !left ? "" : left == 1 ? " or " : ", ");
		if (n >= size)
			return;
	}
}
