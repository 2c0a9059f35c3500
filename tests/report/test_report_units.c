/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests of report's building blocks: plot quantiles, scatter reduction, escaping. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "report.h"
#include "../common/check.h"

static uint64_t rng = 88172645463325252ULL;

static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* quantiles() against GSL's definition on a qsorted copy, within float precision. */
static void test_quantiles(void)
{
	enum { N = 100003 };
	static double v[N], sorted[N];
	const double q[] = { 0, 0.001, 0.25, 0.5, 0.9, 0.99, 0.999, 0.9999, 0.99999, 1 };
	const size_t nq = sizeof(q) / sizeof(q[0]);
	double out[sizeof(q) / sizeof(q[0])];
	size_t m = 0;
	for (size_t i = 0; i < N; i++) {
		v[i] = i % 97 == 0 ? NAN : (uniform() - 0.3) * 1000 * (i % 5 ? 1 : 50);
		if (!isnan(v[i]))
			sorted[m++] = v[i];
	}
	qsort(sorted, m, sizeof(*sorted), cmp_double);
	CHECK_MSG(quantiles(v, N, NULL, q, nq, out) == m, "count of non-NaN values");
	for (size_t i = 0; i < nq; i++) {
		double want = isc_quantile_sorted(sorted, m, q[i]);
		CHECK_MSG(fabs(out[i] - want) <= 1e-6 * fabs(want) + 1e-9, "q=%g: %.9g, want %.9g", q[i],
		      out[i], want);
	}
	/* Edge cases: one value, ties, nothing but NaN. */
	double one = 4.25, ties[] = { 2, 2, 2, -1 }, nan[] = { NAN, NAN };
	CHECK_MSG(quantiles(&one, 1, NULL, q, nq, out) == 1 && out[0] == 4.25 && out[nq - 1] == 4.25, "n=1");
	CHECK_MSG(quantiles(ties, 4, NULL, q, nq, out) == 4 && out[0] == -1 && out[3] == 2 && out[nq - 1] == 2,
	      "ties: med %g", out[3]);
	CHECK_MSG(quantiles(nan, 2, NULL, q, nq, out) == 0 && isnan(out[3]), "only NaN");
}

static size_t count_outside(const float *xy, size_t n, const struct ds_box *b)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += xy[2 * i] < b->xlo || xy[2 * i] > b->xhi || xy[2 * i + 1] < b->ylo ||
		     xy[2 * i + 1] > b->yhi;
	return k;
}

