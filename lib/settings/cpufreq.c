/* SPDX-License-Identifier: GPL-2.0-only */
/* cpufreq settings: governor, frequency limits, turbo, EPP and EPB. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "table/numparse.h"
#include "text/util.h"
#include "settings/settings_internal.h"

#define CPUFREQ "/sys/devices/system/cpu/cpu%d/cpufreq/"

/* Per-CPU files written as a word: the file and the file listing the words. */
struct word_file {
	const char *setting, *file, *list;
};
static const struct word_file word_files[] = {
	{ "cpufreq-governor", CPUFREQ "scaling_governor", CPUFREQ "scaling_available_governors" },
	{ "epp", CPUFREQ "energy_performance_preference", CPUFREQ "energy_performance_available_preferences" },
	{ "epb", "/sys/devices/system/cpu/cpu%d/power/energy_perf_bias", NULL },
};

static const struct word_file *word_file(const char *name)
{
	for (size_t i = 0; i < sizeof(word_files) / sizeof(word_files[0]); i++)
		if (!strcmp(word_files[i].setting, name))
			return &word_files[i];
	return NULL;
}

static int word_have(struct isc_settings *s, const char *name, char *why, size_t len)
{
	const struct word_file *w = word_file(name);
	char *p = st_path(s, w->file, s->measured_cpu);
	int ok = st_exists(p);
	if (!ok)
		snprintf(why, len, "%s missing (%s)", p, !strcmp(name, "epb") ? "no EPB: not Intel, or no kernel support"
						  : !strcmp(name, "epp") ? "no EPP: needs intel_pstate or amd-pstate in active mode"
									   : "no cpufreq driver");
	free(p);
	return ok ? 0 : -1;
}

/* EPB names the kernel accepts, and the numbers it stores for them. */
static const struct { const char *name; unsigned v; } epb_names[] = {
	{ "performance", 0 }, { "balance-performance", 4 }, { "normal", 6 }, { "balance-power", 8 }, { "power", 15 },
};
#define NEPB (sizeof(epb_names) / sizeof(epb_names[0]))

static char *word_read(struct isc_settings *s, const char *name, int cpu)
{
	char *p = st_path(s, word_file(name)->file, cpu), *v = st_read(p);
	free(p);
	if (v && !strcmp(name, "epb"))
		for (size_t i = 0; i < NEPB; i++)
			if ((unsigned)atoi(v) == epb_names[i].v && v[0] >= '0' && v[0] <= '9') {
				free(v);
				return isc_xstrdup(epb_names[i].name);
			}
	return v;
}

static void word_accepts(struct isc_settings *s, const char *name, char *buf, size_t len)
{
	const struct word_file *w = word_file(name);
	if (!w->list) {
		snprintf(buf, len, "0 to 15, performance, balance-performance, normal, balance-power, power");
		return;
	}
	char *p = st_path(s, w->list, s->measured_cpu), *v = st_read(p);
	snprintf(buf, len, "%s%s", v ? v : "?", !strcmp(name, "epp") ? ", or 0 to 255" : "");
	free(p);
	free(v);
}

static bool whole_in(const char *v, unsigned max)
{
	char *end;
	if (v[0] < '0' || v[0] > '9')
		return false;
	errno = 0;
	unsigned long x = strtoul(v, &end, 10);
	return !errno && !*end && x <= max;
}

static int word_check(struct isc_settings *s, const char *name, const char *value, char *why, size_t len)
{
	const struct word_file *w = word_file(name);
	if (!strcmp(name, "epb")) {
		for (size_t i = 0; i < NEPB; i++)
			if (!strcmp(value, epb_names[i].name))
				return 0;
		if (whole_in(value, 15))
			return 0;
	} else {
		char *p = st_path(s, w->list, s->cpus[0]), *v = st_read(p);
		bool ok = v && st_word_in(v, value);
		free(p);
		free(v);
		if (ok || (!strcmp(name, "epp") && whole_in(value, 255)))
			return 0;
	}
	snprintf(why, len, "not a value this machine accepts");
	return -1;
}

static int word_write(struct isc_settings *s, const char *name, const char *value, int cpu, char *err, size_t len)
{
	char *p = st_path(s, word_file(name)->file, cpu), *old = st_read(p);
	int r = st_write_changed(s, name, p, old, value, err, len);
	free(old);
	free(p);
	return r;
}

/* freq: the limits in kHz. */
struct limits {
	uint64_t min, max, cur_min, cur_max, base;   /* base 0: unknown */
};

