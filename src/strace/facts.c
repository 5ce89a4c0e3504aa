#include "strace/facts.h"

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

#include "gen/tables.h"
#include "util/strbuf.h"
#include "util/util.h"

enum decoder {
	D_NONE,
	D_OPEN,			/* open(path, flags, mode) */
	D_OPENAT,		/* openat(dirfd, path, flags, mode) */
	D_OPENAT2,		/* openat2(dirfd, path, {flags=, mode=}, size) */
	D_CREAT,		/* creat(path, mode) */
	D_PATH,			/* f(path, ...) */
	D_PATH_MODE,		/* f(path, mode) */
	D_AT_PATH,		/* f(dirfd, path, ...) */
	D_AT_PATH_MODE,		/* f(dirfd, path, mode) */
	D_STAT,			/* stat(path, {st_size=}) */
	D_FSTATAT,		/* newfstatat(dirfd, path, {st_size=}, flags) */
	D_STATX,		/* statx(dirfd, path, flags, mask, {stx_size=}) */
	D_FSTAT,		/* fstat(fd, {st_size=}) */
	D_PATH2,		/* rename(old, new), link */
	D_SYMLINK,		/* symlink(target, linkpath) */
	D_SYMLINKAT,		/* symlinkat(target, newdirfd, linkpath) */
	D_AT_PATH2,		/* renameat(olddirfd, old, newdirfd, new), linkat */
	D_EXECVE,		/* execve(path, argv, envp) */
	D_EXECVEAT,		/* execveat(dirfd, path, argv, envp, flags) */
	D_TRUNCATE,		/* truncate(path, len) */
	D_FD_PATH,		/* inotify_add_watch(fd, path, mask) */
	D_FD,			/* f(fd, ...) */
	D_RW,			/* read/write(fd, buf, count) */
	D_PRW,			/* pread64/pwrite64(fd, buf, count, offset) */
	D_RWV,			/* readv/writev(fd, iov, iovcnt) */
	D_PRWV,			/* preadv/pwritev(fd, iov, iovcnt, offset) */
	D_LSEEK,		/* lseek(fd, offset, whence) */
	D_FTRUNCATE,		/* ftruncate(fd, len) */
	D_FALLOCATE,		/* fallocate(fd, mode, offset, len) */
	D_FADVISE,		/* fadvise64(fd, offset, len, advice) */
	D_DUP2,			/* dup2/dup3(oldfd, newfd) */
	D_FCNTL,		/* fcntl(fd, cmd, ...) */
	D_SENDFILE,		/* sendfile(out_fd, in_fd, offset, count) */
	D_COPY_RANGE,		/* copy_file_range/splice(in, off, out, off, len) */
	D_MMAP,
	D_MUNMAP,		/* munmap(addr, len) */
	D_MREMAP,		/* mremap(old, oldlen, newlen, flags) */
	D_BRK,
	D_FUTEX,
	D_SOCKET,
	D_SOCKETPAIR,
	D_PIPE,			/* pipe([3, 4]), pipe2([3, 4], flags) */
	D_CONNECT,		/* connect/bind(fd, sa, len) */
	D_ACCEPT,		/* accept/accept4/getpeername/getsockname(fd, sa, len) */
	D_SENDTO,		/* sendto(fd, buf, len, flags, sa, alen) */
	D_RECVFROM,
	D_SEND,			/* send/recv(fd, buf, len, flags) */
	D_RECV,
	D_SENDMSG,		/* sendmsg/recvmsg(fd, msg, flags) */
	D_RECVMSG,
	D_SENDMMSG,		/* sendmmsg/recvmmsg(fd, msgvec, vlen, flags) */
	D_RECVMMSG,
	D_GETSOCKOPT,		/* getsockopt/setsockopt(fd, level, name, val, len) */
	D_POLL,			/* poll(fds, nfds, timeout) */
	D_PPOLL,		/* ppoll(fds, nfds, timespec, ...) */
	D_SELECT,		/* select(nfds, r, w, e, timeval) */
	D_PSELECT,		/* pselect6(nfds, r, w, e, timespec, ...) */
	D_EPOLL_WAIT,		/* epoll_wait/epoll_pwait(epfd, events, max, timeout) */
	D_EPOLL_PWAIT2,		/* epoll_pwait2(epfd, events, max, timespec, ...) */
	D_CLONE,
	D_CLONE3,
	D_WAIT4,		/* wait4(pid, status, options, rusage) */
	D_KILL,			/* kill(pid, sig), tkill(tid, sig) */
	D_FLOCK,		/* flock(fd, op) */
	D_TGKILL,		/* tgkill(tgid, tid, sig) */
	D_EXIT,			/* exit/exit_group(code) */
	D_IDS,			/* setuid/setresuid...(id, ...) */
	D_GROUPS,		/* setgroups/getgroups(n, [gid, ...]) */
};

/* How many leading arguments each decoder reads: the splitter stops there
 * instead of scanning the rest of the line. */
