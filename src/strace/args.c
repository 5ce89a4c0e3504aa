#include "strace/args.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "gen/tables.h"
#include "util/util.h"

bool span_eq(struct span s, const char *lit)
{
	size_t n = strlen(lit);

	return s.n == n && memcmp(s.p, lit, n) == 0;
}

bool span_starts(struct span s, const char *lit)
{
	size_t n = strlen(lit);

	return s.n >= n && memcmp(s.p, lit, n) == 0;
}

struct span span_uncomment(struct span s)
{
	const char *p = s.p, *end = span_end(s);

	while (p < end && (p = memchr(p, '/', (size_t)(end - p))) && p + 1 < end) {
		if (p[1] == '*')
			return span_trim(span_make(s.p, (size_t)(p - s.p)));
		p++;
	}
	return s;
}

bool xlat_span(const struct rc_xlat *x, struct span s, long long *v)
{
	s = span_uncomment(span_trim(s));
	if (!s.n || memchr(s.p, '\0', s.n))
		return false;
	return xlat_value(x, s.p, s.n, v);
}

/* The values of flag texts seen lately: a log repeats a few combinations
 * ("FUTEX_WAIT_BITSET_PRIVATE|FUTEX_CLOCK_REALTIME", "O_RDONLY|O_CLOEXEC")
 * on most of its lines, and the value is a function of the table and the
 * text alone. Direct-mapped; a text longer than FLAGS_MEMO_TEXT is not kept,
 * nor one with a comment or a NUL byte, so that a text equal to a kept one
 * needs neither check. */
#define FLAGS_MEMO 256
#define FLAGS_MEMO_TEXT 56

/* One memo per thread: a log's argument facts are read in two (event/pump.h). */
static _Thread_local struct {
	const struct rc_xlat *x;
	unsigned char n;
	char text[FLAGS_MEMO_TEXT];
	long long value;
} flags_memo[FLAGS_MEMO];

/* The memo's slot: every byte counts (FUTEX_WAIT_PRIVATE and
 * FUTEX_WAKE_PRIVATE share their ends), eight at a time, the last eight
 * overlapping; a multiply a step, as the memcmp decides. */
static size_t flags_slot(const struct rc_xlat *x, const char *p, size_t n)
{
	uint64_t h = (uint64_t)n ^ (uint64_t)(uintptr_t)x, w = 0;
	size_t i = 0;

	if (n < 8) {
		memcpy(&w, p, n);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
	} else {
		for (; i + 8 <= n; i += 8) {
			memcpy(&w, p + i, 8);
			h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		}
		if (i < n) {
			memcpy(&w, p + n - 8, 8);
			h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		}
	}
	return (size_t)((h ^ (h >> 32) ^ (h >> 45)) & (FLAGS_MEMO - 1));
}

long long xlat_span_flags(const struct rc_xlat *x, struct span s)
{
	struct span t = span_trim(s);
	size_t h = 0;

	if (t.n && t.n <= FLAGS_MEMO_TEXT) {
		h = flags_slot(x, t.p, t.n);
		if (flags_memo[h].x == x && flags_memo[h].n == t.n && memcmp(flags_memo[h].text, t.p, t.n) == 0)
			return flags_memo[h].value;
	}
	s = span_uncomment(t);
	if (!s.n || memchr(s.p, '\0', s.n))
		return 0;
	long long v = xlat_flags(x, s.p, s.n, NULL);
	if (s.n == t.n && s.n <= FLAGS_MEMO_TEXT) {
		flags_memo[h].x = x;
		flags_memo[h].n = (unsigned char)s.n;
		memcpy(flags_memo[h].text, s.p, s.n);
		flags_memo[h].value = v;
	}
	return v;
}

bool errno_span(struct span s, int *v)
{
	s = span_uncomment(span_trim(s));
	if (!s.n || memchr(s.p, '\0', s.n))
		return false;
	return xlat_errno_value(s.p, s.n, v);
}

