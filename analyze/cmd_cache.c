/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze cache: where the run cache is and how big; --clear empties it. */
#include <getopt.h>
#include <stdlib.h>

#include "commands.h"
#include "cache/cache.h"
#include "text/util.h"
#include "cli/cli.h"

static const char cache_help[] =
"usage: analyze cache [--info | --clear]\n"
"\n"
"The run cache: each run's parsed datapoints and sorted values, so that analyze stats,\n"
"analyze diff and report read a run again in milliseconds. It lives in\n"
"$XDG_CACHE_HOME/idlescope (default ~/.cache/idlescope), one file per datapoints file,\n"
"checked against the file's device, inode, size and modification time on every use.\n"
"IDLESCOPE_CACHE_MAX bounds its size (bytes, K/M/G suffixes; default 1G; the least\n"
"recently used entries go first); IDLESCOPE_NO_CACHE=1 or --no-cache turns it off.\n"
"\n"
"options:\n";

enum { OPT_INFO = 256, OPT_CLEAR };

static const struct cli_opt cache_opts[] = {
	{ "info", 0, OPT_INFO, NULL, "the directory, its entries and their size (the default)" },
	{ "clear", 0, OPT_CLEAR, NULL, "remove every entry" },
	{ "help", 'h', 'h', NULL, "this text" },
};
#define NOPTS (sizeof(cache_opts) / sizeof(cache_opts[0]))

static const char cache_help_tail[] =
"\n"
"exit status: 0 success, 1 the cache directory could not be read or emptied, 2 usage error\n";

int cmd_cache(int argc, char **argv)
{
	struct option longopts[NOPTS + 1];
	char shorts[2 * NOPTS + 2];
	int c, clear = 0;
	optind = 1;
	opterr = 0;
	if (cli_build(cache_opts, NOPTS, longopts, shorts, sizeof(shorts)) < 0 ||
	    cli_refuse_abbreviations(argc, argv, shorts, longopts, "cache: ", "analyze cache") < 0)
		return ISC_EXIT_USAGE;
	while ((c = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		switch (c) {
		case OPT_INFO: clear = 0; break;
		case OPT_CLEAR: clear = 1; break;
		case 'h': cli_print_help(stdout, cache_help, cache_opts, NOPTS, cache_help_tail); return ISC_EXIT_OK;
		default: isc_bad_option(argv, "cache: ", "analyze cache"); return ISC_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		isc_err("cache: unexpected argument '%s' (see 'analyze cache --help')", argv[optind]);
		return ISC_EXIT_USAGE;
	}
	return (clear ? isc_cache_clear(stdout) : isc_cache_info(stdout)) < 0 ? ISC_EXIT_DATA : ISC_EXIT_OK;
}
