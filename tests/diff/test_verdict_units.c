/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The verdict's pieces against numbers worked out independently (plain arithmetic for the
 * meta-analysis, mpmath's incomplete beta for the t distribution, R's p.adjust definition for
 * Holm), and its refusals end to end:
 *  - Holm's adjustment; the random-effects mean (DerSimonian-Laird tau2, Hartung-Knapp
 *    variance); with equal within-run variances exactly Welch's t;
 *  - TOST p, the minimum detectable effect, the runs needed (the smallest n that is enough);
 *  - the order-statistic standard error of a quantile;
 *  - runs that tie exactly: "no test", never p = 0, not in the family;
 *  - --margin and --primary parsing; a drift over the run order, CPU identity and run sizes
 *    that differ between configurations named as confounders.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/check.h"
#include "diff/diff.h"
#include "stats/runtest.h"
#include "sim_runs.h"

static void holm(void)
{
	/* p.adjust(c(.01, .04, .03, .005), "holm") = .03 .06 .06 .02 */
	const double p[] = { 0.01, 0.04, 0.03, 0.005, NAN };
	double adj[5];
	isc_holm_adjust(p, 5, adj);
	CHECK_NEAR(adj[0], 0.03, 1e-15);
	CHECK_NEAR(adj[1], 0.06, 1e-15);
	CHECK_NEAR(adj[2], 0.06, 1e-15);
	CHECK_NEAR(adj[3], 0.02, 1e-15);
	CHECK(isnan(adj[4]));
}

static void meta(void)
{
	/* by hand: fixed-effect mean 2, Q = 6, c = 4, tau2 = (6 - 2) / 4 = 1; weights 1/1.5,
	 * 1/1.25, 1/2: mean 2.169491525423729, HK variance 0.663602413099684 */
	const double y[] = { 1, 2, 4 }, v[] = { 0.5, 0.25, 1 };
	struct isc_re_mean m;
	isc_re_mean(y, v, 3, &m);
	CHECK(m.weighted);
	CHECK_NEAR(m.tau2, 1, 1e-14);
	CHECK_NEAR(m.mean, 2.169491525423729, 1e-14);
	CHECK_NEAR(m.var, 0.663602413099684, 1e-13);
	/* equal within-run variances and the same spread on both sides: Welch's t exactly */
	const double a1[] = { 1, 2, 3 }, b1[] = { 5, 6.5, 8 }, b2[] = { 5, 6, 7 };
	const double v3[] = { 0.3, 0.3, 0.3 };
	struct isc_re_mean ma, mb;
	struct isc_verdict x;
	struct isc_welch w;
	isc_re_mean(a1, v3, 3, &ma);
	isc_re_mean(b2, v3, 3, &mb);
	isc_verdict_compare(&ma, &mb, 0.95, &x);
	CHECK(isc_welch_test(a1, 3, b2, 3, 0.95, &w) == 0);
	CHECK(x.tested);
	CHECK_NEAR(x.diff, w.diff, 1e-12);
	CHECK_NEAR(x.df, w.df, 1e-12);
	CHECK_NEAR(x.p, w.p, 1e-12);
	CHECK_NEAR(x.lo, w.lo, 1e-12);
	CHECK_NEAR(x.hi, w.hi, 1e-12);
	/* one side spread wider: the other side's variance is floored at it (1.5^2 / 3), never
	 * below Welch's */
	isc_re_mean(b1, v3, 3, &mb);
	isc_verdict_compare(&ma, &mb, 0.95, &x);
	CHECK(isc_welch_test(a1, 3, b1, 3, 0.95, &w) == 0);
	CHECK_NEAR(x.se, sqrt(2 * 2.25 / 3), 1e-12);
	CHECK_NEAR(x.df, 4, 1e-12);
	CHECK(x.se > w.se && x.p > w.p);
	/* the textbook case of test_runlevel (Welch: df 3.117, p 0.0244): s^2 0.63 and 0.2358 on
	 * 3 and 4 runs; the 4-run side's 0.2358 / 4 floored at 0.63 / 4: se^2 = 0.21 + 0.1575,
	 * df = 0.3675^2 / (0.21^2 / 2 + 0.1575^2 / 3); p and CI from mpmath */
	const double a[] = { 20.1, 21.3, 19.8 }, b[] = { 22.4, 23.0, 21.9, 22.8 };
	const double va[] = { 0.3, 0.3, 0.3 }, vb[] = { 0.3, 0.3, 0.3, 0.3 };
	isc_re_mean(a, va, 3, &ma);
	isc_re_mean(b, vb, 4, &mb);
	isc_verdict_compare(&ma, &mb, 0.95, &x);
	CHECK_NEAR(x.diff, 2.125, 1e-12);
	CHECK_NEAR(x.df, 4.4545454545454545, 1e-12);
	CHECK_NEAR(x.p, 0.0207765526018067, 1e-9);
	CHECK_NEAR(x.lo, 0.50748729871892, 1e-9);
	CHECK_NEAR(x.hi, 3.74251270128108, 1e-9);
	/* no spread on either side: refused, p undefined (Welch alone would say p = 0) */
	const double same[] = { 5, 5 }, other[] = { 6, 6 };
	isc_re_mean(same, NULL, 2, &ma);
	isc_re_mean(other, NULL, 2, &mb);
	isc_verdict_compare(&ma, &mb, 0.95, &x);
	CHECK(!x.tested && x.answer == ISC_ANSWER_REFUSED && isnan(x.p) && x.refusal);
	struct isc_verdict *fam[] = { &x };
	isc_verdict_settle(fam, 1, 0.05);
	CHECK(!x.significant && x.family == 0 && x.answer == ISC_ANSWER_REFUSED);
}

