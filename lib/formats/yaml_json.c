/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * YAML (wult's info.yml) to a cJSON tree, built from libyaml's event stream. The limits
 * (ISC_META_MAX_DEPTH levels, ISC_META_MAX_NODES nodes with aliases expanded) are checked at
 * each event, so a hostile file stops the parser there: loading the whole document first
 * let 100,000 nested '[' keep libyaml's scanner busy for a minute.
 */
#include <stdio.h>
#include <string.h>
#include <yaml.h>

#include "formats/yaml_json.h"
#include "table/numparse.h"
#include "table/strpool.h"
#include "text/util.h"

struct frame {
	cJSON *node;        /* the open mapping or sequence */
	char *key;          /* a mapping's key waiting for its value (NULL: next scalar is a key) */
	char *anchor;       /* the container's own anchor, if any */
	size_t nodes_at;    /* nodes counted before it started */
	int height;         /* levels below it so far */
};

struct anchor {
	cJSON *copy;        /* the anchored node as it was completed */
	size_t nodes;       /* nodes in it */
	int height;
};

struct yconv {
	const char *path;
	struct frame stack[ISC_META_MAX_DEPTH + 1];
	int depth;          /* open containers */
	size_t nodes;
	struct strpool names;   /* anchor names -> ids into anchors */
	struct anchor *anchors;
	cJSON *root;
	int nul_warned;
	char *err;
	size_t errlen;
};

static int yfail(struct yconv *c, const yaml_mark_t *m, const char *what)
{
	snprintf(c->err, c->errlen, "%s:%zu:%zu: %s", c->path, m->line + 1, m->column + 1, what);
	return -1;
}

/* A scalar's text; NUL bytes ("\0" in a double-quoted scalar) become U+FFFD with a warning,
 * instead of silently ending the string there. */
static char *scalar_text(struct yconv *c, const yaml_event_t *e)
{
	const char *s = (const char *)e->data.scalar.value;
	size_t len = e->data.scalar.length, nul = 0;
	for (size_t i = 0; i < len; i++)
		nul += s[i] == '\0';
	if (!nul)
		return isc_xstrndup(s, len);
	char *out = isc_xmalloc(len + 2 * nul + 1), *o = out;
	for (size_t i = 0; i < len; i++) {
		if (s[i]) {
			*o++ = s[i];
		} else {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
		}
	}
	*o = '\0';
	if (!c->nul_warned++)
		isc_warn("%s:%zu:%zu: NUL character in a string replaced by U+FFFD", c->path,
			e->start_mark.line + 1, e->start_mark.column + 1);
	return out;
}

static cJSON *scalar_value(const yaml_event_t *e, const char *s)
{
	size_t len = e->data.scalar.length;
	double d;
	if (e->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
		if (isc_parse_double(s, len, &d))
			return cJSON_CreateNumber(d);
		if (!strcmp(s, "true") || !strcmp(s, "false"))
			return cJSON_CreateBool(s[0] == 't');
		if (!strcmp(s, "null") || !strcmp(s, "~") || len == 0)
			return cJSON_CreateNull();
	}
	return cJSON_CreateString(s);
}

/* Count one node (or an alias's n) at level `level` with `height` levels below it. */
static int admit(struct yconv *c, const yaml_mark_t *m, size_t n, int height)
{
	char what[96];
	if (c->depth + height > ISC_META_MAX_DEPTH) {
		snprintf(what, sizeof(what), "more than %d levels of nesting", ISC_META_MAX_DEPTH);
		return yfail(c, m, what);
	}
	if (n > ISC_META_MAX_NODES - c->nodes) {
		snprintf(what, sizeof(what), "more than %d nodes (with aliases expanded)", ISC_META_MAX_NODES);
		return yfail(c, m, what);
	}
	c->nodes += n;
	if (c->depth)
		for (int i = c->depth - 1, h = height + 1; i >= 0 && c->stack[i].height < h; i--, h++)
			c->stack[i].height = h;
	return 0;
}

static struct anchor *anchor_slot(struct yconv *c, const char *name)
{
	size_t had = c->names.n;
	uint32_t id = strpool_intern(&c->names, name, strlen(name));
	if (c->names.n != had) {
		c->anchors = isc_xrealloc(c->anchors, c->names.n * sizeof(*c->anchors));
		c->anchors[id].copy = NULL;
	}
	return &c->anchors[id];
}

/* An anchored node is kept as a copy for its aliases; the copy counts as nodes too, so that
 * nested anchors cannot multiply memory past the limit. */
static int remember(struct yconv *c, const yaml_mark_t *m, const char *name, const cJSON *node,
		    size_t nodes, int height)
{
	struct anchor *a = anchor_slot(c, name);
	int depth = c->depth;
	c->depth = 0;  /* only the count matters here */
	int rc = admit(c, m, nodes, 0);
	c->depth = depth;
	if (rc < 0)
		return -1;
	cJSON_Delete(a->copy);
	*a = (struct anchor){ cJSON_Duplicate(node, 1), nodes, height };
	return 0;
}

/* A completed node goes into the open container: a mapping's key (text only; another kind
 * of key becomes "?", as wult never writes one) or value, or a sequence's item. */
static int attach(struct yconv *c, cJSON *item, const char *key_text)
{
	if (!c->depth) {
		c->root = item;
		return 0;
	}
	struct frame *f = &c->stack[c->depth - 1];
	if (cJSON_IsArray(f->node)) {
		cJSON_AddItemToArray(f->node, item);
	} else if (!f->key) {
		f->key = isc_xstrdup(key_text ? key_text : "?");
		cJSON_Delete(item);
	} else {
		cJSON_AddItemToObject(f->node, f->key, item);
		free(f->key);
		f->key = NULL;
	}
	return 0;
}

static int on_scalar(struct yconv *c, const yaml_event_t *e)
{
	if (admit(c, &e->start_mark, 1, 0) < 0)
		return -1;
	char *s = scalar_text(c, e);
	cJSON *v = scalar_value(e, s);
	int rc = 0;
	if (e->data.scalar.anchor)
		rc = remember(c, &e->start_mark, (const char *)e->data.scalar.anchor, v, 1, 0);
	attach(c, v, s);
	free(s);
	return rc;
}

static int on_alias(struct yconv *c, const yaml_event_t *e)
{
	const struct anchor *a = anchor_slot(c, (const char *)e->data.alias.anchor);
	if (!a->copy)
		return yfail(c, &e->start_mark, "alias to an unknown or unfinished anchor");
	if (admit(c, &e->start_mark, a->nodes, a->height) < 0)
		return -1;
	return attach(c, cJSON_Duplicate(a->copy, 1), cJSON_IsString(a->copy) ? a->copy->valuestring : NULL);
}

static int on_start(struct yconv *c, const yaml_event_t *e, int mapping)
{
	const yaml_char_t *anchor = mapping ? e->data.mapping_start.anchor : e->data.sequence_start.anchor;
	if (admit(c, &e->start_mark, 1, 0) < 0)  /* at most ISC_META_MAX_DEPTH open below the root */
		return -1;
	struct frame *f = &c->stack[c->depth++];
	*f = (struct frame){ .node = mapping ? cJSON_CreateObject() : cJSON_CreateArray(),
			     .anchor = anchor ? isc_xstrdup((const char *)anchor) : NULL,
			     .nodes_at = c->nodes - 1 };
	return 0;
}

static int on_end(struct yconv *c, const yaml_event_t *e)
{
	struct frame f = c->stack[--c->depth];
	int rc = f.anchor ? remember(c, &e->start_mark, f.anchor, f.node, c->nodes - f.nodes_at, f.height) : 0;
	free(f.anchor);
	free(f.key);
	attach(c, f.node, NULL);
	return rc;
}

static void yconv_free(struct yconv *c)
{
	while (c->depth) {
		struct frame *f = &c->stack[--c->depth];
		cJSON_Delete(f->node);
		free(f->key);
		free(f->anchor);
	}
	for (size_t i = 0; i < c->names.n; i++)
		cJSON_Delete(c->anchors[i].copy);
	free(c->anchors);
	strpool_free(&c->names);
}

/* One event; 1 at the end of the first document, -1 on error. */
static int on_event(struct yconv *c, const yaml_event_t *e)
{
	switch (e->type) {
	case YAML_SCALAR_EVENT:
		return on_scalar(c, e);
	case YAML_ALIAS_EVENT:
		return on_alias(c, e);
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		return on_start(c, e, e->type == YAML_MAPPING_START_EVENT);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		return on_end(c, e);
	case YAML_DOCUMENT_END_EVENT:
	case YAML_STREAM_END_EVENT:
		return 1;
	default:
		return 0;
	}
}

static int parse_events(struct yconv *c, yaml_parser_t *parser)
{
	yaml_event_t e;
	int rc = 0;
	while (rc == 0) {
		if (!yaml_parser_parse(parser, &e))
			return yfail(c, &parser->problem_mark, parser->problem ? parser->problem : "YAML error");
		rc = on_event(c, &e);
		yaml_event_delete(&e);
	}
	return rc < 0 ? -1 : 0;
}

cJSON *isc_yaml_load(const char *path, char *err, size_t errlen)
{
	yaml_parser_t parser;
	size_t len;
	struct yconv c = { .path = path, .err = err, .errlen = errlen };
	char *buf = isc_read_regular_file(path, ISC_META_MAX_BYTES, &len, err, errlen);
	if (!buf)
		return NULL;
	strpool_init(&c.names);
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	int rc = parse_events(&c, &parser);
	if (rc == 0 && !cJSON_IsObject(c.root))
		snprintf(err, errlen, "%s: not a YAML mapping", path);
	if (rc < 0 || !cJSON_IsObject(c.root)) {
		cJSON_Delete(c.root);
		c.root = NULL;
	}
	yconv_free(&c);
	yaml_parser_delete(&parser);
	free(buf);
	return c.root;
}
