/* SPDX-License-Identifier: GPL-2.0-only */
/* The CPU vendor of the machine (or fixture tree), from /proc/cpuinfo: the Intel-only MSR
 * settings are absent elsewhere. */
#include <stdlib.h>
#include <string.h>

#include "settings/settings_internal.h"

const char *st_cpu_vendor(const struct isc_settings *s)
{
	char *p = st_path(s, "/proc/cpuinfo"), *t = st_read(p);
	const char *v = !t ? "unknown" : strstr(t, "GenuineIntel") ? "GenuineIntel"
				      : strstr(t, "AuthenticAMD") ? "AuthenticAMD" : "other";
	free(p);
	free(t);
	return v;
}

int st_intel_msr_have(struct isc_settings *s, uint32_t msr, char *why, size_t len)
{
	uint64_t v;
	const char *vendor = st_cpu_vendor(s);
	if (strcmp(vendor, "GenuineIntel")) {
		snprintf(why, len, "an Intel MSR (0x%X); this CPU is %s", msr, vendor);
		return -1;
	}
	if (st_msr_read(s, s->measured_cpu, msr, &v) == 0)
		return 0;
	char *p = st_path(s, "/dev/cpu/%d/msr", s->measured_cpu);
	snprintf(why, len, "cannot read MSR 0x%X through %s (msr module not loaded, or not on this CPU)", msr, p);
	free(p);
	return -1;
}

/* The number after "key\t: " in the first processor's block of cpuinfo text, or -1. */
static long cpuinfo_number(const char *t, const char *key)
{
	size_t n = strlen(key);
	for (const char *p = t; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, key, n) || (p[n] != '\t' && p[n] != ' ' && p[n] != ':'))
			continue;
		const char *c = strchr(p, ':');
		if (!c || c[1] != ' ' || c[2] < '0' || c[2] > '9')
			return -1;
		return strtol(c + 2, NULL, 10);
	}
	return -1;
}

int st_cpu_model(const struct isc_settings *s, int *family, int *model)
{
	char *p = st_path(s, "/proc/cpuinfo"), *t = st_read(p);
	long f = t ? cpuinfo_number(t, "cpu family") : -1, m = t ? cpuinfo_number(t, "model") : -1;
	free(p);
	free(t);
	if (f < 0 || m < 0)
		return -1;
	*family = (int)f;
	*model = (int)m;
	return 0;
}
