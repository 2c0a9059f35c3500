/* SPDX-License-Identifier: GPL-2.0-only */
/* Taking a snapshot of every chosen counter, counters.csv rows, and the info.json summary. */
#include "counters/sample/counters_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "text/util.h"
#include "time/clock.h"
#include "text/util.h"

/* A --add path with every "%d" replaced by the CPU number. */
char *cnt_subst_cpu(const char *pattern, int cpu)
{
	size_t n = 0;
	for (const char *p = pattern; (p = strstr(p, "%d")); p += 2)
		n++;
	char *out = isc_xmalloc(strlen(pattern) + n * 8 + 1), *o = out;
	for (const char *p = pattern; *p;) {
		if (p[0] == '%' && p[1] == 'd') {
			o += sprintf(o, "%d", cpu);
			p += 2;
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
	return out;
}

bool cnt_read_one(const struct cnt_set *s, const struct cnt_procfs *pf, const struct cnt_col *col, size_t ci,
		  uint64_t *v)
{
	const struct cnt_cpu *c = &s->cpus[ci];
	char p[192];
	switch (col->src.type) {
	case SRC_PERF:
		if (col->perf_fd[ci] < 0) {
			errno = EBADF;
			return false;
		}
		return read(col->perf_fd[ci], v, sizeof(*v)) == (ssize_t)sizeof(*v);
	case SRC_RDTSC:
		*v = cnt_rdtsc();
		return true;
	case SRC_MSR:
		if (cnt_msr_read(&c->msr, col->src.msr, v))
			return false;
		if (col->src.width < 64)   /* the counter's bits only; the rest is reserved */
			*v &= (UINT64_C(1) << col->src.width) - 1;
		return true;
	case SRC_CPUIDLE:
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpuidle/%s/%s", c->cpu, col->path,
			 col->src.field);
		return !cnt_read_u64(&s->sys, p, v);
	case SRC_INTERRUPTS:
	case SRC_PROCSTAT:
		return cnt_procfs_value(pf, &col->src, c->cpu, v);
	case SRC_SYSFS: {
		char *path = cnt_subst_cpu(col->src.field, c->cpu);
		bool ok = !cnt_read_u64(&s->sys, path, v);
		free(path);
		return ok;
	}
	default:
		return false;
	}
}

/* One cell of the snapshot: empty where the CPU does not read the counter, or fails to. */
static void read_cell(struct cnt_set *s, const struct cnt_procfs *pf, size_t ci, size_t j)
{
	size_t k = ci * s->ncols + j;
	struct cnt_col *col = &s->cols[j];
	s->have[k] = false;
	if (!cnt_col_reads(col, &s->cpus[ci]))
		return;
	errno = 0;
	s->have[k] = cnt_read_one(s, pf, col, ci, &s->values[k]);
	if (!s->have[k])
		cnt_note_unreadable(s, col, ci, errno);
}

int cnt_snapshot(struct cnt_set *s)
{
	bool want_irq = false, want_stat = false;
	for (size_t j = 0; j < s->ncols; j++) {
		want_irq |= s->cols[j].src.type == SRC_INTERRUPTS;
		want_stat |= s->cols[j].src.type == SRC_PROCSTAT;
	}
	struct cnt_procfs pf;
	cnt_procfs_read(&s->sys, &pf, want_irq, want_stat);
	/* On the real system, read each CPU from that CPU (as turbostat does), so that its TSC,
	 * APERF and MPERF are taken together. */
	cpu_set_t saved;
	bool migrate = s->migrate && !*s->sys.root && !sched_getaffinity(0, sizeof(saved), &saved);
	for (size_t i = 0; i < s->ncpus; i++) {
		if (migrate) {
			cpu_set_t one;
			CPU_ZERO(&one);
			CPU_SET(s->cpus[i].cpu, &one);
			(void)sched_setaffinity(0, sizeof(one), &one);
		}
		s->times_ns[i] = isc_mono_ns();
		for (size_t j = 0; j < s->ncols; j++)
			read_cell(s, &pf, i, j);
	}
	if (migrate)
		(void)sched_setaffinity(0, sizeof(saved), &saved);
	cnt_procfs_free(&pf);
	s->nsnap++;
	return 0;
}

int cnt_csv_write_header(FILE *f, const struct cnt_set *s)
{
	fputs("Snapshot,Time,CPU,Core,Package", f);
	for (size_t j = 0; j < s->ncols; j++)
		fprintf(f, ",%s", s->cols[j].name);
	fputc('\n', f);
	return ferror(f) ? -1 : 0;
}

int cnt_csv_write_rows(FILE *f, const struct cnt_set *s)
{
	for (size_t i = 0; i < s->ncpus; i++) {
		const struct cnt_cpu *c = &s->cpus[i];
		fprintf(f, "%zu,%" PRIu64 ".%09" PRIu64 ",%d,%d,%d", s->nsnap - 1,
			s->times_ns[i] / NSEC_PER_SEC, s->times_ns[i] % NSEC_PER_SEC, c->cpu, c->core,
			c->package);
		for (size_t j = 0; j < s->ncols; j++) {
			size_t k = i * s->ncols + j;
			if (s->have[k])
				fprintf(f, ",%" PRIu64, s->values[k]);
			else
				fputc(',', f);
		}
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

static char *cpu_list_string(const struct cnt_set *s, bool (*pick)(const struct cnt_cpu *))
{
	size_t cap = 16, n = 0;
	char *out = isc_xmalloc(cap);
	out[0] = '\0';
	for (size_t i = 0; i < s->ncpus; i++) {
		if (pick && !pick(&s->cpus[i]))
			continue;
		size_t j = i;
		while (!pick && j + 1 < s->ncpus && s->cpus[j + 1].cpu == s->cpus[j].cpu + 1)
			j++;
		char item[32];
		int len = j > i ? snprintf(item, sizeof(item), "%s%d-%d", n ? "," : "", s->cpus[i].cpu, s->cpus[j].cpu)
				: snprintf(item, sizeof(item), "%s%d", n ? "," : "", s->cpus[i].cpu);
		if (n + (size_t)len + 1 > cap) {
			cap = 2 * (n + (size_t)len + 1);
			out = isc_xrealloc(out, cap);
		}
		memcpy(out + n, item, (size_t)len + 1);
		n += (size_t)len;
		i = j;
	}
	return out;
}

static bool is_package_cpu(const struct cnt_cpu *c)
{
	return c->reads_package;
}

cJSON *cnt_set_describe(const struct cnt_set *s)
{
	cJSON *o = cJSON_CreateObject();
	char *list = cpu_list_string(s, NULL);
	cJSON_AddStringToObject(o, "cpus", list);
	free(list);
	list = cpu_list_string(s, is_package_cpu);
	cJSON_AddStringToObject(o, "package_cpus", list);
	free(list);
	for (size_t i = 0; i < s->ncpus; i++)
		if (s->cpus[i].reads_machine)
			cJSON_AddNumberToObject(o, "system_cpu", s->cpus[i].cpu);
	if (s->sysroot)
		cJSON_AddStringToObject(o, "sysroot", s->sysroot);
	cJSON *cpu = cJSON_AddObjectToObject(o, "cpu");
	cJSON_AddStringToObject(cpu, "vendor", s->vendor);
	cJSON_AddNumberToObject(cpu, "family", s->family);
	cJSON_AddNumberToObject(cpu, "model", s->model);
	cJSON_AddBoolToObject(cpu, "anythread", s->anythread);
	if (s->anythread_why)
		cJSON_AddStringToObject(cpu, "anythread_why", s->anythread_why);
	cJSON *cols = cJSON_AddObjectToObject(o, "columns");
	for (size_t j = 0; j < s->ncols; j++) {
		const struct cnt_col *c = &s->cols[j];
		cJSON *d = cJSON_AddObjectToObject(cols, c->name);
		cJSON_AddStringToObject(d, "source", c->source_desc);
		cJSON_AddStringToObject(d, "scope", cnt_scope_name(c->scope));
		cJSON_AddStringToObject(d, "kind", cnt_kind_name(c->kind));
		cJSON_AddNumberToObject(d, "width", c->src.width);
		cJSON_AddStringToObject(d, "unit", c->unit);
		if (c->scale > 0)
			cJSON_AddNumberToObject(d, "scale", c->scale);
	}
	cJSON *miss = cJSON_AddArrayToObject(o, "missing");
	for (size_t i = 0; i < s->nmissing; i++) {
		cJSON *m = cJSON_CreateObject();
		cJSON_AddStringToObject(m, "counters", s->missing[i].group);
		cJSON_AddStringToObject(m, "reason", s->missing[i].reason);
		cJSON_AddItemToArray(miss, m);
	}
	cJSON_AddItemToObject(o, "partial", cnt_set_describe_partial(s));
	return o;
}
