/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "text/util.h"
#include "time/clock.h"

uint64_t isc_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

struct timespec isc_ns_to_timespec(uint64_t ns)
{
	return (struct timespec){ .tv_sec = (time_t)(ns / NSEC_PER_SEC), .tv_nsec = (long)(ns % NSEC_PER_SEC) };
}

void isc_iso_time(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	size_t n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len - n, ".%03ldZ", ts.tv_nsec / (long)NSEC_PER_MSEC);
}

void isc_name_stamp(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y%m%d-%H%M%S", &tm);
}

char *isc_run_name(const char *host, const char *what)
{
	char name[256] = "localhost", date[32];
	isc_name_stamp(date, sizeof(date));
	if (host)
		return isc_xasprintf("%s-%s-%s", host, what, date);
	if (gethostname(name, sizeof(name)) < 0 || !name[0])
		strcpy(name, "localhost");
	name[sizeof(name) - 1] = '\0';
	for (char *p = name; *p; p++)
		if (*p == '/' || *p == ' ' || (unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
			*p = '_';  /* a hostname is ASCII letters, digits and '-'; nothing else is kept */
	return isc_xasprintf("%s-%s-%s", name, what, date);
}

void isc_fmt_duration(char *buf, size_t len, double s, int tenths)
{
	unsigned long t = (unsigned long)(s + 0.5);
	if (t >= 3600)
		snprintf(buf, len, "%luh%02lum%02lus", t / 3600, t / 60 % 60, t % 60);
	else if (t >= 60)
		snprintf(buf, len, "%lum%02lus", t / 60, t % 60);
	else if (tenths)
		snprintf(buf, len, "%.1fs", s);
	else
		snprintf(buf, len, "%lus", t);
}
