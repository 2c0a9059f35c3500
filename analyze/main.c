/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze: turn idlescope runs (and wult raw results) into numbers. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "text/util.h"
#include "idlescope/version.h"

struct subcommand {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct subcommand subcommands[] = {
	{ "stats", cmd_stats, "summary statistics and histograms of datapoints, per idle state" },
	{ "diff", cmd_diff, "compare runs against a reference, with significance tests" },
	{ "counters", cmd_counters, "turbostat-style numbers from counter snapshots" },
	{ "filter", cmd_filter, "a new run with the datapoints (and columns) a filter keeps" },
	{ "export", cmd_export, "one long table (CSV, JSON Lines) of runs, experiments, fleets" },
	{ "cache", cmd_cache, "where the run cache is, how big; --clear empties it" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: analyze <command> [options] RUN...\n\n"
		   "RUN is an idlescope run directory (info.json + datapoints.csv), a wult raw result\n"
		   "directory (info.yml + datapoints.csv) or a datapoints.csv file.\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		fprintf(f, "  %-10s %s\n", subcommands[i].name, subcommands[i].help);
	fprintf(f, "\noptions:\n"
		   "  -h, --help            this text\n"
		   "  -V, --version         print the version\n"
		   "\n'analyze <command> --help' describes a command's options.\n"
		   "Exit status: 0 success, 1 bad data, 2 usage error.\n");
}

int main(int argc, char **argv)
{
	isc_set_progname("analyze");
	if (argc < 2) {
		usage(stderr);
		return ISC_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return ISC_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("analyze (idlescope) %s\n", IDLESCOPE_VERSION);
		return ISC_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].fn(argc - 1, argv + 1);
	isc_err("unknown command '%s' (see 'analyze --help')", argv[1]);
	return ISC_EXIT_USAGE;
}
