/* SPDX-License-Identifier: GPL-2.0-only */
/* Writing a parsed journal back (collect --restore, and the end of every experiment): CPUs'
 * online files that were 1 first, then last entry first, the online files that were 0 last; a
 * second pass for those that failed (cpufreq min/max order); each value left changed is named
 * with its journal line and what to do. */
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fs/fs.h"
#include "text/util.h"
#include "settings/settings_internal.h"

/* " (CPU N is offline: ...)" when path is a file of an offline CPU; "" otherwise (malloc'd). */
static char *offline_hint(const char *path, const char *root)
{
	char *base = isc_xasprintf("%s/sys/devices/system/cpu/cpu", root), *hint = NULL;
	size_t n = strlen(base);
	if (!strncmp(path, base, n) && path[n] >= '0' && path[n] <= '9') {
		int cpu = atoi(path + n);
		char *online = isc_xasprintf("%s%d/online", base, cpu), *v = st_read(online);
		if (v && !strcmp(v, "0"))
			hint = isc_xasprintf(" (CPU %d is offline: bring it online with 'echo 1 > %s' and run "
					    "'collect --restore' again)", cpu, online);
		free(v);
		free(online);
	}
	free(base);
	return hint ? hint : isc_xstrdup("");
}

static int restore_file(const struct st_jentry *e, const char *root, const char *jp, bool report)
{
	if (st_write_plain(e->path, e->old) == 0)
		return 0;
	int err = errno;
	char *cur = st_read(e->path), *br = isc_xasprintf("[%s]", e->old);
	/* Refused, but holding the old value (a write the kernel refused in the first place) */
	bool same = cur && (!strcmp(cur, e->old) || strstr(cur, br));
	free(br);
	if (!same && report) {
		char *hint = offline_hint(e->path, root);
		isc_err("restore: %s:%zu: %s left changed: %s holds '%s' (was '%s'): %s%s", jp, e->line, e->setting,
		       e->path, cur ? cur : "(unreadable)", e->old, strerror(err), hint);
		free(hint);
	}
	free(cur);
	return same ? 0 : -1;
}

static int restore_msr(const struct st_jentry *e, const char *root, const char *jp, bool report)
{
	uint64_t cur = 0;
	bool fixture = root[0] != '\0';
	if (st_msr_read_raw(e->path, fixture, e->reg, &cur) == 0 &&
	    st_msr_write_raw(e->path, fixture, e->reg, (cur & ~e->mask) | (e->oldv & e->mask)) == 0)
		return 0;
	if (report) {
		int err = errno;
		char *hint = offline_hint(e->path, root);
		isc_err("restore: %s:%zu: %s left changed: MSR 0x%" PRIX32 " in %s holds 0x%" PRIx64 " (bits 0x%" PRIx64
		       " were 0x%" PRIx64 "): %s%s", jp, e->line, e->setting, e->reg, e->path, cur, e->mask,
		       e->oldv & e->mask, strerror(err), hint);
		free(hint);
	}
	return -1;
}

static int restore_entry(const struct st_jentry *e, const char *root, const char *jp, bool report)
{
	return e->msr ? restore_msr(e, root, jp, report) : restore_file(e, root, jp, report);
}

/* A CPU's online file (offline-cpus). */
static bool is_online_file(const struct st_jentry *e)
{
	size_t n = strlen(e->path);
	return !e->msr && n > 7 && !strcmp(e->path + n - 7, "/online");
}

/* 0: an online file that was 1 (a CPU the run took offline: back first, as the files of an
 * offline CPU refuse writes); 2: one that was 0 (a CPU the run brought online: offline last,
 * once its other files are back); 1: everything else. */
static int restore_pass(const struct st_jentry *e)
{
	if (!is_online_file(e))
		return 1;
	return strcmp(e->old, "0") ? 0 : 2;
}

/* Each pass in reverse journal order; then the failed ones again, in the same order, saying
 * why (cpufreq min/max refuse each other in one order only). */
int st_journal_replay(const struct st_jtext *t, const char *root, const char *jp)
{
	int failed = 0;
	bool *bad = isc_xcalloc(t->n + 1, sizeof(*bad));
	for (int pass = 0; pass < 3; pass++)
		for (size_t i = t->n; i-- > 0;)
			if (restore_pass(&t->e[i]) == pass)
				bad[i] = restore_entry(&t->e[i], root, jp, false) < 0;
	for (int pass = 0; pass < 3; pass++)
		for (size_t i = t->n; i-- > 0;)
			if (restore_pass(&t->e[i]) == pass && bad[i] && restore_entry(&t->e[i], root, jp, true) < 0)
				failed++;
	free(bad);
	return failed;
}

/* Whether pid runs: a process that has ended but is not yet reaped by its parent (a zombie,
 * e.g. a SIGKILLed driver whose shell has not waited yet) holds no lock and restores nothing. */
