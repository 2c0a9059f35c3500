/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Files and directories that other local users may have touched (docs/cache.md,
 * docs/experiments.md): one way to make a private directory, to open a file in it without
 * following a symbolic link or hanging on a FIFO, and to open a device; and where a path
 * read from a file may lead.
 */
#ifndef IDLESCOPE_FS_H
#define IDLESCOPE_FS_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * Make directory path (and its missing parents, with mode) unless it exists, then check it in
 * one step (opened without following a symbolic link): a directory owned by the caller (the
 * effective uid) with no permission bit beyond mode (0700: nobody else may even look; 0755:
 * nobody else may create or replace a file in it). Returns an O_DIRECTORY fd, or -1 with one
 * line in err ("DIR: owned by uid 65534, not by uid 0").
 */
int isc_fs_own_dir(const char *path, mode_t mode, char *err, size_t len);

/*
 * Open name in directory dirfd (AT_FDCWD: a path) as a regular file owned by the caller:
 * never through a symbolic link (ELOOP), never blocking on a FIFO; anything else (a FIFO, a
 * device, a directory: EINVAL; another user's file: EPERM) is closed again. With O_CREAT in
 * flags a missing file is made with mode. O_NONBLOCK is cleared on the returned fd.
 */
int isc_fs_open_own(int dirfd, const char *name, int flags, mode_t mode);

/*
 * Open a device file: a character device (not through a symbolic link, not blocking on a
 * FIFO); with fixture (a --sysroot tree) a regular file standing for it is taken too.
 * Anything else: -1 with errno ENODEV. *regular (may be NULL) says which it was.
 */
int isc_fs_open_dev(const char *path, int flags, bool fixture, bool *regular);

/* Another process that has the file fd is open on open too (/proc/PID/fd: one that inherited
 * a lock outlives the pid /proc/locks names), 0 when none is seen. */
long isc_fs_file_user(int fd);

/* rel, a path read from a file of directory dir (experiment.json runs[].path), must name something
 * inside dir: relative, no ".." component, and, where it exists, not leading out of dir through a
 * symlink. 0, or -1 with why (one line, no path) in why. */
int isc_path_inside(const char *dir, const char *rel, char *why, size_t len);
#endif
