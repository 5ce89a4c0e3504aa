/* The network rules: connect-failed, connect-timeout and dns-failure, fed
 * the events strace logs of those situations give, and the healthy
 * look-alikes that must stay quiet. Real logs made on loopback (or in a
 * network namespace of their own) are in tests/fixtures/rules/net-*.log,
 * each with the command that made it, checked at the end. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "rule_test.h"
#include "util/util.h"

static void sock(struct rt *t, int pid, int fd, int family, int type)
{
	struct rc_event e = rt_sys(t, pid, "socket", fd, 0);
	e.sa.family = family;
	e.flags = type;
	rt_feed(t, &e);
}

static void connect_to(struct rt *t, int pid, int fd, int family, const char *host, int port, int err,
		       const char *line)
{
	struct rc_event e = rt_sys(t, pid, "connect", 0, err);
	e.fd = fd;
	e.sa.family = family;
	e.sa.host = host;
	e.sa.port = family == AF_UNIX ? -1 : port;
	rt_feed_line(t, &e, line ? line : "connect(...)");
}

static void so_error(struct rt *t, int pid, int fd, int value, const char *line)
{
	struct rc_event e = rt_sys(t, pid, "getsockopt", 0, 0);
	e.fd = fd;
	e.sockopt_level = SOL_SOCKET;
	e.sockopt_name = SO_ERROR;
	e.sockopt_value = value;
	rt_feed_line(t, &e, line ? line : "getsockopt(...)");
}

static void close_fd(struct rt *t, int pid, int fd)
{
	rt_close_fd(t, pid, fd, RT_NO_DUR, "close(...) = 0");
}

static void poll_fd(struct rt *t, int pid, const char *name, int fd, long long ret, long long timeout_ms,
		    double dur, const char *line)
{
	struct rc_event e = rt_timed(t, pid, name, ret, 0, dur);
	e.fds[0] = fd;
	e.nfds = 1;
	e.timeout_ms = timeout_ms;
	rt_feed_line(t, &e, line ? line : "poll(...)");
}

/* A read or write (NAME) of 100 bytes. */
static void io(struct rt *t, int pid, const char *name, int fd, long long ret, int err)
{
	rt_io(t, pid, name, fd, 100, ret, err, RT_NO_DUR, "io(...)");
}

/* ---- connect-failed ---- */

static void refused_blocking(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 100, 3, AF_INET, SOCK_STREAM);
	connect_to(&t, 100, 3, AF_INET, "127.0.0.1", 8080, ECONNREFUSED,
		   "connect(3, {sa_family=AF_INET, sin_port=htons(8080), sin_addr=inet_addr(\"127.0.0.1\")}, 16)"
		   " = -1 ECONNREFUSED (Connection refused)");
	rt_write(&t, 100, 2, "error: Connection refused\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "connect-failed");
	assert_non_null(f);
	assert_string_equal(f->address, "127.0.0.1:8080");
	assert_int_equal(f->err, ECONNREFUSED);
	assert_int_equal(f->pid, 100);
	assert_string_equal(f->syscall, "connect");
	assert_true(f->unrecovered);
	assert_true(f->echoed);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	assert_true(contains(f->summary, "'127.0.0.1:8080'"));
	assert_true(contains(f->summary, "refused"));
	assert_true(has_evidence(f, "ECONNREFUSED"));
	assert_true(contains(f->advice, "nothing is listening"));
	assert_int_equal(f->count, 1);
	rt_release(&t);
}

static void retries_grouped(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	for (int i = 0; i < 5; i++) {
		sock(&t, 100, 3, AF_INET, SOCK_STREAM);
		connect_to(&t, 100, 3, AF_INET, "127.0.0.1", 5432, ECONNREFUSED, NULL);
		close_fd(&t, 100, 3);
		t.now += 1.0;
	}
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	assert_int_equal(rt_count(&t, "connect-failed"), 1);
	const struct rc_finding *f = rt_find(&t, "connect-failed");
	assert_int_equal(f->count, 5);
	assert_true(contains(f->summary, "5 attempts"));
	assert_true(f->unrecovered);
	rt_release(&t);
}

static void refused_then_connected(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 100, 3, AF_INET, SOCK_STREAM);
	connect_to(&t, 100, 3, AF_INET, "127.0.0.1", 8080, ECONNREFUSED, NULL);
	close_fd(&t, 100, 3);
	sock(&t, 100, 3, AF_INET, SOCK_STREAM);
	connect_to(&t, 100, 3, AF_INET, "127.0.0.1", 8080, 0, NULL);
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "connect-failed");
	assert_non_null(f);
	assert_false(f->unrecovered);
	assert_int_not_equal(f->effective, RC_SEV_ERROR);
	rt_release(&t);
}

/* "localhost": ::1 refused, then 127.0.0.1 on the same port answers. */
static void other_family_recovers(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 100, 3, AF_INET6, SOCK_STREAM);
	connect_to(&t, 100, 3, AF_INET6, "::1", 8080, ECONNREFUSED, NULL);
	close_fd(&t, 100, 3);
	sock(&t, 100, 3, AF_INET, SOCK_STREAM);
	connect_to(&t, 100, 3, AF_INET, "127.0.0.1", 8080, 0, NULL);
	rt_exit(&t, 100, 0);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "connect-failed");
	assert_non_null(f);
	assert_string_equal(f->address, "[::1]:8080");
	assert_false(f->unrecovered);
	assert_true(contains(f->summary, "'127.0.0.1:8080' worked"));
	assert_int_equal(f->effective, RC_SEV_INFO);
	assert_int_equal(rt_errors(&t), 0);
	rt_release(&t);
}

static void nonblocking_so_error(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 100, 4, AF_INET, SOCK_STREAM | SOCK_NONBLOCK);
	connect_to(&t, 100, 4, AF_INET, "127.0.0.1", 9000, EINPROGRESS,
		   "connect(4, {sa_family=AF_INET, sin_port=htons(9000)}, 16) = -1 EINPROGRESS");
	poll_fd(&t, 100, "poll", 4, 1, 2500, 0.0001, NULL);
	so_error(&t, 100, 4, ECONNREFUSED, "getsockopt(4, SOL_SOCKET, SO_ERROR, [ECONNREFUSED], [4]) = 0");
	close_fd(&t, 100, 4);
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "connect-failed");
	assert_non_null(f);
	assert_string_equal(f->address, "127.0.0.1:9000");
	assert_int_equal(f->err, ECONNREFUSED);
	assert_string_equal(f->syscall, "getsockopt");
	assert_true(has_evidence(f, "EINPROGRESS"));
	assert_true(has_evidence(f, "SO_ERROR"));
	/* Refused is not a timeout. */
	assert_null(rt_find(&t, "connect-timeout"));
	rt_release(&t);
}

