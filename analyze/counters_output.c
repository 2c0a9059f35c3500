/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze counters output: an aligned table as turbostat prints it, CSV, or JSON. */
#include "counters_output.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text/json_num.h"
#include "text/util.h"

/* Columns that exist on some machines, for telling "not in this run" from a typo. */
static const char *const known_cols[] = {
	"Avg_MHz", "Busy%", "Bzy_MHz", "TSC_MHz", "IPC", "IRQ", "NMI", "SMI", "CPU%c1", "CPU%c3",
	"CPU%c6", "CPU%c7", "Halted%", "OS_Busy%", "Pkg%pc2", "Pkg%pc3", "Pkg%pc6", "Pkg%pc7",
	"Pkg%pc8", "Pkg%pc9", "Pkg%pc10", "PkgWatt", "CorWatt", "RAMWatt", "Pkg_J", "Cor_J", "RAM_J",
};

static int in_result(const struct cnt_result *r, const char *name, size_t *k, int *h)
{
	*h = -1;
	int c = cnt_result_col(r, name);
	if (c >= 0) {
		*k = (size_t)c;
		return 1;
	}
	for (int i = 0; i < CNT_HT_NCOLS; i++)
		if (!strcmp(cnt_ht_cols[i], name)) {
			*h = i;
			return r->ht ? 1 : 0;
		}
	for (size_t i = 0; i < sizeof(known_cols) / sizeof(known_cols[0]); i++)
		if (!strcmp(known_cols[i], name))
			return 0;
	return -1;
}

/* Every column of this run, comma-separated (malloc'd), for the unknown-column error. */
static char *column_list(const struct cnt_result *r)
{
	size_t n = r->ncols + (r->ht ? CNT_HT_NCOLS : 0);
	char *s = isc_xstrdup(n ? "" : "none");
	for (size_t k = 0; k < n; k++) {
		char *t = isc_xasprintf("%s%s%s", s, k ? ", " : "", k < r->ncols ? r->cols[k] : cnt_ht_cols[k - r->ncols]);
		free(s);
		s = t;
	}
	return s;
}

static int apply_list(const struct cnt_result *r, const char *list, const char *opt, struct cnt_vis *v, bool on)
{
	char *copy = isc_xstrdup(list), *save = NULL;
	int rc = 0;
	for (char *n = strtok_r(copy, ",", &save); n; n = strtok_r(NULL, ",", &save)) {
		size_t k;
		int h, found = in_result(r, n, &k, &h);
		if (found < 0) {
			char *all = column_list(r);
			isc_err("%s: unknown column '%s' (columns of this run: %s)", opt, n, all);
			free(all);
			rc = 2;
			break;
		}
		if (!found) {
			isc_warn("%s: column '%s' cannot be derived from this run", opt, n);
			continue;
		}
		if (h >= 0)
			v->ht[h] = on;
		else
			v->col[k] = on;
	}
	free(copy);
	return rc;
}

static int visibility(const struct cnt_result *r, const struct cnt_print_opts *o, struct cnt_vis *v)
{
	v->col = isc_xmalloc((r->ncols ? r->ncols : 1) * sizeof(bool));
	bool def = !o->show;
	for (size_t k = 0; k < r->ncols; k++)
		v->col[k] = def;
	for (int h = 0; h < CNT_HT_NCOLS; h++)
		v->ht[h] = def && r->ht;
	if (o->show && apply_list(r, o->show, "--show", v, true))
		return 2;
	if (o->hide && apply_list(r, o->hide, "--hide", v, false))
		return 2;
	v->any_ht = false;
	for (int h = 0; h < CNT_HT_NCOLS; h++)
		v->any_ht |= v->ht[h];
	return 0;
}

/* Fixed point up to 1e15; beyond, %.6g (a Time of 1e300 s printed 300 digits). */
static void fmt_num(char *buf, size_t len, double v, int prec)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (prec < 0 || !(fabs(v) < 1e15))
		snprintf(buf, len, "%.6g", v);
	else
		snprintf(buf, len, "%.*f", prec, v);
}

static int width(const char *name)
{
	int w = (int)strlen(name);
	return w < 7 ? 7 : w;
}

static void text_row(FILE *f, const struct cnt_result *r, const struct cnt_vis *v, const char *pkg,
		     const char *core, const char *cpu, const double *vals)
{
	fprintf(f, "%7s %7s %7s", pkg, core, cpu);
	char b[64];
	for (size_t k = 0; k < r->ncols; k++)
		if (v->col[k]) {
			fmt_num(b, sizeof(b), vals[k], r->prec[k]);
			fprintf(f, " %*s", width(r->cols[k]), b);
		}
	fputc('\n', f);
}

