/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze diff: compare runs against the first one and say whether the change is real. */
#include <getopt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "diff_output.h"
#include "table/bins.h"
#include "diff/configs.h"
#include "run/load.h"
#include "text/util.h"
#include "cli/cli.h"
#include "load_opts.h"
#include "out_format.h"
#include "diff_causes.h"
#include "diff_pack.h"
#include "causes/causes.h"
#include "table/numparse.h"

static const char diff_help[] =
"usage: analyze diff [options] REF CONFIG...\n"
"\n"
"Compare configurations against a reference: the first (or --ref NAME). A configuration is\n"
"one run, replicate runs separated by commas (a1,a2,a3), or an experiment directory (with the\n"
"experiment.json of 'collect --matrix'), which expands to its configurations in design order.\n"
"For every metric (numeric column) and function: each configuration's value (its runs'\n"
"datapoints pooled) with its change and percent change against the reference, each run's\n"
"median and 99th percentile, overall and per requested idle state (ReqCState); then, for\n"
"every configuration against the reference, whether the change is real.\n"
"\n"
"The run is the unit of replication: datapoints of one run are not independent replicates\n"
"of a configuration, and with many datapoints every difference between two runs passes a\n"
"datapoint-level test.\n"
"  - Two or more runs in both configurations (level \"run\"): the runs' medians (and their\n"
"    99% and 99.9% percentiles where every run has at least 1000 and 10000 values) are\n"
"    combined per configuration by a random-effects meta-analysis (runs weighted by their\n"
"    within-run precision, Hartung-Knapp variance; Welch's t when the runs are alike) and\n"
"    compared. Every such comparison of a call is one family of verdicts, adjusted by\n"
"    Holm's method; each verdict is one of three answers:\n"
"      changed: significant (Holm-adjusted p < 0.05), with the 95% CI of the change;\n"
"      no change larger than X (equivalence: two one-sided tests against --margin);\n"
"      inconclusive: this design detects only changes larger than X (80% power), with\n"
"      the runs per configuration that would detect the margin.\n"
"    Runs that tie exactly (no run-to-run spread) get no test. With groups (idle states)\n"
"    the verdicts are per group, with each group's share of the runs' datapoints tested\n"
"    too; the all-datapoints line is then descriptive (a mixture of the states).\n"
"  - One run in a configuration (level \"datapoint\"): run-to-run variation is unknown, so\n"
"    nothing is called significant. The verdict says whether the runs differ: Mann-Whitney\n"
"    p < 0.05 and a within-run 95% interval of the median difference that excludes 0,\n"
"    from a block bootstrap (20 contiguous blocks of collection order per run, 499\n"
"    replicates, fixed seed) so that drift inside a run widens it:\n"
"      WakeLatency: median -11 us (-15.6%) vs a, within-run 95% interval [-12, -10] (block\n"
"      bootstrap; run-to-run variation unknown), differs in these runs (Mann-Whitney\n"
"      p = 3.3e-26); one run per configuration, ...\n"
"    Repeat the runs (collect --matrix ... --repeat 3) for a verdict.\n"
"  Also given, on the pooled datapoints: Mann-Whitney U (exact for small samples) and the\n"
"  two-sample Kolmogorov-Smirnov D and p. See docs/diff.md for the methods and references.\n"
"Before the verdicts, a warning block lists what differs between the configurations besides\n"
"what was varied: system description (CPU vendor, family, model, stepping, architecture,\n"
"...) and settings in info.json, machine load from counters (Busy%/OS_Busy% by more than 5\n"
"points, IRQ/s by more than half), and, in an experiment, a drift of the runs' medians\n"
"over the order they were taken in (a trend test).\n"
"Outcomes (WakeLatency, IntrLatency, residencies) get verdicts; inputs the collector sets\n"
"(LDist, SilentTime, LTime: each method declares them) do not: a 'significant' LDist is a\n"
"false positive by construction. For them diff checks the design instead: each\n"
"configuration's kept values against the reference's (two-sample KS D above both its\n"
"alpha = 0.001 critical value and 0.05 is a warning). Runs that discarded more than half of\n"
"their attempts, and discard shares more than 10 points apart, are warnings too.\n"
"Runs with a counters.csv also get their counter summaries (analyze counters) compared.\n"
"A 0/1 flag (IntrOff) is shown as values, set and share and compared as a proportion:\n"
"Fisher's exact test when an expected cell is below 5, else the two-proportion z test; with\n"
"two or more runs in both configurations Welch's t on the runs' shares. Columns without\n"
"values are left out with one note.\n"
"\n"
"RUN is an idlescope run directory, a wult raw result directory or a datapoints.csv file;\n"
"they can be mixed. A run is named by its reportid, else its directory name; equal names\n"
"get -2, -3, ... appended. A configuration is named by its experiment (cstates=POLL), its\n"
"run, or its runs' common name prefix (aa-1,aa-2 -> aa).\n"
"\n"
"options:\n";

