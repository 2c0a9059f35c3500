/* Several hosts at once: one child process per host (at most --jobs at a time), each run into
 * DIR/<host>/; a failing host does not stop the others. One summary line per host at the end. */
#include <errno.h>
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
#include "idlescope/util.h"

struct slot {
	pid_t pid;
	int fd;              /* the child's result comes back here */
	int status;
	bool done;
	struct host_result res;
};

static pid_t start_host(const struct remote_opts *ro, const char *dir, size_t i, struct slot *s)
{
	int p[2];
	if (pipe(p) < 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		struct host_result res;
		setpgid(0, 0);   /* ^C reaches the parent, which passes it on once */
		close(p[0]);
		char *out = is_xasprintf("%s/%s", dir, ro->hosts[i]);
		int st = remote_run_host(ro, ro->hosts[i], out, false, &res);
		(void)!write(p[1], &res, sizeof(res));
		_exit(st);
	}
	close(p[1]);
	s->pid = pid;
	s->fd = p[0];
	return pid;
}

static void reap(struct slot *slots, size_t n, pid_t pid, int st)
{
	for (size_t i = 0; i < n; i++) {
		if (slots[i].pid != pid)
			continue;
		slots[i].done = true;
		slots[i].status = WIFEXITED(st) ? WEXITSTATUS(st) : IS_EXIT_DATA;
		if (read(slots[i].fd, &slots[i].res, sizeof(slots[i].res)) != (ssize_t)sizeof(slots[i].res))
			snprintf(slots[i].res.status, sizeof(slots[i].res.status), "failed (no result)");
		slots[i].res.status[sizeof(slots[i].res.status) - 1] = '\0';
		close(slots[i].fd);
	}
}

static void pass_stop(struct slot *slots, size_t n, int *passed)
{
	for (; *passed < remote_stop; (*passed)++)
		for (size_t i = 0; i < n; i++)
			if (slots[i].pid > 0 && !slots[i].done)
				kill(slots[i].pid, SIGINT);
}

int remote_fleet(const struct remote_opts *ro)
{
	char date[32], *dir;
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(date, sizeof(date), "%Y%m%d-%H%M%S", &tm);
	dir = ro->outdir ? is_xstrdup(ro->outdir) : is_xasprintf("fleet-%s", date);
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		is_err("%s: %s", dir, strerror(errno));
		free(dir);
		return IS_EXIT_DATA;
	}
	size_t n = ro->nhosts, next = 0, running = 0, jobs = ro->jobs ? ro->jobs : n;
	struct slot *slots = is_xcalloc(n, sizeof(*slots));
	int passed = 0;
	if (!ro->quiet)
		is_info("measuring %zu hosts, %zu at a time, into %s/<host>", n, jobs < n ? jobs : n, dir);
	while (next < n || running) {
		while (next < n && running < jobs && !remote_stop) {
			if (start_host(ro, dir, next, &slots[next]) < 0) {
				slots[next].done = true;
				slots[next].status = IS_EXIT_DATA;
				snprintf(slots[next].res.status, sizeof(slots[next].res.status), "not started: %s", strerror(errno));
			} else {
				running++;
			}
			next++;
		}
		if (remote_stop && next < n) {
			for (; next < n; next++) {
				slots[next].done = true;
				slots[next].status = IS_EXIT_DATA;
				snprintf(slots[next].res.status, sizeof(slots[next].res.status), "not started (stopped)");
			}
		}
		pass_stop(slots, n, &passed);
		int st;
		pid_t pid = waitpid(-1, &st, 0);
		if (pid > 0) {
			reap(slots, n, pid, st);
			running--;
		} else if (errno != EINTR) {
			break;
		}
	}
	int status = IS_EXIT_OK;
	size_t bad = 0;
	for (size_t i = 0; i < n; i++) {
		printf("%s: %llu datapoints, %llu discards, %s (%s/%s)\n", ro->hosts[i],
		       (unsigned long long)slots[i].res.datapoints, (unsigned long long)slots[i].res.discards,
		       slots[i].status ? slots[i].res.status : "ok", dir, ro->hosts[i]);
		if (slots[i].status) {
			status = IS_EXIT_DATA;
			bad++;
		}
	}
	fflush(stdout);
	if (bad)
		is_err("%zu of %zu hosts failed", bad, n);
	free(slots);
	free(dir);
	return status;
}
