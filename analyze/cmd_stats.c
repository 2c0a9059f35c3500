/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze stats: summary statistics of runs' datapoints. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "table/bins.h"
#include "commands.h"
#include "run/load.h"
#include "table/numparse.h"
#include "text/util.h"
#include "cli/cli.h"
#include "load_opts.h"
#include "metric_lists.h"
#include "metrics_list.h"
#include "out_format.h"
#include "stats_result.h"
#include "stats_causes.h"
#include "causes/causes.h"

static const char stats_help[] =
"usage: analyze stats [options] RUN...\n"
"\n"
"Summary statistics of every numeric column (metric) of each run's datapoints, overall\n"
"and per requested idle state (the ReqCState column, unless every cell of it is empty),\n"
"as wult calculates them.\n"
"RUN is an idlescope run directory, a wult raw result directory or a datapoints.csv file.\n"
"\n"
"options:\n";

enum { OPT_BINS = 256, OPT_RANGE, OPT_BY_BINS, OPT_LIST, OPT_MINCLUDE, OPT_MEXCLUDE, OPT_CAUSES,
       OPT_CAUSES_PCT };

static const struct cli_opt stats_opts[] = {
	{ "metrics", 'm', 'm', "REGEX",
	  "only metrics whose name matches REGEX (POSIX extended, unanchored:\n"
	  "use '^WakeLatency$' for one), default: every numeric column" },
	{ "include-metrics", 0, OPT_MINCLUDE, "LIST",
	  "only these metrics: comma-separated names or regular expressions\n"
	  "(POSIX extended) matching whole names, as wult's; each must match\n"
	  "a column of every RUN" },
	{ "exclude-metrics", 0, OPT_MEXCLUDE, "LIST",
	  "leave these metrics out (the same LIST syntax)" },
	{ "funcs", 'f', 'f', "LIST",
	  "comma-separated functions, default:" CLI_BR
	  ISC_DEFAULT_FUNCS CLI_BR
	  "known: count, min, max, avg, std (sample, n-1), med, N% for any\n"
	  "0 < N < 100, and min_index, max_index: the row (0 = the first kept\n"
	  "by --include/--exclude, as wult numbers them) of the first min/max. Percentiles interpolate linearly between the closest\n"
	  "ranks, as numpy, pandas and GSL's gsl_stats_quantile_from_sorted_data." },
	{ "include", 'i', 'i', "EXPR",
	  "keep only rows where EXPR is true" },
	{ "exclude", 'x', 'x', "EXPR",
	  "drop rows where EXPR is true" CLI_BR
	  "EXPR: column names, numbers, 'strings', < <= > >= == !=, and or not\n"
	  "(or & | ~), + - * /, parentheses, index (the row number)." CLI_BR
	  "Example: \"ReqCState == 'C6' and LDist < 1000\"" CLI_BR
	  "(docs/expressions.md: precedence, empty cells (X == ''), types)" },
	{ "by", 'b', 'b', "COLUMN[:N]",
	  "group rows by COLUMN instead of ReqCState; a numeric COLUMN with\n"
	  ":N in N equal-width bins over its values (more than 100 different\n"
	  "values without :N: 10 bins, with a note)" },
	{ "by-bins", 0, OPT_BY_BINS, "N",
	  "the same as :N" },
	{ "no-group", 'G', 'G', NULL,
	  "no per-group tables" },
	{ "no-cache", 0, LOAD_OPT_NO_CACHE, NULL,
	  "read the runs without the run cache (docs/cache.md; also\n"
	  "IDLESCOPE_NO_CACHE=1)" },
	{ "hist", 'H', 'H', NULL,
	  "print a text histogram per metric (linear bins)" },
	{ "bins", 0, OPT_BINS, "N",
	  "histogram bins, default 20" },
	{ "hist-range", 0, OPT_RANGE, "LO,HI",
	  "histogram range (values outside are counted as below/above);\n"
	  "default: each metric's min and max" },
	{ "causes", 0, OPT_CAUSES, NULL,
	  "break WakeLatency and IntrLatency (the metrics of --metrics, if given)\n"
	  "down by what else ran on the CPU in each datapoint's window: for the\n"
	  "datapoints above --causes-pct and at or below it, the share with an IRQ\n"
	  "(and each IRQTop), a softirq (and each type), an NMI, an SMI, or none,\n"
	  "and the mean latency above the clean datapoints' median (those with\n"
	  "none) that goes with each (docs/format.md, cause columns)" },
	{ "causes-pct", 0, OPT_CAUSES_PCT, "PCT",
	  "the percentile of --causes, 0 < PCT < 100, default 99" },
	{ "format", 'F', 'F', "FMT",
	  "text (default, aligned tables), csv or json" },
	{ "list-metrics", 0, OPT_LIST, NULL,
	  "the known metrics with unit and description (with RUNs: each\n"
	  "run's columns), then exit" },
	{ "help", 'h', 'h', NULL,
	  "this text" },
};
#define NOPTS (sizeof(stats_opts) / sizeof(stats_opts[0]))

