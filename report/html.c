/* SPDX-License-Identifier: GPL-2.0-only */
/* HTML output helpers: escaping, numbers, the page frame and its style sheet. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text/textsafe.h"
#include "diff/diff.h"
#include "report.h"

static const char css[] =
"*{box-sizing:border-box}\n"
"body{margin:0;font:14px/1.45 system-ui,'DejaVu Sans',sans-serif;color:#1d232b;background:#f4f5f7}\n"
"main{max-width:1340px;margin:0 auto;padding:0 20px 40px}\n"
"header{background:#1f2d3d;color:#fff;padding:18px 20px 14px}\n"
"header h1{margin:0 auto;max-width:1300px;font-size:22px;font-weight:600}\n"
"header p{margin:4px auto 0;max-width:1300px;color:#b9c6d3;font-size:13px}\n"
"nav{position:sticky;top:0;z-index:1;margin:0 -20px;padding:10px 20px 4px;font-size:13px;"
"background:#f4f5f7;border-bottom:1px solid #e3e6ea}\n"
"p.about{margin:0 0 8px;color:#4b5663;font-size:13px;max-width:980px}\n"
"nav a{display:inline-block;margin:0 6px 6px 0;padding:2px 9px;border-radius:11px;background:#e1e6ec;"
"color:#1f2d3d;text-decoration:none}\n"
"nav a:hover{background:#c9d3de}\n"
"section{background:#fff;border:1px solid #dde1e6;border-radius:6px;margin:16px 0;padding:6px 18px 16px}\n"
"h2{font-size:19px;margin:12px 0 8px;font-weight:600}\n"
"h2 .unit{color:#6b7682;font-weight:400;font-size:15px}\n"
"h3{font-size:15px;margin:18px 0 6px;font-weight:600;color:#33404d}\n"
".tw{overflow-x:auto;max-width:100%}\n"
"table{border-collapse:collapse;margin:6px 0 10px;font-variant-numeric:tabular-nums}\n"
"th,td{border:1px solid #dde1e6;padding:3px 7px;vertical-align:top}\n"
"table.summary{font-size:13px}\n"
"thead th{background:#eef1f4;text-align:center;font-weight:600}\n"
"tbody th{background:#f8f9fa;text-align:left;font-weight:600;white-space:nowrap}\n"
"td.num{text-align:right}\n"
"td .chg{display:block;font-size:11px}\n"
".up{color:#b3261e}.down{color:#0b6e4f}.same{color:#6b7682}\n"
"table.intro td{max-width:360px;overflow-wrap:anywhere}\n"
"tr.differs th{background:#fff1c2}tr.differs td{background:#fff8dc}\n"
"td.missing{color:#9aa3ad}\n"
".swatch{display:inline-block;width:11px;height:11px;border-radius:2px;margin-right:5px;"
"vertical-align:-1px}\n"
".legend{margin:8px 0 2px;font-size:13px;display:flex;flex-wrap:wrap;gap:2px 16px}\n"
".legend span.run{white-space:nowrap}\n"
".marker{font-size:14px;margin-right:4px}\n"
".verdicts{margin:6px 0 8px;padding:6px 10px;border-left:4px solid #8a96a3;background:#f6f7f9}\n"
".verdicts p{margin:2px 0;font-family:'DejaVu Sans Mono',monospace;font-size:12.5px}\n"
".verdicts p.sig{font-weight:700;color:#7a1c14}\n"
".verdicts p.differs{color:#5a3d00}\n"
".warnings{margin:8px 0 12px;padding:8px 12px;border:2px solid #c98a00;background:#fff6dd}\n"
".warnings p{margin:2px 0;font-weight:700}\n"
".warnings li{font-family:'DejaVu Sans Mono',monospace;font-size:12.5px}\n"
".plots{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:12px;margin-top:6px}\n"
"@media (max-width:1000px){.plots{grid-template-columns:minmax(0,1fr)}}\n"
"@media (min-width:1900px){main{max-width:1960px}.plots{grid-template-columns:repeat(3,minmax(0,1fr))}}\n"
"figure{margin:0;border:1px solid #e3e6ea;border-radius:4px;padding:6px;background:#fff}\n"
"figure img{display:block;width:100%;height:auto}\n"
"figure.wide{grid-column:1/-1}\n"
"figcaption{font-size:12px;color:#4b5663;margin-top:3px}\n"
"figure.live>img{display:none}\n"
".iplot canvas{display:block;cursor:crosshair;touch-action:none}\n"
".ibar{display:flex;gap:6px;align-items:center;font-size:11px;color:#6b7682;margin-bottom:3px}\n"
".ibar button{font-size:11px;padding:1px 8px;border:1px solid #c9d3de;border-radius:3px;background:#f4f5f7;cursor:pointer}\n"
".ibar button.on{background:#c9d3de}\n"
".ilegend{display:flex;flex-wrap:wrap;gap:0 12px;font-size:12px}\n"
".ilegend label{white-space:nowrap;cursor:pointer}\n"
".readout{font:12px 'DejaVu Sans Mono',monospace;color:#1d232b;min-height:1.5em;overflow-wrap:anywhere}\n"
"@media print{figure.live>img{display:block}.iplot{display:none}}\n"
"p.note{color:#4b5663;font-size:13px}\n"
"p.incomplete{margin:6px 0;padding:6px 10px;border-left:4px solid #b3261e;background:#fdf1f0}\n"
"details summary{cursor:pointer;color:#33404d;margin:6px 0}\n"
"footer{color:#6b7682;font-size:12px;text-align:center;margin-top:20px}\n";

/* Okabe-Ito colours (distinguishable with common colour blindness), then greys. */
static const char *const colours[] = {
	"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C8C8C",
};
/* gnuplot filled point types and matching glyphs: square, triangle, diamond, triangle
 * down, circle, pentagon (polygons first: cairo draws them several times faster). */
