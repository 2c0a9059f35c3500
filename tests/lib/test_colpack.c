/* SPDX-License-Identifier: GPL-2.0-only */
/* Packed number columns (lib/table/colpack.h): every value comes back as the same double as
 * parsing its text, packed or not, and the reader reads the same table either way. */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "table/colpack.h"
#include "table/expr.h"
#include "table/numparse.h"
#include "table/table.h"
#include "../common/check.h"

static char dir[] = "/tmp/is-test-colpack-XXXXXX";

static bool same_bits(double a, double b)
{
	return memcmp(&a, &b, sizeof(a)) == 0 || (isnan(a) && isnan(b));
}

/* A random number's text: mostly within the scale, some with more decimals, an exponent,
 * a sign on zero, many digits or a '+' (exceptions and the general parser). */
static int random_number(char *buf, size_t len, unsigned scale)
{
	int kind = rand() % 16, dec = rand() % (int)(scale + 1);
	long ip = rand() % (kind == 1 ? 2000000000 : 300);
	switch (kind) {
	case 0: return snprintf(buf, len, "%.*f", (int)scale + 1 + rand() % 5, (double)rand() / RAND_MAX);
	case 2: return snprintf(buf, len, "%de%d", rand() % 100, rand() % 5 - 2);
	case 3: return snprintf(buf, len, "-0.%0*d", (int)scale, 0);
	case 4: return snprintf(buf, len, "+%ld", ip);
	case 5: return snprintf(buf, len, "%.17g", (double)rand() / RAND_MAX * 100);
	case 6: return snprintf(buf, len, ".%d", rand() % 10);
	default: break;
	}
	int n = snprintf(buf, len, "%s%ld", rand() % 4 ? "" : "-", ip);
	if (dec)
		n += snprintf(buf + n, len - (size_t)n, ".%0*ld", dec, (long)rand() % (long)pow(10, dec));
	return n;
}

/* Parse random texts into a pack and check every value, its stop, decode and gather. */
static void random_values(unsigned width, unsigned scale, size_t n)
{
	struct isc_colpack pk;
	double *want = malloc(n * sizeof(double)), *got = malloc(n * sizeof(double));
	size_t *rows = malloc(n * sizeof(size_t)), bad_stop = 0, bad = 0;
	isc_colpack_init(&pk, width, scale);
	isc_colpack_reserve(&pk, 16);
	for (size_t i = 0; i < n; i++) {
		char buf[96];
		int len = random_number(buf, sizeof(buf), scale);
		isc_colpack_reserve(&pk, i + 1 > pk.cap ? 2 * pk.cap : pk.cap);
		if (rand() % 50 == 0) {
			want[i] = NAN;
			isc_colpack_put(&pk, i, NAN);
			continue;
		}
		/* half of them inside a longer line (17 bytes on: parsed 8 at a time), ended by a
		 * comma or by a byte that makes them no number or a longer one */
		static const char *const tails[] = { ",1,2,3,4,5,6,7,8,9", "x,1,2,3,4,5,6,7,8", ".5,2,3,4,5,6,7,8",
						     "e1,2,3,4,5,6,7,8,9", "7,2,3,4,5,6,7,8,9" };
		size_t n_tail = rand() % 2 ? 0 : (size_t)snprintf(buf + len, sizeof(buf) - (size_t)len, "%s",
								  tails[rand() % 5]);
		const char *a = isc_parse_double_prefix(buf, buf + len + n_tail, &want[i]);
		const char *b = isc_colpack_parse(&pk, i, buf, buf + len + n_tail);
		bad_stop += a != b;
		if (!a)
			isc_colpack_put(&pk, i, want[i] = NAN);
	}
	isc_colpack_decode(&pk, 0, n, got);
	for (size_t i = 0; i < n; i++)
		bad += !same_bits(got[i], want[i]);
	size_t from = n / 3;
	isc_colpack_decode(&pk, from, n - from, got);
	for (size_t i = from; i < n; i++)
		bad += !same_bits(got[i - from], want[i]);
	for (size_t i = 0; i < n; i++)
		rows[i] = (size_t)rand() % n;
	isc_colpack_gather(&pk, rows, n, got);
	for (size_t i = 0; i < n; i++)
		bad += !same_bits(got[i], want[rows[i]]);
	CHECK_MSG(bad_stop == 0 && bad == 0, "width %u scale %u: %zu stops, %zu values differ", width, scale,
		  bad_stop, bad);
	CHECK_MSG(pk.nx > 0 && (width < 4 || scale > 6 || pk.nx < n / 2), "width %u scale %u: %zu exceptions of %zu",
		  width, scale, pk.nx, n);
	isc_colpack_free(&pk);
	free(want);
	free(got);
	free(rows);
}

