/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * collect --set / --matrix: validate everything, then for each run of the plan apply its
 * settings (journalled first), run it as a child collect with the usual options, and record
 * it in experiment.json; restore every setting at the end, on error and after a signal.
 * The child runs in its own process group: a signal to the driver (^C included) reaches it
 * once, forwarded, and stops it with its datapoints safe.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "experiment.h"
#include "settings/settings.h"
#include "text/util.h"

struct exp {
	const struct exp_opts *x;
	struct plan p;
	struct collect_opts o;
	struct isc_settings *s;
	struct run_dir dir;   /* the experiment directory (--matrix) */
	cJSON *e, *before;
	int argc;
	char **argv;
	char *stop_reason;
	bool all_complete;
	double run_t0;      /* when the run in progress started (before its settling) */
	size_t done;        /* runs finished */
	double done_s;      /* and their total time */
};

static const char *signal_abbrev(int sig)
{
	return sigabbrev_np(sig) ? sigabbrev_np(sig) : "?";
}

static void install_signals(void)
{
	child_forward_signals((const int[]){ SIGINT, SIGTERM, SIGHUP }, 3);
	signal(SIGPIPE, SIG_IGN);
}

static bool seen_name(const struct plan *p, size_t nf, size_t nx, const char *name)
{
	for (size_t i = 0; i < nf; i++)
		if (!strcmp(p->factors[i].name, name))
			return true;
	for (size_t i = 0; i < nx; i++)
		if (!strcmp(p->fixed[i].name, name))
			return true;
	return false;
}

/* A target that names a CPU offline-cpus takes offline in a run of the plan (each of its
 * values meets every other setting in some run). 0, or -1 with one line in why. */
static int offline_clash(const struct exp *x, char *why, size_t len)
{
	const struct plan *p = &x->p;
	const struct factor *off = NULL;
	for (size_t i = 0; i < p->nfactors + p->nfixed; i++)
		if (!strcmp(plan_factor(p, i)->name, "offline-cpus"))
			off = plan_factor(p, i);
	for (size_t i = 0; off && i < p->nfactors + p->nfixed; i++) {
		const struct factor *f = plan_factor(p, i);
		for (size_t v = 0; f != off && v < off->nvalues; v++)
			if (isc_target_offline_clash(x->s, f->name, &f->tgt, off->values[v], why, len) < 0)
				return -1;
	}
	return 0;
}

/* One line and exit 2 for the first thing wrong; nothing is written before this passes. */
static int validate(struct exp *x)
{
	char why[2048];
	const struct plan *p = &x->p;
	for (size_t i = 0; i < p->nfactors + p->nfixed; i++) {
		struct factor *f = plan_factor(p, i);
		bool dup = i < p->nfactors ? seen_name(p, i, 0, f->name) : seen_name(p, p->nfactors, i - p->nfactors, f->name);
		if (dup) {
			isc_err("%s: given twice (each setting once, in --set or in --matrix)", f->name);
			return ISC_EXIT_USAGE;
		}
		if (!strcmp(f->name, "pm-qos") && x->o.pm_qos_us >= 0) {
			isc_err("pm-qos: given twice (--pm-qos-us and --set/--matrix pm-qos)");
			return ISC_EXIT_USAGE;
		}
		if (isc_target_resolve(x->s, f->name, f->target, &f->tgt, why, sizeof(why)) < 0) {
			isc_err("%s", why);
			return ISC_EXIT_USAGE;
		}
		for (size_t v = 0; v < f->nvalues; v++)
			if (isc_settings_check_on(x->s, &f->tgt, f->name, f->values[v], why, sizeof(why)) < 0) {
				isc_err("%s", why);
				return ISC_EXIT_USAGE;
			}
	}
	if (offline_clash(x, why, sizeof(why)) < 0 || plan_hwp_check(&x->p, x->s, why, sizeof(why)) < 0) {
		isc_err("%s", why);
		return ISC_EXIT_USAGE;
	}
	if (geteuid() != 0 && !x->x->sysroot) {
		isc_err("--set/--matrix: changing settings needs root");
		return ISC_EXIT_USAGE;
	}
	return 0;
}

