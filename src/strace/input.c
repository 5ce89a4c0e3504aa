/* The strace parser's input: reading and splitting lines, ANSI escapes,
 * line prefixes (pid, time) and the merge of -ff sets. */
#include "strace/input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strace/args.h"
#include "strace/wrapped.h"
#include "util/util.h"

/* Reads are this big; with many -ff files each gets less (see open). */
#define READ_CHUNK (1u << 20)
#define READ_CHUNK_MIN (64u << 10)
#define READ_TOTAL (32u << 20)
/* A line longer than this keeps its first LINE_HEAD and last LINE_TAIL
 * bytes: the call name, the first arguments, the return value and the
 * duration survive, memory stays bounded. */
#define LINE_MAX_BYTES (4u << 20)
#define LINE_HEAD (1u << 20)
#define LINE_TAIL (64u << 10)
/* More open files than this and the -ff set is read with reopen per chunk. */
#define OPEN_FILES_MAX 200

/* ---- reading lines ---- */

static void src_init(struct source *s, const char *name, size_t cap)
{
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	s->fd = -1;
	s->cap = cap;
	s->last_key = -1;
}

static int src_fill(struct source *s, struct strbuf *err)
{
	if (s->fd < 0) {
		s->fd = open(s->name, O_RDONLY | O_CLOEXEC);
		if (s->fd < 0 || (s->off && lseek(s->fd, s->off, SEEK_SET) < 0)) {
			strbuf_addf(err, "cannot open '%s': %s", s->name, strerror(errno));
			return -1;
		}
	}
	if (!s->buf)
		s->buf = xmalloc(s->cap + 1);
	ssize_t n;
	do
		n = read(s->fd, s->buf + s->end, s->cap - s->end);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		strbuf_addf(err, "cannot read '%s': %s", s->name, strerror(errno));
		return -1;
	}
	if (n == 0)
		s->eof = true;
	s->end += (size_t)n;
	s->off += n;
	if (s->park && !s->is_stdin) {
		close(s->fd);
		s->fd = -1;
	}
	return 0;
}

/* Remove ANSI escape sequences (ESC [ params final, ESC ] ... BEL) in place. */
static size_t strip_ansi(char *l, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < n;) {
		if (l[i] != 033) {
			l[o++] = l[i++];
			continue;
		}
		i++;
		if (i < n && l[i] == '[') {
			i++;
			while (i < n && !((unsigned char)l[i] >= 0x40 && (unsigned char)l[i] <= 0x7e))
				i++;
			if (i < n)
				i++;
		} else if (i < n && l[i] == ']') {
			while (i < n && l[i] != 07)
				i++;
			if (i < n)
				i++;
		} else if (i < n) {
			i++;
		}
	}
	return o;
}

/* Whether the buffered line [L, E) has an ESC byte. Terminal sessions
 * have them, strace's own logs none: one search over all the text read,
 * not one per line. Lines are asked in order, so [L, esc_next) is known
 * to be free of them. */
static bool line_has_esc(struct source *s, size_t l, size_t e)
{
	size_t from = l;

	if (s->esc_next >= l) {
		if (s->esc_next < s->esc_lim)
			return s->esc_next < e;
		if (s->esc_lim >= e)
			return false;
		from = s->esc_lim;
	}
	const char *q = memchr(s->buf + from, 033, s->end - from);
	s->esc_lim = s->end;
	s->esc_next = q ? (size_t)(q - s->buf) : s->end;
	return s->esc_next < e;
}

/* The next raw line of S into s->line/len (NUL-terminated, without the
 * newline and a trailing CR). 1, 0 at the end, -1 on a read error. */
