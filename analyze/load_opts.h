/* SPDX-License-Identifier: GPL-2.0-only */
/* The options analyze stats and analyze diff share: which columns and rows to load, how to
 * group them and which functions to compute. */
#ifndef ANALYZE_LOAD_OPTS_H
#define ANALYZE_LOAD_OPTS_H
#include <getopt.h>
#include <stdbool.h>

#include "run/load.h"

/* The shared options are in each command's option table (lib/cli) with these values: m f i x b
 * G and, long only, --no-cache: */
#define LOAD_OPT_NO_CACHE 0x4000  /* long only, above every command's own codes */

/* Takes option c if it is one of the shared ones (true), into spec and *funcs. */
bool take_load_opt(int c, const char *arg, struct isc_load_spec *spec, const char **funcs);

#endif