/* Keeping rows of a pack: the kept values in order, exceptions renumbered, and an exception
 * entry left stale by a row stored again (a code over it) dropped. */
static void keep_rows(unsigned width, unsigned scale, size_t n, int pattern)
{
	struct isc_colpack pk;
	double *want = malloc(n * sizeof(double)), *got = malloc(n * sizeof(double));
	unsigned char *keep = malloc(n);
	isc_colpack_init(&pk, width, scale);
	isc_colpack_reserve(&pk, n);
	double p = (double)isc_colpack_pow10u[scale];
	size_t kept = 0, kept_exc = 0;
	for (size_t i = 0; i < n; i++) {
		int kind = rand() % 10;
		/* k / 10^scale is the double of its text, and has a code; a third more has none */
		double code_value = (double)(rand() % 100) / p, odd = code_value + 1 / (3 * p);
		if (kind == 0) {        /* an exception: more decimals than the scale */
			isc_colpack_put(&pk, i, want[i] = odd);
		} else if (kind == 1) { /* stored again: the exception entry goes stale */
			isc_colpack_put(&pk, i, odd);
			isc_colpack_put(&pk, i, want[i] = code_value);
		} else if (kind == 2) {
			isc_colpack_put(&pk, i, want[i] = NAN);
		} else {
			isc_colpack_put(&pk, i, want[i] = code_value);
		}
		keep[i] = pattern == 0 ? 1 : pattern == 1 ? 0 : pattern == 2 ? (unsigned char)(rand() % 2)
			: (unsigned char)(kind == 0);
		if (keep[i])
			want[kept++] = want[i];
		kept_exc += keep[i] && kind == 0;
	}
	size_t got_n = isc_colpack_keep_rows(&pk, n, keep), bad = 0, order = 0;
	isc_colpack_decode(&pk, 0, got_n, got);
	for (size_t i = 0; i < got_n && got_n == kept; i++)
		bad += !same_bits(got[i], want[i]);
	for (size_t e = 1; e < pk.nx; e++)
		order += pk.xrow[e] <= pk.xrow[e - 1];
	CHECK_MSG(got_n == kept && bad == 0 && pk.nx == kept_exc && order == 0,
		  "width %u scale %u pattern %d: %zu rows kept of %zu, %zu differ, %zu exceptions of %zu",
		  width, scale, pattern, got_n, kept, bad, pk.nx, kept_exc);
	isc_colpack_free(&pk);
	free(want);
	free(got);
	free(keep);
}

/* A column of zeros is known as such from its codes: not with one empty cell, one exception
 * (-0 among them) or one other value, wherever it is. */
