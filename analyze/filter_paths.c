/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze filter: an output path that never touches the input, and an atomic replacement. */
#include "filter_paths.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "text/util.h"

static const char *const run_files[] = { "info.json", "info.yml", "datapoints.csv", "counters.csv" };

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Whether target is the directory dirfd or one of its ancestors. Closes dirfd. */
static bool is_dir_or_ancestor(int dirfd, const struct stat *target)
{
	struct stat st, up;
	bool found = false;
	for (int depth = 0; dirfd >= 0 && depth < 4096 && !found; depth++) {
		if (fstat(dirfd, &st) < 0)
			break;
		found = same_file(&st, target);
		int parent = openat(dirfd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		close(dirfd);
		dirfd = parent;
		if (dirfd < 0 || fstat(dirfd, &up) < 0 || same_file(&up, &st))
			break;  /* the root is its own parent */
	}
	if (dirfd >= 0)
		close(dirfd);
	return found;
}

/* The nearest existing directory on the way up from path (path itself if it is one). */
static int nearest_existing_dir(const char *path)
{
	char *p = isc_xstrdup(path);
	int fd = -1;
	for (;;) {
		fd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0 || !strcmp(p, "/") || !strcmp(p, "."))
			break;
		char *d = isc_xstrdup(dirname(p));
		free(p);
		p = d;
	}
	free(p);
	return fd;
}

int filter_check_paths(const char *in_path, bool in_is_dir, const char *out)
{
	struct stat in_st, out_st;
	if (stat(in_path, &in_st) < 0) {
		isc_err("%s: %s", in_path, strerror(errno));
		return -1;
	}
	char *copy = isc_xstrdup(in_path);
	int in_dirfd = open(in_is_dir ? in_path : dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(copy);
	bool clash = false;
	if (stat(out, &out_st) == 0)
		clash = same_file(&out_st, &in_st) || is_dir_or_ancestor(in_dirfd, &out_st);
	else if (in_dirfd >= 0)
		close(in_dirfd);
	if (clash) {
		isc_err("-o %s: is or contains the input %s; refusing to write there", out, in_path);
		return -1;
	}
	if (in_is_dir && is_dir_or_ancestor(nearest_existing_dir(out), &in_st)) {
		isc_err("-o %s: lies inside the input %s; refusing to write there", out, in_path);
		return -1;
	}
	return 0;
}

/* A directory holding only run files: those may be replaced. */
static int check_replaceable(const char *out)
{
	DIR *d = opendir(out);
	struct dirent *e;
	if (!d) {
		isc_err("-o %s: exists and is not a directory", out);
		return -1;
	}
	int rc = 0;
	while (rc == 0 && (e = readdir(d))) {
		bool known = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
		for (size_t i = 0; i < sizeof(run_files) / sizeof(run_files[0]); i++)
			known = known || !strcmp(e->d_name, run_files[i]);
		if (!known) {
			isc_err("-o %s: holds '%s', which is not a run file; not replacing it", out, e->d_name);
			rc = -1;
		}
	}
	closedir(d);
	return rc;
}

char *filter_tmp_dir(const char *out, bool force)
{
	struct stat st;
	if (lstat(out, &st) == 0) {
		if (!force) {
			isc_err("-o %s: exists (--force replaces a run there)", out);
			return NULL;
		}
		if (!S_ISDIR(st.st_mode) || check_replaceable(out) < 0) {
			if (!S_ISDIR(st.st_mode))
				isc_err("-o %s: exists and is not a directory", out);
			return NULL;
		}
	}
	size_t n = strlen(out);
	while (n > 1 && out[n - 1] == '/')
		n--;
	char *tmp = isc_xasprintf("%.*s.tmp-XXXXXX", (int)n, out);
	if (!mkdtemp(tmp)) {
		isc_err("-o %s: cannot create %s: %s", out, tmp, strerror(errno));
		free(tmp);
		return NULL;
	}
	return tmp;
}

static void remove_run_files(const char *dir)
{
	for (size_t i = 0; i < sizeof(run_files) / sizeof(run_files[0]); i++) {
		char *p = isc_xasprintf("%s/%s", dir, run_files[i]);
		unlink(p);
		free(p);
	}
}

void filter_discard(const char *tmp)
{
	remove_run_files(tmp);
	rmdir(tmp);
}

int filter_commit(const char *tmp, const char *out)
{
	struct stat st;
	if (lstat(out, &st) == 0) {  /* checked by filter_tmp_dir: a directory of run files */
		if (check_replaceable(out) < 0)
			return -1;
		remove_run_files(out);
		if (rmdir(out) < 0) {
			isc_err("-o %s: cannot remove the old run: %s", out, strerror(errno));
			return -1;
		}
	}
	if (rename(tmp, out) < 0) {
		isc_err("-o %s: cannot rename %s to it: %s", out, tmp, strerror(errno));
		return -1;
	}
	return 0;
}
