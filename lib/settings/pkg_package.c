/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pkg-cstate-limit@packageN: the package C-state limit (msr.c) of one package N, written on
 * every online CPU whose topology/physical_package_id is N (the MSR is package- or core-scoped
 * by model: every CPU of the package gets it), whichever CPU is measured. It is
 * pkg-cstate-limit seen through a view whose CPUs are those of package N: same codes, lock
 * check, journal and restore. Not recorded by itself: pkg-cstate-limit's record shows every
 * CPU's value when they differ.
 */
#include <stdlib.h>
#include <string.h>

#include "text/util.h"
#include "settings/settings_internal.h"

#define PREFIX "pkg-cstate-limit@package"

static const struct st_def *limit_def(void)
{
	for (const struct st_def *d = st_msr_defs; d->name; d++)
		if (!strcmp(d->name, "pkg-cstate-limit"))
			return d;
	abort();
}

/* N of the name, or -1 (the bare template name). */
static long package_of(const char *name)
{
	const char *p = name + strlen(PREFIX);
	char *end;
	long n = *p >= '0' && *p <= '9' ? strtol(p, &end, 10) : -1;
	return n >= 0 && n < 65536 && !*end ? n : -1;
}

/* The online CPUs of package pkg (malloc'd; n = 0 if none). */
static int *package_cpus(const struct isc_settings *s, long pkg, size_t *n)
{
	size_t np;
	int *all = st_present_cpus(s, &np), *out = isc_xmalloc((np + 1) * sizeof(*out));
	*n = 0;
	for (size_t i = 0; i < np; i++) {
		char *p = st_path(s, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", all[i]);
		uint64_t id;
		if (st_online_state(s, all[i]) != 0 && st_read_u64(p, &id) == 0 && id == (uint64_t)pkg)
			out[(*n)++] = all[i];
		free(p);
	}
	free(all);
	return out;
}

/* s seen as if the CPUs of the package were the only ones; the journal is s's. */
static struct isc_settings view(const struct isc_settings *s, int *cpus, size_t n)
{
	struct isc_settings v = *s;
	v.cpus = cpus;
	v.ncpus = n;
	v.measured_cpu = n ? cpus[0] : s->measured_cpu;
	return v;
}

static int pp_have(struct isc_settings *s, const char *name, char *why, size_t len)
{
	long pkg = package_of(name);
	size_t n;
	int *cpus = pkg < 0 ? NULL : package_cpus(s, pkg, &n), rc;
	if (pkg >= 0 && !n) {
		snprintf(why, len, "no online CPU of package %ld (topology/physical_package_id)", pkg);
		rc = -1;
	} else {   /* the bare name (--list-settings): as the measured CPU has it */
		struct isc_settings v = pkg < 0 ? *s : view(s, cpus, n);
		rc = limit_def()->have(&v, "pkg-cstate-limit", why, len);
	}
	free(cpus);
	return rc;
}

/* The package's value when its CPUs agree, else "mixed: cpuA=X cpuB=Y". */
static char *pp_read(struct isc_settings *s, const char *name, int unused)
{
	(void)unused;
	long pkg = package_of(name);
	size_t n = 0;
	int *cpus = pkg < 0 ? NULL : package_cpus(s, pkg, &n);
	struct isc_settings v = view(s, cpus, n);
	char *first = n ? limit_def()->read(&v, "pkg-cstate-limit", cpus[0]) : NULL, *all = isc_xstrdup("mixed:");
	bool same = true;
	for (size_t i = 0; i < n && first; i++) {
		char *x = limit_def()->read(&v, "pkg-cstate-limit", cpus[i]),
		     *t = isc_xasprintf("%s cpu%d=%s", all, cpus[i], x ? x : "?");
		same = same && x && !strcmp(x, first);
		free(x);
		free(all);
		all = t;
	}
	free(cpus);
	if (same || !first) {
		free(all);
		return first;
	}
	free(first);
	return all;
}

static void pp_accepts(struct isc_settings *s, const char *name, char *buf, size_t len)
{
	(void)name;
	limit_def()->accepts(s, "pkg-cstate-limit", buf, len);
}

static int pp_check(struct isc_settings *s, const char *name, const char *value, char *why, size_t len)
{
	size_t n;
	int *cpus = package_cpus(s, package_of(name), &n);
	struct isc_settings v = view(s, cpus, n);
	int rc = limit_def()->check(&v, "pkg-cstate-limit", value, why, len);
	free(cpus);
	return rc;
}

static int pp_write(struct isc_settings *s, const char *name, const char *value, int unused, char *err, size_t len)
{
	(void)unused;
	size_t n;
	int *cpus = package_cpus(s, package_of(name), &n), rc = 0;
	struct isc_settings v = view(s, cpus, n);
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = limit_def()->write(&v, "pkg-cstate-limit", value, cpus[i], err, len);
	free(cpus);
	return rc;
}

const struct st_def st_pkg_package_defs[] = {
	{ PREFIX, ST_SYSTEM, "as pkg-cstate-limit, for package N", pp_have, pp_read, pp_accepts, pp_check, pp_write },
	{ 0 },
};