static void nonblocking_io_error(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 100, 4, AF_INET, SOCK_STREAM | SOCK_NONBLOCK);
	connect_to(&t, 100, 4, AF_INET, "127.0.0.1", 9000, EINPROGRESS, NULL);
	io(&t, 100, "sendto", 4, 0, EPIPE);
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "connect-failed");
	assert_non_null(f);
	assert_string_equal(f->address, "127.0.0.1:9000");
	assert_string_equal(f->syscall, "sendto");
	rt_release(&t);
}

/* sendmmsg moves data through the socket as sendto does (the table's
 * CL_SOCK_IO): its error tells how a pending connect ended. */
static void nonblocking_sendmmsg_error(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 100, 4, AF_INET, SOCK_STREAM | SOCK_NONBLOCK);
	connect_to(&t, 100, 4, AF_INET, "127.0.0.1", 9000, EINPROGRESS, NULL);
	io(&t, 100, "sendmmsg", 4, 0, ECONNREFUSED);
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "connect-failed");
	assert_non_null(f);
	assert_string_equal(f->address, "127.0.0.1:9000");
	assert_string_equal(f->syscall, "sendmmsg");
	rt_release(&t);
}

/* A connection that worked and was later reset is not a failed connect. */
static void reset_after_connect_ignored(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 100, 4, AF_INET, SOCK_STREAM | SOCK_NONBLOCK);
	connect_to(&t, 100, 4, AF_INET, "127.0.0.1", 9000, EINPROGRESS, NULL);
	so_error(&t, 100, 4, 0, NULL);
	io(&t, 100, "sendto", 4, 100, 0);
	io(&t, 100, "recvfrom", 4, 0, ECONNRESET);
	sock(&t, 100, 5, AF_INET, SOCK_STREAM | SOCK_NONBLOCK);
	connect_to(&t, 100, 5, AF_INET, "127.0.0.1", 9001, EINPROGRESS, NULL);
	io(&t, 100, "write", 5, 100, 0);
	io(&t, 100, "read", 5, 0, ECONNRESET);
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	assert_null(rt_find(&t, "connect-failed"));
	rt_release(&t);
}

/* A client given a list of addresses for one service tries them in
 * turn: all refused is one failure, named once; a later one that worked
 * makes it a fallback. */
static void addresses_tried_in_turn(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 100, 3, AF_INET6, SOCK_STREAM);
	connect_to(&t, 100, 3, AF_INET6, "::1", 5432, ECONNREFUSED, "connect(3, ::1) = -1 ECONNREFUSED");
	close_fd(&t, 100, 3);
	sock(&t, 100, 3, AF_INET, SOCK_STREAM);
	connect_to(&t, 100, 3, AF_INET, "127.0.0.1", 5432, ECONNREFUSED, "connect(3, 127.0.0.1) = -1 ECONNREFUSED");
	rt_exit(&t, 100, 2);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "connect-failed"), 1);
	const struct rc_finding *f = rt_find(&t, "connect-failed");
	assert_string_equal(f->address, "[::1]:5432");
	assert_true(contains(f->summary, "so was '127.0.0.1:5432', tried next"));
	assert_true(has_evidence(f, "127.0.0.1) = -1"));
	assert_int_equal(f->effective, RC_SEV_ERROR);
	rt_release(&t);

	/* Two unix sockets, the second worked. */
	rt_init(&t);
	sock(&t, 100, 3, AF_UNIX, SOCK_STREAM);
	connect_to(&t, 100, 3, AF_UNIX, "/run/a/api.sock", 0, ENOENT, NULL);
	close_fd(&t, 100, 3);
	sock(&t, 100, 3, AF_UNIX, SOCK_STREAM);
	connect_to(&t, 100, 3, AF_UNIX, "/run/b/api.sock", 0, 0, NULL);
	rt_exit(&t, 100, 0);
	rt_finish(&t);
	f = rt_find(&t, "connect-failed");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_INFO);
	assert_true(contains(f->summary, "then '/run/b/api.sock' worked"));
	rt_release(&t);
}

/* Between two addresses a client may wait with select or pselect6 as
 * with poll, and tell the failure with sendto on its stderr: still the
 * next of its list (the table's CL_POLL and CL_WRITE). */
static void addresses_in_turn_select(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 100, 3, AF_INET6, SOCK_STREAM);
	connect_to(&t, 100, 3, AF_INET6, "::1", 5432, ECONNREFUSED, "connect(3, ::1) = -1 ECONNREFUSED");
	poll_fd(&t, 100, "pselect6", 3, 0, 0, 0.0001, "pselect6(4, [3], [3], NULL, {tv_sec=0, tv_nsec=0}, NULL) = 0");
	struct rc_event w = rt_sys(&t, 100, "sendto", 20, 0);
	w.fd = 2;
	w.len = 20;
	rt_feed(&t, &w);
	close_fd(&t, 100, 3);
	sock(&t, 100, 3, AF_INET, SOCK_STREAM);
	connect_to(&t, 100, 3, AF_INET, "127.0.0.1", 5432, ECONNREFUSED, "connect(3, 127.0.0.1) = -1 ECONNREFUSED");
	rt_exit(&t, 100, 2);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "connect-failed"), 1);
	const struct rc_finding *f = rt_find(&t, "connect-failed");
	assert_true(contains(f->summary, "so was '127.0.0.1:5432', tried next"));
	rt_release(&t);
}

