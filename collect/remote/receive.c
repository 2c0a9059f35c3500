/*
 * The controller side of one remote run: start the agent over ssh, write the frames it sends
 * into the local run directory as they come (same files as a local run), and say in info.json
 * what happened to the connection.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "collect.h"
#include "remote.h"
#include "idlescope/textsafe.h"
#include "idlescope/util.h"

volatile sig_atomic_t remote_stop;

struct rx {
	const struct remote_opts *ro;
	const char *host, *outdir;
	struct ssh_proc sp;
	struct run_dir rd;
	bool dir_made, hello, ended, stop_sent;
	int dp_fd, ctr_fd;
	uint64_t dp_lines;
	int remote_status;
	char *sut_dir;
	cJSON *info;
	char *fbuf;            /* frame bytes not yet parsed */
	size_t flen, fcap;
	char ebuf[4096];       /* stderr bytes of an unfinished line */
	size_t elen;
	char *early_err;       /* stderr before the agent ran (ssh's own messages) */
	size_t early_len;
	bool remote_msg;       /* a remote message was passed on */
	bool failed_write;
	struct progress *prog;
};

static int make_dir(struct rx *x)
{
	if (x->dir_made)
		return 0;
	int rc = run_dir_create(x->outdir, x->ro->force, &x->rd);
	if (rc < 0)
		return -1;
	x->dir_made = true;
	return 0;
}

