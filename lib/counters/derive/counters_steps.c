/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The steps between consecutive snapshots of each CPU that cannot be measurements: the time
 * not advancing, or a counter going backwards where no wrap at its own width and a rate the
 * hardware can reach explains it (a reset: TSC from 10^12 to 5 would be a 64-bit wrap of
 * 1.8e19 counts in a second). Found once when counters.csv is loaded, each with a warning;
 * the deltas leave those steps out (counters_delta.c).
 */
#include "counters/derive/counters_derive_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text/util.h"

#define MAX_WARNINGS 5

/* The fastest a counter can count per second: ten times any real CPU for cycles and events,
 * 100 times USER_HZ for ticks, a 10x idle second for cpuidle time in us; counters we know
 * nothing about get a bound only a 64-bit reset exceeds. */
double cnt_max_rate(const char *name)
{
	const struct cnt_def *def = cnt_registry_find(name);
	const char *unit = def ? def->unit : "", *dot = strrchr(name, '.');
	if (def && !strcmp(def->name, "SMI_COUNT"))
		return 1e6;
	if (!strcmp(unit, "cycles") || !strcmp(unit, "count"))
		return 1e11;
	if (!strcmp(unit, "ticks"))
		return 1e4;
	if (!strcmp(unit, "energy units"))
		return 1e14;  /* perf's 2^-32 J units: 23 kW */
	if (!def && dot && !strcmp(dot, ".time"))
		return 1e7;
	if (!def && dot && (!strcmp(dot, ".usage") || !strcmp(dot, ".above") || !strcmp(dot, ".below")))
		return 1e9;
	return 1e12;
}

/* Whether b after a, dt seconds later, is a count or a wrap at the counter's width. */
static bool plausible(const struct cnt_colinfo *ci, double a, double b, double dt)
{
	if (isnan(a) || isnan(b) || b >= a)
		return true;
	double top = ldexp(1, (int)ci->width);
	return a <= top && (top - a + b) / dt <= cnt_max_rate(ci->name);
}

/* Why the step from row r0 to row r1 is not a measurement, or "" when it is. */
static void check_step(const struct cnt_data *d, size_t r0, size_t r1, char *why, size_t len)
{
	double dt = d->time[r1] - d->time[r0];
	why[0] = '\0';
	if (!(dt > 0)) {
		snprintf(why, len, "Time went from %.9g to %.9g s (%s)", d->time[r0], d->time[r1],
			 dt < 0 ? "backwards" : "no time passed");
		return;
	}
	for (size_t j = 0; j < d->ncols; j++) {
		const struct cnt_colinfo *ci = &d->ci[j];
		double a = ci->v[r0], b = ci->v[r1];
		if (ci->kind == CNT_RAW || plausible(ci, a, b, dt))
			continue;
		snprintf(why, len, "%s went from %.17g to %.17g in %.9g s, which no %u-bit wrap at a "
			 "possible rate explains (a reset?)", ci->name, a, b, dt, ci->width);
		return;
	}
}

void cnt_check_steps(struct cnt_data *d)
{
	size_t bad = 0;
	d->bad_step = isc_xcalloc(d->t->nrows ? d->t->nrows : 1, 1);
	for (size_t s = 1; s < d->nsnaps; s++)
		for (size_t r1 = d->snap_first[s]; r1 < d->snap_first[s + 1]; r1++) {
			size_t r0 = cnt_row_of(d, s - 1, d->cpu[r1], r1 - d->snap_first[s]);
			char why[400];
			if (r0 == SIZE_MAX)
				continue;
			check_step(d, r0, r1, why, sizeof(why));
			if (!why[0])
				continue;
			d->bad_step[r1] = 1;
			if (++bad <= MAX_WARNINGS)
				isc_warn("%s:%zu: CPU %.0f: %s: snapshots %.0f to %.0f left out for this CPU",
					d->csv_path, r1 + 2, d->cpu[r1], why, d->snap[r0], d->snap[r1]);
		}
	if (bad > MAX_WARNINGS)
		isc_warn("%s: %zu more such steps left out", d->csv_path, bad - MAX_WARNINGS);
}
