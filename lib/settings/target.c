/* SPDX-License-Identifier: GPL-2.0-only */
/* Targets of per-CPU settings (target.h): parsed, resolved against the topology files under
 * the sysroot, and used by swapping the CPUs the registry works on. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/util.h"
#include "settings/settings_internal.h"
#include "settings/target.h"

#define MAX_CPU 65535
#define TARGETS "all, measured, siblings, cpus=LIST (0-3,6), package=LIST"

static int cmp_int(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* One number 0..MAX_CPU at *p, advancing it. */
static bool number(const char **p, long *v)
{
	char *end;
	if (**p < '0' || **p > '9')
		return false;
	errno = 0;
	*v = strtol(*p, &end, 10);
	*p = end;
	return !errno && *v <= MAX_CPU;
}

int isc_parse_cpu_list(const char *text, int **cpus, size_t *n, char *why, size_t len)
{
	const char *p = text;
	*cpus = NULL;
	*n = 0;
	while (*p) {
		long a, b;
		if (!number(&p, &a))
			goto bad;
		b = a;
		if (*p == '-' && (p++, !number(&p, &b)))
			goto bad;
		if (b < a || (*p && *p != ',') || (*p == ',' && !p[1]))
			goto bad;
		p += *p == ',';
		*cpus = isc_xrealloc(*cpus, (*n + (size_t)(b - a) + 1) * sizeof(**cpus));
		for (long c = a; c <= b; c++)
			(*cpus)[(*n)++] = (int)c;
		if (*n > MAX_CPU + 1)
			goto bad;
	}
	if (!*n)
		goto bad;
	qsort(*cpus, *n, sizeof(**cpus), cmp_int);
	size_t k = 0;
	for (size_t i = 0; i < *n; i++)
		if (!k || (*cpus)[k - 1] != (*cpus)[i])
			(*cpus)[k++] = (*cpus)[i];
	*n = k;
	return 0;
bad:;
	char q[64];   /* the text, cut and escaped: it may come from anywhere */
	isc_quote_for_msg(text, strlen(text), q, sizeof(q));
	snprintf(why, len, "'%s' is not a CPU list (0-3,6; CPUs 0 to %d)", q, MAX_CPU);
	free(*cpus);
	*cpus = NULL;
	*n = 0;
	return -1;
}

static bool in_list(const int *cpus, size_t n, int cpu)
{
	return bsearch(&cpu, cpus, n, sizeof(*cpus), cmp_int) != NULL;
}

/* A CPU list in a sysfs file under the sysroot. */
static int read_list(struct isc_settings *s, const char *file, int **cpus, size_t *n, char *why, size_t len)
{
	char *p = st_path(s, "/sys/devices/system/cpu/%s", file), *t = st_read(p), r[256];
	int rc = t ? isc_parse_cpu_list(t, cpus, n, r, sizeof(r)) : -1;
	if (!t)
		snprintf(why, len, "cannot read %s: %s", p, strerror(errno));
	else if (rc < 0)
		snprintf(why, len, "%s: %s", p, r);
	free(t);
	free(p);
	return rc;
}

/* Every CPU of cpus must be online: one line for the first that is not. */
static int all_online(struct isc_settings *s, const int *cpus, size_t n, const int *on, size_t non, char *why,
		      size_t len)
{
	for (size_t i = 0; i < n; i++) {
		if (in_list(on, non, cpus[i]))
			continue;
		char *dir = st_path(s, "/sys/devices/system/cpu/cpu%d", cpus[i]);
		struct isc_target all = { .cpus = (int *)on, .ncpus = non };
		char *online = isc_target_cpus_text(&all);
		snprintf(why, len, "CPU %d %s (online: %s)", cpus[i], st_exists(dir) ? "is offline" : "does not exist",
			 online);
		free(online);
		free(dir);
		return -1;
	}
	return 0;
}

