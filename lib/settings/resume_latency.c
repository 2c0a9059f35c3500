/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * resume-latency: the per-CPU PM QoS resume latency limit,
 * /sys/devices/system/cpu/cpuN/power/pm_qos_resume_latency_us. As the kernel documents it
 * (ABI sysfs-devices-power): a number of microseconds the CPU may take to wake up, "0" for no
 * limit, "n/a" for none at all (the governors then pick only states of exit latency 0, POLL).
 * The kernel refuses negative numbers and 2147483647 (its internal "no constraint").
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "settings/settings_internal.h"

#define RESUME_FILE "/sys/devices/system/cpu/cpu%d/power/pm_qos_resume_latency_us"
#define RESUME_MAX 2147483646ul

static int rl_have(struct isc_settings *s, const char *name, char *why, size_t len)
{
	(void)name;
	char *p = st_path(s, RESUME_FILE, s->measured_cpu);
	int ok = st_exists(p);
	if (!ok)
		snprintf(why, len, "%s missing (a kernel without per-CPU PM QoS, CONFIG_PM)", p);
	free(p);
	return ok ? 0 : -1;
}

static char *rl_read(struct isc_settings *s, const char *name, int cpu)
{
	(void)name;
	char *p = st_path(s, RESUME_FILE, cpu), *v = st_read(p);
	free(p);
	return v;
}

static void rl_accepts(struct isc_settings *s, const char *name, char *buf, size_t len)
{
	(void)s, (void)name;
	snprintf(buf, len, "0 (no limit), 1 to %lu (us), n/a (no wake latency at all: POLL only)", RESUME_MAX);
}

static int rl_check(struct isc_settings *s, const char *name, const char *value, char *why, size_t len)
{
	(void)s, (void)name;
	char *end;
	if (!strcmp(value, "n/a"))
		return 0;
	if (value[0] >= '0' && value[0] <= '9') {
		errno = 0;
		unsigned long v = strtoul(value, &end, 10);
		if (!errno && !*end && v <= RESUME_MAX)
			return 0;
	}
	snprintf(why, len, "not n/a or a whole number of microseconds up to %lu", RESUME_MAX);
	return -1;
}

static int rl_write(struct isc_settings *s, const char *name, const char *value, int cpu, char *err, size_t len)
{
	char *p = st_path(s, RESUME_FILE, cpu), *old = st_read(p);
	int r = st_write_changed(s, name, p, old, value, err, len);
	free(old);
	free(p);
	return r;
}

const struct st_def st_resume_latency_defs[] = {
	{ "resume-latency", ST_CPU, "0 (no limit), 1 to 2147483646 us, n/a", rl_have, rl_read, rl_accepts, rl_check,
	  rl_write },
	{ 0 },
};
