/* analyze diff: compare runs against the first one and say whether the change is real. */
#include <getopt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "diff_output.h"
#include "idlescope/load.h"
#include "idlescope/util.h"
#include "load_opts.h"
#include "out_format.h"

static const char diff_help[] =
"usage: analyze diff [options] REF RUN...\n"
"\n"
"Compare runs against a reference: the first run. For every metric (numeric column) and\n"
"function, each run's value side by side with its change and percent change against the\n"
"reference, overall and per requested idle state (the ReqCState column); then, for every\n"
"run against the reference, whether the change is real:\n"
"  - Mann-Whitney U test, two-sided: exact distribution when both runs have fewer than 50\n"
"    values and no ties, or with ties when min(n1, n2) * (n1 + n2) <= 5000 (permutation\n"
"    distribution of the midrank sum); else the normal approximation with tie-corrected\n"
"    variance and a continuity correction of 1/2;\n"
"  - two-sample Kolmogorov-Smirnov D and its p-value: exact (lattice paths) when the product\n"
"    of the sizes is at most 10000, else the asymptotic Kolmogorov distribution with\n"
"    Stephens' effective-n correction;\n"
"  - a 95% confidence interval for the difference of medians (run minus reference) by Price\n"
"    and Bonett (2002): each median's standard error from a distribution-free order-statistic\n"
"    interval, combined with the normal quantile. Deterministic (no resampling).\n"
"A change is called significant when the Mann-Whitney p < 0.05 and the CI excludes 0. With\n"
"a million datapoints even tiny changes are significant: read the size of the change too.\n"
"Every metric gets a verdict line, e.g.\n"
"  WakeLatency: median +8.8 us (+11.9%) vs ref, 95% CI [+8.5, +9.1], significant\n"
"  (Mann\u2013Whitney p < 1e-300)\n"
"Runs with a counters.csv also get their counter summaries (analyze counters) compared.\n"
"\n"
"RUN is an idlescope run directory, a wult raw result directory or a datapoints.csv file;\n"
"they can be mixed. A run is named by its reportid, else its directory name; equal names\n"
"get -2, -3, ... appended.\n"
"\n"
"options:\n"
"  -m, --metrics REGEX   only metrics whose name matches REGEX (POSIX extended, unanchored),\n"
"                        default: every numeric column all runs have (the others are left\n"
"                        out with a warning naming the runs that lack them) but the raw\n"
"                        timestamps LTime, TBI, TAI, TIntr, TBI1, TAI1 (name them to compare)\n"
"  -f, --funcs LIST      comma-separated functions, default:\n"
"                        " IS_DEFAULT_FUNCS "\n"
"                        as in 'analyze stats': count, min, max, avg, std, med, N%\n"
"  -i, --include EXPR    keep only rows where EXPR is true (in every run)\n"
"  -x, --exclude EXPR    drop rows where EXPR is true (in every run)\n"
"                        EXPR as in 'analyze stats': \"ReqCState == 'C6' and LDist < 1000\"\n"
"  -b, --by COLUMN       group rows by COLUMN instead of ReqCState (every run must have it)\n"
"  -G, --no-group        no per-group comparison\n"
"  -e, --even-up         truncate every run to the smallest datapoint count (after filters)\n"
"      --allow-same      allow the same run (datapoints file) twice\n"
"  -F, --format FMT      text (default), csv or json\n"
"  -h, --help            this text\n"
"\n"
"Without --by, runs are grouped by ReqCState only when every run has that column and it is\n"
"not empty in all of them.\n"
"\n"
"JSON output: {\"reference\", \"group_by\", \"runs\": [{\"reportid\", \"path\", \"toolname\",\n"
"  \"rows\"}], \"metrics\": {METRIC: {\"unit\", FUNC: {\"values\": [..], \"change\": [..],\n"
"  \"pct\": [..]}, \"tests\": [null, {\"mw_u\", \"mw_p\", \"mw_exact\", \"ks_d\", \"ks_p\",\n"
"  \"ks_exact\", \"med_diff\", \"med_diff_ci95\": [lo, hi], \"significant\"}, ...],\n"
"  \"verdict\": [null, \"...\", ...]}}, \"groups\": {VALUE: {\"rows\": [..], \"metrics\":\n"
"  {same shape}}}, \"counters\": {COLUMN: {\"values\", \"change\", \"pct\"}} or null}\n"
"Index i of every array is runs[i]; i = 0 is the reference. Undefined numbers are null.\n"
"CSV output: kind,by,group,metric,func,run,value,change,pct with kind stat (a function's\n"
"value), test (func mw_u, mw_p, ks_d, ks_p, med_diff, ci95_lo, ci95_hi, significant) or\n"
"counter; by and group are empty for all datapoints, else the grouping column and the\n"
"group's value (which may be empty).\n"
"\n"
"exit status: 0 success, 1 bad data, 2 usage error (fewer than two runs, the same run\n"
"twice without --allow-same, a bad option)\n";

