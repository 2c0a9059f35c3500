/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading a CSV file into an isc_table, fast: the file is split at a line boundary into one
 * range per thread; each thread reads its range in blocks with pread, splits lines and
 * fields, and converts only the wanted columns (numbers with isc_parse_double, text into a
 * local string pool). The ranges are then joined. Lines with a '"' go through libcsv, so
 * quoted fields work; everything else takes the fast path.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "table/clones.h"
#include "table/colpack.h"
#include "table/csv_lanes.h"
#include "table/csv_split.h"
#include "table/early_thread.h"
#include "table/numparse.h"
#include "table/numparse_fast.h"
#include "table/swar.h"
#include "table/table.h"
#include "text/util.h"
#include "table/strpool.h"

/* A thread's read block: small enough to stay in its core's L2 cache and to take no huge
 * page (2 x 4 MiB blocks were 8 MiB of fresh pages, 7 % of -G's samples on this VM). */
#define BLOCK_SIZE (256u << 10)
#define HEADER_MAX (1u << 20)
#define SPLIT_MIN_BYTES (4u << 20)
#define TYPE_SAMPLE_BYTES (1u << 20)
/* The packing's sample: a quarter of the type sample (2,500 wult rows) finds the widths and
 * scales as well, and it is read before the threads start. */
#define PACK_SAMPLE_BYTES (256u << 10)
/* Lines lanes_line may give back before it is given up, if they are a quarter of all. */
#define LANES_TRIAL 1024
/* Bytes readable past a block's data: for the number parsers and the lanes' split. */
#define BUF_SLACK (ISC_PARSE_SLACK > ISC_LANES_SLACK ? ISC_PARSE_SLACK : ISC_LANES_SLACK)

struct layout {
	const char *path;
	int fd;
	size_t nfields;          /* columns in the header */
	int *out_of_field;       /* header index -> loaded column index, or -1 */
	size_t nout;
	char **out_names;        /* loaded column names */
	enum isc_coltype *types;  /* loaded column types */
	unsigned *pack_width;    /* per loaded column: 0, or the colpack width and scale */
	unsigned *pack_scale;
	bool *pack_digit;        /* ... and whether the sample's values were single digits */
};

struct chunk {
	const struct layout *lay;
	off_t start, end;        /* byte range, starts at a line start */
	int is_last;             /* range ends at end of file */
	size_t est_rows;
	/* results */
	size_t nrows, cap;
	double **num;            /* per loaded column (NULL for text and packed columns) */
	struct isc_colpack *pk;  /* per loaded column: the packed ones' codes */
	int in_shared;           /* num[k] point into the shared arrays (see read_body) */
	uint32_t **text;
	struct strpool pool;
	size_t lines;            /* lines consumed, blank ones included */
	size_t blank;            /* blank lines skipped */
	size_t first_blank;      /* line of the first, within the chunk, 1-based */
	int failed;
	size_t err_line;         /* line within the chunk, 1-based */
	char err[600];
	int cut;                 /* last line dropped as cut off */
	char cut_msg[700];
	int open_row;            /* the last row stored came from a line without its newline */
	struct fields fl;        /* scratch for one line's fields */
	uint32_t *last_id;       /* per text column: the previous row's string id */
	size_t *last_len;        /* and its length */
	struct short_text *recent;  /* per text column, SHORT_SLOTS ids of values of <= 8 bytes */
	struct field_op *ops;    /* per field of the header: what the plain path does with it */
	size_t fields_got;       /* the field count of the last line that had the wrong one */
	bool use_lanes;          /* plain lines go through lanes_line first */
	size_t lanes_missed;     /* lines it gave back */
	struct isc_lane_plan plan;  /* its lanes: the 1-byte codes first, then 2, then 4 */
	unsigned lanes_w1, lanes_w2;   /* how many lanes of 1 byte, of 1 or 2 */
	void *lane_codes[ISC_LANES];   /* each lane's codes (lanes_codes_refresh) */
	unsigned *digit_fields;  /* packed fields of single digits (pack_digit): one byte, no lane */
	int8_t **digit_codes;
	unsigned ndigit;
	unsigned *others;        /* the fields that are not packed and not skipped */
	unsigned nothers;
};

/* A text value of at most 8 bytes as one word (the key) and its id: most text columns
 * (ReqCState) take a few short values, found here without hashing their bytes. */
struct short_text {
	uint64_t key;
	uint32_t len, id;
};

#define SHORT_SLOTS 16

/* A field's column, and how this chunk holds it (chunk_set_ops). */
enum field_kind { FIELD_SKIP, FIELD_TEXT, FIELD_NUM, FIELD_PACKED };

struct field_op {
	enum field_kind kind;
	size_t k;                /* the loaded column */
};

/* A column the layout packs that this chunk holds as doubles of its own instead: its values
 * were mostly exceptions (unpack_if_worse). */
static bool given_up(const struct chunk *c, size_t k)
{
	return c->lay->pack_width[k] && !c->pk[k].width;
}

/* Where each lane's codes go: after the plan, and whenever the codes move (chunk_grow). */
static void lanes_codes_refresh(struct chunk *c)
{
	for (unsigned l = 0; c->use_lanes && l < c->plan.nlanes; l++)
		c->lane_codes[l] = c->pk[c->ops[c->plan.field[l]].k].codes;
	for (unsigned i = 0; c->use_lanes && i < c->ndigit; i++)
		c->digit_codes[i] = c->pk[c->ops[c->digit_fields[i]].k].codes;
}

/* The packed fields into lanes (csv_lanes.h), when the CPU has them and every packed field
 * fits one: at most ISC_LANES of them, with at most 7 decimals. The lanes go by the width of
 * their codes, so that storing them needs no switch. A column of single digits (a flag, a
 * counter that stays 0: IntrOff, SMICnt) is read as its one byte instead, which keeps a
 * wult line's other packed fields within one vector of lanes. */
static void plan_lanes(struct chunk *c)
{
	struct isc_lane_plan *pl = &c->plan;
	bool fits = true;
	memset(pl, 0, sizeof(*pl));
	pl->nfields = (unsigned)c->lay->nfields;
	c->nothers = c->ndigit = 0;
	for (unsigned f = 0; f < pl->nfields; f++) {
		const struct field_op *op = &c->ops[f];
		if (op->kind == FIELD_PACKED && c->lay->pack_digit[op->k] && c->pk[op->k].width == 1)
			c->digit_fields[c->ndigit++] = f;
		else if (op->kind == FIELD_PACKED)
			fits &= c->pk[op->k].scale <= 7;
		else if (op->kind == FIELD_NUM && pl->nnum < ISC_NUM_LANES)
			pl->num_field[pl->nnum++] = f;
		else if (op->kind != FIELD_SKIP)
			c->others[c->nothers++] = f;
	}
	for (unsigned w = 1; w <= 4; w *= 2) {
		for (unsigned f = 0; f < pl->nfields; f++) {
			const struct field_op *op = &c->ops[f];
			if (op->kind != FIELD_PACKED || c->pk[op->k].width != w ||
			    (c->lay->pack_digit[op->k] && w == 1))
				continue;
			if (pl->nlanes == ISC_LANES) {
				fits = false;
				break;
			}
			pl->field[pl->nlanes] = f;
			pl->scale[pl->nlanes] = c->pk[op->k].scale;
			pl->code_max[pl->nlanes++] = c->pk[op->k].code_max;
		}
		if (w == 1)
			c->lanes_w1 = pl->nlanes;
		else if (w == 2)
			c->lanes_w2 = pl->nlanes;
	}
	c->use_lanes = fits && pl->nlanes + pl->nnum && pl->nfields <= ISC_LANES_MAX_FIELDS && isc_lanes_usable();
	if (c->use_lanes)
		isc_lanes_plan(pl);
	lanes_codes_refresh(c);
}

