/* SPDX-License-Identifier: GPL-2.0-only */
/* The measured CPU's busy share over a run, from /proc/stat (cpu_busy.h). */
#include "cpu_busy.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define STAT_MAX (4u << 20)

/* The next unsigned decimal field of [*p, end); false when there is none or it overflows. */
static bool next_field(const char **p, const char *end, uint64_t *v)
{
	const char *q = *p;
	while (q < end && *q == ' ')
		q++;
	if (q == end || *q < '0' || *q > '9')
		return false;
	uint64_t x = 0;
	for (; q < end && *q >= '0' && *q <= '9'; q++)
		if (__builtin_mul_overflow(x, 10, &x) || __builtin_add_overflow(x, (uint64_t)(*q - '0'), &x))
			return false;
	*p = q;
	*v = x;
	return true;
}

int cpu_ticks_parse(const char *text, size_t len, int cpu, struct cpu_ticks *t)
{
	char want[32];
	int wl = snprintf(want, sizeof(want), "cpu%d ", cpu);
	const char *p = text, *end = text + len;
	memset(t, 0, sizeof(*t));
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *le = eol ? eol : end;
		if (le - p > wl && !memcmp(p, want, (size_t)wl)) {
			/* user nice system idle iowait irq softirq steal (guest time is in user) */
			uint64_t f[8] = { 0 };
			const char *q = p + wl;
			int n = 0;
			while (n < 8 && next_field(&q, le, &f[n]))
				n++;
			if (n < 4 || __builtin_add_overflow(f[0], f[1], &t->busy) ||
			    __builtin_add_overflow(t->busy, f[2], &t->busy) ||
			    __builtin_add_overflow(t->busy, f[5], &t->busy) ||
			    __builtin_add_overflow(t->busy, f[6], &t->busy) ||
			    __builtin_add_overflow(f[3], f[4], &t->idle)) {
				memset(t, 0, sizeof(*t));
				return -1;
			}
			t->steal = f[7];
			t->ok = true;
			return 0;
		}
		p = le + 1;
	}
	return -1;
}

void cpu_ticks_read(int cpu, struct cpu_ticks *t)
{
	memset(t, 0, sizeof(*t));
	int fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	char *buf = malloc(STAT_MAX);
	size_t len = 0;
	ssize_t n;
	while (buf && len < STAT_MAX && ((n = read(fd, buf + len, STAT_MAX - len)) > 0 || (n < 0 && errno == EINTR)))
		if (n > 0)
			len += (size_t)n;
	close(fd);
	if (buf)
		cpu_ticks_parse(buf, len, cpu, t);
	free(buf);
}

int cpu_busy_between(const struct cpu_ticks *a, const struct cpu_ticks *b, uint64_t own_ns, long user_hz,
		     struct cpu_busy *out)
{
	memset(out, 0, sizeof(*out));
	if (!a->ok || !b->ok || b->busy < a->busy || b->idle < a->idle || b->steal < a->steal || user_hz <= 0)
		return -1;
	uint64_t busy = b->busy - a->busy, total;
	if (__builtin_add_overflow(busy, b->idle - a->idle, &total) ||
	    __builtin_add_overflow(total, b->steal - a->steal, &total) || !total)
		return -1;
	out->ticks = total;
	out->busy_pct = (double)busy / (double)total * 100.0;   /* the ratio first: never past 100 */
	out->steal_pct = (double)(b->steal - a->steal) / (double)total * 100.0;
	out->other_pct = out->busy_pct;
	if (own_ns != UINT64_MAX) {
		out->own_known = true;
		out->own_pct = 100.0 * (double)own_ns * (double)user_hz / 1e9 / (double)total;
		out->other_pct = out->busy_pct > out->own_pct ? out->busy_pct - out->own_pct : 0.0;
	}
	return 0;
}

/* A share rounded to 0.01 % (it is made of whole ticks: more digits would be noise). */
static cJSON *pct(double v)
{
	return cJSON_CreateNumber((double)(long long)(v * 100.0 + 0.5) / 100.0);
}

cJSON *cpu_busy_json(const struct cpu_busy *r, int cpu)
{
	if (!r)
		return cJSON_CreateNull();
	char src[64];
	cJSON *o = cJSON_CreateObject();
	cJSON_AddItemToObject(o, "busy_pct", pct(r->busy_pct));
	cJSON_AddItemToObject(o, "own_pct", r->own_known ? pct(r->own_pct) : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "other_pct", pct(r->other_pct));
	cJSON_AddItemToObject(o, "steal_pct", pct(r->steal_pct));
	cJSON_AddNumberToObject(o, "ticks", (double)r->ticks);
	snprintf(src, sizeof(src), "/proc/stat cpu%d, at the start and the end of the run", cpu);
	cJSON_AddStringToObject(o, "source", src);
	return o;
}
