/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * uncore-freq: the uncore (ring, LLC) frequency limits of every die, through the
 * intel_uncore_frequency driver: /sys/devices/system/cpu/intel_uncore_frequency/
 * package_XX_die_YY/{min,max}_freq_khz, each within initial_{min,max}_freq_khz (what the
 * firmware allowed at boot; the driver refuses values outside). The TPMI driver's uncoreNN
 * directories (Granite Rapids and later) are not handled.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "table/numparse.h"
#include "text/util.h"
#include "settings/settings_internal.h"
#include "settings/target.h"

#define UNCORE_DIR "/sys/devices/system/cpu/intel_uncore_frequency"

struct die {
	char name[64];   /* package_XX_die_YY */
	uint64_t init_min, init_max, min, max;   /* kHz */
};

/* Whether die name is one an uncore-freq@package= target acting now leaves out. */
static bool left_out(const struct isc_settings *s, const char *name)
{
	for (size_t i = 0; i < s->nuncore_dies; i++)
		if (!strcmp(s->uncore_dies[i], name))
			return false;
	return s->uncore_dies != NULL;
}

/* The dies, sorted by name (only a package target's while it acts); n = 0 when there are
 * none. malloc'd. */
static struct die *dies(const struct isc_settings *s, size_t *n)
{
	char *dir = st_path(s, UNCORE_DIR);
	DIR *d = opendir(dir);
	struct die *out = NULL;
	struct dirent *e;
	*n = 0;
	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (strncmp(e->d_name, "package_", 8) || len >= sizeof(out->name) || left_out(s, e->d_name))
			continue;
		static const char *const files[] = { "initial_min_freq_khz", "initial_max_freq_khz", "min_freq_khz",
						     "max_freq_khz" };
		struct die x = { 0 };
		uint64_t *dst[] = { &x.init_min, &x.init_max, &x.min, &x.max };
		int bad = 0;
		memcpy(x.name, e->d_name, len + 1);
		for (int i = 0; i < 4; i++) {
			char *p = isc_xasprintf("%s/%s/%s", dir, x.name, files[i]);
			bad |= st_read_u64(p, dst[i]);
			free(p);
		}
		if (bad)
			continue;
		out = isc_xrealloc(out, (*n + 1) * sizeof(*out));
		size_t k = (*n)++;
		for (; k > 0 && strcmp(out[k - 1].name, x.name) > 0; k--)
			out[k] = out[k - 1];
		out[k] = x;
	}
	if (d)
		closedir(d);
	free(dir);
	return out;
}

static int unc_have(struct isc_settings *s, const char *name, char *why, size_t len)
{
	(void)name;
	size_t n;
	free(dies(s, &n));
	if (!n)
		snprintf(why, len, "no package_XX_die_YY limits in %s%s (intel_uncore_frequency not loaded, or not "
			 "an Intel CPU with uncore frequency control)", s->sysroot, UNCORE_DIR);
	return n ? 0 : -1;
}

static char *khz_text(uint64_t khz)
{
	return khz % 1000 ? isc_xasprintf("%.3fMHz", (double)khz / 1000)
			  : isc_xasprintf("%lluMHz", (unsigned long long)(khz / 1000));
}

static char *die_value(const struct die *d)
{
	if (d->min == d->init_min && d->max == d->init_max)
		return isc_xstrdup("unl");
	if (d->min == d->max)
		return d->min == d->init_min ? isc_xstrdup("min") : d->min == d->init_max ? isc_xstrdup("max")
										  : khz_text(d->min);
	char *a = khz_text(d->min), *b = khz_text(d->max), *v = isc_xasprintf("%s-%s", a, b);
	free(a);
	free(b);
	return v;
}

/* Every die's value when they agree, else "mixed: package_00_die_00=A ...". */
static char *unc_read(struct isc_settings *s, const char *name, int cpu)
{
	(void)name, (void)cpu;
	size_t n;
	struct die *d = dies(s, &n);
	char *first = n ? die_value(&d[0]) : NULL, *all = NULL;
	bool same = true;
	for (size_t i = 1; i < n; i++) {
		char *v = die_value(&d[i]);
		same = same && !strcmp(v, first);
		free(v);
	}
	if (!same) {
		all = isc_xstrdup("mixed:");
		for (size_t i = 0; i < n; i++) {
			char *v = die_value(&d[i]), *t = isc_xasprintf("%s %s=%s", all, d[i].name, v);
			free(v);
			free(all);
			all = t;
		}
		free(first);
		first = all;
	}
	free(d);
	return first;
}

static void unc_accepts(struct isc_settings *s, const char *name, char *buf, size_t len)
{
	(void)name;
	size_t n;
	struct die *d = dies(s, &n);
	snprintf(buf, len, "min, max, unl, N MHz / N GHz, or LO-HI (1.2GHz-2GHz) from %llu to %llu MHz",
		 n ? (unsigned long long)(d[0].init_min / 1000) : 0ull, n ? (unsigned long long)(d[0].init_max / 1000) : 0ull);
	free(d);
}

/* "2000MHz", "2.1GHz" in kHz; false if neither. */
static bool parse_freq(const char *v, size_t n, uint64_t *khz)
{
	double x;
	double mul = n > 3 && !strncasecmp(v + n - 3, "GHz", 3) ? 1e6 : n > 3 && !strncasecmp(v + n - 3, "MHz", 3) ? 1e3 : 0;
	if (!mul || !isc_parse_double(v, n - 3, &x) || !(x > 0 && x * mul < 1e12))   /* not NaN, nor 1e12 kHz */
		return false;
	*khz = (uint64_t)(x * mul + 0.5);
	return true;
}

