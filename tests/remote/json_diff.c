/* SPDX-License-Identifier: GPL-2.0-only */
/* json_diff: one side of the differential test of collect-deploy's cJSON API
 * (collect/remote/json/) against Debian's libcjson: this file is built twice, once with each,
 * and tests/remote/json_diff.sh compares what the two write.
 *   json_diff dump FILE        each parse entry point's result as canonical lines (or "error")
 *   json_diff print FILE fmt|unfmt   FILE parsed, then cJSON_Print / cJSON_PrintUnformatted
 *   json_diff build DIR        a tree built through the API: DIR/build.dump, build.fmt.json,
 *                              build.unfmt.json, and the API's answers in build.dump
 * Canonical lines: type, key and value bytes (non-printable as \xHH), numbers as %a with the
 * sign of zero and valueint, so that equal text means equal trees. */
#include <float.h>
#include <limits.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

static void bytes(FILE *o, const char *s)
{
	if (!s) {
		fputs("(none)", o);
		return;
	}
	fputc('<', o);
	for (const unsigned char *c = (const unsigned char *)s; *c; c++)
		if (*c >= 0x21 && *c < 0x7f && *c != '\\' && *c != '>')
			fputc(*c, o);
		else
			fprintf(o, "\\x%02x", *c);
	fputc('>', o);
}

static void dump(FILE *o, const cJSON *j, int depth)
{
	static const char *names[] = { "false", "true", "null", "number", "string", "array", "object", "raw" };
	int t = j->type & 0xff, k = 0;
	while (k < 8 && t != 1 << k)
		k++;
	fprintf(o, "%*s%s ", 2 * depth, "", k < 8 ? names[k] : "invalid");
	bytes(o, j->string);
	if (t == cJSON_Number)
		fprintf(o, " %a%s int %d", j->valuedouble, signbit(j->valuedouble) && j->valuedouble == 0 ? "(-0)" : "",
			j->valueint);
	if (t == cJSON_String || t == cJSON_Raw) {
		fputc(' ', o);
		bytes(o, j->valuestring);
	}
	if (t == cJSON_Array || t == cJSON_Object)
		fprintf(o, " size %d", cJSON_GetArraySize(j));
	fputc('\n', o);
	const cJSON *c;
	cJSON_ArrayForEach(c, j)
		dump(o, c, depth + 1);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(2);
	}
	char *buf = NULL;
	size_t cap = 0, n = 0, r;
	do {
		if (n + 4096 + 1 > cap)
			buf = realloc(buf, cap = 2 * (n + 4096 + 1));
		r = fread(buf + n, 1, 4096, f);
		n += r;
	} while (r > 0);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static void dump_result(const char *what, cJSON *j)
{
	printf("== %s\n", what);
	if (j)
		dump(stdout, j, 0);
	else
		printf("error\n");
	cJSON_Delete(j);
}

static int cmd_dump(const char *path)
{
	size_t len;
	const char *end = NULL;
	char *buf = slurp(path, &len);
	dump_result("ParseWithLengthOpts(+NUL, require NUL)", cJSON_ParseWithLengthOpts(buf, len + 1, &end, 1));
	dump_result("ParseWithLength", cJSON_ParseWithLength(buf, len));
	dump_result("Parse", cJSON_Parse(buf));
	free(buf);
	return 0;
}

static int cmd_print(const char *path, const char *how)
{
	size_t len;
	char *buf = slurp(path, &len);
	cJSON *j = cJSON_ParseWithLength(buf, len);
	char *text = !j ? NULL : strcmp(how, "fmt") ? cJSON_PrintUnformatted(j) : cJSON_Print(j);
	free(buf);
	cJSON_Delete(j);
	if (!text) {
		fprintf(stderr, "json_diff: %s: not parsed or not printed\n", path);
		return 1;
	}
	fputs(text, stdout);
	free(text);
	return 0;
}

