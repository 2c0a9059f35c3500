/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * offline-cpus: which CPUs are offline (/sys/devices/system/cpu/cpuN/online, 0 or 1), e.g. to
 * measure with the measured CPU's SMT sibling off. The value is the whole set: "none", a list
 * ("1,3-5"), or "siblings" (the measured CPU's online thread siblings, added to the CPUs
 * offline now). The measured CPU is never taken offline, nor a CPU without an online file
 * (CPU 0 on most x86 machines). Per-CPU settings written after this one skip the CPUs it took
 * offline (their files refuse writes; target_online.c); a restore writes the online files
 * first (journal_restore.c), so the other values of those CPUs can go back.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "text/util.h"
#include "settings/settings_internal.h"

#define CPU_DIR "/sys/devices/system/cpu"
#define MAX_CPUS 8192

int *st_present_cpus(const struct isc_settings *s, size_t *n)
{
	char *dir = st_path(s, CPU_DIR);
	DIR *d = opendir(dir);
	bool *seen = isc_xcalloc(MAX_CPUS, sizeof(*seen));
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char *end;
		if (strncmp(e->d_name, "cpu", 3) || e->d_name[3] < '0' || e->d_name[3] > '9')
			continue;
		long c = strtol(e->d_name + 3, &end, 10);
		if (!*end && c < MAX_CPUS)
			seen[c] = true;
	}
	if (d)
		closedir(d);
	free(dir);
	int *cpus = NULL;
	*n = 0;
	for (int c = 0; c < MAX_CPUS; c++)
		if (seen[c]) {
			cpus = isc_xrealloc(cpus, (*n + 1) * sizeof(*cpus));
			cpus[(*n)++] = c;
		}
	free(seen);
	return cpus;
}

int st_online_state(const struct isc_settings *s, int cpu)
{
	char *p = st_path(s, CPU_DIR "/cpu%d/online", cpu), *v = st_read(p);
	int r = !v ? -1 : strcmp(v, "0") ? 1 : 0;
	free(p);
	free(v);
	return r;
}

/* "0-2,5" into set (MAX_CPUS flags); '+' joins like ',' ("1+3": --matrix splits values at
 * commas). 0, or -1 with the reason. */
static int parse_list(const char *v, bool *set, char *why, size_t len)
{
	for (const char *p = v; *p;) {
		char *end;
		if (*p < '0' || *p > '9')
			goto bad;
		long a = strtol(p, &end, 10), b = a;
		if (*end == '-') {
			if (end[1] < '0' || end[1] > '9')
				goto bad;
			b = strtol(end + 1, &end, 10);
		}
		bool joiner = *end == ',' || *end == '+';
		if (b < a || b >= MAX_CPUS || (*end && !joiner) || (joiner && !end[1]))
			goto bad;
		for (long c = a; c <= b; c++)
			set[c] = true;
		p = *end ? end + 1 : end;
	}
	return 0;
bad:
	snprintf(why, len, "not none, siblings or a CPU list such as 1,3-5 or 1+3-5 (CPUs below %d)", MAX_CPUS);
	return -1;
}

/* The measured CPU's thread siblings but itself, into set; how many. */
static int add_siblings(const struct isc_settings *s, bool *set)
{
	char *p = st_path(s, CPU_DIR "/cpu%d/topology/thread_siblings_list", s->measured_cpu), *v = st_read(p);
	bool *sib = isc_xcalloc(MAX_CPUS, sizeof(*sib));
	char why[128];
	int n = 0;
	if (v && parse_list(v, sib, why, sizeof(why)) == 0)
		for (int c = 0; c < MAX_CPUS; c++)
			if (sib[c] && c != s->measured_cpu) {
				set[c] = true;
				n++;
			}
	free(sib);
	free(v);
	free(p);
	return n;
}

/* The set of CPUs value asks to be offline, checked against the machine. 0 or -1 (why). */
static int wanted(const struct isc_settings *s, const char *value, bool *set, char *why, size_t len)
{
	size_t n;
	int *cpus = st_present_cpus(s, &n), rc = 0;
	if (!strcmp(value, "siblings")) {
		for (size_t i = 0; i < n; i++)
			set[cpus[i]] = st_online_state(s, cpus[i]) == 0;
		if (!add_siblings(s, set) && n) {
			snprintf(why, len, "CPU %d has no SMT sibling online", s->measured_cpu);
			rc = -1;
		}
	} else if (strcmp(value, "none")) {
		rc = parse_list(value, set, why, len);
	}
	bool *present = isc_xcalloc(MAX_CPUS, sizeof(*present));
	for (size_t i = 0; i < n; i++)
		present[cpus[i]] = true;
	for (int c = 0; c < MAX_CPUS && rc == 0; c++) {
		if (!set[c])
			continue;
		rc = -1;
		if (!present[c])
			snprintf(why, len, "there is no CPU %d", c);
		else if (c == s->measured_cpu)
			snprintf(why, len, "CPU %d is the measured CPU: it is never taken offline", c);
		else if (st_online_state(s, c) < 0)
			snprintf(why, len, "CPU %d cannot go offline (no cpu%d/online file)", c, c);
		else
			rc = 0;
	}
	free(present);
	free(cpus);
	return rc;
}

