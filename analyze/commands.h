/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze's subcommands; each lives in cmd_<name>.c and gets argv from the subcommand on. */
#ifndef ANALYZE_COMMANDS_H
#define ANALYZE_COMMANDS_H

int cmd_stats(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_counters(int argc, char **argv);
int cmd_filter(int argc, char **argv);
int cmd_cache(int argc, char **argv);
int cmd_export(int argc, char **argv);

#endif
