/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `collect -H HOST[,HOST...] --list-settings` (or --dry-run with --set/--matrix, or --restore):
 * each host (up to --jobs at once) gets this build's collect (the deploy of a run), which runs the command there
 * as a local collect would and answers (settings_agent.c); the answers are checked
 * (settings_answer.c) and shown per host, then side by side (settings_table.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect.h"
#include "settings_remote.h"
#include "text/textsafe.h"
#include "text/util.h"

static char *agent_command(const struct remote_opts *ro, const char *collect)
{
	char *cmd = isc_xasprintf("%s --remote-agent-settings", collect);
	for (int i = 1; i < ro->npass; i++) {
		char *q = sh_quote(ro->pass[i]), *c = isc_xasprintf("%s %s", cmd, q);
		free(q);
		free(cmd);
		cmd = c;
	}
	return cmd;
}

/* The SUT's stderr, line by line with the host in front; the last one is kept as its error. */
static void pass_stderr(const char *host, const char *err)
{
	const char *p = err;
	while (*p) {
		size_t n = strcspn(p, "\n");
		if (n) {
			char *line = isc_xstrndup(p, n), *safe = isc_text_dup(line, ISC_TEXT_LINE);
			fprintf(stderr, "%s: %s: %s\n", isc_progname(), host, safe);
			snprintf(remote_last_error, sizeof(remote_last_error), "%s", safe);
			free(safe);
			free(line);
		}
		p += n + (p[n] == '\n');
	}
}

void settings_failed(struct host_answer *h, int status, const char *why)
{
	h->status = status ? status : ISC_EXIT_DATA;
	snprintf(h->why, sizeof(h->why), "%s", why[0] ? why : "failed (no message)");
}

void settings_ask(const struct remote_opts *ro, struct host_answer *h)
{
	char *collect = NULL, *out = NULL, *err = NULL, why[400];
	remote_last_error[0] = '\0';
	if (remote_deploy(ro, h->host, false, &collect)) {
		settings_failed(h, ISC_EXIT_DATA, remote_last_error);
		return;
	}
	char *body = agent_command(ro, collect), *cmd = remote_shell(ro, body);
	int rc = ssh_run(ro, h->host, cmd, NULL, 0, &out, &err);
	free(cmd);
	free(body);
	free(collect);
	if (rc == 255 || rc == 254) {
		if (rc == 255)
			ssh_explain(err, why, sizeof(why));
		else
			last_line(err, why, sizeof(why));
		remote_err(h->host, "%s", why);
		settings_failed(h, ISC_EXIT_DATA, why);
	} else if (settings_answer_parse(out, strlen(out), &h->a, why, sizeof(why)) < 0) {
		if (err[0] && rc) {   /* the SUT refused before collect answered (its directory, the copy) */
			pass_stderr(h->host, err);
		} else {
			char msg[500];
			snprintf(msg, sizeof(msg), "the SUT's answer is not valid (%s)", why);
			remote_err(h->host, "%s", msg);
		}
		settings_failed(h, ISC_EXIT_DATA, remote_last_error);   /* 95, 96: the shell's refusals, not collect's */
	} else {
		h->answered = true;
		h->raw = out;
		h->rawlen = strlen(out);
		out = NULL;
		pass_stderr(h->host, err);
		h->status = h->a.status;
		if (h->status) {
			snprintf(why, sizeof(why), "exit status %d", h->status);
			settings_failed(h, h->status, remote_last_error[0] ? remote_last_error : why);
		}
	}
	free(out);
	free(err);
}

/* The setting names of --set and --matrix (NAME=...), for the dry run's table. */
static size_t plan_names(const struct remote_opts *ro, char ***names)
{
	size_t n = 0;
	*names = isc_xcalloc((size_t)ro->npass + 1, sizeof(**names));
	for (int i = 1; i < ro->npass && strcmp(ro->pass[i], "--"); i++) {
		const char *a = ro->pass[i], *v = NULL;
		if (!strcmp(a, "--set") || !strcmp(a, "--matrix"))
			v = i + 1 < ro->npass ? ro->pass[++i] : NULL;
		else if (!strncmp(a, "--set=", 6) || !strncmp(a, "--matrix=", 9))
			v = strchr(a, '=') + 1;
		if (v && strchr(v, '='))
			(*names)[n++] = isc_xstrndup(v, strcspn(v, "="));
	}
	return n;
}

static int overall_status(const struct host_answer *h, size_t n)
{
	int st = ISC_EXIT_OK;
	for (size_t i = 0; i < n; i++)
		if (h[i].status)
			st = !st || st == h[i].status ? h[i].status : ISC_EXIT_DATA;
	return st;
}

int remote_settings(const struct remote_opts *ro)
{
	size_t n = ro->nhosts, bad = 0;
	struct host_answer *h = isc_xcalloc(n, sizeof(*h));
	size_t jobs = ro->jobs ? ro->jobs : n;
	bool parallel = jobs > 1 && n > 1;
	for (size_t i = 0; i < n; i++)
		h[i].host = ro->hosts[i];
	if (parallel)
		settings_ask_parallel(ro, h, n, jobs);
	for (size_t i = 0; i < n; i++) {
		if (!parallel && remote_stop)
			settings_failed(&h[i], ISC_EXIT_DATA, "not asked (stopped)");
		else if (!parallel)
			settings_ask(ro, &h[i]);
		settings_host_print(stdout, &h[i]);
		fflush(stdout);
		bad += h[i].status != 0;
	}
	if (n > 1 && strcmp(ro->settings_mode, "restore")) {
		char **names = NULL;
		size_t nn = strcmp(ro->settings_mode, "dry-run") ? 0 : plan_names(ro, &names);
		settings_table_print(stdout, h, n, (const char *const *)names, nn);
		for (size_t i = 0; i < nn; i++)
			free(names[i]);
		free(names);
	}
	if (n > 1)
		settings_summary_print(stdout, h, n);
	fflush(stdout);
	if (bad && n > 1)
		isc_err("%zu of %zu hosts failed", bad, n);
	int st = overall_status(h, n);
	for (size_t i = 0; i < n; i++) {
		settings_answer_free(&h[i].a);
		free(h[i].raw);
	}
	free(h);
	return st;
}
