/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The SUT side: `collect --remote-agent RUNDIR ARGS...` runs `collect ARGS... -q -o RUNDIR` as a
 * child and streams the run directory to stdout as it grows (frames, remote.h). The controller
 * ends its stdin to stop the run (^C there) or when the connection drops: then the child gets
 * SIGINT and stops as a local run does (settings restored). RUNDIR stays unless the controller
 * says it has everything ("fetched").
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "remote.h"
#include "text/util.h"

struct tail {
	const char *name;
	char type;
	int fd;
	off_t sent;
};

struct whole {          /* a file replaced by rename: sent whole when it changed */
	const char *name;
	char type;
	struct stat st;
	bool seen;
};

/* The run directory itself ("") or one of its subdirectories (the runs of an experiment). */
struct rdir {
	char *name;
	struct tail dp, ctr;
	struct whole info, exp;
};

struct agent {
	const char *rundir;
	pid_t child;
	bool stop_sent, lost;
	struct rdir *dirs;
	size_t ndirs;
	const char *cur;        /* the directory the last frames were for */
};

int remote_write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static void send_frame(struct agent *a, char type, const char *p, size_t n)
{
	char head[32];
	int hl = snprintf(head, sizeof(head), "%c %zu\n", type, n);
	if (a->lost)
		return;
	if (remote_write_all(1, head, (size_t)hl) < 0 || remote_write_all(1, p, n) < 0)
		a->lost = true;
}

/* Frames after this one are for directory d (FRAME_SUBDIR, only when it changes). */
static void select_dir(struct agent *a, const struct rdir *d)
{
	if (a->cur == d->name || (a->cur && !strcmp(a->cur, d->name)))
		return;
	send_frame(a, FRAME_SUBDIR, d->name, strlen(d->name));
	a->cur = d->name;
}

static void stop_child(struct agent *a)
{
	if (!a->stop_sent && a->child > 0)
		kill(a->child, SIGINT);
	a->stop_sent = true;
}

static char *dir_path(const struct agent *a, const struct rdir *d, const char *file)
{
	return d->name[0] ? isc_xasprintf("%s/%s/%s", a->rundir, d->name, file) : isc_xasprintf("%s/%s", a->rundir, file);
}

/* Send what the file has gained, up to its last newline (a row is sent whole or not yet). */
static void pump(struct agent *a, struct rdir *d, struct tail *t)
{
	char buf[1 << 16];
	if (t->fd < 0) {
		char *p = dir_path(a, d, t->name);
		t->fd = open(p, O_RDONLY | O_CLOEXEC);
		free(p);
		if (t->fd < 0)
			return;
	}
	for (;;) {
		ssize_t r = pread(t->fd, buf, sizeof(buf), t->sent);
		if (r <= 0)
			return;
		char *nl = memrchr(buf, '\n', (size_t)r);
		if (!nl)
			return;
		size_t n = (size_t)(nl - buf) + 1;
		select_dir(a, d);
		send_frame(a, t->type, buf, n);
		t->sent += (off_t)n;
	}
}

/* info.json and experiment.json are replaced by rename: send one when it is a new file or has
 * changed. */
static void pump_whole(struct agent *a, struct rdir *d, struct whole *w)
{
	struct stat st;
	char *p = dir_path(a, d, w->name), err[300];
	if (stat(p, &st) == 0 && (!w->seen || st.st_ino != w->st.st_ino ||
				  st.st_mtim.tv_nsec != w->st.st_mtim.tv_nsec ||
				  st.st_mtim.tv_sec != w->st.st_mtim.tv_sec || st.st_size != w->st.st_size)) {
		size_t len;
		char *text = isc_read_regular_file(p, 16u << 20, &len, err, sizeof(err));
		if (text) {
			w->st = st;
			w->seen = true;
			select_dir(a, d);
			send_frame(a, w->type, text, len);
			free(text);
		}
	}
	free(p);
}

