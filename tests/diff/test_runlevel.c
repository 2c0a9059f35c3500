/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Run-level inference by simulation (fixed seeds): experiments of replicate runs whose run
 * means carry a random run effect, compared through isc_diff_compute as analyze diff does.
 *  - A/A, 3 vs 3 runs, run effect sd = within-run sd: "significant" in at most 7%; today's
 *    datapoint-level rule (Mann-Whitney p < 0.05 and the Price-Bonett CI excluding 0 on the
 *    pooled datapoints) in nearly all;
 *  - an effect of 3 run-effect sds, 5 vs 5 runs: found in at least 80%;
 *  - one run each with drift inside the runs (AR(1) noise): the block bootstrap calls far
 *    fewer A/A pairs "different" than an interval that treats datapoints as independent.
 * The rates are printed (docs/diff.md quotes them).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diff/diff.h"
#include "stats/runtest.h"
#include "stats/sigtest.h"
#include "text/util.h"
#include "../common/check.h"
#include "sim_rng.h"

#define ROWS 1000          /* datapoints per run (enough for a run-level 99%) */
#define EXPERIMENTS 400

/* A run in memory: WakeLatency = 100 + offset + noise; phi > 0 makes the noise AR(1) with
 * unit marginal sd (drift inside the run). */
static struct isc_run *mem_run(const char *name, double offset, double phi)
{
	struct isc_run *r = isc_xcalloc(1, sizeof(*r));
	r->path = isc_xstrdup(name);
	r->dir = isc_xstrdup("/nonexistent");
	r->dp_path = isc_xstrdup(name);
	r->name = isc_xstrdup(name);
	r->toolname = "unknown";
	r->info = cJSON_CreateObject();
	r->dp = isc_table_new(name);
	struct isc_column *c = isc_table_add_col(r->dp, "WakeLatency", ISC_COL_NUM);
	c->num = isc_xmalloc(ROWS * sizeof(double));
	double e = normal(), s = sqrt(1 - phi * phi);
	for (size_t i = 0; i < ROWS; i++) {
		e = i ? phi * e + s * normal() : e;
		c->num[i] = 100 + offset + (phi > 0 ? e : normal());
	}
	r->dp->nrows = ROWS;
	return r;
}

struct outcome {
	bool significant, differs, p99_significant, old_rule;
};

/* na runs of configuration a (effect 0) against nb of b (effect `effect`), each run with a
 * random run effect of sd 1 (sd_run) around its configuration's mean. */
static struct outcome experiment(size_t na, size_t nb, double sd_run, double effect, double phi)
{
	struct isc_run *runs[20];
	size_t ia[10], ib[10];
	struct isc_func med = { .kind = ISC_F_MED, .name = "med" };
	for (size_t i = 0; i < na + nb; i++) {
		char name[32];
		snprintf(name, sizeof(name), "%c%zu", i < na ? 'a' : 'b', i);
		runs[i] = mem_run(name, (i < na ? 0 : effect) + sd_run * normal(), phi);
		if (i < na)
			ia[i] = i;
		else
			ib[i - na] = i;
	}
	struct isc_diff_config cf[2] = { { "a", ia, na }, { "b", ib, nb } };
	struct isc_diff_opts o = { .funcs = &med, .nfuncs = 1, .nthreads = 1, .configs = cf,
				  .nconfigs = 2 };
	struct isc_diff d;
	struct outcome out = { 0 };
	if (isc_diff_compute(&d, runs, na + nb, &o) == 0) {
		const struct isc_diff_test *t = isc_diff_get_test(&d, &d.overall, 0, 1);
		out.significant = t && t->significant;
		out.differs = t && t->differs;
		out.p99_significant = t && t->q[1].valid && t->q[1].significant;
		/* today's rule on the pooled datapoints, as if they were independent */
		size_t n = na * ROWS, m = nb * ROWS;
		double *a = isc_xmalloc((n + m) * sizeof(double)), *b = a + n, *tmp = isc_xmalloc((n + m) * sizeof(double));
		for (size_t i = 0; i < na + nb; i++)
			memcpy((i < na ? a + i * ROWS : b + (i - na) * ROWS), isc_table_col(runs[i]->dp,
			       "WakeLatency")->num, ROWS * sizeof(double));
		isc_sort_doubles(a, n, tmp);
		isc_sort_doubles(b, m, tmp);
		struct isc_mw mw;
		double lo, hi;
		isc_mann_whitney(a, n, b, m, &mw);
		isc_median_diff_ci(a, n, b, m, 0.95, &lo, &hi);
		out.old_rule = mw.p < 0.05 && (lo > 0 || hi < 0);
		free(a);
		free(tmp);
		isc_diff_free(&d);
	} else {
		CHECK(!"isc_diff_compute failed");
	}
	for (size_t i = 0; i < na + nb; i++)
		isc_run_free(runs[i]);
	return out;
}