enum { OPT_ALLOW_SAME = 256, OPT_BY_BINS, OPT_PRIMARY, OPT_MARGIN, OPT_COMPARE_INPUTS, OPT_CAUSES,
       OPT_CAUSES_PCT };

static const struct cli_opt diff_opts[] = {
	{ "ref", 'r', 'r', "NAME",
	  "the reference configuration (default: the first)" },
	{ "metrics", 'm', 'm', "REGEX",
	  "only metrics whose name matches REGEX (POSIX extended, unanchored),\n"
	  "default: every numeric column all runs have (the others are left\n"
	  "out with a warning naming the runs that lack them) but the raw\n"
	  "timestamps LTime, TBI, TAI, TIntr, TBI1, TAI1 (name them to compare)" },
	{ "funcs", 'f', 'f', "LIST",
	  "comma-separated functions, default:" CLI_BR
	  ISC_DEFAULT_FUNCS CLI_BR
	  "as in 'analyze stats': count, min, max, avg, std, med, N%" },
	{ "include", 'i', 'i', "EXPR",
	  "keep only rows where EXPR is true (in every run)" },
	{ "exclude", 'x', 'x', "EXPR",
	  "drop rows where EXPR is true (in every run)" CLI_BR
	  "EXPR as in 'analyze stats': \"ReqCState == 'C6' and LDist < 1000\"" },
	{ "by", 'b', 'b', "COLUMN[:N]",
	  "group rows by COLUMN instead of ReqCState (every run must have it);\n"
	  ":N in N equal-width bins over the values of all runs (the same\n"
	  "edges for every run; more than 100 different values in a run\n"
	  "without :N: 10 bins, with a note), labelled [lo, hi)" },
	{ "by-bins", 0, OPT_BY_BINS, "N",
	  "the same as :N" },
	{ "no-group", 'G', 'G', NULL,
	  "no per-group comparison" },
	{ "no-cache", 0, LOAD_OPT_NO_CACHE, NULL,
	  "read the runs without the run cache (docs/cache.md; also\n"
	  "IDLESCOPE_NO_CACHE=1)" },
	{ "primary", 0, OPT_PRIMARY, "METRIC:FUNC[:GROUP]",
	  "test this comparison alone (FUNC med, 99% or 99.9%; GROUP a\n"
	  "group's value, default the tested part): the family is it, in\n"
	  "each configuration against the reference; the rest is descriptive" },
	{ "margin", 0, OPT_MARGIN, "X",
	  "the equivalence margin: X% of the reference's value (default 5%),\n"
	  "Xus, Xns, Xms for time metrics, or X in the metric's own unit" },
	{ "even-up", 'e', 'e', NULL,
	  "truncate every run to the smallest datapoint count (after filters)" },
	{ "allow-same", 0, OPT_ALLOW_SAME, NULL,
	  "allow the same run (datapoints file) twice" },
	{ "compare-inputs", 0, OPT_COMPARE_INPUTS, NULL,
	  "also compare the inputs the collector sets (LDist, SilentTime):\n"
	  "values and verdicts as for outcomes (by default they get no\n"
	  "verdict, only the design check)" },
	{ "causes", 0, OPT_CAUSES, NULL,
	  "also break WakeLatency and IntrLatency (the metrics of --metrics, if\n"
	  "given) down by cause, per configuration, as 'analyze stats --causes',\n"
	  "with each cause's change of share against the reference and whether\n"
	  "it is beyond chance (text and JSON; docs/diff.md)" },
	{ "causes-pct", 0, OPT_CAUSES_PCT, "PCT",
	  "the percentile of --causes, 0 < PCT < 100, default 99" },
	{ "format", 'F', 'F', "FMT",
	  "text (default), csv or json" },
	{ "help", 'h', 'h', NULL,
	  "this text" },
};
#define NOPTS (sizeof(diff_opts) / sizeof(diff_opts[0]))

