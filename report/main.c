/* SPDX-License-Identifier: GPL-2.0-only */
/* report: write an offline HTML report of one run, or a comparison of several. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <malloc.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "table/bins.h"
#include "text/textsafe.h"
#include "cache/cache.h"
#include "text/util.h"
#include "cli/cli.h"
#include "causes/causes.h"
#include "idlescope/version.h"
#include "axes_opt.h"
#include "jsplot.h"
#include "report.h"

static const char help[] =
"usage: report [options] CONFIG [CONFIG...] -o DIR\n"
"\n"
"Write an HTML report of the datapoints of one run, or a comparison of several, to the\n"
"directory DIR: DIR/index.html with its plots beside it. It opens from the file system in\n"
"any browser and fetches nothing from elsewhere. Every plot is interactive (zoom, pan,\n"
"hover for a datapoint's values and row, runs on and off; plots/viewer.js); without\n"
"JavaScript, and in print, the static images show.\n"
"RUN is an idlescope run directory, a wult raw result directory or a datapoints.csv file.\n"
"A CONFIG is one RUN, replicate runs separated by commas (a1,a2,a3), or an experiment\n"
"directory (experiment.json of 'collect --matrix': its configurations in design order).\n"
"With several configurations the first (or --ref) is the reference: every table shows the\n"
"change and the percent change against it, and each metric gets the verdict line of\n"
"`analyze diff`: with two or more runs per configuration the runs' medians combined by\n"
"precision, in a Holm-adjusted family (\"changed: significant\", \"no change larger than\",\n"
"or \"inconclusive\"; per idle state when there are several); with one run, \"differs in\n"
"these runs\" from a Mann-Whitney test and a within-run block-bootstrap interval\n"
"(run-to-run variation unknown). What else differs between the\n"
"configurations (info.json, settings, machine load) is listed in a box above the verdicts;\n"
"replicate runs share their configuration's colour, and a plot per metric shows every\n"
"run's median and 99th percentile per configuration.\n"
"\n"
"Contents: the runs side by side (metadata that differs between them highlighted); per\n"
"metric the summary table (" ISC_DEFAULT_FUNCS "),\n"
"scatter plots against LDist and SilentTime and a histogram (per idle state too) over the\n"
"body of the distribution with what lies beyond counted, the share of datapoints above\n"
"each value (1 - CDF, log scale), a percentile plot whose axis gives each nine (90%, 99%,\n"
"99.9%, ...) equal room up to the maximum, and the summary per requested idle state\n"
"(ReqCState); counters (Busy%, C-state residencies, MHz, Watts) when runs have\n"
"counters.csv. Metrics come in the order --metrics names them (WakeLatency first).\n"
"A 0/1 flag (IntrOff) is shown as values, set and share (and tested against the\n"
"reference as in 'analyze diff'), not as a metric; a column without values in a run is\n"
"left out with one note.\n"
"\n"
"options:\n";

enum { OPT_REF = 256, OPT_BY_BINS, OPT_NO_CACHE, OPT_HIST, OPT_CHIST, OPT_COMPARE_INPUTS, OPT_CAUSES };

static const struct cli_opt opts[] = {
	{ "output", 'o', 'o', "DIR", "the report directory (required); refused if it exists" },
	{ "force", 'f', 'f', NULL,
	  "replace DIR if it exists and is an earlier report (or empty); DIR may never be, hold or\n"
	  "lie inside a RUN" },
	{ "metrics", 'm', 'm', "REGEX",
	  "metrics to show (POSIX extended regular expression, unanchored), default:" CLI_BR
	  REPORT_DEFAULT_METRICS CLI_BR
	  "(latencies, the flag IntrOff, SilentTime, LDist, residencies, CPU frequency)" },
	{ "include", 'i', 'i', "EXPR", "keep only datapoints where EXPR is true (as in `analyze`)" },
	{ "exclude", 'x', 'x', "EXPR",
	  "drop datapoints where EXPR is true" CLI_BR
	  "EXPR: column names, numbers, 'strings', < <= > >= == !=, and or not, + - * /, parentheses; e.g. \"ReqCState == 'C6'\"" },
	{ "xaxes", 'X', 'X', "LIST",
	  "x axes of the scatter plots, as wult's: comma-separated metric names or regular\n"
	  "expressions (each matching a whole column name), or none; also Time (the run's clock,\n"
	  "LTime, where every run has it, else the datapoint order) and Index (the datapoint\n"
	  "order); default: " AXES_DEFAULT_X },
	{ "yaxes", 'Y', 'Y', "LIST",
	  "the metrics that get scatter plots (every x axis each), the same way; default: every\n"
	  "metric shown; a metric named here is shown even if --metrics does not match it" },
	{ "hist", 0, OPT_HIST, "LIST", "the metrics that get histograms; default: every metric shown" },
	{ "chist", 0, OPT_CHIST, "LIST",
	  "the metrics that get the cumulative plots (1 - F and the tail view); default: every\n"
	  "metric shown" },
	{ "title", 't', 't', "TEXT", "the page title, default \"idlescope report: RUN vs RUN...\"" },
	{ "ref", 0, OPT_REF, "NAME", "the reference configuration (default: the first)" },
	{ "by", 'b', 'b', "COLUMN[:N]",
	  "the summary per COLUMN instead of per ReqCState (every run must have it); :N in N\n"
	  "equal-width bins over the values of all runs, labelled [lo, hi) (more than 100\n"
	  "different values in a run without :N: 10 bins, with a note), as in 'analyze diff'" },
	{ "by-bins", 0, OPT_BY_BINS, "N", "the same as :N" },
	{ "copy-raw", 'r', 'r', NULL,
	  "copy the runs' datapoints.csv, info and counters.csv into DIR/raw/runN/ so that the\n"
	  "report stands alone" },
	{ "jobs", 'j', 'j', "N", "gnuplot processes to run at once, default: online CPUs" },
	{ "keep-plot-data", 'k', 'k', NULL,
	  "keep the plots' data files and gnuplot scripts in DIR/plot-data/ (cd there and run\n"
	  "gnuplot on mNNN.gp to redraw)" },
	{ "no-cache", 0, OPT_NO_CACHE, NULL, "read the runs without the run cache (docs/cache.md)" },
	{ "compare-inputs", 0, OPT_COMPARE_INPUTS, NULL,
	  "verdicts on the inputs the collector sets (LDist, SilentTime) too; by default their\n"
	  "values are shown with no verdict, and the warnings say when the configurations'\n"
	  "designs differ" },
	{ "causes", 0, OPT_CAUSES, NULL,
	  "a Causes section: per run and percentile band (<p50, p50-p90, p90-p99,\n"
	  "p99-p99.9, >p99.9) of WakeLatency and IntrLatency, the share of datapoints\n"
	  "with an NMI/SMI, an IRQ and a softirq, an IRQ, a softirq or nothing else in\n"
	  "the window, as stacked bars and a table (bpf, hrt, tdt runs; docs/report.md)" },
	{ "help", 'h', 'h', NULL, "this text" },
	{ "version", 'V', 'V', NULL, "print the version" },
};
#define NOPTS (sizeof(opts) / sizeof(opts[0]))

static const char help_tail[] =
"\n"
"Plots are rendered by gnuplot (Debian package gnuplot-nox): scatter plots as PNG, the\n"
"others as SVG. Scatter plots of large runs show every point beyond the 0.1th or 99.9th\n"
"percentile of either axis and a deterministic sample of about 15000 of the others per\n"
"run (the caption says how many of how many); histograms and percentiles use every\n"
"datapoint. The report is written into a hidden temporary directory next to DIR and\n"
"renamed to DIR when complete; on failure, SIGINT, SIGTERM, SIGHUP or SIGPIPE it is\n"
"removed and nothing is left at DIR.\n"
"\n"
"exit status: 0 success (the path of index.html is printed), 1 bad data, gnuplot missing\n"
"or failing, DIR exists without --force, or a write error; 2 usage error\n";

static int parse_jobs(const char *s, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 1 || v > 1024) {
		isc_err("--jobs: expected a whole number from 1 to 1024, got '%s'", s);
		return -1;
	}
	*out = (int)v;
	return 0;
}

static int parse_args(int argc, char **argv, struct report_opts *o)
{
	struct option longopts[NOPTS + 1];
	char shorts[2 * NOPTS + 2];
	int c;
	if (cli_start(opts, NOPTS, longopts, shorts, sizeof(shorts), argc, argv, "", "report") < 0)
		return -1;
	while ((c = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		switch (c) {
		case 'o': o->outdir = optarg; break;
		case 'f': o->force = true; break;
		case 'm': o->metrics_re = optarg; break;
		case 'i': o->include = optarg; break;
		case 'x': o->exclude = optarg; break;
		case 't': o->title = optarg; break;
		case 'X': o->xaxes = optarg; break;
		case 'Y': o->yaxes = optarg; break;
		case OPT_HIST: o->hist = optarg; break;
		case OPT_CHIST: o->chist = optarg; break;
		case 'r': o->copy_raw = true; break;
		case 'k': o->keep_plot_data = true; break;
		case OPT_REF: o->ref = optarg; break;
		case 'b': o->by = optarg; break;
		case OPT_BY_BINS:
			if (!(o->by_bins = isc_by_bins_count(optarg, "report")))
				return -1;
			break;
		case OPT_NO_CACHE: isc_cache_disable(); break;
		case OPT_COMPARE_INPUTS: o->compare_inputs = true; break;
		case OPT_CAUSES: o->causes = true; break;
		case 'j':
			if (parse_jobs(optarg, &o->jobs) < 0)
				return -1;
			break;
		case 'h':
			cli_print_help(stdout, help, opts, NOPTS, help_tail);
			exit(ISC_EXIT_OK);
		case 'V': printf("report (idlescope) %s\n", IDLESCOPE_VERSION); exit(ISC_EXIT_OK);
		default: isc_bad_option(argv, "", "report"); return -1;
		}
	}
	if (optind >= argc) {
		isc_err("no run given (see 'report --help')");
		return -1;
	}
	if (!o->outdir || !o->outdir[0]) {
		isc_err("no output directory: use -o DIR (see 'report --help')");
		return -1;
	}
	o->runs = &argv[optind];
	o->nruns = (size_t)(argc - optind);
	if (isc_by_option(&o->by, &o->by_col, &o->by_bins, "") < 0)
		return -1;
	if (!o->jobs) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		o->jobs = n > 0 ? (int)n : 1;
	}
	return 0;
}

static int check_regex(const char *re)
{
	regex_t rx;
	int rc = regcomp(&rx, re, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		char msg[128];
		regerror(rc, &rx, msg, sizeof(msg));
		isc_err("--metrics: bad regular expression '%s': %s", re, msg);
		return -1;
	}
	regfree(&rx);
	return 0;
}

/* Bad --include/--exclude expressions are usage errors, found before any work. */
static int check_filters(const struct report_opts *o)
{
	struct isc_load_spec spec = { .include = o->include, .exclude = o->exclude };
	struct isc_load_ctx ctx;
	int rc = isc_load_prepare(&ctx, &spec);
	isc_load_release(&ctx);
	return rc;
}

