/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The restore journal: before the first write of any setting, its old value goes to
 * <sysroot>/run/idlescope-settings/settings.journal, one line per file or MSR:
 *
 *   idlescope settings journal 1
 *   pid <collector pid>
 *   file <TAB> setting <TAB> path <TAB> old value
 *   msr  <TAB> setting <TAB> path <TAB> msr (hex) <TAB> mask (hex) <TAB> old value (hex)
 *
 * Its directory is the collector's own (root's on the real machine), mode 0755: nobody else
 * can create, replace or block the journal there (the lock files of collectors stay in the
 * shared /run/idlescope). An entry is whole or absent: a failed append is cut back out before
 * the setting is touched. The collector holds an flock on the journal while it runs, and so
 * do the runs it starts (they inherit the open journal), so a journal that nobody locks was
 * left by a collector and runs that are all gone (SIGKILL, crash): collect --restore replays it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/fs.h"
#include "text/util.h"
#include "settings/settings_internal.h"

#define JOURNAL_DIR "/run/idlescope-settings"

struct st_journal {
	int fd;
	off_t len;     /* what is written and whole */
	char *path;
	char **keys;   /* files and "path#msr" already journalled: the first old value counts */
	size_t nkeys;
};

static char *journal_dir(const char *sysroot)
{
	return isc_xasprintf("%s" JOURNAL_DIR, sysroot ? sysroot : "");
}

static char *journal_path(const char *sysroot)
{
	return isc_xasprintf("%s" JOURNAL_DIR "/settings.journal", sysroot ? sysroot : "");
}

static long journal_pid(int fd)
{
	char buf[256];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	const char *p = strstr(buf, "\npid ");
	return p ? strtol(p + 5, NULL, 10) : -1;
}

/* Root's journal on the real machine; in a fixture tree, also the one of whoever runs the tests. */
static bool trusted_journal(int fd, const char *sysroot)
{
	struct stat st;
	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 1 &&
	       (st.st_uid == 0 || (sysroot && *sysroot && st.st_uid == geteuid()));
}

/* The journal, or (none there) one an earlier idlescope left in the shared /run/idlescope:
 * the same format, so --restore replays it; only root's single-link file counts there. */