/* The [lo, hi] kHz value asks of die d. 0, or -1 with the reason. */
static int die_target(const struct die *d, const char *v, uint64_t *lo, uint64_t *hi, char *why, size_t len)
{
	const char *dash = strchr(v, '-');
	if (!strcmp(v, "min") || !strcmp(v, "max") || !strcmp(v, "unl")) {
		*lo = v[1] == 'a' ? d->init_max : d->init_min;
		*hi = v[1] == 'i' ? d->init_min : d->init_max;
	} else if (dash ? !parse_freq(v, (size_t)(dash - v), lo) || !parse_freq(dash + 1, strlen(dash + 1), hi)
			: !parse_freq(v, strlen(v), lo)) {
		snprintf(why, len, "not an uncore frequency (min, max, unl, 2000MHz, 2.1GHz, 1.2GHz-2GHz)");
		return -1;
	} else if (!dash) {
		*hi = *lo;
	}
	if (*lo > *hi) {
		snprintf(why, len, "the low limit is above the high one");
		return -1;
	}
	if (*lo < d->init_min || *hi > d->init_max) {
		snprintf(why, len, "outside %s's range %llu to %llu MHz (initial_min/max_freq_khz)", d->name,
			 (unsigned long long)(d->init_min / 1000), (unsigned long long)(d->init_max / 1000));
		return -1;
	}
	return 0;
}

static int unc_check(struct isc_settings *s, const char *name, const char *value, char *why, size_t len)
{
	(void)name;
	size_t n;
	uint64_t lo, hi;
	struct die *d = dies(s, &n);
	int rc = n ? 0 : -1;
	if (!n)
		snprintf(why, len, "no uncore frequency limits");
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = die_target(&d[i], value, &lo, &hi, why, len);
	free(d);
	return rc;
}

static int write_khz(struct isc_settings *s, const struct die *d, const char *file, uint64_t old, uint64_t v,
		     char *err, size_t len)
{
	if (old == v && !s->probing)   /* the probe writes the value in force: it must see the file */
		return 0;
	char *p = st_path(s, UNCORE_DIR "/%s/%s", d->name, file), o[32], w[32];
	snprintf(o, sizeof(o), "%llu", (unsigned long long)old);
	snprintf(w, sizeof(w), "%llu", (unsigned long long)v);
	int r = st_write(s, "uncore-freq", p, o, w, err, len);
	free(p);
	return r;
}

/* One die: max first when the new min is above the old max, so min never exceeds max. */
static int die_write(struct isc_settings *s, const struct die *d, uint64_t lo, uint64_t hi, char *err, size_t len)
{
	if (lo > d->max)
		return write_khz(s, d, "max_freq_khz", d->max, hi, err, len) ||
		       write_khz(s, d, "min_freq_khz", d->min, lo, err, len) ? -1 : 0;
	return write_khz(s, d, "min_freq_khz", d->min, lo, err, len) ||
	       write_khz(s, d, "max_freq_khz", d->max, hi, err, len) ? -1 : 0;
}

static int unc_write(struct isc_settings *s, const char *name, const char *value, int cpu, char *err, size_t len)
{
	(void)name, (void)cpu;
	size_t n;
	uint64_t lo, hi;
	struct die *d = dies(s, &n);
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = die_target(&d[i], value, &lo, &hi, err, len) < 0 ? -1 : die_write(s, &d[i], lo, hi, err, len);
	free(d);
	return rc;
}

int st_uncore_package_dies(struct isc_settings *s, const char *list, char ***out, size_t *nout, char *why, size_t len)
{
	int *pkgs;
	size_t npkgs, n;
	char r[256];
	*out = NULL, *nout = 0;
	if (isc_parse_cpu_list(list, &pkgs, &npkgs, r, sizeof(r)) < 0) {
		snprintf(why, len, "'package=%s': expected package numbers (0, 0-1)", list);
		return -1;
	}
	struct die *d = dies(s, &n);
	int rc = 0;
	for (size_t k = 0; k < npkgs && rc == 0; k++) {
		size_t before = *nout;
		for (size_t i = 0; i < n; i++) {
			unsigned pkg;
			int end = 0;
			if (sscanf(d[i].name, "package_%u_die_%*u%n", &pkg, &end) != 1 || !end || d[i].name[end] ||
			    (int)pkg != pkgs[k])
				continue;
			*out = isc_xrealloc(*out, (*nout + 1) * sizeof(**out));
			(*out)[(*nout)++] = isc_xstrdup(d[i].name);
		}
		if (*nout == before) {
			snprintf(why, len, "no uncore die of package %d (package_%02d_die_YY in %s%s)", pkgs[k], pkgs[k],
				 s->sysroot, UNCORE_DIR);
			rc = -1;
		}
	}
	free(d);
	free(pkgs);
	return rc;
}

const struct st_def st_uncore_defs[] = {
	{ "uncore-freq", ST_SYSTEM, "min, max, unl, N MHz, N GHz, LO-HI", unc_have, unc_read, unc_accepts, unc_check,
	  unc_write },
	{ 0 },
};