/* Runs in argument order, grouped into configurations (comma lists, experiments). */
static int make_configs(struct report *rep)
{
	size_t n;
	if (isc_configs_for_diff(&rep->cl, rep->runs, rep->o->ref, &rep->configs, &n) < 0) {
		rep->nconfigs = n;
		return -1;
	}
	rep->nconfigs = n;
	rep->config_of = isc_xcalloc(rep->nruns + 1, sizeof(size_t));
	for (size_t c = 0; c < n; c++) {
		rep->grouped |= rep->configs[c].nruns > 1;
		for (size_t i = 0; i < rep->configs[c].nruns; i++)
			rep->config_of[rep->configs[c].runs[i]] = c;
	}
	return 0;
}

/* Counter-only runs: their metadata and an empty datapoints table each. */
static int open_counter_runs(struct report *rep, size_t n)
{
	for (size_t r = 0; r < n; r++, rep->nruns++) {
		if (isc_run_open_counters(rep->paths[r], &rep->runs[r]) < 0)
			return -1;
		rep->runs[r]->dp = isc_table_new(rep->runs[r]->path);
	}
	isc_runs_uniquify_names(rep->runs, rep->nruns);
	return 0;
}

static int load_runs(struct report *rep, const char *metrics_re)
{
	const struct report_opts *o = rep->o;
	/* The scatter plots need their x axes whatever --metrics says, and the idle-state plots
	 * ReqCState also when --by groups the summary by another column. */
	char *axes_re = axes_load_regex(o);
	char *load_re = isc_xasprintf("(%s)|%s", metrics_re, axes_re);
	free(axes_re);
	struct isc_load_spec spec = { .metrics_re = load_re, .include = o->include,
				     .exclude = o->exclude, .group_by = o->by,
				     .also = o->causes ? isc_cause_columns : NULL };
	struct isc_load_ctx ctx;
	size_t n = 0;
	int rc = -1;

	if (isc_load_prepare(&ctx, &spec) < 0)
		goto cleanup;
	rep->paths = isc_configs_paths(&rep->cl, &n);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (isc_is_same_run(rep->paths[i], rep->paths[j]))
				isc_warn("'%s' and '%s' are the same run: its columns will be equal",
					rep->paths[i], rep->paths[j]);
	rep->runs = isc_xcalloc(n + 1, sizeof(*rep->runs));
	rep->counters_only = n > 0;
	for (size_t r = 0; r < n; r++)
		rep->counters_only = rep->counters_only && isc_is_counter_only_dir(rep->paths[r]);
	if (rep->counters_only) {
		rc = open_counter_runs(rep, n) < 0 ? -1 : make_configs(rep) < 0 ? -2 : 0;
		goto cleanup;
	}
	for (size_t r = 0; r < n; r++)  /* the cache builders, forked before any run is read */
		isc_load_prepare_run(rep->paths[r]);
	for (size_t r = 0; r < n; r++, rep->nruns++)
		if (isc_load_run(&ctx, rep->paths[r], &rep->runs[r]) < 0)
			goto cleanup;
	for (size_t r = 0; r < rep->nruns; r++)
		if (rep->runs[r]->dp->nrows == 0) {
			isc_err("%s: no datapoints%s", rep->runs[r]->dp_path,
			       o->include || o->exclude ? " left after filtering" : "");
			goto cleanup;
		}
	isc_runs_uniquify_names(rep->runs, rep->nruns);
	rc = make_configs(rep) < 0 ? -2 : 0;  /* an unknown --ref: a usage error */
cleanup:
	isc_load_release(&ctx);
	free(load_re);
	return rc;
}