static void unix_socket_missing(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 100, 3, AF_UNIX, SOCK_STREAM);
	connect_to(&t, 100, 3, AF_UNIX, "/run/x.sock", 0, ENOENT,
		   "connect(3, {sa_family=AF_UNIX, sun_path=\"/run/x.sock\"}, 110) = -1 ENOENT");
	/* Other work between: a socket of its own, not the next of a list. */
	struct rc_event w = rt_sys(&t, 100, "openat", 5, 0);
	w.path = "/etc/app.conf";
	rt_feed(&t, &w);
	sock(&t, 100, 4, AF_UNIX, SOCK_STREAM);
	connect_to(&t, 100, 4, AF_UNIX, "/run/y.sock", 0, ECONNREFUSED, NULL);
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	assert_int_equal(rt_count(&t, "connect-failed"), 2);
	for (size_t i = 0; i < t.out.count; i++) {
		const struct rc_finding *f = t.out.v[i];
		if (strcmp(f->rule, "connect-failed") != 0)
			continue;
		if (strcmp(f->address, "/run/x.sock") == 0) {
			assert_string_equal(f->path, "/run/x.sock");
			assert_int_equal(f->err, ENOENT);
			assert_true(contains(f->advice, "not running"));
		} else {
			assert_string_equal(f->address, "/run/y.sock");
			assert_true(contains(f->advice, "stale"));
		}
	}
	rt_release(&t);
}

/* What is on disk now says more: a socket whose directory is missing too
 * (its service never started here), a path that is a file, not a socket. */
static void unix_socket_on_disk(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 100, 3, AF_UNIX, SOCK_STREAM);
	connect_to(&t, 100, 3, AF_UNIX, "/nonexistent-rc-test/run/app.sock", 0, ENOENT, NULL);
	sock(&t, 100, 4, AF_UNIX, SOCK_STREAM);
	connect_to(&t, 100, 4, AF_UNIX, "/etc/passwd", 0, ECONNREFUSED, NULL);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_match(&t, "connect-failed", "app.sock");
	assert_non_null(f);
	assert_true(contains(f->advice, "nor the directory '/nonexistent-rc-test'"));
	f = rt_match(&t, "connect-failed", "/etc/passwd");
	assert_non_null(f);
	assert_true(contains(f->advice, "'/etc/passwd' is a regular file, not a socket"));
	rt_release(&t);
}

/* syslog() on a machine with no syslog daemon: a datagram socket that
 * cannot reach /dev/log drops what it sends, and the program goes on; a
 * warning even when the program fails, never the cause. */
static void unix_datagram_missing(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	for (int i = 0; i < 3; i++) {
		sock(&t, 100, 3, AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC);
		connect_to(&t, 100, 3, AF_UNIX, "/dev/log", 0, ENOENT,
			   "connect(3, {sa_family=AF_UNIX, sun_path=\"/dev/log\"}, 110) = -1 ENOENT");
		struct rc_event e = rt_sys(&t, 100, "close", 0, 0);
		e.fd = 3;
		rt_feed(&t, &e);
	}
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "connect-failed");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_WARNING);
	assert_true(contains(f->summary, "a datagram socket"));
	rt_release(&t);
}

/* libnss_systemd asks systemd's userdb multiplexer first, then reads
 * the records in the socket's directory: a source tried, then the next. */
static void unix_socket_then_its_directory(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 100, 3, AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK);
	connect_to(&t, 100, 3, AF_UNIX, "/run/systemd/userdb/io.systemd.Multiplexer", 0, ENOENT, NULL);
	struct rc_event e = rt_sys(&t, 100, "close", 0, 0);
	e.fd = 3;
	rt_feed(&t, &e);
	e = rt_sys(&t, 100, "openat", -1, ENOENT);
	e.path = "/run/systemd/userdb/";
	e.flags = O_RDONLY | O_DIRECTORY;
	rt_feed(&t, &e);
	/* A service's own socket, looked for once: the cause. */
	sock(&t, 100, 3, AF_UNIX, SOCK_STREAM);
	connect_to(&t, 100, 3, AF_UNIX, "/run/app/app.sock", 0, ENOENT, NULL);
	e = rt_sys(&t, 100, "openat", 4, 0);
	e.path = "/etc/app/retry.conf";
	rt_feed(&t, &e);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	for (size_t i = 0; i < t.out.count; i++) {
		const struct rc_finding *f = t.out.v[i];
		if (strcmp(f->rule, "connect-failed") != 0)
			continue;
		if (contains(f->address, "Multiplexer"))
			assert_int_equal(f->effective, RC_SEV_INFO);
		else
			assert_int_equal(f->effective, RC_SEV_ERROR);
	}
	assert_int_equal(rt_count(&t, "connect-failed"), 2);
	rt_release(&t);
}

/* su (a real log): its PAM stack's sockets, none of which exist in a
 * container, then the command it starts fails, and su passes the status
 * on. The command's missing file is the cause; su's sockets are no error,
 * cat's "No such file or directory" notwithstanding. */
static void su_wrapper_sockets(void **state)
{
	struct rt t;
	(void)state;
	const struct rc_finding *f =
		rt_expect_log(&t, "net-su-child-fails.log", "connect-failed", "io.systemd.Multiplexer", true);
	assert_int_equal(f->effective, RC_SEV_INFO);
	f = rt_match(&t, "connect-failed", "system_bus_socket");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_WARNING);
	assert_string_equal(t.out.v[0]->rule, "missing-file");
	assert_true(contains(t.out.v[0]->summary, "nonexistent.conf"));
	rt_release(&t);
}

/* glibc asks nscd on every lookup; DNS belongs to dns-failure. */
static void noise_and_dns_ignored(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 100, 3, AF_UNIX, SOCK_STREAM);
	connect_to(&t, 100, 3, AF_UNIX, "/var/run/nscd/socket", 0, ENOENT, NULL);
	sock(&t, 100, 4, AF_INET, SOCK_STREAM);
	connect_to(&t, 100, 4, AF_INET, "127.0.0.53", 53, ECONNREFUSED, NULL);
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	assert_null(rt_find(&t, "connect-failed"));
	rt_release(&t);
}

/* In a run that succeeded, a refusal is at most a warning. */
static void healthy_run_not_error(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 100, 3, AF_INET, SOCK_STREAM);
	connect_to(&t, 100, 3, AF_INET, "127.0.0.1", 6379, ECONNREFUSED, NULL);
	rt_exit(&t, 100, 0);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "connect-failed");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_WARNING);
	assert_int_equal(rt_errors(&t), 0);
	rt_release(&t);
}

