/* The options analyze stats and analyze diff share: which columns and rows to load, how to
 * group them and which functions to compute. */
#ifndef ANALYZE_LOAD_OPTS_H
#define ANALYZE_LOAD_OPTS_H
#include <getopt.h>
#include <stdbool.h>

#include "run/load.h"

/* getopt_long entries and short letters for them; put them first in a command's tables. */
#define LOAD_LONGOPTS                                                                        \
	{ "metrics", required_argument, NULL, 'm' }, { "funcs", required_argument, NULL, 'f' }, \
	{ "include", required_argument, NULL, 'i' }, { "exclude", required_argument, NULL, 'x' }, \
	{ "by", required_argument, NULL, 'b' }, { "no-group", no_argument, NULL, 'G' },          \
	{ "no-cache", no_argument, NULL, LOAD_OPT_NO_CACHE }
#define LOAD_SHORTOPTS "m:f:i:x:b:G"
#define LOAD_OPT_NO_CACHE 0x4000  /* long only, above every command's own codes */

/* Takes option c if it is one of the shared ones (true), into spec and *funcs. */
bool take_load_opt(int c, const char *arg, struct is_load_spec *spec, const char **funcs);

#endif