struct diff_cli {
	struct is_load_spec load;
	const char *funcs;
	enum out_format format;
	bool even_up;
	bool allow_same;
};

static int parse_args(int argc, char **argv, struct diff_cli *o)
{
	enum { OPT_ALLOW_SAME = 256 };
	static const struct option longopts[] = {
		LOAD_LONGOPTS,
		{ "even-up", no_argument, NULL, 'e' },
		{ "allow-same", no_argument, NULL, OPT_ALLOW_SAME },
		{ "format", required_argument, NULL, 'F' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, LOAD_SHORTOPTS "eF:h", longopts, NULL)) != -1) {
		if (take_load_opt(c, optarg, &o->load, &o->funcs))
			continue;
		switch (c) {
		case 'e': o->even_up = true; break;
		case OPT_ALLOW_SAME: o->allow_same = true; break;
		case 'F':
			if (parse_out_format("diff", optarg, &o->format) < 0)
				return -1;
			break;
		case 'h': fputs(diff_help, stdout); exit(IS_EXIT_OK);
		default: is_bad_option(argv, "diff: ", "analyze diff"); return -1;
		}
	}
	if (argc - optind < 2) {
		is_err("diff: need at least two runs, the reference first (see 'analyze diff --help')");
		return -1;
	}
	return 0;
}

/* The same datapoints twice compare a run with itself: an error unless --allow-same. */
static int check_same(char **paths, int n, bool allow)
{
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			if (!is_same_run(paths[i], paths[j]))
				continue;
			if (allow) {
				is_warn("'%s' and '%s' are the same run", paths[i], paths[j]);
				continue;
			}
			is_err("diff: '%s' and '%s' are the same run: comparing a run with itself "
			       "shows nothing (--allow-same to do it anyway)", paths[i], paths[j]);
			return -1;
		}
	return 0;
}

/* Runs load two at a time: each file's reader has serial stretches the other can fill. */
struct loader {
	struct is_load_ctx *ctx;
	char **paths;
	struct is_run **runs;
	int *rc;
	size_t n;
	atomic_size_t next;
};

static void *load_some(void *arg)
{
	struct loader *l = arg;
	for (size_t i; (i = atomic_fetch_add(&l->next, 1)) < l->n;)
		l->rc[i] = is_load_run(l->ctx, l->paths[i], &l->runs[i]);
	return NULL;
}

static int load_runs(struct is_load_ctx *ctx, char **paths, size_t n, struct is_run **runs)
{
	struct loader l = { .ctx = ctx, .paths = paths, .runs = runs, .n = n };
	pthread_t tid;
	l.rc = is_xcalloc(n, sizeof(int));
	atomic_init(&l.next, 0);
	int threaded = pthread_create(&tid, NULL, load_some, &l) == 0;
	load_some(&l);
	if (threaded)
		pthread_join(tid, NULL);
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (l.rc[i] < 0) {
			rc = -1;
		} else if (runs[i]->dp->nrows == 0) {
			is_err("%s: no datapoints%s", runs[i]->dp_path,
			       ctx->spec->include || ctx->spec->exclude ? " left after filtering" : "");
			rc = -1;
		}
	}
	free(l.rc);
	if (rc == 0)
		is_runs_uniquify_names(runs, n);
	return rc;
}

/* --by must exist everywhere. The default, ReqCState, applies when every run has the column
 * and at least one has a value in it (a CPU without a cpuidle driver leaves it empty). */
