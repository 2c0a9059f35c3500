/* SPDX-License-Identifier: GPL-2.0-only */
/* The settings table: lookup by name, and what is done with every entry (record, list,
 * check, apply). The entries live in one file per area (cpuidle.c, cpufreq.c, pci.c, msr.c,
 * pmqos.c). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "text/util.h"
#include "settings/settings_internal.h"

static const struct st_def *const tables[] = { st_cpuidle_defs, st_cpufreq_defs, st_pci_defs,
					       st_msr_defs, st_pmqos_defs, st_resume_latency_defs, st_offline_defs,
					       st_uncore_defs, st_prewake_defs, st_hwp_defs };
#define NTABLES (sizeof(tables) / sizeof(tables[0]))

/* Exact name, or a per-device entry ("aspm@") by prefix. */
const struct st_def *st_find(const char *name)
{
	for (size_t t = 0; t < NTABLES; t++)
		for (const struct st_def *d = tables[t]; d->name; d++) {
			size_t n = strlen(d->name);
			if (d->scope == ST_PCI && d->name[n - 1] == '@' ? !strncmp(name, d->name, n) && name[n]
								       : !strcmp(name, d->name))
				return d;
		}
	return NULL;
}

bool isc_settings_is_held(const char *name)
{
	return !strcmp(name, "pm-qos");
}

/* Online CPUs from "0-3,6" in <sysroot>/sys/devices/system/cpu/online. */
static void read_cpus(struct isc_settings *s)
{
	char *path = st_path(s, "/sys/devices/system/cpu/online");
	char *t = st_read(path);
	free(path);
	for (char *p = t; p && *p;) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p)
			break;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (long c = a; c <= b && c - a < 65536; c++) {
			s->cpus = isc_xrealloc(s->cpus, (s->ncpus + 1) * sizeof(*s->cpus));
			s->cpus[s->ncpus++] = (int)c;
		}
		p = *end == ',' ? end + 1 : end + strlen(end);
	}
	free(t);
}

struct isc_settings *isc_settings_open(const char *sysroot, int measured_cpu, bool all_cpus)
{
	struct isc_settings *s = isc_xcalloc(1, sizeof(*s));
	s->sysroot = isc_xstrdup(sysroot ? sysroot : "");
	for (size_t n = strlen(s->sysroot); n > 0 && s->sysroot[n - 1] == '/'; n--)
		s->sysroot[n - 1] = '\0';
	s->measured_cpu = measured_cpu;
	s->all_cpus = all_cpus;
	if (all_cpus)
		read_cpus(s);
	if (!s->ncpus) {
		s->cpus = isc_xmalloc(sizeof(*s->cpus));
		s->cpus[s->ncpus++] = measured_cpu;
	}
	return s;
}

void isc_settings_close(struct isc_settings *s)
{
	if (!s)
		return;
	st_journal_close(s->j);
	free(s->probe_why);
	free(s->went_off);
	free(s->came_on);
	free(s->cpus);
	free(s->sysroot);
	free(s);
}

/* Per-CPU value: the one of the CPUs it is read on (the measured one first, if it is one of
 * them) when they all agree, else "mixed: cpu0=A cpu1=B". */
static char *read_def(struct isc_settings *s, const struct st_def *d, const char *name)
{
	if (d->scope != ST_CPU)
		return d->read(s, name, -1);
	if (!s->ncpus)
		return NULL;
	int cpu = s->cpus[0];
	for (size_t i = 0; i < s->ncpus; i++)
		cpu = s->cpus[i] == s->measured_cpu ? s->measured_cpu : cpu;
	char *first = d->read(s, name, cpu);
	bool same = true;
	for (size_t i = 0; i < s->ncpus && first; i++) {
		char *v = d->read(s, name, s->cpus[i]);
		same = same && v && !strcmp(v, first);
		free(v);
	}
	if (same || !first)
		return first;
	char *all = isc_xstrdup("mixed:");
	for (size_t i = 0; i < s->ncpus; i++) {
		char *v = d->read(s, name, s->cpus[i]), *n = isc_xasprintf("%s cpu%d=%s", all, s->cpus[i], v ? v : "?");
		free(v);
		free(all);
		all = n;
	}
	free(first);
	return all;
}

/* The per-device names this machine has for a PCI entry ("aspm@" -> every BDF with the file). */
static char **pci_names(struct isc_settings *s, const struct st_def *d, size_t *n)
{
	char *dir = st_path(s, "/sys/bus/pci/devices");
	DIR *dp = opendir(dir);
	char **names = NULL;
	struct dirent *e;
	*n = 0;
	while (dp && (e = readdir(dp))) {
		if (e->d_name[0] == '.')
			continue;
		char *name = isc_xasprintf("%s%s", d->name, e->d_name);
		char why[64];
		if (d->have(s, name, why, sizeof(why)) == 0) {
			names = isc_xrealloc(names, (*n + 1) * sizeof(*names));
			names[(*n)++] = name;
		} else {
			free(name);
		}
	}
	if (dp)
		closedir(dp);
	free(dir);
	for (size_t i = 1; i < *n; i++)   /* sorted, so that records are stable */
		for (size_t k = i; k > 0 && strcmp(names[k - 1], names[k]) > 0; k--) {
			char *t = names[k];
			names[k] = names[k - 1];
			names[k - 1] = t;
		}
	return names;
}

