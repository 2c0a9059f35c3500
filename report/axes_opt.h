/* SPDX-License-Identifier: GPL-2.0-only */
/* axes_opt.c: wult's --xaxes, --yaxes, --hist and --chist: comma-separated metric names or
 * regular expressions (each matching a whole name), or `none`; plus the x axes Time (the
 * run's clock, LTime, where every run has it, else the datapoint order) and Index (the
 * datapoint order). */
#ifndef REPORT_AXES_OPT_H
#define REPORT_AXES_OPT_H
#include <stdbool.h>

#include "report.h"

#define AXES_MAX_X 16             /* scatter x axes per metric */
#define AXES_DEFAULT_X "LDist,SilentTime"

/* Usage errors in the four options (bad regex, empty item), found before any work. */
int axes_check(const struct report_opts *o);
/* The regex of the columns to load besides --metrics; malloc'd. */
char *axes_load_regex(const struct report_opts *o);
/* --metrics extended by the metrics --yaxes, --hist and --chist name; malloc'd. */
char *axes_metrics_regex(const struct report_opts *o, const char *metrics_re);
/* Whether list (NULL: every metric; "none": none) has a plot of metric. */
bool axes_wants(const char *list, const char *metric);
/* rep->xaxes from --xaxes (or the default) over the loaded runs' columns; -1 after an error
 * (an explicit item that matches no column every run has, too many axes). */
int axes_resolve(struct report *rep);
/* The values of x axis a in run r (a column, or the Time/Index pseudo-column), NULL if the
 * run lacks it; the label ("LDist (us)", "Time (s)"), and a file-name-safe name. */
const double *axes_x_values(struct report *rep, size_t r, size_t a);
void axes_x_label(const struct report *rep, size_t a, char *out, size_t len);
void axes_x_file_name(const struct report *rep, size_t a, char *out, size_t len);
void axes_free(struct report *rep);
#endif