static void chunk_set_ops(struct chunk *c)
{
	const struct layout *lay = c->lay;
	for (size_t f = 0; f < lay->nfields; f++) {
		int k = lay->out_of_field[f];
		enum field_kind kind = k < 0 ? FIELD_SKIP
				     : lay->types[k] == ISC_COL_TEXT ? FIELD_TEXT
				     : c->pk[k].width ? FIELD_PACKED : FIELD_NUM;
		c->ops[f] = (struct field_op){ kind, k < 0 ? 0 : (size_t)k };
	}
	plan_lanes(c);
}

/* More room: a chunk that outgrows its part of the shared arrays moves to arrays of its own. */
static void chunk_grow(struct chunk *c)
{
	size_t cap = c->cap ? c->cap + c->cap / 2 : (c->est_rows ? c->est_rows : 1024);
	for (size_t k = 0; k < c->lay->nout; k++) {
		if (c->pk[k].width) {
			isc_colpack_reserve(&c->pk[k], cap);
		} else if (given_up(c, k)) {
			c->num[k] = isc_xrealloc(c->num[k], cap * sizeof(double));
		} else if (c->lay->types[k] == ISC_COL_NUM && c->in_shared) {
			double *own = isc_xmalloc(cap * sizeof(double));
			memcpy(own, c->num[k], c->nrows * sizeof(double));
			c->num[k] = own;
		} else if (c->lay->types[k] == ISC_COL_NUM) {
			c->num[k] = isc_xrealloc(c->num[k], cap * sizeof(double));
		} else {
			c->text[k] = isc_xrealloc(c->text[k], cap * sizeof(uint32_t));
		}
	}
	c->in_shared = 0;
	c->cap = cap;
	lanes_codes_refresh(c);
}

static void chunk_fail(struct chunk *c, const char *fmt, const char *a, const char *b)
{
	c->failed = 1;
	c->err_line = c->lines;
	snprintf(c->err, sizeof(c->err), fmt, a, b);
}

static int field_count_error(struct chunk *c, size_t got);
static int number_error(struct chunk *c, size_t k, const char *p, const char *end);
static uint32_t intern_text(struct chunk *c, size_t k, const char *s, size_t len);

/* Store one line's fields; returns 0, or -1 with c->err set. */
static int store_fields(struct chunk *c, const struct fields *fl)
{
	const struct layout *lay = c->lay;

	if (fl->n != lay->nfields)
		return field_count_error(c, fl->n);
	if (c->nrows == c->cap)
		chunk_grow(c);
	for (size_t f = 0; f < fl->n; f++) {
		int k = lay->out_of_field[f];
		if (k < 0)
			continue;
		const char *s = fl->ptr[f];
		size_t len = fl->len[f];
		if (lay->types[k] == ISC_COL_TEXT) {
			c->text[k][c->nrows] = intern_text(c, (size_t)k, s, len);
			continue;
		}
		double d = NAN;
		if (len && !isc_parse_double(s, len, &d))
			return number_error(c, (size_t)k, s, s + len);
		if (c->pk[k].width)
			isc_colpack_put(&c->pk[k], c->nrows, d);
		else
			c->num[k][c->nrows] = d;
	}
	c->nrows++;
	return 0;
}

/* Consecutive rows mostly repeat a text value (ReqCState): check the previous one first. */
static uint32_t intern_text(struct chunk *c, size_t k, const char *s, size_t len)
{
	uint32_t last = c->last_id[k];
	if (len == 0)
		return ISC_TEXT_EMPTY;
	if (last != ISC_TEXT_EMPTY && c->last_len[k] == len && memcmp(c->pool.strs[last], s, len) == 0)
		return last;
	c->last_len[k] = len;
	return c->last_id[k] = strpool_intern(&c->pool, s, len);
}

/* intern_text for a field of the plain path (the block's slack makes 8 bytes readable). */
static inline uint32_t intern_short(struct chunk *c, size_t k, const char *s, size_t len)
{
	if (len == 0 || len > 8)
		return intern_text(c, k, s, len);
	uint64_t key = isc_load8(s) & (len == 8 ? ~0ULL : (1ULL << (8 * len)) - 1);
	struct short_text *e = &c->recent[k * SHORT_SLOTS + ((key * 0x9E3779B97F4A7C15ULL) >> 60)];
	if (e->len != len || e->key != key)
		*e = (struct short_text){ key, (uint32_t)len, strpool_intern(&c->pool, s, len) };
	return e->id;
}

/* The first comma or newline in [p, end), or end, eight bytes at a time (the block's slack). */
static inline const char *field_end(const char *p, const char *end)
{
	for (; p < end; p += 8) {
		uint64_t v = isc_load8(p);
		unsigned i = isc_byte_index(v, ','), j = isc_byte_index(v, '\n');
		if (j < i)
			i = j;
		if (i < 8)
			return isc_min_size(i, (size_t)(end - p)) + p;
	}
	return end;
}

static int field_count_error(struct chunk *c, size_t got)
{
	char msg[80];
	c->fields_got = got;
	snprintf(msg, sizeof(msg), "expected %zu fields, got %zu", c->lay->nfields, got);
	chunk_fail(c, "%s%s", msg, "");
	return -1;
}

/* p..end is the field's text (unquoted): a quoted "1,5" is reported whole, not as '1'. */
static int number_error(struct chunk *c, size_t k, const char *p, const char *end)
{
	char got[64];
	double d;
	isc_quote_for_msg(p, (size_t)(end - p), got, sizeof(got));
	if (isc_is_number_out_of_range(p, (size_t)(end - p), &d))
		chunk_fail(c, "field '%s': '%s' is out of the range of a double", c->lay->out_names[k], got);
	else if (memchr(p, ',', (size_t)(end - p)))  /* quoted, or it would be two fields */
		chunk_fail(c, "field '%s': expected a number, got '%s' (numbers use '.', not ',')",
			   c->lay->out_names[k], got);
	else
		chunk_fail(c, "field '%s': expected a number, got '%s'", c->lay->out_names[k], got);
	return -1;
}

/* A line with more fields than the header's (f counted so far, the last of them ending at
 * stop, a comma): how many it has, for the message. */
static void too_many_fields(struct chunk *c, size_t f, const char *stop, const char *end)
{
	while (stop < end && *stop == ',') {
		stop = field_end(stop + 1, end);
		f++;
	}
	field_count_error(c, f);
}

