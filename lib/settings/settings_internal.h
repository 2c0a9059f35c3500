/* SPDX-License-Identifier: GPL-2.0-only */
/* Internals of the settings registry: the table entry, the context, file and MSR helpers. */
#ifndef IDLESCOPE_SETTINGS_INTERNAL_H
#define IDLESCOPE_SETTINGS_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "settings/settings.h"

enum st_scope { ST_SYSTEM, ST_CPU, ST_PCI };

struct st_journal;

struct isc_settings {
	char *sysroot;          /* "" for the real machine */
	int measured_cpu;
	bool all_cpus;
	int *cpus;              /* the CPUs per-CPU settings touch */
	size_t ncpus;
	struct st_journal *j;   /* NULL before isc_settings_begin */
	/* probe.c: while set, st_write, st_write_changed and st_msr_write change nothing and
	 * journal nothing: they only find out whether the write would be taken here, and the
	 * first reason it would not goes to probe_why. */
	bool probing;
	char *probe_why;
	/* target_online.c: the CPUs offline-cpus took offline or brought back in this session
	 * (ascending), which the per-CPU settings written after it skip or add. */
	int *went_off, *came_on;
	size_t nwent_off, ncame_on;
	/* target.c: while a uncore-freq@package= target acts, its dies: the only ones uncore.c sees */
	char **uncore_dies;
	size_t nuncore_dies;
};

/* One setting. cpu is -1 for system and PCI scope. name is the full name as typed
 * (aspm@0000:00:1f.0 for the per-device entry "aspm@"). */
struct st_def {
	const char *name;
	enum st_scope scope;
	const char *syntax;    /* the values in words, for --list-settings and messages */
	/* 0 if this machine has it, else -1 with the reason. */
	int (*have)(struct isc_settings *s, const char *name, char *why, size_t len);
	/* Current value in the syntax it is set with (malloc'd), NULL if unreadable. */
	char *(*read)(struct isc_settings *s, const char *name, int cpu);
	/* The values this machine accepts, for messages. */
	void (*accepts)(struct isc_settings *s, const char *name, char *buf, size_t len);
	/* 0 if value is accepted, else -1 with the reason. */
	int (*check)(struct isc_settings *s, const char *name, const char *value, char *why, size_t len);
	/* Write a checked value (through st_write / st_write_changed / st_msr_write, which journal
	 * first, and nothing else: the registry calls it with s->probing set and the value in
	 * force to learn whether the setting can be set here; it must then reach those functions
	 * for every file or MSR it would write, also those already holding the value). */
	int (*write)(struct isc_settings *s, const char *name, const char *value, int cpu, char *err, size_t len);
};

/* Each file of settings contributes its entries through one of these (NULL-name ended). */
extern const struct st_def st_cpuidle_defs[], st_cpufreq_defs[], st_pci_defs[], st_msr_defs[],
	st_pmqos_defs[];
/* The settings of issue 27 (one file each). */
extern const struct st_def st_resume_latency_defs[], st_offline_defs[], st_uncore_defs[], st_prewake_defs[],
	st_hwp_defs[];

/* cpu_online.c: the CPUs of the machine (cpuN directories), ascending (malloc'd); whether one
 * is online (1), offline (0) or has no online file (-1: it cannot go offline). */
int *st_present_cpus(const struct isc_settings *s, size_t *n);
int st_online_state(const struct isc_settings *s, int cpu);
/* The online CPUs offline-cpus=value would take offline (malloc'd; none for a value it refuses). */
int *st_offline_taken(struct isc_settings *s, const char *value, size_t *n);
/* target_online.c: offline-cpus wrote cpu's online file (on: brought back). */
void st_online_changed(struct isc_settings *s, int cpu, bool on);
/* vendor.c: "GenuineIntel", "AuthenticAMD", "other" or "unknown" (no /proc/cpuinfo). */
const char *st_cpu_vendor(const struct isc_settings *s);
/* The "cpu family" and "model" of /proc/cpuinfo; -1 if it has none. */
int st_cpu_model(const struct isc_settings *s, int *family, int *model);
/* pkg_limits.c: the package C-state limit field of MSR 0xE2 on this CPU model. */
struct st_pkg_limits {
	const char *models;
	uint64_t mask;              /* bits 2:0 or 3:0 */
	const char *names[16];      /* by code; NULL: a code without a name (raw:N) */
};
const struct st_pkg_limits *st_pkg_limits(const struct isc_settings *s);
/* hwp.c: the level value of hwp-min/max/desired asks of cpu (0: auto), or -1 with why. */
int st_hwp_level(struct isc_settings *s, const char *name, int cpu, const char *value, char *why, size_t len);
/* The have() of an Intel MSR setting: an Intel CPU whose MSR msr reads on the measured CPU. */
int st_intel_msr_have(struct isc_settings *s, uint32_t msr, char *why, size_t len);

