/* SPDX-License-Identifier: GPL-2.0-only */
/* collect's end-of-run summary (summary.h). */
#include "summary.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "time/clock.h"
#include "text/util.h"

struct run_summary {
	double *wake, *intr;         /* µs, per kept datapoint that has it */
	size_t nwake, nintr, cap_wake, cap_intr;
	uint64_t count;
};

struct run_summary *summary_new(void)
{
	return isc_xcalloc(1, sizeof(struct run_summary));
}

void summary_free(struct run_summary *s)
{
	if (!s)
		return;
	free(s->wake);
	free(s->intr);
	free(s);
}

static void push(double **v, size_t *n, size_t *cap, double x)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 4096;
		*v = isc_xrealloc(*v, *cap * sizeof(**v));
	}
	(*v)[(*n)++] = x;
}

/* b - a in µs, as datapoints.csv writes it; 0 timestamps are not known. */
static int us_diff(uint64_t b, uint64_t a, double *out)
{
	if (!a || !b)
		return 0;
	*out = b >= a ? (double)(b - a) / 1000.0 : -(double)(a - b) / 1000.0;
	return 1;
}

void summary_add(struct run_summary *s, const struct dp_raw *dp)
{
	double d;
	s->count++;
	if (us_diff(dp->tai, dp->ltime, &d))
		push(&s->wake, &s->nwake, &s->cap_wake, d);
	if (us_diff(dp->tintr, dp->ltime, &d))
		push(&s->intr, &s->nintr, &s->cap_intr, d);
}

uint64_t summary_count(const struct run_summary *s)
{
	return s->count;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The q-quantile of sorted v[0..n), interpolated linearly between ranks (as analyze). */
static double quantile(const double *v, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t lo = (size_t)pos;
	return lo + 1 < n ? v[lo] + (pos - (double)lo) * (v[lo + 1] - v[lo]) : v[n - 1];
}

/* The k-th smallest of v[0..n) (v is reordered): Hoare's selection, expected O(n). */
static double select_kth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;
	while (lo < hi) {
		double pivot = v[lo + (hi - lo) / 2];
		size_t i = lo, j = hi;
		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				double t = v[i];
				v[i] = v[j];
				v[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
	return v[k];
}

/* The q-quantile (linear between ranks) of v[0..n), v reordered. */
static double quantile_select(double *v, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t lo = (size_t)pos;
	double a = select_kth(v, n, lo);
	if (lo + 1 >= n || pos == (double)lo)
		return a;
	double b = v[lo + 1];  /* after selecting lo, everything above it is in v[lo+1..n) */
	for (size_t i = lo + 2; i < n; i++)
		b = v[i] < b ? v[i] : b;
	return a + (pos - (double)lo) * (b - a);
}

int summary_running(const struct run_summary *s, const char **name, double *med, double *p99)
{
	const double *src = s->nwake ? s->wake : s->intr;
	size_t n = s->nwake ? s->nwake : s->nintr;
	if (!n)
		return -1;
	double *v = isc_xmalloc(n * sizeof(*v));
	memcpy(v, src, n * sizeof(*v));
	*name = s->nwake ? "WakeLatency" : "IntrLatency";
	*med = quantile_select(v, n, 0.5);
	*p99 = quantile_select(v, n, 0.99);
	free(v);
	return 0;
}

static void print_counts(FILE *f, const struct summary_facts *x, uint64_t discarded)
{
	uint64_t attempts = x->kept + discarded;  /* discarded includes the filtered */
	char dur[32];
	isc_fmt_duration(dur, sizeof(dur), x->duration_s, 1);
	fprintf(f, "%s: %" PRIu64 " datapoints kept in %s (%.1f/s)", isc_progname(), x->kept, dur,
		x->duration_s > 0 ? (double)x->kept / x->duration_s : 0.0);
	if (!discarded) {
		fputs(", none discarded\n", f);
		return;
	}
	fprintf(f, ", %" PRIu64 " discarded (%.1f%% of %" PRIu64 " attempts):", discarded,
		100.0 * (double)discarded / (double)attempts, attempts);
	const char *sep = " ";
	for (int i = 0; i < DISCARD_NR; i++) {
		if (!x->discards[i])
			continue;
		fprintf(f, "%s%s %" PRIu64 " (%.1f%%)", sep, discard_reason_names[i], x->discards[i],
			100.0 * (double)x->discards[i] / (double)attempts);
		sep = ", ";
	}
	if (x->filtered)
		fprintf(f, "%sfiltered %" PRIu64 " (%.1f%%, by --include/--exclude)", sep, x->filtered,
			100.0 * (double)x->filtered / (double)attempts);
	fputc('\n', f);
}

static void print_latency(FILE *f, const char *name, double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	fprintf(f, "%s: %s (us, %zu values): min %.3f, med %.3f, 99%% %.3f, max %.3f\n", isc_progname(),
		name, n, v[0], quantile(v, n, 0.5), quantile(v, n, 0.99), v[n - 1]);
}

void summary_print(FILE *f, const struct run_summary *s, const struct summary_facts *x, const cJSON *warnings)
{
	uint64_t discarded = 0;
	const cJSON *w;
	for (int i = 0; i < DISCARD_NR; i++)
		discarded += x->discards[i];
	print_counts(f, x, discarded + x->filtered);
	if (s->nwake)
		print_latency(f, "WakeLatency", s->wake, s->nwake);
	else if (s->nintr)
		print_latency(f, "IntrLatency", s->intr, s->nintr);
	cJSON_ArrayForEach(w, warnings)
		if (cJSON_IsString(w))
			fprintf(f, "%s: warning: %s\n", isc_progname(), w->valuestring);
}
