/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze filter: a new run with the rows (and columns) of another that a filter keeps. */
#include <getopt.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "filter_info.h"
#include "filter_paths.h"
#include "table/csv_copy.h"
#include "run/load.h"
#include "text/textsafe.h"
#include "text/util.h"
#include "cli/cli.h"

static const char filter_help[] =
"usage: analyze filter [options] RUN -o OUT\n"
"\n"
"Write a new idlescope run directory OUT (info.json + datapoints.csv) with the datapoints of\n"
"RUN that the filters keep, as wult's 'filter -o'. RUN is an idlescope run directory, a wult\n"
"raw result directory or a datapoints.csv file. 'analyze stats OUT' gives exactly the numbers\n"
"of 'analyze stats --include EXPR RUN': kept rows are copied byte for byte. info.json is RUN's\n"
"metadata with \"filtered_from\" saying what it was filtered from and how.\n"
"\n"
"options:\n";

enum { OPT_REPORTID = 256, OPT_FORCE, OPT_ALLOW_EMPTY };

static const struct cli_opt filter_opts[] = {
	{ "outdir", 'o', 'o', "OUT",
	  "the new run directory (must not exist, see --force); never the\n"
	  "input, a directory holding it or a directory inside it" },
	{ "include", 'i', 'i', "EXPR",
	  "keep only rows where EXPR is true (docs/expressions.md)" },
	{ "exclude", 'x', 'x', "EXPR",
	  "drop rows where EXPR is true" },
	{ "metrics", 'm', 'm', "REGEX",
	  "keep only the columns whose name matches REGEX (POSIX extended),\n"
	  "and ReqCState; default: every column" },
	{ "reportid", 0, OPT_REPORTID, "ID",
	  "the new run's reportid (default: OUT's directory name)" },
	{ "force", 0, OPT_FORCE, NULL,
	  "replace OUT if it is a run directory (holding only run files)" },
	{ "allow-empty", 0, OPT_ALLOW_EMPTY, NULL,
	  "write OUT also when the filters keep no datapoint (without it,\n"
	  "that is an error, exit 1, and nothing is written)" },
	{ "help", 'h', 'h', NULL,
	  "this text" },
};
#define NOPTS (sizeof(filter_opts) / sizeof(filter_opts[0]))

static const char filter_help_tail[] =
"\n"
"counters.csv is not copied (counter snapshots are not rows of datapoints).\n"
"exit status: 0 success, 1 bad data, 2 usage error\n";

static int usage_err(const char *msg, const char *arg)
{
	isc_err("filter: %s%s%s (see 'analyze filter --help')", msg, arg ? ": " : "", arg ? arg : "");
	return -1;
}

