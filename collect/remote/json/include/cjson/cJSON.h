/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * idlescope's own JSON tree for the deployed collect (collect-deploy, docs/remote.md): the part
 * of the cJSON API that collect and lib/ use, with the same names, meaning and memory layout, so
 * that one static binary needs no libcjson (Debian 12 has no libcjson.a). The normal programs
 * use Debian's libcjson; tests/remote/json_diff.sh checks this one against it.
 *
 * The layout below is cJSON 1.7's: lib/ is compiled once against Debian's header and linked
 * into both. Numbers are printed so that they read back as the same double (json_print.c).
 */
#ifndef IDLESCOPE_JSON_STATIC_CJSON_H
#define IDLESCOPE_JSON_STATIC_CJSON_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define cJSON_Invalid (0)
#define cJSON_False (1 << 0)
#define cJSON_True (1 << 1)
#define cJSON_NULL (1 << 2)
#define cJSON_Number (1 << 3)
#define cJSON_String (1 << 4)
#define cJSON_Array (1 << 5)
#define cJSON_Object (1 << 6)
#define cJSON_Raw (1 << 7)
#define cJSON_IsReference 256
#define cJSON_StringIsConst 512

/* nesting deeper than this is a parse error */
#define CJSON_NESTING_LIMIT 1000

typedef int cJSON_bool;

typedef struct cJSON {
	struct cJSON *next, *prev;   /* siblings; the first child's prev is the last child */
	struct cJSON *child;         /* arrays and objects */
	int type;                    /* cJSON_* above, plus the two flags */
	char *valuestring;           /* strings and raw text */
	int valueint;                /* valuedouble saturated to int */
	double valuedouble;
	char *string;                /* the key, in an object */
} cJSON;

/* parsing (json_parse.c) */
cJSON *cJSON_Parse(const char *value);
cJSON *cJSON_ParseWithLength(const char *value, size_t length);
cJSON *cJSON_ParseWithOpts(const char *value, const char **return_parse_end, cJSON_bool require_null_terminated);
cJSON *cJSON_ParseWithLengthOpts(const char *value, size_t length, const char **return_parse_end,
				 cJSON_bool require_null_terminated);
const char *cJSON_GetErrorPtr(void);

/* printing (json_print.c): malloc'd text, free() it */
char *cJSON_Print(const cJSON *item);
char *cJSON_PrintUnformatted(const cJSON *item);

/* items (json_item.c) */
void cJSON_Delete(cJSON *item);
cJSON *cJSON_CreateNull(void);
cJSON *cJSON_CreateTrue(void);
cJSON *cJSON_CreateFalse(void);
cJSON *cJSON_CreateBool(cJSON_bool boolean);
cJSON *cJSON_CreateNumber(double num);
cJSON *cJSON_CreateString(const char *string);
cJSON *cJSON_CreateRaw(const char *raw);
cJSON *cJSON_CreateArray(void);
cJSON *cJSON_CreateObject(void);
cJSON *cJSON_Duplicate(const cJSON *item, cJSON_bool recurse);
cJSON_bool cJSON_IsInvalid(const cJSON *item);
cJSON_bool cJSON_IsFalse(const cJSON *item);
cJSON_bool cJSON_IsTrue(const cJSON *item);
cJSON_bool cJSON_IsBool(const cJSON *item);
cJSON_bool cJSON_IsNull(const cJSON *item);
cJSON_bool cJSON_IsNumber(const cJSON *item);
cJSON_bool cJSON_IsString(const cJSON *item);
cJSON_bool cJSON_IsArray(const cJSON *item);
cJSON_bool cJSON_IsObject(const cJSON *item);
cJSON_bool cJSON_IsRaw(const cJSON *item);
char *cJSON_GetStringValue(const cJSON *item);

/* arrays and objects (json_tree.c) */
int cJSON_GetArraySize(const cJSON *array);
cJSON *cJSON_GetArrayItem(const cJSON *array, int index);
cJSON *cJSON_GetObjectItem(const cJSON *object, const char *string);
cJSON *cJSON_GetObjectItemCaseSensitive(const cJSON *object, const char *string);
cJSON_bool cJSON_HasObjectItem(const cJSON *object, const char *string);
cJSON_bool cJSON_AddItemToArray(cJSON *array, cJSON *item);
cJSON_bool cJSON_AddItemToObject(cJSON *object, const char *string, cJSON *item);
cJSON *cJSON_DetachItemFromObject(cJSON *object, const char *string);
cJSON *cJSON_DetachItemFromObjectCaseSensitive(cJSON *object, const char *string);
cJSON_bool cJSON_ReplaceItemInObject(cJSON *object, const char *string, cJSON *newitem);
cJSON_bool cJSON_ReplaceItemInObjectCaseSensitive(cJSON *object, const char *string, cJSON *newitem);
cJSON *cJSON_AddNullToObject(cJSON *object, const char *name);
cJSON *cJSON_AddBoolToObject(cJSON *object, const char *name, cJSON_bool boolean);
cJSON *cJSON_AddNumberToObject(cJSON *object, const char *name, double number);
cJSON *cJSON_AddStringToObject(cJSON *object, const char *name, const char *string);
cJSON *cJSON_AddObjectToObject(cJSON *object, const char *name);
cJSON *cJSON_AddArrayToObject(cJSON *object, const char *name);

#define cJSON_ArrayForEach(element, array) \
	for ((element) = (array) != NULL ? (array)->child : NULL; (element) != NULL; (element) = (element)->next)

#ifdef __cplusplus
}
#endif
#endif
