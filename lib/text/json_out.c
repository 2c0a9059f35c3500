/* SPDX-License-Identifier: GPL-2.0-only */
/* JSON text for files, valid UTF-8 whatever the strings in the tree hold; setting a key. */
#include "text/json_out.h"

#include <stdlib.h>

#include "text/textsafe.h"

char *isc_json_render(const cJSON *item, bool formatted)
{
	char *raw = formatted ? cJSON_Print(item) : cJSON_PrintUnformatted(item);
	if (!raw)
		return NULL;
	char *safe = isc_text_dup(raw, ISC_TEXT_JSON);
	free(raw);
	return safe;
}

/* (cJSON_HasObjectItem ignores case: with "Datapoints" there, the replacement of "datapoints"
 * failed and v leaked) */
void isc_json_set(cJSON *o, const char *key, cJSON *v)
{
	if (!cJSON_GetObjectItemCaseSensitive(o, key))
		cJSON_AddItemToObject(o, key, v);
	else if (!cJSON_ReplaceItemInObjectCaseSensitive(o, key, v))
		cJSON_Delete(v);
}
