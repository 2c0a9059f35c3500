/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The expression language of expr.h: a tokenizer, a recursive-descent parser, an evaluator
 * and a type check. A chain of one level (a + b - c, a and b and c) is one node with a list
 * of terms, so the tree is only as deep as the nesting, which the parser limits: recursion
 * in parsing, evaluating, checking and freeing is bounded whatever the input's length.
 */
#include "table/expr.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "table/numparse.h"
#include "text/util.h"

enum node_kind { N_NUM, N_STR, N_VAR, N_NEG, N_NOT, N_EMPTY, N_NONEMPTY, N_AND, N_OR, N_ARITH,
		 N_LT, N_LE, N_GT, N_GE, N_EQ, N_NE };

struct term {
	struct node *n;
	char op;             /* N_ARITH: the operator before n ('+', '-', '*', '/'); N_NEG: '-' */
	size_t pos;          /* and its offset in the source */
};

struct node {
	enum node_kind kind;
	size_t pos;          /* offset of the node's token: the operator, name or literal */
	double num;          /* N_NUM */
	char *str;           /* N_STR */
	size_t var;          /* N_VAR */
	struct term *t;      /* operands: 1 (N_NEG, N_NOT, N_EMPTY, N_NONEMPTY), 2 (comparisons), */
	size_t nt, cap;      /* or 2 and more (N_AND, N_OR, N_ARITH) */
};

struct isc_expr {
	struct node *root;
	char **vars;
	size_t nvars;
};

enum tok_kind { T_END, T_NUM, T_STR, T_NAME, T_OP };

struct parser {
	const char *src;
	size_t pos;          /* current token's start */
	size_t next;         /* after the current token */
	enum tok_kind tok;
	char op[3];
	char *text;          /* T_STR, T_NAME: token text */
	double num;
	char *err;
	size_t errlen;
	int failed;
	int depth;           /* parentheses, "-" and "not" open */
	struct isc_expr *e;
};

static void fail(struct parser *p, const char *what)
{
	if (!p->failed)
		snprintf(p->err, p->errlen, "%s at column %zu", what, p->pos + 1);
	p->failed = 1;
}

static int is_name_start(int c) { return isalpha(c) || c == '_'; }
static int is_name_char(int c) { return isalnum(c) || c == '_' || c == '%' || c == '.'; }

static void lex_string(struct parser *p, size_t i)
{
	char quote = p->src[i];
	size_t start = ++i;
	while (p->src[i] && p->src[i] != quote)
		i++;
	if (!p->src[i]) {
		fail(p, "unterminated string");
		p->tok = T_END;
		return;
	}
	p->tok = T_STR;
	p->text = isc_xstrndup(p->src + start, i - start);
	p->next = i + 1;
}

static void lex_number(struct parser *p, size_t i)
{
	size_t start = i;
	while (isdigit((unsigned char)p->src[i]) || p->src[i] == '.')
		i++;
	if ((p->src[i] == 'e' || p->src[i] == 'E') &&
	    (isdigit((unsigned char)p->src[i + 1]) ||
	     ((p->src[i + 1] == '+' || p->src[i + 1] == '-') && isdigit((unsigned char)p->src[i + 2])))) {
		i += 2;
		while (isdigit((unsigned char)p->src[i]))
			i++;
	}
	p->tok = T_NUM;
	p->next = i;
	if (!isc_parse_double(p->src + start, i - start, &p->num))
		fail(p, "bad number");
}

