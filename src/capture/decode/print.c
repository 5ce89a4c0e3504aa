/* The printers every decoder family uses, in strace's notation: dec_keep
 * (into the thread's arena), quoting, numbers, fds with their -y
 * decorations, open flags, errno names, paths, strings, buffers, arrays,
 * string arrays, tracee structs and times. Each that fails to read
 * prints the address instead, as strace's umove_or_printaddr does. */
#include "capture/decode/print.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "event/facts.h"
#include "gen/tables.h"
#include "strace/decoration.h"
#include "util/util.h"

char *dec_keep(struct dec *d, const void *p, size_t n)
{
	char *s = arena_try_alloc(&d->arena->a, n + 1);

	if (!s)
		return NULL;
	if (n)
		memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

/* A scratch buffer for strings on their way into the arena: paths are up
 * to PATH_MAX and most are short, so they are read here and only their
 * real length is kept. The tracer is single-threaded. */
static char *scratch(size_t n)
{
	static char *buf;
	static size_t size;

	if (n > size) {
		char *nb = realloc(buf, n);
		if (!nb)
			return NULL;
		buf = nb;
		size = n;
	}
	return buf;
}

/*
 * Quoting as strace's string_quote does: \" \\ \f \n \r \t \v, other bytes
 * outside 0x20..0x7e in octal (three digits when an octal digit follows,
 * so that it is not read as part of the escape), the bytes of EXTRA (the
 * '<' and '>' of -y decorations) in octal too. With -x, a string that
 * holds any such byte other than whitespace is printed all in \xNN.
 */
static bool needs_hex(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = p[i];
		if (c > 0x7e || (c < ' ' && (c < '\t' || c > '\r')))
			return true;
	}
	return false;
}

static void quote_body(struct strbuf *sb, const void *s, size_t n, bool hex, const char *extra)
{
	static const char hexdig[] = "0123456789abcdef";
	const unsigned char *p = s;

	if (hex && needs_hex(p, n)) {
		for (size_t i = 0; i < n; i++) {
			char e[4] = { '\\', 'x', hexdig[p[i] >> 4], hexdig[p[i] & 15] };
			strbuf_add(sb, e, 4);
		}
		return;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char c = p[i];
		switch (c) {
		case '"': strbuf_add(sb, "\\\"", 2); continue;
		case '\\': strbuf_add(sb, "\\\\", 2); continue;
		case '\f': strbuf_add(sb, "\\f", 2); continue;
		case '\n': strbuf_add(sb, "\\n", 2); continue;
		case '\r': strbuf_add(sb, "\\r", 2); continue;
		case '\t': strbuf_add(sb, "\\t", 2); continue;
		case '\v': strbuf_add(sb, "\\v", 2); continue;
		default: break;
		}
		if (c >= ' ' && c <= 0x7e && !(extra && c && strchr(extra, c))) {
			strbuf_addc(sb, (char)c);
			continue;
		}
		bool digit_next = i + 1 < n && p[i + 1] >= '0' && p[i + 1] <= '7';
		strbuf_addf(sb, digit_next ? "\\%03o" : "\\%o", c);
	}
}

void dec_quote(struct dec *d, const void *p, size_t n, bool cut)
{
	strbuf_addc(d->out, '"');
	quote_body(d->out, p, n, d->opts && d->opts->hex_all, NULL);
	strbuf_addc(d->out, '"');
	if (cut)
		strbuf_add(d->out, "...", 3);
}

/* Simple numbers. */
void dec_sep(struct dec *d)
{
	strbuf_add(d->out, ", ", 2);
}

void dec_ulong(struct dec *d, int argi)
{
	strbuf_addf(d->out, "%llu", (unsigned long long)d->call.args[argi]);
}

void dec_hex(struct dec *d, int argi)
{
	strbuf_addf(d->out, "%#llx", (unsigned long long)d->call.args[argi]);
}

void dec_ptr(struct dec *d, uint64_t addr)
{
	if (!addr)
		strbuf_add(d->out, "NULL", 4);
	else
		strbuf_addf(d->out, "%#llx", (unsigned long long)addr);
}

