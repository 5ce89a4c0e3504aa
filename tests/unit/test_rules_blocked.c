/* blocked-thread: threads still inside a system call when tracing stopped.
 * Logs as strace -f -p writes them when it detaches (the current line ends
 * in "<detached ...>", the other threads' calls stay "<unfinished ...>"),
 * a log that ends mid-call, and the events the tracer feeds at its end
 * (exact durations). Then real logs made by the .cmd file beside each:
 * tests/fixtures/rules/proc-blocked-*.log. And file-lock: the lock file
 * another process held, whose waits end, cut short or not. */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/socket.h>

#include "event/stack.h"
#include "rule_test.h"
#include "util/util.h"

#define RULE "blocked-thread"

/* The finding of this rule about thread TID, or NULL. */
static const struct rc_finding *about(struct rt *t, int tid)
{
	for (size_t i = 0; i < t->out.count; i++) {
		const struct rc_finding *f = t->out.v[i];
		if (strcmp(f->rule, RULE) == 0 && (f->tid ? f->tid : f->pid) == tid)
			return f;
	}
	return NULL;
}

/* The rank of F among all findings. */
static size_t rank_of(struct rt *t, const struct rc_finding *f)
{
	for (size_t i = 0; i < t->out.count; i++)
		if (t->out.v[i] == f)
			return i;
	return (size_t)-1;
}

static bool near(double a, double b)
{
	return fabs(a - b) < 0.001;
}

/* ---- strace -p sessions ---- */

/* A Python program hung: the main thread holds a lock and reads a pipe,
 * a worker waits for the lock, a daemon sleeps, a heartbeat thread keeps
 * going and was the one strace printed when it detached. */
static const char pipe_and_lock[] =
	"4464  18:31:31.733148 futex(0x37c7bfc0, FUTEX_WAIT_BITSET_PRIVATE|FUTEX_CLOCK_REALTIME, 0, NULL, "
	"FUTEX_BITSET_MATCH_ANY <unfinished ...>\n"
	"4461  18:31:31.733379 read(3<pipe:[460738]>,  <unfinished ...>\n"
	"4466  18:31:31.733587 clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, {tv_sec=13811, "
	"tv_nsec=252526111},  <unfinished ...>\n"
	"4467  18:31:31.764026 write(5</dev/null<char 1:3>>, \".\", 1) = 1 <0.000015>\n"
	"4467  18:31:33.764139 clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, {tv_sec=10212, "
	"tv_nsec=455409590}, NULL) = 0 <0.200295>\n"
	"4467  18:31:33.964822 write(5</dev/null<char 1:3>>, \".\", 1) = 1 <0.000070>\n"
	"4467  18:31:33.965250 clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, {tv_sec=10212, "
	"tv_nsec=656422958},  <detached ...>\n";

static void session_pipe_and_lock(void **state)
{
	(void)state;
	struct rt t;
	analyze_text(&t, pipe_and_lock);

	assert_int_equal(rt_count(&t, RULE), 4);

	/* The pipe read leads: nothing failed, yet it is a warning, and it
	 * comes before the lock wait it causes. */
	const struct rc_finding *rd = about(&t, 4461);
	assert_non_null(rd);
	assert_ptr_equal(t.out.v[0], rd);
	assert_int_equal(rd->effective, RC_SEV_WARNING);
	assert_int_equal(rd->severity_ok, RC_SEV_WARNING);
	assert_true(contains(rd->summary, "thread 4461 blocked for at least 2.23 s, all through the trace"));
	assert_true(contains(rd->summary, "in read on fd 3 (pipe:[460738]): nothing is written to the pipe"));
	assert_string_equal(rd->syscall, "read");
	assert_true(near(rd->duration_s, 33.965250 - 31.733379));
	assert_int_equal(rd->nevidence, 2);
	assert_true(contains(rd->evidence[0], "read(3<pipe:[460738]>,  <unfinished ...>"));
	assert_string_equal(rd->evidence[1], "fd 3 is pipe:[460738]");
	assert_true(contains(rd->advice, "other end of the pipe"));

	const struct rc_finding *lk = about(&t, 4464);
	assert_non_null(lk);
	assert_int_equal(rank_of(&t, lk), 1);
	assert_int_equal(lk->effective, RC_SEV_WARNING);
	assert_true(contains(lk->summary, "in futex on 0x37c7bfc0: waiting for a lock or a condition"));
	assert_true(contains(lk->message, "thread 4461 in read on fd 3 (pipe:[460738])"));
	assert_true(contains(lk->advice, "rootcause stack 4464"));
	assert_true(contains(lk->evidence[0], "FUTEX_WAIT_BITSET_PRIVATE"));

	/* Sleeps are notes; the heartbeat's began as the log ended. */
	const struct rc_finding *sl = about(&t, 4466);
	assert_non_null(sl);
	assert_int_equal(sl->effective, RC_SEV_INFO);
	assert_true(contains(sl->summary, "thread 4466 sleeping for at least 2.23 s, all through the trace in "
				"clock_nanosleep: a deliberate sleep"));
	const struct rc_finding *hb = about(&t, 4467);
	assert_non_null(hb);
	assert_int_equal(hb->effective, RC_SEV_INFO);
	assert_string_equal(hb->summary, "thread 4467 sleeping in clock_nanosleep: a deliberate sleep");
	assert_true(contains(hb->evidence[0], "<detached ...>"));

	/* lock-wait counts an unfinished wait as idle, not as contention. */
	assert_int_equal(rt_count(&t, "lock-wait"), 0);
	rt_release(&t);
}

/* A loopback client waits for an answer; the server's thread for that
 * connection waits for more of the request: both ends read, a deadlock.
 * The server's main thread waits in accept. */
static const char both_read[] =
	"7878  18:15:09.280529 recvfrom(4<TCP:[127.0.0.1:47812->127.0.0.1:52910]>,  <unfinished ...>\n"
	"7865  18:15:09.282606 accept4(3<TCP:[127.0.0.1:47812]>,  <unfinished ...>\n"
	"7876  18:15:09.284040 recvfrom(3<TCP:[127.0.0.1:52910->127.0.0.1:47812]>,  <detached ...>\n";