static int choose_group(struct is_load_ctx *ctx, struct is_run **runs, size_t n, const char **col)
{
	const char *dflt = "ReqCState";
	size_t have = 0, with_values = 0, lacking = 0;
	*col = NULL;
	if (ctx->spec->no_group)
		return 0;
	if (ctx->spec->group_by) {
		for (size_t i = 0; i < n; i++)
			if (is_load_group_col(ctx, runs[i], col) < 0)
				return -1;
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		if (!is_table_col(runs[i]->dp, dflt)) {
			lacking = lacking ? lacking : i + 1;
			continue;
		}
		have++;
		with_values += is_table_col_has_value(runs[i]->dp, dflt);
	}
	if (have && lacking == 1)
		is_warn("the reference %s has no %s column: no per-%s comparison", runs[0]->name,
			dflt, dflt);
	else if (have && lacking)
		is_warn("%s has no %s column: no per-%s comparison", runs[lacking - 1]->name, dflt, dflt);
	else if (with_values)
		*col = dflt;
	return 0;
}

static int print_json(FILE *out, const struct is_diff *d, const struct diff_counters *c)
{
	cJSON *root = is_diff_to_json(d);
	cJSON_AddItemToObject(root, "counters", diff_counters_json(c, d->nruns));
	char *s = cJSON_PrintBuffered(root, 1 << 16, 1);
	cJSON_Delete(root);
	if (!s) {
		is_err("diff: cannot format JSON output");
		return IS_EXIT_DATA;
	}
	fputs(s, out);
	fputc('\n', out);
	free(s);
	return IS_EXIT_OK;
}

static int compare_and_print(struct is_load_ctx *ctx, const struct diff_cli *o,
			     struct is_run **runs, size_t n, const struct is_func *funcs,
			     size_t nfuncs)
{
	struct is_diff_opts dopts = { .funcs = funcs, .nfuncs = nfuncs,
				      .metrics_re = o->load.metrics_re };
	struct diff_counters counters;
	struct is_diff d;
	int rc = IS_EXIT_OK;
	if (choose_group(ctx, runs, n, &dopts.group_col) < 0)
		return IS_EXIT_DATA;
	if (o->even_up)
		is_diff_even_up(runs, n);
	if (is_diff_compute(&d, runs, n, &dopts) < 0)
		return IS_EXIT_DATA;
	if (diff_counters_load(&counters, runs, n) < 0) {
		is_diff_free(&d);
		return IS_EXIT_DATA;
	}
	FILE *out = out_open(o->format);
	if (!out)
		rc = IS_EXIT_DATA;
	else if (o->format == FMT_TEXT)
		diff_print_text(out, &d, &counters);
	else if (o->format == FMT_CSV)
		diff_print_csv(out, &d, &counters);
	else
		rc = print_json(out, &d, &counters);
	if (out && out_close(out) != 0 && rc == IS_EXIT_OK) {
		is_err("diff: cannot write output");
		rc = IS_EXIT_DATA;
	}
	diff_counters_free(&counters);
	is_diff_free(&d);
	return rc;
}

int cmd_diff(int argc, char **argv)
{
	struct diff_cli o = { .funcs = IS_DEFAULT_FUNCS };
	struct is_load_ctx ctx = { 0 };
	struct is_func *funcs = NULL;
	struct is_run **runs = NULL;
	size_t nfuncs, n = 0;
	char err[200];
	int rc = IS_EXIT_USAGE;

	if (parse_args(argc, argv, &o) < 0)
		return IS_EXIT_USAGE;
	if (is_funcs_parse(o.funcs, &funcs, &nfuncs, err, sizeof(err)) < 0) {
		is_err("diff: --funcs: %s", err);
		return IS_EXIT_USAGE;
	}
	n = (size_t)(argc - optind);
	if (check_same(argv + optind, (int)n, o.allow_same) < 0 || is_load_prepare(&ctx, &o.load) < 0)
		goto cleanup;
	if (diff_all_counter_only(argv + optind, n)) {  /* collect --counters runs */
		rc = diff_counters_only(argv + optind, n, (int)o.format);
		goto cleanup;
	}
	runs = is_xcalloc(n, sizeof(*runs));
	rc = IS_EXIT_DATA;
	if (load_runs(&ctx, argv + optind, n, runs) < 0)
		goto cleanup;
	rc = compare_and_print(&ctx, &o, runs, n, funcs, nfuncs);
	if (fflush(stdout) != 0 && rc == IS_EXIT_OK) {
		is_err("diff: cannot write output");
		rc = IS_EXIT_DATA;
	}
cleanup:
	for (size_t i = 0; runs && i < n; i++)
		is_run_free(runs[i]);
	free(runs);
	is_load_release(&ctx);
	free(funcs);
	return rc;
}
