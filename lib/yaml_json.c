/* YAML (wult's info.yml) to a cJSON tree, with libyaml's document loader. */
#include <stdio.h>
#include <string.h>
#include <yaml.h>

#include "idlescope/numparse.h"
#include "idlescope/run.h"
#include "idlescope/util.h"

static cJSON *scalar_to_json(const yaml_node_t *n)
{
	const char *s = (const char *)n->data.scalar.value;
	size_t len = n->data.scalar.length;
	double d;
	if (n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
		if (is_parse_double(s, len, &d))
			return cJSON_CreateNumber(d);
		if (!strcmp(s, "true") || !strcmp(s, "false"))
			return cJSON_CreateBool(s[0] == 't');
		if (!strcmp(s, "null") || !strcmp(s, "~") || len == 0)
			return cJSON_CreateNull();
	}
	return cJSON_CreateString(s);
}

/* Aliases let a small file stand for a huge tree ("billion laughs"): the conversion stops
 * after this many nodes, or this deep, and the file is treated as unreadable. */
#define MAX_NODES 1000000
#define MAX_DEPTH 64

struct conv {
	yaml_document_t *doc;
	size_t nodes;
	int over;
};

static cJSON *node_to_json(struct conv *c, yaml_node_t *n, int depth)
{
	cJSON *j;
	if (++c->nodes > MAX_NODES || depth > MAX_DEPTH)
		c->over = 1;
	if (!n || c->over)
		return cJSON_CreateNull();
	switch (n->type) {
	case YAML_SCALAR_NODE:
		return scalar_to_json(n);
	case YAML_SEQUENCE_NODE:
		j = cJSON_CreateArray();
		for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top && !c->over; it++)
			cJSON_AddItemToArray(j, node_to_json(c, yaml_document_get_node(c->doc, *it), depth + 1));
		return j;
	case YAML_MAPPING_NODE:
		j = cJSON_CreateObject();
		for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top && !c->over; p++) {
			yaml_node_t *k = yaml_document_get_node(c->doc, p->key);
			const char *key = k && k->type == YAML_SCALAR_NODE ? (const char *)k->data.scalar.value : "?";
			cJSON_AddItemToObject(j, key, node_to_json(c, yaml_document_get_node(c->doc, p->value), depth + 1));
		}
		return j;
	default:
		return cJSON_CreateNull();
	}
}

cJSON *is_yaml_load(const char *path, char *err, size_t errlen)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	cJSON *out = NULL;
	size_t len;
	char *buf = is_read_regular_file(path, 16u << 20, &len, err, errlen);
	if (!buf)
		return NULL;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	if (!yaml_parser_load(&parser, &doc)) {
		snprintf(err, errlen, "%s:%zu:%zu: %s", path, parser.problem_mark.line + 1,
			 parser.problem_mark.column + 1, parser.problem ? parser.problem : "YAML error");
	} else {
		yaml_node_t *root = yaml_document_get_root_node(&doc);
		struct conv c = { .doc = &doc };
		if (root && root->type == YAML_MAPPING_NODE)
			out = node_to_json(&c, root, 0);
		else
			snprintf(err, errlen, "%s: not a YAML mapping", path);
		if (c.over) {
			snprintf(err, errlen, "%s: more than %d levels or %d nodes (with aliases expanded)",
				 path, MAX_DEPTH, MAX_NODES);
			cJSON_Delete(out);
			out = NULL;
		}
		yaml_document_delete(&doc);
	}
	yaml_parser_delete(&parser);
	free(buf);
	return out;
}
