/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * analyze diff --causes: the test of a cause's change of share (isc_cause_change) by
 * simulation. Runs of WakeLatency with IRQs and softirqs in the window, each adding 8 us on
 * average, so the tail holds both and clean datapoints: under no difference between the
 * configurations, a cause's share of the band above p90 differs with p < 0.05 in about 5% of
 * the pairs:
 *  - one run a side, datapoints independent: the two-proportion test;
 *  - three runs a side, whose IRQ rate varies from run to run: Welch's t on the runs' shares.
 * And the tests find a real change (the IRQ rate doubled). The datapoint-level test on runs
 * that vary is shown too, to say why runs are the unit: its rate is above 5%. Above p99 (30
 * datapoints a run) Fisher's exact test takes over, which is conservative: at most 5%.
 */
#include <stdlib.h>

#include "causes/causes.h"
#include "sim_runs.h"
#include "../common/check.h"

#ifdef IDLESCOPE_SANITIZED
#define REPS 200
#else
#define REPS 1000
#endif
#define ROWS 2000

/* One run: IRQ with probability pirq (an extra exponential 8 us), a softirq with 0.05. */
static struct isc_run *make_run(double pirq)
{
	struct isc_run *r = sim_run("r", ROWS);
	double *wl = sim_num_col(r, "WakeLatency"), *irq = sim_num_col(r, "IRQCnt");
	double *sirq = sim_num_col(r, "SWIRQCnt");
	for (size_t i = 0; i < ROWS; i++) {
		irq[i] = uniform01() < pirq;
		sirq[i] = uniform01() < 0.05;
		wl[i] = 20 + 3 * normal() + (irq[i] ? -8 * log(uniform01()) : 0) +
			(sirq[i] ? -8 * log(uniform01()) : 0);
	}
	return r;
}

/* Runs per side, the IRQ rate of each side, its run-to-run sd: how often p < 0.05 for "IRQ"
 * and "softirq" above pct. */
static void rate(double pct, size_t nruns, double pa, double pb, double sd, size_t *rej,
		 size_t *tested, const char **method)
{
	static const char *const names[] = { "IRQ", "softirq" };
	*rej = *tested = 0;
	for (size_t rep = 0; rep < REPS; rep++) {
		struct isc_run *runs[2][3];
		struct isc_causes per[2][3], pooled[2];
		const struct isc_causes *pr[2][3];
		const struct isc_table *t[3];
		for (size_t s = 0; s < 2; s++) {
			for (size_t i = 0; i < nruns; i++) {
				double p = (s ? pb : pa) + sd * normal();
				runs[s][i] = make_run(p < 0 ? 0 : p);
				t[i] = runs[s][i]->dp;
				isc_causes_compute(&t[i], 1, "WakeLatency", &pct, 1, &per[s][i]);
				pr[s][i] = &per[s][i];
			}
			isc_causes_compute(t, nruns, "WakeLatency", &pct, 1, &pooled[s]);
		}
		for (size_t k = 0; k < 2; k++) {
			struct isc_cause_change ch;
			isc_cause_change(&pooled[0], pr[0], nruns, &pooled[1], pr[1], nruns, names[k], 1, &ch);
			if (!ch.method)
				continue;
			*method = ch.method;
			++*tested;
			*rej += ch.p < 0.05;
		}
		for (size_t s = 0; s < 2; s++)
			for (size_t i = 0; i < nruns; i++)
				isc_run_free(runs[s][i]);
	}
}

static double share(size_t k, size_t n)
{
	return (double)k / (double)n;
}

int main(void)
{
	char buf[96];
	size_t rej, n;
	const char *method = "";
	double lo = 0.035, hi = 0.065;   /* about 3 binomial sd around 5% at 1000 pairs x 2 causes */

	sim_seed(26);
#ifdef IDLESCOPE_SANITIZED
	lo = 0.015, hi = 0.095;
#endif
	rate(90, 1, 0.1, 0.1, 0, &rej, &n, &method);
	printf("# p90, one run a side, no difference: %s p < 0.05 (%s)\n", rate_text(buf, sizeof(buf), rej, n), method);
	CHECK_MSG(share(rej, n) > lo && share(rej, n) < hi, "%s", buf);
	CHECK_STR(method, "band-share-z");
	rate(99, 1, 0.1, 0.1, 0, &rej, &n, &method);
	printf("# p99, one run a side, no difference: %s p < 0.05 (%s)\n", rate_text(buf, sizeof(buf), rej, n), method);
	CHECK_MSG(share(rej, n) < hi, "%s", buf);
	rate(90, 3, 0.1, 0.1, 0.03, &rej, &n, &method);
	printf("# p90, three runs a side, IRQ rate sd 0.03 between runs, no difference: %s p < 0.05 (%s)\n",
	       rate_text(buf, sizeof(buf), rej, n), method);
	CHECK_MSG(share(rej, n) > lo && share(rej, n) < hi, "%s", buf);
	CHECK_STR(method, "welch-t-run-shares");
	rate(90, 1, 0.1, 0.1, 0.03, &rej, &n, &method);
	printf("# p90, one run a side, IRQ rate sd 0.03 between runs, no difference: %s p < 0.05 "
	       "(datapoint level where runs vary: why runs are the unit)\n", rate_text(buf, sizeof(buf), rej, n));
	CHECK_MSG(share(rej, n) > hi, "%s: the datapoint test should be misled by run-to-run variation", buf);

	rate(90, 1, 0.1, 0.15, 0, &rej, &n, &method);
	printf("# p90, one run a side, IRQ rate 0.1 -> 0.15: %s p < 0.05 (IRQ and softirq)\n", rate_text(buf, sizeof(buf), rej, n));
	CHECK_MSG(share(rej, n) > 0.3, "%s: the change is not found", buf);
	rate(90, 3, 0.1, 0.2, 0.02, &rej, &n, &method);
	printf("# p90, three runs a side, IRQ rate 0.1 -> 0.2: %s p < 0.05 (IRQ and softirq)\n", rate_text(buf, sizeof(buf), rej, n));
	CHECK_MSG(share(rej, n) > 0.3, "%s: the change is not found", buf);
	return CHECK_DONE();
}
