/* The network decoders (capture/decode/net.c).
 *
 * Each case decodes a call whose pointers point into this process and
 * compares the text with what strace 6.1 printed on this machine for the
 * same call, made by small programs talking over 127.0.0.1, ::1 and unix
 * sockets (`strace -o out ./prog`); the strace line is quoted above each
 * case, addresses written as 0x... where the test's own are printed. The
 * strace parser then reads the line back and must find the facts the
 * decoder put into the event (dt_check_same_facts). What the kernel
 * writes (accepted addresses, received data, lengths) is written into the
 * buffers between the entry and the exit half, as the tracer sees it.
 */
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/netlink.h>

#include "decode_test.h"
#include "util/util.h"

typedef dt_kernel_fn kernel_fn;

/* dt_decode with KERNEL run between the halves; *ENTRY (when not NULL)
 * receives the length of the text the entry half printed. */
static const char *decode_k(struct dt *t, long nr, const uint64_t args[6], long long rval, int err,
			    kernel_fn kernel, void *ctx, size_t *entry)
{
	const char *text = dt_decode_with(t, nr, args, false, rval, err, kernel, ctx);

	if (entry)
		*entry = t->entry_len;
	return text;
}

/* Decode, compare the text with EXPECT and the facts with the parser's. */
static void check(struct dt *t, long nr, const uint64_t args[6], long long rval, int err, const char *expect)
{
	assert_string_equal(decode_k(t, nr, args, rval, err, NULL, NULL, NULL), expect);
	dt_check_same_facts(t);
}

/* EXPECT with every %p replaced by the next address, printed as strace
 * prints an address. */
static const char *with_addrs(char *buf, size_t size, const char *expect, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, expect);
	for (const char *p = expect; *p; p++) {
		if (p[0] == '%' && p[1] == 'p') {
			const void *a = va_arg(ap, const void *);
			strbuf_addf(&sb, "%#llx", (unsigned long long)(uintptr_t)a);
			p++;
		} else {
			strbuf_addc(&sb, *p);
		}
	}
	va_end(ap);
	snprintf(buf, size, "%s", strbuf_str(&sb));
	strbuf_release(&sb);
	return buf;
}

static struct sockaddr_in loopback4(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

static void socket_calls(void **state)
{
	(void)state;
	struct dt t;

	dt_init(&t);
	/* socket(AF_INET, SOCK_STREAM|SOCK_CLOEXEC|SOCK_NONBLOCK, IPPROTO_TCP) = 7 */
	check(&t, SYS_socket, DT_ARGS(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, IPPROTO_TCP), 7, 0,
	      "AF_INET, SOCK_STREAM|SOCK_CLOEXEC|SOCK_NONBLOCK, IPPROTO_TCP");
	assert_int_equal(t.ev.sa.family, AF_INET);
	assert_int_equal(t.ev.flags, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK);
	assert_int_equal(t.ev.mode, IPPROTO_TCP);
	assert_int_equal(t.ev.fd, -1);
	assert_int_equal(dec_lookup(SYS_socket)->rv, RC_RV_FD);

	/* socket(AF_UNIX, SOCK_STREAM, 0) = 13 */
	check(&t, SYS_socket, DT_ARGS(AF_UNIX, SOCK_STREAM, 0), 13, 0, "AF_UNIX, SOCK_STREAM, 0");
	assert_int_equal(t.ev.sa.family, AF_UNIX);
	/* socket(AF_INET6, SOCK_STREAM, IPPROTO_IP) = 11 */
	check(&t, SYS_socket, DT_ARGS(AF_INET6, SOCK_STREAM, 0), 11, 0, "AF_INET6, SOCK_STREAM, IPPROTO_IP");
	/* socket(AF_INET, SOCK_DGRAM|SOCK_NONBLOCK, IPPROTO_UDP) = 3 */
	check(&t, SYS_socket, DT_ARGS(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, IPPROTO_UDP), 3, 0,
	      "AF_INET, SOCK_DGRAM|SOCK_NONBLOCK, IPPROTO_UDP");
	assert_int_equal(t.ev.flags & 0xf, SOCK_DGRAM);
	/* socket(AF_NETLINK, SOCK_RAW|SOCK_CLOEXEC, NETLINK_ROUTE) = 3 */
	check(&t, SYS_socket, DT_ARGS(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE), 3, 0,
	      "AF_NETLINK, SOCK_RAW|SOCK_CLOEXEC, NETLINK_ROUTE");

	/* Unknown values, as strace shows them:
	 * socket(0x2e /\* AF_??? *\/, SOCK_STREAM, 0) = -1 EAFNOSUPPORT
	 * socket(AF_INET, SOCK_CLOEXEC|0xf, IPPROTO_IP) = -1 EINVAL
	 * socket(AF_INET, SOCK_STREAM|0x100 /\* SOCK_??? *\/, IPPROTO_IP) = -1 EINVAL
	 * socket(AF_INET, SOCK_STREAM, 0xc8 /\* IPPROTO_??? *\/) = -1 EPROTONOSUPPORT */
	check(&t, SYS_socket, DT_ARGS(46, SOCK_STREAM, 0), 0, EAFNOSUPPORT,
	      "0x2e /* AF_??? */, SOCK_STREAM, 0");
	assert_int_equal(t.ev.sa.family, 46);
	check(&t, SYS_socket, DT_ARGS(AF_INET, 0xf | SOCK_CLOEXEC, 0), 0, EINVAL,
	      "AF_INET, SOCK_CLOEXEC|0xf, IPPROTO_IP");
	check(&t, SYS_socket, DT_ARGS(AF_INET, SOCK_STREAM | 0x100, 0), 0, EINVAL,
	      "AF_INET, SOCK_STREAM|0x100 /* SOCK_??? */, IPPROTO_IP");
	check(&t, SYS_socket, DT_ARGS(AF_INET, SOCK_STREAM, 200), 0, EPROTONOSUPPORT,
	      "AF_INET, SOCK_STREAM, 0xc8 /* IPPROTO_??? */");
	assert_int_equal(t.ev.mode, 200);

	/* Protocols the parser does not name (it keeps mode 0 for them):
	 * socket(AF_NETLINK, SOCK_RAW, NETLINK_AUDIT) = 4
	 * socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL)) = 5 */
	assert_string_equal(decode_k(&t, SYS_socket, DT_ARGS(AF_NETLINK, SOCK_RAW, NETLINK_AUDIT), 4, 0,
				     NULL, NULL, NULL), "AF_NETLINK, SOCK_RAW, NETLINK_AUDIT");
	assert_int_equal(t.ev.mode, NETLINK_AUDIT);
	assert_string_equal(decode_k(&t, SYS_socket, DT_ARGS(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL)), 5, 0,
				     NULL, NULL, NULL), "AF_PACKET, SOCK_RAW, htons(ETH_P_ALL)");
	dt_release(&t);
}

static void write_pair(void *ctx)
{
	int *sv = ctx;

	sv[0] = 3;
	sv[1] = 4;
}

static void socketpair_calls(void **state)
{
	(void)state;
	struct dt t;
	int sv[2] = { -1, -1 };
	char want[256];
	size_t entry;

	dt_init(&t);
	/* socketpair(AF_UNIX, SOCK_STREAM|SOCK_CLOEXEC, 0, [3, 4]) = 0 */
	decode_k(&t, SYS_socketpair, DT_ARGS(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, DT_PTR(sv)), 0, 0,
		 write_pair, sv, &entry);
	assert_string_equal(strbuf_str(&t.args), "AF_UNIX, SOCK_STREAM|SOCK_CLOEXEC, 0, [3, 4]");
	/* The pair is printed at exit only. */
	assert_int_equal(entry, strlen("AF_UNIX, SOCK_STREAM|SOCK_CLOEXEC, 0, "));
	dt_check_same_facts(&t);
	assert_int_equal(t.ev.sa.family, AF_UNIX);
	assert_int_equal(t.ev.flags, SOCK_STREAM | SOCK_CLOEXEC);
	/* The pair is a fact too: the process model learns both ends. */
	assert_int_equal(t.ev.nfds, 2);
	assert_int_equal(t.ev.fds[0], 3);
	assert_int_equal(t.ev.fds[1], 4);

	/* socketpair(AF_INET, SOCK_STREAM, 0, 0x7ffc9ab46f14) = -1 EOPNOTSUPP */
	check(&t, SYS_socketpair, DT_ARGS(AF_INET, SOCK_STREAM, 0, DT_PTR(sv)), 0, EOPNOTSUPP,
	      with_addrs(want, sizeof(want), "AF_INET, SOCK_STREAM, 0, %p", sv));
	/* socketpair(AF_UNIX, SOCK_STREAM, 0, 0x8) = -1 EFAULT
	 * socketpair(AF_UNIX, SOCK_DGRAM, 0, NULL) = -1 EFAULT */
	check(&t, SYS_socketpair, DT_ARGS(AF_UNIX, SOCK_STREAM, 0, 8), 0, EFAULT, "AF_UNIX, SOCK_STREAM, 0, 0x8");
	check(&t, SYS_socketpair, DT_ARGS(AF_UNIX, SOCK_DGRAM, 0, 0), 0, EFAULT, "AF_UNIX, SOCK_DGRAM, 0, NULL");
	dt_release(&t);
}

