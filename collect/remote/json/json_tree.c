/* SPDX-License-Identifier: GPL-2.0-only */
/* Arrays and objects: children, keys, lookup, replacement (include/cjson/cJSON.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cjson/cJSON.h"
#include "json_static.h"

void js_append(cJSON *parent, cJSON *item)
{
	cJSON *first = parent->child;
	item->next = NULL;
	if (!first) {
		parent->child = item;
		item->prev = item;
		return;
	}
	cJSON *last = first->prev ? first->prev : first;
	last->next = item;
	item->prev = last;
	first->prev = item;
}

int cJSON_GetArraySize(const cJSON *array)
{
	int n = 0;
	for (const cJSON *c = array ? array->child : NULL; c; c = c->next)
		n++;
	return n;
}

cJSON *cJSON_GetArrayItem(const cJSON *array, int index)
{
	cJSON *c = array && index >= 0 ? array->child : NULL;
	while (c && index-- > 0)
		c = c->next;
	return c;
}

static int key_cmp(const char *a, const char *b, int case_sensitive)
{
	if (case_sensitive)
		return strcmp(a, b);
	for (; tolower((unsigned char)*a) == tolower((unsigned char)*b); a++, b++)
		if (!*a)
			return 0;
	return tolower((unsigned char)*a) - tolower((unsigned char)*b);
}

static cJSON *find(const cJSON *object, const char *key, int case_sensitive)
{
	if (!object || !key)
		return NULL;
	for (cJSON *c = object->child; c; c = c->next)
		if (c->string && !key_cmp(c->string, key, case_sensitive))
			return c;
	return NULL;
}

cJSON *cJSON_GetObjectItem(const cJSON *object, const char *string) { return find(object, string, 0); }
cJSON *cJSON_GetObjectItemCaseSensitive(const cJSON *object, const char *string) { return find(object, string, 1); }
cJSON_bool cJSON_HasObjectItem(const cJSON *object, const char *string) { return find(object, string, 0) != NULL; }

cJSON_bool cJSON_AddItemToArray(cJSON *array, cJSON *item)
{
	if (!array || !item || array == item)
		return 0;
	js_append(array, item);
	return 1;
}

/* item's key becomes a copy of key (its old key freed unless it was constant) */
static cJSON_bool set_key(cJSON *item, const char *key)
{
	char *k = js_strdup(key);
	if (!k)
		return 0;
	if (!(item->type & cJSON_StringIsConst))
		free(item->string);
	item->string = k;
	item->type &= ~cJSON_StringIsConst;
	return 1;
}

cJSON_bool cJSON_AddItemToObject(cJSON *object, const char *string, cJSON *item)
{
	if (!object || !string || !item || object == item || !set_key(item, string))
		return 0;
	js_append(object, item);
	return 1;
}

/* take item out of parent's children */
static cJSON *unlink_child(cJSON *parent, cJSON *item)
{
	if (!parent || !item)
		return NULL;
	cJSON *first = parent->child;
	if (item == first) {
		parent->child = item->next;
		if (item->next)
			item->next->prev = item->prev;   /* keeps pointing at the last */
	} else {
		item->prev->next = item->next;
		if (item->next)
			item->next->prev = item->prev;
		else
			first->prev = item->prev;        /* it was the last */
	}
	item->next = item->prev = NULL;
	return item;
}

cJSON *cJSON_DetachItemFromObject(cJSON *object, const char *string)
{
	return unlink_child(object, find(object, string, 0));
}

cJSON *cJSON_DetachItemFromObjectCaseSensitive(cJSON *object, const char *string)
{
	return unlink_child(object, find(object, string, 1));
}

/* newitem takes old's place and its key; old is deleted. False (newitem not taken) when there
 * is no such key. */
static cJSON_bool replace(cJSON *object, const char *key, cJSON *newitem, int case_sensitive)
{
	cJSON *old = find(object, key, case_sensitive);
	if (!old || !newitem || !set_key(newitem, key))
		return 0;
	cJSON *first = object->child;
	newitem->next = old->next;
	newitem->prev = old->prev;
	if (old == first) {
		object->child = newitem;
		if (!newitem->next)
			newitem->prev = newitem;   /* the only child */
	} else {
		old->prev->next = newitem;
		if (!newitem->next)
			first->prev = newitem;     /* the new last */
	}
	if (newitem->next)
		newitem->next->prev = newitem;
	old->next = old->prev = NULL;
	cJSON_Delete(old);
	return 1;
}

cJSON_bool cJSON_ReplaceItemInObject(cJSON *object, const char *string, cJSON *newitem)
{
	return replace(object, string, newitem, 0);
}

cJSON_bool cJSON_ReplaceItemInObjectCaseSensitive(cJSON *object, const char *string, cJSON *newitem)
{
	return replace(object, string, newitem, 1);
}

/* the Add*ToObject helpers: the new item, or NULL (and nothing added) */
static cJSON *add_new(cJSON *object, const char *name, cJSON *item)
{
	if (cJSON_AddItemToObject(object, name, item))
		return item;
	cJSON_Delete(item);
	return NULL;
}

cJSON *cJSON_AddNullToObject(cJSON *object, const char *name) { return add_new(object, name, cJSON_CreateNull()); }
cJSON *cJSON_AddObjectToObject(cJSON *object, const char *name) { return add_new(object, name, cJSON_CreateObject()); }
cJSON *cJSON_AddArrayToObject(cJSON *object, const char *name) { return add_new(object, name, cJSON_CreateArray()); }

cJSON *cJSON_AddBoolToObject(cJSON *object, const char *name, cJSON_bool boolean)
{
	return add_new(object, name, cJSON_CreateBool(boolean));
}

cJSON *cJSON_AddNumberToObject(cJSON *object, const char *name, double number)
{
	return add_new(object, name, cJSON_CreateNumber(number));
}

cJSON *cJSON_AddStringToObject(cJSON *object, const char *name, const char *string)
{
	return add_new(object, name, cJSON_CreateString(string));
}
