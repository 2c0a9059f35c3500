/* SPDX-License-Identifier: GPL-2.0-only */
/* The expression parser and evaluator: precedence, types, limits, error messages, and
 * row filtering of a table read from a CSV file. */
#include <stdlib.h>
#include <unistd.h>

#include "table/expr.h"
#include "table/table.h"
#include "../common/check.h"

#define NVARS 5

struct vars {
	const char *names[NVARS];
	struct isc_value vals[NVARS];
};

static struct isc_value by_index(void *arg, size_t var)
{
	return ((struct isc_value *)arg)[var];
}

/* Evaluate with variables bound by name from v (unbound ones are NaN). */
static struct isc_value eval_with(const char *src, const struct vars *v)
{
	char err[128];
	struct isc_value bound[8], r = { .num = NAN };
	struct isc_expr *e = isc_expr_parse(src, err, sizeof(err));
	if (!e) {
		fprintf(stderr, "parse '%s': %s\n", src, err);
		check_failures++;
		return r;
	}
	for (size_t i = 0; i < isc_expr_nvars(e) && i < 8; i++) {
		bound[i] = (struct isc_value){ .num = NAN };
		for (size_t k = 0; v && k < NVARS; k++)
			if (v->names[k] && !strcmp(isc_expr_var(e, i), v->names[k]))
				bound[i] = v->vals[k];
	}
	r = isc_expr_eval(e, by_index, bound);
	isc_expr_free(e);
	return r;
}

static double num(const char *src, const struct vars *v)
{
	struct isc_value r = eval_with(src, v);
	return r.is_str ? NAN : r.num;
}

static void parse_error(const char *src, const char *want)
{
	char err[128] = "";
	struct isc_expr *e = isc_expr_parse(src, err, sizeof(err));
	CHECK(e == NULL);
	isc_expr_free(e);
	if (strcmp(err, want)) {
		check_failures++;
		fprintf(stderr, "'%s': error '%s', expected '%s'\n", src, err, want);
	}
}

static void basics(void)
{
	struct vars v = {
		.names = { "LDist", "ReqCState", "CC6%", "WakeLatency", "Label" },
		.vals = { { .num = 1500 }, { .is_str = true, .str = "C6" }, { .num = 92.5 }, { .num = NAN },
			  { .is_str = true, .str = NULL } },
	};
	CHECK_EQ_DBL(num("1 + 2 * 3", NULL), 7);
	CHECK_EQ_DBL(num("(1 + 2) * 3", NULL), 9);
	CHECK_EQ_DBL(num("10 - 4 - 3", NULL), 3);       /* left associative */
	CHECK_EQ_DBL(num("12 / 3 / 2", NULL), 2);
	CHECK_EQ_DBL(num("-2 * -3", NULL), 6);
	CHECK_EQ_DBL(num("1 < 2 and 2 < 3", NULL), 1);
	CHECK_EQ_DBL(num("1 < 2 and not 2 < 3", NULL), 0);
	CHECK_EQ_DBL(num("0 or 1 and 0", NULL), 0);     /* and binds tighter than or */
	CHECK_EQ_DBL(num("1e3 == 1000", NULL), 1);
	CHECK_EQ_DBL(num("LDist / 1000 >= 1.5", &v), 1);
	CHECK_EQ_DBL(num("ReqCState == 'C6' and CC6% > 90", &v), 1);
	CHECK_EQ_DBL(num("ReqCState != \"C6\"", &v), 0);
	CHECK_EQ_DBL(num("ReqCState < 'C7'", &v), 1);
	CHECK_EQ_DBL(num("WakeLatency > 0 or WakeLatency <= 0", &v), 0);  /* empty cell: NaN */
	/* string vs number: not equal when evaluated (isc_expr_check refuses it given the types) */
	CHECK_EQ_DBL(num("ReqCState == 6", &v), 0);
	CHECK_EQ_DBL(num("ReqCState != 6", &v), 1);
	CHECK(isnan(num("ReqCState + 1", &v)));

	parse_error("(LDist > 5", "expected ')' at column 11");
	parse_error("LDist > ", "unexpected end of expression at column 9");
	parse_error("LDist >> 5", "expected a number, string, column name or '(', got '>' at column 8");
	parse_error("LDist > 5)", "unexpected ')' at column 10");
	parse_error("ReqCState == 'C6", "unterminated string at column 14");
	parse_error("LDist # 3", "unexpected '#' at column 7");
	parse_error("1.2.3 > 1", "bad number at column 1");
	parse_error("", "unexpected end of expression at column 1");
	parse_error("not", "unexpected end of expression at column 4");

	char err[64];
	struct isc_expr *e = isc_expr_parse("a + b * a", err, sizeof(err));
	CHECK(e && isc_expr_nvars(e) == 2);
	CHECK_STR(isc_expr_var(e, 0), "a");
	CHECK_STR(isc_expr_var(e, 1), "b");
	isc_expr_free(e);
}

