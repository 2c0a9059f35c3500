/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "child.h"
#include "text/util.h"

#define MAX_CHILDREN 256

static volatile pid_t running[MAX_CHILDREN];
static volatile sig_atomic_t caught;

void child_signal_all(int sig)
{
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (running[i] > 0)
			kill(running[i], sig);
}

static void on_signal(int sig)
{
	caught = sig;
	child_signal_all(sig == SIGHUP ? SIGTERM : sig);
}

void child_forward_signals(const int *sigs, int n)
{
	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < n; i++)
		sigaction(sigs[i], &sa, NULL);
}

int child_caught_signal(void)
{
	return caught;
}

static void track(pid_t pid)
{
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (running[i] <= 0) {
			running[i] = pid;
			return;
		}
}

void child_done(pid_t pid)
{
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (running[i] == pid)
			running[i] = 0;
}

/* In the child: die with the parent, even if it is already gone (then we were reparented). */
static void follow_parent(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(ISC_EXIT_DATA);
}

static void set_agent_stdio(void)
{
	int null = open("/dev/null", O_RDWR);
	dup2(null, 0);
	dup2(2, 1);   /* its messages go to the controller on the ssh channel's stderr */
	signal(SIGHUP, SIG_IGN);
	signal(SIGINT, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
}

pid_t child_start(const struct child_spec *s)
{
	pid_t parent = getpid();
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		follow_parent(parent);
		if (s->own_group)
			setpgid(0, 0);
		if (s->stderr_fd >= 0)
			dup2(s->stderr_fd, STDERR_FILENO);
		if (s->agent_stdio)
			set_agent_stdio();
		if (s->env_name)
			setenv(s->env_name, s->env_value, 1);
		if (s->keep_fd_env && s->keep_fd >= 0 && fcntl(s->keep_fd, F_SETFD, 0) == 0) {
			char n[16];
			snprintf(n, sizeof(n), "%d", s->keep_fd);
			setenv(s->keep_fd_env, n, 1);
		}
		execv("/proc/self/exe", s->argv);
		isc_err("%s: %s", s->exec_error ? s->exec_error : "cannot run /proc/self/exe", strerror(errno));
		_exit(ISC_EXIT_DATA);
	}
	if (pid < 0) {
		isc_err("fork: %s", strerror(errno));
		return -1;
	}
	track(pid);
	if (caught)
		kill(pid, caught == SIGHUP ? SIGTERM : caught);
	return pid;
}
