/* SPDX-License-Identifier: GPL-2.0-only */
/* Who else has a file open (fs/fs.h). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "fs/fs.h"

/* Another process with the file fd is open on open too (/proc/PID/fd), 0 when none is seen. */
long isc_fs_file_user(int fd)
{
	struct stat want, st;
	DIR *proc = fstat(fd, &want) == 0 ? opendir("/proc") : NULL;
	struct dirent *p;
	long found = 0;
	while (proc && !found && (p = readdir(proc))) {
		long pid = strtol(p->d_name, NULL, 10);
		if (pid <= 0 || pid == (long)getpid())
			continue;
		char dir[64];
		snprintf(dir, sizeof(dir), "/proc/%ld/fd", pid);
		DIR *fds = opendir(dir);
		struct dirent *f;
		while (fds && !found && (f = readdir(fds)))
			if (fstatat(dirfd(fds), f->d_name, &st, 0) == 0 && st.st_dev == want.st_dev &&
			    st.st_ino == want.st_ino)
				found = pid;
		if (fds)
			closedir(fds);
	}
	if (proc)
		closedir(proc);
	return found;
}
