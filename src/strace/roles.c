#include "strace/roles.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <netinet/udp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "event/facts.h"
#include "event/syscalls.h"
#include "gen/tables.h"
#include "strace/decoration.h"
#include "util/strbuf.h"
#include "util/util.h"

/* Small constant tables that the generated ones do not cover: socket
 * option levels and names, IP protocols. The values come from the headers. */
struct named {
	const char *name;
	int value;
};

static const struct named sol_names[] = {
	{ "SOL_SOCKET", SOL_SOCKET }, { "SOL_IP", SOL_IP }, { "SOL_TCP", SOL_TCP },
	{ "SOL_UDP", SOL_UDP }, { "SOL_IPV6", SOL_IPV6 }, { "SOL_RAW", SOL_RAW },
	{ "IPPROTO_IP", IPPROTO_IP }, { "IPPROTO_TCP", IPPROTO_TCP },
	{ "IPPROTO_UDP", IPPROTO_UDP }, { "IPPROTO_IPV6", IPPROTO_IPV6 },
	{ "IPPROTO_ICMP", IPPROTO_ICMP }, { "IPPROTO_ICMPV6", IPPROTO_ICMPV6 },
	{ "IPPROTO_RAW", IPPROTO_RAW }, { "IPPROTO_SCTP", IPPROTO_SCTP },
	{ "IPPROTO_UDPLITE", IPPROTO_UDPLITE }, { "IPPROTO_MPTCP", 262 },
};

static const struct named so_names[] = {
	{ "SO_ERROR", SO_ERROR }, { "SO_REUSEADDR", SO_REUSEADDR }, { "SO_REUSEPORT", SO_REUSEPORT },
	{ "SO_KEEPALIVE", SO_KEEPALIVE }, { "SO_RCVBUF", SO_RCVBUF }, { "SO_SNDBUF", SO_SNDBUF },
	{ "SO_RCVTIMEO", SO_RCVTIMEO }, { "SO_SNDTIMEO", SO_SNDTIMEO }, { "SO_LINGER", SO_LINGER },
	{ "SO_BROADCAST", SO_BROADCAST }, { "SO_TYPE", SO_TYPE }, { "SO_DOMAIN", SO_DOMAIN },
	{ "SO_PROTOCOL", SO_PROTOCOL }, { "SO_PEERCRED", SO_PEERCRED },
	{ "SO_ACCEPTCONN", SO_ACCEPTCONN }, { "SO_PRIORITY", SO_PRIORITY },
	{ "SO_BINDTODEVICE", SO_BINDTODEVICE }, { "SO_PASSCRED", SO_PASSCRED },
	{ "SO_RCVLOWAT", SO_RCVLOWAT }, { "SO_SNDLOWAT", SO_SNDLOWAT },
	{ "SO_TIMESTAMP", SO_TIMESTAMP }, { "SO_MARK", SO_MARK },
	{ "TCP_NODELAY", TCP_NODELAY }, { "TCP_KEEPIDLE", TCP_KEEPIDLE },
	{ "TCP_KEEPINTVL", TCP_KEEPINTVL }, { "TCP_KEEPCNT", TCP_KEEPCNT },
	{ "TCP_CORK", TCP_CORK }, { "TCP_INFO", TCP_INFO }, { "TCP_USER_TIMEOUT", TCP_USER_TIMEOUT },
	{ "TCP_CONGESTION", TCP_CONGESTION }, { "TCP_FASTOPEN", TCP_FASTOPEN },
	{ "TCP_QUICKACK", TCP_QUICKACK }, { "TCP_SYNCNT", TCP_SYNCNT },
	{ "IP_TOS", IP_TOS }, { "IP_TTL", IP_TTL }, { "IP_RECVERR", IP_RECVERR },
	{ "IPV6_V6ONLY", IPV6_V6ONLY }, { "IPV6_RECVERR", IPV6_RECVERR },
};

