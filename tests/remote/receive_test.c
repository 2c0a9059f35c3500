/* SPDX-License-Identifier: GPL-2.0-only */
/* The controller's receiver (collect/remote/receive.c) fed recorded streams: a short stream is
 * not complete, a row without its newline is cut, every limit holds in linear time. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "../common/check.h"
#include "frames.h"
#include "method.h"
#include "remote.h"
#include "time/clock.h"

static char tmp[64], errpath[128], errtext[8192];
static int ncase;

struct stream {
	char *p;
	size_t n;
};

static void add(struct stream *s, char type, const char *payload, size_t n)
{
	char head[32];
	int h = snprintf(head, sizeof(head), "%c %zu\n", type, n);
	s->p = realloc(s->p, s->n + (size_t)h + n);
	memcpy(s->p + s->n, head, (size_t)h);
	memcpy(s->p + s->n + h, payload, n);
	s->n += (size_t)h + n;
}

static void adds(struct stream *s, char type, const char *payload)
{
	add(s, type, payload, strlen(payload));
}

/* Receive s into a new directory (its path in dir); stderr into errtext; the exit status. */
static int receive(const struct stream *s, char *dir, size_t len, double *secs)
{
	static char *pass[] = { "collect", NULL };
	snprintf(dir, len, "%s/run%d", tmp, ++ncase);
	struct remote_opts ro = { .pass = pass, .npass = 1, .quiet = true, .outdir = dir };
	struct host_result res;
	fflush(stderr);
	int saved = dup(2), fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fd, 2);
	close(fd);
	uint64_t t0 = isc_mono_ns();
	int st = remote_receive_bytes(&ro, "sut", dir, s->p, s->n, &res);
	if (secs)
		*secs = (double)(isc_mono_ns() - t0) / 1e9;
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	FILE *f = fopen(errpath, "r");
	size_t n = f ? fread(errtext, 1, sizeof(errtext) - 1, f) : 0;
	errtext[n] = '\0';
	if (f)
		fclose(f);
	return st;
}

static cJSON *load(const char *dir, const char *file)
{
	char p[256], buf[65536];
	snprintf(p, sizeof(p), "%s/%s", dir, file);
	FILE *f = fopen(p, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = '\0';
	return cJSON_Parse(buf);
}

static const char *str(const cJSON *j, const char *a, const char *b)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(j, a);
	return cJSON_GetStringValue(b ? cJSON_GetObjectItemCaseSensitive(o, b) : o);
}

static double num(const cJSON *j, const char *key)
{
	return cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(j, key));
}

static const char info_fmt[] = "{\"method\":\"timer\",\"datapoints\":%d,\"complete\":true,"
			       "\"end_time\":\"2026-01-01T00:00:01Z\",\"system\":{}}";

static void run_stream(struct stream *s, int counted, const char *rows)
{
	char info[256];
	snprintf(info, sizeof(info), info_fmt, counted);
	*s = (struct stream){ 0 };
	adds(s, 'H', "/sut/runs/r1");
	adds(s, 'I', info);
	adds(s, 'D', rows);
	adds(s, 'E', "0");
}

