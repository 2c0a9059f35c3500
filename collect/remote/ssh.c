/* SPDX-License-Identifier: GPL-2.0-only */
/* The system's OpenSSH client as the transport: argument list, process, and what its
 * failures mean. Host key checking is left as the user's ssh_config sets it. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "remote.h"
#include "text/util.h"

char *sh_quote(const char *s)
{
	char *q = isc_xmalloc(4 * strlen(s) + 3), *o = q;
	*o++ = '\'';
	for (; *s; s++) {
		if (*s == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *s;
		}
	}
	*o++ = '\'';
	*o = '\0';
	return q;
}

char *sh_append_passed(char *cmd, const struct remote_opts *ro)
{
	for (int i = 1; i < ro->npass; i++) {
		char *q = sh_quote(ro->pass[i]), *c = isc_xasprintf("%s %s", cmd, q);
		free(q);
		free(cmd);
		cmd = c;
	}
	return cmd;
}

static char **ssh_argv(const struct remote_opts *ro, const char *host, const char *command)
{
	size_t n = 0, max = 16 + 2 * ro->nssh_opts;
	char **a = isc_xcalloc(max, sizeof(*a));
	a[n++] = isc_xstrdup("ssh");
	a[n++] = isc_xstrdup("-T");          /* no terminal: a clean byte stream */
	a[n++] = isc_xstrdup("-o");
	a[n++] = isc_xstrdup("BatchMode=yes");   /* never ask for a password or a host key */
	if (ro->ssh_config) {
		a[n++] = isc_xstrdup("-F");
		a[n++] = isc_xstrdup(ro->ssh_config);
	}
	/* ssh keeps the first value of an option: the user's --ssh-opt beat our defaults below */
	for (size_t i = 0; i < ro->nssh_opts; i++) {
		a[n++] = isc_xstrdup("-o");
		a[n++] = isc_xstrdup(ro->ssh_opts[i]);
	}
	a[n++] = isc_xstrdup("-o");
	a[n++] = isc_xasprintf("ConnectTimeout=%u", ro->connect_timeout);
	a[n++] = isc_xstrdup("-o");
	a[n++] = isc_xstrdup("ServerAliveInterval=5");   /* a dead connection ends within ~15 s */
	if (!command)
		a[n++] = isc_xstrdup("-G");   /* print the effective configuration, connect nowhere */
	a[n++] = isc_xstrdup("--");
	a[n++] = isc_xstrdup(host);
	if (command)
		a[n++] = isc_xstrdup(command);
	return a;
}

static void free_argv(char **a)
{
	for (char **p = a; *p; p++)
		free(*p);
	free(a);
}

int ssh_start(const struct remote_opts *ro, const char *host, const char *command, struct ssh_proc *sp)
{
	int pin[2], pout[2], perr[2];
	if (pipe2(pin, O_CLOEXEC) < 0 || pipe2(pout, O_CLOEXEC) < 0 || pipe2(perr, O_CLOEXEC) < 0) {
		isc_err("%s: pipe: %s", host, strerror(errno));
		return -1;
	}
	char **a = ssh_argv(ro, host, command);
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		signal(SIGPIPE, SIG_DFL);
		dup2(pin[0], 0);
		dup2(pout[1], 1);
		dup2(perr[1], 2);
		execvp(a[0], a);
		fprintf(stderr, "cannot run ssh: %s\n", strerror(errno));
		_exit(127);
	}
	free_argv(a);
	close(pin[0]);
	close(pout[1]);
	close(perr[1]);
	if (pid < 0) {
		isc_err("%s: fork: %s", host, strerror(errno));
		close(pin[1]);
		close(pout[0]);
		close(perr[0]);
		return -1;
	}
	*sp = (struct ssh_proc){ .pid = pid, .in = pin[1], .out = pout[0], .err = perr[0] };
	return 0;
}

