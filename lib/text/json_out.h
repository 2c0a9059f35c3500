/* SPDX-License-Identifier: GPL-2.0-only */
/* JSON for files: cJSON's rendering made valid UTF-8 (textsafe.h, ISC_TEXT_JSON); setting a key. */
#ifndef IDLESCOPE_JSON_OUT_H
#define IDLESCOPE_JSON_OUT_H
#include <stdbool.h>
#include <cjson/cJSON.h>

/* item as JSON text (indented when formatted): invalid UTF-8 in its strings and keys becomes
 * U+FFFD, DEL and C1 characters \u007f ... \u009f. malloc'd; NULL when out of memory. */
char *isc_json_render(const cJSON *item, bool formatted);
/* Set o[key] to v: replaces the item of that key (case-sensitive) if there is one, else adds it. */
void isc_json_set(cJSON *o, const char *key, cJSON *v);

#endif