static const char diff_help_tail[] =
"\n"
"Without --by, runs are grouped by ReqCState only when every run has that column and it is\n"
"not empty in all of them.\n"
"\n"
"JSON output: {\"reference\", \"group_by\", \"configs\": [{\"name\", \"runs\": [reportid..],\n"
"  \"rows\"}], \"runs\": [{\"reportid\", \"path\", \"toolname\", \"rows\", \"config\"}],\n"
"  \"metrics\": {METRIC: {\"unit\", FUNC: {\"values\": [..], \"change\": [..], \"pct\": [..]},\n"
"  \"runs\": [{\"med\", \"99%\", \"99.9%\"}, ..], \"tests\": [null, {\"level\":\n"
"  \"run\"|\"datapoint\", \"replicates\": [n_ref, n], \"method\", \"mw_u\", \"mw_p\", \"mw_exact\",\n"
"  \"ks_d\", \"ks_p\", \"ks_exact\", \"med_diff\", \"med_diff_ci95\": [lo, hi], \"differs\",\n"
"  \"significant\", \"run_level\": {\"med\": {\"diff\", \"ci95\", \"p\", \"df\", \"significant\"},\n"
"  \"99%\": .., \"99.9%\": ..} or null}, ...], \"verdict\": [null, \"...\", ...]}},\n"
"  \"groups\": {VALUE: {\"rows\": [..], \"run_rows\": [..], \"metrics\": {same shape}}},\n"
"  \"counters\": {COLUMN: {\"values\", \"change\", \"pct\", \"runs\"}} or null, \"warnings\": [..],\n"
"  \"inputs\": [the inputs left out, e.g. \"LDist\", \"SilentTime\"],\n"
"  \"flags\": {FLAG: {\"values\", \"set\", \"share\", \"runs\", \"tests\"}} (also per group),\n"
"  \"family\": {\"method\": \"holm\", \"alpha\", \"size\", \"primary\", \"text\"},\n"
"  \"descriptive\"}; each run_level function has \"verdict\": {\"answer\" (changed, equivalent,\n"
"  inconclusive, refused, untested), \"p_adj\", \"margin\", \"p_equiv\", \"p_equiv_adj\",\n"
"  \"mde\", \"runs_needed\", \"refusal\", ...}; each group has \"shares\": [null, {verdict}]\n"
"Index i of values, tests, verdict and rows is configs[i] (i = 0 the reference); of a\n"
"metric's runs and of run_rows it is runs[i]. Undefined numbers are null.\n"
"CSV output: kind,by,group,metric,func,run,value,change,pct with kind stat (a function's\n"
"value; run is the configuration), run (func med, 99%, 99.9% of one run; run is the run),\n"
"test (func level (1 run, 0 datapoint), replicates_ref, replicates, mw_u, mw_p, ks_d, ks_p,\n"
"med_diff, ci95_lo, ci95_hi, differs, significant, and at level run med_p, 99%_diff ...),\n"
"flag (func values, set, share), flagtest (func level, fisher_exact, diff, p, differs,\n"
"significant), sharetest (func diff, ci95_lo, ci95_hi, p, p_adj, significant), counter\n"
"or warning (metric is the text); by and group are empty for all datapoints, else the\n"
"grouping column and the group's value (which may be empty).\n"
"\n"
"exit status: 0 success, 1 bad data, 2 usage error (fewer than two configurations, the same\n"
"run twice without --allow-same, an unknown --ref, a bad option)\n";

