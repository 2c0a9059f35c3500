/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Several hosts' settings asked at once (--jobs, default all): each in a child process that
 * writes what it got into a memory file the parent made, read back once the child has ended:
 * a header (status, whether it answered, why it failed, the answer's length), then the answer
 * as the SUT sent it, checked again here. Messages go to stderr as they come, each naming its
 * host. A ^C reaches the children too: each finishes the host it asks, no new one starts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collect.h"
#include "settings_remote.h"
#include "text/util.h"

#define JOB_ANSWER_MAX (1u << 20)   /* as ssh_run keeps */

struct job_head {
	int status;
	int answered;
	size_t rawlen;
	char why[1024];
};

struct job {
	pid_t pid;
	int fd;
};

static void child(const struct remote_opts *ro, struct host_answer *h, int fd)
{
	settings_ask(ro, h);
	struct job_head jh = { .status = h->status, .answered = h->answered, .rawlen = h->answered ? h->rawlen : 0 };
	snprintf(jh.why, sizeof(jh.why), "%s", h->why);
	int bad = remote_write_all(fd, (const char *)&jh, sizeof(jh)) || (jh.rawlen && remote_write_all(fd, h->raw, jh.rawlen));
	fflush(stderr);
	_exit(bad ? 1 : 0);
}

static void start(const struct remote_opts *ro, struct host_answer *h, struct job *j)
{
	j->fd = memfd_create("collect-settings-job", MFD_CLOEXEC);
	fflush(stdout);
	fflush(stderr);
	j->pid = j->fd < 0 ? -1 : fork();
	if (j->pid == 0)
		child(ro, h, j->fd);
	if (j->pid < 0) {
		char why[160];
		snprintf(why, sizeof(why), "not asked: %s", strerror(errno));
		remote_err(h->host, "%s", why);
		settings_failed(h, ISC_EXIT_DATA, why);
		if (j->fd >= 0)
			close(j->fd);
		j->fd = -1;
	}
}

/* What the child wrote: the answer is checked as if it had come from the SUT directly. */
static void collect_result(struct host_answer *h, struct job *j, int st)
{
	struct job_head jh;
	char why[300];
	if (!WIFEXITED(st) || WEXITSTATUS(st) || pread(j->fd, &jh, sizeof(jh), 0) != (ssize_t)sizeof(jh)) {
		settings_failed(h, ISC_EXIT_DATA, "the child asking it failed");
		goto out;
	}
	jh.why[sizeof(jh.why) - 1] = '\0';
	if (!jh.answered) {
		settings_failed(h, jh.status, jh.why);
		goto out;
	}
	h->raw = isc_xmalloc(jh.rawlen <= JOB_ANSWER_MAX ? jh.rawlen + 1 : 1);
	if (jh.rawlen > JOB_ANSWER_MAX || pread(j->fd, h->raw, jh.rawlen, sizeof(jh)) != (ssize_t)jh.rawlen ||
	    settings_answer_parse(h->raw, jh.rawlen, &h->a, why, sizeof(why)) < 0) {
		settings_failed(h, ISC_EXIT_DATA, "the child asking it sent back no whole answer");
		goto out;
	}
	h->rawlen = jh.rawlen;
	h->answered = true;
	h->status = jh.status;
	if (h->status)
		settings_failed(h, h->status, jh.why);
out:
	close(j->fd);
	j->fd = -1;
	j->pid = 0;
}

void settings_ask_parallel(const struct remote_opts *ro, struct host_answer *h, size_t n, size_t jobs)
{
	struct job *j = isc_xcalloc(n, sizeof(*j));
	size_t next = 0, running = 0;
	while (next < n || running) {
		for (; next < n && running < jobs && !remote_stop; next++) {
			start(ro, &h[next], &j[next]);
			running += j[next].pid > 0;
		}
		for (; remote_stop && next < n; next++)
			settings_failed(&h[next], ISC_EXIT_DATA, "not asked (stopped)");
		if (!running)
			break;
		int st;
		pid_t pid = waitpid(-1, &st, 0);
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0)
			break;
		for (size_t i = 0; i < n; i++)
			if (j[i].pid == pid) {
				collect_result(&h[i], &j[i], st);
				running--;
			}
	}
	free(j);
}
