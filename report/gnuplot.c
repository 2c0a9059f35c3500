/* SPDX-License-Identifier: GPL-2.0-only */
/* Running gnuplot: one child process per script, up to N at a time. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "text/util.h"
#include "report.h"

struct plot_queue {
	char *gnuplot;
	char *cwd;
	int max;
	pid_t *pids;           /* running jobs (signals.c reads these) */
	char **scripts;
	int njobs;
	int failed;
};

char *gnuplot_find(void)
{
	const char *path = getenv("PATH");
	char *copy = isc_xstrdup(path ? path : "/usr/bin:/bin"), *save = NULL, *found = NULL;
	for (char *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		struct stat st;
		char *cand = path_cat(dir[0] ? dir : ".", "gnuplot");
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0)
			found = cand;
		else
			free(cand);
	}
	free(copy);
	return found;
}

struct plot_queue *plot_queue_new(const char *gnuplot, const char *cwd, int jobs)
{
	struct plot_queue *q = isc_xcalloc(1, sizeof(*q));
	q->gnuplot = isc_xstrdup(gnuplot);
	q->cwd = isc_xstrdup(cwd);
	q->max = jobs > 0 ? jobs : 1;
	q->pids = isc_xcalloc((size_t)q->max, sizeof(*q->pids));
	q->scripts = isc_xcalloc((size_t)q->max, sizeof(*q->scripts));
	signals_watch_children(q->pids, 0);
	return q;
}

/* The last non-empty line gnuplot wrote: its error message. */
static void report_failure(const struct plot_queue *q, const char *script, int status)
{
	char *log = isc_xasprintf("%s/%s.log", q->cwd, script), err[256], line[512] = "";
	size_t len;
	char *text = isc_read_regular_file(log, 1 << 20, &len, err, sizeof(err));
	for (char *p = text ? strtok(text, "\n") : NULL; p; p = strtok(NULL, "\n"))
		if (p[strspn(p, " \t^")])
			snprintf(line, sizeof(line), "%s", p);
	if (WIFEXITED(status))
		isc_err("gnuplot failed on %s (exit %d): %s", script, WEXITSTATUS(status),
		       line[0] ? line : "no message");
	else
		isc_err("gnuplot killed by signal %d on %s", WTERMSIG(status), script);
	free(text);
	free(log);
}

static int wait_one(struct plot_queue *q)
{
	int status;
	pid_t pid;
	do
		pid = waitpid(-1, &status, 0);
	while (pid < 0 && errno == EINTR);
	if (pid < 0) {
		isc_err("waiting for gnuplot: %s", strerror(errno));
		q->njobs = 0;
		q->failed = 1;
		return -1;
	}
	for (int i = 0; i < q->njobs; i++) {
		if (q->pids[i] != pid)
			continue;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			report_failure(q, q->scripts[i], status);
			q->failed = 1;
		}
		free(q->scripts[i]);
		q->pids[i] = q->pids[q->njobs - 1];
		q->scripts[i] = q->scripts[q->njobs - 1];
		q->njobs--;
		signals_watch_children(q->pids, q->njobs);
		break;
	}
	return 0;
}

extern char **environ;

/* posix_spawn, not fork: copying the page tables of a process holding millions of
 * datapoints costs more than a small plot. */
static int spawn(const struct plot_queue *q, const char *script, const sigset_t *child_mask,
		 pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	char *log = isc_xasprintf("%s.log", script);
	char *const argv[] = { "gnuplot", (char *)script, NULL };
	int rc;
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigmask(&attr, child_mask);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addchdir_np(&fa, q->cwd);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
	rc = posix_spawn(pid, q->gnuplot, &fa, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	free(log);
	return rc;
}

int plot_queue_add(struct plot_queue *q, const char *script)
{
	while (q->njobs >= q->max)
		if (wait_one(q) < 0)
			return -1;
	/* The stopping signals wait until the new child is on the list the handler kills: one
	 * that came between the spawn and the list would leave that gnuplot running. The child
	 * starts with the mask we had. */
	sigset_t stop, old;
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigaddset(&stop, SIGPIPE);
	sigprocmask(SIG_BLOCK, &stop, &old);
	pid_t pid;
	int err = spawn(q, script, &old, &pid);
	if (!err) {
		q->pids[q->njobs] = pid;
		q->scripts[q->njobs] = isc_xstrdup(script);
		q->njobs++;
		signals_watch_children(q->pids, q->njobs);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (err) {
		isc_err("cannot start %s: %s", q->gnuplot, strerror(err));
		q->failed = 1;
		return -1;
	}
	return 0;
}

int plot_queue_finish(struct plot_queue *q)
{
	while (q->njobs > 0)
		if (wait_one(q) < 0)
			break;
	return q->failed ? -1 : 0;
}

void plot_queue_free(struct plot_queue *q)
{
	if (!q)
		return;
	plot_queue_finish(q);
	signals_watch_children(NULL, 0);
	free(q->gnuplot);
	free(q->cwd);
	free(q->pids);
	free(q->scripts);
	free(q);
}
