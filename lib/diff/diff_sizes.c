/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Run sizes as a confounder of the tails: a sample's 99th or 99.9th percentile is biased, and
 * skewed, by amounts that depend on its size (in a heavy tail, more than the run-to-run
 * spread), so configurations whose runs differ in size compare unlike estimates. Runs of mixed sizes
 * within each configuration cancel out; a configuration of short runs against one of long
 * runs does not (docs/diff.md, "Run sizes").
 */
#include <stdlib.h>

#include "diff/diff.h"
#include "text/util.h"

static double mean_rows(const struct isc_diff *d, size_t c)
{
	double s = 0;
	for (size_t i = 0; i < d->configs[c].nruns; i++)
		s += (double)d->overall.run_rows[d->configs[c].runs[i]];
	return s / (double)d->configs[c].nruns;
}

bool isc_diff_sizes_differ(const struct isc_diff *d, size_t c)
{
	double ref = mean_rows(d, 0), x = mean_rows(d, c);
	return d->configs[0].nruns >= 2 && d->configs[c].nruns >= 2 &&
	       (x > ISC_DIFF_SIZE_RATIO * ref || ref > ISC_DIFF_SIZE_RATIO * x);
}

void isc_diff_size_warning(const struct isc_diff *d, char ***out, size_t *n)
{
	double ref = mean_rows(d, 0);
	for (size_t c = 1; c < d->nconfigs; c++) {
		double x = mean_rows(d, c);
		if (!isc_diff_sizes_differ(d, c))
			continue;
		*out = isc_xrealloc(*out, (*n + 1) * sizeof(char *));
		(*out)[(*n)++] = isc_xasprintf("run sizes differ: %s %.0f datapoints a run on average, "
					      "%s %.0f: the tails' (99%%, 99.9%%) run-level verdicts "
					      "compare percentiles of runs of different sizes, whose "
					      "bias and skew differ, so they give no answer; --even-up "
					      "compares like with like",
					      d->configs[0].name, ref, d->configs[c].name, x);
	}
}
