/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The run directory: created without following planted symlinks (a symlink in the path is
 * followed only when root or the caller owns it); info.json replaced atomically;
 * datapoints.csv written in blocks of whole rows.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect.h"
#include "text/json_out.h"
#include "text/util.h"

#define DP_BLOCK (64 * 1024)
#define DP_ROW_MAX 1024
#define DP_FLUSH_NS NSEC_PER_SEC

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#define MAX_LINKS 40   /* symlinks followed in one path, as the kernel allows */

/* The files a run directory gets from collect (and collect --counters), and the ones the
 * readers take from a wult result (info.yml); --force removes them. */
static const char *const run_files[] = { "info.json", ".info.json.tmp", "datapoints.csv", "counters.csv",
					 "info.yml", ".info.yml.tmp" };
/* In stats/: wult's stats-collect counters, which analyze and report read when a run has no
 * counters.csv (lib/counters/derive/counters_summary.c). */
static const char *const stats_files[] = { "turbostat.raw.txt" };

struct path_walk {
	int links;       /* symlinks followed so far */
	bool refused;    /* stopped at an unsafe component: a refusal (exit 2), not a system error */
};

static int walk_path(int dirfd, const char *path, const char *label, struct path_walk *pw);

/* Only root and the caller can have made a symlink that is theirs: another user's link in the
 * path is the planted-link threat (docs/collect.md, Faults, "Output paths"). */
static bool link_is_trusted(const struct stat *st)
{
	return st->st_uid == 0 || st->st_uid == geteuid();
}

/* Component `name` of dirfd is not a directory: walk its target if it is a trusted symlink
 * (the very link inspected: O_PATH, no race), else refuse. */
static int follow_link(int dirfd, const char *name, const char *shown, struct path_walk *pw)
{
	char target[PATH_MAX];
	struct stat st;
	ssize_t n = -1;
	int fd = -1, lfd = openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);

	if (lfd < 0 || fstat(lfd, &st) < 0) {
		isc_err("%s: %s", shown, strerror(errno));
	} else if (!S_ISLNK(st.st_mode)) {
		isc_err("%s: exists and is not a directory", shown);
		pw->refused = true;
	} else if (!link_is_trusted(&st)) {
		isc_err("%s: is a symbolic link owned by uid %u (neither root nor you); refusing to follow it "
		       "(give the real directory)", shown, (unsigned)st.st_uid);
		pw->refused = true;
	} else if (++pw->links > MAX_LINKS) {
		isc_err("%s: %s", shown, strerror(ELOOP));
	} else if ((n = readlinkat(lfd, "", target, sizeof(target) - 1)) < 0) {
		isc_err("%s: %s", shown, strerror(errno));
	} else {
		target[n] = '\0';
		char *label = isc_xasprintf("%s -> ", shown);
		fd = walk_path(dirfd, target, label, pw);
		free(label);
	}
	if (lfd >= 0)
		close(lfd);
	return fd;
}

/* One component: open it as a directory without following it, making it if missing. */
static int walk_step(int dirfd, const char *name, const char *shown, struct path_walk *pw)
{
	int fd = openat(dirfd, name, DIR_FLAGS);

	if (fd < 0 && errno == ENOENT) {
		if (mkdirat(dirfd, name, 0755) < 0 && errno != EEXIST) {
			isc_err("%s: %s", shown, strerror(errno));
			return -1;
		}
		fd = openat(dirfd, name, DIR_FLAGS);
	}
	if (fd >= 0)
		return fd;
	if (errno == ENOTDIR || errno == ELOOP)
		return follow_link(dirfd, name, shown, pw);
	isc_err("%s: %s", shown, strerror(errno));
	return -1;
}

/* Open directory `path` (relative to dirfd unless absolute) one component at a time, creating
 * missing ones (mkdir -p). Messages name the component as `label` + the path up to it. */