/* A metrics agent that is not running: worth a warning, not the cause. */
static void udp_port_unreachable(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 100, 3, AF_INET, SOCK_DGRAM);
	connect_to(&t, 100, 3, AF_INET, "127.0.0.1", 8125, 0, NULL);
	io(&t, 100, "sendto", 3, 20, 0);
	io(&t, 100, "sendto", 3, -1, ECONNREFUSED);
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "connect-failed");
	assert_non_null(f);
	assert_string_equal(f->address, "127.0.0.1:8125");
	assert_true(contains(f->summary, "datagrams"));
	assert_int_equal(f->effective, RC_SEV_WARNING);
	rt_release(&t);
}

static void unreachable_advice(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 100, 3, AF_INET6, SOCK_STREAM);
	connect_to(&t, 100, 3, AF_INET6, "2001:db8::1", 443, ENETUNREACH, NULL);
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "connect-failed");
	assert_non_null(f);
	assert_string_equal(f->address, "[2001:db8::1]:443");
	assert_true(contains(f->summary, "network unreachable"));
	assert_true(contains(f->advice, "ip route"));
	rt_release(&t);
}

/* ---- connect-timeout ---- */

/* Story 1: a blocking connect to the CDN gives up after 30 s. */
static void blocking_timeout(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 100, 3, AF_INET, SOCK_STREAM);
	struct rc_event e = rt_timed(&t, 100, "connect", -1, ETIMEDOUT, 30.01);
	e.fd = 3;
	e.sa.family = AF_INET;
	e.sa.host = "104.18.25.73";
	e.sa.port = 443;
	rt_feed_line(&t, &e, "connect(3, {sa_family=AF_INET, sin_port=htons(443), "
		     "sin_addr=inet_addr(\"104.18.25.73\")}, 16) = -1 ETIMEDOUT (Connection timed out) <30.010000>");
	rt_write(&t, 100, 2, "model load failed: connection timed out\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "connect-timeout");
	assert_non_null(f);
	assert_string_equal(f->address, "104.18.25.73:443");
	assert_int_equal(f->err, ETIMEDOUT);
	assert_true(f->duration_s > 30.0 && f->duration_s < 30.1);
	assert_true(contains(f->summary, "after 30.0 s"));
	assert_true(contains(f->advice, "probe"));
	assert_true(f->unrecovered);
	assert_true(f->echoed);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	/* Not a connect-failed. */
	assert_null(rt_find(&t, "connect-failed"));
	rt_release(&t);
}

/* Python's create_connection(timeout=2.5): EINPROGRESS, poll expires. */
static void poll_timeout(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 100, 4, AF_INET, SOCK_STREAM | SOCK_CLOEXEC);
	connect_to(&t, 100, 4, AF_INET, "127.0.0.1", 7777, EINPROGRESS,
		   "connect(4, {sa_family=AF_INET, sin_port=htons(7777)}, 16) = -1 EINPROGRESS");
	poll_fd(&t, 100, "poll", 4, 0, 2500, 2.502,
		"poll([{fd=4, events=POLLOUT|POLLERR}], 1, 2500) = 0 (Timeout) <2.502>");
	close_fd(&t, 100, 4);
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "connect-timeout");
	assert_non_null(f);
	assert_string_equal(f->address, "127.0.0.1:7777");
	assert_true(f->duration_s > 2.4 && f->duration_s < 2.6);
	assert_true(contains(f->summary, "after 2.5 s"));
	assert_true(has_evidence(f, "EINPROGRESS"));
	assert_true(has_evidence(f, "Timeout"));
	rt_release(&t);
}

/* Attempts belong to the program that made them (a real log): a loopback
 * server fills its own accept queue by connecting to itself twice, then
 * a client's create_connection(timeout=2.5) times out on it. The client's
 * one attempt of 2.5 s is the finding, in its process; the server's
 * connects to a port it bound itself are no wait at all (they made "6.2 s,
 * 3 attempts" of it, in the server). */
static void attempts_belong_to_their_program(void **state)
{
	struct rt t;
	(void)state;
	const struct rc_finding *f =
		rt_expect_log(&t, "net-connect-to-itself.log", "connect-timeout", "after 2.5 s", true);
	assert_int_equal(rt_count(&t, "connect-timeout"), 1);
	assert_false(contains(f->summary, "attempts"));
	assert_int_equal(f->pid, 11229);
	assert_true(f->duration_s > 2.4 && f->duration_s < 2.6);
	rt_release(&t);
}

/* An excerpt that ends waiting for the DNS server's answer: the lookup
 * is the cause, and the thread blocked in the poll for it is its
 * consequence, not a warning apart. */
static void dns_wait_at_the_end(void **state)
{
	struct rt t;
	(void)state;
	const struct rc_finding *f = rt_expect_log(&t, "net-dns-excerpt-unanswered.log", "dns-failure",
						   "still waiting when the trace ended", true);
	const struct rc_finding *b = rt_find(&t, "blocked-thread");
	assert_non_null(b);
	assert_ptr_equal(b->cause, f);
	assert_null(f->cause);
	rt_release(&t);
}

/* An infinite poll until the kernel gives up: SO_ERROR says ETIMEDOUT. */
static void so_error_timeout(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 100, 4, AF_INET, SOCK_STREAM | SOCK_NONBLOCK);
	connect_to(&t, 100, 4, AF_INET, "127.0.0.1", 7777, EINPROGRESS, NULL);
	poll_fd(&t, 100, "poll", 4, 1, -1, 127.0, NULL);
	so_error(&t, 100, 4, ETIMEDOUT, "getsockopt(4, SOL_SOCKET, SO_ERROR, [ETIMEDOUT], [4]) = 0");
	close_fd(&t, 100, 4);
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "connect-timeout");
	assert_non_null(f);
	assert_true(f->duration_s > 126.9 && f->duration_s < 127.2);
	assert_true(has_evidence(f, "[ETIMEDOUT]"));
	assert_int_equal(f->count, 1);
	assert_null(rt_find(&t, "connect-failed"));
	rt_release(&t);
}

/* curl polls in slices: the attempt is one timeout, the wait the sum. */
static void sliced_polls_one_attempt(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 100, 5, AF_INET, SOCK_STREAM | SOCK_NONBLOCK);
	connect_to(&t, 100, 5, AF_INET, "127.0.0.1", 7777, EINPROGRESS, NULL);
	for (int i = 0; i < 3; i++)
		poll_fd(&t, 100, "ppoll", 5, 0, 1000, 1.0, NULL);
	close_fd(&t, 100, 5);
	rt_exit(&t, 100, 28);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "connect-timeout");
	assert_non_null(f);
	assert_int_equal(f->count, 1);
	assert_true(f->duration_s > 2.9 && f->duration_s < 3.2);
	rt_release(&t);
}

