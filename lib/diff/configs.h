/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Configurations from the command line of `analyze diff` and `report`: each argument is one
 * configuration: a run, a comma-separated list of replicate runs ("a1,a2,a3"), or an
 * experiment directory (experiment.json, written by `collect --matrix`), which expands to its
 * configurations in design order.
 */
#ifndef IDLESCOPE_CONFIGS_H
#define IDLESCOPE_CONFIGS_H
#include <stddef.h>

#include "diff/diff.h"
#include "run/run.h"

struct isc_config_arg {
	char *name;        /* from experiment.json ("cstates=POLL"); NULL: named after its runs */
	char **paths;
	long *order;       /* [path] its place in the order an experiment's runs were taken; -1
			    * outside an experiment */
	size_t npaths;
};

struct isc_config_list {
	struct isc_config_arg *v;
	size_t n;
	char **varied;     /* the experiment's factor names (what differs on purpose) */
	size_t nvaried;
	long taken;        /* runs listed by the experiments so far (their order continues) */
	char *design;      /* one line on the experiment(s): "2 configurations x 3 runs, order
			    * interleaved (dir)"; NULL without one */
};

/* Expand the arguments. -1 after an error message (empty list item, bad experiment.json). */
int isc_configs_parse(char **args, size_t nargs, struct isc_config_list *out);
/* Every path, in order (pointers into the list; free the array only). */
char **isc_configs_paths(const struct isc_config_list *l, size_t *n);
/* Each path's place in the order its experiment's runs were taken (isc_configs_paths order;
 * several experiments follow each other), or NULL when a run is outside an experiment.
 * Free it. */
long *isc_configs_orders(const struct isc_config_list *l);
/*
 * The configurations of the loaded runs (runs in isc_configs_paths order), named: an
 * experiment's name, a single run's name, else the runs' common name prefix ("aa-1,aa-2" ->
 * "aa"), else the names joined by '+'; equal names get -2, -3. With ref (--ref), that
 * configuration goes first (-1 with a message listing the names when there is none).
 * Free with isc_configs_free_diff.
 */
int isc_configs_for_diff(const struct isc_config_list *l, struct isc_run **runs, const char *ref,
			struct isc_diff_config **out, size_t *n);
void isc_configs_free_diff(struct isc_diff_config *c, size_t n);
void isc_configs_free(struct isc_config_list *l);

#endif