static int walk_path(int dirfd, const char *path, const char *label, struct path_walk *pw)
{
	int fd = openat(dirfd, path[0] == '/' ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	size_t i = 0;

	if (fd < 0)
		isc_err("%s%s: %s", label, path[0] == '/' ? "/" : ".", strerror(errno));
	while (fd >= 0 && path[i]) {
		size_t len = strcspn(path + i, "/");
		if (len && !(len == 1 && path[i] == '.')) {
			char *name = isc_xstrndup(path + i, len);
			char *shown = isc_xasprintf("%s%.*s", label, (int)(i + len), path);
			int next = walk_step(fd, name, shown, pw);
			close(fd);
			fd = next;
			free(name);
			free(shown);
		}
		i += len;
		while (path[i] == '/')
			i++;
	}
	return fd;
}

static int dir_is_empty(int dirfd)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	int empty = 1;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			empty = 0;
			break;
		}
	closedir(d);
	return empty;
}

/* --force: the wult run's stats/ files the readers take; a stats that is not a real
 * directory (a symlink, a file) is left alone. */
static int remove_stats_files(int dirfd, const char *path)
{
	int sfd = openat(dirfd, "stats", DIR_FLAGS);

	if (sfd < 0)
		return 0;
	for (size_t i = 0; i < sizeof(stats_files) / sizeof(stats_files[0]); i++)
		if (unlinkat(sfd, stats_files[i], 0) < 0 && errno != ENOENT) {
			isc_err("%s/stats/%s: cannot remove the previous run's file: %s", path, stats_files[i],
			       strerror(errno));
			close(sfd);
			return -1;
		}
	close(sfd);
	return 0;
}

/* --force: the previous run's files go, so that none of them passes for this run's. */
static int remove_run_files(int dirfd, const char *path)
{
	for (size_t i = 0; i < sizeof(run_files) / sizeof(run_files[0]); i++)
		if (unlinkat(dirfd, run_files[i], 0) < 0 && errno != ENOENT) {
			isc_err("%s/%s: cannot remove the previous run's file: %s", path, run_files[i], strerror(errno));
			return -1;
		}
	return remove_stats_files(dirfd, path);
}