static const char stats_help_tail[] =
"\n"
"Empty cells (e.g. WakeLatency of POLL datapoints) are not counted; a column without any\n"
"value is left out with one note. IntrOff (0/1) is a flag: the text and JSON output give\n"
"how many rows have it and how many of those are 1 (\"flags\": {NAME: {values, set, share}}\n"
"beside \"metrics\"); CSV keeps it as a metric (its avg is the share). A last line cut off\n"
"mid-row is dropped with a warning. A broken info.json/info.yml is a warning: the\n"
"datapoints are analysed without metadata.\n"
"\n"
"JSON output: {\"runs\": [{\"reportid\", \"path\", \"toolname\", \"rows\",\n"
"  \"metrics\": {METRIC: {FUNC: value}}, \"group_by\", \"groups\": {VALUE: {\"rows\",\n"
"  \"metrics\": {...}}}, \"histograms\": {METRIC: {lo, hi, under, over, counts}}}]}\n"
"FUNC keys are spelt as in --funcs (\"max\", \"99.9%\", ...); undefined values are null.\n"
"\n"
"CSV output: run,by,group,rows,metric,FUNC...: a row per metric; all datapoints first (by and\n"
"  group empty), then each group (by: the grouping column; group: its value, may be empty).\n"
"  Fields holding a comma, quote or line break are quoted (RFC 4180); undefined values are\n"
"  empty. Numbers in CSV and JSON read back as exactly the same double.\n"
"\n"
"exit status: 0 success, 1 bad data, 2 usage error\n";

struct stats_opts {
	struct isc_load_spec load;
	const char *funcs;
	enum out_format format;
	size_t bins;
	int hist;
	int have_range;
	int have_bins;
	double range[2];
	size_t by_bins;     /* --by COLUMN:N or --by-bins N: N; 0 = by value */
	int list_metrics;   /* --list-metrics */
	char *by_col;       /* COLUMN of --by COLUMN:N, owned */
	const char *minclude, *mexclude;    /* --include-metrics, --exclude-metrics */
	struct metric_list inc, exc;        /* parsed */
	int causes;         /* --causes */
	double causes_pct;  /* --causes-pct */
	int have_causes_pct;
};

static int parse_range(const char *s, double *r)
{
	const char *comma = strchr(s, ',');
	return comma && isc_parse_double(s, (size_t)(comma - s), &r[0]) &&
	       isc_parse_double(comma + 1, strlen(comma + 1), &r[1]) && r[0] < r[1] ? 0 : -1;
}

