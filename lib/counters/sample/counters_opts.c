/* SPDX-License-Identifier: GPL-2.0-only */
/* Parsing of counter options: CPU lists and turbostat-style --add specs. */
#include "counters/sample/counters.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "text/util.h"

#define CNT_MAX_CPU 4096

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static const char *parse_cpu_num(const char *p, int *out)
{
	if (*p < '0' || *p > '9')
		return NULL;
	long v = 0;
	while (*p >= '0' && *p <= '9') {
		v = v * 10 + (*p++ - '0');
		if (v >= CNT_MAX_CPU)
			return NULL;
	}
	*out = (int)v;
	return p;
}

int cnt_parse_cpu_list(const char *s, int **cpus, size_t *n)
{
	int *v = NULL;
	size_t len = 0;
	const char *p = s;
	while (*p && *p != '\n') {
		int lo, hi;
		if (!(p = parse_cpu_num(p, &lo)))
			goto bad;
		hi = lo;
		if (*p == '-' && !(p = parse_cpu_num(p + 1, &hi)))
			goto bad;
		if (hi < lo)
			goto bad;
		v = isc_xrealloc(v, (len + (size_t)(hi - lo) + 1) * sizeof(*v));
		for (int c = lo; c <= hi; c++)
			v[len++] = c;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			goto bad;
	}
	if (!len)
		goto bad;
	qsort(v, len, sizeof(*v), cmp_int);
	size_t u = 0;
	for (size_t i = 0; i < len; i++)
		if (!u || v[u - 1] != v[i])
			v[u++] = v[i];
	*cpus = v;
	*n = u;
	return 0;
bad:
	free(v);
	return -1;
}

static bool valid_name(const char *s)
{
	if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_'))
		return false;
	for (s++; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '_' || *s == '.'))
			return false;
	return true;
}

static int parse_msr_addr(const char *f, uint32_t *addr)
{
	char *end;
	errno = 0;
	unsigned long long a = strtoull(f + 3, &end, strncmp(f + 3, "0x", 2) ? 10 : 16);
	if (f[3] == '\0' || f[3] == '-' || *end || errno || a > UINT32_MAX)
		return -1;
	*addr = (uint32_t)a;
	return 0;
}

/* One field of a spec; returns -1 for an unknown word. */
static int add_field(const char *f, struct cnt_def *def, char **owned, bool *have_src, bool *have_name)
{
	enum cnt_scope sc;
	if (!strncmp(f, "msr", 3) && f[3] >= '0' && f[3] <= '9') {
		if (parse_msr_addr(f, &def->src[0].msr))
			return -1;
		def->src[0].type = SRC_MSR;
		def->src[0].vendor = CNT_ANY;
		*have_src = true;
	} else if (f[0] == '/') {
		owned[0] = isc_xstrdup(f);
		def->src[0].type = SRC_SYSFS;
		def->src[0].field = owned[0];
		*have_src = true;
	} else if (!strcmp(f, "u32") || !strcmp(f, "u64")) {
		def->src[0].width = f[1] == '3' ? 32 : 64;
	} else if (!cnt_scope_parse(f, &sc)) {
		def->scope = sc;
	} else if (!strcmp(f, "raw") || !strcmp(f, "delta") || !strcmp(f, "percent")) {
		def->kind = f[0] == 'r' ? CNT_RAW : f[0] == 'd' ? CNT_DELTA : CNT_PERCENT;
	} else if (f[0] == 'u' && f[1] >= '0' && f[1] <= '9') {
		return -1;   /* a width other than u32/u64 */
	} else if (valid_name(f) && !*have_name) {
		owned[1] = isc_xstrdup(f);
		def->name = owned[1];
		*have_name = true;
	} else {
		return -1;
	}
	return 0;
}

int cnt_parse_add(const char *spec, struct cnt_def *def, char **owned, char *err, size_t errlen)
{
	memset(def, 0, sizeof(*def));
	owned[0] = owned[1] = NULL;
	def->scope = CNT_THREAD;
	def->kind = CNT_DELTA;
	def->unit = "count";
	def->group = "--add";
	def->what = "added with --add";
	def->src[0].width = 64;
	bool have_src = false, have_name = false;
	char *copy = isc_xstrdup(spec), *save = NULL;
	for (char *f = strtok_r(copy, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
		if (add_field(f, def, owned, &have_src, &have_name)) {
			snprintf(err, errlen, "'%s': unknown field '%.40s' (expected msr0xNNN or /path, "
				 "u32|u64, thread|core|package|system, raw|delta|percent, NAME)", spec, f);
			goto bad;
		}
	}
	if (!have_src) {
		snprintf(err, errlen, "'%s': no counter given (msr0xNNN, msrNNN or /sysfs/path)", spec);
		goto bad;
	}
	if (!have_name) {
		if (def->src[0].type == SRC_MSR)
			owned[1] = isc_xasprintf("msr0x%X", def->src[0].msr);
		else {
			snprintf(err, errlen, "'%s': a path counter needs a NAME", spec);
			goto bad;
		}
		def->name = owned[1];
	}
	if (cnt_registry_find(def->name)) {
		snprintf(err, errlen, "'%s': name '%s' is a built-in counter", spec, def->name);
		goto bad;
	}
	free(copy);
	return 0;
bad:
	free(copy);
	free(owned[0]);
	free(owned[1]);
	owned[0] = owned[1] = NULL;
	return -1;
}