static void nonblocking_success_quiet(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 100, 4, AF_INET, SOCK_STREAM | SOCK_NONBLOCK);
	connect_to(&t, 100, 4, AF_INET, "127.0.0.1", 7777, EINPROGRESS, NULL);
	poll_fd(&t, 100, "poll", 4, 1, 2500, 0.001, NULL);
	so_error(&t, 100, 4, 0, NULL);
	t.now += 10;
	close_fd(&t, 100, 4);
	/* An idle pooled connection, used, then closed much later. */
	sock(&t, 100, 5, AF_INET, SOCK_STREAM | SOCK_NONBLOCK);
	connect_to(&t, 100, 5, AF_INET, "127.0.0.1", 7778, EINPROGRESS, NULL);
	io(&t, 100, "write", 5, 100, 0);
	t.now += 10;
	close_fd(&t, 100, 5);
	/* Happy eyeballs: the loser is closed quickly. */
	sock(&t, 100, 6, AF_INET6, SOCK_STREAM | SOCK_NONBLOCK);
	connect_to(&t, 100, 6, AF_INET6, "::1", 7779, EINPROGRESS, NULL);
	t.now += 0.2;
	close_fd(&t, 100, 6);
	rt_exit(&t, 100, 0);
	rt_finish(&t);

	assert_null(rt_find(&t, "connect-timeout"));
	rt_release(&t);
}

/* An event loop gives up on a connect after 5 s without polling it. */
static void abandoned_after_long_wait(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 100, 7, AF_INET, SOCK_STREAM | SOCK_NONBLOCK);
	connect_to(&t, 100, 7, AF_INET, "127.0.0.1", 7777, EINPROGRESS, NULL);
	t.now += 5.0;
	close_fd(&t, 100, 7);
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "connect-timeout");
	assert_non_null(f);
	assert_true(f->duration_s > 4.9 && f->duration_s < 5.1);
	rt_release(&t);
}

static void still_pending_at_end(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 100, 4, AF_INET, SOCK_STREAM | SOCK_NONBLOCK);
	connect_to(&t, 100, 4, AF_INET, "127.0.0.1", 7777, EINPROGRESS, NULL);
	poll_fd(&t, 100, "poll", 4, 0, 3000, 3.0, NULL);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "connect-timeout");
	assert_non_null(f);
	assert_true(contains(f->summary, "never completed"));
	rt_release(&t);
}

static void timeout_retries_and_recovery(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	for (int i = 0; i < 2; i++) {
		sock(&t, 100, 4, AF_INET, SOCK_STREAM | SOCK_NONBLOCK);
		connect_to(&t, 100, 4, AF_INET, "127.0.0.1", 7777, EINPROGRESS, NULL);
		poll_fd(&t, 100, "poll", 4, 0, 1000, 1.0, NULL);
		close_fd(&t, 100, 4);
	}
	sock(&t, 100, 4, AF_INET, SOCK_STREAM);
	connect_to(&t, 100, 4, AF_INET, "127.0.0.1", 7777, 0, NULL);
	rt_exit(&t, 100, 0);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "connect-timeout");
	assert_non_null(f);
	assert_int_equal(f->count, 2);
	assert_false(f->unrecovered);
	assert_int_equal(f->effective, RC_SEV_INFO);
	rt_release(&t);
}

/* ---- dns-failure ---- */

/* A DNS message: header (id, flags, qdcount 1, ancount), the name as
 * labels, type and class; TCP adds the length. Returns its length. */
static size_t dns_msg(unsigned char *buf, unsigned id, bool response, int rcode, int ancount,
		      const char *name, int qtype, bool tcp)
{
	size_t n = tcp ? 2 : 0;
	buf[n++] = (unsigned char)(id >> 8);
	buf[n++] = (unsigned char)id;
	buf[n++] = response ? 0x81 : 0x01;
	buf[n++] = (unsigned char)((response ? 0x80 : 0) | rcode);
	buf[n++] = 0;
	buf[n++] = 1;
	buf[n++] = 0;
	buf[n++] = (unsigned char)ancount;
	for (int i = 0; i < 4; i++)
		buf[n++] = 0;
	const char *p = name;
	while (*p) {
		const char *dot = strchr(p, '.');
		size_t len = dot ? (size_t)(dot - p) : strlen(p);
		buf[n++] = (unsigned char)len;
		memcpy(buf + n, p, len);
		n += len;
		p += len;
		if (*p == '.')
			p++;
	}
	buf[n++] = 0;
	buf[n++] = 0;
	buf[n++] = (unsigned char)qtype;
	buf[n++] = 0;
	buf[n++] = 1;
	if (tcp) {
		buf[0] = (unsigned char)((n - 2) >> 8);
		buf[1] = (unsigned char)(n - 2);
	}
	return n;
}

static void dns_send(struct rt *t, int pid, int fd, const char *name, int qtype, size_t cut)
{
	unsigned char buf[512];
	size_t n = dns_msg(buf, 0xbdbf, false, 0, 0, name, qtype, false);
	struct rc_event e = rt_sys(t, pid, "sendmmsg", 2, 0);
	e.fd = fd;
	e.data = buf;
	e.data_len = cut && cut < n ? cut : n;
	e.data_truncated = cut && cut < n;
	rt_feed_line(t, &e, "sendmmsg(3, [{msg_hdr={...\"\\275\\277\\1\\0\\0\\1\"...}], 2, MSG_NOSIGNAL) = 2");
}

static void dns_recv_from(struct rt *t, int pid, int fd, const char *name, int qtype, int rcode, int ancount,
			  int port)
{
	unsigned char buf[512];
	size_t n = dns_msg(buf, 0xbdbf, true, rcode, ancount, name, qtype, false);
	struct rc_event e = rt_sys(t, pid, "recvfrom", (long long)n, 0);
	e.fd = fd;
	e.data = buf;
	e.data_len = n;
	e.len = 2048;
	e.sa.family = AF_INET;
	e.sa.host = "127.0.0.53";
	e.sa.port = port;
	rt_feed_line(t, &e, "recvfrom(3, \"\\275\\277\\201\\203\"..., 2048, 0, {...}, [28 => 16]) = 120");
}