static char *default_title(const struct report *rep)
{
	char *t = isc_xstrdup("idlescope report: ");
	for (size_t r = 0; r < rep->nconfigs; r++) {
		char *next = isc_xasprintf("%s%s%s", t, r ? " vs " : "", rep->configs[r].name);
		free(t);
		t = next;
	}
	return t;
}

static bool any_counters_file(const struct report *rep)
{
	for (size_t r = 0; r < rep->nruns; r++) {
		struct stat st;
		char *p = path_cat(rep->runs[r]->dir, "counters.csv");
		int ok = stat(p, &st) == 0;
		free(p);
		if (ok)
			return true;
	}
	return false;
}

static void page_top(struct report *rep, const char *title)
{
	FILE *f = rep->html;
	html_head(f, title);
	fputs("<header><h1>", f);
	html_esc(f, title);
	fprintf(f, "</h1><p>%zu run%s, %zu metric%s", rep->nruns, rep->nruns > 1 ? "s" : "",
		rep->nmetrics, rep->nmetrics > 1 ? "s" : "");
	if (rep->o->include) {
		fputs(" &middot; --include ", f);
		html_esc(f, rep->o->include);
	}
	if (rep->o->exclude) {
		fputs(" &middot; --exclude ", f);
		html_esc(f, rep->o->exclude);
	}
	fprintf(f, " &middot; idlescope %s</p></header>\n<main>\n<nav><a href=\"#runs\">Runs</a>",
		IDLESCOPE_VERSION);
	for (size_t m = 0; m < rep->nmetrics; m++) {
		fprintf(f, "<a href=\"#m%zu\">", m);
		html_esc(f, rep->metrics[m]);
		fputs("</a>", f);
	}
	if (rep->o->causes)
		fputs("<a href=\"#causes\">Causes</a>", f);
	if (rep->fl.n)
		fputs("<a href=\"#flags\">Flags</a>", f);
	if (any_counters_file(rep))
		fputs("<a href=\"#counters\">Counters</a>", f);
	fputs("</nav>\n", f);
}

