/* SPDX-License-Identifier: GPL-2.0-only */
/* Loading counters.csv and the counter metadata of info.json for the formulas. */
#include "counters/derive/counters_derive.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "counters/derive/counters_derive_internal.h"
#include "run/run.h"
#include "text/util.h"

static const char *const meta_cols[] = { "Snapshot", "Time", "CPU", "Core", "Package" };
/* The largest CPU, core or package number read (Linux's NR_CPUS is at most 8192 today). */
#define CNT_MAX_TOPOLOGY_ID 1048575

static cJSON *load_info(const char *dir)
{
	char *p = isc_xasprintf("%s/info.json", dir), err[512];
	struct stat st;
	cJSON *info = NULL;
	if (lstat(p, &st) == 0 || errno != ENOENT) {
		info = isc_json_load(p, err, sizeof(err));  /* the limits of every metadata file */
		if (!info)
			isc_warn("%s; counters read without it", err);
	}
	free(p);
	return info ? info : cJSON_CreateObject();
}

/* Wrap width when info.json does not say: the MSR's width, unless a value is wider. */
static unsigned guess_width(const struct cnt_def *def, const double *v, size_t n)
{
	unsigned w = 64;
	for (int k = 0; def && k < CNT_MAX_SRC && def->src[k].type != SRC_NONE; k++)
		if (def->src[k].type == SRC_MSR)
			w = def->src[k].width;
	for (size_t r = 0; r < n && w < 64; r++)
		if (v[r] >= ldexp(1, (int)w))
			w = 64;
	return w;
}

/* A column's scope, kind, width and scale as the registry knows it (info.json may say more). */
static void col_defaults(struct cnt_data *d, struct cnt_colinfo *ci)
{
	const struct cnt_def *def = cnt_registry_find(ci->name);
	ci->scope = def ? def->scope : CNT_THREAD;
	ci->kind = def ? def->kind : CNT_DELTA;
	ci->width = guess_width(def, ci->v, d->t->nrows);
	ci->scale = 0;
}

/* What info.json's counters.columns entry m says of the column. */
static void col_meta(struct cnt_colinfo *ci, const cJSON *m)
{
	cJSON *x = cJSON_GetObjectItemCaseSensitive(m, "scope");
	enum cnt_scope sc;
	if (cJSON_IsString(x) && !cnt_scope_parse(x->valuestring, &sc))
		ci->scope = sc;
	x = cJSON_GetObjectItemCaseSensitive(m, "kind");
	if (cJSON_IsString(x))
		ci->kind = !strcmp(x->valuestring, "raw") ? CNT_RAW :
			   !strcmp(x->valuestring, "percent") ? CNT_PERCENT : CNT_DELTA;
	x = cJSON_GetObjectItemCaseSensitive(m, "width");
	if (cJSON_IsNumber(x) && x->valuedouble >= 8 && x->valuedouble <= 64)
		ci->width = (unsigned)x->valuedouble;
	x = cJSON_GetObjectItemCaseSensitive(m, "scale");
	if (cJSON_IsNumber(x) && x->valuedouble > 0)
		ci->scale = x->valuedouble;
}

/* info.json's counters.columns walked once, each entry's column found by the table's hash
 * (ci_of: table column -> d->ci index, or SIZE_MAX); the first entry of a name counts, as
 * cJSON's lookup has it. A lookup per column was quadratic: 50,000 columns against 300,000
 * entries took 71 s. */
static void info_columns(struct cnt_data *d, const size_t *ci_of)
{
	cJSON *cols = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(d->info, "counters"), "columns");
	unsigned char *seen = isc_xcalloc(d->t->ncols ? d->t->ncols : 1, 1);
	const cJSON *m;
	if (!cJSON_IsObject(cols))
		cols = NULL;
	cJSON_ArrayForEach(m, cols) {
		struct isc_column *c = m->string ? isc_table_col(d->t, m->string) : NULL;
		size_t i = c ? (size_t)(c - d->t->cols) : 0;
		if (!c || ci_of[i] == SIZE_MAX || seen[i])
			continue;
		seen[i] = 1;
		if (cJSON_IsObject(m))
			col_meta(&d->ci[ci_of[i]], m);
	}
	free(seen);
}

