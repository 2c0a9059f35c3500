/* SPDX-License-Identifier: GPL-2.0-only */
/* Per-CPU counter deltas between snapshots, with wraparound and scope propagation. */
#include "counters/derive/counters_derive_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text/util.h"

double cnt_wrap_delta(double a, double b, unsigned width)
{
	if (isnan(a) || isnan(b))
		return NAN;
	double d = b - a;
	if (d < 0)
		d += ldexp(1, (int)width);
	return d < 0 ? NAN : d;
}

/* Accumulate the deltas of one pair of consecutive snapshots into cd; a step that is no
 * measurement (d->bad_step, counters_steps.c) is left out of deltas and time alike. */
static void add_pair(const struct cnt_data *d, size_t s, struct cnt_cpu_delta *cd, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct cnt_cpu_delta *c = &cd[i];
		size_t r0 = cnt_row_of(d, s, c->cpu, i), r1 = cnt_row_of(d, s + 1, c->cpu, i);
		if (r0 == SIZE_MAX || r1 == SIZE_MAX) {
			c->gone = true;
			continue;
		}
		if (d->bad_step && d->bad_step[r1])
			continue;
		c->dt += d->time[r1] - d->time[r0];
		for (size_t j = 0; j < d->ncols; j++) {
			const struct cnt_colinfo *ci = &d->ci[j];
			double v = ci->kind == CNT_RAW ? ci->v[r1] : cnt_wrap_delta(ci->v[r0], ci->v[r1], ci->width);
			c->own[j] = c->nsteps == 0 || ci->kind == CNT_RAW ? v : c->own[j] + v;
		}
		c->nsteps++;
	}
}

static int cmp_core(const void *a, const void *b)
{
	const struct cnt_cpu_delta *x = *(const struct cnt_cpu_delta *const *)a;
	const struct cnt_cpu_delta *y = *(const struct cnt_cpu_delta *const *)b;
	if (x->package != y->package)
		return x->package < y->package ? -1 : 1;
	return (x->core > y->core) - (x->core < y->core);
}

/* Fill the CPUs of a group [g, e) (same package, or same core) from the one that read col. */
static void fill_group(struct cnt_cpu_delta **by, size_t g, size_t e, size_t col)
{
	double v = NAN;
	for (size_t k = g; k < e && isnan(v); k++)
		v = by[k]->own[col];
	for (size_t k = g; k < e; k++)
		if (isnan(by[k]->all[col]))
			by[k]->all[col] = v;
}

/* A system-scope counter is read on each package's designated CPU (or once, for a machine-wide
 * source); every CPU's value is the machine's: the sum over the CPUs that read it (a register,
 * kind raw, is not summed: the first value read). */
static void fill_system(const struct cnt_data *d, struct cnt_cpu_delta *cd, size_t n, size_t col)
{
	bool raw = d->ci[col].kind == CNT_RAW;
	double v = NAN;
	for (size_t i = 0; i < n; i++) {
		double x = cd[i].own[col];
		if (!isnan(x))
			v = isnan(v) ? x : raw ? v : v + x;
	}
	for (size_t i = 0; i < n; i++)
		cd[i].all[col] = v;
}

/* Values of core/package/system counters for the CPUs that did not read them: one pass per
 * column over the CPUs sorted by (package, core). */
static void propagate(const struct cnt_data *d, struct cnt_cpu_delta *cd, size_t n)
{
	struct cnt_cpu_delta **by = isc_xmalloc((n ? n : 1) * sizeof(*by));
	for (size_t i = 0; i < n; i++) {
		memcpy(cd[i].all, cd[i].own, d->ncols * sizeof(double));
		by[i] = &cd[i];
	}
	qsort(by, n, sizeof(*by), cmp_core);
	for (size_t j = 0; j < d->ncols; j++) {
		enum cnt_scope sc = d->ci[j].scope;
		if (sc == CNT_SYSTEM)
			fill_system(d, cd, n, j);
		if (sc == CNT_THREAD || sc == CNT_SYSTEM)
			continue;
		for (size_t g = 0, e; g < n; g = e) {
			e = g + 1;
			while (e < n && by[e]->package == by[g]->package &&
			       (sc == CNT_PACKAGE || by[e]->core == by[g]->core))
				e++;
			fill_group(by, g, e, j);
		}
	}
	free(by);
}

struct cnt_cpu_delta *cnt_deltas(const struct cnt_data *d, size_t s0, size_t s1, size_t *ncpus)
{
	size_t n = 0, first = d->snap_first[s0], end = d->snap_first[s0 + 1];
	struct cnt_cpu_delta *cd = isc_xcalloc(end - first, sizeof(*cd));
	for (size_t r = first; r < end; r++) {
		struct cnt_cpu_delta *c = &cd[n++];
		c->cpu = (int)d->cpu[r];
		c->core = (int)d->core[r];
		c->package = (int)d->pkg[r];
		c->own = isc_xmalloc(d->ncols * sizeof(double));
		c->all = isc_xmalloc(d->ncols * sizeof(double));
	}
	for (size_t s = s0; s < s1; s++)
		add_pair(d, s, cd, n);
	for (size_t i = 0; i < n; i++)
		if (cd[i].nsteps == 0) {  /* every step left out: nothing measured */
			cd[i].dt = NAN;
			for (size_t j = 0; j < d->ncols; j++)
				cd[i].own[j] = NAN;
		}
	size_t kept = 0;
	for (size_t i = 0; i < n; i++) {
		if (cd[i].gone) {
			free(cd[i].own);
			free(cd[i].all);
			continue;
		}
		cd[kept++] = cd[i];
	}
	propagate(d, cd, kept);
	*ncpus = kept;
	return cd;
}

void cnt_deltas_free(struct cnt_cpu_delta *cd, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(cd[i].own);
		free(cd[i].all);
	}
	free(cd);
}
