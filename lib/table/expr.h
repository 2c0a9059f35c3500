/*
 * A small expression language for row filters (--include/--exclude) and
 * counter formulas (--metric); docs/expressions.md describes it for users:
 *   expr   := or
 *   or     := and ("or" and)*
 *   and    := not ("and" not)*
 *   not    := "not" not | cmp
 *   cmp    := sum (("<"|"<="|">"|">="|"=="|"!=") sum)?
 *   sum    := prod (("+"|"-") prod)*
 *   prod   := unary (("*"|"/") unary)*
 *   unary  := "-" unary | atom
 *   atom   := NUMBER | STRING ('..' or "..") | NAME | "(" expr ")"
 * NAME is [A-Za-z_][A-Za-z0-9_%.]* (so "CC1%" and "PC6%" are names).
 * "&", "|" and "~" are "and", "or" and "not" (wult's filters, written for pandas' query).
 * Booleans are numbers: true = 1, false = 0. "x == ''" is true when x is empty (an
 * empty cell of either type, or a number without a value: NaN), "x != ''" when it is not.
 * Division by zero gives no value (NaN), like an empty cell.
 * At most IS_EXPR_MAX_DEPTH parentheses, "-" and "not" may be open at once; chains
 * (a + b + ...) may be of any length.
 */
#ifndef IDLESCOPE_EXPR_H
#define IDLESCOPE_EXPR_H
#include <stdbool.h>
#include <stddef.h>

#define IS_EXPR_MAX_DEPTH 200

struct is_expr;
struct is_table;

struct is_value {
	bool is_str;
	double num;
	const char *str;  /* is_str: the string (NULL when a text cell is empty) */
};

/* Parse; on error returns NULL and writes "expected ')' at column 17" to err. */
struct is_expr *is_expr_parse(const char *src, char *err, size_t errlen);
void is_expr_free(struct is_expr *e);

/* Names the expression uses, in first-use order. */
size_t is_expr_nvars(const struct is_expr *e);
const char *is_expr_var(const struct is_expr *e, size_t i);

/* What is known of a variable's type, for is_expr_check. */
enum is_expr_type { IS_EXPR_ANY, IS_EXPR_NUM, IS_EXPR_TEXT };

/*
 * Check the expression against its variables' types (types[i] for variable i, named as
 * columns in messages). Comparing a number with text (other than "== ''" and "!= ''") and
 * arithmetic on text are errors: returns -1 and writes
 * "column 'LDist' is numeric, compared with text 'x' at column 7" to err. Else returns 0.
 */
int is_expr_check(const struct is_expr *e, const enum is_expr_type *types, char *err, size_t errlen);

/* Evaluate with var i's value from get(arg, i). Type errors give NaN (number) or false. */
typedef struct is_value (*is_expr_getter)(void *arg, size_t var);
struct is_value is_expr_eval(const struct is_expr *e, is_expr_getter get, void *arg);
/* A value as a condition: a non-zero number, or a non-empty string. NaN is false. */
bool is_expr_truthy(struct is_value v);

/*
 * Filter a table's rows in place: keep rows where include is true (if given) and
 * exclude is false (if given). The name "index" is the row's 0-based number in the file
 * (blank lines not counted) unless the table has a column of that name. An unknown column prints
 * "<path>: filter: unknown column 'Foo' (columns: <every column of the file>)",
 * a type error (is_expr_check) "<path>: --include: column 'LDist' is numeric, ...";
 * both return -1.
 */
int is_table_filter(struct is_table *t, const struct is_expr *include,
		    const struct is_expr *exclude);
/* The same, without changing t: keep[row] (t->nrows bytes) is 1 for a kept row, else 0. */
int is_table_filter_mask(const struct is_table *t, const struct is_expr *include,
			 const struct is_expr *exclude, unsigned char *keep);

#endif
