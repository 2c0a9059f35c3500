// SPDX-License-Identifier: GPL-2.0-only
/*
 * analyze stats --causes: lib/causes with one cut, P: per cause, the datapoints with it above
 * P% and at or below it, their share of the band and the mean latency above the clean
 * median that goes with that cause.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "causes/causes.h"
#include "text/util.h"
#include "stats_causes.h"

static void print_text(FILE *f, const char *metric, double pct, const struct isc_causes *cs)
{
	fprintf(f, "\n%s by cause, above its %g%% (%.3f) and at or below it; clean median %.3f "
		"(%zu datapoints with no IRQ, softirq, NMI%s in the window)\n",
		metric, pct, cs->thr[0], cs->clean_med, cs->nclean,
		cs->steal ? ", SMI or steal time" : " or SMI");
	fprintf(f, "  %-24s %8s %8s %12s   %8s %8s %12s\n", "cause", "above", "share", "excess avg",
		"below", "share", "excess avg");
	fprintf(f, "  %-24s %8zu %8s %12s   %8zu %8s %12s\n", "all", cs->band[1], "100.0%", "",
		cs->band[0], "100.0%", "");
	for (size_t i = 0; i < cs->nc; i++) {
		const struct isc_cause *c = &cs->c[i];
		fprintf(f, "  %-24s", c->name);
		for (int b = 1; b >= 0; b--) {
			double share = cs->band[b] ? 100.0 * (double)c->n[b] / (double)cs->band[b] : NAN;
			if (c->n[b] && isfinite(c->excess[b]))
				fprintf(f, " %8zu %7.1f%% %12.3f%s", c->n[b], share,
					c->excess[b] / (double)c->n[b], b ? "  " : "");
			else
				fprintf(f, " %8zu %7.1f%% %12s%s", c->n[b], share, "-", b ? "  " : "");
		}
		fputc('\n', f);
	}
}

static cJSON *num_or_null(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

static cJSON *to_json(double pct, const struct isc_causes *cs)
{
	static const char *const band_name[2] = { "at_or_below", "above" };
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "pct", pct);
	cJSON_AddItemToObject(o, "threshold", num_or_null(cs->thr[0]));
	cJSON_AddItemToObject(o, "clean_median", num_or_null(cs->clean_med));
	cJSON_AddNumberToObject(o, "clean_rows", (double)cs->nclean);
	for (int b = 1; b >= 0; b--) {
		cJSON *jb = cJSON_AddObjectToObject(o, band_name[b]);
		cJSON *jc = cJSON_AddObjectToObject(jb, "causes");
		cJSON_AddNumberToObject(jb, "rows", (double)cs->band[b]);
		for (size_t i = 0; i < cs->nc; i++) {
			const struct isc_cause *c = &cs->c[i];
			const char *name = c->name + strspn(c->name, " ");
			cJSON *e = cJSON_AddObjectToObject(jc, name);
			cJSON_AddNumberToObject(e, "rows", (double)c->n[b]);
			cJSON_AddItemToObject(e, "share", num_or_null(cs->band[b] ? (double)c->n[b] / (double)cs->band[b] : NAN));
			cJSON_AddItemToObject(e, "excess_mean", num_or_null(c->n[b] ? c->excess[b] / (double)c->n[b] : NAN));
		}
	}
	return o;
}

int stats_causes(const struct isc_table *t, const char *const *metrics, size_t nmetrics, double pct,
		 FILE *out, cJSON *json)
{
	struct isc_cause_cols cc;
	cJSON *jc = json ? cJSON_AddObjectToObject(json, "causes") : NULL;

	if (!isc_cause_cols_find(t, &cc)) {
		isc_err("%s: --causes: no cause column (IRQCnt, SWIRQCnt, NMICnt, SMICnt): collect "
			"with --method bpf, hrt or tdt, without --no-causes", t->path);
		return -1;
	}
	for (size_t i = 0; i < nmetrics; i++) {
		const struct isc_column *m = isc_table_col(t, metrics[i]);
		struct isc_causes *cs;

		if (!m || m->type != ISC_COL_NUM)
			continue;
		cs = isc_xcalloc(1, sizeof(*cs));
		isc_causes_compute(&t, 1, metrics[i], &pct, 1, cs);
		if (jc)
			cJSON_AddItemToObject(jc, metrics[i], to_json(pct, cs));
		else
			print_text(out, metrics[i], pct, cs);
		free(cs);
	}
	return 0;
}