static const int pointtypes[] = { 5, 9, 13, 11, 7, 15 };
static const char *const markers[] = { "\u25A0", "\u25B2", "\u25C6", "\u25BC", "\u25CF", "\u2B1F" };

size_t colour_of(const struct report *rep, size_t r)
{
	return rep->config_of ? rep->config_of[r] : r;
}

const char *run_colour(size_t r)
{
	return colours[r % (sizeof(colours) / sizeof(colours[0]))];
}

int run_pointtype(size_t r)
{
	return pointtypes[r % (sizeof(pointtypes) / sizeof(pointtypes[0]))];
}

const char *run_marker(size_t r)
{
	return markers[r % (sizeof(markers) / sizeof(markers[0]))];
}

void html_escn(FILE *f, const char *s, size_t n)
{
	size_t run = 0, i = 0;
	for (; i < n && s[i]; i++) {
		const char *ent = s[i] == '&' ? "&amp;" : s[i] == '<' ? "&lt;" : s[i] == '>' ? "&gt;" :
				  s[i] == '"' ? "&quot;" : s[i] == '\'' ? "&#39;" : NULL;
		if (!ent)
			continue;
		/* The text between markup characters: control characters and invalid UTF-8 as
		 * \xNN (textsafe.h), so that the page is valid. */
		isc_text_write(f, s + run, i - run, ISC_TEXT_DATA);
		fputs(ent, f);
		run = i + 1;
	}
	isc_text_write(f, s + run, i - run, ISC_TEXT_DATA);
}

void html_esc(FILE *f, const char *s)
{
	html_escn(f, s ? s : "", (size_t)-1);
}

/* Enough digits to compare runs, not more: 1758, 412.3, 4.18, 0.0123. */
static void fmt_num(char *buf, size_t len, double v)
{
	double a = fabs(v);
	if (isnan(v))
		snprintf(buf, len, "\u2014");
	else if (isinf(v))  /* a result beyond DBL_MAX (std of -1.7e308, 1.7e308) */
		snprintf(buf, len, "%soverflow", v < 0 ? "\u2212" : "");
	else if (a >= 1e7 || (a < 1e-3 && a > 0))
		snprintf(buf, len, "%.3g", v);
	else if (a >= 1000)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 100)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 1 || a == 0)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.3g", v);
}

