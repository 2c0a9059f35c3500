/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze export: the statistics of many runs as one long table for DuckDB, pandas, Spark. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "commands.h"
#include "run/load.h"
#include "table/bins.h"
#include "text/util.h"
#include "export_runs.h"
#include "export_table.h"
#include "load_opts.h"
#include "out_format.h"
#include "stats_result.h"

static const char export_help[] =
"usage: analyze export [options] RUN...\n"
"\n"
"One long table of the runs' statistics: a row per run x group x metric x function, with\n"
"the run's host, configuration, replicate, settings, kernel, CPU model and method in every\n"
"row, as CSV or JSON Lines, for DuckDB (read_csv, read_json), pandas or Spark.\n"
"RUN is a run directory, a wult raw result, a datapoints.csv file, an experiment directory\n"
"(collect --matrix: its runs in the order taken) or a fleet directory (DIR/<host>/ of\n"
"collect -H or the Ansible role: each host's run or experiment, in name order).\n"
"\n"
"options:\n";

static const struct cli_opt export_opts[] = {
	{ "format", 'F', 'F', "FMT",
	  "csv (default) or jsonl (JSON Lines: one object per line)" },
	{ "metrics", 'm', 'm', "REGEX",
	  "only metrics whose name matches REGEX (as analyze stats)" },
	{ "funcs", 'f', 'f', "LIST",
	  "comma-separated functions, default:" CLI_BR ISC_DEFAULT_FUNCS CLI_BR
	  "(as analyze stats --funcs)" },
	{ "include", 'i', 'i', "EXPR",
	  "keep only rows where EXPR is true (docs/expressions.md)" },
	{ "exclude", 'x', 'x', "EXPR",
	  "drop rows where EXPR is true" },
	{ "by", 'b', 'b', "COLUMN[:N]",
	  "group rows by COLUMN instead of ReqCState; :N: a numeric COLUMN in\n"
	  "N equal-width bins (as analyze stats --by)" },
	{ "no-group", 'G', 'G', NULL,
	  "only the rows of all datapoints, no per-group rows" },
	{ "no-cache", 0, LOAD_OPT_NO_CACHE, NULL,
	  "read the runs without the run cache (docs/cache.md)" },
	{ "help", 'h', 'h', NULL,
	  "this text" },
};
#define NOPTS (sizeof(export_opts) / sizeof(export_opts[0]))

static const char export_help_tail[] =
"\n"
"Columns: run, path, host, config, replicate, settings, kernel, cpu_model, method, by,\n"
"group, rows, metric, func, value. by and group are empty in the rows of all datapoints;\n"
"value is empty (CSV) or null (JSON) when undefined. The values are those of\n"
"'analyze stats --format csv' with the same options. Schema and a DuckDB example:\n"
"docs/export.md.\n"
"\n"
"exit status: 0 success, 1 bad data, 2 usage error\n";

struct export_opts {
	struct isc_load_spec load;
	const char *funcs;
	enum export_format format;
	size_t by_bins;     /* --by COLUMN:N: N; 0 = by value */
	char *by_col;       /* COLUMN of --by COLUMN:N, owned */
};

static int parse_format(const char *s, enum export_format *f)
{
	if (!strcmp(s, "csv") || !strcmp(s, "jsonl"))
		return (*f = s[0] == 'c' ? EXPORT_CSV : EXPORT_JSONL), 0;
	isc_err("export: --format: expected csv or jsonl, got '%s'", s);
	return -1;
}

