/* SPDX-License-Identifier: GPL-2.0-only */
/* Small helpers: paths, files, info fields as text. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text/util.h"
#include "report.h"

char *path_cat(const char *a, const char *b)
{
	size_t n = strlen(a);
	return isc_xasprintf("%s%s%s", a, n && a[n - 1] == '/' ? "" : "/", b);
}

static void append(char **buf, size_t *len, const char *s)
{
	size_t n = strlen(s);
	*buf = isc_xrealloc(*buf, *len + n + 1);
	memcpy(*buf + *len, s, n + 1);
	*len += n;
}

static void render(const cJSON *v, char **buf, size_t *len);

/* An idle state: "C6 (lat 170 us, res 500 us, disabled)". */
static bool render_state(const cJSON *o, char **buf, size_t *len)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "name");
	const cJSON *lat = cJSON_GetObjectItemCaseSensitive(o, "latency_us");
	const cJSON *res = cJSON_GetObjectItemCaseSensitive(o, "residency_us");
	const cJSON *dis = cJSON_GetObjectItemCaseSensitive(o, "disabled");
	char tmp[128];
	if (!cJSON_IsString(name))
		return false;
	append(buf, len, name->valuestring);
	if (cJSON_IsNumber(lat) && cJSON_IsNumber(res)) {
		snprintf(tmp, sizeof(tmp), " (%g/%g us)", lat->valuedouble, res->valuedouble);
		append(buf, len, tmp);
	}
	if (cJSON_IsTrue(dis) || (cJSON_IsNumber(dis) && dis->valuedouble != 0))
		append(buf, len, " disabled");
	return true;
}

static void render(const cJSON *v, char **buf, size_t *len)
{
	char num[64];
	if (cJSON_IsString(v)) {
		append(buf, len, v->valuestring);
	} else if (cJSON_IsNumber(v)) {
		double d = v->valuedouble;
		snprintf(num, sizeof(num), d == floor(d) && fabs(d) < 1e15 ? "%.0f" : "%.6g", d);
		append(buf, len, num);
	} else if (cJSON_IsBool(v)) {
		append(buf, len, cJSON_IsTrue(v) ? "yes" : "no");
	} else if (cJSON_IsNull(v)) {
		append(buf, len, "n/a");
	} else if (cJSON_IsArray(v)) {
		for (const cJSON *c = v->child; c; c = c->next) {
			if (c != v->child)
				append(buf, len, ", ");
			if (!cJSON_IsObject(c) || !render_state(c, buf, len))
				render(c, buf, len);
		}
	} else if (cJSON_IsObject(v)) {
		for (const cJSON *c = v->child; c; c = c->next) {
			append(buf, len, c == v->child ? "" : ", ");
			append(buf, len, c->string);
			append(buf, len, ": ");
			render(c, buf, len);
		}
	}
}

char *json_text(const void *item)
{
	const cJSON *v = item;
	char *buf = NULL;
	size_t len = 0;
	if (!v || cJSON_IsNull(v) || (cJSON_IsString(v) && !v->valuestring[0]))
		return NULL;
	if ((cJSON_IsArray(v) || cJSON_IsObject(v)) && !v->child)
		return isc_xstrdup("none");  /* e.g. no idle states: a CPU without a cpuidle driver */
	append(&buf, &len, "");
	render(v, &buf, &len);
	return buf;
}