void group_digits(char *buf, size_t len, size_t v)
{
	char raw[32];
	int n = snprintf(raw, sizeof(raw), "%zu", v), k = 0;
	for (int i = 0; i < n && (size_t)k + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[k++] = ',';
		buf[k++] = raw[i];
	}
	buf[k] = '\0';
}

void html_count(FILE *f, size_t v)
{
	char buf[40];
	group_digits(buf, sizeof(buf), v);
	fputs(buf, f);
}

void html_num(FILE *f, double v)
{
	char buf[64];
	fmt_num(buf, sizeof(buf), v);
	fputs(buf, f);
}

/* "+1.23 (+4.5%)" under a value, coloured by direction. */
void html_change(FILE *f, double ref, double v)
{
	char abs[64];
	double d = v - ref;
	if (isnan(v))
		return;
	if (isnan(d) || !isfinite(ref) || !isfinite(v)) {  /* no change against an overflow */
		fputs("<span class=\"chg same\">\u2014</span>", f);
		return;
	}
	if (d == 0) {
		fputs("<span class=\"chg same\">0 (0%)</span>", f);
		return;
	}
	fmt_num(abs, sizeof(abs), d);  /* "+overflow": 1.5e308 against -1e308 */
	fprintf(f, "<span class=\"chg %s\">%s%s", d > 0 ? "up" : "down", d > 0 ? "+" : "", abs);
	double pct = isc_pct_change(v, ref);
	if (!isnan(pct)) {
		fprintf(f, fabs(pct) >= 9.95 ? " (%+.0f%%)" : fabs(pct) >= 0.095 ? " (%+.1f%%)" : " (%+.2f%%)",
			pct);
	}
	fputs("</span>", f);
}

void html_head(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", f);
	html_esc(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", css);
}

void html_tail(FILE *f)
{
	fputs("<footer>Written by idlescope's report; plots by gnuplot, made interactive by "
	      "plots/viewer.js (drag: zoom, shift+drag: pan, double-click: reset, hover: the "
	      "nearest datapoint). Scatter plots show every outlier and a deterministic sample of "
	      "the rest; everything else uses every datapoint.</footer>\n</main>\n"
	      "<script src=\"plots/viewer.js\"></script>\n</body>\n</html>\n", f);
}

void html_legend(FILE *f, const struct report *rep, bool markers_too)
{
	fputs("<div class=\"legend\">", f);
	for (size_t r = 0; r < rep->nruns; r++) {
		fputs("<span class=\"run\">", f);
		if (markers_too)
			fprintf(f, "<span class=\"marker\" style=\"color:%s\">%s</span>", run_colour(colour_of(rep, r)),
				run_marker(r));
		else
			fprintf(f, "<span class=\"swatch\" style=\"background:%s\"></span>", run_colour(colour_of(rep, r)));
		html_esc(f, rep->runs[r]->name);
		if (rep->grouped) {
			fputs(" (", f);
			html_esc(f, rep->configs[rep->config_of[r]].name);
			fputs(rep->config_of[r] ? ")" : ", reference)", f);
		} else if (rep->config_of[r] == 0 && rep->nruns > 1) {
			fputs(" (reference)", f);
		}
		fputs("</span>", f);
	}
	fputs("</div>\n", f);
}

void gp_safe(char *out, size_t outlen, const char *s)
{
	/* Control characters and invalid bytes as \xNN first (as in every other output); then
	 * whole UTF-8 characters are kept, and of ASCII only a whitelist: nothing that gnuplot
	 * or SVG would read as markup or the end of the string. */
	char *t = isc_text_dup(s, ISC_TEXT_LINE);
	size_t k = 0, n = strlen(t);
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)t[i];
		size_t len = c < 0x80 ? 1 : isc_utf8_char(t + i, n - i);
		bool ok = len > 1 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || strchr("%._-+()/ :#,=[]\\", c);
		if (len == 0 || k + len >= outlen)
			break;
		if (ok)
			memcpy(out + k, t + i, len);
		else
			out[k] = '?';  /* only ever one ASCII byte */
		k += len;
		i += len;
	}
	out[k] = '\0';
	free(t);
}