static void session_deadlock(void **state)
{
	(void)state;
	struct rt t;
	analyze_text(&t, both_read);

	assert_int_equal(rt_count(&t, RULE), 3);
	const struct rc_finding *cl = about(&t, 7876), *sv = about(&t, 7878), *ac = about(&t, 7865);
	assert_non_null(cl);
	assert_non_null(sv);
	assert_non_null(ac);
	assert_int_equal(cl->effective, RC_SEV_WARNING);
	assert_string_equal(cl->address, "127.0.0.1:47812");
	assert_true(contains(cl->summary, "in recvfrom on fd 3 (TCP 127.0.0.1:52910->127.0.0.1:47812): "
				"waiting for data from 127.0.0.1:47812, whose thread 7878 is itself blocked reading"));
	assert_string_equal(cl->evidence[1], "fd 3 is TCP 127.0.0.1:52910->127.0.0.1:47812");
	assert_true(contains(cl->advice, "both ends"));
	/* The server's end waits for its client, but the client waits too. */
	assert_int_equal(sv->effective, RC_SEV_WARNING);
	assert_string_equal(sv->address, "127.0.0.1:52910");
	assert_true(contains(sv->summary, "whose thread 7876 is itself blocked"));
	/* The log's clock ran 3.5 ms: no duration to report. */
	assert_true(cl->duration_s < 0);
	assert_int_equal(ac->effective, RC_SEV_INFO);
	assert_true(contains(ac->summary, "thread 7865 idle all through the trace in accept4 on fd 3 "
				"(TCP 127.0.0.1:47812): a server waiting for clients"));
	assert_true(rank_of(&t, ac) > rank_of(&t, cl) && rank_of(&t, ac) > rank_of(&t, sv));
	rt_release(&t);
}

/* Without the client in the trace, a server's wait for its client is idle:
 * its local port is the one it listens on. A client on IPv6 waiting for
 * its server is a stall. */
static const char server_idle[] =
	"7878  18:15:09.280529 recvfrom(4<TCP:[127.0.0.1:47812->127.0.0.1:52910]>,  <unfinished ...>\n"
	"7865  18:15:09.282606 accept4(3<TCP:[127.0.0.1:47812]>,  <unfinished ...>\n"
	"7900  18:15:09.282700 recvfrom(5<TCPv6:[[::1]:40000->[::1]:8080]>,  <detached ...>\n";

static void session_server_idle(void **state)
{
	(void)state;
	struct rt t;
	analyze_text(&t, server_idle);

	assert_int_equal(rt_count(&t, RULE), 3);
	const struct rc_finding *sv = about(&t, 7878), *v6 = about(&t, 7900);
	assert_non_null(sv);
	assert_int_equal(sv->effective, RC_SEV_INFO);
	assert_true(contains(sv->summary, "idle all through the trace in recvfrom on fd 4 "
				"(TCP 127.0.0.1:47812->127.0.0.1:52910): a server waiting for its client "
				"127.0.0.1:52910 to send"));
	assert_non_null(v6);
	assert_int_equal(v6->effective, RC_SEV_WARNING);
	assert_string_equal(v6->address, "[::1]:8080");
	assert_true(contains(v6->summary, "(TCPv6 [::1]:40000->[::1]:8080): waiting for data from [::1]:8080"));
	/* The listening port came from the accept the log flushed last. */
	assert_int_equal(about(&t, 7865)->effective, RC_SEV_INFO);
	rt_release(&t);
}

/* ---- strace -f logs that end mid-call ---- */

/* A run traced from the start, cut off while it hung: what the fds are
 * comes from the process model (no -y). */
static const char cut_off[] =
	"100   10:00:00.000000 execve(\"/usr/bin/app\", [\"app\"], 0x7ffd0 /* 3 vars */) = 0 <0.000100>\n"
	"100   10:00:00.001000 socket(AF_INET, SOCK_STREAM|SOCK_CLOEXEC, IPPROTO_TCP) = 3 <0.000010>\n"
	"100   10:00:00.002000 connect(3, {sa_family=AF_INET, sin_port=htons(8080), "
	"sin_addr=inet_addr(\"127.0.0.1\")}, 16) = 0 <0.000200>\n"
	"100   10:00:00.003000 openat(AT_FDCWD, \"/mnt/nfs/data.bin\", O_RDONLY) = 4 <0.000010>\n"
	"100   10:00:00.004000 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|"
	"CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7f0, "
	"parent_tid=0x7f0, exit_signal=0, stack=0x7f0, stack_size=0x7fff80, tls=0x7f0} => "
	"{parent_tid=[101]}, 88) = 101 <0.000100>\n"
	"100   10:00:00.004500 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|"
	"CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7f0, "
	"parent_tid=0x7f0, exit_signal=0, stack=0x7f0, stack_size=0x7fff80, tls=0x7f0} => "
	"{parent_tid=[102]}, 88) = 102 <0.000100>\n"
	"100   10:00:00.004800 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|"
	"CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7f0, "
	"parent_tid=0x7f0, exit_signal=0, stack=0x7f0, stack_size=0x7fff80, tls=0x7f0} => "
	"{parent_tid=[103]}, 88) = 103 <0.000100>\n"
	"100   10:00:00.005000 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
	"child_tidptr=0x7f0) = 200 <0.000100>\n"
	"200   10:00:00.006000 execve(\"/bin/sleep\", [\"sleep\", \"60\"], 0x7ffd0 /* 3 vars */) = 0 <0.000100>\n"
	"200   10:00:00.007000 clock_nanosleep(CLOCK_REALTIME, 0, {tv_sec=60, tv_nsec=0},  <unfinished ...>\n"
	"101   10:00:00.010000 read(4, \"abc\", 4096) = 3 <0.000010>\n"
	"101   10:00:00.020000 read(4,  <unfinished ...>\n"
	"103   10:00:00.025000 wait4(-1,  <unfinished ...>\n"
	"100   10:00:00.030000 sendto(3, \"GET / HTTP/1.0\\r\\n\\r\\n\", 18, MSG_NOSIGNAL, NULL, 0) = 18 <0.000020>\n"
	"100   10:00:00.031000 recvfrom(3,  <unfinished ...>\n"
	"102   10:00:00.040000 futex(0x55d0, FUTEX_WAIT_PRIVATE, 0, NULL <unfinished ...>\n"
	"102   10:00:00.050000 +++ exited with 0 +++\n"
	"300   10:00:05.000000 getpid() = 300 <0.000010>\n"
	"300   10:00:05.000100 exit_group(0 <unfinished ...>\n"
	"301   10:00:05.000200 write(2, \"x\", 1";

