/* Summary statistics with selection instead of a full sort. */
#include "idlescope/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "idlescope/numparse.h"
#include "idlescope/util.h"

#define SMALL 24

static void insertion_sort(double *a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		double v = a[i];
		size_t j = i;
		for (; j > 0 && a[j - 1] > v; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

static double median3(double x, double y, double z)
{
	if (x < y)
		return y < z ? y : (x < z ? z : x);
	return x < z ? x : (y < z ? z : y);
}

/* Three-way partition around p: [0,*lt) < p, [*lt,*gt) == p, [*gt,n) > p. */
static void partition3(double *a, size_t n, double p, size_t *lt, size_t *gt)
{
	size_t l = 0, i = 0, g = n;
	while (i < g) {
		double v = a[i];
		if (v < p) {
			a[i++] = a[l];
			a[l++] = v;
		} else if (v > p) {
			a[i] = a[--g];
			a[g] = v;
		} else {
			i++;
		}
	}
	*lt = l;
	*gt = g;
}

/* idx[] are positions relative to a, ascending, all < n. */
static void msel(double *a, size_t n, const size_t *idx, size_t ni, unsigned depth)
{
	if (ni > 0) {
		if (n <= SMALL || depth > 64) {
			if (n <= SMALL)
				insertion_sort(a, n);
			else
				qsort(a, n, sizeof(*a), cmp_double);  /* pathological input */
			return;
		}
		size_t lt, gt;
		partition3(a, n, median3(a[0], a[n / 2], a[n - 1]), &lt, &gt);
		size_t nl = 0, ng = ni;
		while (nl < ni && idx[nl] < lt)
			nl++;
		while (ng > 0 && idx[ng - 1] >= gt)
			ng--;
		msel(a, lt, idx, nl, depth + 1);
		size_t nr = ni - ng;
		const size_t *ridx = idx + ng;
		/* shift the right side's positions to be relative to a + gt */
		size_t tmp[64];
		size_t *shifted = nr <= 64 ? tmp : is_xmalloc(nr * sizeof(size_t));
		for (size_t i = 0; i < nr; i++)
			shifted[i] = ridx[i] - gt;
		msel(a + gt, n - gt, shifted, nr, depth + 1);
		if (shifted != tmp)
			free(shifted);
		return;
	}
}

void is_multiselect(double *a, size_t n, const size_t *idx, size_t nidx)
{
	msel(a, n, idx, nidx, 0);
}

double is_quantile_sorted(const double *sorted, size_t n, double q)
{
	/* GSL's gsl_stats_quantile_from_sorted_data, term for term. */
	double delta = q * (double)(n - 1);
	size_t lhs = (size_t)delta;
	delta -= (double)lhs;
	if (n == 0)
		return NAN;
	if (lhs >= n - 1)
		return sorted[n - 1];
	return (1 - delta) * sorted[lhs] + delta * sorted[lhs + 1];
}

static double func_quantile(const struct is_func *f)
{
	return f->kind == IS_F_MED ? 0.5 : f->pct / 100.0;
}

/* Positions whose sorted values the quantiles need, ascending and unique. */
static size_t needed_ranks(const struct is_func *f, size_t nf, size_t m, size_t *idx)
{
	size_t k = 0;
	for (size_t i = 0; i < nf; i++) {
		if (f[i].kind != IS_F_MED && f[i].kind != IS_F_PCT)
			continue;
		size_t lhs = (size_t)(func_quantile(&f[i]) * (double)(m - 1));
		idx[k++] = lhs;
		if (lhs + 1 < m)
			idx[k++] = lhs + 1;
	}
	for (size_t i = 1; i < k; i++) {  /* tiny insertion sort */
		size_t v = idx[i], j = i;
		for (; j > 0 && idx[j - 1] > v; j--)
			idx[j] = idx[j - 1];
		idx[j] = v;
	}
	size_t u = 0;
	for (size_t i = 0; i < k; i++)
		if (u == 0 || idx[u - 1] != idx[i])
			idx[u++] = idx[i];
	return u;
}

static double func_value(const struct is_func *f, const double *a, size_t m, double min,
			 double max, double avg, double std)
{
	switch (f->kind) {
	case IS_F_COUNT: return (double)m;
	case IS_F_MIN: return m ? min : NAN;
	case IS_F_MAX: return m ? max : NAN;
	case IS_F_AVG: return m ? avg : NAN;
	case IS_F_STD: return m > 1 ? std : NAN;
	case IS_F_MED:
	case IS_F_PCT: return m ? is_quantile_sorted(a, m, func_quantile(f)) : NAN;
	}
	return NAN;
}

void is_stats_compute_inplace(double *a, size_t n, const struct is_func *f, size_t nf, double *out)
{
	size_t m = 0;
	double min = INFINITY, max = -INFINITY, sum = 0;
	for (size_t i = 0; i < n; i++) {
		double v = a[i];
		if (isnan(v))
			continue;
		a[m++] = v;
		sum += v;
		min = v < min ? v : min;
		max = v > max ? v : max;
	}
	double avg = m ? sum / (double)m : NAN, ss = 0, comp = 0;
	for (size_t i = 0; i < m; i++) {  /* two-pass variance, with the rounding correction */
		double d = a[i] - avg;
		ss += d * d;
		comp += d;
	}
	double std = m > 1 ? sqrt((ss - comp * comp / (double)m) / (double)(m - 1)) : NAN;

	size_t stack_idx[64], *idx = 2 * nf <= 64 ? stack_idx : is_xmalloc(2 * nf * sizeof(size_t));
	size_t ni = m ? needed_ranks(f, nf, m, idx) : 0;
	/* After selection a[idx[j]] holds the sorted value of that rank; the quantile formula
	 * reads only those positions. */
	is_multiselect(a, m, idx, ni);
	for (size_t i = 0; i < nf; i++)
		out[i] = func_value(&f[i], a, m, min, max, avg, std);
	if (idx != stack_idx)
		free(idx);
}

void is_stats_compute(const double *vals, size_t n, const struct is_func *f, size_t nf,
		      double *out, double *scratch)
{
	memcpy(scratch, vals, n * sizeof(*vals));
	is_stats_compute_inplace(scratch, n, f, nf, out);
}

static int parse_one_func(const char *s, size_t len, struct is_func *f, char *err, size_t errlen)
{
	static const struct { const char *name; enum is_func_kind kind; } named[] = {
		{ "count", IS_F_COUNT }, { "min", IS_F_MIN }, { "max", IS_F_MAX },
		{ "avg", IS_F_AVG }, { "std", IS_F_STD }, { "med", IS_F_MED },
	};
	char q[40];
	memset(f, 0, sizeof(*f));
	if (len == 0 || len >= sizeof(f->name)) {
		is_quote_for_msg(s, len, q, sizeof(q));
		snprintf(err, errlen, "bad function '%s'", q);
		return -1;
	}
	memcpy(f->name, s, len);
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		if (strcmp(f->name, named[i].name) == 0) {
			f->kind = named[i].kind;
			return 0;
		}
	}
	if (len > 1 && s[len - 1] == '%' && is_parse_double(s, len - 1, &f->pct) &&
	    f->pct > 0 && f->pct < 100) {
		f->kind = IS_F_PCT;
		return 0;
	}
	is_quote_for_msg(s, len, q, sizeof(q));
	snprintf(err, errlen, "unknown function '%s' (expected count, min, max, avg, std, med,"
		 " or N%% with 0 < N < 100)", q);
	return -1;
}

int is_funcs_parse(const char *list, struct is_func **out, size_t *nout, char *err, size_t errlen)
{
	size_t n = 0, cap = 8;
	struct is_func *f = is_xmalloc(cap * sizeof(*f));
	const char *p = list;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		while (len && p[0] == ' ')
			p++, len--;
		while (len && p[len - 1] == ' ')
			len--;
		if (n == cap)
			f = is_xrealloc(f, (cap *= 2) * sizeof(*f));
		if (parse_one_func(p, len, &f[n++], err, errlen) < 0) {
			free(f);
			return -1;
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	*out = f;
	*nout = n;
	return 0;
}

void is_hist_init(struct is_hist *h, double lo, double hi, size_t nbins)
{
	memset(h, 0, sizeof(*h));
	h->lo = lo;
	h->hi = hi;
	h->nbins = nbins ? nbins : 1;
	h->counts = is_xcalloc(h->nbins, sizeof(*h->counts));
}

void is_hist_add(struct is_hist *h, const double *vals, size_t n)
{
	const double width = (h->hi - h->lo) / (double)h->nbins;
	for (size_t i = 0; i < n; i++) {
		double v = vals[i];
		if (isnan(v))
			continue;
		h->total++;
		if (v < h->lo) {
			h->under++;
		} else if (v > h->hi) {
			h->over++;
		} else {
			size_t b = width > 0 ? (size_t)((v - h->lo) / width) : 0;
			h->counts[b < h->nbins ? b : h->nbins - 1]++;
		}
	}
}

void is_hist_free(struct is_hist *h)
{
	free(h->counts);
	h->counts = NULL;
}
