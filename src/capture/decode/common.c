/* Helpers every decoder family uses: dec_keep (into the thread's arena), argument
 * printers in strace's notation, and the readers of tracee strings,
 * buffers, string arrays and socket addresses. Each reader that fails to
 * read prints the address instead, as strace's umove_or_printaddr does. */
#include "capture/decode.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/netlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
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

/* VALUE's name as strace prints it. The generated tables mark aliases
 * defined through another constant of the group, but glibc defines a few
 * old names through the PF_ constants (AF_FILE is PF_FILE is PF_LOCAL), so
 * they come out as names of their own; strace prints the modern one. */
static const char *value_name(const struct rc_xlat *x, long long v)
{
	static const char *const old_names[] = { "AF_FILE", "AF_LOCAL", "AF_ROUTE" };

	for (size_t i = 0; i < x->count; i++) {
		const struct rc_xlat_entry *r = &x->rows[i];
		if (r->value != v || r->alias)
			continue;
		size_t k = 0;
		while (k < ARRAY_SIZE(old_names) && strcmp(r->name, old_names[k]) != 0)
			k++;
		if (k == ARRAY_SIZE(old_names))
			return r->name;
	}
	return xlat_name(x, v);
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
/* The path at ADDR into C, kept in the arena. */
static void read_path(struct dec *d, uint64_t addr, struct dec_copy *c)
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

	read_path(d, addr, &c);
	return print_path(d, addr, &c);
}

const char *dec_path_arg(struct dec *d, int i)
{
	if (!d->copy[i].taken)
		read_path(d, d->call.args[i], &d->copy[i]);
	return print_path(d, d->call.args[i], &d->copy[i]);
}

/* The roles whose decoding is their printing: argument I printed, and
 * its fact put in the event. */
typedef void (*role_print_fn)(struct dec *d, int i);

/* Socket address argument I. */
static void print_sockaddr_arg(struct dec *d, int i)
{
	int len = i + 1 < RC_SC_MAX_ARGS ? (int)d->call.args[i + 1] : 0;

	if (len < 2)
		dec_ptr(d, d->call.args[i]);
	else
		dec_sockaddr(d, d->call.args[i], (size_t)len);
}

/* A timeout, the event's timeout_ms as parse_timeout_ms reads the text
 * (none for NULL or a negative time): a struct timespec, or a timeval
 * for a TIMEOUT_TV role (select). */
static void print_timeout_arg(struct dec *d, int i)
{
	const struct rc_syscall *sc = syscall_by_nr(d->call.nr);
	struct dec_ktime t;
	double sec;

	if (sc && sc->roles[i] == ROLE_TIMEOUT_TV) {
		if (!dec_umove(d, d->call.args[i], &t, sizeof(t)))
			return;
		dec_timeval_val(d, &t);
		sec = (double)t.sec + (double)t.nsec * 1e-6;
	} else if (!dec_timespec(d, d->call.args[i], &sec)) {
		return;
	}
	if (d->e)
		event_timeout_facts(d->e, sec);
}

static void print_strarray(struct dec *d, uint64_t addr);

/* execve's argv, into the event's. */
static void print_argv_arg(struct dec *d, int i)
{
	print_strarray(d, d->call.args[i]);
}

/* Argument I into C as the text FN prints, its fact into the event. */
static void read_text_arg(struct dec *d, int i, role_print_fn fn, struct dec_copy *c)
{
	static struct strbuf text = STRBUF_INIT;	/* the tracer is single-threaded */
	struct strbuf *out = d->out;

	memset(c, 0, sizeof(*c));
	strbuf_reset(&text);
	d->out = &text;
	fn(d, i);
	d->out = out;
	c->s = dec_keep(d, text.buf ? text.buf : "", text.len);
	c->n = text.len;
	/* Out of memory: the decoder reads it again. */
	c->taken = c->s != NULL;
}

static void print_text_arg(struct dec *d, int i, role_print_fn fn)
{
	if (d->copy[i].taken)
		strbuf_add(d->out, d->copy[i].s, d->copy[i].n);
	else
		fn(d, i);
}

void dec_sockaddr_arg(struct dec *d, int i)
{
	print_text_arg(d, i, print_sockaddr_arg);
}

void dec_timeout_arg(struct dec *d, int i)
{
	print_text_arg(d, i, print_timeout_arg);
}