/* A number field that did not parse at p: empty (NaN), or an error (NULL). */
static const char *empty_or_error(struct chunk *c, struct field_op op, const char *p, const char *end)
{
	if (p < end && *p != ',' && *p != '\n') {
		number_error(c, op.k, p, field_end(p, end));
		return NULL;
	}
	if (op.kind == FIELD_PACKED)
		isc_colpack_put(&c->pk[op.k], c->nrows, NAN);
	else
		c->num[op.k][c->nrows] = NAN;
	return p;
}

/* The fast path for a line without quotes: split and convert in one walk. The line ends at
 * end or at a newline before it; it is in a block with ISC_PARSE_SLACK readable bytes after
 * its data (read_range), and the byte at end is a newline, a carriage return or NUL. So a
 * number's digits stop at or before end, and a comma after a field is before end. Returns
 * where the line ends, or NULL (c->err says why). */
static const char *parse_plain_fields(struct chunk *c, const char *p, const char *end)
{
	size_t row = c->nrows;
	if (row == c->cap)
		chunk_grow(c);
	const struct field_op *op = c->ops, *last = c->ops + c->lay->nfields - 1;
	for (;; op++) {
		const char *stop;
		if (op->kind == FIELD_PACKED)
			stop = isc_colpack_parse_stopped(&c->pk[op->k], row, p, end);
		else if (op->kind == FIELD_NUM)
			stop = isc_parse_double_stopped(p, end, &c->num[op->k][row]);
		else {  /* text or skipped */
			stop = field_end(p, end);
			if (op->kind == FIELD_TEXT)
				c->text[op->k][row] = intern_short(c, op->k, p, (size_t)(stop - p));
		}
		if (!stop && !(stop = empty_or_error(c, *op, p, end)))
			return NULL;
		if (stop < end && *stop == ',') {
			if (op == last) {
				too_many_fields(c, (size_t)(op - c->ops) + 1, stop, end);
				return NULL;
			}
			p = stop + 1;
			continue;
		}
		if (stop != end && *stop != '\n') {
			number_error(c, op->k, p, field_end(p, end));
			return NULL;
		}
		if (op != last) {
			field_count_error(c, (size_t)(op - c->ops) + 1);
			return NULL;
		}
		c->nrows++;
		return stop;
	}
}

/* The plain line at p through lanes (csv_lanes.h): its row stored and its newline returned,
 * or NULL with nothing stored for good, for parse_plain_fields to take it. */
static const char *lanes_line(struct chunk *c, const char *p)
{
	uint8_t fe[ISC_LANES_MAX_FIELDS];
	uint64_t codes[ISC_LANES];
	double nums[ISC_NUM_LANES];
	int newline = isc_lanes_line(&c->plan, p, fe, codes, nums);
	if (newline < 0)
		return NULL;
	for (unsigned i = 0; i < c->ndigit; i++) {
		unsigned f = c->digit_fields[i], s = f ? fe[f - 1] + 1 : 0;
		if (fe[f] != s + 1 || (unsigned)(p[s] - '0') > 9)
			return NULL;
	}
	size_t row = c->nrows;
	if (row == c->cap)
		chunk_grow(c);
	for (unsigned i = 0; i < c->ndigit; i++) {
		unsigned f = c->digit_fields[i];
		c->digit_codes[i][row] = (int8_t)(p[f ? fe[f - 1] + 1 : 0] - '0');
	}
	for (unsigned i = 0; i < c->nothers; i++) {  /* numbers first: they may still refuse */
		unsigned f = c->others[i];
		const char *s = p + (f ? fe[f - 1] + 1 : 0), *e = p + fe[f];
		if (c->ops[f].kind == FIELD_NUM && isc_parse_double_stopped(s, e, &c->num[c->ops[f].k][row]) != e)
			return NULL;
	}
	for (unsigned i = 0; i < c->nothers; i++) {
		unsigned f = c->others[i];
		const char *s = p + (f ? fe[f - 1] + 1 : 0);
		if (c->ops[f].kind == FIELD_TEXT)
			c->text[c->ops[f].k][row] = intern_short(c, c->ops[f].k, s, (size_t)(p + fe[f] - s));
	}
	for (unsigned i = 0; i < c->plan.nnum; i++)
		c->num[c->ops[c->plan.num_field[i]].k][row] = nums[i];
	unsigned l = 0;
	for (; l < c->lanes_w1; l++)
		((int8_t *)c->lane_codes[l])[row] = (int8_t)codes[l];
	for (; l < c->lanes_w2; l++)
		((int16_t *)c->lane_codes[l])[row] = (int16_t)codes[l];
	for (; l < c->plan.nlanes; l++)
		((int32_t *)c->lane_codes[l])[row] = (int32_t)codes[l];
	c->nrows++;
	return p + newline;
}

static int parse_plain_line(struct chunk *c, const char *p, const char *end)
{
	return parse_plain_fields(c, p, end) ? 0 : -1;
}

/* The complete lines of a block with no NUL byte, quote or carriage return, up to and with
 * the newline before end: each line's end is found by its last field, not searched first. */
static int parse_plain_block(struct chunk *c, const char *p, const char *end)
{
	while (p < end) {
		c->lines++;
		if (*p == '\n') {
			if (!c->blank++)
				c->first_blank = c->lines;
			p++;
			continue;
		}
		const char *eol = c->use_lanes ? lanes_line(c, p) : NULL;
		if (!eol && c->use_lanes && ++c->lanes_missed > LANES_TRIAL && c->lanes_missed > c->lines / 4)
			c->use_lanes = false;  /* not this file's usual line: no more tries */
		if (!eol && !(eol = parse_plain_fields(c, p, end)))
			return -1;
		p = eol + 1;
	}
	return 0;
}

/* plain: the caller knows the line has no NUL byte and no quote (checked per block). */
static int process_line(struct chunk *c, const char *line, size_t len, int plain)
{
	char col[32];
	const char *nul;

	c->lines++;
	if (len && line[len - 1] == '\r')
		len--;
	if (len == 0) {
		if (!c->blank++)
			c->first_blank = c->lines;
		return 0;
	}
	if (plain)
		return parse_plain_line(c, line, line + len);
	nul = memchr(line, '\0', len);
	if (nul) {
		snprintf(col, sizeof(col), "%zu", (size_t)(nul - line) + 1);
		chunk_fail(c, "NUL byte at column %s%s", col, "");
		return -1;
	}
	if (!memchr(line, '"', len))
		return parse_plain_line(c, line, line + len);
	if (csv_split_line(line, len, &c->fl) < 0) {
		chunk_fail(c, "%s%s", c->fl.err, "");
		return -1;
	}
	return store_fields(c, &c->fl);
}

/* The file's last line has no newline: what a killed collector leaves. A line that does not
 * parse is dropped as cut off (unless it has too many fields or binary junk: an error); one
 * that parses is kept for now, and report_chunks decides whether it stays (open_row). */