static void all_zero(unsigned width)
{
	const size_t n = 10000;   /* codes read a block of 4,096 bytes at a time */
	const double odd[] = { NAN, -0.0, 0.01, 3 };
	const size_t at[] = { n - 1, 4096, n / 2, 5 };
	struct isc_colpack pk;
	isc_colpack_init(&pk, width, 2);
	isc_colpack_reserve(&pk, n);
	for (size_t i = 0; i < n; i++)
		isc_colpack_put(&pk, i, 0.0);
	CHECK_MSG(isc_colpack_all_zero(&pk, n) && isc_colpack_all_zero(&pk, 0), "width %u: zeros", width);
	for (size_t k = 0; k < 4; k++) {
		size_t row = at[k];
		isc_colpack_put(&pk, row, odd[k]);
		CHECK_MSG(!isc_colpack_all_zero(&pk, n) && isc_colpack_all_zero(&pk, row),
			  "width %u: %g at row %zu", width, odd[k], row);
		isc_colpack_put(&pk, row, 0.0);   /* a code again: zeros only */
	}
	isc_colpack_free(&pk);
}

static void choose(void)
{
	unsigned w = 0, s = 0;
	CHECK(isc_colpack_choose(100, 2, &w, &s) && w == 2 && s == 2);    /* C-state % */
	CHECK(isc_colpack_choose(1, 0, &w, &s) && w == 1 && s == 0);      /* a flag */
	CHECK(isc_colpack_choose(63, 0, &w, &s) && w == 1);
	CHECK(isc_colpack_choose(64, 0, &w, &s) && w == 2);                /* 2 x 64 > 126 */
	CHECK(isc_colpack_choose(3999.989, 3, &w, &s) && w == 4 && s == 3); /* LDist */
	CHECK(!isc_colpack_choose(5.6634858017549039, 16, &w, &s));       /* %.17g: doubles */
	CHECK(!isc_colpack_choose(2e9, 0, &w, &s));
	CHECK(!isc_colpack_choose(INFINITY, 0, &w, &s));
	CHECK(!isc_colpack_choose(-1, 0, &w, &s));                         /* no value seen */
}

/* Two halves joined: exceptions of both keep their rows; a dropped row's is forgotten. */
static void append_trim(void)
{
	struct isc_colpack a, b;
	double got[7];
	isc_colpack_init(&a, 1, 1);
	isc_colpack_init(&b, 1, 1);
	isc_colpack_reserve(&a, 3);
	isc_colpack_reserve(&b, 4);
	isc_colpack_put(&a, 0, 1.5);
	isc_colpack_put(&a, 1, 1000);   /* too large for a byte: an exception */
	isc_colpack_put(&a, 2, 0.25);   /* dropped below */
	isc_colpack_put(&b, 0, -0.0);
	isc_colpack_put(&b, 1, NAN);
	isc_colpack_put(&b, 2, 0.05);   /* two decimals at scale 1 */
	isc_colpack_put(&b, 3, -12.6);
	isc_colpack_trim(&a, 2);
	isc_colpack_append(&a, 2, &b, 4);
	CHECK(a.nx == 3 && a.xrow[0] == 1 && a.xrow[1] == 2 && a.xrow[2] == 4);
	isc_colpack_decode(&a, 0, 6, got);
	CHECK_EQ_DBL(got[0], 1.5);
	CHECK_EQ_DBL(got[1], 1000);
	CHECK(got[2] == 0 && signbit(got[2]));
	CHECK(isnan(got[3]));
	CHECK_EQ_DBL(got[4], 0.05);
	CHECK_EQ_DBL(got[5], -12.6);
	isc_colpack_free(&a);
	isc_colpack_free(&b);
}

