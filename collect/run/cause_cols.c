// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cause columns of datapoints.csv: what else ran on the measured CPU during each
 * datapoint (docs/format.md, "Cause columns"). Times in us with 3 decimals, exact.
 */
#include <inttypes.h>
#include <stdio.h>

#include "collect.h"

int dp_causes_header(char *buf, size_t len, const struct dp_columns *c)
{
	if (!c->causes)
		return snprintf(buf, len, "%s", "");
	return snprintf(buf, len, "%s%s", ",IRQCnt,IRQTime,IRQTop,SWIRQCnt,SWIRQTime,SWIRQTypes",
			c->steal ? ",StealTime" : "");
}

static int put_us(char *buf, size_t len, uint64_t ns)
{
	return snprintf(buf, len, ",%" PRIu64 ".%03" PRIu64, ns / 1000, ns % 1000);
}

int dp_causes_cells(char *buf, size_t len, const struct dp_causes *k, const struct dp_columns *c)
{
	int n, o = 0;

	if (!c->causes)
		return snprintf(buf, len, "%s", "");
	if (!k->known)	/* a row without counts under a header with them: empty cells */
		return snprintf(buf, len, "%s", c->steal ? ",,,,,,," : ",,,,,,");
#define ADD(expr) do { n = (expr); if (n < 0 || (size_t)n >= len - (size_t)o) return -1; o += n; } while (0)
	ADD(snprintf(buf, len, ",%" PRIu32, k->irq_cnt));
	ADD(put_us(buf + o, len - (size_t)o, k->irq_ns));
	ADD(snprintf(buf + o, len - (size_t)o, ",%.15s", k->irq_top));
	ADD(snprintf(buf + o, len - (size_t)o, ",%" PRIu32, k->sirq_cnt));
	ADD(put_us(buf + o, len - (size_t)o, k->sirq_ns));
	ADD(snprintf(buf + o, len - (size_t)o, ",%.95s", k->sirq_types));
	if (c->steal && k->steal_ns >= 0)
		ADD(put_us(buf + o, len - (size_t)o, (uint64_t)k->steal_ns));
	else if (c->steal)	/* the steal clock could not be read in this window */
		ADD(snprintf(buf + o, len - (size_t)o, "%s", ","));
#undef ADD
	return o;
}