const char *skip_string(const char *p, const char *end)
{
	const char *q = p + 1;

	while (q < end) {
		const char *quote = memchr(q, '"', (size_t)(end - q));
		if (!quote)
			return end;
		const char *b = quote;
		while (b > p + 1 && b[-1] == '\\')
			b--;
		q = quote + 1;
		if (((quote - b) & 1) == 0) {
			if (end - q >= 3 && q[0] == '.' && q[1] == '.' && q[2] == '.')
				q += 3;
			return q;
		}
	}
	return end;
}

static inline bool is_word(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* Inside a -y decoration strace escapes '<' and '>' of paths, so only
 * nested decorations open and close there, except for the "->" between
 * the ends of a socket ("TCP:[a:1->b:2]"): a '>' after '-' inside square
 * brackets does not close. */
static bool is_arrow(const char *start, const char *p)
{
	int depth = 0;

	if (p <= start || p[-1] != '-')
		return false;
	for (const char *q = start; q < p; q++) {
		if (*q == '[')
			depth++;
		else if (*q == ']')
			depth--;
	}
	return depth > 0;
}

/* Characters item_end must look at; everything else is skipped in a
 * tight loop (most argument text is names, digits and spaces). */
static const unsigned char item_special[256] = {
	['"'] = 1, ['('] = 1, ['['] = 1, ['{'] = 1, [')'] = 1, [']'] = 1, ['}'] = 1,
	['<'] = 1, ['>'] = 1, ['/'] = 1, [','] = 1,
};

#ifdef __SSE2__
/* The first byte of P[0..15] that item_special marks, 16 if none: seven
 * compares cover the eleven bytes, as '(' ')', '<' '>', '[' '{' and
 * ']' '}' differ only in one bit (0x01, 0x02, 0x20). */
static inline unsigned special16(const char *p)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i m = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(',')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('/')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(_mm_and_si128(v, _mm_set1_epi8((char)~0x01)), _mm_set1_epi8('(')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(_mm_and_si128(v, _mm_set1_epi8((char)~0x02)), _mm_set1_epi8('<')));
	__m128i u = _mm_and_si128(v, _mm_set1_epi8((char)~0x20));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(u, _mm_set1_epi8('[')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(u, _mm_set1_epi8(']')));
	unsigned bits = (unsigned)_mm_movemask_epi8(m);
	return bits ? (unsigned)__builtin_ctz(bits) : 16;
}
#endif

/* P at the first byte item_special marks, or END. The runs between them
 * are most of an argument's bytes: sixteen at a time where the span has
 * them. */
static inline const char *skip_plain(const char *p, const char *end)
{
#ifdef __SSE2__
	while (end - p >= 16) {
		unsigned k = special16(p);
		if (k < 16)
			return p + k;
		p += 16;
	}
#endif
	while (p < end && !item_special[(unsigned char)*p])
		p++;
	return p;
}

const char *item_end(const char *p, const char *end)
{
	const char *start = p;
	int depth = 0, angle = 0;

	while (p < end) {
		p = skip_plain(p, end);
		if (p >= end)
			break;
		char c = *p;
		if (angle) {
			if (c == '<')
				angle++;
			else if (c == '>' && !is_arrow(start, p))
				angle--;
			p++;
			continue;
		}
		switch (c) {
		case '"':
			p = skip_string(p, end);
			continue;
		case '(':
		case '[':
		case '{':
			depth++;
			break;
		case ')':
		case ']':
		case '}':
			if (depth == 0)
				return p;
			depth--;
			break;
		case '<':
			if (p > start && is_word(p[-1]))
				angle++;
			break;
		case '/':
			if (p + 1 < end && p[1] == '*') {
				const char *q = p + 2;
				while (q + 1 < end && !(q[0] == '*' && q[1] == '/'))
					q++;
				p = q + 1 < end ? q + 2 : end;
				continue;
			}
			break;
		case ',':
			if (depth == 0)
				return p;
			break;
		default:
			break;
		}
		p++;
	}
	return end;
}

