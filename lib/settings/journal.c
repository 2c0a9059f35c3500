/*
 * The restore journal: before the first write of any setting, its old value goes to
 * <sysroot>/run/idlescope/settings.journal (root's, mode 0600), one line per file or MSR:
 *
 *   idlescope settings journal 1
 *   pid <collector pid>
 *   file <TAB> setting <TAB> path <TAB> old value
 *   msr  <TAB> setting <TAB> path <TAB> msr (hex) <TAB> mask (hex) <TAB> old value (hex)
 *
 * The collector holds an flock on it while it runs, so a journal that nobody locks was left
 * by a collector that is gone (SIGKILL, crash): collect --restore replays it.
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

#include "text/util.h"
#include "settings/settings_internal.h"

#define JOURNAL_HEAD "idlescope settings journal 1"

struct st_journal {
	int fd;
	char *path;
	char **keys;   /* files and "path#msr" already journalled: the first old value counts */
	size_t nkeys;
};

static char *journal_dir(const char *sysroot)
{
	return isc_xasprintf("%s/run/idlescope", sysroot ? sysroot : "");
}

static char *journal_path(const char *sysroot)
{
	return isc_xasprintf("%s/run/idlescope/settings.journal", sysroot ? sysroot : "");
}

static long journal_pid(int fd)
{
	char buf[256];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	const char *p = strstr(buf, "\npid ");
	return p ? strtol(p + 5, NULL, 10) : -1;
}

enum isc_journal_state isc_settings_journal_state(const char *sysroot, long *pid, char *path, size_t len)
{
	char *jp = journal_path(sysroot);
	struct stat st;
	enum isc_journal_state r = ISC_JOURNAL_NONE;
	int fd = open(jp, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);

	snprintf(path, len, "%s", jp);
	free(jp);
	*pid = -1;
	if (fd < 0 && errno == EACCES)
		return ISC_JOURNAL_UNREADABLE;
	if (fd < 0)
		return ISC_JOURNAL_NONE;
	/* On the real machine only root's journal counts: /run/idlescope is world-writable. */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (st.st_uid == 0 || (sysroot && *sysroot))) {
		*pid = journal_pid(fd);
		if (flock(fd, LOCK_SH | LOCK_NB) < 0)
			r = ISC_JOURNAL_ACTIVE;
		else
			r = ISC_JOURNAL_STALE;
	}
	close(fd);
	return r;
}

static int make_dirs(const char *sysroot)
{
	char *d = journal_dir(sysroot);
	char *run = isc_xasprintf("%s/run", sysroot ? sysroot : "");
	mkdir(run, 0755);
	if (mkdir(d, 01777) == 0)
		chmod(d, 01777);   /* as cpu_lock.c makes it: shared with the lock files */
	struct stat st;
	int ok = lstat(d, &st) == 0 && S_ISDIR(st.st_mode);
	free(d);
	free(run);
	return ok ? 0 : -1;
}

int isc_settings_begin(struct isc_settings *s, char *err, size_t len)
{
	char jp[4096];
	long pid;
	enum isc_journal_state st = isc_settings_journal_state(s->sysroot, &pid, jp, sizeof(jp));

	if (st == ISC_JOURNAL_STALE) {
		snprintf(err, len, "settings left changed by collect pid %ld are pending in %s: run 'collect --restore' first",
			 pid, jp);
		return -1;
	}
	if (st == ISC_JOURNAL_ACTIVE) {
		snprintf(err, len, "collect pid %ld is changing settings (journal %s); wait until it ends", pid, jp);
		return -1;
	}
	if (make_dirs(s->sysroot) < 0) {
		snprintf(err, len, "cannot make the directory of %s: %s", jp, strerror(errno));
		return -1;
	}
	/* Written and locked under a temporary name, then linked: never seen unlocked. */
	char *tmp = isc_xasprintf("%s.%ld", jp, (long)getpid());
	unlink(tmp);
	int fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) < 0 || dprintf(fd, JOURNAL_HEAD "\npid %ld\n", (long)getpid()) < 0 ||
	    fsync(fd) < 0 || link(tmp, jp) < 0) {
		snprintf(err, len, "cannot create the settings journal %s: %s", jp,
			 errno == EEXIST ? "another collector made it just now" : strerror(errno));
		if (fd >= 0)
			close(fd);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	unlink(tmp);
	free(tmp);
	s->j = isc_xcalloc(1, sizeof(*s->j));
	s->j->fd = fd;
	s->j->path = isc_xstrdup(jp);
	return 0;
}

static bool seen(struct st_journal *j, const char *key)
{
	for (size_t i = 0; i < j->nkeys; i++)
		if (!strcmp(j->keys[i], key))
			return true;
	j->keys = isc_xrealloc(j->keys, (j->nkeys + 1) * sizeof(*j->keys));
	j->keys[j->nkeys++] = isc_xstrdup(key);
	return false;
}

static int append(struct isc_settings *s, const char *key, const char *line, char *err, size_t len)
{
	if (!s->j) {
		snprintf(err, len, "internal error: a setting written before the journal was made");
		return -1;
	}
	if (seen(s->j, key))
		return 0;
	size_t n = strlen(line);
	if (write(s->j->fd, line, n) != (ssize_t)n || fsync(s->j->fd) < 0) {
		snprintf(err, len, "%s: cannot write the journal: %s", s->j->path, strerror(errno));
		return -1;
	}
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
	int r = append(s, path, line, err, len);
	free(line);
	return r;
}