static bool named_value(const struct named *tab, size_t n, struct span s, int *v)
{
	long long x;

	s = span_uncomment(span_trim(s));
	for (size_t i = 0; i < n; i++)
		if (span_eq(s, tab[i].name)) {
			*v = tab[i].value;
			return true;
		}
	if (parse_ll(s, &x)) {
		*v = (int)x;
		return true;
	}
	return false;
}

static const struct named mremap_names[] = {
	{ "MREMAP_MAYMOVE", MREMAP_MAYMOVE }, { "MREMAP_FIXED", MREMAP_FIXED },
#ifdef MREMAP_DONTUNMAP
	{ "MREMAP_DONTUNMAP", MREMAP_DONTUNMAP },
#endif
};

/* "A|B|0x4" against a small table. */
static long long named_flags(const struct named *tab, size_t n, struct span s)
{
	struct span t = span_uncomment(span_trim(s));
	const char *p = t.p, *end = span_end(t);
	long long sum = 0;

	while (p < end) {
		const char *q = memchr(p, '|', (size_t)(end - p));
		if (!q)
			q = end;
		int v;
		if (named_value(tab, n, span_make(p, (size_t)(q - p)), &v))
			sum |= v;
		p = q + 1;
	}
	return sum;
}

static long long flags_of(const struct rc_xlat *x, struct span s)
{
	return xlat_span_flags(x, s);
}

static long long num_or(struct span s, long long dflt)
{
	long long v;

	return parse_ll(s, &v) ? v : dflt;
}

static const char *path_of(struct span s, struct arena *a)
{
	const char *p;

	if (decode_string(s, a, (size_t)-1, &p, NULL, NULL))
		return p;
	return NULL;
}

/* What the decoration D that parse_fd found says; NULL for none. */
static const struct rc_fdfacts *shown(struct span d, struct arena *a)
{
	return d.p ? decoration_at(d.p, span_end(d), a) : NULL;
}

static void take_fd(struct rc_event *e, struct span s, struct arena *a)
{
	int fd;
	struct span d;

	if (parse_fd(s, &fd, &d)) {
		e->fd = fd;
		e->fd_shown = shown(d, a);
	}
}

static void take_dirfd(struct rc_event *e, struct span s, struct arena *a)
{
	int fd;
	struct span d;

	if (parse_fd(s, &fd, &d)) {
		e->dirfd = fd;
		e->dir_shown = shown(d, a);
	}
}

/* st_size=N or stx_size=N anywhere in a stat struct. */
static void take_size(struct rc_event *e, struct span s, const char *key)
{
	size_t klen = strlen(key);

	if (s.n < klen)
		return;
	for (size_t i = 0; i + klen <= s.n; i++) {
		if (s.p[i] == key[0] && memcmp(s.p + i, key, klen) == 0 &&
		    (i == 0 || s.p[i - 1] == '{' || s.p[i - 1] == ' ')) {
			long long v;
			if (parse_ll(span_make(s.p + i + klen, s.n - i - klen), &v))
				event_stat_size_facts(e, e->ret_known && e->ret == 0, v);
			return;
		}
	}
}

/* The bytes of the C-escaped string S appended to SB; *TRUNC set when
 * strace cut it at -s (or the line ended inside it). */
static void string_bytes(struct span s, struct strbuf *sb, bool *trunc)
{
	struct span t = span_trim(s);

	if (!t.n || t.p[0] != '"')
		return;
	/* Unescaped, a string is no longer than its text. */
	unsigned char *tmp = xmalloc(t.n);
	size_t n = 0;
	append_string(t, tmp, t.n, &n, trunc);
	strbuf_add(sb, tmp, n);
	free(tmp);
}

/* E keeps what the log showed of its data; TRUNC: strace's -s cut it,
 * how much is not known. */
static void keep_data(struct rc_event *e, const struct strbuf *sb, bool trunc, struct arena *a)
{
	unsigned char *buf = arena_alloc(a, RC_EVENT_DATA_MAX + 1);

	event_keep_ends(e, buf, RC_EVENT_DATA_MAX, (const unsigned char *)strbuf_str(sb), sb->len);
	buf[e->data_len] = '\0';
	e->data_truncated = trunc;
}