/* readlink LINK into the arena; NULL when it cannot be read. */
static const char *read_link(struct dec *d, const char *link)
{
	char *buf = scratch(PATH_MAX + 1);

	if (!buf)
		return NULL;
	ssize_t n = readlink(link, buf, PATH_MAX);
	if (n < 0)
		return NULL;
	return dec_keep(d, buf, (size_t)n);
}

static void decoration(struct dec *d, const char *text)
{
	strbuf_addc(d->out, '<');
	quote_body(d->out, text, strlen(text), d->opts && d->opts->hex_all, "<>");
	strbuf_addc(d->out, '>');
}

/* FD and, with -y, its decoration; the decoration's text is returned. */
static const char *print_fd(struct dec *d, int fd)
{
	char link[64];

	strbuf_addf(d->out, "%d", fd);
	if (fd < 0 || !d->opts || !d->opts->decode_fds)
		return NULL;
	snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)d->tid, fd);
	char *text = (char *)read_link(d, link);
	if (!text)
		return NULL;
	/* The kernel marks an unlinked file with a suffix; strace 6 prints
	 * it outside the brackets, "3</tmp/x>(deleted)". */
	size_t n = strlen(text);
	bool gone = path_cut_deleted(text, &n);
	decoration(d, text);
	if (gone)
		strbuf_add(d->out, "(deleted)", 9);
	return text;
}

void dec_fd(struct dec *d, int fd)
{
	const char *text = print_fd(d, fd);

	if (text && d->e && fd == d->e->fd)
		d->e->fd_shown = decoration_facts(text, &d->arena->a);
}

void dec_dirfd(struct dec *d, int fd)
{
	const char *text = NULL;
	const struct rc_fdfacts *shown = NULL;

	if (fd != RC_AT_FDCWD) {
		text = print_fd(d, fd);
		if (text && d->e && fd == d->e->fd)
			shown = d->e->fd_shown = decoration_facts(text, &d->arena->a);
	} else {
		strbuf_add(d->out, "AT_FDCWD", 8);
		if (d->opts && d->opts->decode_fds) {
			char link[64];
			snprintf(link, sizeof(link), "/proc/%d/cwd", (int)d->tid);
			text = read_link(d, link);
			if (text)
				decoration(d, text);
		}
	}
	if (text && d->e && fd == d->e->dirfd)
		d->e->dir_shown = shown ? shown : decoration_facts(text, &d->arena->a);
}

/* glibc defines O_LARGEFILE as 0 on 64-bit targets, but the kernel sets
 * its own bit in a file's flags (F_GETFL shows it) and strace names it
 * (event/facts.h). */
void dec_open_flags(struct dec *d, unsigned long long v)
{
	/* strace's order (its open_mode_flags table), not the bit order:
	 * O_CLOEXEC before O_DIRECTORY, O_TMPFILE before O_DIRECTORY. */
	static const struct {
		const char *name;
		unsigned long long value;
	} order[] = {
		{ "O_CREAT", O_CREAT }, { "O_EXCL", O_EXCL }, { "O_NOCTTY", O_NOCTTY },
		{ "O_TRUNC", O_TRUNC }, { "O_APPEND", O_APPEND }, { "O_NONBLOCK", O_NONBLOCK },
		{ "O_SYNC", O_SYNC }, { "O_DSYNC", O_DSYNC }, { "O_DIRECT", O_DIRECT },
		{ "O_LARGEFILE", RC_KERNEL_O_LARGEFILE }, { "O_NOFOLLOW", O_NOFOLLOW },
		{ "O_NOATIME", O_NOATIME }, { "O_CLOEXEC", O_CLOEXEC }, { "O_PATH", O_PATH },
		{ "O_TMPFILE", O_TMPFILE }, { "O_DIRECTORY", O_DIRECTORY },
		{ "FASYNC", FASYNC },
	};
	static const char *const modes[] = { "O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE" };
	unsigned long long left = v & ~(unsigned long long)O_ACCMODE;

	strbuf_adds(d->out, modes[v & O_ACCMODE]);
	for (size_t i = 0; i < ARRAY_SIZE(order) && left; i++) {
		/* glibc defines O_LARGEFILE as 0 on 64-bit targets. */
		if (order[i].value && (left & order[i].value) == order[i].value) {
			strbuf_addc(d->out, '|');
			strbuf_adds(d->out, order[i].name);
			left &= ~order[i].value;
		}
	}
	if (left)
		strbuf_addf(d->out, "|%#llx", left);
}