int ssh_wait(struct ssh_proc *sp)
{
	int st;
	if (sp->in >= 0)
		close(sp->in);
	if (sp->out >= 0)
		close(sp->out);
	if (sp->err >= 0)
		close(sp->err);
	sp->in = sp->out = sp->err = -1;
	while (waitpid(sp->pid, &st, 0) < 0)
		if (errno != EINTR)
			return 255;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

struct buf {
	char *p;
	size_t len, cap;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->p = isc_xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

/* The SUT's answer to one command: the deploy probe, the module build, ssh -G. More than this is
 * refused (the command is ended), not kept. */
#define SSH_RUN_OUT_MAX (1u << 20)
#define SSH_RUN_ERR_MAX (64u << 10)

int ssh_run(const struct remote_opts *ro, const char *host, const char *command,
	    const void *in, size_t inlen, char **out, char **err)
{
	struct ssh_proc sp;
	struct buf bo = { 0 }, be = { 0 };
	size_t done = 0;
	bool too_long = false;
	buf_add(&bo, "", 0);
	buf_add(&be, "", 0);
	if (ssh_start(ro, host, command, &sp) < 0) {
		*out = bo.p;
		*err = be.p;
		return 255;
	}
	if (!in || !inlen) {
		close(sp.in);
		sp.in = -1;
	}
	while (sp.out >= 0 || sp.err >= 0) {
		struct pollfd pf[3] = { { sp.out, POLLIN, 0 }, { sp.err, POLLIN, 0 }, { sp.in, POLLOUT, 0 } };
		if (poll(pf, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pf[2].revents) {
			ssize_t w = write(sp.in, (const char *)in + done, inlen - done);
			if (w > 0)
				done += (size_t)w;
			if (w < 0 || done == inlen) {
				close(sp.in);
				sp.in = -1;
			}
		}
		for (int i = 0; i < 2; i++) {
			int *fd = i ? &sp.err : &sp.out;
			char tmp[4096];
			if (!pf[i].revents)
				continue;
			ssize_t r = read(*fd, tmp, sizeof(tmp));
			struct buf *b = i ? &be : &bo;
			if (r > 0 && b->len + (size_t)r > (i ? SSH_RUN_ERR_MAX : SSH_RUN_OUT_MAX)) {
				too_long = true;
				kill(-sp.pid, SIGKILL);   /* its own process group (ssh_start) */
				close(*fd);
				*fd = -1;
			} else if (r > 0) {
				buf_add(b, tmp, (size_t)r);
			} else if (r == 0 || errno != EINTR) {
				close(*fd);
				*fd = -1;
			}
		}
	}
	int rc = ssh_wait(&sp);
	if (too_long) {
		be.len = 0;
		buf_add(&be, "", 0);
		char *msg = isc_xasprintf("the SUT's answer was longer than %u KiB (output) or %u KiB (messages): refused",
					 SSH_RUN_OUT_MAX >> 10, SSH_RUN_ERR_MAX >> 10);
		buf_add(&be, msg, strlen(msg));
		free(msg);
		rc = 254;
	}
	*out = bo.p;
	*err = be.p;
	return rc;
}

void last_line(const char *text, char *buf, size_t len)
{
	const char *end = text + strlen(text), *start;
	while (end > text && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	start = end;
	while (start > text && start[-1] != '\n')
		start--;
	size_t n = (size_t)(end - start);
	if (n >= len)
		n = len - 1;
	isc_quote_for_msg(start, n, buf, len);
}

void ssh_explain(const char *err, char *buf, size_t len)
{
	static const struct { const char *pat, *what; } known[] = {
		{ "REMOTE HOST IDENTIFICATION HAS CHANGED", "host key mismatch: the SUT's host key is not the one in known_hosts (refused; check it, then fix known_hosts)" },
		{ "Host key verification failed", "host key not verified (unknown or changed host key; refused)" },
		{ "Permission denied", "authentication refused" },
		{ "Could not resolve hostname", "unreachable (the name does not resolve)" },
		{ "Connection timed out", "unreachable (connection timed out)" },
		{ "Connection refused", "unreachable (connection refused)" },
		{ "No route to host", "unreachable (no route to host)" },
		{ "Network is unreachable", "unreachable (network is unreachable)" },
		{ "Connection closed", "connection closed during set-up" },
		{ "cannot run ssh", "the ssh program could not be started (install openssh-client)" },
	};
	char last[200];
	last_line(err, last, sizeof(last));
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strstr(err, known[i].pat)) {
			snprintf(buf, len, "%s; ssh said: %s", known[i].what, last);
			return;
		}
	snprintf(buf, len, "ssh failed: %s", last[0] ? last : "(no message)");
}
