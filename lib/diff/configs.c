/* SPDX-License-Identifier: GPL-2.0-only */
/* Configurations from command-line arguments: runs, comma-separated replicates, experiments. */
#include "diff/configs.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fs/fs.h"
#include "text/util.h"

static struct isc_config_arg *add_config(struct isc_config_list *l, char *name)
{
	l->v = isc_xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	struct isc_config_arg *c = &l->v[l->n++];
	*c = (struct isc_config_arg){ .name = name };
	return c;
}

static void add_path_at(struct isc_config_arg *c, char *path, long order)
{
	c->paths = isc_xrealloc(c->paths, (c->npaths + 1) * sizeof(char *));
	c->order = isc_xrealloc(c->order, (c->npaths + 1) * sizeof(long));
	c->order[c->npaths] = order;
	c->paths[c->npaths++] = path;
}

static void add_path(struct isc_config_arg *c, char *path)
{
	add_path_at(c, path, -1);
}

/* "a1,a2,a3": one configuration of three runs. */
static int parse_list(const char *arg, struct isc_config_list *l)
{
	struct isc_config_arg *c = add_config(l, NULL);
	for (const char *s = arg;;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);
		if (len == 0) {
			isc_err("'%s': an empty run in a comma-separated list", arg);
			return -1;
		}
		add_path(c, isc_xstrndup(s, len));
		if (!comma)
			return 0;
		s = comma + 1;
	}
}

static bool is_experiment(const char *arg, char **json_path)
{
	struct stat st;
	*json_path = isc_xasprintf("%s/experiment.json", arg);
	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode) && stat(*json_path, &st) == 0)
		return true;
	free(*json_path);
	*json_path = NULL;
	return false;
}

/* The factors: design.factors as [{"name", "values"}] or {NAME: [values]}. */
static const cJSON *factor_values(const cJSON *f)
{
	return cJSON_IsObject(f) ? cJSON_GetObjectItemCaseSensitive(f, "values") : f;
}

static const char *factor_name(const cJSON *f)
{
	const cJSON *n = cJSON_IsObject(f) ? cJSON_GetObjectItemCaseSensitive(f, "name") : NULL;
	return cJSON_IsString(n) ? n->valuestring : f->string;
}

static char *value_text(const cJSON *v)
{
	if (cJSON_IsString(v))
		return isc_xstrdup(v->valuestring);
	char *s = cJSON_PrintUnformatted(v);
	char *out = isc_xstrdup(s ? s : "");
	free(s);
	return out;
}

/* "cstates=POLL,idle-governor=menu" in factor order (the config object's order without). */
static char *config_name(const cJSON *config, const cJSON *factors)
{
	char *name = isc_xstrdup("");
	const cJSON *f, *list = factors ? factors : config;
	cJSON_ArrayForEach(f, list) {
		const char *fname = factors ? factor_name(f) : f->string;
		const cJSON *v = fname ? cJSON_GetObjectItemCaseSensitive(config, fname) : NULL;
		if (!v)
			continue;
		char *val = value_text(v), *next = isc_xasprintf("%s%s%s=%s", name, *name ? "," : "",
							     fname, val);
		free(val);
		free(name);
		name = next;
	}
	return name;
}

/* Design order: by each factor's value index in turn (first factor slowest). */
static long design_rank(const cJSON *config, const cJSON *factors)
{
	long rank = 0;
	const cJSON *f;
	cJSON_ArrayForEach(f, factors) {
		const cJSON *vals = factor_values(f), *v;
		const char *fname = factor_name(f);
		const cJSON *mine = fname ? cJSON_GetObjectItemCaseSensitive(config, fname) : NULL;
		long n = cJSON_GetArraySize(vals), idx = n, i = 0;
		char *want = mine ? value_text(mine) : NULL;
		cJSON_ArrayForEach(v, vals) {
			char *t = value_text(v);
			if (want && idx == n && !strcmp(t, want))
				idx = i;
			free(t);
			i++;
		}
		free(want);
		rank = rank * (n + 1) + idx;
	}
	return rank;
}