static void dns_recv(struct rt *t, int pid, int fd, const char *name, int qtype, int rcode, int ancount)
{
	dns_recv_from(t, pid, fd, name, qtype, rcode, ancount, 53);
}

static void dns_socket(struct rt *t, int pid, int fd, const char *server)
{
	sock(t, pid, fd, AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC);
	connect_to(t, pid, fd, AF_INET, server, 53, 0, NULL);
}

static void nxdomain(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	dns_socket(&t, 100, 3, "127.0.0.53");
	dns_send(&t, 100, 3, "weights.mirror.example.com", 1, 0);
	poll_fd(&t, 100, "poll", 3, 1, 5000, 0.001, NULL);
	dns_recv(&t, 100, 3, "weights.mirror.example.com", 1, 3, 0);
	dns_recv(&t, 100, 3, "weights.mirror.example.com", 28, 3, 0);
	close_fd(&t, 100, 3);
	rt_write(&t, 100, 2, "Could not resolve host: weights.mirror.example.com\n");
	rt_exit(&t, 100, 6);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "dns-failure");
	assert_non_null(f);
	assert_string_equal(f->host, "weights.mirror.example.com");
	assert_string_equal(f->address, "127.0.0.53:53");
	assert_true(contains(f->summary, "NXDOMAIN"));
	assert_true(contains(f->message, "NXDOMAIN"));
	assert_true(contains(f->advice, "getent hosts weights.mirror.example.com"));
	assert_true(f->unrecovered);
	assert_true(f->echoed);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	assert_true(has_evidence(f, "sendmmsg"));
	assert_true(has_evidence(f, "recvfrom"));
	/* Port 53 is not a connect-failed. */
	assert_null(rt_find(&t, "connect-failed"));
	rt_release(&t);
}

/* strace -s 32 cuts the query: the name is reported as far as it goes. */
static void truncated_name(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	dns_socket(&t, 100, 3, "127.0.0.53");
	dns_send(&t, 100, 3, "weights.mirror.example.com", 1, 32);
	poll_fd(&t, 100, "poll", 3, 0, 5000, 5.0,
		"poll([{fd=3, events=POLLIN}], 1, 5000) = 0 (Timeout) <5.005>");
	dns_send(&t, 100, 3, "weights.mirror.example.com", 1, 32);
	poll_fd(&t, 100, "poll", 3, 0, 5000, 5.0, NULL);
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "dns-failure");
	assert_non_null(f);
	assert_true(contains(f->host, "weights.mirror.exam"));
	assert_true(contains(f->host, "..."));
	assert_true(contains(f->summary, "timeout"));
	assert_true(f->duration_s > 9.9 && f->duration_s < 10.1);
	assert_int_equal(f->count, 2);
	assert_true(contains(f->advice, "/etc/resolv.conf"));
	rt_release(&t);
}

/* glibc asks A and AAAA; an IPv4-only host has an empty AAAA answer. */
static void empty_aaaa_is_fine(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	dns_socket(&t, 100, 3, "127.0.0.53");
	dns_send(&t, 100, 3, "example.org", 1, 0);
	dns_recv(&t, 100, 3, "example.org", 28, 0, 0);
	dns_recv(&t, 100, 3, "example.org", 1, 0, 1);
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	assert_null(rt_find(&t, "dns-failure"));
	rt_release(&t);
}

/* resolv.conf's search list: "db.corp.example" fails, "db" resolves. */
static void search_domain_probing(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	dns_socket(&t, 100, 3, "127.0.0.53");
	dns_send(&t, 100, 3, "db.corp.example", 1, 0);
	dns_recv(&t, 100, 3, "db.corp.example", 1, 3, 0);
	dns_send(&t, 100, 3, "db", 1, 0);
	dns_recv(&t, 100, 3, "db", 1, 0, 1);
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	assert_null(rt_find(&t, "dns-failure"));
	rt_release(&t);
}

/* Nothing listens on 127.0.0.53:53: the query comes back refused. */
static void resolver_not_running(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	dns_socket(&t, 100, 3, "127.0.0.53");
	dns_send(&t, 100, 3, "api.example.net", 1, 0);
	io(&t, 100, "recvfrom", 3, -1, ECONNREFUSED);
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "dns-failure");
	assert_non_null(f);
	assert_string_equal(f->host, "api.example.net");
	assert_int_equal(f->err, ECONNREFUSED);
	assert_true(contains(f->summary, "connection refused"));
	assert_true(contains(f->advice, "not running"));
	rt_release(&t);
}

/* The same as glibc sees it: POLLERR after the query, no recv at all;
 * it sends again, then closes the socket. */
static void resolver_not_running_glibc(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	dns_socket(&t, 100, 3, "127.0.0.1");
	poll_fd(&t, 100, "poll", 3, 1, 0, 0.00001, NULL);
	dns_send(&t, 100, 3, "api.example.net", 1, 0);
	poll_fd(&t, 100, "poll", 3, 1, 1000, 0.00001, NULL);
	struct rc_event e = rt_sys(&t, 100, "sendto", 44, 0);
	unsigned char buf[512];
	size_t n = dns_msg(buf, 1, false, 0, 0, "api.example.net", 1, false);
	e.fd = 3;
	e.data = buf;
	e.data_len = n;
	rt_feed_line(&t, &e, "sendto(3, ...) = 44");
	poll_fd(&t, 100, "poll", 3, 1, 999, 0.00001, NULL);
	close_fd(&t, 100, 3);
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "dns-failure");
	assert_non_null(f);
	assert_string_equal(f->host, "api.example.net");
	assert_string_equal(f->address, "127.0.0.1:53");
	assert_true(contains(f->summary, "no DNS server listening"));
	assert_true(contains(f->advice, "not running"));
	rt_release(&t);
}

static void tcp_servfail(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 100, 5, AF_INET, SOCK_STREAM);
	connect_to(&t, 100, 5, AF_INET, "127.0.0.1", 53, 0, NULL);
	unsigned char buf[512];
	size_t n = dns_msg(buf, 7, false, 0, 0, "big.example", 1, true);
	struct rc_event e = rt_sys(&t, 100, "write", (long long)n, 0);
	e.fd = 5;
	e.data = buf;
	e.data_len = n;
	rt_feed_line(&t, &e, "write(5, ...)");
	n = dns_msg(buf, 7, true, 2, 0, "big.example", 1, true);
	e = rt_sys(&t, 100, "read", (long long)n, 0);
	e.fd = 5;
	e.data = buf;
	e.data_len = n;
	rt_feed_line(&t, &e, "read(5, ...)");
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "dns-failure");
	assert_non_null(f);
	assert_string_equal(f->host, "big.example");
	assert_string_equal(f->address, "127.0.0.1:53");
	assert_true(contains(f->summary, "SERVFAIL"));
	rt_release(&t);
}