static void cut_off_log(void **state)
{
	(void)state;
	struct rt t;
	analyze_text(&t, cut_off);

	/* Thread 102 exited: its wait ended. exit_group is no wait. The last
	 * line, cut short, is a call in progress. */
	assert_null(about(&t, 102));
	assert_null(about(&t, 300));
	const struct rc_finding *w = about(&t, 301);
	assert_non_null(w);
	assert_string_equal(w->syscall, "write");
	assert_string_equal(w->summary, "thread 301 blocked all through the trace in write on fd 2");
	assert_int_equal(w->effective, RC_SEV_WARNING);

	const struct rc_finding *net = about(&t, 100);
	assert_non_null(net);
	assert_int_equal(net->pid, 100);
	assert_int_equal(net->tid, 0);
	assert_int_equal(net->effective, RC_SEV_WARNING);
	assert_string_equal(net->address, "127.0.0.1:8080");
	assert_true(contains(net->summary, "thread 100 blocked for at least 4.97 s in recvfrom on fd 3 "
				 "(TCP socket to 127.0.0.1:8080): waiting for data from 127.0.0.1:8080"));
	assert_string_equal(net->evidence[1], "fd 3 is TCP socket to 127.0.0.1:8080");
	assert_true(contains(net->advice, "127.0.0.1:8080 has sent nothing"));

	const struct rc_finding *io = about(&t, 101);
	assert_non_null(io);
	assert_int_equal(io->pid, 100);
	assert_int_equal(io->tid, 101);
	assert_int_equal(io->effective, RC_SEV_WARNING);
	assert_string_equal(io->path, "/mnt/nfs/data.bin");
	assert_true(contains(io->summary, "in read on fd 4 ('/mnt/nfs/data.bin'): the I/O has not completed"));
	assert_true(contains(io->advice, "network mount"));

	const struct rc_finding *wt = about(&t, 103);
	assert_non_null(wt);
	assert_int_equal(wt->effective, RC_SEV_INFO);
	assert_true(contains(wt->summary, "all through the trace in wait4: its child has not exited (running: "
				 "pid 200 'sleep')"));

	const struct rc_finding *sl = about(&t, 200);
	assert_non_null(sl);
	assert_int_equal(sl->effective, RC_SEV_INFO);
	rt_release(&t);
}

/* No timestamps: no duration, and threads that did nothing else were
 * blocked all through. A terminal read waits for a person; a file lock
 * for another process. */
static const char untimed[] =
	"300   read(0</dev/pts/1>,  <unfinished ...>\n"
	"301   flock(5</var/lib/app/lock>, LOCK_EX <unfinished ...>\n"
	"302   write(1<pipe:[99]>, \"data\"..., 65536 <unfinished ...>\n"
	"303   restart_syscall(<... resuming interrupted read ...> <detached ...>\n";

static void untimed_log(void **state)
{
	(void)state;
	struct rt t;
	analyze_text(&t, untimed);

	assert_int_equal(rt_count(&t, RULE), 4);
	const struct rc_finding *in = about(&t, 300), *lk = about(&t, 301), *pw = about(&t, 302),
				*rs = about(&t, 303);
	assert_non_null(in);
	assert_int_equal(in->effective, RC_SEV_WARNING);
	assert_true(in->duration_s < 0);
	assert_string_equal(in->summary, "thread 300 blocked all through the trace in read on fd 0 "
			    "('/dev/pts/1'): waiting for input");
	assert_true(contains(in->advice, "< /dev/null"));
	assert_non_null(lk);
	assert_int_equal(lk->effective, RC_SEV_WARNING);
	assert_string_equal(lk->path, "/var/lib/app/lock");
	assert_true(contains(lk->summary, "in flock on fd 5 ('/var/lib/app/lock'): waiting for a file lock"));
	assert_non_null(pw);
	assert_true(contains(pw->summary, "the pipe is full and its reader is not reading"));
	assert_non_null(rs);
	assert_int_equal(rs->effective, RC_SEV_INFO);
	assert_true(contains(rs->summary, "sleeping all through the trace in restart_syscall: a sleep or "
				"timed wait that was in progress when tracing began, restarted"));
	rt_release(&t);
}

/* Reading a directory on a network mount waits for its storage as a
 * read does: getdents as getdents64 (the table's CL_FD_STORAGE). */
static const char untimed_dir[] = "300   getdents(4</mnt/nfs/models>,  <unfinished ...>\n";

static void untimed_getdents(void **state)
{
	(void)state;
	struct rt t;
	analyze_text(&t, untimed_dir);

	const struct rc_finding *d = about(&t, 300);
	assert_non_null(d);
	assert_string_equal(d->syscall, "getdents");
	assert_true(contains(d->summary, "the I/O has not completed"));
	rt_release(&t);
}

/* ---- the tracer's events: exact durations ---- */

/* What the tracer feeds at its end for a thread still inside NAME. */
static struct rc_event blocked(struct rt *t, int tid, const char *name, double dur)
{
	struct rc_event e = rt_sys(t, tid, name, 0, 0);

	e.ret_known = false;
	e.ret = 0;
	e.blocked = true;
	e.dur = dur;
	e.ts = t->now - (dur > 0 ? dur : 0);
	return e;
}

static void connect_socket(struct rt *t, int pid, int fd, const char *host, int port)
{
	struct rc_event e = rt_timed(t, pid, "socket", fd, 0, 0.00001);
	e.sa.family = AF_INET;
	e.flags = SOCK_STREAM;
	rt_feed(t, &e);
	e = rt_timed(t, pid, "connect", 0, 0, 0.0001);
	e.fd = fd;
	e.sa.family = AF_INET;
	e.sa.host = host;
	e.sa.port = port;
	rt_feed(t, &e);
}