static void test_whole_and_short(void)
{
	struct stream s;
	char dir[128];
	run_stream(&s, 2, "A,B\n1,2\n3,4\n");
	CHECK_MSG(receive(&s, dir, sizeof(dir), NULL) == 0, "a whole run: %s", errtext);
	cJSON *j = load(dir, "info.json");
	CHECK_MSG(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "complete")), "whole: complete");
	CHECK_MSG(str(j, "remote", "connection") && !strcmp(str(j, "remote", "connection"), "complete"), "whole: connection");
	CHECK_MSG(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "remote"),
							     "sut_copy_kept")), "whole: the SUT's copy goes");
	cJSON_Delete(j);
	free(s.p);

	/* info.json counts 1000, 2 rows came, then a normal end: not complete, the SUT keeps its copy */
	run_stream(&s, 1000, "A,B\n1,2\n3,4\n");
	CHECK_MSG(receive(&s, dir, sizeof(dir), NULL) == 1, "short: exit status");
	CHECK_MSG(strstr(errtext, "sut: incomplete transfer: its info.json counts 1000 datapoints, 2 arrived; ") &&
	      strstr(errtext, "marked incomplete, the SUT keeps its copy in /sut/runs/r1 (collect --fetch)"),
	      "short: message '%s'", errtext);
	j = load(dir, "info.json");
	CHECK_MSG(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(j, "complete")), "short: complete");
	CHECK_MSG(str(j, "stop_reason", NULL) && !strcmp(str(j, "stop_reason", NULL), "incomplete transfer"), "short: why");
	CHECK_MSG(num(j, "datapoints") == 2, "short: datapoints %g", num(j, "datapoints"));
	CHECK_MSG(str(j, "remote", "connection") && !strcmp(str(j, "remote", "connection"), "incomplete"), "short: connection");
	CHECK_MSG(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "remote"),
							    "sut_copy_kept")), "short: the SUT keeps its copy");
	cJSON_Delete(j);
	free(s.p);
}

/* A last row without its newline is cut, as a local reader cuts it. */
static void test_cut_row(void)
{
	struct stream s;
	char dir[128], p[256], buf[256];
	run_stream(&s, 3, "A,B\n1,2\n3,4\n5,");
	CHECK_MSG(receive(&s, dir, sizeof(dir), NULL) == 1, "cut: exit status");
	CHECK_MSG(strstr(errtext, "rows came without their end of line (cut off, dropped)") != NULL, "cut: '%s'", errtext);
	snprintf(p, sizeof(p), "%s/datapoints.csv", dir);
	FILE *f = fopen(p, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	buf[n] = '\0';
	if (f)
		fclose(f);
	CHECK_MSG(!strcmp(buf, "A,B\n1,2\n3,4\n"), "cut: datapoints.csv '%s'", buf);
	free(s.p);
}

/* Headers: parsed within the bytes there are, limits checked before any payload is waited for. */
static void test_headers(void)
{
	static const struct { const char *bytes, *why; } bad[] = {
		{ "I 2000000\n", "a frame longer than its type allows" },
		{ "S 256\n", "a frame longer than its type allows" },
		{ "D 99999999999999999999\n", "a frame longer than its type allows" },
		{ "D -1\n", "a malformed frame header" },
		{ "D 012\n", "a frame length with a leading zero" },
		{ "D 1x\n", "a malformed frame header" },
		{ "Q 1\nx", "unknown frame type" },
		{ "D\n", "no blank after the frame type" },
		{ "H 1\n/E 1\nx", "an end frame without an exit status" },
		{ "H 1\n/E 0\n", "an end frame without an exit status" },
	};
	char dir[128];
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct stream s = { .p = strdup(bad[i].bytes), .n = strlen(bad[i].bytes) };
		CHECK_MSG(receive(&s, dir, sizeof(dir), NULL) != 0, "'%s': accepted", bad[i].bytes);
		CHECK_MSG(strstr(errtext, bad[i].why) != NULL, "'%s': '%s'", bad[i].bytes, errtext);
		free(s.p);
	}
	/* 64 MiB without a newline: refused at once, not kept */
	struct stream s = { .n = 64u << 20 };
	s.p = malloc(s.n);
	memset(s.p, '7', s.n);
	s.p[0] = 'D';
	s.p[1] = ' ';
	double secs;
	CHECK_MSG(receive(&s, dir, sizeof(dir), &secs) != 0 && strstr(errtext, "frame longer than its type allows"),
	      "no newline: '%s'", errtext);
	CHECK_MSG(secs < 1, "no newline: %.2f s", secs);
	free(s.p);
}

