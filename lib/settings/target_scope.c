/* SPDX-License-Identifier: GPL-2.0-only */
/* The hardware scope of the MSR settings (one MSR per core or per package, as pepc's
 * PowerCtl.py and PCStateConfigCtl.py have it): a target must cover whole cores or packages
 * of the online CPUs, else the CPUs recorded would not be the CPUs changed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/util.h"
#include "settings/settings_internal.h"
#include "settings/target.h"

enum hw_scope { HW_CORE, HW_PACKAGE };

static const struct {
	const char *name;
	unsigned msr;
	enum hw_scope scope;
} scopes[] = {
	{ "c1-demotion", 0xE2, HW_CORE },
	{ "c1-undemotion", 0xE2, HW_CORE },
	{ "pkg-cstate-limit", 0xE2, HW_PACKAGE },
	{ "c1e-autopromote", 0x1FC, HW_PACKAGE },
	{ "cstate-prewake", 0x1FC, HW_PACKAGE },
};

static int cmp_int(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

static bool has(const int *cpus, size_t n, int cpu)
{
	for (size_t i = 0; i < n; i++)
		if (cpus[i] == cpu)
			return true;
	return false;
}

/* The online CPUs that share cpu's core or package (cpu included). */
static int group_of(struct isc_settings *s, enum hw_scope sc, int cpu, const int *on, size_t non, int **g,
		    size_t *ng, char *why, size_t len)
{
	char *f, *t;
	uint64_t id, other;
	int rc = 0;
	*g = NULL, *ng = 0;
	if (sc == HW_CORE) {
		f = st_path(s, "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
		t = st_read(f);
		rc = t ? isc_parse_cpu_list(t, g, ng, why, len) : -1;
		if (!t)
			snprintf(why, len, "cannot read %s", f);
		free(t);
		free(f);
		return rc;
	}
	f = st_path(s, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
	rc = st_read_u64(f, &id);
	for (size_t i = 0; i < non && rc == 0; i++) {
		char *o = st_path(s, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", on[i]);
		rc = st_read_u64(o, &other);
		if (rc < 0)
			snprintf(why, len, "cannot read %s", o);
		else if (other == id) {
			*g = isc_xrealloc(*g, (*ng + 1) * sizeof(**g));
			(*g)[(*ng)++] = on[i];
		}
		free(o);
	}
	if (rc < 0 && !*ng)
		snprintf(why, len, "cannot read %s", f);
	free(f);
	return rc;
}

/* The online CPUs sharing a core/package with t's CPUs but not in t, as "1,5" (malloc'd;
 * *out stays NULL when none is missing). */
static int missing_cpus(struct isc_settings *s, enum hw_scope sc, const struct isc_target *t, char **out, char *why,
			size_t len)
{
	int *on = NULL, rc;
	size_t non = 0;
	char *p = st_path(s, "/sys/devices/system/cpu/online"), *text = st_read(p);
	rc = text ? isc_parse_cpu_list(text, &on, &non, why, len) : -1;
	if (!text)
		snprintf(why, len, "cannot read %s", p);
	free(text);
	free(p);
	struct isc_target miss = { 0 };
	for (size_t i = 0; i < t->ncpus && rc == 0; i++) {
		int *g;
		size_t ng;
		rc = group_of(s, sc, t->cpus[i], on, non, &g, &ng, why, len);
		for (size_t k = 0; k < ng && rc == 0; k++)
			if (has(on, non, g[k]) && !has(t->cpus, t->ncpus, g[k]) && !has(miss.cpus, miss.ncpus, g[k])) {
				miss.cpus = isc_xrealloc(miss.cpus, (miss.ncpus + 1) * sizeof(*miss.cpus));
				miss.cpus[miss.ncpus++] = g[k];
			}
		free(g);
	}
	free(on);
	if (rc == 0 && miss.ncpus) {
		qsort(miss.cpus, miss.ncpus, sizeof(*miss.cpus), cmp_int);
		*out = isc_target_cpus_text(&miss);
	}
	free(miss.cpus);
	return rc;
}

int st_target_scope_check(struct isc_settings *s, const char *name, const struct isc_target *t, char *why, size_t len)
{
	size_t i = 0;
	while (i < sizeof(scopes) / sizeof(scopes[0]) && strcmp(scopes[i].name, name))
		i++;
	if (i == sizeof(scopes) / sizeof(scopes[0]))
		return 0;
	char *miss = NULL, r[256];
	const char *what = scopes[i].scope == HW_CORE ? "core" : "package";
	if (missing_cpus(s, scopes[i].scope, t, &miss, r, sizeof(r)) < 0) {
		snprintf(why, len, "%s@%s: %s", name, t->spec, r);
		return -1;
	}
	if (!miss)
		return 0;
	snprintf(why, len, "%s@%s: MSR 0x%X is one per %s: the target must cover whole %ss; CPUs missing: %s", name,
		 t->spec, scopes[i].msr, what, what, miss);
	free(miss);
	return -1;
}