static const char *write_csv(size_t n, size_t bad_row, int cut)
{
	static char path[256];
	snprintf(path, sizeof(path), "%s/p.csv", dir);
	FILE *f = fopen(path, "wb");
	fprintf(f, "I,Pct,L,Flag,Pad,Q,H\n");
	for (size_t i = 0; i < n; i++) {
		char pad[200];
		memset(pad, 'x', sizeof(pad));
		/* long rows first, so that both chunks outgrow the estimate from the first MiB and
		 * move out of the arena; then long ones in chunk 1's part, where only it grows */
		pad[i < n / 30 || (i > 2 * n / 3 && i < 2 * n / 3 + n / 15) ? 150 : 1] = '\0';
		/* H: small but in the last tenth, where the second chunk gives up packing it */
		size_t h = i < n - n / 10 ? i % 50 : i;
		if (i == bad_row)
			fprintf(f, "%zu,1.2.3,0.5,1,%s,1,%zu\n", i, pad, h);
		else if (i % 9973 == 0)  /* a quoted line, exceptions and an empty cell */
			fprintf(f, "%zu,\"-0.00\",%.17g,,%s,\"2\",%zu\n", i, (double)i / 7, pad, h);
		else
			fprintf(f, "%zu,%zu.%02zu,%s%zu.%03zu,%zu,%s,%zu,%zu\n", i, i % 100, i % 97,
				i % 5 ? "" : "-", i % 4000, i % 1000, i % 2, pad, i % 1000 == 7 ? 100000 : i % 3, h);
	}
	if (cut)
		fprintf(f, "%zu,12.5", n);
	fclose(f);
	return path;
}

/* a (read as doubles) and b (packed) hold the same rows: every number's bits, every text. */
static void same_values(const struct isc_table *a, const struct isc_table *b, const char *what)
{
	CHECK_MSG(a->nrows == b->nrows && a->ncols == b->ncols && a->dropped_rows == b->dropped_rows,
		  "%s: %zu and %zu rows", what, a->nrows, b->nrows);
	size_t bad = 0;
	double *v = malloc((b->nrows + 1) * sizeof(double));
	for (size_t c = 0; c < b->ncols && a->nrows == b->nrows; c++) {
		if (b->cols[c].type != ISC_COL_NUM) {
			for (size_t r = 0; r < b->nrows; r++)
				bad += strcmp(isc_table_str(a, a->cols[c].text[r]) ?: "",
					      isc_table_str(b, b->cols[c].text[r]) ?: "") != 0;
			continue;
		}
		const double *got = isc_col_values(&b->cols[c], 0, b->nrows, v);
		for (size_t r = 0; r < b->nrows; r++)
			bad += !same_bits(got[r], a->cols[c].num[r]);
	}
	CHECK_MSG(bad == 0, "%s: %zu values differ", what, bad);
	free(v);
}

/* want_packed: the columns left packed; moved: the codes outgrew the arena */
static void same_table(const char *path, size_t want_packed, bool moved)
{
	struct isc_table *a = NULL, *b = NULL;
	struct isc_table_opts plain = { .nthreads = 2 }, packed = { .nthreads = 2, .pack = true };
	CHECK(isc_table_read(path, &plain, &a) == 0 && isc_table_read(path, &packed, &b) == 0);
	if (!a || !b)
		return;
	size_t npacked = 0;
	for (size_t c = 0; c < b->ncols; c++)
		npacked += b->cols[c].packed != NULL;
	same_values(a, b, "read");
	CHECK_MSG(npacked == want_packed, "%zu columns packed, expected %zu", npacked, want_packed);
	const struct isc_column *pct = isc_table_col(b, "Pct");
	CHECK_MSG(pct->packed && pct->packed->borrowed == !moved, "Pct's codes %s the arena",
		  pct->packed && pct->packed->borrowed ? "in" : "out of");
	/* a filter keeps packed columns packed: the same rows and values as filtering doubles
	 * (it drops rows with exceptions, "-0.00" in Pct, and rows around them) */
	char err[200];
	size_t all = a->nrows;
	struct isc_expr *inc = isc_expr_parse("Flag != 0 or L < -100 or Pct == 0", err, sizeof(err));
	struct isc_expr *exc = isc_expr_parse("Pct > 90 or (Q > 1 and I < 150000)", err, sizeof(err));
	CHECK(inc && exc && isc_table_filter(a, inc, exc) == 0 && isc_table_filter(b, inc, exc) == 0);
	CHECK_MSG(a->nrows > all / 4 && a->nrows < all, "%zu of %zu rows kept", a->nrows, all);
	same_values(a, b, "filtered");
	CHECK(isc_table_col(b, "Pct")->packed);
	isc_expr_free(inc);
	isc_expr_free(exc);
	isc_table_unpack(b);
	CHECK(isc_table_col(b, "Pct")->num && !isc_table_col(b, "Pct")->packed);
	isc_table_free(a);
	isc_table_free(b);
}