static int src_getline(struct source *s, struct strbuf *err)
{
	for (;;) {
		if (s->buf && s->scan < s->end) {
			char *nl = memchr(s->buf + s->scan, '\n', s->end - s->scan);
			if (nl) {
				s->line = s->buf + s->beg;
				s->len = (size_t)(nl - s->line);
				s->beg = s->scan = (size_t)(nl - s->buf) + 1;
				break;
			}
			s->scan = s->end;
		}
		if (s->eof) {
			if (!s->buf || s->beg >= s->end)
				return 0;
			s->line = s->buf + s->beg;
			s->len = s->end - s->beg;
			s->beg = s->scan = s->end;
			break;
		}
		if (s->beg > 0) {
			memmove(s->buf, s->buf + s->beg, s->end - s->beg);
			s->end -= s->beg;
			s->scan -= s->beg;
			if (s->esc_next >= s->beg) {
				s->esc_next -= s->beg;
				s->esc_lim -= s->beg;
			} else {
				s->esc_next = s->esc_lim = 0;
			}
			s->beg = 0;
		}
		if (s->buf && s->end == s->cap) {
			if (s->cap < LINE_MAX_BYTES) {
				s->cap = MIN(s->cap * 2, (size_t)LINE_MAX_BYTES);
				s->buf = xrealloc(s->buf, s->cap + 1);
			} else {
				memmove(s->buf + LINE_HEAD, s->buf + s->end - LINE_TAIL, LINE_TAIL);
				s->end = s->scan = LINE_HEAD + LINE_TAIL;
				s->esc_next = s->esc_lim = 0;
				s->elided_now = true;
			}
		}
		if (src_fill(s, err) < 0)
			return -1;
	}
	/* strace 7's --color and terminal sessions bring ANSI escapes. */
	if (line_has_esc(s, (size_t)(s->line - s->buf), (size_t)(s->line - s->buf) + s->len))
		s->len = strip_ansi(s->line, s->len);
	while (s->len && s->line[s->len - 1] == '\r')
		s->len--;
	s->line[s->len] = '\0';
	s->elided = s->elided_now;
	s->elided_now = false;
	return 1;
}

bool input_peek(const struct source *s, size_t *at, const char **line, size_t *len)
{
	size_t from = *at ? *at : s->beg;

	if (!s->buf || !s->has_line || from >= s->end)
		return false;
	const char *nl = memchr(s->buf + from, '\n', s->end - from);
	if (!nl)
		return false;
	*line = s->buf + from;
	*len = (size_t)(nl - *line);
	while (*len && (*line)[*len - 1] == '\r')
		(*len)--;
	*at = (size_t)(nl - s->buf) + 1;
	return true;
}

bool input_next_is(const struct source *s, const char *lit, size_t n)
{
	return s->buf && s->has_line && s->beg <= s->end && s->end - s->beg >= n && memcmp(s->buf + s->beg, lit, n) == 0;
}

/* ---- line prefixes ---- */

static inline int digit2(const char *p)
{
	return isdigit_c(p[0]) && isdigit_c(p[1]) ? (p[0] - '0') * 10 + (p[1] - '0') : -1;
}

/* "HH:MM:SS.uuuuuu " at P: the hours, minutes and seconds as lex_digits
 * and lex_decimal make them (so the sum is the same double). */
static bool tt_time(const char *p, const char *end, double *h, double *m, double *sec)
{
	if (end - p < 16 || p[2] != ':' || p[5] != ':' || p[8] != '.' || p[15] != ' ')
		return false;
	int hh = digit2(p), mm = digit2(p + 3), ss = digit2(p + 6);
	int u1 = digit2(p + 9), u2 = digit2(p + 11), u3 = digit2(p + 13);
	if ((hh | mm | ss | u1 | u2 | u3) < 0)
		return false;
	*h = (double)hh;
	*m = (double)mm;
	*sec = (double)ss + (double)(uint64_t)(u1 * 10000 + u2 * 100 + u3) / lex_pow10[6];
	return true;
}

/* A time of day TOD as seconds since the first day of the log: a time
 * more than 12 hours before the last one is on the next day. */
static double tod_abs(struct source *s, double tod)
{
	if (s->have_tod && tod + 43200 < s->last_tod)
		s->day_off += 86400;
	s->have_tod = true;
	s->last_tod = tod;
	return tod + s->day_off;
}

/* The prefix of nearly every line of an "strace -f -tt" log, "PID
 * HH:MM:SS.uuuuuu ", with nothing after it that the general parse below
 * would take as more prefix ("(+", "["): the same result and the same
 * time state as that parse, without its cases. False (nothing changed)
 * for any other line. */