static void connect_bind_calls(void **state)
{
	(void)state;
	struct dt t;
	struct sockaddr_in a = loopback4(44187);
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_port = htons(1), .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	struct sockaddr_un un = { .sun_family = AF_UNIX, .sun_path = "/tmp/nt/nonexist.sock" };
	struct sockaddr_un ab = { .sun_family = AF_UNIX, .sun_path = "\0abstract" };
	char want[256];

	dt_init(&t);
	/* connect(8, {sa_family=AF_INET, sin_port=htons(44187), sin_addr=inet_addr("127.0.0.1")}, 16) = -1 EINPROGRESS (...) */
	check(&t, SYS_connect, DT_ARGS(8, DT_PTR(&a), sizeof(a)), 0, EINPROGRESS,
	      "8, {sa_family=AF_INET, sin_port=htons(44187), sin_addr=inet_addr(\"127.0.0.1\")}, 16");
	assert_int_equal(t.ev.fd, 8);
	assert_int_equal(t.ev.sa.family, AF_INET);
	assert_int_equal(t.ev.sa.port, 44187);
	assert_string_equal(t.ev.sa.host, "127.0.0.1");

	/* connect(11, {sa_family=AF_INET6, sin6_port=htons(1), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28) = -1 ECONNREFUSED */
	check(&t, SYS_connect, DT_ARGS(11, DT_PTR(&a6), sizeof(a6)), 0, ECONNREFUSED,
	      "11, {sa_family=AF_INET6, sin6_port=htons(1), sin6_flowinfo=htonl(0), "
	      "inet_pton(AF_INET6, \"::1\", &sin6_addr), sin6_scope_id=0}, 28");
	assert_string_equal(t.ev.sa.host, "::1");
	assert_int_equal(t.ev.sa.port, 1);

	/* connect(13, {sa_family=AF_UNIX, sun_path="/tmp/nt/nonexist.sock"}, 110) = -1 ENOENT
	 * connect(13, {sa_family=AF_UNIX, sun_path="/tmp/nt/nonexist.sock"}, 24) = -1 ENOENT
	 * connect(13, {sa_family=AF_UNIX, sun_path=@"abstract"}, 11) = -1 ECONNREFUSED */
	check(&t, SYS_connect, DT_ARGS(13, DT_PTR(&un), sizeof(un)), 0, ENOENT,
	      "13, {sa_family=AF_UNIX, sun_path=\"/tmp/nt/nonexist.sock\"}, 110");
	assert_string_equal(t.ev.sa.host, "/tmp/nt/nonexist.sock");
	check(&t, SYS_connect, DT_ARGS(13, DT_PTR(&un), 24), 0, ENOENT,
	      "13, {sa_family=AF_UNIX, sun_path=\"/tmp/nt/nonexist.sock\"}, 24");
	check(&t, SYS_connect, DT_ARGS(13, DT_PTR(&ab), 11), 0, ECONNREFUSED,
	      "13, {sa_family=AF_UNIX, sun_path=@\"abstract\"}, 11");
	assert_true(t.ev.sa.abstract);

	/* connect(13, NULL, 0) = -1 EINVAL
	 * connect(13, 0x1, 16) = -1 EFAULT
	 * connect(3, {sa_family=AF_INET}, 2) = -1 EINVAL
	 * connect(3, 0x7ffc9ab46f00, -1) = -1 EINVAL */
	check(&t, SYS_connect, DT_ARGS(13, 0, 0), 0, EINVAL, "13, NULL, 0");
	assert_int_equal(t.ev.sa.family, 0);
	check(&t, SYS_connect, DT_ARGS(13, 1, 16), 0, EFAULT, "13, 0x1, 16");
	assert_int_equal(t.ev.sa.family, 0);
	check(&t, SYS_connect, DT_ARGS(3, DT_PTR(&a), 2), 0, EINVAL, "3, {sa_family=AF_INET}, 2");
	check(&t, SYS_connect, DT_ARGS(3, DT_PTR(&a), 0xffffffffu), 0, EINVAL,
	      with_addrs(want, sizeof(want), "3, %p, -1", &a));

	/* bind(7, {sa_family=AF_INET, sin_port=htons(0), sin_addr=inet_addr("127.0.0.1")}, 16) = 0
	 * bind(3, {sa_family=AF_INET, sa_data="\0\0\0\0\0\0"}, 8) = -1 EINVAL */
	a = loopback4(0);
	check(&t, SYS_bind, DT_ARGS(7, DT_PTR(&a), sizeof(a)), 0, 0,
	      "7, {sa_family=AF_INET, sin_port=htons(0), sin_addr=inet_addr(\"127.0.0.1\")}, 16");
	assert_int_equal(t.ev.sa.port, 0);
	struct sockaddr_in z = { .sin_family = AF_INET };
	check(&t, SYS_bind, DT_ARGS(3, DT_PTR(&z), 8), 0, EINVAL,
	      "3, {sa_family=AF_INET, sa_data=\"\\0\\0\\0\\0\\0\\0\"}, 8");

	/* listen(7, 5) = 0, listen(3, -1) = -1 EOPNOTSUPP */
	check(&t, SYS_listen, DT_ARGS(7, 5), 0, 0, "7, 5");
	assert_int_equal(t.ev.fd, 7);
	check(&t, SYS_listen, DT_ARGS(3, 0xffffffffu), 0, EOPNOTSUPP, "3, -1");

	/* shutdown(8, SHUT_WR) = 0, shutdown(8, SHUT_RDWR) = 0,
	 * shutdown(8, 0x7 /\* SHUT_??? *\/) = -1 EINVAL,
	 * shutdown(3, 0xffffffff /\* SHUT_??? *\/) = -1 EINVAL */
	check(&t, SYS_shutdown, DT_ARGS(8, SHUT_WR), 0, 0, "8, SHUT_WR");
	assert_int_equal(t.ev.fd, 8);
	check(&t, SYS_shutdown, DT_ARGS(8, SHUT_RDWR), 0, 0, "8, SHUT_RDWR");
	check(&t, SYS_shutdown, DT_ARGS(8, 7), 0, EINVAL, "8, 0x7 /* SHUT_??? */");
	check(&t, SYS_shutdown, DT_ARGS(3, 0xffffffffu), 0, EINVAL, "3, 0xffffffff /* SHUT_??? */");
	dt_release(&t);
}

/* accept: the kernel fills the address and its length. */
struct peer_fill {
	struct sockaddr_in *sa;
	socklen_t *len;
	struct sockaddr_in value;
	socklen_t new_len;
};

static void fill_peer(void *ctx)
{
	struct peer_fill *p = ctx;

	*p->sa = p->value;
	*p->len = p->new_len;
}

