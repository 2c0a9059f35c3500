/* SPDX-License-Identifier: GPL-2.0-only */
/* wult's info.yml (YAML) into a cJSON tree, within the limits every metadata file shares. */
#ifndef IDLESCOPE_YAML_JSON_H
#define IDLESCOPE_YAML_JSON_H
#include <stddef.h>
#include <cjson/cJSON.h>

/*
 * Metadata files (info.json, info.yml) are refused, while they are parsed, when larger than
 * ISC_META_MAX_BYTES, nested deeper than ISC_META_MAX_DEPTH levels below the top object, or
 * holding more than ISC_META_MAX_NODES values (YAML: with aliases expanded).
 */
#define ISC_META_MAX_BYTES (16u << 20)
#define ISC_META_MAX_DEPTH 64
#define ISC_META_MAX_NODES 1000000

/* Parse a YAML file into a cJSON tree (mappings, sequences, scalars as strings or numbers).
 * NULL with "file:line:column: problem" in err when it cannot. */
cJSON *isc_yaml_load(const char *path, char *err, size_t errlen);
#endif
