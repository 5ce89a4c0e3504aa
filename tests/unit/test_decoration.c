/* strace/decoration: what a -y/-yy decoration says an fd is, from the
 * decorations strace and the tracer print. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <cmocka.h>

#include "event/pump.h"
#include "strace/args.h"
#include "strace/decoration.h"
#include "strace/parser.h"
#include "util/arena.h"
#include "util/strbuf.h"

/* Where the facts the tests look at live, until the group ends. */
static struct arena facts;

/* What the decoration of the fd of LINE says, a line strace 6.1 printed
 * (the lines below are from `strace -f -y` and `-yy` of a python3 that
 * opened each kind of fd and fstat'ed it), as the log parser hands it on
 * and the pump copies it (event_own_strings). */
static const struct rc_fdfacts *shown_in(const char *line)
{
	struct strace_parser *p = strace_parser_from_buffer(line, strlen(line));
	struct strbuf err = STRBUF_INIT;
	struct rc_event e;

	assert_int_equal(strace_parser_next(p, &e, &err), 1);
	event_own_strings(&e, &facts);
	strace_parser_free(p);
	strbuf_release(&err);
	assert_non_null(e.fd_shown);
	return e.fd_shown;
}

/* What decoration TEXT says. */
static const struct rc_fdfacts *shown(const char *text)
{
	return decoration_facts(text, &facts);
}

static void assert_end(const struct rc_sockaddr *sa, int family, const char *host, int port)
{
	assert_int_equal(sa->family, family);
	assert_string_equal(sa->host, host);
	assert_int_equal(sa->port, port);
}

static void decoration_files(void **state)
{
	(void)state;
	const struct rc_fdfacts *f = shown_in("7609  newfstatat(3</etc/ld.so.cache>, \"\", {st_mode=S_IFREG|0644, "
					"st_size=57203, ...}, AT_EMPTY_PATH) = 0\n");
	assert_int_equal(f->kind, RC_FD_FILE);
	assert_string_equal(f->path, "/etc/ld.so.cache");
	assert_string_equal(f->desc, "/etc/ld.so.cache");
	assert_null(f->proto);

	/* A path is taken whole: spaces, and the "->" that makes an inet
	 * decoration two ends, are the name's (strace escapes '>'). */
	f = shown_in("7609  newfstatat(3</tmp/fdf/dir a-\\76b/name with space-\\76x>, \"\", {st_mode=S_IFREG|0644, "
		     "st_size=0, ...}, AT_EMPTY_PATH) = 0\n");
	assert_int_equal(f->kind, RC_FD_FILE);
	assert_string_equal(f->path, "/tmp/fdf/dir a->b/name with space->x");
	assert_int_equal(f->local.family, 0);
	assert_int_equal(f->peer.family, 0);

	/* strace 6 marks an unlinked file outside the brackets. */
	f = shown_in("7609  newfstatat(4</tmp/fdf/gone>(deleted), \"\", {st_mode=S_IFREG|0644, st_size=0, ...}, "
		     "AT_EMPTY_PATH) = 0\n");
	assert_int_equal(f->kind, RC_FD_FILE);
	assert_string_equal(f->path, "/tmp/fdf/gone");

	/* -yy adds a device's numbers in a decoration of its own. */
	f = shown_in("write(1</dev/null<char 1:3>>, \"hi\\n\", 3) = 3\n");
	assert_int_equal(f->kind, RC_FD_FILE);
	assert_string_equal(f->path, "/dev/null");

	/* A name that happens to end like the kernel's mark is a name. */
	f = shown("/tmp/x (deleted)");
	assert_string_equal(f->path, "/tmp/x (deleted)");

	/* No decoration, or an empty one, says nothing. */
	assert_null(shown(NULL));
	assert_null(shown(""));
}

