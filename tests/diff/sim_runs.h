/* SPDX-License-Identifier: GPL-2.0-only */
/* In-memory runs for the simulation tests: datapoint and run-effect generators, and runs
 * built as isc_load_run would leave them (numeric columns, an optional ReqCState). */
#ifndef IDLESCOPE_TESTS_SIM_RUNS_H
#define IDLESCOPE_TESTS_SIM_RUNS_H
#include <math.h>
#include <stdio.h>

#include "run/run.h"
#include "table/table.h"
#include "text/util.h"
#include "sim_rng.h"

/* Heavy-tailed datapoints: 20 + Pareto (shape 2.5, scale 5) - 5: median about 6.6 above 20,
 * finite variance, a long right tail. */
static inline double heavy_tailed(void)
{
	return 20 + 5 * (pow(uniform01(), -1 / 2.5) - 1);
}

enum run_effect { EFFECT_NORMAL, EFFECT_SKEWED, EFFECT_TWO_STATE };
static const char *const run_effect_name[] = { "normal", "skewed", "two-state" };

/* A run effect of mean 0 and sd 1: normal; exponential - 1 (skewed right); -1 or +1. */
static inline double run_effect(enum run_effect e)
{
	if (e == EFFECT_SKEWED)
		return -log(uniform01()) - 1;
	if (e == EFFECT_TWO_STATE)
		return uniform01() < 0.5 ? -1 : 1;
	return normal();
}

/* An empty run named name with nrows rows. */
static inline struct isc_run *sim_run(const char *name, size_t nrows)
{
	struct isc_run *r = isc_xcalloc(1, sizeof(*r));
	r->path = isc_xstrdup(name);
	r->dir = isc_xstrdup("/nonexistent");
	r->dp_path = isc_xstrdup(name);
	r->name = isc_xstrdup(name);
	r->toolname = "unknown";
	r->info = cJSON_CreateObject();
	r->dp = isc_table_new(name);
	r->dp->nrows = nrows;
	return r;
}

static inline double *sim_num_col(struct isc_run *r, const char *name)
{
	struct isc_column *c = isc_table_add_col(r->dp, name, ISC_COL_NUM);
	c->num = isc_xmalloc((r->dp->nrows + 1) * sizeof(double));
	return c->num;
}

static inline uint32_t *sim_text_col(struct isc_run *r, const char *name)
{
	struct isc_column *c = isc_table_add_col(r->dp, name, ISC_COL_TEXT);
	c->text = isc_xmalloc((r->dp->nrows + 1) * sizeof(uint32_t));
	return c->text;
}

/* Binomial counts of rejections: "12 / 400 = 3.0% [1.6, 5.2]" with the Wilson 95% interval. */
static inline const char *rate_text(char *buf, size_t len, size_t k, size_t n)
{
	double p = (double)k / (double)n, z = 1.959963984540054, z2 = z * z;
	double c = (p + z2 / (2.0 * (double)n)) / (1 + z2 / (double)n);
	double h = z / (1 + z2 / (double)n) * sqrt(p * (1 - p) / (double)n + z2 / (4.0 * (double)n * (double)n));
	snprintf(buf, len, "%zu / %zu = %.1f%% [%.1f, %.1f]", k, n, 100 * p, 100 * (c - h),
		 100 * (c + h));
	return buf;
}
#endif