/* A timeout on the first server, an answer from the second: slow. */
static void slow_but_resolved(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	dns_socket(&t, 100, 3, "127.0.0.2");
	dns_send(&t, 100, 3, "example.org", 1, 0);
	poll_fd(&t, 100, "poll", 3, 0, 5000, 5.0, NULL);
	close_fd(&t, 100, 3);
	dns_socket(&t, 100, 3, "127.0.0.53");
	dns_send(&t, 100, 3, "example.org", 1, 0);
	dns_recv(&t, 100, 3, "example.org", 1, 0, 2);
	rt_exit(&t, 100, 0);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "dns-failure");
	assert_non_null(f);
	assert_true(contains(f->summary, "slow"));
	assert_false(f->unrecovered);
	assert_int_equal(f->effective, RC_SEV_INFO);
	rt_release(&t);
}

/* mDNS and other UDP traffic is not DNS. */
static void other_ports_ignored(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 100, 3, AF_INET, SOCK_DGRAM);
	connect_to(&t, 100, 3, AF_INET, "127.0.0.1", 5353, 0, NULL);
	dns_send(&t, 100, 3, "printer.local", 1, 0);
	dns_recv_from(&t, 100, 3, "printer.local", 1, 3, 0, 5353);
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	assert_null(rt_find(&t, "dns-failure"));
	rt_release(&t);
}

static void server_unreachable(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 100, 3, AF_INET, SOCK_DGRAM);
	connect_to(&t, 100, 3, AF_INET, "192.0.2.53", 53, ENETUNREACH, NULL);
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "dns-failure");
	assert_non_null(f);
	assert_null(f->host);
	assert_string_equal(f->address, "192.0.2.53:53");
	assert_true(contains(f->summary, "unreachable"));
	rt_release(&t);
}

/* ---- real logs ---- */

static const struct rt_expect real_logs[] = {
	{ "net-refused.log", "connect-failed", "127.0.0.1:1", true },
	{ "net-refused.log", "connect-timeout", NULL, false },
	{ "net-nonblock-refused.log", "connect-failed", "127.0.0.1:1", true },
	{ "net-unix-missing.log", "connect-failed", "/tmp/rc-net-missing.sock", true },
	{ "net-timeout.log", "connect-timeout", "timed out after", true },
	{ "net-timeout.log", "connect-failed", NULL, false },
	{ "net-timeout-blocking.log", "connect-timeout", "timed out after 3.1 s", true },
	{ "net-timeout-blocking.log", "connect-failed", NULL, false },
	{ "net-dns-nxdomain.log", "connect-failed", NULL, false },
	{ "net-dns-nxdomain.log", "dns-failure", "NXDOMAIN", true },
	{ "net-dns-timeout.log", "dns-failure", "timeout", true },
	{ "net-dns-refused.log", "dns-failure", "no DNS server listening", true },
	/* node's c-ares: sendto on a connected socket, a wait in epoll, the
	 * socket closed unanswered; and an excerpt that ends in the wait. */
	{ "net-dns-closed-unanswered.log", "dns-failure",
	  "'weights.mirror.exam...' failed: no answer (timeout) from '127.0.0.1:53' after", true },
	{ "net-dns-excerpt-unanswered.log", "dns-failure", "still waiting when the trace ended", true },
	/* Go's shape: write and read on a connected socket, EAGAIN, epoll. */
	{ "net-dns-connected-write.log", "dns-failure",
	  "'weights.mirror.exam...' failed: no answer (timeout) from '127.0.0.1:53' after 2.0 s", true },
	{ "net-ok.log", "connect-failed", NULL, false },
	{ "net-ok.log", "connect-timeout", NULL, false },
	{ "net-ok.log", "dns-failure", NULL, false },
};

/* ---- bind-failed ---- */

static void bind_to(struct rt *t, int pid, int fd, int family, const char *host, int port, int err)
{
	struct rc_event e = rt_sys(t, pid, "bind", err ? -1 : 0, err);
	e.fd = fd;
	e.sa.family = family;
	e.sa.host = host;
	e.sa.port = family == AF_UNIX ? -1 : port;
	rt_feed_line(t, &e, "bind(...)");
}

static void bind_port_in_use(void **state)
{
	struct rt t;
	(void)state;
	/* A service whose port is taken: it says so and exits 1. */
	rt_init(&t);
	sock(&t, 10, 3, AF_INET, SOCK_STREAM);
	bind_to(&t, 10, 3, AF_INET, "127.0.0.1", 8080, EADDRINUSE);
	rt_write(&t, 10, 2, "OSError: [Errno 98] Address already in use\n");
	rt_exit(&t, 10, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "bind-failed");
	assert_non_null(f);
	assert_string_equal(f->summary, "cannot listen on '127.0.0.1:8080': the address is already in use");
	assert_string_equal(f->address, "127.0.0.1:8080");
	assert_int_equal(f->err, EADDRINUSE);
	assert_true(contains(f->advice, "ss -ltnp 'sport = :8080'"));
	assert_true(f->echoed);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	/* The cause comes before the program's words about it. */
	assert_string_equal(t.out.v[0]->rule, "bind-failed");
	rt_release(&t);

	/* Retried until the old socket went: recovered, a note. A search for
	 * a free port (the next one bound) is a note too. */
	rt_init(&t);
	sock(&t, 10, 3, AF_INET6, SOCK_STREAM);
	for (int i = 0; i < 3; i++)
		bind_to(&t, 10, 3, AF_INET6, "::1", 8080, EADDRINUSE);
	bind_to(&t, 10, 3, AF_INET6, "::1", 8080, 0);
	sock(&t, 10, 4, AF_INET, SOCK_STREAM);
	bind_to(&t, 10, 4, AF_INET, "127.0.0.1", 9000, EADDRINUSE);
	bind_to(&t, 10, 4, AF_INET, "127.0.0.1", 9001, 0);
	rt_exit(&t, 10, 0);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "bind-failed"), 2);
	for (size_t i = 0; i < t.out.count; i++)
		if (strcmp(t.out.v[i]->rule, "bind-failed") == 0)
			assert_int_equal(t.out.v[i]->effective, RC_SEV_INFO);
	f = rt_match(&t, "bind-failed", "[::1]:8080");
	assert_non_null(f);
	assert_true(contains(f->summary, "(3 attempts), later bound"));
	rt_release(&t);
}

