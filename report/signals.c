/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Interrupted (SIGINT, SIGTERM, SIGHUP, SIGPIPE on a closed output) or out of memory: stop the
 * gnuplot children and remove the unfinished report before dying of the signal (or exiting with
 * status 1). Only async-signal-safe calls in the handler: kill, fork, execve of rm, waitpid,
 * then the default action.
 */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "text/util.h"
#include "report.h"

static const char *volatile doomed_dir;
static const pid_t *volatile children;
static volatile int nchildren;

void signals_watch_children(const pid_t *pids, int n)
{
	children = pids;
	nchildren = n;
}

/* Also run when memory runs out (isc_oom_hook), before exit status 1. */
static void stop_and_remove(void)
{
	const char *dir = doomed_dir;
	for (int i = 0; children && i < nchildren; i++)
		kill(children[i], SIGTERM);
	if (dir) {
		pid_t pid = fork();
		if (pid == 0) {
			char *const argv[] = { "rm", "-rf", "--one-file-system", "--", (char *)dir, NULL };
			char *const envp[] = { NULL };
			execve("/bin/rm", argv, envp);
			_exit(127);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
}

static void on_signal(int sig)
{
	stop_and_remove();
	signal(sig, SIG_DFL);
	raise(sig);
}

void signals_remove_on_exit(const char *dir)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	struct sigaction sa;
	doomed_dir = dir;
	isc_oom_hook(dir ? stop_and_remove : NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = dir ? on_signal : SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}