static bool prefix_f_tt(struct source *s, const char *l, const char *end, struct prefix *pre)
{
	const char *p = l;
	int pid = 0, nd = 0;
	double h, m, sec;

	while (p < end && isdigit_c(*p) && nd < 9) {
		pid = pid * 10 + (*p - '0');
		p++;
		nd++;
	}
	if (!nd || nd > 8 || p >= end || *p != ' ')
		return false;
	while (p < end && *p == ' ')
		p++;
	if (!tt_time(p, end, &h, &m, &sec))
		return false;
	const char *q = p + 15;
	while (q < end && *q == ' ')
		q++;
	if (q < end && (*q == '(' || *q == '['))
		return false;

	double abs = tod_abs(s, h * 3600 + m * 60 + sec);
	if (!s->have_first_abs) {
		s->have_first_abs = true;
		s->first_abs = abs;
	}
	if (!s->seen_time) {
		s->seen_time = true;
		s->first_mode = T_ABS;
	}
	pre->pid = pid;
	pre->has_pid = true;
	pre->bracket = false;
	pre->ts = abs;
	pre->ts_abs = true;
	pre->body = (size_t)(q - l);
	s->last_key = abs;
	return true;
}

void input_parse_prefix(struct source *s, const char *l, size_t n, struct prefix *pre)
{
	const char *p = l, *end = l + n;
	double abs = -1, rel = -1;
	bool abs_frac = false;

	if (n && isdigit_c(*l) && prefix_f_tt(s, l, end, pre))
		return;
	pre->pid = 0;
	pre->has_pid = false;
	pre->bracket = false;
	pre->ts = -1;
	pre->ts_abs = false;
	pre->body = 0;

	if (n > 6 && memcmp(p, "[pid ", 5) == 0) {
		const char *q = p + 5;
		double v;
		int cnt;
		while (q < end && *q == ' ')
			q++;
		q = lex_digits(q, end, &v, &cnt);
		if (q < end && *q == '<') {
			const char *gt = memchr(q, '>', (size_t)(end - q));
			q = gt ? gt + 1 : end;
		}
		if (cnt && v <= 0x7fffffff && q < end && *q == ']') {
			pre->pid = (int)v;
			pre->has_pid = pre->bracket = true;
			p = q + 1;
		}
	} else if (p < end && isdigit_c(*p)) {
		const char *q;
		double v;
		int cnt;
		q = lex_digits(p, end, &v, &cnt);
		/* A pid is followed by a space or "<comm>"; pids stay below
		 * 2^22, so a bigger number is a -ttt time without a pid. */
		if (q < end && (*q == ' ' || *q == '<') && v < 1e8) {
			if (*q == '<') {
				const char *gt = memchr(q, '>', (size_t)(end - q));
				q = gt ? gt + 1 : end;
			}
			pre->pid = (int)v;
			pre->has_pid = true;
			p = q;
		}
	}
	while (p < end && *p == ' ')
		p++;

	/* -t/-tt: HH:MM:SS[.frac]; -ttt: secs.frac; -r: delta. */
	if (p < end && isdigit_c(*p)) {
		const char *q = p;
		double h, m, sec;
		int c1, c2, c3 = 0;
		bool frac = false, clock;
		if (tt_time(p, end, &h, &m, &sec)) {
			/* -tt's "HH:MM:SS.uuuuuu " (nearly every line of a log),
			 * the same values as the general case below. */
			clock = true;
			c3 = 2;
			frac = true;
			q = p + 15;
		} else {
			q = lex_digits(q, end, &h, &c1);
			clock = c1 >= 1 && c1 <= 2 && q < end && *q == ':';
			if (clock) {
				q = lex_digits(q + 1, end, &m, &c2);
				if (c2 == 2 && q < end && *q == ':')
					q = lex_decimal(q + 1, end, &sec, &frac, &c3);
			}
		}
		if (clock) {
			if (c3 == 2 && q < end && *q == ' ') {
				abs = tod_abs(s, h * 3600 + m * 60 + sec);
				abs_frac = frac;
				p = q;
			}
		} else {
			double v;
			int ni;
			q = lex_decimal(p, end, &v, &frac, &ni);
			if (q < end && *q == ' ' && (frac || v >= 1e8)) {
				if (v >= 1e8) {
					abs = v;
					abs_frac = frac;
				} else {
					rel = v;
				}
				p = q;
			}
		}
		while (p < end && *p == ' ')
			p++;
	}
	/* -t -r: "15:50:56 (+     0.000000) " */
	if (end - p > 3 && p[0] == '(' && p[1] == '+') {
		const char *q = p + 2;
		double v;
		bool frac;
		int ni;
		while (q < end && *q == ' ')
			q++;
		q = lex_decimal(q, end, &v, &frac, &ni);
		if (ni && q < end && *q == ')') {
			rel = v;
			p = q + 1;
			while (p < end && *p == ' ')
				p++;
		}
	}
	/* -n "[ 257] ", -i "[00007f...] ", --secontext "[ctx] ". */
	while (p < end && *p == '[' && !(end - p > 4 && memcmp(p, "[pid", 4) == 0)) {
		const char *q = p + 1;
		while (q < end && q - p < 64 && *q != ']' && *q != '[' && *q != '(')
			q++;
		if (q >= end || *q != ']' || q + 1 >= end || q[1] != ' ')
			break;
		p = q + 1;
		while (p < end && *p == ' ')
			p++;
	}

	if (abs >= 0 || rel >= 0) {
		if (rel >= 0)
			s->acc += rel;
		if (abs >= 0 && !s->have_first_abs) {
			s->have_first_abs = true;
			s->first_abs = abs;
		}
		if (!s->seen_time) {
			s->seen_time = true;
			s->first_mode = abs >= 0 ? T_ABS : T_REL;
		}
		if (abs >= 0 && (abs_frac || rel < 0))
			pre->ts = abs;
		else if (abs >= 0)
			pre->ts = s->first_abs + s->acc;
		else
			pre->ts = s->have_first_abs ? s->first_abs + s->acc : s->acc;
		pre->ts_abs = abs >= 0;
		s->last_key = pre->ts;
	}
	if (!pre->has_pid && s->name_pid) {
		pre->pid = s->name_pid;
		pre->has_pid = true;
	}
	pre->body = (size_t)(p - l);
}

