/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The axes options as wult has them (axes_opt.h). An item is a metric name or a POSIX
 * extended regular expression that must match a whole column name (wult: Python's
 * re.fullmatch); `none` alone turns the plots off. The x axes Time and Index are not
 * columns: Time is LTime (CLOCK_MONOTONIC ns) less the run's first, in seconds, when every
 * run has LTime, else the datapoint order as Index is.
 */
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "text/util.h"
#include "axes_opt.h"
#include "plots.h"

static const char *const opt_names[] = { "--xaxes", "--yaxes", "--hist", "--chist" };

static bool is_none(const char *list)
{
	return list && !strcmp(list, "none");
}

static bool is_pseudo(const char *item)
{
	return !strcmp(item, "Time") || !strcmp(item, "Index");
}

/* The items of a list, split at commas; *n gets their count. */
static char **split(const char *list, size_t *n)
{
	char *copy = isc_xstrdup(list), *save = NULL, **items = NULL;
	*n = 0;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		items = isc_xrealloc(items, (*n + 1) * sizeof(*items));
		items[(*n)++] = isc_xstrdup(t);
	}
	free(copy);
	return items;
}

static void free_items(char **items, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(items[i]);
	free(items);
}

static bool full_match(const char *re, const char *name)
{
	char *anchored = isc_xasprintf("^(%s)$", re);
	regex_t rx;
	bool ok = regcomp(&rx, anchored, REG_EXTENDED | REG_NOSUB) == 0;
	bool hit = ok && regexec(&rx, name, 0, NULL, 0) == 0;
	if (ok)
		regfree(&rx);
	free(anchored);
	return hit;
}

static int check_list(const char *list, const char *opt)
{
	size_t n;
	int rc = 0;
	if (!list || is_none(list))
		return 0;
	if (!list[0] || list[0] == ',' || list[strlen(list) - 1] == ',' || strstr(list, ",,")) {
		isc_err("%s: an empty item in '%s' (a comma-separated list of metrics, or none)", opt, list);
		return -1;
	}
	char **items = split(list, &n);
	for (size_t i = 0; i < n && !rc; i++) {
		char *anchored = isc_xasprintf("^(%s)$", items[i]), msg[128];
		regex_t rx;
		int e = regcomp(&rx, anchored, REG_EXTENDED | REG_NOSUB);
		if (e) {
			regerror(e, &rx, msg, sizeof(msg));
			isc_err("%s: bad regular expression '%s': %s", opt, items[i], msg);
			rc = -1;
		} else {
			regfree(&rx);
		}
		free(anchored);
	}
	free_items(items, n);
	return rc;
}

int axes_check(const struct report_opts *o)
{
	const char *lists[] = { o->xaxes, o->yaxes, o->hist, o->chist };
	for (int i = 0; i < 4; i++)
		if (check_list(lists[i], opt_names[i]) < 0)
			return -1;
	return 0;
}

/* "|^(a)$|^(b)$" for the items of list that are columns */
static char *alternatives(char *acc, const char *list)
{
	size_t n;
	if (!list || is_none(list))
		return acc;
	char **items = split(list, &n);
	for (size_t i = 0; i < n; i++) {
		char *next = is_pseudo(items[i]) ? isc_xasprintf("%s|^(LTime)$", acc)
						 : isc_xasprintf("%s|^(%s)$", acc, items[i]);
		free(acc);
		acc = next;
	}
	free_items(items, n);
	return acc;
}

char *axes_load_regex(const struct report_opts *o)
{
	return alternatives(isc_xstrdup("^(ReqCState)$"), o->xaxes ? o->xaxes : AXES_DEFAULT_X);
}

char *axes_metrics_regex(const struct report_opts *o, const char *metrics_re)
{
	const char *lists[] = { o->yaxes, o->hist, o->chist };
	bool more = false;
	for (int i = 0; i < 3; i++)
		more |= lists[i] && !is_none(lists[i]);
	if (!more)  /* as given: messages quote it */
		return isc_xstrdup(metrics_re);
	char *re = isc_xasprintf("(%s)", metrics_re);
	for (int i = 0; i < 3; i++)
		re = alternatives(re, lists[i]);
	return re;
}

bool axes_wants(const char *list, const char *metric)
{
	size_t n;
	bool hit = false;
	if (!list)
		return true;
	if (is_none(list))
		return false;
	char **items = split(list, &n);
	for (size_t i = 0; i < n && !hit; i++)
		hit = full_match(items[i], metric);
	free_items(items, n);
	return hit;
}

