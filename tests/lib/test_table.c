/* SPDX-License-Identifier: GPL-2.0-only */
/* The CSV table reader and run loading on small files written here. */
#include <stdlib.h>
#include <unistd.h>

#include "run/run.h"
#include "table/table.h"
#include "../common/check.h"

static char dir[] = "/tmp/is-test-table-XXXXXX";

static const char *write_file(const char *name, const char *text, size_t len)
{
	static char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	fwrite(text, 1, len, f);
	fclose(f);
	return path;
}

static struct isc_table *read_text(const char *text)
{
	struct isc_table *t = NULL;
	const char *p = write_file("t.csv", text, strlen(text));
	if (isc_table_read(p, NULL, &t) < 0)
		return NULL;
	return t;
}

static void basic(void)
{
	struct isc_table *t = read_text("A,B,ReqCState,N\r\n1.5,,C6,-2\r\n\r\n2,3e2,POLL,\r\n");
	CHECK(t && t->nrows == 2 && t->ncols == 4);
	if (!t)
		return;
	struct isc_column *a = isc_table_col(t, "A"), *b = isc_table_col(t, "B"), *c = isc_table_col(t, "ReqCState");
	CHECK(a->type == ISC_COL_NUM && b->type == ISC_COL_NUM && c->type == ISC_COL_TEXT);
	CHECK_EQ_DBL(a->num[0], 1.5);
	CHECK_EQ_DBL(a->num[1], 2);
	CHECK(isnan(b->num[0]));
	CHECK_EQ_DBL(b->num[1], 300);
	CHECK_STR(isc_table_str(t, c->text[0]), "C6");
	CHECK_STR(isc_table_str(t, c->text[1]), "POLL");
	CHECK(isnan(isc_table_col(t, "N")->num[1]));
	isc_table_free(t);
}

static struct isc_table *read_known(const char *text, bool complete, size_t rows, int *rc)
{
	struct isc_table *t = NULL;
	struct isc_table_opts o = { .known_complete = complete, .known_rows = rows };
	*rc = isc_table_read(write_file("k.csv", text, strlen(text)), &o, &t);
	return t;
}

static void quoted_and_cut(void)
{
	int rc;
	const char *quoted = "Name,V\n\"a,b\",1\n\"say \"\"hi\"\"\",2\nplain,3\nplain,4";
	struct isc_table *t = read_text(quoted);
	CHECK(t && t->nrows == 3 && t->dropped_rows == 1);  /* no newline at the end: maybe cut */
	if (t) {
		CHECK_STR(isc_table_str(t, isc_table_col(t, "Name")->text[0]), "a,b");
		CHECK_STR(isc_table_str(t, isc_table_col(t, "Name")->text[1]), "say \"hi\"");
		CHECK_EQ_DBL(isc_table_col(t, "V")->num[2], 3);
		isc_table_free(t);
	}
	t = read_known(quoted, true, 4, &rc);  /* known complete with 4 rows: the last one stays */
	CHECK(rc == 0 && t && t->nrows == 4 && t->dropped_rows == 0);
	if (t)
		CHECK_EQ_DBL(isc_table_col(t, "V")->num[3], 4);
	isc_table_free(t);
	t = read_known(quoted, true, 5, &rc);  /* the count does not match: dropped */
	CHECK(rc == 0 && t && t->nrows == 3 && t->dropped_rows == 1);
	isc_table_free(t);
	t = read_known(quoted, false, 4, &rc);  /* not complete */
	CHECK(rc == 0 && t && t->nrows == 3);
	isc_table_free(t);
	t = read_text("A,B,C\n1,2,3\n4,5");  /* killed mid-row */
	CHECK(t && t->nrows == 1 && t->dropped_rows == 1);
	isc_table_free(t);
	t = read_known("A,B,C\n1,2,3\n4,5", true, 2, &rc);  /* complete with 2 rows: bad data */
	CHECK(rc == -1 && !t);
	/* cut inside the last field: "9" of "9xx.y" was kept as LDist 9 */
	t = read_text("WakeLatency,LDist\n1.5,1000.25\n2.5,1000.5\n3.5,9");
	CHECK(t && t->nrows == 2 && t->dropped_rows == 1);
	if (t)
		CHECK_EQ_DBL(isc_table_col(t, "LDist")->num[1], 1000.5);
	isc_table_free(t);
	t = read_text("A,B\n1,2\n3,4.");  /* cut after the point */
	CHECK(t && t->nrows == 1 && t->dropped_rows == 1);
	isc_table_free(t);
	t = read_text("A,B\n1,2\n3,9999.\n");  /* a whole line: "9999." is 9999, as in C and Python */
	CHECK(t && t->nrows == 2 && t->dropped_rows == 0);
	if (t)
		CHECK_EQ_DBL(isc_table_col(t, "B")->num[1], 9999);
	isc_table_free(t);
}