/* The time format of the first timed line in S's buffer, without
 * consuming anything: an -ff set is merged only when all its files carry
 * absolute times. */
static enum tmode src_peek_mode(const struct source *s)
{
	struct source tmp = *s;
	const char *p = s->buf ? s->buf + s->beg : NULL;
	const char *end = s->buf ? s->buf + s->end : NULL;
	struct prefix pre;

	for (int lines = 0; p && p < end && lines < 256; lines++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		input_parse_prefix(&tmp, p, (size_t)(le - p), &pre);
		if (pre.ts >= 0)
			return pre.ts_abs ? T_ABS : T_REL;
		p = le + 1;
	}
	return T_NONE;
}

/* Lines of a source looked at to decide whether they are wrapped. */
#define WRAP_SAMPLE 64

/* The current line of S, out of the record of another log that carries
 * it, when S's lines are such records (decided on its first line). */
static void src_unwrap(struct source *s)
{
	if (!s->wrap) {
		const char *lines[WRAP_SAMPLE];
		size_t lens[WRAP_SAMPLE], n = 1, at = 0;
		lines[0] = s->line;
		lens[0] = s->len;
		while (n < WRAP_SAMPLE && input_peek(s, &at, &lines[n], &lens[n]))
			n++;
		s->wrap = wrapped_detect(lines, lens, n) ? 2 : 1;
	}
	if (s->wrap == 2 && wrapped_unwrap(s->line, s->len, &s->unwrapped)) {
		s->line = s->unwrapped.buf;
		s->len = s->unwrapped.len;
	}
}

/* Read the next line of S and parse its prefix; 1, 0 at the end, -1. */
static int src_next(struct source *s, struct strbuf *err)
{
	int r = src_getline(s, err);

	s->has_line = r == 1;
	if (r == 1) {
		if (s->wrap != 1)
			src_unwrap(s);
		input_parse_prefix(s, s->line, s->len, &s->pre);
	}
	return r;
}