static const unsigned char decoder_nargs[] = {
	[D_NONE] = 0, [D_OPEN] = 3, [D_OPENAT] = 4, [D_OPENAT2] = 3, [D_CREAT] = 2,
	[D_PATH] = 1, [D_PATH_MODE] = 2, [D_AT_PATH] = 2, [D_AT_PATH_MODE] = 3,
	[D_STAT] = 2, [D_FSTATAT] = 3, [D_STATX] = 5, [D_FSTAT] = 2, [D_PATH2] = 2,
	[D_SYMLINK] = 2, [D_SYMLINKAT] = 3, [D_AT_PATH2] = 4, [D_EXECVE] = 2,
	[D_EXECVEAT] = 3, [D_TRUNCATE] = 2, [D_FD_PATH] = 2, [D_FD] = 1, [D_RW] = 3,
	[D_PRW] = 4, [D_RWV] = 2, [D_PRWV] = 4, [D_LSEEK] = 2, [D_FTRUNCATE] = 2,
	[D_FALLOCATE] = 4, [D_FADVISE] = 3, [D_DUP2] = 2, [D_FCNTL] = 3, [D_SENDFILE] = 4,
	[D_COPY_RANGE] = 5, [D_MMAP] = 6, [D_MUNMAP] = 2, [D_MREMAP] = 4, [D_BRK] = 1,
	[D_FUTEX] = 4, [D_SOCKET] = 3, [D_SOCKETPAIR] = 4, [D_PIPE] = 2, [D_CONNECT] = 2,
	[D_ACCEPT] = 2, [D_SENDTO] = 5, [D_RECVFROM] = 5, [D_SEND] = 3, [D_RECV] = 3,
	[D_SENDMSG] = 2, [D_RECVMSG] = 2, [D_SENDMMSG] = 2, [D_RECVMMSG] = 2,
	[D_GETSOCKOPT] = 4, [D_POLL] = 3, [D_PPOLL] = 3, [D_SELECT] = 5,
	[D_PSELECT] = 5, [D_EPOLL_WAIT] = 4, [D_EPOLL_PWAIT2] = 4, [D_CLONE] = 8,
	[D_CLONE3] = 1, [D_WAIT4] = 2, [D_EXIT] = 1, [D_IDS] = 3, [D_GROUPS] = 2,
	[D_KILL] = 2, [D_TGKILL] = 3, [D_FLOCK] = 2,
};

