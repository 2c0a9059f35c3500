/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * This collect again as a child process, with a changed argv: --cpu LIST runs one per CPU,
 * --set/--matrix one per run, the remote agent the SUT's run. The child dies with its parent
 * (SIGTERM: it stops cleanly and keeps its datapoints), and signals can be forwarded to it.
 */
#ifndef COLLECT_CHILD_H
#define COLLECT_CHILD_H
#include <stdbool.h>
#include <sys/types.h>

struct child_spec {
	char **argv;               /* NULL-terminated; argv[0] is the name it runs under */
	const char *env_name;      /* set to env_value in the child, if not NULL */
	const char *env_value;
	bool own_group;            /* in a process group of its own (no ^C from the terminal) */
	int stderr_fd;             /* >= 0: its stderr */
	bool agent_stdio;          /* stdin /dev/null, stdout on stderr, SIGHUP ignored, SIGINT/SIGPIPE default */
	const char *exec_error;    /* what the message says when exec fails; NULL: "cannot run /proc/self/exe" */
	const char *keep_fd_env;   /* if not NULL and keep_fd >= 0: keep_fd stays open across exec */
	int keep_fd;               /* (its close-on-exec flag cleared) and its number is set in keep_fd_env */
};

/* Fork and exec /proc/self/exe. The pid, or -1 after "fork: ...". A child started after
 * child_forward_signals caught a signal gets it at once. */
pid_t child_start(const struct child_spec *s);
/* The child has been reaped: signals no longer go to it. */
void child_done(pid_t pid);
/* From now on, sigs (SIGHUP as SIGTERM) go to every running child; child_caught_signal
 * says the last one caught. */
void child_forward_signals(const int *sigs, int n);
int child_caught_signal(void);
/* Send sig to every running child. */
void child_signal_all(int sig);

#endif