/* Calls fn for every concrete setting name of every entry. */
static void for_each(struct isc_settings *s, void (*fn)(struct isc_settings *, const struct st_def *, const char *, void *),
		     void *arg)
{
	for (size_t t = 0; t < NTABLES; t++)
		for (const struct st_def *d = tables[t]; d->name; d++) {
			if (d->scope != ST_PCI) {
				fn(s, d, d->name, arg);
				continue;
			}
			size_t n;
			char **names = pci_names(s, d, &n);
			for (size_t i = 0; i < n; i++) {
				fn(s, d, names[i], arg);
				free(names[i]);
			}
			free(names);
			if (!n)
				fn(s, d, d->name, arg);
		}
}

static void record_one(struct isc_settings *s, const struct st_def *d, const char *name, void *arg)
{
	char why[256];
	if (d->have(s, name, why, sizeof(why)) < 0)
		return;
	char *v = read_def(s, d, name);
	if (v)
		cJSON_AddStringToObject(arg, name, v);
	free(v);
}

cJSON *isc_settings_record(struct isc_settings *s)
{
	cJSON *o = cJSON_CreateObject();
	for_each(s, record_one, o);
	return o;
}

char *isc_settings_read(struct isc_settings *s, const char *name)
{
	const struct st_def *d = st_find(name);
	char why[256];
	if (!d || d->have(s, name, why, sizeof(why)) < 0)
		return NULL;
	return read_def(s, d, name);
}

struct list_arg {
	FILE *out;
	bool missing;   /* this pass prints the missing ones */
};

static void list_one(struct isc_settings *s, const struct st_def *d, const char *name, void *arg)
{
	struct list_arg *a = arg;
	char why[512], acc[1024];
	bool have = st_settable(s, d, name, why, sizeof(why)) == 0;
	if (have == a->missing)
		return;
	if (!have) {
		fprintf(a->out, "  %-20s %s\n", d->scope == ST_PCI ? "aspm@BDF" : name, why);
		return;
	}
	char *v = read_def(s, d, name);
	d->accepts(s, name, acc, sizeof(acc));
	fprintf(a->out, "  %-20s %-16s %s%s\n", name, v ? v : "(unreadable)", acc,
		d->scope == ST_CPU ? (s->all_cpus ? "  [every online CPU]" : "  [measured CPU]") : "");
	free(v);
}

void isc_settings_list(struct isc_settings *s, FILE *out)
{
	struct list_arg a = { out, false };
	fprintf(out, "Settings of this machine%s%s (name, value, accepted values):\n", *s->sysroot ? " under " : "",
		s->sysroot);
	if (!*s->sysroot && geteuid() != 0)
		fprintf(out, "  (not root: whether the kernel takes a write is only known to root; a setting listed\n"
			     "   here may still be refused by collect --set, as root)\n");
	for_each(s, list_one, &a);
	/* the header only when a setting follows it */
	char *missing = NULL;
	size_t n = 0;
	a = (struct list_arg){ open_memstream(&missing, &n), true };
	if (!a.out) {   /* out of memory: the header regardless */
		fprintf(out, "Not on this machine:\n");
		a.out = out;
		for_each(s, list_one, &a);
		return;
	}
	for_each(s, list_one, &a);
	fclose(a.out);
	if (n)
		fprintf(out, "Not on this machine:\n%s", missing);
	free(missing);
}

static void names_of(char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	for (size_t t = 0; t < NTABLES; t++)
		for (const struct st_def *d = tables[t]; d->name && k < len; d++)
			k += (size_t)snprintf(buf + k, len - k, "%s%s%s", k ? ", " : "", d->name,
					      d->scope == ST_PCI ? "BDF" : "");
}

int isc_settings_check(struct isc_settings *s, const char *name, const char *value, char *why, size_t len)
{
	const struct st_def *d = st_find(name);
	char r[512], acc[1024];
	if (!d) {
		names_of(acc, sizeof(acc));
		snprintf(why, len, "unknown setting '%s'; the settings are %s", name, acc);
		return -1;
	}
	if (d->have(s, name, r, sizeof(r)) < 0) {
		snprintf(why, len, "%s: this machine does not have it: %s", name, r);
		return -1;
	}
	if (st_settable(s, d, name, r, sizeof(r)) < 0) {
		snprintf(why, len, "%s=%s: cannot be set on this machine: %s", name, value, r);
		return -1;
	}
	if (d->check(s, name, value, r, sizeof(r)) < 0) {
		d->accepts(s, name, acc, sizeof(acc));
		snprintf(why, len, "%s=%s: %s; accepted: %s", name, value, r, acc);
		return -1;
	}
	return 0;
}

int isc_settings_apply(struct isc_settings *s, const char *name, const char *value, char *err, size_t len)
{
	const struct st_def *d = st_find(name);
	if (!d || isc_settings_is_held(name))
		return 0;
	if (d->scope != ST_CPU)
		return d->write(s, name, value, -1, err, len);
	for (size_t i = 0; i < s->ncpus; i++)
		if (d->write(s, name, value, s->cpus[i], err, len) < 0)
			return -1;
	return 0;
}

void st_onoff_accepts(struct isc_settings *s, const char *name, char *buf, size_t len)
{
	(void)s, (void)name;
	snprintf(buf, len, "on, off");
}

int st_onoff_check(struct isc_settings *s, const char *name, const char *value, char *why, size_t len)
{
	(void)s, (void)name;
	if (!strcmp(value, "on") || !strcmp(value, "off"))
		return 0;
	snprintf(why, len, "not on or off");
	return -1;
}