static void lex(struct parser *p)
{
	static const char *const ops[] = { "<=", ">=", "==", "!=", "<", ">", "+", "-", "*", "/", "(", ")" };
	size_t i = p->next;
	free(p->text);
	p->text = NULL;
	while (isspace((unsigned char)p->src[i]))
		i++;
	p->pos = i;
	char c = p->src[i];
	if (!c) {
		p->tok = T_END;
		p->next = i;
	} else if (c == '"' || c == '\'') {
		lex_string(p, i);
	} else if (isdigit((unsigned char)c) || (c == '.' && isdigit((unsigned char)p->src[i + 1]))) {
		lex_number(p, i);
	} else if (is_name_start((unsigned char)c)) {
		size_t start = i;
		while (is_name_char((unsigned char)p->src[i]))
			i++;
		p->tok = T_NAME;
		p->text = isc_xstrndup(p->src + start, i - start);
		p->next = i;
	} else if (c == '&' || c == '|' || c == '~') {  /* wult's (pandas') spellings */
		p->tok = T_NAME;
		p->text = isc_xstrdup(c == '&' ? "and" : c == '|' ? "or" : "not");
		p->next = i + 1;
	} else {
		for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
			size_t n = strlen(ops[k]);
			if (strncmp(p->src + i, ops[k], n) == 0) {
				p->tok = T_OP;
				memcpy(p->op, ops[k], n + 1);
				p->next = i + n;
				return;
			}
		}
		char msg[48];
		snprintf(msg, sizeof(msg), isprint((unsigned char)c) ? "unexpected '%c'" : "unexpected byte 0x%02x",
			 isprint((unsigned char)c) ? c : (unsigned char)c);
		fail(p, msg);
		p->tok = T_END;
	}
}

static int is_op(const struct parser *p, const char *op)
{
	return p->tok == T_OP && strcmp(p->op, op) == 0;
}

static int is_kw(const struct parser *p, const char *kw)
{
	return p->tok == T_NAME && strcmp(p->text, kw) == 0;
}

static struct node *mk(enum node_kind kind, size_t pos)
{
	struct node *n = isc_xcalloc(1, sizeof(*n));
	n->kind = kind;
	n->pos = pos;
	return n;
}

static void add_term(struct node *n, struct node *kid, char op, size_t pos)
{
	if (n->nt == n->cap) {
		n->cap = n->cap ? 2 * n->cap : 2;
		n->t = isc_xrealloc(n->t, n->cap * sizeof(*n->t));
	}
	n->t[n->nt++] = (struct term){ .n = kid, .op = op, .pos = pos };
}

static struct node *mk1(enum node_kind kind, size_t pos, struct node *kid)
{
	struct node *n = mk(kind, pos);
	add_term(n, kid, kind == N_NEG ? '-' : 0, pos);
	return n;
}

/* Recursion as deep as the tree: bounded by the parser's nesting limit. */
static void node_free(struct node *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->nt; i++)
		node_free(n->t[i].n);
	free(n->t);
	free(n->str);
	free(n);
}

static size_t var_index(struct isc_expr *e, const char *name)
{
	for (size_t i = 0; i < e->nvars; i++)
		if (strcmp(e->vars[i], name) == 0)
			return i;
	e->vars = isc_xrealloc(e->vars, (e->nvars + 1) * sizeof(*e->vars));
	e->vars[e->nvars] = isc_xstrdup(name);
	return e->nvars++;
}

/* Open one more level of nesting at the current token, or fail past the limit. */
static int enter(struct parser *p)
{
	if (p->failed)
		return 0;
	if (++p->depth <= ISC_EXPR_MAX_DEPTH)
		return 1;
	char msg[64];
	snprintf(msg, sizeof(msg), "expression nested too deeply (more than %d levels)", ISC_EXPR_MAX_DEPTH);
	fail(p, msg);
	return 0;
}

static struct node *parse_or(struct parser *p);

static struct node *parse_paren(struct parser *p)
{
	if (!enter(p))
		return NULL;
	lex(p);
	struct node *n = parse_or(p);
	if (!p->failed && !is_op(p, ")"))
		fail(p, "expected ')'");
	if (!p->failed)
		lex(p);
	p->depth--;
	return n;
}

static struct node *parse_leaf(struct parser *p, enum node_kind kind)
{
	struct node *n = mk(kind, p->pos);
	if (kind == N_NUM)
		n->num = p->num;
	else if (kind == N_STR)
		n->str = isc_xstrdup(p->text);
	else
		n->var = var_index(p->e, p->text);
	lex(p);
	return n;
}

/* The current token as the user wrote it ("&", not the "and" it stands for). */
static const char *tok_text(const struct parser *p)
{
	static const char *const sym[] = { "&", "|", "~" };
	const char *c = strchr("&|~", p->src[p->pos]);
	if (p->tok == T_NAME && p->src[p->pos] && c)
		return sym[c - "&|~"];
	return p->tok == T_OP ? p->op : p->text ? p->text : "?";
}

