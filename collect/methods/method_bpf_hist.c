/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The bpf method's soft-hrtimer cost (collect/methods/bpf/wake.bpf.c fills the histograms in .bss):
 * summarised into info.json method_details.soft_hrtimer at the end of a run (docs/bpf.md,
 * "Error budget").
 */
#include <stdint.h>
#include <cjson/cJSON.h>

#include "method_bpf.h"
#include "wake_rec.h"

/* The smallest bucket holding the q-th value (0 < q <= 1) of n, as its middle in us. */
static double hist_quantile(const uint32_t *h, uint64_t n, double q)
{
	uint64_t want = (uint64_t)(q * (double)n + 0.999999), seen = 0;

	if (want < 1)
		want = 1;
	for (uint32_t b = 0; b < WAKE_HIST_N; b++) {
		seen += h[b];
		if (seen >= want)
			return ((double)b + 0.5) * WAKE_HIST_NS / 1000.0;
	}
	return (WAKE_HIST_N - 0.5) * WAKE_HIST_NS / 1000.0;
}

static void add_one(cJSON *o, const char *name, const uint32_t *h)
{
	cJSON *s = cJSON_AddObjectToObject(o, name);
	uint64_t n = 0;

	for (uint32_t b = 0; b < WAKE_HIST_N; b++)
		n += h[b];
	cJSON_AddNumberToObject(s, "count", (double)n);
	if (!n)
		return;
	cJSON_AddNumberToObject(s, "median_us", hist_quantile(h, n, 0.5));
	cJSON_AddNumberToObject(s, "p99_us", hist_quantile(h, n, 0.99));
	cJSON_AddNumberToObject(s, "over_range", (double)h[WAKE_HIST_N - 1]);
}

void bpf_hist_describe(const uint32_t hist[][WAKE_HIST_N], cJSON *info)
{
	cJSON *o = cJSON_AddObjectToObject(info, "soft_hrtimer");

	cJSON_AddNumberToObject(o, "bucket_us", WAKE_HIST_NS / 1000.0);
	add_one(o, "timer_irq_to_callback", hist[WAKE_HIST_TO_CB]);
	add_one(o, "hrtimer_softirq", hist[WAKE_HIST_SOFTIRQ]);
	add_one(o, "callback", hist[WAKE_HIST_CB]);
}