void dec_errno_name(struct dec *d, int err)
{
	const char *name = xlat_errno_name(err);

	if (name)
		strbuf_adds(d->out, name);
	else
		strbuf_addf(d->out, "%d", err);
}

/* Strings. */
void dec_read_path(struct dec *d, uint64_t addr, struct dec_copy *c)
{
	char *buf;
	bool cut;
	ssize_t n;

	memset(c, 0, sizeof(*c));
	c->taken = true;
	if (!addr)
		return;
	/* PATH_MAX counts the NUL: a longer path is cut at PATH_MAX - 1
	 * bytes, as strace cuts it. */
	buf = scratch(PATH_MAX);
	n = buf ? mem_read_str(d->call.mem, addr, buf, PATH_MAX, &cut) : -1;
	if (n < 0)
		return;
	c->s = dec_keep(d, buf, (size_t)n);
	c->ok = c->s != NULL;
	c->cut = cut;
	c->n = (size_t)n;
}

static const char *print_path(struct dec *d, uint64_t addr, const struct dec_copy *c)
{
	if (!addr) {
		strbuf_add(d->out, "NULL", 4);
		return NULL;
	}
	if (!c->ok) {
		dec_ptr(d, addr);
		return NULL;
	}
	dec_quote(d, c->s, c->n, c->cut);
	return c->s;
}

const char *dec_path(struct dec *d, uint64_t addr)
{
	struct dec_copy c;

	dec_read_path(d, addr, &c);
	return print_path(d, addr, &c);
}

const char *dec_path_arg(struct dec *d, int i)
{
	if (!d->copy[i].taken)
		dec_read_path(d, d->call.args[i], &d->copy[i]);
	return print_path(d, d->call.args[i], &d->copy[i]);
}

static int strsize(const struct dec *d)
{
	return d->opts && d->opts->strsize >= 0 ? d->opts->strsize : 32;
}

long dec_array(struct dec *d, uint64_t addr, uint64_t count, size_t size, dec_elem_fn elem, void *ctx)
{
	unsigned char item[64];
	long printed = 0;

	if (!addr) {
		strbuf_add(d->out, "NULL", 4);
		return -1;
	}
	if (!count) {
		strbuf_add(d->out, "[]", 2);
		return -1;
	}
	if (size > sizeof(item) || count > UINT64_MAX / size || addr + count * size <= addr) {
		dec_ptr(d, addr);
		return -1;
	}
	for (uint64_t i = 0; i < count; i++) {
		uint64_t at = addr + i * size;
		if (i)
			dec_sep(d);
		if (mem_read(d->call.mem, at, item, size) != (ssize_t)size) {
			if (i == 0) {
				dec_ptr(d, at);
				return -1;
			}
			strbuf_addf(d->out, "... /* %#llx */", (unsigned long long)at);
			break;
		}
		if (i == 0)
			strbuf_addc(d->out, '[');
		if (i >= (uint64_t)strsize(d)) {
			strbuf_add(d->out, "...", 3);
			break;
		}
		elem(d, item, ctx);
		printed++;
	}
	strbuf_addc(d->out, ']');
	return printed;
}

/* A NUL-terminated string at ADDR printed up to -s; kept and returned,
 * *OK false (address printed) when unreadable. */
static const char *print_cstr(struct dec *d, uint64_t addr, bool *ok)
{
	size_t max = (size_t)strsize(d) + 1;
	char *buf = scratch(max);
	bool cut;
	ssize_t n;

	*ok = false;
	if (!addr) {
		strbuf_add(d->out, "NULL", 4);
		return NULL;
	}
	n = buf ? mem_read_str(d->call.mem, addr, buf, max, &cut) : -1;
	if (n < 0) {
		dec_ptr(d, addr);
		return NULL;
	}
	*ok = true;
	dec_quote(d, buf, (size_t)n, cut);
	return dec_keep(d, buf, (size_t)n);
}

