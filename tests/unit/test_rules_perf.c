/* The performance rules (story 2, "it's slow / it stalls"): slow-syscall,
 * lock-wait, repeated-open, mmap-churn and small-io, each fed the events a
 * strace log of the situation gives, and the healthy look-alikes that must
 * stay quiet. Then real logs of the same situations, made by the .cmd file
 * beside each: tests/fixtures/rules/perf-*.log. */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rule_test.h"
#include "util/util.h"

#define MiB (1024LL * 1024)

/* The performance rules read -T durations: every call here has one. */
static void open_fd(struct rt *t, int pid, const char *path, int fd, int flags)
{
	rt_open_fd(t, pid, path, fd, flags, 0.00002, NULL);
}

static void close_fd(struct rt *t, int pid, int fd)
{
	rt_close_fd(t, pid, fd, 0.00001, NULL);
}

static void read_fd(struct rt *t, int pid, int fd, long long len, long long ret, double dur)
{
	rt_io(t, pid, "read", fd, len, ret, 0, dur, NULL);
}

static void write_fd(struct rt *t, int pid, int fd, long long len)
{
	rt_io(t, pid, "write", fd, len, len, 0, 0.00001, NULL);
}

static void clone_thread(struct rt *t, int pid, int tid)
{
	rt_clone_thread(t, pid, tid, 0.0001);
}

static struct rc_event futex_wait(struct rt *t, int tid, uint64_t addr, long long ret, int err, double dur)
{
	struct rc_event e = rt_sys(t, tid, "futex", ret, err);
	e.futex_op = FUTEX_WAIT;
	e.addr = addr;
	e.dur = dur;
	return e;
}

/* TID waking the waiters on ADDR, lasting DUR (RT_NO_DUR: unknown). */
static struct rc_event futex_wake(struct rt *t, int tid, uint64_t addr, double dur)
{
	struct rc_event e = rt_sys(t, tid, "futex", 1, 0);
	e.futex_op = FUTEX_WAKE;
	e.addr = addr;
	e.dur = dur;
	return e;
}

/* A call of TID placed at TS and lasting DUR: the lock tests lay out calls
 * of threads that overlap, which the running clock cannot. */
static struct rc_event call_at(struct rt *t, int tid, const char *name, long long ret, double ts, double dur)
{
	struct rc_event e = rt_sys(t, tid, name, ret, 0);
	e.ts = ts;
	e.dur = dur;
	return e;
}

/* ---- slow-syscall ---- */

static void slow_network_disk_sleep(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	struct rc_event e = rt_timed(&t, 10, "socket", 3, 0, 0.00002);
	e.sa.family = AF_INET;
	e.flags = SOCK_STREAM;
	rt_feed(&t, &e);
	e = rt_timed(&t, 10, "connect", 0, 0, 0.0003);
	e.fd = 3;
	e.sa.family = AF_INET;
	e.sa.host = "127.0.0.1";
	e.sa.port = 8080;
	rt_feed(&t, &e);
	e = rt_timed(&t, 10, "recvfrom", 512, 0, 3.0);
	e.fd = 3;
	e.len = 4096;
	rt_feed_line(&t, &e, "recvfrom(3, \"HTTP/1.1 200 OK\"..., 4096, 0, NULL, NULL) = 512 <3.000000>");
	e = rt_timed(&t, 10, "recvfrom", 512, 0, 1.5);
	e.fd = 3;
	rt_feed(&t, &e);

	open_fd(&t, 10, "/data/out.bin", 4, O_WRONLY | O_CREAT);
	e = rt_timed(&t, 10, "fsync", 0, 0, 2.0);
	e.fd = 4;
	rt_feed_line(&t, &e, "fsync(4</data/out.bin>) = 0 <2.000000>");

	e = rt_timed(&t, 10, "clock_nanosleep", 0, 0, 1.2);
	rt_feed(&t, &e);
	/* Python's time.sleep on older versions: select with no fds. */
	e = rt_timed(&t, 10, "select", 0, 0, 1.0);
	e.timeout_ms = 1000;
	rt_feed(&t, &e);
	rt_exit(&t, 10, 0);
	rt_finish(&t);

	assert_int_equal(rt_count(&t, "slow-syscall"), 3);
	const struct rc_finding *net = NULL, *disk = NULL, *sleep = NULL;
	for (size_t i = 0; i < t.out.count; i++) {
		const struct rc_finding *f = t.out.v[i];
		if (strcmp(f->rule, "slow-syscall") != 0)
			continue;
		if (contains(f->summary, "network"))
			net = f;
		else if (contains(f->summary, "disk"))
			disk = f;
		else if (contains(f->summary, "sleep"))
			sleep = f;
	}
	assert_non_null(net);
	assert_string_equal(net->address, "127.0.0.1:8080");
	assert_string_equal(net->syscall, "recvfrom");
	assert_int_equal(net->count, 2);
	assert_true(net->duration_s > 4.49 && net->duration_s < 4.51);
	assert_int_equal(net->severity, RC_SEV_WARNING);
	assert_int_equal(net->severity_ok, RC_SEV_WARNING);
	assert_int_equal(net->nevidence, 2);
	assert_true(contains(net->evidence[0], "<3.000000>"));
	assert_non_null(disk);
	assert_string_equal(disk->path, "/data/out.bin");
	assert_string_equal(disk->syscall, "fsync");
	assert_non_null(sleep);
	assert_int_equal(sleep->count, 2);
	assert_true(sleep->duration_s > 2.19 && sleep->duration_s < 2.21);
	assert_non_null(net->advice);
	rt_release(&t);
}

/* A slow call that looks a path up waits for the path's file system,
 * whichever it is: readlink and symlink as stat and mkdir (the table's
 * CL_LOOK and CL_NEW_NAME); getdents reads a directory as getdents64. */
static void slow_path_calls_disk(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	struct rc_event e = rt_timed(&t, 10, "readlink", 12, 0, 1.5);
	e.path = "/data/models/current";
	rt_feed_line(&t, &e, "readlink(\"/data/models/current\", \"v23/model.pth\", 4095) = 12 <1.500000>");
	e = rt_timed(&t, 10, "symlink", 0, 0, 1.2);
	e.path = "/data/models/next";
	rt_feed_line(&t, &e, "symlink(\"v24/model.pth\", \"/data/models/next\") = 0 <1.200000>");
	open_fd(&t, 10, "/data/models", 4, O_RDONLY | O_DIRECTORY);
	e = rt_timed(&t, 10, "getdents", 0, 0, 1.1);
	e.fd = 4;
	rt_feed_line(&t, &e, "getdents(4</data/models>, 0x5555 /* 0 entries */, 32768) = 0 <1.100000>");
	rt_exit(&t, 10, 0);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "slow-syscall");
	assert_non_null(f);
	assert_true(contains(f->summary, "disk"));
	assert_int_equal(f->count, 3);
	rt_release(&t);
}

/* An open of a FIFO waits for a process to open its other end: no slow
 * disk, though its path is a file system's. A regular file's open as
 * slow is. (The FIFO is made here: the rule looks at what the path is
 * now.) */
