/* SPDX-License-Identifier: GPL-2.0-only */
/* The command-line option helper of every program: one table per command ({long name, short
 * letter, value, argument name, help}) gives getopt_long's tables and the option list of
 * --help; and long options are taken only by their whole name. */
#ifndef IDLESCOPE_CLI_H
#define IDLESCOPE_CLI_H
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

/* In an option's help: what follows starts a new line (a list, an example, a value). */
#define CLI_BR "\f"

struct cli_opt {
	const char *name;   /* long name without "--"; NULL = a line of help text only (a heading) */
	int short_opt;      /* 0: long only */
	int val;            /* what getopt_long returns for it (the short letter, or a code >= 256) */
	const char *arg;    /* argument name in --help; NULL: no argument */
	const char *help;   /* wrapped at 79 columns, continuation lines indented ('\n' is a space;
			     * CLI_BR starts a new line); NULL: accepted but not listed
			     * (another spelling, e.g. wult's) */
};

/* getopt_long's tables from t[0..n): lo gets n + 1 entries (zero-terminated), shorts starts
 * with ':' (a missing argument is reported as ':') and the letters with ':' after those that
 * take an argument. Returns -1 if shorts (slen bytes) is too small. */
int cli_build(const struct cli_opt *t, size_t n, struct option *lo, char *shorts, size_t slen);

/* "  -o, --output DIR      help..." for each option of t[0..n) (a NULL name prints its help as
 * it is). */
void cli_print_options(FILE *f, const struct cli_opt *t, size_t n);
/* A whole --help: head, the option list of t[0..n), tail. */
void cli_print_help(FILE *f, const char *head, const struct cli_opt *t, size_t n, const char *tail);
/* One option line: HEAD then TEXT wrapped (HEAD is "-o, --output DIR" or any label). */
void cli_print_wrapped(FILE *f, const char *head, const char *text);

/* Long options are never abbreviated (glibc's getopt_long takes "--report" for "--reportid";
 * wult's --report would then silently name the run): before parsing, every "--NAME" of argv
 * that is not a whole name of lo but the start of one is refused with one message naming it
 * and the options it could be: "<prog>: <prefix>unknown option '--report' (long options are
 * never abbreviated: --reportid?); try '<help> --help'". Follows getopt's own walk (short
 * option clusters and their arguments, "--", '+' at the start of shorts). 0 or -1. */
int cli_refuse_abbreviations(int argc, char *const *argv, const char *shorts, const struct option *lo,
			     const char *prefix, const char *help);

#endif