static int parse_args(int argc, char **argv, struct filter_opts *o)
{
	struct option longopts[NOPTS + 1];
	char shorts[2 * NOPTS + 2];
	char why[96];
	int c;
	optind = 1;
	opterr = 0;
	if (cli_build(filter_opts, NOPTS, longopts, shorts, sizeof(shorts)) < 0 ||
	    cli_refuse_abbreviations(argc, argv, shorts, longopts, "filter: ", "analyze filter") < 0)
		return -1;
	while ((c = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		switch (c) {
		case 'o': o->out = optarg; break;
		case 'i': o->load.include = optarg; break;
		case 'x': o->load.exclude = optarg; break;
		case 'm': o->metrics_re = optarg; break;
		case OPT_REPORTID:
			if (optarg[0] == '-')
				return usage_err("--reportid: expected an ID, got an option", optarg);
			if (!optarg[0] || isc_name_problem(optarg, why, sizeof(why)))
				return usage_err("--reportid: not a usable name", optarg[0] ? why : "empty");
			o->reportid = optarg;
			break;
		case OPT_FORCE: o->force = true; break;
		case OPT_ALLOW_EMPTY: o->allow_empty = true; break;
		case 'h': cli_print_help(stdout, filter_help, filter_opts, NOPTS, filter_help_tail); exit(ISC_EXIT_OK);
		default: isc_bad_option(argv, "filter: ", "analyze filter"); return -1;
		}
	}
	if (optind >= argc)
		return usage_err("no run given", NULL);
	if (optind + 1 < argc)
		return usage_err("one run at a time; extra argument", argv[optind + 1]);
	if (!o->out)
		return usage_err("no output directory given (-o OUT)", NULL);
	return 0;
}

/* The default reportid: OUT's own name, which must be usable as one. */
static int default_reportid(struct filter_opts *o)
{
	char why[96];
	size_t n = strlen(o->out);
	while (n > 1 && o->out[n - 1] == '/')
		n--;
	const char *slash = memrchr(o->out, '/', n);
	const char *name = slash && n > 1 ? slash + 1 : o->out;
	o->reportid_buf = isc_xstrndup(name, n - (size_t)(name - o->out));
	if (isc_name_problem(o->reportid_buf, why, sizeof(why)) || !strcmp(o->reportid_buf, "/")) {
		isc_err("filter: -o %s: its name cannot be the reportid (%s); give --reportid", o->out,
		       strcmp(o->reportid_buf, "/") ? why : "the root");
		return -1;
	}
	o->reportid = o->reportid_buf;
	return 0;
}

static bool want_filter_col(const char *name, void *arg)
{
	const struct isc_load_ctx *ctx = arg;
	for (int k = 0; k < 2; k++) {
		const struct isc_expr *e = k ? ctx->exclude : ctx->include;
		for (size_t i = 0; e && i < isc_expr_nvars(e); i++)
			if (!strcmp(isc_expr_var(e, i), name))
				return true;
	}
	return false;
}

static bool want_out_col(const char *name, void *arg)
{
	return !strcmp(name, "ReqCState") || regexec(arg, name, 0, NULL, 0) == 0;
}

/* Pass 1: the filter's columns, read and evaluated as analyze stats does. keep: per row. */
static int select_rows(struct isc_load_ctx *ctx, struct isc_run *run, unsigned char **keep)
{
	struct isc_table_opts opts = { .want = want_filter_col, .want_arg = ctx };
	if (isc_run_load_dp(run, &opts) < 0)
		return -1;
	*keep = isc_xmalloc(run->dp->nrows ? run->dp->nrows : 1);
	memset(*keep, 1, run->dp->nrows ? run->dp->nrows : 1);
	if (!ctx->include && !ctx->exclude)
		return 0;
	return isc_table_filter_mask(run->dp, ctx->include, ctx->exclude, *keep);
}

/* No datapoint kept: an empty run only on request (an empty run fails every later step). */
static int check_not_empty(const struct filter_opts *o, const struct isc_table *t,
			   const unsigned char *keep)
{
	for (size_t r = 0; r < t->nrows; r++)
		if (keep[r])
			return 0;
	if (o->allow_empty)
		return 0;
	isc_err("filter: %s: no datapoint left after filtering (0 of %zu kept); nothing written "
	       "(--allow-empty to write the empty run)", t->path, t->nrows);
	return -1;
}

static int check_metrics(const struct filter_opts *o, const struct isc_table *t, regex_t *rx)
{
	for (size_t i = 0; i < t->file_ncols; i++)
		if (regexec(rx, t->file_colnames[i], 0, NULL, 0) == 0)
			return 0;
	isc_err("%s: --metrics: no column matches '%s'", t->path, o->metrics_re);
	return -1;
}

/* Pass 2: copy the kept rows into tmp, then info.json. */
static int write_run(struct filter_opts *o, struct isc_run *run, const unsigned char *keep,
		     regex_t *rx, const char *tmp)
{
	struct isc_csv_copy cp = { .path = run->dp_path, .keep = keep, .nrows = run->dp->nrows,
				  .want = rx ? want_out_col : NULL, .want_arg = rx };
	char *dp = isc_xasprintf("%s/datapoints.csv", tmp);
	FILE *f = fopen(dp, "w");
	int rc = -1;
	if (!f) {
		isc_err("%s: cannot create", dp);
	} else {
		rc = isc_csv_copy_rows(&cp, f, &o->rows_out);
		if (fclose(f) != 0 && rc == 0) {
			isc_err("%s: cannot write", dp);
			rc = -1;
		}
	}
	free(dp);
	o->rows_in = run->dp->nrows;
	return rc < 0 ? -1 : filter_write_info(o, run, tmp);
}

static int filter_run(struct filter_opts *o, struct isc_load_ctx *ctx, regex_t *rx)
{
	struct isc_run *run = NULL;
	unsigned char *keep = NULL;
	char *tmp = NULL;
	struct stat st;
	int rc = ISC_EXIT_DATA;
	if (isc_run_open(o->in, &run) < 0)
		return ISC_EXIT_DATA;
	if (filter_check_paths(o->in, stat(o->in, &st) == 0 && S_ISDIR(st.st_mode), o->out) < 0) {
		rc = ISC_EXIT_USAGE;
		goto cleanup;
	}
	if (select_rows(ctx, run, &keep) < 0 || (rx && check_metrics(o, run->dp, rx) < 0) ||
	    check_not_empty(o, run->dp, keep) < 0)
		goto cleanup;
	if (!(tmp = filter_tmp_dir(o->out, o->force)))
		goto cleanup;
	if (write_run(o, run, keep, rx, tmp) < 0 || filter_commit(tmp, o->out) < 0) {
		filter_discard(tmp);
		goto cleanup;
	}
	isc_info("%s: %zu of %zu datapoints kept", o->out, o->rows_out, o->rows_in);
	rc = ISC_EXIT_OK;
cleanup:
	free(tmp);
	free(keep);
	isc_run_free(run);
	return rc;
}

int cmd_filter(int argc, char **argv)
{
	struct filter_opts o = { 0 };
	struct isc_load_ctx ctx;
	regex_t rx;
	int rc = ISC_EXIT_USAGE;
	if (parse_args(argc, argv, &o) < 0 || (!o.reportid && default_reportid(&o) < 0)) {
		free(o.reportid_buf);
		return ISC_EXIT_USAGE;
	}
	o.in = argv[optind];
	if (o.metrics_re && regcomp(&rx, o.metrics_re, REG_EXTENDED | REG_NOSUB) != 0) {
		isc_err("filter: --metrics: bad regular expression '%s'", o.metrics_re);
		free(o.reportid_buf);
		return ISC_EXIT_USAGE;
	}
	if (isc_load_prepare(&ctx, &o.load) == 0)
		rc = filter_run(&o, &ctx, o.metrics_re ? &rx : NULL);
	isc_load_release(&ctx);
	if (o.metrics_re)
		regfree(&rx);
	free(o.reportid_buf);
	return rc;
}