static void tracer_events(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	connect_socket(&t, 10, 3, "10.0.0.7", 5432);
	rt_clone_thread(&t, 10, 11, 0.0001);
	rt_clone_thread(&t, 10, 12, 0.0001);
	rt_clone_thread(&t, 10, 13, 0.0001);
	rt_clone_thread(&t, 10, 14, 0.0001);
	struct rc_event e = rt_timed(&t, 11, "getpid", 11, 0, 0.00001);
	rt_feed(&t, &e);

	e = blocked(&t, 10, "read", 12.5);
	e.fd = 3;
	e.len = 4096;
	rt_feed_line(&t, &e, "read(3, ");
	/* A busy thread caught inside a lock for 2 ms. */
	e = blocked(&t, 11, "futex", 0.002);
	e.futex_op = FUTEX_WAIT;
	e.addr = 0x7f00;
	rt_feed(&t, &e);
	e = blocked(&t, 12, "poll", 5.0);
	e.fds[0] = 3;
	e.nfds = 1;
	rt_feed(&t, &e);
	e = blocked(&t, 13, "epoll_wait", 30.0);
	e.fd = 7;
	e.timeout_ms = 1000;
	rt_feed(&t, &e);
	e = blocked(&t, 14, "restart_syscall", 30.0);
	rt_feed(&t, &e);
	/* Not waits, and calls that are not blocked. */
	e = blocked(&t, 15, "exit_group", 1.0);
	rt_feed(&t, &e);
	e = blocked(&t, 16, "execve", 1.0);
	e.path = "/bin/true";
	rt_feed(&t, &e);
	e = blocked(&t, 17, "read", 9.0);
	e.blocked = false;
	e.fd = 0;
	rt_feed(&t, &e);
	rt_finish(&t);

	assert_int_equal(rt_count(&t, RULE), 5);
	assert_null(about(&t, 15));
	assert_null(about(&t, 16));
	assert_null(about(&t, 17));

	const struct rc_finding *rd = about(&t, 10);
	assert_ptr_equal(t.out.v[0], rd);
	assert_int_equal(rd->effective, RC_SEV_WARNING);
	assert_string_equal(rd->summary, "thread 10 blocked for 12.5 s in read on fd 3 (TCP socket to "
			    "10.0.0.7:5432): waiting for data from 10.0.0.7:5432");
	assert_true(near(rd->duration_s, 12.5));
	assert_string_equal(rd->address, "10.0.0.7:5432");

	const struct rc_finding *pl = about(&t, 12);
	assert_int_equal(rank_of(&t, pl), 1);
	assert_int_equal(pl->effective, RC_SEV_WARNING);
	assert_string_equal(pl->summary, "thread 12 blocked for 5.00 s in poll on fd 3 (no timeout): waiting for "
			    "10.0.0.7:5432");
	assert_string_equal(pl->evidence[1], "fd 3 is TCP socket to 10.0.0.7:5432");

	const struct rc_finding *fx = about(&t, 11);
	assert_int_equal(fx->effective, RC_SEV_INFO);
	assert_string_equal(fx->summary, "thread 11 blocked for 2.0 ms in futex on 0x7f00: waiting for a lock or "
			    "a condition (inside it only briefly: likely still working)");
	assert_int_equal(fx->tid, 11);
	assert_int_equal(fx->pid, 10);

	const struct rc_finding *ep = about(&t, 13);
	assert_int_equal(ep->effective, RC_SEV_INFO);
	assert_string_equal(ep->summary, "thread 13 idle for 30.0 s in epoll_wait on epoll fd 7 (timeout 1000 ms): "
			    "an event loop waiting for events");
	assert_int_equal(about(&t, 14)->effective, RC_SEV_INFO);
	rt_release(&t);
}

/* Workers parked on one futex are a pool; a lone waiter elsewhere is not. */
static void futex_pool(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	struct rc_event e = rt_timed(&t, 20, "getpid", 20, 0, 0.00001);
	rt_feed(&t, &e);
	for (int tid = 21; tid <= 25; tid++)
		rt_clone_thread(&t, 20, tid, 0.0001);
	for (int tid = 21; tid <= 24; tid++) {
		e = blocked(&t, tid, "futex", 10.0);
		e.futex_op = FUTEX_WAIT_BITSET;
		e.addr = 0x1000;
		rt_feed(&t, &e);
	}
	e = blocked(&t, 25, "futex", 8.0);
	e.futex_op = FUTEX_WAIT;
	e.addr = 0x2000;
	rt_feed(&t, &e);
	/* A timed wait ends by itself. */
	e = blocked(&t, 20, "futex", 9.0);
	e.futex_op = FUTEX_WAIT;
	e.addr = 0x3000;
	e.timeout_ms = 60000;
	rt_feed(&t, &e);
	rt_finish(&t);

	assert_int_equal(rt_count(&t, RULE), 6);
	const struct rc_finding *lone = about(&t, 25);
	assert_ptr_equal(t.out.v[0], lone);
	assert_int_equal(lone->effective, RC_SEV_WARNING);
	for (int tid = 21; tid <= 24; tid++) {
		const struct rc_finding *f = about(&t, tid);
		assert_int_equal(f->effective, RC_SEV_INFO);
		assert_true(contains(f->summary, "idle for 10.0 s in futex on 0x1000: one of 4 threads parked"));
	}
	const struct rc_finding *timed = about(&t, 20);
	assert_int_equal(timed->effective, RC_SEV_INFO);
	assert_true(contains(timed->summary, "waiting for 9.00 s in futex on 0x3000 (timeout 60000 ms): a timed wait"));
	rt_release(&t);
}

/* A stack of FN (libc's, innermost) called from CALLER, for thread TID. */
static const struct rc_stack *cond_stack(int tid, const char *fn, const char *caller)
{
	struct stack_builder *b = stack_builder_new(tid);
	struct rc_stack_frame f = { .pc = 0x7f0000001000, .module = "/usr/lib/x86_64-linux-gnu/libc.so.6",
				    .function = "__futex_abstimed_wait_common" };

	stack_builder_native(b, &f);
	f.pc += 0x100;
	f.function = fn;
	stack_builder_native(b, &f);
	f.pc = 0x401000;
	f.module = "/usr/bin/redis-server";
	f.function = caller;
	stack_builder_native(b, &f);
	return stack_build(b);
}

/* A thread other than the first, parked alone on a condition variable
 * (redis' background threads, one each), waits for work: a note. The
 * first thread there, or a thread in a mutex's wait, is a likelier
 * stall. */
static void condition_worker(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	struct rc_event e = rt_timed(&t, 30, "getpid", 30, 0, 0.00001);
	rt_feed(&t, &e);
	for (int tid = 31; tid <= 33; tid++)
		rt_clone_thread(&t, 30, tid, 0.0001);
	const struct rc_stack *worker = cond_stack(31, "pthread_cond_wait", "bioProcessBackgroundJobs");
	const struct rc_stack *first = cond_stack(30, "pthread_cond_wait@@GLIBC_2.3.2", "main");
	const struct rc_stack *mutex = cond_stack(32, "__lll_lock_wait", "worker");
	e = blocked(&t, 31, "futex", 10.0);
	e.futex_op = FUTEX_WAIT_BITSET;
	e.addr = 0x1000;
	e.stack = worker;
	rt_feed(&t, &e);
	e = blocked(&t, 30, "futex", 10.0);
	e.futex_op = FUTEX_WAIT_BITSET;
	e.addr = 0x2000;
	e.stack = first;
	rt_feed(&t, &e);
	e = blocked(&t, 32, "futex", 10.0);
	e.futex_op = FUTEX_WAIT;
	e.addr = 0x3000;
	e.stack = mutex;
	rt_feed(&t, &e);
	rt_finish(&t);

	const struct rc_finding *w = about(&t, 31);
	assert_int_equal(w->effective, RC_SEV_INFO);
	assert_true(contains(w->summary, "a worker thread parked on a condition variable (pthread_cond_wait), "
				 "waiting for work"));
	assert_true(contains(w->advice, "not a problem by itself"));
	assert_int_equal(about(&t, 30)->effective, RC_SEV_WARNING);
	assert_int_equal(about(&t, 32)->effective, RC_SEV_WARNING);
	stack_unref(worker);
	stack_unref(first);
	stack_unref(mutex);
	rt_release(&t);
}

