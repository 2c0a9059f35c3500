/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze counters: turbostat-style numbers from a run's counter snapshots. */
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "counters/derive/counters_summary.h"
#include "counters_output.h"
#include "run/run.h"
#include "text/util.h"
#include "cli/cli.h"

#define MAX_METRICS 32

static const char counters_help[] =
"usage: analyze counters RUN [--format text|csv|json] [--show COLS] [--hide COLS]\n"
"                            [--Summary] [--Joules] [--whole] [--metric NAME=EXPR]...\n\n"
"Per interval between two counter snapshots (RUN/counters.csv, written by collect), a\n"
"system summary row and a row per CPU, with turbostat's column names:\n"
"  Avg_MHz   APERF delta / interval           Busy%     100 * MPERF delta / TSC delta\n"
"  Bzy_MHz   base MHz * APERF / MPERF         TSC_MHz   TSC delta / interval\n"
"  IPC       instructions / unhalted cycles   IRQ NMI SMI  interrupt counts\n"
"  STATE, STATE%, STATE+, STATE-   cpuidle usage, residency %, below and above counts\n"
"  CPU%c1..c7  core C-state residency (c1: the remainder TSC-MPERF-c3-c6-c7 without a\n"
"            C1 counter)                      Pkg%pc2..pc10  package C-state residency\n"
"  Halted%   100 * (1 - unhalted reference cycles / TSC), else from MPERF\n"
"  OS_Busy%  100 * non-idle / all /proc/stat time\n"
"  PkgWatt CorWatt RAMWatt   RAPL power (Pkg_J Cor_J RAM_J with --Joules)\n"
"and per two-thread core McCalpin's split HT_Idle%, HT0_Only%, HT1_Only%, HT_Both%.\n"
"Only the columns this run's counters can give appear; the others are listed with what\n"
"they need. Percentages outside 0..100 (read skew) are clamped, with a warning.\n"
"The summary row averages percentages, MHz and IPC over the rows that have them and sums\n"
"counts, Watts and Joules: package-scope counters over the packages' designated CPUs, and\n"
"system-scope ones (read on each package's designated CPU) into the machine's total.\n\n"
"options:\n";

/* long only, but for -S, -J, -w and -h: the values are getopt's codes, not short letters */
static const struct cli_opt counters_opts[] = {
	{ "format", 0, 'f', "F",
	  "text (default), csv or json. JSON:" CLI_BR
	  ".intervals[i].summary," CLI_BR
	  ".intervals[i].cpus[j] (keys: CPU, Core, Package and the columns)," CLI_BR
	  ".intervals[i].cores[j] (Package, Core, the HT_*% values)" },
	{ "show", 0, 's', "COLS", "only these columns (comma-separated)" },
	{ "hide", 0, 'H', "COLS", "all but these columns" },
	{ "Summary", 'S', 'S', NULL, "only the summary row of each interval" },
	{ "Joules", 'J', 'J', NULL, "energy in Joules per interval instead of Watts" },
	{ "whole", 'w', 'w', NULL,
	  "one interval from the first to the last snapshot (the whole run), instead of one per\n"
	  "pair of snapshots" },
	{ "metric", 0, 'm', "NAME=EXPR",
	  "an extra column: EXPR over the interval's raw counter deltas (column names of\n"
	  "counters.csv, and interval_s), e.g." CLI_BR "--metric 'MyIPC=INST_RETIRED/CPU_CLK_UNHALTED'" },
	{ "help", 'h', 'h', NULL, "this text" },
};
#define NOPTS (sizeof(counters_opts) / sizeof(counters_opts[0]))

static const char counters_help_tail[] =
"\n"
"Exit status: 0, 1 on bad data (no counters.csv, fewer than two snapshots), 2 on usage errors.\n"
"Formulas and references: docs/counters.md.\n";

static int parse(int argc, char **argv, struct cnt_print_opts *po, const char **metrics, size_t *nm,
		 const char **run, bool *whole)
{
	struct option long_opts[NOPTS + 1];
	char shorts[2 * NOPTS + 2];
	int c;
	if (cli_start(counters_opts, NOPTS, long_opts, shorts, sizeof(shorts), argc, argv, "counters: ", "analyze counters") < 0)
		return 2;
	while ((c = getopt_long(argc, argv, shorts, long_opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (parse_out_format("counters", optarg, &po->format) < 0)
				return 2;
			break;
		case 's': po->show = optarg; break;
		case 'H': po->hide = optarg; break;
		case 'S': po->summary_only = true; break;
		case 'J': po->joules = true; break;
		case 'w': *whole = true; break;
		case 'm':
			if (*nm == MAX_METRICS) {
				isc_err("--metric: at most %d", MAX_METRICS);
				return 2;
			}
			metrics[(*nm)++] = optarg;
			break;
		case 'h':
			cli_print_help(stdout, counters_help, counters_opts, NOPTS, counters_help_tail);
			return -1;
		default:
			isc_bad_option(argv, "counters: ", "analyze counters");
			return 2;
		}
	}
	if (optind != argc - 1) {
		isc_err(optind == argc ? "counters: give one RUN directory" : "counters: give one RUN directory, not several");
		return 2;
	}
	*run = argv[optind];
	return 0;
}

int cmd_counters(int argc, char **argv)
{
	struct cnt_print_opts po = { .format = FMT_TEXT, .measured_cpu = -1 };
	const char *mspecs[MAX_METRICS], *run = NULL;
	size_t nm = 0;
	bool whole = false;
	int rc = parse(argc, argv, &po, mspecs, &nm, &run, &whole);
	if (rc)
		return rc < 0 ? ISC_EXIT_OK : rc;
	struct cnt_data *d;
	rc = cnt_data_load(run, &d);
	if (rc == 0)
		isc_err("%s: no counters.csv (collect writes it with --counters or alongside a latency run)", run);
	if (rc <= 0)
		return ISC_EXIT_DATA;
	isc_info_warn_incomplete(d->info, run);
	po.measured_cpu = isc_counters_measured_cpu(run);
	struct cnt_metric metrics[MAX_METRICS];
	size_t ok = 0;
	int status = ISC_EXIT_OK;
	for (; ok < nm; ok++) {
		char err[1024];
		if (cnt_metric_parse(mspecs[ok], d, &metrics[ok], err, sizeof(err))) {
			isc_err("--metric %s", err);
			status = ISC_EXIT_USAGE;
			goto out;
		}
	}
	struct cnt_derive_opts o = { .joules = po.joules, .nmetrics = nm, .metrics = metrics,
				     .whole_run = whole };
	struct cnt_result r;
	isc_oom_context("computing the counters of %s", d->csv_path);
	if (cnt_derive(d, &o, &r)) {
		status = ISC_EXIT_DATA;
		goto out;
	}
	FILE *out = out_open(po.format);
	status = out ? cnt_print(out, d, &r, &po) : ISC_EXIT_DATA;
	if (out && out_close(out) != 0 && status == ISC_EXIT_OK) {
		isc_err("writing the output failed");
		status = ISC_EXIT_DATA;
	}
	cnt_result_free(&r);
out:
	for (size_t i = 0; i < ok; i++)
		cnt_metric_free(&metrics[i]);
	cnt_data_free(d);
	return status;
}
