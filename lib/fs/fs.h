/* Paths read from files: where they may lead (lib/fs/). */
#ifndef IDLESCOPE_FS_H
#define IDLESCOPE_FS_H
#include <stddef.h>

/* rel, a path read from a file of directory dir (experiment.json runs[].path), must name something
 * inside dir: relative, no ".." component, and, where it exists, not leading out of dir through a
 * symlink. 0, or -1 with why (one line, no path) in why. */
int isc_path_inside(const char *dir, const char *rel, char *why, size_t len);
#endif
