/* The expression parser and evaluator: precedence, types, and error messages. */
#include <stdlib.h>

#include "check.h"
#include "idlescope/expr.h"

struct vars {
	const char *names[4];
	struct is_value vals[4];
};

static struct is_value by_index(void *arg, size_t var)
{
	return ((struct is_value *)arg)[var];
}

/* Evaluate with variables bound by name from v (unbound ones are NaN). */
static struct is_value eval_with(const char *src, const struct vars *v)
{
	char err[128];
	struct is_value bound[8], r = { .num = NAN };
	struct is_expr *e = is_expr_parse(src, err, sizeof(err));
	if (!e) {
		fprintf(stderr, "parse '%s': %s\n", src, err);
		check_failures++;
		return r;
	}
	for (size_t i = 0; i < is_expr_nvars(e) && i < 8; i++) {
		bound[i] = (struct is_value){ .num = NAN };
		for (size_t k = 0; v && k < 4; k++)
			if (!strcmp(is_expr_var(e, i), v->names[k]))
				bound[i] = v->vals[k];
	}
	r = is_expr_eval(e, by_index, bound);
	is_expr_free(e);
	return r;
}

static double num(const char *src, const struct vars *v)
{
	struct is_value r = eval_with(src, v);
	return r.is_str ? NAN : r.num;
}

static void parse_error(const char *src, const char *want)
{
	char err[128] = "";
	struct is_expr *e = is_expr_parse(src, err, sizeof(err));
	CHECK(e == NULL);
	is_expr_free(e);
	if (strcmp(err, want)) {
		check_failures++;
		fprintf(stderr, "'%s': error '%s', expected '%s'\n", src, err, want);
	}
}

int main(void)
{
	struct vars v = {
		.names = { "LDist", "ReqCState", "CC6%", "WakeLatency" },
		.vals = { { .num = 1500 }, { .is_str = true, .str = "C6" }, { .num = 92.5 }, { .num = NAN } },
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
	CHECK_EQ_DBL(num("ReqCState == 6", &v), 0);    /* string vs number: not equal */
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
	struct is_expr *e = is_expr_parse("a + b * a", err, sizeof(err));
	CHECK(e && is_expr_nvars(e) == 2);
	CHECK_STR(is_expr_var(e, 0), "a");
	CHECK_STR(is_expr_var(e, 1), "b");
	is_expr_free(e);
	return CHECK_DONE();
}