/* The online CPUs whose physical_package_id is in the list arg ("0", "0,2-3"); every package
 * of the list must have one. */
static int package_cpus(struct isc_settings *s, const char *arg, const int *on, size_t non, struct isc_target *t,
			char *why, size_t len)
{
	int *pkgs;
	size_t npkgs;
	char r[256];
	if (isc_parse_cpu_list(arg, &pkgs, &npkgs, r, sizeof(r)) < 0) {
		snprintf(why, len, "'package=%s': expected package numbers (0, 0-1)", arg);
		return -1;
	}
	bool *seen = isc_xcalloc(npkgs, sizeof(*seen));
	int rc = 0;
	for (size_t i = 0; i < non && !rc; i++) {
		uint64_t id;
		char *f = st_path(s, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", on[i]);
		rc = st_read_u64(f, &id);
		int key = id <= MAX_CPU ? (int)id : -1;
		int *hit = rc < 0 ? NULL : bsearch(&key, pkgs, npkgs, sizeof(*pkgs), cmp_int);
		if (rc < 0)
			snprintf(why, len, "cannot read %s: %s", f, strerror(errno));
		else if (hit) {
			seen[hit - pkgs] = true;
			t->cpus = isc_xrealloc(t->cpus, (t->ncpus + 1) * sizeof(*t->cpus));
			t->cpus[t->ncpus++] = on[i];
		}
		free(f);
	}
	for (size_t k = 0; k < npkgs && !rc; k++)
		if (!seen[k]) {
			snprintf(why, len, "no online CPU is in package %d", pkgs[k]);
			rc = -1;
		}
	free(seen);
	free(pkgs);
	return rc;
}

static int resolve_spec(struct isc_settings *s, const char *spec, struct isc_target *t, char *why, size_t len)
{
	int *on, rc;
	size_t non;
	if (!strcmp(spec, "measured")) {
		t->cpus = isc_xmalloc(sizeof(*t->cpus));
		t->cpus[t->ncpus++] = s->measured_cpu;
		return 0;
	}
	if (read_list(s, "online", &on, &non, why, len) < 0)
		return -1;
	if (!strcmp(spec, "all")) {
		t->cpus = on, t->ncpus = non;
		return 0;
	}
	if (!strcmp(spec, "siblings")) {
		char *f = isc_xasprintf("cpu%d/topology/thread_siblings_list", s->measured_cpu);
		rc = read_list(s, f, &t->cpus, &t->ncpus, why, len);
		free(f);
	} else if (!strncmp(spec, "cpus=", 5)) {
		rc = isc_parse_cpu_list(spec + 5, &t->cpus, &t->ncpus, why, len);
	} else if (!strncmp(spec, "package=", 8)) {
		rc = package_cpus(s, spec + 8, on, non, t, why, len);
	} else {
		snprintf(why, len, "unknown target '%s'; the targets are " TARGETS, spec);
		rc = -1;
	}
	if (rc == 0)
		rc = all_online(s, t->cpus, t->ncpus, on, non, why, len);
	free(on);
	return rc;
}

int isc_target_resolve(struct isc_settings *s, const char *name, const char *spec, struct isc_target *t, char *why,
		       size_t len)
{
	const struct st_def *d = st_find(name);
	char r[512];
	*t = (struct isc_target){ .spec = spec ? isc_xstrdup(spec) : NULL };
	if (d && d->scope != ST_CPU) {
		if (!spec)
			return 0;
		if (!strcmp(name, "uncore-freq") && !strncmp(spec, "package=", 8)) {
			if (st_uncore_package_dies(s, spec + 8, &t->dies, &t->ndies, r, sizeof(r)) == 0)
				return 0;
			snprintf(why, len, "%s@%s: %s", name, spec, r);
			isc_target_free(t);
			return -1;
		}
		snprintf(why, len, "%s@%s: %s is one setting for the whole machine: it takes no CPU target", name, spec, name);
		isc_target_free(t);
		return -1;
	}
	if (!spec) {   /* --settings-cpus */
		t->spec = isc_xstrdup(s->all_cpus ? "all" : "measured");
		t->cpus = isc_xmalloc(s->ncpus * sizeof(*t->cpus));
		memcpy(t->cpus, s->cpus, s->ncpus * sizeof(*t->cpus));
		t->ncpus = s->ncpus;
		return 0;
	}
	if (resolve_spec(s, spec, t, r, sizeof(r)) == 0)
		return st_target_scope_check(s, name, t, why, len) == 0 ? 0 : (isc_target_free(t), -1);
	snprintf(why, len, "%s@%s: %s", name, spec, r);
	isc_target_free(t);
	return -1;
}

void isc_target_free(struct isc_target *t)
{
	for (size_t i = 0; i < t->ndies; i++)
		free(t->dies[i]);
	free(t->dies);
	free(t->spec);
	free(t->cpus);
	*t = (struct isc_target){ 0 };
}

char *isc_target_cpus_text(const struct isc_target *t)
{
	char *out = isc_xstrdup("");
	for (size_t i = 0; i < t->ncpus;) {
		size_t j = i;
		while (j + 1 < t->ncpus && t->cpus[j + 1] == t->cpus[j] + 1)
			j++;
		char *n = j > i ? isc_xasprintf("%s%s%d-%d", out, i ? "," : "", t->cpus[i], t->cpus[j])
				: isc_xasprintf("%s%s%d", out, i ? "," : "", t->cpus[i]);
		free(out);
		out = n;
		i = j + 1;
	}
	return out;
}

cJSON *isc_target_json(const struct isc_target *t)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "target", t->spec ? t->spec : "system");
	if (t->cpus) {
		cJSON *a = cJSON_AddArrayToObject(o, "cpus");
		for (size_t i = 0; i < t->ncpus; i++)
			cJSON_AddItemToArray(a, cJSON_CreateNumber(t->cpus[i]));
	}
	if (t->dies) {
		cJSON *a = cJSON_AddArrayToObject(o, "dies");
		for (size_t i = 0; i < t->ndies; i++)
			cJSON_AddItemToArray(a, cJSON_CreateString(t->dies[i]));
	}
	return o;
}