static void take_data(struct rc_event *e, struct span s, struct arena *a)
{
	struct span t = span_trim(s);
	struct strbuf sb = STRBUF_INIT;
	bool trunc = false;

	if (!t.n || t.p[0] != '"')
		return;
	string_bytes(t, &sb, &trunc);
	keep_data(e, &sb, trunc, a);
	strbuf_release(&sb);
}

/* [{iov_base="..", iov_len=N}, ...]: the data concatenated, the lengths summed. */
static void take_iov(struct rc_event *e, struct span s, struct arena *a, bool data)
{
	struct span in = inner(s), v;
	const char *p = in.p, *end = span_end(in);
	unsigned long long sum = 0;
	bool have_len = false, any = false, trunc = false;
	struct strbuf sb = STRBUF_INIT;

	while (p < end) {
		const char *q = item_end(p, end);
		struct span el = inner(span_make(p, (size_t)(q - p)));
		if (data && find_field(el, "iov_base", &v) && span_trim(v).n && span_trim(v).p[0] == '"') {
			string_bytes(v, &sb, &trunc);
			any = true;
		}
		long long n;
		if (find_field(el, "iov_len", &v) && parse_ll(v, &n) && n >= 0) {
			sum += (unsigned long long)n;
			have_len = true;
		}
		if (q >= end || *q != ',')
			break;
		p = q + 1;
	}
	if (have_len)
		e->len = sum;
	/* strace shows at most -s elements; a trailing "..." is the rest. */
	if (data && in.n >= 3 && memcmp(span_end(in) - 3, "...", 3) == 0)
		trunc = true;
	if (any)
		keep_data(e, &sb, trunc, a);
	strbuf_release(&sb);
}

/* A struct msghdr: the address in msg_name, the data in msg_iov. */
static void take_msghdr(struct rc_event *e, struct span s, struct arena *a, bool data)
{
	struct span in = inner(span_in(s)), v;

	if (find_field(in, "msg_name", &v))
		parse_sockaddr(v, a, &e->sa);
	if (find_field(in, "msg_iov", &v))
		take_iov(e, v, a, data);
}

/* The first message of a sendmmsg/recvmmsg vector. */
static void take_mmsg(struct rc_event *e, struct span s, struct arena *a, bool data)
{
	struct span in = inner(s), el[1], v;

	if (split_items(in, el, 1) == 1 && find_field(inner(el[0]), "msg_hdr", &v))
		take_msghdr(e, v, a, data);
}

/* [{fd=4, events=POLLOUT}, ...] */
static void take_pollfds(struct rc_event *e, struct span s)
{
	struct span in = inner(s), v;
	const char *p = in.p, *end = span_end(in);

	while (p < end) {
		const char *q = item_end(p, end);
		long long fd;
		if (find_field(inner(span_make(p, (size_t)(q - p))), "fd", &v) && parse_ll(v, &fd))
			event_add_fd(e, fd);
		if (q >= end || *q != ',')
			break;
		p = q + 1;
	}
}

/* A select fd set: [3 4] or [3</x> 4<pipe:[1]>]. */
static void take_fdset(struct rc_event *e, struct span s, struct arena *a)
{
	struct span in = inner(span_in(s));
	const char *p = in.p, *end = span_end(in);

	while (p < end) {
		while (p < end && *p == ' ')
			p++;
		const char *q = p;
		while (q < end && *q != ' ') {
			if (*q == '<')
				parse_decoration(q, end, a, &q);
			else
				q++;
		}
		long long fd;
		if (q > p && parse_ll(span_make(p, (size_t)(q - p)), &fd))
			event_add_fd(e, fd);
		p = q;
	}
}

/* The two fds pipe and socketpair wrote: "[3, 4]", or with -y
 * "[3<pipe:[123]>, 4<pipe:[123]>]". */