static void slow_fifo_open_waits_for_its_peer(void **state)
{
	(void)state;
	char dir[] = "/tmp/rc-fifo.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char fifo[64], file[64];
	snprintf(fifo, sizeof(fifo), "%s/in.fifo", dir);
	snprintf(file, sizeof(file), "%s/weights.bin", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	for (int regular = 0; regular < 2; regular++) {
		struct rt t;
		rt_init(&t);
		rt_open_fd(&t, 10, regular ? file : fifo, 3, O_RDONLY, 2.6, NULL);
		rt_exit(&t, 10, 0);
		rt_finish(&t);
		assert_int_equal(rt_count(&t, "slow-syscall"), regular);
		rt_release(&t);
	}
	unlink(fifo);
	rmdir(dir);
}

/* Waits that are the program idling by design are not slow calls. */
static void slow_ignores_idle_waits(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	struct rc_event e = rt_timed(&t, 10, "futex", 0, 0, 5.0);
	e.futex_op = FUTEX_WAIT;
	rt_feed(&t, &e);
	e = rt_timed(&t, 10, "wait4", 11, 0, 5.0);
	rt_feed(&t, &e);
	e = rt_timed(&t, 10, "read", 5, 0, 8.0);
	e.fd = 0;
	rt_feed(&t, &e);
	/* A server: it listens, accepts, then waits for requests. */
	e = rt_timed(&t, 10, "socket", 3, 0, 0.00001);
	e.sa.family = AF_INET;
	rt_feed(&t, &e);
	e = rt_timed(&t, 10, "listen", 0, 0, 0.00001);
	e.fd = 3;
	rt_feed(&t, &e);
	e = rt_timed(&t, 10, "accept4", 4, 0, 6.0);
	e.fd = 3;
	e.sa.family = AF_INET;
	e.sa.host = "127.0.0.1";
	e.sa.port = 50000;
	rt_feed(&t, &e);
	e = rt_timed(&t, 10, "recvfrom", 100, 0, 4.0);
	e.fd = 4;
	rt_feed(&t, &e);
	e = rt_timed(&t, 10, "poll", 1, 0, 3.0);
	e.fds[0] = 3;
	e.fds[1] = 4;
	e.nfds = 2;
	rt_feed(&t, &e);
	/* An event loop's timer expiring. */
	e = rt_timed(&t, 10, "epoll_wait", 0, 0, 5.0);
	e.fd = 5;
	e.timeout_ms = 5000;
	rt_feed(&t, &e);
	/* Waiting on a child's pipe. */
	e = rt_timed(&t, 10, "pipe2", 0, 0, 0.00001);
	e.fds[0] = 6;
	e.fds[1] = 7;
	e.nfds = 2;
	rt_feed(&t, &e);
	e = rt_timed(&t, 10, "read", 10, 0, 4.0);
	e.fd = 6;
	rt_feed(&t, &e);
	/* A call that never returned. */
	e = rt_sys(&t, 10, "read", 0, 0);
	e.fd = 4;
	e.ret_known = false;
	rt_feed(&t, &e);
	rt_exit(&t, 10, 0);
	rt_finish(&t);

	assert_int_equal(rt_count(&t, "slow-syscall"), 0);
	rt_release(&t);
}

/* Many quick disk calls that add up to most of the run. */
static void slow_by_share(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	open_fd(&t, 10, "/mnt/nfs/data.csv", 3, O_RDONLY);
	for (int i = 0; i < 200; i++)
		read_fd(&t, 10, 3, 65536, 65536, 0.01);
	rt_exit(&t, 10, 0);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "slow-syscall");
	assert_non_null(f);
	assert_true(contains(f->summary, "disk"));
	assert_true(contains(f->summary, "of the traced time"));
	assert_int_equal(f->count, 201);
	assert_string_equal(f->path, "/mnt/nfs/data.csv");
	assert_int_equal(f->nevidence, 5);
	rt_release(&t);
}

/* Quick calls, or calls without -T durations: nothing to say. */
static void slow_quiet_without_durations(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	struct rc_event e = rt_sys(&t, 10, "clock_nanosleep", 0, 0);
	t.now += 5;
	rt_feed(&t, &e);
	open_fd(&t, 10, "/data/x", 3, O_RDONLY);
	for (int i = 0; i < 10; i++)
		read_fd(&t, 10, 3, 4096, 4096, 0.0001);
	rt_exit(&t, 10, 0);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "slow-syscall"), 0);
	rt_release(&t);
}

/* ---- lock-wait ---- */

static void lock_contention(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	clone_thread(&t, 100, 101);
	clone_thread(&t, 100, 102);
	/* 101 holds the lock and sleeps inside it; 102 waits for it. */
	double start = t.now;
	struct rc_event hold = call_at(&t, 101, "clock_nanosleep", 0, start, 1.0);
	struct rc_event wait = futex_wait(&t, 102, 0x5555a0, 0, 0, 0.95);
	wait.ts = start + 0.05;
	t.now = start + 1.0;
	rt_feed(&t, &hold);
	struct rc_event wake = futex_wake(&t, 101, 0x5555a0, 0.0001);
	rt_feed(&t, &wake);
	rt_feed_line(&t, &wait, "102 futex(0x5555a0, FUTEX_WAIT_PRIVATE, 2, NULL) = 0 <0.950000>");
	/* 102 holds the lock now; glibc marked it contended, so its unlock
	 * wakes the word (nobody waits any more). */
	struct rc_event unlock = futex_wake(&t, 102, 0x5555a0, 0.0001);
	unlock.ret = 0;
	rt_feed(&t, &unlock);
	/* Some more work so the wait is a fair share of the run. */
	for (int i = 0; i < 5; i++) {
		struct rc_event e = rt_timed(&t, 100, "getpid", 100, 0, 0.0001);
		rt_feed(&t, &e);
	}
	rt_exit(&t, 100, 0);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "lock-wait");
	assert_non_null(f);
	assert_int_equal(f->tid, 102);
	assert_int_equal(f->pid, 100);
	assert_int_equal(f->count, 1);
	assert_true(f->duration_s > 0.94 && f->duration_s < 0.96);
	assert_true(contains(f->summary, "tid 102"));
	assert_true(contains(f->summary, "0x5555a0"));
	assert_true(contains(f->summary, "tid 101 woke it"));
	assert_true(contains(f->summary, "waiting for a lock other threads held"));
	assert_int_equal(f->nevidence, 1);
	assert_true(contains(f->evidence[0], "FUTEX_WAIT_PRIVATE"));
	assert_int_equal(f->severity_ok, RC_SEV_WARNING);
	assert_non_null(f->advice);
	rt_release(&t);
}

/* The holder unlocks and its thread ends at once, before strace prints
 * the woken wait (scenario 14 under load): the wake names the waker, so
 * this is contention, not a join. */
static void lock_contention_holder_exits(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	clone_thread(&t, 100, 101);
	double start = t.now;
	struct rc_event hold = call_at(&t, 101, "clock_nanosleep", 0, start, 1.5);
	struct rc_event wait = futex_wait(&t, 100, 0x5555a0, 0, 0, 1.5);
	wait.ts = start + 0.001;
	t.now = start + 1.5;
	rt_feed(&t, &hold);
	struct rc_event wake = futex_wake(&t, 101, 0x5555a0, 0.0001);
	rt_feed(&t, &wake);
	rt_exit(&t, 101, 0);
	rt_feed_line(&t, &wait, "100 futex(0x5555a0, FUTEX_WAIT_PRIVATE, 2, NULL) = 0 <1.500000>");
	struct rc_event unlock = futex_wake(&t, 100, 0x5555a0, 0.0001);
	unlock.ret = 0;
	rt_feed(&t, &unlock);
	for (int i = 0; i < 5; i++) {
		struct rc_event e = rt_timed(&t, 100, "getpid", 100, 0, 0.0001);
		rt_feed(&t, &e);
	}
	rt_exit(&t, 100, 0);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "lock-wait");
	assert_non_null(f);
	assert_int_equal(f->tid, 100);
	assert_true(contains(f->summary, "tid 101 woke it"));
	rt_release(&t);
}

