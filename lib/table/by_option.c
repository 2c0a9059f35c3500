/* SPDX-License-Identifier: GPL-2.0-only */
/* --by COLUMN[:N] and --by-bins N, the one parser of analyze stats, diff and report (bins.h). */
#include "table/bins.h"

#include <math.h>
#include <string.h>

#include "table/numparse.h"
#include "text/util.h"

static bool whole_count(const char *s, size_t *out)
{
	double d;
	if (!isc_parse_double(s, strlen(s), &d) || d < 1 || d > ISC_BY_MAX_BINS || d != floor(d))
		return false;
	*out = (size_t)d;
	return true;
}

size_t isc_by_bins_count(const char *arg, const char *cmd)
{
	size_t n;
	if (whole_count(arg, &n))
		return n;
	isc_err("%s: --by-bins: expected a whole number from 1 to %d, got '%s'", cmd, ISC_BY_MAX_BINS, arg);
	return 0;
}

int isc_by_option(const char **by, char **col, size_t *nbins, const char *prefix)
{
	const char *colon = *by ? strrchr(*by, ':') : NULL;
	if (colon && !whole_count(colon + 1, nbins)) {
		isc_err("--by %s: expected COLUMN:N with N a whole number from 1 to %d", *by, ISC_BY_MAX_BINS);
		return -1;
	}
	if (colon)
		*by = *col = isc_xstrndup(*by, (size_t)(colon - *by));
	if (*nbins && !*by) {
		isc_err("%s--by-bins needs --by COLUMN", prefix);
		return -1;
	}
	return 0;
}