static int write_page(struct report *rep)
{
	char *path = path_cat(rep->tmpdir, "index.html");
	char *title = rep->o->title ? isc_xstrdup(rep->o->title) : default_title(rep);
	int rc = -1;
	FILE *file = fopen(path, "w");
	if (!file) {
		isc_err("%s: %s", path, strerror(errno));
		goto cleanup;
	}
	/* Everything on the page passes the filter: valid UTF-8, no control characters. */
	if (!(rep->html = isc_text_filter(file, ISC_TEXT_DATA, true))) {
		fclose(file);
		isc_err("%s: out of memory", path);
		goto cleanup;
	}
	page_top(rep, title);
	section_intro(rep);
	for (size_t m = 0; m < rep->nmetrics; m++)
		section_metric(rep, m);
	if (rep->o->causes)
		section_causes(rep);
	section_flags(rep);
	if (section_counters(rep) < 0)
		goto cleanup;
	html_tail(rep->html);
	rc = 0;
cleanup:
	if (rep->html) {
		int bad = ferror(rep->html);
		if (fclose(rep->html) != 0 || bad) {
			isc_err("%s: write error", path);
			rc = -1;
		}
	}
	rep->html = NULL;
	free(path);
	free(title);
	return rc;
}

static int write_viewer(const char *plots)
{
	char *path = path_cat(plots, "viewer.js");
	FILE *f = fopen(path, "wx");
	int rc = 0;
	bool bad = !f || fwrite(report_viewer_js, 1, report_viewer_js_len, f) != report_viewer_js_len;
	if ((f && fclose(f) != 0) || bad) {
		isc_err("%s: cannot write: %s", path, strerror(errno));
		rc = -1;
	}
	free(path);
	return rc;
}