struct diff_cli {
	struct isc_load_spec load;
	const char *funcs;
	enum out_format format;
	bool even_up;
	bool allow_same;
	bool compare_inputs;     /* --compare-inputs: verdicts on LDist, SilentTime too */
	const char *ref;
	const char *primary;     /* --primary METRIC:FUNC[:GROUP] */
	const char *margin;      /* --margin X[%|ns|us|ms] */
	const char *by_spec;     /* --by as given, COLUMN[:N] */
	char *by_col;            /* its column when :N was given */
	size_t by_bins;          /* --by COLUMN:N or --by-bins N: N; 0 = by value */
	bool causes;             /* --causes */
	double causes_pct;       /* --causes-pct */
	bool have_causes_pct;
};

static int parse_args(int argc, char **argv, struct diff_cli *o)
{
	struct option longopts[NOPTS + 1];
	char shorts[2 * NOPTS + 2];
	int c;
	if (cli_start(diff_opts, NOPTS, longopts, shorts, sizeof(shorts), argc, argv, "diff: ", "analyze diff") < 0)
		return -1;
	while ((c = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		if (take_load_opt(c, optarg, &o->load, &o->funcs))
			continue;
		switch (c) {
		case 'e': o->even_up = true; break;
		case 'r': o->ref = optarg; break;
		case OPT_ALLOW_SAME: o->allow_same = true; break;
		case OPT_COMPARE_INPUTS: o->compare_inputs = true; break;
		case OPT_CAUSES:
			o->causes = true;
			o->load.also = isc_cause_columns;
			break;
		case OPT_CAUSES_PCT: {
			double d;
			if (!isc_parse_double(optarg, strlen(optarg), &d) || !(d > 0 && d < 100)) {
				isc_err("diff: --causes-pct: expected a percentile, 0 < PCT < 100, got '%s'", optarg);
				return -1;
			}
			o->causes_pct = d;
			o->have_causes_pct = true;
			break;
		}
		case OPT_PRIMARY: {
			struct isc_diff_primary pr;
			if (isc_diff_parse_primary(optarg, &pr) < 0)
				return -1;
			free(pr.metric);
			free(pr.group);
			o->primary = optarg;
			break;
		}
		case OPT_MARGIN: {
			struct isc_diff_margin mg;
			if (isc_diff_parse_margin(optarg, &mg) < 0)
				return -1;
			o->margin = optarg;
			break;
		}
		case OPT_BY_BINS:
			if (!(o->by_bins = isc_by_bins_count(optarg, "diff")))
				return -1;
			break;
		case 'F':
			if (parse_out_format("diff", optarg, &o->format) < 0)
				return -1;
			break;
		case 'h': cli_print_help(stdout, diff_help, diff_opts, NOPTS, diff_help_tail); exit(ISC_EXIT_OK);
		default: isc_bad_option(argv, "diff: ", "analyze diff"); return -1;
		}
	}
	if (argc - optind < 1) {
		isc_err("diff: need at least two runs, the reference first (see 'analyze diff --help')");
		return -1;
	}
	if (o->have_causes_pct && !o->causes) {
		isc_err("diff: --causes-pct needs --causes");
		return -1;
	}
	if (o->causes && o->format == FMT_CSV) {
		isc_err("diff: --causes: the breakdown is in the text and JSON output, not in CSV");
		return -1;
	}
	o->by_spec = o->load.group_by;
	return isc_by_option(&o->load.group_by, &o->by_col, &o->by_bins, "diff: ");
}

/* The same datapoints twice compare a run with itself: an error unless --allow-same. */
static int check_same(char **paths, int n, bool allow)
{
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			if (!isc_is_same_run(paths[i], paths[j]))
				continue;
			if (allow) {
				isc_warn("'%s' and '%s' are the same run", paths[i], paths[j]);
				continue;
			}
			isc_err("diff: '%s' and '%s' are the same run: comparing a run with itself "
			       "shows nothing (--allow-same to do it anyway)", paths[i], paths[j]);
			return -1;
		}
	return 0;
}

/* Runs load two at a time: each file's reader has serial stretches the other can fill. */
struct loader {
	struct isc_load_ctx *ctx;
	char **paths;
	struct isc_run **runs;
	int *rc;
	struct isc_msg_held *said;  /* per run: its messages, printed in the runs' order */
	size_t n;
	atomic_size_t next;
};

static void *load_some(void *arg)
{
	struct loader *l = arg;
	for (size_t i; (i = atomic_fetch_add(&l->next, 1)) < l->n;) {
		isc_msg_hold(&l->said[i]);
		l->rc[i] = isc_load_run(l->ctx, l->paths[i], &l->runs[i]);
		isc_msg_hold(NULL);
	}
	return NULL;
}

