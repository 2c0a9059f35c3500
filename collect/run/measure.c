/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * collect's measure mode: wake-up latency of one CPU into a run directory (info.json +
 * datapoints.csv), from the options to the end-of-run summary.
 */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "collect.h"
#include "counters_hook.h"
#include "cpu_busy.h"
#include "dp_filter.h"
#include "summary.h"
#include "experiment.h"
#include "run/run.h"
#include "run/sysinfo.h"
#include "text/json_out.h"
#include "text/textsafe.h"
#include "text/util.h"
#include "idlescope/version.h"

static volatile sig_atomic_t stop_signal, time_up;

enum stop_reason { STOP_NONE, STOP_COUNT, STOP_TIME, STOP_SIGNAL, STOP_NOTHING_KEPT, STOP_ERROR };

struct run {
	struct collect_opts o;
	struct collect_cfg cfg;
	const struct method_ops *m;
	struct method_ctx *ctx;
	struct run_dir rd;
	struct dp_writer *w;
	struct cpu_lock *lock;
	struct pm_qos *qos;
	struct counters_sampler *sampler;
	cJSON *info, *method_info, *pm_qos_info;
	const char **state_names;
	size_t nstates;
	uint64_t discards[DISCARD_NR];
	uint64_t start_ns, end_ns;
	struct run_summary *summary;   /* kept datapoints' latencies, for the end-of-run summary */
	enum stop_reason why_stopped;
	bool started;
	uint64_t ndone;   /* datapoints on disk */
	struct cpu_ticks ticks_start, ticks_end;   /* the measured CPU's /proc/stat line */
	uint64_t own_start_ns, own_end_ns;         /* the method's own CPU time; UINT64_MAX: not known */
	struct cpu_busy busy;
	bool busy_known;
	cJSON *warnings;                           /* summary_warnings, for info.json and stderr */
	struct summary_facts facts;                /* what the summary says, set by judge_run */
	char *idle_source;                         /* facts.idle_source */
	struct dp_filter *filter;   /* --include/--exclude, NULL: none */
	uint64_t filtered;          /* datapoints the filter dropped */
	bool filter_starved;        /* stopped: the filter kept nothing for FILTER_STARVED_S */
};

/* A filter that keeps nothing for this long (and this many datapoints) ends the run. */
#define FILTER_STARVED_S 10u
#define FILTER_STARVED_N 1000u

/* SIGINT, SIGTERM, SIGHUP (terminal or SSH session gone) and SIGPIPE (a closed output) stop
 * the run cleanly. After a first one, SIGINT and SIGTERM get their default action back (an
 * impatient user's next ^C ends us); SIGHUP and SIGPIPE never do, since nobody sends them on
 * purpose (every write to a closed stderr raises another SIGPIPE): the run still gets finished. */
static void on_signal(int sig)
{
	if (sig == SIGALRM) {
		time_up = 1;
	} else if (!stop_signal) {
		stop_signal = sig;
	} else if (sig == SIGINT || sig == SIGTERM) {
		signal(sig, SIG_DFL);
	}
	collect_stop_requested = 1;
}

static void install_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGALRM };
	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

static void arm_time_limit(uint64_t ns)
{
	struct itimerval it = { .it_value = { .tv_sec = (time_t)(ns / NSEC_PER_SEC),
					      .tv_usec = (suseconds_t)(ns % NSEC_PER_SEC / NSEC_PER_USEC) } };
	if (ns)
		setitimer(ITIMER_REAL, &it, NULL);
}