/* At most eight, the longest first, the rest counted on the last. */
static void capped(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	for (int i = 0; i < 12; i++) {
		int tid = 30 + i;
		struct rc_event e = rt_timed(&t, tid, "pipe2", 0, 0, 0.00001);
		e.fds[0] = 3;
		e.fds[1] = 4;
		e.nfds = 2;
		rt_feed(&t, &e);
	}
	for (int i = 0; i < 12; i++) {
		struct rc_event e = blocked(&t, 30 + i, "read", 1.0 + i);
		e.fd = 3;
		rt_feed(&t, &e);
	}
	rt_finish(&t);

	assert_int_equal(rt_count(&t, RULE), 8);
	double prev = 1e9;
	const struct rc_finding *last = NULL;
	for (size_t i = 0; i < t.out.count; i++) {
		const struct rc_finding *f = t.out.v[i];
		if (strcmp(f->rule, RULE) != 0)
			continue;
		assert_true(f->duration_s < prev);
		assert_true(contains(f->summary, "on fd 3 (a pipe)"));
		prev = f->duration_s;
		last = f;
	}
	assert_true(near(t.out.v[0]->duration_s, 12.0));
	assert_non_null(last);
	assert_true(near(last->duration_s, 5.0));
	assert_string_equal(last->message, "4 more blocked threads not listed");
	rt_release(&t);
}

/* Failures come first; among warnings, a stall that never ended leads a
 * slow call that did end. */
static void ranking(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	connect_socket(&t, 40, 3, "127.0.0.1", 8080);
	struct rc_event e = rt_timed(&t, 40, "recvfrom", 10, 0, 3.0);
	e.fd = 3;
	rt_feed(&t, &e);
	rt_clone_thread(&t, 40, 41, 0.0001);
	e = blocked(&t, 41, "recvfrom", 20.0);
	e.fd = 3;
	rt_feed(&t, &e);
	rt_finish(&t);
	assert_non_null(rt_find(&t, "slow-syscall"));
	assert_string_equal(t.out.v[0]->rule, RULE);
	rt_release(&t);

	/* A child that failed to open its config and exited 1 while its
	 * parent still waits for it. */
	rt_init(&t);
	e = rt_timed(&t, 50, "clone", 51, 0, 0.0001);
	e.flags = SIGCHLD;
	rt_feed(&t, &e);
	rt_exec(&t, 51, "/usr/bin/app", "app", NULL, 0, NULL);
	struct rc_event o = rt_timed(&t, 51, "openat", -1, ENOENT, 0.00001);
	o.path = "/etc/app/config.yaml";
	o.flags = O_RDONLY;
	rt_feed(&t, &o);
	rt_exit(&t, 51, 1);
	e = blocked(&t, 50, "read", 2.0);
	e.fd = 5;
	rt_feed(&t, &e);
	rt_finish(&t);
	const struct rc_finding *bt = rt_find(&t, RULE);
	assert_non_null(bt);
	assert_int_equal(bt->effective, RC_SEV_WARNING);
	assert_int_equal(t.out.v[0]->effective, RC_SEV_ERROR);
	assert_true(rank_of(&t, bt) > 0);
	rt_release(&t);
}

/* ---- real logs (tests/fixtures/rules/proc-blocked-*.log) ---- */

static const struct rt_expect real_logs[] = {
	{ "proc-blocked-python.log", RULE, "in read on fd 3 (pipe:[460738]): nothing is written", true },
	{ "proc-blocked-python.log", RULE, "in futex on 0x37c7bfc0: waiting for a lock", true },
	{ "proc-blocked-python.log", RULE, "thread 4468 sleeping for at least 1.84 s", true },
	{ "proc-blocked-python.log", "lock-wait", NULL, false },
	{ "proc-blocked-net.log", RULE, "(TCP 127.0.0.1:60452->127.0.0.1:47813): waiting for data from "
					"127.0.0.1:47813", true },
	{ "proc-blocked-net.log", RULE, "a server waiting for its client 127.0.0.1:60444 to send", true },
	{ "proc-blocked-net.log", RULE, "in accept4 on fd 3 (TCP 127.0.0.1:47813)", true },
	{ "proc-blocked-net.log", RULE, "itself blocked", false },
	{ "proc-blocked-net.log", "slow-syscall", NULL, false },
	/* Every other fixture ran to its end. */
	{ "perf-slownet.log", RULE, NULL, false },
	{ "perf-lockwait.log", RULE, NULL, false },
	{ "proc-pipeline.log", RULE, NULL, false },
	{ "net-timeout.log", RULE, NULL, false },
};

/* Issue 25: pasted lines around a hang end in the call that hangs. A
 * short log with no outcome whose last line is an unfinished call is that
 * stall, though it began at the log's last time; here a read of a serial
 * line, which waits for the device, not a person. The same end at a
 * detach is a busy thread caught in a call: a note. */
static const char excerpt_serial[] =
	"12345 10:01:02.100000 openat(AT_FDCWD, \"/dev/ttyUSB0\", O_RDWR|O_NOCTTY) = 3\n"
	"12345 10:01:02.100100 ioctl(3, TCGETS, {B9600 opost isig icanon echo ...}) = 0\n"
	"12345 10:01:02.100200 write(3, \"AT\\r\\n\", 4) = 4\n"
	"12345 10:01:02.100300 read(3, \n";
static const char detached_serial[] =
	"12345 10:01:02.100000 openat(AT_FDCWD, \"/dev/ttyUSB0\", O_RDWR|O_NOCTTY) = 3\n"
	"12345 10:01:02.100200 write(3, \"AT\\r\\n\", 4) = 4\n"
	"12345 10:01:02.100300 read(3,  <detached ...>\n";

