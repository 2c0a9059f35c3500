/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Targets: the CPUs one per-CPU setting is written on, given after its value
 * (--set cstates=POLL@cpus=2-5): all (every online CPU), measured, siblings (the measured
 * CPU's core siblings, itself included), cpus=LIST (0-3,6), package=LIST (every online CPU of
 * package N). Resolved from the (sysroot's) topology files; docs/experiments.md.
 */
#ifndef IDLESCOPE_SETTINGS_TARGET_H
#define IDLESCOPE_SETTINGS_TARGET_H
#include <stddef.h>
#include <cjson/cJSON.h>
#include "settings/settings.h"

struct isc_target {
	char *spec;    /* as given after '@'; NULL: the default (--settings-cpus) */
	int *cpus;     /* resolved, ascending; none for a system-wide setting */
	size_t ncpus;
	char **dies;   /* uncore-freq@package=LIST: the package_XX_die_YY directories it writes */
	size_t ndies;
};

/* Resolve spec (NULL: the default) for setting name. 0, or -1 with one line in why: an
 * unknown target, an unknown or offline CPU, a system-wide setting given a target. */
int isc_target_resolve(struct isc_settings *s, const char *name, const char *spec, struct isc_target *t, char *why,
		       size_t len);
void isc_target_free(struct isc_target *t);
/* {"target": "cpus=2-5", "cpus": [2, 3, 4, 5]} ("cpus" only for a per-CPU setting). */
cJSON *isc_target_json(const struct isc_target *t);
/* "2-5,7" (malloc'd). */
char *isc_target_cpus_text(const struct isc_target *t);
/* "0-3,6" -> ascending, without repeats. 0, or -1 with why. */
int isc_parse_cpu_list(const char *text, int **cpus, size_t *n, char *why, size_t len);

/* isc_settings_check, _apply and _read on the target's CPUs (a per-CPU setting). */
int isc_settings_check_on(struct isc_settings *s, const struct isc_target *t, const char *name, const char *value,
			  char *why, size_t len);
int isc_settings_apply_on(struct isc_settings *s, const struct isc_target *t, const char *name, const char *value,
			  char *err, size_t len);
char *isc_settings_read_on(struct isc_settings *s, const struct isc_target *t, const char *name);

/* target_online.c: the CPUs of t (NULL: the default) now, after offline-cpus took some
 * offline or brought some back in this session (malloc'd, ascending). */
int *isc_target_cpus_now(const struct isc_settings *s, const struct isc_target *t, size_t *n);
/* 0, or -1 with one line in why if t names by number (cpus=LIST) a CPU that
 * offline-cpus=offline_value takes offline, or that value takes all of t's CPUs offline. */
int isc_target_offline_clash(struct isc_settings *s, const char *name, const struct isc_target *t,
			     const char *offline_value, char *why, size_t len);

/* uncore.c: the uncore dies of the packages in list ("0", "0-1"), every package with one.
 * 0, or -1 with why. */
int st_uncore_package_dies(struct isc_settings *s, const char *list, char ***dies, size_t *n, char *why, size_t len);

/* target_scope.c: 0, or -1 with one line in why if name is one MSR per core or package and t
 * covers part of one (the online CPUs missing named). */
int st_target_scope_check(struct isc_settings *s, const char *name, const struct isc_target *t, char *why, size_t len);

#endif