/* strace often prints the waker's line after the woken thread's: the
 * verdict waits for it. */
static void lock_contention_waker_later(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	clone_thread(&t, 100, 101);
	clone_thread(&t, 100, 102);
	double start = t.now;
	struct rc_event io = call_at(&t, 101, "ioctl", 0, start, 2.0);
	io.fd = 9;
	rt_feed(&t, &io);
	struct rc_event wait = futex_wait(&t, 102, 0x7000, 0, 0, 1.9);
	wait.ts = start + 0.1;
	rt_feed_line(&t, &wait, "futex(0x7000, FUTEX_WAIT_PRIVATE, 0, NULL) = 0 <1.900000>");
	struct rc_event wake = futex_wake(&t, 101, 0x7000, 0.0001);
	wake.ts = start + 1.9995;
	rt_feed(&t, &wake);
	struct rc_event unlock = futex_wake(&t, 102, 0x7000, 0.0001);
	unlock.ret = 0;
	unlock.ts = start + 2.1;
	rt_feed(&t, &unlock);
	rt_exit(&t, 100, 0);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "lock-wait");
	assert_non_null(f);
	assert_int_equal(f->tid, 102);
	assert_int_equal(f->nevidence, 1);
	rt_release(&t);
}

/* Timed out, unfinished, joins and parked workers woken by new work are
 * threads idling by design. */
static void lock_idle_waits(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	clone_thread(&t, 100, 101);
	clone_thread(&t, 100, 102);
	clone_thread(&t, 100, 103);
	clone_thread(&t, 100, 104);
	/* A pool worker's timed wait that expired. */
	struct rc_event e = futex_wait(&t, 101, 0x1000, -1, ETIMEDOUT, 3.0);
	t.now += 3.0;
	rt_feed(&t, &e);
	/* A parked worker woken when the main thread, idle in epoll_wait
	 * until then, got a request and handed it over. */
	double start = t.now;
	struct rc_event park = futex_wait(&t, 102, 0x2000, 0, 0, 5.0);
	park.ts = start;
	struct rc_event loop = call_at(&t, 100, "epoll_wait", 1, start, 4.998);
	loop.fd = 3;
	rt_feed(&t, &loop);
	struct rc_event recv = call_at(&t, 100, "recvfrom", 100, start + 4.9985, 0.0001);
	rt_feed(&t, &recv);
	/* A heartbeat thread sleeps meanwhile: it is not the waker. */
	struct rc_event beat = call_at(&t, 104, "clock_nanosleep", 0, start, 4.9);
	rt_feed(&t, &beat);
	struct rc_event wake = futex_wake(&t, 100, 0x2000, RT_NO_DUR);
	wake.ts = start + 4.999;
	rt_feed(&t, &wake);
	t.now = start + 5.0;
	rt_feed(&t, &park);
	/* The main thread joins 103, which works 2 s and exits. */
	start = t.now;
	struct rc_event work = call_at(&t, 103, "read", 10, start, 2.0);
	rt_feed(&t, &work);
	struct rc_event ex = call_at(&t, 103, "exit", 0, start + 2.0, RT_NO_DUR);
	ex.ret_known = false;
	rt_feed(&t, &ex);
	struct rc_event join = futex_wait(&t, 100, 0x3000, 0, 0, 2.0002);
	join.futex_op = FUTEX_WAIT_BITSET;
	join.ts = start;
	t.now = start + 2.0003;
	rt_feed(&t, &join);
	/* Still waiting at exit. */
	e = futex_wait(&t, 101, 0x1000, 0, 0, -1);
	e.ret_known = false;
	rt_feed(&t, &e);
	rt_exit(&t, 100, 0);
	rt_finish(&t);

	assert_int_equal(rt_count(&t, "lock-wait"), 0);
	rt_release(&t);
}

/* strace -p PID -f -T (story 2 as typed): durations, no timestamps. */
static void lock_without_timestamps(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	clone_thread(&t, 100, 101);
	struct rc_event e = futex_wait(&t, 101, 0x7f00, 0, 0, 3.214567);
	e.ts = -1;
	rt_feed_line(&t, &e, "futex(0x7f00, FUTEX_WAIT_PRIVATE, 0, NULL) = 0 <3.214567>");
	/* The waiter's unlock tells a lock, timestamps or not. */
	e = futex_wake(&t, 101, 0x7f00, 0.00001);
	e.ts = -1;
	e.ret = 0;
	rt_feed(&t, &e);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "lock-wait");
	assert_non_null(f);
	assert_true(f->duration_s > 3.2 && f->duration_s < 3.3);
	rt_release(&t);

	/* A wait nobody woke in turn: a parked worker, quiet. */
	rt_init(&t);
	clone_thread(&t, 100, 101);
	e = futex_wait(&t, 101, 0x7f00, 0, 0, 3.214567);
	e.ts = -1;
	rt_feed(&t, &e);
	rt_finish(&t);
	assert_null(rt_find(&t, "lock-wait"));
	rt_release(&t);
}

/* Four workers serialise on one threading.Lock, each holding it 0.15 s
 * (sleeping inside it): the waits are 0.15, 0.3 and 0.45 s, none of them
 * 0.5 s, 0.9 s in all. Each waiter takes the lock next and releases it:
 * a lock. */
static void lock_serialised_workers(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	for (int tid = 101; tid <= 104; tid++)
		clone_thread(&t, 100, tid);
	double start = t.now;
	/* 101 takes the lock without waiting; 102-104 wait from start. */
	for (int k = 0; k < 4; k++) {
		int holder = 101 + k;
		struct rc_event hold = call_at(&t, holder, "clock_nanosleep", 0, start + 0.15 * k, 0.15);
		rt_feed(&t, &hold);
		struct rc_event wake = futex_wake(&t, holder, 0x1ef05ce0, 0.0001);
		wake.ts = start + 0.15 * (k + 1);
		wake.ret = k < 3 ? 1 : 0;
		rt_feed(&t, &wake);
		if (k < 3) {
			struct rc_event wait = futex_wait(&t, holder + 1, 0x1ef05ce0, 0, 0, 0.15 * (k + 1));
			wait.futex_op = FUTEX_WAIT_BITSET;
			wait.ts = start;
			rt_feed_line(&t, &wait, "futex(0x1ef05ce0, FUTEX_WAIT_BITSET_PRIVATE|FUTEX_CLOCK_REALTIME, 0, "
				     "NULL, FUTEX_BITSET_MATCH_ANY) = 0");
		}
	}
	t.now = start + 0.65;
	rt_exit(&t, 100, 0);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "lock-wait");
	assert_non_null(f);
	assert_int_equal(f->count, 3);
	assert_true(f->duration_s > 0.89 && f->duration_s < 0.91);
	assert_int_equal(f->tid, 104);
	assert_true(contains(f->summary, "futex 0x1ef05ce0 3 waits"));
	assert_true(contains(f->summary, "tid 103 woke it"));
	rt_release(&t);
}

