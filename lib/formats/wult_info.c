// SPDX-License-Identifier: GPL-2.0-only
/* info.json's tree to wult's info.yml: the keys wult's reader uses, as YAML double-quoted strings. */
#include "formats/wult_info.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/textsafe.h"
#include "text/util.h"

/*
 * A YAML double-quoted scalar: ", \ and every control character (C0, DEL, C1) escaped, valid
 * UTF-8 kept, an invalid byte as the text \xNN (the backslash escaped) as everywhere else.
 */
static void put_yaml_str(FILE *f, const char *s)
{
	size_t n = strlen(s);
	fputc('"', f);
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		size_t len = isc_utf8_char(s + i, n - i);
		if (c == '"' || c == '\\') {
			fprintf(f, "\\%c", c);
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\x%02x", c);
		} else if (len == 2 && c == 0xc2 && (unsigned char)s[i + 1] < 0xa0) {
			fprintf(f, "\\x%02x", (unsigned char)s[i + 1]);  /* C1 control */
		} else if (len == 0) {
			fprintf(f, "\\\\x%02x", c);
			len = 1;
		} else {
			fwrite(s + i, 1, len, f);
		}
		i += len ? len : 1;
	}
	fputs("\"\n", f);
}

static void put_key_str(FILE *f, const char *key, const char *v)
{
	if (!v)
		return;
	fprintf(f, "%s: ", key);
	put_yaml_str(f, v);
}

static const char *str_of(const cJSON *info, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(info, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* wult writes "1h2m3s"-style durations; whole seconds are what it shows. */
static void put_duration(FILE *f, const cJSON *info)
{
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(info, "duration_s");
	if (!cJSON_IsNumber(d) || !isfinite(d->valuedouble) || d->valuedouble < 0 || d->valuedouble > 1e12)
		return;
	long long s = llround(d->valuedouble);
	char buf[64];
	if (s >= 3600)
		snprintf(buf, sizeof(buf), "%lldh%02lldm%02llds", s / 3600, s / 60 % 60, s % 60);
	else if (s >= 60)
		snprintf(buf, sizeof(buf), "%lldm%02llds", s / 60, s % 60);
	else
		snprintf(buf, sizeof(buf), "%llds", s);
	put_key_str(f, "duration", buf);
}

char *isc_wult_info_yml(const cJSON *info, const char *version)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	fputs("# For wult's reader (wult calc/report/filter); the run's description is info.json.\n", f);
	put_key_str(f, "format_version", ISC_WULT_FORMAT_VERSION);
	put_key_str(f, "reportid", str_of(info, "reportid"));
	put_key_str(f, "toolname", "wult");
	char *toolver = isc_xasprintf("idlescope %s", version);
	put_key_str(f, "toolver", toolver);
	free(toolver);
	const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(info, "cpu");
	if (cJSON_IsNumber(cpu) && cpu->valuedouble >= 0 && cpu->valuedouble < 1e9)
		fprintf(f, "cpu: %d\n", cpu->valueint);
	put_key_str(f, "devid", str_of(info, "method"));
	put_key_str(f, "devdescr", str_of(info, "event_source"));
	put_key_str(f, "date", str_of(info, "start_time"));
	put_duration(f, info);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}