static void bind_privileged_and_foreign(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 10, 3, AF_INET, SOCK_STREAM);
	bind_to(&t, 10, 3, AF_INET, "0.0.0.0", 80, EACCES);
	sock(&t, 11, 3, AF_INET, SOCK_DGRAM);
	bind_to(&t, 11, 3, AF_INET, "192.0.2.7", 5353, EADDRNOTAVAIL);
	sock(&t, 12, 3, AF_UNIX, SOCK_STREAM);
	bind_to(&t, 12, 3, AF_UNIX, "/run/app/api.sock", 0, EADDRINUSE);
	rt_exit(&t, 10, 1);
	rt_exit(&t, 11, 1);
	rt_exit(&t, 12, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_match(&t, "bind-failed", "0.0.0.0:80");
	assert_non_null(f);
	assert_true(contains(f->summary, "a port below 1024 needs privilege"));
	assert_true(contains(f->advice, "CAP_NET_BIND_SERVICE"));
	f = rt_match(&t, "bind-failed", "192.0.2.7:5353");
	assert_non_null(f);
	assert_true(contains(f->summary, "cannot bind '192.0.2.7:5353': the address is not on this host"));
	f = rt_match(&t, "bind-failed", "api.sock");
	assert_non_null(f);
	assert_string_equal(f->path, "/run/app/api.sock");
	assert_true(contains(f->summary, "the file already exists"));
	assert_true(contains(f->advice, "remove it"));
	rt_release(&t);
}

/* A unix socket whose directory is missing (redis with --unixsocket in a
 * directory nobody made): the path comes from the call, since redis' own
 * "bind: No such file or directory" names none. */
static void bind_unix_missing_dir(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	sock(&t, 10, 6, AF_UNIX, SOCK_STREAM);
	bind_to(&t, 10, 6, AF_UNIX, "/nonexistent-rc-test/run/redis.sock", 0, ENOENT);
	rt_write(&t, 10, 1, "10:M 01 Dec 2026 08:46:20.911 # Failed opening Unix socket: bind: No such file or "
		 "directory\n");
	rt_exit(&t, 10, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "bind-failed");
	assert_non_null(f);
	assert_string_equal(f->summary, "cannot bind '/nonexistent-rc-test/run/redis.sock': directory "
			    "'/nonexistent-rc-test/run' does not exist");
	assert_string_equal(f->path, "/nonexistent-rc-test/run/redis.sock");
	assert_int_equal(f->err, ENOENT);
	assert_true(contains(f->advice, "create '/nonexistent-rc-test/run'"));
	assert_true(contains(f->advice, "'/nonexistent-rc-test' is the first directory missing"));
	assert_true(f->echoed);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	assert_string_equal(t.out.v[0]->rule, "bind-failed");
	rt_release(&t);

	/* A file where a directory should be. */
	rt_init(&t);
	sock(&t, 10, 3, AF_UNIX, SOCK_STREAM);
	bind_to(&t, 10, 3, AF_UNIX, "/etc/passwd/app.sock", 0, ENOTDIR);
	rt_exit(&t, 10, 1);
	rt_finish(&t);
	f = rt_find(&t, "bind-failed");
	assert_non_null(f);
	assert_true(contains(f->summary, "a component of its path is not a directory"));
	assert_int_equal(f->effective, RC_SEV_ERROR);
	rt_release(&t);
}

static void real_logs_checked(void **state)
{
	(void)state;
	rt_check_logs(real_logs, ARRAY_SIZE(real_logs));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(refused_blocking),
		cmocka_unit_test(retries_grouped),
		cmocka_unit_test(refused_then_connected),
		cmocka_unit_test(other_family_recovers),
		cmocka_unit_test(nonblocking_so_error),
		cmocka_unit_test(nonblocking_io_error),
		cmocka_unit_test(nonblocking_sendmmsg_error),
		cmocka_unit_test(reset_after_connect_ignored),
		cmocka_unit_test(addresses_tried_in_turn),
		cmocka_unit_test(addresses_in_turn_select),
		cmocka_unit_test(unix_socket_missing),
		cmocka_unit_test(unix_socket_on_disk),
		cmocka_unit_test(noise_and_dns_ignored),
		cmocka_unit_test(healthy_run_not_error),
		cmocka_unit_test(udp_port_unreachable),
		cmocka_unit_test(unreachable_advice),
		cmocka_unit_test(blocking_timeout),
		cmocka_unit_test(poll_timeout),
		cmocka_unit_test(attempts_belong_to_their_program),
		cmocka_unit_test(dns_wait_at_the_end),
		cmocka_unit_test(so_error_timeout),
		cmocka_unit_test(sliced_polls_one_attempt),
		cmocka_unit_test(nonblocking_success_quiet),
		cmocka_unit_test(abandoned_after_long_wait),
		cmocka_unit_test(still_pending_at_end),
		cmocka_unit_test(timeout_retries_and_recovery),
		cmocka_unit_test(nxdomain),
		cmocka_unit_test(truncated_name),
		cmocka_unit_test(empty_aaaa_is_fine),
		cmocka_unit_test(search_domain_probing),
		cmocka_unit_test(resolver_not_running),
		cmocka_unit_test(resolver_not_running_glibc),
		cmocka_unit_test(tcp_servfail),
		cmocka_unit_test(slow_but_resolved),
		cmocka_unit_test(other_ports_ignored),
		cmocka_unit_test(server_unreachable),
		cmocka_unit_test(bind_port_in_use),
		cmocka_unit_test(bind_privileged_and_foreign),
		cmocka_unit_test(bind_unix_missing_dir),
		cmocka_unit_test(real_logs_checked),
		cmocka_unit_test(unix_datagram_missing),
		cmocka_unit_test(unix_socket_then_its_directory),
		cmocka_unit_test(su_wrapper_sockets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
