/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A JSON object file (info.json) to a cJSON tree. cJSON has no limits of its own that fit
 * metadata (it nests 1000 deep and takes any number of values), so one linear pass checks
 * depth and value count first and stops at the limit (ISC_META_* in formats/yaml_json.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/run.h"
#include "text/util.h"

struct jpos {
	size_t line, col;
};

static void advance(struct jpos *p, char ch)
{
	if (ch == '\n') {
		p->line++;
		p->col = 1;
	} else {
		p->col++;
	}
}

static int jfail(const char *path, const struct jpos *p, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s:%zu:%zu: %s", path, p->line, p->col, what);
	return -1;
}

/* "\u0000" would end the C string there ("a\u0000b" read as "a"): it becomes "\uFFFD", the
 * replacement character, which has the same length, with one warning. */
static void replace_nul_escape(const char *path, char *s, const char *end, const struct jpos *p, int *warned)
{
	if (end - s < 6 || s[1] != 'u' || memcmp(s + 2, "0000", 4) != 0)
		return;
	memcpy(s + 2, "FFFD", 4);
	if (!(*warned)++)
		isc_warn("%s:%zu:%zu: \\u0000 (NUL) in a string replaced by U+FFFD", path, p->line, p->col);
}

/* Depth and value count, outside strings; 0, or -1 with err set. */
static int json_limits(const char *path, char *buf, size_t len, char *err, size_t errlen)
{
	struct jpos p = { 1, 1 };
	size_t nodes = 1;
	int depth = 0, in_str = 0, warned = 0;
	char what[96];
	for (size_t i = 0; i < len; advance(&p, buf[i]), i++) {
		char ch = buf[i];
		if (ch == '\0')  /* would end the text for cJSON, in a string or not */
			return jfail(path, &p, "NUL byte (not a JSON file?)", err, errlen);
		if (in_str) {
			if (ch == '\\' && i + 1 < len) {
				replace_nul_escape(path, buf + i, buf + len, &p, &warned);
				advance(&p, buf[i++]);
			} else if (ch == '"') {
				in_str = 0;
			}
			continue;
		}
		if (ch == '"')
			in_str = 1;
		else if (ch == '}' || ch == ']')
			depth -= depth > 0;
		else if ((ch == '{' || ch == '[') && ++depth > ISC_META_MAX_DEPTH + 1) {
			snprintf(what, sizeof(what), "more than %d levels of nesting", ISC_META_MAX_DEPTH);
			return jfail(path, &p, what, err, errlen);
		}
		if ((ch == '{' || ch == '[' || ch == ',') && ++nodes > ISC_META_MAX_NODES) {
			snprintf(what, sizeof(what), "more than %d values", ISC_META_MAX_NODES);
			return jfail(path, &p, what, err, errlen);
		}
	}
	return 0;
}

/* JSON line:column of an offset, for parse errors. */
static struct jpos offset_pos(const char *buf, size_t off)
{
	struct jpos p = { 1, 1 };
	for (size_t i = 0; i < off && buf[i]; i++)
		advance(&p, buf[i]);
	return p;
}

cJSON *isc_json_load(const char *path, char *err, size_t errlen)
{
	size_t len;
	const char *end = NULL;
	char *buf = isc_read_regular_file(path, ISC_META_MAX_BYTES, &len, err, errlen);
	if (!buf)
		return NULL;
	if (json_limits(path, buf, len, err, errlen) < 0) {
		free(buf);
		return NULL;
	}
	cJSON *j = cJSON_ParseWithLengthOpts(buf, len + 1, &end, 1);  /* + 1: the NUL after it */
	if (!j) {
		struct jpos p = offset_pos(buf, end ? (size_t)(end - buf) : 0);
		jfail(path, &p, "malformed JSON", err, errlen);
	} else if (!cJSON_IsObject(j)) {
		snprintf(err, errlen, "%s: not a JSON object", path);
		cJSON_Delete(j);
		j = NULL;
	}
	free(buf);
	return j;
}