static void take_fd_pair(struct rc_event *e, struct span s)
{
	struct span items[2];
	size_t n = split_items(inner(s), items, 2);

	for (size_t i = 0; i < n; i++) {
		int fd;
		if (parse_fd(span_trim(items[i]), &fd, NULL))
			event_add_fd(e, fd);
	}
}

/* "[0, 4, 27]" or "[0, 4, ...]" (cut at -s): a group list into E's ids. */
static void take_ids(struct rc_event *e, struct span s)
{
	struct span items[RC_EVENT_MAX_IDS + 1];
	struct span t = span_trim(s);
	size_t n;

	if (!t.n || t.p[0] != '[')
		return;
	n = split_items(inner(t), items, ARRAY_SIZE(items));
	for (size_t i = 0; i < n; i++) {
		long long v;
		if (parse_ll(span_trim(items[i]), &v))
			event_add_id(e, v);
		else	/* "...": strace cut the list at -s */
			e->ids_truncated = true;
	}
}

/* One limit as strace prints it: "RLIM64_INFINITY" (RLIM_INFINITY on
 * 32-bit calls), "1024", "512*1024" (its shorthand for multiples of
 * 1024, which it may repeat: "1024*1024"). */
static bool rlim_value(struct span s, uint64_t *out)
{
	s = span_trim(s);
	if (span_eq(s, "RLIM64_INFINITY") || span_eq(s, "RLIM_INFINITY")) {
		*out = UINT64_MAX;
		return true;
	}
	const char *star = memchr(s.p, '*', s.n);
	unsigned long long v;
	if (!parse_ull(span_make(s.p, star ? (size_t)(star - s.p) : s.n), &v))
		return false;
	while (star) {
		struct span rest = span_make(star + 1, (size_t)(span_end(s) - star - 1));
		unsigned long long m;
		star = memchr(rest.p, '*', rest.n);
		if (!parse_ull(span_make(rest.p, star ? (size_t)(star - rest.p) : rest.n), &m) ||
		    (m && v > UINT64_MAX / m))
			return false;
		v *= m;
	}
	*out = v;
	return true;
}

/* {rlim_cur=..., rlim_max=...} into OUT[0], OUT[1]. */
static bool take_rlimit(struct span s, uint64_t out[2])
{
	struct span t = span_trim(s), f;

	if (!t.n || t.p[0] != '{')
		return false;
	return find_field(inner(t), "rlim_cur", &f) && rlim_value(f, &out[0]) &&
	       find_field(inner(t), "rlim_max", &f) && rlim_value(f, &out[1]);
}

/* epoll_wait's ready events: data={u32=FD, ...} as most programs store the fd. */
static void take_epoll_events(struct rc_event *e, struct span s)
{
	struct span in = inner(s), v, w;
	const char *p = in.p, *end = span_end(in);

	while (p < end) {
		const char *q = item_end(p, end);
		long long fd;
		if (find_field(inner(span_make(p, (size_t)(q - p))), "data", &v) &&
		    (find_field(inner(v), "u32", &w) || find_field(inner(v), "fd", &w)) &&
		    parse_ll(w, &fd))
			event_add_fd(e, fd);
		if (q >= end || *q != ',')
			break;
		p = q + 1;
	}
}

static void take_argv(struct rc_event *e, struct span s, struct arena *a)
{
	struct span in = inner(s);
	const char *p = in.p, *end = span_end(in);

	if (!in.n)
		return;
	while (p < end) {
		const char *q = item_end(p, end);
		struct span it = span_trim(span_make(p, (size_t)(q - p)));
		const char *str;
		if (span_eq(it, "...") || e->argc >= RC_EVENT_MAX_ARGV) {
			e->argv_truncated = true;
			break;
		}
		bool tr = false;
		if (decode_string(it, a, (size_t)-1, &str, NULL, &tr)) {
			/* argv[0] cut by -s is often the path being run, which
			 * the line shows whole (a pyenv shim runs python so). */
			if (!e->argc && tr && e->path && strncmp(e->path, str, strlen(str)) == 0)
				str = e->path;
			e->argv[e->argc++] = str;
		}
		if (q >= end || *q != ',')
			break;
		p = q + 1;
	}
}