int st_journal_msr(struct isc_settings *s, const char *setting, const char *path, uint32_t msr,
		   uint64_t mask, uint64_t old, char *err, size_t len)
{
	char *key = isc_xasprintf("%s#%" PRIx32 "#%" PRIx64, path, msr, mask);   /* one per field of an MSR */
	char *line = isc_xasprintf("msr\t%s\t%s\t%" PRIx32 "\t%" PRIx64 "\t%" PRIx64 "\n", setting, path, msr,
				  mask, old);
	int r = append(s, key, line, err, len);
	free(key);
	free(line);
	return r;
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

/* Write one entry back; -1 after printing what is left changed. */
static int restore_entry(char *line, size_t lineno, const char *jp, bool report)
{
	char *f[6] = { 0 };
	size_t n = 0;
	for (char *save = NULL, *t = strtok_r(line, "\t", &save); t && n < 6; t = strtok_r(NULL, "\t", &save))
		f[n++] = t;
	if (n == 4 && !strcmp(f[0], "file")) {
		if (st_write_plain(f[2], f[3]) == 0)
			return 0;
		int e = errno;
		char *cur = st_read(f[2]), *br = isc_xasprintf("[%s]", f[3]);
		/* Refused, but holding the old value (a write the kernel refused in the first place) */
		bool same = cur && (!strcmp(cur, f[3]) || strstr(cur, br));
		free(br);
		if (same || !report) {
			free(cur);
			return same ? 0 : -1;
		}
		isc_err("restore: %s left changed: %s holds '%s' (was '%s'): %s", f[1], f[2], cur ? cur : "(unreadable)", f[3],
		       strerror(e));
		free(cur);
		return -1;
	}
	if (n == 6 && !strcmp(f[0], "msr")) {
		uint32_t msr = (uint32_t)strtoul(f[3], NULL, 16);
		uint64_t mask = strtoull(f[4], NULL, 16), old = strtoull(f[5], NULL, 16), cur = 0;
		int fd = open(f[2], O_RDONLY | O_CLOEXEC);
		bool regular = false;
		struct stat st;
		if (fd >= 0 && fstat(fd, &st) == 0)
			regular = S_ISREG(st.st_mode);
		bool ok = fd >= 0 && pread(fd, &cur, 8, regular ? (off_t)msr * 8 : (off_t)msr) == 8;
		if (fd >= 0)
			close(fd);
		if (ok && st_msr_write_raw(f[2], msr, (cur & ~mask) | (old & mask)) == 0)
			return 0;
		if (!report)
			return -1;
		isc_err("restore: %s left changed: MSR 0x%" PRIX32 " in %s holds 0x%" PRIx64 " (bits 0x%" PRIx64
		       " were 0x%" PRIx64 "): %s", f[1], msr, f[2], cur, mask, old & mask, strerror(errno));
		return -1;
	}
	if (report)
		isc_err("restore: %s:%zu: not a journal entry; fix or remove it by hand", jp, lineno);
	return -1;
}

static char *read_all(int fd)
{
	struct stat st;
	if (fstat(fd, &st) < 0 || st.st_size > (1 << 24))
		return NULL;
	char *buf = isc_xmalloc((size_t)st.st_size + 1);
	ssize_t n = pread(fd, buf, (size_t)st.st_size, 0);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

/* Entries in reverse order; a second pass for those that failed (cpufreq min/max order). */
static int replay(char *text, const char *jp, size_t *nrestored)
{
	char **lines = NULL;
	size_t n = 0, *lineno = NULL, k = 0;
	for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		k++;
		if (k <= 2)
			continue;   /* head and pid */
		lines = isc_xrealloc(lines, (n + 1) * sizeof(*lines));
		lineno = isc_xrealloc(lineno, (n + 1) * sizeof(*lineno));
		lines[n] = l;
		lineno[n++] = k;
	}
	int failed = 0;
	bool *bad = isc_xcalloc(n + 1, sizeof(*bad));
	for (size_t i = n; i-- > 0;) {
		char *copy = isc_xstrdup(lines[i]);   /* strtok_r cuts it; the second pass needs it whole */
		bad[i] = restore_entry(copy, lineno[i], jp, false) < 0;
		free(copy);
	}
	for (size_t i = n; i-- > 0;) {
		if (bad[i] && restore_entry(lines[i], lineno[i], jp, true) < 0)
			failed++;
		else
			(*nrestored)++;
	}
	free(bad);
	free(lines);
	free(lineno);
	return failed;
}

int isc_settings_restore(struct isc_settings *s, size_t *nrestored)
{
	char jp[4096];
	int fd;
	*nrestored = 0;
	if (s->j) {
		fd = s->j->fd;
		snprintf(jp, sizeof(jp), "%s", s->j->path);
	} else {
		long pid;
		enum isc_journal_state st = isc_settings_journal_state(s->sysroot, &pid, jp, sizeof(jp));
		if (st == ISC_JOURNAL_NONE)
			return 0;
		if (st == ISC_JOURNAL_ACTIVE) {
			isc_err("restore: collect pid %ld is running and restores its own settings (journal %s)", pid, jp);
			return -1;
		}
		fd = open(jp, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) < 0) {
			isc_err("restore: %s: %s", jp, strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
	}
	char *text = read_all(fd);
	int failed = -1;
	if (!text || strncmp(text, JOURNAL_HEAD "\n", strlen(JOURNAL_HEAD) + 1))
		isc_err("restore: %s: not an idlescope settings journal; nothing restored", jp);
	else
		failed = replay(text, jp, nrestored);
	free(text);
	if (failed == 0)
		unlink(jp);
	if (s->j) {
		st_journal_close(s->j);
		s->j = NULL;
	} else {
		close(fd);
	}
	return failed;
}
