/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The answer of `collect --remote-agent-settings` (settings_agent.c), one JSON object:
 *   {"format": 1, "status": N, "output": "...", "output_cut": false, "settings": {"name": "value", ...}}
 * read by the controller from bytes the SUT sent: every field checked, every size bounded,
 * nothing else believed (tests/fuzz/fuzz_remote_settings.c).
 */
#ifndef COLLECT_REMOTE_SETTINGS_ANSWER_H
#define COLLECT_REMOTE_SETTINGS_ANSWER_H
#include <stdbool.h>
#include <stddef.h>

#define SETTINGS_ANSWER_FORMAT 1
#define SETTINGS_OUTPUT_MAX (128u << 10)   /* the SUT's collect's stdout, as much as is sent */
#define SETTINGS_MAX 1024                  /* settings in one answer */
#define SETTING_NAME_MAX 128u
#define SETTING_VALUE_MAX 512u

struct settings_answer {
	int status;            /* the SUT's collect's exit status, 0 to 255 */
	char *output;          /* its stdout: any bytes but NUL, to be written with isc_text_write */
	bool output_cut;       /* it printed more than SETTINGS_OUTPUT_MAX */
	size_t n;              /* settings the SUT has, in its order */
	char **names, **values;   /* valid UTF-8, no control characters; names without blanks */
};

/* 0 and *a (free with settings_answer_free), or -1 with why (one line) and *a empty. */
int settings_answer_parse(const char *bytes, size_t len, struct settings_answer *a, char *why, size_t wlen);
void settings_answer_free(struct settings_answer *a);
/* The value of setting name in a, or NULL. */
const char *settings_answer_value(const struct settings_answer *a, const char *name);
#endif