/* numbers whose text must read back to the same bits (no NaN or infinities: those are null) */
static const double numbers[] = {
	0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 1.0 / 3, 2.0 / 3, 0.1 + 0.2, 1e308, -1e308, DBL_MAX, -DBL_MAX,
	5e-324, -5e-324, 2.2250738585072014e-308, 2.2250738585072009e-308, DBL_EPSILON, 1e-7, 123456.789,
	9007199254740992.0, 9007199254740991.0, -9007199254740992.0, 9007199254740993.0, 1e17, 1e16 + 2,
	123456789012345678.0, 2147483647.0, 2147483648.0, -2147483648.0, -2147483649.0, 4294967296.5,
	1e21, 1e22, 1e23, 299792458.0, 6.02214076e23, 1.602176634e-19, 3.141592653589793, 2.718281828459045,
	0.30000000000000004, 1.7976931348623157e308, 4.9406564584124654e-324, 1e-320, 100.0, 1e15 + 0.3,
};

static const char *strings[] = {
	"", "plain", "quote \" backslash \\ slash /", "\b\f\n\r\t", "\x01\x02\x1f\x7f", "tab\there",
	"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", "\xef\xbb\xbf" "bom",
	"a\x1b[31mred\x1b[0m", "</script>", "line1\nline2\r\n",
};

static void build_tree(cJSON *root)
{
	cJSON *nums = cJSON_AddArrayToObject(root, "numbers");
	for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++)
		cJSON_AddItemToArray(nums, cJSON_CreateNumber(numbers[i]));
	cJSON *strs = cJSON_AddObjectToObject(root, "strings");
	for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
		char key[32];
		snprintf(key, sizeof(key), "s%zu \xc3\xa9\t", i);
		cJSON_AddStringToObject(strs, key, strings[i]);
	}
	cJSON_AddNumberToObject(root, "answer", 42);
	cJSON_AddBoolToObject(root, "yes", 1);
	cJSON_AddBoolToObject(root, "no", 0);
	cJSON_AddNullToObject(root, "nothing");
	cJSON_AddItemToObject(root, "t", cJSON_CreateBool(5));
	cJSON_AddItemToObject(root, "null2", cJSON_CreateNull());
	cJSON_AddObjectToObject(root, "empty_object");
	cJSON_AddArrayToObject(root, "empty_array");
	cJSON *nested = cJSON_AddObjectToObject(cJSON_AddObjectToObject(root, "a"), "b");
	cJSON_AddItemToObject(nested, "c", cJSON_CreateArray());
	cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(nested, "c"), cJSON_CreateObject());
	cJSON_AddItemToObject(root, "dup", cJSON_CreateNumber(1));
	cJSON_AddItemToObject(root, "dup", cJSON_CreateNumber(2));
	cJSON_AddItemToObject(root, "Case", cJSON_CreateString("upper"));
	/* replacements (first, middle, last child), detaching, copies */
	cJSON_ReplaceItemInObjectCaseSensitive(root, "numbers", cJSON_Duplicate(nums, 1));
	cJSON_ReplaceItemInObject(root, "case", cJSON_CreateString("replaced by a case-blind key"));
	cJSON_ReplaceItemInObjectCaseSensitive(root, "answer", cJSON_CreateNumber(-0.0));
	cJSON_Delete(cJSON_DetachItemFromObjectCaseSensitive(root, "null2"));
	cJSON *moved = cJSON_DetachItemFromObjectCaseSensitive(root, "yes");
	cJSON_AddItemToObject(root, "yes_moved", moved);
	cJSON_AddItemToObject(root, "copy_of_a", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(root, "a"), 1));
	cJSON_AddItemToObject(root, "shallow_a", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(root, "a"), 0));
}