static void decoration_pipes_and_others(void **state)
{
	(void)state;
	const struct rc_fdfacts *f = shown_in("7609  newfstatat(5<pipe:[1446145]>, \"\", {st_mode=S_IFIFO|0600, "
					"st_size=0, ...}, AT_EMPTY_PATH) = 0\n");
	assert_int_equal(f->kind, RC_FD_PIPE);
	assert_int_equal(f->inode, 1446145);
	assert_string_equal(f->desc, "pipe:[1446145]");

	f = shown_in("7609  newfstatat(7<anon_inode:[eventfd]>, \"\", {st_mode=0600, st_size=0, ...}, "
		     "AT_EMPTY_PATH) = 0\n");
	assert_int_equal(f->kind, RC_FD_OTHER);
	assert_string_equal(f->desc, "anon_inode:[eventfd]");
	assert_null(f->path);

	/* -yy names the process a pidfd refers to. */
	f = shown_in("newfstatat(3<pid:9549>, \"\", {st_mode=0700, st_size=0, ...}, AT_EMPTY_PATH) = 0\n");
	assert_int_equal(f->kind, RC_FD_OTHER);
	assert_string_equal(f->desc, "pid:9549");

	f = shown("anon_inode:inotify");
	assert_int_equal(f->kind, RC_FD_OTHER);
}

static void decoration_inet_sockets(void **state)
{
	(void)state;
	/* -y alone: a socket, nothing more. */
	const struct rc_fdfacts *f = shown_in("7618  newfstatat(8<socket:[1446235]>, \"\", {st_mode=S_IFSOCK|0777, "
					"st_size=0, ...}, AT_EMPTY_PATH) = 0\n");
	assert_int_equal(f->kind, RC_FD_SOCKET);
	assert_string_equal(f->proto, "socket");
	assert_int_equal(f->family, 0);
	assert_int_equal(f->sock_type, 0);
	assert_int_equal(f->inode, 1446235);

	/* -yy of a socket with no address yet: its inode. */
	f = shown_in("newfstatat(4<TCP:[1452599]>, \"\", {st_mode=S_IFSOCK|0777, st_size=0, ...}, "
		     "AT_EMPTY_PATH) = 0\n");
	assert_int_equal(f->kind, RC_FD_SOCKET);
	assert_string_equal(f->proto, "TCP");
	assert_int_equal(f->family, AF_INET);
	assert_int_equal(f->sock_type, SOCK_STREAM);
	assert_int_equal(f->inode, 1452599);
	assert_int_equal(f->local.family, 0);

	/* Listening: the local end only. */
	f = shown_in("7609  newfstatat(8<TCP:[127.0.0.1:58937]>, \"\", {st_mode=S_IFSOCK|0777, st_size=0, ...}, "
		     "AT_EMPTY_PATH) = 0\n");
	assert_end(&f->local, AF_INET, "127.0.0.1", 58937);
	assert_int_equal(f->peer.family, 0);
	assert_int_equal(f->peer.port, -1);

	f = shown_in("7609  newfstatat(9<TCP:[127.0.0.1:45910->127.0.0.1:58937]>, \"\", {st_mode=S_IFSOCK|0777, "
		     "st_size=0, ...}, AT_EMPTY_PATH) = 0\n");
	assert_end(&f->local, AF_INET, "127.0.0.1", 45910);
	assert_end(&f->peer, AF_INET, "127.0.0.1", 58937);
	assert_string_equal(f->desc, "TCP:[127.0.0.1:45910->127.0.0.1:58937]");

	f = shown_in("7609  newfstatat(12<TCPv6:[[::1]:34665]>, \"\", {st_mode=S_IFSOCK|0777, st_size=0, ...}, "
		     "AT_EMPTY_PATH) = 0\n");
	assert_string_equal(f->proto, "TCPv6");
	assert_int_equal(f->family, AF_INET6);
	assert_end(&f->local, AF_INET6, "::1", 34665);
	assert_int_equal(f->peer.family, 0);

	f = shown_in("7609  newfstatat(13<TCPv6:[[::1]:47178->[::1]:34665]>, \"\", {st_mode=S_IFSOCK|0777, "
		     "st_size=0, ...}, AT_EMPTY_PATH) = 0\n");
	assert_end(&f->local, AF_INET6, "::1", 47178);
	assert_end(&f->peer, AF_INET6, "::1", 34665);

	f = shown_in("7609  newfstatat(14<UDP:[127.0.0.1:45042]>, \"\", {st_mode=S_IFSOCK|0777, st_size=0, ...}, "
		     "AT_EMPTY_PATH) = 0\n");
	assert_int_equal(f->sock_type, SOCK_DGRAM);
	assert_end(&f->local, AF_INET, "127.0.0.1", 45042);

	f = shown_in("7609  newfstatat(15<UDPv6:[[::1]:36627->[::1]:9]>, \"\", {st_mode=S_IFSOCK|0777, st_size=0, "
		     "...}, AT_EMPTY_PATH) = 0\n");
	assert_int_equal(f->family, AF_INET6);
	assert_int_equal(f->sock_type, SOCK_DGRAM);
	assert_end(&f->peer, AF_INET6, "::1", 9);

	/* Every protocol the kernel names in capitals is a socket (ping's
	 * ICMP sockets); a port that is not one leaves the ends unknown. */
	f = shown("PING:[127.0.0.1:7->127.0.0.1:0]");
	assert_int_equal(f->kind, RC_FD_SOCKET);
	assert_end(&f->peer, AF_INET, "127.0.0.1", 0);
	f = shown("TCP:[127.0.0.1:80->127.0.0.1:99999]");
	assert_int_equal(f->kind, RC_FD_SOCKET);
	assert_int_equal(f->local.family, 0);
	assert_int_equal(f->peer.family, 0);
	f = shown("Tcp:[1.2.3.4:5]");
	assert_int_equal(f->kind, RC_FD_OTHER);
}