static void excerpt_ends_in_the_stall(void **state)
{
	(void)state;
	struct rt t;
	analyze_text(&t, excerpt_serial);
	const struct rc_finding *f = about(&t, 12345);
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_WARNING);
	assert_string_equal(f->path, "/dev/ttyUSB0");
	assert_true(contains(f->summary, "the device has had nothing to give"));
	assert_true(contains(f->advice, "stty -F /dev/ttyUSB0"));
	assert_false(contains(f->advice, "someone to type"));
	rt_release(&t);

	analyze_text(&t, detached_serial);
	f = about(&t, 12345);
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_INFO);
	rt_release(&t);
}

/* wait4 for any child, while a child that exited is still unreaped: the
 * kernel keeps it for the wait, which should have returned it. Not when
 * a wait4 reaped it first, nor when SIGCHLD is ignored (the kernel
 * reaps then), nor for WNOHANG. */
static const char lost_exit[] =
	"100 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f) = 101\n"
	"101 exit_group(0)                     = ?\n"
	"101 +++ exited with 0 +++\n"
	"100 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=101, si_uid=0, si_status=0, si_utime=0, si_stime=0} ---\n"
	"100 wait4(-1,  <unfinished ...>\n";
static const char reaped_first[] =
	"100 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f) = 101\n"
	"101 exit_group(0)                     = ?\n"
	"101 +++ exited with 0 +++\n"
	"100 wait4(-1, [{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 101\n"
	"100 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f) = 102\n"
	"100 wait4(-1,  <unfinished ...>\n";
static const char ignored_sigchld[] =
	"100 rt_sigaction(SIGCHLD, {sa_handler=SIG_IGN, sa_mask=[], sa_flags=SA_RESTORER, sa_restorer=0x7f}, NULL, 8) = 0\n"
	"100 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f) = 101\n"
	"100 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f) = 102\n"
	"101 exit_group(0)                     = ?\n"
	"101 +++ exited with 0 +++\n"
	"100 wait4(-1,  <unfinished ...>\n";

static void wait_for_an_exit_it_lost(void **state)
{
	(void)state;
	struct rt t;
	analyze_text(&t, lost_exit);
	const struct rc_finding *f = rt_find(&t, RULE);
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_WARNING);
	assert_true(contains(f->summary, "its child pid 101 exited and was never reaped"));
	rt_release(&t);

	analyze_text(&t, reaped_first);
	f = rt_find(&t, RULE);
	assert_non_null(f);
	assert_false(contains(f->summary, "never reaped"));
	assert_true(contains(f->summary, "pid 102"));
	rt_release(&t);

	analyze_text(&t, ignored_sigchld);
	f = rt_find(&t, RULE);
	assert_non_null(f);
	assert_false(contains(f->summary, "never reaped"));
	rt_release(&t);
}

/* retry-loop: a thread that fails the same call the same way, turn after
 * turn, to the end of the trace. Not one that got out (it exited), not a
 * loop through "not yet" (EAGAIN), not a poll at its own pace. */
static const char spin_enoent[] =
	"200 12:00:00.000100 openat(AT_FDCWD, \"/run/app/ready\", O_RDONLY) = -1 ENOENT (No such file or directory)\n"
	"200 12:00:00.000150 sched_yield() = 0\n"
	"200 12:00:00.000200 openat(AT_FDCWD, \"/run/app/ready\", O_RDONLY) = -1 ENOENT (No such file or directory)\n"
	"200 12:00:00.000250 sched_yield() = 0\n"
	"200 12:00:00.000300 openat(AT_FDCWD, \"/run/app/ready\", O_RDONLY) = -1 ENOENT (No such file or directory)\n"
	"200 12:00:00.000350 sched_yield() = 0\n"
	"200 12:00:00.000400 openat(AT_FDCWD, \"/run/app/ready\", O_RDONLY) = -1 ENOENT (No such file or directory)\n"
	"200 12:00:00.000450 sched_yield() = 0\n"
	"200 12:00:00.000500 openat(AT_FDCWD, \"/run/app/ready\", O_RDONLY) = -1 ENOENT (No such file or directory)\n";
static const char spin_then_exit[] =
	"200 openat(AT_FDCWD, \"/run/app/ready\", O_RDONLY) = -1 ENOENT (No such file or directory)\n"
	"200 openat(AT_FDCWD, \"/run/app/ready\", O_RDONLY) = -1 ENOENT (No such file or directory)\n"
	"200 openat(AT_FDCWD, \"/run/app/ready\", O_RDONLY) = -1 ENOENT (No such file or directory)\n"
	"200 openat(AT_FDCWD, \"/run/app/ready\", O_RDONLY) = -1 ENOENT (No such file or directory)\n"
	"200 openat(AT_FDCWD, \"/run/app/ready\", O_RDONLY) = -1 ENOENT (No such file or directory)\n"
	"200 exit_group(1) = ?\n"
	"200 +++ exited with 1 +++\n";
static const char not_yet[] =
	"200 read(5, 0x7ffd0, 4096) = -1 EAGAIN (Resource temporarily unavailable)\n"
	"200 read(5, 0x7ffd0, 4096) = -1 EAGAIN (Resource temporarily unavailable)\n"
	"200 read(5, 0x7ffd0, 4096) = -1 EAGAIN (Resource temporarily unavailable)\n"
	"200 read(5, 0x7ffd0, 4096) = -1 EAGAIN (Resource temporarily unavailable)\n"
	"200 read(5, 0x7ffd0, 4096) = -1 EAGAIN (Resource temporarily unavailable)\n";
static const char own_pace[] =
	"200 12:00:00.000000 stat(\"/etc/app/override.conf\", 0x7ffd0) = -1 ENOENT (No such file or directory)\n"
	"200 12:00:00.000100 nanosleep({tv_sec=1, tv_nsec=0}, NULL) = 0\n"
	"200 12:00:01.000200 stat(\"/etc/app/override.conf\", 0x7ffd0) = -1 ENOENT (No such file or directory)\n"
	"200 12:00:01.000300 nanosleep({tv_sec=1, tv_nsec=0}, NULL) = 0\n"
	"200 12:00:02.000400 stat(\"/etc/app/override.conf\", 0x7ffd0) = -1 ENOENT (No such file or directory)\n"
	"200 12:00:02.000500 nanosleep({tv_sec=1, tv_nsec=0}, NULL) = 0\n"
	"200 12:00:03.000600 stat(\"/etc/app/override.conf\", 0x7ffd0) = -1 ENOENT (No such file or directory)\n"
	"200 12:00:03.000700 nanosleep({tv_sec=1, tv_nsec=0}, NULL) = 0\n"
	"200 12:00:04.000800 stat(\"/etc/app/override.conf\", 0x7ffd0) = -1 ENOENT (No such file or directory)\n";