static int open_journal(const char *sysroot, char *path, size_t len)
{
	char *jp = journal_path(sysroot);
	int fd = open(jp, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	snprintf(path, len, "%s", jp);
	free(jp);
	if (fd >= 0 || errno != ENOENT)
		return fd;
	char *old = isc_xasprintf("%s/run/idlescope/settings.journal", sysroot ? sysroot : "");
	int ofd = open(old, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (ofd >= 0 && trusted_journal(ofd, sysroot)) {
		snprintf(path, len, "%s", old);
		fd = ofd;
	} else if (ofd >= 0) {
		close(ofd);
	}
	free(old);
	errno = fd < 0 ? ENOENT : 0;
	return fd;
}

enum isc_journal_state isc_settings_journal_state(const char *sysroot, long *pid, char *path, size_t len)
{
	enum isc_journal_state r = ISC_JOURNAL_NONE;
	int fd = open_journal(sysroot, path, len);

	*pid = -1;
	if (fd < 0 && errno == EACCES)
		return ISC_JOURNAL_UNREADABLE;
	if (fd < 0)
		return ISC_JOURNAL_NONE;
	if (trusted_journal(fd, sysroot)) {
		*pid = journal_pid(fd);
		r = flock(fd, LOCK_SH | LOCK_NB) < 0 ? ISC_JOURNAL_ACTIVE : ISC_JOURNAL_STALE;
	}
	close(fd);
	return r;
}

/* All of line, or -1 with errno (a short write says why on the next try: ENOSPC, EIO ...). */
static int write_all(int fd, const char *line, size_t n)
{
	while (n) {
		ssize_t w = write(fd, line, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w == 0 ? (errno = EIO, -1) : -1;
		line += w;
		n -= (size_t)w;
	}
	return 0;
}

int isc_settings_begin(struct isc_settings *s, char *err, size_t len)
{
	char jp[4096], why[1024];
	long pid;
	enum isc_journal_state st = isc_settings_journal_state(s->sysroot, &pid, jp, sizeof(jp));

	if (st == ISC_JOURNAL_STALE) {
		snprintf(err, len, "settings left changed by collect pid %ld are pending in %s: run 'collect --restore%s%s' "
			 "first (it says what it cannot put back, and how to discard the journal)", pid, jp,
			 s->sysroot[0] ? " --sysroot " : "", s->sysroot);
		return -1;
	}
	if (st == ISC_JOURNAL_ACTIVE) {
		snprintf(err, len, "collect pid %ld is changing settings (journal %s); wait until it ends", pid, jp);
		return -1;
	}
	char *dir = journal_dir(s->sysroot);
	int dfd = isc_fs_own_dir(dir, 0755, why, sizeof(why));
	free(dir);
	if (dfd < 0) {
		snprintf(err, len, "the settings journal's directory: %s; nothing changed", why);
		return -1;
	}
	/* Written and locked under a temporary name, then linked: never seen unlocked. */
	char tmp[64], head[128];
	snprintf(tmp, sizeof(tmp), "settings.journal.%ld", (long)getpid());
	int n = snprintf(head, sizeof(head), ST_JOURNAL_HEAD "\npid %ld\n", (long)getpid());
	unlinkat(dfd, tmp, 0);
	int fd = openat(dfd, tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) < 0 || write_all(fd, head, (size_t)n) < 0 || fsync(fd) < 0 ||
	    linkat(dfd, tmp, dfd, "settings.journal", 0) < 0) {
		snprintf(err, len, "cannot create the settings journal %s: %s; nothing changed", jp,
			 errno == EEXIST ? "another collector made it just now" : strerror(errno));
		if (fd >= 0)
			close(fd);
		unlinkat(dfd, tmp, 0);
		close(dfd);
		return -1;
	}
	unlinkat(dfd, tmp, 0);
	close(dfd);
	s->j = isc_xcalloc(1, sizeof(*s->j));
	s->j->fd = fd;
	s->j->len = n;
	s->j->path = isc_xstrdup(jp);
	return 0;
}

static bool seen(const struct st_journal *j, const char *key)
{
	for (size_t i = 0; i < j->nkeys; i++)
		if (!strcmp(j->keys[i], key))
			return true;
	return false;
}

static int append(struct isc_settings *s, const char *setting, const char *key, const char *line, char *err,
		  size_t len)
{
	struct st_journal *j = s->j;
	if (!j) {
		snprintf(err, len, "internal error: a setting written before the journal was made");
		return -1;
	}
	if (seen(j, key))
		return 0;
	size_t n = strlen(line);
	if (write_all(j->fd, line, n) < 0 || fsync(j->fd) < 0) {
		int e = errno;
		/* whole or absent: a cut entry would be replayed as a value the setting never had */
		bool cut = ftruncate(j->fd, j->len) == 0 && lseek(j->fd, j->len, SEEK_SET) == j->len && fsync(j->fd) == 0;
		snprintf(err, len, "%s: cannot write the journal: %s; %s not changed%s", j->path, strerror(e), setting,
			 cut ? "" : " (and the entry could not be cut back out: collect --restore will leave it out)");
		return -1;
	}
	j->len += (off_t)n;
	j->keys = isc_xrealloc(j->keys, (j->nkeys + 1) * sizeof(*j->keys));
	j->keys[j->nkeys++] = isc_xstrdup(key);
	return 0;
}

static bool clean(const char *v)
{
	return !strpbrk(v, "\t\n\r");
}

int st_journal_file(struct isc_settings *s, const char *setting, const char *path, const char *old,
		    char *err, size_t len)
{
	if (!clean(setting) || !clean(path) || !clean(old)) {
		snprintf(err, len, "%s: %s holds a value with a tab or newline; not changed", setting, path);
		return -1;
	}
	char *line = isc_xasprintf("file\t%s\t%s\t%s\n", setting, path, old);
	int r = append(s, setting, path, line, err, len);
	free(line);
	return r;
}

int st_journal_msr(struct isc_settings *s, const char *setting, const char *path, uint32_t msr,
		   uint64_t mask, uint64_t old, char *err, size_t len)
{
	char *key = isc_xasprintf("%s#%" PRIx32 "#%" PRIx64, path, msr, mask);   /* one per field of an MSR */
	char *line = isc_xasprintf("msr\t%s\t%s\t%" PRIx32 "\t%" PRIx64 "\t%" PRIx64 "\n", setting, path, msr,
				  mask, old);
	int r = append(s, setting, key, line, err, len);
	free(key);
	free(line);
	return r;
}

const char *st_journal_path(const struct st_journal *j)
{
	return j->path;
}

int isc_settings_journal_fd(const struct isc_settings *s)
{
	return s->j ? s->j->fd : -1;
}

void st_journal_close(struct st_journal *j)
{
	if (!j)
		return;
	for (size_t i = 0; i < j->nkeys; i++)
		free(j->keys[i]);
	free(j->keys);
	free(j->path);
	close(j->fd);
	free(j);
}