static int read_limits(struct isc_settings *s, int cpu, struct limits *l)
{
	static const char *const files[] = { "cpuinfo_min_freq", "cpuinfo_max_freq", "scaling_min_freq",
					     "scaling_max_freq" };
	uint64_t *dst[] = { &l->min, &l->max, &l->cur_min, &l->cur_max };
	for (int i = 0; i < 4; i++) {
		char *p = st_path(s, CPUFREQ "%s", cpu, files[i]);
		int r = st_read_u64(p, dst[i]);
		free(p);
		if (r < 0)
			return -1;
	}
	char *p = st_path(s, CPUFREQ "base_frequency", cpu);
	uint64_t msr;
	if (st_read_u64(p, &l->base) < 0)
		l->base = st_msr_read(s, cpu, 0xCE, &msr) == 0 ? (msr >> 8 & 0xff) * 100000 : 0;
	free(p);
	return 0;
}

static int freq_have(struct isc_settings *s, const char *name, char *why, size_t len)
{
	(void)name;
	struct limits l;
	if (read_limits(s, s->measured_cpu, &l) == 0)
		return 0;
	char *p = st_path(s, CPUFREQ, s->measured_cpu);
	snprintf(why, len, "no cpufreq limits in %s (no cpufreq driver)", p);
	free(p);
	return -1;
}

static char *mhz(uint64_t khz)
{
	return khz % 1000 ? isc_xasprintf("%.3fMHz", (double)khz / 1000) : isc_xasprintf("%lluMHz", (unsigned long long)(khz / 1000));
}

static char *freq_read(struct isc_settings *s, const char *name, int cpu)
{
	(void)name;
	struct limits l;
	if (read_limits(s, cpu, &l) < 0)
		return NULL;
	if (l.cur_min == l.min && l.cur_max == l.max)
		return isc_xstrdup("unl");
	if (l.cur_min == l.cur_max) {
		if (l.cur_min == l.min)
			return isc_xstrdup("min");
		if (l.cur_min == l.max)
			return isc_xstrdup("max");
		if (l.cur_min == l.base)
			return isc_xstrdup("base");
		return mhz(l.cur_min);
	}
	char *a = mhz(l.cur_min), *b = mhz(l.cur_max), *v = isc_xasprintf("%s-%s", a, b);
	free(a);
	free(b);
	return v;
}

static void freq_accepts(struct isc_settings *s, const char *name, char *buf, size_t len)
{
	(void)name;
	struct limits l = { 0 };
	read_limits(s, s->measured_cpu, &l);
	snprintf(buf, len, "min, base%s, max, unl, or N MHz / N GHz from %llu to %llu MHz", l.base ? "" : " (unknown here)",
		 (unsigned long long)(l.min / 1000), (unsigned long long)(l.max / 1000));
}

/* The [lo, hi] kHz a value asks for on cpu. */
static int freq_target(struct isc_settings *s, int cpu, const char *v, uint64_t *lo, uint64_t *hi, char *why, size_t len)
{
	struct limits l;
	double x;
	size_t n = strlen(v);
	if (read_limits(s, cpu, &l) < 0) {
		snprintf(why, len, "cannot read the cpufreq limits of CPU %d", cpu);
		return -1;
	}
	*lo = *hi = 0;
	if (!strcmp(v, "min") || !strcmp(v, "max") || !strcmp(v, "base")) {
		*lo = *hi = !strcmp(v, "min") ? l.min : !strcmp(v, "max") ? l.max : l.base;
		if (!*lo) {
			snprintf(why, len, "the base frequency is unknown (no base_frequency, no MSR 0xCE)");
			return -1;
		}
		return 0;
	}
	if (!strcmp(v, "unl")) {
		*lo = l.min;
		*hi = l.max;
		return 0;
	}
	double mul = n > 3 && !strcasecmp(v + n - 3, "GHz") ? 1e6 : n > 3 && !strcasecmp(v + n - 3, "MHz") ? 1e3 : 0;
	if (!mul || !isc_parse_double(v, n - 3, &x) || !(x > 0 && x * mul < 1e12)) {   /* not NaN, nor 1e12 kHz */
		snprintf(why, len, "not a frequency (min, base, max, unl, 2000MHz, 2.1GHz)");
		return -1;
	}
	*lo = *hi = (uint64_t)(x * mul + 0.5);
	if (*lo < l.min || *lo > l.max) {
		snprintf(why, len, "outside CPU %d's range %llu to %llu MHz", cpu, (unsigned long long)(l.min / 1000),
			 (unsigned long long)(l.max / 1000));
		return -1;
	}
	return 0;
}