static void process_last_line(struct chunk *c, const char *line, size_t len)
{
	size_t nrows = c->nrows;
	c->fields_got = 0;
	if (process_line(c, line, len, 0) == 0) {
		c->open_row = c->nrows > nrows;
		return;
	}
	if (c->fields_got > c->lay->nfields || strncmp(c->err, "NUL", 3) == 0)
		return;  /* too many fields or binary junk: a real error, not a cut line */
	c->failed = 0;
	c->nrows = nrows;
	c->cut = 1;
	snprintf(c->cut_msg, sizeof(c->cut_msg), "last line is cut off (%s); dropped it", c->err);
}

/* A packed column whose values are mostly exceptions (the type sample did not show them) would
 * take more than doubles: after each block, such a column goes back to doubles in this chunk. */
static void unpack_if_worse(struct chunk *c)
{
	for (size_t k = 0; k < c->lay->nout && c->nrows >= 4096; k++) {
		if (!c->pk[k].width || c->pk[k].nx <= c->nrows / 8)
			continue;
		double *num = isc_xmalloc(c->cap * sizeof(double));
		isc_colpack_decode(&c->pk[k], 0, c->nrows, num);
		isc_colpack_free(&c->pk[k]);  /* width 0: given up */
		c->num[k] = num;
		chunk_set_ops(c);
	}
}

enum { ODD_NUL = 1, ODD_QUOTE = 2, ODD_CR = 4 };
typedef char v32c __attribute__((vector_size(32)));

/* Which of NUL, '"' and '\r' the n bytes at p hold (ODD_*), in one pass of 32 bytes a step
 * (an AVX2 clone, else two SSE2 halves) instead of a memchr for each. */
ISC_AVX2_CLONES
static unsigned odd_bytes(const char *p, size_t n)
{
	v32c nul = { 0 }, quote = { 0 }, cr = { 0 };
	size_t i = 0;
	for (; i + 32 <= n; i += 32) {
		v32c v;
		memcpy(&v, p + i, sizeof(v));
		nul |= v == 0;
		quote |= v == '"';
		cr |= v == '\r';
	}
	unsigned odd = 0;
	for (int l = 0; l < 32; l++)
		odd |= (nul[l] ? ODD_NUL : 0) | (quote[l] ? ODD_QUOTE : 0) | (cr[l] ? ODD_CR : 0);
	for (; i < n; i++)
		odd |= (p[i] == 0 ? ODD_NUL : 0) | (p[i] == '"' ? ODD_QUOTE : 0) | (p[i] == '\r' ? ODD_CR : 0);
	return odd;
}

static int read_range(struct chunk *c, char *buf, size_t bufsize, char **heap)
{
	off_t pos = c->start;
	size_t have = 0;

	while (pos < c->end || have) {
		size_t want = bufsize - have;
		if ((off_t)want > c->end - pos)
			want = (size_t)(c->end - pos);
		ssize_t got = want ? pread(c->lay->fd, buf + have, want, pos) : 0;
		if (got < 0) {
			chunk_fail(c, "read error: %s%s", strerror(errno), "");
			return -1;
		}
		pos += got;
		have += (size_t)got;
		int at_end = pos >= c->end || got == 0;
		memset(buf + have, 0, BUF_SLACK);  /* what the wide parsers may read past a line */
		char *p = buf, *end = buf + have, *nl;
		unsigned odd = odd_bytes(buf, have);
		int plain = !(odd & (ODD_NUL | ODD_QUOTE));
		char *last_nl = plain && !(odd & ODD_CR) ? memrchr(buf, '\n', have) : NULL;
		if (last_nl) {
			if (parse_plain_block(c, p, last_nl + 1) < 0)
				return -1;
			p = last_nl + 1;
		}
		while ((nl = memchr(p, '\n', (size_t)(end - p)))) {
			if (process_line(c, p, (size_t)(nl - p), plain) < 0)
				return -1;
			p = nl + 1;
		}
		unpack_if_worse(c);
		have = (size_t)(end - p);
		if (at_end) {
			if (have && c->is_last)
				process_last_line(c, p, have);
			else if (have && process_line(c, p, have, 0) < 0)
				return -1;
			return c->failed ? -1 : 0;
		}
		memmove(buf, p, have);
		if (have == bufsize) {  /* a line longer than the buffer: grow it */
			bufsize *= 2;
			buf = *heap = isc_xrealloc(*heap, bufsize + BUF_SLACK);
		}
	}
	return 0;
}

static void *chunk_run(void *arg)
{
	struct chunk *c = arg;
	isc_oom_context("loading %s", c->lay->path);  /* this thread's own, for isc_xmalloc */
	char *buf = isc_xmalloc(BLOCK_SIZE + BUF_SLACK);
	read_range(c, buf, BLOCK_SIZE, &buf);
	free(buf);
	return NULL;
}

/* ---- header and layout ---- */

static int header_error(const char *path, const char *msg, const char *a)
{
	isc_err("%s:1: header: %s%s", path, msg, a);
	return -1;
}

static int check_name(const char *path, const struct fields *fl, size_t i)
{
	char q[64], msg[160];
	const unsigned char *s = (const unsigned char *)fl->ptr[i];
	if (fl->len[i] == 0) {
		snprintf(msg, sizeof(msg), "column %zu has an empty name", i + 1);
		return header_error(path, msg, "");
	}
	if (fl->len[i] >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) {  /* one at the file start is skipped */
		snprintf(msg, sizeof(msg), "column %zu name starts with a%s UTF-8 byte order mark"
			 " (the file was converted twice?)", i + 1, i ? "" : " second");
		return header_error(path, msg, "");
	}
	for (size_t j = 0; j < fl->len[i]; j++) {
		if (s[j] < 0x20 || s[j] == 0x7f) {
			isc_quote_for_msg(fl->ptr[i], fl->len[i], q, sizeof(q));
			snprintf(msg, sizeof(msg), "column %zu name '%s' has a control byte"
				 " (not a CSV file?)", i + 1, q);
			return header_error(path, msg, "");
		}
	}
	return 0;
}

/* Names are exact (" WakeLatency" is not WakeLatency): one warning names the first with a
 * space or tab at either end, which otherwise only shows up later as an unknown column. */
static void hint_spaces(const char *path, const struct fields *fl)
{
	char q[64];
	size_t n = 0, first = 0;
	for (size_t i = 0; i < fl->n; i++) {
		const char *s = fl->ptr[i];
		size_t len = fl->len[i];
		if (len && (s[0] == ' ' || s[0] == '\t' || s[len - 1] == ' ' || s[len - 1] == '\t') && !n++)
			first = i;
	}
	if (!n)
		return;
	char more[48] = "";
	if (n > 1)
		snprintf(more, sizeof(more), " (and %zu more names)", n - 1);
	isc_quote_for_msg(fl->ptr[first], fl->len[first], q, sizeof(q));
	isc_warn("%s:1: header: column %zu name '%s' has a space at its %s%s; names are used as they "
		"are, not trimmed", path, first + 1, q,
		fl->ptr[first][0] == ' ' || fl->ptr[first][0] == '\t' ? "start" : "end", more);
}

