/* SPDX-License-Identifier: GPL-2.0-only */
/* The settings answer a SUT sends (settings_answer.h), checked field by field. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "settings_answer.h"
#include "text/textsafe.h"
#include "text/util.h"

/* The largest answer ssh_run keeps (1 MiB): the output with its bytes escaped, and the settings. */
#define ANSWER_MAX (1u << 20)

static int bad(char *why, size_t wlen, const char *fmt, const char *what)
{
	snprintf(why, wlen, fmt, what);
	return -1;
}

/* A name or value from the SUT: a string, not too long, printable, and a name has no blank. */
static int check_text(const cJSON *item, bool name, char *why, size_t wlen)
{
	const char *s = name ? item->string : cJSON_GetStringValue(item), *what = name ? "a setting name" : "a value";
	char prob[96];
	if (!s)
		return bad(why, wlen, "%s that is not a string", what);
	size_t n = strlen(s);
	if (n > (name ? SETTING_NAME_MAX : SETTING_VALUE_MAX)) {
		snprintf(why, wlen, "%s longer than %u bytes", what, name ? SETTING_NAME_MAX : SETTING_VALUE_MAX);
		return -1;
	}
	if (isc_name_problem(s, prob, sizeof(prob))) {
		snprintf(why, wlen, "%s with %s", what, prob);
		return -1;
	}
	if (name && (!n || strpbrk(s, " \t")))
		return bad(why, wlen, "%s that is empty or has a blank", what);
	return 0;
}

static int take_settings(const cJSON *obj, struct settings_answer *a, char *why, size_t wlen)
{
	if (!cJSON_IsObject(obj))
		return bad(why, wlen, "%s", "no \"settings\" object");
	int n = cJSON_GetArraySize(obj);
	if (n > SETTINGS_MAX)
		return bad(why, wlen, "%s", "more than 1024 settings");
	a->names = isc_xcalloc((size_t)n + 1, sizeof(*a->names));
	a->values = isc_xcalloc((size_t)n + 1, sizeof(*a->values));
	for (const cJSON *it = obj->child; it; it = it->next) {
		if (check_text(it, true, why, wlen) || check_text(it, false, why, wlen))
			return -1;
		if (settings_answer_value(a, it->string)) {
			char q[SETTING_NAME_MAX + 1];
			snprintf(q, sizeof(q), "%s", it->string);
			return bad(why, wlen, "setting '%s' given twice", q);
		}
		a->names[a->n] = isc_xstrdup(it->string);
		a->values[a->n++] = isc_xstrdup(it->valuestring);
	}
	return 0;
}

int settings_answer_parse(const char *bytes, size_t len, struct settings_answer *a, char *why, size_t wlen)
{
	*a = (struct settings_answer){ 0 };
	if (len > ANSWER_MAX)
		return bad(why, wlen, "%s", "an answer longer than its limit");
	cJSON *j = cJSON_ParseWithLength(bytes, len);
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(j, "format");
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(j, "status");
	const cJSON *out = cJSON_GetObjectItemCaseSensitive(j, "output");
	const cJSON *cut = cJSON_GetObjectItemCaseSensitive(j, "output_cut");
	int rc = -1;
	if (!cJSON_IsObject(j))
		bad(why, wlen, "%s", "not a JSON object");
	else if (!cJSON_IsNumber(f) || f->valuedouble != SETTINGS_ANSWER_FORMAT)
		bad(why, wlen, "%s", "not format 1");
	else if (!cJSON_IsNumber(st) || !(st->valuedouble >= 0 && st->valuedouble <= 255) ||
		 st->valuedouble != (int)st->valuedouble)
		bad(why, wlen, "%s", "no exit status from 0 to 255");
	else if (!cJSON_IsString(out) || strlen(out->valuestring) > SETTINGS_OUTPUT_MAX)
		bad(why, wlen, "%s", "no output text of at most 128 KiB");
	else if (!cJSON_IsBool(cut))
		bad(why, wlen, "%s", "no \"output_cut\" true or false");
	else
		rc = take_settings(cJSON_GetObjectItemCaseSensitive(j, "settings"), a, why, wlen);
	if (!rc) {
		a->status = (int)st->valuedouble;
		a->output = isc_xstrdup(out->valuestring);
		a->output_cut = cJSON_IsTrue(cut);
	} else {
		settings_answer_free(a);
	}
	cJSON_Delete(j);
	return rc;
}

void settings_answer_free(struct settings_answer *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->names[i]);
		free(a->values[i]);
	}
	free(a->names);
	free(a->values);
	free(a->output);
	*a = (struct settings_answer){ 0 };
}

const char *settings_answer_value(const struct settings_answer *a, const char *name)
{
	for (size_t i = 0; i < a->n; i++)
		if (!strcmp(a->names[i], name))
			return a->values[i];
	return NULL;
}