static void retry_loop_to_the_end(void **state)
{
	(void)state;
	struct rt t;
	analyze_text(&t, spin_enoent);
	const struct rc_finding *f = rt_find(&t, "retry-loop");
	assert_non_null(f);
	assert_true(contains(f->summary, "openat on '/run/app/ready' failed with ENOENT 5 times in a row "
				       "(with another call between)"));
	assert_true(contains(f->advice, "waits for '/run/app/ready' to appear"));
	assert_int_equal(f->pid, 200);
	rt_release(&t);

	const char *quiet[] = { spin_then_exit, not_yet, own_pace };
	for (size_t i = 0; i < ARRAY_SIZE(quiet); i++) {
		analyze_text(&t, quiet[i]);
		assert_null(rt_find(&t, "retry-loop"));
		rt_release(&t);
	}
}

/* getrandom blocks only for the kernel's random pool, early in a boot
 * (firecracker-containerd#325's agent hung there). */
static void getrandom_waits_for_entropy(void **state)
{
	(void)state;
	struct rt t;
	analyze_text(&t, "737 getrandom( <unfinished ...>\n"
			 "738 nanosleep({tv_sec=0, tv_nsec=10000000}, NULL) = 0\n"
			 "738 nanosleep({tv_sec=0, tv_nsec=10000000}, NULL) = 0\n");
	const struct rc_finding *f = about(&t, 737);
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_WARNING);
	assert_true(contains(f->summary, "the kernel's random pool is not ready yet"));
	assert_true(contains(f->advice, "virtio-rng"));
	rt_release(&t);
}

static void real_logs_checked(void **state)
{
	(void)state;
	rt_check_logs(real_logs, ARRAY_SIZE(real_logs));

	struct rt t;
	const struct rc_finding *f = rt_expect_log(&t, "proc-blocked-python.log", RULE, "pipe", true);
	assert_ptr_equal(t.out.v[0], f);
	assert_int_equal(f->effective, RC_SEV_WARNING);
	assert_int_equal(f->tid ? f->tid : f->pid, 4464);
	const struct rc_finding *lk = about(&t, 4467);
	assert_int_equal(lk->effective, RC_SEV_WARNING);
	assert_true(contains(lk->message, "thread 4464 in read"));
	assert_int_equal(about(&t, 4468)->effective, RC_SEV_INFO);
	assert_int_equal(about(&t, 4469)->effective, RC_SEV_INFO);
	assert_int_equal(rt_count(&t, RULE), 4);
	rt_release(&t);

	f = rt_expect_log(&t, "proc-blocked-net.log", RULE, "waiting for data", true);
	assert_int_equal(f->effective, RC_SEV_WARNING);
	assert_string_equal(f->address, "127.0.0.1:47813");
	assert_ptr_equal(t.out.v[0], f);
	assert_int_equal(rt_count(&t, RULE), 4);
	for (size_t i = 1; i < t.out.count; i++)
		assert_int_equal(t.out.v[i]->effective, RC_SEV_INFO);
	rt_release(&t);
}

/* ---- file-lock ---- */

/* PID opens PATH as FD, then asks for its lock (LOCK: flock's op), the
 * call lasting DUR and ending with ERR (ERESTARTSYS: cut short). */
static void lock_call(struct rt *t, int pid, int fd, long long op, int err, double dur)
{
	struct rc_event e = rt_timed(t, pid, "flock", 0, err, dur);

	e.fd = fd;
	event_flock_facts(&e, op);
	e.interrupted = err >= 512 && err <= 516;
	rt_feed_line(t, &e, "flock(3, LOCK_EX) = ? ERESTARTSYS (To be restarted if SA_RESTART is set)");
}

static void fl_cut_short_names_file_and_holder(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	/* The holder: another traced process that took it and kept it. */
	rt_open_fd(&t, 50, "/srv/run/app.lock", 3, O_RDWR | O_CREAT, RT_NO_DUR, NULL);
	lock_call(&t, 50, 3, LOCK_EX, 0, 0.0001);
	struct rc_event c = rt_sys(&t, 10, "clone", 11, 0);
	c.flags = SIGCHLD;
	rt_feed(&t, &c);
	rt_open_fd(&t, 11, "/srv/run/app.lock", 3, O_RDWR | O_CREAT, RT_NO_DUR, NULL);
	lock_call(&t, 11, 3, LOCK_EX, 512, 1.9);
	struct rc_event k = rt_sys(&t, 10, "kill", 0, 0);
	k.has_kill_target = true;
	k.kill_target = 11;
	k.signo = SIGTERM;
	rt_feed(&t, &k);
	struct rc_event sig = rt_event(&t, RC_EV_SIGNAL, 11, "--- SIGTERM {si_signo=SIGTERM, si_code=SI_USER} ---");
	sig.signo = SIGTERM;
	sig.sender_pid = 10;
	rt_feed(&t, &sig);
	rt_killed(&t, 11, SIGTERM, false, NULL);
	rt_exit(&t, 10, 124);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "file-lock");
	assert_non_null(f);
	assert_ptr_equal(f, t.out.v[0]);
	assert_string_equal(f->path, "/srv/run/app.lock");
	assert_int_equal(f->pid, 11);
	assert_true(contains(f->summary, "waited 1.9 s"));
	assert_true(contains(f->summary, "interrupted before it got it"));
	assert_true(contains(f->summary, "held by"));
	assert_true(f->stuck);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	assert_ptr_equal(rt_find(&t, "crashed")->cause, f);
	assert_null(rt_find(&t, "slow-syscall"));
	rt_release(&t);
}

/* A try without waiting that found it taken: an error when nothing got it
 * later; a note-worthy retry when the process got it on a later try. A
 * quick interrupted wait (a signal handler's moment) is nothing. */