static void test_downsample(void)
{
	enum { N = 300000, BUDGET = 10000 };
	double *x = malloc(N * sizeof(*x)), *y = malloc(N * sizeof(*y));
	struct ds_box box = { .xlo = 0.01, .xhi = 0.99, .ylo = 0.001, .yhi = 0.995 };
	size_t outliers = 0, valid = 0, n1, n2, nvalid;
	for (size_t i = 0; i < N; i++) {
		x[i] = uniform();
		y[i] = i % 1000 == 3 ? NAN : uniform();
		if (!isnan(y[i])) {
			valid++;
			outliers += x[i] < box.xlo || x[i] > box.xhi || y[i] < box.ylo || y[i] > box.yhi;
		}
	}
	size_t *rows;
	float *a = ds_select(x, y, N, NULL, NULL, &box, BUDGET, &n1, &nvalid, &rows);
	float *b = ds_select(x, y, N, NULL, NULL, &box, BUDGET, &n2, &nvalid, NULL);
	CHECK_MSG(nvalid == valid, "nvalid %zu, want %zu", nvalid, valid);
	CHECK_MSG(n1 == n2 && memcmp(a, b, 2 * n1 * sizeof(float)) == 0, "not deterministic");
	CHECK_MSG(count_outside(a, n1, &box) == outliers, "outliers kept: %zu of %zu",
	      count_outside(a, n1, &box), outliers);
	/* the row of every point, ascending */
	for (size_t k = 0; k < n1; k++)
		if (a[2 * k] != (float)x[rows[k]] || a[2 * k + 1] != (float)y[rows[k]] ||
		    (k && rows[k] <= rows[k - 1])) {
			CHECK_MSG(0, "point %zu is not row %zu", k, rows[k]);
			break;
		}
	size_t middle = n1 - outliers;
	CHECK_MSG(middle > BUDGET * 0.95 && middle < BUDGET * 1.05, "middle sample %zu, budget %d", middle,
	      BUDGET);
	/* Thinned for the interactive plot: every outlier, about budget/2 of the middle, a subset
	 * of the rows kept before, still ascending. */
	size_t *before = malloc(n1 * sizeof(*before)), nb = n1;
	memcpy(before, rows, n1 * sizeof(*before));
	size_t nt = ds_thin(a, rows, n1, &box, nvalid, BUDGET / 2), j = 0;
	CHECK_MSG(count_outside(a, nt, &box) == outliers, "thinned: outliers %zu of %zu",
		  count_outside(a, nt, &box), outliers);
	CHECK_MSG(nt - outliers > BUDGET / 2 * 0.93 && nt - outliers < BUDGET / 2 * 1.07,
		  "thinned middle %zu, budget %d", nt - outliers, BUDGET / 2);
	for (size_t k = 0; k < nt; k++) {
		while (j < nb && before[j] < rows[k])
			j++;
		if (j == nb || before[j] != rows[k] || a[2 * k] != (float)x[rows[k]]) {
			CHECK_MSG(0, "thinned point %zu (row %zu) is not one kept before", k, rows[k]);
			break;
		}
	}
	CHECK_MSG(ds_thin(a, rows, nt, &box, nvalid, 2 * BUDGET) == nt, "thinning to more keeps all");
	free(before);
	free(rows);
	free(a);
	free(b);
	/* Under the budget everything is kept, in row order. */
	a = ds_select(x, y, 2000, NULL, NULL, &box, BUDGET, &n1, &nvalid, NULL);
	CHECK_MSG(n1 == nvalid && n1 == 1998, "small input: %zu of %zu", n1, nvalid);
	CHECK_MSG(a[0] == (float)x[0] && a[1] == (float)y[0], "order kept");
	free(a);
	free(x);
	free(y);
}

static void check_output(void (*fn)(FILE *, const void *), const void *arg, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fn(f, arg);
	fclose(f);
	CHECK_MSG(!strcmp(buf, want), "got '%s', want '%s'", buf, want);
	free(buf);
}

static void esc(FILE *f, const void *s)
{
	html_esc(f, s);
}

static void change_12_vs_10(FILE *f, const void *unused)
{
	(void)unused;
	html_change(f, 10, 12);
}

static void change_down(FILE *f, const void *unused)
{
	(void)unused;
	html_change(f, 4.0, 3.7);
}

/* Changes whose difference overflows, and changes against an overflow. */
static void change_overflow(FILE *f, const void *unused)
{
	(void)unused;
	html_change(f, -1e308, 1.5e308);
}

static void change_vs_overflow(FILE *f, const void *unused)
{
	(void)unused;
	html_change(f, INFINITY, 1.5e308);
}

static void num_overflow(FILE *f, const void *unused)
{
	(void)unused;
	html_num(f, INFINITY);
}

/* What values gnuplot and floats cannot hold are plotted as, and the axis labels. */
static void check_map(double lo, double hi, const char *label, double v, double plotted)
{
	struct axis_map m;
	char out[128];
	axis_map_init(&m, lo, hi);
	axis_map_label(&m, "X (us)", out, sizeof(out));
	CHECK_MSG(!strcmp(out, label), "[%g, %g]: label '%s', want '%s'", lo, hi, out, label);
	double p = axis_map_apply(&m, v), back = axis_map_invert(&m, p);
	CHECK_MSG(fabs(p - plotted) <= 1e-12 * fabs(plotted), "[%g, %g]: %g plotted as %.17g, want %.17g",
	      lo, hi, v, p, plotted);
	CHECK_MSG(fabs(back - v) <= 1e-12 * fabs(v), "[%g, %g]: %.17g back as %.17g", lo, hi, v, back);
}

