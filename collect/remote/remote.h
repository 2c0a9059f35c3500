/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Remote and fleet collection over the system's OpenSSH client (docs/remote.md).
 * The controller runs `collect -H HOST ...`; on the SUT the deployed collect runs as
 * `collect --remote-agent RUNDIR ARGS...` and streams the run back in frames on stdout.
 */
#ifndef COLLECT_REMOTE_H
#define COLLECT_REMOTE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <sys/types.h>

/* Frames from the agent: "<type> <length>\n" then length bytes. */
enum {
	FRAME_HELLO = 'H',   /* the agent runs; payload: the SUT's run directory */
	FRAME_INFO = 'I',    /* the whole info.json */
	FRAME_DP = 'D',      /* new whole lines of datapoints.csv */
	FRAME_CTR = 'C',     /* new whole lines of counters.csv */
	FRAME_END = 'E',     /* the remote collect ended; payload: its exit status */
	FRAME_EXP = 'X',     /* the whole experiment.json (--matrix) */
	FRAME_SUBDIR = 'S',  /* the frames after it are for this subdirectory ("": the run directory) */
};
#define FRAME_MAX (16u << 20)

struct remote_opts {
	char **hosts;
	size_t nhosts;
	unsigned jobs;              /* 0: all at once */
	const char *ssh_config;     /* ssh -F */
	const char **ssh_opts;      /* ssh -o, repeatable */
	size_t nssh_opts;
	unsigned connect_timeout;   /* seconds */
	const char *remote_dir;     /* NULL: ~/.cache/idlescope on the SUT */
	const char *ksrc;           /* --ksrc: the SUT's kernel build dir for the module (NULL: its own) */
	bool deploy_only;
	/* what stays for the collect on the SUT, and what the controller reads of it */
	char **pass;                /* argv for the remote collect (no -o, --force, -q) */
	int npass;
	const char *outdir;
	bool force, quiet;
	uint64_t count, time_limit_ns;
	const char *method;
	const char *reportid;       /* --reportid, or NULL: the local directory's name */
	bool counters;              /* collect --counters: counter snapshots alone */
	bool experiment;            /* --set/--matrix: the SUT runs the experiment driver */
	bool fetch;                 /* --fetch: get the SUT's copy of a run cut short */
	int progress;               /* --progress 1, -1: on a terminal */
	const char *settings_mode;  /* "list-settings", "dry-run" or "restore": no run (settings_remote.c) */
};

/* remote_opts.c: true if argv asks for remote collection (-H, --hosts, --deploy). */
bool remote_wanted(int argc, char **argv);
/* 0, or 2 after a usage error. */
int remote_parse(int argc, char **argv, struct remote_opts *ro);
void remote_opts_free(struct remote_opts *ro);

/* ssh.c */
struct ssh_proc {
	pid_t pid;
	int in, out, err;   /* our ends: its stdin, stdout, stderr */
};
/* Single-quote s for the SUT's shell. malloc'd. */
char *sh_quote(const char *s);
/* Start `ssh [options] -- host command` (command NULL: `ssh [options] -G -- host`, the effective
 * configuration); its own process group, so that a terminal's ^C reaches only us. 0 or -1 after
 * a message. */
int ssh_start(const struct remote_opts *ro, const char *host, const char *command, struct ssh_proc *sp);
/* Wait for it; returns its exit status (255: ssh's own failure), or 128+signal. */
int ssh_wait(struct ssh_proc *sp);
/* Run a command with stdin from buf (NULL: nothing), collecting stdout and stderr (NUL-terminated,
 * malloc'd; at most 1 MiB and 64 KiB: beyond, the command is ended and *err says so). Returns the
 * exit status (254 after an answer too long). */
int ssh_run(const struct remote_opts *ro, const char *host, const char *command,
	    const void *in, size_t inlen, char **out, char **err);
/* ssh_hostkeys.c: 0 when ssh's effective configuration for host (ssh -G) checks its host key;
 * 2 after a message naming the host when it would log in to a host whose key is unknown or
 * changed (StrictHostKeyChecking no/off/false, or accept-new that never remembers a key). */
int ssh_check_host_keys(const struct remote_opts *ro, const char *host);
/* One line saying why ssh failed (exit 255), from its stderr: unreachable, authentication
 * refused, host key ... */
void ssh_explain(const char *err, char *buf, size_t len);
/* The last non-empty line of text, in buf. */
void last_line(const char *text, char *buf, size_t len);
/* agent.c: all n bytes to fd (again after EINTR); -1 on an error or a write of nothing. The
 * agent's frames and the receiver's run files both go through it. */
int remote_write_all(int fd, const char *p, size_t n);