static int make_dirs(struct report *rep)
{
	char *plots = path_cat(rep->tmpdir, "plots");
	int rc = 0;
	rep->workdir = path_cat(rep->tmpdir, ".work");
	if (mkdir(plots, 0777) < 0 || mkdir(rep->workdir, 0777) < 0) {
		isc_err("%s: %s", rep->tmpdir, strerror(errno));
		rc = -1;
	} else {
		rc = write_viewer(plots);
	}
	free(plots);
	return rc;
}

/* Plot data first, so that gnuplot renders while the summary is computed. */
static int build(struct report *rep, const char *gnuplot)
{
	if (!(rep->tmpdir = outdir_make_tmp(rep->o->outdir)))
		return -1;
	isc_oom_context("writing the report %s", rep->o->outdir);
	signals_remove_on_exit(rep->tmpdir);
	if (make_dirs(rep) < 0)
		return -1;
	rep->queue = plot_queue_new(gnuplot, rep->workdir, rep->o->jobs);
	rep->plots = isc_xcalloc(rep->nmetrics, sizeof(*rep->plots));
	for (size_t m = 0; m < rep->nmetrics; m++)
		if (plots_metric(rep, m, &rep->plots[m]) < 0)
			return -1;
	if ((!rep->counters_only && summary_compute(rep) < 0) || write_page(rep) < 0)
		return -1;
	if (rep->o->copy_raw && copy_raw_runs(rep) < 0)
		return -1;
	if (plot_queue_finish(rep->queue) < 0)
		return -1;
	if (rep->o->keep_plot_data) {
		char *kept = path_cat(rep->tmpdir, "plot-data");
		int bad = rename(rep->workdir, kept);
		if (bad)
			isc_err("%s: cannot rename to %s: %s", rep->workdir, kept, strerror(errno));
		free(kept);
		if (bad)
			return -1;
	} else if (remove_tree(rep->workdir) < 0) {
		isc_err("%s: cannot remove: %s", rep->workdir, strerror(errno));
		return -1;
	}
	/* Again, just before anything is moved: the tree may have changed meanwhile. */
	if (outdir_guard(rep->o->outdir, rep->runs, rep->nruns) < 0)
		return -1;
	int rc = outdir_commit(rep->tmpdir, rep->o->outdir, rep->o->force);
	signals_remove_on_exit(NULL);  /* renamed: nothing left to remove */
	return rc;
}