/* The entry of a setting name (registry.c), NULL if unknown. */
const struct st_def *st_find(const char *name);
/* have(), then whether this machine takes a write of it on s->cpus (probe.c): 0, or -1 with
 * the reason. What --list-settings offers and what --set accepts. */
int st_settable(struct isc_settings *s, const struct st_def *d, const char *name, char *why, size_t len);
/* probe.c, for io.c while probing: whether path / the MSR device path would take a write. */
int st_probe_file(struct isc_settings *s, const char *path);
int st_probe_msr(struct isc_settings *s, const char *path);
/* For a write() that knows a refusal the files do not show (a lock bit): the reason, if it
 * is the first; -1. */
int st_probe_refuse(struct isc_settings *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Whether the probe of the current value found a write refused (reason in s->probe_why). */
bool st_probe_failed(const struct isc_settings *s);

/* "<sysroot><abs path>" (malloc'd). */
char *st_path(const struct isc_settings *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A sysfs-like file's content, trailing whitespace cut (malloc'd); NULL with errno set. */
char *st_read(const char *path);
int st_read_u64(const char *path, uint64_t *v);
bool st_exists(const char *path);
/* Write value to path after journalling old (what restore writes back) under setting. */
int st_write(struct isc_settings *s, const char *setting, const char *path, const char *old,
	     const char *value, char *err, size_t len);
/* The same, from old as just read: nothing when it already holds value; old NULL (the file
 * could not be read) is an error naming setting and path. */
int st_write_changed(struct isc_settings *s, const char *setting, const char *path, const char *old,
		     const char *value, char *err, size_t len);
/* Write value (and a newline) to path, not journalled: restore, and the ASPM probe. */
int st_write_plain(const char *path, const char *value);
/* The accepts and check of an on/off setting: "on, off"; anything else is "not on or off". */
void st_onoff_accepts(struct isc_settings *s, const char *name, char *buf, size_t len);
int st_onoff_check(struct isc_settings *s, const char *name, const char *value, char *why, size_t len);
/* true if word is one of the space-separated words of list. */
bool st_word_in(const char *list, const char *word);

/* MSR a of CPU cpu: /dev/cpu/N/msr, or a regular fixture file with MSR a at byte 8*a. */
int st_msr_read(const struct isc_settings *s, int cpu, uint32_t msr, uint64_t *v);
/* Set the bits of mask to bits (journalled first). */
int st_msr_write(struct isc_settings *s, const char *setting, int cpu, uint32_t msr, uint64_t mask,
		 uint64_t bits, char *err, size_t len);
/* MSR msr through path: the device, or with fixture (a --sysroot tree) a regular file. */
int st_msr_read_raw(const char *path, bool fixture, uint32_t msr, uint64_t *v);
int st_msr_write_raw(const char *path, bool fixture, uint32_t msr, uint64_t v);

/* journal_parse.c: a journal read without acting on it. */
#define ST_JOURNAL_HEAD "idlescope settings journal 1"
struct st_jentry {
	bool msr;
	char *setting, *path, *old;  /* into the parsed text; old: a file's value */
	uint32_t reg;                /* an MSR entry: register, mask, old bits */
	uint64_t mask, oldv;
	size_t line;
};
struct st_jtext {
	long pid;                    /* the collector that wrote it */
	struct st_jentry *e;
	size_t n;
	size_t cut_line;             /* a last line without its newline (left out), or 0 */
};
/* Parse len bytes of text (cut in place) whose paths must lie under root ("" for the real
 * machine). 0, or -1 with "line N: what is wrong: 'the line'" in err. */
int st_journal_parse(char *text, size_t len, const char *root, struct st_jtext *out, char *err, size_t errlen);
void st_journal_text_free(struct st_jtext *t);
/* journal_restore.c: write the entries back (last first); the number that failed. */
int st_journal_replay(const struct st_jtext *t, const char *root, const char *jp);

/* journal.c */
int st_journal_file(struct isc_settings *s, const char *setting, const char *path, const char *old,
		    char *err, size_t len);
int st_journal_msr(struct isc_settings *s, const char *setting, const char *path, uint32_t msr,
		   uint64_t mask, uint64_t old, char *err, size_t len);
void st_journal_close(struct st_journal *j);
const char *st_journal_path(const struct st_journal *j);

#endif