static void add_dir(struct agent *a, const char *name)
{
	for (size_t i = 0; i < a->ndirs; i++)
		if (!strcmp(a->dirs[i].name, name))
			return;
	a->dirs = isc_xrealloc(a->dirs, (a->ndirs + 1) * sizeof(*a->dirs));
	a->dirs[a->ndirs++] = (struct rdir){ .name = isc_xstrdup(name),
		.dp = { "datapoints.csv", FRAME_DP, -1, 0 }, .ctr = { "counters.csv", FRAME_CTR, -1, 0 },
		.info = { .name = "info.json", .type = FRAME_INFO }, .exp = { .name = "experiment.json", .type = FRAME_EXP } };
}

/* The subdirectories an experiment driver made (one per run). */
static void scan_dirs(struct agent *a)
{
	DIR *dir = opendir(a->rundir);
	struct dirent *e;
	if (!dir)
		return;
	while ((e = readdir(dir))) {
		struct stat st;
		bool is_dir = e->d_type == DT_DIR;
		if (e->d_type == DT_UNKNOWN && e->d_name[0] != '.') {
			char *p = isc_xasprintf("%s/%s", a->rundir, e->d_name);
			is_dir = lstat(p, &st) == 0 && S_ISDIR(st.st_mode);
			free(p);
		}
		if (is_dir && e->d_name[0] != '.' && !strchr(e->d_name, '\n'))
			add_dir(a, e->d_name);
	}
	closedir(dir);
}

static void pump_all(struct agent *a)
{
	if (!a->ndirs)
		add_dir(a, "");
	scan_dirs(a);
	for (size_t i = 0; i < a->ndirs; i++) {
		struct rdir *d = &a->dirs[i];
		pump_whole(a, d, &d->exp);
		pump_whole(a, d, &d->info);
		pump(a, d, &d->dp);
		pump(a, d, &d->ctr);
	}
}

static void free_dirs(struct agent *a)
{
	for (size_t i = 0; i < a->ndirs; i++) {
		if (a->dirs[i].dp.fd >= 0)
			close(a->dirs[i].dp.fd);
		if (a->dirs[i].ctr.fd >= 0)
			close(a->dirs[i].ctr.fd);
		free(a->dirs[i].name);
	}
	free(a->dirs);
}

/* The SUT's collect: "-q -o RUNDIR" after the options (last, so they win) and before a "--"
 * (a counters command follows it). */
static pid_t start_child(const char *rundir, int argc, char **argv)
{
	char **cargv = isc_xcalloc((size_t)argc + 4, sizeof(*cargv));
	int n = 0, i = 3;
	cargv[n++] = "collect";
	for (; i < argc && strcmp(argv[i], "--"); i++)
		cargv[n++] = argv[i];
	cargv[n++] = "-q";
	cargv[n++] = "-o";
	cargv[n++] = (char *)rundir;
	for (; i < argc; i++)
		cargv[n++] = argv[i];
	struct child_spec spec = { .argv = cargv, .stderr_fd = -1, .agent_stdio = true,
				   .exec_error = "cannot start collect on the SUT" };
	pid_t pid = child_start(&spec);
	free(cargv);
	return pid;
}

/* stdin: "stop\n" or its end stop the run; "fetched\n" after the end removes the SUT's copy. */
static bool read_control(struct agent *a, bool *fetched)
{
	char buf[256];
	ssize_t r = read(0, buf, sizeof(buf) - 1);
	if (r < 0 && errno == EINTR)
		return true;
	if (r <= 0)
		return false;
	buf[r] = '\0';
	if (strstr(buf, "stop"))
		stop_child(a);
	if (strstr(buf, "fetched"))
		*fetched = true;
	return true;
}

/* Only the files collect writes, in the run directory and its run subdirectories. */
static void remove_files(const char *dir)
{
	static const char *const files[] = { "datapoints.csv", "counters.csv", "info.json", ".info.json.tmp",
					     "info.yml", ".info.yml.tmp", "experiment.json", ".experiment.json.tmp" };
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *p = isc_xasprintf("%s/%s", dir, files[i]);
		unlink(p);
		free(p);
	}
	rmdir(dir);
}

