/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * analyze counters --format json, written as it goes: a run of hours on a big machine has
 * millions of values, and a cJSON tree of them would cost gigabytes. The small parts (notes,
 * missing counters, clamping) are built with cJSON.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "counters_output.h"
#include "text/json_num.h"

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void json_num(FILE *f, double v)
{
	char b[ISC_NUM_STR_LEN];
	fputs(isfinite(v) ? isc_num_str(b, v) : "null", f);
}

static void json_key_num(FILE *f, bool *first, const char *key, double v)
{
	fputs(*first ? "" : ", ", f);
	*first = false;
	json_str(f, key);
	fputs(": ", f);
	json_num(f, v);
}

/* A CPU row (row != NULL: every shown column, null where not on this row) or the summary
 * (only the columns it has). */
static void json_row(FILE *f, const struct cnt_result *r, const struct cnt_vis *v,
		     const struct cnt_out_row *row, const double *vals)
{
	bool first = true;
	fputc('{', f);
	if (row) {
		json_key_num(f, &first, "CPU", row->cpu);
		json_key_num(f, &first, "Core", row->core);
		json_key_num(f, &first, "Package", row->package);
	}
	for (size_t k = 0; k < r->ncols; k++)
		if (v->col[k] && (row || !isnan(vals[k])))
			json_key_num(f, &first, r->cols[k], vals[k]);
	fputc('}', f);
}

static void json_core(FILE *f, const struct cnt_vis *v, const struct cnt_out_core *c)
{
	bool first = true;
	fputc('{', f);
	json_key_num(f, &first, "Package", c->package);
	json_key_num(f, &first, "Core", c->core);
	for (int h = 0; h < CNT_HT_NCOLS; h++)
		if (v->ht[h])
			json_key_num(f, &first, cnt_ht_cols[h], c->ht[h]);
	fputc('}', f);
}

static void json_interval(FILE *f, const struct cnt_result *r, const struct cnt_vis *v,
			  const struct cnt_out_interval *iv, bool summary_only)
{
	bool first = true;
	fputs("    {", f);
	json_key_num(f, &first, "t0", iv->t0);
	json_key_num(f, &first, "t1", iv->t1);
	fputs(",\n     \"summary\": ", f);
	json_row(f, r, v, NULL, iv->summary);
	fputs(",\n     \"cpus\": [", f);
	for (size_t j = 0; j < iv->ncpus && !summary_only; j++) {
		fputs(j ? ",\n       " : "\n       ", f);
		json_row(f, r, v, &iv->cpus[j], iv->cpus[j].v);
	}
	fputs("],\n     \"cores\": [", f);
	for (size_t j = 0; j < iv->ncores && v->any_ht; j++) {
		fputs(j ? ",\n       " : "\n       ", f);
		json_core(f, v, &iv->cores[j]);
	}
	fputs("]}", f);
}

/* not_derivable, missing, partial, clamped and ht_split, as "key": value lines. */
static void json_notes(FILE *f, const struct cnt_data *d, const struct cnt_result *r)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *nd = cJSON_AddArrayToObject(o, "not_derivable");
	for (size_t k = 0; k < r->nnotes; k++)
		cJSON_AddItemToArray(nd, cJSON_CreateString(r->notes[k]));
	cJSON *counters = cJSON_GetObjectItemCaseSensitive(d->info, "counters");
	static const char *const from_info[] = { "missing", "partial" };
	for (size_t k = 0; k < 2; k++) {
		cJSON *a = cJSON_GetObjectItemCaseSensitive(counters, from_info[k]);
		cJSON_AddItemToObject(o, from_info[k], cJSON_IsArray(a) ? cJSON_Duplicate(a, 1) : cJSON_CreateArray());
	}
	cJSON *cl = cJSON_AddObjectToObject(o, "clamped");
	for (size_t k = 0; k < r->ncols; k++)
		if (r->clamped[k]) {
			cJSON *c = cJSON_AddObjectToObject(cl, r->cols[k]);
			isc_json_add_num(c, "count", (double)r->clamped[k]);
			isc_json_add_num(c, "farthest", r->clamp_worst[k]);
		}
	for (int h = 0; h < CNT_HT_NCOLS; h++)
		if (r->ht_clamped[h]) {
			cJSON *c = cJSON_AddObjectToObject(cl, cnt_ht_cols[h]);
			isc_json_add_num(c, "count", (double)r->ht_clamped[h]);
			isc_json_add_num(c, "farthest", r->ht_worst[h]);
		}
	cJSON *ht = cJSON_AddObjectToObject(o, "ht_split");
	cJSON_AddBoolToObject(ht, "computed", r->ht);
	if (r->ht)
		isc_json_add_num(ht, "k", r->ht_k);
	else
		cJSON_AddStringToObject(ht, "why", r->ht_why);
	for (cJSON *it = o->child; it; it = it->next) {
		char *s = cJSON_PrintUnformatted(it);
		fputs("  ", f);
		json_str(f, it->string);
		fprintf(f, ": %s,\n", s);
		free(s);
	}
	cJSON_Delete(o);
}

void cnt_print_json(FILE *f, const struct cnt_data *d, const struct cnt_result *r, const struct cnt_vis *v,
		    const struct cnt_print_opts *o)
{
	fputs("{\n  \"run\": ", f);
	json_str(f, d->csv_path);
	fputs(",\n  \"columns\": [", f);
	bool first = true;
	for (size_t k = 0; k < r->ncols; k++)
		if (v->col[k]) {
			fputs(first ? "" : ", ", f);
			first = false;
			json_str(f, r->cols[k]);
		}
	fputs("],\n", f);
	json_notes(f, d, r);
	fputs("  \"intervals\": [\n", f);
	for (size_t i = 0; i < r->niv; i++) {
		json_interval(f, r, v, &r->iv[i], o->summary_only);
		fputs(i + 1 < r->niv ? ",\n" : "\n", f);
	}
	fputs("  ]\n}\n", f);
}
