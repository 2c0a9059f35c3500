/* SPDX-License-Identifier: GPL-2.0-only */
/* Loading runs for analysis: the columns a command needs, then the row filters. */
#include "run/load.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cache/cache.h"
#include "text/util.h"

static struct isc_expr *parse_filter(const char *opt, const char *src)
{
	char err[200];
	struct isc_expr *e = isc_expr_parse(src, err, sizeof(err));
	size_t len = strlen(src);
	if (!e)  /* a long expression is quoted by its first 77 bytes */
		isc_err("%s: %s (in '%.*s%s')", opt, err, len > 80 ? 77 : (int)len, src,
		       len > 80 ? "..." : "");
	return e;
}

int isc_load_prepare(struct isc_load_ctx *ctx, const struct isc_load_spec *spec)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->spec = spec;
	if (spec->include && !(ctx->include = parse_filter("--include", spec->include)))
		return -1;
	if (spec->exclude && !(ctx->exclude = parse_filter("--exclude", spec->exclude)))
		return -1;
	if (spec->metrics_re) {
		regex_t *rx = isc_xmalloc(sizeof(*rx));
		int rc = regcomp(rx, spec->metrics_re, REG_EXTENDED | REG_NOSUB);
		if (rc) {
			char msg[128];
			regerror(rc, rx, msg, sizeof(msg));
			isc_err("--metrics: bad regular expression '%s': %s", spec->metrics_re, msg);
			free(rx);
			return -1;
		}
		ctx->regex = rx;
	}
	return 0;
}

void isc_load_release(struct isc_load_ctx *ctx)
{
	isc_expr_free(ctx->include);
	isc_expr_free(ctx->exclude);
	if (ctx->regex) {
		regfree(ctx->regex);
		free(ctx->regex);
	}
	memset(ctx, 0, sizeof(*ctx));
}

static bool expr_uses(const struct isc_expr *e, const char *name)
{
	for (size_t i = 0; e && i < isc_expr_nvars(e); i++)
		if (!strcmp(isc_expr_var(e, i), name))
			return true;
	return false;
}

static bool want_column(const char *name, void *arg)
{
	const struct isc_load_ctx *ctx = arg;
	const struct isc_load_spec *s = ctx->spec;
	bool skip = ctx->no_text && isc_is_known_text_column(name);
	if (!skip && (!ctx->regex || regexec(ctx->regex, name, 0, NULL, 0) == 0))
		return true;
	if (!s->no_group && !strcmp(name, s->group_by ? s->group_by : "ReqCState"))
		return true;
	for (const char *const *a = s->also; a && *a; a++)
		if (!strcmp(name, *a))
			return true;
	return expr_uses(ctx->include, name) || expr_uses(ctx->exclude, name);
}

/* The datapoints through the run cache (lib/cache), else read as they are. */
static int load_dp(struct isc_run *r, struct isc_table_opts *opts)
{
	isc_run_dp_opts(r, opts);
	struct isc_cache_src src = { r->dp_path, opts };
	isc_table_free(r->dp);
	r->dp = NULL;
	int rc = isc_cache_load(&src, &r->dp);
	return rc != 0 ? (rc > 0 ? 0 : -1) : isc_run_load_dp(r, opts);
}

void isc_load_prepare_run(const char *path)
{
	struct isc_run *r;
	struct isc_table_opts opts = { 0 };
	if (!isc_cache_enabled())
		return;
	isc_msg_mute(true);  /* the run's warnings come when it is loaded */
	if (isc_run_open(path, &r) == 0) {
		isc_run_dp_opts(r, &opts);
		struct isc_cache_src src = { r->dp_path, &opts };
		if (r->dp_path)
			isc_cache_prepare(&src);
		isc_run_free(r);
	}
	isc_msg_mute(false);
}

int isc_load_datapoints(struct isc_load_ctx *ctx, struct isc_run *r)
{
	struct isc_table_opts opts = { .want = want_column, .want_arg = ctx, .concurrent = ctx->concurrent,
				       .pack = ctx->pack };
	if (load_dp(r, &opts) < 0)
		return -1;
	if ((ctx->include || ctx->exclude) && isc_cache_table_modified(r->dp) < 0)
		return -1;
	return isc_table_filter(r->dp, ctx->include, ctx->exclude) < 0 ? -1 : 0;
}

int isc_load_run(struct isc_load_ctx *ctx, const char *path, struct isc_run **out)
{
	struct isc_run *r;
	*out = NULL;
	isc_oom_context("loading %s", path);
	if (isc_run_open(path, &r) < 0)
		return -1;
	isc_oom_context("loading %s", r->dp_path);
	if (isc_load_datapoints(ctx, r) < 0) {
		isc_run_free(r);
		return -1;
	}
	isc_oom_context("after loading %s", r->dp_path);
	*out = r;
	return 0;
}

int isc_load_group_col(const struct isc_load_ctx *ctx, const struct isc_run *r, const char **col)
{
	const struct isc_load_spec *s = ctx->spec;
	*col = NULL;
	if (s->no_group)
		return 0;
	if (!s->group_by) {
		*col = isc_table_col_has_value(r->dp, "ReqCState") ? "ReqCState" : NULL;
		return 0;
	}
	if (!isc_table_col(r->dp, s->group_by)) {
		isc_err("%s: --by: no column '%s'", r->dp_path, s->group_by);
		return -1;
	}
	*col = s->group_by;
	return 0;
}

/* The file a run path stands for: DIR/datapoints.csv for a directory, else the path. */
static int dp_file_id(const char *path, struct stat *st)
{
	if (stat(path, st) < 0)
		return -1;
	if (!S_ISDIR(st->st_mode))
		return 0;
	char *dp = isc_xasprintf("%s/datapoints.csv", path);
	int rc = stat(dp, st);
	free(dp);
	return rc;
}

bool isc_is_same_run(const char *a, const char *b)
{
	struct stat sa, sb;
	return dp_file_id(a, &sa) == 0 && dp_file_id(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}
