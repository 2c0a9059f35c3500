/* SPDX-License-Identifier: GPL-2.0-only */
/* A remote error: printed, and kept for the fleet's summary line. */
#include <stdarg.h>
#include <stdio.h>

#include "remote.h"
#include "text/util.h"

char remote_last_error[1024];

void remote_err(const char *host, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(remote_last_error, sizeof(remote_last_error), fmt, ap);
	va_end(ap);
	isc_err("%s: %s", host, remote_last_error);
}