/* The value of setting name in configuration c, or NULL if the run does not set it. */
static const char *value_in(const struct plan *p, size_t c, const char *name)
{
	for (size_t f = 0; f < p->nfactors; f++)
		if (!strcmp(p->factors[f].name, name))
			return plan_value(p, c, f);
	for (size_t i = 0; i < p->nfixed; i++)
		if (!strcmp(p->fixed[i].name, name))
			return p->fixed[i].values[0];
	return NULL;
}

/* Write the configuration; settings_changed gets name -> {before, after}. */
static int apply_config(struct exp *x, size_t c, cJSON *changed)
{
	char err[2048];
	for (size_t i = 0; i < x->p.nfactors + x->p.nfixed; i++) {
		const struct factor *f = plan_factor(&x->p, i);
		const char *name = f->name, *v = value_in(&x->p, c, name);
		if (isc_settings_apply_on(x->s, &f->tgt, name, v, err, sizeof(err)) < 0) {
			isc_err("%s", err);
			return -1;
		}
		char *after = isc_settings_is_held(name) ? isc_xstrdup(v) : isc_settings_read_on(x->s, &f->tgt, name);
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(x->before, name);
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "before", cJSON_IsString(b) ? b->valuestring : "");
		cJSON_AddStringToObject(o, "after", after ? after : "");
		cJSON_AddItemToObject(changed, name, o);
		free(after);
	}
	return 0;
}

static void sleep_s(double s)
{
	double end = isc_now_sec() + s;
	while (!child_caught_signal() && isc_now_sec() < end) {
		struct timespec ts = { 0, 100 * 1000000 };
		nanosleep(&ts, NULL);
	}
}

/* Rows in a growing datapoints.csv, counted from where the last call stopped. */
struct row_counter {
	int fd;
	uint64_t lines;
};