/* An error in the second half of a packed read names its line (header = line 1). */
static void error_line(void)
{
	const char *path = write_csv(300000, 250000, 0);
	char err[256], want[256];
	snprintf(err, sizeof(err), "%s/err.txt", dir);
	fflush(stderr);
	int saved = dup(2), fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fd, 2);
	struct isc_table *t = NULL;
	struct isc_table_opts o = { .nthreads = 2, .pack = true };
	int rc = isc_table_read(path, &o, &t);
	fflush(stderr);
	dup2(saved, 2);
	close(fd);
	close(saved);
	CHECK(rc < 0 && !t);
	FILE *f = fopen(err, "r");
	CHECK(f && fgets(err, sizeof(err), f));
	if (f)
		fclose(f);
	snprintf(want, sizeof(want), "%s:250002: field 'Pct': expected a number, got '1.2.3'", path);
	CHECK_MSG(strstr(err, want) != NULL, "got %s", err);
}

/* The flag counts and the 0/1 check from the codes against the decoded values: columns of
 * 0, 1 and empty cells, with and without an exception (0.5, -0), all rows and a row list. */
static void flags_from_codes(unsigned width, unsigned scale, int exception)
{
	size_t n = 70001, values = 0, set = 0, rv = 0, rs = 0, nrows = 0;
	struct isc_colpack pk;
	isc_colpack_init(&pk, width, scale);
	isc_colpack_reserve(&pk, n);
	size_t *rows = malloc(n * sizeof(size_t));
	for (size_t i = 0; i < n; i++) {
		int r = rand() % 5;
		double d = r == 0 ? NAN : r <= 2 ? 0 : 1;
		if (exception && i == n / 2)
			d = exception == 1 ? 0.5 : -0.0;
		isc_colpack_put(&pk, i, d);
		values += !isnan(d);
		set += d == 1;
		if (i % 3 == 1) {
			rows[nrows++] = i;
			rv += !isnan(d);
			rs += d == 1;
		}
	}
	size_t v = 0, st = 0;
	bool flags = false, answered = isc_colpack_is_flags(&pk, n, &flags);
	if (isc_colpack_pow10u[scale] <= (uint64_t)((1ull << (8 * width - 1)) - 2)) {
		CHECK(isc_colpack_flag_counts(&pk, NULL, n, &v, &st));
		CHECK_MSG(v == values && st == set, "w%u s%u: %zu/%zu, want %zu/%zu", width, scale, v, st, values, set);
		CHECK(isc_colpack_flag_counts(&pk, rows, nrows, &v, &st));
		CHECK_MSG(v == rv && st == rs, "w%u s%u rows: %zu/%zu, want %zu/%zu", width, scale, v, st, rv, rs);
		/* answered from the codes unless an exception (-0, or 0.5 where it has no code) */
		CHECK_MSG(answered == (pk.nx == 0) && (!answered || flags == (exception != 1)),
			  "w%u s%u exc %d: %d %d", width, scale, exception, answered, flags);
	} else {
		CHECK(!isc_colpack_flag_counts(&pk, NULL, n, &v, &st));
		CHECK(!answered);
	}
	isc_colpack_put(&pk, n - 40, 2);   /* a 2 in the second block of 65,536 rows: no longer flags */
	CHECK_MSG(!isc_colpack_is_flags(&pk, n, &flags) || !flags, "w%u s%u: a 2 near the end", width, scale);
	isc_colpack_put(&pk, n - 40, 1);
	isc_colpack_put(&pk, n - 2, 2);    /* and in the last bytes, after the vector steps */
	CHECK_MSG(!isc_colpack_is_flags(&pk, n, &flags) || !flags, "w%u s%u: a 2 at the end", width, scale);
	isc_colpack_put(&pk, 7, 2);   /* a 2: no longer flags */
	CHECK(!isc_colpack_is_flags(&pk, n, &flags) || !flags);
	free(rows);
	isc_colpack_free(&pk);
}