struct exp_config {
	char *name;
	long rank, first;
	struct isc_config_arg arg;
};

static int cmp_exp(const void *x, const void *y)
{
	const struct exp_config *a = x, *b = y;
	return a->rank != b->rank ? (a->rank < b->rank ? -1 : 1) : (a->first > b->first) - (a->first < b->first);
}

static void add_varied(struct isc_config_list *l, const char *name)
{
	for (size_t i = 0; i < l->nvaried; i++)
		if (!strcmp(l->varied[i], name))
			return;
	l->varied = isc_xrealloc(l->varied, (l->nvaried + 1) * sizeof(char *));
	l->varied[l->nvaried++] = isc_xstrdup(name);
}

static int exp_runs(const char *dir, const char *jpath, const cJSON *runs, const cJSON *factors,
		    long taken, struct exp_config **out, size_t *nout)
{
	const cJSON *run;
	size_t i = 0, skipped = 0;
	cJSON_ArrayForEach(run, runs) {
		const cJSON *path = cJSON_GetObjectItemCaseSensitive(run, "path");
		const cJSON *config = cJSON_GetObjectItemCaseSensitive(run, "config");
		const cJSON *complete = cJSON_GetObjectItemCaseSensitive(run, "complete");
		char why[160], q[160];
		if (!cJSON_IsString(path) || !cJSON_IsObject(config)) {
			isc_err("%s: runs[%zu]: expected \"path\" (text) and \"config\" (an object)",
			       jpath, i);
			return -1;
		}
		if (isc_path_inside(dir, path->valuestring, why, sizeof(why)) < 0) {
			isc_quote_for_msg(path->valuestring, strlen(path->valuestring), q, sizeof(q));
			isc_err("%s: runs[%zu].path '%s': %s: refused", jpath, i, q, why);
			return -1;
		}
		i++;
		if (cJSON_IsFalse(complete)) {
			skipped++;
			continue;
		}
		char *name = config_name(config, factors);
		size_t k = 0;
		while (k < *nout && strcmp((*out)[k].name, name))
			k++;
		if (k == *nout) {
			*out = isc_xrealloc(*out, (*nout + 1) * sizeof(**out));
			(*out)[k] = (struct exp_config){ .name = name, .first = (long)k,
							 .rank = factors ? design_rank(config, factors) : 0 };
			(*nout)++;
		} else {
			free(name);
		}
		add_path_at(&(*out)[k].arg, isc_xasprintf("%s/%s", dir, path->valuestring),
			    taken + (long)i - 1);
	}
	if (skipped)
		isc_warn("%s: %zu incomplete run%s left out", jpath, skipped, skipped > 1 ? "s" : "");
	return 0;
}

/* The runs as experiment.json lists them, the order they were taken in: "POLL-1, all-1, ...
 * all-3 (incomplete)"; after 40 runs, how many more. */
static char *runs_taken(const cJSON *runs)
{
	char *s = isc_xstrdup("");
	const cJSON *run;
	int i = 0, n = cJSON_GetArraySize(runs);
	cJSON_ArrayForEach(run, runs) {
		if (i == 40) {
			char *t = isc_xasprintf("%s, and %d more", s, n - i);
			free(s);
			return t;
		}
		const char *path = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(run, "path"));
		bool cut = cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(run, "complete"));
		char *t = isc_xasprintf("%s%s%s%s", s, i ? ", " : "", path ? path : "?",
				       cut ? " (incomplete)" : "");
		free(s);
		s = t;
		i++;
	}
	return s;
}

