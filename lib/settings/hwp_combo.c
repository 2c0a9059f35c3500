/* SPDX-License-Identifier: GPL-2.0-only */
/* hwp-min, hwp-max and hwp-desired of one run against each other, CPU by CPU: a field the
 * run does not write (or does not write on that CPU) counts with the value MSR 0x774 holds. */
#include <stdio.h>
#include <string.h>

#include "settings/settings_internal.h"
#include "settings/hwp_combo.h"

#define MSR_HWP_REQUEST 0x774

const char *const isc_hwp_fields[3] = { "hwp-min", "hwp-max", "hwp-desired" };

static bool targets(const struct isc_target *t, int cpu)
{
	for (size_t i = 0; t && i < t->ncpus; i++)
		if (t->cpus[i] == cpu)
			return true;
	return false;
}

/* "hwp-max=lowest (1)" or "hwp-max 45 (as now)". */
static void describe(char *buf, size_t len, int f, const char *value, unsigned level)
{
	if (value)
		snprintf(buf, len, "%s=%s (%u)", isc_hwp_fields[f], value, level);
	else
		snprintf(buf, len, "%s %u (as now)", isc_hwp_fields[f], level);
}

/* The three fields planned for cpu; given[f] whether the run writes field f there. */
static int planned(struct isc_settings *s, int cpu, const char *const values[3], const struct isc_target *const tgts[3],
		   unsigned lv[3], bool given[3], char *why, size_t len)
{
	uint64_t req;
	if (st_msr_read(s, cpu, MSR_HWP_REQUEST, &req) < 0) {
		snprintf(why, len, "hwp: cannot read MSR 0x774 of CPU %d", cpu);
		return -1;
	}
	for (int f = 0; f < 3; f++) {
		given[f] = values[f] && targets(tgts[f], cpu);
		lv[f] = (unsigned)(req >> (8 * f) & 0xff);
		if (!given[f])
			continue;
		char r[256];
		int l = st_hwp_level(s, isc_hwp_fields[f], cpu, values[f], r, sizeof(r));
		if (l < 0) {
			snprintf(why, len, "%s=%s: %s", isc_hwp_fields[f], values[f], r);
			return -1;
		}
		lv[f] = (unsigned)l;
	}
	return 0;
}

/* Field lo above field hi on cpu: one line. */
static int above(int cpu, int lo, int hi, const char *const values[3], const unsigned lv[3], const bool given[3],
		 char *why, size_t len)
{
	char a[128], b[128];
	describe(a, sizeof(a), lo, given[lo] ? values[lo] : NULL, lv[lo]);
	describe(b, sizeof(b), hi, given[hi] ? values[hi] : NULL, lv[hi]);
	snprintf(why, len, "%s is above %s on CPU %d (HWP needs min <= desired <= max)", a, b, cpu);
	return -1;
}

static int check_cpu(struct isc_settings *s, int cpu, const char *const values[3],
		     const struct isc_target *const tgts[3], char *why, size_t len)
{
	unsigned lv[3];
	bool given[3];
	if (planned(s, cpu, values, tgts, lv, given, why, len) < 0)
		return -1;
	if (!given[0] && !given[1] && !given[2])
		return 0;
	if (lv[0] > lv[1])
		return above(cpu, 0, 1, values, lv, given, why, len);
	if (lv[2] && lv[0] > lv[2])
		return above(cpu, 0, 2, values, lv, given, why, len);
	if (lv[2] && lv[2] > lv[1])
		return above(cpu, 2, 1, values, lv, given, why, len);
	return 0;
}

int isc_hwp_combo_check(struct isc_settings *s, const char *const values[3], const struct isc_target *const tgts[3],
			char *why, size_t len)
{
	for (int f = 0; f < 3; f++)
		for (size_t i = 0; values[f] && tgts[f] && i < tgts[f]->ncpus; i++)
			if (check_cpu(s, tgts[f]->cpus[i], values, tgts, why, len) < 0)
				return -1;
	return 0;
}
