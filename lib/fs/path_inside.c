/* SPDX-License-Identifier: GPL-2.0-only */
/* isc_path_inside: a path from a run's metadata stays inside the run's directory, whoever wrote
 * the metadata (a SUT, another user, a tarball). */
#include "fs/fs.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/util.h"

static bool has_dotdot(const char *p)
{
	for (const char *c = p; *c; ) {
		size_t n = strcspn(c, "/");
		if (n == 2 && c[0] == '.' && c[1] == '.')
			return true;
		c += n + (c[n] == '/');
	}
	return false;
}

int isc_path_inside(const char *dir, const char *rel, char *why, size_t len)
{
	char top[PATH_MAX], real[PATH_MAX];
	if (!rel[0])
		snprintf(why, len, "an empty path");
	else if (rel[0] == '/')
		snprintf(why, len, "an absolute path (it must be inside the directory)");
	else if (has_dotdot(rel))
		snprintf(why, len, "'..' in the path (it must stay inside the directory)");
	else if (!realpath(dir, top))
		snprintf(why, len, "the directory cannot be resolved: %s", strerror(errno));
	else {
		char *p = isc_xasprintf("%s/%s", dir, rel);
		bool gone = !realpath(p, real);   /* what does not exist leads nowhere: its loader says so */
		size_t n = strlen(top);
		free(p);
		if (gone || (!strncmp(real, top, n) && (real[n] == '/' || !real[n] || (n == 1 && top[0] == '/'))))
			return 0;
		snprintf(why, len, "a symbolic link out of the directory");
	}
	return -1;
}