static void cpu_identity(struct cnt_data *d)
{
	cJSON *cpu = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(d->info, "counters"), "cpu");
	cJSON *v = cJSON_GetObjectItemCaseSensitive(cpu, "vendor");
	snprintf(d->vendor, sizeof(d->vendor), "%s", cJSON_IsString(v) ? v->valuestring : "unknown");
	v = cJSON_GetObjectItemCaseSensitive(cpu, "family");
	d->family = cJSON_IsNumber(v) ? v->valueint : -1;
	v = cJSON_GetObjectItemCaseSensitive(cpu, "model");
	d->model = cJSON_IsNumber(v) ? v->valueint : -1;
}

/* Every value a non-negative integer; snapshots in order; every row has its meta fields. */
static int check_rows(struct cnt_data *d)
{
	const struct isc_table *t = d->t;
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t m = 0; m < 5; m++) {
			const double *v = m == 0 ? d->snap : m == 1 ? d->time : m == 2 ? d->cpu : m == 3 ? d->core : d->pkg;
			if (isnan(v[r]) || v[r] < 0 || (m != 1 && v[r] != floor(v[r]))) {
				isc_err("%s:%zu: field '%s': expected a non-negative %s", d->csv_path, r + 2,
				       meta_cols[m], m == 1 ? "number" : "integer");
				return -1;
			}
			if (m >= 2 && v[r] > CNT_MAX_TOPOLOGY_ID) {  /* CPU, Core, Package: ints later */
				isc_err("%s:%zu: field '%s': %.15g is more than %d", d->csv_path, r + 2,
				       meta_cols[m], v[r], CNT_MAX_TOPOLOGY_ID);
				return -1;
			}
		}
		if (r && d->snap[r] < d->snap[r - 1]) {
			isc_err("%s:%zu: snapshot %.0f after snapshot %.0f (rows must be in snapshot order)",
			       d->csv_path, r + 2, d->snap[r], d->snap[r - 1]);
			return -1;
		}
		for (size_t j = 0; j < d->ncols; j++) {
			double v = d->ci[j].v[r];
			/* 2^64: what the largest u64s, up to 18446744073709551615, read as */
			if (!isnan(v) && (v < 0 || v != floor(v) || v > 0x1p64)) {
				isc_err("%s:%zu: field '%s': expected a raw counter value (an unsigned integer)",
				       d->csv_path, r + 2, d->ci[j].name);
				return -1;
			}
		}
	}
	return 0;
}

struct cpu_row {
	double cpu;
	size_t row;
};

static int cpu_row_cmp(const void *pa, const void *pb)
{
	const struct cpu_row *a = pa, *b = pb;
	if (a->cpu != b->cpu)
		return a->cpu < b->cpu ? -1 : 1;
	return a->row < b->row ? -1 : a->row > b->row;
}

/* Sort snapshot rows [lo, hi) by CPU into d->by_cpu; the first row whose CPU an earlier row
 * of it has, or hi. Sorted, not pairwise: a snapshot of 200,000 rows took 25 s. */
static size_t sort_snapshot(struct cnt_data *d, size_t lo, size_t hi, struct cpu_row *buf)
{
	size_t rep = hi;
	for (size_t r = lo; r < hi; r++)
		buf[r - lo] = (struct cpu_row){ d->cpu[r], r };
	qsort(buf, hi - lo, sizeof(*buf), cpu_row_cmp);
	for (size_t i = 0; i < hi - lo; i++) {
		d->by_cpu[lo + i] = buf[i].row;
		if (i && buf[i].cpu == buf[i - 1].cpu && buf[i].row < rep)
			rep = buf[i].row;
	}
	return rep;
}