static void print_text(FILE *f, const struct cnt_result *r, const struct cnt_vis *v, const struct cnt_print_opts *o)
{
	char a[16], b[16], c[16], x[64];
	for (size_t i = 0; i < r->niv; i++) {
		const struct cnt_out_interval *iv = &r->iv[i];
		char t0[64], t1[64];
		fmt_num(t0, sizeof(t0), iv->t0, 3);
		fmt_num(t1, sizeof(t1), iv->t1, 3);
		fprintf(f, "%s# interval %zu: %s to %s s\n", i ? "\n" : "", i + 1, t0, t1);
		if (i == 0 && o->measured_cpu >= 0 && !o->summary_only)
			fprintf(f, "# CPU %ld* is the measured CPU: its row first, then all CPUs (-), then "
				   "the others\n", o->measured_cpu);
		fprintf(f, "%7s %7s %7s", "Package", "Core", "CPU");
		for (size_t k = 0; k < r->ncols; k++)
			if (v->col[k])
				fprintf(f, " %*s", width(r->cols[k]), r->cols[k]);
		fputc('\n', f);
		/* the measured CPU first (marked *): its latency is what the counters explain;
		 * then all CPUs (-), then the others */
		for (size_t j = 0; j < iv->ncpus && !o->summary_only; j++) {
			const struct cnt_out_row *row = &iv->cpus[j];
			if (row->cpu != o->measured_cpu)
				continue;
			snprintf(a, sizeof(a), "%d", row->package);
			snprintf(b, sizeof(b), "%d", row->core);
			snprintf(c, sizeof(c), "%d*", row->cpu);
			text_row(f, r, v, a, b, c, row->v);
		}
		text_row(f, r, v, "-", "-", "-", iv->summary);
		for (size_t j = 0; j < iv->ncpus && !o->summary_only; j++) {
			const struct cnt_out_row *row = &iv->cpus[j];
			if (row->cpu == o->measured_cpu)
				continue;
			snprintf(a, sizeof(a), "%d", row->package);
			snprintf(b, sizeof(b), "%d", row->core);
			snprintf(c, sizeof(c), "%d", row->cpu);
			text_row(f, r, v, a, b, c, row->v);
		}
		if (!v->any_ht || !iv->ncores || o->summary_only)
			continue;
		fprintf(f, "%7s %7s %7s", "Package", "Core", "CPUs");
		for (int h = 0; h < CNT_HT_NCOLS; h++)
			if (v->ht[h])
				fprintf(f, " %*s", width(cnt_ht_cols[h]), cnt_ht_cols[h]);
		fputc('\n', f);
		for (size_t j = 0; j < iv->ncores; j++) {
			const struct cnt_out_core *oc = &iv->cores[j];
			snprintf(c, sizeof(c), "%d,%d", oc->cpu0, oc->cpu1);
			fprintf(f, "%7d %7d %7s", oc->package, oc->core, c);
			for (int h = 0; h < CNT_HT_NCOLS; h++)
				if (v->ht[h]) {
					fmt_num(x, sizeof(x), oc->ht[h], 2);
					fprintf(f, " %*s", width(cnt_ht_cols[h]), x);
				}
			fputc('\n', f);
		}
	}
}

void cnt_num_str(char *b, size_t len, double v)
{
	char t[ISC_NUM_STR_LEN];
	snprintf(b, len, "%s", isc_num_str(t, v));
}

static void csv_val(FILE *f, double v)
{
	char b[40];
	if (isnan(v)) {
		fputc(',', f);
		return;
	}
	cnt_num_str(b, sizeof(b), v);
	fprintf(f, ",%s", b);
}

static const struct cnt_out_core *core_of(const struct cnt_out_interval *iv, int cpu)
{
	for (size_t j = 0; j < iv->ncores; j++)
		if (iv->cores[j].cpu0 == cpu)
			return &iv->cores[j];
	return NULL;
}