/* Histogram options that would be silently ignored are usage errors. */
static int check_hist_opts(const struct stats_opts *o)
{
	if (!o->hist && (o->have_bins || o->have_range)) {
		isc_err("stats: --%s needs --hist", o->have_bins ? "bins" : "hist-range");
		return -1;
	}
	if (o->have_causes_pct && !o->causes) {
		isc_err("stats: --causes-pct needs --causes");
		return -1;
	}
	if (o->causes && o->format == FMT_CSV) {
		isc_err("stats: --causes: the breakdown is in the text and JSON output, not in CSV");
		return -1;
	}
	if (o->hist && o->format == FMT_CSV) {
		isc_err("stats: --hist: histograms are in the text and JSON output, not in CSV");
		return -1;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct stats_opts *o)
{
	struct option longopts[NOPTS + 1];
	char shorts[2 * NOPTS + 2];
	double d;
	int c;
	if (cli_start(stats_opts, NOPTS, longopts, shorts, sizeof(shorts), argc, argv, "stats: ", "analyze stats") < 0)
		return -1;
	while ((c = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		if (take_load_opt(c, optarg, &o->load, &o->funcs))
			continue;
		switch (c) {
		case 'H': o->hist = 1; break;
		case OPT_BINS:
			if (!isc_parse_double(optarg, strlen(optarg), &d) || d < 1 || d > 10000 || d != floor(d)) {
				isc_err("stats: --bins: expected a whole number from 1 to 10000, got '%s'", optarg);
				return -1;
			}
			o->bins = (size_t)d;
			o->have_bins = 1;
			break;
		case OPT_RANGE:
			if (parse_range(optarg, o->range) < 0) {
				isc_err("stats: --hist-range: expected LO,HI with LO < HI, got '%s'", optarg);
				return -1;
			}
			o->have_range = 1;
			break;
		case OPT_LIST: o->list_metrics = 1; break;
		case OPT_MINCLUDE: o->minclude = optarg; break;
		case OPT_MEXCLUDE: o->mexclude = optarg; break;
		case OPT_CAUSES:
			o->causes = 1;
			o->load.also = isc_cause_columns;
			break;
		case OPT_CAUSES_PCT:
			if (!isc_parse_double(optarg, strlen(optarg), &d) || !(d > 0 && d < 100)) {
				isc_err("stats: --causes-pct: expected a percentile, 0 < PCT < 100, got '%s'", optarg);
				return -1;
			}
			o->causes_pct = d;
			o->have_causes_pct = 1;
			break;
		case OPT_BY_BINS:
			if (!(o->by_bins = isc_by_bins_count(optarg, "stats")))
				return -1;
			break;
		case 'F':
			if (parse_out_format("stats", optarg, &o->format) < 0)
				return -1;
			break;
		case 'h': cli_print_help(stdout, stats_help, stats_opts, NOPTS, stats_help_tail); exit(ISC_EXIT_OK);
		default: isc_bad_option(argv, "stats: ", "analyze stats"); return -1;
		}
	}
	if (optind >= argc && !o->list_metrics) {
		isc_err("stats: no run given (see 'analyze stats --help')");
		return -1;
	}
	if (isc_by_option(&o->load.group_by, &o->by_col, &o->by_bins, "stats: ") < 0)
		return -1;
	if (metric_list_parse("--include-metrics", o->minclude, &o->inc) < 0)
		return -1;
	if (metric_list_parse("--exclude-metrics", o->mexclude, &o->exc) < 0)
		return -1;
	return check_hist_opts(o);
}

/*
 * Open every run (metadata only) so that their names are unique across this invocation
 * ("x", "x-2", ...): the datapoints are read one run at a time. NULL after an error message.
 */
static struct isc_run **open_runs(char **paths, size_t n)
{
	struct isc_run **runs = isc_xcalloc(n, sizeof(*runs));
	for (size_t i = 0; i < n; i++)
		if (isc_oom_context("loading %s", paths[i]), isc_run_open(paths[i], &runs[i]) < 0) {
			while (i-- > 0)
				isc_run_free(runs[i]);
			free(runs);
			return NULL;
		}
	isc_runs_uniquify_names(runs, n);
	return runs;
}

/* --causes: WakeLatency and IntrLatency, or the metrics --metrics chose. */
static int causes_of(const struct stats_opts *o, const struct stats_result *r, const struct isc_table *t,
		     FILE *out, cJSON *jrun)
{
	static const char *const latencies[] = { "WakeLatency", "IntrLatency" };

	if (o->load.metrics_re)
		return stats_causes(t, r->metrics, r->nmetrics, o->causes_pct, out, jrun);
	return stats_causes(t, latencies, 2, o->causes_pct, out, jrun);
}

/* Compute and print one run; JSON results are added to jruns instead. Its datapoints are
 * freed afterwards. */
/* Whether every reader of the columns this job uses takes packed ones (less memory to
 * touch): the statistics, the flags and the groups do; histograms, --causes and the row
 * indexes of min_index/max_index read arrays of doubles. */
static bool packed_load_ok(const struct stats_opts *o, const struct isc_func *funcs, size_t nfuncs)
{
	const char *off = getenv("IDLESCOPE_NO_PACK");  /* for comparing outputs (docs/performance.md) */
	for (size_t i = 0; i < nfuncs; i++)
		if (funcs[i].kind == ISC_F_MIN_INDEX || funcs[i].kind == ISC_F_MAX_INDEX)
			return false;
	return !o->hist && !o->causes && !(off && *off && strcmp(off, "0"));
}

static int stats_one(struct isc_load_ctx *ctx, const struct stats_opts *o, struct isc_run *run,
		     const struct isc_func *funcs, size_t nfuncs, cJSON *jruns, FILE *out, int first)
{
	struct stats_result r = { .funcs = funcs, .nfuncs = nfuncs };
	int rc = ISC_EXIT_DATA;

	isc_oom_context("loading %s", run->dp_path);
	if (isc_load_datapoints(ctx, run) < 0)
		goto cleanup;
	r.run = run;
	if (isc_load_group_col(ctx, run, &r.group_col) < 0)
		goto cleanup;
	if (isc_select_metrics(run->dp, o->load.metrics_re, &r.metrics, &r.nmetrics) < 0 ||
	    metric_lists_apply(&o->inc, &o->exc, run->dp, r.metrics, &r.nmetrics) < 0)
		goto cleanup;
	stats_split_columns(&r, o->format != FMT_CSV);
	if (r.nmetrics == 0 && r.nflags == 0) {
		isc_err("%s: no numeric column%s", run->dp_path,
			o->load.metrics_re || o->inc.n || o->exc.n ? " left by the metric options" : "");
		goto cleanup;
	}
	if (run->dp->nrows == 0)
		isc_warn("%s: no datapoints%s", run->dp_path,
			o->load.include || o->load.exclude ? " left after filtering" : "");
	if (r.group_col && isc_by_group_rows(run->dp, r.group_col, o->by_bins, &r.groups) < 0)
		goto cleanup;
	isc_oom_context("computing the statistics of %s", run->dp_path);
	stats_compute_all(&r, o->hist ? o->bins : 0, o->have_range ? o->range : NULL);
	cJSON *jrun = NULL;
	if (o->format == FMT_TEXT)
		fputs(first ? "" : "\n", out), stats_print_text(out, &r);
	else if (o->format == FMT_CSV)
		stats_print_csv(out, &r, first);
	else
		cJSON_AddItemToArray(jruns, jrun = stats_to_json(&r));
	if (o->causes && causes_of(o, &r, run->dp, out, jrun) < 0)
		goto cleanup;
	rc = ISC_EXIT_OK;
cleanup:
	stats_result_free(&r);
	isc_table_free(run->dp);
	run->dp = NULL;
	return rc;
}

static int print_json(FILE *out, cJSON *root)
{
	char *s = cJSON_PrintBuffered(root, 1 << 16, 1);
	if (!s) {
		isc_err("stats: cannot format JSON output");
		return ISC_EXIT_DATA;
	}
	fputs(s, out);
	fputc('\n', out);
	free(s);
	return ISC_EXIT_OK;
}

int cmd_stats(int argc, char **argv)
{
	struct stats_opts o = { .funcs = ISC_DEFAULT_FUNCS, .bins = 20, .causes_pct = 99 };
	struct isc_load_ctx ctx;
	struct isc_func *funcs = NULL;
	size_t nfuncs;
	char err[200];
	int rc = ISC_EXIT_USAGE;

	if (parse_args(argc, argv, &o) < 0) {
		rc = ISC_EXIT_USAGE;
		goto free_opts;
	}
	if (o.list_metrics) {  /* through the filter that keeps column names safe on a terminal */
		FILE *lo = out_open(FMT_TEXT);
		free(o.by_col);
		metric_list_free(&o.inc);
		metric_list_free(&o.exc);
		if (!lo)
			return ISC_EXIT_DATA;
		rc = list_metrics(lo, optind < argc ? argv + optind : NULL, (size_t)(argc - optind));
		return out_close(lo) != 0 && rc == ISC_EXIT_OK ? ISC_EXIT_DATA : rc;
	}
	if (isc_funcs_parse(o.funcs, &funcs, &nfuncs, err, sizeof(err)) < 0) {
		isc_err("stats: --funcs: %s", err);
		goto free_opts;
	}
	if (isc_load_prepare(&ctx, &o.load) < 0)
		goto cleanup;
	ctx.pack = packed_load_ok(&o, funcs, nfuncs);
	ctx.no_text = true;  /* the statistics are of numbers: text columns only to group by */
	size_t nruns = (size_t)(argc - optind);
	/* every run's cache builder forked now, from a process that has read no run: a builder
	 * forked after runs were read would keep their memory as its own once we exit */
	for (size_t i = 0; i < nruns; i++)
		isc_load_prepare_run(argv[optind + (int)i]);
	struct isc_run **runs = open_runs(argv + optind, nruns);
	if (!runs) {
		rc = ISC_EXIT_DATA;
		goto cleanup;
	}
	FILE *out = out_open(o.format);
	cJSON *root = cJSON_CreateObject(), *jruns = cJSON_AddArrayToObject(root, "runs");
	rc = out ? ISC_EXIT_OK : ISC_EXIT_DATA;
	for (size_t i = 0; i < nruns && rc == ISC_EXIT_OK; i++)
		rc = stats_one(&ctx, &o, runs[i], funcs, nfuncs, jruns, out, i == 0);
	for (size_t i = 0; i < nruns; i++)
		isc_run_free(runs[i]);
	free(runs);
	if (rc == ISC_EXIT_OK && o.format == FMT_JSON)
		rc = print_json(out, root);
	cJSON_Delete(root);
	if (out && out_close(out) != 0 && rc == ISC_EXIT_OK) {
		isc_err("stats: cannot write output");
		rc = ISC_EXIT_DATA;
	}
cleanup:
	isc_load_release(&ctx);
	free(funcs);
free_opts:
	free(o.by_col);
	metric_list_free(&o.inc);
	metric_list_free(&o.exc);
	return rc;
}
