/* The expression language of expr.h: a tokenizer, a recursive-descent parser, an evaluator. */
#include "idlescope/expr.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "idlescope/numparse.h"
#include "idlescope/util.h"

enum node_kind { N_NUM, N_STR, N_VAR, N_NEG, N_NOT, N_AND, N_OR, N_ADD, N_SUB, N_MUL, N_DIV,
		 N_LT, N_LE, N_GT, N_GE, N_EQ, N_NE };

struct node {
	enum node_kind kind;
	double num;
	char *str;
	size_t var;
	struct node *l, *r;
};

struct is_expr {
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
	struct is_expr *e;
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
	p->text = is_xstrndup(p->src + start, i - start);
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
	if (!is_parse_double(p->src + start, i - start, &p->num))
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
		p->text = is_xstrndup(p->src + start, i - start);
		p->next = i;
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

static struct node *mk(enum node_kind kind, struct node *l, struct node *r)
{
	struct node *n = is_xcalloc(1, sizeof(*n));
	n->kind = kind;
	n->l = l;
	n->r = r;
	return n;
}

static void node_free(struct node *n)
{
	if (!n)
		return;
	node_free(n->l);
	node_free(n->r);
	free(n->str);
	free(n);
}

static size_t var_index(struct is_expr *e, const char *name)
{
	for (size_t i = 0; i < e->nvars; i++)
		if (strcmp(e->vars[i], name) == 0)
			return i;
	e->vars = is_xrealloc(e->vars, (e->nvars + 1) * sizeof(*e->vars));
	e->vars[e->nvars] = is_xstrdup(name);
	return e->nvars++;
}

static struct node *parse_or(struct parser *p);

static struct node *parse_atom(struct parser *p)
{
	struct node *n;
	if (p->failed)
		return NULL;
	switch (p->tok) {
	case T_NUM:
		n = mk(N_NUM, NULL, NULL);
		n->num = p->num;
		lex(p);
		return n;
	case T_STR:
		n = mk(N_STR, NULL, NULL);
		n->str = is_xstrdup(p->text);
		lex(p);
		return n;
	case T_NAME:
		if (is_kw(p, "and") || is_kw(p, "or") || is_kw(p, "not"))
			break;
		n = mk(N_VAR, NULL, NULL);
		n->var = var_index(p->e, p->text);
		lex(p);
		return n;
	case T_OP:
		if (!is_op(p, "("))
			break;
		lex(p);
		n = parse_or(p);
		if (!p->failed && !is_op(p, ")")) {
			fail(p, "expected ')'");
		}
		if (!p->failed)
			lex(p);
		return n;
	case T_END:
		fail(p, "unexpected end of expression");
		return NULL;
	}
	char msg[96];
	snprintf(msg, sizeof(msg), "expected a number, string, column name or '(', got '%.40s'",
		 p->tok == T_OP ? p->op : p->text);
	fail(p, msg);
	return NULL;
}

static struct node *parse_unary(struct parser *p)
{
	if (!p->failed && is_op(p, "-")) {
		lex(p);
		return mk(N_NEG, parse_unary(p), NULL);
	}
	return parse_atom(p);
}

/* One left-associative binary level: ops[i] maps to kinds[i]. */
static struct node *parse_level(struct parser *p, struct node *(*sub)(struct parser *),
				const char *const *ops, const enum node_kind *kinds, size_t nops)
{
	struct node *l = sub(p);
	for (;;) {
		size_t i = 0;
		while (!p->failed && i < nops && !is_op(p, ops[i]))
			i++;
		if (p->failed || i == nops)
			return l;
		lex(p);
		l = mk(kinds[i], l, sub(p));
	}
}

static struct node *parse_prod(struct parser *p)
{
	static const char *const ops[] = { "*", "/" };
	static const enum node_kind kinds[] = { N_MUL, N_DIV };
	return parse_level(p, parse_unary, ops, kinds, 2);
}

static struct node *parse_sum(struct parser *p)
{
	static const char *const ops[] = { "+", "-" };
	static const enum node_kind kinds[] = { N_ADD, N_SUB };
	return parse_level(p, parse_prod, ops, kinds, 2);
}

static struct node *parse_cmp(struct parser *p)
{
	static const char *const ops[] = { "<=", ">=", "==", "!=", "<", ">" };
	static const enum node_kind kinds[] = { N_LE, N_GE, N_EQ, N_NE, N_LT, N_GT };
	struct node *l = parse_sum(p);
	for (size_t i = 0; !p->failed && i < 6; i++) {
		if (is_op(p, ops[i])) {
			lex(p);
			return mk(kinds[i], l, parse_sum(p));
		}
	}
	return l;
}

static struct node *parse_not(struct parser *p)
{
	if (!p->failed && is_kw(p, "not")) {
		lex(p);
		return mk(N_NOT, parse_not(p), NULL);
	}
	return parse_cmp(p);
}

static struct node *parse_and(struct parser *p)
{
	struct node *l = parse_not(p);
	while (!p->failed && is_kw(p, "and")) {
		lex(p);
		l = mk(N_AND, l, parse_not(p));
	}
	return l;
}

static struct node *parse_or(struct parser *p)
{
	struct node *l = parse_and(p);
	while (!p->failed && is_kw(p, "or")) {
		lex(p);
		l = mk(N_OR, l, parse_and(p));
	}
	return l;
}

struct is_expr *is_expr_parse(const char *src, char *err, size_t errlen)
{
	struct is_expr *e = is_xcalloc(1, sizeof(*e));
	struct parser p = { .src = src, .err = err, .errlen = errlen, .e = e };
	lex(&p);
	e->root = parse_or(&p);
	if (!p.failed && p.tok != T_END) {
		char msg[96];
		snprintf(msg, sizeof(msg), "unexpected '%.40s'", p.tok == T_OP ? p.op : p.text ? p.text : "?");
		fail(&p, msg);
	}
	free(p.text);
	if (p.failed) {
		is_expr_free(e);
		return NULL;
	}
	return e;
}

void is_expr_free(struct is_expr *e)
{
	if (!e)
		return;
	node_free(e->root);
	for (size_t i = 0; i < e->nvars; i++)
		free(e->vars[i]);
	free(e->vars);
	free(e);
}

size_t is_expr_nvars(const struct is_expr *e) { return e->nvars; }
const char *is_expr_var(const struct is_expr *e, size_t i) { return e->vars[i]; }

static struct is_value num_value(double d) { return (struct is_value){ .num = d }; }

static int truthy(struct is_value v)
{
	return v.is_str ? v.str && *v.str : (!isnan(v.num) && v.num != 0);
}

static struct is_value compare(enum node_kind k, struct is_value a, struct is_value b)
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

static struct is_value eval(const struct node *n, is_expr_getter get, void *arg)
{
	struct is_value a, b;
	switch (n->kind) {
	case N_NUM: return num_value(n->num);
	case N_STR: return (struct is_value){ .is_str = true, .str = n->str };
	case N_VAR: return get(arg, n->var);
	case N_NOT: return num_value(!truthy(eval(n->l, get, arg)));
	case N_AND: return num_value(truthy(eval(n->l, get, arg)) && truthy(eval(n->r, get, arg)));
	case N_OR: return num_value(truthy(eval(n->l, get, arg)) || truthy(eval(n->r, get, arg)));
	case N_NEG:
		a = eval(n->l, get, arg);
		return num_value(a.is_str ? NAN : -a.num);
	default:
		break;
	}
	a = eval(n->l, get, arg);
	b = eval(n->r, get, arg);
	if (n->kind >= N_LT)
		return compare(n->kind, a, b);
	if (a.is_str || b.is_str)
		return num_value(NAN);
	switch (n->kind) {
	case N_ADD: return num_value(a.num + b.num);
	case N_SUB: return num_value(a.num - b.num);
	case N_MUL: return num_value(a.num * b.num);
	default: return num_value(a.num / b.num);
	}
}

struct is_value is_expr_eval(const struct is_expr *e, is_expr_getter get, void *arg)
{
	return eval(e->root, get, arg);
}

bool is_expr_truthy(struct is_value v)
{
	return truthy(v);
}
