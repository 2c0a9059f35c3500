/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze counters: text, CSV and JSON output of derived counter intervals. */
#ifndef ANALYZE_COUNTERS_OUTPUT_H
#define ANALYZE_COUNTERS_OUTPUT_H
#include <stdbool.h>
#include <stdio.h>
#include "counters/derive/counters_derive.h"
#include "out_format.h"


struct cnt_print_opts {
	enum out_format format;
	const char *show, *hide;   /* comma-separated column names, or NULL */
	bool summary_only;
	bool joules;
	long measured_cpu;         /* the run's measured CPU (text: its row first), -1: none */
};

/* Which columns are shown. */
struct cnt_vis {
	bool *col;                 /* per result column */
	bool ht[CNT_HT_NCOLS];
	bool any_ht;
};

/* counters_json.c: the JSON document, written as it goes (no tree for the rows). */
void cnt_print_json(FILE *f, const struct cnt_data *d, const struct cnt_result *r, const struct cnt_vis *v,
		    const struct cnt_print_opts *o);
/* v as isc_num_str() (text/json_num.h) writes it: the shortest text that reads back as v. */
void cnt_num_str(char *buf, size_t len, double v);

/* Print r; notes (missing counters, clamped values) go to stderr. Returns an exit status. */
int cnt_print(FILE *f, const struct cnt_data *d, const struct cnt_result *r, const struct cnt_print_opts *o);

#endif