static void print_csv(FILE *f, const struct cnt_result *r, const struct cnt_vis *v, const struct cnt_print_opts *o)
{
	fputs("Interval,Time,Package,Core,CPU", f);
	for (size_t k = 0; k < r->ncols; k++)
		if (v->col[k]) {  /* a counter's name comes from counters.csv's header: quoted as needed */
			fputc(',', f);
			csv_field(f, r->cols[k]);
		}
	for (int h = 0; h < CNT_HT_NCOLS; h++)
		if (v->ht[h])
			fprintf(f, ",%s", cnt_ht_cols[h]);
	fputc('\n', f);
	for (size_t i = 0; i < r->niv; i++) {
		const struct cnt_out_interval *iv = &r->iv[i];
		for (size_t j = 0; j <= iv->ncpus; j++) {
			if (j && o->summary_only)
				break;
			const struct cnt_out_row *row = j ? &iv->cpus[j - 1] : NULL;
			char t[ISC_NUM_STR_LEN];  /* the shortest text of the double, as everywhere */
			if (row)
				fprintf(f, "%zu,%s,%d,%d,%d", i + 1, isc_num_str(t, iv->t1), row->package,
					row->core, row->cpu);
			else
				fprintf(f, "%zu,%s,-,-,-", i + 1, isc_num_str(t, iv->t1));
			const double *vals = row ? row->v : iv->summary;
			for (size_t k = 0; k < r->ncols; k++)
				if (v->col[k])
					csv_val(f, vals[k]);
			const struct cnt_out_core *oc = row ? core_of(iv, row->cpu) : NULL;
			for (int h = 0; h < CNT_HT_NCOLS; h++)
				if (v->ht[h])
					csv_val(f, oc ? oc->ht[h] : NAN);
			fputc('\n', f);
		}
	}
}

/* info.json's counters.missing and counters.partial: what was not collected, and where. */
static void print_collect_notes(const struct cnt_data *d)
{
	cJSON *counters = cJSON_GetObjectItemCaseSensitive(d->info, "counters"), *m;
	cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(counters, "missing")) {
		cJSON *c = cJSON_GetObjectItemCaseSensitive(m, "counters"), *w = cJSON_GetObjectItemCaseSensitive(m, "reason");
		if (cJSON_IsString(c) && cJSON_IsString(w))
			isc_note("not collected: %s: %s", c->valuestring, w->valuestring);
	}
	cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(counters, "partial")) {
		cJSON *c = cJSON_GetObjectItemCaseSensitive(m, "counters"), *w = cJSON_GetObjectItemCaseSensitive(m, "reason");
		cJSON *cpus = cJSON_GetObjectItemCaseSensitive(m, "cpus");
		if (cJSON_IsString(c) && cJSON_IsString(w) && cJSON_IsString(cpus))
			isc_note("not collected on CPU%s %s: %s: %s", strchr(cpus->valuestring, ',') ? "s" : "",
				cpus->valuestring, c->valuestring, w->valuestring);
	}
}

/* What is missing and what was clamped, once, on stderr. */
static void print_notes(const struct cnt_data *d, const struct cnt_result *r)
{
	print_collect_notes(d);
	if (r->nnotes) {
		char *list = isc_xstrdup("");
		for (size_t k = 0; k < r->nnotes; k++) {
			char *t = isc_xasprintf("%s%s %s", list, k ? "," : "", r->notes[k]);
			free(list);
			list = t;
		}
		isc_note("not derivable from this run:%s", list);
		free(list);
	}
	if (!r->ht)
		isc_note("no HT_*%% split: %s", r->ht_why);
	for (int k = 0; k < CNT_NCHECKS; k++) {
		char *line = cnt_check_line(&r->checks[k]);
		if (line)
			isc_warn("%s: %s", d->csv_path, line);
		free(line);
	}
	for (size_t k = 0; k < r->ncols; k++)
		if (r->clamped[k])
			isc_warn("%s: %zu value%s outside 0..100 clamped (farthest %.3f)", r->cols[k], r->clamped[k],
				r->clamped[k] == 1 ? "" : "s", r->clamp_worst[k]);
	for (int h = 0; h < CNT_HT_NCOLS; h++)
		if (r->ht_clamped[h])
			isc_warn("%s: %zu value%s outside 0..100 clamped (farthest %.3f)", cnt_ht_cols[h],
				r->ht_clamped[h], r->ht_clamped[h] == 1 ? "" : "s", r->ht_worst[h]);
}

int cnt_print(FILE *f, const struct cnt_data *d, const struct cnt_result *r, const struct cnt_print_opts *o)
{
	struct cnt_vis v;
	int rc = visibility(r, o, &v);
	if (!rc) {
		if (o->format == FMT_TEXT)
			print_text(f, r, &v, o);
		else if (o->format == FMT_CSV)
			print_csv(f, r, &v, o);
		else
			cnt_print_json(f, d, r, &v, o);
		print_notes(d, r);
		if (fflush(f) || ferror(f)) {
			isc_err("writing the output failed");
			rc = ISC_EXIT_DATA;
		}
	}
	free(v.col);
	return rc;
}