static void decoration_unix_and_netlink(void **state)
{
	(void)state;
	const struct rc_fdfacts *f = shown_in("7609  newfstatat(16<UNIX-STREAM:[1446182->1446183]>, \"\", "
					"{st_mode=S_IFSOCK|0777, st_size=0, ...}, AT_EMPTY_PATH) = 0\n");
	assert_int_equal(f->kind, RC_FD_SOCKET);
	assert_int_equal(f->family, AF_UNIX);
	assert_int_equal(f->sock_type, SOCK_STREAM);
	assert_int_equal(f->inode, 1446182);
	assert_int_equal(f->peer_inode, 1446183);
	assert_int_equal(f->local.family, 0);

	f = shown_in("7609  newfstatat(18<UNIX-STREAM:[1446188,\"/tmp/fdf/x.sock\"]>, \"\", {st_mode=S_IFSOCK|0777, "
		     "st_size=0, ...}, AT_EMPTY_PATH) = 0\n");
	assert_int_equal(f->inode, 1446188);
	assert_int_equal(f->peer_inode, 0);
	assert_end(&f->local, AF_UNIX, "/tmp/fdf/x.sock", -1);
	assert_false(f->local.abstract);

	/* The server's end of an accepted connection. */
	f = shown_in("7609  newfstatat(20<UNIX-STREAM:[1446197->1446193,\"/tmp/fdf/x.sock\"]>, \"\", "
		     "{st_mode=S_IFSOCK|0777, st_size=0, ...}, AT_EMPTY_PATH) = 0\n");
	assert_int_equal(f->peer_inode, 1446193);
	assert_end(&f->local, AF_UNIX, "/tmp/fdf/x.sock", -1);

	/* An abstract name: strace puts the '@' before the quotes, the
	 * tracer (from /proc/net/unix) inside them. */
	f = shown_in("7609  newfstatat(21<UNIX-STREAM:[1446201,@\"rc-abstract\"]>, \"\", {st_mode=S_IFSOCK|0777, "
		     "st_size=0, ...}, AT_EMPTY_PATH) = 0\n");
	assert_end(&f->local, AF_UNIX, "rc-abstract", -1);
	assert_true(f->local.abstract);
	f = shown("UNIX-STREAM:[1446201,\"@rc-abstract\"]");
	assert_end(&f->local, AF_UNIX, "rc-abstract", -1);
	assert_true(f->local.abstract);

	/* The kernel calls a datagram unix socket "UNIX". */
	f = shown_in("7609  newfstatat(22<UNIX:[1446206]>, \"\", {st_mode=S_IFSOCK|0777, st_size=0, ...}, "
		     "AT_EMPTY_PATH) = 0\n");
	assert_int_equal(f->family, AF_UNIX);
	assert_int_equal(f->sock_type, SOCK_DGRAM);
	assert_int_equal(f->inode, 1446206);

	f = shown_in("7609  newfstatat(23<NETLINK:[ROUTE:7609]>, \"\", {st_mode=S_IFSOCK|0777, st_size=0, ...}, "
		     "AT_EMPTY_PATH) = 0\n");
	assert_int_equal(f->kind, RC_FD_SOCKET);
	assert_int_equal(f->family, AF_NETLINK);
	assert_string_equal(f->proto, "NETLINK");
}