/* Names are checked with a hash of those seen: 100,000 columns took 34 s pairwise. */
static int check_names(const char *path, const struct fields *fl)
{
	char q[64], msg[160];
	struct strpool seen;
	int rc = 0;
	if (fl->n > ISC_TABLE_MAX_COLS) {
		snprintf(msg, sizeof(msg), "%zu columns, more than the %d supported", fl->n, ISC_TABLE_MAX_COLS);
		return header_error(path, msg, "");
	}
	strpool_init(&seen);
	for (size_t i = 0; i < fl->n && rc == 0; i++) {
		rc = check_name(path, fl, i);
		size_t had = seen.n;
		uint32_t first = strpool_intern(&seen, fl->ptr[i], fl->len[i]);
		if (rc == 0 && seen.n == had) {  /* ids are column indexes while names are unique */
			isc_quote_for_msg(fl->ptr[i], fl->len[i], q, sizeof(q));
			snprintf(msg, sizeof(msg), "duplicate column name '%s' (columns %u and %zu)",
				 q, first + 1, i + 1);
			rc = header_error(path, msg, "");
		}
	}
	strpool_free(&seen);
	if (rc == 0)
		hint_spaces(path, fl);
	return rc;
}

/* The file's first bytes: the header and the sample for the types and the packing, read
 * FIRST_READ bytes at first (fresh pages cost here: a 1 MiB read was 0.4 ms before the
 * threads could start) and up to HEADER_MAX when the header or the types need more. */
#define FIRST_READ (PACK_SAMPLE_BYTES + (64u << 10))
struct head {
	int fd;
	char *buf;               /* HEADER_MAX bytes */
	size_t have;             /* read */
	bool eof;                /* nothing after them */
};

/* More of the first HEADER_MAX bytes; -1 when the read fails (errno). */
static int head_read(struct head *h, size_t want)
{
	while (h->have < want && !h->eof) {
		ssize_t got = pread(h->fd, h->buf + h->have, want - h->have, (off_t)h->have);
		if (got < 0)
			return -1;
		h->eof = got == 0;
		h->have += (size_t)got;
	}
	return 0;
}