static bool pid_runs(long pid)
{
	if (pid <= 0 || (kill((pid_t)pid, 0) < 0 && errno == ESRCH))
		return false;
	char path[64], buf[256];
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return true;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	const char *end = strrchr(buf, ')');   /* the state follows the command name */
	return !(end && end[1] == ' ' && (end[2] == 'Z' || end[2] == 'X'));
}

/* Another running process that has the journal open (a run its SIGKILLed collector started). */
static long journal_user(const char *jp)
{
	int fd = open(jp, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	long holder = fd >= 0 ? isc_fs_file_user(fd) : 0;
	if (fd >= 0)
		close(fd);
	return holder > 0 && pid_runs(holder) ? holder : 0;
}

/* Why restoring now would be wrong: the journal is locked by its collector, or by a run it
 * started that outlived it (SIGKILL of the driver) and still measures under these settings.
 * holder: that run, as open_pending saw it holding the journal (looked up again here it may
 * have ended in between, and the message then named the dead collector as running). */
static void say_active(const char *jp, long pid, long holder)
{
	if (holder > 0)
		isc_err("restore: collect pid %ld, a run started by collect pid %ld, still runs under the changed settings "
		       "and holds the journal %s; nothing restored: stop it first (kill %ld), then run 'collect --restore'",
		       holder, pid, jp, holder);
	else if (pid_runs(pid))
		isc_err("restore: collect pid %ld is running and restores its own settings (journal %s)", pid, jp);
	else
		isc_err("restore: the journal %s is still locked, though its collector (pid %ld) has ended; "
		       "nothing restored: run 'collect --restore' again", jp, pid);
}

static int open_pending(const struct isc_settings *s, char *jp, size_t len)
{
	long pid, holder = 0;
	enum isc_journal_state st = isc_settings_journal_state(s->sysroot, &pid, jp, len);
	/* its collector gone, the run it started may be ending (PR_SET_PDEATHSIG): wait up to
	 * 2 s for a lock that nobody who still runs holds to be let go */
	for (int i = 0; i < 20 && st == ISC_JOURNAL_ACTIVE && !pid_runs(pid); i++) {
		if ((holder = journal_user(jp)) > 0)
			break;
		usleep(100000);
		st = isc_settings_journal_state(s->sysroot, &pid, jp, len);
	}
	if (st == ISC_JOURNAL_NONE)
		return -2;
	if (st == ISC_JOURNAL_ACTIVE) {
		say_active(jp, pid, holder);
		return -1;
	}
	int fd = open(jp, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) < 0) {
		isc_err("restore: %s: %s", jp, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static char *read_journal(int fd, size_t *len)
{
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > (1 << 24))
		return NULL;
	char *buf = isc_xmalloc((size_t)st.st_size + 1);
	ssize_t n = pread(fd, buf, (size_t)st.st_size, 0);
	*len = n > 0 ? (size_t)n : 0;
	buf[*len] = '\0';
	return buf;
}

/* Parse and write back; -1 (nothing written) when the journal cannot be read as one. */
static int replay_text(const struct isc_settings *s, int fd, const char *jp, size_t *nrestored)
{
	char err[512];
	size_t len = 0;
	struct st_jtext t = { 0 };
	char *text = read_journal(fd, &len);
	int failed = -1;
	if (!text)
		snprintf(err, sizeof(err), "unreadable, or larger than 16 MiB");
	else if (st_journal_parse(text, len, s->sysroot, &t, err, sizeof(err)) == 0) {
		if (t.cut_line)
			isc_note("restore: %s:%zu: an entry cut short while it was written is left out (its setting "
				"was never changed)", jp, t.cut_line);
		failed = st_journal_replay(&t, s->sysroot, jp);
		*nrestored = t.n - (size_t)failed;
		if (failed)
			isc_err("restore: the journal %s is kept, and no settings can be changed while it is: fix what "
			       "the line%s above say%s and run 'collect --restore' again, or keep %s as %s now and "
			       "discard the journal deliberately (inspect it: cat %s; discard it: rm %s)", jp,
			       failed == 1 ? "" : "s", failed == 1 ? "s" : "", failed == 1 ? "that value" : "those values",
			       failed == 1 ? "it is" : "they are", jp, jp);
	}
	st_journal_text_free(&t);
	if (failed < 0)
		isc_err("restore: %s: %s; nothing restored. Inspect it (cat %s), put back by hand what it lists, then "
		       "discard it deliberately (rm %s)", jp, err, jp, jp);
	free(text);
	return failed;
}

int isc_settings_restore(struct isc_settings *s, size_t *nrestored)
{
	char jp[4096];
	int fd;
	*nrestored = 0;
	if (s->j) {
		fd = isc_settings_journal_fd(s);
		snprintf(jp, sizeof(jp), "%s", st_journal_path(s->j));
	} else if ((fd = open_pending(s, jp, sizeof(jp))) < 0) {
		return fd == -2 ? 0 : -1;
	}
	int failed = replay_text(s, fd, jp, nrestored);
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
