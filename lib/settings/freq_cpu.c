/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * freq@cpuN: the cpufreq limits of one CPU N, whichever CPU is measured (issue 27: a sibling's
 * or a neighbour's frequency). It is freq (cpufreq.c) seen through a view of the settings whose
 * only CPU is N: same values, checks, journal and restore. Not recorded by itself: freq's record
 * shows every CPU's value when they differ ("mixed: cpu0=unl cpu3=2000MHz").
 */
#include <stdlib.h>
#include <string.h>

#include "settings/settings_internal.h"

static const struct st_def *freq_def(void)
{
	for (const struct st_def *d = st_cpufreq_defs; d->name; d++)
		if (!strcmp(d->name, "freq"))
			return d;
	abort();
}

/* N of "freq@cpuN", or -1 (the bare template name). */
static int cpu_of(const char *name)
{
	const char *p = name + strlen("freq@cpu");
	char *end;
	long c = *p >= '0' && *p <= '9' ? strtol(p, &end, 10) : -1;
	return c >= 0 && c < 65536 && !*end ? (int)c : -1;
}

/* s seen as if CPU cpu were the only one, measured or not; the journal is s's. */
static struct isc_settings view(const struct isc_settings *s, int *cpu)
{
	struct isc_settings v = *s;
	v.measured_cpu = *cpu;
	v.cpus = cpu;
	v.ncpus = 1;
	return v;
}

static int fc_have(struct isc_settings *s, const char *name, char *why, size_t len)
{
	int cpu = cpu_of(name);
	if (cpu < 0)   /* the bare name (--list-settings): as the measured CPU has it */
		cpu = s->measured_cpu;
	struct isc_settings v = view(s, &cpu);
	return freq_def()->have(&v, "freq", why, len);
}

static char *fc_read(struct isc_settings *s, const char *name, int unused)
{
	(void)unused;
	int cpu = cpu_of(name);
	struct isc_settings v = view(s, &cpu);
	return cpu < 0 ? NULL : freq_def()->read(&v, "freq", cpu);
}

static void fc_accepts(struct isc_settings *s, const char *name, char *buf, size_t len)
{
	int cpu = cpu_of(name);
	if (cpu < 0)
		cpu = s->measured_cpu;
	struct isc_settings v = view(s, &cpu);
	freq_def()->accepts(&v, "freq", buf, len);
}

static int fc_check(struct isc_settings *s, const char *name, const char *value, char *why, size_t len)
{
	int cpu = cpu_of(name);
	struct isc_settings v = view(s, &cpu);
	return freq_def()->check(&v, "freq", value, why, len);
}

static int fc_write(struct isc_settings *s, const char *name, const char *value, int unused, char *err, size_t len)
{
	(void)unused;
	int cpu = cpu_of(name);
	struct isc_settings v = view(s, &cpu);
	return freq_def()->write(&v, "freq", value, cpu, err, len);
}

const struct st_def st_freq_cpu_defs[] = {
	{ "freq@cpu", ST_SYSTEM, "as freq, for CPU N", fc_have, fc_read, fc_accepts, fc_check, fc_write },
	{ 0 },
};
