/* SPDX-License-Identifier: GPL-2.0-only */
/* Options shared by analyze stats and analyze diff. */
#include "load_opts.h"

#include "cache/cache.h"

bool take_load_opt(int c, const char *arg, struct isc_load_spec *spec, const char **funcs)
{
	switch (c) {
	case 'm': spec->metrics_re = arg; return true;
	case 'f': *funcs = arg; return true;
	case 'i': spec->include = arg; return true;
	case 'x': spec->exclude = arg; return true;
	case 'b': spec->group_by = arg; return true;
	case 'G': spec->no_group = true; return true;
	case LOAD_OPT_NO_CACHE: isc_cache_disable(); return true;
	default: return false;
	}
}
