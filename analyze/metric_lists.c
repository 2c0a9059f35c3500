/* SPDX-License-Identifier: GPL-2.0-only */
/* wult's --include-metrics/--exclude-metrics (POSIX extended regular expressions here). */
#include "metric_lists.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "text/util.h"

void metric_list_free(struct metric_list *ml)
{
	for (size_t i = 0; i < ml->n; i++) {
		regfree(&ml->rx[i]);
		free(ml->src[i]);
	}
	free(ml->rx);
	free(ml->src);
	ml->rx = NULL;
	ml->src = NULL;
	ml->n = 0;
}

static int add_entry(struct metric_list *ml, const char *s, size_t len)
{
	char *src = isc_xstrndup(s, len);
	char *anchored = isc_xasprintf("^(%s)$", src);
	ml->rx = isc_xrealloc(ml->rx, (ml->n + 1) * sizeof(*ml->rx));
	ml->src = isc_xrealloc(ml->src, (ml->n + 1) * sizeof(*ml->src));
	int rc = len ? regcomp(&ml->rx[ml->n], anchored, REG_EXTENDED | REG_NOSUB) : -1;
	free(anchored);
	if (rc != 0) {
		char q[80];
		isc_quote_for_msg(src, len, q, sizeof(q));
		isc_err("stats: %s: %s '%s'", ml->option, len ? "bad regular expression" : "empty entry in", q);
		free(src);
		return -1;
	}
	ml->src[ml->n++] = src;
	return 0;
}

int metric_list_parse(const char *option, const char *list, struct metric_list *ml)
{
	memset(ml, 0, sizeof(*ml));
	ml->option = option;
	for (const char *p = list; p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (add_entry(ml, p, len) < 0) {
			metric_list_free(ml);
			return -1;
		}
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}

static bool matches_any(const struct metric_list *ml, const char *name)
{
	for (size_t i = 0; i < ml->n; i++)
		if (regexec(&ml->rx[i], name, 0, NULL, 0) == 0)
			return true;
	return false;
}

/* Every entry matches some column of the file (wult: "no matches for metric"). */
static int check_found(const struct metric_list *ml, const struct isc_table *t)
{
	for (size_t i = 0; i < ml->n; i++) {
		bool found = false;
		size_t nc = t->file_ncols ? t->file_ncols : t->ncols;
		for (size_t c = 0; c < nc && !found; c++) {
			const char *name = t->file_ncols ? t->file_colnames[c] : t->cols[c].name;
			found = regexec(&ml->rx[i], name, 0, NULL, 0) == 0;
		}
		if (!found) {
			char q[80];
			isc_quote_for_msg(ml->src[i], strlen(ml->src[i]), q, sizeof(q));
			isc_err("%s: %s: '%s' matches no column", t->path, ml->option, q);
			return -1;
		}
	}
	return 0;
}

int metric_lists_apply(const struct metric_list *include, const struct metric_list *exclude,
		       const struct isc_table *t, const char **names, size_t *n)
{
	if (check_found(include, t) < 0 || check_found(exclude, t) < 0)
		return -1;
	size_t kept = 0;
	for (size_t i = 0; i < *n; i++)
		if ((!include->n || matches_any(include, names[i])) && !matches_any(exclude, names[i]))
			names[kept++] = names[i];
	*n = kept;
	return 0;
}
