/* JSON text for files: cJSON's rendering made valid UTF-8 (textsafe.h, IS_TEXT_JSON). */
#ifndef IDLESCOPE_JSON_OUT_H
#define IDLESCOPE_JSON_OUT_H
#include <stdbool.h>
#include <cjson/cJSON.h>

/* item as JSON text (indented when formatted): invalid UTF-8 in its strings and keys becomes
 * U+FFFD, DEL and C1 characters \u007f ... \u009f. malloc'd; NULL when out of memory. */
char *is_json_render(const cJSON *item, bool formatted);

#endif
