/* SPDX-License-Identifier: GPL-2.0-only */
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
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "collect.h"
#include "experiment.h"
#include "frames.h"
#include "remote.h"
#include "text/json_num.h"
#include "text/json_out.h"
#include "text/textsafe.h"
#include "text/util.h"

volatile sig_atomic_t remote_stop;
int remote_progress_fd = -1;

/* What the SUT may make the controller hold: run subdirectories (an experiment has at most
 * 10000 runs), info.json texts kept in memory over all of them, ssh's messages before the agent. */
#define MAX_SUBDIRS 10001
#define NAME_SLOTS 32768         /* a power of two, over twice MAX_SUBDIRS */
#define MAX_INFO_BYTES (256u << 20)
#define EARLY_ERR_MAX 16384

/* The run directory ("") or one run of an experiment under it. */
struct rxd {
	char *name;
	struct run_dir rd;      /* the top's is rx.rd itself: dirfd borrowed */
	cJSON *info;
	size_t info_len;        /* of the info.json text it came from */
	int dp_fd, ctr_fd;
	bool dp_made, ctr_made; /* created once (truncated); reopened for appending */
	bool cut;               /* rows came without their end of line: cut off */
	bool counters;          /* collect --counters (as asked here, not as the SUT says) */
	uint64_t dp_lines, ctr_lines;
};

