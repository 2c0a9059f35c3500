/* SPDX-License-Identifier: GPL-2.0-only */
/* lib/cli: getopt tables and --help from one option table; abbreviated long options refused. */
#include <stdlib.h>
#include <string.h>

#include "../common/check.h"
#include "cli/cli.h"
#include "text/util.h"

enum { OPT_REPORTID = 256, OPT_NO_GROUP, OPT_NO_CACHE };

static const struct cli_opt table[] = {
	{ NULL, 0, 0, NULL, "Options:\n" },
	{ "output", 'o', 'o', "DIR", "Write the run into DIR." },
	{ "quiet", 'q', 'q', NULL, "No progress line." },
	{ "reportid", 0, OPT_REPORTID, "ID",
	  "Report ID in info.json (default: the output directory's name); a long text that wraps at\n"
	  "seventy-nine columns." },
	{ "no-group", 'G', OPT_NO_GROUP, NULL, "No per-group tables." },
	{ "no-cache", 0, OPT_NO_CACHE, NULL, "No cache." },
	{ "a-very-long-option-name", 0, 300, "VALUE", "Its help on the next line." },
	{ "outdir", 0, 'o', "DIR", NULL },
};
#define N (sizeof(table) / sizeof(table[0]))

static void check_build(void)
{
	struct option lo[N + 1];
	char shorts[16];
	CHECK(cli_build(table, N, lo, shorts, sizeof(shorts)) == 0);
	CHECK_STR(shorts, ":o:qG");
	CHECK_STR(lo[0].name, "output");
	CHECK(lo[0].has_arg == required_argument && lo[0].val == 'o' && !lo[0].flag);
	CHECK(lo[1].has_arg == no_argument && lo[1].val == 'q');
	CHECK(lo[2].val == OPT_REPORTID && lo[2].has_arg == required_argument);
	CHECK_STR(lo[6].name, "outdir");
	CHECK(lo[6].val == 'o' && lo[6].has_arg == required_argument);
	CHECK(lo[7].name == NULL && lo[7].val == 0);
	char tiny[4];
	CHECK(cli_build(table, N, lo, tiny, sizeof(tiny)) == -1);
}

static void check_help(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(f != NULL);
	if (!f)
		return;
	cli_print_options(f, table, N);
	fclose(f);
	CHECK_STR(buf,
		  "Options:\n"
		  "  -o, --output DIR      Write the run into DIR.\n"
		  "  -q, --quiet           No progress line.\n"
		  "      --reportid ID     Report ID in info.json (default: the output directory's\n"
		  "                        name); a long text that wraps at seventy-nine columns.\n"
		  "  -G, --no-group        No per-group tables.\n"
		  "      --no-cache        No cache.\n"
		  "      --a-very-long-option-name VALUE\n"
		  "                        Its help on the next line.\n");
	free(buf);
}

static int refuse(const char *shorts, const struct option *lo, int argc, char **argv)
{
	return cli_refuse_abbreviations(argc, argv, shorts, lo, "", "test");
}

static void check_refusals(void)
{
	struct option lo[N + 1];
	char shorts[16];
	cli_build(table, N, lo, shorts, sizeof(shorts));
	char *report[] = { "collect", "--report", "-c", "10" };
	CHECK(refuse(shorts, lo, 4, report) == -1);
	char *report_eq[] = { "collect", "--report=x" };
	CHECK(refuse(shorts, lo, 2, report_eq) == -1);
	char *ambiguous[] = { "x", "--no" };
	CHECK(refuse(shorts, lo, 2, ambiguous) == -1);
	char *unknown[] = { "x", "--bogus", "--reportid", "r" };   /* left for getopt to report */
	CHECK(refuse(shorts, lo, 4, unknown) == 0);
	char *whole[] = { "x", "--reportid", "--rep", "--output=--out", "-o", "--out", "-qo--o", "-G" };
	CHECK(refuse(shorts, lo, 8, whole) == 0);
	char *operand[] = { "x", "run", "--", "--rep" };
	CHECK(refuse(shorts, lo, 4, operand) == 0);
	char *after_operand[] = { "x", "run", "--rep" };   /* getopt permutes: still an option */
	CHECK(refuse(shorts, lo, 3, after_operand) == -1);
	CHECK(refuse("+o:q", lo, 3, after_operand) == 0);  /* '+': options end at the operand */
	char *dash[] = { "x", "-", "--quie" };
	CHECK(refuse(shorts, lo, 3, dash) == -1);
}

int main(void)
{
	isc_set_progname("test_cli");
	check_build();
	check_help();
	check_refusals();
	return CHECK_DONE();
}