static void design(void)
{
	/* mpmath: P(T_10 > 1.6) = 0.0703408786281587; t_.975,10 + t_.8,10 = 3.10719668053686 */
	CHECK_NEAR(isc_tost_p(0.2, 0.5, 10, 1), 0.0703408786281587, 1e-9);
	CHECK_NEAR(isc_tost_p(-0.2, 0.5, 10, 1), 0.0703408786281587, 1e-9);
	CHECK(isnan(isc_tost_p(0.2, 0.5, 10, NAN)));
	CHECK_NEAR(isc_mde(1, 10, 0.05, 0.8), 3.10719668053686, 1e-9);
	long n = isc_runs_needed(1, 1, 1, 0.05, 0.8);
	CHECK(n > 2);
	CHECK(isc_mde(sqrt(2.0 / (double)n), 2.0 * (double)(n - 1), 0.05, 0.8) <= 1);
	CHECK(isc_mde(sqrt(2.0 / (double)(n - 1)), 2.0 * (double)(n - 2), 0.05, 0.8) > 1);
	CHECK(n == 17);   /* the normal approximation gives 2 (1.96 + 0.84)^2 = 15.7 */
	CHECK(isc_runs_needed(1, 1, 0.01, 0.05, 0.8) == 0);   /* more than the maximum */
	CHECK(isc_runs_needed(0, 0, 1, 0.05, 0.8) == -1);
	/* 0..99: positions floor(50 - 9.8) = 40 and ceil(59.8) = 60: (60 - 40) / (2 x 1.96) */
	double x[100];
	for (int i = 0; i < 100; i++)
		x[i] = i;
	CHECK_NEAR(isc_quantile_se_sorted(x, 100, 0.5), 20 / (2 * 1.959963984540054), 1e-12);
	CHECK(isnan(isc_quantile_se_sorted(x, 1, 0.5)));
}

