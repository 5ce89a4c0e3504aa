/* strace -c's tables (see summary.h). */
#include <stdlib.h>
#include <string.h>

#include "strace/summary.h"
#include "util/util.h"

#define MAX_TOKENS (STRACE_SUMMARY_MAX_COLS + 2)

struct token {
	size_t start, end;	/* [start, end) in the line */
};

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* LINE's words, at most MAX; -1 when it has more. */
static int tokens(const char *line, size_t len, struct token *t, int max)
{
	int n = 0;

	for (size_t i = 0; i < len;) {
		while (i < len && blank(line[i]))
			i++;
		if (i == len)
			break;
		if (n == max)
			return -1;
		t[n].start = i;
		while (i < len && !blank(line[i]))
			i++;
		t[n++].end = i;
	}
	return n;
}

static bool word_is(const char *line, const struct token *t, const char *w)
{
	size_t n = strlen(w);

	return t->end - t->start == n && memcmp(line + t->start, w, n) == 0;
}

/* A header: the columns' labels, "% time" as one. */
static bool header(struct strace_summary *s, const char *line, size_t len)
{
	struct token t[MAX_TOKENS];
	int n = tokens(line, len, t, MAX_TOKENS);
	bool calls = false, name = false;
	int ncols = 0;

	if (n < 2)
		return false;
	for (int i = 0; i < n; i++) {
		for (size_t k = t[i].start; k < t[i].end; k++) {
			char c = line[k];
			if (!((c >= 'a' && c <= 'z') || c == '/' || c == '-' || c == '%'))
				return false;
		}
		enum strace_summary_col c = SUM_COL_OTHER;
		if (word_is(line, &t[i], "%")) {
			if (i + 1 == n || !word_is(line, &t[i + 1], "time"))
				return false;
			i++;
			c = SUM_COL_PERCENT;
		} else if (word_is(line, &t[i], "seconds")) {
			c = SUM_COL_SECONDS;
		} else if (word_is(line, &t[i], "calls")) {
			c = SUM_COL_CALLS;
			calls = true;
		} else if (word_is(line, &t[i], "errors")) {
			c = SUM_COL_ERRORS;
		} else if (word_is(line, &t[i], "syscall")) {
			c = SUM_COL_NAME;
			name = true;
		}
		if (ncols == STRACE_SUMMARY_MAX_COLS)
			return false;
		s->col[ncols++] = c;
	}
	if (!calls || !name)
		return false;
	s->ncols = ncols;
	s->has_seconds = false;
	for (int i = 0; i < ncols; i++) {
		s->has_seconds |= s->col[i] == SUM_COL_SECONDS;
		s->start[i] = s->end[i] = 0;	/* none until the dashes say */
	}
	return true;
}

/* A line of dashes, a group per column: each column's width. */
static bool dashes(struct strace_summary *s, const char *line, size_t len, bool keep)
{
	struct token t[MAX_TOKENS];
	int n = tokens(line, len, t, MAX_TOKENS);

	if (n != s->ncols)
		return false;
	for (int i = 0; i < n; i++)
		for (size_t k = t[i].start; k < t[i].end; k++)
			if (line[k] != '-')
				return false;
	for (int i = 0; keep && i < n; i++) {
		s->start[i] = t[i].start;
		s->end[i] = t[i].end;
	}
	return true;
}

static bool number(const char *p, size_t n, bool fraction, double *out)
{
	char buf[32];
	bool dot = false;

	if (!n || n >= sizeof(buf))
		return false;
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '.' && fraction && !dot) {
			dot = true;
			continue;
		}
		if (p[i] < '0' || p[i] > '9')
			return false;
	}
	memcpy(buf, p, n);
	buf[n] = '\0';
	*out = strtod(buf, NULL);
	return true;
}

static bool call_name(const char *p, size_t n)
{
	if (!n || n >= RC_CALL_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = p[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '?' ||
		      (i && c >= '0' && c <= '9')))
			return false;
	}
	return true;
}

/* The column of token T: by the dashes' widths (a number ends within its
 * column, a name starts in it), or in order when the table gave none. */
static int column_of(const struct strace_summary *s, const struct token *t, bool is_name, int after)
{
	for (int c = after + 1; c < s->ncols; c++) {
		size_t at = is_name ? t->start : t->end - 1;
		if (at >= s->start[c] && at < s->end[c])
			return c;
	}
	return -1;
}

