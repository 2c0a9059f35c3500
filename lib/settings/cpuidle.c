/* SPDX-License-Identifier: GPL-2.0-only */
/* cpuidle settings: the idle states a CPU may enter (cstates) and the idle governor. */
#include <stdlib.h>
#include <string.h>

#include "text/util.h"
#include "settings/settings_internal.h"

#define MAX_STATES 32

/* Names of cpu's idle states in index order; returns how many. */
static size_t state_names(struct isc_settings *s, int cpu, char **names)
{
	size_t n = 0;
	for (; n < MAX_STATES; n++) {
		char *p = st_path(s, "/sys/devices/system/cpu/cpu%d/cpuidle/state%zu/name", cpu, n);
		names[n] = st_read(p);
		free(p);
		if (!names[n])
			break;
	}
	return n;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
}

static int cstates_have(struct isc_settings *s, const char *name, char *why, size_t len)
{
	(void)name;
	char *p = st_path(s, "/sys/devices/system/cpu/cpu%d/cpuidle/state0/disable", s->measured_cpu);
	int ok = st_exists(p);
	if (!ok)
		snprintf(why, len, "no cpuidle states (%s missing: no cpuidle driver)", p);
	free(p);
	return ok ? 0 : -1;
}

static char *cstates_read(struct isc_settings *s, const char *name, int cpu)
{
	(void)name;
	char *names[MAX_STATES], *out = isc_xstrdup("");
	size_t n = state_names(s, cpu, names), on = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t dis = 1;
		char *p = st_path(s, "/sys/devices/system/cpu/cpu%d/cpuidle/state%zu/disable", cpu, i);
		int r = st_read_u64(p, &dis);
		free(p);
		if (r < 0) {
			free(out);
			out = NULL;
			break;
		}
		if (!dis) {
			char *t = isc_xasprintf("%s%s%s", out, on++ ? "+" : "", names[i]);
			free(out);
			out = t;
		}
	}
	if (out && on == n) {
		free(out);
		out = isc_xstrdup("all");
	} else if (out && !on) {
		free(out);
		out = isc_xstrdup("none");
	}
	free_names(names, n);
	return out;
}

