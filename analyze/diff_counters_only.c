/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze diff of counter-only runs (collect --counters): their counter summaries compared. */
#include <stdlib.h>

#include "diff_output.h"
#include "text/util.h"
#include "counters/derive/counters_summary.h"
#include "out_format.h"

bool diff_all_counter_only(char *const *paths, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isc_is_counter_only_dir(paths[i]))
			return false;
	return n > 0;
}

/* Impossible readings (counters_derive.h): one line per kind over the runs. */
struct warn_lines {
	char **v;
	size_t n;
};

static int print(FILE *out, const struct isc_diff *d, const struct diff_counters *c, int format,
		 const struct warn_lines *w)
{
	struct isc_run **runs = d->runs;
	size_t n = d->nruns;
	if (format == FMT_TEXT) {
		for (size_t r = 0; r < n; r++)
			fprintf(out, "%-10s %s (%s, %s), counters only\n", r ? "Compared:" : "Reference:",
				runs[r]->name, runs[r]->path, runs[r]->toolname);
		if (w->n)
			fputs("\nWarning: some counter readings cannot be right\n", out);
		for (size_t i = 0; i < w->n; i++)
			fprintf(out, "  ! %s\n", w->v[i]);
		diff_counters_text(out, d, c);
		return ISC_EXIT_OK;
	}
	if (format == FMT_CSV) {
		fputs("kind,by,group,metric,func,run,value,change,pct\n", out);
		diff_counters_csv(out, d, c);
		for (size_t i = 0; i < w->n; i++) {
			fputs("warning,,,", out);
			csv_field(out, w->v[i]);
			fputs(",,,,,\n", out);
		}
		return ISC_EXIT_OK;
	}
	cJSON *root = cJSON_CreateObject(), *jr = cJSON_AddArrayToObject(root, "runs");
	for (size_t r = 0; r < n; r++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "reportid", runs[r]->name);
		cJSON_AddStringToObject(o, "path", runs[r]->path);
		cJSON_AddStringToObject(o, "toolname", runs[r]->toolname);
		cJSON_AddItemToArray(jr, o);
	}
	cJSON_AddItemToObject(root, "counters", diff_counters_json(c, d));
	cJSON *jw = cJSON_AddArrayToObject(root, "warnings");
	for (size_t i = 0; i < w->n; i++)
		cJSON_AddItemToArray(jw, cJSON_CreateString(w->v[i]));
	char *s = cJSON_PrintBuffered(root, 1 << 16, 1);
	cJSON_Delete(root);
	if (!s)
		return ISC_EXIT_DATA;
	fprintf(out, "%s\n", s);
	free(s);
	return ISC_EXIT_OK;
}

int diff_counters_only(char *const *paths, size_t n, int format)
{
	struct isc_run **runs = isc_xcalloc(n, sizeof(*runs));
	struct isc_diff_config *configs = isc_xcalloc(n, sizeof(*configs));
	size_t *idx = isc_xcalloc(n, sizeof(*idx));
	struct diff_counters c = { 0 };
	int rc = ISC_EXIT_DATA;
	for (size_t i = 0; i < n; i++)
		if (isc_run_open_counters(paths[i], &runs[i]) < 0)
			goto cleanup;
	isc_runs_uniquify_names(runs, n);
	for (size_t i = 0; i < n; i++)  /* each run its own configuration */
		configs[i] = (struct isc_diff_config){ .name = runs[i]->name, .runs = &idx[i], .nruns = 1 },
		idx[i] = i;
	struct isc_diff d = { .runs = runs, .nruns = n, .configs = configs, .nconfigs = n };
	if (diff_counters_load(&c, &d) < 0)
		goto cleanup;
	if (!c.ncols) {
		isc_err("%s: no counter the summary can derive", runs[0]->path);
		goto cleanup;
	}
	FILE *out = out_open(format);
	if (!out)
		goto cleanup;
	struct warn_lines w;
	w.n = isc_counters_check_lines(runs, n, &w.v);
	rc = print(out, &d, &c, format, &w);
	for (size_t i = 0; i < w.n; i++)
		free(w.v[i]);
	free(w.v);
	if (out_close(out) != 0 && rc == ISC_EXIT_OK) {
		isc_err("diff: cannot write output");
		rc = ISC_EXIT_DATA;
	}
cleanup:
	diff_counters_free(&c);
	for (size_t i = 0; i < n; i++)
		isc_run_free(runs[i]);
	free(runs);
	free(configs);
	free(idx);
	return rc;
}