void dec_argv_arg(struct dec *d, int i)
{
	print_text_arg(d, i, print_argv_arg);
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

/* The LEN bytes at ADDR into C: the part printed up to -s, and up to
 * opts->preview_max bytes into the event's data preview when PREVIEW. */
static void read_buf(struct dec *d, uint64_t addr, size_t len, bool preview, struct dec_copy *c)
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

	read_buf(d, addr, len, preview, &c);
	print_buf(d, addr, &c);
}

void dec_buf_arg(struct dec *d, int i, size_t len)
{
	if (d->copy[i].taken)
		print_buf(d, d->call.args[i], &d->copy[i]);
	else
		dec_buf(d, d->call.args[i], len, true);
}

/* Data argument I of SC, whose length is its LEN role's: all of it when
 * written (DATA_OUT), what the call returned of it when read into
 * (DATA_IN, at exit; nothing when the call failed). */
static void read_data_arg(struct dec *d, const struct rc_syscall *sc, unsigned i)
{
	int li = syscall_arg(sc, ROLE_LEN);
	uint64_t len;

	if (li < 0)
		return;
	len = d->call.args[li];
	if (sc->roles[i] == ROLE_DATA_IN) {
		if (d->call.err)
			return;
		len = MIN((uint64_t)d->call.rval, len);
	}
	read_buf(d, d->call.args[i], (size_t)len, true, &d->copy[i]);
}

/* The roles dec_read_roles reads from the tracee. */
#define MEMORY_ROLES                                                                                   \
	(1ULL << ROLE_PATH | 1ULL << ROLE_PATH2 | 1ULL << ROLE_SOCKADDR | 1ULL << ROLE_TIMEOUT_TS |      \
	 1ULL << ROLE_TIMEOUT_TV | 1ULL << ROLE_ARGV | 1ULL << ROLE_DATA_OUT | 1ULL << ROLE_DATA_IN)