/* Every prefix of a frame is "more bytes needed", never garbled (a read may end anywhere). */
static void test_prefixes(void)
{
	struct stream s = { 0 };
	struct frame f;
	size_t need;
	const char *why;
	adds(&s, 'D', "A,B\n1,2\n");
	for (size_t k = 0; k < s.n; k++)
		CHECK_MSG(frame_next(s.p, k, &f, &need, &why) == 0, "a prefix of %zu bytes: not 0", k);
	CHECK_MSG(frame_next(s.p, s.n, &f, &need, &why) == 1 && f.type == 'D' && f.len == 8 && f.used == s.n,
	      "the whole frame");
	free(s.p);
}

/* n subdirectories named, then frames going back to them up to nframes in all; the time of the
 * whole. */
static int revisits(int n, int nframes, double *secs)
{
	struct stream s = { 0 };
	char dir[128], name[32];
	adds(&s, 'H', "/sut/runs/e2");
	for (int i = 0; i < nframes; i++) {
		snprintf(name, sizeof(name), "r%d", i < n ? i : (i * 7919) % n);
		adds(&s, 'S', name);
	}
	adds(&s, 'E', "0");
	int st = receive(&s, dir, sizeof(dir), secs);
	free(s.p);
	return st;
}

/* 100k distinct subdirectory frames: refused past the limit, in linear time. */
static void test_subdirs(void)
{
	struct stream s = { 0 };
	char dir[128], name[32];
	double secs;
	adds(&s, 'H', "/sut/runs/e1");
	for (int i = 0; i < 100000; i++) {
		snprintf(name, sizeof(name), "r%d", i);
		adds(&s, 'S', name);
		adds(&s, 'D', "A\n1\n");
	}
	adds(&s, 'E', "0");
	CHECK_MSG(receive(&s, dir, sizeof(dir), &secs) == 1, "subdirs: exit status");
	CHECK_MSG(strstr(errtext, "the SUT sent more than 10000 run subdirectories: refused") != NULL, "subdirs: '%s'",
	      errtext);
	/* the cost is the 10000 directories made (mkdir, files, fsync); the rest is not read */
	CHECK_MSG(secs < 60, "100k subdirectory frames took %.1f s", secs);
	printf("# 100000 subdirectory frames: refused after 10000, %.2f s\n", secs);
	free(s.p);

	/* 10000 subdirectories, then 190000 frames going back to them: found by hash, not by a
	 * search through all of them (that would be about 10^9 name comparisons: seconds, where the
	 * hash takes hundredths; the 1 s margin is for a loaded machine). The yardsticks:
	 * making the 10000 subdirectories alone (whose time a loaded machine stretches most), and
	 * 200000 frames between two subdirectories (sanitizer builds are slower at all three). */
	double spread, made, two;
	CHECK_MSG(revisits(10000, 10000, &made) == 0, "10000 subdirectories: '%s'", errtext);
	CHECK_MSG(revisits(10000, 200000, &spread) == 0, "revisits of 10000: '%s'", errtext);
	CHECK_MSG(revisits(2, 200000, &two) == 0, "revisits of 2: '%s'", errtext);
	CHECK_MSG(spread < 2 * made + 3 * two + 1.0,
		  "200000 frames: %.2f s among 10000 subdirectories (%.2f s to make them), %.2f s between 2",
		  spread, made, two);
	printf("# 200000 subdirectory frames: %.2f s among 10000 subdirectories (%.2f s to make them), "
	       "%.2f s between 2\n", spread, made, two);
}

int main(void)
{
	snprintf(tmp, sizeof(tmp), "/tmp/receive-test.XXXXXX");
	if (!mkdtemp(tmp))
		return 1;
	snprintf(errpath, sizeof(errpath), "%s/stderr", tmp);
	test_whole_and_short();
	test_cut_row();
	test_headers();
	test_prefixes();
	test_subdirs();
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	CHECK_MSG(system(cmd) == 0, "%s", cmd);
	if (!check_failures)
		printf("receive: OK\n");
	return CHECK_DONE();
}
