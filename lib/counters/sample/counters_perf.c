/* SPDX-License-Identifier: GPL-2.0-only */
/* perf_event_open sources: PMU events described in sysfs, and hardware/raw configs. */
#include "counters/sample/counters_internal.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "text/util.h"

/* "config:0-7" or "config:21": the bit range a format term occupies. */
static int parse_format(const char *text, unsigned *lo, unsigned *hi)
{
	unsigned a, b;
	if (sscanf(text, "config:%u-%u", &a, &b) == 2 && a <= b && b < 64) {
		*lo = a;
		*hi = b;
		return 0;
	}
	if (sscanf(text, "config:%u", &a) == 1 && a < 64) {
		*lo = *hi = a;
		return 0;
	}
	return -1;
}

/* Turn an event description ("event=0x01,umask=0x2") into a config via the PMU's formats. */
static int event_config(const struct cnt_sys *sys, const char *pmu, const char *desc,
			uint64_t *config, char *why, size_t len)
{
	char *copy = isc_xstrdup(desc), *save = NULL;
	int rc = -1;
	*config = 0;
	for (char *t = strtok_r(copy, ",\n", &save); t; t = strtok_r(NULL, ",\n", &save)) {
		char *eq = strchr(t, '=');
		uint64_t val = 1;
		if (eq) {
			*eq = '\0';
			val = strtoull(eq + 1, NULL, 0);
		}
		char *fpath = isc_xasprintf("/sys/bus/event_source/devices/%s/format/%s", pmu, t);
		char *fmt = cnt_read_text(sys, fpath, 256, NULL);
		free(fpath);
		unsigned lo, hi;
		if (!fmt || parse_format(fmt, &lo, &hi)) {
			snprintf(why, len, "perf %s: unsupported format term '%s'", pmu, t);
			free(fmt);
			goto out;
		}
		free(fmt);
		uint64_t mask = hi - lo == 63 ? ~0ull : ((1ull << (hi - lo + 1)) - 1);
		*config |= (val & mask) << lo;
	}
	rc = 0;
out:
	free(copy);
	return rc;
}

int cnt_perf_attr(const struct cnt_sys *sys, const struct cnt_src *src, struct perf_event_attr *attr,
		  double *scale, char *why, size_t len)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	*scale = 0;
	if (!sys->perf) {
		snprintf(why, len, "perf off (--sysroot)");
		return -1;
	}
	if (!strcmp(src->pmu, CNT_PMU_HARDWARE) || !strcmp(src->pmu, CNT_PMU_RAW)) {
		attr->type = src->pmu[0] == 'h' ? PERF_TYPE_HARDWARE : PERF_TYPE_RAW;
		attr->config = src->config;
		return 0;
	}
	char *p = isc_xasprintf("/sys/bus/event_source/devices/%s/type", src->pmu);
	uint64_t type;
	int rc = cnt_read_u64(sys, p, &type);
	free(p);
	if (rc) {
		snprintf(why, len, "no %s PMU", src->pmu);
		return -1;
	}
	p = isc_xasprintf("/sys/bus/event_source/devices/%s/events/%s", src->pmu, src->event);
	char *desc = cnt_read_text(sys, p, 1024, NULL);
	free(p);
	if (!desc) {
		snprintf(why, len, "%s PMU has no %s event", src->pmu, src->event);
		return -1;
	}
	attr->type = (uint32_t)type;
	uint64_t config;
	rc = event_config(sys, src->pmu, desc, &config, why, len);
	attr->config = config;
	free(desc);
	if (rc)
		return -1;
	p = isc_xasprintf("/sys/bus/event_source/devices/%s/events/%s.scale", src->pmu, src->event);
	char *sc = cnt_read_text(sys, p, 256, NULL);
	free(p);
	if (sc)
		*scale = strtod(sc, NULL);
	free(sc);
	return 0;
}

int cnt_perf_open(const struct perf_event_attr *attr, int cpu)
{
	struct perf_event_attr a = *attr;
	return (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

const char *cnt_perf_desc(const struct cnt_src *src, char *buf, size_t len)
{
	if (!strcmp(src->pmu, CNT_PMU_HARDWARE) || !strcmp(src->pmu, CNT_PMU_RAW))
		snprintf(buf, len, "perf %s 0x%llx", src->pmu, (unsigned long long)src->config);
	else
		snprintf(buf, len, "perf %s/%s", src->pmu, src->event);
	return buf;
}
