/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Counters that some of the CPUs that should read them cannot read (no /dev/cpu/N/msr on one
 * CPU, an MSR that one CPU lacks, a perf event that does not open there). Their cells stay
 * empty on those CPUs, and each such counter is reported once with the CPUs and the reasons:
 * a warning from collect and an entry of info.json counters.partial.
 */
#include "counters/sample/counters_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "text/util.h"

/* At most this many per-CPU reasons in one report; the others are counted. */
#define MAX_REASONS 3

void cnt_unreadable_why(const struct cnt_set *s, const struct cnt_col *col, size_t ci, char *why, size_t len)
{
	const struct cnt_cpu *c = &s->cpus[ci];
	const char *err = strerror(col->fail_errno[ci]);
	char d[96], *p;
	switch (col->src.type) {
	case SRC_MSR:
		if (c->msr.fd < 0)
			snprintf(why, len, "no /dev/cpu/%d/msr (%s)", c->cpu, strerror(c->msr_errno));
		else
			snprintf(why, len, "MSR 0x%X not readable on CPU %d (%s)", col->src.msr, c->cpu, err);
		break;
	case SRC_PERF:
		snprintf(why, len, "%s: %s on CPU %d: %s", cnt_perf_desc(&col->src, d, sizeof(d)),
			 col->perf_fd[ci] < 0 ? "perf_event_open" : "read", c->cpu, err);
		break;
	case SRC_CPUIDLE:
		snprintf(why, len, "/sys/devices/system/cpu/cpu%d/cpuidle/%s/%s: %s", c->cpu, col->path,
			 col->src.field, err);
		break;
	case SRC_SYSFS:
		p = cnt_subst_cpu(col->src.field, c->cpu);
		snprintf(why, len, "%s: %s", p, err);
		free(p);
		break;
	case SRC_INTERRUPTS:
	case SRC_PROCSTAT:
		snprintf(why, len, "%s has no %s for CPU %d",
			 col->src.type == SRC_INTERRUPTS ? "/proc/interrupts" : "/proc/stat", col->src.field, c->cpu);
		break;
	default:
		snprintf(why, len, "CPU %d: %s", c->cpu, err);
		break;
	}
}

void cnt_note_unreadable(const struct cnt_set *s, struct cnt_col *col, size_t ci, int err)
{
	if (col->fail_errno[ci])
		return;
	col->fail_errno[ci] = err > 0 ? err : EIO;
	if (s->quiet)
		return;
	char why[320];
	cnt_unreadable_why(s, col, ci, why, sizeof(why));
	isc_warn("%s unreadable on CPU %d: %s", col->name, s->cpus[ci].cpu, why);
}

static void append(char **s, const char *sep, const char *item)
{
	char *t = isc_xasprintf("%s%s%s", *s ? *s : "", *s ? sep : "", item);
	free(*s);
	*s = t;
}

/* The CPUs where a counter failed ("1,3") and their reasons. */
struct partial {
	size_t n;
	char *cpus, *reasons;
};

static struct partial partial_of(const struct cnt_set *s, const struct cnt_col *col)
{
	struct partial p = { 0, NULL, NULL };
	char num[16], why[320];
	for (size_t i = 0; col->fail_errno && i < s->ncpus; i++) {
		if (!col->fail_errno[i])
			continue;
		snprintf(num, sizeof(num), "%d", s->cpus[i].cpu);
		append(&p.cpus, ",", num);
		if (p.n++ < MAX_REASONS) {
			cnt_unreadable_why(s, col, i, why, sizeof(why));
			append(&p.reasons, "; ", why);
		}
	}
	if (p.n > MAX_REASONS) {
		snprintf(why, sizeof(why), "and %zu more", p.n - MAX_REASONS);
		append(&p.reasons, "; ", why);
	}
	return p;
}

void cnt_warn_partial(const struct cnt_set *s)
{
	for (size_t j = 0; j < s->ncols && !s->quiet; j++) {
		struct partial p = partial_of(s, &s->cols[j]);
		if (p.n)
			isc_warn("%s unreadable on CPU%s %s: %s", s->cols[j].name, p.n > 1 ? "s" : "", p.cpus,
				p.reasons);
		free(p.cpus);
		free(p.reasons);
	}
}

cJSON *cnt_set_describe_partial(const struct cnt_set *s)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t j = 0; j < s->ncols; j++) {
		struct partial p = partial_of(s, &s->cols[j]);
		if (p.n) {
			cJSON *o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "counters", s->cols[j].name);
			cJSON_AddStringToObject(o, "cpus", p.cpus);
			cJSON_AddStringToObject(o, "reason", p.reasons);
			cJSON_AddItemToArray(a, o);
		}
		free(p.cpus);
		free(p.reasons);
	}
	return a;
}