/* A JVM's helper threads at start-up wait on their own condition
 * variables for the whole one-second run and are woken at the end by the
 * main thread, which was busy meanwhile: threads waiting for work, not
 * for a lock. None of them wakes its word in turn. */
static void lock_idle_helpers(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	for (int tid = 101; tid <= 108; tid++)
		clone_thread(&t, 100, tid);
	double start = t.now;
	for (int i = 0; i < 10; i++) {
		struct rc_event e = call_at(&t, 100, "openat", 3, start + 0.1 * i, 0.001);
		e.path = "/usr/lib/jvm/java-17-openjdk-amd64/lib/modules";
		rt_feed(&t, &e);
	}
	struct rc_event sleep = call_at(&t, 100, "clock_nanosleep", 0, start, 1.0);
	rt_feed(&t, &sleep);
	for (int tid = 101; tid <= 108; tid++) {
		uint64_t addr = 0x7f4bbc0132c8 + 0x100 * (uint64_t)tid;
		struct rc_event wake = futex_wake(&t, 100, addr, 0.00002);
		wake.ts = start + 1.0;
		rt_feed(&t, &wake);
		struct rc_event wait = futex_wait(&t, tid, addr, 0, 0, 1.0);
		wait.futex_op = FUTEX_WAIT_BITSET;
		wait.ts = start;
		rt_feed(&t, &wait);
	}
	t.now = start + 1.05;
	rt_exit(&t, 100, 0);
	rt_finish(&t);
	assert_null(rt_find(&t, "lock-wait"));
	rt_release(&t);
}

/* Short waits, or a single long one lost in a long trace, are no finding;
 * neither is anything without durations. */
static void lock_short_waits_quiet(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	clone_thread(&t, 100, 101);
	for (int i = 0; i < 20; i++) {
		double start = t.now;
		struct rc_event w = call_at(&t, 100, "write", 10, start, 0.2);
		w.fd = 5;
		rt_feed(&t, &w);
		struct rc_event e = futex_wait(&t, 101, 0x9000, 0, 0, 0.2);
		e.ts = start;
		t.now = start + 0.21;
		rt_feed(&t, &e);
	}
	rt_exit(&t, 100, 0);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "lock-wait"), 0);
	rt_release(&t);

	/* A real lock, but the waits add up to 0.3 s. */
	rt_init(&t);
	clone_thread(&t, 100, 101);
	for (int i = 0; i < 3; i++) {
		double start = t.now;
		struct rc_event e = futex_wait(&t, 101, 0x9000, 0, 0, 0.1);
		e.ts = start;
		t.now = start + 0.1;
		rt_feed(&t, &e);
		e = futex_wake(&t, 101, 0x9000, 0.00001);
		rt_feed(&t, &e);
	}
	rt_exit(&t, 100, 0);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "lock-wait"), 0);
	rt_release(&t);

	rt_init(&t);
	clone_thread(&t, 100, 101);
	double start = t.now;
	struct rc_event w = call_at(&t, 100, "write", 10, start, 0.7);
	rt_feed(&t, &w);
	struct rc_event e = futex_wait(&t, 101, 0x9000, 0, 0, 0.6);
	e.ts = start;
	rt_feed(&t, &e);
	e = futex_wake(&t, 101, 0x9000, 0.00001);
	rt_feed(&t, &e);
	t.now = start + 100;
	e = rt_sys(&t, 100, "getpid", 100, 0);
	e.dur = 0.0001;
	rt_feed(&t, &e);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "lock-wait"), 0);
	rt_release(&t);

	rt_init(&t);
	clone_thread(&t, 100, 101);
	e = futex_wait(&t, 101, 0x9000, 0, 0, -1);
	t.now += 5;
	rt_feed(&t, &e);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "lock-wait"), 0);
	rt_release(&t);
}

/* ---- repeated-open ---- */

static void load_file(struct rt *t, int pid, const char *path, long long size, long long chunk, bool fstat)
{
	open_fd(t, pid, path, 3, O_RDONLY | O_CLOEXEC);
	if (fstat) {
		struct rc_event e = rt_timed(t, pid, "fstat", 0, 0, 0.00001);
		e.fd = 3;
		e.st_size = size;
		rt_feed(t, &e);
	}
	for (long long got = 0; got < size; got += chunk)
		read_fd(t, pid, 3, chunk, MIN(chunk, size - got), 0.001);
	read_fd(t, pid, 3, chunk, 0, 0.00001);
	close_fd(t, pid, 3);
}

static void reopen_weights(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	for (int i = 0; i < 6; i++)
		load_file(&t, 10, "/srv/models/weights.bin", 2 * MiB, MiB, i % 2 == 0);
	rt_exit(&t, 10, 0);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "repeated-open");
	assert_non_null(f);
	assert_string_equal(f->path, "/srv/models/weights.bin");
	assert_int_equal(f->count, 6);
	assert_int_equal(f->bytes, 12 * MiB);
	assert_true(contains(f->summary, "10 MiB"));
	assert_int_equal(f->nevidence, 2);
	assert_int_equal(f->severity_ok, RC_SEV_WARNING);
	assert_string_equal(f->echo_words[0], "weights.bin");
	rt_release(&t);
}

/* What a reader read and wrote on went on, whichever call wrote it:
 * pwritev2 (offset -1: at the fd's position, as writev) writes as
 * pwritev does (the table's CL_MEM_IO), so the file was copied, a note. */
static void reopen_copied_pwritev2(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	open_fd(&t, 10, "/srv/cache/out.txt", 5, O_WRONLY | O_CREAT | O_TRUNC);
	for (int i = 0; i < 6; i++) {
		open_fd(&t, 10, "/srv/www/data.txt", 3, O_RDONLY | O_CLOEXEC);
		for (int k = 0; k < 4; k++) {
			read_fd(&t, 10, 3, 65536 * 8, 65536 * 8, 0.0001);
			struct rc_event e = rt_timed(&t, 10, "pwritev2", 65536 * 8, 0, 0.0001);
			e.fd = 5;
			e.len = 65536 * 8;
			rt_feed(&t, &e);
		}
		read_fd(&t, 10, 3, 65536, 0, 0.00001);
		close_fd(&t, 10, 3);
	}
	rt_exit(&t, 10, 0);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "repeated-open");
	assert_non_null(f);
	assert_int_equal(f->severity, RC_SEV_INFO);
	rt_release(&t);
}

/* Without fstat the size is the most read between two opens. */
static void reopen_size_from_sessions(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	for (int i = 0; i < 5; i++)
		load_file(&t, 10, "/srv/a.pth", MiB / 2 + MiB / 4, 65536, false);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "repeated-open");
	assert_non_null(f);
	assert_true(contains(f->summary, "3 MiB of it again"));
	rt_release(&t);
}

