/* SPDX-License-Identifier: GPL-2.0-only */
/* Biased runs and differing discard shares: the kept datapoints of configurations that
 * discarded different shares of their attempts are different selections of them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "diff/diff_design.h"
#include "run/discards.h"
#include "text/util.h"

static void add(char ***v, size_t *n, char *msg)
{
	*v = isc_xrealloc(*v, (*n + 1) * sizeof(char *));
	(*v)[(*n)++] = msg;
}

/* The configuration's discard share over its runs' attempts together, and each run's share
 * ("80.1, 95.2") in runs; NaN when a run does not record its discards. */
static double config_share(const struct isc_diff *d, size_t c, char *runs, size_t len)
{
	double kept = 0, discarded = 0;
	size_t at = 0;
	runs[0] = '\0';
	for (size_t i = 0; i < d->configs[c].nruns; i++) {
		struct isc_discards x;
		isc_info_discards(d->runs[d->configs[c].runs[i]]->info, &x);
		double share = isc_discard_share(&x);
		if (isnan(share))
			return NAN;
		kept += x.kept;
		discarded += x.discarded;
		if (at < len)
			at += (size_t)snprintf(runs + at, len - at, "%s%.1f%%", at ? ", " : "",
					       100 * share);
	}
	return discarded / (kept + discarded);
}

/* The configuration's mean share of the run the measured CPU was busy besides the measuring
 * thread (info.json cpu_busy.other_pct, collect since issue 24), each run's in runs; NaN when
 * a run does not record it. */
static double config_busy(const struct isc_diff *d, size_t c, char *runs, size_t len)
{
	double sum = 0;
	size_t at = 0;
	runs[0] = '\0';
	for (size_t i = 0; i < d->configs[c].nruns; i++) {
		const cJSON *v = isc_run_info_item(d->runs[d->configs[c].runs[i]], "cpu_busy.other_pct");
		if (!cJSON_IsNumber(v))
			return NAN;
		sum += v->valuedouble;
		if (at < len)
			at += (size_t)snprintf(runs + at, len - at, "%s%.1f%%", at ? ", " : "",
					       v->valuedouble);
	}
	return sum / (double)d->configs[c].nruns;
}

static void busy_warnings(const struct isc_diff *d, char ***v, size_t *n)
{
	char rr[256], rc[256];
	double ref = config_busy(d, 0, rr, sizeof(rr));
	for (size_t c = 1; c < d->nconfigs && !isnan(ref); c++) {
		double busy = config_busy(d, c, rc, sizeof(rc));
		if (isnan(busy) || !(fabs(busy - ref) > ISC_CONFOUND_BUSY_POINTS))
			continue;
		add(v, n, isc_xasprintf("measured CPU busy besides the measurement: %.1f%% in %s (%s), "
				       "%.1f%% in %s (%s)", ref, d->configs[0].name, rr, busy,
				       d->configs[c].name, rc));
	}
}

void isc_diff_discard_warnings(const struct isc_diff *d, char ***v, size_t *n)
{
	for (size_t r = 0; r < d->nruns; r++) {
		char *why = isc_info_biased(d->runs[r]->info);
		if (why)
			add(v, n, isc_xasprintf("biased run: %s: %s", d->runs[r]->name, why));
		free(why);
	}
	char rr[256], rc[256];
	double ref = config_share(d, 0, rr, sizeof(rr));
	for (size_t c = 1; c < d->nconfigs && !isnan(ref); c++) {
		double share = config_share(d, c, rc, sizeof(rc));
		if (isnan(share) || !(fabs(share - ref) > ISC_CONFOUND_DISCARD_POINTS))
			continue;
		add(v, n, isc_xasprintf("discarded attempts: %.1f%% in %s (%s), %.1f%% in %s (%s): "
				       "the kept datapoints are different selections of the attempts",
				       100 * ref, d->configs[0].name, rr, 100 * share,
				       d->configs[c].name, rc));
	}
	busy_warnings(d, v, n);
}