static void accept_calls(void **state)
{
	(void)state;
	struct dt t;
	struct sockaddr_in sa;
	socklen_t len = sizeof(sa);
	struct peer_fill fill = { &sa, &len, loopback4(45978), sizeof(sa) };
	char want[256];
	size_t entry;

	dt_init(&t);
	/* accept4(7, {sa_family=AF_INET, sin_port=htons(45978), sin_addr=inet_addr("127.0.0.1")}, [16], SOCK_CLOEXEC) = 9 */
	memset(&sa, 0, sizeof(sa));
	decode_k(&t, SYS_accept4, DT_ARGS(7, DT_PTR(&sa), DT_PTR(&len), SOCK_CLOEXEC), 9, 0, fill_peer, &fill, &entry);
	assert_string_equal(strbuf_str(&t.args),
			    "7, {sa_family=AF_INET, sin_port=htons(45978), sin_addr=inet_addr(\"127.0.0.1\")}, [16], SOCK_CLOEXEC");
	/* strace prints "accept4(7, " at entry: the address is the kernel's. */
	assert_int_equal(entry, 3);
	dt_check_same_facts(&t);
	assert_int_equal(t.ev.fd, 7);
	assert_int_equal(t.ev.fd2, 9);
	assert_int_equal(t.ev.sa.port, 45978);
	assert_int_equal(dec_lookup(SYS_accept4)->rv, RC_RV_FD);

	/* accept(7, 0x7fff3b97fb90, [16]) = -1 EAGAIN */
	len = sizeof(sa);
	check(&t, SYS_accept, DT_ARGS(7, DT_PTR(&sa), DT_PTR(&len)), 0, EAGAIN,
	      with_addrs(want, sizeof(want), "7, %p, [16]", &sa));
	assert_int_equal(t.ev.fd2, -1);
	assert_int_equal(t.ev.sa.family, 0);

	/* accept(13, NULL, NULL) = -1 EINVAL
	 * accept4(3, 0x7ffc9ab46f00, NULL, SOCK_CLOEXEC|SOCK_NONBLOCK) = -1 EOPNOTSUPP
	 * accept4(3, 0x7ffc9ab46f00, 0x8, 0x40000000 /\* SOCK_??? *\/) = -1 EINVAL */
	decode_k(&t, SYS_accept, DT_ARGS(13, 0, 0), 0, EINVAL, NULL, NULL, &entry);
	assert_string_equal(strbuf_str(&t.args), "13, NULL, NULL");
	assert_int_equal(entry, t.args.len);
	dt_check_same_facts(&t);
	check(&t, SYS_accept4, DT_ARGS(3, DT_PTR(&sa), 0, SOCK_NONBLOCK | SOCK_CLOEXEC), 0, EOPNOTSUPP,
	      with_addrs(want, sizeof(want), "3, %p, NULL, SOCK_CLOEXEC|SOCK_NONBLOCK", &sa));
	check(&t, SYS_accept4, DT_ARGS(3, DT_PTR(&sa), 8, 0x40000000), 0, EINVAL,
	      with_addrs(want, sizeof(want), "3, %p, 0x8, 0x40000000 /* SOCK_??? */", &sa));

	/* getsockname(9, {sa_family=AF_INET, sin_port=htons(42772), sin_addr=inet_addr("127.0.0.1")}, [16]) = 0 */
	len = sizeof(sa);
	fill.value = loopback4(42772);
	decode_k(&t, SYS_getsockname, DT_ARGS(9, DT_PTR(&sa), DT_PTR(&len)), 0, 0, fill_peer, &fill, NULL);
	assert_string_equal(strbuf_str(&t.args),
			    "9, {sa_family=AF_INET, sin_port=htons(42772), sin_addr=inet_addr(\"127.0.0.1\")}, [16]");
	dt_check_same_facts(&t);
	assert_int_equal(t.ev.fd2, -1);

	/* A short buffer: the address is cut to what was offered.
	 * getpeername(8, {sa_family=AF_INET, sa_data="\254\233"}, [4 => 16]) = 0 */
	len = 4;
	fill.value = loopback4(44187);
	fill.new_len = sizeof(sa);
	decode_k(&t, SYS_getpeername, DT_ARGS(8, DT_PTR(&sa), DT_PTR(&len)), 0, 0, fill_peer, &fill, NULL);
	assert_string_equal(strbuf_str(&t.args), "8, {sa_family=AF_INET, sa_data=\"\\254\\233\"}, [4 => 16]");
	dt_check_same_facts(&t);
	dt_release(&t);
}

/* recvfrom: the data and the sender. */
struct recv_fill {
	char *buf;
	const char *data;
	struct peer_fill peer;
};

static void fill_recv(void *ctx)
{
	struct recv_fill *r = ctx;

	memcpy(r->buf, r->data, strlen(r->data));
	if (r->peer.sa)
		fill_peer(&r->peer);
}

