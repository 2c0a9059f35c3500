/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The settings registry: the machine settings a C-state study varies (allowed idle states,
 * idle and cpufreq governors, frequency limits, turbo, ASPM, EPP/EPB, PM QoS, Intel idle MSRs),
 * each read, recorded, validated, written and restored through one table (lib/settings/).
 *
 * Every write is preceded by a journal entry holding the old value (one journal per machine,
 * beside the collector's lock files), so that `collect --restore` can put a machine back after
 * a SIGKILL or a crash. docs/experiments.md describes the settings; docs/format.md the records.
 */
#ifndef IDLESCOPE_SETTINGS_H
#define IDLESCOPE_SETTINGS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <cjson/cJSON.h>

struct isc_settings;

/* sysroot: NULL or "" for the real machine, else a fixture tree (/sys, /dev, /run under it).
 * all_cpus: per-CPU settings apply to every online CPU (else only measured_cpu). */
struct isc_settings *isc_settings_open(const char *sysroot, int measured_cpu, bool all_cpus);
void isc_settings_close(struct isc_settings *s);

/* {"name": "value", ...}: every setting this machine has, in the syntax it is set with. */
cJSON *isc_settings_record(struct isc_settings *s);
/* The current value of one setting (malloc'd), or NULL if the machine lacks it. */
char *isc_settings_read(struct isc_settings *s, const char *name);

/* Print every setting: present ones with value and accepted values, then the missing ones
 * with the reason (collect --list-settings). */
void isc_settings_list(struct isc_settings *s, FILE *out);

/* Check NAME=VALUE without writing: unknown name, a setting this machine lacks, a value it
 * does not accept. Returns 0, or -1 with one line (naming the setting and what is accepted)
 * in why. */
int isc_settings_check(struct isc_settings *s, const char *name, const char *value, char *why, size_t len);
/* Settings that the collector holds itself rather than writing (pm-qos: an open fd). */
bool isc_settings_is_held(const char *name);

/* The journal. begin: create it (refused if one is pending); every write after that journals
 * the old value first. Returns 0 or -1 with the reason in err. */
int isc_settings_begin(struct isc_settings *s, char *err, size_t len);
/* Write one (checked) setting. Returns 0 or -1 with the reason in err. */
int isc_settings_apply(struct isc_settings *s, const char *name, const char *value, char *err, size_t len);
/* Put back every journalled value (in reverse order), then remove the journal if all went
 * back. Each failure is reported on stderr as one line naming the setting, the file, what it
 * holds and what it held. Returns the number of failures (0: all restored), -1 if the journal
 * cannot be read. nrestored gets the number of entries written back. */
int isc_settings_restore(struct isc_settings *s, size_t *nrestored);

/* The open journal (after isc_settings_begin), -1 before: a run started with it open holds its
 * lock, so that collect --restore refuses while that run lives on (docs/experiments.md). */
int isc_settings_journal_fd(const struct isc_settings *s);

enum isc_journal_state {
	ISC_JOURNAL_NONE,       /* no journal: nothing pending */
	ISC_JOURNAL_STALE,      /* left by a collector that is gone: run collect --restore */
	ISC_JOURNAL_ACTIVE,     /* held by a live collector (pid) */
	ISC_JOURNAL_UNREADABLE, /* root's journal, seen by a user who cannot open it */
};
/* Whether a journal is pending; *pid = the collector that wrote it. path gets its file name. */
enum isc_journal_state isc_settings_journal_state(const char *sysroot, long *pid, char *path, size_t len);

#endif