/* Read and check the header; returns the byte offset of the first data line, or -1. */
static off_t read_header(const char *path, struct head *h, struct fields *fl)
{
	h->buf = isc_xmalloc(HEADER_MAX);
	if (head_read(h, FIRST_READ) < 0) {
		isc_err("%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	if (!memchr(h->buf, '\n', h->have) && head_read(h, HEADER_MAX) < 0) {
		isc_err("%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	char *buf = h->buf;
	ssize_t got = (ssize_t)h->have;
	if (got == 0) {
		isc_err("%s: empty file (no header row)", path);
		return -1;
	}
	char *nl = memchr(buf, '\n', (size_t)got);
	if (!nl && got == HEADER_MAX)
		return header_error(path, "no end of line in the first 1 MiB (not a CSV file?)", "");
	size_t len = nl ? (size_t)(nl - buf) : (size_t)got;
	size_t skip = len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;  /* UTF-8 BOM */
	size_t hlen = len - skip;
	if (hlen && buf[skip + hlen - 1] == '\r')
		hlen--;
	if (memchr(buf, '\0', len))
		return header_error(path, "NUL byte (not a CSV file?)", "");
	if (hlen == 0)
		return header_error(path, "empty header row", "");
	if (csv_split_line(buf + skip, hlen, fl) < 0)
		return header_error(path, fl->err, "");
	if (check_names(path, fl) < 0)
		return -1;
	return nl ? (off_t)(nl - buf) + 1 : (off_t)got;
}

static void layout_init(struct layout *lay, const struct fields *fl, const struct isc_table_opts *o,
			struct isc_table *t)
{
	lay->nfields = fl->n;
	lay->out_of_field = isc_xmalloc(fl->n * sizeof(int));
	lay->out_names = isc_xcalloc(fl->n, sizeof(char *));
	lay->types = isc_xcalloc(fl->n, sizeof(enum isc_coltype));
	lay->pack_width = isc_xcalloc(fl->n, sizeof(unsigned));
	lay->pack_scale = isc_xcalloc(fl->n, sizeof(unsigned));
	lay->pack_digit = isc_xcalloc(fl->n, sizeof(bool));
	t->file_ncols = fl->n;
	t->file_colnames = isc_xcalloc(fl->n, sizeof(char *));
	for (size_t i = 0; i < fl->n; i++) {
		char *name = isc_xstrndup(fl->ptr[i], fl->len[i]);
		t->file_colnames[i] = name;
		lay->out_of_field[i] = -1;
		if (o && o->want && !o->want(name, o->want_arg))
			continue;
		lay->out_of_field[i] = (int)lay->nout;
		lay->out_names[lay->nout] = name;
		lay->types[lay->nout] = isc_is_known_text_column(name) ? ISC_COL_TEXT : ISC_COL_NUM;
		lay->nout++;
	}
}

/* A column not known to be text is text when its first non-empty value in the first
 * lines is not a number; a later non-number in a numeric column is then an error. Returns
 * how many columns the lines in buf left undecided. */
static size_t infer_types(struct layout *lay, const char *buf, size_t len)
{
	struct fields fl = { 0 };
	unsigned char *decided = isc_xcalloc(lay->nout, 1);
	const char *p = buf, *end = buf + len, *nl;
	size_t undecided = 0;
	double d;

	for (size_t k = 0; k < lay->nout; k++)
		undecided += lay->types[k] != ISC_COL_TEXT;
	while (undecided && (nl = memchr(p, '\n', (size_t)(end - p)))) {
		size_t l = (size_t)(nl - p);
		if (l && p[l - 1] == '\r')
			l--;
		if (csv_split_line(p, l, &fl) == 0 && fl.n == lay->nfields) {
			for (size_t f = 0; f < fl.n; f++) {
				int k = lay->out_of_field[f];
				if (k < 0 || decided[k] || fl.len[f] == 0 || lay->types[k] == ISC_COL_TEXT)
					continue;
				decided[k] = 1;
				undecided--;
				if (!isc_parse_double(fl.ptr[f], fl.len[f], &d))
					lay->types[k] = ISC_COL_TEXT;
			}
		}
		p = nl + 1;
	}
	fields_free(&fl);
	free(decided);
	return undecided;
}

/* Decimals of a number's text, or more than any scale when it has an exponent. */
static unsigned decimals_of(const char *s, size_t len)
{
	size_t dot = len;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == 'e' || s[i] == 'E')
			return ISC_COLPACK_MAX_SCALE + 1;
		dot = s[i] == '.' && dot == len ? i : dot;
	}
	return dot < len ? (unsigned)(len - dot - 1) : 0;
}

/* Which number columns to pack, from the values of the type sample: the most decimals and
 * the largest magnitude there (values beyond them later are kept as exceptions). */
static void choose_packing(struct layout *lay, const char *buf, size_t len)
{
	struct fields fl = { 0 };
	double *maxabs = isc_xcalloc(lay->nout + 1, sizeof(double));
	unsigned *maxdec = isc_xcalloc(lay->nout + 1, sizeof(unsigned));
	const char *p = buf, *end = buf + len, *nl;
	double d;

	for (size_t k = 0; k < lay->nout; k++)
		maxabs[k] = -1;  /* no value seen: not packed */
	while ((nl = memchr(p, '\n', (size_t)(end - p)))) {
		size_t l = (size_t)(nl - p);
		l -= l && p[l - 1] == '\r';
		if (csv_split_line(p, l, &fl) == 0 && fl.n == lay->nfields) {
			for (size_t f = 0; f < fl.n; f++) {
				int k = lay->out_of_field[f];
				if (k < 0 || lay->types[k] != ISC_COL_NUM || fl.len[f] == 0)
					continue;
				if (maxdec[k] > ISC_COLPACK_MAX_SCALE)
					continue;  /* not packed whatever follows (a latency's 16 decimals) */
				unsigned dec = decimals_of(fl.ptr[f], fl.len[f]);
				maxdec[k] = dec > maxdec[k] ? dec : maxdec[k];
				if (!isc_parse_double(fl.ptr[f], fl.len[f], &d))
					maxabs[k] = INFINITY;
				else if (fabs(d) > maxabs[k])
					maxabs[k] = fabs(d);
			}
		}
		p = nl + 1;
	}
	for (size_t k = 0; k < lay->nout; k++) {
		if (lay->types[k] == ISC_COL_NUM && !isc_colpack_choose(maxabs[k], maxdec[k], &lay->pack_width[k], &lay->pack_scale[k]))
			lay->pack_width[k] = 0;
		lay->pack_digit[k] = lay->pack_width[k] && maxdec[k] == 0 && maxabs[k] < 10;
	}
	fields_free(&fl);
	free(maxabs);
	free(maxdec);
}

/* Columns whose values are numbers in every wult and idlescope file: text there is an error. */
static int known_numeric(const char *name)
{
	static const char *const exact[] = { "LDist", "SilentTime", "WakeLatency", "IntrLatency",
		"IntrOff", "LTime", "TBI", "TAI", "TIntr", "SMICnt", "NMICnt", "CPU", "Time",
		"IRQTime", "SWIRQTime", "StealTime" };
	size_t n = strlen(name);
	for (size_t i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		if (strcmp(name, exact[i]) == 0)
			return 1;
	return n > 1 && (name[n - 1] == '%' || (n > 3 && (strcmp(name + n - 3, "Cnt") == 0 ||
							 strcmp(name + n - 3, "Cyc") == 0)));
}

/* ---- ranges, threads, joining ---- */

static off_t next_line_start(int fd, off_t pos, off_t size)
{
	char buf[65536];
	while (pos < size) {
		ssize_t got = pread(fd, buf, sizeof(buf), pos);
		if (got <= 0)
			return size;
		char *nl = memchr(buf, '\n', (size_t)got);
		if (nl)
			return pos + (nl - buf) + 1;
		pos += got;
	}
	return size;
}

static void chunk_init(struct chunk *c, const struct layout *lay, off_t start, off_t end,
		       int is_last, double bytes_per_line)
{
	memset(c, 0, sizeof(*c));
	c->lay = lay;
	c->start = start;
	c->end = end;
	c->is_last = is_last;
	c->est_rows = (size_t)((double)(end - start) / bytes_per_line * 1.05) + 64;
	c->num = isc_xcalloc(lay->nout, sizeof(double *));
	c->pk = isc_xcalloc(lay->nout + 1, sizeof(*c->pk));
	for (size_t k = 0; k < lay->nout; k++)
		if (lay->pack_width[k])
			isc_colpack_init(&c->pk[k], lay->pack_width[k], lay->pack_scale[k]);
	c->text = isc_xcalloc(lay->nout, sizeof(uint32_t *));
	c->last_id = isc_xmalloc((lay->nout + 1) * sizeof(uint32_t));
	c->last_len = isc_xcalloc(lay->nout + 1, sizeof(size_t));
	c->recent = isc_xcalloc((lay->nout + 1) * SHORT_SLOTS, sizeof(*c->recent));
	c->ops = isc_xmalloc((lay->nfields + 1) * sizeof(*c->ops));
	c->others = isc_xmalloc((lay->nfields + 1) * sizeof(unsigned));
	c->digit_fields = isc_xmalloc((lay->nfields + 1) * sizeof(unsigned));
	c->digit_codes = isc_xmalloc((lay->nfields + 1) * sizeof(int8_t *));
	chunk_set_ops(c);
	for (size_t k = 0; k < lay->nout; k++)
		c->last_id[k] = ISC_TEXT_EMPTY;
	strpool_init(&c->pool);
}

/* Number columns go straight into one array per column shared by the chunks, each chunk
 * at its own offset with room for its estimated rows (1.05 x plus 64): joining them is then
 * a memmove instead of a copy into new memory. */
static void chunk_use_shared(struct chunk *c, double **shared, size_t offset)
{
	for (size_t k = 0; k < c->lay->nout; k++)
		if (c->lay->pack_width[k])
			continue;  /* codes in the arena (pack_arena) */
		else if (c->lay->types[k] == ISC_COL_NUM)
			c->num[k] = shared[k] + offset;
		else
			c->text[k] = isc_xmalloc(c->est_rows * sizeof(uint32_t));
	c->in_shared = 1;
	c->cap = c->est_rows;
}

static void chunk_free(struct chunk *c)
{
	for (size_t k = 0; k < c->lay->nout; k++) {
		if (!c->in_shared || given_up(c, k))
			free(c->num[k]);
		free(c->text[k]);
		isc_colpack_free(&c->pk[k]);
	}
	free(c->num);
	free(c->pk);
	free(c->text);
	free(c->last_id);
	free(c->last_len);
	free(c->recent);
	free(c->ops);
	free(c->others);
	free(c->digit_fields);
	free(c->digit_codes);
	strpool_free(&c->pool);
	fields_free(&c->fl);
}

/* Chunk-local string ids -> the table's ids. */
static uint32_t *map_strings(struct isc_table *t, const struct chunk *c)
{
	uint32_t *map = isc_xmalloc((c->pool.n + 1) * sizeof(uint32_t));
	for (size_t i = 0; i < c->pool.n; i++)
		map[i] = isc_table_intern(t, c->pool.strs[i]);
	return map;
}

/* One number column of the table from the chunks' rows. */
static double *join_num(double *shared, struct chunk *ch, size_t nch, size_t k, size_t total)
{
	size_t n0 = ch[0].nrows, n1 = nch == 2 ? ch[1].nrows : 0;
	if (ch[0].in_shared && (nch == 1 || ch[1].in_shared)) {
		if (n1)
			memmove(shared + n0, ch[1].num[k], n1 * sizeof(double));
		return isc_xrealloc(shared, (total ? total : 1) * sizeof(double));  /* shrinks */
	}
	double *col = isc_xmalloc((total ? total : 1) * sizeof(double));
	memcpy(col, ch[0].num[k], n0 * sizeof(double));
	if (n1)
		memcpy(col + n0, ch[1].num[k], n1 * sizeof(double));
	for (size_t i = 0; i < nch; i++)
		if (!ch[i].in_shared)
			free(ch[i].num[k]);
	free(shared);
	return col;
}

/* One packed column of the table from the chunks' rows: chunk 0's codes, grown. */
static struct isc_colpack *join_packed(struct chunk *ch, size_t nch, size_t k)
{
	struct isc_colpack *pk = isc_xmalloc(sizeof(*pk));
	*pk = ch[0].pk[k];
	memset(&ch[0].pk[k], 0, sizeof(ch[0].pk[k]));
	if (nch == 2 && pk->borrowed && ch[1].pk[k].borrowed)
		pk->cap += ch[1].pk[k].cap;  /* chunk 1's part of the arena follows chunk 0's */
	isc_colpack_trim(pk, ch[0].nrows);
	if (nch == 2)
		isc_colpack_append(pk, ch[0].nrows, &ch[1].pk[k], ch[1].nrows);
	isc_colpack_trim(pk, ch[0].nrows + (nch == 2 ? ch[1].nrows : 0));
	return pk;
}

/* A column some chunk gave up packing: every chunk's rows as doubles. */
static double *join_given_up(struct chunk *ch, size_t nch, size_t k, size_t total)
{
	double *col = isc_xmalloc((total ? total : 1) * sizeof(double));
	for (size_t i = 0, at = 0; i < nch; at += ch[i].nrows, i++) {
		if (ch[i].pk[k].width)
			isc_colpack_decode(&ch[i].pk[k], 0, ch[i].nrows, col + at);
		else if (ch[i].nrows)
			memcpy(col + at, ch[i].num[k], ch[i].nrows * sizeof(double));
	}
	return col;
}

/* Move the chunks' columns into t: number columns from the shared arrays; text columns
 * grow chunk 0's arrays in place, the other chunk's ids mapped and appended. */
static void join_chunks(struct isc_table *t, const struct layout *lay, struct chunk *ch, size_t nch,
			double **shared)
{
	size_t total = 0;
	uint32_t *map[2] = { NULL, NULL };
	for (size_t i = 0; i < nch; i++) {
		total += ch[i].nrows;
		map[i] = map_strings(t, &ch[i]);
	}
	t->nrows = total;
	for (size_t k = 0; k < lay->nout; k++) {
		struct isc_column *col = isc_table_add_col(t, lay->out_names[k], lay->types[k]);
		if (lay->pack_width[k] && ch[0].pk[k].width && (nch == 1 || ch[1].pk[k].width)) {
			col->packed = join_packed(ch, nch, k);
			continue;
		}
		if (lay->pack_width[k]) {
			col->num = join_given_up(ch, nch, k, total);
			continue;
		}
		if (col->type == ISC_COL_NUM) {
			col->num = join_num(shared[k], ch, nch, k, total);
			shared[k] = NULL;
			for (size_t i = 0; i < nch; i++)
				ch[i].num[k] = NULL;
			continue;
		}
		col->text = isc_xrealloc(ch[0].text[k], (total ? total : 1) * sizeof(uint32_t));
		ch[0].text[k] = NULL;
		for (size_t i = 0, at = 0; i < nch; at += ch[i].nrows, i++) {
			for (size_t r = 0; col->text && r < ch[i].nrows; r++) {
				uint32_t id = i ? ch[i].text[k][r] : col->text[r];
				col->text[at + r] = id == ISC_TEXT_EMPTY ? id : map[i][id];
			}
			if (i) {
				free(ch[i].text[k]);
				ch[i].text[k] = NULL;
			}
		}
	}
	free(map[0]);
	free(map[1]);
}

/* Whether the run's metadata says the file is complete with exactly `rows` rows. */
static int known_complete(const struct isc_table_opts *o, size_t rows)
{
	return o && o->known_complete && o->known_rows == rows;
}

/* A last line without its newline: a cut row is an error in a file known to be complete with
 * it, else dropped with a warning; a whole row is kept only in a file known to be complete. */
static int check_last_line(const char *path, struct chunk *last, size_t line, size_t total,
			   const struct isc_table_opts *o, struct isc_table *t)
{
	if (last->cut && known_complete(o, total + 1)) {
		isc_err("%s:%zu: %s", path, line, last->err);
		return -1;
	}
	if (last->cut) {
		isc_warn("%s:%zu: %s", path, line, last->cut_msg);
		t->dropped_rows = 1;
	} else if (last->open_row && !known_complete(o, total)) {
		isc_warn("%s:%zu: last line has no end of line (cut off?) and the run is not known to be "
			"complete; dropped it", path, line);
		last->nrows--;
		t->dropped_rows = 1;
	}
	return 0;
}

static int report_chunks(const char *path, struct chunk *ch, size_t nch, struct isc_table *t,
			 const struct isc_table_opts *o)
{
	size_t line = 2;  /* the header is line 1 */
	size_t blank = 0, first_blank = 0, total = 0;
	for (size_t i = 0; i < nch; i++) {
		if (ch[i].failed) {
			isc_err("%s:%zu: %s", path, line + ch[i].err_line - 1, ch[i].err);
			return -1;
		}
		if (ch[i].blank && !blank)
			first_blank = line + ch[i].first_blank - 1;
		blank += ch[i].blank;
		total += ch[i].nrows;
		line += ch[i].lines;
	}
	if (check_last_line(path, &ch[nch - 1], line - 1, total, o, t) < 0)
		return -1;
	if (blank)  /* not rows: a blank line is no datapoint, not even one of empty cells */
		isc_warn("%s:%zu: %zu blank line%s skipped", path, first_blank, blank, blank > 1 ? "s" : "");
	return 0;
}

static int open_regular(const char *path, off_t *size)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		isc_err("%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		isc_err("%s: %s", path, S_ISDIR(st.st_mode) ? "is a directory, expected a CSV file"
						       : "not a regular file");
		close(fd);
		return -1;
	}
	*size = st.st_size;
	return fd;
}