void dec_read_roles(struct dec *d, const struct rc_syscall *sc)
{
	memset(d->copy, 0, sizeof(d->copy));
	/* Most calls (close, mmap, futex...) have none: no second walk. */
	if (!sc || !d->e || !(sc->roleset & MEMORY_ROLES))
		return;
	for (unsigned i = 0; i < sc->nroles && i < RC_SC_MAX_ARGS; i++) {
		if (event_arg_at_exit(sc, i) != d->exiting)
			continue;
		switch (sc->roles[i]) {
		case ROLE_PATH:
			read_path(d, d->call.args[i], &d->copy[i]);
			d->e->path = d->copy[i].s;
			break;
		case ROLE_PATH2:
			read_path(d, d->call.args[i], &d->copy[i]);
			d->e->path2 = d->copy[i].s;
			break;
		case ROLE_SOCKADDR:
			read_text_arg(d, (int)i, print_sockaddr_arg, &d->copy[i]);
			break;
		case ROLE_TIMEOUT_TS:
		case ROLE_TIMEOUT_TV:
			read_text_arg(d, (int)i, print_timeout_arg, &d->copy[i]);
			break;
		case ROLE_ARGV:
			read_text_arg(d, (int)i, print_argv_arg, &d->copy[i]);
			break;
		case ROLE_DATA_OUT:
		case ROLE_DATA_IN:
			read_data_arg(d, sc, i);
			break;
		default:	/* scalars are event/facts.c's; the structs are
				 * read by their decoders, which print them and
				 * hand the values to event/facts.h */
			break;
		}
	}
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

/* An array of strings (execve's argv) as strace prints it, kept as the
 * event's argv. */
static void print_strarray(struct dec *d, uint64_t addr)
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
 * Socket addresses, as strace's print_sockaddr: the family, then the
 * family's fields when the length holds them, else the raw sa_data.
 */
static void sa_raw(struct dec *d, const unsigned char *buf, size_t len)
{
	size_t off = offsetof(struct sockaddr, sa_data);

	strbuf_add(d->out, ", sa_data=", 10);
	dec_quote(d, buf + off, len > off ? len - off : 0, false);
}

static void print_ifindex(struct dec *d, unsigned idx)
{
	char name[IF_NAMESIZE + 1];

	if (idx && if_indextoname(idx, name)) {
		strbuf_add(d->out, "if_nametoindex(", 15);
		dec_quote(d, name, strlen(name), false);
		strbuf_addc(d->out, ')');
	} else {
		strbuf_addf(d->out, "%u", idx);
	}
}

/* The printers of the families event_sockaddr_facts reads; HOST is what
 * it made of the address. */
static void sa_in(struct dec *d, const unsigned char *buf, const char *host)
{
	struct sockaddr_in sin;

	memcpy(&sin, buf, sizeof(sin));
	strbuf_addf(d->out, ", sin_port=htons(%u), sin_addr=inet_addr(\"%s\")", ntohs(sin.sin_port), host);
}

/* The part of sockaddr_in6 before sin6_scope_id. */
#define SIN6_MIN_LEN offsetof(struct sockaddr_in6, sin6_scope_id)

static void sa_in6(struct dec *d, const unsigned char *buf, size_t len, const char *host)
{
	struct sockaddr_in6 sin6;

	memset(&sin6, 0, sizeof(sin6));
	memcpy(&sin6, buf, MIN(len, sizeof(sin6)));
	strbuf_addf(d->out, ", sin6_port=htons(%u), sin6_flowinfo=htonl(%u), inet_pton(AF_INET6, \"%s\", &sin6_addr)",
		    ntohs(sin6.sin6_port), ntohl(sin6.sin6_flowinfo), host);
	if (len > SIN6_MIN_LEN) {
		strbuf_add(d->out, ", sin6_scope_id=", 16);
		print_ifindex(d, sin6.sin6_scope_id);
	}
}

static void sa_un(struct dec *d, const unsigned char *buf, const char *host, size_t n)
{
	strbuf_add(d->out, ", sun_path=", 11);
	if (!buf[offsetof(struct sockaddr_un, sun_path)])
		strbuf_addc(d->out, '@');
	dec_quote(d, host, n, false);
}

static void sa_nl(struct dec *d, const unsigned char *buf)
{
	struct sockaddr_nl nl;

	memcpy(&nl, buf, sizeof(nl));
	if (nl.nl_pad)
		strbuf_addf(d->out, ", nl_pad=%#x", nl.nl_pad);
	strbuf_addf(d->out, ", nl_pid=%u, nl_groups=%08x", nl.nl_pid, nl.nl_groups);
}

void dec_sockaddr(struct dec *d, uint64_t addr, size_t len)
{
	/* One more than the largest address, so every printer can rely on
	 * zeroes past LEN. */
	union {
		struct sockaddr_storage ss;
		unsigned char b[sizeof(struct sockaddr_storage) + 1];
	} u;
	sa_family_t family;
	const size_t famlen = sizeof(family);
	struct rc_sockaddr none = { 0, -1, NULL, false };
	struct rc_sockaddr *sa = d->e ? &d->e->sa : &none;
	char host[RC_SOCKADDR_HOST_MAX];
	ssize_t hn;

	if (!addr) {
		strbuf_add(d->out, "NULL", 4);
		return;
	}
	if (len < famlen) {
		dec_ptr(d, addr);
		return;
	}
	if (len > sizeof(u.ss))
		len = sizeof(u.ss);
	memset(&u, 0, sizeof(u));
	if (mem_read(d->call.mem, addr, u.b, len) != (ssize_t)len) {
		dec_ptr(d, addr);
		return;
	}
	memcpy(&family, u.b, famlen);
	hn = event_sockaddr_facts(sa, u.b, len, host);
	if (hn >= 0)
		sa->host = dec_keep(d, host, (size_t)hn);
	strbuf_add(d->out, "{sa_family=", 11);
	const char *name = value_name(&rc_xlat_family, family);
	if (name)
		strbuf_adds(d->out, name);
	else
		strbuf_addf(d->out, "%#x /* AF_??? */", family);
	if (len > famlen) {
		if (hn >= 0 && family == AF_INET)
			sa_in(d, u.b, host);
		else if (hn >= 0 && family == AF_INET6)
			sa_in6(d, u.b, len, host);
		else if (hn >= 0 && family == AF_UNIX)
			sa_un(d, u.b, host, (size_t)hn);
		else if (family == AF_NETLINK && len >= sizeof(struct sockaddr_nl))
			sa_nl(d, u.b);
		else
			sa_raw(d, u.b, len);
	}
	strbuf_addc(d->out, '}');
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