static int parse_experiment(const char *dir, const char *jpath, struct isc_config_list *l)
{
	char err[256];
	size_t len;
	char *text = isc_read_regular_file(jpath, 64 << 20, &len, err, sizeof(err));
	if (!text) {
		isc_err("%s", err);
		return -1;
	}
	cJSON *root = cJSON_ParseWithLength(text, len);
	free(text);
	const cJSON *design = cJSON_GetObjectItemCaseSensitive(root, "design");
	const cJSON *factors = cJSON_GetObjectItemCaseSensitive(design, "factors");
	const cJSON *runs = cJSON_GetObjectItemCaseSensitive(root, "runs"), *order;
	struct exp_config *cfg = NULL;
	size_t n = 0;
	int rc = -1;
	if (!cJSON_IsArray(runs)) {
		isc_err("%s: %s", jpath, root ? "no \"runs\" array" : "not valid JSON");
		goto out;
	}
	factors = cJSON_IsArray(factors) || cJSON_IsObject(factors) ? factors : NULL;
	if (exp_runs(dir, jpath, runs, factors, l->taken, &cfg, &n) < 0)
		goto out;
	if (n == 0) {
		isc_err("%s: no complete run", jpath);
		goto out;
	}
	qsort(cfg, n, sizeof(*cfg), cmp_exp);
	for (size_t k = 0; k < n; k++) {
		struct isc_config_arg *c = add_config(l, cfg[k].name);
		c->paths = cfg[k].arg.paths;
		c->order = cfg[k].arg.order;
		c->npaths = cfg[k].arg.npaths;
		cfg[k].name = NULL;
		cfg[k].arg.paths = NULL;
		cfg[k].arg.order = NULL;
		cfg[k].arg.npaths = 0;
	}
	const cJSON *f;
	cJSON_ArrayForEach(f, factors)
		if (factor_name(f))
			add_varied(l, factor_name(f));
	l->taken += cJSON_GetArraySize(runs);
	order = cJSON_GetObjectItemCaseSensitive(design, "order");
	char *taken = runs_taken(runs);
	char *line = isc_xasprintf("%s%s: %zu configuration%s, %d runs%s%s, taken in this order: %s",
				  l->design ? "; " : "", dir, n, n > 1 ? "s" : "",
				  cJSON_GetArraySize(runs), cJSON_IsString(order) ? ", order " : "",
				  cJSON_IsString(order) ? order->valuestring : "", taken);
	free(taken);
	char *all = isc_xasprintf("%s%s", l->design ? l->design : "", line);
	free(line);
	free(l->design);
	l->design = all;
	rc = 0;
out:
	for (size_t k = 0; k < n; k++) {   /* what was not handed over (a refused path) */
		for (size_t i = 0; i < cfg[k].arg.npaths; i++)
			free(cfg[k].arg.paths[i]);
		free(cfg[k].arg.paths);
		free(cfg[k].arg.order);
		free(cfg[k].name);
	}
	free(cfg);
	cJSON_Delete(root);
	return rc;
}

int isc_configs_parse(char **args, size_t nargs, struct isc_config_list *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < nargs; i++) {
		char *jpath;
		int rc;
		if (is_experiment(args[i], &jpath)) {
			rc = parse_experiment(args[i], jpath, out);
			free(jpath);
		} else {
			rc = parse_list(args[i], out);
		}
		if (rc < 0) {
			isc_configs_free(out);
			return -1;
		}
	}
	return 0;
}

long *isc_configs_orders(const struct isc_config_list *l)
{
	size_t n = 0;
	for (size_t c = 0; c < l->n; c++)
		n += l->v[c].npaths;
	long *o = isc_xmalloc((n + 1) * sizeof(long));
	n = 0;
	for (size_t c = 0; c < l->n; c++)
		for (size_t i = 0; i < l->v[c].npaths; i++) {
			o[n++] = l->v[c].order ? l->v[c].order[i] : -1;
			if (o[n - 1] < 0) {
				free(o);
				return NULL;
			}
		}
	return o;
}