/* ---- the merge of -ff sets ---- */

static double src_key(const struct source *s)
{
	return s->pre.ts >= 0 ? s->pre.ts : s->last_key;
}

static bool heap_less(const struct input *p, size_t a, size_t b)
{
	double ka = src_key(&p->src[a]), kb = src_key(&p->src[b]);

	if (ka != kb)
		return ka < kb;
	return a < b;
}

static void heap_down(struct input *p, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < p->heap_n && heap_less(p, p->heap[l], p->heap[m]))
			m = l;
		if (r < p->heap_n && heap_less(p, p->heap[r], p->heap[m]))
			m = r;
		if (m == i)
			return;
		size_t t = p->heap[i];
		p->heap[i] = p->heap[m];
		p->heap[m] = t;
		i = m;
	}
}

int input_advance(struct input *p, struct strbuf *err)
{
	if (!p->started) {
		p->started = true;
		bool all_abs = true;
		size_t live = 0;
		for (size_t i = 0; i < p->nsrc; i++) {
			struct source *s = &p->src[i];
			if (!s->memory && src_fill(s, err) < 0)
				return -1;
			enum tmode mode = src_peek_mode(s);
			int r = src_next(s, err);
			if (r < 0)
				return -1;
			if (r == 1) {
				live++;
				if (mode != T_ABS)
					all_abs = false;
			}
		}
		p->merge = p->nsrc > 1 && all_abs && live > 1;
		p->heap = xcalloc(p->nsrc, sizeof(*p->heap));
		for (size_t i = 0; i < p->nsrc; i++)
			if (p->src[i].has_line)
				p->heap[p->heap_n++] = i;
		if (p->merge)
			for (size_t i = p->heap_n / 2 + 1; i-- > 0;)
				heap_down(p, i);
		if (!p->heap_n)
			return 0;
		p->cur = p->heap[0];
		return 1;
	}
	if (!p->heap_n)
		return 0;
	struct source *s = &p->src[p->heap[0]];
	int r = src_next(s, err);
	if (r < 0)
		return -1;
	if (r == 0) {
		if (p->merge) {
			p->heap[0] = p->heap[--p->heap_n];
		} else {
			memmove(p->heap, p->heap + 1, (p->heap_n - 1) * sizeof(*p->heap));
			p->heap_n--;
		}
		/* Pending text may point into the buffer of a finished source:
		 * nothing does (it is copied), so the buffer can go. */
		free(s->buf);
		s->buf = NULL;
	}
	if (p->merge && p->heap_n)
		heap_down(p, 0);
	if (!p->heap_n)
		return 0;
	p->cur = p->heap[0];
	return 1;
}

/* ---- opening: files, -ff sets, buffers ---- */

/* "LOG.1234" -> 1234 and the length of "LOG", or 0. */
static int ff_suffix(const char *name, size_t *base)
{
	const char *dot = strrchr(name, '.');
	const char *slash = strrchr(name, '/');
	long long v = 0;

	if (!dot || (slash && dot < slash) || !dot[1] || strlen(dot + 1) > 9)
		return 0;
	for (const char *q = dot + 1; *q; q++) {
		if (!isdigit_c(*q))
			return 0;
		v = v * 10 + (*q - '0');
	}
	*base = (size_t)(dot - name);
	return v > 0 && v < 0x7fffffff ? (int)v : 0;
}

struct ffname {
	const char *name;
	size_t base;
	int pid;
	size_t index;
};

static bool same_base(const struct ffname *a, const struct ffname *b)
{
	return a->pid && b->pid && a->base == b->base && memcmp(a->name, b->name, a->base) == 0;
}

static int cmp_ffname(const void *x, const void *y)
{
	const struct ffname *a = x, *b = y;
	size_t la = a->pid ? a->base : strlen(a->name);
	size_t lb = b->pid ? b->base : strlen(b->name);
	int c = memcmp(a->name, b->name, MIN(la, lb));

	if (c)
		return c;
	if (la != lb)
		return la < lb ? -1 : 1;
	return (a->pid > b->pid) - (a->pid < b->pid);
}

