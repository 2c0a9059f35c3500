/* SPDX-License-Identifier: GPL-2.0-only */
/* JSON text of a tree: cJSON's layout (formatted: a tab per level, "key":<tab>value, arrays on
 * one line with ", "), numbers in the shortest form that reads back as the same double. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cjson/cJSON.h"
#include "json_static.h"

struct out {
	char *p;
	size_t len, cap;
	int failed;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->failed)
		return;
	if (o->len + n + 1 > o->cap) {
		size_t cap = (o->len + n + 1) * 2;
		char *p = realloc(o->p, cap);
		if (!p) {
			o->failed = 1;
			return;
		}
		o->p = p;
		o->cap = cap;
	}
	memcpy(o->p + o->len, s, n);
	o->len += n;
	o->p[o->len] = '\0';
}

static void puts_(struct out *o, const char *s) { put(o, s, strlen(s)); }

static void tabs(struct out *o, int n)
{
	while (n-- > 0)
		put(o, "\t", 1);
}

/* Whole numbers below 1e17 in full (%.0f is exact there), others with the fewest significant
 * digits (1 to 17) that strtod reads back to the same bits; NaN and infinities are null. */
static void number(struct out *o, double v)
{
	char buf[40];
	if (!isfinite(v)) {
		puts_(o, "null");
		return;
	}
	if (fabs(v) < 1e17 && v == floor(v)) {
		snprintf(buf, sizeof(buf), "%.0f", v);
	} else {
		for (int prec = 1; prec <= 17; prec++) {
			snprintf(buf, sizeof(buf), "%.*g", prec, v);
			if (strtod(buf, NULL) == v)
				break;
		}
	}
	puts_(o, buf);
}

/* "text" with ", \ and the control characters escaped; other bytes as they are */
static void string(struct out *o, const char *s)
{
	static const char short_esc[] = "\"\"\\\\\bb\ff\nn\rr\tt";
	put(o, "\"", 1);
	for (const unsigned char *c = (const unsigned char *)(s ? s : ""); *c; c++) {
		const char *e = NULL;
		for (size_t i = 0; i + 1 < sizeof(short_esc); i += 2)
			if ((unsigned char)short_esc[i] == *c)
				e = &short_esc[i + 1];
		if (e) {
			char two[2] = { '\\', *e };
			put(o, two, 2);
		} else if (*c < 0x20) {
			char u[8];
			snprintf(u, sizeof(u), "\\u%04x", *c);
			put(o, u, 6);
		} else {
			put(o, (const char *)c, 1);
		}
	}
	put(o, "\"", 1);
}

static void value(struct out *o, const cJSON *item, int depth, int fmt);

static void array(struct out *o, const cJSON *item, int depth, int fmt)
{
	put(o, "[", 1);
	for (const cJSON *c = item->child; c && !o->failed; c = c->next) {
		value(o, c, depth + 1, fmt);
		if (c->next)
			puts_(o, fmt ? ", " : ",");
	}
	put(o, "]", 1);
}

static void object(struct out *o, const cJSON *item, int depth, int fmt)
{
	puts_(o, fmt ? "{\n" : "{");
	for (const cJSON *c = item->child; c && !o->failed; c = c->next) {
		if (fmt)
			tabs(o, depth + 1);
		string(o, c->string);
		puts_(o, fmt ? ":\t" : ":");
		value(o, c, depth + 1, fmt);
		if (c->next)
			put(o, ",", 1);
		if (fmt)
			put(o, "\n", 1);
	}
	if (fmt)
		tabs(o, depth);
	put(o, "}", 1);
}

static void value(struct out *o, const cJSON *item, int depth, int fmt)
{
	switch (item->type & 0xff) {
	case cJSON_NULL: puts_(o, "null"); break;
	case cJSON_False: puts_(o, "false"); break;
	case cJSON_True: puts_(o, "true"); break;
	case cJSON_Number: number(o, item->valuedouble); break;
	case cJSON_String: string(o, item->valuestring); break;
	case cJSON_Array: array(o, item, depth, fmt); break;
	case cJSON_Object: object(o, item, depth, fmt); break;
	case cJSON_Raw:
		if (item->valuestring)
			puts_(o, item->valuestring);
		else
			o->failed = 1;
		break;
	default: o->failed = 1;   /* an invalid item */
	}
}

static char *print(const cJSON *item, int fmt)
{
	struct out o = { 0 };
	if (!item)
		return NULL;
	value(&o, item, 0, fmt);
	if (o.failed) {
		free(o.p);
		return NULL;
	}
	return o.p;
}

char *cJSON_Print(const cJSON *item) { return print(item, 1); }
char *cJSON_PrintUnformatted(const cJSON *item) { return print(item, 0); }
