/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The output directory: the report is written into a temporary directory next to it and
 * renamed into place at the end, so that a failed report never looks finished.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "text/util.h"
#include "report.h"

static void split_path(const char *out, char **parent, char **base)
{
	char *a = isc_xstrdup(out), *b = isc_xstrdup(out);
	size_t n = strlen(a);
	while (n > 1 && a[n - 1] == '/') {
		n--;
		a[n] = b[n] = '\0';
	}
	*parent = isc_xstrdup(dirname(a));
	*base = isc_xstrdup(basename(b));
	free(a);
	free(b);
}

int outdir_check(const char *out, bool force)
{
	struct stat st;
	if (lstat(out, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		isc_err("%s: %s", out, strerror(errno));
		return -1;
	}
	if (!force) {
		isc_err("%s: already exists (use --force to replace it)", out);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		isc_err("%s: exists and is not a directory; not replacing it", out);
		return -1;
	}
	return 0;
}

/* "<parent>/.<base>.<what>-XXXXXX", created. */
static char *sibling_dir(const char *out, const char *what)
{
	char *parent, *base;
	split_path(out, &parent, &base);
	char *tmpl = isc_xasprintf("%s/.%s.%s-XXXXXX", parent, base, what);
	free(parent);
	free(base);
	if (!mkdtemp(tmpl)) {
		isc_err("%s: cannot create a directory next to it: %s", out, strerror(errno));
		free(tmpl);
		return NULL;
	}
	return tmpl;
}

char *outdir_make_tmp(const char *out)
{
	char *tmp = sibling_dir(out, "tmp");
	mode_t mask = umask(0);
	umask(mask);
	if (tmp)
		chmod(tmp, 0777 & ~mask);  /* mkdtemp makes it private; a report is not */
	return tmp;
}

int outdir_commit(const char *tmp, const char *out, bool force)
{
	struct stat st;
	char *old = NULL;
	int rc = -1;
	if (lstat(out, &st) == 0) {
		if (outdir_check(out, force) < 0 || outdir_replaceable(out) < 0)
			return -1;
		/* Move the old report aside (onto an empty directory), then the new one in. */
		if (!(old = sibling_dir(out, "old")))
			return -1;
		if (rename(out, old) < 0) {
			isc_err("%s: cannot move it aside: %s", out, strerror(errno));
			rmdir(old);
			goto cleanup;
		}
	}
	if (rename(tmp, out) < 0) {
		isc_err("%s: cannot rename %s to it: %s", out, tmp, strerror(errno));
		if (old && rename(old, out) < 0)
			isc_warn("the previous report is now in %s", old);
		goto cleanup;
	}
	if (old && remove_tree(old) < 0)
		isc_warn("%s: cannot remove the previous report: %s", old, strerror(errno));
	rc = 0;
cleanup:
	free(old);
	return rc;
}

#define RM_MAX_DEPTH 32  /* a report is three levels deep */

/* Remove name in dfd and everything below it, on mount mnt only: a mount point (a bind mount
 * of the same file system too) and what is mounted there stay, symbolic links are removed,
 * never followed. */
static int remove_at(int dfd, const char *name, uint64_t mnt, int depth)
{
	struct statx sx;
	if (statx(dfd, name, AT_SYMLINK_NOFOLLOW, STATX_TYPE | STATX_MNT_ID, &sx) < 0)
		return -1;
	if (!S_ISDIR(sx.stx_mode))
		return unlinkat(dfd, name, 0);
	if (!(sx.stx_mask & STATX_MNT_ID) || sx.stx_mnt_id != mnt || depth > RM_MAX_DEPTH) {
		errno = depth > RM_MAX_DEPTH ? ELOOP : EXDEV;
		return -1;
	}
	int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), bad = 0;
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			bad |= remove_at(fd, e->d_name, mnt, depth + 1) < 0;
	closedir(d);
	return bad ? -1 : unlinkat(dfd, name, AT_REMOVEDIR);
}

int remove_tree(const char *path)
{
	struct statx sx;
	if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_MNT_ID, &sx) < 0)
		return -1;
	return remove_at(AT_FDCWD, path, sx.stx_mnt_id, 0);
}

static int copy_file(const char *from, const char *to)
{
	static char buf[1 << 16];
	/* never blocking on a FIFO put in place of a run's file since it was checked */
	int in = open(from, O_RDONLY | O_NONBLOCK | O_CLOEXEC), out = -1, rc = -1;
	struct stat st;
	ssize_t n;
	if (in >= 0 && (fstat(in, &st) < 0 || !S_ISREG(st.st_mode))) {
		close(in);
		in = -1;
		errno = EINVAL;
	}
	if (in < 0) {
		isc_err("%s: %s", from, errno == EINVAL ? "not a regular file" : strerror(errno));
		return -1;
	}
	if ((out = open(to, O_WRONLY | O_CREAT | O_EXCL, 0644)) < 0) {
		isc_err("%s: %s", to, strerror(errno));
		goto cleanup;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		for (ssize_t done = 0, w; done < n; done += w)  /* a short write: the next says why */
			if ((w = write(out, buf + done, (size_t)(n - done))) <= 0) {
				isc_err("%s: write error: %s", to, w == 0 ? strerror(EIO) : strerror(errno));
				goto cleanup;
			}
	if (n < 0) {
		isc_err("%s: %s", from, strerror(errno));
		goto cleanup;
	}
	rc = 0;
cleanup:
	close(in);
	if (out >= 0 && close(out) < 0)
		rc = -1;
	return rc;
}

char *raw_dir_name(size_t r)
{
	return isc_xasprintf("run%zu", r + 1);
}

/* datapoints.csv and the metadata and counters beside it. */
int copy_raw_runs(struct report *rep)
{
	static const char *const extras[] = { "info.json", "info.yml", "counters.csv" };
	char *raw = path_cat(rep->tmpdir, "raw");
	int rc = -1;
	if (mkdir(raw, 0777) < 0) {
		isc_err("%s: %s", raw, strerror(errno));
		goto cleanup;
	}
	for (size_t r = 0; r < rep->nruns; r++) {
		struct isc_run *run = rep->runs[r];
		char *name = raw_dir_name(r), *dir = path_cat(raw, name), *to;
		int bad = mkdir(dir, 0777) < 0;
		if (bad)
			isc_err("%s: %s", dir, strerror(errno));
		to = path_cat(dir, "datapoints.csv");
		bad = bad || (run->dp_path && copy_file(run->dp_path, to) < 0);  /* NULL: counter-only */
		free(to);
		for (size_t i = 0; !bad && i < sizeof(extras) / sizeof(extras[0]); i++) {
			struct stat st;
			char *from = path_cat(run->dir, extras[i]);
			to = path_cat(dir, extras[i]);
			if (stat(from, &st) == 0 && S_ISREG(st.st_mode))
				bad = copy_file(from, to) < 0;
			free(from);
			free(to);
		}
		free(name);
		free(dir);
		if (bad)
			goto cleanup;
	}
	rc = 0;
cleanup:
	free(raw);
	return rc;
}