static void reopen_quiet(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	/* Small files opened often; a big file opened a few times; pseudo
	 * files and code; one big file read once in pieces. */
	for (int i = 0; i < 20; i++) {
		load_file(&t, 10, "/etc/hosts", 1024, 4096, true);
		load_file(&t, 10, "/proc/self/status", 2 * MiB, MiB, false);
		load_file(&t, 10, "/usr/lib/python3/dist-packages/torch/nn/functional.py", 2 * MiB, MiB,
			  false);
		load_file(&t, 10, "/usr/lib/x86_64-linux-gnu/libtorch_cpu.so.1.13.0", 2 * MiB, MiB, false);
	}
	for (int i = 0; i < 4; i++)
		load_file(&t, 10, "/srv/big.bin", 8 * MiB, MiB, true);
	open_fd(&t, 10, "/srv/once.bin", 3, O_RDONLY);
	for (int i = 0; i < 64; i++)
		read_fd(&t, 10, 3, MiB, MiB, 0.001);
	/* Opened for writing: nothing is read again. */
	for (int i = 0; i < 8; i++)
		open_fd(&t, 10, "/srv/log.txt", 4, O_WRONLY | O_APPEND);
	rt_exit(&t, 10, 0);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "repeated-open"), 0);
	rt_release(&t);
}

/* What the file is for names it and picks the advice: weights are loaded
 * again (a warning, story 2's advice), a file a server sends to clients or
 * a package manager's lists are read again by design (notes), and a file
 * the program also writes is its own store (nothing). */
static void reopen_kinds(void **state)
{
	(void)state;
	struct rt t;

	rt_init(&t);
	for (int i = 0; i < 6; i++)
		load_file(&t, 10, "/srv/voices/en_US.pth", 2 * MiB, MiB, true);
	rt_exit(&t, 10, 0);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "repeated-open");
	assert_non_null(f);
	assert_int_equal(f->severity_ok, RC_SEV_WARNING);
	assert_true(contains(f->summary, "model weights '/srv/voices/en_US.pth'"));
	assert_true(contains(f->advice, "load the model once"));
	rt_release(&t);

	/* A file of unknown kind: no word of models. */
	rt_init(&t);
	for (int i = 0; i < 6; i++)
		load_file(&t, 10, "/srv/data/table.csv", 2 * MiB, MiB, true);
	rt_finish(&t);
	f = rt_find(&t, "repeated-open");
	assert_non_null(f);
	assert_int_equal(f->severity_ok, RC_SEV_WARNING);
	assert_false(contains(f->advice, "model"));
	assert_true(contains(f->advice, "read it once"));
	rt_release(&t);

	/* python3 -m http.server: each request reads data.txt and sends
	 * what it read to the client's socket. */
	rt_init(&t);
	struct rc_event e = rt_timed(&t, 10, "socket", 5, 0, 0.00001);
	e.flags = SOCK_STREAM;
	rt_feed(&t, &e);
	for (int i = 0; i < 6; i++) {
		open_fd(&t, 10, "/srv/www/data.txt", 3, O_RDONLY | O_CLOEXEC);
		for (int k = 0; k < 4; k++) {
			read_fd(&t, 10, 3, 65536 * 8, 65536 * 8, 0.0001);
			e = rt_timed(&t, 10, "sendto", 65536 * 8, 0, 0.0001);
			e.fd = 5;
			e.len = 65536 * 8;
			rt_feed(&t, &e);
		}
		read_fd(&t, 10, 3, 65536, 0, 0.00001);
		close_fd(&t, 10, 3);
	}
	rt_exit(&t, 10, 0);
	rt_finish(&t);
	f = rt_find(&t, "repeated-open");
	assert_non_null(f);
	assert_int_equal(f->severity, RC_SEV_INFO);
	assert_int_equal(f->severity_ok, RC_SEV_INFO);
	assert_true(contains(f->summary, "to send it to clients"));
	assert_true(contains(f->advice, "sendfile"));
	assert_false(contains(f->advice, "model"));
	rt_release(&t);

	/* apt-cache parsing its lists, several passes a run. */
	rt_init(&t);
	for (int i = 0; i < 5; i++)
		load_file(&t, 10, "/var/lib/apt/lists/deb.debian.org_debian_dists_bookworm_main_binary-amd64_Packages.lz4",
			  4 * MiB, MiB, true);
	rt_exit(&t, 10, 0);
	rt_finish(&t);
	f = rt_find(&t, "repeated-open");
	assert_non_null(f);
	assert_int_equal(f->severity, RC_SEV_INFO);
	assert_true(contains(f->summary, "the package index"));
	assert_true(contains(f->advice, "pkgcache.bin"));
	rt_release(&t);

	/* A database's relation file: opened read-write, read block by block
	 * by each of its processes. */
	rt_init(&t);
	for (int i = 0; i < 8; i++) {
		open_fd(&t, 10, "/var/lib/postgresql/15/main/base/1/1255", 3, O_RDWR);
		for (int k = 0; k < 32; k++)
			rt_io(&t, 10, "pread64", 3, 8192 * 8, 8192 * 8, 0, 0.00001, NULL);
		close_fd(&t, 10, 3);
	}
	rt_exit(&t, 10, 0);
	rt_finish(&t);
	assert_null(rt_find(&t, "repeated-open"));
	rt_release(&t);
}

/* ---- mmap-churn ---- */

static void map_unmap(struct rt *t, int map_pid, int unmap_pid, uint64_t addr, uint64_t len, int fd)
{
	struct rc_event e = rt_timed(t, map_pid, "mmap", (long long)addr, 0, 0.00003);
	e.len = len;
	e.flags = fd < 0 ? MAP_PRIVATE | MAP_ANONYMOUS : MAP_PRIVATE;
	e.mode = PROT_READ | PROT_WRITE;
	e.fd = fd;
	e.offset = 0;
	rt_feed_line(t, &e, fd < 0 ? "mmap(NULL, 67108864, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, "
				     "-1, 0) = 0x7f0000000000"
				   : "mmap(NULL, 33554432, PROT_READ, MAP_PRIVATE, 3, 0) = 0x7f1000000000");
	e = rt_timed(t, unmap_pid, "munmap", 0, 0, 0.004);
	e.addr = addr;
	e.len = len;
	rt_feed_line(t, &e, "munmap(0x7f0000000000, 67108864) = 0");
}

/* A 128 MiB anonymous mapping at ADDR (with EXTRA flags and PROT) in
 * pid 10, then a munmap of its first UNMAP bytes. */
static void map_then_unmap(struct rt *t, uint64_t addr, int extra, int prot, uint64_t unmap)
{
	struct rc_event e = rt_timed(t, 10, "mmap", (long long)addr, 0, 0.00003);
	e.len = 128 * MiB;
	e.flags = MAP_PRIVATE | MAP_ANONYMOUS | extra;
	e.mode = prot;
	rt_feed(t, &e);
	e = rt_timed(t, 10, "munmap", 0, 0, 0.00002);
	e.addr = addr;
	e.len = unmap;
	rt_feed(t, &e);
}

static void mmap_churn_anonymous(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	clone_thread(&t, 10, 11);
	for (int i = 0; i < 8; i++)
		map_unmap(&t, i % 2 ? 11 : 10, 10, 0x7f0000000000ULL + (uint64_t)(i % 3) * 0x10000000,
			  64 * MiB, -1);
	rt_exit(&t, 10, 0);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "mmap-churn");
	assert_non_null(f);
	assert_int_equal(f->count, 8);
	assert_int_equal(f->bytes, 64 * MiB);
	assert_null(f->path);
	assert_true(contains(f->summary, "64 MiB anonymous"));
	assert_true(contains(f->summary, "512 MiB in all"));
	assert_true(f->duration_s > 0.032 && f->duration_s < 0.033);
	assert_int_equal(f->nevidence, 4);
	assert_true(contains(f->advice, "32 MiB"));
	rt_release(&t);
}

