/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The data of an interactive plot (jsplot.h). Strings are JSON strings escaped for any
 * context (<, >, &, U+2028/9 as \u escapes); numbers that are not finite are null. Points
 * are stored small: 16-bit coordinates over the series' own range (the viewer shows a
 * value to that resolution) and the rows as LEB128 deltas, both in base64.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text/textsafe.h"
#include "text/util.h"
#include "jsplot.h"

static void js_str(FILE *f, const char *s)
{
	char *t = isc_text_dup(s ? s : "", ISC_TEXT_LINE);
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)t; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&')
			fprintf(f, "\\u%04x", *p);
		else if (p[0] == 0xE2 && p[1] == 0x80 && (p[2] == 0xA8 || p[2] == 0xA9)) {
			fprintf(f, "\\u%04x", p[2] == 0xA8 ? 0x2028 : 0x2029);
			p += 2;
		} else
			fputc(*p, f);
	}
	fputc('"', f);
	free(t);
}

static void js_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.7g", v);
	else
		fputs("null", f);
}

struct jsplot *jsplot_open(const struct report *rep, const char *image, const char *xlabel,
			   const char *ylabel, bool logx, bool logy, const double view[4])
{
	struct jsplot *jp = isc_xcalloc(1, sizeof(*jp));
	const char *dot = strrchr(image, '.');
	char *id = isc_xasprintf("%.*s", (int)(dot ? (size_t)(dot - image) : strlen(image)), image);
	char *name = isc_xasprintf("plots/%s.js", id);
	jp->path = path_cat(rep->tmpdir, name);
	free(name);
	if (!(jp->f = fopen(jp->path, "w"))) {
		isc_err("%s: cannot create: %m", jp->path);
		free(jp->path);
		free(jp);
		free(id);
		return NULL;
	}
	FILE *f = jp->f;
	fputs("idlescopePlot(", f);
	js_str(f, id);
	fputs(",{\"xl\":", f);
	js_str(f, xlabel);
	fputs(",\"yl\":", f);
	js_str(f, ylabel);
	fprintf(f, ",\"lx\":%d,\"ly\":%d,\"v\":[", logx, logy);
	for (int i = 0; i < 4; i++) {
		fputs(i ? "," : "", f);
		js_num(f, view[i]);
	}
	fputs("],\"g\":[", f);
	for (size_t r = 0; r < rep->nruns; r++) {
		fputs(r ? "," : "", f);
		js_str(f, rep->runs[r]->name);
	}
	fputs("],\"gc\":[", f);
	for (size_t r = 0; r < rep->nruns; r++)
		fprintf(f, "%s\"%s\"", r ? "," : "", run_colour(colour_of(rep, r)));
	fputs("]", f);
	free(id);
	return jp;
}

/* The extras come as "xt":[...],"hy":[...]: each list is opened by its first item. */
static void extra(struct jsplot *jp, const char *key)
{
	if (jp->in_series || jp->any_series)
		return;
	if (!jp->first_value || jp->open_key != key) {
		if (jp->first_value)
			fputc(']', jp->f);
		fprintf(jp->f, ",\"%s\":[", key);
		jp->open_key = key;
		jp->first_value = true;
	} else {
		fputc(',', jp->f);
	}
}

void jsplot_xtick(struct jsplot *jp, double x, const char *label)
{
	extra(jp, "xt");
	fputc('[', jp->f);
	js_num(jp->f, x);
	fputc(',', jp->f);
	js_str(jp->f, label);
	fputc(']', jp->f);
}

void jsplot_hline(struct jsplot *jp, double y)
{
	extra(jp, "hy");
	js_num(jp->f, y);
}

void jsplot_vline(struct jsplot *jp, double x)
{
	extra(jp, "vx");
	js_num(jp->f, x);
}

static void end_series(struct jsplot *jp)
{
	if (jp->in_series)
		fputs(jp->nvalues ? "]}" : "}", jp->f);
	jp->in_series = false;
}