/* CLONE_VM|CLONE_FS|...|SIGCHLD: the flag bits plus the exit signal in
 * the low byte, as the raw flags word holds it. */
static long long clone_flags(struct span s)
{
	struct span t = span_uncomment(span_trim(s));
	long long sum = 0, v;
	const char *p = t.p, *end = span_end(t);

	while (p < end) {
		const char *q = memchr(p, '|', (size_t)(end - p));
		if (!q)
			q = end;
		struct span tok = span_trim(span_make(p, (size_t)(q - p)));
		if (xlat_span(&rc_xlat_clone_flag, tok, &v) || xlat_span(&rc_xlat_signal, tok, &v) ||
		    parse_ll(tok, &v))
			sum |= v;
		p = q + 1;
	}
	return sum;
}

/* futex's op: the command, and whether its deadline is on the realtime
 * clock (FUTEX_CLOCK_REALTIME, which strace may print as a comment). */
static void take_futex_op(struct rc_event *e, struct span s, bool *realtime)
{
	long long op = flags_of(&rc_xlat_futex_op, s);
	struct span ops = span_uncomment(s);

	*realtime = (op & FUTEX_CLOCK_REALTIME) ||
		    (ops.n > 14 && memcmp(span_end(ops) - 14, "CLOCK_REALTIME", 14) == 0);
	e->futex_op = (int)(op & FUTEX_CMD_MASK);
}

static void take_futex_timeout(struct rc_event *e, struct span s, bool realtime)
{
	double sec;

	if (parse_timespec(s, &sec))
		event_futex_timeout_facts(e, e->futex_op, sec, realtime);
}

/* wait4's status, as strace decodes it: "[{WIFEXITED(s) && WEXITSTATUS(s) == 1}]",
 * "[{WIFSIGNALED(s) && WTERMSIG(s) == SIGKILL && WCOREDUMP(s)}]": the
 * status word those names test, for the values a status can hold. */
static void take_wstatus(struct rc_event *e, struct span s)
{
	const char *p = memmem(s.p, s.n, "WEXITSTATUS(s) == ", 18);
	if (p) {
		long long v;
		const char *q = p + 18;
		if (parse_ll(span_make(q, (size_t)(span_end(s) - q)), &v) && v >= 0 && v <= 0xff)
			event_wait_status_facts(e, W_EXITCODE((int)v, 0));
		return;
	}
	p = memmem(s.p, s.n, "WTERMSIG(s) == ", 15);
	if (p) {
		const char *q = p + 15, *end = span_end(s);
		const char *r = q;
		while (r < end && (r[0] == '_' || (r[0] >= 'A' && r[0] <= 'Z') || (r[0] >= '0' && r[0] <= '9')))
			r++;
		long long sig;
		if ((xlat_value(&rc_xlat_signal, q, (size_t)(r - q), &sig) ||
		     parse_ll(span_make(q, (size_t)(r - q)), &sig)) && sig > 0 && sig < 0x7f)
			event_wait_status_facts(e, W_EXITCODE(0, (int)sig) |
						   (memmem(s.p, s.n, "WCOREDUMP", 9) ? WCOREFLAG : 0));
	}
}

static struct span drop_arg_name(struct span s)
{
	size_t i = 0;

	if (!s.n || !((s.p[0] >= 'a' && s.p[0] <= 'z') || s.p[0] == '_'))
		return s;
	while (i < s.n && ((s.p[i] >= 'a' && s.p[i] <= 'z') || (s.p[i] >= '0' && s.p[i] <= '9') ||
			   s.p[i] == '_'))
		i++;
	if (i + 1 < s.n && s.p[i] == '=' && s.p[i + 1] != '=')
		return span_make(s.p + i + 1, s.n - i - 1);
	return s;
}