static void remove_run(const struct agent *a)
{
	for (size_t i = 0; i < a->ndirs; i++)
		if (a->dirs[i].name[0]) {
			char *p = isc_xasprintf("%s/%s", a->rundir, a->dirs[i].name);
			remove_files(p);
			free(p);
		}
	remove_files(a->rundir);
}

/* After the end frame: wait for "fetched" (up to `tenths` of a second); a lost controller
 * leaves the copy for a later fetch. */
static void wait_fetched(struct agent *a, bool in_open, bool fetched, int tenths)
{
	for (int i = 0; i < tenths && in_open && !fetched && !a->lost; i++) {
		struct pollfd pf = { 0, POLLIN, 0 };
		if (poll(&pf, 1, 100) > 0)
			in_open = read_control(a, &fetched);
	}
	if (fetched)
		remove_run(a);
}

static void send_end(struct agent *a, int status)
{
	char s[16];
	snprintf(s, sizeof(s), "%d", status);
	send_frame(a, FRAME_END, s, strlen(s));
}

/* `collect --remote-agent-send RUNDIR`: a run the SUT kept (the connection was lost), sent whole
 * for `collect --fetch`; removed once the controller has put it in place. */
static int agent_send(struct agent *a)
{
	struct stat st;
	int e = stat(a->rundir, &st) < 0 ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
	if (e) {
		isc_err("%s: the SUT has no such run directory: %s", a->rundir, strerror(e));
		return ISC_EXIT_DATA;
	}
	send_frame(a, FRAME_HELLO, a->rundir, strlen(a->rundir));
	pump_all(a);
	send_end(a, 0);
	wait_fetched(a, true, false, 3000);
	free_dirs(a);
	return a->lost ? ISC_EXIT_DATA : ISC_EXIT_OK;
}

/* remote_collect() runs us from a private copy made for this session: remove it now (we run
 * on, and start_child executes /proc/self/exe, which needs no name). */
void remote_agent_remove_copy(void)
{
	const char *dir = getenv("IDLESCOPE_AGENT_COPY");
	if (!dir || !dir[0])
		return;
	char *p = isc_xasprintf("%s/collect", dir);
	unlink(p);
	rmdir(dir);
	free(p);
	unsetenv("IDLESCOPE_AGENT_COPY");
}

int remote_agent_main(int argc, char **argv)
{
	struct agent a = { .rundir = argc > 2 ? argv[2] : NULL };
	bool in_open = true, fetched = false;
	int st = 0;
	remote_agent_remove_copy();
	if (!a.rundir) {
		isc_err("%s: needs the run directory", argv[1]);
		return ISC_EXIT_USAGE;
	}
	signal(SIGPIPE, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGINT, SIG_IGN);   /* the child is stopped through stdin, not by signals to us */
	if (!strcmp(argv[1], "--remote-agent-send"))
		return agent_send(&a);
	send_frame(&a, FRAME_HELLO, a.rundir, strlen(a.rundir));
	a.child = start_child(a.rundir, argc, argv);
	if (a.child < 0)
		return ISC_EXIT_DATA;
	for (;;) {
		struct pollfd pf = { in_open ? 0 : -1, POLLIN, 0 };
		poll(&pf, 1, 100);
		if (pf.revents && !(in_open = read_control(&a, &fetched)))
			stop_child(&a);   /* controller gone or ^C there */
		pump_all(&a);
		if (a.lost)
			stop_child(&a);
		pid_t w = waitpid(a.child, &st, WNOHANG);
		if (w == a.child)
			break;
	}
	child_done(a.child);
	pump_all(&a);
	int status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	send_end(&a, status);
	wait_fetched(&a, in_open, fetched, 300);
	free_dirs(&a);
	return status;
}