/* Whether every run has name as a numeric column. */
static bool in_every_run(const struct report *rep, const char *name)
{
	for (size_t r = 0; r < rep->nruns; r++)
		if (!column(rep, r, name))
			return false;
	return rep->nruns > 0;
}

static int add_axis(struct report *rep, const char *name)
{
	for (size_t i = 0; i < rep->nxaxes; i++)
		if (!strcmp(rep->xaxes[i], name))
			return 0;
	if (rep->nxaxes == AXES_MAX_X) {
		isc_err("--xaxes: more than %d x axes", AXES_MAX_X);
		return -1;
	}
	rep->xaxes = isc_xrealloc(rep->xaxes, (rep->nxaxes + 1) * sizeof(*rep->xaxes));
	rep->xaxes[rep->nxaxes++] = isc_xstrdup(name);
	return 0;
}

int axes_resolve(struct report *rep)
{
	const char *list = rep->o->xaxes ? rep->o->xaxes : AXES_DEFAULT_X;
	size_t n;
	int rc = 0;
	if (is_none(list) || !rep->nruns)
		return 0;
	char **items = split(list, &n);
	const struct isc_table *t = rep->runs[0]->dp;
	for (size_t i = 0; i < n && !rc; i++) {
		size_t before = rep->nxaxes;
		if (is_pseudo(items[i])) {
			rc = add_axis(rep, items[i]);
			continue;
		}
		for (size_t c = 0; c < t->ncols && !rc; c++)
			if (full_match(items[i], t->cols[c].name) && in_every_run(rep, t->cols[c].name))
				rc = add_axis(rep, t->cols[c].name);
		if (!rc && rep->nxaxes == before && rep->o->xaxes) {
			isc_err("--xaxes: '%s' matches no numeric column that every run has", items[i]);
			rc = -1;
		}
	}
	free_items(items, n);
	if (!rc)
		rep->xvalues = isc_xcalloc(rep->nxaxes * rep->nruns, sizeof(*rep->xvalues));
	return rc;
}

static bool every_run_has_clock(const struct report *rep)
{
	return in_every_run(rep, "LTime");
}

const double *axes_x_values(struct report *rep, size_t r, size_t a)
{
	const char *name = rep->xaxes[a];
	if (!is_pseudo(name))
		return column(rep, r, name);
	double **v = &rep->xvalues[a * rep->nruns + r];
	if (!*v) {
		size_t n = rep->runs[r]->dp->nrows;
		const double *lt = !strcmp(name, "Time") && every_run_has_clock(rep) ? column(rep, r, "LTime")
										    : NULL;
		double first = NAN;
		*v = isc_xmalloc((n + 1) * sizeof(**v));
		for (size_t i = 0; i < n; i++) {
			if (lt && isnan(first) && !isnan(lt[i]))
				first = lt[i];
			(*v)[i] = lt ? (lt[i] - first) / 1e9 : (double)i;
		}
	}
	return *v;
}

void axes_x_label(const struct report *rep, size_t a, char *out, size_t len)
{
	const char *name = rep->xaxes[a], *unit;
	char safe[128], safe_unit[32];
	if (!strcmp(name, "Time") && every_run_has_clock(rep)) {
		snprintf(out, len, "Time (s from the first LTime)");
		return;
	}
	if (is_pseudo(name)) {
		snprintf(out, len, "Datapoint (order in the run)");
		return;
	}
	unit = metric_unit(rep, name);
	gp_safe(safe, sizeof(safe), name);
	gp_safe(safe_unit, sizeof(safe_unit), unit);
	snprintf(out, len, unit[0] && strcmp(unit, "%") ? "%s (%s)" : "%s", safe, safe_unit);
}

void axes_x_file_name(const struct report *rep, size_t a, char *out, size_t len)
{
	const char *name = rep->xaxes[a];
	bool plain = strlen(name) < 40;
	for (const char *p = name; *p && plain; p++)
		plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
			*p == '_' || *p == '-';
	if (plain)
		snprintf(out, len, "%s", name);
	else
		snprintf(out, len, "x%zu", a);
}

void axes_free(struct report *rep)
{
	for (size_t i = 0; rep->xvalues && i < rep->nxaxes * rep->nruns; i++)
		free(rep->xvalues[i]);
	free(rep->xvalues);
	for (size_t i = 0; i < rep->nxaxes; i++)
		free(rep->xaxes[i]);
	free(rep->xaxes);
}
