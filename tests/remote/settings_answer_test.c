/* SPDX-License-Identifier: GPL-2.0-only */
/* The controller's side of collect -H --list-settings (collect/remote/settings_answer.c,
 * settings_table.c) without ssh: a SUT's answer taken field by field, each bad one refused
 * with its reason, and the table across three hosts exactly as printed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "settings_remote.h"

static const char *parse_error(const char *text)
{
	static char why[300];
	struct settings_answer a;
	why[0] = '\0';
	if (settings_answer_parse(text, strlen(text), &a, why, sizeof(why)) == 0) {
		settings_answer_free(&a);
		return "(taken)";
	}
	CHECK(a.n == 0 && !a.output && !a.names);
	return why;
}

#define HEAD "{\"format\":1,\"status\":0,\"output\":\"x\",\"output_cut\":false,"

static void bad_answers(void)
{
	CHECK_STR(parse_error("[1]"), "not a JSON object");
	CHECK_STR(parse_error("{\"format\":1"), "not a JSON object");
	CHECK_STR(parse_error("{\"format\":2,\"status\":0,\"output\":\"\",\"output_cut\":false,\"settings\":{}}"), "not format 1");
	CHECK_STR(parse_error("{\"format\":1,\"status\":256,\"output\":\"\",\"output_cut\":false,\"settings\":{}}"),
		  "no exit status from 0 to 255");
	CHECK_STR(parse_error("{\"format\":1,\"status\":1.5,\"output\":\"\",\"output_cut\":false,\"settings\":{}}"),
		  "no exit status from 0 to 255");
	CHECK_STR(parse_error("{\"format\":1,\"status\":0,\"output\":7,\"output_cut\":false,\"settings\":{}}"),
		  "no output text of at most 128 KiB");
	CHECK_STR(parse_error("{\"format\":1,\"status\":0,\"output\":\"\",\"output_cut\":0,\"settings\":{}}"),
		  "no \"output_cut\" true or false");
	CHECK_STR(parse_error(HEAD "\"settings\":[]}"), "no \"settings\" object");
	CHECK_STR(parse_error(HEAD "\"settings\":{\"turbo\":1}}"), "a value that is not a string");
	CHECK_STR(parse_error(HEAD "\"settings\":{\"tur bo\":\"on\"}}"), "a setting name that is empty or has a blank");
	CHECK_STR(parse_error(HEAD "\"settings\":{\"\":\"on\"}}"), "a setting name that is empty or has a blank");
	CHECK_STR(parse_error(HEAD "\"settings\":{\"turbo\":\"o\\u001b[2Jn\"}}"),
		  "a value with a control character (\\x1b) at byte 2");
	CHECK_STR(parse_error(HEAD "\"settings\":{\"turbo\":\"on\",\"turbo\":\"off\"}}"), "setting 'turbo' given twice");
	char *long_name = malloc(SETTING_NAME_MAX + 200);
	snprintf(long_name, SETTING_NAME_MAX + 200, HEAD "\"settings\":{\"%0*d\":\"on\"}}", SETTING_NAME_MAX + 1, 0);
	CHECK_STR(parse_error(long_name), "a setting name longer than 128 bytes");
	free(long_name);
	/* more settings than an answer may have */
	size_t cap = 64 + (SETTINGS_MAX + 1) * 16, k;
	char *many = malloc(cap);
	k = (size_t)snprintf(many, cap, HEAD "\"settings\":{");
	for (int i = 0; i <= SETTINGS_MAX; i++)
		k += (size_t)snprintf(many + k, cap - k, "%s\"s%d\":\"v\"", i ? "," : "", i);
	snprintf(many + k, cap - k, "}}");
	CHECK_STR(parse_error(many), "more than 1024 settings");
	free(many);
}

static void good_answer(void)
{
	const char *text = "{\"format\":1,\"status\":2,\"output\":\"a\\nb\",\"output_cut\":true,"
			   "\"settings\":{\"turbo\":\"on\",\"aspm@0000:00:1c.0\":\"off\"}}\n";
	struct settings_answer a;
	char why[200];
	CHECK(settings_answer_parse(text, strlen(text), &a, why, sizeof(why)) == 0);
	CHECK(a.status == 2 && a.output_cut && a.n == 2);
	CHECK_STR(a.output, "a\nb");
	CHECK_STR(settings_answer_value(&a, "aspm@0000:00:1c.0"), "off");
	CHECK(settings_answer_value(&a, "freq") == NULL);
	settings_answer_free(&a);
}

static void add(struct host_answer *h, const char *host, const char *const *kv, size_t n)
{
	*h = (struct host_answer){ .host = host, .answered = true };
	h->a.names = calloc(n + 1, sizeof(char *));
	h->a.values = calloc(n + 1, sizeof(char *));
	h->a.output = strdup("");
	for (size_t i = 0; i < n; i++) {
		h->a.names[i] = strdup(kv[2 * i]);
		h->a.values[i] = strdup(kv[2 * i + 1]);
	}
	h->a.n = n;
}

static char *table(const struct host_answer *h, size_t n, const char *const *names, size_t nnames)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	settings_table_print(f, h, n, names, nnames);
	fclose(f);
	return buf;
}

static void three_hosts(void)
{
	struct host_answer h[4];
	const char *a[] = { "cstates", "all", "turbo", "on", "epb", "normal" };
	const char *b[] = { "cstates", "all", "turbo", "off" };
	const char *c[] = { "turbo", "on", "cstates", "all", "uncore-max", "2.4GHz" };
	add(&h[0], "sut1", a, 3);
	add(&h[1], "longer-host", b, 2);
	h[2] = (struct host_answer){ .host = "down", .status = 1 };   /* no answer: no column */
	add(&h[3], "sut3", c, 3);
	char *t = table(h, 4, NULL, 0);
	CHECK_STR(t, "Settings by host (*: the hosts differ; -: the host does not have it):\n"
		     "   setting     sut1    longer-host  sut3\n"
		     "   cstates     all     all          all\n"
		     "*  turbo       on      off          on\n"
		     "*  epb         normal  -            -\n"
		     "*  uncore-max  -       -            2.4GHz\n"
		     "Only on some hosts:\n"
		     "  epb: on sut1; not on longer-host, sut3\n"
		     "  uncore-max: on sut3; not on sut1, longer-host\n");
	free(t);
	const char *plan[] = { "cstates", "freq" };
	t = table(h, 4, plan, 2);
	CHECK_STR(t, "Current values of the settings the plan sets, by host (*: the hosts differ; -: the host does not have it):\n"
		     "   setting  sut1  longer-host  sut3\n"
		     "   cstates  all   all          all\n"
		     "   freq     -     -            -\n"
		     "On no host: freq\n");
	free(t);
	t = table(h, 3, NULL, 0);   /* two answering hosts still make a table; one does not */
	CHECK(t && strstr(t, "*  turbo    on      off\n"));
	free(t);
	t = table(h + 1, 2, NULL, 0);
	CHECK_STR(t, "");
	free(t);
	for (size_t i = 0; i < 4; i++)
		settings_answer_free(&h[i].a);
}

int main(void)
{
	bad_answers();
	good_answer();
	three_hosts();
	return CHECK_DONE();
}
