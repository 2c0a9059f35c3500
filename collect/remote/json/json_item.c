/* SPDX-License-Identifier: GPL-2.0-only */
/* One JSON item: creation, type tests, deletion and copies (include/cjson/cJSON.h). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cjson/cJSON.h"
#include "json_static.h"

cJSON *js_new(int type)
{
	cJSON *item = calloc(1, sizeof(*item));
	if (item)
		item->type = type;
	return item;
}

char *js_strdup(const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

void js_set_number(cJSON *item, double num)
{
	item->valuedouble = num;
	if (num >= INT_MAX)
		item->valueint = INT_MAX;
	else if (num <= (double)INT_MIN)
		item->valueint = INT_MIN;
	else if (num == num)
		item->valueint = (int)num;
	else
		item->valueint = 0;   /* NaN */
}

void cJSON_Delete(cJSON *item)
{
	while (item) {
		cJSON *next = item->next;
		if (!(item->type & cJSON_IsReference)) {
			cJSON_Delete(item->child);
			free(item->valuestring);
		}
		if (!(item->type & cJSON_StringIsConst))
			free(item->string);
		free(item);
		item = next;
	}
}

cJSON *cJSON_CreateNull(void) { return js_new(cJSON_NULL); }
cJSON *cJSON_CreateTrue(void) { return js_new(cJSON_True); }
cJSON *cJSON_CreateFalse(void) { return js_new(cJSON_False); }
cJSON *cJSON_CreateBool(cJSON_bool boolean) { return js_new(boolean ? cJSON_True : cJSON_False); }
cJSON *cJSON_CreateArray(void) { return js_new(cJSON_Array); }
cJSON *cJSON_CreateObject(void) { return js_new(cJSON_Object); }

cJSON *cJSON_CreateNumber(double num)
{
	cJSON *item = js_new(cJSON_Number);
	if (item)
		js_set_number(item, num);
	return item;
}

/* a string or raw item holding a copy of text; NULL text is NULL, as in cJSON */
static cJSON *create_text(int type, const char *text)
{
	cJSON *item = js_new(type);
	if (item && !(item->valuestring = js_strdup(text))) {
		cJSON_Delete(item);
		return NULL;
	}
	return item;
}

cJSON *cJSON_CreateString(const char *string) { return create_text(cJSON_String, string); }
cJSON *cJSON_CreateRaw(const char *raw) { return create_text(cJSON_Raw, raw); }

static cJSON_bool is_type(const cJSON *item, int type)
{
	return item && (item->type & 0xff) == type;
}

cJSON_bool cJSON_IsInvalid(const cJSON *item) { return is_type(item, cJSON_Invalid); }
cJSON_bool cJSON_IsFalse(const cJSON *item) { return is_type(item, cJSON_False); }
cJSON_bool cJSON_IsTrue(const cJSON *item) { return is_type(item, cJSON_True); }
cJSON_bool cJSON_IsBool(const cJSON *item) { return item && (item->type & (cJSON_True | cJSON_False)); }
cJSON_bool cJSON_IsNull(const cJSON *item) { return is_type(item, cJSON_NULL); }
cJSON_bool cJSON_IsNumber(const cJSON *item) { return is_type(item, cJSON_Number); }
cJSON_bool cJSON_IsString(const cJSON *item) { return is_type(item, cJSON_String); }
cJSON_bool cJSON_IsArray(const cJSON *item) { return is_type(item, cJSON_Array); }
cJSON_bool cJSON_IsObject(const cJSON *item) { return is_type(item, cJSON_Object); }
cJSON_bool cJSON_IsRaw(const cJSON *item) { return is_type(item, cJSON_Raw); }

char *cJSON_GetStringValue(const cJSON *item)
{
	return cJSON_IsString(item) ? item->valuestring : NULL;
}

/* A copy that owns everything (no reference flag); with recurse, the children too. */
cJSON *cJSON_Duplicate(const cJSON *item, cJSON_bool recurse)
{
	if (!item)
		return NULL;
	cJSON *copy = js_new(item->type & ~cJSON_IsReference);
	if (!copy)
		return NULL;
	copy->valueint = item->valueint;
	copy->valuedouble = item->valuedouble;
	if ((item->valuestring && !(copy->valuestring = js_strdup(item->valuestring))) ||
	    (item->string && !(copy->string = (item->type & cJSON_StringIsConst) ? item->string
								      : js_strdup(item->string))))
		goto fail;
	for (const cJSON *c = recurse ? item->child : NULL; c; c = c->next) {
		cJSON *cc = cJSON_Duplicate(c, 1);
		if (!cc)
			goto fail;
		js_append(copy, cc);
	}
	return copy;
fail:
	cJSON_Delete(copy);
	return NULL;
}
