// SPDX-License-Identifier: GPL-2.0-only
/*
 * analyze stats --causes: lib/causes with one cut, P: per cause, the datapoints with it above
 * P% and at or below it, their share of the band and the mean latency above the clean
 * median that goes with that cause.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "causes/causes.h"
#include "text/util.h"
#include "causes_states.h"
#include "stats_causes.h"

static void print_row(FILE *f, const char *name, const size_t *n, const double *excess,
		      const struct isc_causes *cs)
{
	fprintf(f, "  %-24s", name);
	for (int b = 1; b >= 0; b--) {
		double share = cs->band[b] ? 100.0 * (double)n[b] / (double)cs->band[b] : NAN;
		if (n[b] && isfinite(excess[b]))
			fprintf(f, " %8zu %7.1f%% %12.3f%s", n[b], share, excess[b] / (double)n[b], b ? "  " : "");
		else
			fprintf(f, " %8zu %7.1f%% %12s%s", n[b], share, "-", b ? "  " : "");
	}
	fputc('\n', f);
}

/* The exclusive classes (causes.h), after the families: they add up to the band. */
static void print_parts(FILE *f, const struct isc_causes *cs)
{
	fprintf(f, "  exclusive classes (each datapoint in one)\n");
	for (size_t k = 0; k < ISC_NPARTS; k++) {
		size_t n[2] = { cs->part[0][k], cs->part[1][k] };
		double ex[2] = { cs->part_excess[0][k], cs->part_excess[1][k] };
		if (k == ISC_PART_STEAL && !((cs->measured >> ISC_CNT_STEAL) & 1))
			continue;
		print_row(f, isc_part_names[k], n, ex, cs);
	}
}

static void print_text(FILE *f, const char *metric, double pct, const struct isc_causes *cs)
{
	char fams[64];
	isc_causes_family_list(cs->measured, fams, sizeof(fams));
	fprintf(f, "\n%s by cause, above its %g%% (%.3f) and at or below it; clean median %.3f "
		"(%zu datapoints with no %s in the window)\n",
		metric, pct, cs->thr[0], cs->clean_med, cs->nclean, fams);
	fprintf(f, "  %-24s %8s %8s %12s   %8s %8s %12s\n", "cause", "above", "share", "excess avg",
		"below", "share", "excess avg");
	fprintf(f, "  %-24s %8zu %8s %12s   %8zu %8s %12s\n", "all", cs->band[1], "100.0%", "",
		cs->band[0], "100.0%", "");
	for (size_t i = 0; i < cs->nc; i++)
		print_row(f, cs->c[i].name, cs->c[i].n, cs->c[i].excess, cs);
	for (size_t k = 0; k < ISC_CAUSE_NCOUNT; k++)
		if (!((cs->measured >> k) & 1))
			fprintf(f, "  %-24s not measured (no %s column)\n", isc_cause_families[k],
				isc_cause_count_cols[k]);
	print_parts(f, cs);
}

static cJSON *num_or_null(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

/* The exclusive classes of band b: rows, share, excess_mean; "steal only" only with StealTime. */
static void parts_json(cJSON *jb, const struct isc_causes *cs, size_t b)
{
	cJSON *jp = cJSON_AddObjectToObject(jb, "classes");
	for (size_t k = 0; k < ISC_NPARTS; k++) {
		size_t n = cs->part[b][k];
		if (k == ISC_PART_STEAL && !((cs->measured >> ISC_CNT_STEAL) & 1))
			continue;
		cJSON *e = cJSON_AddObjectToObject(jp, isc_part_names[k]);
		cJSON_AddNumberToObject(e, "rows", (double)n);
		cJSON_AddItemToObject(e, "share", num_or_null(cs->band[b] ? (double)n / (double)cs->band[b] : NAN));
		cJSON_AddItemToObject(e, "excess_mean", num_or_null(n ? cs->part_excess[b][k] / (double)n : NAN));
	}
}

/* The families whose column the run lacks: name -> null, and why. */
static void not_measured_json(cJSON *o, const struct isc_causes *cs)
{
	cJSON *jn = cJSON_AddObjectToObject(o, "not_measured");
	char why[64];
	for (size_t k = 0; k < ISC_CAUSE_NCOUNT; k++) {
		if ((cs->measured >> k) & 1)
			continue;
		snprintf(why, sizeof(why), "no %s column", isc_cause_count_cols[k]);
		cJSON_AddStringToObject(jn, isc_cause_families[k], why);
	}
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
		parts_json(jb, cs, (size_t)b);
	}
	not_measured_json(o, cs);
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
	causes_warn_states(t);
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
