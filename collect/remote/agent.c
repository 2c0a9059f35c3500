/*
 * The SUT side: `collect --remote-agent RUNDIR ARGS...` runs `collect ARGS... -q -o RUNDIR` as a
 * child and streams the run directory to stdout as it grows (frames, remote.h). The controller
 * ends its stdin to stop the run (^C there) or when the connection drops: then the child gets
 * SIGINT and stops as a local run does (settings restored). RUNDIR stays unless the controller
 * says it has everything ("fetched").
 */
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

#include "remote.h"
#include "idlescope/util.h"

struct tail {
	const char *name;
	char type;
	int fd;
	off_t sent;
};

struct agent {
	const char *rundir;
	pid_t child;
	bool stop_sent, lost;
	struct tail dp, ctr;
	struct stat info_st;
	bool info_seen;
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

static void stop_child(struct agent *a)
{
	if (!a->stop_sent && a->child > 0)
		kill(a->child, SIGINT);
	a->stop_sent = true;
}

/* Send what the file has gained, up to its last newline (a row is sent whole or not yet). */
static void pump(struct agent *a, struct tail *t)
{
	char buf[1 << 16];
	if (t->fd < 0) {
		char *p = is_xasprintf("%s/%s", a->rundir, t->name);
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
		send_frame(a, t->type, buf, n);
		t->sent += (off_t)n;
	}
}

/* info.json is replaced by rename: send it when it is a new file or has changed. */
static void pump_info(struct agent *a)
{
	struct stat st;
	char *p = is_xasprintf("%s/info.json", a->rundir), err[300];
	if (stat(p, &st) == 0 && (!a->info_seen || st.st_ino != a->info_st.st_ino ||
				  st.st_mtim.tv_nsec != a->info_st.st_mtim.tv_nsec ||
				  st.st_mtim.tv_sec != a->info_st.st_mtim.tv_sec || st.st_size != a->info_st.st_size)) {
		size_t len;
		char *text = is_read_regular_file(p, 16u << 20, &len, err, sizeof(err));
		if (text) {
			a->info_st = st;
			a->info_seen = true;
			send_frame(a, FRAME_INFO, text, len);
			free(text);
		}
	}
	free(p);
}

static void pump_all(struct agent *a)
{
	pump_info(a);
	pump(a, &a->dp);
	pump(a, &a->ctr);
}

static pid_t start_child(const char *rundir, int argc, char **argv)
{
	char **cargv = is_xcalloc((size_t)argc + 4, sizeof(*cargv));
	int n = 0;
	cargv[n++] = "collect";
	for (int i = 3; i < argc; i++)
		cargv[n++] = argv[i];
	cargv[n++] = "-q";
	cargv[n++] = "-o";
	cargv[n++] = (char *)rundir;
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(2, 1);   /* its messages go to the controller on the ssh channel's stderr */
		signal(SIGHUP, SIG_IGN);
		signal(SIGINT, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		execv("/proc/self/exe", cargv);
		fprintf(stderr, "collect: cannot start collect on the SUT: %s\n", strerror(errno));
		_exit(1);
	}
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

static void remove_run(const char *dir)
{
	const char *files[] = { "datapoints.csv", "counters.csv", "info.json" };
	for (size_t i = 0; i < 3; i++) {
		char *p = is_xasprintf("%s/%s", dir, files[i]);
		unlink(p);
		free(p);
	}
	rmdir(dir);
}

int remote_agent_main(int argc, char **argv)
{
	struct agent a = { .rundir = argc > 2 ? argv[2] : NULL,
			   .dp = { "datapoints.csv", FRAME_DP, -1, 0 }, .ctr = { "counters.csv", FRAME_CTR, -1, 0 } };
	bool in_open = true, fetched = false;
	int st = 0;
	if (!a.rundir) {
		is_err("--remote-agent: needs the run directory");
		return IS_EXIT_USAGE;
	}
	signal(SIGPIPE, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGINT, SIG_IGN);   /* the child is stopped through stdin, not by signals to us */
	send_frame(&a, FRAME_HELLO, a.rundir, strlen(a.rundir));
	a.child = start_child(a.rundir, argc, argv);
	if (a.child < 0) {
		is_err("fork: %s", strerror(errno));
		return IS_EXIT_DATA;
	}
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
	pump_all(&a);
	int status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	char s[16];
	snprintf(s, sizeof(s), "%d", status);
	send_frame(&a, FRAME_END, s, strlen(s));
	/* wait for "fetched" (up to 30 s); a lost controller leaves the copy for a later fetch */
	for (int i = 0; i < 300 && in_open && !fetched && !a.lost; i++) {
		struct pollfd pf = { 0, POLLIN, 0 };
		if (poll(&pf, 1, 100) > 0)
			in_open = read_control(&a, &fetched);
	}
	if (fetched)
		remove_run(a.rundir);
	return status;
}