static struct node *parse_atom(struct parser *p)
{
	if (p->failed)
		return NULL;
	switch (p->tok) {
	case T_NUM:
		return parse_leaf(p, N_NUM);
	case T_STR:
		return parse_leaf(p, N_STR);
	case T_NAME:
		if (is_kw(p, "and") || is_kw(p, "or") || is_kw(p, "not"))
			break;
		return parse_leaf(p, N_VAR);
	case T_OP:
		if (is_op(p, "("))
			return parse_paren(p);
		break;
	case T_END:
		fail(p, "unexpected end of expression");
		return NULL;
	}
	char msg[96];
	snprintf(msg, sizeof(msg), "expected a number, string, column name or '(', got '%.40s'",
		 tok_text(p));
	fail(p, msg);
	return NULL;
}

/* "-" x and "not" x: kind applied to sub, one nesting level each. */
static struct node *parse_prefix(struct parser *p, enum node_kind kind,
				 struct node *(*sub)(struct parser *))
{
	size_t pos = p->pos;
	if (!enter(p))
		return NULL;
	lex(p);
	struct node *n = mk1(kind, pos, sub(p));
	p->depth--;
	return n;
}

static struct node *parse_unary(struct parser *p)
{
	if (!p->failed && is_op(p, "-"))
		return parse_prefix(p, N_NEG, parse_unary);
	return parse_atom(p);
}

/* Index of the operator or keyword among ops that is the current token, or nops. */
static size_t match(const struct parser *p, const char *const *ops, size_t nops)
{
	size_t i = 0;
	while (!p->failed && i < nops && !is_op(p, ops[i]) && !is_kw(p, ops[i]))
		i++;
	return p->failed ? nops : i;
}

/* One left-associative level, sub (op sub)*: a single node of kind for a whole chain. */
static struct node *parse_chain(struct parser *p, struct node *(*sub)(struct parser *),
				enum node_kind kind, const char *const *ops, size_t nops)
{
	struct node *first = sub(p), *n = NULL;
	size_t i;
	while ((i = match(p, ops, nops)) < nops) {
		if (!n) {
			n = mk(kind, p->pos);
			add_term(n, first, 0, 0);
		}
		size_t pos = p->pos;
		lex(p);
		add_term(n, sub(p), ops[i][0], pos);
	}
	return n ? n : first;
}

static struct node *parse_prod(struct parser *p)
{
	static const char *const ops[] = { "*", "/" };
	return parse_chain(p, parse_unary, N_ARITH, ops, 2);
}

static struct node *parse_sum(struct parser *p)
{
	static const char *const ops[] = { "+", "-" };
	return parse_chain(p, parse_prod, N_ARITH, ops, 2);
}

static bool is_empty_str(const struct node *n)
{
	return n && n->kind == N_STR && !n->str[0];
}

/* x == '' and x != '' (either way round) become a test for "no value", whatever x's type. */
static struct node *empty_test(struct node *n)
{
	int side = is_empty_str(n->t[1].n) ? 1 : is_empty_str(n->t[0].n) ? 0 : -1;
	if ((n->kind != N_EQ && n->kind != N_NE) || side < 0)
		return n;
	n->kind = n->kind == N_EQ ? N_EMPTY : N_NONEMPTY;
	node_free(n->t[side].n);
	n->t[0] = n->t[!side];
	n->nt = 1;
	return n;
}

static struct node *parse_cmp(struct parser *p)
{
	static const char *const ops[] = { "<=", ">=", "==", "!=", "<", ">" };
	static const enum node_kind kinds[] = { N_LE, N_GE, N_EQ, N_NE, N_LT, N_GT };
	struct node *l = parse_sum(p);
	size_t i = match(p, ops, 6);
	if (i == 6)
		return l;
	struct node *n = mk(kinds[i], p->pos);
	add_term(n, l, 0, 0);
	lex(p);
	add_term(n, parse_sum(p), 0, 0);
	return p->failed ? n : empty_test(n);
}

static struct node *parse_not(struct parser *p)
{
	if (!p->failed && is_kw(p, "not"))
		return parse_prefix(p, N_NOT, parse_not);
	return parse_cmp(p);
}

static struct node *parse_and(struct parser *p)
{
	static const char *const ops[] = { "and" };
	return parse_chain(p, parse_not, N_AND, ops, 1);
}