/* 2 vs 2 runs whose values repeat 0..9 (every run's median 4.5) plus an offset. */
static void tied_runs(void)
{
	struct isc_run *runs[4];
	size_t ia[] = { 0, 1 }, ib[] = { 2, 3 };
	struct isc_func med = { .kind = ISC_F_MED, .name = "med" };
	for (size_t i = 0; i < 4; i++) {
		char name[32];
		snprintf(name, sizeof(name), "t%zu", i);
		runs[i] = sim_run(name, 1000);
		double *v = sim_num_col(runs[i], "WakeLatency");
		for (size_t r = 0; r < 1000; r++)
			v[r] = (double)(r % 10) + (i >= 2);
	}
	struct isc_diff_config cf[] = { { "a", ia, 2 }, { "b", ib, 2 } };
	struct isc_diff_opts o = { .funcs = &med, .nfuncs = 1, .nthreads = 1, .configs = cf,
				  .nconfigs = 2 };
	struct isc_diff d;
	char line[1024];
	CHECK(isc_diff_compute(&d, runs, 4, &o) == 0);
	const struct isc_diff_test *t = isc_diff_get_test(&d, &d.overall, 0, 1);
	CHECK(t && t->q[0].valid && !t->q[0].v.tested && isnan(t->q[0].p) && !t->significant);
	isc_diff_verdict(&d, &d.overall, 0, 1, line, sizeof(line));
	CHECK_STR(line, "WakeLatency: median +1.00 us (+22.2%) vs a (2 vs 2 runs): no test: the runs of "
		  "each configuration have the same value here: no run-to-run spread to test "
		  "against");
	CHECK(d.nfamily == 0);
	/* run order: the same runs with a drift of 0.5 per run over taken order 0, 2, 1, 3 */
	const long order[] = { 0, 2, 1, 3 };
	char **warn = NULL;
	size_t nwarn = 0;
	isc_diff_drift(&d, order, &warn, &nwarn);
	CHECK(nwarn == 0);   /* no spread within the configurations: nothing to see */
	isc_diff_free(&d);
	for (size_t i = 0; i < 4; i++) {
		double *v = isc_table_col(runs[i]->dp, "WakeLatency")->num;
		for (size_t r = 0; r < 1000; r++)
			v[r] += 0.5 * (double)order[i] + 0.01 * (double)(i == 3);
	}
	struct isc_run *six[6];
	memcpy(six, runs, sizeof(runs));
	six[4] = sim_run("t4", 1000);
	six[5] = sim_run("t5", 1000);
	double *v4 = sim_num_col(six[4], "WakeLatency"), *v5 = sim_num_col(six[5], "WakeLatency");
	for (size_t r = 0; r < 1000; r++) {
		v4[r] = (double)(r % 10) + 0.5 * 4;
		v5[r] = (double)(r % 10) + 1 + 0.5 * 5 - 0.02;
	}
	size_t ia3[] = { 0, 1, 4 }, ib3[] = { 2, 3, 5 };
	struct isc_diff_config cf3[] = { { "a", ia3, 3 }, { "b", ib3, 3 } };
	const long order6[] = { 0, 2, 1, 3, 4, 5 };
	o.configs = cf3;
	CHECK(isc_diff_compute(&d, six, 6, &o) == 0);
	isc_diff_drift(&d, order6, &warn, &nwarn);
	CHECK(nwarn == 1);
	CHECK(nwarn == 1 && !strncmp(warn[0], "run order: WakeLatency median drifts by +0.498 us "
				     "per run over the order the runs were taken in", 94));
	for (size_t i = 0; i < nwarn; i++)
		free(warn[i]);
	free(warn);
	isc_diff_free(&d);
	for (size_t i = 0; i < 6; i++)
		isc_run_free(six[i]);
}