static void add_row(struct rc_call_summary *s, const struct rc_call_count *r)
{
	struct rc_call_count *to = NULL;

	for (size_t i = 0; i < s->nrows && !to; i++)
		if (strcmp(s->rows[i].name, r->name) == 0)
			to = &s->rows[i];
	if (!to) {
		if (s->nrows == STRACE_SUMMARY_MAX_ROWS) {
			s->dropped += r->calls;
			return;
		}
		if (s->nrows == s->alloc) {
			s->alloc = s->alloc ? 2 * s->alloc : 64;
			s->rows = xrealloc(s->rows, s->alloc * sizeof(*s->rows));
		}
		to = &s->rows[s->nrows++];
		*to = *r;
		to->calls = to->errors = 0;
		to->seconds = r->seconds < 0 ? -1 : 0;
	}
	to->calls += r->calls;
	to->errors += r->errors;
	if (r->seconds >= 0)
		to->seconds = (to->seconds < 0 ? 0 : to->seconds) + r->seconds;
}

/* A row, or the total that ends the table (false: not one). */
static bool row(struct strace_summary *s, const char *line, size_t len)
{
	struct token t[MAX_TOKENS];
	int n = tokens(line, len, t, MAX_TOKENS);
	bool spans = s->end[s->ncols - 1] > 0;
	int errors_col = -1;

	for (int c = 0; c < s->ncols; c++)
		if (s->col[c] == SUM_COL_ERRORS)
			errors_col = c;
	if (n < 2 || n > s->ncols || (n < s->ncols && (n < s->ncols - 1 || errors_col < 0)))
		return false;

	struct rc_call_count r = { .seconds = s->has_seconds ? 0 : -1 };
	bool have_calls = false, have_name = false, total = false;
	int c = -1;
	for (int i = 0; i < n; i++) {
		const char *p = line + t[i].start;
		size_t len_i = t[i].end - t[i].start;
		bool is_name = len_i && !(p[0] >= '0' && p[0] <= '9');
		if (n == s->ncols)
			c = i;
		else if (spans)
			c = column_of(s, &t[i], is_name, c);
		else
			c = c + 1 == errors_col ? c + 2 : c + 1;	/* an empty errors column */
		if (c < 0 || c >= s->ncols)
			return false;
		double v = 0;
		switch (s->col[c]) {
		case SUM_COL_NAME:
			if (!call_name(p, len_i))
				return false;
			memcpy(r.name, p, len_i);
			r.name[len_i] = '\0';
			total = strcmp(r.name, "total") == 0;
			have_name = true;
			break;
		case SUM_COL_CALLS:
		case SUM_COL_ERRORS:
			/* A count past 2^64 is no count (and no integer). */
			if (!number(p, len_i, false, &v) || v >= 18446744073709551616.0)
				return false;
			*(s->col[c] == SUM_COL_CALLS ? &r.calls : &r.errors) = (uint64_t)v;
			have_calls |= s->col[c] == SUM_COL_CALLS;
			break;
		case SUM_COL_SECONDS:
			if (!number(p, len_i, true, &v))
				return false;
			r.seconds = v;
			break;
		case SUM_COL_PERCENT:
		case SUM_COL_OTHER:
			if (!number(p, len_i, true, &v))
				return false;
			break;
		}
	}
	if (!have_calls || !have_name || r.errors > r.calls)
		return false;
	if (total) {
		s->state = SUM_NONE;
		return true;
	}
	struct rc_call_summary *sum = &s->sum;
	add_row(sum, &r);
	sum->total.calls += r.calls;
	sum->total.errors += r.errors;
	if (r.seconds >= 0)
		sum->total.seconds = (sum->total.seconds < 0 ? 0 : sum->total.seconds) + r.seconds;
	return true;
}

void strace_summary_init(struct strace_summary *s)
{
	memset(s, 0, sizeof(*s));
	memcpy(s->sum.total.name, "total", sizeof("total"));
	s->sum.total.seconds = -1;
}

bool strace_summary_line(struct strace_summary *s, const char *line, size_t len)
{
	bool taken = false;

	switch (s->state) {
	case SUM_NONE:
		break;
	case SUM_HEADER:
		if (dashes(s, line, len, true)) {
			s->state = SUM_ROWS;
			taken = true;
		} else if (row(s, line, len)) {
			/* Pasted without its dashes: read in order. */
			if (s->state != SUM_NONE)
				s->state = SUM_ROWS;
			taken = true;
		}
		break;
	case SUM_ROWS:
		/* The dashes above the total, then the total. */
		taken = dashes(s, line, len, false) || row(s, line, len);
		break;
	}
	if (!taken) {
		s->state = SUM_NONE;
		if (header(s, line, len)) {
			s->state = SUM_HEADER;
			s->sum.tables++;
			taken = true;
		}
	}
	s->lines += taken;
	return taken;
}

void strace_summary_release(struct strace_summary *s)
{
	free(s->sum.rows);
	strace_summary_init(s);
}