static void mmap_churn_file(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	for (int i = 0; i < 5; i++) {
		open_fd(&t, 10, "/srv/model.safetensors", 3, O_RDONLY);
		map_unmap(&t, 10, 10, 0x7f1000000000ULL, 32 * MiB, 3);
		close_fd(&t, 10, 3);
	}
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "mmap-churn");
	assert_non_null(f);
	assert_string_equal(f->path, "/srv/model.safetensors");
	assert_int_equal(f->count, 5);
	rt_release(&t);
}

static void mmap_churn_quiet(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	/* Three round trips; small maps; large maps kept. */
	for (int i = 0; i < 3; i++)
		map_unmap(&t, 10, 10, 0x7f2000000000ULL, 64 * MiB, -1);
	for (int i = 0; i < 50; i++)
		map_unmap(&t, 10, 10, 0x7f3000000000ULL, 8 * MiB, -1);
	for (int i = 0; i < 10; i++) {
		uint64_t addr = 0x7f4000000000ULL + (uint64_t)i * 0x10000000;
		struct rc_event e = rt_timed(&t, 10, "mmap", (long long)addr, 0, 0.00003);
		e.len = 256 * MiB;
		e.flags = MAP_PRIVATE | MAP_ANONYMOUS;
		rt_feed(&t, &e);
	}
	/* glibc's arena heaps: a 128 MiB reservation trimmed to an aligned
	 * 64 MiB, head and tail. Reserved, then trimmed, many times. */
	for (int i = 0; i < 6; i++)
		map_then_unmap(&t, 0x7f5000000000ULL, MAP_NORESERVE, PROT_NONE, 32 * MiB);
	/* The same trims of a mapping that is not a reservation. */
	for (int i = 0; i < 6; i++)
		map_then_unmap(&t, 0x7f6000000000ULL, 0, PROT_READ | PROT_WRITE, 32 * MiB);
	/* Reservations made and dropped whole. */
	for (int i = 0; i < 6; i++)
		map_then_unmap(&t, 0x7f7000000000ULL, MAP_NORESERVE, PROT_NONE, 128 * MiB);
	/* A child process unmapping the same address is not a pair. */
	struct rc_event fork = rt_timed(&t, 10, "clone", 20, 0, 0.0001);
	fork.flags = 0;
	rt_feed(&t, &fork);
	for (int i = 0; i < 6; i++) {
		struct rc_event e = rt_timed(&t, 20, "munmap", 0, 0, 0.001);
		e.addr = 0x7f4000000000ULL;
		e.len = 256 * MiB;
		rt_feed(&t, &e);
	}
	rt_exit(&t, 10, 0);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "mmap-churn"), 0);
	rt_release(&t);
}

/* ---- small-io ---- */

static void small_reads(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	open_fd(&t, 10, "/data/audio.raw", 3, O_RDONLY);
	open_fd(&t, 10, "/data/image.png", 4, O_RDONLY);
	read_fd(&t, 10, 4, 8 * MiB, 3 * MiB, 0.01);
	for (int i = 0; i < 320; i++) {
		struct rc_event e = rt_timed(&t, 10, "read", 1024, 0, 0.00001);
		e.fd = 3;
		e.len = 1024;
		rt_feed_line(&t, &e, "read(3</data/audio.raw>, \"RIFF\"..., 1024) = 1024");
	}
	read_fd(&t, 10, 3, 1024, 0, 0.00001);
	rt_exit(&t, 10, 0);
	rt_finish(&t);

	assert_int_equal(rt_count(&t, "small-io"), 1);
	const struct rc_finding *f = rt_find(&t, "small-io");
	assert_string_equal(f->path, "/data/audio.raw");
	assert_int_equal(f->count, 320);
	assert_int_equal(f->bytes, 320 * 1024);
	assert_true(contains(f->summary, "typically 1024 bytes"));
	assert_true(contains(f->summary, "read"));
	assert_string_equal(f->syscall, "read");
	assert_int_equal(f->nevidence, 3);
	assert_int_equal(f->severity_ok, RC_SEV_WARNING);
	rt_release(&t);
}

/* preadv2 reads as preadv does (the table's CL_MEM_IO): RWF_NOWAIT readers
 * (io_uring's fallback, some databases) make the same small reads; a
 * socket's small receives are no file's. */
static void small_preadv2(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	open_fd(&t, 10, "/data/audio.raw", 3, O_RDONLY);
	for (int i = 0; i < 320; i++) {
		struct rc_event e = rt_timed(&t, 10, "preadv2", 1024, 0, 0.00001);
		e.fd = 3;
		e.len = 1024;
		rt_feed_line(&t, &e, "preadv2(3</data/audio.raw>, [{iov_base=\"RIFF\"..., iov_len=1024}], 1, 0, 0) = 1024");
	}
	struct rc_event p = rt_sys(&t, 10, "socketpair", 0, 0);
	p.fds[0] = 4;
	p.fds[1] = 5;
	p.nfds = 2;
	rt_feed(&t, &p);
	for (int i = 0; i < 320; i++) {
		struct rc_event e = rt_timed(&t, 10, "recvfrom", 16, 0, 0.00001);
		e.fd = 4;
		e.len = 16;
		rt_feed(&t, &e);
	}
	rt_exit(&t, 10, 0);
	rt_finish(&t);

	assert_int_equal(rt_count(&t, "small-io"), 1);
	const struct rc_finding *f = rt_find(&t, "small-io");
	assert_string_equal(f->path, "/data/audio.raw");
	assert_int_equal(f->count, 320);
	assert_string_equal(f->syscall, "preadv2");
	rt_release(&t);
}

static void small_writes_and_hints(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	open_fd(&t, 10, "/var/log/app.log", 5, O_WRONLY | O_APPEND);
	for (int i = 0; i < 400; i++)
		write_fd(&t, 10, 5, 1000);
	/* An fd opened before tracing began, known from strace -y. */
	for (int i = 0; i < 300; i++) {
		struct rc_event e = rt_timed(&t, 10, "read", 2000, 0, 0.00001);
		e.fd = 7;
		e.len = 2000;
		e.fd_shown = rt_decoration(&t, "/data/old.wav");
		rt_feed(&t, &e);
	}
	rt_exit(&t, 10, 0);
	rt_finish(&t);

	assert_int_equal(rt_count(&t, "small-io"), 2);
	bool saw_log = false, saw_wav = false;
	for (size_t i = 0; i < t.out.count; i++) {
		const struct rc_finding *f = t.out.v[i];
		if (strcmp(f->rule, "small-io") != 0)
			continue;
		if (strcmp(f->path, "/var/log/app.log") == 0) {
			saw_log = true;
			assert_true(contains(f->summary, "written"));
			assert_true(contains(f->advice, "buffer"));
		}
		if (strcmp(f->path, "/data/old.wav") == 0)
			saw_wav = f->count == 300;
	}
	assert_true(saw_log);
	assert_true(saw_wav);
	rt_release(&t);
}