/* Keep the main thread (writer, counters) off the measured CPU when there is another one. */
static void move_off_cpu(int cpu)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) < 0 || !CPU_ISSET(cpu, &set) || CPU_COUNT(&set) < 2)
		return;
	CPU_CLR(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static const char *reason_name(const struct run *r)
{
	static char buf[64];
	switch (r->why_stopped) {
	case STOP_COUNT: return "count";
	case STOP_TIME: return "time_limit";
	case STOP_SIGNAL:
		snprintf(buf, sizeof(buf), "signal SIG%s", sigabbrev_np(stop_signal) ? sigabbrev_np(stop_signal) : "?");
		return buf;
	case STOP_NOTHING_KEPT: return "nothing_kept";
	case STOP_ERROR: return "error";
	case STOP_NONE: break;
	}
	return "running";
}

static cJSON *discards_json(const struct run *r)
{
	cJSON *o = cJSON_CreateObject();
	for (int i = 0; i < DISCARD_NR; i++)
		cJSON_AddNumberToObject(o, discard_reason_names[i], (double)r->discards[i]);
	if (r->filter)
		cJSON_AddNumberToObject(o, "filtered", (double)r->filtered);
	return o;
}

static cJSON *filter_json(const struct run *r)
{
	cJSON *o = cJSON_CreateObject();
	if (r->o.include)
		cJSON_AddStringToObject(o, "include", r->o.include);
	if (r->o.exclude)
		cJSON_AddStringToObject(o, "exclude", r->o.exclude);
	return o;
}

static void build_info(struct run *r, int argc, char **argv, const char *why_method)
{
	char ts[64];
	cJSON *info = cJSON_CreateObject(), *v;
	const char *base = strrchr(r->rd.path, '/');
	r->info = info;
	cJSON_AddStringToObject(info, "toolname", "idlescope");
	cJSON_AddStringToObject(info, "toolver", IDLESCOPE_VERSION);
	cJSON_AddStringToObject(info, "format_version", ISC_FORMAT_VERSION);
	cJSON_AddStringToObject(info, "reportid", r->o.reportid ? r->o.reportid : base ? base + 1 : r->rd.path);
	cJSON_AddStringToObject(info, "method", r->m->name);
	cJSON_AddStringToObject(info, "method_why", why_method);
	if ((v = cJSON_GetObjectItemCaseSensitive(r->method_info, "event_source")))
		cJSON_AddItemToObject(info, "event_source", cJSON_Duplicate(v, 1));
	if ((v = cJSON_GetObjectItemCaseSensitive(r->method_info, "event_source_why")))
		cJSON_AddItemToObject(info, "event_source_why", cJSON_Duplicate(v, 1));
	if ((v = cJSON_GetObjectItemCaseSensitive(r->method_info, "idle_check")))
		cJSON_AddItemToObject(info, "idle_check", cJSON_Duplicate(v, 1));
	cJSON_AddItemToObject(info, "method_details", r->method_info);
	r->method_info = NULL;
	cJSON_AddNumberToObject(info, "cpu", r->cfg.cpu);
	cJSON_AddNumberToObject(info, "ldist_min_ns", (double)r->cfg.ldist_min);
	cJSON_AddNumberToObject(info, "ldist_max_ns", (double)r->cfg.ldist_max);
	cJSON_AddNumberToObject(info, "seed", (double)r->cfg.seed);
	if (r->o.count)
		cJSON_AddNumberToObject(info, "count_limit", (double)r->o.count);
	else
		cJSON_AddNullToObject(info, "count_limit");
	if (r->o.time_limit_ns)
		cJSON_AddNumberToObject(info, "time_limit_s", (double)r->o.time_limit_ns / 1e9);
	else
		cJSON_AddNullToObject(info, "time_limit_s");
	cJSON_AddBoolToObject(info, "keep_raw", r->o.keep_raw);
	cJSON_AddNumberToObject(info, "datapoints", 0);
	cJSON_AddItemToObject(info, "discards", discards_json(r));
	cJSON_AddNumberToObject(info, "attempts", 0);
	cJSON_AddNullToObject(info, "discarded_pct");
	cJSON_AddBoolToObject(info, "mostly_discarded", false);
	cJSON_AddNullToObject(info, "cpu_busy");
	cJSON_AddArrayToObject(info, "warnings");
	if (r->filter)
		cJSON_AddItemToObject(info, "filter", filter_json(r));
	cJSON_AddBoolToObject(info, "complete", false);
	cJSON_AddStringToObject(info, "stop_reason", "running");
	isc_iso_time(ts, sizeof(ts));
	cJSON_AddStringToObject(info, "start_time", ts);
	cJSON_AddNumberToObject(info, "start_monotonic_ns", (double)r->start_ns);
	cJSON_AddNullToObject(info, "end_time");
	cJSON_AddNullToObject(info, "end_monotonic_ns");
	cJSON_AddNullToObject(info, "duration_s");
	cJSON *cmd = cJSON_AddArrayToObject(info, "command_line");
	for (int i = 0; i < argc; i++)
		cJSON_AddItemToArray(cmd, cJSON_CreateString(argv[i]));
	cJSON_AddItemToObject(info, "pm_qos", r->pm_qos_info);
	r->pm_qos_info = NULL;
	cJSON_AddItemToObject(info, "system", isc_sysinfo_collect(r->cfg.cpu));
	collect_settings_record(info, r->cfg.cpu);
}

static void finish_info(struct run *r)
{
	char ts[64];
	uint64_t end = isc_mono_ns();
	cJSON *info = r->info;
	isc_json_set(info, "datapoints", cJSON_CreateNumber((double)r->ndone));
	isc_json_set(info, "discards", discards_json(r));
	uint64_t attempts = r->ndone + r->filtered;  /* the filter's drops were measured */
	for (int i = 0; i < DISCARD_NR; i++)
		attempts += r->discards[i];
	double pct = attempts ? 100.0 * (double)(attempts - r->ndone - r->filtered) / (double)attempts : 0.0;
	isc_json_set(info, "attempts", cJSON_CreateNumber((double)attempts));
	isc_json_set(info, "discarded_pct", attempts ? cJSON_CreateNumber(pct) : cJSON_CreateNull());
	isc_json_set(info, "mostly_discarded", cJSON_CreateBool(pct > MOSTLY_DISCARDED_PCT));
	isc_json_set(info, "cpu_busy", cpu_busy_json(r->busy_known ? &r->busy : NULL, r->cfg.cpu));
	isc_json_set(info, "warnings", cJSON_Duplicate(r->warnings, 1));
	isc_json_set(info, "complete", cJSON_CreateBool(r->why_stopped == STOP_COUNT || r->why_stopped == STOP_TIME));
	isc_json_set(info, "stop_reason", cJSON_CreateString(reason_name(r)));
	isc_iso_time(ts, sizeof(ts));
	isc_json_set(info, "end_time", cJSON_CreateString(ts));
	isc_json_set(info, "end_monotonic_ns", cJSON_CreateNumber((double)end));
	isc_json_set(info, "duration_s", cJSON_CreateNumber((double)(end - r->start_ns) / 1e9));
}

/* A state's name as a datapoints.csv field. The kernel's names are plain words ("C6",
 * "haltpoll idle"), but nothing guarantees it: control characters and invalid UTF-8 are written
 * as \xNN (the file is read one line per row), and a name with a comma or a quote is quoted
 * (RFC 4180), so that the row keeps its fields. malloc'd. */
static char *state_field(const char *name)
{
	char *safe = isc_text_dup(name, ISC_TEXT_LINE), *q, *o;
	if (!strpbrk(safe, ",\""))
		return safe;
	q = o = isc_xmalloc(2 * strlen(safe) + 3);
	*o++ = '"';
	for (const char *p = safe; *p; p++) {
		if (*p == '"')
			*o++ = '"';
		*o++ = *p;
	}
	*o++ = '"';
	*o = '\0';
	free(safe);
	return q;
}

/* Idle state names of the measured CPU, from info.system.cpuidle.states (index order), as
 * datapoints.csv fields. */
static void take_state_names(struct run *r)
{
	const cJSON *sys = cJSON_GetObjectItemCaseSensitive(r->info, "system");
	const cJSON *ci = cJSON_GetObjectItemCaseSensitive(sys, "cpuidle");
	const cJSON *states = cJSON_GetObjectItemCaseSensitive(ci, "states"), *s;
	r->nstates = (size_t)cJSON_GetArraySize(states);
	r->state_names = isc_xcalloc(r->nstates + 1, sizeof(*r->state_names));
	size_t i = 0;
	cJSON_ArrayForEach(s, states) {
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(s, "name");
		r->state_names[i++] = state_field(cJSON_IsString(n) ? n->valuestring : "");
	}
}

/* Datapoints dropped by the filter since the last kept one, and since when. */
struct starve {
	uint64_t n, since_ns;
};

static bool filter_starved(struct run *r, struct starve *s)
{
	uint64_t now = isc_mono_ns();
	r->filtered++;
	if (s->n++ == 0)
		s->since_ns = now;
	if (s->n < FILTER_STARVED_N || now - s->since_ns < FILTER_STARVED_S * NSEC_PER_SEC)
		return false;
	r->filter_starved = true;
	return true;
}

static int measure(struct run *r)
{
	struct progress *p = progress_start(r->o.count, r->o.time_limit_ns, r->o.quiet);
	r->summary = summary_new();
	struct dp_raw dp;
	int ret = 0;

	struct nothing_kept *nk = collect_nothing_kept();
	cpu_ticks_read(r->cfg.cpu, &r->ticks_start);
	r->own_start_ns = r->m->own_cpu_ns ? r->m->own_cpu_ns(r->ctx) : UINT64_MAX;
	struct starve starve = { 0 };
	arm_time_limit(r->o.time_limit_ns);
	nothing_kept_reset(nk, r->discards, isc_mono_ns());
	/* After a signal or the time limit, next() still hands over what was measured, then 0. */
	while (r->why_stopped != STOP_COUNT) {
		int got = r->m->next(r->ctx, &dp, r->discards);
		if (got < 0) {
			ret = -1;
			break;
		}
		if (got == 0)
			break;
		int keep = r->filter ? dp_filter_keep(r->filter, &dp, r->state_names, r->nstates,
						      dp_writer_rows(r->w)) : 1;
		if (keep < 0) {
			ret = -1;
			break;
		}
		if (!keep) {
			if (filter_starved(r, &starve))
				break;
			continue;
		}
		starve = (struct starve){ 0 };
		if (!nk->tripped)
			nothing_kept_reset(nk, r->discards, isc_mono_ns());
		if (dp_writer_add(r->w, &dp) < 0) {
			ret = -1;
			break;
		}
		summary_add(r->summary, &dp);
		if (r->o.count && dp_writer_rows(r->w) >= r->o.count) {
			r->why_stopped = STOP_COUNT;
			collect_stop_requested = 1;
		}
		uint64_t nd = r->filtered;
		for (int i = 0; i < DISCARD_NR; i++)
			nd += r->discards[i];
		progress_update(p, dp_writer_rows(r->w), nd, r->summary, false);
	}
	progress_end(p);
	r->end_ns = isc_mono_ns();
	cpu_ticks_read(r->cfg.cpu, &r->ticks_end);
	r->own_end_ns = r->m->own_cpu_ns ? r->m->own_cpu_ns(r->ctx) : UINT64_MAX;
	arm_time_limit(0);
	if (ret < 0)
		r->why_stopped = STOP_ERROR;
	else if (r->why_stopped == STOP_NONE)
		r->why_stopped = stop_signal ? STOP_SIGNAL : time_up ? STOP_TIME
				 : nk->tripped || r->filter_starved ? STOP_NOTHING_KEPT : STOP_ERROR;
	if (r->filter_starved) {
		isc_err("CPU %d: no datapoint kept in %u s: the last %llu were all dropped by --include/--exclude",
			r->cfg.cpu, FILTER_STARVED_S, (unsigned long long)starve.n);
		return ret;
	}
	if (r->why_stopped == STOP_NOTHING_KEPT) {
		char msg[512];
		nothing_kept_message(nk, r->discards, isc_mono_ns(), msg, sizeof(msg));
		isc_err("CPU %d, -l %s: %s", r->cfg.cpu, r->o.ldist_arg ? r->o.ldist_arg : "default", msg);
	}
	return ret;
}

/* Everything up to the first datapoint; returns an exit status or -1 to go on. */
static int prepare(struct run *r, int argc, char **argv)
{
	char why_method[768];
	int rc;

	rc = collect_parse_options(argc, argv, &r->o);
	if (rc)
		return rc == 1 ? ISC_EXIT_OK : ISC_EXIT_USAGE;
	if ((rc = settings_cli_check_pending()) >= 0)
		return rc;
	bool bad_filter;
	r->filter = dp_filter_new(r->o.include, r->o.exclude, &bad_filter);
	if (bad_filter)
		return ISC_EXIT_USAGE;
	if (r->o.cpu_list)
		return collect_multi_cpu(argc, argv, &r->o);  /* each child filters its own */
	if (strcmp(r->o.method, "auto") && !collect_find_method(r->o.method)) {
		char q[64];
		isc_quote_for_msg(r->o.method, strlen(r->o.method), q, sizeof(q));
		isc_err("--method '%s': unknown method; choose auto, hrt, tdt, bpf or timer", q);
		return ISC_EXIT_USAGE;
	}
	if (collect_check_cpu(r->o.cpu) < 0)
		return ISC_EXIT_USAGE;
	r->cfg = (struct collect_cfg){ .cpu = r->o.cpu, .ldist_min = r->o.ldist_min, .ldist_max = r->o.ldist_max,
				       .seed = r->o.seed_set ? r->o.seed : collect_random_seed(),
				       .quiet = r->o.quiet, .priority = r->o.priority,
				       .kmod_path = r->o.kmod_path, .no_causes = r->o.no_causes };
	if (!(r->lock = cpu_lock_take(r->cfg.cpu)))
		return ISC_EXIT_DATA;
	if (!(r->m = collect_select_method(r->o.method, &r->cfg, why_method, sizeof(why_method))))
		return ISC_EXIT_DATA;
	r->pm_qos_info = cJSON_CreateObject();
	if (!(r->qos = pm_qos_start(r->o.pm_qos_us, r->cfg.cpu, r->pm_qos_info)))
		return ISC_EXIT_DATA;
	install_signals();
	collect_ldist_init(r->cfg.ldist_min, r->cfg.ldist_max, r->cfg.seed);
	r->start_ns = isc_mono_ns();
	r->method_info = cJSON_CreateObject();
	r->started = true;
	if (r->m->start(&r->ctx, &r->cfg, r->method_info) < 0)
		return ISC_EXIT_DATA;
	move_off_cpu(r->cfg.cpu);

	char *def = r->o.outdir ? NULL : isc_run_name(NULL, r->m->name);
	rc = run_dir_create(r->o.outdir ? r->o.outdir : def, r->o.force, &r->rd);
	free(def);
	if (rc < 0)
		return rc == -2 ? ISC_EXIT_USAGE : ISC_EXIT_DATA;
	build_info(r, argc, argv, why_method);
	take_state_names(r);
	if (!(r->w = dp_writer_open(&r->rd, r->o.keep_raw, r->state_names, r->nstates)))
		return ISC_EXIT_DATA;
	if (r->o.counters_interval > 0)
		r->sampler = counters_sampler_start(r->rd.path, r->o.counters_interval, r->info);
	if (run_write_info(&r->rd, r->info, INFO_RESERVE) < 0)
		return ISC_EXIT_DATA;
	if (!r->o.quiet)
		isc_info("measuring CPU %d with method %s into %s", r->cfg.cpu, r->m->name, r->rd.path);
	return -1;
}

/* What the run's datapoints mean: the measured CPU's busy share, the summary's facts and the
 * warnings (r->info still holds the method's idle_check). */
static void judge_run(struct run *r)
{
	const cJSON *ic = cJSON_GetObjectItemCaseSensitive(r->info, "idle_check");
	const cJSON *pd = cJSON_GetObjectItemCaseSensitive(ic, "per_datapoint");
	const cJSON *src = cJSON_GetObjectItemCaseSensitive(ic, "source");
	uint64_t own = r->own_start_ns == UINT64_MAX || r->own_end_ns == UINT64_MAX || r->own_end_ns < r->own_start_ns
		       ? UINT64_MAX : r->own_end_ns - r->own_start_ns;
	r->busy_known = r->end_ns && cpu_busy_between(&r->ticks_start, &r->ticks_end, own, sysconf(_SC_CLK_TCK),
						     &r->busy) == 0;
	free(r->idle_source);
	r->idle_source = cJSON_IsString(src) ? isc_xstrdup(src->valuestring) : NULL;
	r->facts = (struct summary_facts){ .cpu = r->cfg.cpu, .ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN),
					   .kept = r->ndone, .ldist_min_ns = r->cfg.ldist_min,
					   .duration_s = (double)(r->end_ns - r->start_ns) / 1e9,
					   .idle_unchecked = !cJSON_IsTrue(pd), .idle_source = r->idle_source,
					   .busy = r->busy_known ? &r->busy : NULL };
	memcpy(r->facts.discards, r->discards, sizeof(r->facts.discards));
	r->facts.filtered = r->filtered;
	cJSON_Delete(r->warnings);
	r->warnings = summary_warnings(&r->facts);
}

