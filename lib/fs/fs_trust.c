/* SPDX-License-Identifier: GPL-2.0-only */
/* Private directories, files of the caller's own, and devices (fs/fs.h). */
#include "fs/fs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "text/util.h"

/* mkdir -p; true when path itself was made here (then its mode is set exactly). */
static bool make_parents(const char *path, mode_t mode)
{
	char *p = isc_xstrdup(path);
	bool made = false;
	for (char *s = p + 1;; s++) {
		char c = *s;
		if (c != '/' && c != '\0')
			continue;
		*s = '\0';
		made = mkdir(p, mode) == 0;
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return made;
}

int isc_fs_own_dir(const char *path, mode_t mode, char *err, size_t len)
{
	bool made = make_parents(path, mode);
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0 && errno == EACCES && lstat(path, &st) == 0 && st.st_uid != geteuid()) {
		snprintf(err, len, "%s: owned by uid %u, not by uid %u (the user running this)", path,
			 (unsigned)st.st_uid, (unsigned)geteuid());
		return -1;
	}
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, len, "%s: %s", path, errno == ELOOP ? "a symbolic link, not a directory" : strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (made && fchmod(fd, mode) == 0)  /* not narrowed by the umask */
		fstat(fd, &st);
	if (st.st_uid == geteuid() && (st.st_mode & 07777 & ~mode) == 0)
		return fd;
	if (st.st_uid != geteuid())
		snprintf(err, len, "%s: owned by uid %u, not by uid %u (the user running this)", path,
			 (unsigned)st.st_uid, (unsigned)geteuid());
	else
		snprintf(err, len, "%s: mode %04o, expected %04o or narrower", path,
			 (unsigned)(st.st_mode & 07777), (unsigned)mode);
	close(fd);
	errno = EPERM;
	return -1;
}

int isc_fs_open_own(int dirfd, const char *name, int flags, mode_t mode)
{
	int fd = openat(dirfd, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, mode);
	struct stat st;
	if (fd < 0)
		return -1;
	int e = 0;
	if (fstat(fd, &st) < 0)
		e = errno;
	else if (!S_ISREG(st.st_mode))
		e = EINVAL;
	else if (st.st_uid != geteuid())
		e = EPERM;
	if (!e && !(flags & O_NONBLOCK) && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0)
		e = errno;
	if (e) {
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int isc_fs_open_dev(const char *path, int flags, bool fixture, bool *regular)
{
	int fd = open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	if (fd < 0)
		return -1;
	bool chr = fstat(fd, &st) == 0 && S_ISCHR(st.st_mode), reg = fixture && S_ISREG(st.st_mode);
	if ((!chr && !reg) || (!(flags & O_NONBLOCK) && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0)) {
		close(fd);
		errno = ENODEV;
		return -1;
	}
	if (regular)
		*regular = reg;
	return fd;
}