static int open_out(struct rx *x, int *fd, const char *name)
{
	if (*fd >= 0)
		return 0;
	*fd = openat(x->rd.dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (*fd < 0) {
		is_err("%s/%s: %s", x->rd.path, name, strerror(errno));
		return -1;
	}
	return 0;
}

static void set_item(cJSON *o, const char *key, cJSON *v)
{
	if (cJSON_HasObjectItem(o, key))
		cJSON_ReplaceItemInObjectCaseSensitive(o, key, v);
	else
		cJSON_AddItemToObject(o, key, v);
}

static uint64_t received_rows(const struct rx *x)
{
	return x->dp_lines ? x->dp_lines - 1 : 0;
}

/* The SUT's info.json with what the controller knows added: the host as given, the
 * connection's fate, the SUT's copy. */
static int write_info(struct rx *x, const char *connection)
{
	if (!x->info || !x->dir_made)
		return 0;
	cJSON *sys = cJSON_GetObjectItemCaseSensitive(x->info, "system");
	if (!x->ro->reportid) {   /* as for a local run: the run directory's name, not the SUT's */
		const char *base = strrchr(x->rd.path, '/');
		set_item(x->info, "reportid", cJSON_CreateString(base ? base + 1 : x->rd.path));
	}
	if (cJSON_IsObject(sys))
		set_item(sys, "ssh_host", cJSON_CreateString(x->host));
	cJSON *r = cJSON_CreateObject();
	cJSON_AddStringToObject(r, "host", x->host);
	cJSON_AddStringToObject(r, "transport", "openssh");
	cJSON_AddStringToObject(r, "connection", connection);
	cJSON_AddNumberToObject(r, "received_datapoints", (double)received_rows(x));
	if (x->sut_dir)
		cJSON_AddStringToObject(r, "sut_run_dir", x->sut_dir);
	cJSON_AddBoolToObject(r, "sut_copy_kept", strcmp(connection, "complete") != 0);
	set_item(x->info, "remote", r);
	if (run_write_info(&x->rd, x->info, INFO_RESERVE) < 0) {
		x->failed_write = true;
		return -1;
	}
	return 0;
}

static void on_info(struct rx *x, const char *p, size_t n)
{
	cJSON *j = cJSON_ParseWithLength(p, n);
	if (!cJSON_IsObject(j)) {
		cJSON_Delete(j);
		return;
	}
	bool first = !x->info;
	cJSON_Delete(x->info);
	x->info = j;
	if (make_dir(x) < 0) {
		x->failed_write = true;
		return;
	}
	write_info(x, "open");
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(j, "method");
	if (first && !x->ro->quiet && cJSON_IsString(m))
		is_info("%s: measuring with method %s into %s", x->host, m->valuestring, x->rd.path);
}

static void on_data(struct rx *x, int *fd, const char *name, const char *p, size_t n, bool rows)
{
	if (make_dir(x) < 0 || open_out(x, fd, name) < 0 || remote_write_all(*fd, p, n) < 0) {
		if (!x->failed_write)
			remote_err(x->host, "%s/%s: cannot write: %s", x->outdir, name, strerror(errno));
		x->failed_write = true;
		return;
	}
	if (rows)
		for (const char *q = p; (q = memchr(q, '\n', (size_t)(p + n - q))); q++)
			x->dp_lines++;
	progress_update(x->prog, received_rows(x), 0, NULL, false);
}

static void on_frame(struct rx *x, char type, const char *p, size_t n)
{
	switch (type) {
	case FRAME_HELLO:
		x->hello = true;
		free(x->sut_dir);
		x->sut_dir = is_xstrndup(p, n);
		break;
	case FRAME_INFO: on_info(x, p, n); break;
	case FRAME_DP: on_data(x, &x->dp_fd, "datapoints.csv", p, n, true); break;
	case FRAME_CTR: on_data(x, &x->ctr_fd, "counters.csv", p, n, false); break;
	case FRAME_END: {
		char s[16];
		snprintf(s, sizeof(s), "%.*s", (int)(n < 15 ? n : 15), p);
		x->remote_status = atoi(s);
		x->ended = true;
		break;
	}
	}
}

/* Parse whole frames from the buffer; -1 on a malformed stream. */
static int parse_frames(struct rx *x)
{
	size_t off = 0;
	while (off < x->flen) {
		char *nl = memchr(x->fbuf + off, '\n', x->flen - off);
		if (!nl)
			break;
		char type;
		size_t n;
		if (sscanf(x->fbuf + off, "%c %zu", &type, &n) != 2 || n > FRAME_MAX)
			return -1;
		size_t head = (size_t)(nl - (x->fbuf + off)) + 1;
		if (x->flen - off - head < n)
			break;
		on_frame(x, type, x->fbuf + off + head, n);
		off += head + n;
	}
	memmove(x->fbuf, x->fbuf + off, x->flen - off);
	x->flen -= off;
	return 0;
}

static int read_out(struct rx *x)
{
	if (x->fcap - x->flen < 65536) {
		x->fcap = x->fcap * 2 + 65536;
		x->fbuf = is_xrealloc(x->fbuf, x->fcap);
	}
	ssize_t r = read(x->sp.out, x->fbuf + x->flen, x->fcap - x->flen);
	if (r < 0 && errno == EINTR)
		return 1;
	if (r <= 0)
		return 0;
	x->flen += (size_t)r;
	if (parse_frames(x) < 0) {
		remote_err(x->host, "garbled data from the SUT (not the collect agent's frames)");
		return 0;
	}
	return 1;
}

/* A line from the SUT's stderr: before the agent runs it is ssh's (kept for the error), after
 * that it is the SUT's collect talking, passed on with the host in front. */
static void err_line(struct rx *x, const char *s, size_t n)
{
	if (!x->hello) {
		x->early_err = is_xrealloc(x->early_err, x->early_len + n + 2);
		memcpy(x->early_err + x->early_len, s, n);
		x->early_len += n;
		x->early_err[x->early_len++] = '\n';
		x->early_err[x->early_len] = '\0';
		return;
	}
	if (!n)
		return;
	char *line = is_xstrndup(s, n), *safe = is_text_dup(line, IS_TEXT_LINE);
	fprintf(stderr, "%s: %s: %s\n", is_progname(), x->host, safe);
	snprintf(remote_last_error, sizeof(remote_last_error), "%s", safe);
	free(safe);
	free(line);
	x->remote_msg = true;
}

static int read_err(struct rx *x)
{
	ssize_t r = read(x->sp.err, x->ebuf + x->elen, sizeof(x->ebuf) - 1 - x->elen);
	if (r < 0 && errno == EINTR)
		return 1;
	if (r <= 0) {
		if (x->elen)
			err_line(x, x->ebuf, x->elen);
		x->elen = 0;
		return 0;
	}
	x->elen += (size_t)r;
	char *start = x->ebuf, *nl;
	while ((nl = memchr(start, '\n', x->elen - (size_t)(start - x->ebuf)))) {
		err_line(x, start, (size_t)(nl - start));
		start = nl + 1;
	}
	x->elen -= (size_t)(start - x->ebuf);
	memmove(x->ebuf, start, x->elen);
	if (x->elen == sizeof(x->ebuf) - 1) {   /* a very long line: pass it on in pieces */
		err_line(x, x->ebuf, x->elen);
		x->elen = 0;
	}
	return 1;
}

static void request_stop(struct rx *x)
{
	if (remote_stop >= 2 && x->sp.pid > 0) {
		kill(-x->sp.pid, SIGTERM);   /* second ^C: drop the connection; the SUT stops anyway */
		return;
	}
	if (x->stop_sent || x->sp.in < 0)
		return;
	x->stop_sent = true;
	(void)!write(x->sp.in, "stop\n", 5);
}

static void pump_loop(struct rx *x)
{
	while (x->sp.out >= 0 || x->sp.err >= 0) {
		struct pollfd pf[2] = { { x->sp.out, POLLIN, 0 }, { x->sp.err, POLLIN, 0 } };
		if (remote_stop)
			request_stop(x);
		int n = poll(pf, 2, 200);
		if (n < 0 && errno != EINTR)
			break;
		if (n <= 0)
			continue;
		if (pf[0].revents && !read_out(x)) {
			close(x->sp.out);
			x->sp.out = -1;
		}
		if (pf[1].revents && !read_err(x)) {
			close(x->sp.err);
			x->sp.err = -1;
		}
		if (x->ended && x->sp.in >= 0) {
			/* everything is here: tell the agent it may remove the SUT's copy */
			if (!x->failed_write && x->dp_fd >= 0)
				fsync(x->dp_fd);
			if (!x->failed_write)
				(void)!write(x->sp.in, "fetched\n", 8);
			close(x->sp.in);
			x->sp.in = -1;
		}
	}
}

static char *agent_command(const struct remote_opts *ro, const char *collect, const char *outdir)
{
	char date[32], *base = remote_base(ro);
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(date, sizeof(date), "%Y%m%d-%H%M%S", &tm);
	const char *name = strrchr(outdir, '/') ? strrchr(outdir, '/') + 1 : outdir;
	char *leaf = is_xasprintf("%s-%s-%d", name[0] ? name : "run", date, (int)getpid());
	char *qleaf = sh_quote(leaf);
	char *cmd = is_xasprintf("umask 022; mkdir -p %s/runs && exec %s --remote-agent %s/runs/%s", base,
				 collect, base, qleaf);
	free(leaf);
	free(qleaf);
	free(base);
	for (int i = 1; i < ro->npass; i++) {
		char *q = sh_quote(ro->pass[i]), *c = is_xasprintf("%s %s", cmd, q);
		free(q);
		free(cmd);
		cmd = c;
	}
	return cmd;
}

/* After the stream ended: the exit status, one line on what went wrong, info.json final. */
static int conclude(struct rx *x, int ssh_rc, struct host_result *res)
{
	char why[600];
	int status = IS_EXIT_OK;
	res->datapoints = received_rows(x);
	if (x->ended) {
		status = x->remote_status ? IS_EXIT_DATA : IS_EXIT_OK;
		if (write_info(x, "complete") < 0)
			status = IS_EXIT_DATA;
		if (x->remote_status && !x->remote_msg)
			remote_err(x->host, "collect on the SUT failed (exit %d)", x->remote_status);
		if (x->remote_status)
			snprintf(res->status, sizeof(res->status), "%s: %.120s",
				 x->info ? "failed on the SUT" : "refused on the SUT", remote_last_error);
		else
			snprintf(res->status, sizeof(res->status), "ok");
	} else if (!x->hello) {
		if (ssh_rc == 255)
			ssh_explain(x->early_err ? x->early_err : "", why, sizeof(why));
		else
			last_line(x->early_err ? x->early_err : "", why, sizeof(why));
		remote_err(x->host, "%s", why[0] ? why : "the SUT's collect did not start");
		snprintf(res->status, sizeof(res->status), "failed: %.140s", why);
		return IS_EXIT_DATA;
	} else {
		cJSON *i = x->info;
		if (i) {
			set_item(i, "complete", cJSON_CreateBool(false));
			set_item(i, "stop_reason", cJSON_CreateString("connection lost"));
			set_item(i, "datapoints", cJSON_CreateNumber((double)received_rows(x)));
		}
		write_info(x, "lost");
		remote_err(x->host, "connection lost after %llu datapoints (ssh exit %d); %s kept what arrived, the "
		       "SUT keeps its copy in %s", (unsigned long long)received_rows(x), ssh_rc,
		       x->dir_made ? x->rd.path : "nothing", x->sut_dir ? x->sut_dir : "?");
		snprintf(res->status, sizeof(res->status), "connection lost");
		status = IS_EXIT_DATA;
	}
	if (x->failed_write) {
		snprintf(res->status, sizeof(res->status), "local write failed");
		status = IS_EXIT_DATA;
	}
	const cJSON *d = x->info ? cJSON_GetObjectItemCaseSensitive(x->info, "discards") : NULL, *v;
	cJSON_ArrayForEach(v, d)
		if (cJSON_IsNumber(v))
			res->discards += (uint64_t)v->valuedouble;
	return status;
}

int remote_run_host(const struct remote_opts *ro, const char *host, const char *outdir,
		    bool progress, struct host_result *res)
{
	struct rx x = { .ro = ro, .host = host, .outdir = outdir, .rd = { .dirfd = -1 },
			.dp_fd = -1, .ctr_fd = -1 };
	char *collect = NULL, *ko = NULL;
	int rc;
	*res = (struct host_result){ .status = "failed" };
	/* the local directory first: a name already taken is found before the SUT is touched */
	if ((rc = run_dir_create(outdir, ro->force, &x.rd)) < 0)
		return rc == -2 ? IS_EXIT_USAGE : IS_EXIT_DATA;
	x.dir_made = true;
	if (remote_deploy_run(ro, host, &collect, &ko)) {
		snprintf(res->status, sizeof(res->status), "failed: %.140s", remote_last_error);
		run_dir_close(&x.rd);
		rmdir(outdir);   /* nothing in it: no empty run is left behind */
		return IS_EXIT_DATA;
	}
	char *cmd = remote_add_kmod_path(agent_command(ro, collect, outdir), ko);
	free(collect);
	free(ko);
	rc = ssh_start(ro, host, cmd, &x.sp);
	free(cmd);
	if (rc < 0)
		return IS_EXIT_DATA;
	x.prog = progress_start(ro->count, ro->time_limit_ns, !progress || ro->quiet);
	pump_loop(&x);
	progress_end(x.prog);
	int ssh_rc = ssh_wait(&x.sp);
	int status = conclude(&x, ssh_rc, res);
	if (x.dp_fd >= 0 && (fsync(x.dp_fd) < 0 || close(x.dp_fd) < 0))
		status = IS_EXIT_DATA;
	if (x.ctr_fd >= 0 && (fsync(x.ctr_fd) < 0 || close(x.ctr_fd) < 0))
		status = IS_EXIT_DATA;
	if (x.dir_made)
		run_dir_close(&x.rd);
	if (!x.info && x.dp_fd < 0)
		rmdir(outdir);
	cJSON_Delete(x.info);
	free(x.fbuf);
	free(x.early_err);
	free(x.sut_dir);
	return status;
}