/* The registry works on s->cpus: a target's CPUs, less those offline-cpus took offline since
 * (target_online.c), stand in for them while it acts. */
struct saved {
	int *cpus, *now;
	size_t n;
};

static struct saved swap_in(struct isc_settings *s, const struct isc_target *t)
{
	struct saved old = { s->cpus, NULL, s->ncpus };
	old.now = isc_target_cpus_now(s, t, &s->ncpus);
	s->cpus = old.now;
	s->uncore_dies = t->dies, s->nuncore_dies = t->ndies;
	return old;
}

static void swap_out(struct isc_settings *s, struct saved old)
{
	free(old.now);
	s->cpus = old.cpus;
	s->ncpus = old.n;
	s->uncore_dies = NULL, s->nuncore_dies = 0;
}

int isc_settings_check_on(struct isc_settings *s, const struct isc_target *t, const char *name, const char *value,
			  char *why, size_t len)
{
	struct saved old = swap_in(s, t);
	int r = isc_settings_check(s, name, value, why, len);
	swap_out(s, old);
	return r;
}

int isc_settings_apply_on(struct isc_settings *s, const struct isc_target *t, const char *name, const char *value,
			  char *err, size_t len)
{
	struct saved old = swap_in(s, t);
	int r = isc_settings_apply(s, name, value, err, len);
	swap_out(s, old);
	return r;
}

char *isc_settings_read_on(struct isc_settings *s, const struct isc_target *t, const char *name)
{
	struct saved old = swap_in(s, t);
	char *v = isc_settings_read(s, name);
	swap_out(s, old);
	return v;
}