const char *dec_str(struct dec *d, uint64_t addr)
{
	bool ok;

	return print_cstr(d, addr, &ok);
}

void dec_read_buf(struct dec *d, uint64_t addr, size_t len, bool preview, struct dec_copy *c)
{
	size_t shown = MIN(len, (size_t)strsize(d));
	size_t pmax = preview && d->opts ? d->opts->preview_max : 0;
	size_t head, tail, want;
	unsigned char *buf;

	/* The head and the tail are read apart. */
	event_data_ends(len, pmax, &head, &tail);
	want = MAX(shown, head);

	memset(c, 0, sizeof(*c));
	c->taken = true;
	if (!addr)
		return;
	buf = (unsigned char *)scratch(want + tail + 1);
	if (!buf)
		return;
	/* The preview may reach further than the printed part: when only
	 * the printed part is readable, print that and keep less. */
	if (mem_read(d->call.mem, addr, buf, want) != (ssize_t)want) {
		if (want == shown || mem_read(d->call.mem, addr, buf, shown) != (ssize_t)shown)
			return;
		want = head = shown;
		tail = 0;
	}
	if (tail && mem_read(d->call.mem, addr + len - tail, buf + want, tail) != (ssize_t)tail)
		tail = 0;
	c->s = dec_keep(d, buf, shown);
	c->ok = c->s != NULL;
	c->n = shown;
	c->cut = shown < len;
	if (pmax && d->e) {
		head = MIN(head, want);
		memmove(buf + head, buf + want, tail);
		event_data_facts(d->e, (const unsigned char *)dec_keep(d, buf, head + tail), head, tail, len);
	}
}

static void print_buf(struct dec *d, uint64_t addr, const struct dec_copy *c)
{
	if (!addr)
		strbuf_add(d->out, "NULL", 4);
	else if (!c->ok)
		dec_ptr(d, addr);
	else
		dec_quote(d, c->s, c->n, c->cut);
}

void dec_buf(struct dec *d, uint64_t addr, size_t len, bool preview)
{
	struct dec_copy c;

	dec_read_buf(d, addr, len, preview, &c);
	print_buf(d, addr, &c);
}

void dec_buf_arg(struct dec *d, int i, size_t len)
{
	if (d->copy[i].taken)
		print_buf(d, d->call.args[i], &d->copy[i]);
	else
		dec_buf(d, d->call.args[i], len, true);
}

/* Read pointer I of the array at ADDR (64-bit tracee words). Reads a
 * page's worth of pointers at once into CACHE. */
struct ptr_reader {
	const struct call_mem *mem;
	uint64_t addr;
	uint64_t cache[64];
	size_t first, count;	/* indexes CACHE holds */
};

static bool ptr_at(struct ptr_reader *r, size_t i, uint64_t *out)
{
	if (i >= r->first && i < r->first + r->count) {
		*out = r->cache[i - r->first];
		return true;
	}
	uint64_t at = r->addr + i * sizeof(uint64_t);
	long ps = sysconf(_SC_PAGESIZE);
	size_t room = (size_t)(ps > 0 ? ps : 4096);
	room = (room - (size_t)(at & (room - 1))) / sizeof(uint64_t);
	size_t n = MIN(room, ARRAY_SIZE(r->cache));
	if (n == 0)
		n = 1;
	if (mem_read(r->mem, at, r->cache, n * sizeof(uint64_t)) != (ssize_t)(n * sizeof(uint64_t))) {
		if (mem_read(r->mem, at, r->cache, sizeof(uint64_t)) != (ssize_t)sizeof(uint64_t)) {
			r->count = 0;
			return false;
		}
		n = 1;
	}
	r->first = i;
	r->count = n;
	*out = r->cache[0];
	return true;
}