/* A group's rows as a column of their own (isc_colpack_view_rows): the same doubles as
 * gathering them, for codes within the width and empty cells; refused with an exception. */
static void view_rows(unsigned width, unsigned scale, size_t n)
{
	struct isc_colpack pk, view;
	double *want = malloc(n * sizeof(double)), *got = malloc(n * sizeof(double));
	size_t *rows = malloc(n * sizeof(size_t)), m = 0, bad = 0;
	char *mem = malloc(n * width + 1);
	long span = width == 1 ? 120 : width == 2 ? 32000 : 2000000000;  /* within the codes */
	isc_colpack_init(&pk, width, scale);
	isc_colpack_reserve(&pk, n + 1);
	for (size_t i = 0; i < n; i++) {
		double d = rand() % 40 == 0 ? NAN : (double)(rand() % (2 * span) - span) / pow(10, scale);
		isc_colpack_put(&pk, i, d);
		if (rand() % 3)
			rows[m++] = i;  /* ascending, as a group's */
	}
	CHECK_MSG(pk.nx == 0, "w%u s%u: %zu exceptions in codes' range", width, scale, pk.nx);
	isc_colpack_gather(&pk, rows, m, want);
	memset(&view, 0xa5, sizeof(view));
	bool made = isc_colpack_view_rows(&pk, rows, m, mem, &view);
	CHECK(made);
	CHECK(!made || (view.width == width && view.scale == scale && view.nx == 0 && view.codes == mem));
	for (int half = 0; made && half <= 1; half++) {
		size_t from = half ? m / 2 : 0;
		isc_colpack_decode(&view, from, m - from, got);
		for (size_t i = from; i < m; i++)
			bad += !same_bits(got[i - from], want[i]);
	}
	CHECK_MSG(bad == 0, "w%u s%u: %zu of %zu view values differ", width, scale, bad, m);
	isc_colpack_put(&pk, n, -0.0);  /* an exception: found by row, so no view */
	struct isc_colpack before = view;
	CHECK(!isc_colpack_view_rows(&pk, rows, m, mem, &view));
	CHECK(memcmp(&before, &view, sizeof(view)) == 0);
	isc_colpack_free(&pk);
	free(mem);
	free(rows);
	free(want);
	free(got);
}

int main(void)
{
	CHECK(mkdtemp(dir) != NULL);
	srand(28);
	choose();
	append_trim();
	for (unsigned w = 1; w <= 4; w *= 2)
		for (unsigned s = 0; s <= ISC_COLPACK_MAX_SCALE; s += 3)
			random_values(w, s, 200000);
	for (unsigned w = 1; w <= 4; w *= 2)
		for (int pattern = 0; pattern < 4; pattern++)
			keep_rows(w, w == 1 ? 0 : 2, 50000, pattern);
	for (unsigned w = 1; w <= 4; w *= 2)
		all_zero(w);
	/* two threads, a cut last line; I (beyond the sample's range from row 32,767 on) and H
	 * (in the second chunk only) go back to doubles: Pct, L, Flag and Q stay packed */
	same_table(write_csv(300000, SIZE_MAX, 1), 4, true);
	same_table(write_csv(2000, SIZE_MAX, 0), 6, false);   /* one thread, estimate kept */
	error_line();
	for (unsigned w = 1; w <= 4; w *= 2)
		for (unsigned sc = 0; sc <= ISC_COLPACK_MAX_SCALE; sc += 4)
			view_rows(w, sc, 100000 + w);
	for (unsigned w = 1; w <= 4; w *= 2)
		for (unsigned sc = 0; sc <= ISC_COLPACK_MAX_SCALE; sc++)
			for (int e = 0; e <= 2; e++)
				flags_from_codes(w, sc, e);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
	return CHECK_DONE();
}