static int parse_args(int argc, char **argv, struct export_opts *o)
{
	struct option longopts[NOPTS + 1];
	char shorts[2 * NOPTS + 2];
	int c;
	optind = 1;
	opterr = 0;
	if (cli_build(export_opts, NOPTS, longopts, shorts, sizeof(shorts)) < 0 ||
	    cli_refuse_abbreviations(argc, argv, shorts, longopts, "export: ", "analyze export") < 0)
		return -1;
	while ((c = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		if (take_load_opt(c, optarg, &o->load, &o->funcs))
			continue;
		switch (c) {
		case 'F':
			if (parse_format(optarg, &o->format) < 0)
				return -1;
			break;
		case 'h':
			cli_print_help(stdout, export_help, export_opts, NOPTS, export_help_tail);
			exit(ISC_EXIT_OK);
		default: isc_bad_option(argv, "export: ", "analyze export"); return -1;
		}
	}
	if (optind >= argc) {
		isc_err("export: no run given (see 'analyze export --help')");
		return -1;
	}
	return isc_by_option(&o->load.group_by, &o->by_col, &o->by_bins, "export: ");
}

/* The statistics of one run, as analyze stats --format csv computes them, written as rows. */
static int export_one(struct isc_load_ctx *ctx, const struct export_opts *o, struct isc_run *run,
		      const struct isc_func *funcs, size_t nfuncs, const char *fleet_host, FILE *out)
{
	struct stats_result r = { .funcs = funcs, .nfuncs = nfuncs };
	int rc = ISC_EXIT_DATA;

	isc_oom_context("loading %s", run->dp_path);
	if (isc_load_datapoints(ctx, run) < 0 || isc_load_group_col(ctx, run, &r.group_col) < 0)
		goto cleanup;
	r.run = run;
	if (isc_select_metrics(run->dp, o->load.metrics_re, &r.metrics, &r.nmetrics) < 0)
		goto cleanup;
	stats_split_columns(&r, false);
	if (r.nmetrics == 0) {
		isc_err("%s: no numeric column%s", run->dp_path, o->load.metrics_re ? " matches --metrics" : "");
		goto cleanup;
	}
	if (run->dp->nrows == 0)
		isc_warn("%s: no datapoints%s", run->dp_path,
			 o->load.include || o->load.exclude ? " left after filtering" : "");
	if (r.group_col && isc_by_group_rows(run->dp, r.group_col, o->by_bins, &r.groups) < 0)
		goto cleanup;
	isc_oom_context("computing the statistics of %s", run->dp_path);
	stats_compute_all(&r, 0, NULL);
	export_rows(out, o->format, &r, fleet_host);
	rc = ISC_EXIT_OK;
cleanup:
	stats_result_free(&r);
	isc_table_free(run->dp);
	run->dp = NULL;
	return rc;
}

/* Open every run first (metadata only) so that names are unique across the table. */
static int export_all(struct isc_load_ctx *ctx, const struct export_opts *o,
		      const struct export_paths *p, const struct isc_func *funcs, size_t nfuncs)
{
	struct isc_run **runs = isc_xcalloc(p->n, sizeof(*runs));
	int rc = ISC_EXIT_OK;
	for (size_t i = 0; i < p->n && rc == ISC_EXIT_OK; i++)
		if (isc_oom_context("loading %s", p->v[i]), isc_run_open(p->v[i], &runs[i]) < 0)
			rc = ISC_EXIT_DATA;
	FILE *out = rc == ISC_EXIT_OK ? out_open(o->format == EXPORT_CSV ? FMT_CSV : FMT_JSON) : NULL;
	if (rc == ISC_EXIT_OK && !out)
		rc = ISC_EXIT_DATA;
	if (out) {
		isc_runs_uniquify_names(runs, p->n);
		export_header(out, o->format);
	}
	for (size_t i = 0; out && i < p->n && rc == ISC_EXIT_OK; i++)
		rc = export_one(ctx, o, runs[i], funcs, nfuncs, p->host[i], out);
	if (out && out_close(out) != 0 && rc == ISC_EXIT_OK) {
		isc_err("export: cannot write output");
		rc = ISC_EXIT_DATA;
	}
	for (size_t i = 0; i < p->n; i++)
		if (runs[i])
			isc_run_free(runs[i]);
	free(runs);
	return rc;
}

int cmd_export(int argc, char **argv)
{
	struct export_opts o = { .funcs = ISC_DEFAULT_FUNCS, .format = EXPORT_CSV };
	struct export_paths paths = { 0 };
	struct isc_load_ctx ctx;
	struct isc_func *funcs = NULL;
	size_t nfuncs;
	char err[200];
	int rc = ISC_EXIT_USAGE;

	if (parse_args(argc, argv, &o) < 0) {
		free(o.by_col);
		return ISC_EXIT_USAGE;
	}
	if (isc_funcs_parse(o.funcs, &funcs, &nfuncs, err, sizeof(err)) < 0) {
		isc_err("export: --funcs: %s", err);
		free(o.by_col);
		return ISC_EXIT_USAGE;
	}
	if (isc_load_prepare(&ctx, &o.load) < 0)
		goto cleanup;
	rc = export_expand(argv + optind, (size_t)(argc - optind), &paths) < 0
		? ISC_EXIT_DATA : export_all(&ctx, &o, &paths, funcs, nfuncs);
cleanup:
	export_paths_free(&paths);
	isc_load_release(&ctx);
	free(funcs);
	free(o.by_col);
	return rc;
}
