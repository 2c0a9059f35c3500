/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * collect: the modes and which one a command line asks for. The first whose selector
 * matches runs with the whole argv and its result is the exit status.
 */
#include <stdbool.h>
#include <string.h>

#include "collect.h"
#include "counters_hook.h"
#include "remote.h"
#include "text/util.h"

struct mode {
	const char *name;
	bool (*selected)(int argc, char **argv);   /* NULL: always (the default, last) */
	int (*run)(int argc, char **argv);
	const char *help;
};

static bool agent_wanted(int argc, char **argv)
{
	return argc > 1 && (!strcmp(argv[1], "--remote-agent") || !strcmp(argv[1], "--remote-agent-send"));
}

static bool settings_agent_wanted(int argc, char **argv)
{
	return argc > 1 && !strcmp(argv[1], "--remote-agent-settings");
}

static bool counters_wanted(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--counters"))
			return true;
	return false;
}

static const struct mode modes[] = {
	{ "remote-agent", agent_wanted, remote_agent_main, "the SUT's side of collect -H, started over SSH" },
	{ "remote-settings-agent", settings_agent_wanted, remote_settings_agent_main,
	  "the SUT's side of collect -H with --list-settings, --dry-run or --restore" },
	{ "remote", remote_wanted, remote_main, "-H HOST[,...]: any mode below on other machines over SSH" },
	{ "counters", counters_wanted, counters_main, "--counters: turbostat-style counter snapshots" },
	{ "measure", NULL, measure_main,
	  "wake-up latency of a CPU; with --set/--matrix an experiment, and --restore, --list-settings" },
};

int main(int argc, char **argv)
{
	isc_set_progname(argv[0]);
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!modes[i].selected || modes[i].selected(argc, argv))
			return modes[i].run(argc, argv);
	return ISC_EXIT_USAGE;
}