static int off_have(struct isc_settings *s, const char *name, char *why, size_t len)
{
	(void)name;
	size_t n;
	int *cpus = st_present_cpus(s, &n), rc = -1;
	for (size_t i = 0; i < n && rc < 0; i++)
		if (cpus[i] != s->measured_cpu && st_online_state(s, cpus[i]) >= 0)
			rc = 0;
	free(cpus);
	if (rc < 0)
		snprintf(why, len, "no CPU but the measured one can go offline (no cpuN/online files in %s%s)",
			 s->sysroot, CPU_DIR);
	return rc;
}

/* "1,3-5" of the CPUs offline now, or "none". */
static char *off_read(struct isc_settings *s, const char *name, int cpu)
{
	(void)name, (void)cpu;
	size_t n;
	int *cpus = st_present_cpus(s, &n);
	char *out = isc_xstrdup("");
	for (size_t i = 0; i < n; i++) {
		if (st_online_state(s, cpus[i]) != 0)
			continue;
		size_t k = i;
		while (k + 1 < n && cpus[k + 1] == cpus[k] + 1 && st_online_state(s, cpus[k + 1]) == 0)
			k++;
		char *t = k > i ? isc_xasprintf("%s%s%d-%d", out, *out ? "," : "", cpus[i], cpus[k])
				: isc_xasprintf("%s%s%d", out, *out ? "," : "", cpus[i]);
		free(out);
		out = t;
		i = k;
	}
	free(cpus);
	if (!*out) {
		free(out);
		out = isc_xstrdup("none");
	}
	return out;
}

static void off_accepts(struct isc_settings *s, const char *name, char *buf, size_t len)
{
	(void)s, (void)name;
	snprintf(buf, len, "none, siblings (of the measured CPU), or a CPU list such as 1,3-5 or 1+3-5 (the CPUs offline)");
}

static int off_check(struct isc_settings *s, const char *name, const char *value, char *why, size_t len)
{
	(void)name;
	bool *set = isc_xcalloc(MAX_CPUS, sizeof(*set));
	int rc = wanted(s, value, set, why, len);
	free(set);
	return rc;
}

static int set_online(struct isc_settings *s, int cpu, bool on, char *err, size_t len)
{
	char *p = st_path(s, CPU_DIR "/cpu%d/online", cpu), *old = st_read(p);
	int r = st_write_changed(s, "offline-cpus", p, old, on ? "1" : "0", err, len);
	free(old);
	free(p);
	if (r == 0 && !s->probing)
		st_online_changed(s, cpu, on);
	return r;
}

/* The probe: every online file this setting may write, whatever the value in force. */
static int off_probe(struct isc_settings *s, char *err, size_t len)
{
	size_t n;
	int *cpus = st_present_cpus(s, &n), rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++)
		if (cpus[i] != s->measured_cpu && st_online_state(s, cpus[i]) >= 0)
			rc = set_online(s, cpus[i], st_online_state(s, cpus[i]) == 1, err, len);
	free(cpus);
	return rc;
}

int *st_offline_taken(struct isc_settings *s, const char *value, size_t *n)
{
	bool *set = isc_xcalloc(MAX_CPUS, sizeof(*set));
	char why[256];
	int *out = NULL;
	*n = 0;
	if (wanted(s, value, set, why, sizeof(why)) == 0)
		for (int c = 0; c < MAX_CPUS; c++)
			if (set[c] && st_online_state(s, c) == 1) {
				out = isc_xrealloc(out, (*n + 1) * sizeof(*out));
				out[(*n)++] = c;
			}
	free(set);
	return out;
}

static int off_write(struct isc_settings *s, const char *name, const char *value, int cpu, char *err, size_t len)
{
	(void)name, (void)cpu;
	if (s->probing)
		return off_probe(s, err, len);
	size_t n = 0;
	bool *set = isc_xcalloc(MAX_CPUS, sizeof(*set));
	int *cpus = NULL, rc = wanted(s, value, set, err, len);
	if (rc == 0)
		cpus = st_present_cpus(s, &n);
	for (size_t i = 0; rc == 0 && i < n; i++)   /* those to come back first, then those to go */
		if (!set[cpus[i]] && st_online_state(s, cpus[i]) == 0)
			rc = set_online(s, cpus[i], true, err, len);
	for (size_t i = 0; rc == 0 && i < n; i++)
		if (set[cpus[i]])
			rc = set_online(s, cpus[i], false, err, len);
	free(cpus);
	free(set);
	return rc;
}

const struct st_def st_offline_defs[] = {
	{ "offline-cpus", ST_SYSTEM, "none, siblings, a CPU list", off_have, off_read, off_accepts, off_check,
	  off_write },
	{ 0 },
};