/* what the queries say about the tree */
static void answers(FILE *o, cJSON *root)
{
	const char *keys[] = { "numbers", "NUMBERS", "yes", "yes_moved", "dup", "nothing", "missing", "Case", "case" };
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		cJSON *cs = cJSON_GetObjectItemCaseSensitive(root, keys[i]);
		fprintf(o, "key %s: has %d, case-sensitive %s", keys[i], cJSON_HasObjectItem(root, keys[i]),
			cs ? "found" : "none");
		fprintf(o, ", string %d number %d bool %d true %d false %d null %d array %d object %d raw %d",
			cJSON_IsString(cs), cJSON_IsNumber(cs), cJSON_IsBool(cs), cJSON_IsTrue(cs), cJSON_IsFalse(cs),
			cJSON_IsNull(cs), cJSON_IsArray(cs), cJSON_IsObject(cs), cJSON_IsRaw(cs));
		fprintf(o, ", value %s\n", cJSON_GetStringValue(cs) ? cJSON_GetStringValue(cs) : "(not a string)");
	}
	/* lib/ is compiled once against Debian's header and linked into collect-deploy too: the
	 * layout and the type numbers must be the same */
	fprintf(o, "layout: size %zu next %zu prev %zu child %zu type %zu valuestring %zu valueint %zu "
		"valuedouble %zu string %zu\n", sizeof(cJSON), offsetof(cJSON, next), offsetof(cJSON, prev),
		offsetof(cJSON, child), offsetof(cJSON, type), offsetof(cJSON, valuestring),
		offsetof(cJSON, valueint), offsetof(cJSON, valuedouble), offsetof(cJSON, string));
	fprintf(o, "types: %d %d %d %d %d %d %d %d %d %d %d, bool %zu\n", cJSON_Invalid, cJSON_False, cJSON_True,
		cJSON_NULL, cJSON_Number, cJSON_String, cJSON_Array, cJSON_Object, cJSON_Raw, cJSON_IsReference,
		cJSON_StringIsConst, sizeof(cJSON_bool));
	fprintf(o, "replace missing: %d\n", cJSON_ReplaceItemInObject(root, "missing", NULL));
	fprintf(o, "add to NULL: %d\n", cJSON_AddItemToObject(NULL, "x", NULL));
	fprintf(o, "create NULL string: %s\n", cJSON_CreateString(NULL) ? "item" : "NULL");
	cJSON *raw = cJSON_CreateRaw("1.25e-3");
	char *t = cJSON_PrintUnformatted(raw);
	fprintf(o, "raw: %s is raw %d\n", t, cJSON_IsRaw(raw));
	free(t);
	cJSON_Delete(raw);
	cJSON *big = cJSON_CreateNumber(1e300), *neg = cJSON_CreateNumber(-1e300);
	fprintf(o, "valueint saturates: %d %d\n", big->valueint, neg->valueint);
	cJSON_Delete(big);
	cJSON_Delete(neg);
	cJSON *nan = cJSON_CreateArray();
	cJSON_AddItemToArray(nan, cJSON_CreateNumber(INFINITY));
	cJSON_AddItemToArray(nan, cJSON_CreateNumber(-INFINITY));
	t = cJSON_PrintUnformatted(nan);
	fprintf(o, "infinities: %s\n", t);
	free(t);
	cJSON_Delete(nan);
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(path);
		exit(2);
	}
}

static int cmd_build(const char *dir)
{
	cJSON *root = cJSON_CreateObject();
	build_tree(root);
	char path[4096];
	snprintf(path, sizeof(path), "%s/build.dump", dir);
	FILE *o = fopen(path, "w");
	if (!o) {
		perror(path);
		return 2;
	}
	dump(o, root, 0);
	fclose(o);
	snprintf(path, sizeof(path), "%s/build.answers", dir);
	o = fopen(path, "w");
	answers(o, root);
	fclose(o);
	char *fmt = cJSON_Print(root), *unfmt = cJSON_PrintUnformatted(root);
	write_file(dir, "build.fmt.json", fmt);
	write_file(dir, "build.unfmt.json", unfmt);
	free(fmt);
	free(unfmt);
	cJSON_Delete(root);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "dump"))
		return cmd_dump(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "print"))
		return cmd_print(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "build"))
		return cmd_build(argv[2]);
	fprintf(stderr, "usage: json_diff dump FILE | print FILE fmt|unfmt | build DIR\n");
	return 2;
}