/* The arguments of one call being read. OK: the call worked (buffers
 * the kernel fills hold something only then). */
struct role_ctx {
	const struct span *a;	/* every argument read */
	size_t n;
	bool ok;
};

/* What argument I's text says as the role SC gives it, into E. REALTIME
 * carries futex's clock from its op to its timeout. */
static void take_role(struct rc_event *e, const struct rc_syscall *sc, const struct role_ctx *c, size_t i,
		      struct arena *ar, bool *realtime)
{
	struct span s = c->a[i];
	long long v;
	unsigned long long u;
	int fd, x;
	struct span f;

	switch ((enum rc_sc_role)sc->roles[i]) {
	case ROLE_NONE:
	case ROLE_READ_BUF:
	case ROLE_COUNT:
		break;
	case ROLE_FD:
		take_fd(e, s, ar);
		break;
	case ROLE_FD2:
		if (parse_fd(s, &fd, NULL))
			e->fd2 = fd;
		break;
	case ROLE_DIRFD:
		take_dirfd(e, s, ar);
		break;
	case ROLE_PATH:
		e->path = path_of(s, ar);
		break;
	case ROLE_PATH2:
		e->path2 = path_of(s, ar);
		break;
	case ROLE_OPEN_FLAGS:
	case ROLE_PIPE_FLAGS:
		e->flags = flags_of(&rc_xlat_open_flag, s);
		break;
	case ROLE_OPEN_HOW: {
		struct span how = inner(s);
		unsigned long long flags = (unsigned long long)e->flags, mode = 0;
		if (find_field(how, "flags", &f))
			flags = (unsigned long long)flags_of(&rc_xlat_open_flag, f);
		if (find_field(how, "mode", &f))
			mode = (unsigned long long)num_or(f, 0);
		event_open_how_facts(e, flags, mode);
		break;
	}
	case ROLE_MODE:
		e->mode = num_or(s, 0);
		break;
	case ROLE_LEN:
		if (parse_ll(s, &v) && v >= 0)
			e->len = (uint64_t)v;
		break;
	case ROLE_MAP_LEN:
		if (parse_ull(s, &u))
			e->len = u;
		break;
	case ROLE_OFFSET:
		e->offset = num_or(s, -1);
		break;
	case ROLE_ADDR:
		if (parse_ull(s, &u))
			e->addr = u;
		break;
	case ROLE_PROT:
		e->mode = flags_of(&rc_xlat_prot_flag, s);
		break;
	case ROLE_MMAP_FLAGS:
		e->flags = flags_of(&rc_xlat_mmap_flag, s);
		break;
	case ROLE_MREMAP_FLAGS:
		e->flags = named_flags(mremap_names, ARRAY_SIZE(mremap_names), s);
		break;
	case ROLE_STAT_BUF:
		take_size(e, s, "st_size=");
		break;
	case ROLE_STATX_BUF:
		take_size(e, s, "stx_size=");
		break;
	case ROLE_ARGV:
		take_argv(e, s, ar);
		break;
	case ROLE_DATA_OUT:
		take_data(e, s, ar);
		break;
	case ROLE_DATA_IN:
		if (c->ok)
			take_data(e, s, ar);
		break;
	case ROLE_IOV_OUT:
	case ROLE_IOV_IN:
		take_iov(e, s, ar, sc->roles[i] == ROLE_IOV_OUT);
		break;
	case ROLE_MSGHDR_OUT:
	case ROLE_MSGHDR_IN:
		take_msghdr(e, s, ar, sc->roles[i] == ROLE_MSGHDR_OUT || c->ok);
		break;
	case ROLE_MMSGHDR_OUT:
	case ROLE_MMSGHDR_IN:
		take_mmsg(e, s, ar, sc->roles[i] == ROLE_MMSGHDR_OUT || c->ok);
		break;
	case ROLE_SOCKADDR:
	case ROLE_SOCKADDR_OUT:
		parse_sockaddr(s, ar, &e->sa);
		break;
	case ROLE_FAMILY:
		if (xlat_span(&rc_xlat_family, s, &v) || parse_ll(s, &v))
			e->sa.family = (int)v;
		break;
	case ROLE_SOCK_TYPE:
		e->flags = flags_of(&rc_xlat_sock_type, s);
		break;
	case ROLE_PROTOCOL:
		if (named_value(sol_names, ARRAY_SIZE(sol_names), s, &x))
			e->mode = x;
		break;
	case ROLE_FD_PAIR:
		if (c->ok)
			take_fd_pair(e, s);
		break;
	case ROLE_SOCKOPT_LEVEL:
		if (named_value(sol_names, ARRAY_SIZE(sol_names), s, &x))
			e->sockopt_level = x;
		break;
	case ROLE_SOCKOPT_NAME:
		if (named_value(so_names, ARRAY_SIZE(so_names), s, &x))
			e->sockopt_name = x;
		break;
	case ROLE_SOCKOPT_VALUE: {
		struct span val = span_uncomment(span_out(s));
		if (e->sockopt_name == SO_ERROR && errno_span(val, &x))
			e->sockopt_value = x;
		else if (parse_ll(val, &v))
			e->sockopt_value = (int)v;
		break;
	}
	case ROLE_POLL_FDS:
		take_pollfds(e, s);
		break;
	case ROLE_FD_SET:
		take_fdset(e, s, ar);
		break;
	case ROLE_EPOLL_EVENTS:
		if (c->ok)
			take_epoll_events(e, s);
		break;
	case ROLE_TIMEOUT_MS:
		if (parse_ll(s, &v) && v >= 0)
			e->timeout_ms = v;
		break;
	case ROLE_TIMEOUT_TS:
	case ROLE_TIMEOUT_TV:
		if (parse_timeout_ms(s, &v))
			e->timeout_ms = v;
		break;
	case ROLE_FUTEX_OP:
		take_futex_op(e, s, realtime);
		break;
	case ROLE_FUTEX_TIMEOUT:
		take_futex_timeout(e, s, *realtime);
		break;
	case ROLE_FCNTL_CMD:
		if (span_eq(s, "F_DUPFD"))
			event_fcntl_dup_facts(e, F_DUPFD, c->ok, e->ret);
		else if (span_eq(s, "F_DUPFD_CLOEXEC"))
			event_fcntl_dup_facts(e, F_DUPFD_CLOEXEC, c->ok, e->ret);
		break;
	case ROLE_FCNTL_ARG: {
		/* A record lock asked for: the lock facts. */
		long long cmd, type;
		int ci = syscall_arg(sc, ROLE_FCNTL_CMD);
		if (ci >= 0 && (xlat_span(&rc_xlat_lock_cmd, c->a[ci], &cmd) || parse_ll(c->a[ci], &cmd)) &&
		    find_field(inner(span_in(s)), "l_type", &f) &&
		    (xlat_span(&rc_xlat_lock_type, f, &type) || parse_ll(f, &type)))
			event_fcntl_lock_facts(e, cmd, type);
		break;
	}
	case ROLE_FLOCK_OP:
		event_flock_facts(e, parse_ll(s, &v) ? v : flags_of(&rc_xlat_flock_op, s));
		break;
	case ROLE_CLONE_FLAGS:
		/* By name, wherever strace put it. */
		for (size_t k = 0; k < c->n; k++) {
			if (span_starts(c->a[k], "flags=")) {
				e->flags = clone_flags(span_make(c->a[k].p + 6, c->a[k].n - 6));
				break;
			}
		}
		break;
	case ROLE_CLONE_ARGS: {
		unsigned long long flags = (unsigned long long)e->flags, sig = 0;
		if (find_field(inner(span_in(s)), "flags", &f))
			flags = (unsigned long long)clone_flags(f);
		if (find_field(inner(span_in(s)), "exit_signal", &f) &&
		    (xlat_span(&rc_xlat_signal, f, &v) || parse_ll(f, &v)))
			sig = (unsigned long long)v;
		event_clone_args_facts(e, flags, sig);
		break;
	}
	case ROLE_WSTATUS:
		take_wstatus(e, s);
		break;
	case ROLE_KILL_PID:
		if (i + 1 < c->n && parse_ll(s, &v) && v >= INT_MIN && v <= INT_MAX) {
			e->has_kill_target = true;
			e->kill_target = (int)v;
		}
		break;
	case ROLE_SIGNAL:
		if ((xlat_span(&rc_xlat_signal, s, &v) || parse_ll(s, &v)) && v >= 0 && v < 256)
			e->signo = (int)v;
		break;
	case ROLE_EXIT_CODE:
		if (parse_ll(s, &v))
			e->exit_code = (int)v;
		break;
	case ROLE_ID:
		event_add_id(e, parse_ll(s, &v) ? v : -1);
		break;
	case ROLE_GROUPS:
		take_ids(e, s);
		break;
	case ROLE_GROUPS_IN:
		/* getgroups writes its list: only a call that worked has one. */
		if (c->ok)
			take_ids(e, s);
		break;
	case ROLE_RLIMIT_PID:
		e->rlimit_pid = (int)num_or(s, 0);
		break;
	case ROLE_RESOURCE:
		v = flags_of(&rc_xlat_resources, s);
		e->resource = v >= 0 && v < 64 ? (int)v : -1;
		break;
	case ROLE_RLIMIT_NEW:
	case ROLE_RLIMIT_OLD: {
		/* What a call returned is there only when it worked. */
		bool in_force = sc->roles[i] == ROLE_RLIMIT_OLD;
		uint64_t lim[2];
		if ((!in_force || c->ok) && take_rlimit(s, lim))
			event_rlimit_facts(e, in_force, lim);
		break;
	}
	}
}