static void column_choice(void)
{
	struct isc_table *t = NULL;
	const char *p = write_file("w.csv", "X,Y,Z\n1,a,3\n4,b,6\n", 18);
	bool only_z(const char *name, void *arg);
	struct isc_table_opts o = { .want = only_z };
	CHECK(isc_table_read(p, &o, &t) == 0);
	CHECK(t && t->ncols == 1 && t->file_ncols == 3 && t->nrows == 2);
	if (t)
		CHECK_EQ_DBL(t->cols[0].num[1], 6);
	isc_table_free(t);
}

bool only_z(const char *name, void *arg)
{
	(void)arg;
	return !strcmp(name, "Z");
}

static void big_two_threads(void)
{
	/* big enough to be split between two threads: the rows must join in order */
	size_t n = 400000;
	char path[256];
	snprintf(path, sizeof(path), "%s/big.csv", dir);
	FILE *f = fopen(path, "wb");
	fprintf(f, "I,S,ReqCState\n");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%zu,%zu.25,%s\n", i, i * 3, i % 3 ? "C6" : (i % 2 ? "C1" : "POLL"));
	fclose(f);
	struct isc_table *t = NULL;
	struct isc_table_opts o = { .nthreads = 2 };
	CHECK(isc_table_read(path, &o, &t) == 0);
	CHECK(t && t->nrows == n);
	size_t bad = 0;
	for (size_t i = 0; t && i < n; i++) {
		const char *want = i % 3 ? "C6" : (i % 2 ? "C1" : "POLL");
		bad += t->cols[0].num[i] != (double)i || t->cols[1].num[i] != (double)(i * 3) + 0.25 ||
		       strcmp(isc_table_str(t, t->cols[2].text[i]), want) != 0;
	}
	CHECK(bad == 0);
	isc_table_free(t);
}

/* Row counts are estimated from the first lines' length; rows far shorter later on make the
 * chunks outgrow that estimate (arrays of their own), rows far longer leave room unused. */
static void misestimated_rows(size_t n, size_t long_from, size_t long_to)
{
	char path[256], pad[301];
	memset(pad, 'p', 300);
	pad[300] = '\0';
	snprintf(path, sizeof(path), "%s/est.csv", dir);
	FILE *f = fopen(path, "wb");
	fprintf(f, "I,Pad,V\n");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%zu,%s,%zu.5\n", i, i >= long_from && i < long_to ? pad : "s", n - i);
	fclose(f);
	struct isc_table *t = NULL;
	struct isc_table_opts o = { .nthreads = 2 };
	CHECK(isc_table_read(path, &o, &t) == 0);
	CHECK(t && t->nrows == n);
	size_t bad = 0;
	for (size_t i = 0; t && i < n; i++) {
		const char *want = i >= long_from && i < long_to ? pad : "s";
		bad += t->cols[0].num[i] != (double)i || t->cols[2].num[i] != (double)(n - i) + 0.5 ||
		       strcmp(isc_table_str(t, t->cols[1].text[i]), want) != 0;
	}
	CHECK(bad == 0);
	isc_table_free(t);
}

/* A file whose B column is empty for its first rows (8 bytes a row) and "abc" at row late. */
static int read_late_text(size_t n, size_t late, struct isc_table **t)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/late.csv", dir);
	FILE *f = fopen(path, "wb");
	fprintf(f, "A,B\n");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%06zu,%s\n", i, i == late ? "abc" : "");
	fclose(f);
	*t = NULL;
	return isc_table_read(path, NULL, t);
}

