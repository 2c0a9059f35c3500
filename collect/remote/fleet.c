/* SPDX-License-Identifier: GPL-2.0-only */
/* Several hosts at once: one child process per host (at most --jobs at a time), each run into
 * DIR/<host>/; a failing host does not stop the others. One summary line per host at the end. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "collect.h"
#include "remote.h"
#include "text/util.h"

struct slot {
	pid_t pid;
	int fd;              /* the child's messages come here (-1: read to the end) */
	int status;
	bool started, done, got_result;
	uint64_t rows;
	struct host_result res;
};

static pid_t start_host(const struct remote_opts *ro, const char *dir, size_t i, struct slot *s)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		struct fleet_msg m = { .kind = 'R' };
		setpgid(0, 0);   /* ^C reaches the parent, which passes it on once */
		close(p[0]);
		remote_progress_fd = p[1];
		char *out = isc_xasprintf("%s/%s", dir, ro->hosts[i]);
		int st = ro->fetch ? remote_fetch_host(ro, ro->hosts[i], out, &m.res)
				   : remote_run_host(ro, ro->hosts[i], out, false, &m.res);
		m.rows = m.res.datapoints;
		(void)!write(p[1], &m, sizeof(m));
		_exit(st);
	}
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return -1;
	}
	s->pid = pid;
	s->fd = p[0];
	s->started = true;
	return pid;
}

/* Messages from a child: progress rows, then its result; -1 at the end of its pipe. */
static int read_msgs(struct slot *s)
{
	struct fleet_msg m;
	ssize_t r = read(s->fd, &m, sizeof(m));
	if (r < 0 && errno == EINTR)
		return 0;
	if (r != (ssize_t)sizeof(m)) {
		close(s->fd);
		s->fd = -1;
		return -1;
	}
	s->rows = m.rows;
	if (m.kind == 'R') {
		s->res = m.res;
		s->res.status[sizeof(s->res.status) - 1] = '\0';
		s->got_result = true;
	}
	return 0;
}

static void reap(struct slot *slots, size_t n, pid_t pid, int st)
{
	for (size_t i = 0; i < n; i++) {
		if (slots[i].pid != pid)
			continue;
		while (slots[i].fd >= 0)   /* the rest of its messages: the writer is gone, no blocking */
			read_msgs(&slots[i]);
		slots[i].done = true;
		slots[i].status = WIFEXITED(st) ? WEXITSTATUS(st) : ISC_EXIT_DATA;
		if (!slots[i].got_result)
			snprintf(slots[i].res.status, sizeof(slots[i].res.status), "failed (no result)");
	}
}

static void pass_stop(struct slot *slots, size_t n, int *passed)
{
	for (; *passed < remote_stop; (*passed)++)
		for (size_t i = 0; i < n; i++)
			if (slots[i].pid > 0 && !slots[i].done)
				kill(slots[i].pid, SIGINT);
}

/* One line for the whole fleet, rewritten in place: each host's rows received and state. */
static void show_progress(const struct remote_opts *ro, const struct slot *slots, size_t n, bool last)
{
	static char shown[4096];
	char line[4096];
	size_t len = (size_t)snprintf(line, sizeof(line), "\r%s:", isc_progname());
	for (size_t i = 0; i < n && len < sizeof(line); i++) {
		const struct slot *s = &slots[i];
		const char *state = !s->started ? (s->done ? "not started" : "waiting")
				    : !s->done ? "running" : s->status ? "failed" : "ok";
		len += (size_t)snprintf(line + len, sizeof(line) - len, "%s %s %llu %s %s", i ? " |" : "", ro->hosts[i],
					(unsigned long long)s->rows, ro->counters ? "counter rows" : "rows", state);
	}
	if (!last && !strcmp(line, shown))
		return;   /* rewritten when something changed */
	memcpy(shown, line, sizeof(shown));
	fprintf(stderr, "%s\033[K%s", line, last ? "\n" : "");
	fflush(stderr);
}

/* Wait up to 250 ms for messages or a child's end; reap what ended. */
static void wait_some(struct slot *slots, size_t n, size_t *running)
{
	struct pollfd *pf = isc_xcalloc(n, sizeof(*pf));
	for (size_t i = 0; i < n; i++)
		pf[i] = (struct pollfd){ slots[i].started && !slots[i].done ? slots[i].fd : -1, POLLIN, 0 };
	if (poll(pf, n, 250) > 0)
		for (size_t i = 0; i < n; i++)
			if (pf[i].revents)
				read_msgs(&slots[i]);
	free(pf);
	int st;
	pid_t pid;
	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		reap(slots, n, pid, st);
		(*running)--;
	}
}

int remote_fleet(const struct remote_opts *ro)
{
	char date[32], *dir;
	isc_name_stamp(date, sizeof(date));
	dir = ro->outdir ? isc_xstrdup(ro->outdir) : isc_xasprintf("fleet-%s", date);
	if (!ro->fetch && mkdir(dir, 0755) < 0 && errno != EEXIST) {
		isc_err("%s: %s", dir, strerror(errno));
		free(dir);
		return ISC_EXIT_DATA;
	}
	size_t n = ro->nhosts, next = 0, running = 0, jobs = ro->jobs ? ro->jobs : n;
	struct slot *slots = isc_xcalloc(n, sizeof(*slots));
	int passed = 0;
	bool progress = ro->progress > 0 || (ro->progress < 0 && !ro->quiet && isatty(STDERR_FILENO) &&
					     !getenv("IDLESCOPE_NO_PROGRESS"));
	if (!ro->quiet)
		isc_info("%s %zu hosts, %zu at a time, into %s/<host>", ro->fetch ? "fetching from" : "measuring", n,
			jobs < n ? jobs : n, dir);
	while (next < n || running) {
		while (next < n && running < jobs && !remote_stop) {
			if (start_host(ro, dir, next, &slots[next]) < 0) {
				slots[next].done = true;
				slots[next].status = ISC_EXIT_DATA;
				snprintf(slots[next].res.status, sizeof(slots[next].res.status), "not started: %s", strerror(errno));
			} else {
				running++;
			}
			next++;
		}
		if (remote_stop && next < n) {
			for (; next < n; next++) {
				slots[next].done = true;
				slots[next].status = ISC_EXIT_DATA;
				snprintf(slots[next].res.status, sizeof(slots[next].res.status), "not started (stopped)");
			}
		}
		pass_stop(slots, n, &passed);
		wait_some(slots, n, &running);
		if (progress)
			show_progress(ro, slots, n, false);
	}
	if (progress)
		show_progress(ro, slots, n, true);
	int status = ISC_EXIT_OK;
	size_t bad = 0;
	for (size_t i = 0; i < n; i++) {
		printf("%s: %llu %s, %llu discards, %s (%s/%s)\n", ro->hosts[i],
		       (unsigned long long)slots[i].res.datapoints, ro->counters ? "counter rows" : "datapoints",
		       (unsigned long long)slots[i].res.discards,
		       slots[i].status ? slots[i].res.status : "ok", dir, ro->hosts[i]);
		if (slots[i].status) {
			status = ISC_EXIT_DATA;
			bad++;
		}
	}
	fflush(stdout);
	if (bad)
		isc_err("%zu of %zu hosts failed", bad, n);
	free(slots);
	free(dir);
	return status;
}