static void small_io_quiet(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);

	/* Page-sized buffered reads; few small reads; tiny total; pseudo
	 * files; sockets and pipes. */
	open_fd(&t, 10, "/data/big.csv", 3, O_RDONLY);
	for (int i = 0; i < 1000; i++)
		read_fd(&t, 10, 3, 4096, 4096, 0.00001);
	/* mawk keeps a partial line and reads the rest of its 4 KiB. */
	open_fd(&t, 10, "/data/big.txt", 8, O_RDONLY);
	for (int i = 0; i < 1000; i++)
		read_fd(&t, 10, 8, 4090 - i % 7, 4090 - i % 7, 0.00001);
	open_fd(&t, 10, "/data/few.raw", 4, O_RDONLY);
	for (int i = 0; i < 100; i++)
		read_fd(&t, 10, 4, 1024, 1024, 0.00001);
	open_fd(&t, 10, "/data/tiny.txt", 5, O_RDONLY);
	for (int i = 0; i < 1000; i++)
		read_fd(&t, 10, 5, 16, 16, 0.00001);
	open_fd(&t, 10, "/proc/self/maps", 6, O_RDONLY);
	for (int i = 0; i < 1000; i++)
		read_fd(&t, 10, 6, 1024, 1024, 0.00001);
	struct rc_event e = rt_timed(&t, 10, "socket", 7, 0, 0.00001);
	e.sa.family = AF_INET;
	rt_feed(&t, &e);
	for (int i = 0; i < 1000; i++)
		read_fd(&t, 10, 7, 1024, 1024, 0.00001);
	rt_exit(&t, 10, 0);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "small-io"), 0);
	rt_release(&t);
}

/* ---- real logs (tests/fixtures/rules/perf-*.log) ---- */

static const struct rt_expect real_logs[] = {
	{ "perf-smallread.log", "small-io", "320 calls of typically 1024 bytes", true },
	{ "perf-smallread.log", "repeated-open", NULL, false },
	{ "perf-smallread.log", "slow-syscall", NULL, false },
	/* dd bs=1, a program nobody tuned this for: its loop pasted is a
	 * reader without a buffer; its whole trace shows 24 bytes, all. */
	{ "perf-dd-bytes-excerpt.log", "small-io", "'/tmp/d/list.txt' was read in 6 calls of typically 1 byte", true },
	{ "perf-dd-bytes.log", "small-io", NULL, false },
	{ "perf-reopen.log", "repeated-open", "model.bin' was opened 6 times", true },
	{ "perf-reopen.log", "small-io", NULL, false },
	{ "perf-mmapchurn.log", "mmap-churn", "64 MiB anonymous mapping was made and dropped 8", true },
	{ "perf-mmapchurn.log", "small-io", NULL, false },
	{ "perf-lockwait.log", "lock-wait", "in 2 futex waits", true },
	{ "perf-python-lock.log", "lock-wait", "futex 0x1ef05ce0 3 waits", true },
	{ "perf-java-startup.log", "lock-wait", NULL, false },
	{ "perf-lockwait.log", "slow-syscall", "sleep", true },
	{ "perf-lockwait.log", "slow-syscall", "network", false },
	{ "perf-slownet.log", "slow-syscall", "from 127.0.0.1:47811", true },
	{ "perf-slownet.log", "slow-syscall", "sleeps", true },
	{ "perf-slownet.log", "lock-wait", NULL, false },
	{ "perf-slownet.log", "small-io", NULL, false },
	{ "perf-slownet.log", "repeated-open", NULL, false },
	{ "perf-torch-pool.log", "slow-syscall", NULL, false },
	{ "perf-torch-pool.log", "lock-wait", NULL, false },
	{ "perf-torch-pool.log", "mmap-churn", NULL, false },
};

static void real_logs_checked(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(real_logs); i++) {
		const struct rt_expect *x = &real_logs[i];
		struct rt t;
		rt_expect_log(&t, x->log, x->rule, x->word, x->present);
		/* Performance findings are warnings, in healthy runs too. */
		for (size_t j = 0; j < t.out.count; j++)
			if (strcmp(t.out.v[j]->rule, x->rule) == 0)
				assert_int_equal(t.out.v[j]->effective, RC_SEV_WARNING);
		rt_release(&t);
	}
}

/* A pasted excerpt's tiny reads are small-io: the shape is the evidence,
 * not the total (issue 25). The same reads among a whole program's calls
 * are not worth a warning: 30 bytes cost nothing. */
static void sio_excerpt_shape(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	rt_open_fd(&t, 100, "/etc/app/app.conf", 3, O_RDONLY, RT_NO_DUR, NULL);
	for (int i = 0; i < 24; i++)
		rt_io(&t, 100, "read", 3, 1, 1, 0, RT_NO_DUR, "read(3</etc/app/app.conf>, \"k\", 1) = 1");
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "small-io");
	assert_non_null(f);
	assert_int_equal(f->count, 24);
	assert_string_equal(f->path, "/etc/app/app.conf");
	rt_release(&t);

	rt_init(&t);
	for (int i = 0; i < 500; i++) {
		struct rc_event e = rt_sys(&t, 100, "getpid", 100, 0);
		rt_feed(&t, &e);
	}
	rt_open_fd(&t, 100, "/etc/app/app.conf", 3, O_RDONLY, RT_NO_DUR, NULL);
	for (int i = 0; i < 24; i++)
		rt_io(&t, 100, "read", 3, 1, 1, 0, RT_NO_DUR, NULL);
	rt_exit(&t, 100, 0);
	rt_finish(&t);
	assert_null(rt_find(&t, "small-io"));
	rt_release(&t);
}

/* Three reads of a byte or a field, in a paste that does not show the
 * reader's end: a reader without a buffer (rsync#267, neovim#4855).
 * Not: the same three in a log that shows its end (all it read), nor
 * three of a header's size, nor a quarter of the log's calls not made. */
static void sio_excerpt_tiny(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	rt_open_fd(&t, 100, "/srv/list", 3, O_RDONLY, RT_NO_DUR, NULL);
	rt_io(&t, 100, "read", 3, 1, 1, 0, RT_NO_DUR, NULL);
	rt_io(&t, 100, "read", 3, 1, 1, 0, RT_NO_DUR, NULL);
	rt_io(&t, 100, "read", 3, 9, 9, 0, RT_NO_DUR, NULL);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "small-io");
	assert_non_null(f);
	assert_true(contains(f->summary, "3 calls of typically 1 byte (11 bytes in all), a kernel round trip for "
				       "every byte: a reader without a buffer"));
	rt_release(&t);

	rt_init(&t);
	rt_open_fd(&t, 100, "/srv/list", 3, O_RDONLY, RT_NO_DUR, NULL);
	for (int i = 0; i < 3; i++)
		rt_io(&t, 100, "read", 3, 1, 1, 0, RT_NO_DUR, NULL);
	rt_exit(&t, 100, 0);
	rt_finish(&t);
	assert_null(rt_find(&t, "small-io"));
	rt_release(&t);

	rt_init(&t);
	rt_open_fd(&t, 100, "/srv/model.bin", 3, O_RDONLY, RT_NO_DUR, NULL);
	for (int i = 0; i < 3; i++)
		rt_io(&t, 100, "read", 3, 64, 64, 0, RT_NO_DUR, NULL);
	rt_finish(&t);
	assert_null(rt_find(&t, "small-io"));
	rt_release(&t);

	rt_init(&t);
	for (int i = 0; i < 40; i++) {
		struct rc_event e = rt_sys(&t, 100, "getpid", 100, 0);
		rt_feed(&t, &e);
	}
	rt_open_fd(&t, 100, "/srv/list", 3, O_RDONLY, RT_NO_DUR, NULL);
	for (int i = 0; i < 3; i++)
		rt_io(&t, 100, "read", 3, 1, 1, 0, RT_NO_DUR, NULL);
	rt_finish(&t);
	assert_null(rt_find(&t, "small-io"));
	rt_release(&t);
}

