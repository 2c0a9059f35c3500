/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze diff --causes: each configuration's breakdown by cause (lib/causes) side by side,
 * with the change of each cause's share of a band and whether it is beyond chance. */
#ifndef ANALYZE_DIFF_CAUSES_H
#define ANALYZE_DIFF_CAUSES_H
#include <cjson/cJSON.h>
#include <stdio.h>

#include "causes/causes.h"
#include "diff/diff.h"

struct diff_causes_metric {
	const char *name;
	struct isc_causes *pooled;    /* [config] */
	struct isc_causes *per_run;   /* [run of d] */
	char **names;                 /* every configuration's causes, in breakdown order */
	size_t nnames;
	struct isc_cause_change *chg; /* [(config * 2 + band) * nnames + name]; config 0 unused */
	double *p_adj;                /* the same index: Holm over the causes of one config and band */
};

struct diff_causes {
	double pct;
	struct diff_causes_metric *m;
	size_t nm;
};

/* WakeLatency and IntrLatency, or the metrics of d when --metrics chose them (metrics_re).
 * -1 after an error naming the run without cause columns. */
int diff_causes_compute(struct diff_causes *dc, const struct isc_diff *d, double pct, bool metrics_re);
void diff_causes_text(FILE *f, const struct diff_causes *dc, const struct isc_diff *d);
cJSON *diff_causes_json(const struct diff_causes *dc, const struct isc_diff *d);
void diff_causes_free(struct diff_causes *dc);

#endif