static const struct {
	const char *name;
	enum decoder dec;
} decoded[] = {
	{ "open", D_OPEN }, { "openat", D_OPENAT }, { "openat2", D_OPENAT2 },
	{ "creat", D_CREAT },
	{ "stat", D_STAT }, { "lstat", D_STAT }, { "stat64", D_STAT }, { "lstat64", D_STAT },
	{ "oldstat", D_STAT }, { "oldlstat", D_STAT },
	{ "newfstatat", D_FSTATAT }, { "fstatat64", D_FSTATAT }, { "statx", D_STATX },
	{ "fstat", D_FSTAT }, { "fstat64", D_FSTAT }, { "oldfstat", D_FSTAT },
	{ "access", D_PATH_MODE }, { "faccessat", D_AT_PATH_MODE }, { "faccessat2", D_AT_PATH_MODE },
	{ "readlink", D_PATH }, { "readlinkat", D_AT_PATH },
	{ "execve", D_EXECVE }, { "execveat", D_EXECVEAT },
	{ "chdir", D_PATH }, { "chroot", D_PATH }, { "rmdir", D_PATH }, { "unlink", D_PATH },
	{ "mkdir", D_PATH_MODE }, { "mkdirat", D_AT_PATH_MODE }, { "unlinkat", D_AT_PATH },
	{ "rename", D_PATH2 }, { "renameat", D_AT_PATH2 }, { "renameat2", D_AT_PATH2 },
	{ "link", D_PATH2 }, { "linkat", D_AT_PATH2 }, { "pivot_root", D_PATH2 },
	{ "symlink", D_SYMLINK }, { "symlinkat", D_SYMLINKAT },
	{ "chmod", D_PATH_MODE }, { "fchmodat", D_AT_PATH_MODE }, { "fchmodat2", D_AT_PATH_MODE },
	{ "chown", D_PATH }, { "lchown", D_PATH }, { "fchownat", D_AT_PATH },
	{ "truncate", D_TRUNCATE }, { "truncate64", D_TRUNCATE },
	{ "statfs", D_PATH }, { "statfs64", D_PATH }, { "utimensat", D_AT_PATH },
	{ "utime", D_PATH }, { "utimes", D_PATH }, { "futimesat", D_AT_PATH },
	{ "mknod", D_PATH_MODE }, { "mknodat", D_AT_PATH_MODE },
	{ "getxattr", D_PATH }, { "lgetxattr", D_PATH }, { "setxattr", D_PATH },
	{ "lsetxattr", D_PATH }, { "listxattr", D_PATH }, { "llistxattr", D_PATH },
	{ "removexattr", D_PATH }, { "lremovexattr", D_PATH },
	{ "name_to_handle_at", D_AT_PATH }, { "uselib", D_PATH }, { "acct", D_PATH },
	{ "swapon", D_PATH }, { "swapoff", D_PATH }, { "umount2", D_PATH },
	{ "inotify_add_watch", D_FD_PATH },
	{ "read", D_RW }, { "write", D_RW }, { "pread64", D_PRW }, { "pwrite64", D_PRW },
	{ "readv", D_RWV }, { "writev", D_RWV },
	{ "preadv", D_PRWV }, { "pwritev", D_PRWV }, { "preadv2", D_PRWV }, { "pwritev2", D_PRWV },
	{ "close", D_FD }, { "fsync", D_FD }, { "fdatasync", D_FD }, { "syncfs", D_FD },
	{ "getdents", D_FD }, { "getdents64", D_FD }, { "ioctl", D_FD }, { "fcntl", D_FCNTL },
	{ "fcntl64", D_FCNTL }, { "flock", D_FLOCK }, { "fchdir", D_FD }, { "fchmod", D_FD },
	{ "fchown", D_FD }, { "fstatfs", D_FD }, { "fstatfs64", D_FD }, { "listen", D_FD },
	{ "shutdown", D_FD }, { "dup", D_FD }, { "fgetxattr", D_FD }, { "fsetxattr", D_FD },
	{ "flistxattr", D_FD }, { "epoll_ctl", D_FD }, { "inotify_rm_watch", D_FD },
	{ "sync_file_range", D_FD }, { "readahead", D_FD }, { "fchmodat", D_AT_PATH_MODE },
	{ "lseek", D_LSEEK }, { "_llseek", D_FD },
	{ "ftruncate", D_FTRUNCATE }, { "ftruncate64", D_FTRUNCATE },
	{ "fallocate", D_FALLOCATE }, { "fadvise64", D_FADVISE },
	{ "dup2", D_DUP2 }, { "dup3", D_DUP2 },
	{ "sendfile", D_SENDFILE }, { "sendfile64", D_SENDFILE },
	{ "copy_file_range", D_COPY_RANGE }, { "splice", D_COPY_RANGE },
	{ "mmap", D_MMAP }, { "mmap2", D_MMAP }, { "munmap", D_MUNMAP }, { "mremap", D_MREMAP },
	{ "brk", D_BRK }, { "futex", D_FUTEX }, { "futex_time64", D_FUTEX },
	{ "socket", D_SOCKET }, { "socketpair", D_SOCKETPAIR },
	{ "pipe", D_PIPE }, { "pipe2", D_PIPE },
	{ "connect", D_CONNECT }, { "bind", D_CONNECT },
	{ "accept", D_ACCEPT }, { "accept4", D_ACCEPT },
	{ "getpeername", D_ACCEPT }, { "getsockname", D_ACCEPT },
	{ "sendto", D_SENDTO }, { "recvfrom", D_RECVFROM }, { "send", D_SEND }, { "recv", D_RECV },
	{ "sendmsg", D_SENDMSG }, { "recvmsg", D_RECVMSG },
	{ "sendmmsg", D_SENDMMSG }, { "recvmmsg", D_RECVMMSG }, { "recvmmsg_time64", D_RECVMMSG },
	{ "getsockopt", D_GETSOCKOPT }, { "setsockopt", D_GETSOCKOPT },
	{ "poll", D_POLL }, { "ppoll", D_PPOLL }, { "ppoll_time64", D_PPOLL },
	{ "select", D_SELECT }, { "_newselect", D_SELECT },
	{ "pselect6", D_PSELECT }, { "pselect6_time64", D_PSELECT },
	{ "epoll_wait", D_EPOLL_WAIT }, { "epoll_pwait", D_EPOLL_WAIT },
	{ "epoll_pwait2", D_EPOLL_PWAIT2 },
	{ "clone", D_CLONE }, { "clone2", D_CLONE }, { "clone3", D_CLONE3 },
	{ "wait4", D_WAIT4 }, { "exit", D_EXIT }, { "exit_group", D_EXIT },
	{ "kill", D_KILL }, { "tkill", D_KILL }, { "tgkill", D_TGKILL },
	{ "setuid", D_IDS }, { "setgid", D_IDS }, { "setreuid", D_IDS }, { "setregid", D_IDS },
	{ "setresuid", D_IDS }, { "setresgid", D_IDS }, { "setfsuid", D_IDS }, { "setfsgid", D_IDS },
	{ "setgroups", D_GROUPS }, { "getgroups", D_GROUPS },
};

