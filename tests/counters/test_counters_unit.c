/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests of the counter library: wraparound, the REF_XCLK scaling table, option parsing,
 * clamping, and isc_counters_summary() over a multi-interval run whose energy counter wraps
 * twice (so that only per-interval deltas give the right total).
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "counters/derive/counters_derive.h"
#include "counters/derive/counters_summary.h"
#include "text/util.h"
#include "../common/check.h"

static void write_file(const char *dir, const char *name, const char *text)
{
	char *p = isc_xasprintf("%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	free(p);
}

static void test_wrap(void)
{
	CHECK_EQ_DBL(cnt_wrap_delta(10, 25, 32), 15);
	CHECK_EQ_DBL(cnt_wrap_delta(4294967000.0, 704, 32), 1000);
	CHECK_EQ_DBL(cnt_wrap_delta(281474976710000.0, 1000, 48), 1656);
	CHECK(isnan(cnt_wrap_delta(NAN, 5, 64)));
}

static void test_k(void)
{
	const char *why;
	CHECK_EQ_DBL(cnt_ref_xclk_k("GenuineIntel", 6, 0x1A, NAN, &why), 1);          /* Nehalem-EP */
	CHECK_EQ_DBL(cnt_ref_xclk_k("GenuineIntel", 6, 0x2A, 34, &why), 34);          /* Sandy Bridge */
	CHECK_EQ_DBL(cnt_ref_xclk_k("GenuineIntel", 6, 0x4F, 22, &why), 22);          /* Broadwell-EP */
	CHECK_EQ_DBL(cnt_ref_xclk_k("GenuineIntel", 6, 0x55, 21, &why), 84);          /* Xeon 8160 */
	CHECK(isnan(cnt_ref_xclk_k("GenuineIntel", 6, 0x55, NAN, &why)) && why);
	CHECK(isnan(cnt_ref_xclk_k("AuthenticAMD", 25, 1, 20, &why)) && why);
	CHECK_EQ_DBL(cnt_bclk_mhz("GenuineIntel", 6, 0x2C), 400.0 / 3.0);
	CHECK_EQ_DBL(cnt_dram_unit_j("GenuineIntel", 6, 0x55, 1.0 / 16384), 15.3e-6);
	CHECK_EQ_DBL(cnt_dram_unit_j("GenuineIntel", 6, 0x9E, 1.0 / 16384), 1.0 / 16384);
}

static void test_parse(void)
{
	int *cpus;
	size_t n;
	CHECK(cnt_parse_cpu_list("3,0-2,2", &cpus, &n) == 0 && n == 4 && cpus[0] == 0 && cpus[3] == 3);
	free(cpus);
	CHECK(cnt_parse_cpu_list("1-", &cpus, &n) < 0);
	CHECK(cnt_parse_cpu_list("", &cpus, &n) < 0);
	struct cnt_def def;
	char *owned[2], err[256];
	CHECK(cnt_parse_add("msr0x34,u32,package,percent,MY_SMI", &def, owned, err, sizeof(err)) == 0);
	CHECK(def.src[0].type == SRC_MSR && def.src[0].msr == 0x34 && def.src[0].width == 32);
	CHECK(def.scope == CNT_PACKAGE && def.kind == CNT_PERCENT);
	CHECK_STR(def.name, "MY_SMI");
	free(owned[0]);
	free(owned[1]);
	CHECK(cnt_parse_add("/sys/x/cpu%d/y,raw", &def, owned, err, sizeof(err)) < 0);   /* no NAME */
	CHECK(cnt_parse_add("msr0x10,TSC", &def, owned, err, sizeof(err)) < 0);          /* built-in */
	CHECK(cnt_parse_add("msrzz,u64", &def, owned, err, sizeof(err)) < 0);
}

/* Three snapshots, one CPU; Busy% > 100 in the second interval (clamped); the 32-bit package
 * energy wraps in both intervals. */
static const char *const wrap_csv =
	"Snapshot,Time,CPU,Core,Package,TSC,MPERF,APERF,RAPL_POWER_UNIT,PKG_ENERGY\n"
	"0,10,0,0,0,1000,0,0,658947,4000000000\n"
	"1,11,0,0,0,2001000,1000000,1500000,658947,1000000000\n"
	"2,12,0,0,0,4001000,3100000,3600000,658947,4200000000\n";

static void test_summary(const char *dir)
{
	write_file(dir, "counters.csv", wrap_csv);
	write_file(dir, "info.json", "{\"counters\": {\"cpu\": {\"vendor\": \"GenuineIntel\", \"family\": 6, \"model\": 85}}}");
	cJSON *sum = NULL, *series = NULL;
	CHECK(isc_counters_summary(dir, &sum, &series) == 1);
	if (!sum || !series)
		return;
	/* whole run: TSC 4000000, MPERF 3100000, APERF 3600000 over 2 s */
	CHECK_EQ_DBL(cJSON_GetObjectItem(sum, "Busy%")->valuedouble, 100.0 * 3100000 / 4000000);
	CHECK_EQ_DBL(cJSON_GetObjectItem(sum, "Avg_MHz")->valuedouble, 3600000 / 2.0 / 1e6);
	CHECK_EQ_DBL(cJSON_GetObjectItem(sum, "TSC_MHz")->valuedouble, 4000000 / 2.0 / 1e6);
	/* 658947 = 0xA0E03: ESU 14. Energy: (2^32 - 4e9 + 1e9) + (4.2e9 - 1e9), not one wrap */
	double joules = (4294967296.0 - 4e9 + 1e9 + 3.2e9) / 16384;
	CHECK_EQ_DBL(cJSON_GetObjectItem(sum, "PkgWatt")->valuedouble, joules / 2);
	CHECK_STR(sum->child->string, "Avg_MHz");   /* turbostat's order */
	CHECK(cJSON_GetObjectItem(sum, "CPU%c6") == NULL);   /* not derivable: left out */
	cJSON *busy = cJSON_GetObjectItem(series, "Busy%");
	CHECK(cJSON_GetArraySize(busy) == 2);
	CHECK_EQ_DBL(cJSON_GetArrayItem(busy, 0)->valuedouble, 50);
	CHECK_EQ_DBL(cJSON_GetArrayItem(busy, 1)->valuedouble, 100);   /* 105% clamped */
	CHECK_EQ_DBL(cJSON_GetArrayItem(cJSON_GetObjectItem(series, "t"), 1)->valuedouble, 2);
	cJSON_Delete(sum);
	cJSON_Delete(series);

	struct cnt_data *d;
	CHECK(cnt_data_load(dir, &d) == 1);
	struct cnt_derive_opts o = { 0 };
	struct cnt_result r;
	CHECK(cnt_derive(d, &o, &r) == 0);
	int b = cnt_result_col(&r, "Busy%");
	CHECK(b >= 0 && r.clamped[b] == 1);
	CHECK_EQ_DBL(r.clamp_worst[b], 105);
	cnt_result_free(&r);
	cnt_data_free(d);
}

/* IPC falls back to APERF (as turbostat computes it) when there is no cycles counter. */
static void test_ipc_fallback(const char *dir)
{
	char *sub = isc_xasprintf("%s/ipc", dir);
	mkdir(sub, 0755);
	write_file(sub, "counters.csv", "Snapshot,Time,CPU,Core,Package,INST_RETIRED,APERF\n"
				       "0,1,0,0,0,100,1000\n1,2,0,0,0,3100,3000\n");
	cJSON *sum = NULL;
	CHECK(isc_counters_summary(sub, &sum, NULL) == 1);
	CHECK(sum && cJSON_GetObjectItem(sum, "IPC") && cJSON_GetObjectItem(sum, "IPC")->valuedouble == 1.5);
	cJSON_Delete(sum);
	free(sub);
}

/* Energy read through perf: info.json gives the scale (J per count) and 64-bit width. */
static void test_perf_energy(const char *dir)
{
	char *sub = isc_xasprintf("%s/perf", dir);
	mkdir(sub, 0755);
	write_file(sub, "counters.csv", "Snapshot,Time,CPU,Core,Package,PKG_ENERGY\n"
				       "0,5,0,0,0,4294967296\n1,7,0,0,0,90194313216\n");
	write_file(sub, "info.json", "{\"counters\": {\"columns\": {\"PKG_ENERGY\": {\"source\": "
				    "\"perf power/energy-pkg\", \"scope\": \"package\", \"width\": 64, "
				    "\"scale\": 2.3283064365386962890625e-10}}}}");
	cJSON *sum = NULL;
	CHECK(isc_counters_summary(sub, &sum, NULL) == 1);
	/* (90194313216 - 4294967296) * 2^-32 J = 20 J over 2 s */
	CHECK(sum && cJSON_GetObjectItem(sum, "PkgWatt") && cJSON_GetObjectItem(sum, "PkgWatt")->valuedouble == 10);
	cJSON_Delete(sum);
	free(sub);
}

/* A reset (TSC from 1e12 to 5, which no 64-bit wrap at a possible rate explains) and time
 * running backwards: the whole-run summary is over the measured steps only. */
static void test_reset_left_out(const char *dir)
{
	char *sub = isc_xasprintf("%s/reset", dir);
	mkdir(sub, 0755);
	write_file(sub, "counters.csv", "Snapshot,Time,CPU,Core,Package,TSC,APERF,MPERF\n"
				       "0,1,0,0,0,1000000000000,10,20\n"
				       "1,2,0,0,0,5,30,60\n"
				       "2,3,0,0,0,2000000005,1000000030,1000000060\n"
				       "3,2.5,0,0,0,2000000010,1000000031,1000000061\n"
				       "4,3.5,0,0,0,6000000010,1000000032,1000000062\n");
	CHECK(cnt_max_rate("TSC") == 1e11 && cnt_max_rate("SMI_COUNT") == 1e6);
	CHECK(cnt_max_rate("C6.time") == 1e7 && cnt_max_rate("MY_COUNTER") == 1e12);
	cJSON *sum = NULL, *series = NULL;
	CHECK(isc_counters_summary(sub, &sum, &series) == 1);
	/* measured: snapshot 1 to 2 (TSC 2e9, APERF 1e9, MPERF 1e9 in 1 s) and 3 to 4 (TSC 4e9,
	 * APERF 1, MPERF 1 in 1 s) */
	CHECK(sum && cJSON_GetObjectItem(sum, "TSC_MHz") &&
	      cJSON_GetObjectItem(sum, "TSC_MHz")->valuedouble == 6e9 / 2 / 1e6);
	CHECK(sum && cJSON_GetObjectItem(sum, "Avg_MHz") &&
	      cJSON_GetObjectItem(sum, "Avg_MHz")->valuedouble == 1000000001.0 / 2 / 1e6);
	cJSON *tsc = cJSON_GetObjectItem(series, "TSC_MHz");
	CHECK(cJSON_GetArraySize(tsc) == 4);
	CHECK(cJSON_IsNull(cJSON_GetArrayItem(tsc, 0)) && cJSON_IsNull(cJSON_GetArrayItem(tsc, 2)));
	CHECK(cJSON_GetArrayItem(tsc, 1) && cJSON_GetArrayItem(tsc, 1)->valuedouble == 2000);
	CHECK(cJSON_GetArrayItem(tsc, 3) && cJSON_GetArrayItem(tsc, 3)->valuedouble == 4000);
	cJSON_Delete(sum);
	cJSON_Delete(series);
	free(sub);
}

static void test_absent_and_bad(const char *dir)
{
	char *empty = isc_xasprintf("%s/empty", dir), *bad = isc_xasprintf("%s/bad", dir);
	mkdir(empty, 0755);
	mkdir(bad, 0755);
	cJSON *sum = NULL;
	CHECK(isc_counters_summary(empty, &sum, NULL) == 0);
	write_file(bad, "counters.csv", "Snapshot,Time,CPU,Core,Package,TSC\n0,1,0,0,0,abc\n1,2,0,0,0,5\n");
	CHECK(isc_counters_summary(bad, &sum, NULL) == -1);
	free(empty);
	free(bad);
}

int main(void)
{
	isc_set_progname("test_counters_unit");
	char tmpl[] = "/tmp/counters-unit-XXXXXX";
	const char *dir = mkdtemp(tmpl);
	CHECK(dir != NULL);
	if (!dir)
		return 1;
	test_wrap();
	test_k();
	test_parse();
	test_summary(dir);
	test_ipc_fallback(dir);
	test_perf_energy(dir);
	test_reset_left_out(dir);
	test_absent_and_bad(dir);
	char *cmd = isc_xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	free(cmd);
	return CHECK_DONE();
}