static bool same_base_all(const struct input *p)
{
	size_t b0, b;

	ff_suffix(p->src[0].name, &b0);
	for (size_t i = 1; i < p->nsrc; i++) {
		ff_suffix(p->src[i].name, &b);
		if (b != b0 || memcmp(p->src[i].name, p->src[0].name, b0) != 0)
			return false;
	}
	return true;
}

static int cmp_pid(const void *a, const void *b)
{
	const struct source *x = a, *y = b;

	return (x->name_pid > y->name_pid) - (x->name_pid < y->name_pid);
}

int input_open(struct input *p, const char *const *files, size_t n, struct strbuf *err)
{
	memset(p, 0, sizeof(*p));
	p->src = xcalloc(n ? n : 1, sizeof(*p->src));
	p->nsrc = n;
	size_t cap = n <= READ_TOTAL / READ_CHUNK ? READ_CHUNK : MAX(READ_TOTAL / n, (size_t)READ_CHUNK_MIN);
	bool park = n > OPEN_FILES_MAX;

	for (size_t i = 0; i < n; i++) {
		struct source *s = &p->src[i];
		src_init(s, files[i], cap);
		if (strcmp(files[i], "-") == 0) {
			s->is_stdin = true;
			s->fd = 0;
			continue;
		}
		s->fd = open(files[i], O_RDONLY | O_CLOEXEC);
		struct stat st;
		if (s->fd < 0 || fstat(s->fd, &st) < 0) {
			strbuf_addf(err, "cannot open '%s': %s", files[i], strerror(errno));
			p->nsrc = i + 1;
			input_release(p);
			return -1;
		}
		if (S_ISDIR(st.st_mode)) {
			strbuf_addf(err, "cannot open '%s': %s", files[i], strerror(EISDIR));
			p->nsrc = i + 1;
			input_release(p);
			return -1;
		}
		s->park = park;
		if (park) {
			close(s->fd);
			s->fd = -1;
		}
	}

	/* Files LOG.PID that share their LOG with another one given are an -ff
	 * set: their pid comes from the name. Sorting by name groups them. */
	if (n > 1) {
		struct ffname *fn = xcalloc(n, sizeof(*fn));
		size_t members = 0;
		for (size_t i = 0; i < n; i++) {
			fn[i].name = p->src[i].name;
			fn[i].pid = ff_suffix(fn[i].name, &fn[i].base);
			fn[i].index = i;
		}
		qsort(fn, n, sizeof(*fn), cmp_ffname);
		for (size_t i = 0; i < n; i++) {
			bool prev = i > 0 && same_base(&fn[i - 1], &fn[i]);
			bool next = i + 1 < n && same_base(&fn[i], &fn[i + 1]);
			if (fn[i].pid && (prev || next)) {
				p->src[fn[i].index].name_pid = fn[i].pid;
				members++;
			}
		}
		free(fn);
		/* A whole set is read in pid order: the first process first. */
		if (members == n && same_base_all(p))
			qsort(p->src, n, sizeof(*p->src), cmp_pid);
	}
	return 0;
}

void input_from_buffer(struct input *p, const char *data, size_t len)
{
	memset(p, 0, sizeof(*p));
	p->src = xcalloc(1, sizeof(*p->src));
	p->nsrc = 1;
	struct source *s = &p->src[0];

	src_init(s, "<buffer>", len ? len : 1);
	s->buf = xmalloc(s->cap + 1);
	if (len)
		memcpy(s->buf, data, len);
	s->end = len;
	s->eof = true;
	s->memory = true;
}

void input_release(struct input *p)
{
	for (size_t i = 0; i < p->nsrc; i++) {
		struct source *s = &p->src[i];
		if (s->fd > 0 || (s->fd == 0 && !s->is_stdin))
			close(s->fd);
		free(s->buf);
		free(s->name);
		strbuf_release(&s->unwrapped);
	}
	free(p->src);
	free(p->heap);
	memset(p, 0, sizeof(*p));
}
