/* SPDX-License-Identifier: GPL-2.0-only */
/* JSON text to a tree, accepting what cJSON 1.7 accepts (its number scan, \u escapes with
 * surrogate pairs to UTF-8, other bytes as they are), nesting at most CJSON_NESTING_LIMIT. */
#include <stdlib.h>
#include <string.h>

#include "cjson/cJSON.h"
#include "json_static.h"

struct in {
	const char *s;
	size_t len, pos;
	size_t err;        /* where it failed */
	int depth;
};

static const char *error_ptr;

const char *cJSON_GetErrorPtr(void) { return error_ptr; }

static int at(const struct in *in, size_t k) { return in->pos + k < in->len ? (unsigned char)in->s[in->pos + k] : -1; }

/* bytes up to 32 (NUL too, as cJSON does); at the end, back on the last byte */
static void skip_ws(struct in *in)
{
	if (in->pos >= in->len)
		return;
	while (in->pos < in->len && (unsigned char)in->s[in->pos] <= 32)
		in->pos++;
	if (in->pos == in->len)
		in->pos--;
}

static cJSON *fail(struct in *in, cJSON *partial)
{
	in->err = in->pos;
	cJSON_Delete(partial);
	return NULL;
}

/* four hex digits at in->pos + k; as in cJSON, 0 when one is not a hex digit */
static unsigned hex4(const struct in *in, size_t k)
{
	unsigned v = 0;
	for (size_t i = 0; i < 4; i++) {
		int c = at(in, k + i);
		unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0') : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
			   : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16u;
		if (d > 15)
			return 0;
		v = v * 16 + d;
	}
	return v;
}

static size_t utf8(unsigned cp, char *o)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* \uXXXX at in->pos (the backslash) before end (the closing quote), a high surrogate with its
 * low one: UTF-8 into o; the number of input bytes taken, 0 when invalid */
static size_t unicode_escape(const struct in *in, size_t end, char *o, size_t *olen)
{
	if (in->pos + 6 > end)
		return 0;
	unsigned hi = hex4(in, 2), lo;
	if (hi >= 0xdc00 && hi <= 0xdfff)
		return 0;
	if (hi < 0xd800 || hi > 0xdbff) {
		*olen = utf8(hi, o);
		return 6;
	}
	if (in->pos + 12 > end || at(in, 6) != '\\' || at(in, 7) != 'u')
		return 0;
	lo = hex4(in, 8);
	if (lo < 0xdc00 || lo > 0xdfff)
		return 0;
	*olen = utf8(0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00), o);
	return 12;
}

/* "..." at in->pos: a malloc'd copy with the escapes decoded */
static char *string(struct in *in)
{
	size_t end = in->pos + 1;
	while (end < in->len && in->s[end] != '"')
		end += in->s[end] == '\\' ? 2 : 1;
	if (end >= in->len)
		return NULL;   /* no closing quote */
	char *d = malloc(end - in->pos), *o = d;
	if (!d)
		return NULL;
	for (in->pos++; in->pos < end; ) {
		char c = in->s[in->pos];
		if (c != '\\') {
			*o++ = c;
			in->pos++;
			continue;
		}
		static const char esc[] = "b\bf\fn\nr\rt\t\"\"\\\\//";
		const char *e = at(in, 1) > 0 ? strchr(esc, at(in, 1)) : NULL;
		size_t olen, took;
		if (at(in, 1) == 'u' && (took = unicode_escape(in, end, o, &olen))) {
			o += olen;
			in->pos += took;
		} else if (e && at(in, 1) != 'u' && (e - esc) % 2 == 0) {
			*o++ = e[1];
			in->pos += 2;
		} else {
			free(d);
			return NULL;
		}
	}
	*o = '\0';
	in->pos = end + 1;
	return d;
}

/* cJSON's number scan: the longest run of [0-9+-eE.] (at most 63), read by strtod */
static cJSON *number(struct in *in)
{
	char buf[64], *end;
	size_t n = 0;
	while (n < sizeof(buf) - 1 && at(in, n) > 0 && strchr("0123456789+-eE.", at(in, n)))
		n++;
	memcpy(buf, in->s + in->pos, n);
	buf[n] = '\0';
	double v = strtod(buf, &end);
	if (end == buf)
		return fail(in, NULL);
	cJSON *item = js_new(cJSON_Number);
	if (!item)
		return fail(in, NULL);
	js_set_number(item, v);
	in->pos += (size_t)(end - buf);
	return item;
}