/* a repeated na times, mid, b repeated nb times, tail: a new string. */
static char *nest(const char *a, size_t na, const char *mid, const char *b, size_t nb, const char *tail)
{
	size_t la = strlen(a), lm = strlen(mid), lb = strlen(b), lt = strlen(tail);
	char *s = malloc(la * na + lm + lb * nb + lt + 1), *p = s;
	for (size_t i = 0; i < na; i++, p += la)
		memcpy(p, a, la);
	memcpy(p, mid, lm);
	p += lm;
	for (size_t i = 0; i < nb; i++, p += lb)
		memcpy(p, b, lb);
	memcpy(p, tail, lt + 1);
	return s;
}

#define DEEP "expression nested too deeply (more than 200 levels) at column "

static void deep_error(char *src, const char *want)
{
	parse_error(src, want);
	free(src);
}

static void deep_ok(char *src, double want)
{
	CHECK_EQ_DBL(num(src, NULL), want);
	free(src);
}

/* Nesting is limited (an error, not a stack overflow); chains of any length evaluate and free. */
static void limits(void)
{
	deep_error(nest("(", 20000, "A", ")", 20000, ""), DEEP "201");
	deep_error(nest("-", 130000, "1", "", 0, ""), DEEP "201");
	deep_error(nest("not ", 201, "1", "", 0, ""), DEEP "801");
	deep_error(nest("-(", 150, "1", ")", 150, ""), DEEP "201");
	deep_error(nest("(", 201, "1", ")", 201, ""), DEEP "201");
	deep_ok(nest("(", 200, "1", ")", 200, ""), 1);
	deep_ok(nest("-", 200, "7", "", 0, ""), 7);
	deep_ok(nest("not ", 200, "1", "", 0, ""), 1);
	deep_ok(nest("-(", 100, "3", ")", 100, ""), 3);

	struct vars a = { .names = { "A" }, .vals = { { .num = 1 } } };
	char *s = nest("A", 1, "", "+A", 40000, " > 1");
	CHECK_EQ_DBL(num(s, &a), 1);
	free(s);
	s = nest("A", 1, "", "+A", 99999, "");
	CHECK_EQ_DBL(num(s, &a), 100000);
	free(s);
	s = nest("A", 1, "", " - A", 99999, "");
	CHECK_EQ_DBL(num(s, &a), -99998);
	free(s);
	s = nest("2", 1, "", "*A", 99999, " / 2");
	CHECK_EQ_DBL(num(s, &a), 1);
	free(s);
	s = nest("A", 1, "", " and A", 99999, "");
	CHECK_EQ_DBL(num(s, &a), 1);
	free(s);
	s = nest("0", 1, "", " or 0", 99999, " or A");
	CHECK_EQ_DBL(num(s, &a), 1);
	free(s);
	CHECK_EQ_DBL(num("2 * 3 + 4 * 5 - 6 / 3", NULL), 24);
	CHECK_EQ_DBL(num("1 - 2 - 3 * 2 / 4", NULL), -2.5);
}

