/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze export: arguments to run paths; fleets and experiments expand to their runs. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diff/configs.h"
#include "text/util.h"
#include "export_runs.h"

static void add(struct export_paths *p, char *path, const char *host)
{
	p->v = isc_xrealloc(p->v, (p->n + 1) * sizeof(*p->v));
	p->host = isc_xrealloc(p->host, (p->n + 1) * sizeof(*p->host));
	p->host[p->n] = host ? isc_xstrdup(host) : NULL;
	p->v[p->n++] = path;
}

static bool has_file(const char *dir, const char *name)
{
	struct stat st;
	char *path = isc_xasprintf("%s/%s", dir, name);
	bool yes = stat(path, &st) == 0;
	free(path);
	return yes;
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_run_dir(const char *dir)
{
	return has_file(dir, "datapoints.csv") || has_file(dir, "info.json") || has_file(dir, "info.yml");
}

/* An experiment's runs, the order they were taken in (as analyze diff reads them). */
static int add_experiment(const char *dir, const char *host, struct export_paths *p)
{
	struct isc_config_list l = { 0 };
	char *arg = (char *)dir;
	if (isc_configs_parse(&arg, 1, &l) < 0) {
		isc_configs_free(&l);
		return -1;
	}
	size_t n;
	char **paths = isc_configs_paths(&l, &n);
	for (size_t i = 0; i < n; i++)
		add(p, isc_xstrdup(paths[i]), host);
	free(paths);
	isc_configs_free(&l);
	return 0;
}

static int skip_dots(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* DIR/<host>/: each host's run or experiment; other entries are left out with a note. */
static int add_fleet(const char *dir, struct export_paths *p)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, skip_dots, alphasort), rc = 0;
	size_t before = p->n;
	if (n < 0) {
		isc_err("%s: cannot read the directory: %s", dir, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char *sub = isc_xasprintf("%s/%s", dir, ents[i]->d_name);
		if (rc == 0 && is_dir(sub) && has_file(sub, "experiment.json"))
			rc = add_experiment(sub, ents[i]->d_name, p);
		else if (rc == 0 && is_dir(sub) && has_file(sub, "datapoints.csv"))
			add(p, isc_xstrdup(sub), ents[i]->d_name);
		else if (rc == 0)
			isc_note("%s: neither a run with datapoints nor an experiment, left out", sub);
		free(sub);
		free(ents[i]);
	}
	free(ents);
	if (rc == 0 && p->n == before) {
		isc_err("%s: not a run, an experiment or a fleet directory (no datapoints.csv, "
			"experiment.json or subdirectory with one)", dir);
		return -1;
	}
	return rc;
}

int export_expand(char **args, size_t nargs, struct export_paths *out)
{
	for (size_t i = 0; i < nargs; i++) {
		int rc = 0;
		if (is_dir(args[i]) && has_file(args[i], "experiment.json"))
			rc = add_experiment(args[i], NULL, out);
		else if (is_dir(args[i]) && !is_run_dir(args[i]))
			rc = add_fleet(args[i], out);
		else
			add(out, isc_xstrdup(args[i]), NULL);
		if (rc < 0)
			return -1;
	}
	return 0;
}

void export_paths_free(struct export_paths *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i]), free(p->host[i]);
	free(p->v);
	free(p->host);
	*p = (struct export_paths){ 0 };
}