size_t split_items(struct span s, struct span *out, size_t max)
{
	const char *p = s.p, *end = span_end(s);
	size_t n = 0;

	while (p < end && n < max) {
		const char *q = item_end(p, end);
		out[n++] = span_trim(span_make(p, (size_t)(q - p)));
		if (q >= end || *q != ',')
			break;
		p = q + 1;
	}
	return n;
}

struct span inner(struct span s)
{
	s = span_trim(s);
	if (!s.n || (s.p[0] != '{' && s.p[0] != '['))
		return span_make(s.p, 0);
	const char *end = span_end(s);
	const char *q = item_end(s.p + 1, end);
	/* Commas end items; find the closing bracket of this level. */
	while (q < end && *q == ',')
		q = item_end(q + 1, end);
	return span_make(s.p + 1, (size_t)(q - (s.p + 1)));
}

bool find_field(struct span content, const char *key, struct span *val)
{
	size_t klen = strlen(key);
	const char *p = content.p, *end = span_end(content);

	while (p < end) {
		const char *q = item_end(p, end);
		struct span it = span_trim(span_make(p, (size_t)(q - p)));
		if (it.n > klen && it.p[klen] == '=' && memcmp(it.p, key, klen) == 0) {
			*val = span_trim(span_make(it.p + klen + 1, it.n - klen - 1));
			return true;
		}
		if (q >= end || *q != ',')
			break;
		p = q + 1;
	}
	return false;
}

/* The position of a top-level "=>" in S, or NULL. */
static const char *find_arrow(struct span s)
{
	const char *p = s.p, *end = span_end(s);
	int depth = 0;

	while (p < end) {
		char c = *p;
		if (c == '"') {
			p = skip_string(p, end);
			continue;
		}
		if (c == '(' || c == '[' || c == '{')
			depth++;
		else if ((c == ')' || c == ']' || c == '}') && depth > 0)
			depth--;
		else if (c == '=' && depth == 0 && p + 1 < end && p[1] == '>')
			return p;
		p++;
	}
	return NULL;
}

struct span span_out(struct span s)
{
	/* "[19 => 2]": the arrow sits inside the brackets. */
	struct span t = span_trim(s);
	if (t.n && t.p[0] == '[') {
		struct span in = inner(t);
		const char *a = find_arrow(in);
		if (a)
			return span_trim(span_make(a + 2, (size_t)(span_end(in) - (a + 2))));
		return in;
	}
	const char *a = find_arrow(t);
	if (a)
		return span_trim(span_make(a + 2, (size_t)(span_end(t) - (a + 2))));
	return t;
}

struct span span_in(struct span s)
{
	struct span t = span_trim(s);
	const char *a = find_arrow(t);

	if (a)
		return span_trim(span_make(t.p, (size_t)(a - t.p)));
	return t;
}

/* A hex digit's value + 1; 0 for any other byte (addresses are most of
 * the numbers in a log, and a table is one load a digit). */