static void print_result(const char *outdir)
{
	char real[PATH_MAX];
	char *where = isc_xasprintf("%s/index.html", realpath(outdir, real) ? real : outdir);
	isc_text_write(stdout, where, strlen(where), ISC_TEXT_LINE);
	putchar('\n');
	free(where);
}

int main(int argc, char **argv)
{
	struct report_opts o = { 0 };
	struct report rep = { .o = &o };
	char *gnuplot = NULL, err[200];
	int rc = ISC_EXIT_DATA;

	isc_set_progname("report");
	/* Give large freed blocks (column chunks, sort scratch) back to the system at once:
	 * glibc's adaptive threshold would keep them and add tens of MB to the peak RSS. */
	mallopt(M_MMAP_THRESHOLD, 1 << 20);
	if (parse_args(argc, argv, &o) < 0)
		return ISC_EXIT_USAGE;
	if (check_regex(o.metrics_re ? o.metrics_re : REPORT_DEFAULT_METRICS) < 0 ||
	    axes_check(&o) < 0 || check_filters(&o) < 0)
		return ISC_EXIT_USAGE;
	char *metrics_re = axes_metrics_regex(&o, o.metrics_re ? o.metrics_re : REPORT_DEFAULT_METRICS);
	if (!(gnuplot = gnuplot_find())) {
		isc_err("gnuplot not found in PATH: install it with 'apt-get install gnuplot-nox'");
		free(metrics_re);
		return ISC_EXIT_DATA;
	}
	if (isc_funcs_parse(ISC_DEFAULT_FUNCS, &rep.funcs, &rep.nfuncs, err, sizeof(err)) < 0) {
		isc_err("%s", err);
		goto cleanup;
	}
	if (isc_configs_parse(o.runs, o.nruns, &rep.cl) < 0) {
		rc = ISC_EXIT_USAGE;
		goto cleanup;
	}
	if (outdir_check(o.outdir, o.force) < 0)
		goto cleanup;
	int lr = load_runs(&rep, metrics_re);
	if (lr == -2)
		rc = ISC_EXIT_USAGE;
	if (lr < 0 || outdir_guard(o.outdir, rep.runs, rep.nruns) < 0 ||
	    outdir_replaceable(o.outdir) < 0 || (!rep.counters_only && select_metrics(&rep, metrics_re) < 0) ||
	    (!rep.counters_only && axes_resolve(&rep) < 0))
		goto cleanup;
	if (build(&rep, gnuplot) < 0)
		goto cleanup;
	print_result(o.outdir);
	rc = ISC_EXIT_OK;
cleanup:
	plot_queue_free(rep.queue);
	if (rep.tmpdir && rc != ISC_EXIT_OK && remove_tree(rep.tmpdir) < 0)
		isc_warn("%s: cannot remove the unfinished report", rep.tmpdir);
	summary_free(&rep.sum);
	isc_diff_flags_free(&rep.fl);
	for (size_t m = 0; rep.plots && m < rep.nmetrics; m++)
		metric_plots_free(&rep.plots[m]);
	free(rep.plots);
	free(rep.metrics);
	free(rep.axis_lim);
	free(rep.xmap);
	axes_free(&rep);
	free(metrics_re);
	plot_states_free(&rep);
	free(rep.left_out);
	for (size_t r = 0; r < rep.nruns; r++)
		isc_run_free(rep.runs[r]);
	free(rep.runs);
	free(rep.paths);
	isc_configs_free_diff(rep.configs, rep.nconfigs);
	free(rep.config_of);
	for (size_t i = 0; i < rep.nwarn; i++)
		free(rep.warn[i]);
	free(rep.warn);
	isc_configs_free(&rep.cl);
	free(rep.funcs);
	free(rep.tmpdir);
	free(rep.workdir);
	free(gnuplot);
	free(o.by_col);
	return rc;
}