/* remote_err.c: isc_err("HOST: ...") that also keeps the text for the fleet's summary line. */
extern char remote_last_error[1024];
void remote_err(const char *host, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* deploy.c: make sure the SUT has this build's collect. 0, or 1 after a message naming host.
 * *cmd gets remote_collect(..., true) for it (shell text, malloc'd; the arguments follow). */
int remote_deploy(const struct remote_opts *ro, const char *host, bool verbose, char **collect_cmd);
/* deploy.c: the SHA-256 (hex, malloc'd) of the deployable file name. 0, or -1. */
int remote_payload_hash(const char *name, char **hash);

/* deploy_kmod.c: the hrt/tdt module built on the SUT from the deployed sources
 * (idlescope-kmod.tar) against its headers or --ksrc. */
/* true for --method hrt or tdt */
bool remote_kmod_method(const struct remote_opts *ro);
/* For a run: remote_deploy, then for hrt/tdt (no --kmod-path given, the module not loaded on the
 * SUT) the module, its file on the SUT in *ko (malloc'd; else NULL). 0, or 1 after a message. */
int remote_deploy_run(const struct remote_opts *ro, const char *host, char **collect_cmd, char **ko);
/* cmd (the agent's command line, freed) with `--kmod-path KO` for the SUT's collect when ko */
char *remote_add_kmod_path(char *cmd, const char *ko);
/* For --deploy: build the module on the SUT. A failure is an error (1) with --ksrc or --method
 * hrt/tdt, else a note (0). */
int remote_deploy_kmod(const struct remote_opts *ro, const char *host);
/* remote_dir.c: the SUT's directory, checked by every command, and the deployed collect run
 * from a checked private copy (docs/remote.md, "Trust"). */
/* Shell text of the SUT's base directory ("$HOME"/.cache/idlescope, or --remote-dir with a leading
 * ~/ expanded as a shell does). malloc'd. */
char *remote_base(const struct remote_opts *ro);
/* The shell command for the SUT: the base directory made (umask 077) and checked, then body, in
 * which "$isbase" is the directory's physical path and "$isv" this version's deploy directory. A
 * directory another user owns or may write is refused with one line on stderr, exit 96. */
char *remote_shell(const struct remote_opts *ro, const char *body);
/* The same check without making the directory when it is missing (the deploy's first probe). */
char *remote_shell_probe(const struct remote_opts *ro, const char *body);
/* Shell text (for remote_shell's body) running the deployed collect: a private copy of
 * "$isv/collect", its SHA-256 checked against hash, then that copy is run (exec_it: exec'd,
 * removed by the agent itself; else the caller removes "$isx"); the arguments follow it. */
char *remote_collect(const char *hash, bool exec_it);

/* receive.c: one run on one host into outdir. Returns the exit status for this host. */
struct host_result {
	uint64_t datapoints, discards;
	char status[160];
};
int remote_run_host(const struct remote_opts *ro, const char *host, const char *outdir,
		    bool progress, struct host_result *res);
/* The receiver without ssh (tests/fuzz/fuzz_remote.c): bytes as the agent's stdout, then the
 * connection's end; outdir is made when something arrives. Returns the exit status. */
int remote_receive_bytes(const struct remote_opts *ro, const char *host, const char *outdir,
			 const char *bytes, size_t n, struct host_result *res);
/* fetch.c's receiver: the agent command (--remote-agent-send) into tmpdir (made here); commit
 * puts it in place, then the SUT's copy is removed. report_dir's name is the reportid. */
int remote_receive_fetch(const struct remote_opts *ro, const char *host, const char *tmpdir,
			 const char *report_dir, const char *cmd,
			 int (*commit)(void *arg, struct host_result *res), void *arg, struct host_result *res);
/* fetch.c: `collect --fetch -H HOST -o DIR`: the SUT's copy of a run cut short over DIR. */
int remote_fetch_host(const struct remote_opts *ro, const char *host, const char *dir, struct host_result *res);

/* Fleet: a child's messages to the parent (progress, then its result) on one pipe; each
 * message is written whole (smaller than PIPE_BUF). */
struct fleet_msg {
	char kind;          /* 'P': rows received so far; 'R': the result */
	uint64_t rows;
	struct host_result res;
};
extern int remote_progress_fd;   /* -1: not a fleet child */
/* Set by the controller's SIGINT/SIGTERM handler. */
extern volatile sig_atomic_t remote_stop;

/* agent.c: the SUT side. */
int remote_agent_main(int argc, char **argv);

/* fleet.c */
int remote_fleet(const struct remote_opts *ro);

/* settings_remote.c: --list-settings, --dry-run or --restore on every host, one after another;
 * each host's answer, then for several hosts the settings side by side. The exit status. */
int remote_settings(const struct remote_opts *ro);
/* settings_agent.c: the SUT's side of it, `collect --remote-agent-settings ARGS...`. */
int remote_settings_agent_main(int argc, char **argv);
/* agent.c: the deployed collect runs from a private copy; remove it (the program runs on). */
void remote_agent_remove_copy(void);

/* controller.c: collect -H, the remote mode in collect's main. */
int remote_main(int argc, char **argv);
/* The remote options' part of collect --help. */
void remote_print_help(void);
#endif