/* CPU identity and architecture are confounders (one model name for several generations). */
static void cpu_confounders(void)
{
	struct isc_run *runs[4];
	size_t ia[] = { 0, 1 }, ib[] = { 2, 3 };
	struct isc_func med = { .kind = ISC_F_MED, .name = "med" };
	char dir[] = "/tmp/idlescope-cpu-XXXXXX";   /* an empty run directory: no counters */
	CHECK(mkdtemp(dir) != NULL);
	for (size_t i = 0; i < 4; i++) {
		char name[32], info[256];
		snprintf(name, sizeof(name), "c%zu", i);
		runs[i] = sim_run(name, 100);
		free(runs[i]->dir);
		runs[i]->dir = isc_xstrdup(dir);
		double *v = sim_num_col(runs[i], "WakeLatency");
		for (size_t r = 0; r < 100; r++)
			v[r] = (double)r;
		snprintf(info, sizeof(info), "{\"system\": {\"kernel\": {\"machine\": \"%s\"}, \"cpu\": "
			 "{\"vendor\": \"GenuineIntel\", \"family\": 6, \"model\": %d, \"stepping\": %d, "
			 "\"model_name\": \"Virtual CPU\"}}}", i == 3 ? "aarch64" : "x86_64",
			 i < 2 ? 85 : 106, i == 1 ? 7 : 4);
		cJSON_Delete(runs[i]->info);
		runs[i]->info = cJSON_Parse(info);
	}
	struct isc_diff_config cf[] = { { "a", ia, 2 }, { "b", ib, 2 } };
	struct isc_diff_opts o = { .funcs = &med, .nfuncs = 1, .nthreads = 1, .configs = cf,
				  .nconfigs = 2 };
	struct isc_diff d;
	char **w = NULL;
	CHECK(isc_diff_compute(&d, runs, 4, &o) == 0);
	size_t n = isc_diff_confounders(&d, NULL, 0, &w);
	CHECK(n == 3);
	CHECK_STR(n > 0 ? w[0] : NULL, "system.cpu.model differs: a: 85; b: 106");
	CHECK_STR(n > 1 ? w[1] : NULL, "system.cpu.stepping differs: a: 4 | 7; b: 4");
	CHECK_STR(n > 2 ? w[2] : NULL, "system.kernel.machine differs: a: x86_64; b: x86_64 | aarch64");
	for (size_t i = 0; i < n; i++)
		free(w[i]);
	free(w);
	isc_diff_free(&d);
	for (size_t i = 0; i < 4; i++)
		isc_run_free(runs[i]);
	CHECK(rmdir(dir) == 0);
}

/* Runs of 1000 and 3000 rows, 3 vs 3, b 50 higher: mixed within each configuration no
 * warning and every answer; a configuration of short runs against one of long runs a warning,
 * and its tails give no answer while its median does. */
static void run_sizes(void)
{
	static const size_t mixed[] = { 1000, 3000, 1000, 3000, 1000, 3000 };
	static const size_t split[] = { 1000, 1000, 1000, 3000, 3000, 3000 };
	const size_t *sizes[] = { mixed, split };
	for (size_t k = 0; k < 2; k++) {
		struct isc_run *runs[6];
		size_t ia[] = { 0, 1, 2 }, ib[] = { 3, 4, 5 };
		struct isc_func med = { .kind = ISC_F_MED, .name = "med" };
		for (size_t i = 0; i < 6; i++) {
			char name[32];
			snprintf(name, sizeof(name), "s%zu", i);
			runs[i] = sim_run(name, sizes[k][i]);
			double *v = sim_num_col(runs[i], "WakeLatency");
			for (size_t r = 0; r < sizes[k][i]; r++)
				v[r] = (double)(r % 37) + 0.1 * (double)i + (i >= 3 ? 50 : 0);
		}
		struct isc_diff_config cf[] = { { "a", ia, 3 }, { "b", ib, 3 } };
		struct isc_diff_opts o = { .funcs = &med, .nfuncs = 1, .nthreads = 1, .configs = cf,
					  .nconfigs = 2 };
		struct isc_diff d;
		char **w = NULL;
		size_t n = 0;
		CHECK(isc_diff_compute(&d, runs, 6, &o) == 0);
		isc_diff_size_warning(&d, &w, &n);
		CHECK(n == k);
		if (k == 1 && n == 1)
			CHECK_STR(w[0], "run sizes differ: a 1000 datapoints a run on average, b 3000: "
				  "the tails' (99%, 99.9%) run-level verdicts compare percentiles of "
				  "runs of different sizes, whose bias and skew differ, so they give no "
				  "answer; --even-up compares like with like");
		const struct isc_diff_test *t = isc_diff_get_test(&d, &d.overall, 0, 1);
		CHECK(t && t->q[0].v.answer == ISC_ANSWER_CHANGED);
		CHECK(t && t->q[1].valid && t->q[1].p < 1e-4);
		CHECK(t && t->q[1].v.answer == (k ? ISC_ANSWER_INCONCLUSIVE : ISC_ANSWER_CHANGED));
		CHECK(t && (t->q[1].v.no_answer != NULL) == (k == 1));
		for (size_t i = 0; i < n; i++)
			free(w[i]);
		free(w);
		isc_diff_free(&d);
		for (size_t i = 0; i < 6; i++)
			isc_run_free(runs[i]);
	}
}