static int load_runs(struct isc_load_ctx *ctx, char **paths, size_t n, struct isc_run **runs)
{
	struct loader l = { .ctx = ctx, .paths = paths, .runs = runs, .n = n };
	pthread_t tid;
	l.rc = isc_xcalloc(n, sizeof(int));
	l.said = isc_xcalloc(n, sizeof(*l.said));
	isc_msg_hold_order(l.said, n);
	atomic_init(&l.next, 0);
	for (size_t i = 0; i < n; i++)  /* while single-threaded (fork) */
		isc_load_prepare_run(paths[i]);
	ctx->concurrent = n > 1;
	int threaded = pthread_create(&tid, NULL, load_some, &l) == 0;
	load_some(&l);
	if (threaded)
		pthread_join(tid, NULL);
	ctx->concurrent = false;  /* after the join: the other loader reads it until then */
	isc_msg_held_print(l.said, n);
	free(l.said);
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (l.rc[i] < 0) {
			rc = -1;
		} else if (runs[i]->dp->nrows == 0) {
			isc_err("%s: no datapoints%s", runs[i]->dp_path,
			       ctx->spec->include || ctx->spec->exclude ? " left after filtering" : "");
			rc = -1;
		}
	}
	free(l.rc);
	if (rc == 0)
		isc_runs_uniquify_names(runs, n);
	return rc;
}

/* --by must exist everywhere. The default, ReqCState, applies when every run has the column
 * and at least one has a value in it (a CPU without a cpuidle driver leaves it empty). */
static int choose_group(struct isc_load_ctx *ctx, struct isc_run **runs, size_t n, const char **col)
{
	const char *dflt = "ReqCState";
	size_t have = 0, with_values = 0, lacking = 0;
	*col = NULL;
	if (ctx->spec->no_group)
		return 0;
	if (ctx->spec->group_by) {
		for (size_t i = 0; i < n; i++)
			if (isc_load_group_col(ctx, runs[i], col) < 0)
				return -1;
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		if (!isc_table_col(runs[i]->dp, dflt)) {
			lacking = lacking ? lacking : i + 1;
			continue;
		}
		have++;
		with_values += isc_table_col_has_value(runs[i]->dp, dflt);
	}
	if (have && lacking == 1)
		isc_warn("the reference %s has no %s column: no per-%s comparison", runs[0]->name,
			dflt, dflt);
	else if (have && lacking)
		isc_warn("%s has no %s column: no per-%s comparison", runs[lacking - 1]->name, dflt, dflt);
	else if (with_values)
		*col = dflt;
	return 0;
}

/* A numeric --by column in bins on edges over all runs (bins.h). */
static int bin_group(const struct diff_cli *o, struct isc_run **runs, size_t n, const char **col)
{
	struct isc_table **t = isc_xcalloc(n, sizeof(*t));
	for (size_t i = 0; i < n; i++)
		t[i] = runs[i]->dp;
	int rc = isc_by_group_tables(t, n, *col, o->by_bins, col);
	free(t);
	return rc;
}

/* Inputs get no verdict: say so once, with how to get one. */
static void note_inputs(const struct isc_diff *d)
{
	char list[512] = "";
	size_t at = 0;
	for (size_t i = 0; i < d->ninputs && at < sizeof(list); i++)
		at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s", i ? ", " : "",
				       d->inputs[i]);
	if (d->ninputs)
		isc_note("%s: input%s the collector sets, not outcome%s: no verdict, the design is "
			"checked instead (--compare-inputs to compare %s)", list,
			d->ninputs > 1 ? "s" : "", d->ninputs > 1 ? "s" : "",
			d->ninputs > 1 ? "them" : "it");
}

