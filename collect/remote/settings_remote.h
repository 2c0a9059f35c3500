/* SPDX-License-Identifier: GPL-2.0-only */
/* collect -H with --list-settings, --dry-run or --restore: what each host answered
 * (settings_remote.c) and how it is shown (settings_table.c). */
#ifndef COLLECT_REMOTE_SETTINGS_REMOTE_H
#define COLLECT_REMOTE_SETTINGS_REMOTE_H
#include <stdbool.h>
#include <stdio.h>

#include "remote.h"
#include "settings_answer.h"

struct host_answer {
	const char *host;
	bool answered;               /* a valid answer came: a is filled */
	struct settings_answer a;
	int status;                  /* this host's exit status */
	char why[1024];              /* a failure, one line (for the summary) */
	char *raw;                   /* the answer's bytes as they came (answered), malloc'd */
	size_t rawlen;
};

/* settings_remote.c: ask one host (deploy, run, check the answer); its messages on stderr. */
void settings_ask(const struct remote_opts *ro, struct host_answer *h);
/* h failed with this exit status (0: 1) and why. */
void settings_failed(struct host_answer *h, int status, const char *why);
/* settings_jobs.c: ask hosts h[0..n) with up to jobs of them at once, each in a child process
 * that sends back what it got; the answers are checked again here. */
void settings_ask_parallel(const struct remote_opts *ro, struct host_answer *h, size_t n, size_t jobs);

/* The settings table across hosts (several hosts, each that answered one column): rows are the
 * settings any host has (only: the names of --set and --matrix when names is not NULL), a value
 * that differs between hosts marks its row with '*', a host without the setting shows '-'; then
 * which settings only some hosts have. Nothing when fewer than two hosts answered. */
void settings_table_print(FILE *out, const struct host_answer *h, size_t n, const char *const *names, size_t nnames);
/* One host's answer: "=== HOST ===" then what its collect printed. */
void settings_host_print(FILE *out, const struct host_answer *h);
/* One line per host: ok, or why it failed. */
void settings_summary_print(FILE *out, const struct host_answer *h, size_t n);
#endif
