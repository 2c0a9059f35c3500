/* SPDX-License-Identifier: GPL-2.0-only */
/* The impossible counter readings of several runs, one line per kind (analyze diff, report).
 * Called after isc_counters_summary() has loaded the same files, so its messages are muted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters/derive/counters_summary.h"
#include "text/util.h"

int isc_counters_checks(const char *rundir, struct cnt_check out[CNT_NCHECKS])
{
	struct cnt_data *d;
	struct cnt_derive_opts o = { 0 };
	struct cnt_result r;
	memset(out, 0, CNT_NCHECKS * sizeof(*out));
	isc_msg_mute(true);  /* the summary's load said already what is wrong with the file */
	int rc = cnt_data_load(rundir, &d);
	isc_msg_mute(false);
	if (rc <= 0)
		return rc;
	if (d->nsnaps < 2 || cnt_derive(d, &o, &r) < 0) {
		cnt_data_free(d);
		return 0;
	}
	memcpy(out, r.checks, sizeof(r.checks));
	cnt_result_free(&r);
	cnt_data_free(d);
	return 1;
}

/* One kind over the runs: "in 3 of 6 runs with counters (a-1, a-2, b-1); the worst, in a-1:
 * ..."; "in a-1: ..." when one run has it. */
static char *merge_kind(struct isc_run **runs, const struct cnt_check *c, size_t n, int k)
{
	char names[256] = "";
	size_t at = 0, found = 0, worst = SIZE_MAX, with = 0;
	for (size_t i = 0; i < n; i++) {
		const struct cnt_check *x = &c[i * CNT_NCHECKS + k];
		with += x->rows > 0;
		if (!x->n)
			continue;
		found++;
		if (worst == SIZE_MAX || x->worst > c[worst * CNT_NCHECKS + k].worst)
			worst = i;
		if (at < sizeof(names))
			at += (size_t)snprintf(names + at, sizeof(names) - at, "%s%s", at ? ", " : "",
					       runs[i]->name);
	}
	if (!found)
		return NULL;
	const struct cnt_check *w = &c[worst * CNT_NCHECKS + k];
	if (found == 1)
		return isc_xasprintf("implausible counters in %s: %s (%zu of %zu CPU intervals)",
				    runs[worst]->name, w->text, w->n, w->rows);
	return isc_xasprintf("implausible counters in %zu of %zu runs with counters (%s); the worst, "
			    "in %s: %s (%zu of %zu CPU intervals there)", found, with, names,
			    runs[worst]->name, w->text, w->n, w->rows);
}

size_t isc_counters_check_lines(struct isc_run **runs, size_t n, char ***out)
{
	struct cnt_check *c = isc_xcalloc(n * CNT_NCHECKS + 1, sizeof(*c));
	size_t nout = 0;
	*out = NULL;
	for (size_t i = 0; i < n; i++)
		if (isc_counters_checks(runs[i]->dir, &c[i * CNT_NCHECKS]) < 0)
			memset(&c[i * CNT_NCHECKS], 0, CNT_NCHECKS * sizeof(*c));
	for (int k = 0; k < CNT_NCHECKS; k++) {
		char *line = merge_kind(runs, c, n, k);
		if (!line)
			continue;
		*out = isc_xrealloc(*out, (nout + 1) * sizeof(char *));
		(*out)[nout++] = line;
	}
	free(c);
	return nout;
}
