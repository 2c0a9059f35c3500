/* SPDX-License-Identifier: GPL-2.0-only */
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
 * At most ISC_EXPR_MAX_DEPTH parentheses, "-" and "not" may be open at once; chains
 * (a + b + ...) may be of any length.
 */
#ifndef IDLESCOPE_EXPR_H
#define IDLESCOPE_EXPR_H
#include <stdbool.h>
#include <stddef.h>

#define ISC_EXPR_MAX_DEPTH 200

struct isc_expr;
struct isc_table;

struct isc_value {
	bool is_str;
	double num;
	const char *str;  /* is_str: the string (NULL when a text cell is empty) */
};

/* Parse; on error returns NULL and writes "expected ')' at column 17" to err. */
struct isc_expr *isc_expr_parse(const char *src, char *err, size_t errlen);
void isc_expr_free(struct isc_expr *e);

/* Names the expression uses, in first-use order. */
size_t isc_expr_nvars(const struct isc_expr *e);
const char *isc_expr_var(const struct isc_expr *e, size_t i);

/* What is known of a variable's type, for isc_expr_check. */
enum isc_expr_type { ISC_EXPR_ANY, ISC_EXPR_NUM, ISC_EXPR_TEXT };

/*
 * Check the expression against its variables' types (types[i] for variable i, named as
 * columns in messages). Comparing a number with text (other than "== ''" and "!= ''") and
 * arithmetic on text are errors: returns -1 and writes
 * "column 'LDist' is numeric, compared with text 'x' at column 7" to err. Else returns 0.
 */
int isc_expr_check(const struct isc_expr *e, const enum isc_expr_type *types, char *err, size_t errlen);

/* Evaluate with var i's value from get(arg, i). Type errors give NaN (number) or false. */
typedef struct isc_value (*isc_expr_getter)(void *arg, size_t var);
struct isc_value isc_expr_eval(const struct isc_expr *e, isc_expr_getter get, void *arg);
/* A value as a condition: a non-zero number, or a non-empty string. NaN is false. */
bool isc_expr_truthy(struct isc_value v);

/*
 * Filter a table's rows in place: keep rows where include is true (if given) and
 * exclude is false (if given). The name "index" is the row's 0-based number in the file
 * (blank lines not counted) unless the table has a column of that name. An unknown column prints
 * "<path>: filter: unknown column 'Foo' (columns: <every column of the file>)",
 * a type error (isc_expr_check) "<path>: --include: column 'LDist' is numeric, ...";
 * both return -1.
 */
int isc_table_filter(struct isc_table *t, const struct isc_expr *include,
		    const struct isc_expr *exclude);
/* The same, without changing t: keep[row] (t->nrows bytes) is 1 for a kept row, else 0. */
int isc_table_filter_mask(const struct isc_table *t, const struct isc_expr *include,
			 const struct isc_expr *exclude, unsigned char *keep);

#endif