static int print_json(FILE *out_fp, const struct diff_out *out)
{
	cJSON *root = isc_diff_to_json(out->d);
	cJSON_AddItemToObject(root, "counters", diff_counters_json(out->c, out->d));
	cJSON_AddItemToObject(root, "flags", diff_flags_json(out->flags, out->d, 0));
	cJSON *groups = cJSON_GetObjectItemCaseSensitive(root, "groups");
	for (size_t g = 0; g < out->d->ngroups; g++) {
		cJSON *go = cJSON_GetObjectItemCaseSensitive(groups, out->d->groups[g].label);
		if (go)
			cJSON_AddItemToObject(go, "flags", diff_flags_json(out->flags, out->d, g + 1));
	}
	cJSON *in = cJSON_AddArrayToObject(root, "inputs");
	for (size_t i = 0; i < out->d->ninputs; i++)
		cJSON_AddItemToArray(in, cJSON_CreateString(out->d->inputs[i]));
	cJSON *w = cJSON_AddArrayToObject(root, "warnings");
	for (size_t i = 0; i < out->nwarn; i++)
		cJSON_AddItemToArray(w, cJSON_CreateString(out->warn[i]));
	if (out->design)
		cJSON_AddStringToObject(root, "experiment", out->design);
	if (out->causes)
		cJSON_AddItemToObject(root, "causes", diff_causes_json(out->causes, out->d));
	char *s = cJSON_PrintBuffered(root, 1 << 16, 1);
	cJSON_Delete(root);
	if (!s) {
		isc_err("diff: cannot format JSON output");
		return ISC_EXIT_DATA;
	}
	fputs(s, out_fp);
	fputc('\n', out_fp);
	free(s);
	return ISC_EXIT_OK;
}

static int compare_and_print(struct isc_load_ctx *ctx, const struct diff_cli *o,
			     struct isc_run **runs, size_t n, const struct isc_config_list *cl,
			     const struct isc_func *funcs, size_t nfuncs)
{
	struct isc_diff_opts dopts = { .funcs = funcs, .nfuncs = nfuncs,
				      .metrics_re = o->load.metrics_re, .primary = o->primary,
				      .margin = o->margin, .compare_inputs = o->compare_inputs };
	struct isc_diff_config *configs = NULL;
	struct diff_counters counters;
	struct isc_diff_flags flags;
	struct isc_diff d;
	int rc = ISC_EXIT_OK;
	if (isc_configs_for_diff(cl, runs, o->ref, &configs, &dopts.nconfigs) < 0) {
		isc_configs_free_diff(configs, dopts.nconfigs);
		return ISC_EXIT_USAGE;
	}
	dopts.configs = configs;
	isc_diff_flags_columns(&flags, runs, n, o->load.metrics_re);
	dopts.skip = (const char *const *)flags.skip;
	dopts.nskip = flags.nskip;
	if (choose_group(ctx, runs, n, &dopts.group_col) < 0 ||
	    (dopts.group_col && bin_group(o, runs, n, &dopts.group_col) < 0))
		rc = ISC_EXIT_DATA;
	if (rc == ISC_EXIT_OK && o->even_up)
		isc_diff_even_up(runs, n);
	isc_oom_context("comparing %zu runs", n);
	if (rc == ISC_EXIT_OK) {
		int crc = isc_diff_compute(&d, runs, n, &dopts);
		rc = crc == -2 ? ISC_EXIT_USAGE : crc < 0 ? ISC_EXIT_DATA : ISC_EXIT_OK;
	}
	isc_configs_free_diff(configs, dopts.nconfigs);
	if (rc == ISC_EXIT_OK)
		note_inputs(&d);
	if (rc == ISC_EXIT_OK && isc_diff_flags_compute(&flags, &d) < 0) {
		isc_diff_free(&d);
		rc = ISC_EXIT_DATA;
	}
	if (rc != ISC_EXIT_OK) {
		isc_diff_flags_free(&flags);
		return rc;
	}
	if (diff_counters_load(&counters, &d) < 0) {
		isc_diff_free(&d);
		isc_diff_flags_free(&flags);
		return ISC_EXIT_DATA;
	}
	struct diff_causes causes = { 0 };
	if (o->causes && diff_causes_compute(&causes, &d, o->causes_pct, o->load.metrics_re != NULL) < 0) {
		diff_counters_free(&counters);
		isc_diff_free(&d);
		isc_diff_flags_free(&flags);
		return ISC_EXIT_DATA;
	}
	struct diff_out out = { .d = &d, .c = &counters, .design = cl->design, .flags = &flags,
				.causes = o->causes ? &causes : NULL };
	out.nwarn = isc_diff_confounders(&d, (const char *const *)cl->varied, cl->nvaried,
					&out.warn);
	long *order = isc_configs_orders(cl);
	isc_diff_drift(&d, order, &out.warn, &out.nwarn);
	isc_diff_size_warning(&d, &out.warn, &out.nwarn);
	free(order);
	isc_oom_context("writing the comparison of %zu runs", n);
	FILE *fp = out_open(o->format);
	if (!fp)
		rc = ISC_EXIT_DATA;
	else if (o->format == FMT_TEXT) {
		diff_print_text(fp, &out);
		if (o->causes)
			diff_causes_text(fp, &causes, &d);
	} else if (o->format == FMT_CSV)
		diff_print_csv(fp, &out);
	else
		rc = print_json(fp, &out);
	if (fp && out_close(fp) != 0 && rc == ISC_EXIT_OK) {
		isc_err("diff: cannot write output");
		rc = ISC_EXIT_DATA;
	}
	for (size_t i = 0; i < out.nwarn; i++)
		free(out.warn[i]);
	free(out.warn);
	diff_causes_free(&causes);
	diff_counters_free(&counters);
	isc_diff_flags_free(&flags);
	isc_diff_free(&d);
	return rc;
}