static void aa_three_vs_three(void)
{
	size_t sig = 0, old = 0, p99 = 0;
	for (int e = 0; e < EXPERIMENTS; e++) {
		struct outcome o = experiment(3, 3, 1, 0, 0);
		sig += o.significant;
		old += o.old_rule;
		p99 += o.p99_significant;
	}
	printf("A/A 3 vs 3 runs, run effect sd = within sd, %d experiments of %d datapoints/run:\n"
	       "  significant (run medians, Holm in the family of med and 99%%): %zu = %.1f%%\n"
	       "  significant at 99%% (run 99th percentiles, the same family): %zu = %.1f%%\n"
	       "  datapoint-level rule (MW p < 0.05 and Price-Bonett CI excludes 0): %zu = %.1f%%\n",
	       EXPERIMENTS, ROWS, sig, 100.0 * sig / EXPERIMENTS, p99, 100.0 * p99 / EXPERIMENTS, old,
	       100.0 * old / EXPERIMENTS);
	CHECK(sig <= 0.07 * EXPERIMENTS);
	CHECK(p99 <= 0.07 * EXPERIMENTS);
	CHECK(old >= 0.8 * EXPERIMENTS);
}

static void power_five_vs_five(void)
{
	size_t sig = 0;
	for (int e = 0; e < EXPERIMENTS; e++)
		sig += experiment(5, 5, 1, 3, 0).significant;
	printf("effect 3 x run sd, 5 vs 5 runs: significant in %zu = %.1f%%\n", sig,
	       100.0 * sig / EXPERIMENTS);
	CHECK(sig >= 0.8 * EXPERIMENTS);
	size_t sig3 = 0;
	for (int e = 0; e < EXPERIMENTS; e++)
		sig3 += experiment(3, 3, 1, 3, 0).significant;
	printf("effect 3 x run sd, 3 vs 3 runs: significant in %zu = %.1f%%\n", sig3,
	       100.0 * sig3 / EXPERIMENTS);
}

/* One run each, AR(1) drift inside the runs: how often A/A pairs "differ". */
static size_t single_runs_with_drift(double phi, size_t *iid)
{
	size_t boot = 0, any_sig = 0;
	const int n = 200;
	*iid = 0;
	for (int e = 0; e < n; e++) {
		struct outcome o = experiment(1, 1, 0, 0, phi);
		boot += o.differs;
		*iid += o.old_rule;
		any_sig += o.significant;
	}
	printf("A/A 1 vs 1 run, AR(1) noise phi = %g inside the runs, %d pairs:\n"
	       "  differs (MW and block-bootstrap CI): %zu = %.1f%%\n"
	       "  datapoint-level rule with the iid Price-Bonett CI: %zu = %.1f%%\n", phi, n, boot,
	       100.0 * (double)boot / n, *iid, 100.0 * (double)*iid / n);
	CHECK(any_sig == 0);                 /* one run: never "significant" */
	CHECK(boot * 2 < *iid);              /* the drift widens the block bootstrap's CI */
	return boot;
}

/* Welch against a textbook case, and the block bootstrap's determinism. */
static void units(void)
{
	/* Welch by hand (means, variances, Welch-Satterthwaite df in exact arithmetic; the t tail
	 * and quantile by numerical integration of the t density, not GSL): t = 4.0974761270725,
	 * df = 3.1168743006573, p = 0.0244294635228, CI of b - a [0.50901005579, 3.74098994421] */
	const double a[] = { 20.1, 21.3, 19.8 }, b[] = { 22.4, 23.0, 21.9, 22.8 };
	struct isc_welch w;
	CHECK(isc_welch_test(a, 3, b, 4, 0.95, &w) == 0);
	CHECK_NEAR(w.diff, 22.525 - 20.4, 1e-12);
	CHECK_NEAR(w.t, 4.0974761270725, 1e-12);
	CHECK_NEAR(w.df, 3.1168743006573, 1e-12);
	CHECK_NEAR(w.p, 0.0244294635228, 1e-9);
	CHECK_NEAR(w.lo, 0.50901005579, 1e-9);
	CHECK_NEAR(w.hi, 3.74098994421, 1e-9);
	CHECK(isc_welch_test(a, 1, b, 4, 0.95, &w) < 0 && isnan(w.p));
	const double same[] = { 5, 5, 5 }, other[] = { 6, 6 };
	CHECK(isc_welch_test(same, 3, same, 3, 0.95, &w) == 0 && w.p == 1 && w.lo == 0);
	CHECK(isc_welch_test(same, 3, other, 2, 0.95, &w) == 0 && w.p == 0 && w.lo == 1);

	double x[500], y[500], xs[500], ys[500], tmp[500], lo1, hi1, lo2, hi2;
	for (int i = 0; i < 500; i++)
		x[i] = xs[i] = i % 25, y[i] = ys[i] = i % 25 + 10;
	isc_sort_doubles(xs, 500, tmp);
	isc_sort_doubles(ys, 500, tmp);
	CHECK(isc_block_boot_median_ci(x, xs, 500, y, ys, 500, 0.95, tmp, &lo1, &hi1) == 0);
	CHECK(isc_block_boot_median_ci(x, xs, 500, y, ys, 500, 0.95, tmp, &lo2, &hi2) == 0);
	CHECK(lo1 == lo2 && hi1 == hi2);
	/* every block (25 values) alike: every replicate's medians are 12 and 22 */
	CHECK(lo1 == 10 && hi1 == 10);
	CHECK(isc_block_boot_median_ci(x, xs, 1, y, ys, 500, 0.95, tmp, &lo1, &hi1) < 0 && isnan(lo1));
}

int main(void)
{
	sim_seed(88172645463325252ULL);
	units();
	aa_three_vs_three();
	power_five_vs_five();
	size_t iid, boot = single_runs_with_drift(0.9, &iid);
	CHECK(boot <= 0.15 * 200);
	single_runs_with_drift(0.99, &iid);
	return CHECK_DONE();
}
