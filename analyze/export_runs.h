/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze export: the runs its arguments stand for (a run, an experiment, a fleet directory). */
#ifndef ANALYZE_EXPORT_RUNS_H
#define ANALYZE_EXPORT_RUNS_H
#include <stddef.h>

struct export_paths {
	char **v;      /* run paths, owned */
	char **host;   /* [run] the subdirectory of a fleet directory it came from, else NULL */
	size_t n;
};

/*
 * Expand each argument: an experiment directory (experiment.json) into its runs in the order
 * they were taken, a fleet directory (neither a run nor an experiment: DIR/<host>/ as
 * collect -H and the Ansible role write) into each subdirectory's run or experiment in name
 * order (the subdirectory's name is the run's host), anything else is one run. -1 after an
 * error message.
 */
int export_expand(char **args, size_t nargs, struct export_paths *out);
void export_paths_free(struct export_paths *p);

#endif