/* Empty cells, x == '', division by zero. */
static void no_values(void)
{
	struct vars v = {
		.names = { "LDist", "ReqCState", "WakeLatency", "Label" },
		.vals = { { .num = 1500 }, { .is_str = true, .str = "C6" }, { .num = NAN },
			  { .is_str = true, .str = NULL } },
	};
	CHECK_EQ_DBL(num("WakeLatency == ''", &v), 1);
	CHECK_EQ_DBL(num("'' == WakeLatency", &v), 1);
	CHECK_EQ_DBL(num("WakeLatency != \"\"", &v), 0);
	CHECK_EQ_DBL(num("WakeLatency != 5", &v), 1);  /* no value: only != is true */
	CHECK_EQ_DBL(num("WakeLatency == 5", &v), 0);
	CHECK_EQ_DBL(num("LDist == ''", &v), 0);
	CHECK_EQ_DBL(num("LDist != ''", &v), 1);
	CHECK_EQ_DBL(num("not LDist == ''", &v), 1);
	CHECK_EQ_DBL(num("Label == ''", &v), 1);
	CHECK_EQ_DBL(num("ReqCState == ''", &v), 0);
	CHECK_EQ_DBL(num("ReqCState != ''", &v), 1);
	CHECK(isnan(num("1 / 0", NULL)));
	CHECK(isnan(num("-1 / 0", NULL)));
	CHECK(isnan(num("0 / 0", NULL)));
	CHECK_EQ_DBL(num("1 / 0 > 0 or 1 / 0 < 0", NULL), 0);
	CHECK_EQ_DBL(num("LDist / 0 == ''", &v), 1);
	CHECK_EQ_DBL(num("LDist / 1000 != ''", &v), 1);
}

/* isc_expr_check with LDist and CC6% numeric, ReqCState text, others unknown; want "" if fine. */
static void type_check(const char *src, const char *want)
{
	char err[200] = "";
	struct isc_expr *e = isc_expr_parse(src, err, sizeof(err));
	enum isc_expr_type types[8];
	if (!e) {
		check_failures++;
		fprintf(stderr, "parse '%s': %s\n", src, err);
		return;
	}
	for (size_t i = 0; i < isc_expr_nvars(e) && i < 8; i++) {
		const char *n = isc_expr_var(e, i);
		types[i] = !strcmp(n, "ReqCState") ? ISC_EXPR_TEXT
			 : !strcmp(n, "LDist") || !strcmp(n, "CC6%") ? ISC_EXPR_NUM : ISC_EXPR_ANY;
	}
	int rc = isc_expr_check(e, types, err, sizeof(err));
	isc_expr_free(e);
	if ((rc < 0) != (want[0] != 0) || (rc < 0 && strcmp(err, want))) {
		check_failures++;
		fprintf(stderr, "check '%s': %d '%s', expected '%s'\n", src, rc, rc < 0 ? err : "", want);
	}
}

static void types(void)
{
	type_check("LDist == 'x'", "column 'LDist' is numeric, compared with text 'x' at column 7");
	type_check("'x' != LDist", "column 'LDist' is numeric, compared with text 'x' at column 5");
	type_check("LDist < ''", "column 'LDist' is numeric, compared with text '' at column 7");
	type_check("ReqCState == 6", "column 'ReqCState' is text, compared with number 6 at column 11");
	type_check("ReqCState >= 1.5e3", "column 'ReqCState' is text, compared with number 1500 at column 11");
	type_check("ReqCState > LDist",
		   "column 'ReqCState' is text, compared with numeric column 'LDist' at column 11");
	type_check("1 + LDist == ReqCState",
		   "column 'ReqCState' is text, compared with a number at column 11");
	type_check("LDist + 1 == 'x'", "a number compared with text 'x' at column 11");
	type_check("1 < 'a'", "number 1 compared with text 'a' at column 3");
	type_check("ReqCState * 2 > 1", "column 'ReqCState' is text, used in arithmetic ('*') at column 11");
	type_check("1 - ReqCState", "column 'ReqCState' is text, used in arithmetic ('-') at column 3");
	type_check("-ReqCState < 0", "column 'ReqCState' is text, used in arithmetic ('-') at column 1");
	type_check("'a' + 1", "text 'a' used in arithmetic ('+') at column 5");
	type_check("LDist > 1 and (CC6% > 2 or ReqCState == 6)",
		   "column 'ReqCState' is text, compared with number 6 at column 38");
	type_check("LDist == '' or ReqCState != '' or '' == CC6%", "");
	type_check("ReqCState == 'C6' and LDist / 1000 > 1.5", "");
	type_check("not ReqCState and (ReqCState or LDist)", "");
	type_check("Foo == 'x' or Foo > 1 or Foo + 1 > LDist", "");
}

