/* SPDX-License-Identifier: GPL-2.0-only */
/* jsplot.c: the data of one interactive plot, plots/ID.js beside the static image: a call
 * idlescopePlot("ID", {...}) that report/viewer.js turns into a canvas (zoom, pan, hover,
 * runs on and off). Written as a stream: open, the axes' extras, then the series. */
#ifndef REPORT_JSPLOT_H
#define REPORT_JSPLOT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report.h"

struct jsplot {
	FILE *f;
	char *path;
	bool in_series, any_series, first_value;
	size_t nvalues;
	const char *open_key;      /* the extra list being written */
};

/* Opens plots/ID.js for the image plots/ID.EXT in the report being written; view: x0, x1, y0, y1 as first shown. The
 * toggles are the runs (names and colours). NULL after printing an error. */
struct jsplot *jsplot_open(const struct report *rep, const char *image, const char *xlabel,
			   const char *ylabel, bool logx, bool logy, const double view[4]);
/* Before the first series: fixed x ticks (the tail's nines), dashed y lines, dotted x lines. */
void jsplot_xtick(struct jsplot *jp, double x, const char *label);
void jsplot_hline(struct jsplot *jp, double y);
void jsplot_vline(struct jsplot *jp, double x);
/* kind: 'p' points, 'l' lines, 's' steps, 'b' bars (x0, x1, y triples through jsplot_num);
 * run: the toggle it belongs to, -1 none; name: NULL for the run's name. */
void jsplot_series(struct jsplot *jp, char kind, long run, const char *colour, double width,
		   int marker, bool dashed, const char *name);
void jsplot_xy(struct jsplot *jp, double x, double y);
void jsplot_num(struct jsplot *jp, double v);
/* Points (kind 'p') as little-endian float32 pairs in base64, and their rows (ascending). */
void jsplot_points(struct jsplot *jp, const float *xy, size_t n, const size_t *rows);
/* Writes the end and closes; -1 after printing an error. jp is freed either way. */
int jsplot_close(struct jsplot *jp);
/* viewer.js, built in (viewer_js.c, generated from report/viewer.js) */
extern const unsigned char report_viewer_js[];
extern const size_t report_viewer_js_len;
#endif