/* Facts A and B say the same. */
static void assert_same_facts(const struct rc_fdfacts *a, const struct rc_fdfacts *b)
{
	if (!a || !b) {
		assert_ptr_equal(a, b);
		return;
	}
	assert_int_equal(a->kind, b->kind);
	assert_string_equal(a->desc, b->desc);
	assert_true(!a->path == !b->path);
	assert_true(!a->proto == !b->proto);
	if (a->proto)
		assert_string_equal(a->proto, b->proto);
	assert_int_equal(a->family, b->family);
	assert_int_equal(a->inode, b->inode);
	assert_int_equal(a->peer_inode, b->peer_inode);
	assert_int_equal(a->local.family, b->local.family);
	assert_int_equal(a->peer.port, b->peer.port);
}

/* A decoration read where it lies in the line (decoration_at, its fast
 * path sixteen bytes at a time) says what its text decoded by
 * parse_decoration says, and decoration_after ends it where
 * parse_decoration does, whatever the bytes: every mix of the ones that
 * end, nest, escape or cut a decoration, at every length and offset, in
 * a buffer that ends where the argument does. */
static void decoration_at_reads_as_decoded(void **state)
{
	(void)state;
	static const char alphabet[] = "a/>-<\\\0:[]TCP1.";
	uint32_t seed = 12345;

	for (int round = 0; round < 20000; round++) {
		size_t len = 1 + (size_t)(round % 48);
		char *buf = malloc(len);
		assert_non_null(buf);
		buf[0] = '<';
		for (size_t i = 1; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			/* Mostly plain bytes, as a path is. */
			unsigned r = (seed >> 16) % 64;
			buf[i] = r < sizeof(alphabet) - 1 ? alphabet[r] : (char)('a' + r % 26);
		}
		const struct rc_fdfacts *at = decoration_at(buf, buf + len, &facts);
		const char *after;
		const char *text = parse_decoration(buf, buf + len, &facts, &after);
		assert_same_facts(at, decoration_facts(text, &facts));
		assert_ptr_equal(decoration_after(buf, buf + len), after);
		free(buf);
		arena_reset(&facts);
	}
}

static int release_facts(void **state)
{
	(void)state;
	arena_release(&facts);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(decoration_files),
		cmocka_unit_test(decoration_pipes_and_others),
		cmocka_unit_test(decoration_inet_sockets),
		cmocka_unit_test(decoration_unix_and_netlink),
		cmocka_unit_test(decoration_at_reads_as_decoded),
	};
	return cmocka_run_group_tests(tests, NULL, release_facts);
}