static void cstates_accepts(struct isc_settings *s, const char *name, char *buf, size_t len)
{
	(void)name;
	char *names[MAX_STATES];
	size_t n = state_names(s, s->measured_cpu, names), k;
	k = (size_t)snprintf(buf, len, "all, NAME+NAME..., max:NAME; NAME one of");
	for (size_t i = 0; i < n && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s'%s'", i ? ", " : " ", names[i]);
	free_names(names, n);
}

/* Enabled states as a bit mask over cpu's states, from the value; -1 with why if bad. */
static int wanted_mask(struct isc_settings *s, int cpu, const char *value, uint64_t *mask, char *why, size_t len)
{
	char *names[MAX_STATES];
	size_t n = state_names(s, cpu, names);
	int r = 0;
	*mask = 0;
	if (!strcmp(value, "all")) {
		*mask = n >= 64 ? ~0ull : (1ull << n) - 1;
	} else if (!strncmp(value, "max:", 4)) {
		size_t i = 0;
		while (i < n && strcmp(names[i], value + 4))
			i++;
		if (i == n) {
			snprintf(why, len, "CPU %d has no idle state '%s'", cpu, value + 4);
			r = -1;
		}
		*mask = (2ull << i) - 1;
	} else {
		char *copy = isc_xstrdup(value);
		for (char *save = NULL, *t = strtok_r(copy, "+", &save); t && !r; t = strtok_r(NULL, "+", &save)) {
			size_t i = 0;
			while (i < n && strcmp(names[i], t))
				i++;
			if (i == n || (*mask >> i & 1)) {
				if (i == n)
					snprintf(why, len, "CPU %d has no idle state '%s'", cpu, t);
				else
					snprintf(why, len, "state '%s' given twice", t);
				r = -1;
			}
			*mask |= 1ull << (i < 63 ? i : 63);
		}
		if (!*mask && !r) {
			snprintf(why, len, "no state named");
			r = -1;
		}
		free(copy);
	}
	free_names(names, n);
	return r;
}

static int cstates_check(struct isc_settings *s, const char *name, const char *value, char *why, size_t len)
{
	(void)name;
	uint64_t m;
	for (size_t i = 0; i < s->ncpus; i++)
		if (wanted_mask(s, s->cpus[i], value, &m, why, len) < 0)
			return -1;
	return 0;
}

static int cstates_write(struct isc_settings *s, const char *name, const char *value, int cpu, char *err, size_t len)
{
	uint64_t m;
	char *names[MAX_STATES];
	size_t n = state_names(s, cpu, names);
	int r = wanted_mask(s, cpu, value, &m, err, len);
	for (size_t i = 0; i < n && !r; i++) {
		char *p = st_path(s, "/sys/devices/system/cpu/cpu%d/cpuidle/state%zu/disable", cpu, i);
		char *old = st_read(p);
		const char *want = (m >> i & 1) ? "0" : "1";
		r = st_write_changed(s, name, p, old, want, err, len);
		free(old);
		free(p);
	}
	free_names(names, n);
	return r;
}

static char *gov_path(struct isc_settings *s, const char *file)
{
	return st_path(s, "/sys/devices/system/cpu/cpuidle/%s", file);
}

/* A governor picks among the driver's states: with no cpuidle driver (current_driver "none")
 * the kernel still switches governors, to no effect. */
static int gov_have(struct isc_settings *s, const char *name, char *why, size_t len)
{
	(void)name;
	char *p = gov_path(s, "current_governor"), *a = gov_path(s, "available_governors");
	char *dp = gov_path(s, "current_driver"), *drv = st_read(dp);
	int ok = st_exists(p) && st_exists(a);
	if (!ok)
		snprintf(why, len, "%s or available_governors missing (no cpuidle, or a kernel that cannot switch)", p);
	else if (drv && (!*drv || !strcmp(drv, "none"))) {
		snprintf(why, len, "no cpuidle driver (%s: '%s'): an idle governor would have no effect", dp, drv);
		ok = 0;
	}
	free(drv);
	free(dp);
	free(p);
	free(a);
	return ok ? 0 : -1;
}

static char *gov_read(struct isc_settings *s, const char *name, int cpu)
{
	(void)name, (void)cpu;
	char *p = gov_path(s, "current_governor"), *v = st_read(p);
	free(p);
	return v;
}

static void gov_accepts(struct isc_settings *s, const char *name, char *buf, size_t len)
{
	(void)name;
	char *p = gov_path(s, "available_governors"), *v = st_read(p);
	snprintf(buf, len, "%s", v ? v : "?");
	free(p);
	free(v);
}

static int gov_check(struct isc_settings *s, const char *name, const char *value, char *why, size_t len)
{
	char acc[512];
	gov_accepts(s, name, acc, sizeof(acc));
	if (st_word_in(acc, value))
		return 0;
	snprintf(why, len, "not an available governor");
	return -1;
}

static int gov_write(struct isc_settings *s, const char *name, const char *value, int cpu, char *err, size_t len)
{
	char *p = gov_path(s, "current_governor"), *old = gov_read(s, name, cpu);
	int r = st_write_changed(s, name, p, old, value, err, len);
	free(old);
	free(p);
	return r;
}

const struct st_def st_cpuidle_defs[] = {
	{ "cstates", ST_CPU, "all, NAME+NAME..., max:NAME", cstates_have, cstates_read, cstates_accepts,
	  cstates_check, cstates_write },
	{ "idle-governor", ST_SYSTEM, "a name from available_governors", gov_have, gov_read, gov_accepts, gov_check,
	  gov_write },
	{ 0 },
};