void dec_print_strarray(struct dec *d, uint64_t addr)
{
	struct ptr_reader r = { .mem = d->call.mem, .addr = addr };
	size_t limit = (size_t)strsize(d);
	struct rc_event *e = d->e;

	if (!addr) {
		strbuf_add(d->out, "NULL", 4);
		return;
	}
	for (size_t i = 0;; i++) {
		uint64_t p;
		if (!ptr_at(&r, i, &p)) {
			if (i == 0) {
				dec_ptr(d, addr);
				return;
			}
			strbuf_add(d->out, ", ...", 5);
			if (e)
				e->argv_truncated = true;
			break;
		}
		if (i == 0)
			strbuf_addc(d->out, '[');
		if (!p)
			break;
		if (i)
			dec_sep(d);
		if (i >= limit) {
			strbuf_add(d->out, "...", 3);
			if (e)
				e->argv_truncated = true;
			break;
		}
		bool ok;
		const char *s = print_cstr(d, p, &ok);
		if (e && ok) {
			if (e->argc < RC_EVENT_MAX_ARGV)
				e->argv[e->argc++] = s ? s : "";
			else
				e->argv_truncated = true;
		}
	}
	strbuf_addc(d->out, ']');
}

void dec_envp(struct dec *d, uint64_t addr)
{
	struct ptr_reader r = { .mem = d->call.mem, .addr = addr };
	bool terminated = false;
	size_t n = 0;

	if (!addr) {
		strbuf_add(d->out, "NULL", 4);
		return;
	}
	/* A hard cap: the array is the tracee's and may be garbage. */
	for (; n < (1u << 20); n++) {
		uint64_t p;
		if (!ptr_at(&r, n, &p))
			break;
		if (!p) {
			terminated = true;
			break;
		}
	}
	if (n == 0 && !terminated) {
		dec_ptr(d, addr);
		return;
	}
	strbuf_addf(d->out, "%#llx /* %zu var%s%s */", (unsigned long long)addr, n,
		    n == 1 ? "" : "s", terminated ? "" : ", unterminated");
}

/*
 * The printers the families share (decode.h): tracee structs, times and
 * clocks.
 */
bool dec_umove(struct dec *d, uint64_t addr, void *buf, size_t len)
{
	if (!addr) {
		strbuf_add(d->out, "NULL", 4);
		return false;
	}
	if ((d->exiting && d->call.err) || mem_read(d->call.mem, addr, buf, len) != (ssize_t)len) {
		dec_ptr(d, addr);
		return false;
	}
	return true;
}

bool dec_timespec(struct dec *d, uint64_t addr, double *sec)
{
	struct dec_ktime t;

	if (!dec_umove(d, addr, &t, sizeof(t)))
		return false;
	strbuf_addf(d->out, "{tv_sec=%lld, tv_nsec=%llu}", (long long)t.sec,
		    (unsigned long long)t.nsec);
	if (sec)
		*sec = (double)t.sec + (double)t.nsec * 1e-9;
	return true;
}

void dec_timeval_val(struct dec *d, const struct dec_ktime *t)
{
	strbuf_addf(d->out, "{tv_sec=%lld, tv_usec=%llu}", (long long)t->sec,
		    (unsigned long long)t->nsec);
}

void dec_timeval(struct dec *d, uint64_t addr)
{
	struct dec_ktime t;

	if (dec_umove(d, addr, &t, sizeof(t)))
		dec_timeval_val(d, &t);
}

void dec_clock_t(struct strbuf *out, unsigned long long v)
{
	static long tck;

	strbuf_addf(out, "%llu", v);
	if (!tck) {
		tck = sysconf(_SC_CLK_TCK);
		if (tck <= 0)
			tck = -1;
	}
	if (tck <= 0 || v == 0)
		return;
	/* As many decimals as the tick rate has (2 at 100 Hz), the fraction
	 * rounded as printf rounds it. */
	int width = 0;
	for (long t = tck; t >= 10 && width < 9; t /= 10)
		width++;
	char frac[32];
	snprintf(frac, sizeof(frac), "%.*f", width,
		 (double)(v % (unsigned long long)tck) / (double)tck);
	strbuf_addf(out, " /* %llu%s s */", v / (unsigned long long)tck, frac + 1);
}

void dec_clockid(struct dec *d, unsigned id)
{
	xlat_print_val(d->out, &rc_xlat_clocknames, id, "CLOCK_???");
}
