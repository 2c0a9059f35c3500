/* SPDX-License-Identifier: GPL-2.0-only */
/* Prints where collect's kmod_find() finds the module, or its reason; exit 0 found, 1 not
 * found. Built with a build-tree module path under /lib/modules (CMakeLists.txt), which it
 * looks at only when run from the build tree, as collect does. */
#include <stdio.h>

#include "method_kmod.h"

int main(void)
{
	char path[512], why[1024];
	if (kmod_find(NULL, path, sizeof(path), why, sizeof(why)) < 0) {
		printf("%s\n", why);
		return 1;
	}
	printf("%s\n", path);
	return 0;
}