static struct node *parse_or(struct parser *p)
{
	static const char *const ops[] = { "or" };
	return parse_chain(p, parse_and, N_OR, ops, 1);
}

struct isc_expr *isc_expr_parse(const char *src, char *err, size_t errlen)
{
	struct isc_expr *e = isc_xcalloc(1, sizeof(*e));
	struct parser p = { .src = src, .err = err, .errlen = errlen, .e = e };
	lex(&p);
	e->root = parse_or(&p);
	if (!p.failed && p.tok != T_END) {
		char msg[96];
		snprintf(msg, sizeof(msg), "unexpected '%.40s'", tok_text(&p));
		fail(&p, msg);
	}
	free(p.text);
	if (p.failed) {
		isc_expr_free(e);
		return NULL;
	}
	return e;
}

void isc_expr_free(struct isc_expr *e)
{
	if (!e)
		return;
	node_free(e->root);
	for (size_t i = 0; i < e->nvars; i++)
		free(e->vars[i]);
	free(e->vars);
	free(e);
}

size_t isc_expr_nvars(const struct isc_expr *e) { return e->nvars; }
const char *isc_expr_var(const struct isc_expr *e, size_t i) { return e->vars[i]; }

/* --- type check --- */

struct tcheck {
	const struct isc_expr *e;
	const enum isc_expr_type *types;
	char *err;
	size_t errlen;
	int failed;
};

/* n as the subject of a message ("column 'X' is text,", "text 'x'") or its object. */
static void describe(const struct tcheck *c, const struct node *n, enum isc_expr_type t, bool subject,
		     char *buf, size_t len)
{
	const char *tn = t == ISC_EXPR_TEXT ? "text" : "numeric";
	if (n->kind == N_VAR && subject)
		snprintf(buf, len, "column '%.60s' is %s,", c->e->vars[n->var], tn);
	else if (n->kind == N_VAR)
		snprintf(buf, len, "%s column '%.60s'", tn, c->e->vars[n->var]);
	else if (n->kind == N_STR)
		snprintf(buf, len, "text '%.40s'", n->str);
	else if (n->kind == N_NUM)
		snprintf(buf, len, "number %g", n->num);
	else
		snprintf(buf, len, "a number");
}

static enum isc_expr_type type_of(struct tcheck *c, const struct node *n);

static enum isc_expr_type check_arith(struct tcheck *c, const struct node *n)
{
	for (size_t i = 0; i < n->nt && !c->failed; i++) {
		if (type_of(c, n->t[i].n) != ISC_EXPR_TEXT || c->failed)
			continue;
		const struct term *op = &n->t[i || n->kind == N_NEG ? i : 1];
		char what[128];
		describe(c, n->t[i].n, ISC_EXPR_TEXT, true, what, sizeof(what));
		snprintf(c->err, c->errlen, "%s used in arithmetic ('%c') at column %zu", what, op->op,
			 op->pos + 1);
		c->failed = 1;
	}
	return ISC_EXPR_NUM;
}

static enum isc_expr_type check_cmp(struct tcheck *c, const struct node *n)
{
	const struct node *l = n->t[0].n, *r = n->t[1].n;
	enum isc_expr_type tl = type_of(c, l), tr = type_of(c, r);
	if (c->failed || tl == ISC_EXPR_ANY || tr == ISC_EXPR_ANY || tl == tr)
		return ISC_EXPR_NUM;
	if (r->kind == N_VAR && l->kind != N_VAR) {  /* name the column first */
		const struct node *sn = l;
		enum isc_expr_type st = tl;
		l = r, tl = tr;
		r = sn, tr = st;
	}
	char subj[128], obj[128];
	describe(c, l, tl, true, subj, sizeof(subj));
	describe(c, r, tr, false, obj, sizeof(obj));
	snprintf(c->err, c->errlen, "%s compared with %s at column %zu", subj, obj, n->pos + 1);
	c->failed = 1;
	return ISC_EXPR_NUM;
}