/* A column's type is its first non-empty value's in the first 1 MiB, which is read in two
 * steps (320 KiB, then the rest while a column is undecided): text at 400 KB makes a text
 * column, text at 1.1 MB is an error in a number column. */
static void late_types(void)
{
	struct isc_table *t;
	CHECK(read_late_text(60000, 50000, &t) == 0);
	struct isc_column *b = t ? isc_table_col(t, "B") : NULL;
	CHECK(b && b->type == ISC_COL_TEXT);
	CHECK(b && t->nrows == 60000 && strcmp(isc_table_str(t, b->text[50000]), "abc") == 0);
	CHECK(t && isc_table_col(t, "A")->num[59999] == 59999);
	isc_table_free(t);
	CHECK(read_late_text(150000, 140000, &t) < 0 && !t);
}

/* The plain path's edges: empty fields first, inside and last, a value beyond its packed
 * column's decimals, -0 and negatives, and the same lines once more at the file's end
 * without a newline (the line path instead of the block path). */
static void plain_edges(void)
{
	const char *rows = "1.2345678901234567,1.5,a\n,,\n2.5,,b\n,2.25,c\n3,-0,d\n-1.5,-4.5,";
	char text[256];
	int rc;
	snprintf(text, sizeof(text), "W,P,T\n%s\n%s", rows, rows);
	struct isc_table *t = NULL;
	struct isc_table_opts o = { .known_complete = true, .known_rows = 12, .pack = true };
	rc = isc_table_read(write_file("edges.csv", text, strlen(text)), &o, &t);
	CHECK(rc == 0 && t && t->nrows == 12 && t->dropped_rows == 0);
	if (!t)
		return;
	CHECK(isc_table_col(t, "P")->packed && !isc_table_col(t, "W")->packed);
	double wb[12], pb[12];
	const double *w = isc_col_values(isc_table_col(t, "W"), 0, 12, wb);
	const double *p = isc_col_values(isc_table_col(t, "P"), 0, 12, pb);
	const uint32_t *txt = isc_table_col(t, "T")->text;
	for (size_t r = 0; r < 12 && r < t->nrows; r += 6) {
		CHECK_EQ_DBL(w[r], 1.2345678901234567);
		CHECK_EQ_DBL(p[r], 1.5);
		CHECK(isnan(w[r + 1]) && isnan(p[r + 1]) && isnan(p[r + 2]) && isnan(w[r + 3]));
		CHECK_EQ_DBL(w[r + 2], 2.5);
		CHECK_EQ_DBL(p[r + 3], 2.25);
		CHECK_EQ_DBL(w[r + 4], 3);
		CHECK(p[r + 4] == 0 && signbit(p[r + 4]));
		CHECK_EQ_DBL(w[r + 5], -1.5);
		CHECK_EQ_DBL(p[r + 5], -4.5);
		CHECK_STR(isc_table_str(t, txt[r + 3]), "c");
		CHECK(txt[r + 5] == ISC_TEXT_EMPTY);
	}
	isc_table_free(t);
}

static void wult_run(void)
{
	struct isc_run *r;
	CHECK(isc_run_open(SHARED_DATA "/wult-good", &r) == 0);
	CHECK_STR(r->name, "testdata");
	CHECK_STR(r->toolname, "wult");
	CHECK_STR(isc_run_info_str(r, "format_version"), "1.2");
	CHECK_STR(isc_run_info_str(r, "cpu"), "0");
	CHECK_STR(isc_run_info_str(r, "devid"), "tdt");
	CHECK(isc_run_load_dp(r, NULL) == 0 && r->dp->nrows == 9);
	CHECK_EQ_DBL(isc_table_col(r->dp, "WakeLatency")->num[0], 4.1797981021053525);
	isc_run_free(r);
}

int main(void)
{
	CHECK(mkdtemp(dir) != NULL);
	basic();
	quoted_and_cut();
	column_choice();
	big_two_threads();
	misestimated_rows(300000, 0, 20000);       /* both chunks outgrow the estimate */
	misestimated_rows(100000, 0, 50000);       /* the second chunk outgrows it */
	misestimated_rows(100000, 30000, 100000);  /* the first one is short of it */
	late_types();
	plain_edges();
	wult_run();
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
	return CHECK_DONE();
}