size_t cnt_row_of(const struct cnt_data *d, size_t s, double cpu, size_t i)
{
	size_t lo = d->snap_first[s], hi = d->snap_first[s + 1];
	if (lo + i < hi && d->cpu[lo + i] == cpu)
		return lo + i;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		double c = d->cpu[d->by_cpu[mid]];
		if (c == cpu)
			return d->by_cpu[mid];
		if (c < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return SIZE_MAX;
}

static int index_snapshots(struct cnt_data *d)
{
	size_t n = d->t->nrows;
	d->snap_first = isc_xmalloc((n + 1) * sizeof(size_t));
	d->nsnaps = 0;
	for (size_t r = 0; r < n; r++)
		if (!r || d->snap[r] != d->snap[r - 1])
			d->snap_first[d->nsnaps++] = r;
	d->snap_first[d->nsnaps] = n;
	struct cpu_row *buf = isc_xmalloc((n ? n : 1) * sizeof(*buf));
	d->by_cpu = isc_xmalloc((n ? n : 1) * sizeof(size_t));
	int rc = 0;
	for (size_t s = 0; s < d->nsnaps && !rc; s++) {
		size_t b = sort_snapshot(d, d->snap_first[s], d->snap_first[s + 1], buf);
		if (b < d->snap_first[s + 1]) {
			isc_err("%s:%zu: CPU %.0f appears twice in snapshot %.0f", d->csv_path, b + 2,
			       d->cpu[b], d->snap[b]);
			rc = -1;
		}
	}
	free(buf);
	return rc;
}

/* A counter column the reader took for text: name the first cell that is not a number. */
static void report_text_cell(const struct cnt_data *d, const struct isc_column *c)
{
	for (size_t r = 0; r < d->t->nrows; r++) {
		const char *v = c->text[r] == ISC_TEXT_EMPTY ? NULL : isc_table_str(d->t, c->text[r]);
		if (!v)
			continue;
		char q[64];
		isc_quote_for_msg(v, strlen(v), q, sizeof(q));
		isc_err("%s:%zu: field '%s': expected a raw counter value (an unsigned integer), got '%s'",
		       d->csv_path, r + 2, c->name, q);
		return;
	}
	isc_err("%s: column '%s' holds text, not counter values", d->csv_path, c->name);
}

static char *csv_path_of(const char *path, char **dir)
{
	struct stat st;
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		*dir = isc_xstrdup(path);
		return isc_xasprintf("%s/counters.csv", path);
	}
	const char *slash = strrchr(path, '/');
	*dir = slash ? isc_xstrndup(path, (size_t)(slash - path) + (slash == path)) : isc_xstrdup(".");
	return isc_xstrdup(path);
}

int cnt_data_load(const char *rundir, struct cnt_data **out)
{
	char *dir;
	struct cnt_data *d = isc_xcalloc(1, sizeof(*d));
	d->csv_path = csv_path_of(rundir, &dir);
	isc_oom_context("loading %s", d->csv_path);
	struct stat st;
	if (stat(d->csv_path, &st) && errno == ENOENT && strcmp(d->csv_path, rundir)) {
		free(dir);
		cnt_data_free(d);
		return 0;
	}
	int rc = -1;
	struct isc_table_opts topts = { 0 };
	if (isc_table_read(d->csv_path, &topts, &d->t))
		goto out;
	const double **meta[] = { &d->snap, &d->time, &d->cpu, &d->core, &d->pkg };
	for (size_t m = 0; m < 5; m++) {
		struct isc_column *c = isc_table_col(d->t, meta_cols[m]);
		if (!c || c->type != ISC_COL_NUM) {
			isc_err("%s: %s column '%s'", d->csv_path, c ? "non-numeric" : "no", meta_cols[m]);
			goto out;
		}
		*meta[m] = c->num;
	}
	d->info = load_info(dir);
	cpu_identity(d);
	d->ci = isc_xcalloc(d->t->ncols, sizeof(*d->ci));
	size_t *ci_of = isc_xmalloc((d->t->ncols ? d->t->ncols : 1) * sizeof(size_t));
	for (size_t i = 0; i < d->t->ncols; i++) {
		struct isc_column *c = &d->t->cols[i];
		bool is_meta = false;
		ci_of[i] = SIZE_MAX;
		for (size_t m = 0; m < 5; m++)
			is_meta |= !strcmp(c->name, meta_cols[m]);
		if (is_meta)
			continue;
		if (c->type != ISC_COL_NUM) {
			report_text_cell(d, c);
			free(ci_of);
			goto out;
		}
		ci_of[i] = d->ncols;
		struct cnt_colinfo *ci = &d->ci[d->ncols++];
		ci->name = c->name;
		ci->v = c->num;
		col_defaults(d, ci);
	}
	info_columns(d, ci_of);
	free(ci_of);
	if (check_rows(d) || cnt_check_u64_top(d) || index_snapshots(d))
		goto out;
	cnt_check_steps(d);
	rc = 1;
out:
	free(dir);
	if (rc < 0)
		cnt_data_free(d);
	else
		*out = d;
	return rc;
}

void cnt_data_free(struct cnt_data *d)
{
	if (!d)
		return;
	isc_table_free(d->t);
	cJSON_Delete(d->info);
	free(d->ci);
	free(d->snap_first);
	free(d->by_cpu);
	free(d->bad_step);
	free(d->csv_path);
	free(d);
}

const struct cnt_colinfo *cnt_data_col(const struct cnt_data *d, const char *name)
{
	for (size_t j = 0; j < d->ncols; j++)
		if (!strcmp(d->ci[j].name, name))
			return &d->ci[j];
	return NULL;
}