static int cleanup(struct run *r, int status)
{
	if (r->started)
		r->m->stop(r->ctx);
	r->ctx = NULL;
	counters_sampler_stop(r->sampler);
	if (r->w && dp_writer_close(r->w, &r->ndone) < 0)
		status = ISC_EXIT_DATA;
	r->w = NULL;
	if (r->info && r->rd.dirfd >= 0) {
		judge_run(r);
		finish_info(r);
		if (run_write_info(&r->rd, r->info, 0) < 0)
			status = ISC_EXIT_DATA;
	}
	pm_qos_stop(r->qos);
	cpu_lock_release(r->lock);
	run_dir_close(&r->rd);
	cJSON_Delete(r->info);
	dp_filter_free(r->filter);
	r->filter = NULL;
	cJSON_Delete(r->method_info);
	cJSON_Delete(r->pm_qos_info);
	for (size_t i = 0; r->state_names && i < r->nstates; i++)
		free((char *)r->state_names[i]);
	free(r->state_names);
	collect_ldist_free();
	return status;
}

/* The end-of-run summary on stderr (unless -q), terminal or not. */
static void print_summary(const struct run *r)
{
	if (r->o.quiet || !r->summary || !r->warnings)
		return;
	summary_print(stderr, r->summary, &r->facts, r->warnings);
}

