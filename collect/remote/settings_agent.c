/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The SUT's side of `collect -H HOST --list-settings` (or --dry-run, --restore):
 * `collect --remote-agent-settings ARGS...` runs `collect ARGS...` as a child, exactly as a
 * local command would run, then prints one JSON answer on stdout (settings_answer.h): the
 * child's exit status, its stdout, and the settings this machine has with their values
 * (isc_settings_record) for the controller's table across hosts. The child's stderr is ours.
 * A lost connection does not stop the child: a --restore goes on to its end.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "remote.h"
#include "settings/settings.h"
#include "settings_answer.h"
#include "text/util.h"

/* The child's stdout into a memory file (no pipe to keep draining while it works); the exit
 * status, or -1 after a message. */
static int run_child(int argc, char **argv, int out)
{
	char **cargv = isc_xcalloc((size_t)argc, sizeof(*cargv));
	cargv[0] = "collect";
	for (int i = 2; i < argc; i++)
		cargv[i - 1] = argv[i];
	pid_t pid = fork();
	if (pid == 0) {
		dup2(out, 1);
		execv("/proc/self/exe", cargv);
		fprintf(stderr, "%s: cannot start collect on the SUT: %s\n", isc_progname(), strerror(errno));
		_exit(127);
	}
	free(cargv);
	if (pid < 0) {
		isc_err("fork: %s", strerror(errno));
		return -1;
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* At most SETTINGS_OUTPUT_MAX bytes of what the child printed; *cut when there was more. */
static char *read_output(int fd, bool *cut)
{
	char *buf = isc_xmalloc(SETTINGS_OUTPUT_MAX + 2);
	ssize_t r, n = 0;
	while (n <= (ssize_t)SETTINGS_OUTPUT_MAX &&
	       (r = pread(fd, buf + n, SETTINGS_OUTPUT_MAX + 1 - (size_t)n, n)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		n += r;
	}
	*cut = n > (ssize_t)SETTINGS_OUTPUT_MAX;
	if (*cut)
		n = SETTINGS_OUTPUT_MAX;
	buf[n] = '\0';
	return buf;
}

/* The options the settings are opened with, as collect's own parser reads them (the child
 * has checked them: a bad one made it fail). */
static const char *opt_value(int argc, char **argv, const char *name)
{
	size_t n = strlen(name);
	const char *v = NULL;
	for (int i = 2; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strncmp(argv[i], name, n) && argv[i][n] == '=')
			v = argv[i] + n + 1;
		else if (!strcmp(argv[i], name) && i + 1 < argc)
			v = argv[++i];
	}
	return v;
}

static cJSON *record(int argc, char **argv)
{
	const char *sysroot = opt_value(argc, argv, "--sysroot"), *cpu = opt_value(argc, argv, "--cpu");
	const char *which = opt_value(argc, argv, "--settings-cpus");
	struct isc_settings *s = isc_settings_open(sysroot, cpu ? atoi(cpu) : 0, !which || strcmp(which, "measured"));
	cJSON *r = isc_settings_record(s);
	isc_settings_close(s);
	return r;
}

int remote_settings_agent_main(int argc, char **argv)
{
	remote_agent_remove_copy();
	signal(SIGHUP, SIG_IGN);   /* the child inherits it: a dropped connection ends no --restore */
	signal(SIGPIPE, SIG_IGN);
	int out = memfd_create("collect-settings-output", MFD_CLOEXEC);
	if (out < 0) {
		isc_err("memfd_create: %s", strerror(errno));
		return ISC_EXIT_DATA;
	}
	fflush(stdout);
	int status = run_child(argc, argv, out);
	if (status < 0) {
		close(out);
		return ISC_EXIT_DATA;
	}
	bool cut;
	char *text = read_output(out, &cut);
	close(out);
	cJSON *a = cJSON_CreateObject();
	cJSON_AddNumberToObject(a, "format", SETTINGS_ANSWER_FORMAT);
	cJSON_AddNumberToObject(a, "status", status);
	cJSON_AddStringToObject(a, "output", text);
	cJSON_AddBoolToObject(a, "output_cut", cut);
	cJSON_AddItemToObject(a, "settings", record(argc, argv));
	char *json = cJSON_PrintUnformatted(a);
	int rc = json && remote_write_all(1, json, strlen(json)) == 0 && remote_write_all(1, "\n", 1) == 0 ? status
													   : ISC_EXIT_DATA;
	free(json);
	free(text);
	cJSON_Delete(a);
	return rc;
}
