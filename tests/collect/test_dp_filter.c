/* SPDX-License-Identifier: GPL-2.0-only */
/* collect --include/--exclude on the cause columns (collect/run/dp_filter.c): the values are
 * those datapoints.csv gets (times in us, text cells, empty cells where nothing was counted), and
 * a run that writes no such column refuses the filter at its first datapoint. */
#include <string.h>

#include "../common/check.h"
#include "dp_filter.h"

static const char *const states[] = { "POLL", "C1" };

static struct dp_raw counted(uint32_t irq, uint64_t irq_ns, const char *top, uint32_t sirq, const char *types,
			     int64_t steal_ns)
{
	struct dp_raw dp;
	memset(&dp, 0, sizeof(dp));
	dp.ldist = 1000000;
	dp.ltime = 2000000;
	dp.tbi = 1000000;
	dp.tai = 2010000;
	dp.tintr = 2005000;
	dp.smi_cnt = -1;
	dp.nmi_cnt = 0;
	dp.req_state = 1;
	dp.causes.known = true;
	dp.causes.irq_cnt = irq;
	dp.causes.irq_ns = irq_ns;
	dp.causes.sirq_cnt = sirq;
	strcpy(dp.causes.irq_top, top);
	strcpy(dp.causes.sirq_types, types);
	dp.causes.steal = true;
	dp.causes.steal_ns = steal_ns;
	return dp;
}

/* keep(inc, exc, dp): what dp_filter_keep says of dp as the run's first datapoint. */
static int keep(const char *inc, const char *exc, const struct dp_raw *dp)
{
	bool bad;
	struct dp_filter *f = dp_filter_new(inc, exc, &bad);
	CHECK(f && !bad);
	if (!f)
		return -2;
	int rc = dp_filter_keep(f, dp, states, 2, 0);
	dp_filter_free(f);
	return rc;
}

int main(void)
{
	struct dp_raw quiet = counted(0, 0, "", 0, "", 0);
	struct dp_raw noisy = counted(2, 1500, "CAL", 1, "NET_RX+RCU", 2500);
	const char *clean = "IRQCnt > 0 or SWIRQCnt > 0 or StealTime > 0";

	CHECK(keep(NULL, clean, &quiet) == 1);
	CHECK(keep(NULL, clean, &noisy) == 0);
	CHECK(keep("IRQTime == 1.5 and StealTime == 2.5", NULL, &noisy) == 1);  /* us, as written */
	CHECK(keep("IRQTop == 'CAL'", NULL, &noisy) == 1);
	CHECK(keep("IRQTop == ''", NULL, &quiet) == 1);      /* an empty cell, as analyze reads it */
	CHECK(keep("SWIRQTypes == 'NET_RX+RCU'", NULL, &noisy) == 1);

	/* a row whose steal clock was not read: an empty StealTime, which no comparison matches */
	struct dp_raw unread = counted(0, 0, "", 0, "", -1);
	CHECK(keep(NULL, "StealTime >= 0", &unread) == 1);
	CHECK(keep("StealTime == 0", NULL, &unread) == 0);

	/* a run that counts no causes (its first datapoint says so): refused, not a silent pass */
	struct dp_raw none = quiet;
	none.causes.known = false;
	none.causes.steal = false;
	CHECK(keep(NULL, "IRQCnt > 0", &none) == -1);
	struct dp_raw nosteal = quiet;
	nosteal.causes.steal = false;
	CHECK(keep(NULL, "StealTime > 0", &nosteal) == -1);
	CHECK(keep(NULL, "IRQCnt > 0", &nosteal) == 1);

	/* an unknown name is still refused when the filter is made */
	bool bad;
	CHECK(!dp_filter_new(NULL, "IRQCount > 0", &bad) && bad);
	return CHECK_DONE();
}
