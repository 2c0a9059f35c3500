/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Intel idle MSRs through the msr device (/dev/cpu/N/msr; a fixture tree holds MSR a at byte
 * 8*a of a regular file): MSR_PKG_CST_CONFIG_CONTROL (0xE2) bit 26 C1 auto-demotion, bit 28
 * C1 undemotion, bits 2:0 or 3:0 the package C-state limit (per model: pkg_limits.c; bit 15
 * locks them); MSR_POWER_CTL (0x1FC) bit 1 C1E auto-promotion.
 */
#include <stdlib.h>
#include <string.h>

#include "text/util.h"
#include "settings/settings_internal.h"

#define MSR_PKG_CST_CONFIG 0xE2
#define MSR_POWER_CTL 0x1FC
#define CST_LOCK (1ull << 15)

struct msr_bit {
	const char *setting;
	uint32_t msr;
	uint64_t mask;
};
static const struct msr_bit bits[] = {
	{ "c1-demotion", MSR_PKG_CST_CONFIG, 1ull << 26 },
	{ "c1-undemotion", MSR_PKG_CST_CONFIG, 1ull << 28 },
	{ "c1e-autopromote", MSR_POWER_CTL, 1ull << 1 },
	{ "pkg-cstate-limit", MSR_PKG_CST_CONFIG, 0xf },
};

static const struct msr_bit *bit_of(const char *name)
{
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (!strcmp(bits[i].setting, name))
			return &bits[i];
	return NULL;
}

static int msr_have(struct isc_settings *s, const char *name, char *why, size_t len)
{
	uint64_t v;
	char *cpuinfo = st_path(s, "/proc/cpuinfo"), *t = st_read(cpuinfo);
	bool intel = !t || strstr(t, "GenuineIntel");
	free(cpuinfo);
	free(t);
	if (!intel) {
		snprintf(why, len, "Intel MSRs; this CPU is not GenuineIntel");
		return -1;
	}
	if (st_msr_read(s, s->measured_cpu, bit_of(name)->msr, &v) == 0)
		return 0;
	char *p = st_path(s, "/dev/cpu/%d/msr", s->measured_cpu);
	snprintf(why, len, "cannot read MSR 0x%X through %s (msr module not loaded, or not on this CPU)",
		 bit_of(name)->msr, p);
	free(p);
	return -1;
}

static bool is_limit(const struct msr_bit *b)
{
	return !strcmp(b->setting, "pkg-cstate-limit");
}

static char *msr_read(struct isc_settings *s, const char *name, int cpu)
{
	const struct msr_bit *b = bit_of(name);
	uint64_t v;
	if (st_msr_read(s, cpu, b->msr, &v) < 0)
		return NULL;
	if (!is_limit(b))
		return isc_xstrdup(v & b->mask ? "on" : "off");
	const struct st_pkg_limits *t = st_pkg_limits(s);
	v &= t->mask;
	return t->names[v] ? isc_xstrdup(t->names[v]) : isc_xasprintf("raw:%u", (unsigned)v);
}

static void msr_accepts(struct isc_settings *s, const char *name, char *buf, size_t len)
{
	if (!is_limit(bit_of(name))) {
		st_onoff_accepts(s, name, buf, len);
		return;
	}
	const struct st_pkg_limits *t = st_pkg_limits(s);
	size_t k = 0;
	for (size_t i = 0; i < 16 && k < len; i++)
		if (t->names[i])
			k += (size_t)snprintf(buf + k, len - k, "%s, ", t->names[i]);
	if (k < len)
		snprintf(buf + k, len - k, "raw:0 to raw:%u (the codes of the %s)", (unsigned)t->mask, t->models);
}

/* The code a limit value stands for on this model, or -1. */
static int limit_code(const struct isc_settings *s, const char *v)
{
	const struct st_pkg_limits *t = st_pkg_limits(s);
	for (int i = 0; i < 16; i++)
		if (t->names[i] && !strcmp(v, t->names[i]))
			return i;
	if (!strncmp(v, "raw:", 4) && v[4] >= '0' && v[4] <= '9') {
		char *end;
		long c = strtol(v + 4, &end, 10);
		if (!*end && (uint64_t)c <= t->mask)
			return (int)c;
	}
	return -1;
}

static int msr_check(struct isc_settings *s, const char *name, const char *value, char *why, size_t len)
{
	const struct msr_bit *b = bit_of(name);
	if (!is_limit(b))
		return st_onoff_check(s, name, value, why, len);
	if (limit_code(s, value) < 0) {
		snprintf(why, len, "not a package C-state limit of the %s", st_pkg_limits(s)->models);
		return -1;
	}
	for (size_t i = 0; i < s->ncpus; i++) {
		uint64_t v;
		if (st_msr_read(s, s->cpus[i], b->msr, &v) < 0 || (v & CST_LOCK)) {
			snprintf(why, len, "MSR 0xE2 of CPU %d is %s", s->cpus[i],
				 v & CST_LOCK ? "locked by the firmware (bit 15)" : "unreadable");
			return -1;
		}
	}
	return 0;
}

static int msr_write(struct isc_settings *s, const char *name, const char *value, int cpu, char *err, size_t len)
{
	const struct msr_bit *b = bit_of(name);
	uint64_t v;
	if (!is_limit(b))
		return st_msr_write(s, name, cpu, b->msr, b->mask, !strcmp(value, "on") ? b->mask : 0, err, len);
	/* the lock holds bits 15:0 (the limit), not the demotion bits */
	if (s->probing && st_msr_read(s, cpu, b->msr, &v) == 0 && (v & CST_LOCK))
		return st_probe_refuse(s, "MSR 0xE2 is locked by the firmware (bit 15)");
	return st_msr_write(s, name, cpu, b->msr, st_pkg_limits(s)->mask, (uint64_t)limit_code(s, value), err, len);
}

const struct st_def st_msr_defs[] = {
	{ "c1-demotion", ST_CPU, "on, off", msr_have, msr_read, msr_accepts, msr_check, msr_write },
	{ "c1-undemotion", ST_CPU, "on, off", msr_have, msr_read, msr_accepts, msr_check, msr_write },
	{ "c1e-autopromote", ST_CPU, "on, off", msr_have, msr_read, msr_accepts, msr_check, msr_write },
	{ "pkg-cstate-limit", ST_CPU, "PC0 ... PC10 (per model), raw:N", msr_have, msr_read, msr_accepts, msr_check, msr_write },
	{ 0 },
};
