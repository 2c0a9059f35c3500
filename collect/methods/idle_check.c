/* SPDX-License-Identifier: GPL-2.0-only */
/* info_method "idle_check" (method.h: collect_idle_check). */
#include "method.h"

void collect_idle_check(cJSON *info_method, bool per_datapoint, const char *source)
{
	cJSON *o = cJSON_AddObjectToObject(info_method, "idle_check");
	cJSON_AddBoolToObject(o, "per_datapoint", per_datapoint);
	cJSON_AddStringToObject(o, "source", source);
}