char **isc_configs_paths(const struct isc_config_list *l, size_t *n)
{
	size_t total = 0;
	for (size_t c = 0; c < l->n; c++)
		total += l->v[c].npaths;
	char **p = isc_xcalloc(total + 1, sizeof(char *));
	*n = 0;
	for (size_t c = 0; c < l->n; c++)
		for (size_t i = 0; i < l->v[c].npaths; i++)
			p[(*n)++] = l->v[c].paths[i];
	return p;
}

void isc_configs_free(struct isc_config_list *l)
{
	for (size_t c = 0; c < l->n; c++) {
		for (size_t i = 0; i < l->v[c].npaths; i++)
			free(l->v[c].paths[i]);
		free(l->v[c].paths);
		free(l->v[c].order);
		free(l->v[c].name);
	}
	for (size_t i = 0; i < l->nvaried; i++)
		free(l->varied[i]);
	free(l->varied);
	free(l->v);
	free(l->design);
	memset(l, 0, sizeof(*l));
}

/* The runs' common name prefix without trailing separators, else their names joined by '+'. */
static char *group_name(struct isc_run **runs, size_t n)
{
	size_t len = strlen(runs[0]->name);
	for (size_t i = 1; i < n; i++) {
		size_t k = 0;
		while (k < len && runs[i]->name[k] == runs[0]->name[k])
			k++;
		len = k;
	}
	while (len > 0 && strchr("-_.,:+ ", runs[0]->name[len - 1]))
		len--;
	if (n == 1 || len > 0)
		return isc_xstrndup(runs[0]->name, n == 1 ? strlen(runs[0]->name) : len);
	char *s = isc_xstrdup(runs[0]->name);
	for (size_t i = 1; i < n; i++) {
		char *next = isc_xasprintf("%s+%s", s, runs[i]->name);
		free(s);
		s = next;
	}
	return s;
}

static void uniquify(struct isc_diff_config *c, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (int k = 2;; k++) {
			bool taken = false;
			for (size_t j = 0; j < i && !taken; j++)
				taken = !strcmp(c[j].name, c[i].name);
			if (!taken)
				break;
			char *base = isc_xstrdup(c[i].name), *dash = strrchr(base, '-');
			if (k > 2 && dash)
				*dash = '\0';
			free((char *)c[i].name);
			c[i].name = isc_xasprintf("%s-%d", base, k);
			free(base);
		}
}

int isc_configs_for_diff(const struct isc_config_list *l, struct isc_run **runs, const char *ref,
			struct isc_diff_config **out, size_t *n)
{
	struct isc_diff_config *c = isc_xcalloc(l->n + 1, sizeof(*c));
	size_t at = 0, refidx = 0;
	for (size_t k = 0; k < l->n; k++) {
		c[k].nruns = l->v[k].npaths;
		c[k].runs = isc_xmalloc((c[k].nruns + 1) * sizeof(size_t));
		for (size_t i = 0; i < c[k].nruns; i++)
			c[k].runs[i] = at + i;
		c[k].name = l->v[k].name ? isc_xstrdup(l->v[k].name) : group_name(runs + at, c[k].nruns);
		at += c[k].nruns;
	}
	uniquify(c, l->n);
	*out = c;
	*n = l->n;
	if (!ref)
		return 0;
	while (refidx < l->n && strcmp(c[refidx].name, ref))
		refidx++;
	if (refidx == l->n) {
		char names[1024] = "";
		size_t len = 0;
		for (size_t k = 0; k < l->n && len < sizeof(names); k++)
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s'%s'", k ? ", " : "",
						c[k].name);
		isc_err("--ref: no configuration named '%s' (there are %s)", ref, names);
		return -1;
	}
	struct isc_diff_config r = c[refidx];
	memmove(c + 1, c, refidx * sizeof(*c));
	c[0] = r;
	return 0;
}

void isc_configs_free_diff(struct isc_diff_config *c, size_t n)
{
	for (size_t k = 0; c && k < n; k++) {
		free((char *)c[k].name);
		free(c[k].runs);
	}
	free(c);
}
