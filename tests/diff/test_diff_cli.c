/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * analyze diff end to end: runs written here, the binary run on them, its JSON, CSV and text
 * checked against numbers computed here (medians, U, average-rank p, the Price-Bonett
 * interval) and every bad input checked for its exact message and exit status.
 *   test_diff_cli ANALYZE SHARED_DATA SAMPLES
 */
#include <cjson/cJSON.h>
#include <fcntl.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/check.h"

static const char *analyze, *shared;
static char tmp[64] = "/tmp/diffcli.XXXXXX";
static char *out, *err;
static const char *subcommand = "diff";

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = calloc(1, 1);
	size_t len = 0, got;
	char chunk[65536];
	while (f && (got = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		buf = realloc(buf, len + got + 1);
		memcpy(buf + len, chunk, got);
		len += got;
		buf[len] = '\0';
	}
	if (f)
		fclose(f);
	return buf;
}

/* Run "analyze diff ARGS..." (NULL-terminated); stdout and stderr land in out and err. */
static int diff(const char *arg, ...)
{
	const char *argv[40] = { analyze, subcommand };
	int argc = 2;
	/* these checks compare LDist like an outcome, as before issue 24 (diff_inputs.sh tests
	 * the default, where inputs get no verdict) */
	if (!strcmp(subcommand, "diff"))
		argv[argc++] = "--compare-inputs";
	va_list ap;
	va_start(ap, arg);
	for (const char *a = arg; a && argc < 39; a = va_arg(ap, const char *))
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	char opath[128], epath[128];
	snprintf(opath, sizeof(opath), "%s/out", tmp);
	snprintf(epath, sizeof(epath), "%s/err", tmp);
	pid_t pid = fork();
	if (pid == 0) {
		int o = open(opath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(epath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(o, 1);
		dup2(e, 2);
		execv(analyze, (char *const *)argv);
		_exit(127);
	}
	int status;
	waitpid(pid, &status, 0);
	free(out);
	free(err);
	out = slurp(opath);
	err = slurp(epath);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static char *path(const char *name)
{
	static char buf[8][256];
	static int k;
	k = (k + 1) % 8;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", tmp, name);
	return buf[k];
}

static void write_file(const char *rel, const char *text)
{
	FILE *f = fopen(path(rel), "w");
	fputs(text, f);
	fclose(f);
}

/*
 * A run of 200 datapoints: WakeLatency = i + shift (i = 1..200), IntrLatency = 2 i,
 * LDist = 1000 + i; odd i in C6, even i in C1 (with extra_group, i % 10 == 0 go to C10).
 */
static void make_run(const char *dir, const char *reportid, const char *tool, double shift,
		     int with_intr, int extra_group, const char *units_json)
{
	char file[128], *csv = malloc(1 << 16);
	size_t len = 0;
	mkdir(path(dir), 0755);
	snprintf(file, sizeof(file), "%s/info.json", dir);
	char info[512];
	snprintf(info, sizeof(info), "{\"toolname\": \"%s\", \"reportid\": \"%s\"%s%s}\n", tool,
		 reportid, units_json ? ", \"units\": " : "", units_json ? units_json : "");
	write_file(file, info);
	len += (size_t)sprintf(csv + len, "WakeLatency,%sLDist,ReqCState\n", with_intr ? "IntrLatency," : "");
	for (int i = 1; i <= 200; i++) {
		const char *state = extra_group && i % 10 == 0 ? "C10" : i % 2 ? "C6" : "C1";
		len += (size_t)sprintf(csv + len, "%g,", i + shift);
		if (with_intr)
			len += (size_t)sprintf(csv + len, "%d,", 2 * i);
		len += (size_t)sprintf(csv + len, "%d,%s\n", 1000 + i, state);
	}
	snprintf(file, sizeof(file), "%s/datapoints.csv", dir);
	write_file(file, csv);
	free(csv);
}

static cJSON *json_out(void)
{
	cJSON *j = cJSON_Parse(out);
	CHECK(j != NULL);
	return j;
}

static const cJSON *at(const cJSON *o, const char *keys)
{
	char buf[256], *save, *k;
	snprintf(buf, sizeof(buf), "%s", keys);
	for (k = strtok_r(buf, "/", &save); k && o; k = strtok_r(NULL, "/", &save)) {
		if (cJSON_IsArray(o))
			o = cJSON_GetArrayItem(o, atoi(k));
		else
			o = cJSON_GetObjectItemCaseSensitive(o, k);
	}
	return o;
}

static double num(const cJSON *o, const char *keys)
{
	const cJSON *v = at(o, keys);
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* The median of 1..n shifted, and the Price-Bonett CI for two such samples, computed here. */
static double pb_se(const double *sorted, size_t n)
{
	double c = rint((double)n / 2 - sqrt((double)n));
	size_t k = c < 1 ? 1 : (size_t)c;
	double z = gsl_cdf_ugaussian_Qinv(gsl_cdf_binomial_P((unsigned)k - 1, 0.5, (unsigned)n));
	return (sorted[n - k] - sorted[k - 1]) / (2 * z);
}

static void test_shifted(void)
{
	CHECK(diff(path("ref"), path("shift"), "-F", "json", NULL) == 0);
	CHECK_STR(err, "");
	cJSON *j = json_out();
	CHECK_STR(cJSON_GetStringValue(at(j, "runs/0/reportid")), "ref");
	CHECK_STR(cJSON_GetStringValue(at(j, "runs/1/reportid")), "shift");
	CHECK_STR(cJSON_GetStringValue(at(j, "group_by")), "ReqCState");
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/med/values/0"), 100.5);
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/med/values/1"), 150.5);
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/med/change/1"), 50);
	CHECK_NEAR(num(j, "metrics/WakeLatency/med/pct/1"), 100 * 50 / 100.5, 1e-12);
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/med/change/0"), 0);
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/max/values/1"), 250);
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/min/values/0"), 1);
	CHECK_NEAR(num(j, "metrics/WakeLatency/avg/values/0"), 100.5, 1e-15);
	CHECK_NEAR(num(j, "metrics/WakeLatency/99%/values/0"), 1 + 0.99 * 199, 1e-12);
	CHECK_NEAR(num(j, "metrics/WakeLatency/std/values/0"), sqrt(200.0 * 201 / 12), 1e-12);
	CHECK(cJSON_IsNull(at(j, "metrics/WakeLatency/tests/0")));

	/* U = pairs b > a + ties/2 for 1..200 against 51..250; p from average ranks */
	double a[200], b[200], u = 0;
	for (int i = 0; i < 200; i++)
		a[i] = i + 1, b[i] = i + 51;
	for (int i = 0; i < 200; i++)
		for (int k = 0; k < 200; k++)
			u += b[k] > a[i] ? 1 : b[k] == a[i] ? 0.5 : 0;
	double ties = 150 * (8 - 2), var = 200.0 * 200 / 12 * (401 - ties / (400.0 * 399));
	double z = (u - 20000 - 0.5) / sqrt(var), p = erfc(z / sqrt(2));
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/tests/1/mw_u"), u);
	CHECK_NEAR(num(j, "metrics/WakeLatency/tests/1/mw_p"), p, 1e-9);
	CHECK_NEAR(num(j, "metrics/WakeLatency/tests/1/ks_d"), 0.25, 1e-15);
	/* one run each: level datapoint, never "significant". WakeLatency rises through the run
	 * (1..200 in collection order): the block bootstrap sees that drift, so its CI is much
	 * wider than Price-Bonett's, which treats the datapoints as independent */
	double half = 1.959963984540054 * sqrt(2) * pb_se(a, 200);
	double lo = num(j, "metrics/WakeLatency/tests/1/med_diff_ci95/0");
	double hi = num(j, "metrics/WakeLatency/tests/1/med_diff_ci95/1");
	CHECK(lo < 50 - 2 * half && hi > 50 + 2 * half && lo < 0);
	CHECK_STR(cJSON_GetStringValue(at(j, "metrics/WakeLatency/tests/1/level")), "datapoint");
	CHECK_STR(cJSON_GetStringValue(at(j, "metrics/WakeLatency/tests/1/method")), "block-bootstrap");
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/tests/1/replicates/0"), 1);
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/tests/1/replicates/1"), 1);
	CHECK(cJSON_IsFalse(at(j, "metrics/WakeLatency/tests/1/significant")));
	CHECK(cJSON_IsFalse(at(j, "metrics/WakeLatency/tests/1/differs")));
	CHECK(cJSON_IsNull(at(j, "metrics/WakeLatency/tests/1/run_level")));
	CHECK_STR(cJSON_GetStringValue(at(j, "configs/1/name")), "shift");
	CHECK_STR(cJSON_GetStringValue(at(j, "configs/1/runs/0")), "shift");
	CHECK_EQ_DBL(num(j, "runs/1/config"), 1);
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/runs/1/med"), 150.5);
	CHECK(cJSON_IsNull(at(j, "metrics/WakeLatency/runs/0/99%")));  /* 200 < 1000 values */

	/* the verdict line, numbers from above */
	char want[640], pbuf[32];
	snprintf(pbuf, sizeof(pbuf), "%.2g", p);
	snprintf(want, sizeof(want), "WakeLatency: median +50 us (+49.8%%) vs ref, within-run 95%% "
		 "interval [%+.0f, %+.0f] (block bootstrap; run-to-run variation unknown), no "
		 "difference in these runs (Mann\u2013Whitney p = %s, but the interval includes 0); "
		 "one run per configuration, so run-to-run variation is unknown: for a verdict, "
		 "repeat the runs (collect --matrix ... --repeat 3)",
		 lo, hi, pbuf);
	CHECK_STR(cJSON_GetStringValue(at(j, "metrics/WakeLatency/verdict/1")), want);
	CHECK(cJSON_IsNull(at(j, "metrics/WakeLatency/verdict/0")));

	/* LDist is the same in both: no change */
	CHECK_EQ_DBL(num(j, "metrics/LDist/tests/1/mw_p"), 1);
	CHECK_EQ_DBL(num(j, "metrics/LDist/tests/1/ks_d"), 0);
	CHECK(cJSON_IsFalse(at(j, "metrics/LDist/tests/1/significant")));

	/* groups: C6 holds the odd i */
	CHECK_EQ_DBL(num(j, "groups/C6/rows/0"), 100);
	CHECK_EQ_DBL(num(j, "groups/C6/metrics/WakeLatency/med/values/0"), 100);
	CHECK_EQ_DBL(num(j, "groups/C6/metrics/WakeLatency/med/change/1"), 50);
	CHECK_EQ_DBL(num(j, "groups/C1/metrics/WakeLatency/min/values/1"), 52);
	CHECK(cJSON_IsNumber(at(j, "groups/C1/metrics/WakeLatency/tests/1/ks_p")));
	CHECK(cJSON_IsNull(at(j, "counters")));
	cJSON_Delete(j);

	/* text: the same verdict, indented under its heading */
	CHECK(diff(path("ref"), path("shift"), NULL) == 0);
	CHECK(strstr(out, "shift vs ref:\n  WakeLatency: median +50 us (+49.8%) vs ref, within-run "
		     "95% interval [") != NULL);
	CHECK(strstr(out, "95% CI") == NULL);   /* one run each: never a bare "95% CI" */
	CHECK(strstr(out, "ReqCState = C6: ref 100, shift 100 datapoints\n") != NULL);
	CHECK(strstr(out, "  LDist: median +0 us vs ref") == NULL);  /* LDist median is 1100.5 */
	CHECK(strstr(out, "  LDist: median +0 us (+0.0%) vs ref, within-run 95% interval [") != NULL);
	CHECK(strstr(out, "no difference in these runs (Mann\u2013Whitney p = 1); one run per "
		     "configuration") != NULL);
	CHECK(strstr(out, "significant") == NULL);
}

static void test_formats_and_options(void)
{
	CHECK(diff(path("ref"), path("shift"), "-F", "csv", "-m", "^WakeLatency$", "-G", NULL) == 0);
	CHECK(strncmp(out, "kind,by,group,metric,func,run,value,change,pct\n", 47) == 0);
	char want[128];
	snprintf(want, sizeof(want), "\nstat,,,WakeLatency,med,shift,150.5,50,%.17g\n", 100 * 50 / 100.5);
	CHECK(strstr(out, want) != NULL);
	CHECK(strstr(out, "\ntest,,,WakeLatency,ks_d,shift,0.25,,\n") != NULL);
	CHECK(strstr(out, "\ntest,,,WakeLatency,significant,shift,0,,\n") != NULL);
	CHECK(strstr(out, "\ntest,,,WakeLatency,level,shift,0,,\n") != NULL);
	CHECK(strstr(out, "\ntest,,,WakeLatency,replicates,shift,1,,\n") != NULL);
	CHECK(strstr(out, "LDist") == NULL && strstr(out, "C6") == NULL);

	/* --funcs, --by, --include apply to every run */
	CHECK(diff(path("ref"), path("shift"), "-F", "json", "-f", "count,med", "--by", "LDist",
		   "-i", "LDist <= 1002", "-m", "Wake", NULL) == 0);
	cJSON *j = json_out();
	CHECK_EQ_DBL(num(j, "runs/1/rows"), 2);
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/count/values/0"), 2);
	CHECK(at(j, "metrics/WakeLatency/max") == NULL);
	CHECK_EQ_DBL(num(j, "groups/1002/metrics/WakeLatency/med/values/1"), 52);
	CHECK_STR(cJSON_GetStringValue(at(j, "group_by")), "LDist");
	/* n = 2: the exact Mann-Whitney distribution, a CI from two values each */
	CHECK(cJSON_IsTrue(at(j, "metrics/WakeLatency/tests/1/mw_exact")));
	CHECK_NEAR(num(j, "metrics/WakeLatency/tests/1/mw_p"), 1.0 / 3, 1e-12);  /* 2 * 1/6 */
	/* n = 1 per group: tests run, no CI */
	CHECK(cJSON_IsNull(at(j, "groups/1001/metrics/WakeLatency/tests/1/med_diff_ci95/0")));
	CHECK_EQ_DBL(num(j, "groups/1001/metrics/WakeLatency/tests/1/mw_p"), 1);
	CHECK(strstr(cJSON_GetStringValue(at(j, "groups/1001/metrics/WakeLatency/verdict/1")),
		     "within-run 95% interval n/a (1 value), no difference in these runs") != NULL);
	cJSON_Delete(j);

	/* more groups than diff merges (16): the overall sample is sorted on its own */
	CHECK(diff(path("ref"), path("shift"), "-F", "json", "-f", "med,max", "--by", "LDist",
		   "-i", "LDist <= 1020", "-m", "Wake", NULL) == 0);
	j = json_out();
	CHECK(cJSON_GetArraySize(at(j, "groups")) == 20);
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/med/values/0"), 10.5);
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/med/values/1"), 60.5);
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/tests/1/ks_d"), 1);
	CHECK_EQ_DBL(num(j, "groups/1017/metrics/WakeLatency/max/values/1"), 67);
	cJSON_Delete(j);

	/* --even-up: the larger run is cut to the smaller one's count */
	CHECK(diff(path("ref"), path("shift"), "-F", "json", "-e", "-x", "WakeLatency > 200", NULL) == 0);
	j = json_out();
	CHECK_EQ_DBL(num(j, "runs/0/rows"), 150);
	CHECK_EQ_DBL(num(j, "runs/1/rows"), 150);
	cJSON_Delete(j);

	/* a group only one run has: null values and tests for the other */
	CHECK(diff(path("ref"), path("c10"), "-F", "json", "-m", "Wake", NULL) == 0);
	j = json_out();
	CHECK_EQ_DBL(num(j, "groups/C10/rows/0"), 0);
	CHECK_EQ_DBL(num(j, "groups/C10/rows/1"), 20);
	CHECK(cJSON_IsNull(at(j, "groups/C10/metrics/WakeLatency/med/values/0")));
	CHECK(cJSON_IsNull(at(j, "groups/C10/metrics/WakeLatency/tests/1")));
	CHECK_STR(cJSON_GetStringValue(at(j, "groups/C10/metrics/WakeLatency/verdict/1")),
		  "WakeLatency: no comparison vs ref (no values in ref)");
	cJSON_Delete(j);
}

static void test_identical_and_names(void)
{
	/* a copy of the reference under the same reportid: told apart, nothing significant */
	CHECK(diff(path("ref"), path("refcopy"), path("shift"), "-F", "json", NULL) == 0);
	cJSON *j = json_out();
	CHECK_STR(cJSON_GetStringValue(at(j, "runs/1/reportid")), "ref-2");
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/tests/1/mw_p"), 1);
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/tests/1/ks_d"), 0);
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/tests/1/ks_p"), 1);
	CHECK(cJSON_IsFalse(at(j, "metrics/WakeLatency/tests/1/significant")));
	CHECK(strstr(cJSON_GetStringValue(at(j, "metrics/WakeLatency/verdict/1")),
		     "median +0 us (+0.0%) vs ref, within-run 95% interval [-") != NULL);
	CHECK(cJSON_IsFalse(at(j, "metrics/WakeLatency/tests/2/significant")));
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/med/change/2"), 50);
	cJSON_Delete(j);

	/* the same run twice */
	CHECK(diff(path("ref"), path("ref/"), NULL) == 2);
	char want[512];
	snprintf(want, sizeof(want), "analyze: diff: '%s' and '%s/' are the same run: comparing a "
		 "run with itself shows nothing (--allow-same to do it anyway)\n", path("ref"), path("ref"));
	CHECK_STR(err, want);
	CHECK_STR(out, "");
	CHECK(diff(path("ref"), path("ref/datapoints.csv"), "--allow-same", "-F", "json", NULL) == 0);
	snprintf(want, sizeof(want), "analyze: warning: '%s' and '%s' are the same run\n", path("ref"),
		 path("ref/datapoints.csv"));
	CHECK_STR(err, want);
	j = json_out();
	CHECK_STR(cJSON_GetStringValue(at(j, "runs/1/reportid")), "ref-2");
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/tests/1/mw_p"), 1);
	cJSON_Delete(j);

	/* wult raw result, bare datapoints.csv and idlescope run mixed */
	char wult[256], bare[256];
	snprintf(wult, sizeof(wult), "%s/wult-good", shared);
	snprintf(bare, sizeof(bare), "%s/wult-good/datapoints.csv", shared);
	CHECK(diff(wult, path("ref/datapoints.csv"), "-F", "json", "-m", "^WakeLatency$", NULL) == 0);
	snprintf(want, sizeof(want), "analyze: warning: ref was measured by idlescope, the reference "
		 "testdata by wult: the numbers may not mean the same\n");
	CHECK_STR(err, want);
	j = json_out();
	CHECK_STR(cJSON_GetStringValue(at(j, "runs/0/reportid")), "testdata");
	CHECK_STR(cJSON_GetStringValue(at(j, "runs/0/toolname")), "wult");
	cJSON_Delete(j);
}

/* Counter summaries side by side: two runs with the same counters.csv (a sample's), one without. */
static void test_counters(const char *samples)
{
	char src[256], cmd[1024];
	snprintf(src, sizeof(src), "%s/timer-c200/counters.csv", samples);
	if (access(src, R_OK) != 0) {
		fprintf(stderr, "note: %s missing, counters comparison not tested\n", src);
		return;
	}
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s' && cp '%s' '%s'", src, path("ref/counters.csv"), src,
		 path("shift/counters.csv"));
	CHECK(system(cmd) == 0);
	CHECK(diff(path("ref"), path("shift"), path("nointr"), "-F", "json", "-m", "Wake", NULL) == 0);
	CHECK_STR(err, "analyze: warning: nointr has no counters.csv: its counter columns are empty\n");
	cJSON *j = json_out(), *c = cJSON_GetObjectItemCaseSensitive(j, "counters"), *col;
	CHECK(cJSON_IsObject(c) && cJSON_GetArraySize(c) > 0);
	cJSON_ArrayForEach(col, c) {
		CHECK(cJSON_GetArraySize(at(col, "values")) == 3);
		CHECK_EQ_DBL(num(col, "values/0"), num(col, "values/1"));
		CHECK_EQ_DBL(num(col, "change/1"), 0);
		CHECK(cJSON_IsNull(at(col, "values/2")) && cJSON_IsNull(at(col, "change/2")));
	}
	cJSON_Delete(j);
	CHECK(diff(path("ref"), path("shift"), "-m", "Wake", NULL) == 0);
	CHECK(strstr(out, "\nCounters ") != NULL);
	CHECK(diff(path("ref"), path("shift"), "-m", "Wake", "-F", "csv", NULL) == 0);
	CHECK(strstr(out, "\ncounter,,") != NULL);
	unlink(path("ref/counters.csv"));
	unlink(path("shift/counters.csv"));
}

/* A big run (threads, radix sorts, merges): full-precision and 3-decimal latencies, 2-decimal
 * residencies, three idle states, some empty cells. */
static void make_big_run(const char *dir, unsigned seed, double shift)
{
	char file[128];
	size_t n = 60000, len = 0;
	char *csv = malloc(n * 80 + 100);
	mkdir(path(dir), 0755);
	len += (size_t)sprintf(csv, "WakeLatency,IntrLatency,CC6%%,ReqCState\n");
	srand(seed);
	for (size_t i = 0; i < n; i++) {
		double u = (rand() + 1.0) / (RAND_MAX + 2.0), w = shift + 2 - log(u);
		const char *state = i % 3 == 0 ? "POLL" : i % 3 == 1 ? "C1" : "C6";
		if (i % 3 == 0)
			len += (size_t)sprintf(csv + len, ",%.3f,0.00,%s\n", w + 1, state);
		else
			len += (size_t)sprintf(csv + len, "%.17g,%.3f,%.2f,%s\n", w, w + 1,
					       (double)(rand() % 10000) / 100, state);
	}
	snprintf(file, sizeof(file), "%s/datapoints.csv", dir);
	write_file(file, csv);
	free(csv);
}

/* diff's values are analyze stats' values, to the last bit, overall and per group. */
static void test_same_as_stats(const char *run0, const char *run1, size_t expect)
{
	cJSON *st[2];
	const char *runs[2] = { run0, run1 };
	subcommand = "stats";
	for (int i = 0; i < 2; i++) {
		CHECK(diff(path(runs[i]), "-F", "json", NULL) == 0);
		st[i] = json_out();
	}
	subcommand = "diff";
	CHECK(diff(path(run0), path(run1), "-F", "json", NULL) == 0);
	cJSON *d = json_out(), *m, *f, *g;
	size_t compared = 0;
	for (int i = 0; i < 2; i++) {
		cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(d, "metrics"))
			cJSON_ArrayForEach(f, m) {
				if (!cJSON_IsObject(f))
					continue;
				const cJSON *want = at(st[i], "runs/0/metrics");
				want = at(at(want, m->string), f->string);
				CHECK_EQ_DBL(cJSON_GetNumberValue(cJSON_GetArrayItem(at(f, "values"), i)),
					     cJSON_GetNumberValue(want));
				compared++;
			}
		cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(d, "groups"))
			cJSON_ArrayForEach(m, at(g, "metrics"))
				cJSON_ArrayForEach(f, m) {
					if (!cJSON_IsObject(f))
						continue;
					const cJSON *want = at(at(st[i], "runs/0/groups"), g->string);
					want = at(at(at(want, "metrics"), m->string), f->string);
					double v = cJSON_GetNumberValue(cJSON_GetArrayItem(at(f, "values"), i));
					if (want)
						CHECK_EQ_DBL(v, cJSON_GetNumberValue(want));
					else  /* a group this run lacks: no values (count 0) */
						CHECK(isnan(v) || v == 0);
					compared++;
				}
	}
	CHECK(compared == expect);
	cJSON_Delete(d);
	cJSON_Delete(st[0]);
	cJSON_Delete(st[1]);
}

/* A run of make_run's shape whose info.json has a kernel release and a cstates setting. */
static void make_system_run(const char *dir, double shift, const char *kernel, const char *cstates)
{
	char file[128], info[512];
	make_run(dir, dir, "idlescope", shift, 1, 0, NULL);
	snprintf(file, sizeof(file), "%s/info.json", dir);
	snprintf(info, sizeof(info), "{\"toolname\": \"idlescope\", \"reportid\": \"%s\", \"system\": "
		 "{\"kernel\": {\"release\": \"%s\"}}, \"settings\": {\"cstates\": \"%s\"}}\n", dir,
		 kernel, cstates);
	write_file(file, info);
}

static char *list3(const char *a, const char *b, const char *c)
{
	static char buf[4][800];
	static int k;
	char *s = buf[k++ % 4];
	snprintf(s, sizeof(buf[0]), "%s,%s,%s", path(a), path(b), path(c));
	return s;
}

/* Replicate runs: run-level Welch t on the run medians, names, --ref, confounders. */
static void test_replicates(void)
{
	make_system_run("a1", 0, "6.1", "all");
	make_system_run("a2", 0.5, "6.1", "all");
	make_system_run("a3", -0.5, "6.1", "all");
	make_system_run("b1", 10, "6.1", "POLL");
	make_system_run("b2", 10.5, "6.1", "POLL");
	make_system_run("b3", 9.5, "6.2", "POLL");
	CHECK(diff(list3("a1", "a2", "a3"), list3("b1", "b2", "b3"), "-F", "json", "-m", "Wake",
		   "-G", NULL) == 0);
	cJSON *j = json_out();
	CHECK_STR(cJSON_GetStringValue(at(j, "reference")), "a");
	CHECK_STR(cJSON_GetStringValue(at(j, "configs/1/name")), "b");
	CHECK_STR(cJSON_GetStringValue(at(j, "configs/1/runs/2")), "b3");
	CHECK_EQ_DBL(num(j, "configs/0/rows"), 600);
	CHECK_EQ_DBL(num(j, "runs/4/config"), 1);
	CHECK_EQ_DBL(num(j, "runs/4/rows"), 200);
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/runs/5/med"), 110);
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/med/values/0"), 100.5);  /* pooled */
	/* pooled values without merging: quantiles selected from the runs, moments combined */
	double pool[600], s1 = 0, s2 = 0;
	for (int i = 0; i < 600; i++) {
		pool[i] = i / 3 + 1 + (i % 3 == 0 ? 0 : i % 3 == 1 ? 0.5 : -0.5);
		s1 += pool[i];
	}
	for (int i = 0; i < 600; i++)
		s2 += (pool[i] - s1 / 600) * (pool[i] - s1 / 600);
	CHECK_NEAR(num(j, "metrics/WakeLatency/std/values/0"), sqrt(s2 / 599), 1e-12);
	CHECK_NEAR(num(j, "metrics/WakeLatency/avg/values/0"), 100.5, 1e-12);
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/min/values/0"), 0.5);
	/* the top of the pooled sample: ..., 199.5, 199.5, 200, 200.5; 99%: rank 0.99 * 599 =
	 * 593.01 between 198.5 and 198.5; 99.9%: rank 598.401 between 200 and 200.5 */
	CHECK_NEAR(num(j, "metrics/WakeLatency/99%/values/0"), 198.5, 1e-12);
	CHECK_NEAR(num(j, "metrics/WakeLatency/99.9%/values/0"), 200 + 0.401 * 0.5, 1e-9);
	CHECK(cJSON_IsNull(at(j, "metrics/WakeLatency/tests/1/mw_p")));  /* pseudoreplication */
	CHECK_STR(cJSON_GetStringValue(at(j, "metrics/WakeLatency/tests/1/level")), "run");
	CHECK_STR(cJSON_GetStringValue(at(j, "metrics/WakeLatency/tests/1/method")),
		  "random-effects-runs");
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/tests/1/replicates/0"), 3);
	/* run medians 100.5, 101, 100 against 110.5, 111, 110, runs of equal size (so equal
	 * weights: Welch): diff 10, se sqrt(2 * 0.25 / 3), df 4 */
	double se = sqrt(0.5 / 3), q = gsl_cdf_tdist_Pinv(0.975, 4);
	CHECK_NEAR(num(j, "metrics/WakeLatency/tests/1/med_diff"), 10, 1e-12);
	CHECK_NEAR(num(j, "metrics/WakeLatency/tests/1/med_diff_ci95/0"), 10 - q * se, 1e-9);
	CHECK_NEAR(num(j, "metrics/WakeLatency/tests/1/med_diff_ci95/1"), 10 + q * se, 1e-9);
	CHECK_NEAR(num(j, "metrics/WakeLatency/tests/1/run_level/med/p"),
		   2 * gsl_cdf_tdist_Q(10 / se, 4), 1e-6);
	CHECK_NEAR(num(j, "metrics/WakeLatency/tests/1/run_level/med/df"), 4, 1e-12);
	CHECK(cJSON_IsTrue(at(j, "metrics/WakeLatency/tests/1/significant")));
	CHECK(cJSON_IsNull(at(j, "metrics/WakeLatency/tests/1/run_level/99%")));  /* 200 values */
	char want[1024], pbuf[32];
	snprintf(pbuf, sizeof(pbuf), "%.2g", 2 * gsl_cdf_tdist_Q(10 / se, 4));
	/* the family: the median alone (200 values per run: no 99%) */
	CHECK_EQ_DBL(num(j, "family/size"), 1);
	CHECK_STR(cJSON_GetStringValue(at(j, "family/method")), "holm");
	CHECK_STR(cJSON_GetStringValue(at(j, "metrics/WakeLatency/tests/1/run_level/med/verdict/answer")),
		  "changed");
	snprintf(want, sizeof(want), "WakeLatency: median +10 us (+10.0%%) vs a (3 vs 3 runs), 95%% CI "
		 "[+9, +11], changed: significant (Holm-adjusted p = %s in a family of 1; "
		 "random-effects t on run medians, p = %s)", pbuf, pbuf);
	CHECK_STR(cJSON_GetStringValue(at(j, "metrics/WakeLatency/verdict/1")), want);
	/* what differs besides the setting: cstates and the kernel of b3 */
	CHECK_STR(cJSON_GetStringValue(at(j, "warnings/0")),
		  "system.kernel.release differs: a: 6.1; b: 6.1 | 6.2");
	CHECK_STR(cJSON_GetStringValue(at(j, "warnings/1")),
		  "settings.cstates differs: a: all; b: POLL");
	CHECK(cJSON_GetArraySize(at(j, "warnings")) == 2);
	cJSON_Delete(j);

	/* with idle states: the verdicts are per state, all datapoints together descriptive */
	CHECK(diff(list3("a1", "a2", "a3"), list3("b1", "b2", "b3"), "-F", "json", "-m", "Wake",
		   NULL) == 0);
	j = json_out();
	CHECK(cJSON_IsTrue(at(j, "descriptive")));
	CHECK(cJSON_IsFalse(at(j, "metrics/WakeLatency/tests/1/significant")));
	CHECK(strstr(cJSON_GetStringValue(at(j, "metrics/WakeLatency/verdict/1")), "descriptive: all "
		     "groups together are a mixture") != NULL);
	CHECK(cJSON_IsFalse(at(j, "groups/C6/descriptive")));
	CHECK_STR(cJSON_GetStringValue(at(j, "groups/C6/metrics/WakeLatency/tests/1/run_level/med/verdict/answer")),
		  "changed");
	CHECK(cJSON_IsTrue(at(j, "groups/C6/metrics/WakeLatency/tests/1/significant")));
	/* each state's share: the same in every run (a half), so no test */
	CHECK_STR(cJSON_GetStringValue(at(j, "groups/C6/shares/1/answer")), "refused");
	cJSON_Delete(j);

	/* --primary: that comparison alone, the rest not tested */
	CHECK(diff(list3("a1", "a2", "a3"), list3("b1", "b2", "b3"), "-F", "json", "-m", "Wake",
		   "--primary", "WakeLatency:med:C1", NULL) == 0);
	j = json_out();
	CHECK_EQ_DBL(num(j, "family/size"), 1);
	CHECK_STR(cJSON_GetStringValue(at(j, "family/primary")), "WakeLatency:med:C1");
	CHECK(cJSON_IsTrue(at(j, "groups/C1/metrics/WakeLatency/tests/1/significant")));
	CHECK(cJSON_IsFalse(at(j, "groups/C6/metrics/WakeLatency/tests/1/significant")));
	CHECK_STR(cJSON_GetStringValue(at(j, "groups/C6/metrics/WakeLatency/tests/1/run_level/med/verdict/answer")),
		  "untested");
	cJSON_Delete(j);
	CHECK(diff(list3("a1", "a2", "a3"), list3("b1", "b2", "b3"), "--primary", "Nope:med",
		   NULL) == 2);
	CHECK_STR(err, "analyze: diff: --primary: metric 'Nope' is not compared here\n");
	CHECK(diff(list3("a1", "a2", "a3"), list3("b1", "b2", "b3"), "--primary", "WakeLatency",
		   NULL) == 2);
	CHECK(diff(list3("a1", "a2", "a3"), list3("b1", "b2", "b3"), "--margin", "-1us", NULL) == 2);
	CHECK_STR(err, "analyze: diff: --margin '-1us': expected a positive number, alone (the "
		  "metric's unit) or with %, ns, us or ms\n");

	/* --margin 20us: the change of 10 us is inside it but significant: "changed" wins; a
	 * margin of 20 us against an A/A pair below */
	CHECK(diff(list3("a1", "a2", "a3"), list3("b1", "b2", "b3"), "-F", "json", "-m", "Wake",
		   "-G", "--margin", "20us", NULL) == 0);
	j = json_out();
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/tests/1/run_level/med/verdict/margin"), 20);
	CHECK_STR(cJSON_GetStringValue(at(j, "metrics/WakeLatency/tests/1/run_level/med/verdict/answer")),
		  "changed");
	cJSON_Delete(j);

	/* text: each run's median and 99%, the pooled value, the warning block first */
	CHECK(diff(list3("a1", "a2", "a3"), list3("b1", "b2", "b3"), "-m", "Wake", "-G", NULL) == 0);
	CHECK(strstr(out, "Reference: a: 3 runs, 600 datapoints\n") == out);
	CHECK(strstr(out, "\nWarning: besides what was varied, the configurations differ in\n"
		     "  ! system.kernel.release differs: a: 6.1; b: 6.1 | 6.2\n") != NULL);
	CHECK(strstr(out, "\n                     a2               200  101.000        -\n") != NULL);
	CHECK(strstr(out, "\n                     (pooled)         600  100.500  198.500\n") != NULL);
	CHECK(strstr(out, "WakeLatency  b       med   +10.000") != NULL);

	/* --ref: b is the reference */
	CHECK(diff(list3("a1", "a2", "a3"), list3("b1", "b2", "b3"), "--ref", "b", "-F", "json",
		   "-m", "Wake", NULL) == 0);
	j = json_out();
	CHECK_STR(cJSON_GetStringValue(at(j, "reference")), "b");
	CHECK_NEAR(num(j, "metrics/WakeLatency/tests/1/med_diff"), -10, 1e-12);
	cJSON_Delete(j);
	CHECK(diff(list3("a1", "a2", "a3"), list3("b1", "b2", "b3"), "--ref", "c", NULL) == 2);
	CHECK_STR(err, "analyze: --ref: no configuration named 'c' (there are 'a', 'b')\n");

	/* A/A: the same setting under two names is not significant */
	make_system_run("a4", 0.25, "6.1", "all");
	char aa[800];
	snprintf(aa, sizeof(aa), "%s,%s", path("a1"), path("a2"));
	CHECK(diff(aa, list3("a3", "a4", "a4") + 0, "--allow-same", "-F", "json", "-m", "Wake",
		   "-G", "--margin", "5us", NULL) == 0);
	j = json_out();
	CHECK(cJSON_IsFalse(at(j, "metrics/WakeLatency/tests/1/significant")));
	CHECK_STR(cJSON_GetStringValue(at(j, "metrics/WakeLatency/tests/1/level")), "run");
	/* 2 vs 3 runs: never an answer, whatever p says */
	CHECK_STR(cJSON_GetStringValue(at(j, "metrics/WakeLatency/tests/1/run_level/med/verdict/answer")),
		  "inconclusive");
	CHECK(strstr(cJSON_GetStringValue(at(j, "metrics/WakeLatency/verdict/1")), "95% CI if run "
		     "effects are normal [-2, +1], inconclusive: 2 vs 3 runs cannot show the shape of "
		     "the run-to-run variation (a verdict needs 3 or more a side); if run effects are "
		     "normal this design detects changes larger than 1.93 us; 3 runs per "
		     "configuration would detect 5 us (the margin)") != NULL);
	cJSON_Delete(j);
	/* 3 vs 3: run medians 100.5, 101, 100 against 100.75, 100.6, 100.2 */
	make_system_run("a5", 0.1, "6.1", "all");
	make_system_run("a6", -0.3, "6.1", "all");
	CHECK(diff(list3("a1", "a2", "a3"), list3("a4", "a5", "a6"), "-F", "json", "-m", "Wake",
		   "-G", "--margin", "5us", NULL) == 0);
	j = json_out();
	CHECK_STR(cJSON_GetStringValue(at(j, "metrics/WakeLatency/tests/1/run_level/med/verdict/answer")),
		  "equivalent");
	CHECK(strstr(cJSON_GetStringValue(at(j, "metrics/WakeLatency/verdict/1")),
		     "no change larger than 5 us (equivalence, TOST: Holm-adjusted p = ") != NULL);
	cJSON_Delete(j);
	/* the default margin, 5% of the reference's 100.5 us; 0.5% is narrower than the design
	 * can tell */
	CHECK(diff(list3("a1", "a2", "a3"), list3("a4", "a5", "a6"), "-m", "Wake", "-G", NULL) == 0);
	CHECK(strstr(out, "no change larger than 5.03 us (equivalence, TOST: Holm-adjusted p = ") != NULL);
	CHECK(diff(list3("a1", "a2", "a3"), list3("a4", "a5", "a6"), "-m", "Wake", "-G", "--margin",
		   "0.5%", NULL) == 0);
	CHECK(strstr(out, "inconclusive: this design detects only changes larger than 1.52 us (80% "
		     "power at the family's level); ") != NULL);
	CHECK(strstr(out, " runs per configuration would detect 0.503 us (the margin)") != NULL);

	/* three runs against one: datapoint level, nothing significant; the note names the side
	 * with one run (not "one run per configuration") */
	CHECK(diff(list3("a1", "a2", "a3"), path("b1"), "-F", "json", "-m", "Wake", NULL) == 0);
	j = json_out();
	CHECK_STR(cJSON_GetStringValue(at(j, "metrics/WakeLatency/tests/1/level")), "datapoint");
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/tests/1/replicates/1"), 1);
	CHECK(cJSON_IsFalse(at(j, "metrics/WakeLatency/tests/1/significant")));
	CHECK(strstr(cJSON_GetStringValue(at(j, "metrics/WakeLatency/verdict/1")), "; b1 has one run "
		     "(3 vs 1 runs), so run-to-run variation is unknown: for a verdict, repeat its "
		     "runs") != NULL);
	CHECK(strstr(cJSON_GetStringValue(at(j, "metrics/WakeLatency/verdict/1")),
		     "one run per configuration") == NULL);
	cJSON_Delete(j);

	/* bad lists */
	snprintf(aa, sizeof(aa), "%s,,%s", path("a1"), path("a2"));
	CHECK(diff(aa, path("b1"), NULL) == 2);
	snprintf(want, sizeof(want), "analyze: '%s': an empty run in a comma-separated list\n", aa);
	CHECK_STR(err, want);
	snprintf(aa, sizeof(aa), "%s,%s", path("a1"), path("a2"));
	CHECK(diff(aa, NULL) == 2);
	CHECK_STR(err, "analyze: diff: need at least two configurations, got one of 2 runs (A,B is "
		  "one configuration of replicate runs; see 'analyze diff --help')\n");
}

/* An experiment directory: configurations in design order, the varied setting not warned. */
static void test_experiment(void)
{
	char cmd[1024];
	mkdir(path("exp"), 0755);
	snprintf(cmd, sizeof(cmd), "cd '%s' && cp -r a1 exp/POLL-1 && cp -r a2 exp/all-1 && "
		 "cp -r b1 exp/POLL-2 && cp -r b2 exp/all-2 && cp -r b3 exp/POLL-3 && "
		 "cp -r a3 exp/all-3", tmp);
	CHECK(system(cmd) == 0);
	/* the "all" runs get the POLL runs' data and vice versa: POLL is 10 us slower */
	write_file("exp/experiment.json",
		   "{\"format_version\": \"1.0\", \"design\": {\"factors\": [{\"name\": \"cstates\", "
		   "\"values\": [\"all\", \"POLL\"]}], \"repeat\": 3, \"order\": \"interleaved\"},\n"
		   "\"runs\": [{\"path\": \"POLL-1\", \"config\": {\"cstates\": \"POLL\"}, \"replicate\": 1, \"complete\": true},\n"
		   "{\"path\": \"all-1\", \"config\": {\"cstates\": \"all\"}, \"replicate\": 1, \"complete\": true},\n"
		   "{\"path\": \"POLL-2\", \"config\": {\"cstates\": \"POLL\"}, \"replicate\": 2, \"complete\": true},\n"
		   "{\"path\": \"all-2\", \"config\": {\"cstates\": \"all\"}, \"replicate\": 2, \"complete\": true},\n"
		   "{\"path\": \"POLL-3\", \"config\": {\"cstates\": \"POLL\"}, \"replicate\": 3, \"complete\": true},\n"
		   "{\"path\": \"all-3\", \"config\": {\"cstates\": \"all\"}, \"replicate\": 3, \"complete\": false}]}\n");
	CHECK(diff(path("exp"), "-F", "json", "-m", "Wake", NULL) == 0);
	char want[512];
	snprintf(want, sizeof(want), "analyze: warning: %s/experiment.json: 1 incomplete run left out\n",
		 path("exp"));
	CHECK_STR(err, want);
	cJSON *j = json_out();
	CHECK_STR(cJSON_GetStringValue(at(j, "configs/0/name")), "cstates=all");
	CHECK_STR(cJSON_GetStringValue(at(j, "configs/1/name")), "cstates=POLL");
	CHECK(cJSON_GetArraySize(at(j, "configs/0/runs")) == 2);
	CHECK(cJSON_GetArraySize(at(j, "configs/1/runs")) == 3);
	CHECK_STR(cJSON_GetStringValue(at(j, "metrics/WakeLatency/tests/1/level")), "run");
	/* a1 (0), b1 (10), b3 (9.5) as POLL against a2 (0.5), b2 (10.5) as all: no clear shift */
	CHECK(cJSON_IsFalse(at(j, "metrics/WakeLatency/tests/1/significant")));
	/* cstates was varied: only the kernel is a confounder */
	CHECK(cJSON_GetArraySize(at(j, "warnings")) == 1);
	CHECK(strstr(cJSON_GetStringValue(at(j, "warnings/0")), "system.kernel.release") != NULL);
	CHECK(strstr(cJSON_GetStringValue(at(j, "experiment")), ": 2 configurations, 6 runs, order "
		     "interleaved, taken in this order: POLL-1, all-1, POLL-2, all-2, POLL-3, "
		     "all-3 (incomplete)") != NULL);
	cJSON_Delete(j);
	CHECK(diff(path("exp"), "--ref", "cstates=POLL", "-F", "json", "-m", "Wake", NULL) == 0);
	j = json_out();
	CHECK_STR(cJSON_GetStringValue(at(j, "reference")), "cstates=POLL");
	cJSON_Delete(j);
	/* a drift over the order the runs were taken in: +1 us per run, within configurations */
	static const double drift[] = { 0, 1, 2.1, 3, 4, 5.05 };
	mkdir(path("drift"), 0755);
	for (int i = 0; i < 6; i++) {
		char dir[64];
		snprintf(dir, sizeof(dir), "drift/%s-%d", i % 2 ? "POLL" : "all", i / 2 + 1);
		make_system_run(dir, drift[i], "6.1", i % 2 ? "POLL" : "all");
	}
	write_file("drift/experiment.json",
		   "{\"design\": {\"factors\": [{\"name\": \"cstates\", \"values\": [\"all\", \"POLL\"]}]},\n"
		   "\"runs\": [{\"path\": \"all-1\", \"config\": {\"cstates\": \"all\"}},\n"
		   "{\"path\": \"POLL-1\", \"config\": {\"cstates\": \"POLL\"}},\n"
		   "{\"path\": \"all-2\", \"config\": {\"cstates\": \"all\"}},\n"
		   "{\"path\": \"POLL-2\", \"config\": {\"cstates\": \"POLL\"}},\n"
		   "{\"path\": \"all-3\", \"config\": {\"cstates\": \"all\"}},\n"
		   "{\"path\": \"POLL-3\", \"config\": {\"cstates\": \"POLL\"}}]}\n");
	CHECK(diff(path("drift"), "-F", "json", "-m", "Wake", NULL) == 0);
	j = json_out();
	CHECK(cJSON_GetArraySize(at(j, "warnings")) == 1);
	CHECK(strstr(cJSON_GetStringValue(at(j, "warnings/0")), "run order: WakeLatency median drifts "
		     "by +1.01 us per run over the order the runs were taken in (trend within "
		     "configurations, p = ") != NULL);
	cJSON_Delete(j);
	/* the same runs as lists: no order known, no such line */
	char la[800], lb[800];
	snprintf(la, sizeof(la), "%s,%s,%s", path("drift/all-1"), path("drift/all-2"),
		 path("drift/all-3"));
	snprintf(lb, sizeof(lb), "%s,%s,%s", path("drift/POLL-1"), path("drift/POLL-2"),
		 path("drift/POLL-3"));
	CHECK(diff(la, lb, "-F", "json", "-m", "Wake", NULL) == 0);
	j = json_out();
	CHECK(cJSON_GetArraySize(at(j, "warnings")) == 1);   /* settings.cstates only */
	CHECK(strstr(cJSON_GetStringValue(at(j, "warnings/0")), "run order") == NULL);
	cJSON_Delete(j);
	write_file("exp/experiment.json", "{\"runs\": [{\"config\": {}}]}");
	CHECK(diff(path("exp"), NULL) == 2);
	snprintf(want, sizeof(want), "analyze: %s/experiment.json: runs[0]: expected \"path\" (text) "
		 "and \"config\" (an object)\n", path("exp"));
	CHECK_STR(err, want);
	/* runs[].path stays inside the experiment directory: no "..", no absolute path, no symlink
	 * out (a1 is a valid run beside exp/: loading it would succeed) */
	static const struct { const char *path, *why; } out[] = {
		{ "../a1", "'..' in the path (it must stay inside the directory)" },
		{ "POLL-1/../../a1", "'..' in the path (it must stay inside the directory)" },
		{ "/tmp", "an absolute path (it must be inside the directory)" },
		{ "link-out", "a symbolic link out of the directory" },
		{ "link-out/.", "a symbolic link out of the directory" },
	};
	snprintf(cmd, sizeof(cmd), "ln -s ../a1 '%s'", path("exp/link-out"));
	CHECK(system(cmd) == 0);
	for (size_t i = 0; i < sizeof(out) / sizeof(out[0]); i++) {
		char json[512];
		snprintf(json, sizeof(json), "{\"runs\": [{\"path\": \"POLL-1\", \"config\": {\"c\": 1}}, "
			 "{\"path\": \"%s\", \"config\": {\"c\": 2}}]}", out[i].path);
		write_file("exp/experiment.json", json);
		CHECK(diff(path("exp"), NULL) == 2);
		snprintf(want, sizeof(want), "analyze: %s/experiment.json: runs[1].path '%s': %s: refused\n",
			 path("exp"), out[i].path, out[i].why);
		CHECK_STR(err, want);
	}
	/* a symlink that stays inside is a path like another */
	snprintf(cmd, sizeof(cmd), "ln -s POLL-2 '%s'", path("exp/link-in"));
	CHECK(system(cmd) == 0);
	write_file("exp/experiment.json", "{\"runs\": [{\"path\": \"POLL-1\", \"config\": {\"c\": 1}}, "
		   "{\"path\": \"link-in\", \"config\": {\"c\": 2}}]}");
	CHECK(diff(path("exp"), "-m", "Wake", NULL) == 0);
}

static void test_bad_inputs(void)
{
	char want[512];
	CHECK(diff(path("ref"), NULL) == 2);
	CHECK_STR(err, "analyze: diff: need at least two runs, the reference first (see 'analyze diff --help')\n");
	CHECK(diff(NULL) == 2);
	CHECK(diff(path("ref"), path("shift"), "-F", "xml", NULL) == 2);
	CHECK_STR(err, "analyze: diff: --format: expected text, csv or json, got 'xml'\n");
	CHECK(diff(path("ref"), path("shift"), "-f", "med,p99", NULL) == 2);
	CHECK(strstr(err, "analyze: diff: --funcs: unknown function 'p99'") == err);

	/* metric sets differ: the shared ones are compared, the rest named */
	CHECK(diff(path("ref"), path("nointr"), "-F", "json", NULL) == 0);
	CHECK_STR(err, "analyze: warning: metric 'IntrLatency' is missing in nointr; left out "
		  "(only metrics every run has are compared)\n");
	cJSON *j = json_out();
	CHECK(at(j, "metrics/IntrLatency") == NULL && at(j, "metrics/WakeLatency") != NULL);
	cJSON_Delete(j);
	CHECK(diff(path("ref"), path("nointr"), "-m", "Intr", NULL) == 1);
	CHECK_STR(err, "analyze: warning: metric 'IntrLatency' is missing in nointr; left out "
		  "(only metrics every run has are compared)\n"
		  "analyze: no metric matching --metrics is numeric in every run\n");

	/* a bare CSV with one column: two metrics missing, and no ReqCState to group by */
	mkdir(path("bare"), 0755);
	write_file("bare/only-wake.csv", "WakeLatency\n1\n2\n3\n4\n");
	CHECK(diff(path("ref"), path("bare/only-wake.csv"), "-F", "json", NULL) == 0);
	CHECK_STR(err, "analyze: warning: bare has no ReqCState column: no per-ReqCState comparison\n"
		  "analyze: warning: metrics 'IntrLatency', 'LDist' are missing in bare; "
		  "left out (only metrics every run has are compared)\n");
	j = json_out();
	CHECK(cJSON_IsNull(at(j, "group_by")) && cJSON_GetArraySize(at(j, "groups")) == 0);
	CHECK_EQ_DBL(num(j, "runs/1/rows"), 4);
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/max/values/1"), 4);
	cJSON_Delete(j);

	/* nothing left after filtering */
	CHECK(diff(path("ref"), path("shift"), "-i", "WakeLatency > 220", NULL) == 1);
	snprintf(want, sizeof(want), "analyze: %s/datapoints.csv: no datapoints left after filtering\n",
		 path("ref"));
	CHECK_STR(err, want);
	CHECK_STR(out, "");

	/* units and tools that do not match */
	CHECK(diff(path("ref"), path("ns"), "-m", "Wake", "-F", "json", NULL) == 0);
	CHECK_STR(err, "analyze: warning: ns was measured by wult, the reference ref by idlescope: "
		  "the numbers may not mean the same\n"
		  "analyze: warning: WakeLatency: unit 'ns' in ns but 'us' in the reference ref: values "
		  "are compared as they are\n");

	/* --by a column a run lacks, a run that does not exist */
	CHECK(diff(path("ref"), path("shift"), "--by", "Foo", NULL) == 1);
	snprintf(want, sizeof(want), "analyze: %s/datapoints.csv: --by: no column 'Foo'\n", path("ref"));
	CHECK_STR(err, want);
	CHECK(diff(path("ref"), path("nosuch"), NULL) == 1);
	CHECK(strstr(err, "nosuch") != NULL && strchr(err, '\n') == err + strlen(err) - 1);
	CHECK(diff(path("ref"), path("shift"), "--include", "(LDist > 3", NULL) == 2);
	CHECK(strstr(err, "--include: expected ')'") != NULL);
}

/* Values near DBL_MAX: avg and std as exact arithmetic gives them (Python's fractions), and a
 * percentage whose change, 1e308 against -1e308, overflows although the percentage does not. */
static void test_huge_values(void)
{
	mkdir(path("hugea"), 0755);
	mkdir(path("hugeb"), 0755);
	write_file("hugea/datapoints.csv", "WakeLatency\n1e308\n1e308\n1.5e308\n");
	write_file("hugeb/datapoints.csv", "WakeLatency\n-1e308\n-1.2e308\n-1.5e308\n");
	CHECK(diff(path("hugea"), path("hugeb"), "-F", "json", NULL) == 0);
	cJSON *j = json_out();
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/avg/values/0"), 1.1666666666666667e+308);
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/std/values/0"), 2.8867513459481287e+307);
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/avg/values/1"), -1.2333333333333335e+308);
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/std/values/1"), 2.5166114784235831e+307);
	CHECK(cJSON_IsNull(at(j, "metrics/WakeLatency/min/change/1")));  /* -2.5e308 */
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/min/pct/1"), -250);
	CHECK_EQ_DBL(num(j, "metrics/WakeLatency/max/pct/1"), -166.66666666666666);
	CHECK_NEAR(num(j, "metrics/WakeLatency/std/pct/1"), -12.822021129186531, 1e-15);
	cJSON_Delete(j);
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: test_diff_cli ANALYZE SHARED_DATA SAMPLES\n");
		return 2;
	}
	analyze = argv[1];
	shared = argv[2];
	if (!mkdtemp(tmp))
		return 2;
	make_run("ref", "ref", "idlescope", 0, 1, 0, NULL);
	make_run("refcopy", "ref", "idlescope", 0, 1, 0, NULL);
	make_run("shift", "shift", "idlescope", 50, 1, 0, NULL);
	make_run("nointr", "nointr", "idlescope", 0, 0, 0, NULL);
	make_run("c10", "c10", "idlescope", 0, 1, 1, NULL);
	make_run("ns", "ns", "wult", 0, 1, 0, "{\"WakeLatency\": \"ns\"}");
	test_shifted();
	test_formats_and_options();
	test_identical_and_names();
	test_same_as_stats("ref", "c10", 2 * 3 * 9 * 4);  /* runs x metrics x funcs x parts */
	make_big_run("big1", 1, 0);
	make_big_run("big2", 2, 0.1);
	test_same_as_stats("big1", "big2", 2 * 3 * 9 * 4);
	CHECK(diff(path("big1"), path("big2"), "-F", "json", NULL) == 0);
	cJSON *j = json_out();
	CHECK(cJSON_IsTrue(at(j, "metrics/WakeLatency/tests/1/differs")));
	CHECK(cJSON_IsFalse(at(j, "metrics/WakeLatency/tests/1/significant")));
	CHECK(num(j, "metrics/WakeLatency/tests/1/med_diff_ci95/0") < 0.1 &&
	      num(j, "metrics/WakeLatency/tests/1/med_diff_ci95/1") > 0.1);
	CHECK(cJSON_IsNull(at(j, "groups/POLL/metrics/WakeLatency/tests/1")));
	CHECK(cJSON_IsFalse(at(j, "metrics/CC6%/tests/1/differs")));
	cJSON_Delete(j);
	test_bad_inputs();
	test_huge_values();
	test_replicates();
	test_experiment();
	test_counters(argv[3]);
	free(out);
	free(err);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmp);
	return CHECK_DONE();
}