static int nthreads_for(const struct isc_table_opts *o, off_t bytes)
{
	long n = o && o->nthreads > 0 ? o->nthreads : sysconf(_SC_NPROCESSORS_ONLN);
	return bytes >= (off_t)SPLIT_MIN_BYTES && n >= 2 ? 2 : 1;
}

/* The first data line when it does not fit in the header buffer (a field of megabytes). */
static char *read_first_line(int fd, off_t data, off_t size, size_t *len)
{
	size_t cap = 4u << 20, have = 0;
	char *buf = isc_xmalloc(cap + 1);
	while ((off_t)have < size - data) {
		if (have == cap)
			buf = isc_xrealloc(buf, (cap *= 2) + 1);
		ssize_t got = pread(fd, buf + have, cap - have, data + (off_t)have);
		if (got <= 0)
			break;
		char *nl = memchr(buf + have, '\n', (size_t)got);
		have += (size_t)got;
		if (nl) {
			have = (size_t)(nl - buf) + 1;
			break;
		}
	}
	buf[have] = '\n';  /* an unterminated last line counts as a line for the types */
	*len = have + (have == 0 || buf[have - 1] != '\n');
	return buf;
}

/* The packed columns' codes in one block, which is large enough for huge pages where a block
 * per column would not be (a million one-byte codes): per column, chunk 0's rows, then
 * chunk 1's, so that joining them is a memmove. */