static const unsigned char hex_digit[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8,
	['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
	['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

bool parse_ull(struct span s, unsigned long long *out)
{
	const char *p = s.p, *end = span_end(s);
	unsigned long long v = 0;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (end - p >= 4 && memcmp(p, "NULL", 4) == 0) {
		*out = 0;
		return true;
	}
	if (p >= end || *p < '0' || *p > '9')
		return false;
	if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		const char *d = p + 2;
		for (p = d; p < end; p++) {
			unsigned digit = hex_digit[(unsigned char)*p];
			if (!digit)
				break;
			v = (v << 4) | (digit - 1);
		}
		if (p == d)
			return false;
	} else if (p[0] == '0' && end - p > 1 && p[1] >= '0' && p[1] <= '7') {
		for (p++; p < end && *p >= '0' && *p <= '7'; p++)
			v = (v << 3) | (unsigned)(*p - '0');
	} else {
		for (; p < end && *p >= '0' && *p <= '9'; p++)
			v = v * 10 + (unsigned)(*p - '0');
	}
	*out = v;
	return true;
}

bool parse_ll(struct span s, long long *out)
{
	struct span t = span_trim(s);
	unsigned long long v;

	if (t.n && t.p[0] == '-') {
		if (!parse_ull(span_make(t.p + 1, t.n - 1), &v))
			return false;
		/* 0 - v in unsigned arithmetic: "-9223372036854775808" is
		 * LLONG_MIN, whose negation does not fit. */
		*out = (long long)(0ULL - v);
		return true;
	}
	if (!parse_ull(t, &v))
		return false;
	*out = (long long)v;
	return true;
}

/* Unsigned decimal digits at *P (before END) into *V; false when none or
 * more than 18 (the general path then decides). */
static bool plain_digits(const char **p, const char *end, long long *v)
{
	const char *q = *p;
	long long x = 0;

	while (q < end && *q >= '0' && *q <= '9' && q - *p < 18)
		x = x * 10 + (*q++ - '0');
	if (q == *p || (q < end && *q >= '0' && *q <= '9'))
		return false;
	*v = x;
	*p = q;
	return true;
}

/* "{tv_sec=S, tv_nsec=N}" (or tv_usec) exactly, as strace prints nearly
 * every timeout: its value without splitting it into fields. The result is
 * the general path's (the same two numbers, the same sum). */
static bool plain_timespec(struct span s, double *sec)
{
	const char *p = s.p, *end = span_end(s);
	long long secs, frac;
	double scale;

	if (s.n < 24 || memcmp(p, "{tv_sec=", 8) != 0)
		return false;
	p += 8;
	if (!plain_digits(&p, end, &secs) || end - p < 11 || memcmp(p, ", tv_", 5) != 0)
		return false;
	p += 5;
	if (memcmp(p, "nsec=", 5) == 0)
		scale = 1e-9;
	else if (memcmp(p, "usec=", 5) == 0)
		scale = 1e-6;
	else
		return false;
	p += 5;
	if (!plain_digits(&p, end, &frac) || p + 1 != end || *p != '}')
		return false;
	*sec = (double)secs + (double)frac * scale;
	return true;
}

bool parse_timespec(struct span s, double *sec)
{
	if (plain_timespec(span_trim(s), sec))
		return true;

	struct span in = inner(span_in(s)), v;
	long long secs = 0, frac = 0;
	double scale;

	if (!in.n || !find_field(in, "tv_sec", &v) || !parse_ll(v, &secs))
		return false;
	if (find_field(in, "tv_nsec", &v))
		scale = 1e-9;
	else if (find_field(in, "tv_usec", &v))
		scale = 1e-6;
	else
		return false;
	if (!parse_ll(v, &frac))
		frac = 0;
	*sec = (double)secs + (double)frac * scale;
	return true;
}

bool parse_timeout_ms(struct span s, long long *ms)
{
	double sec;

	if (!parse_timespec(s, &sec) || sec < 0)
		return false;
	*ms = event_secs_to_ms(sec);
	return true;
}

/* Decode one escape at P (just after the backslash); the byte in *OUT,
 * returns the position after the escape. */
static const char *unescape(const char *p, const char *end, unsigned char *out)
{
	if (p >= end) {
		*out = '\\';
		return p;
	}
	char c = *p++;
	switch (c) {
	case 'n': *out = '\n'; break;
	case 't': *out = '\t'; break;
	case 'r': *out = '\r'; break;
	case 'v': *out = '\v'; break;
	case 'f': *out = '\f'; break;
	case 'a': *out = '\a'; break;
	case 'b': *out = '\b'; break;
	case 'e': *out = 033; break;
	case 'x': {
		int v = 0, n = 0, h;
		while (n < 2 && p < end && (h = hexval(*p)) >= 0) {
			v = v * 16 + h;
			p++;
			n++;
		}
		*out = n ? (unsigned char)v : 'x';
		break;
	}
	default:
		if (c >= '0' && c <= '7') {
			int v = c - '0', n = 1;
			while (n < 3 && p < end && *p >= '0' && *p <= '7') {
				v = v * 8 + (*p - '0');
				p++;
				n++;
			}
			*out = (unsigned char)v;
		} else {
			*out = (unsigned char)c;
		}
		break;
	}
	return p;
}

bool append_string(struct span s, unsigned char *buf, size_t cap, size_t *len, bool *trunc)
{
	struct span t = span_trim(s);
	const char *p, *end;

	if (!t.n || t.p[0] != '"')
		return false;
	end = skip_string(t.p, span_end(t));
	/* The closing quote, before any "..." mark. */
	const char *close = end;
	if (close - t.p >= 4 && close[-1] == '.' && close[-2] == '.' && close[-3] == '.' && close[-4] == '"') {
		close -= 4;
		*trunc = true;
	} else if (close > t.p + 1 && close[-1] == '"') {
		close -= 1;
	} else {
		*trunc = true;	/* unterminated: the line was cut */
	}
	p = t.p + 1;
	size_t n = *len;
	while (p < close) {
		/* Copy runs without escapes at once. */
		const char *bs = memchr(p, '\\', (size_t)(close - p));
		const char *stop = bs ? bs : close;
		size_t run = (size_t)(stop - p);
		if (n < cap) {
			size_t k = MIN(run, cap - n);
			memcpy(buf + n, p, k);
			n += k;
			if (k < run)
				*trunc = true;
		} else if (run) {
			*trunc = true;
		}
		p = stop;
		if (p < close) {
			unsigned char b;
			p = unescape(p + 1, close, &b);
			if (n < cap)
				buf[n++] = b;
			else
				*trunc = true;
		}
	}
	*len = n;
	return true;
}

bool decode_string(struct span s, struct arena *a, size_t cap, const char **out,
		   size_t *len, bool *trunc)
{
	struct span t = span_trim(s);
	bool tr = false;
	size_t n = 0;

	if (!t.n || t.p[0] != '"')
		return false;
	size_t room = MIN(cap, t.n);
	unsigned char *buf = arena_alloc(a, room + 1);
	append_string(t, buf, room, &n, &tr);
	buf[n] = '\0';
	*out = (const char *)buf;
	if (len)
		*len = n;
	if (trunc)
		*trunc = tr;
	return true;
}

/* The '>' that closes the decoration at P (at '<'), END when none;
 * *PLAIN: nothing nested, escaped or arrow-like comes before it, so the
 * decoration's text is the bytes before it as they are. */
static const char *decoration_close(const char *p, const char *end, bool *plain)
{
	/* Most decorations are a plain path up to the first '>', which is
	 * what the general case below would find. */
	const char *gt = memchr(p + 1, '>', (size_t)(end - (p + 1)));
	*plain = gt && gt[-1] != '-' && !memchr(p + 1, '<', (size_t)(gt - (p + 1))) &&
		 !memchr(p + 1, '\\', (size_t)(gt - (p + 1)));
	if (*plain)
		return gt;

	/* Find the matching '>' counting nested decorations. */
	const char *q = p + 1;
	int depth = 1;

	while (q < end) {
		if (*q == '<')
			depth++;
		else if (*q == '>' && !is_arrow(p, q) && --depth == 0)
			break;
		q++;
	}
	return q;
}

/* What follows the decoration closed at CLOSE: strace 6 prints an
 * unlinked file's mark after it, "3</tmp/x>(deleted)". */
static const char *after_close(const char *close, const char *end)
{
	const char *r = close < end ? close + 1 : end;

	if (end - r >= 9 && memcmp(r, "(deleted)", 9) == 0)
		r += 9;
	return r;
}

const char *decoration_after(const char *p, const char *end)
{
	bool plain;

	return after_close(decoration_close(p, end, &plain), end);
}

const char *parse_decoration(const char *p, const char *end, struct arena *a,
			     const char **after)
{
	bool plain;
	const char *cend = decoration_close(p, end, &plain);

	if (after)
		*after = after_close(cend, end);
	if (plain)
		return arena_strndup(a, p + 1, (size_t)(cend - (p + 1)));
	char *out = arena_alloc(a, (size_t)(cend - p));
	size_t n = 0;
	int nest = 0;
	for (const char *s = p + 1; s < cend;) {
		if (*s == '<') {
			nest++;
			s++;
		} else if (*s == '>' && nest && !is_arrow(p, s)) {
			nest--;
			s++;
		} else if (nest) {
			s++;
		} else if (*s == '\\') {
			unsigned char b;
			s = unescape(s + 1, cend, &b);
			out[n++] = (char)b;
		} else {
			out[n++] = *s++;
		}
	}
	out[n] = '\0';
	return out;
}

/* The bytes decoration_plain stops at: the end of a plain decoration,
 * what makes one need decoding, and the NUL that ends its text. */
static const unsigned char deco_special[256] = { ['>'] = 1, ['<'] = 1, ['\\'] = 1, ['\0'] = 1 };

#ifdef __SSE2__
/* The first byte of P[0..15] that deco_special marks, 16 if none ('<'
 * and '>' differ only in one bit, 0x02). */
static inline unsigned deco_special16(const char *p)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i m = _mm_cmpeq_epi8(_mm_and_si128(v, _mm_set1_epi8((char)~0x02)), _mm_set1_epi8('<'));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_setzero_si128()));
	unsigned bits = (unsigned)_mm_movemask_epi8(m);
	return bits ? (unsigned)__builtin_ctz(bits) : 16;
}
#endif