/* The type of n's value, after checking its operands. */
static enum isc_expr_type type_of(struct tcheck *c, const struct node *n)
{
	switch (n->kind) {
	case N_NUM: return ISC_EXPR_NUM;
	case N_STR: return ISC_EXPR_TEXT;
	case N_VAR: return c->types[n->var];
	case N_NEG:
	case N_ARITH: return check_arith(c, n);
	default: break;
	}
	if (n->kind >= N_LT)
		return check_cmp(c, n);
	for (size_t i = 0; i < n->nt && !c->failed; i++)
		type_of(c, n->t[i].n);  /* not, and, or, emptiness: operands of any type */
	return ISC_EXPR_NUM;
}

int isc_expr_check(const struct isc_expr *e, const enum isc_expr_type *types, char *err, size_t errlen)
{
	struct tcheck c = { .e = e, .types = types, .err = err, .errlen = errlen };
	type_of(&c, e->root);
	return c.failed ? -1 : 0;
}

/* --- evaluation --- */

static struct isc_value num_value(double d) { return (struct isc_value){ .num = d }; }

static int truthy(struct isc_value v)
{
	return v.is_str ? v.str && *v.str : (!isnan(v.num) && v.num != 0);
}

static bool no_value(struct isc_value v)
{
	return v.is_str ? !v.str || !*v.str : isnan(v.num);
}

static struct isc_value compare(enum node_kind k, struct isc_value a, struct isc_value b)
{
	int c;
	if (a.is_str != b.is_str)
		return num_value(k == N_NE);
	if (a.is_str) {
		c = strcmp(a.str ? a.str : "", b.str ? b.str : "");
	} else {
		if (isnan(a.num) || isnan(b.num))
			return num_value(k == N_NE);
		c = (a.num > b.num) - (a.num < b.num);
	}
	switch (k) {
	case N_LT: return num_value(c < 0);
	case N_LE: return num_value(c <= 0);
	case N_GT: return num_value(c > 0);
	case N_GE: return num_value(c >= 0);
	case N_EQ: return num_value(c == 0);
	default: return num_value(c != 0);
	}
}

static double arith(char op, double a, double b)
{
	switch (op) {
	case '+': return a + b;
	case '-': return a - b;
	case '*': return a * b;
	default: return b == 0 ? NAN : a / b;  /* division by zero: no value */
	}
}

static struct isc_value eval(const struct node *n, isc_expr_getter get, void *arg);

static struct isc_value eval_arith(const struct node *n, isc_expr_getter get, void *arg)
{
	double acc = 0;
	for (size_t i = 0; i < n->nt; i++) {
		struct isc_value v = eval(n->t[i].n, get, arg);
		if (v.is_str)
			return num_value(NAN);
		acc = i ? arith(n->t[i].op, acc, v.num) : v.num;
	}
	return num_value(acc);
}

/* and/or, short-circuit: the first term that is false (and) or true (or) decides. */
static struct isc_value eval_logic(const struct node *n, isc_expr_getter get, void *arg)
{
	int decides = n->kind == N_OR;
	for (size_t i = 0; i < n->nt; i++)
		if (truthy(eval(n->t[i].n, get, arg)) == decides)
			return num_value(decides);
	return num_value(!decides);
}

static struct isc_value eval(const struct node *n, isc_expr_getter get, void *arg)
{
	struct isc_value a;
	switch (n->kind) {
	case N_NUM: return num_value(n->num);
	case N_STR: return (struct isc_value){ .is_str = true, .str = n->str };
	case N_VAR: return get(arg, n->var);
	case N_NOT: return num_value(!truthy(eval(n->t[0].n, get, arg)));
	case N_EMPTY: return num_value(no_value(eval(n->t[0].n, get, arg)));
	case N_NONEMPTY: return num_value(!no_value(eval(n->t[0].n, get, arg)));
	case N_AND:
	case N_OR: return eval_logic(n, get, arg);
	case N_ARITH: return eval_arith(n, get, arg);
	case N_NEG:
		a = eval(n->t[0].n, get, arg);
		return num_value(a.is_str ? NAN : -a.num);
	default:
		return compare(n->kind, eval(n->t[0].n, get, arg), eval(n->t[1].n, get, arg));
	}
}

struct isc_value isc_expr_eval(const struct isc_expr *e, isc_expr_getter get, void *arg)
{
	return eval(e->root, get, arg);
}

bool isc_expr_truthy(struct isc_value v)
{
	return truthy(v);
}
