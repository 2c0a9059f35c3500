/* SPDX-License-Identifier: GPL-2.0-only */
/* The helpers shared by the files of idlescope's JSON tree (collect/remote/json/). */
#ifndef IDLESCOPE_JSON_STATIC_H
#define IDLESCOPE_JSON_STATIC_H
#include "cjson/cJSON.h"

/* json_item.c: a zeroed item of that type (NULL when out of memory) */
cJSON *js_new(int type);
/* json_item.c: malloc'd copy; NULL for NULL */
char *js_strdup(const char *s);
/* json_item.c: valuedouble and valueint (saturated to int, 0 for NaN) */
void js_set_number(cJSON *item, double num);
/* json_tree.c: item as the last child of parent (the first child's prev is the last) */
void js_append(cJSON *parent, cJSON *item);
#endif
