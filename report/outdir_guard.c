/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The output directory against the inputs: a report is never written over, around or inside
 * a run it reads (`report RUN -o RUN --force` would delete the run). Directories are compared
 * by device and inode, walking up through "..", so that symbolic links, "." and ".." and
 * bind mounts cannot hide one inside the other.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "text/util.h"
#include "report.h"

#define MAX_DEPTH 4096  /* directories walked up from one path; the real tree is finite */

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* 1 if directory `dir` is `top` or lies below it, 0 if not, -1 if it cannot be told. */
static int at_or_below(const char *dir, const struct stat *top)
{
	int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC), found = -1;
	for (int depth = 0; fd >= 0 && depth < MAX_DEPTH; depth++) {
		struct stat st, up_st;
		if (fstat(fd, &st) < 0)
			break;
		if (same_file(&st, top)) {
			found = 1;
			break;
		}
		int up = openat(fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (up < 0 || fstat(up, &up_st) < 0) {
			if (up >= 0)
				close(up);
			break;
		}
		close(fd);
		fd = up;
		if (same_file(&up_st, &st)) {  /* "/" is its own parent */
			found = 0;
			break;
		}
	}
	int err = errno;
	if (fd >= 0)
		close(fd);
	errno = err;
	return found;
}

/* The directory that really holds file `path` (symbolic links resolved); NULL if absent. */
static char *real_parent(const char *path)
{
	char real[PATH_MAX];
	if (!realpath(path, real))
		return NULL;
	return isc_xstrdup(dirname(real));
}

/* out (existing, *out_st) must not hold any file of run r: its datapoints, metadata,
 * counters, wherever symbolic links put them. */
static int check_contains(const char *out, const struct stat *out_st, const struct isc_run *r)
{
	static const char *const extras[] = { "info.json", "info.yml", "counters.csv" };
	char *files[4] = { isc_xstrdup(r->dp_path) };
	int rc = 0;
	for (size_t i = 0; i < 3; i++)
		files[i + 1] = path_cat(r->dir, extras[i]);
	for (size_t i = 0; i < 4 && rc == 0; i++) {
		char *dir = real_parent(files[i]);
		int below = dir ? at_or_below(dir, out_st) : 0;
		if (below != 0) {
			if (below > 0)
				isc_err("%s: holds %s, an input of this report; not replacing it "
				       "(choose another -o)", out, files[i]);
			else
				isc_err("%s: cannot tell whether it holds %s (%s); not replacing it", out,
				       files[i], strerror(errno));
			rc = -1;
		}
		free(dir);
	}
	for (size_t i = 0; i < 4; i++)
		free(files[i]);
	return rc;
}

/* The directory out is or will be made in: out itself if it exists, else its parent. */
static char *out_place(const char *out, bool *exists)
{
	struct stat st;
	*exists = stat(out, &st) == 0 && S_ISDIR(st.st_mode);
	if (*exists)
		return isc_xstrdup(out);
	char *copy = isc_xstrdup(out);
	size_t n = strlen(copy);
	while (n > 1 && copy[n - 1] == '/')
		copy[--n] = '\0';
	char *parent = isc_xstrdup(dirname(copy));
	free(copy);
	return parent;
}

static bool same_dir(const char *a, const char *b)
{
	struct stat sa, sb;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && same_file(&sa, &sb);
}

/* out must not be, or lie inside, a run given as a directory. */
static int check_inside(const char *out, const char *place, bool exists, const struct isc_run *r)
{
	struct stat run_st;
	if (stat(r->path, &run_st) < 0 || !S_ISDIR(run_st.st_mode))
		return 0;  /* a bare datapoints.csv: a report beside it is fine */
	int below = at_or_below(place, &run_st);
	if (below == 0 || (below < 0 && !exists && errno == ENOENT))
		return 0;  /* no parent directory: making the report fails anyway, and says so */
	if (below < 0)
		isc_err("%s: cannot tell whether it lies inside the run %s (%s); not writing there",
		       out, r->path, strerror(errno));
	else if (exists && same_dir(out, r->path))
		isc_err("%s: is the run %s, an input of this report; choose another -o", out, r->path);
	else
		isc_err("%s: lies inside the run %s, an input of this report; choose an -o outside it",
		       out, r->path);
	return -1;
}

int outdir_guard(const char *out, struct isc_run *const *runs, size_t nruns)
{
	bool exists;
	struct stat out_st;
	char *place = out_place(out, &exists);
	int rc = 0;
	if (exists && stat(out, &out_st) < 0)
		exists = false;
	for (size_t r = 0; r < nruns && rc == 0; r++)
		if (check_inside(out, place, exists, runs[r]) < 0 ||
		    (exists && check_contains(out, &out_st, runs[r]) < 0))
			rc = -1;
	free(place);
	return rc;
}
