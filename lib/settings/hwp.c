/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hwp-min, hwp-max, hwp-desired: the performance levels a CPU asks of Intel HWP, the fields of
 * IA32_HWP_REQUEST (MSR 0x774) bits 7:0, 15:8 and 23:16, present when HWP is on
 * (IA32_PM_ENABLE, MSR 0x770, bit 0). The levels lie within IA32_HWP_CAPABILITIES (MSR 0x771):
 * highest 7:0, guaranteed 15:8, most efficient 23:16, lowest 31:24. hwp-desired 0 ("auto")
 * leaves the choice to the hardware. A request that defers to the package one (bit 42) is
 * refused. intel_pstate rewrites MSR 0x774 when its own limits change (scaling_min/max_freq,
 * EPP, CPU online): set freq/epp in the same run through sysfs rather than racing it.
 */
#include <stdlib.h>
#include <string.h>

#include "text/util.h"
#include "settings/settings_internal.h"

#define MSR_PM_ENABLE 0x770
#define MSR_HWP_CAPS 0x771
#define MSR_HWP_REQUEST 0x774
#define HWP_PKG_CONTROL (1ull << 42)

static unsigned shift_of(const char *name)
{
	return !strcmp(name, "hwp-min") ? 0 : !strcmp(name, "hwp-max") ? 8 : 16;
}

static int hwp_have(struct isc_settings *s, const char *name, char *why, size_t len)
{
	(void)name;
	uint64_t v;
	if (st_intel_msr_have(s, MSR_PM_ENABLE, why, len) < 0)
		return -1;
	if (st_msr_read(s, s->measured_cpu, MSR_PM_ENABLE, &v) == 0 && !(v & 1)) {
		snprintf(why, len, "HWP is off (MSR 0x770 bit 0 clear: no HWP, or intel_pstate=no_hwp)");
		return -1;
	}
	return 0;
}

static char *hwp_read(struct isc_settings *s, const char *name, int cpu)
{
	uint64_t v;
	if (st_msr_read(s, cpu, MSR_HWP_REQUEST, &v) < 0)
		return NULL;
	unsigned f = (unsigned)(v >> shift_of(name) & 0xff);
	return f == 0 && shift_of(name) == 16 ? isc_xstrdup("auto") : isc_xasprintf("%u", f);
}

/* The capabilities of cpu: [0] highest, [1] guaranteed, [2] most efficient, [3] lowest. */
static int caps(struct isc_settings *s, int cpu, unsigned c[4])
{
	uint64_t v;
	if (st_msr_read(s, cpu, MSR_HWP_CAPS, &v) < 0)
		return -1;
	for (int i = 0; i < 4; i++)
		c[i] = (unsigned)(v >> (8 * i) & 0xff);
	return 0;
}

static const char *const level_names[] = { "highest", "guaranteed", "efficient", "lowest" };

static void hwp_accepts(struct isc_settings *s, const char *name, char *buf, size_t len)
{
	unsigned c[4] = { 0 };
	caps(s, s->measured_cpu, c);
	snprintf(buf, len, "%slowest, efficient, guaranteed, highest, or %u to %u (MSR 0x771 of CPU %d)",
		 shift_of(name) == 16 ? "auto (0), " : "", c[3], c[0], s->measured_cpu);
}

/* The level value asks of cpu, or -1 with the reason. */
static int level_of(struct isc_settings *s, const char *name, int cpu, const char *value, char *why, size_t len)
{
	unsigned c[4];
	char *end;
	if (caps(s, cpu, c) < 0) {
		snprintf(why, len, "cannot read MSR 0x771 (HWP capabilities) of CPU %d", cpu);
		return -1;
	}
	if (shift_of(name) == 16 && !strcmp(value, "auto"))
		return 0;
	for (int i = 0; i < 4; i++)
		if (!strcmp(value, level_names[i]))
			return (int)c[i];
	long v = value[0] >= '0' && value[0] <= '9' ? strtol(value, &end, 10) : -1;
	if (v < 0 || *end || v > 255) {
		snprintf(why, len, "not a performance level (0 to 255) or a level name");
		return -1;
	}
	if ((v < c[3] || v > c[0]) && !(v == 0 && shift_of(name) == 16)) {
		snprintf(why, len, "outside CPU %d's levels %u (lowest) to %u (highest)", cpu, c[3], c[0]);
		return -1;
	}
	return (int)v;
}

int st_hwp_level(struct isc_settings *s, const char *name, int cpu, const char *value, char *why, size_t len)
{
	return level_of(s, name, cpu, value, why, len);
}

static int hwp_check(struct isc_settings *s, const char *name, const char *value, char *why, size_t len)
{
	for (size_t i = 0; i < s->ncpus; i++) {
		uint64_t req;
		if (level_of(s, name, s->cpus[i], value, why, len) < 0)
			return -1;
		if (st_msr_read(s, s->cpus[i], MSR_HWP_REQUEST, &req) < 0 || (req & HWP_PKG_CONTROL)) {
			snprintf(why, len, "MSR 0x774 of CPU %d %s", s->cpus[i],
				 req & HWP_PKG_CONTROL ? "defers to the package request (bit 42)" : "is unreadable");
			return -1;
		}
	}
	return 0;
}

/* The probe: whether MSR 0x774 of cpu takes a write, whatever level it holds now (one below
 * the lowest, as firmware may leave, is still a request to put back). */
static int hwp_probe(struct isc_settings *s, const char *name, int cpu, char *err, size_t len)
{
	uint64_t req;
	if (st_msr_read(s, cpu, MSR_HWP_REQUEST, &req) == 0 && (req & HWP_PKG_CONTROL))
		return st_probe_refuse(s, "MSR 0x774 defers to the package request (bit 42)");
	return st_msr_write(s, name, cpu, MSR_HWP_REQUEST, 0, 0, err, len);
}

static int hwp_write(struct isc_settings *s, const char *name, const char *value, int cpu, char *err, size_t len)
{
	if (s->probing)
		return hwp_probe(s, name, cpu, err, len);
	int level = level_of(s, name, cpu, value, err, len);
	if (level < 0)
		return -1;
	unsigned sh = shift_of(name);
	return st_msr_write(s, name, cpu, MSR_HWP_REQUEST, 0xffull << sh, (uint64_t)level << sh, err, len);
}

const struct st_def st_hwp_defs[] = {
	{ "hwp-min", ST_CPU, "lowest, efficient, guaranteed, highest, 0 to 255", hwp_have, hwp_read, hwp_accepts,
	  hwp_check, hwp_write },
	{ "hwp-max", ST_CPU, "lowest, efficient, guaranteed, highest, 0 to 255", hwp_have, hwp_read, hwp_accepts,
	  hwp_check, hwp_write },
	{ "hwp-desired", ST_CPU, "auto, lowest, efficient, guaranteed, highest, 0 to 255", hwp_have, hwp_read,
	  hwp_accepts, hwp_check, hwp_write },
	{ 0 },
};