void jsplot_series(struct jsplot *jp, char kind, long run, const char *colour, double width,
		   int marker, bool dashed, const char *name)
{
	FILE *f = jp->f;
	end_series(jp);
	if (jp->first_value && !jp->any_series)
		fputc(']', f);
	fputs(jp->any_series ? "," : ",\"s\":[", f);
	fprintf(f, "{\"k\":\"%c\",\"g\":%ld,\"c\":\"%s\",\"w\":%g,\"m\":%d,\"dt\":%d", kind, run,
		colour, width, marker, dashed);
	if (name) {
		fputs(",\"n\":", f);
		js_str(f, name);
	}
	jp->any_series = jp->in_series = true;
	jp->nvalues = 0;
}

void jsplot_num(struct jsplot *jp, double v)
{
	fputs(jp->nvalues++ ? "," : ",\"d\":[", jp->f);
	js_num(jp->f, v);
}

void jsplot_xy(struct jsplot *jp, double x, double y)
{
	jsplot_num(jp, x);
	jsplot_num(jp, y);
}

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void base64(FILE *f, const unsigned char *p, size_t n)
{
	fputc('"', f);
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
			     (i + 2 < n ? p[i + 2] : 0);
		fputc(b64[v >> 18 & 63], f);
		fputc(b64[v >> 12 & 63], f);
		fputc(i + 1 < n ? b64[v >> 6 & 63] : '=', f);
		fputc(i + 2 < n ? b64[v & 63] : '=', f);
	}
	fputc('"', f);
}

/* lo and step of 16-bit codes over the finite values of v[off], v[off + 2], ... */
static void code_range(const float *xy, size_t n, int off, double *lo, double *step)
{
	double a = INFINITY, b = -INFINITY;
	for (size_t i = 0; i < n; i++)
		if (isfinite(xy[2 * i + off]))
			a = fmin(a, xy[2 * i + off]), b = fmax(b, xy[2 * i + off]);
	*lo = isfinite(a) ? a : 0;
	*step = isfinite(a) && b > a ? (b - a) / 65535 : 1;
}

void jsplot_points(struct jsplot *jp, const float *xy, size_t n, const size_t *rows)
{
	FILE *f = jp->f;
	double q[4];
	unsigned char *buf = isc_xmalloc(4 * n + 10 * n + 1);
	code_range(xy, n, 0, &q[0], &q[1]);
	code_range(xy, n, 1, &q[2], &q[3]);
	fputs(",\"q\":[", f);
	for (int i = 0; i < 4; i++) {
		fputs(i ? "," : "", f);
		fprintf(f, "%.17g", q[i]);
	}
	fputs("],\"d\":", f);
	for (size_t i = 0; i < 2 * n; i++) {
		const double *lq = &q[2 * (i % 2)];
		double c = isfinite(xy[i]) ? round((xy[i] - lq[0]) / lq[1]) : 0;
		unsigned v = c < 0 ? 0 : c > 65535 ? 65535 : (unsigned)c;
		buf[2 * i] = (unsigned char)(v & 0xff);
		buf[2 * i + 1] = (unsigned char)(v >> 8);
	}
	base64(f, buf, 4 * n);
	size_t k = 0, prev = 0;
	for (size_t i = 0; rows && i < n; i++) {
		size_t d = rows[i] - prev;
		prev = rows[i];
		do {
			buf[k++] = (unsigned char)((d & 0x7f) | (d >= 0x80 ? 0x80 : 0));
			d >>= 7;
		} while (d);
	}
	if (rows) {
		fputs(",\"r\":", f);
		base64(f, buf, k);
	}
	free(buf);
}

int jsplot_close(struct jsplot *jp)
{
	int rc = 0;
	end_series(jp);
	if (!jp->any_series)
		fputs(jp->first_value ? "],\"s\":[" : ",\"s\":[", jp->f);
	fputs("]});\n", jp->f);
	if (ferror(jp->f) | (fclose(jp->f) != 0)) {
		isc_err("%s: write error", jp->path);
		rc = -1;
	}
	free(jp->path);
	free(jp);
	return rc;
}