static void facts_fill(struct rc_event *e, const struct rc_syscall *sc, const struct call_text *ct,
		       struct arena *ar)
{
	struct span a[8];
	struct role_ctx c;
	bool clone_names = false, realtime = false;

	if (!sc || !sc->nroles)
		return;
	/* strace prints clone's arguments by name, in an order of its own:
	 * all of them are looked at. Other calls are read only as far as
	 * their last role: the splitter stops there instead of scanning the
	 * rest of the line. */
	clone_names = syscall_has_role(sc, ROLE_CLONE_FLAGS);
	c.n = split_items(ct->args, a, clone_names ? ARRAY_SIZE(a) : MIN(ARRAY_SIZE(a), (size_t)sc->nroles));
	c.a = a;
	c.ok = e->ret_known && e->err == 0;
	/* strace -N (6.16+) names every argument: "openat(dirfd=AT_FDCWD,
	 * pathname=...)". clone prints names anyway and is read by them. */
	if (!clone_names)
		for (size_t i = 0; i < c.n; i++)
			a[i] = drop_arg_name(a[i]);
	for (size_t i = 0; i < c.n && i < RC_SC_MAX_ARGS; i++)
		take_role(e, sc, &c, i, ar, &realtime);

	/* What the return value says. */
	if (sc->classes & CL_NEW_FD)
		e->fd_shown = ct->ret.p ? decoration_at(ct->ret.p, span_end(ct->ret), ar) : NULL;
	event_call_facts(e, sc, e->ret_known, e->ret, e->err);

	/* A -yy socket decoration names the peer when the arguments do not. */
	const char *shown = e->fd_shown ? e->fd_shown->desc : NULL;
	if (e->sa.family == 0 && shown && (shown[0] == 'T' || shown[0] == 'U'))
		parse_socket_hint(shown, ar, &e->sa);
}

void call_facts(struct rc_event *e, const struct rc_syscall *sc, const struct call_text *ct, bool elided,
		struct arena *a)
{
	facts_fill(e, sc, ct, a);
	if (elided && e->data)
		e->data_truncated = true;
}