static void test_axis_map(void)
{
	check_map(1, 3000, "X (us)", 2.5, 2.5);
	check_map(5, 5, "X (us)", 5, 5);
	check_map(1e308, 1.5e308, "X (us) / 1e+308", 1.5e308, 1.5);
	check_map(-1.7e308, 1.7e308, "X (us) / 1e+308", -1.7e308, -1.7);
	check_map(1e15, 1e15 + 0.25, "X (us) - 1000000000000000", 1e15 + 0.25, 0.25);
	check_map(1e308, 1e308, "X (us) - 1e+308", 1e308, 0);
	check_map(1e308, 1e308 + 2e300, "(X (us) - 1e+308) / 1e+300", 1e308 + 2e300,
		  (1e308 + 2e300 - 1e308) * 1e-150 * 1e-150);
	check_map(1e-310, 3e-310, "X (us) / 1e-310", 3e-310, 3e-310 * 1e155 * 1e155);
	check_map(5e-324, 1.5e-323, "X (us) / 1e-323", 5e-324, 0.49406564584124651);

	/* quantiles of values near DBL_MAX, mapped before they become floats (inf) */
	struct axis_map m;
	const double big[] = { 1e308, 1.5e308, NAN, 1.2e308 };
	const double q[] = { 0, 0.5, 1 };
	double out[3];
	axis_map_init(&m, 1e308, 1.5e308);
	CHECK_MSG(quantiles(big, 4, &m, q, 3, out) == 3, "count");
	CHECK_MSG(out[0] == 1.0f && out[1] == 1.2f && out[2] == 1.5f, "mapped quantiles %g %g %g",
	      out[0], out[1], out[2]);
}

static void test_html(void)
{
	char gp[64];
	check_output(esc, "<script>alert('x') & \"y\"</script>",
		     "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;");
	check_output(esc, "a\x01" "b", "a\\x01" "b");
	check_output(esc, "C\x1b[31m<6>\xff", "C\\x1b[31m&lt;6&gt;\\xff");
	check_output(change_12_vs_10, NULL, "<span class=\"chg up\">+2.00 (+20%)</span>");
	check_output(change_down, NULL, "<span class=\"chg down\">-0.3 (-7.5%)</span>");
	check_output(change_overflow, NULL, "<span class=\"chg up\">+overflow (+250%)</span>");
	check_output(change_vs_overflow, NULL, "<span class=\"chg same\">\u2014</span>");
	check_output(num_overflow, NULL, "overflow");
	gp_safe(gp, sizeof(gp), "CC6% a'b\n<c>");
	CHECK_MSG(!strcmp(gp, "CC6% a?b\\x0a?c?"), "gp_safe: '%s'", gp);
	gp_safe(gp, sizeof(gp), "T\xC2\xB0" "C X\xFFY \x1b[1m");  /* °C kept; \xNN as elsewhere */
	CHECK_MSG(!strcmp(gp, "T\xC2\xB0" "C X\\xffY \\x1b[1m"), "gp_safe: '%s'", gp);
	gp_safe(gp, 5, "ab\xE2\x82\xAC");  /* a character that does not fit is left out whole */
	CHECK_MSG(!strcmp(gp, "ab"), "gp_safe: '%s'", gp);
	group_digits(gp, sizeof(gp), 1234567);
	CHECK_MSG(!strcmp(gp, "1,234,567"), "group_digits: '%s'", gp);
	group_digits(gp, sizeof(gp), 999);
	CHECK_MSG(!strcmp(gp, "999"), "group_digits: '%s'", gp);
}

int main(void)
{
	test_quantiles();
	test_downsample();
	test_html();
	test_axis_map();
	if (check_failures) {
		fprintf(stderr, "%d failure(s)\n", check_failures);
		return 1;
	}
	puts("PASS");
	return 0;
}