static unsigned long long name_hash(const char *s, size_t n)
{
	unsigned long long h = 1469598103934665603ULL;

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

static void table_put(struct sc_table *t, const char *name, long nr, enum decoder dec)
{
	size_t n = strlen(name);
	size_t i = name_hash(name, n) & t->mask;

	while (t->slots[i]) {
		struct sc_info *r = &t->rows[t->slots[i] - 1];
		if (strcmp(r->name, name) == 0) {
			if (dec != D_NONE)
				r->dec = (unsigned char)dec;
			if (nr >= 0)
				r->nr = nr;
			return;
		}
		i = (i + 1) & t->mask;
	}
	struct sc_info *r = &t->rows[t->nrows++];
	r->name = name;
	r->len = n;
	r->nr = nr;
	r->dec = (unsigned char)dec;
	t->slots[i] = (unsigned)t->nrows;
}

void sc_table_init(struct sc_table *t)
{
	size_t want = rc_xlat_syscall.count + ARRAY_SIZE(decoded);
	size_t size = 64;

	while (size < want * 3)
		size *= 2;
	t->rows = xcalloc(want, sizeof(*t->rows));
	t->nrows = 0;
	t->slots = xcalloc(size, sizeof(*t->slots));
	t->mask = size - 1;
	for (size_t i = 0; i < rc_xlat_syscall.count; i++)
		table_put(t, rc_xlat_syscall.rows[i].name, (long)rc_xlat_syscall.rows[i].value, D_NONE);
	for (size_t i = 0; i < ARRAY_SIZE(decoded); i++)
		table_put(t, decoded[i].name, -1, decoded[i].dec);
}

void sc_table_release(struct sc_table *t)
{
	free(t->rows);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

const struct sc_info *sc_table_find(const struct sc_table *t, const char *name, size_t len)
{
	size_t i = name_hash(name, len) & t->mask;

	while (t->slots[i]) {
		const struct sc_info *r = &t->rows[t->slots[i] - 1];
		if (r->len == len && memcmp(r->name, name, len) == 0)
			return r;
		i = (i + 1) & t->mask;
	}
	return NULL;
}

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

static void take_fd(struct rc_event *e, struct span s, struct arena *a)
{
	int fd;
	const char *hint;

	if (parse_fd(s, a, &fd, &hint)) {
		e->fd = fd;
		e->fd_hint = hint;
	}
}

static void take_dirfd(struct rc_event *e, struct span s, struct arena *a)
{
	int fd;
	const char *hint;

	if (parse_fd(s, a, &fd, &hint)) {
		e->dirfd = fd;
		e->dir_hint = hint;
	}
}

/* st_size=N or stx_size=N anywhere in a stat struct, when the call worked. */
static void take_size(struct rc_event *e, struct span s, const char *key)
{
	size_t klen = strlen(key);

	if (!e->ret_known || e->ret != 0 || s.n < klen)
		return;
	for (size_t i = 0; i + klen <= s.n; i++) {
		if (s.p[i] == key[0] && memcmp(s.p + i, key, klen) == 0 &&
		    (i == 0 || s.p[i - 1] == '{' || s.p[i - 1] == ' ')) {
			long long v;
			if (parse_ll(span_make(s.p + i + klen, s.n - i - klen), &v))
				e->st_size = v;
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

/* E keeps what the log showed of its data: all of it, or its head and
 * its tail (event.h). */
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
static void take_fd_pair(struct rc_event *e, struct span s, struct arena *a)
{
	struct span items[2];
	size_t n = split_items(inner(s), items, 2);

	for (size_t i = 0; i < n; i++) {
		int fd;
		const char *hint;
		if (parse_fd(span_trim(items[i]), a, &fd, &hint))
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
		if (e->nids < RC_EVENT_MAX_IDS && parse_ll(span_trim(items[i]), &v))
			e->ids[e->nids++] = v;
		else
			e->ids_truncated = true;
	}
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
		if (decode_string(it, a, (size_t)-1, &str, NULL, &tr))
			e->argv[e->argc++] = str;
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

static void decode_futex(struct rc_event *e, struct span *a, size_t n)
{
	unsigned long long addr;
	long long op;

	if (n >= 1 && parse_ull(a[0], &addr))
		e->addr = addr;
	if (n < 2)
		return;
	op = flags_of(&rc_xlat_futex_op, a[1]);
	struct span ops = span_uncomment(a[1]);
	bool realtime = (op & FUTEX_CLOCK_REALTIME) ||
			(ops.n > 14 && memcmp(span_end(ops) - 14, "CLOCK_REALTIME", 14) == 0);
	e->futex_op = (int)(op & FUTEX_CMD_MASK);
	if (n < 4)
		return;
	double sec;
	if (!parse_timespec(a[3], &sec))
		return;
	switch (e->futex_op) {
	case FUTEX_WAIT:
		e->timeout_ms = event_secs_to_ms(sec);
		break;
	case FUTEX_WAIT_BITSET:
	case FUTEX_LOCK_PI:
	case FUTEX_WAIT_REQUEUE_PI:
#ifdef FUTEX_LOCK_PI2
	case FUTEX_LOCK_PI2:
#endif
		/* A monotonic deadline cannot be related to the log's clock. */
		if (realtime || e->futex_op == FUTEX_LOCK_PI)
			e->timeout_ms = event_deadline_ms(e, sec);
		break;
	default:
		break;
	}
}

static void decode_wait4(struct rc_event *e, struct span *a, size_t n)
{
	if (n < 2)
		return;
	const char *p = memmem(a[1].p, a[1].n, "WEXITSTATUS(s) == ", 18);
	if (p) {
		long long v;
		const char *q = p + 18;
		if (parse_ll(span_make(q, (size_t)(span_end(a[1]) - q)), &v))
			e->exit_code = (int)v;
		return;
	}
	p = memmem(a[1].p, a[1].n, "WTERMSIG(s) == ", 15);
	if (p) {
		const char *q = p + 15, *end = span_end(a[1]);
		const char *r = q;
		while (r < end && (r[0] == '_' || (r[0] >= 'A' && r[0] <= 'Z') || (r[0] >= '0' && r[0] <= '9')))
			r++;
		long long sig;
		if (xlat_value(&rc_xlat_signal, q, (size_t)(r - q), &sig) ||
		    parse_ll(span_make(q, (size_t)(r - q)), &sig))
			e->signo = (int)sig;
		e->core_dumped = memmem(a[1].p, a[1].n, "WCOREDUMP", 9) != NULL;
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

/* DIRFD at A[I] and the path after it, the *at calls' first two arguments. */
static void take_at_path(struct rc_event *e, const struct span *a, size_t n, size_t i, struct arena *ar)
{
	if (n > i)
		take_dirfd(e, a[i], ar);
	if (n > i + 1)
		e->path = path_of(a[i + 1], ar);
}

/* newfstatat(3, "", ..., AT_EMPTY_PATH) and statx(3, "", ...) are an fstat
 * of fd 3. */
static void empty_path_is_fd(struct rc_event *e)
{
	if (e->path && !e->path[0] && e->dirfd >= 0) {
		e->fd = e->dirfd;
		e->fd_hint = e->dir_hint;
	}
}

void facts_fill(struct rc_event *e, const struct sc_info *sc, const struct call_text *ct,
		struct arena *ar)
{
	struct span a[8];
	size_t n;
	long long v;
	unsigned long long u;
	bool ok = e->ret_known && e->err == 0;

	if (!sc || sc->dec == D_NONE)
		return;
	n = split_items(ct->args, a, MIN(ARRAY_SIZE(a), (size_t)decoder_nargs[sc->dec]));
	/* strace -N (6.16+) names every argument: "openat(dirfd=AT_FDCWD,
	 * pathname=...)". clone prints names anyway and decodes them itself. */
	if (sc->dec != D_CLONE)
		for (size_t i = 0; i < n; i++)
			a[i] = drop_arg_name(a[i]);

	switch ((enum decoder)sc->dec) {
	case D_NONE:
		break;
	case D_OPEN:
		if (n >= 1)
			e->path = path_of(a[0], ar);
		if (n >= 2)
			e->flags = flags_of(&rc_xlat_open_flag, a[1]);
		if (n >= 3)
			e->mode = num_or(a[2], 0);
		e->fd_hint = ct->ret_hint;
		break;
	case D_OPENAT:
		take_at_path(e, a, n, 0, ar);
		if (n >= 3)
			e->flags = flags_of(&rc_xlat_open_flag, a[2]);
		if (n >= 4)
			e->mode = num_or(a[3], 0);
		e->fd_hint = ct->ret_hint;
		break;
	case D_OPENAT2:
		take_at_path(e, a, n, 0, ar);
		if (n >= 3) {
			struct span how = inner(a[2]), f;
			if (find_field(how, "flags", &f))
				e->flags = flags_of(&rc_xlat_open_flag, f);
			if (find_field(how, "mode", &f))
				e->mode = num_or(f, 0);
		}
		e->fd_hint = ct->ret_hint;
		break;
	case D_CREAT:
		if (n >= 1)
			e->path = path_of(a[0], ar);
		if (n >= 2)
			e->mode = num_or(a[1], 0);
		e->flags = O_CREAT | O_WRONLY | O_TRUNC;
		e->fd_hint = ct->ret_hint;
		break;
	case D_PATH:
		if (n >= 1)
			e->path = path_of(a[0], ar);
		break;
	case D_PATH_MODE:
		if (n >= 1)
			e->path = path_of(a[0], ar);
		if (n >= 2)
			e->mode = num_or(a[1], 0);
		break;
	case D_AT_PATH:
		take_at_path(e, a, n, 0, ar);
		break;
	case D_AT_PATH_MODE:
		take_at_path(e, a, n, 0, ar);
		if (n >= 3)
			e->mode = num_or(a[2], 0);
		break;
	case D_STAT:
		if (n >= 1)
			e->path = path_of(a[0], ar);
		if (n >= 2)
			take_size(e, a[1], "st_size=");
		break;
	case D_FSTATAT:
		take_at_path(e, a, n, 0, ar);
		if (n >= 3)
			take_size(e, a[2], "st_size=");
		empty_path_is_fd(e);
		break;
	case D_STATX:
		take_at_path(e, a, n, 0, ar);
		if (n >= 5)
			take_size(e, a[4], "stx_size=");
		empty_path_is_fd(e);
		break;
	case D_FSTAT:
		if (n >= 1)
			take_fd(e, a[0], ar);
		if (n >= 2)
			take_size(e, a[1], "st_size=");
		break;
	case D_PATH2:
		if (n >= 1)
			e->path = path_of(a[0], ar);
		if (n >= 2)
			e->path2 = path_of(a[1], ar);
		break;
	case D_SYMLINK:
		/* The link is what gets created (and fails); the target is path2. */
		if (n >= 1)
			e->path2 = path_of(a[0], ar);
		if (n >= 2)
			e->path = path_of(a[1], ar);
		break;
	case D_SYMLINKAT:
		if (n >= 1)
			e->path2 = path_of(a[0], ar);
		take_at_path(e, a, n, 1, ar);
		break;
	case D_AT_PATH2:
		take_at_path(e, a, n, 0, ar);
		if (n >= 4)
			e->path2 = path_of(a[3], ar);
		break;
	case D_EXECVE:
		if (n >= 1)
			e->path = path_of(a[0], ar);
		if (n >= 2)
			take_argv(e, a[1], ar);
		break;
	case D_EXECVEAT:
		take_at_path(e, a, n, 0, ar);
		if (n >= 3)
			take_argv(e, a[2], ar);
		break;
	case D_TRUNCATE:
		if (n >= 1)
			e->path = path_of(a[0], ar);
		if (n >= 2 && parse_ll(a[1], &v) && v >= 0)
			e->len = (uint64_t)v;
		break;
	case D_FD_PATH:
		if (n >= 1)
			take_fd(e, a[0], ar);
		if (n >= 2)
			e->path = path_of(a[1], ar);
		break;
	case D_FD:
		if (n >= 1)
			take_fd(e, a[0], ar);
		break;
	case D_RW:
	case D_PRW:
		if (n >= 1)
			take_fd(e, a[0], ar);
		if (n >= 2 && strstr(sc->name, "write"))
			take_data(e, a[1], ar);
		if (n >= 3 && parse_ll(a[2], &v) && v >= 0)
			e->len = (uint64_t)v;
		if (sc->dec == D_PRW && n >= 4)
			e->offset = num_or(a[3], -1);
		break;
	case D_RWV:
	case D_PRWV: {
		bool is_write = strstr(sc->name, "write") != NULL;
		if (n >= 1)
			take_fd(e, a[0], ar);
		if (n >= 2)
			take_iov(e, a[1], ar, is_write);
		if (e->len == 0 && e->ret_known && e->ret > 0)
			e->len = (uint64_t)e->ret;
		if (sc->dec == D_PRWV && n >= 4)
			e->offset = num_or(a[3], -1);
		break;
	}
	case D_LSEEK:
		if (n >= 1)
			take_fd(e, a[0], ar);
		if (n >= 2)
			e->offset = num_or(a[1], -1);
		break;
	case D_FTRUNCATE:
		if (n >= 1)
			take_fd(e, a[0], ar);
		if (n >= 2 && parse_ll(a[1], &v) && v >= 0)
			e->len = (uint64_t)v;
		break;
	case D_FALLOCATE:
		if (n >= 1)
			take_fd(e, a[0], ar);
		if (n >= 3)
			e->offset = num_or(a[2], -1);
		if (n >= 4 && parse_ll(a[3], &v) && v >= 0)
			e->len = (uint64_t)v;
		break;
	case D_FADVISE:
		if (n >= 1)
			take_fd(e, a[0], ar);
		if (n >= 2)
			e->offset = num_or(a[1], -1);
		if (n >= 3 && parse_ll(a[2], &v) && v >= 0)
			e->len = (uint64_t)v;
		break;
	case D_DUP2:
		if (n >= 1)
			take_fd(e, a[0], ar);
		if (n >= 2) {
			int fd;
			if (parse_fd(a[1], ar, &fd, NULL))
				e->fd2 = fd;
		}
		break;
	case D_FCNTL: {
		if (n >= 1)
			take_fd(e, a[0], ar);
		/* F_DUPFD makes a copy, as dup does: the new fd is fd2, as for
		 * accept (bash saves stderr this way before a redirection). */
		if (n >= 2 && (span_eq(a[1], "F_DUPFD") || span_eq(a[1], "F_DUPFD_CLOEXEC"))) {
			e->fd2 = ok && e->ret <= 0x7fffffff ? (int)e->ret : -1;
			if (span_eq(a[1], "F_DUPFD_CLOEXEC"))
				e->flags |= O_CLOEXEC;
		}
		/* A record lock asked for: the lock facts. */
		long long cmd, type;
		struct span f;
		if (n >= 3 && (xlat_span(&rc_xlat_lock_cmd, a[1], &cmd) || parse_ll(a[1], &cmd)) &&
		    find_field(inner(span_in(a[2])), "l_type", &f) &&
		    (xlat_span(&rc_xlat_lock_type, f, &type) || parse_ll(f, &type)))
			event_fcntl_lock_facts(e, cmd, type);
		break;
	}
	case D_SENDFILE:
		if (n >= 1)
			take_fd(e, a[0], ar);
		if (n >= 2) {
			int fd;
			if (parse_fd(a[1], ar, &fd, NULL))
				e->fd2 = fd;
		}
		if (n >= 4 && parse_ll(a[3], &v) && v >= 0)
			e->len = (uint64_t)v;
		break;
	case D_COPY_RANGE:
		if (n >= 1)
			take_fd(e, a[0], ar);
		if (n >= 3) {
			int fd;
			if (parse_fd(a[2], ar, &fd, NULL))
				e->fd2 = fd;
		}
		if (n >= 5 && parse_ll(a[4], &v) && v >= 0)
			e->len = (uint64_t)v;
		break;
	case D_MMAP:
		if (n >= 1 && parse_ull(a[0], &u))
			e->addr = u;
		if (ok)
			e->addr = (uint64_t)e->ret;
		if (n >= 2 && parse_ull(a[1], &u))
			e->len = u;
		if (n >= 3)
			e->mode = flags_of(&rc_xlat_prot_flag, a[2]);
		if (n >= 4)
			e->flags = flags_of(&rc_xlat_mmap_flag, a[3]);
		if (n >= 5)
			take_fd(e, a[4], ar);
		if (n >= 6)
			e->offset = num_or(a[5], -1);
		break;
	case D_MUNMAP:
		if (n >= 1 && parse_ull(a[0], &u))
			e->addr = u;
		if (n >= 2 && parse_ull(a[1], &u))
			e->len = u;
		break;
	case D_MREMAP:
		if (n >= 1 && parse_ull(a[0], &u))
			e->addr = u;
		if (n >= 3 && parse_ull(a[2], &u))
			e->len = u;
		if (n >= 4)
			e->flags = named_flags(mremap_names, ARRAY_SIZE(mremap_names), a[3]);
		break;
	case D_BRK:
		if (n >= 1 && parse_ull(a[0], &u))
			e->addr = u;
		break;
	case D_FUTEX:
		decode_futex(e, a, n);
		break;
	case D_SOCKET:
		if (n >= 1 && (xlat_span(&rc_xlat_family, a[0], &v) ||
			       parse_ll(a[0], &v)))
			e->sa.family = (int)v;
		if (n >= 2)
			e->flags = flags_of(&rc_xlat_sock_type, a[1]);
		if (n >= 3) {
			int proto;
			if (named_value(sol_names, ARRAY_SIZE(sol_names), a[2], &proto))
				e->mode = proto;
		}
		e->fd_hint = ct->ret_hint;
		break;
	case D_SOCKETPAIR:
		if (n >= 1 && (xlat_span(&rc_xlat_family, a[0], &v) ||
			       parse_ll(a[0], &v)))
			e->sa.family = (int)v;
		if (n >= 2)
			e->flags = flags_of(&rc_xlat_sock_type, a[1]);
		if (n >= 4 && ok)
			take_fd_pair(e, a[3], ar);
		break;
	case D_PIPE:
		if (n >= 1 && ok)
			take_fd_pair(e, a[0], ar);
		if (n >= 2)
			e->flags = flags_of(&rc_xlat_open_flag, a[1]);
		break;
	case D_CONNECT:
		if (n >= 1)
			take_fd(e, a[0], ar);
		if (n >= 2)
			parse_sockaddr(a[1], ar, &e->sa);
		break;
	case D_ACCEPT:
		if (n >= 1)
			take_fd(e, a[0], ar);
		if (n >= 2)
			parse_sockaddr(a[1], ar, &e->sa);
		if (sc->name[0] == 'a')
			e->fd2 = ok && e->ret <= 0x7fffffff ? (int)e->ret : -1;
		break;
	case D_SENDTO:
	case D_RECVFROM:
	case D_SEND:
	case D_RECV:
		if (n >= 1)
			take_fd(e, a[0], ar);
		if (n >= 2 && (sc->dec == D_SENDTO || sc->dec == D_SEND || ok))
			take_data(e, a[1], ar);
		if (n >= 3 && parse_ll(a[2], &v) && v >= 0)
			e->len = (uint64_t)v;
		if (n >= 5 && (sc->dec == D_SENDTO || sc->dec == D_RECVFROM))
			parse_sockaddr(a[4], ar, &e->sa);
		break;
	case D_SENDMSG:
	case D_RECVMSG:
		if (n >= 1)
			take_fd(e, a[0], ar);
		if (n >= 2)
			take_msghdr(e, a[1], ar, sc->dec == D_SENDMSG || ok);
		break;
	case D_SENDMMSG:
	case D_RECVMMSG:
		if (n >= 1)
			take_fd(e, a[0], ar);
		if (n >= 2)
			take_mmsg(e, a[1], ar, sc->dec == D_SENDMMSG || ok);
		break;
	case D_GETSOCKOPT: {
		int x;
		if (n >= 1)
			take_fd(e, a[0], ar);
		if (n >= 2 && named_value(sol_names, ARRAY_SIZE(sol_names), a[1], &x))
			e->sockopt_level = x;
		if (n >= 3 && named_value(so_names, ARRAY_SIZE(so_names), a[2], &x))
			e->sockopt_name = x;
		if (n >= 4) {
			struct span val = span_uncomment(span_out(a[3]));
			int errv;
			if (e->sockopt_name == SO_ERROR && errno_span(val, &errv))
				e->sockopt_value = errv;
			else if (parse_ll(val, &v))
				e->sockopt_value = (int)v;
		}
		break;
	}
	case D_POLL:
	case D_PPOLL:
		if (n >= 1)
			take_pollfds(e, a[0]);
		if (n >= 3) {
			if (sc->dec == D_POLL) {
				if (parse_ll(a[2], &v) && v >= 0)
					e->timeout_ms = v;
			} else if (parse_timeout_ms(a[2], &v)) {
				e->timeout_ms = v;
			}
		}
		break;
	case D_SELECT:
	case D_PSELECT:
		for (size_t i = 1; i < 4 && i < n; i++)
			take_fdset(e, a[i], ar);
		if (n >= 5 && parse_timeout_ms(a[4], &v))
			e->timeout_ms = v;
		break;
	case D_EPOLL_WAIT:
	case D_EPOLL_PWAIT2:
		if (n >= 1)
			take_fd(e, a[0], ar);
		if (n >= 2 && ok)
			take_epoll_events(e, a[1]);
		if (n >= 4) {
			if (sc->dec == D_EPOLL_WAIT) {
				if (parse_ll(a[3], &v) && v >= 0)
					e->timeout_ms = v;
			} else if (parse_timeout_ms(a[3], &v)) {
				e->timeout_ms = v;
			}
		}
		break;
	case D_CLONE:
		for (size_t i = 0; i < n; i++) {
			struct span f = a[i];
			if (span_starts(f, "flags=")) {
				e->flags = clone_flags(span_make(f.p + 6, f.n - 6));
				break;
			}
		}
		break;
	case D_CLONE3: {
		struct span f;
		if (n >= 1 && find_field(inner(span_in(a[0])), "flags", &f))
			e->flags = clone_flags(f);
		if (n >= 1 && find_field(inner(span_in(a[0])), "exit_signal", &f)) {
			if (xlat_span(&rc_xlat_signal, f, &v) || parse_ll(f, &v))
				e->flags |= v & 0xff;
		}
		break;
	}
	case D_WAIT4:
		decode_wait4(e, a, n);
		break;
	case D_EXIT:
		if (n >= 1 && parse_ll(a[0], &v))
			e->exit_code = (int)v;
		break;
	case D_FLOCK:
		if (n >= 1)
			take_fd(e, a[0], ar);
		if (n >= 2)
			event_flock_facts(e, parse_ll(a[1], &v) ? v : flags_of(&rc_xlat_flock_op, a[1]));
		break;
	case D_KILL:
	case D_TGKILL: {
		size_t t = sc->dec == D_TGKILL ? 1 : 0;
		if (n > t + 1 && parse_ll(a[t], &v) && v >= INT_MIN && v <= INT_MAX) {
			e->has_kill_target = true;
			e->kill_target = (int)v;
		}
		if (n > t + 1 && (xlat_span(&rc_xlat_signal, a[t + 1], &v) || parse_ll(a[t + 1], &v)) && v >= 0 &&
		    v < 256)
			e->signo = (int)v;
		break;
	}
	case D_IDS:
		for (size_t i = 0; i < n && e->nids < RC_EVENT_MAX_IDS; i++)
			e->ids[e->nids++] = parse_ll(a[i], &v) ? v : -1;
		break;
	case D_GROUPS:
		/* getgroups writes its list: only a call that worked has one. */
		if (n >= 2 && (sc->name[0] == 's' || ok))
			take_ids(e, a[1]);
		break;
	}

	/* A -yy socket decoration names the peer when the arguments do not. */
	if (e->sa.family == 0 && e->fd_hint && (e->fd_hint[0] == 'T' || e->fd_hint[0] == 'U'))
		parse_socket_hint(e->fd_hint, ar, &e->sa);
}