bool decoration_plain(const char *p, const char *end, size_t *n)
{
	const char *q = p + 1;

#ifdef __SSE2__
	if (end - q >= 16) {
		for (;;) {
			unsigned k = deco_special16(q);
			if (k < 16) {
				q += k;
				break;
			}
			q += 16;
			if (end - q < 16) {
				/* The rest in one load that ends at END: the bytes
				 * it shares with the last one hold none. */
				k = q < end ? deco_special16(end - 16) : 16;
				if (k == 16)
					return false;
				q = end - 16 + k;
				break;
			}
		}
	} else
#endif
	{
		while (q < end && !deco_special[(unsigned char)*q])
			q++;
		if (q == end)
			return false;
	}
	/* Up to a NUL, the text is the same whatever follows it: no '<' or
	 * '\\' came before it, so parse_decoration copies these bytes as
	 * they are, and the NUL ends them. */
	if (*q == '\0' || (*q == '>' && q[-1] != '-')) {
		*n = (size_t)(q - (p + 1));
		return true;
	}
	return false;
}

bool parse_fd(struct span s, int *fd, struct span *decoration)
{
	struct span t = span_trim(s);
	const char *p = t.p, *end = span_end(t);
	long long v;

	if (span_starts(t, "AT_FDCWD")) {
		v = RC_AT_FDCWD;
		p += 8;
	} else {
		if (!parse_ll(t, &v))
			return false;
		if (p < end && *p == '-')
			p++;
		if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
			p += 2;
		while (p < end && ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			p++;
	}
	if (v < -0x7fffffffLL || v > 0x7fffffffLL)
		return false;
	*fd = (int)v;
	if (decoration)
		*decoration = p < end && *p == '<' ? span_make(p, (size_t)(end - p)) : span_make(NULL, 0);
	return true;
}

/* The quoted string inside a helper call: inet_addr("1.2.3.4"),
 * inet_pton(AF_INET6, "::1", &sin6_addr). */
static bool helper_string(struct span s, struct arena *a, const char **out)
{
	const char *q = memchr(s.p, '"', s.n);

	if (!q)
		return false;
	return decode_string(span_make(q, (size_t)(span_end(s) - q)), a, 4096, out, NULL, NULL);
}

static bool helper_number(struct span s, long long *v)
{
	const char *q = memchr(s.p, '(', s.n);

	if (!q)
		return parse_ll(s, v);
	return parse_ll(span_make(q + 1, (size_t)(span_end(s) - q - 1)), v);
}

static void sockaddr_item(struct span key, struct span val, struct arena *a, struct rc_sockaddr *sa)
{
	long long v;

	if (span_eq(key, "sa_family") || (!key.n && span_starts(val, "AF_"))) {
		if (xlat_span(&rc_xlat_family, val, &v) || parse_ll(val, &v))
			sa->family = (int)v;
	} else if (span_eq(key, "sin_port") || span_eq(key, "sin6_port") ||
		   (!key.n && span_starts(val, "htons("))) {
		if (helper_number(val, &v) && v >= 0 && v <= 65535)
			sa->port = (int)v;
	} else if (span_starts(val, "inet_addr(") || span_starts(val, "inet_pton(")) {
		const char *h;
		if (helper_string(val, a, &h))
			sa->host = h;
	} else if (span_eq(key, "sun_path") || (!key.n && val.n && (val.p[0] == '"' || val.p[0] == '@'))) {
		const char *h;
		if (val.n && val.p[0] == '@') {
			sa->abstract = true;
			val.p++;
			val.n--;
		}
		if (decode_string(val, a, 4096, &h, NULL, NULL))
			sa->host = h;
	}
}

bool parse_sockaddr(struct span s, struct arena *a, struct rc_sockaddr *sa)
{
	struct span in = inner(span_in(s));
	const char *p = in.p, *end = span_end(in);

	if (!in.n)
		return false;
	while (p < end) {
		const char *q = item_end(p, end);
		struct span it = span_trim(span_make(p, (size_t)(q - p)));
		struct span key = span_make(it.p, 0), val = it;
		/* "key=value" unless the '=' belongs to a nested helper call. */
		for (size_t i = 0; i < it.n; i++) {
			char c = it.p[i];
			if (c == '=') {
				key = span_make(it.p, i);
				val = span_trim(span_make(it.p + i + 1, it.n - i - 1));
				break;
			}
			if (!is_word(c))
				break;
		}
		sockaddr_item(key, val, a, sa);
		if (q >= end || *q != ',')
			break;
		p = q + 1;
	}
	if (sa->family == AF_UNIX)
		sa->port = -1;
	return sa->family != 0;
}

bool parse_socket_hint(const char *hint, struct arena *a, struct rc_sockaddr *sa)
{
	int family;
	const char *rest;

	if (!hint)
		return false;
	if (strncmp(hint, "TCPv6:[", 7) == 0 || strncmp(hint, "UDPv6:[", 7) == 0) {
		family = AF_INET6;
		rest = hint + 7;
	} else if (strncmp(hint, "TCP:[", 5) == 0 || strncmp(hint, "UDP:[", 5) == 0) {
		family = AF_INET;
		rest = hint + 5;
	} else if (strncmp(hint, "UNIX", 4) == 0) {
		const char *q = strchr(hint, '"');
		const char *h;
		if (!q || !decode_string(span_make(q, strlen(q)), a, 4096, &h, NULL, NULL))
			return false;
		sa->family = AF_UNIX;
		sa->host = h;
		/* -yy prints an abstract name as @"name" (strace 6.x), an older
		 * strace as "@name". */
		if (q > hint && q[-1] == '@') {
			sa->abstract = true;
		} else if (h[0] == '@') {
			sa->abstract = true;
			sa->host = h + 1;
		}
		return true;
	} else {
		return false;
	}
	const char *arrow = strstr(rest, "->");
	if (!arrow)
		return false;
	const char *peer = arrow + 2;
	size_t n = strlen(peer);
	if (n && peer[n - 1] == ']')
		n--;
	const char *colon = NULL;
	for (size_t i = n; i > 0; i--)
		if (peer[i - 1] == ':') {
			colon = peer + i - 1;
			break;
		}
	if (!colon)
		return false;
	long long port;
	if (!parse_ll(span_make(colon + 1, (size_t)(peer + n - colon - 1)), &port) || port < 0 || port > 65535)
		return false;
	const char *h = peer, *he = colon;
	if (he > h && h[0] == '[' && he[-1] == ']') {
		h++;
		he--;
	}
	sa->family = family;
	sa->port = (int)port;
	sa->host = arena_strndup(a, h, (size_t)(he - h));
	return true;
}