static void fl_try_taken_and_quick_waits(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	rt_open_fd(&t, 11, "/var/lib/dpkg/lock-frontend", 3, O_RDWR, RT_NO_DUR, NULL);
	lock_call(&t, 11, 3, LOCK_EX | LOCK_NB, EAGAIN, 0.00002);
	rt_exit(&t, 11, 100);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "file-lock");
	assert_non_null(f);
	assert_true(contains(f->summary, "could not take it"));
	assert_int_equal(f->effective, RC_SEV_ERROR);
	rt_release(&t);

	rt_init(&t);
	rt_open_fd(&t, 11, "/run/app.lock", 3, O_RDWR, RT_NO_DUR, NULL);
	lock_call(&t, 11, 3, LOCK_EX | LOCK_NB, EAGAIN, 0.00002);
	lock_call(&t, 11, 3, LOCK_EX, 0, 0.2);
	rt_open_fd(&t, 11, "/run/other.lock", 4, O_RDWR, RT_NO_DUR, NULL);
	lock_call(&t, 11, 4, LOCK_EX, 514, 0.01);
	rt_exit(&t, 11, 0);
	rt_finish(&t);
	f = rt_find(&t, "file-lock");
	assert_non_null(f);
	assert_string_equal(f->path, "/run/app.lock");
	assert_true(contains(f->message, "later try"));
	assert_int_not_equal(f->effective, RC_SEV_ERROR);
	assert_int_equal(rt_count(&t, "file-lock"), 1);
	rt_release(&t);
}

/* A try that found another process's lock file taken, after which the
 * process locked a file of its own beside it (a JVM's look across
 * /tmp/hsperfdata_USER for dead JVMs' files): a note, even when the
 * process then fails for another reason. A taken file in another
 * directory stays an error. */
static void fl_taken_beside_own_lock(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	rt_open_fd(&t, 11, "/tmp/hsperfdata_root/5946", 6, O_RDONLY, RT_NO_DUR, NULL);
	lock_call(&t, 11, 6, LOCK_EX | LOCK_NB, EAGAIN, 0.00002);
	rt_open_fd(&t, 11, "/tmp/hsperfdata_root/11", 7, O_RDWR | O_CREAT, RT_NO_DUR, NULL);
	lock_call(&t, 11, 7, LOCK_EX | LOCK_NB, 0, 0.00002);
	rt_exit(&t, 11, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "file-lock");
	assert_non_null(f);
	assert_string_equal(f->path, "/tmp/hsperfdata_root/5946");
	assert_true(contains(f->message, "'/tmp/hsperfdata_root/11' beside it"));
	assert_int_equal(f->effective, RC_SEV_INFO);
	rt_release(&t);

	rt_init(&t);
	rt_open_fd(&t, 11, "/var/lib/dpkg/lock-frontend", 6, O_RDWR, RT_NO_DUR, NULL);
	lock_call(&t, 11, 6, LOCK_EX | LOCK_NB, EAGAIN, 0.00002);
	rt_open_fd(&t, 11, "/tmp/mine.lock", 7, O_RDWR | O_CREAT, RT_NO_DUR, NULL);
	lock_call(&t, 11, 7, LOCK_EX | LOCK_NB, 0, 0.00002);
	rt_exit(&t, 11, 100);
	rt_finish(&t);
	f = rt_find(&t, "file-lock");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	rt_release(&t);
}

/* What an fd is in words, for each decoration strace -yy prints and the
 * fixtures lack: a socket with no address yet (its inode), unix sockets
 * with and without a name, -y's "socket:[N]", a pipe, IPv6 ends, netlink.
 * The words come from the decoration's facts (procs_fd_shown), never from
 * its text. */
static void fd_words_from_decorations(void **state)
{
	(void)state;
	struct rt t;
	analyze_text(&t, "300 10:00:00.000000 read(3<TCP:[19723]>,  <unfinished ...>\n"
			 "301 10:00:00.000000 read(4<UNIX-STREAM:[12358->12359]>,  <unfinished ...>\n"
			 "302 10:00:00.000000 read(5<socket:[99]>,  <unfinished ...>\n"
			 "304 10:00:00.000000 read(7<UNIX-STREAM:[1446197->1446193,\"/tmp/x.sock\"]>,  "
			 "<unfinished ...>\n"
			 "305 10:00:00.000000 write(8<pipe:[55]>, \"x\", 1 <unfinished ...>\n"
			 "306 10:00:00.000000 read(9<TCPv6:[[::1]:41234->[::1]:443]>,  <unfinished ...>\n"
			 "307 10:00:00.000000 accept4(10<TCP:[0.0.0.0:8080]>,  <unfinished ...>\n"
			 "309 10:00:00.000000 read(12<NETLINK:[ROUTE:7609]>,  <unfinished ...>\n");
	static const struct {
		int tid;
		const char *words;
	} want[] = {
		{ 300, "in read on fd 3 (TCP 19723): waiting for data from the peer" },
		{ 301, "in read on fd 4 (UNIX-STREAM:[12358->12359]): waiting" },
		{ 302, "in read on fd 5 (socket:[99]): waiting" },
		{ 304, "in read on fd 7 (unix socket /tmp/x.sock): waiting for data from /tmp/x.sock" },
		{ 305, "in write on fd 8 (pipe:[55]): the pipe is full" },
		{ 306, "in read on fd 9 (TCPv6 [::1]:41234->[::1]:443): waiting for data from [::1]:443" },
		{ 307, "in accept4 on fd 10 (TCP 0.0.0.0:8080): a server waiting for clients" },
		{ 309, "in read on fd 12 (NETLINK:[ROUTE:7609]): waiting" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		const struct rc_finding *f = about(&t, want[i].tid);
		assert_non_null(f);
		if (!contains(f->summary, want[i].words))
			fail_msg("thread %d: '%s'", want[i].tid, f->summary);
	}
	/* The evidence says the same. */
	assert_true(has_evidence(about(&t, 306), "fd 9 is TCPv6 [::1]:41234->[::1]:443"));
	rt_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(session_pipe_and_lock),
		cmocka_unit_test(session_deadlock),
		cmocka_unit_test(session_server_idle),
		cmocka_unit_test(fd_words_from_decorations),
		cmocka_unit_test(cut_off_log),
		cmocka_unit_test(untimed_log),
		cmocka_unit_test(untimed_getdents),
		cmocka_unit_test(tracer_events),
		cmocka_unit_test(futex_pool),
		cmocka_unit_test(condition_worker),
		cmocka_unit_test(capped),
		cmocka_unit_test(ranking),
		cmocka_unit_test(excerpt_ends_in_the_stall),
		cmocka_unit_test(real_logs_checked),
		cmocka_unit_test(wait_for_an_exit_it_lost),
		cmocka_unit_test(retry_loop_to_the_end),
		cmocka_unit_test(getrandom_waits_for_entropy),
		cmocka_unit_test(fl_cut_short_names_file_and_holder),
		cmocka_unit_test(fl_try_taken_and_quick_waits),
		cmocka_unit_test(fl_taken_beside_own_lock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
