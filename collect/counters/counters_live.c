/* SPDX-License-Identifier: GPL-2.0-only */
/* collect --counters --live: the newest interval's numbers, printed as they are measured. */
#include "counters_live.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "counters/derive/counters_derive.h"
#include "text/util.h"

#define HEADING_EVERY 20

/* Whether name is one of the comma-separated list. */
static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; p && *p;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len == n && !strncmp(p, name, n))
			return true;
		p = end ? end + 1 : NULL;
	}
	return false;
}

static bool visible(const struct live_opts *o, const char *name)
{
	return o->show ? in_list(o->show, name) : !(o->hide && in_list(o->hide, name));
}

static int width(const char *name)
{
	int w = (int)strlen(name);
	return w < 7 ? 7 : w;
}

static void row(FILE *f, const struct cnt_result *r, const struct live_opts *o, const char *cpu,
		const double *v)
{
	fprintf(f, "%8s", cpu);
	for (size_t k = 0; k < r->ncols; k++) {
		if (!visible(o, r->cols[k]))
			continue;
		char b[64] = "-";
		if (!isnan(v[k]) && r->prec[k] < 0)
			snprintf(b, sizeof(b), "%.6g", v[k]);
		else if (!isnan(v[k]))
			snprintf(b, sizeof(b), "%.*f", r->prec[k], v[k]);
		fprintf(f, " %*s", width(r->cols[k]), b);
	}
	fputc('\n', f);
}

static void heading(FILE *f, const struct cnt_result *r, const struct live_opts *o)
{
	fprintf(f, "%8s", "CPU");
	for (size_t k = 0; k < r->ncols; k++)
		if (visible(o, r->cols[k]))
			fprintf(f, " %*s", width(r->cols[k]), r->cols[k]);
	fputc('\n', f);
}

/* Impossible readings (counters_derive.h) on stderr, each kind once, when it first shows: the
 * live rows are derived from the same counters. */
static void warn_implausible(const struct cnt_result *r)
{
	static bool warned[CNT_NCHECKS];
	for (int k = 0; k < CNT_NCHECKS; k++) {
		char *line = warned[k] ? NULL : cnt_check_line(&r->checks[k]);
		if (line)
			isc_warn("%s (so far; analyze counters has them all)", line);
		warned[k] = warned[k] || line;
		free(line);
	}
}

int counters_live_print(FILE *out, const char *rundir, const struct live_opts *o, long interval_no)
{
	struct cnt_data *d;
	struct cnt_result r;
	struct cnt_derive_opts dopts = { 0 };
	if (cnt_data_load(rundir, &d) <= 0)
		return -1;
	if (d->nsnaps < 2) {
		cnt_data_free(d);
		return 0;
	}
	if (cnt_derive(d, &dopts, &r)) {
		cnt_data_free(d);
		return -1;
	}
	warn_implausible(&r);
	const struct cnt_out_interval *iv = &r.iv[r.niv - 1];
	if (o->per_cpu || interval_no % HEADING_EVERY == 0)
		heading(out, &r, o);
	row(out, &r, o, "-", iv->summary);
	for (size_t j = 0; o->per_cpu && j < iv->ncpus; j++) {
		char cpu[16];
		snprintf(cpu, sizeof(cpu), "%d", iv->cpus[j].cpu);
		row(out, &r, o, cpu, iv->cpus[j].v);
	}
	fflush(out);
	cnt_result_free(&r);
	cnt_data_free(d);
	return 0;
}