static cJSON *value(struct in *in);

/* [ ... ] or { ... }: children separated by commas; objects' children have a key */
static cJSON *container(struct in *in, int type, char close)
{
	cJSON *item = js_new(type);
	if (!item || ++in->depth > CJSON_NESTING_LIMIT)
		return fail(in, item);
	in->pos++;
	skip_ws(in);
	if (at(in, 0) == close) {
		in->pos++;
		in->depth--;
		return item;
	}
	for (;;) {
		char *key = NULL;
		skip_ws(in);
		if (type == cJSON_Object) {
			if (at(in, 0) != '"' || !(key = string(in)))
				return fail(in, item);
			skip_ws(in);
			if (at(in, 0) != ':') {
				free(key);
				return fail(in, item);
			}
			in->pos++;
			skip_ws(in);
		}
		cJSON *child = value(in);
		if (!child) {
			free(key);
			cJSON_Delete(item);
			return NULL;
		}
		child->string = key;
		js_append(item, child);
		skip_ws(in);
		if (at(in, 0) == close)
			break;
		if (at(in, 0) != ',')
			return fail(in, item);
		in->pos++;
	}
	in->pos++;
	in->depth--;
	return item;
}

static cJSON *literal(struct in *in, const char *word, int type)
{
	size_t n = strlen(word);
	if (in->len - in->pos < n || memcmp(in->s + in->pos, word, n))
		return fail(in, NULL);
	in->pos += n;
	cJSON *item = js_new(type);
	return item ? item : fail(in, NULL);
}

static cJSON *value(struct in *in)
{
	int c = at(in, 0);
	if (c == 'n')
		return literal(in, "null", cJSON_NULL);
	if (c == 'f')
		return literal(in, "false", cJSON_False);
	if (c == 't')
		return literal(in, "true", cJSON_True);
	if (c == '-' || (c >= '0' && c <= '9'))
		return number(in);
	if (c == '[')
		return container(in, cJSON_Array, ']');
	if (c == '{')
		return container(in, cJSON_Object, '}');
	if (c == '"') {
		char *s = string(in);
		cJSON *item = s ? js_new(cJSON_String) : NULL;
		if (!item) {
			free(s);
			return fail(in, NULL);
		}
		item->valuestring = s;
		return item;
	}
	return fail(in, NULL);
}

cJSON *cJSON_ParseWithLengthOpts(const char *value_, size_t length, const char **return_parse_end,
				 cJSON_bool require_null_terminated)
{
	struct in in = { .s = value_, .len = length };
	cJSON *item = NULL;
	error_ptr = NULL;
	if (!value_ || !length)
		goto out;
	if (length >= 3 && !memcmp(value_, "\xef\xbb\xbf", 3))
		in.pos = 3;   /* a UTF-8 byte order mark */
	skip_ws(&in);
	item = value(&in);
	if (item && require_null_terminated) {
		skip_ws(&in);
		if (in.pos >= in.len || in.s[in.pos]) {
			item = fail(&in, item);
		}
	}
out:
	if (item) {
		if (return_parse_end)
			*return_parse_end = value_ + in.pos;
		return item;
	}
	if (value_) {
		size_t e = in.err < length ? in.err : length ? length - 1 : 0;
		error_ptr = value_ + e;
		if (return_parse_end)
			*return_parse_end = error_ptr;
	}
	return NULL;
}

cJSON *cJSON_ParseWithOpts(const char *value_, const char **return_parse_end, cJSON_bool require_null_terminated)
{
	if (!value_)
		return NULL;
	return cJSON_ParseWithLengthOpts(value_, strlen(value_) + 1, return_parse_end, require_null_terminated);
}

cJSON *cJSON_ParseWithLength(const char *value_, size_t length)
{
	return cJSON_ParseWithLengthOpts(value_, length, NULL, 0);
}

cJSON *cJSON_Parse(const char *value_) { return cJSON_ParseWithOpts(value_, NULL, 0); }