static void send_recv_calls(void **state)
{
	(void)state;
	struct dt t;
	static const unsigned char query[] = {
		0x12, 0x34, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 7, 'e', 'x', 'a', 'm', 'p', 'l', 'e',
		3, 'c', 'o', 'm', 0, 0, 1, 0, 1,
	};
	struct sockaddr_in dns = loopback4(53);
	char buf[100], want[256];
	struct sockaddr_in from;
	socklen_t fromlen = sizeof(from);
	size_t entry;

	dt_init(&t);
	/* sendto(8, "hello world", 11, MSG_NOSIGNAL, NULL, 0) = 11 */
	check(&t, SYS_sendto, DT_ARGS(8, DT_PTR("hello world"), 11, MSG_NOSIGNAL, 0, 0), 11, 0,
	      "8, \"hello world\", 11, MSG_NOSIGNAL, NULL, 0");
	assert_int_equal(t.ev.len, 11);
	assert_int_equal(t.ev.data_len, 11);
	assert_memory_equal(t.ev.data, "hello world", 11);

	/* The DNS query dns-failure reads from the event:
	 * sendto(3, "\0224\1\0\0\1\0\0\0\0\0\0\7example\3com\0\0\1\0\1", 29, MSG_NOSIGNAL, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("127.0.0.1")}, 16) = 29 */
	check(&t, SYS_sendto, DT_ARGS(3, DT_PTR(query), sizeof(query), MSG_NOSIGNAL, DT_PTR(&dns), sizeof(dns)), 29, 0,
	      "3, \"\\0224\\1\\0\\0\\1\\0\\0\\0\\0\\0\\0\\7example\\3com\\0\\0\\1\\0\\1\", 29, MSG_NOSIGNAL, "
	      "{sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr(\"127.0.0.1\")}, 16");
	assert_int_equal(t.ev.data_len, sizeof(query));
	assert_memory_equal(t.ev.data, query, sizeof(query));
	assert_false(t.ev.data_truncated);
	assert_int_equal(t.ev.sa.port, 53);
	/* The parser's preview is the same bytes. */
	assert_int_equal(t.parsed.data_len, sizeof(query));
	assert_memory_equal(t.parsed.data, query, sizeof(query));

	/* More than -s bytes: the text is cut, the preview is not.
	 * sendto(5, "ab", 2, MSG_DONTWAIT|0x10000000, NULL, 0) = 2 */
	char longer[64];
	memset(longer, 'x', sizeof(longer));
	check(&t, SYS_sendto, DT_ARGS(5, DT_PTR(longer), sizeof(longer), 0, 0, 0), 64, 0,
	      "5, \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"..., 64, 0, NULL, 0");
	assert_int_equal(t.ev.data_len, 64);
	check(&t, SYS_sendto, DT_ARGS(5, DT_PTR("ab"), 2, 0x10000000 | MSG_DONTWAIT, 0, 0), 2, 0,
	      "5, \"ab\", 2, MSG_DONTWAIT|0x10000000, NULL, 0");

	/* recvfrom(9, "hello world", 100, 0, NULL, NULL) = 11: only "9, " at entry. */
	struct recv_fill r = { buf, "hello world", { NULL, NULL, { 0 }, 0 } };
	memset(buf, 0, sizeof(buf));
	decode_k(&t, SYS_recvfrom, DT_ARGS(9, DT_PTR(buf), sizeof(buf), 0, 0, 0), 11, 0, fill_recv, &r, &entry);
	assert_string_equal(strbuf_str(&t.args), "9, \"hello world\", 100, 0, NULL, NULL");
	assert_int_equal(entry, 3);
	dt_check_same_facts(&t);
	assert_int_equal(t.ev.data_len, 11);
	assert_int_equal(t.ev.len, 100);

	/* recvfrom(9, "ab", 2, 0, {sa_family=AF_INET, sin_port=htons(54850), sin_addr=inet_addr("127.0.0.1")}, [16]) = 2 */
	r.data = "ab";
	r.peer = (struct peer_fill){ &from, &fromlen, loopback4(54850), sizeof(from) };
	decode_k(&t, SYS_recvfrom, DT_ARGS(9, DT_PTR(buf), 2, 0, DT_PTR(&from), DT_PTR(&fromlen)), 2, 0, fill_recv, &r,
		 NULL);
	assert_string_equal(strbuf_str(&t.args), "9, \"ab\", 2, 0, {sa_family=AF_INET, sin_port=htons(54850), "
						 "sin_addr=inet_addr(\"127.0.0.1\")}, [16]");
	dt_check_same_facts(&t);
	assert_int_equal(t.ev.sa.port, 54850);

	/* recvfrom(9, 0x7fff3b97fb20, 100, MSG_DONTWAIT, 0x7fff3b97fb90, [16]) = -1 EAGAIN
	 * recvfrom(3, 0x7ffc9ab46efc, 4, MSG_DONTWAIT, NULL, 0x8) = -1 EAGAIN */
	check(&t, SYS_recvfrom, DT_ARGS(9, DT_PTR(buf), 100, MSG_DONTWAIT, DT_PTR(&from), DT_PTR(&fromlen)), 0, EAGAIN,
	      with_addrs(want, sizeof(want), "9, %p, 100, MSG_DONTWAIT, %p, [16]", buf, &from));
	assert_null(t.ev.data);
	assert_int_equal(t.ev.sa.family, 0);
	check(&t, SYS_recvfrom, DT_ARGS(3, DT_PTR(buf), 4, MSG_DONTWAIT, 0, 8), 0, EAGAIN,
	      with_addrs(want, sizeof(want), "3, %p, 4, MSG_DONTWAIT, NULL, 0x8", buf));
	dt_release(&t);
}

static void sendmsg_calls(void **state)
{
	(void)state;
	struct dt t;
	struct iovec iov[2] = { { "abc", 3 }, { "defgh", 5 } };
	struct msghdr m = { .msg_iov = iov, .msg_iovlen = 2 };
	struct sockaddr_in dns = loopback4(53);
	char want[512];

	dt_init(&t);
	/* sendmsg(8, {msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base="abc", iov_len=3}, {iov_base="defgh", iov_len=5}], msg_iovlen=2, msg_controllen=0, msg_flags=0}, 0) = 8 */
	check(&t, SYS_sendmsg, DT_ARGS(8, DT_PTR(&m), 0), 8, 0,
	      "8, {msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base=\"abc\", iov_len=3}, {iov_base=\"defgh\", "
	      "iov_len=5}], msg_iovlen=2, msg_controllen=0, msg_flags=0}, 0");
	assert_int_equal(t.ev.fd, 8);
	assert_int_equal(t.ev.len, 8);
	assert_int_equal(t.ev.data_len, 8);
	assert_memory_equal(t.ev.data, "abcdefgh", 8);
	assert_memory_equal(t.parsed.data, "abcdefgh", 8);

	/* sendmsg(14, {msg_name={sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("127.0.0.1")}, msg_namelen=16, msg_iov=[{iov_base="abc", iov_len=3}], msg_iovlen=1, msg_controllen=0, msg_flags=0}, MSG_DONTWAIT) = 3 */
	struct msghdr m2 = { .msg_name = &dns, .msg_namelen = sizeof(dns), .msg_iov = iov, .msg_iovlen = 1 };
	check(&t, SYS_sendmsg, DT_ARGS(14, DT_PTR(&m2), MSG_DONTWAIT), 3, 0,
	      "14, {msg_name={sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr(\"127.0.0.1\")}, "
	      "msg_namelen=16, msg_iov=[{iov_base=\"abc\", iov_len=3}], msg_iovlen=1, msg_controllen=0, "
	      "msg_flags=0}, MSG_DONTWAIT");
	assert_int_equal(t.ev.sa.port, 53);

	/* sendmsg(5, {msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base="x", iov_len=1}], msg_iovlen=1, msg_control=[{cmsg_len=20, cmsg_level=SOL_SOCKET, cmsg_type=SCM_RIGHTS, cmsg_data=[0]}], msg_controllen=24, msg_flags=0}, MSG_WAITALL|MSG_NOSIGNAL) = 1 */
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	memset(&u, 0, sizeof(u));
	struct iovec x = { "x", 1 };
	struct msghdr m3 = { .msg_iov = &x, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m3);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	check(&t, SYS_sendmsg, DT_ARGS(5, DT_PTR(&m3), MSG_NOSIGNAL | MSG_WAITALL), 1, 0,
	      "5, {msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base=\"x\", iov_len=1}], msg_iovlen=1, "
	      "msg_control=[{cmsg_len=20, cmsg_level=SOL_SOCKET, cmsg_type=SCM_RIGHTS, cmsg_data=[0]}], "
	      "msg_controllen=24, msg_flags=0}, MSG_WAITALL|MSG_NOSIGNAL");

	/* More buffers than -s: 32 shown, then "...".
	 * sendmsg(5, {msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base="ab", iov_len=2}, ... x32, ...], msg_iovlen=40, msg_controllen=0, msg_flags=0}, 0) = 80 */
	struct iovec many[40];
	for (int i = 0; i < 40; i++) {
		many[i].iov_base = "ab";
		many[i].iov_len = 2;
	}
	struct msghdr m4 = { .msg_iov = many, .msg_iovlen = 40 };
	struct strbuf sb = STRBUF_INIT;
	strbuf_adds(&sb, "5, {msg_name=NULL, msg_namelen=0, msg_iov=[");
	for (int i = 0; i < 32; i++)
		strbuf_adds(&sb, "{iov_base=\"ab\", iov_len=2}, ");
	strbuf_adds(&sb, "...], msg_iovlen=40, msg_controllen=0, msg_flags=0}, 0");
	check(&t, SYS_sendmsg, DT_ARGS(5, DT_PTR(&m4), 0), 80, 0, strbuf_str(&sb));
	strbuf_release(&sb);
	assert_int_equal(t.ev.len, 64);
	assert_int_equal(t.ev.data_len, 64);
	assert_true(t.ev.data_truncated);

	/* sendmsg(5, {msg_name=NULL, msg_namelen=0, msg_iov=0x10, msg_iovlen=2, msg_controllen=0, msg_flags=0}, 0x10000000 /\* MSG_??? *\/) = -1 EFAULT
	 * sendmsg(5, 0x8, 0) = -1 EFAULT */
	struct msghdr bad = { .msg_iov = (void *)16, .msg_iovlen = 2 };
	check(&t, SYS_sendmsg, DT_ARGS(5, DT_PTR(&bad), 0x10000000), 0, EFAULT,
	      "5, {msg_name=NULL, msg_namelen=0, msg_iov=0x10, msg_iovlen=2, msg_controllen=0, msg_flags=0}, "
	      "0x10000000 /* MSG_??? */");
	assert_null(t.ev.data);
	check(&t, SYS_sendmsg, DT_ARGS(5, 8, 0), 0, EFAULT, "5, 0x8, 0");

	/* An iovec array that ends in unreadable memory after the first. */
	size_t ps = (size_t)sysconf(_SC_PAGESIZE);
	char *pg = mmap(NULL, 2 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(pg != MAP_FAILED);
	assert_int_equal(munmap(pg + ps, ps), 0);
	struct iovec *edge = (struct iovec *)(pg + ps - sizeof(struct iovec));
	edge->iov_base = "abc";
	edge->iov_len = 3;
	struct msghdr m5 = { .msg_iov = edge, .msg_iovlen = 2 };
	check(&t, SYS_sendmsg, DT_ARGS(5, DT_PTR(&m5), 0), 3, 0,
	      with_addrs(want, sizeof(want),
			 "5, {msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base=\"abc\", iov_len=3}, ... /* %p */], "
			 "msg_iovlen=2, msg_controllen=0, msg_flags=0}, 0", pg + ps));
	munmap(pg, ps);
	dt_release(&t);
}

/* recvmsg: the kernel fills the buffers, the sender and the control data. */
struct msg_fill {
	struct msghdr *m;
	char *buf;
	const char *data;
	size_t datalen;
	struct sockaddr_in from;
	socklen_t namelen;
	const void *control;
	size_t controllen;
};

static void fill_msg(void *ctx)
{
	struct msg_fill *f = ctx;

	memcpy(f->buf, f->data, f->datalen);
	if (f->m->msg_name && f->namelen >= sizeof(f->from))
		memcpy(f->m->msg_name, &f->from, sizeof(f->from));
	f->m->msg_namelen = f->namelen;
	if (f->control)
		memcpy(f->m->msg_control, f->control, f->controllen);
	f->m->msg_controllen = f->controllen;
}

static void recvmsg_calls(void **state)
{
	(void)state;
	struct dt t;
	char b1[4], b2[10];
	struct iovec riov[2] = { { b1, 4 }, { b2, 10 } };
	struct msghdr rm = { .msg_iov = riov, .msg_iovlen = 2 };
	struct msg_fill f = { .m = &rm };
	size_t entry;

	dt_init(&t);
	/* The data across two buffers, "abcd" then "efgh":
	 * recvmsg(9, {msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base="abcd", iov_len=4}, {iov_base="efgh", iov_len=10}], msg_iovlen=2, msg_controllen=0, msg_flags=0}, MSG_DONTWAIT|MSG_WAITALL) = 8 */
	memset(b2, 0, sizeof(b2));
	memcpy(b2, "efgh", 4);
	f.buf = b1;
	f.data = "abcd";
	f.datalen = 4;
	decode_k(&t, SYS_recvmsg, DT_ARGS(9, DT_PTR(&rm), MSG_WAITALL | MSG_DONTWAIT), 8, 0, fill_msg, &f, &entry);
	assert_string_equal(strbuf_str(&t.args),
			    "9, {msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base=\"abcd\", iov_len=4}, "
			    "{iov_base=\"efgh\", iov_len=10}], msg_iovlen=2, msg_controllen=0, msg_flags=0}, "
			    "MSG_DONTWAIT|MSG_WAITALL");
	assert_int_equal(entry, 3);
	dt_check_same_facts(&t);
	assert_int_equal(t.ev.len, 14);
	assert_int_equal(t.ev.data_len, 8);
	assert_memory_equal(t.ev.data, "abcdefgh", 8);

	/* The sender's address cut to what the kernel wrote, with control data:
	 * recvmsg(9, {msg_name={sa_family=AF_INET, sin_port=htons(60630), sin_addr=inet_addr("127.0.0.1")}, msg_namelen=128 => 16, msg_iov=[{iov_base="ping", iov_len=10}], msg_iovlen=1, msg_control=[{cmsg_len=28, cmsg_level=SOL_IP, cmsg_type=IP_PKTINFO, cmsg_data={ipi_ifindex=if_nametoindex("lo"), ipi_spec_dst=inet_addr("127.0.0.1"), ipi_addr=inet_addr("127.0.0.1")}}, {cmsg_len=20, cmsg_level=SOL_IP, cmsg_type=IP_TTL, cmsg_data=[64]}], msg_controllen=56, msg_flags=0}, 0) = 4 */
	unsigned lo = if_nametoindex("lo");
	struct sockaddr_storage from;
	union {
		char buf[256];
		struct cmsghdr align;
	} rc, kc;
	struct iovec one = { b2, sizeof(b2) };
	struct msghdr um = { .msg_name = &from, .msg_namelen = 128, .msg_iov = &one, .msg_iovlen = 1,
			     .msg_control = rc.buf, .msg_controllen = sizeof(rc.buf) };
	struct msghdr km = { .msg_control = kc.buf, .msg_controllen = CMSG_SPACE(sizeof(struct in_pktinfo)) +
									 CMSG_SPACE(sizeof(int)) };
	memset(&kc, 0, sizeof(kc));
	struct cmsghdr *c = CMSG_FIRSTHDR(&km);
	c->cmsg_level = SOL_IP;
	c->cmsg_type = IP_PKTINFO;
	c->cmsg_len = CMSG_LEN(sizeof(struct in_pktinfo));
	struct in_pktinfo pi = { .ipi_ifindex = (int)lo };
	pi.ipi_spec_dst.s_addr = htonl(INADDR_LOOPBACK);
	pi.ipi_addr.s_addr = htonl(INADDR_LOOPBACK);
	memcpy(CMSG_DATA(c), &pi, sizeof(pi));
	c = CMSG_NXTHDR(&km, c);
	c->cmsg_level = SOL_IP;
	c->cmsg_type = IP_TTL;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	int ttl = 64;
	memcpy(CMSG_DATA(c), &ttl, sizeof(ttl));
	struct msg_fill g = { &um, b2, "ping", 4, loopback4(60630), sizeof(struct sockaddr_in), kc.buf,
			      km.msg_controllen };
	decode_k(&t, SYS_recvmsg, DT_ARGS(9, DT_PTR(&um), 0), 4, 0, fill_msg, &g, NULL);
	if (lo)
		assert_string_equal(strbuf_str(&t.args),
				    "9, {msg_name={sa_family=AF_INET, sin_port=htons(60630), sin_addr=inet_addr(\"127.0.0.1\")}, "
				    "msg_namelen=128 => 16, msg_iov=[{iov_base=\"ping\", iov_len=10}], msg_iovlen=1, "
				    "msg_control=[{cmsg_len=28, cmsg_level=SOL_IP, cmsg_type=IP_PKTINFO, cmsg_data={"
				    "ipi_ifindex=if_nametoindex(\"lo\"), ipi_spec_dst=inet_addr(\"127.0.0.1\"), "
				    "ipi_addr=inet_addr(\"127.0.0.1\")}}, {cmsg_len=20, cmsg_level=SOL_IP, cmsg_type=IP_TTL, "
				    "cmsg_data=[64]}], msg_controllen=56, msg_flags=0}, 0");
	dt_check_same_facts(&t);
	assert_int_equal(t.ev.sa.port, 60630);
	assert_memory_equal(t.ev.data, "ping", 4);

	/* Nothing written for the name: its address only.
	 * recvmsg(6, {msg_name=0x7ffdecbd8cc0, msg_namelen=110 => 0, msg_iov=[{iov_base="x", iov_len=10}], msg_iovlen=1, msg_control=[{cmsg_len=20, cmsg_level=SOL_SOCKET, cmsg_type=SCM_RIGHTS, cmsg_data=[7]}], msg_controllen=24, msg_flags=0}, 0) = 1 */
	char want[512];
	memset(&kc, 0, sizeof(kc));
	km.msg_controllen = CMSG_SPACE(sizeof(int));
	c = CMSG_FIRSTHDR(&km);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	int seven = 7;
	memcpy(CMSG_DATA(c), &seven, sizeof(seven));
	um.msg_namelen = 110;
	um.msg_controllen = sizeof(rc.buf);
	struct msg_fill h = { &um, b2, "x", 1, loopback4(0), 0, kc.buf, km.msg_controllen };
	decode_k(&t, SYS_recvmsg, DT_ARGS(6, DT_PTR(&um), 0), 1, 0, fill_msg, &h, NULL);
	assert_string_equal(strbuf_str(&t.args),
			    with_addrs(want, sizeof(want),
				       "6, {msg_name=%p, msg_namelen=110 => 0, msg_iov=[{iov_base=\"x\", iov_len=10}], "
				       "msg_iovlen=1, msg_control=[{cmsg_len=20, cmsg_level=SOL_SOCKET, "
				       "cmsg_type=SCM_RIGHTS, cmsg_data=[7]}], msg_controllen=24, msg_flags=0}, 0",
				       &from));
	dt_check_same_facts(&t);

	/* recvmsg(6, {msg_namelen=0}, MSG_DONTWAIT) = -1 EAGAIN
	 * recvmsg(6, NULL, 0) = -1 EFAULT */
	rm.msg_namelen = 0;
	check(&t, SYS_recvmsg, DT_ARGS(6, DT_PTR(&rm), MSG_DONTWAIT), 0, EAGAIN, "6, {msg_namelen=0}, MSG_DONTWAIT");
	assert_null(t.ev.data);
	assert_int_equal(t.ev.len, 0);
	decode_k(&t, SYS_recvmsg, DT_ARGS(6, 0, 0), 0, EFAULT, NULL, NULL, &entry);
	assert_string_equal(strbuf_str(&t.args), "6, NULL, 0");
	assert_int_equal(entry, t.args.len);
	dt_check_same_facts(&t);
	dt_release(&t);
}

/* sendmmsg's and recvmmsg's msg_len, and recvmmsg's data and time left. */
struct mmsg_fill {
	struct mmsghdr *v;
	unsigned n;
	char *buf;
	const char *data;
	struct sockaddr_in from;
	struct timespec *ts;
	struct timespec left;
};

static void fill_mmsg(void *ctx)
{
	struct mmsg_fill *f = ctx;

	for (unsigned i = 0; i < f->n; i++)
		f->v[i].msg_len = (unsigned)strlen(f->data);
	if (f->buf)
		memcpy(f->buf, f->data, strlen(f->data));
	if (f->buf && f->v[0].msg_hdr.msg_name)
		memcpy(f->v[0].msg_hdr.msg_name, &f->from, sizeof(f->from));
	if (f->ts)
		*f->ts = f->left;
}

static void mmsg_calls(void **state)
{
	(void)state;
	struct dt t;
	struct sockaddr_in dns = loopback4(53);
	struct iovec iov = { "abc", 3 };
	struct mmsghdr mm[2];
	char want[1024];

	dt_init(&t);
	memset(mm, 0, sizeof(mm));
	for (int i = 0; i < 2; i++) {
		mm[i].msg_hdr.msg_name = &dns;
		mm[i].msg_hdr.msg_namelen = sizeof(dns);
		mm[i].msg_hdr.msg_iov = &iov;
		mm[i].msg_hdr.msg_iovlen = 1;
	}
	/* sendmmsg(14, [{msg_hdr={msg_name={sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("127.0.0.1")}, msg_namelen=16, msg_iov=[{iov_base="abc", iov_len=3}], msg_iovlen=1, msg_controllen=0, msg_flags=0}, msg_len=3}, {msg_hdr={...the same...}, msg_len=3}], 2, 0) = 2 */
	struct mmsg_fill f = { mm, 2, NULL, "abc", { 0 }, NULL, { 0, 0 } };
	size_t entry;
	decode_k(&t, SYS_sendmmsg, DT_ARGS(14, DT_PTR(mm), 2, 0), 2, 0, fill_mmsg, &f, &entry);
	const char *one = "{msg_hdr={msg_name={sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr(\"127.0.0.1\")}, "
			  "msg_namelen=16, msg_iov=[{iov_base=\"abc\", iov_len=3}], msg_iovlen=1, msg_controllen=0, "
			  "msg_flags=0}, msg_len=3}";
	snprintf(want, sizeof(want), "14, [%s, %s], 2, 0", one, one);
	assert_string_equal(strbuf_str(&t.args), want);
	assert_int_equal(entry, 4);
	dt_check_same_facts(&t);
	assert_int_equal(t.ev.sa.port, 53);
	assert_int_equal(t.ev.len, 3);
	assert_memory_equal(t.ev.data, "abc", 3);

	/* The event describes the first message even when the second goes
	 * elsewhere. */
	struct sockaddr_in other = loopback4(5353);
	mm[1].msg_hdr.msg_name = &other;
	decode_k(&t, SYS_sendmmsg, DT_ARGS(14, DT_PTR(mm), 2, 0), 2, 0, fill_mmsg, &f, NULL);
	dt_check_same_facts(&t);
	assert_int_equal(t.ev.sa.port, 53);

	/* sendmmsg(8, 0x8, 2, 0) = -1 EFAULT */
	check(&t, SYS_sendmmsg, DT_ARGS(8, 8, 2, 0), 0, EFAULT, "8, 0x8, 2, 0");

	/* recvmmsg(9, [{msg_hdr={msg_name={sa_family=AF_INET, sin_port=htons(54850), sin_addr=inet_addr("127.0.0.1")}, msg_namelen=16, msg_iov=[{iov_base="pong", iov_len=10}], msg_iovlen=1, msg_controllen=0, msg_flags=0}, msg_len=4}], 2, MSG_WAITFORONE, {tv_sec=1, tv_nsec=500}) = 1 (left {tv_sec=0, tv_nsec=999999187}) */
	char buf[10];
	struct sockaddr_in from;
	struct iovec riov = { buf, sizeof(buf) };
	struct timespec ts = { 1, 500 };
	memset(mm, 0, sizeof(mm));
	for (int i = 0; i < 2; i++) {
		mm[i].msg_hdr.msg_name = &from;
		mm[i].msg_hdr.msg_namelen = sizeof(from);
		mm[i].msg_hdr.msg_iov = &riov;
		mm[i].msg_hdr.msg_iovlen = 1;
	}
	struct mmsg_fill g = { mm, 1, buf, "pong", loopback4(54850), &ts, { 0, 999999187 } };
	decode_k(&t, SYS_recvmmsg, DT_ARGS(9, DT_PTR(mm), 2, MSG_WAITFORONE, DT_PTR(&ts)), 1, 0, fill_mmsg, &g, &entry);
	assert_string_equal(strbuf_str(&t.args),
			    "9, [{msg_hdr={msg_name={sa_family=AF_INET, sin_port=htons(54850), "
			    "sin_addr=inet_addr(\"127.0.0.1\")}, msg_namelen=16, msg_iov=[{iov_base=\"pong\", iov_len=10}], "
			    "msg_iovlen=1, msg_controllen=0, msg_flags=0}, msg_len=4}], 2, MSG_WAITFORONE, "
			    "{tv_sec=1, tv_nsec=500}");
	assert_string_equal(strbuf_str(&t.rv_extra), "(left {tv_sec=0, tv_nsec=999999187})");
	assert_int_equal(entry, 3);
	dt_check_same_facts(&t);
	assert_int_equal(t.ev.sa.port, 54850);
	assert_memory_equal(t.ev.data, "pong", 4);

	/* No message before the timeout: "(Timeout)". */
	ts = (struct timespec){ 0, 1000 };
	decode_k(&t, SYS_recvmmsg, DT_ARGS(9, DT_PTR(mm), 2, 0, DT_PTR(&ts)), 0, 0, NULL, NULL, NULL);
	assert_string_equal(strbuf_str(&t.args), "9, [], 2, 0, {tv_sec=0, tv_nsec=1000}");
	assert_string_equal(strbuf_str(&t.rv_extra), "(Timeout)");
	dt_check_same_facts(&t);

	/* recvmmsg(9, 0x7ffdecbd8890, 2, MSG_DONTWAIT, NULL) = -1 EAGAIN */
	check(&t, SYS_recvmmsg, DT_ARGS(9, DT_PTR(mm), 2, MSG_DONTWAIT, 0), 0, EAGAIN,
	      with_addrs(want, sizeof(want), "9, %p, 2, MSG_DONTWAIT, NULL", mm));
	assert_null(t.ev.data);
	assert_int_equal(t.rv_extra.len, 0);
	dt_release(&t);
}

/* getsockopt's value and length, written by the kernel. */
struct opt_fill {
	void *val;
	const void *data;
	size_t size;
	socklen_t *len;
	socklen_t new_len;
};

static void fill_opt(void *ctx)
{
	struct opt_fill *o = ctx;

	if (o->data)
		memcpy(o->val, o->data, o->size);
	*o->len = o->new_len;
}

/* The parser agrees on the socket option facts the rules read. */
static void same_sockopt(struct dt *t)
{
	if (!t->have_parsed)
		dt_parse(t);
	assert_int_equal(t->parsed.sockopt_level, t->ev.sockopt_level);
	assert_int_equal(t->parsed.sockopt_name, t->ev.sockopt_name);
	assert_int_equal(t->parsed.sockopt_value, t->ev.sockopt_value);
}

static void getsockopt_k(struct dt *t, int fd, int level, int name, void *val, socklen_t *len, long long rval,
			 int err, struct opt_fill *o)
{
	decode_k(t, SYS_getsockopt, DT_ARGS((uint64_t)fd, (uint64_t)level, (uint64_t)name, DT_PTR(val), DT_PTR(len)),
		 rval, err, o ? fill_opt : NULL, o, NULL);
}

static void sockopt_calls(void **state)
{
	(void)state;
	struct dt t;
	int v = 1, err = 0;
	socklen_t len = sizeof(int);
	char want[256];

	dt_init(&t);
	/* setsockopt(7, SOL_SOCKET, SO_REUSEADDR, [1], 4) = 0 */
	check(&t, SYS_setsockopt, DT_ARGS(7, SOL_SOCKET, SO_REUSEADDR, DT_PTR(&v), 4), 0, 0,
	      "7, SOL_SOCKET, SO_REUSEADDR, [1], 4");
	same_sockopt(&t);
	assert_int_equal(t.ev.sockopt_level, SOL_SOCKET);
	assert_int_equal(t.ev.sockopt_name, SO_REUSEADDR);
	assert_int_equal(t.ev.sockopt_value, 1);
	/* setsockopt(7, SOL_TCP, TCP_NODELAY, [1], 4) = 0 */
	check(&t, SYS_setsockopt, DT_ARGS(7, IPPROTO_TCP, TCP_NODELAY, DT_PTR(&v), 4), 0, 0,
	      "7, SOL_TCP, TCP_NODELAY, [1], 4");
	same_sockopt(&t);
	/* setsockopt(12, SOL_IP, IP_TOS, [1], 4) = 0 */
	check(&t, SYS_setsockopt, DT_ARGS(12, SOL_IP, IP_TOS, DT_PTR(&v), 4), 0, 0, "12, SOL_IP, IP_TOS, [1], 4");
	same_sockopt(&t);

	/* The outcome of a non-blocking connect, which connect-failed and
	 * connect-timeout read:
	 * getsockopt(8, SOL_SOCKET, SO_ERROR, [0], [4]) = 0
	 * getsockopt(12, SOL_SOCKET, SO_ERROR, [ECONNREFUSED], [4]) = 0 */
	struct opt_fill o = { &err, NULL, 0, &len, sizeof(int) };
	err = 0;
	getsockopt_k(&t, 8, SOL_SOCKET, SO_ERROR, &err, &len, 0, 0, &o);
	assert_string_equal(strbuf_str(&t.args), "8, SOL_SOCKET, SO_ERROR, [0], [4]");
	dt_check_same_facts(&t);
	same_sockopt(&t);
	assert_int_equal(t.ev.sockopt_value, 0);
	int refused = ECONNREFUSED;
	o.data = &refused;
	o.size = sizeof(refused);
	getsockopt_k(&t, 12, SOL_SOCKET, SO_ERROR, &err, &len, 0, 0, &o);
	assert_string_equal(strbuf_str(&t.args), "12, SOL_SOCKET, SO_ERROR, [ECONNREFUSED], [4]");
	dt_check_same_facts(&t);
	same_sockopt(&t);
	assert_int_equal(t.ev.sockopt_level, SOL_SOCKET);
	assert_int_equal(t.ev.sockopt_name, SO_ERROR);
	assert_int_equal(t.ev.sockopt_value, ECONNREFUSED);
	int timedout = ETIMEDOUT;
	o.data = &timedout;
	getsockopt_k(&t, 12, SOL_SOCKET, SO_ERROR, &err, &len, 0, 0, &o);
	assert_string_equal(strbuf_str(&t.args), "12, SOL_SOCKET, SO_ERROR, [ETIMEDOUT], [4]");
	same_sockopt(&t);

	/* getsockopt(12, SOL_SOCKET, SO_TYPE, [1], [4]) = 0
	 * getsockopt(12, SOL_SOCKET, SO_RCVBUF, [131072], [4]) = 0 */
	v = SOCK_STREAM;
	getsockopt_k(&t, 12, SOL_SOCKET, SO_TYPE, &v, &len, 0, 0, &o);
	assert_string_equal(strbuf_str(&t.args), "12, SOL_SOCKET, SO_TYPE, [1], [4]");
	dt_check_same_facts(&t);
	same_sockopt(&t);
	v = 131072;
	getsockopt_k(&t, 12, SOL_SOCKET, SO_RCVBUF, &v, &len, 0, 0, NULL);
	assert_string_equal(strbuf_str(&t.args), "12, SOL_SOCKET, SO_RCVBUF, [131072], [4]");
	same_sockopt(&t);

	/* Structures, whole and cut to the length:
	 * getsockopt(12, SOL_SOCKET, SO_LINGER, {l_onoff=0, l_linger=0}, [8]) = 0
	 * getsockopt(5, SOL_SOCKET, SO_LINGER, {l_onoff=1}, [4]) = 0
	 * getsockopt(5, SOL_SOCKET, SO_PEERCRED, {pid=7392, uid=0, gid=0}, [12]) = 0
	 * getsockopt(5, SOL_SOCKET, SO_PEERCRED, {pid=7392}, [4]) = 0 */
	struct linger lg = { 0, 0 };
	len = sizeof(lg);
	getsockopt_k(&t, 12, SOL_SOCKET, SO_LINGER, &lg, &len, 0, 0, NULL);
	assert_string_equal(strbuf_str(&t.args), "12, SOL_SOCKET, SO_LINGER, {l_onoff=0, l_linger=0}, [8]");
	dt_check_same_facts(&t);
	lg.l_onoff = 1;
	len = 4;
	getsockopt_k(&t, 5, SOL_SOCKET, SO_LINGER, &lg, &len, 0, 0, NULL);
	assert_string_equal(strbuf_str(&t.args), "5, SOL_SOCKET, SO_LINGER, {l_onoff=1}, [4]");
	struct ucred uc = { 7392, 0, 0 };
	len = sizeof(uc);
	getsockopt_k(&t, 5, SOL_SOCKET, SO_PEERCRED, &uc, &len, 0, 0, NULL);
	assert_string_equal(strbuf_str(&t.args), "5, SOL_SOCKET, SO_PEERCRED, {pid=7392, uid=0, gid=0}, [12]");
	len = 4;
	getsockopt_k(&t, 5, SOL_SOCKET, SO_PEERCRED, &uc, &len, 0, 0, NULL);
	assert_string_equal(strbuf_str(&t.args), "5, SOL_SOCKET, SO_PEERCRED, {pid=7392}, [4]");
	/* Six bytes of a linger: the cut field in hex. */
	len = 6;
	lg.l_linger = 0x0102;
	getsockopt_k(&t, 5, SOL_SOCKET, SO_LINGER, &lg, &len, 0, 0, NULL);
	assert_string_equal(strbuf_str(&t.args), "5, SOL_SOCKET, SO_LINGER, {l_onoff=1, l_linger=\"\\x02\\x01\"}, [6]");

	/* Short lengths print the bytes:
	 * getsockopt(5, SOL_SOCKET, SO_RCVBUF, "\x00\x40", [2]) = 0
	 * getsockopt(5, SOL_SOCKET, SO_ERROR, "\x00\x00", [2]) = 0 */
	v = 0x4000;
	len = 2;
	getsockopt_k(&t, 5, SOL_SOCKET, SO_RCVBUF, &v, &len, 0, 0, NULL);
	assert_string_equal(strbuf_str(&t.args), "5, SOL_SOCKET, SO_RCVBUF, \"\\x00\\x40\", [2]");
	err = 0;
	len = 2;
	getsockopt_k(&t, 5, SOL_SOCKET, SO_ERROR, &err, &len, 0, 0, NULL);
	assert_string_equal(strbuf_str(&t.args), "5, SOL_SOCKET, SO_ERROR, \"\\x00\\x00\", [2]");

	/* Failures and odd pointers:
	 * getsockopt(5, SOL_SOCKET, SO_ERROR, NULL, [4]) = -1 EFAULT
	 * getsockopt(5, SOL_SOCKET, SO_ERROR, 0x7ffdecbd8f24, NULL) = -1 EFAULT
	 * getsockopt(5, SOL_SOCKET, SO_BINDTODEVICE, 0x7ffdecbd8ee0, [40 => 0]) = 0
	 * getsockopt(5, SOL_SOCKET, SO_TYPE, 0x7ffdecbd8f24, [0]) = 0 */
	len = 4;
	getsockopt_k(&t, 5, SOL_SOCKET, SO_ERROR, NULL, &len, 0, EFAULT, NULL);
	assert_string_equal(strbuf_str(&t.args), "5, SOL_SOCKET, SO_ERROR, NULL, [4]");
	dt_check_same_facts(&t);
	getsockopt_k(&t, 5, SOL_SOCKET, SO_ERROR, &err, NULL, 0, EFAULT, NULL);
	assert_string_equal(strbuf_str(&t.args),
			    with_addrs(want, sizeof(want), "5, SOL_SOCKET, SO_ERROR, %p, NULL", &err));
	char dev[40];
	len = sizeof(dev);
	struct opt_fill z = { dev, NULL, 0, &len, 0 };
	getsockopt_k(&t, 5, SOL_SOCKET, SO_BINDTODEVICE, dev, &len, 0, 0, &z);
	assert_string_equal(strbuf_str(&t.args),
			    with_addrs(want, sizeof(want), "5, SOL_SOCKET, SO_BINDTODEVICE, %p, [40 => 0]", dev));
	len = 0;
	getsockopt_k(&t, 5, SOL_SOCKET, SO_TYPE, &v, &len, 0, 0, NULL);
	assert_string_equal(strbuf_str(&t.args), with_addrs(want, sizeof(want), "5, SOL_SOCKET, SO_TYPE, %p, [0]", &v));

	/* setsockopt(12, SOL_SOCKET, SO_RCVTIMEO_OLD, "\1\0\0\0\0\0\0\0\364\1\0\0\0\0\0\0", 16) = 0 */
	struct timeval tv = { 1, 500 };
	check(&t, SYS_setsockopt, DT_ARGS(12, SOL_SOCKET, SO_RCVTIMEO_OLD, DT_PTR(&tv), sizeof(tv)), 0, 0,
	      "12, SOL_SOCKET, SO_RCVTIMEO_OLD, \"\\1\\0\\0\\0\\0\\0\\0\\0\\364\\1\\0\\0\\0\\0\\0\\0\", 16");
	assert_int_equal(t.ev.sockopt_name, SO_RCVTIMEO_OLD);
	/* setsockopt(5, SOL_SOCKET, SO_LINGER, {l_onoff=1, l_linger=5}, 8) = 0 */
	lg = (struct linger){ 1, 5 };
	check(&t, SYS_setsockopt, DT_ARGS(5, SOL_SOCKET, SO_LINGER, DT_PTR(&lg), sizeof(lg)), 0, 0,
	      "5, SOL_SOCKET, SO_LINGER, {l_onoff=1, l_linger=5}, 8");
	/* setsockopt(12, SOL_SOCKET, SO_REUSEADDR, 0x7fff3b97fbd4, 2) = -1 EINVAL
	 * setsockopt(12, SOL_SOCKET, 0x270f /\* SO_??? *\/, [1], 4) = -1 ENOPROTOOPT
	 * setsockopt(12, 0x270f /\* SOL_?? *\/, 1, [1], 4) = -1 ENOPROTOOPT
	 * setsockopt(5, 0x11c /\* SOL_?? *\/, 1, [0], 4) = -1 EOPNOTSUPP
	 * setsockopt(3, SOL_NETLINK, NETLINK_EXT_ACK, [1], 4) = 0 */
	v = 1;
	check(&t, SYS_setsockopt, DT_ARGS(12, SOL_SOCKET, SO_REUSEADDR, DT_PTR(&v), 2), 0, EINVAL,
	      with_addrs(want, sizeof(want), "12, SOL_SOCKET, SO_REUSEADDR, %p, 2", &v));
	assert_int_equal(t.ev.sockopt_value, 0);
	check(&t, SYS_setsockopt, DT_ARGS(12, SOL_SOCKET, 9999, DT_PTR(&v), 4), 0, ENOPROTOOPT,
	      "12, SOL_SOCKET, 0x270f /* SO_??? */, [1], 4");
	same_sockopt(&t);
	check(&t, SYS_setsockopt, DT_ARGS(12, 9999, 1, DT_PTR(&v), 4), 0, ENOPROTOOPT,
	      "12, 0x270f /* SOL_?? */, 1, [1], 4");
	same_sockopt(&t);
	check(&t, SYS_setsockopt, DT_ARGS(5, 284, 1, DT_PTR(&v), 4), 0, EOPNOTSUPP, "5, 0x11c /* SOL_?? */, 1, [1], 4");
	check(&t, SYS_setsockopt, DT_ARGS(3, SOL_NETLINK, NETLINK_EXT_ACK, DT_PTR(&v), 4), 0, 0,
	      "3, SOL_NETLINK, NETLINK_EXT_ACK, [1], 4");
	dt_release(&t);
}

/* With -y, fds carry what they are; the socket's decoration becomes the
 * event's fd_shown. */
static void decorated_fds(void **state)
{
	(void)state;
	struct dt t;
	int sv[2], k[2] = { -1, -1 };
	char link[64], a[128], b[128], want[512];
	struct sockaddr_in peer = loopback4(80);

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	for (int i = 0; i < 2; i++) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", sv[i]);
		char *dst = i ? b : a;
		ssize_t n = readlink(link, dst, 127);
		assert_true(n > 0);
		dst[n] = '\0';
	}
	dt_init(&t);
	t.opts.decode_fds = true;
	memcpy(k, sv, sizeof(k));
	decode_k(&t, SYS_socketpair, DT_ARGS(AF_UNIX, SOCK_STREAM, 0, DT_PTR(k)), 0, 0, NULL, NULL, NULL);
	snprintf(want, sizeof(want), "AF_UNIX, SOCK_STREAM, 0, [%d<%s>, %d<%s>]", sv[0], a, sv[1], b);
	assert_string_equal(strbuf_str(&t.args), want);

	check(&t, SYS_connect, DT_ARGS((uint64_t)sv[0], DT_PTR(&peer), sizeof(peer)), 0, EISCONN,
	      (snprintf(want, sizeof(want), "%d<%s>, {sa_family=AF_INET, sin_port=htons(80), "
			"sin_addr=inet_addr(\"127.0.0.1\")}, 16", sv[0], a), want));
	assert_string_equal(dt_shown(t.ev.fd_shown), a);
	assert_string_equal(dt_shown(t.parsed.fd_shown), a);
	close(sv[0]);
	close(sv[1]);
	dt_release(&t);
}

static void table_rows(void **state)
{
	(void)state;
	static const long calls[] = {
		SYS_socket, SYS_socketpair, SYS_connect, SYS_bind, SYS_listen, SYS_accept, SYS_accept4,
		SYS_getsockname, SYS_getpeername, SYS_sendto, SYS_recvfrom, SYS_sendmsg, SYS_recvmsg,
		SYS_sendmmsg, SYS_recvmmsg, SYS_setsockopt, SYS_getsockopt, SYS_shutdown,
	};

	for (size_t i = 0; i < ARRAY_SIZE(calls); i++) {
		const struct dec_syscall *sc = dec_lookup(calls[i]);
		assert_non_null(sc);
		assert_non_null(sc->fn);
		/* strace 6.1 has them all in %network, none in %desc. */
		assert_int_equal(sc->classes, TC_NETWORK);
		assert_int_equal(sc->rv, calls[i] == SYS_socket || calls[i] == SYS_accept ||
					 calls[i] == SYS_accept4 ? RC_RV_FD : RC_RV_DEC);
	}
	assert_int_equal(dec_lookup(SYS_sendto)->nargs, 6);
	assert_int_equal(dec_lookup(SYS_recvmmsg)->nargs, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(socket_calls),
		cmocka_unit_test(socketpair_calls),
		cmocka_unit_test(connect_bind_calls),
		cmocka_unit_test(accept_calls),
		cmocka_unit_test(send_recv_calls),
		cmocka_unit_test(sendmsg_calls),
		cmocka_unit_test(recvmsg_calls),
		cmocka_unit_test(mmsg_calls),
		cmocka_unit_test(sockopt_calls),
		cmocka_unit_test(decorated_fds),
		cmocka_unit_test(table_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
