/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Whether a directory holds nothing but what report writes, at every depth: --force replaces
 * an earlier report (with --copy-raw, --keep-plot-data or not) and never a directory where
 * anything else lies, however deep (notes under raw/, another run under plots/, a symbolic
 * link, a mount point).
 *
 *   index.html                        regular file
 *   plots/NAME.svg, NAME.png, NAME.js regular files (NAME.js: a plot's data for the viewer,
 *                                     and viewer.js itself)
 *   plot-data/NAME.{dat,bin,gp,log}   regular files (--keep-plot-data)
 *   raw/runN/{datapoints.csv, info.json, info.yml, counters.csv}   regular files (--copy-raw)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "text/util.h"
#include "report.h"

enum kind { K_TOP, K_PLOTS, K_PLOT_DATA, K_RAW, K_RAW_RUN };

static bool ends_with_any(const char *name, const char *const *sfx)
{
	size_t n = strlen(name);
	for (; *sfx; sfx++)
		if (n > strlen(*sfx) && !strcmp(name + n - strlen(*sfx), *sfx))
			return true;
	return false;
}

/* Letters, digits, '-', '_' and '.', not starting with '.': the names report gives files. */
static bool plain_name(const char *name)
{
	return name[0] != '.' && name[strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")] == '\0';
}

static bool run_dir_name(const char *name)
{
	return !strncmp(name, "run", 3) && name[3] >= '1' && name[3] <= '9' && name[3 + strspn(name + 3, "0123456789")] == '\0';
}

/* What name may be in a directory of kind k: a directory of kind *sub, a regular file (*sub
 * -1), or nothing report writes (false). */
static bool allowed(enum kind k, const char *name, int *sub)
{
	static const char *const plots[] = { ".svg", ".png", ".js", NULL }, *const data[] = { ".dat", ".bin", ".gp", ".log", NULL },
			       *const raw[] = { "datapoints.csv", "info.json", "info.yml", "counters.csv", NULL };
	*sub = -1;
	switch (k) {
	case K_TOP:
		if (!strcmp(name, "plots") || !strcmp(name, "plot-data") || !strcmp(name, "raw"))
			*sub = !strcmp(name, "plots") ? K_PLOTS : !strcmp(name, "raw") ? K_RAW : K_PLOT_DATA;
		return *sub >= 0 || !strcmp(name, "index.html");
	case K_PLOTS: return plain_name(name) && ends_with_any(name, plots);
	case K_PLOT_DATA: return plain_name(name) && ends_with_any(name, data);
	case K_RAW:
		*sub = K_RAW_RUN;
		return run_dir_name(name);
	case K_RAW_RUN:
		for (size_t i = 0; raw[i]; i++)
			if (!strcmp(name, raw[i]))
				return true;
		return false;
	}
	return false;
}

/* 0 when directory dfd (kind k, at rel) holds only what report writes; else -1 with rel/name
 * of the first thing that is not in *bad (malloc'd), or errno. */
static int check_dir(int dfd, enum kind k, const char *rel, char **bad)
{
	DIR *d = fdopendir(dfd);
	struct dirent *e;
	int rc = 0;
	if (!d) {
		close(dfd);
		return -1;
	}
	while (rc == 0 && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		struct stat st;
		int sub;
		char *path = rel ? isc_xasprintf("%s/%s", rel, e->d_name) : isc_xstrdup(e->d_name);
		bool ok = fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && allowed(k, e->d_name, &sub);
		if (ok && sub >= 0 && S_ISDIR(st.st_mode)) {
			int fd = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			rc = fd < 0 ? -1 : check_dir(fd, (enum kind)sub, path, bad);
		} else if (!ok || sub >= 0 || !S_ISREG(st.st_mode)) {
			*bad = isc_xstrdup(path);
			rc = -1;
		}
		free(path);
	}
	closedir(d);
	return rc;
}

int outdir_replaceable(const char *out)
{
	struct stat st;
	char *bad = NULL;
	if (lstat(out, &st) < 0 && errno == ENOENT)
		return 0;
	int fd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0 && check_dir(fd, K_TOP, NULL, &bad) == 0)
		return 0;
	if (bad) {
		char q[160];
		isc_quote_for_msg(bad, strlen(bad), q, sizeof(q));
		isc_err("%s: not a report (it holds '%s', which report does not write); not replacing it", out, q);
		free(bad);
	} else {
		isc_err("%s: %s", out, strerror(errno));
	}
	return -1;
}
