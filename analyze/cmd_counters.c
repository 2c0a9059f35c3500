/* analyze counters: turbostat-style numbers from a run's counter snapshots. */
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "counters_output.h"
#include "run/run.h"
#include "text/util.h"

#define MAX_METRICS 32

static void usage(FILE *f)
{
	fprintf(f,
"usage: analyze counters RUN [--format text|csv|json] [--show COLS] [--hide COLS]\n"
"                            [--Summary] [--Joules] [--whole] [--metric NAME=EXPR]...\n\n"
"Per interval between two counter snapshots (RUN/counters.csv, written by collect), a\n"
"system summary row and a row per CPU, with turbostat's column names:\n"
"  Avg_MHz   APERF delta / interval           Busy%%     100 * MPERF delta / TSC delta\n"
"  Bzy_MHz   base MHz * APERF / MPERF         TSC_MHz   TSC delta / interval\n"
"  IPC       instructions / unhalted cycles   IRQ NMI SMI  interrupt counts\n"
"  STATE, STATE%%, STATE+, STATE-   cpuidle usage, residency %%, below and above counts\n"
"  CPU%%c1..c7  core C-state residency (c1: the remainder TSC-MPERF-c3-c6-c7 without a\n"
"            C1 counter)                      Pkg%%pc2..pc10  package C-state residency\n"
"  Halted%%   100 * (1 - unhalted reference cycles / TSC), else from MPERF\n"
"  OS_Busy%%  100 * non-idle / all /proc/stat time\n"
"  PkgWatt CorWatt RAMWatt   RAPL power (Pkg_J Cor_J RAM_J with --Joules)\n"
"and per two-thread core McCalpin's split HT_Idle%%, HT0_Only%%, HT1_Only%%, HT_Both%%.\n"
"Only the columns this run's counters can give appear; the others are listed with what\n"
"they need. Percentages outside 0..100 (read skew) are clamped, with a warning.\n"
"The summary row averages percentages, MHz and IPC over the rows that have them and sums\n"
"counts, Watts and Joules: package-scope counters over the packages' designated CPUs, and\n"
"system-scope ones (read on each package's designated CPU) into the machine's total.\n\n"
"options:\n"
"  --format F          text (default), csv or json. JSON: .intervals[i].summary,\n"
"                      .intervals[i].cpus[j] (keys: CPU, Core, Package and the columns),\n"
"                      .intervals[i].cores[j] (Package, Core, the HT_*%% values)\n"
"  --show COLS         only these columns (comma-separated)\n"
"  --hide COLS         all but these columns\n"
"  -S, --Summary       only the summary row of each interval\n"
"  -J, --Joules        energy in Joules per interval instead of Watts\n"
"  -w, --whole         one interval from the first to the last snapshot (the whole run),\n"
"                      instead of one per pair of snapshots\n"
"  --metric NAME=EXPR  an extra column: EXPR over the interval's raw counter deltas (column\n"
"                      names of counters.csv, and interval_s), e.g.\n"
"                      --metric 'MyIPC=INST_RETIRED/CPU_CLK_UNHALTED'\n"
"  -h, --help          this text\n\n"
"Exit status: 0, 1 on bad data (no counters.csv, fewer than two snapshots), 2 on usage errors.\n"
"Formulas and references: docs/counters.md.\n");
}

static const struct option long_opts[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "show", required_argument, NULL, 's' },
	{ "hide", required_argument, NULL, 'H' },
	{ "Summary", no_argument, NULL, 'S' },
	{ "Joules", no_argument, NULL, 'J' },
	{ "whole", no_argument, NULL, 'w' },
	{ "metric", required_argument, NULL, 'm' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse(int argc, char **argv, struct cnt_print_opts *po, const char **metrics, size_t *nm,
		 const char **run, bool *whole)
{
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "SJwh", long_opts, NULL)) != -1) {
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
				is_err("--metric: at most %d", MAX_METRICS);
				return 2;
			}
			metrics[(*nm)++] = optarg;
			break;
		case 'h':
			usage(stdout);
			return -1;
		default:
			is_bad_option(argv, "counters: ", "analyze counters");
			return 2;
		}
	}
	if (optind != argc - 1) {
		is_err(optind == argc ? "counters: give one RUN directory" : "counters: give one RUN directory, not several");
		return 2;
	}
	*run = argv[optind];
	return 0;
}

int cmd_counters(int argc, char **argv)
{
	struct cnt_print_opts po = { .format = FMT_TEXT };
	const char *mspecs[MAX_METRICS], *run = NULL;
	size_t nm = 0;
	bool whole = false;
	int rc = parse(argc, argv, &po, mspecs, &nm, &run, &whole);
	if (rc)
		return rc < 0 ? IS_EXIT_OK : rc;
	struct cnt_data *d;
	rc = cnt_data_load(run, &d);
	if (rc == 0)
		is_err("%s: no counters.csv (collect writes it with --counters or alongside a latency run)", run);
	if (rc <= 0)
		return IS_EXIT_DATA;
	is_info_warn_incomplete(d->info, run);
	struct cnt_metric metrics[MAX_METRICS];
	size_t ok = 0;
	int status = IS_EXIT_OK;
	for (; ok < nm; ok++) {
		char err[1024];
		if (cnt_metric_parse(mspecs[ok], d, &metrics[ok], err, sizeof(err))) {
			is_err("--metric %s", err);
			status = IS_EXIT_USAGE;
			goto out;
		}
	}
	struct cnt_derive_opts o = { .joules = po.joules, .nmetrics = nm, .metrics = metrics,
				     .whole_run = whole };
	struct cnt_result r;
	is_oom_context("computing the counters of %s", d->csv_path);
	if (cnt_derive(d, &o, &r)) {
		status = IS_EXIT_DATA;
		goto out;
	}
	FILE *out = out_open(po.format);
	status = out ? cnt_print(out, d, &r, &po) : IS_EXIT_DATA;
	if (out && out_close(out) != 0 && status == IS_EXIT_OK) {
		is_err("writing the output failed");
		status = IS_EXIT_DATA;
	}
	cnt_result_free(&r);
out:
	for (size_t i = 0; i < ok; i++)
		cnt_metric_free(&metrics[i]);
	cnt_data_free(d);
	return status;
}