static char *pack_arena(const struct layout *lay, struct chunk *ch, int nch)
{
	size_t rows = ch[0].est_rows + (nch == 2 ? ch[1].est_rows : 0), total = 0, at = 0;
	for (size_t k = 0; k < lay->nout; k++)
		total += (lay->pack_width[k] * rows + 63) & ~(size_t)63;
	if (!total)
		return NULL;
	char *arena = isc_xmalloc(total);
	for (size_t k = 0; k < lay->nout; k++) {
		if (!lay->pack_width[k])
			continue;
		for (int i = 0; i < nch; i++)
			isc_colpack_use(&ch[i].pk[k], arena + at + (i ? ch[0].est_rows * lay->pack_width[k] : 0),
					ch[i].est_rows);
		at += (lay->pack_width[k] * rows + 63) & ~(size_t)63;
	}
	return arena;
}

/* The types from the lines of the first TYPE_SAMPLE_BYTES: from the first FIRST_READ bytes
 * when they decide every column, else from all (the same types either way: each column's
 * first non-empty value decides it). The sample's length in *sample. */
static int sample_types(struct layout *lay, struct head *h, off_t data, size_t *sample)
{
	size_t n = h->have > (size_t)data ? h->have - (size_t)data : 0;
	const char *nl = n ? memchr(h->buf + data, '\n', n) : NULL;
	*sample = n;
	if (nl && infer_types(lay, h->buf + data, n) == 0 && (n >= PACK_SAMPLE_BYTES || h->eof))
		return 0;  /* the packing's sample is in too */
	if (head_read(h, TYPE_SAMPLE_BYTES) < 0) {
		isc_err("%s: cannot read: %s", lay->path, strerror(errno));
		return -1;
	}
	*sample = h->have > (size_t)data ? h->have - (size_t)data : 0;
	if (*sample > n)
		infer_types(lay, h->buf + data, *sample);
	return 0;
}

static int read_body(struct isc_table *t, struct layout *lay, off_t data, off_t size, struct head *h,
		     const struct isc_table_opts *o, struct isc_early_thread *helper)
{
	size_t sample;
	if (sample_types(lay, h, data, &sample) < 0)
		return -1;
	const char *hdrbuf = h->buf;
	const char *last_nl = sample ? memrchr(hdrbuf + data, '\n', sample) : NULL;
	size_t sample_lines = 0;
	for (const char *p = hdrbuf + data; last_nl && p <= last_nl; p++, sample_lines++)
		p = memchr(p, '\n', (size_t)(last_nl + 1 - p));  /* a byte loop took 0.3 ms a MiB */
	double bpl = sample_lines ? (double)(last_nl + 1 - (hdrbuf + data)) / (double)sample_lines : 64;
	if (!sample_lines && size > data) {
		size_t len;
		char *first = read_first_line(lay->fd, data, size, &len);
		infer_types(lay, first, len);
		bpl = (double)len;
		free(first);
	}
	for (size_t k = 0; k < lay->nout; k++)
		if (lay->types[k] == ISC_COL_TEXT && known_numeric(lay->out_names[k]))
			lay->types[k] = ISC_COL_NUM;
	if (o && o->pack && sample_lines)
		choose_packing(lay, hdrbuf + data, sample < PACK_SAMPLE_BYTES ? sample : PACK_SAMPLE_BYTES);

	struct chunk ch[2];
	int nch = nthreads_for(o, size - data);
	off_t mid = nch == 2 ? next_line_start(lay->fd, data + (size - data) / 2 - 1, size) : size;
	if (mid >= size)
		nch = 1;
	if (nch == 1)
		isc_early_thread_join(helper);  /* no second chunk after all: end its busy loop now */
	chunk_init(&ch[0], lay, data, nch == 2 ? mid : size, nch == 1, bpl);
	if (nch == 2)
		chunk_init(&ch[1], lay, mid, size, 1, bpl);
	size_t rows = ch[0].est_rows + (nch == 2 ? ch[1].est_rows : 0);
	double **shared = isc_xcalloc(lay->nout, sizeof(double *));
	for (size_t k = 0; k < lay->nout; k++)
		if (lay->types[k] == ISC_COL_NUM && !lay->pack_width[k])
			shared[k] = isc_xmalloc(rows * sizeof(double));
	for (int i = 0; i < nch; i++)
		chunk_use_shared(&ch[i], shared, i ? ch[0].est_rows : 0);
	char *arena = pack_arena(lay, ch, nch);
	for (int i = 0; i < nch; i++)
		lanes_codes_refresh(&ch[i]);  /* the codes are in the arena now */
	pthread_t tid;
	bool early = nch == 2 && isc_early_thread_run(helper, chunk_run, &ch[1]);
	int threaded = early || (nch == 2 && pthread_create(&tid, NULL, chunk_run, &ch[1]) == 0);
	chunk_run(&ch[0]);
	if (early)
		isc_early_thread_join(helper);
	else if (threaded)
		pthread_join(tid, NULL);
	else if (nch == 2)
		chunk_run(&ch[1]);
	int rc = report_chunks(lay->path, ch, (size_t)nch, t, o);
	if (rc == 0)
		join_chunks(t, lay, ch, (size_t)nch, shared);
	if (rc == 0)
		t->pack_arena = arena;
	else
		free(arena);
	for (int i = 0; i < nch; i++)
		chunk_free(&ch[i]);
	for (size_t k = 0; k < lay->nout; k++)
		free(shared[k]);
	free(shared);
	return rc;
}

int isc_table_read(const char *path, const struct isc_table_opts *o, struct isc_table **out)
{
	struct layout lay = { .path = path };
	struct fields hdr = { 0 };
	struct isc_table *t = NULL;
	off_t size, data;
	int rc = -1;

	*out = NULL;
	lay.fd = open_regular(path, &size);
	if (lay.fd < 0)
		return -1;
	posix_fadvise(lay.fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	struct isc_early_thread helper = { 0 };
	struct head head = { .fd = lay.fd };
	if (nthreads_for(o, size) == 2 && !(o && o->concurrent))  /* its CPU awake when the chunks are known */
		isc_early_thread_start(&helper);
	data = read_header(path, &head, &hdr);
	if (data < 0)
		goto cleanup;
	t = isc_table_new(path);
	layout_init(&lay, &hdr, o, t);
	rc = read_body(t, &lay, data, size, &head, o, &helper);
cleanup:
	isc_early_thread_join(&helper);  /* an idle one told to end */
	if (rc == 0)
		*out = t;
	else
		isc_table_free(t);
	free(lay.out_of_field);
	free(lay.out_names);
	free(lay.types);
	free(lay.pack_width);
	free(lay.pack_scale);
	free(lay.pack_digit);
	fields_free(&hdr);
	free(head.buf);
	close(lay.fd);
	return rc;
}