int measure_main(int argc, char **argv)
{
	struct run r = { .rd = { .dirfd = -1 } };
	int status;

	/* Without a progress line we are one of several runs (--cpu LIST) sharing one stderr:
	 * a line written in pieces would interleave with a sibling's, so write whole lines. */
	if (getenv("IDLESCOPE_NO_PROGRESS"))
		setvbuf(stderr, NULL, _IOLBF, 0);

	if ((status = settings_cli_main(&argc, argv)) >= 0)
		return status;   /* --set, --matrix, --restore, --list-settings */

	status = prepare(&r, argc, argv);
	if (status < 0) {
		int ok = measure(&r) == 0;
		status = ok && (r.why_stopped == STOP_COUNT || r.why_stopped == STOP_TIME) ? ISC_EXIT_OK : ISC_EXIT_DATA;
	}
	status = cleanup(&r, status);
	print_summary(&r);
	summary_free(r.summary);
	cJSON_Delete(r.warnings);
	free(r.idle_source);
	if (r.why_stopped == STOP_SIGNAL)
		isc_warn("stopped by SIG%s after %llu datapoints; info.json says \"complete\": false",
			sigabbrev_np(stop_signal) ? sigabbrev_np(stop_signal) : "?", (unsigned long long)r.ndone);
	return status;
}