static char dir[] = "/tmp/is-test-expr-XXXXXX";
static char csv[64];

/* Load only LDist and the columns e uses, as with analyze's --metrics '^LDist$'. */
static bool want(const char *name, void *arg)
{
	const struct isc_expr *e = arg;
	for (size_t i = 0; i < isc_expr_nvars(e); i++)
		if (!strcmp(name, isc_expr_var(e, i)))
			return true;
	return !strcmp(name, "LDist");
}

/* isc_table_filter(t, inc, exc) with stderr kept in msg (without the last newline). */
static int filter_capture(struct isc_table *t, const struct isc_expr *inc, const struct isc_expr *exc,
			  char *msg, size_t len)
{
	FILE *f = tmpfile();
	fflush(stderr);
	int saved = dup(2);
	dup2(fileno(f), 2);
	int rc = isc_table_filter(t, inc, exc);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	size_t n = fread(msg, 1, len - 1, f);
	fclose(f);
	msg[n && msg[n - 1] == '\n' ? n - 1 : n] = '\0';
	return rc;
}

/* Rows of the test file left by --include src (--exclude if exclude), -1 on an error (msg). */
static long filter(const char *src, bool exclude, char *msg, size_t len)
{
	char err[200];
	struct isc_expr *e = isc_expr_parse(src, err, sizeof(err));
	struct isc_table_opts o = { .want = want, .want_arg = e };
	struct isc_table *t = NULL;
	msg[0] = '\0';
	if (!e || isc_table_read(csv, &o, &t) < 0) {
		check_failures++;
		fprintf(stderr, "'%s': cannot parse or read %s\n", src, csv);
		isc_expr_free(e);
		return -2;
	}
	int rc = filter_capture(t, exclude ? NULL : e, exclude ? e : NULL, msg, len);
	long rows = rc < 0 ? -1 : (long)t->nrows;
	isc_table_free(t);
	isc_expr_free(e);
	return rows;
}

static void filter_ok(const char *src, bool exclude, long want_rows)
{
	char msg[1024];
	long rows = filter(src, exclude, msg, sizeof(msg));
	if (rows != want_rows || msg[0]) {
		check_failures++;
		fprintf(stderr, "filter '%s': %ld rows, expected %ld; '%s'\n", src, rows, want_rows, msg);
	}
}

static void filter_error(const char *src, bool exclude, const char *want)
{
	char msg[1024], full[512];
	snprintf(full, sizeof(full), "idlescope: %s: %s", csv, want);
	long rows = filter(src, exclude, msg, sizeof(msg));
	if (rows != -1 || strcmp(msg, full)) {
		check_failures++;
		fprintf(stderr, "filter '%s': %ld rows, '%s', expected '%s'\n", src, rows, msg, full);
	}
}

static void table_filter(void)
{
	static const char text[] = "WakeLatency,LDist,ReqCState,E,Empty\n"
				   "1,1500,C6,,\n2,800,C1,3,\n3,2500,,4,\n";
	CHECK(mkdtemp(dir) != NULL);
	snprintf(csv, sizeof(csv), "%s/datapoints.csv", dir);
	FILE *f = fopen(csv, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
	filter_error("Foo > 1", false,
		     "filter: unknown column 'Foo' (columns: WakeLatency, LDist, ReqCState, E, Empty)");
	filter_error("LDist == 'x'", false,
		     "--include: column 'LDist' is numeric, compared with text 'x' at column 7");
	filter_error("ReqCState != 6", true,
		     "--exclude: column 'ReqCState' is text, compared with number 6 at column 11");
	filter_ok("E == ''", false, 1);
	filter_ok("E != ''", false, 2);
	filter_ok("E == ''", true, 2);
	filter_ok("ReqCState == ''", false, 1);
	filter_ok("Empty == ''", false, 3);
	filter_ok("Empty == 'x'", false, 0);  /* no value at all: no known type, no error */
	filter_ok("LDist / 0 > 1", false, 0);
	filter_ok("ReqCState == 'C6' and LDist > 1000", false, 1);
	filter_ok("ReqCState == 'C6' or LDist > 2000", true, 1);
	unlink(csv);
	rmdir(dir);
}

int main(void)
{
	basics();
	limits();
	no_values();
	types();
	table_filter();
	return CHECK_DONE();
}