static int freq_check(struct isc_settings *s, const char *name, const char *value, char *why, size_t len)
{
	(void)name;
	uint64_t lo, hi;
	for (size_t i = 0; i < s->ncpus; i++)
		if (freq_target(s, s->cpus[i], value, &lo, &hi, why, len) < 0)
			return -1;
	return 0;
}

static int write_limit(struct isc_settings *s, int cpu, const char *file, uint64_t old, uint64_t v, char *err, size_t len)
{
	if (old == v && !s->probing)   /* the probe writes the value in force: it must see the file */
		return 0;
	char *p = st_path(s, CPUFREQ "%s", cpu, file);
	char o[32], n[32];
	snprintf(o, sizeof(o), "%llu", (unsigned long long)old);
	snprintf(n, sizeof(n), "%llu", (unsigned long long)v);
	int r = st_write(s, "freq", p, o, n, err, len);
	free(p);
	return r;
}

static int freq_write(struct isc_settings *s, const char *name, const char *value, int cpu, char *err, size_t len)
{
	(void)name;
	struct limits l;
	uint64_t lo, hi;
	if (freq_target(s, cpu, value, &lo, &hi, err, len) < 0 || read_limits(s, cpu, &l) < 0)
		return -1;
	/* Never min > max on the way: raise max first when the new min is above the old max. */
	if (lo > l.cur_max)
		return write_limit(s, cpu, "scaling_max_freq", l.cur_max, hi, err, len) ||
		       write_limit(s, cpu, "scaling_min_freq", l.cur_min, lo, err, len) ? -1 : 0;
	return write_limit(s, cpu, "scaling_min_freq", l.cur_min, lo, err, len) ||
	       write_limit(s, cpu, "scaling_max_freq", l.cur_max, hi, err, len) ? -1 : 0;
}

/* turbo: intel_pstate/no_turbo (1 = off) or cpufreq/boost (1 = on). */
static char *turbo_file(struct isc_settings *s, bool *inverted)
{
	char *p = st_path(s, "/sys/devices/system/cpu/intel_pstate/no_turbo");
	*inverted = true;
	if (st_exists(p))
		return p;
	free(p);
	*inverted = false;
	p = st_path(s, "/sys/devices/system/cpu/cpufreq/boost");
	if (st_exists(p))
		return p;
	free(p);
	return NULL;
}

static int turbo_have(struct isc_settings *s, const char *name, char *why, size_t len)
{
	(void)name;
	bool inv;
	char *p = turbo_file(s, &inv);
	if (!p)
		snprintf(why, len, "neither intel_pstate/no_turbo nor cpufreq/boost in %s/sys/devices/system/cpu", s->sysroot);
	free(p);
	return p ? 0 : -1;
}

static char *turbo_read(struct isc_settings *s, const char *name, int cpu)
{
	(void)name, (void)cpu;
	bool inv;
	uint64_t v;
	char *p = turbo_file(s, &inv);
	int r = p ? st_read_u64(p, &v) : -1;
	free(p);
	return r < 0 ? NULL : isc_xstrdup((v != 0) != inv ? "on" : "off");
}

static int turbo_write(struct isc_settings *s, const char *name, const char *value, int cpu, char *err, size_t len)
{
	bool inv;
	char *p = turbo_file(s, &inv), *old = p ? st_read(p) : NULL;
	const char *want = (!strcmp(value, "on")) != inv ? "1" : "0";
	(void)cpu;
	int r = st_write_changed(s, name, p ? p : "the turbo file", old, want, err, len);
	free(old);
	free(p);
	return r;
}

const struct st_def st_cpufreq_defs[] = {
	{ "cpufreq-governor", ST_CPU, "a name from scaling_available_governors", word_have, word_read, word_accepts,
	  word_check, word_write },
	{ "freq", ST_CPU, "min, base, max, unl, N MHz, N GHz", freq_have, freq_read, freq_accepts, freq_check,
	  freq_write },
	{ "turbo", ST_SYSTEM, "on, off", turbo_have, turbo_read, st_onoff_accepts, st_onoff_check,
	  turbo_write },
	{ "epp", ST_CPU, "a name from energy_performance_available_preferences, 0 to 255", word_have, word_read,
	  word_accepts, word_check, word_write },
	{ "epb", ST_CPU, "0 to 15, performance, balance-performance, normal, balance-power, power", word_have,
	  word_read, word_accepts, word_check, word_write },
	{ 0 },
};