static uint64_t count_rows(struct row_counter *rc, const char *path)
{
	char buf[65536];
	ssize_t n;
	if (rc->fd < 0)
		rc->fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	while (rc->fd >= 0 && (n = read(rc->fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++)
			rc->lines += buf[i] == '\n';
	return rc->lines ? rc->lines - 1 : 0;
}

static void progress(struct exp *x, size_t k, uint64_t rows)
{
	if (x->o.quiet || !isatty(STDERR_FILENO) || !x->dir.path)
		return;
	struct eta_in e = { .estimate_s = plan_run_estimate_s(&x->o), .settle_s = x->x->settle_s,
			    .time_limit_s = (double)x->o.time_limit_ns / 1e9, .count = x->o.count, .rows = rows,
			    .run_elapsed_s = isc_now_sec() - x->run_t0 - x->x->settle_s, .done = x->done,
			    .done_s = x->done_s, .runs_after = x->p.nruns - k - 1 };
	if (e.run_elapsed_s < 0)
		e.run_elapsed_s = 0;
	double left = experiment_eta_s(&e);
	fprintf(stderr, "\rrun %zu of %zu %s: %llu datapoints, ETA %.0f s   ", k + 1, x->p.nruns, x->p.runs[k].dir,
		(unsigned long long)rows, left);
}

/* The child's stderr passes through here, watched for the lock message of cpu_lock.c. */
struct err_relay {
	int fd;
	char tail[64];     /* the end of what came before: a message split across reads */
	bool lock_busy;
};

static void relay(struct err_relay *r)
{
	char buf[4096 + sizeof(r->tail)];
	ssize_t n;
	while (r->fd >= 0 && (n = read(r->fd, buf + strlen(r->tail), 4096)) > 0) {
		size_t t = strlen(r->tail);
		memcpy(buf, r->tail, t);
		if (write(STDERR_FILENO, buf + t, (size_t)n) < 0)
			break;
		buf[t + (size_t)n] = '\0';
		r->lock_busy = r->lock_busy || strstr(buf, "another collector is measuring CPU");
		size_t keep = t + (size_t)n < sizeof(r->tail) - 1 ? t + (size_t)n : sizeof(r->tail) - 1;
		memcpy(r->tail, buf + t + (size_t)n - keep, keep);
		r->tail[keep] = '\0';
	}
}

/* Fork and exec this collect with the usual options and the run's own; returns its status.
 * *lock_busy: it said that another collector held the CPU. */
static int run_child(struct exp *x, size_t k, const char *dir, cJSON *ctx, bool *lock_busy)
{
	const char *qos = value_in(&x->p, x->p.runs[k].config, "pm-qos");
	char **av = isc_xcalloc((size_t)x->argc + 8, sizeof(*av));
	int n = 0;
	for (int i = 0; i < x->argc; i++)
		av[n++] = x->argv[i];
	if (dir) {
		av[n++] = "-o";
		av[n++] = (char *)dir;
		av[n++] = "-q";
	}
	if (qos) {
		av[n++] = "--pm-qos-us";
		av[n++] = (char *)qos;
	}
	char *env = cJSON_PrintUnformatted(ctx);
	int pfd[2] = { -1, -1 };
	/* A lone --set run keeps the terminal (its own progress line) and is not tried again. */
	if (dir && pipe2(pfd, O_CLOEXEC) < 0)
		pfd[0] = pfd[1] = -1;
	/* the run holds the journal's lock too: should this driver be killed, collect --restore
	 * refuses while the run still measures under the changed settings */
	struct child_spec spec = { .argv = av, .env_name = RUN_CONTEXT_ENV, .env_value = env,
				   .own_group = true, .stderr_fd = pfd[1],
				   .keep_fd_env = JOURNAL_FD_ENV, .keep_fd = isc_settings_journal_fd(x->s) };
	pid_t pid = child_start(&spec);
	free(env);
	free(av);
	if (pfd[1] >= 0)
		close(pfd[1]);
	struct err_relay er = { .fd = pfd[0] };
	if (er.fd >= 0)
		fcntl(er.fd, F_SETFL, O_NONBLOCK);
	if (pid < 0) {
		if (er.fd >= 0)
			close(er.fd);
		return ISC_EXIT_DATA;
	}
	struct row_counter rc = { -1, 0 };
	char *csv = dir ? isc_xasprintf("%s/datapoints.csv", dir) : NULL;
	int st = 0;
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		relay(&er);
		if (w == pid || (w < 0 && errno != EINTR))
			break;
		if (csv)
			progress(x, k, count_rows(&rc, csv));
		struct timespec ts = { 0, 200 * 1000000 };
		nanosleep(&ts, NULL);
	}
	child_done(pid);
	if (er.fd >= 0) {
		fcntl(er.fd, F_SETFL, 0);
		relay(&er);   /* the rest, up to EOF */
		close(er.fd);
	}
	*lock_busy = er.lock_busy;
	if (rc.fd >= 0)
		close(rc.fd);
	free(csv);
	return WIFEXITED(st) ? WEXITSTATUS(st) : ISC_EXIT_DATA;
}

static cJSON *read_info(const char *dir)
{
	char err[512], *path = isc_xasprintf("%s/info.json", dir);
	char *text = isc_read_regular_file(path, 1 << 24, NULL, err, sizeof(err));
	cJSON *j = text ? cJSON_Parse(text) : NULL;
	free(text);
	free(path);
	return j;
}

static cJSON *run_context(struct exp *x, size_t k, cJSON *changed)
{
	cJSON *ctx = cJSON_CreateObject();
	cJSON_AddStringToObject(ctx, "sysroot", x->x->sysroot ? x->x->sysroot : "");
	cJSON_AddStringToObject(ctx, "settings_cpus", x->x->measured_only ? "measured" : "all");
	cJSON_AddItemToObject(ctx, "settings_changed", changed);
	cJSON_AddItemToObject(ctx, "settings_targets", plan_targets_json(&x->p));
	if (x->dir.path) {
		char *abs = realpath(x->dir.path, NULL);
		cJSON *e = cJSON_AddObjectToObject(ctx, "experiment");
		cJSON_AddStringToObject(e, "directory", abs ? abs : x->dir.path);
		cJSON_AddItemToObject(e, "config", plan_config_json(&x->p, x->p.runs[k].config));
		cJSON_AddNumberToObject(e, "replicate", x->p.runs[k].replicate);
		cJSON_AddNumberToObject(e, "run", (double)k + 1);
		cJSON_AddNumberToObject(e, "runs", (double)x->p.nruns);
		free(abs);
	}
	return ctx;
}

/* Run k: apply, settle, run (again while another collector holds the CPU). Exit status. */
/* The run's own warnings (its summary is quiet), and the runs that now stand out as slow. */
static void judge_run(struct exp *x, size_t k, const cJSON *info)
{
	const cJSON *w, *s, *old = cJSON_GetObjectItemCaseSensitive(x->e, "slow_runs");
	const cJSON *said = x->o.quiet ? NULL : cJSON_GetObjectItemCaseSensitive(info, "warnings");
	cJSON_ArrayForEach(w, said)
		if (cJSON_IsString(w))
			isc_warn("run %s: %s", x->p.runs[k].dir, w->valuestring);
	cJSON *slow = experiment_slow_runs(cJSON_GetObjectItemCaseSensitive(x->e, "runs"));
	cJSON_ArrayForEach(s, slow) {
		const char *path = cJSON_GetObjectItemCaseSensitive(s, "path")->valuestring;
		bool known = false;
		cJSON_ArrayForEach(w, old)
			known = known || !strcmp(cJSON_GetObjectItemCaseSensitive(w, "path")->valuestring, path);
		if (known || x->o.quiet)
			continue;
		double d = cJSON_GetObjectItemCaseSensitive(s, "duration_s")->valuedouble;
		double m = cJSON_GetObjectItemCaseSensitive(s, "median_others_s")->valuedouble;
		const cJSON *pct = cJSON_GetObjectItemCaseSensitive(s, "discarded_pct");
		char share[64] = "not known";
		if (cJSON_IsNumber(pct))
			snprintf(share, sizeof(share), "%.1f%%", pct->valuedouble);
		isc_warn("run %s took %.1f s, %.1f times the median of the other runs (%.1f s); its attempts"
			" discarded: %s; compare its configuration with care (experiment.json slow_runs)",
			path, d, m > 0 ? d / m : 0.0, m, share);
	}
	cJSON_ReplaceItemInObjectCaseSensitive(x->e, "slow_runs", slow);
}

static int take_run(struct exp *x, size_t k)
{
	x->run_t0 = isc_now_sec();
	cJSON *changed = cJSON_CreateObject();
	if (apply_config(x, x->p.runs[k].config, changed) < 0) {
		cJSON_Delete(changed);
		x->stop_reason = isc_xstrdup("error: a setting could not be written");
		return ISC_EXIT_DATA;
	}
	sleep_s(x->x->settle_s);
	if (child_caught_signal()) {
		cJSON_Delete(changed);
		return -1;
	}
	cJSON *ctx = run_context(x, k, changed);
	char *dir = x->dir.path ? isc_xasprintf("%s/%s", x->dir.path, x->p.runs[k].dir) : NULL;
	const char *out = dir ? dir : x->o.outdir;
	int st;
	for (int tries = 0;; tries++) {
		bool busy = false;
		st = run_child(x, k, dir, ctx, &busy);
		/* Another collector held the CPU: wait for it (up to 10 minutes) and try again. */
		if (st != ISC_EXIT_DATA || !busy || child_caught_signal() || tries >= 600 || (out && access(out, F_OK) == 0))
			break;
		sleep_s(1);
	}
	if (dir) {
		cJSON *info = read_info(dir);
		if (!x->o.quiet)
			fprintf(stderr, "%srun %zu of %zu %s: %s\n", isatty(STDERR_FILENO) ? "\r" : "", k + 1, x->p.nruns,
				x->p.runs[k].dir, st == 0 ? "complete" : "not complete");
		experiment_json_add_run(x->e, &x->p, k, info, st);
		judge_run(x, k, info);
		experiment_json_write(x->dir.dirfd, x->e);
		cJSON_Delete(info);
	}
	free(dir);
	cJSON_Delete(ctx);
	x->done++;
	x->done_s += isc_now_sec() - x->run_t0;
	return st;
}

static void finish(struct exp *x, int restore_failed)
{
	char ts[64];
	if (!x->e)
		return;
	isc_iso_time(ts, sizeof(ts));
	cJSON_ReplaceItemInObjectCaseSensitive(x->e, "end_time", cJSON_CreateString(ts));
	cJSON_ReplaceItemInObjectCaseSensitive(x->e, "complete", cJSON_CreateBool(x->all_complete));
	cJSON_ReplaceItemInObjectCaseSensitive(x->e, "stop_reason",
					       cJSON_CreateString(x->stop_reason ? x->stop_reason : "done"));
	cJSON_ReplaceItemInObjectCaseSensitive(x->e, "restored", cJSON_CreateBool(restore_failed == 0));
	cJSON_ReplaceItemInObjectCaseSensitive(x->e, "settings_after", isc_settings_record(x->s));
	experiment_json_write(x->dir.dirfd, x->e);
}

/* The runs, then the restore. */
static int run_all(struct exp *x, int argc_all, char **argv_all)
{
	char err[2048];
	int status = ISC_EXIT_OK;
	if (x->p.nfactors) {
		char *def = x->o.outdir ? NULL : isc_run_name(NULL, "experiment");
		int rc = run_dir_create(x->o.outdir ? x->o.outdir : def, x->o.force, &x->dir);
		free(def);
		if (rc < 0)
			return rc == -2 ? ISC_EXIT_USAGE : ISC_EXIT_DATA;
	}
	if (isc_settings_begin(x->s, err, sizeof(err)) < 0) {
		isc_err("%s", err);
		return ISC_EXIT_DATA;
	}
	install_signals();
	if (x->dir.path) {
		x->e = experiment_json_new(&x->p, x->x, argc_all, argv_all, cJSON_Duplicate(x->before, 1));
		experiment_json_write(x->dir.dirfd, x->e);
	}
	double t0 = isc_now_sec();
	x->all_complete = true;
	for (size_t k = 0; k < x->p.nruns && !child_caught_signal() && status == ISC_EXIT_OK; k++) {
		int st = take_run(x, k);
		if (st != 0)
			status = st < 0 ? ISC_EXIT_DATA : st;
	}
	if (child_caught_signal() && !x->stop_reason)
		x->stop_reason = isc_xasprintf("signal SIG%s", signal_abbrev(child_caught_signal()));
	else if (status && !x->stop_reason)
		x->stop_reason = isc_xasprintf("error: a run failed (exit %d)", status);
	x->all_complete = status == 0 && !child_caught_signal();
	if (child_caught_signal())
		status = ISC_EXIT_DATA;
	size_t n;
	int failed = isc_settings_restore(x->s, &n);
	if (failed)
		status = ISC_EXIT_DATA;
	finish(x, failed);
	double took = isc_now_sec() - t0, planned = (double)x->p.nruns * (x->x->settle_s + plan_run_estimate_s(&x->o));
	if (x->done == x->p.nruns && took > SLOW_FACTOR * planned && took - planned > SLOW_MIN_EXTRA_S)
		isc_warn("the experiment took %.0f s, %.1f times the %.0f s estimated from LDist and the count:"
			" the runs discarded attempts or waited (experiment.json: each run's discarded_pct, slow_runs)",
			took, took / planned, planned);
	if (child_caught_signal())
		isc_warn("stopped by SIG%s; settings restored%s", signal_abbrev(child_caught_signal()),
			x->dir.path ? "; experiment.json says which runs are complete" : "");
	return status;
}

int experiment_main(const struct exp_opts *xo, int argc, char **argv)
{
	struct exp x = { .x = xo, .argc = argc, .argv = argv, .dir = { .dirfd = -1 } };
	struct exp_opts o2 = *xo;
	int rc;

	if (o2.order == ORDER_RANDOM && !o2.seed_set)
		o2.seed = collect_random_seed();
	x.x = &o2;
	rc = collect_parse_options(argc, argv, &x.o);
	optind = 0;
	if (rc)
		return rc == 1 ? ISC_EXIT_OK : ISC_EXIT_USAGE;
	if (plan_build(&o2, &x.p)) {
		plan_free(&x.p);
		return ISC_EXIT_USAGE;
	}
	x.s = isc_settings_open(o2.sysroot, x.o.cpu, !o2.measured_only);
	rc = validate(&x);
	if (!rc && o2.dry_run) {
		plan_print(&x.p, &x.o, stdout);
		printf("estimated duration: %.0f s\n", (double)x.p.nruns * (o2.settle_s + plan_run_estimate_s(&x.o)));
	} else if (!rc) {
		x.before = isc_settings_record(x.s);
		rc = run_all(&x, xo->orig_argc, xo->orig_argv);
	}
	cJSON_Delete(x.e);
	cJSON_Delete(x.before);
	free(x.stop_reason);
	run_dir_close(&x.dir);
	isc_settings_close(x.s);
	plan_free(&x.p);
	return rc;
}