/* The run directory `base` in pfd: made, or an existing real directory (empty unless force). */
static int open_run_dir(int pfd, const char *base, const char *path, bool force)
{
	struct stat st;

	if (fstatat(pfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
		isc_err("%s: is a symbolic link; refusing to write through it (give the real directory)", path);
		return -2;
	}
	bool created = mkdirat(pfd, base, 0755) == 0;
	if (!created && errno != EEXIST) {
		isc_err("%s: %s", path, strerror(errno));
		return -1;
	}
	int fd = openat(pfd, base, DIR_FLAGS);
	if (fd < 0) {
		bool refused = errno == ENOTDIR || errno == ELOOP;
		isc_err("%s: %s", path, refused ? "exists and is not a directory" : strerror(errno));
		return refused ? -2 : -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int e = errno;
		long pid = e == EWOULDBLOCK ? collect_lock_holder(fd) : 0;
		if (e != EWOULDBLOCK)
			isc_err("%s: cannot lock it: %s", path, strerror(e));
		else if (pid > 0)
			isc_err("%s: another collector (pid %ld) is writing into it; choose another -o", path, pid);
		else
			isc_err("%s: another collector is writing into it; choose another -o", path);
		close(fd);
		return -1;
	}
	if (!created && !force && dir_is_empty(fd) != 1) {
		isc_err("%s: directory is not empty; use --force to write into it or choose another -o", path);
		close(fd);
		return -2;
	}
	if (!created && force && remove_run_files(fd, path) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

int run_dir_create(const char *path, bool force, struct run_dir *rd)
{
	struct path_walk pw = { 0 };
	char *copy = isc_xstrdup(path), *c1, *c2;
	size_t n = strlen(copy);
	int pfd, fd = -1;

	rd->dirfd = -1;
	rd->path = NULL;
	while (n > 1 && copy[n - 1] == '/')
		copy[--n] = '\0';
	c1 = isc_xstrdup(copy);
	c2 = isc_xstrdup(copy);
	const char *parent = dirname(c1), *base = basename(c2);
	if (!strcmp(base, "/") || !strcmp(base, ".") || !strcmp(base, "..")) {
		isc_err("%s: give a directory name for the run", path);
		fd = -2;
	} else if ((pfd = walk_path(AT_FDCWD, parent, "", &pw)) < 0) {
		fd = pw.refused ? -2 : -1;
	} else {
		fd = open_run_dir(pfd, base, path, force);
		close(pfd);
	}
	if (fd >= 0) {
		rd->dirfd = fd;
		rd->path = isc_xstrdup(copy);
	}
	free(c1);
	free(c2);
	free(copy);
	return fd >= 0 ? 0 : fd;
}

void run_dir_close(struct run_dir *rd)
{
	if (rd->dirfd >= 0)
		close(rd->dirfd);
	rd->dirfd = -1;
	free(rd->path);
	rd->path = NULL;
}

/* A new file in the run directory; an old one (or a planted symlink) is removed first. */
static int create_file(const struct run_dir *rd, const char *name)
{
	if (unlinkat(rd->dirfd, name, 0) < 0 && errno != ENOENT)
		return -1;
	return openat(rd->dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
}

static int write_all(int fd, const char *buf, size_t len, size_t *done)
{
	*done = 0;
	while (*done < len) {
		ssize_t n = write(fd, buf + *done, len - *done);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0) {
			errno = ENOSPC;
			return -1;
		}
		*done += (size_t)n;
	}
	return 0;
}

/* Disk full: overwrite info.json in place within the bytes it already has (the first version
 * is padded with spaces for this), so that no new block is needed. */
static int rewrite_in_place(const struct run_dir *rd, const char *text)
{
	struct stat st;
	size_t len = strlen(text), done;
	int fd = openat(rd->dirfd, "info.json", O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || (size_t)st.st_size < len + 1) {
		close(fd);
		errno = ENOSPC;
		return -1;
	}
	char *buf = isc_xmalloc((size_t)st.st_size);
	memcpy(buf, text, len);
	memset(buf + len, ' ', (size_t)st.st_size - len);
	buf[st.st_size - 1] = '\n';
	int ret = write_all(fd, buf, (size_t)st.st_size, &done);
	free(buf);
	if (ret == 0)
		ret = fsync(fd);
	close(fd);
	return ret;
}

int run_write_info(const struct run_dir *rd, const cJSON *info, size_t reserve)
{
	static const char tmp[] = ".info.json.tmp";
	char *text = isc_json_render(info, true);
	size_t done, len;
	int fd = -1, ret = -1;

	if (!text) {
		isc_err("%s/info.json: cannot render JSON (out of memory)", rd->path);
		return -1;
	}
	len = strlen(text);
	text = isc_xrealloc(text, len + reserve + 2);
	memset(text + len, ' ', reserve);
	text[len + reserve] = '\n';
	text[len + reserve + 1] = '\0';
	fd = create_file(rd, tmp);
	if (fd < 0 || write_all(fd, text, len + reserve + 1, &done) < 0 || fsync(fd) < 0)
		goto fail;
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (renameat(rd->dirfd, tmp, rd->dirfd, "info.json") < 0)
		goto fail;
	ret = cJSON_HasObjectItem(info, "method") ? run_write_wult_info(rd, info) : 0;
	goto out;
fail:
	{
		int e = errno;
		if (fd >= 0)
			close(fd);
		fd = -1;
		unlinkat(rd->dirfd, tmp, 0);
		text[len] = '\0';
		if (e == ENOSPC && rewrite_in_place(rd, text) == 0)
			ret = 0;
		else
			isc_err("%s/info.json: %s", rd->path, strerror(e));
	}
out:
	if (fd >= 0)
		close(fd);
	free(text);
	return ret;
}

/* ------------------------------------------------------------------ datapoints.csv */

struct dp_writer {
	int fd;
	char *path;
	char *buf;
	size_t len;
	off_t on_disk;          /* bytes of whole rows written */
	uint64_t rows;          /* rows on disk */
	uint64_t buffered;      /* rows in buf */
	bool header_buffered;   /* the header line is at the start of buf */
	uint64_t last_flush_ns;
	bool header_done;
	bool failed;
	struct dp_columns cols;
	char *res_names[DP_MAX_RES];
};

struct dp_writer *dp_writer_open(const struct run_dir *rd, bool keep_raw,
				 const char *const *state_names, size_t nstates)
{
	int fd = create_file(rd, "datapoints.csv");
	if (fd < 0) {
		isc_err("%s/datapoints.csv: %s", rd->path, strerror(errno));
		return NULL;
	}
	struct dp_writer *w = isc_xcalloc(1, sizeof(*w));
	w->fd = fd;
	w->path = isc_xasprintf("%s/datapoints.csv", rd->path);
	w->buf = isc_xmalloc(DP_BLOCK + DP_ROW_MAX);
	w->cols.keep_raw = keep_raw;
	w->cols.state_names = state_names;
	w->cols.nstates = nstates;
	w->last_flush_ns = isc_mono_ns();
	return w;
}

/* The columns follow the first datapoint: its residencies and whether SMI/NMI counts are known. */
static void put_header(struct dp_writer *w, const struct dp_raw *first)
{
	struct dp_columns *c = &w->cols;
	char *p = w->buf + w->len;
	size_t o = 0;
	o += (size_t)snprintf(p, DP_ROW_MAX, "LDist,SilentTime,WakeLatency,IntrLatency,IntrOff,ReqCState%s",
			      c->keep_raw ? ",LTime,TBI,TAI,TIntr" : "");
	if (first) {
		c->nres = first->nres > DP_MAX_RES ? DP_MAX_RES : first->nres;
		for (size_t i = 0; i < c->nres && o < DP_ROW_MAX - 64; i++) {
			w->res_names[i] = isc_xstrdup(first->res[i].name);
			o += (size_t)snprintf(p + o, DP_ROW_MAX - o, ",%.40s", w->res_names[i]);
		}
		c->smi = first->smi_cnt >= 0;
		c->nmi = first->nmi_cnt >= 0;
		c->causes = first->causes.known;
		c->steal = c->causes && first->causes.steal;
	}
	o += (size_t)dp_causes_header(p + o, DP_ROW_MAX - o, c);
	o += (size_t)snprintf(p + o, DP_ROW_MAX - o, "%s%s\n", c->smi ? ",SMICnt" : "", c->nmi ? ",NMICnt" : "");
	w->len += o;
	w->header_done = true;
	w->header_buffered = true;
}

/* b - a in µs with 3 decimals, exact (integer arithmetic); an empty cell if either is unknown. */
static int put_us_diff(char *p, size_t len, uint64_t b, uint64_t a)
{
	if (!a || !b)
		return snprintf(p, len, ",");
	uint64_t d = b >= a ? b - a : a - b;
	return snprintf(p, len, ",%s%" PRIu64 ".%03" PRIu64, b >= a ? "" : "-", d / 1000, d % 1000);
}

static int put_ns(char *p, size_t len, uint64_t v)
{
	return v ? snprintf(p, len, ",%" PRIu64, v) : snprintf(p, len, ",");
}

static int put_known(char *p, size_t len, long long v)
{
	return v >= 0 ? snprintf(p, len, ",%lld", v) : snprintf(p, len, ",");
}

size_t dp_format_row(char *buf, size_t len, const struct dp_raw *dp, const struct dp_columns *c)
{
	size_t o = 0;
#define PUT(expr) do { int n_ = (expr); if (n_ < 0 || (size_t)n_ >= len - o) return 0; o += (size_t)n_; } while (0)
	PUT(snprintf(buf, len, "%" PRIu64 ".%03" PRIu64, dp->ldist / 1000, dp->ldist % 1000));
	PUT(put_us_diff(buf + o, len - o, dp->ltime, dp->tbi));
	PUT(put_us_diff(buf + o, len - o, dp->tai, dp->ltime));
	PUT(put_us_diff(buf + o, len - o, dp->tintr, dp->ltime));
	PUT(put_known(buf + o, len - o, dp->intr_off));
	bool named = dp->req_state >= 0 && (size_t)dp->req_state < c->nstates;
	PUT(snprintf(buf + o, len - o, ",%s", named ? c->state_names[dp->req_state] : ""));
	if (c->keep_raw) {
		PUT(put_ns(buf + o, len - o, dp->ltime));
		PUT(put_ns(buf + o, len - o, dp->tbi));
		PUT(put_ns(buf + o, len - o, dp->tai));
		PUT(put_ns(buf + o, len - o, dp->tintr));
	}
	for (size_t i = 0; i < c->nres; i++) {
		if (i < dp->nres)
			PUT(snprintf(buf + o, len - o, ",%.2f", dp->res[i].pct));
		else
			PUT(snprintf(buf + o, len - o, ","));
	}
	if (c->causes)
		PUT(dp_causes_cells(buf + o, len - o, &dp->causes, c));
	if (c->smi)
		PUT(put_known(buf + o, len - o, dp->smi_cnt));
	if (c->nmi)
		PUT(put_known(buf + o, len - o, dp->nmi_cnt));
	PUT(snprintf(buf + o, len - o, "\n"));
#undef PUT
	return o;
}

int dp_writer_flush(struct dp_writer *w)
{
	size_t done;
	if (w->failed)
		return -1;
	if (!w->len)
		return 0;
	if (write_all(w->fd, w->buf, w->len, &done) == 0) {
		w->on_disk += (off_t)w->len;
		w->rows += w->buffered;
		w->buffered = 0;
		w->header_buffered = false;
		w->len = 0;
		w->last_flush_ns = isc_mono_ns();
		return 0;
	}
	int e = errno;
	/* Cut a partly written row so that the file holds whole rows only. */
	size_t whole = done;
	while (whole && w->buf[whole - 1] != '\n')
		whole--;
	if (whole < done && ftruncate(w->fd, w->on_disk + (off_t)whole) < 0)
		isc_warn("%s: cannot cut the partial last row: %s", w->path, strerror(errno));
	w->on_disk += (off_t)whole;
	uint64_t lines = 0;
	for (size_t i = 0; i < whole; i++)
		lines += w->buf[i] == '\n';
	if (w->header_buffered && lines)
		lines--;
	w->rows += lines;
	w->buffered = 0;
	w->len = 0;
	w->failed = true;
	isc_err("%s: %s; the %" PRIu64 " datapoints written before are kept", w->path, strerror(e), w->rows);
	return -1;
}

int dp_writer_add(struct dp_writer *w, const struct dp_raw *dp)
{
	if (w->failed)
		return -1;
	if (!w->header_done)
		put_header(w, dp);
	size_t n = dp_format_row(w->buf + w->len, DP_ROW_MAX, dp, &w->cols);
	if (!n) {
		isc_err("%s: datapoint row longer than %d bytes", w->path, DP_ROW_MAX);
		return -1;
	}
	w->len += n;
	w->buffered++;
	if (w->len >= DP_BLOCK || isc_mono_ns() - w->last_flush_ns >= DP_FLUSH_NS)
		return dp_writer_flush(w);
	return 0;
}

uint64_t dp_writer_rows(const struct dp_writer *w)
{
	return w->rows + w->buffered;
}

int dp_writer_close(struct dp_writer *w, uint64_t *rows)
{
	if (!w)
		return 0;
	if (!w->header_done && !w->failed)
		put_header(w, NULL);
	int ret = dp_writer_flush(w);
	*rows = w->rows;
	if (!w->failed && fsync(w->fd) < 0 && errno != EINVAL) {
		isc_err("%s: %s", w->path, strerror(errno));
		ret = -1;
	}
	if (close(w->fd) < 0 && !w->failed) {
		isc_err("%s: %s", w->path, strerror(errno));
		ret = -1;
	}
	for (size_t i = 0; i < w->cols.nres; i++)
		free(w->res_names[i]);
	free(w->buf);
	free(w->path);
	free(w);
	return ret;
}
