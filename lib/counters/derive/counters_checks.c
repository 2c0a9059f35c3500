/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Readings no CPU can produce (counters_derive.h, "Physically impossible readings"): the
 * formulas give numbers for them all the same (Busy% 0.00 with OS_Busy% 54.90), so each CPU
 * interval is checked here, where they are computed, and every output that shows them says so.
 */
#include "counters/derive/counters_derive_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "text/util.h"

/* Count a CPU interval that could be checked for kind k; keep it in words when it is the
 * worst so far. */
static void found(struct cnt_result *r, enum cnt_check_kind k, double worst, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void found(struct cnt_result *r, enum cnt_check_kind k, double worst, const char *fmt, ...)
{
	struct cnt_check *c = &r->checks[k];
	if (c->n++ && !(worst > c->worst))
		return;
	c->worst = worst;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->text, sizeof(c->text), fmt, ap);
	va_end(ap);
}

static void check_c0(struct cnt_result *r, const struct cnt_row_facts *f)
{
	if (isnan(f->busy) || isnan(f->os_busy))
		return;
	r->checks[CNT_CHECK_C0_OS].rows++;
	if (f->os_busy - f->busy > CNT_C0_OS_POINTS)
		found(r, CNT_CHECK_C0_OS, f->os_busy - f->busy, "Busy%% %.2f (C0 from MPERF/TSC) on "
		      "CPU %d in interval %zu while /proc/stat saw it run code %.2f%% of the time "
		      "(steal left out): a CPU runs code only in C0", f->busy, f->cpu, f->iv,
		      f->os_busy);
}

static void check_still(struct cnt_result *r, const struct cnt_row_facts *f)
{
	if (!isnan(f->tsc) || !isnan(f->aperf) || !isnan(f->mperf))
		r->checks[CNT_CHECK_STILL].rows++;
	if (f->tsc == 0 && f->dt > 0) {
		found(r, CNT_CHECK_STILL, INFINITY, "TSC did not move on CPU %d in interval %zu "
		      "(%.3g s): the time stamp counter always runs", f->cpu, f->iv, f->dt);
		return;
	}
	const char *still = f->aperf == 0 && f->mperf == 0 ? "APERF and MPERF"
			    : f->aperf == 0 ? "APERF" : f->mperf == 0 ? "MPERF" : NULL;
	if (still && f->os_busy > CNT_STILL_BUSY) {
		found(r, CNT_CHECK_STILL, f->os_busy, "%s did not move on CPU %d in interval %zu "
		      "(%.3g s) while /proc/stat saw it run code %.2f%% of the time: they count "
		      "whenever the CPU is in C0", still, f->cpu, f->iv, f->dt, f->os_busy);
		return;
	}
	if (f->aperf == 0 && f->mperf > 0)
		found(r, CNT_CHECK_STILL, f->mperf, "APERF did not move on CPU %d in interval %zu "
		      "while MPERF counted %.0f: both count the cycles in C0", f->cpu, f->iv, f->mperf);
}

static void check_sum(struct cnt_result *r, const struct cnt_row_facts *f)
{
	if (isnan(f->busy) || (isnan(f->c1) && isnan(f->cn)))
		return;
	double c1 = isnan(f->c1) ? 0 : f->c1, cn = isnan(f->cn) ? 0 : f->cn;
	double total = f->busy + c1 + cn;
	char c1s[40] = "";
	if (!isnan(f->c1))
		snprintf(c1s, sizeof(c1s), ", CPU%%c1 %.2f", c1);
	r->checks[CNT_CHECK_SUM].rows++;
	if (total > 100 + CNT_SUM_SLACK)
		found(r, CNT_CHECK_SUM, total - 100, "C-state residencies sum to %.2f%% on CPU %d in "
		      "interval %zu (Busy%% %.2f%s, deeper states %.2f): a CPU is in one state at a "
		      "time", total, f->cpu, f->iv, f->busy, c1s, cn);
}

static void check_freq(struct cnt_result *r, const struct cnt_row_facts *f)
{
	double mhz = fmax(isnan(f->bzy_mhz) ? -1 : f->bzy_mhz, isnan(f->avg_mhz) ? -1 : f->avg_mhz);
	if (mhz < 0)
		return;
	r->checks[CNT_CHECK_FREQ].rows++;
	if (mhz > CNT_MHZ_MAX)
		found(r, CNT_CHECK_FREQ, mhz, "%s %.0f on CPU %d in interval %zu: no CPU runs at "
		      "%.0f MHz (the record, under liquid helium, is about 9100)",
		      mhz == f->bzy_mhz ? "Bzy_MHz" : "Avg_MHz", mhz, f->cpu, f->iv, CNT_MHZ_MAX);
}

void cnt_check_row(struct cnt_result *r, const struct cnt_row_facts *f)
{
	check_c0(r, f);
	check_still(r, f);
	check_sum(r, f);
	check_freq(r, f);
}

char *cnt_check_line(const struct cnt_check *k)
{
	if (!k->n)
		return NULL;
	return isc_xasprintf("implausible counters: %s (%zu of %zu CPU interval%s)", k->text, k->n,
			    k->rows, k->rows == 1 ? "" : "s");
}
