/*
 * A small expression language for row filters (--include/--exclude) and
 * counter formulas (--metric):
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
 * Booleans are numbers: true = 1, false = 0.
 */
#ifndef IDLESCOPE_EXPR_H
#define IDLESCOPE_EXPR_H
#include <stdbool.h>
#include <stddef.h>

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

/* Evaluate with var i's value from get(arg, i). Type errors give NaN (number) or false. */
typedef struct is_value (*is_expr_getter)(void *arg, size_t var);
struct is_value is_expr_eval(const struct is_expr *e, is_expr_getter get, void *arg);
/* A value as a condition: a non-zero number, or a non-empty string. NaN is false. */
bool is_expr_truthy(struct is_value v);

/*
 * Filter a table's rows in place: keep rows where include is true (if given) and
 * exclude is false (if given). An unknown column is an error: prints
 * "<what>: unknown column 'Foo' (columns: ...)" and returns -1.
 */
int is_table_filter(struct is_table *t, const struct is_expr *include,
		    const struct is_expr *exclude);

#endif