/* A close on every descriptor number, up (python 2's closerange) or down
 * (start-stop-daemon), with the open ones succeeding between; summed
 * over the children that swept. */
static void fd_sweep_loops(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	for (int child = 0; child < 3; child++) {
		int pid = 200 + child;
		for (int fd = 3; fd < 20000; fd++) {
			if (fd == 4 || fd == 5)
				continue;	/* open: closed fine */
			struct rc_event e = rt_sys(&t, pid, "close", -1, EBADF);
			e.fd = fd;
			rt_feed(&t, &e);
		}
		rt_exit(&t, pid, 0);
	}
	for (int fd = 19999; fd >= 3; fd--) {
		struct rc_event e = rt_sys(&t, 300, "fcntl", -1, EBADF);
		e.fd = fd;
		rt_feed(&t, &e);
	}
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "fd-sweep"), 2);
	const struct rc_finding *f = rt_match(&t, "fd-sweep", "close");
	assert_non_null(f);
	assert_true(contains(f->summary, "called close on every descriptor number from 3 to 19999, one at a time: "
				       "19,995 calls on descriptors that were not open (EBADF); 3 such loops, "
				       "59,985 calls in all"));
	assert_int_equal(f->count, 59985);
	assert_int_equal(f->err, EBADF);
	assert_true(contains(f->advice, "close_range"));
	f = rt_match(&t, "fd-sweep", "fcntl");
	assert_non_null(f);
	assert_true(contains(f->summary, "from 19999 down to 3"));
	assert_true(contains(f->advice, "CLOSE_RANGE_CLOEXEC"));
	rt_release(&t);
}

/* Not a sweep: a close-all under a limit of 1024 (a thousand calls cost
 * nothing), closes of the same descriptor again (a double close), of
 * numbers scattered, or of rising numbers a few at a time between other
 * failures; nor a paste's last lines that stop short of a limit. */
static void fd_sweep_quiet(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	for (int fd = 3; fd < 1024; fd++) {
		struct rc_event e = rt_sys(&t, 100, "close", -1, EBADF);
		e.fd = fd;
		rt_feed(&t, &e);
	}
	rt_exit(&t, 100, 0);
	for (int i = 0; i < 10000; i++) {
		struct rc_event e = rt_sys(&t, 101, "close", -1, EBADF);
		e.fd = i % 2 ? 7 : (int)((i * 7919) % 65000);
		rt_feed(&t, &e);
		e = rt_sys(&t, 101, "openat", -1, ENOENT);
		e.path = "/nowhere";
		rt_feed(&t, &e);
	}
	for (int fd = 1048000; fd < 1048570; fd += 2) {
		struct rc_event e = rt_sys(&t, 102, "close", -1, EBADF);
		e.fd = fd;
		rt_feed(&t, &e);
	}
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "fd-sweep"), 0);
	rt_release(&t);
}

/* The same path looked up again and again with nothing opened (issue 25):
 * a file that is not there asked for at a loop's pace, and one that is,
 * checked for a change; each with the advice that fits it. Not: the same
 * count at a poll's pace, a directory (the parent of a file opened), an
 * fd's AT_EMPTY_PATH look-up, a start-up's hundred. */
static void ro_repeated_lookups(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	for (int i = 0; i < 1500; i++) {
		struct rc_event e = rt_sys(&t, 100, "newfstatat", -1, ENOENT);	/* 1 ms apart */
		e.path = "/etc/app/config.yaml";
		rt_feed(&t, &e);
		e = rt_sys(&t, 100, "access", 0, 0);
		e.path = "/srv/app/model.ready";
		rt_feed(&t, &e);
		e = rt_sys(&t, 100, "newfstatat", 0, 0);
		e.path = "/usr/lib/python3/dist-packages/app";
		rt_feed(&t, &e);
		e = rt_sys(&t, 100, "newfstatat", 0, 0);
		e.path = "";
		e.fd = 3;
		rt_feed(&t, &e);
	}
	rt_open_fd(&t, 100, "/usr/lib/python3/dist-packages/app/data.json", 4, O_RDONLY, RT_NO_DUR, NULL);
	for (int i = 0; i < 100; i++) {
		struct rc_event e = rt_sys(&t, 100, "stat", 0, 0);
		e.path = "/etc/hosts";
		rt_feed(&t, &e);
	}
	rt_exit(&t, 100, 0);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "repeated-open"), 2);
	const struct rc_finding *f = rt_match(&t, "repeated-open", "config.yaml");
	assert_non_null(f);
	assert_int_equal(f->count, 1500);
	assert_int_equal(f->err, ENOENT);
	assert_true(contains(f->summary, "never there"));
	assert_true(contains(f->advice, "not there"));
	f = rt_match(&t, "repeated-open", "model.ready");
	assert_non_null(f);
	assert_true(contains(f->advice, "inotify"));
	rt_release(&t);

	/* A poll once a second for 25 minutes: no loop. */
	rt_init(&t);
	for (int i = 0; i < 1500; i++) {
		struct rc_event e = rt_sys(&t, 100, "stat", 0, 0);
		e.path = "/etc/app/config.yaml";
		t.now += 1.0;
		e.ts = t.now;
		rt_feed(&t, &e);
	}
	rt_exit(&t, 100, 0);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "repeated-open"), 0);
	rt_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ro_repeated_lookups),
		cmocka_unit_test(sio_excerpt_shape),
		cmocka_unit_test(sio_excerpt_tiny),
		cmocka_unit_test(fd_sweep_loops),
		cmocka_unit_test(fd_sweep_quiet),
		cmocka_unit_test(slow_network_disk_sleep),
		cmocka_unit_test(slow_path_calls_disk),
		cmocka_unit_test(slow_fifo_open_waits_for_its_peer),
		cmocka_unit_test(slow_ignores_idle_waits),
		cmocka_unit_test(slow_by_share),
		cmocka_unit_test(slow_quiet_without_durations),
		cmocka_unit_test(lock_contention),
		cmocka_unit_test(lock_serialised_workers),
		cmocka_unit_test(lock_idle_helpers),
		cmocka_unit_test(lock_contention_holder_exits),
		cmocka_unit_test(lock_contention_waker_later),
		cmocka_unit_test(lock_idle_waits),
		cmocka_unit_test(lock_without_timestamps),
		cmocka_unit_test(lock_short_waits_quiet),
		cmocka_unit_test(reopen_weights),
		cmocka_unit_test(reopen_copied_pwritev2),
		cmocka_unit_test(reopen_size_from_sessions),
		cmocka_unit_test(reopen_quiet),
		cmocka_unit_test(reopen_kinds),
		cmocka_unit_test(mmap_churn_anonymous),
		cmocka_unit_test(mmap_churn_file),
		cmocka_unit_test(mmap_churn_quiet),
		cmocka_unit_test(small_reads),
		cmocka_unit_test(small_preadv2),
		cmocka_unit_test(small_writes_and_hints),
		cmocka_unit_test(small_io_quiet),
		cmocka_unit_test(real_logs_checked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
