/* SPDX-License-Identifier: GPL-2.0-only */
/* libFuzzer target: any bytes as the settings journal (lib/settings/journal_parse.c) are read
 * as entries under a sysroot and under the real root, or refused with one message naming the
 * line, never a crash; nothing is written back. Build: cmake -DIDLESCOPE_FUZZ=ON with clang. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "settings/settings_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const roots[] = { "", "/fixture" };
	for (size_t r = 0; r < 2; r++) {
		char *text = malloc(size + 1), err[512];
		struct st_jtext t;
		if (!text)
			abort();
		memcpy(text, data, size);
		if (st_journal_parse(text, size, roots[r], &t, err, sizeof(err)) == 0) {
			for (size_t i = 0; i < t.n; i++)  /* every entry points into the text */
				if (!t.e[i].setting || !t.e[i].path || (!t.e[i].msr && !t.e[i].old) ||
				    strncmp(t.e[i].path, roots[r], strlen(roots[r])))
					abort();
		} else if (!memchr(err, '\0', sizeof(err))) {
			abort();
		}
		st_journal_text_free(&t);
		free(text);
	}
	return 0;
}