int cmd_diff(int argc, char **argv)
{
	struct diff_cli o = { .funcs = ISC_DEFAULT_FUNCS, .causes_pct = 99 };
	struct isc_load_ctx ctx = { 0 };
	struct isc_config_list cl = { 0 };
	struct isc_func *funcs = NULL;
	struct isc_run **runs = NULL;
	char **paths = NULL;
	size_t nfuncs, n = 0;
	char err[200];
	int rc = ISC_EXIT_USAGE;

	if (parse_args(argc, argv, &o) < 0)
		return ISC_EXIT_USAGE;
	if (isc_funcs_parse(o.funcs, &funcs, &nfuncs, err, sizeof(err)) < 0) {
		isc_err("diff: --funcs: %s", err);
		return ISC_EXIT_USAGE;
	}
	for (size_t i = 0; i < nfuncs; i++)
		if (funcs[i].kind == ISC_F_MIN_INDEX || funcs[i].kind == ISC_F_MAX_INDEX) {
			isc_err("diff: --funcs: %s is a row number within one run, not a value to compare "
				"(use it with 'analyze stats')", funcs[i].name);
			free(funcs);
			return ISC_EXIT_USAGE;
		}
	if (isc_configs_parse(argv + optind, (size_t)(argc - optind), &cl) < 0)
		goto cleanup;
	paths = isc_configs_paths(&cl, &n);
	if (cl.n < 2) {
		if (n < 2)
			isc_err("diff: need at least two runs, the reference first (see 'analyze diff "
			       "--help')");
		else
			isc_err("diff: need at least two configurations, got one of %zu runs (A,B is one "
			       "configuration of replicate runs; see 'analyze diff --help')", n);
		goto cleanup;
	}
	if (check_same(paths, (int)n, o.allow_same) < 0 || isc_load_prepare(&ctx, &o.load) < 0)
		goto cleanup;
	if (diff_all_counter_only(argv + optind, n)) {  /* collect --counters runs */
		rc = diff_counters_only(argv + optind, n, (int)o.format);
		goto cleanup;
	}
	runs = isc_xcalloc(n, sizeof(*runs));
	rc = ISC_EXIT_DATA;
	ctx.pack = diff_pack_ok(o.causes);
	if (load_runs(&ctx, paths, n, runs) < 0)
		goto cleanup;
	diff_unpack_others(runs, n, o.load.group_by, o.by_col);
	rc = compare_and_print(&ctx, &o, runs, n, &cl, funcs, nfuncs);
	if (fflush(stdout) != 0 && rc == ISC_EXIT_OK) {
		isc_err("diff: cannot write output");
		rc = ISC_EXIT_DATA;
	}
cleanup:
	for (size_t i = 0; runs && i < n; i++)
		isc_run_free(runs[i]);
	free(runs);
	free(paths);
	isc_configs_free(&cl);
	isc_load_release(&ctx);
	free(funcs);
	free(o.by_col);
	return rc;
}