struct rx {
	const struct remote_opts *ro;
	const char *host, *outdir;
	const char *report_dir;  /* its name is the reportid (outdir; the final one for a fetch) */
	struct ssh_proc sp;
	struct run_dir rd;
	bool dir_made, hello, ended, stop_sent;
	struct rxd *dirs;       /* dirs[0]: the run directory */
	size_t ndirs, dirs_cap, cur;
	size_t *slots;          /* NAME_SLOTS: index + 1 of the dir with that name's hash, or 0 */
	size_t info_bytes;      /* info.json texts held */
	uint64_t dp_rows, ctr_rows;   /* over all dirs */
	cJSON *exp;             /* experiment.json (--matrix) */
	int remote_status;
	char *sut_dir;
	char *fbuf;            /* frame bytes not yet parsed */
	size_t flen, fcap, fneed;   /* fneed: the bytes of the frame being read (0: unknown yet) */
	char ebuf[4096];       /* stderr bytes of an unfinished line */
	size_t elen;
	char early_err[2 * EARLY_ERR_MAX];   /* stderr before the agent ran (ssh's own): its end */
	size_t early_len;
	bool remote_msg;       /* a remote message was passed on */
	bool failed_write;
	bool refused;          /* the SUT sent more than a limit allows: nothing more is read */
	bool hold;             /* fetch: "fetched" only after the caller's commit */
	bool fetched;          /* fetch: info.json says so */
	bool got_any;          /* an info.json or rows arrived */
	bool short_sent;       /* ended, but the rows are not what the SUT's info.json counts */
	struct progress *prog;
	uint64_t last_report_ns;
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

/* The slot of name in x->slots: where it is, or the free slot it would take. */
static size_t name_slot(const struct rx *x, const char *name)
{
	uint64_t h = 1469598103934665603ull;   /* FNV-1a */
	for (const char *c = name; *c; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211ull;
	size_t i = (size_t)h & (NAME_SLOTS - 1);
	while (x->slots[i] && strcmp(x->dirs[x->slots[i] - 1].name, name))
		i = (i + 1) & (NAME_SLOTS - 1);
	return i;
}

static struct rxd *add_rxd(struct rx *x, const char *name)
{
	if (!x->slots)
		x->slots = isc_xcalloc(NAME_SLOTS, sizeof(*x->slots));
	if (x->ndirs == x->dirs_cap) {   /* doubling: linear in all (a realloc may copy) */
		x->dirs_cap = x->dirs_cap ? 2 * x->dirs_cap : 16;
		x->dirs = isc_xrealloc(x->dirs, x->dirs_cap * sizeof(*x->dirs));
	}
	struct rxd *d = &x->dirs[x->ndirs++];
	*d = (struct rxd){ .name = isc_xstrdup(name), .rd = { .dirfd = -1 }, .dp_fd = -1, .ctr_fd = -1,
			   .counters = x->ro->counters };
	x->slots[name_slot(x, name)] = x->ndirs;
	return d;
}

/* 0, or -1 when a file did not reach the disk. */
static int close_files(struct rxd *d)
{
	int rc = 0;
	for (int i = 0; i < 2; i++) {
		int *fd = i ? &d->ctr_fd : &d->dp_fd;
		if (*fd >= 0 && (fsync(*fd) < 0) + (close(*fd) < 0))
			rc = -1;
		*fd = -1;
	}
	return rc;
}

/* The files of d closed, and its directory unless it is the run directory itself. */
static int close_sub(struct rxd *d)
{
	int rc = close_files(d);
	if (d->name[0] && d->rd.dirfd >= 0) {
		close(d->rd.dirfd);
		d->rd.dirfd = -1;
		free(d->rd.path);
		d->rd.path = NULL;
	}
	return rc;
}

/* A run subdirectory of an experiment: a plain name, made in the run directory. */
static int open_sub(struct rx *x, struct rxd *d)
{
	if (d->rd.dirfd >= 0)
		return 0;
	if (!d->name[0]) {
		d->rd.dirfd = x->rd.dirfd;
		d->rd.path = x->rd.path;
		return 0;
	}
	if (mkdirat(x->rd.dirfd, d->name, 0755) < 0 && errno != EEXIST) {
		remote_err(x->host, "%s/%s: %s", x->rd.path, d->name, strerror(errno));
		return -1;
	}
	d->rd.dirfd = openat(x->rd.dirfd, d->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d->rd.dirfd < 0) {
		remote_err(x->host, "%s/%s: %s", x->rd.path, d->name, strerror(errno));
		return -1;
	}
	d->rd.path = isc_xasprintf("%s/%s", x->rd.path, d->name);
	return 0;
}

/* FRAME_SUBDIR: frames for another directory from now on (the files of the last one closed,
 * so that an experiment of many runs does not hold many descriptors). */
static void on_subdir(struct rx *x, const char *p, size_t n)
{
	char *name = isc_xstrndup(p, n), q[80];
	if (memchr(p, '\0', n) || strchr(name, '/') || name[0] == '.' || strchr(name, '\n')) {
		isc_quote_for_msg(name, strlen(name), q, sizeof(q));
		remote_err(x->host, "garbled data from the SUT (a run subdirectory named '%s')", q);
		x->failed_write = true;
		free(name);
		return;
	}
	size_t slot = name_slot(x, name), i = x->slots[slot] ? x->slots[slot] - 1 : x->ndirs;
	if (i == x->ndirs && x->ndirs >= MAX_SUBDIRS) {
		remote_err(x->host, "the SUT sent more than %d run subdirectories: refused", MAX_SUBDIRS - 1);
		x->failed_write = x->refused = true;
		free(name);
		return;
	}
	if (i == x->ndirs)
		add_rxd(x, name);
	free(name);
	if (i != x->cur && close_sub(&x->dirs[x->cur]) < 0)
		x->failed_write = true;
	x->cur = i;
}

static int open_out(struct rx *x, struct rxd *d, int *fd, bool *made, const char *name)
{
	if (*fd >= 0)
		return 0;
	if (open_sub(x, d) < 0)
		return -1;
	*fd = openat(d->rd.dirfd, name, O_WRONLY | O_CREAT | (*made ? O_APPEND : O_TRUNC) | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (*fd < 0) {
		isc_err("%s/%s: %s", d->rd.path, name, strerror(errno));
		return -1;
	}
	*made = true;
	return 0;
}

static uint64_t dir_rows(const struct rxd *d)
{
	return d->dp_lines ? d->dp_lines - 1 : 0;
}

static uint64_t dir_ctr_rows(const struct rxd *d)
{
	return d->ctr_lines ? d->ctr_lines - 1 : 0;
}

static uint64_t received_rows(const struct rx *x)
{
	return x->dp_rows;
}

static uint64_t received_ctr_rows(const struct rx *x)
{
	return x->ctr_rows;
}

static cJSON *remote_object(const struct rx *x, const char *connection)
{
	cJSON *r = cJSON_CreateObject();
	cJSON_AddStringToObject(r, "host", x->host);
	cJSON_AddStringToObject(r, "transport", "openssh");
	cJSON_AddStringToObject(r, "connection", connection);
	if (x->sut_dir)
		cJSON_AddStringToObject(r, "sut_run_dir", x->sut_dir);
	cJSON_AddBoolToObject(r, "sut_copy_kept", (strcmp(connection, "complete") != 0 || x->short_sent) && !x->fetched);
	if (x->fetched) {
		char ts[64];
		isc_iso_time(ts, sizeof(ts));
		cJSON_AddBoolToObject(r, "fetched", true);
		cJSON_AddStringToObject(r, "fetch_time", ts);
	}
	return r;
}

/* The SUT's info.json with what the controller knows added: the host as given, the
 * connection's fate, the SUT's copy. */
static int write_info(struct rx *x, struct rxd *d, const char *connection)
{
	if (!d->info || !x->dir_made || open_sub(x, d) < 0)
		return 0;
	cJSON *sys = cJSON_GetObjectItemCaseSensitive(d->info, "system");
	if (!x->ro->reportid && !d->name[0]) {   /* as for a local run: the run directory's name, not the SUT's */
		const char *base = strrchr(x->report_dir, '/');
		isc_json_set(d->info, "reportid", cJSON_CreateString(base ? base + 1 : x->report_dir));
	}
	if (cJSON_IsObject(sys))
		isc_json_set(sys, "ssh_host", cJSON_CreateString(x->host));
	cJSON *r = remote_object(x, connection);
	cJSON_AddNumberToObject(r, "received_datapoints", (double)dir_rows(d));
	cJSON_AddNumberToObject(r, "received_counter_rows", (double)dir_ctr_rows(d));
	isc_json_set(d->info, "remote", r);
	if (run_write_info(&d->rd, d->info, INFO_RESERVE) < 0) {
		x->failed_write = true;
		return -1;
	}
	return 0;
}

/* experiment.json of an experiment on the SUT, with the same remote object. */
static int write_exp(struct rx *x, const char *connection)
{
	if (!x->exp || !x->dir_made)
		return 0;
	cJSON *r = remote_object(x, connection);
	cJSON_AddNumberToObject(r, "received_datapoints", (double)received_rows(x));
	isc_json_set(x->exp, "remote", r);
	if (experiment_json_write(x->rd.dirfd, x->exp) < 0) {
		x->failed_write = true;
		return -1;
	}
	return 0;
}

static void on_info(struct rx *x, char type, const char *p, size_t n)
{
	struct rxd *d = &x->dirs[x->cur];
	if (type == FRAME_INFO && x->info_bytes - d->info_len + n > MAX_INFO_BYTES) {
		remote_err(x->host, "the SUT sent more than %u MiB of info.json: refused", MAX_INFO_BYTES >> 20);
		x->failed_write = x->refused = true;
		return;
	}
	cJSON *j = cJSON_ParseWithLength(p, n);
	if (!cJSON_IsObject(j)) {
		cJSON_Delete(j);
		return;
	}
	if (make_dir(x) < 0) {
		cJSON_Delete(j);
		x->failed_write = true;
		return;
	}
	x->got_any = true;
	if (type == FRAME_EXP) {
		bool first = !x->exp;
		cJSON_Delete(x->exp);
		x->exp = j;
		write_exp(x, "open");
		if (first && !x->ro->quiet && !x->hold)
			isc_info("%s: experiment into %s", x->host, x->rd.path);
		return;
	}
	bool first = !d->info && !x->exp;
	cJSON_Delete(d->info);
	d->info = j;
	x->info_bytes = x->info_bytes - d->info_len + n;
	d->info_len = n;
	write_info(x, d, "open");
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(j, "method");
	const cJSON *mode = cJSON_GetObjectItemCaseSensitive(j, "mode");
	if (first && !x->ro->quiet && !x->hold && (cJSON_IsString(m) || cJSON_IsString(mode)))
		isc_info("%s: %s %s into %s", x->host, cJSON_IsString(m) ? "measuring with method" : "counter snapshots,",
			cJSON_IsString(m) ? m->valuestring : mode->valuestring, x->rd.path);
}

/* Fleet: rows received so far to the parent, at most every 250 ms. */
static void report_rows(struct rx *x, bool force)
{
	uint64_t now = isc_mono_ns();
	if (remote_progress_fd < 0 || (!force && now - x->last_report_ns < 250000000ull))
		return;
	x->last_report_ns = now;
	struct fleet_msg m = { .kind = 'P', .rows = x->ro->counters ? received_ctr_rows(x) : received_rows(x) };
	(void)!write(remote_progress_fd, &m, sizeof(m));
}

static void on_data(struct rx *x, char type, const char *p, size_t n)
{
	struct rxd *d = &x->dirs[x->cur];
	bool dp = type == FRAME_DP;
	const char *name = dp ? "datapoints.csv" : "counters.csv";
	int *fd = dp ? &d->dp_fd : &d->ctr_fd;
	const char *nl = n ? memrchr(p, '\n', n) : NULL;
	size_t whole = nl ? (size_t)(nl - p) + 1 : 0;
	if (whole < n)
		d->cut = true;   /* the agent sends whole rows: the rest is a row cut off, dropped */
	n = whole;
	if (!n)
		return;
	if (make_dir(x) < 0 || open_out(x, d, fd, dp ? &d->dp_made : &d->ctr_made, name) < 0 ||
	    remote_write_all(*fd, p, n) < 0) {
		if (!x->failed_write)
			remote_err(x->host, "%s/%s: cannot write: %s", x->outdir, name, strerror(errno));
		x->failed_write = true;
		return;
	}
	uint64_t *lines = dp ? &d->dp_lines : &d->ctr_lines, before = *lines;
	x->got_any = true;
	for (const char *q = p; (q = memchr(q, '\n', (size_t)(p + n - q))); q++)
		(*lines)++;
	/* the first line of each file is its header */
	*(dp ? &x->dp_rows : &x->ctr_rows) += *lines - before - (before == 0);
	if (x->ro->counters)
		progress_update(x->prog, received_ctr_rows(x), 0, NULL, false);
	else
		progress_update(x->prog, received_rows(x), 0, NULL, false);
	report_rows(x, false);
}

static void on_frame(struct rx *x, char type, const char *p, size_t n)
{
	switch (type) {
	case FRAME_HELLO: {
		char q[4200];
		x->hello = true;
		free(x->sut_dir);
		isc_quote_for_msg(p, n, q, sizeof(q));   /* printed and kept in info.json */
		x->sut_dir = isc_xstrdup(q);
		break;
	}
	case FRAME_SUBDIR: on_subdir(x, p, n); break;
	case FRAME_INFO:
	case FRAME_EXP: on_info(x, type, p, n); break;
	case FRAME_DP:
	case FRAME_CTR: on_data(x, type, p, n); break;
	case FRAME_END: {   /* an exit status: 1 to 3 digits, else the stream is not the agent's */
		int st = 0;
		size_t i = 0;
		for (; i < n && i < 3 && p[i] >= '0' && p[i] <= '9'; i++)
			st = st * 10 + (p[i] - '0');
		if (!n || i != n) {
			remote_err(x->host, "garbled data from the SUT (an end frame without an exit status)");
			x->refused = true;
			break;
		}
		x->remote_status = st;
		x->ended = true;
		break;
	}
	}
}

/* Parse whole frames from the buffer; -1 on a malformed stream, why in *why. */
static int parse_frames(struct rx *x, const char **why)
{
	size_t off = 0;
	struct frame f;
	int rc;
	while (!x->refused && (rc = frame_next(x->fbuf + off, x->flen - off, &f, &x->fneed, why)) == 1) {
		on_frame(x, f.type, f.payload, f.len);
		off += f.used;
	}
	if (x->refused)
		return -1;
	memmove(x->fbuf, x->fbuf + off, x->flen - off);
	x->flen -= off;
	return rc < 0 ? -1 : 0;
}

/* Room for the next read: at most the frame being read and 64 KiB more. */
static size_t reserve(struct rx *x)
{
	size_t room = x->fneed > x->flen + 65536 ? x->fneed - x->flen : 65536;
	if (x->fcap - x->flen < room) {
		x->fcap = x->flen + room;
		x->fbuf = isc_xrealloc(x->fbuf, x->fcap);
	}
	return x->fcap - x->flen;
}

/* r new bytes in the buffer: 1, or 0 when the stream is garbled (after a message). */
static int took(struct rx *x, size_t r)
{
	x->flen += r;
	const char *why = NULL;
	if (parse_frames(x, &why) < 0) {
		if (!x->refused)   /* else the limit was named */
			remote_err(x->host, "garbled data from the SUT (not the collect agent's frames: %s)", why);
		return 0;
	}
	return 1;
}

static int read_out(struct rx *x)
{
	ssize_t r = read(x->sp.out, x->fbuf + x->flen, reserve(x));
	if (r < 0 && errno == EINTR)
		return 1;
	return r > 0 ? took(x, (size_t)r) : 0;
}

/* A line from the SUT's stderr: before the agent runs it is ssh's (kept for the error), after
 * that it is the SUT's collect talking, passed on with the host in front. */
static void err_line(struct rx *x, const char *s, size_t n)
{
	if (!x->hello) {   /* at least the last EARLY_ERR_MAX bytes: ssh's verdict is at the end */
		if (n > EARLY_ERR_MAX - 2) {
			s += n - (EARLY_ERR_MAX - 2);
			n = EARLY_ERR_MAX - 2;
		}
		if (x->early_len + n + 2 > sizeof(x->early_err)) {   /* once per EARLY_ERR_MAX bytes */
			size_t keep = EARLY_ERR_MAX - n < x->early_len ? EARLY_ERR_MAX - n : x->early_len;
			memmove(x->early_err, x->early_err + x->early_len - keep, keep);
			x->early_len = keep;
		}
		memcpy(x->early_err + x->early_len, s, n);
		x->early_len += n;
		x->early_err[x->early_len++] = '\n';
		x->early_err[x->early_len] = '\0';
		return;
	}
	if (!n)
		return;
	char *line = isc_xstrndup(s, n), *safe = isc_text_dup(line, ISC_TEXT_LINE);
	fprintf(stderr, "%s: %s: %s\n", isc_progname(), x->host, safe);
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

/* Why the rows of d are not the whole run its info.json describes, in buf; NULL: they are. */
static const char *short_reason(const struct rxd *d, char *buf, size_t len)
{
	if (d->cut)
		return "rows came without their end of line (cut off, dropped)";
	if (!d->info)
		return d->dp_lines || d->ctr_lines ? "rows came without an info.json" : NULL;
	const cJSON *end = cJSON_GetObjectItemCaseSensitive(d->info, "end_time");
	const cJSON *dps = cJSON_GetObjectItemCaseSensitive(d->info, "datapoints");
	if (!cJSON_IsString(end))
		return "its info.json has no end_time (the SUT's collect did not finish it)";
	if (d->counters)
		return NULL;   /* counters alone: info.json does not count the rows */
	uint64_t counted;
	if (!isc_json_count(dps, &counted) || counted != dir_rows(d)) {
		snprintf(buf, len, "its info.json counts %.0f datapoints, %llu arrived",
			 cJSON_IsNumber(dps) ? dps->valuedouble : -1.0, (unsigned long long)dir_rows(d));
		return buf;
	}
	return NULL;
}

/* After the end frame: does every run hold the rows its info.json counts? If not, the SUT
 * keeps its copy (no "fetched") and conclude() marks the runs incomplete. */
static void check_whole(struct rx *x)
{
	char buf[160];
	for (size_t i = 0; i < x->ndirs && !x->short_sent; i++)
		x->short_sent = short_reason(&x->dirs[i], buf, sizeof(buf)) != NULL;
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
			check_whole(x);
			if (x->hold)
				return;   /* the caller says "fetched" once the copy is in place */
			/* everything is here: tell the agent it may remove the SUT's copy */
			if (close_files(&x->dirs[x->cur]) < 0)
				x->failed_write = true;
			if (!x->failed_write && !x->short_sent)
				(void)!write(x->sp.in, "fetched\n", 8);
			close(x->sp.in);
			x->sp.in = -1;
		}
	}
}

static char *agent_command(const struct remote_opts *ro, const char *collect, const char *outdir)
{
	char date[32];
	isc_name_stamp(date, sizeof(date));
	const char *name = strrchr(outdir, '/') ? strrchr(outdir, '/') + 1 : outdir;
	char *leaf = isc_xasprintf("%s-%s-%d", name[0] ? name : "run", date, (int)getpid());
	char *qleaf = sh_quote(leaf);
	char *cmd = isc_xasprintf("mkdir -p \"$isbase/runs\" || exit 96\n%s --remote-agent \"$isbase/runs\"/%s",
				 collect, qleaf);
	free(leaf);
	free(qleaf);
	return sh_append_passed(cmd, ro);
}

/* A run that did not end on the SUT before the connection dropped (no end_time, or fewer rows
 * here than its info.json counts): not complete, and why. */
static void mark_lost(struct rxd *d, const char *now)
{
	const cJSON *end = cJSON_GetObjectItemCaseSensitive(d->info, "end_time");
	bool counters = d->counters;
	char buf[160];
	if (!short_reason(d, buf, sizeof(buf)))
		return;
	isc_json_set(d->info, "complete", cJSON_CreateBool(false));
	isc_json_set(d->info, "stop_reason", cJSON_CreateString("connection lost"));
	if (!counters)
		isc_json_set(d->info, "datapoints", cJSON_CreateNumber((double)dir_rows(d)));
	if (cJSON_IsNull(end) || !end)
		isc_json_set(d->info, "end_time", cJSON_CreateString(now));
}

static void conclude_lost(struct rx *x, int ssh_rc, struct host_result *res)
{
	char now[64];
	if (x->hold) {   /* a fetch: its temporary directory goes, the run stays as it was */
		remote_err(x->host, "connection lost during the fetch (ssh exit %d); %s unchanged, the SUT keeps its "
			   "copy", ssh_rc, x->report_dir);
		snprintf(res->status, sizeof(res->status), "connection lost");
		return;
	}
	isc_iso_time(now, sizeof(now));
	for (size_t i = 0; i < x->ndirs; i++)
		if (x->dirs[i].info) {
			mark_lost(&x->dirs[i], now);
			write_info(x, &x->dirs[i], "lost");
			if (close_sub(&x->dirs[i]) < 0)
				x->failed_write = true;
		}
	if (x->exp) {
		const cJSON *end = cJSON_GetObjectItemCaseSensitive(x->exp, "end_time");
		if (!end || cJSON_IsNull(end)) {
			isc_json_set(x->exp, "end_time", cJSON_CreateString(now));
			isc_json_set(x->exp, "complete", cJSON_CreateBool(false));
			isc_json_set(x->exp, "stop_reason", cJSON_CreateString("connection lost"));
		}
		write_exp(x, "lost");
	}
	remote_err(x->host, "connection lost after %llu %s (ssh exit %d); %s kept what arrived, the "
		   "SUT keeps its copy in %s (collect --fetch)", (unsigned long long)res->datapoints,
		   x->ro->counters ? "counter rows" : "datapoints", ssh_rc,
		   x->dir_made ? x->rd.path : "nothing", x->sut_dir ? x->sut_dir : "?");
	snprintf(res->status, sizeof(res->status), "connection lost");
}

/* The stream ended but some run lacks rows its info.json counts: each such run (and the
 * experiment) marked incomplete, the SUT's copy kept, one line. */
static void conclude_short(struct rx *x, struct host_result *res)
{
	char buf[160], first[400] = "";
	size_t nshort = 0;
	for (size_t i = 0; i < x->ndirs; i++) {
		struct rxd *d = &x->dirs[i];
		const char *why = short_reason(d, buf, sizeof(buf));
		if (!why)
			continue;
		if (!nshort++)
			snprintf(first, sizeof(first), "%s%s%s", d->name[0] ? d->name : "", d->name[0] ? ": " : "", why);
		if (d->info) {
			isc_json_set(d->info, "complete", cJSON_CreateBool(false));
			isc_json_set(d->info, "stop_reason", cJSON_CreateString("incomplete transfer"));
			if (!d->counters)
				isc_json_set(d->info, "datapoints", cJSON_CreateNumber((double)dir_rows(d)));
		}
	}
	if (x->exp) {
		isc_json_set(x->exp, "complete", cJSON_CreateBool(false));
		isc_json_set(x->exp, "stop_reason", cJSON_CreateString("incomplete transfer"));
	}
	if (x->hold)
		remote_err(x->host, "the SUT's copy is not whole (%s); %s unchanged, the SUT keeps its copy", first,
			   x->report_dir);
	else
		remote_err(x->host, "incomplete transfer: %s%s; %s marked incomplete, the SUT keeps its copy in %s "
			   "(collect --fetch)", first, nshort > 1 ? " (and in more runs)" : "",
			   x->dir_made ? x->rd.path : "nothing", x->sut_dir ? x->sut_dir : "?");
	snprintf(res->status, sizeof(res->status), "incomplete transfer");
}

/* After the stream ended: the exit status, one line on what went wrong, info.json final. */
static int conclude(struct rx *x, int ssh_rc, struct host_result *res)
{
	char why[600];
	int status = ISC_EXIT_OK;
	res->datapoints = x->ro->counters ? received_ctr_rows(x) : received_rows(x);
	if (x->ended && x->short_sent && !x->remote_status) {
		conclude_short(x, res);
		for (size_t i = 0; i < x->ndirs; i++)
			if (!x->hold && (write_info(x, &x->dirs[i], "incomplete") < 0) + (close_sub(&x->dirs[i]) < 0))
				x->failed_write = true;
		if (!x->hold)
			write_exp(x, "incomplete");
		status = ISC_EXIT_DATA;
	} else if (x->ended) {
		status = x->remote_status ? ISC_EXIT_DATA : ISC_EXIT_OK;
		for (size_t i = 0; i < x->ndirs; i++)
			if ((write_info(x, &x->dirs[i], x->fetched ? "lost" : "complete") < 0) +
			    (close_sub(&x->dirs[i]) < 0))
				status = ISC_EXIT_DATA;
		if (write_exp(x, x->fetched ? "lost" : "complete") < 0)
			status = ISC_EXIT_DATA;
		if (x->remote_status && !x->remote_msg)
			remote_err(x->host, "collect on the SUT failed (exit %d)", x->remote_status);
		bool any_info = x->exp || (x->ndirs && x->dirs[0].info);
		if (x->remote_status)
			snprintf(res->status, sizeof(res->status), "%s: %.120s",
				 any_info ? "failed on the SUT" : "refused on the SUT", remote_last_error);
		else
			snprintf(res->status, sizeof(res->status), "ok");
	} else if (!x->hello) {
		if (ssh_rc == 255)
			ssh_explain(x->early_err, why, sizeof(why));
		else
			last_line(x->early_err, why, sizeof(why));
		remote_err(x->host, "%s", why[0] ? why : "the SUT's collect did not start");
		snprintf(res->status, sizeof(res->status), "failed: %.140s", why);
		return ISC_EXIT_DATA;
	} else {
		conclude_lost(x, ssh_rc, res);
		status = ISC_EXIT_DATA;
	}
	if (x->failed_write) {
		snprintf(res->status, sizeof(res->status), "local write failed");
		status = ISC_EXIT_DATA;
	}
	for (size_t i = 0; i < x->ndirs; i++) {
		const cJSON *info = x->dirs[i].info;
		const cJSON *d = info ? cJSON_GetObjectItemCaseSensitive(info, "discards") : NULL, *v;
		uint64_t n;
		bool odd = false;
		cJSON_ArrayForEach(v, d) {
			if (isc_json_count(v, &n))
				res->discards += n;
			else
				odd |= cJSON_IsNumber(v);
		}
		if (odd)
			isc_warn("%s: %s%sinfo.json: a discard count that is not a whole number from 0 to 2^53; "
				 "left out of the total", x->host, x->dirs[i].name, x->dirs[i].name[0] ? ": " : "");
		/* The SUT's collect runs quiet: its end-of-run warnings are said here. */
		const cJSON *said = x->ro->quiet || !info ? NULL : cJSON_GetObjectItemCaseSensitive(info, "warnings");
		cJSON_ArrayForEach(v, said)
			if (cJSON_IsString(v))
				isc_warn("%s: %s%s%s", x->host, x->dirs[i].name, x->dirs[i].name[0] ? ": " : "", v->valuestring);
	}
	return status;
}

static void rx_close(struct rx *x)
{
	for (size_t i = 0; i < x->ndirs; i++)
		if (close_files(&x->dirs[i]) < 0)
			x->failed_write = true;
}

static void rx_free(struct rx *x)
{
	for (size_t i = 0; i < x->ndirs; i++) {
		struct rxd *d = &x->dirs[i];
		if (close_files(d) < 0)
			x->failed_write = true;
		if (d->name[0]) {
			if (d->rd.dirfd >= 0)
				close(d->rd.dirfd);
			free(d->rd.path);
		}
		cJSON_Delete(d->info);
		free(d->name);
	}
	free(x->dirs);
	cJSON_Delete(x->exp);
	free(x->fbuf);
	free(x->slots);
	free(x->sut_dir);
}

/* Run the agent command on host and receive its frames into outdir (made by the caller). With
 * commit (fetch), "fetched" goes to the agent only when commit(arg) returns 0. */
static int receive(struct rx *x, const char *cmd, bool progress, struct host_result *res,
		   int (*commit)(void *arg, struct host_result *res), void *arg)
{
	x->hold = commit != NULL;
	add_rxd(x, "");
	if (ssh_start(x->ro, x->host, cmd, &x->sp) < 0) {
		rx_free(x);
		return ISC_EXIT_DATA;
	}
	x->prog = progress_start(x->ro->count, x->ro->time_limit_ns, !progress || x->ro->quiet);
	pump_loop(x);
	progress_end(x->prog);
	int status;
	if (x->hold && x->ended && !x->failed_write && !x->remote_status && !x->short_sent) {
		x->fetched = true;
		status = conclude(x, 0, res);
		rx_close(x);
		if (status == ISC_EXIT_OK && !x->failed_write && commit(arg, res) == 0)
			(void)!write(x->sp.in, "fetched\n", 8);
		else
			status = ISC_EXIT_DATA;
		ssh_wait(&x->sp);
	} else {
		int ssh_rc = ssh_wait(&x->sp);
		status = conclude(x, ssh_rc, res);
		rx_close(x);
	}
	if (x->failed_write)
		status = ISC_EXIT_DATA;
	report_rows(x, true);
	rx_free(x);
	return status;
}

int remote_run_host(const struct remote_opts *ro, const char *host, const char *outdir,
		    bool progress, struct host_result *res)
{
	struct rx x = { .ro = ro, .host = host, .outdir = outdir, .report_dir = outdir, .rd = { .dirfd = -1 } };
	char *collect = NULL, *ko = NULL;
	int rc;
	*res = (struct host_result){ .status = "failed" };
	/* the local directory first: a name already taken is found before the SUT is touched */
	if ((rc = run_dir_create(outdir, ro->force, &x.rd)) < 0)
		return rc == -2 ? ISC_EXIT_USAGE : ISC_EXIT_DATA;
	x.dir_made = true;
	if (remote_deploy_run(ro, host, &collect, &ko)) {
		snprintf(res->status, sizeof(res->status), "failed: %.140s", remote_last_error);
		run_dir_close(&x.rd);
		rmdir(outdir);   /* nothing in it: no empty run is left behind */
		return ISC_EXIT_DATA;
	}
	char *body = remote_add_kmod_path(agent_command(ro, collect, outdir), ko), *cmd = remote_shell(ro, body);
	free(body);
	free(collect);
	free(ko);
	int status = receive(&x, cmd, progress, res, NULL, NULL);
	free(cmd);
	bool empty = !x.got_any;
	run_dir_close(&x.rd);
	if (empty)
		rmdir(outdir);
	return status;
}

int remote_receive_bytes(const struct remote_opts *ro, const char *host, const char *outdir,
			 const char *bytes, size_t n, struct host_result *res)
{
	struct rx x = { .ro = ro, .host = host, .outdir = outdir, .report_dir = outdir, .rd = { .dirfd = -1 },
			.sp = { .pid = -1, .in = -1, .out = -1, .err = -1 } };
	*res = (struct host_result){ .status = "failed" };
	add_rxd(&x, "");
	x.prog = progress_start(0, 0, true);
	for (size_t off = 0, k; off < n; off += k) {
		size_t room = reserve(&x);
		k = n - off < room ? n - off : room;
		memcpy(x.fbuf + x.flen, bytes + off, k);
		if (!took(&x, k))
			break;
	}
	progress_end(x.prog);
	if (x.ended)
		check_whole(&x);
	int status = conclude(&x, x.ended ? 0 : 255, res);
	rx_close(&x);
	if (x.failed_write)
		status = ISC_EXIT_DATA;
	rx_free(&x);
	if (x.dir_made)
		run_dir_close(&x.rd);
	return status;
}

int remote_receive_fetch(const struct remote_opts *ro, const char *host, const char *tmpdir,
			 const char *report_dir, const char *cmd,
			 int (*commit)(void *arg, struct host_result *res), void *arg, struct host_result *res)
{
	struct rx x = { .ro = ro, .host = host, .outdir = tmpdir, .report_dir = report_dir, .rd = { .dirfd = -1 } };
	*res = (struct host_result){ .status = "failed" };
	int status = receive(&x, cmd, false, res, commit, arg);
	if (x.dir_made)
		run_dir_close(&x.rd);
	return status;
}