/* The answers in words, from a verdict built by hand. */
static void words(void)
{
	struct isc_verdict v = { .tested = true, .in_family = true, .p = 0.3, .p_adj = 0.9,
				.mde = 1.5, .margin = NAN, .runs_needed = -1, .k_ref = 2, .k = 2,
				.family = 3, .answer = ISC_ANSWER_INCONCLUSIVE };
	char buf[512];
	isc_verdict_words(&v, "us", "run medians", buf, sizeof(buf));
	CHECK_STR(buf, "inconclusive: 2 vs 2 runs cannot show the shape of the run-to-run variation "
		  "(a verdict needs 3 or more a side); if run effects are normal this design detects "
		  "changes larger than 1.5 us (random-effects t on run medians, p = 0.3)");
	v.k_ref = v.k = 3;
	v.margin = 0.5;
	v.runs_needed = 0;
	isc_verdict_words(&v, "us", "run medians", buf, sizeof(buf));
	CHECK_STR(buf, "inconclusive: this design detects only changes larger than 1.5 us (80% power "
		  "at the family's level); more than 1000 runs per configuration would be needed to "
		  "detect 0.5 us (the margin) (random-effects t on run medians, p = 0.3, Holm-adjusted "
		  "p = 0.9)");
	v.answer = ISC_ANSWER_CHANGED;
	v.p_adj = 0.01;
	isc_verdict_words(&v, "%", "run medians", buf, sizeof(buf));
	CHECK_STR(buf, "changed: significant (Holm-adjusted p = 0.01 in a family of 3; random-effects "
		  "t on run medians, p = 0.3)");
}

static void options(void)
{
	struct isc_diff_margin m;
	struct isc_diff_primary p;
	CHECK(isc_diff_parse_margin("5%", &m) == 0 && m.kind == ISC_MARGIN_RELATIVE);
	CHECK_NEAR(m.value, 0.05, 1e-15);
	CHECK(isc_diff_parse_margin("2us", &m) == 0 && m.kind == ISC_MARGIN_TIME_NS && m.value == 2000);
	CHECK(isc_diff_parse_margin("1.5", &m) == 0 && m.kind == ISC_MARGIN_BARE && m.value == 1.5);
	CHECK(isc_diff_parse_margin("0", &m) < 0);
	CHECK(isc_diff_parse_margin("2 parsecs", &m) < 0);
	CHECK(isc_diff_parse_margin("nan", &m) < 0);
	CHECK(isc_diff_parse_primary("WakeLatency:99.9%:C6", &p) == 0 && p.q == 2);
	CHECK_STR(p.metric, "WakeLatency");
	CHECK_STR(p.group, "C6");
	free(p.metric);
	free(p.group);
	CHECK(isc_diff_parse_primary("WakeLatency:avg", &p) < 0);
	CHECK(isc_diff_parse_primary(":med", &p) < 0);
}

int main(void)
{
	holm();
	meta();
	design();
	tied_runs();
	cpu_confounders();
	run_sizes();
	words();
	options();
	return CHECK_DONE();
}
