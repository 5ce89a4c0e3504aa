/* The process-outcome rules: crashed, bad-file-mapping, nonzero-exit,
 * out-of-memory and disk-full, fed the events strace logs of those
 * situations give, and the healthy look-alikes that must stay quiet. Real
 * logs of the same situations are in tests/fixtures/rules/proc-*.log,
 * each with the command that made it, checked at the end. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rule_test.h"
#include "rules/paths.h"
#include "util/util.h"

#define MiB (1024ULL * 1024)
#define GiB (1024 * MiB)

/* PATH run with ARG (NULL: none) as its one argument. */
static void exec_prog(struct rt *t, int pid, const char *path, const char *arg)
{
	rt_exec(t, pid, path, path, arg, 0, "execve(\"/usr/bin/prog\", [\"prog\"], 0x7ffc /* 20 vars */) = 0");
}

static void fork_child(struct rt *t, int pid, int child)
{
	struct rc_event e = rt_sys(t, pid, "clone", child, 0);
	e.flags = SIGCHLD;
	rt_feed(t, &e);
}

static void clone_thread(struct rt *t, int pid, int tid)
{
	rt_clone_thread(t, pid, tid, RT_NO_DUR);
}

static void open_fd(struct rt *t, int pid, const char *path, int fd, int flags)
{
	rt_open_fd(t, pid, path, fd, flags, RT_NO_DUR, "openat(AT_FDCWD, \"...\", ...) = 3");
}

static void signal_ev(struct rt *t, int pid, int signo, int code, bool has_addr, uint64_t addr, int sender,
		      const char *line)
{
	struct rc_event e = rt_event(t, RC_EV_SIGNAL, pid, line ? line : "--- SIG ---");
	e.signo = signo;
	e.si_code = code;
	e.has_fault_addr = has_addr;
	e.fault_addr = addr;
	e.sender_pid = sender;
	rt_feed(t, &e);
}

/* A read of 10 bytes from stdin quoted as LINE: a call to find in evidence. */
static void some_call(struct rt *t, int pid, const char *line)
{
	rt_io(t, pid, "read", 0, 10, 10, 0, RT_NO_DUR, line);
}

static void mmap_anon(struct rt *t, int pid, uint64_t len, int err)
{
	struct rc_event e = rt_sys(t, pid, "mmap", err ? -1 : 0x7f0000000000LL, err);
	e.len = len;
	e.flags = MAP_PRIVATE | MAP_ANONYMOUS;
	e.mode = PROT_READ | PROT_WRITE;
	rt_feed_line(t, &e, err ? "mmap(NULL, 17179869184, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0)"
				  " = -1 ENOMEM (Cannot allocate memory)"
				: "mmap(NULL, ..., MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000000000");
}

/* ---- crashed ---- */

static void segv_core(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	exec_prog(&t, 100, "/tmp/crash", NULL);
	some_call(&t, 100, "call one");
	some_call(&t, 100, "call two");
	some_call(&t, 100, "call three");
	some_call(&t, 100, "call four");
	signal_ev(&t, 100, SIGSEGV, SEGV_MAPERR, true, 0x10,  0,
		  "--- SIGSEGV {si_signo=SIGSEGV, si_code=SEGV_MAPERR, si_addr=0x10} ---");
	rt_killed(&t, 100, SIGSEGV, true, "+++ killed by SIGSEGV (core dumped) +++");
	rt_write(&t, 99, 2, "Segmentation fault (core dumped)\n");
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "crashed");
	assert_non_null(f);
	assert_int_equal(f->signo, SIGSEGV);
	assert_int_equal(f->pid, 100);
	assert_true(contains(f->summary, "'/tmp/crash' (pid 100) was killed by SIGSEGV"));
	assert_true(contains(f->summary, "SEGV_MAPERR at 0x10"));
	assert_true(contains(f->summary, "core dumped"));
	assert_true(contains(f->message, "SEGV_MAPERR at 0x10"));
	assert_null(f->address);
	assert_int_equal(f->nevidence, 5);
	assert_true(has_evidence(f, "call two"));
	assert_true(has_evidence(f, "call four"));
	assert_false(has_evidence(f, "call one"));
	assert_true(has_evidence(f, "si_addr=0x10"));
	assert_true(has_evidence(f, "core dumped"));
	assert_true(contains(f->advice, "null pointer"));
	assert_false(f->symptom);
	assert_true(f->unrecovered);
	assert_true(f->echoed);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	rt_release(&t);
}

/* si_code numbers overlap between signals: 1 is BUS_ADRALN for SIGBUS. */
static void si_code_per_signal(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	some_call(&t, 100, "x");
	signal_ev(&t, 100, SIGBUS, 1, true, 0x7f0000001001ULL, 0, NULL);
	rt_killed(&t, 100, SIGBUS, false, NULL);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "crashed");
	assert_non_null(f);
	assert_true(contains(f->summary, "BUS_ADRALN"));
	assert_false(contains(f->summary, "SEGV_MAPERR"));
	assert_false(contains(f->summary, "core dumped"));
	rt_release(&t);
}

/* `yes | head -1`: yes dies of SIGPIPE, the shell succeeds. */
static void sigpipe_in_pipeline(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	exec_prog(&t, 100, "/bin/sh", NULL);
	fork_child(&t, 100, 101);
	exec_prog(&t, 101, "/usr/bin/yes", NULL);
	signal_ev(&t, 101, SIGPIPE, SI_USER, false, 0, 101, NULL);
	rt_killed(&t, 101, SIGPIPE, false, NULL);
	rt_exit(&t, 100, 0);
	rt_finish(&t);

	assert_null(rt_find(&t, "crashed"));
	assert_int_equal(rt_errors(&t), 0);
	rt_release(&t);
}

/* A helper that crashed under a parent that coped: a warning. */
static void child_crash_parent_ok(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	exec_prog(&t, 100, "/bin/sh", NULL);
	fork_child(&t, 100, 101);
	exec_prog(&t, 101, "/usr/bin/helper", NULL);
	signal_ev(&t, 101, SIGSEGV, SEGV_MAPERR, true, 0, 0, NULL);
	rt_killed(&t, 101, SIGSEGV, false, NULL);
	rt_exit(&t, 100, 0);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "crashed");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_WARNING);
	rt_release(&t);
}

static void non_fatal_signals(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	fork_child(&t, 100, 101);
	rt_exit(&t, 101, 0);
	signal_ev(&t, 100, SIGCHLD, CLD_EXITED, false, 0, 101, NULL);
	/* A handled SIGPIPE: the process carries on and exits 0. */
	signal_ev(&t, 100, SIGPIPE, SI_USER, false, 0, 100, NULL);
	some_call(&t, 100, "x");
	rt_exit(&t, 100, 0);
	rt_finish(&t);

	assert_null(rt_find(&t, "crashed"));
	rt_release(&t);
}

static void sigterm_sender(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	exec_prog(&t, 100, "/usr/bin/timeout", "5");
	fork_child(&t, 100, 101);
	exec_prog(&t, 101, "/usr/bin/sleep", "100");
	signal_ev(&t, 101, SIGTERM, SI_USER, false, 0, 100, NULL);
	rt_killed(&t, 101, SIGTERM, false, NULL);
	rt_exit(&t, 100, 124);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "crashed");
	assert_non_null(f);
	assert_true(contains(f->summary, "SIGTERM"));
	assert_true(contains(f->summary, "sent by pid 100 '/usr/bin/timeout 5'"));
	assert_true(contains(f->summary, "SI_USER"));
	rt_release(&t);
}

/* Python's faulthandler: SIGSEGV caught, traceback written, exit 1. */
static void caught_fault_then_exit(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	some_call(&t, 100, "x");
	signal_ev(&t, 100, SIGSEGV, SEGV_MAPERR, true, 0, 0, NULL);
	rt_write(&t, 100, 2, "Fatal Python error: Segmentation fault\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "crashed");
	assert_non_null(f);
	assert_true(contains(f->summary, "crashed with SIGSEGV and exited with status 1"));
	rt_release(&t);
}

/* python3 -X faulthandler: the fault, the traceback, then the handler
 * raises SIGSEGV again with tgkill: the fault is what is reported. */
static void faulthandler_reraise(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	exec_prog(&t, 100, "/usr/bin/python3", "app.py");
	some_call(&t, 100, "before the fault");
	signal_ev(&t, 100, SIGSEGV, SEGV_MAPERR, true, 0, 0,
		  "--- SIGSEGV {si_signo=SIGSEGV, si_code=SEGV_MAPERR, si_addr=NULL} ---");
	rt_write(&t, 100, 2, "Fatal Python error: Segmentation fault\n");
	some_call(&t, 100, "tgkill(100, 100, SIGSEGV) = 0");
	signal_ev(&t, 100, SIGSEGV, SI_TKILL, false, 0, 100,
		  "--- SIGSEGV {si_signo=SIGSEGV, si_code=SI_TKILL, si_pid=100, si_uid=0} ---");
	rt_killed(&t, 100, SIGSEGV, false, NULL);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "crashed");
	assert_non_null(f);
	assert_true(contains(f->summary, "SEGV_MAPERR at 0x0"));
	assert_true(contains(f->summary, "re-raised by its handler"));
	assert_true(has_evidence(f, "before the fault"));
	assert_true(has_evidence(f, "si_addr=NULL"));
	assert_false(has_evidence(f, "tgkill"));
	assert_true(contains(f->advice, "null pointer"));
	rt_release(&t);
}

/* A JVM-style handled SIGSEGV in a run that succeeded is no crash. */
static void handled_fault_exit_zero(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	signal_ev(&t, 100, SIGSEGV, SEGV_MAPERR, true, 0, 0, NULL);
	some_call(&t, 100, "x");
	rt_exit(&t, 100, 0);
	rt_finish(&t);

	assert_null(rt_find(&t, "crashed"));
	rt_release(&t);
}

static void thread_crash_one_finding(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	exec_prog(&t, 100, "/usr/bin/python3", "app.py");
	clone_thread(&t, 100, 101);
	some_call(&t, 101, "worker call");
	some_call(&t, 100, "main call");
	signal_ev(&t, 101, SIGSEGV, SEGV_MAPERR, true, 0x7f00deadbeefULL, 0, NULL);
	rt_killed(&t, 101, SIGSEGV, true, NULL);
	rt_killed(&t, 100, SIGSEGV, true, NULL);
	rt_finish(&t);

	assert_int_equal(rt_count(&t, "crashed"), 1);
	const struct rc_finding *f = rt_find(&t, "crashed");
	assert_int_equal(f->pid, 100);
	assert_int_equal(f->tid, 101);
	assert_true(has_evidence(f, "worker call"));
	assert_false(has_evidence(f, "main call"));
	assert_true(contains(f->advice, "invalid memory access"));
	rt_release(&t);
}

static void sigkill_plain(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	some_call(&t, 100, "x");
	rt_killed(&t, 100, SIGKILL, false, "+++ killed by SIGKILL +++");
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "crashed");
	assert_non_null(f);
	assert_true(contains(f->advice, "OOM killer"));
	assert_null(rt_find(&t, "out-of-memory"));
	rt_release(&t);
}

/* Large allocations just before a SIGKILL: out-of-memory's, not crashed. */
static void sigkill_after_allocations(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	for (int i = 0; i < 8; i++)
		mmap_anon(&t, 100, 128 * MiB, 0);
	rt_killed(&t, 100, SIGKILL, false, "+++ killed by SIGKILL +++");
	rt_finish(&t);

	assert_null(rt_find(&t, "crashed"));
	const struct rc_finding *f = rt_find(&t, "out-of-memory");
	assert_non_null(f);
	assert_int_equal(f->signo, SIGKILL);
	assert_true(contains(f->summary, "OOM killer"));
	assert_true(contains(f->summary, "1 GiB"));
	assert_true(has_evidence(f, "killed by SIGKILL"));
	assert_int_equal(f->effective, RC_SEV_ERROR);
	rt_release(&t);
}

/* Reserved address space is not memory gained: rustc reserves 300 MiB
 * PROT_NONE at start-up, and pip's time-out SIGKILL then is no OOM kill. */
static void sigkill_after_reservations(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	for (int i = 0; i < 8; i++) {
		struct rc_event e = rt_sys(&t, 100, "mmap", 0x7f0000000000LL, 0);
		e.len = 128 * MiB;
		e.flags = MAP_PRIVATE | MAP_ANONYMOUS;
		e.mode = PROT_NONE;
		rt_feed(&t, &e);
	}
	rt_killed(&t, 100, SIGKILL, false, "+++ killed by SIGKILL +++");
	rt_finish(&t);

	assert_null(rt_find(&t, "out-of-memory"));
	assert_non_null(rt_find(&t, "crashed"));
	rt_release(&t);
}

/* A SIGKILL the trace shows sent: the sender and why, never the OOM
 * killer, even after large allocations. */
static void kill_call(struct rt *t, int sender, int target, int sig)
{
	struct rc_event e = rt_sys(t, sender, "kill", 0, 0);

	e.has_kill_target = true;
	e.kill_target = target;
	e.signo = sig;
	rt_feed_line(t, &e, "kill(101, SIGKILL) = 0");
}

static void sigkill_sender_timer(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	struct rc_event c = rt_sys(&t, 100, "clone", 101, 0);
	c.flags = SIGCHLD;
	rt_feed(&t, &c);
	for (int i = 0; i < 8; i++)
		mmap_anon(&t, 101, 128 * MiB, 0);
	struct rc_event alrm = rt_event(&t, RC_EV_SIGNAL, 100, "--- SIGALRM {si_signo=SIGALRM, si_code=SI_TIMER} ---");
	alrm.signo = SIGALRM;
	alrm.si_code = SI_TIMER;
	rt_feed(&t, &alrm);
	kill_call(&t, 100, 101, SIGKILL);
	rt_killed(&t, 101, SIGKILL, false, "+++ killed by SIGKILL +++");
	rt_exit(&t, 100, 137);
	rt_finish(&t);

	assert_null(rt_find(&t, "out-of-memory"));
	const struct rc_finding *f = rt_find(&t, "crashed");
	assert_non_null(f);
	assert_int_equal(f->pid, 101);
	assert_int_equal(f->sender_pid, 100);
	assert_true(contains(f->message, "sent by pid 100"));
	assert_true(contains(f->message, "when its timer went off"));
	assert_false(contains(f->advice, "OOM"));
	assert_true(contains(f->advice, "time limit"));
	assert_true(has_evidence(f, "kill(101, SIGKILL)"));
	rt_release(&t);
}

/* crun's kill(pid, SIGKILL) of the container's process, unfinished when
 * the victim's "+++ killed by SIGKILL +++" came and resumed after it: the
 * kill that began before the death sent it. One that began after the
 * death (a parent killing a child already dead) sent nothing. */
static void sigkill_sender_returned_late(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	for (int victim = 101; victim <= 102; victim++) {
		struct rc_event c = rt_sys(&t, 100, "clone", victim, 0);
		c.flags = SIGCHLD;
		rt_feed(&t, &c);
		some_call(&t, victim, "victim's last call");
		struct rc_event k = rt_sys(&t, 100, "kill", 0, 0);
		k.has_kill_target = true;
		k.kill_target = victim;
		k.signo = SIGKILL;
		/* 101's kill began 1 ms before its death; 102's kill 1 ms after. */
		rt_killed(&t, victim, SIGKILL, false, "+++ killed by SIGKILL +++");
		if (victim == 102)
			k.ts = t.now + 0.001;
		rt_feed_line(&t, &k, victim == 101 ? "kill(101, SIGKILL) = 0" : "kill(102, SIGKILL) = 0");
	}
	rt_finish(&t);

	const struct rc_finding *late = NULL, *after = NULL;
	for (size_t i = 0; i < t.out.count; i++) {
		const struct rc_finding *f = t.out.v[i];
		if (strcmp(f->rule, "crashed") == 0 && f->pid == 101)
			late = f;
		if (strcmp(f->rule, "crashed") == 0 && f->pid == 102)
			after = f;
	}
	assert_non_null(late);
	assert_int_equal(late->sender_pid, 100);
	assert_true(has_evidence(late, "kill(101, SIGKILL)"));
	assert_non_null(after);
	assert_true(after->sender_pid <= 0);
	assert_false(has_evidence(after, "kill(102, SIGKILL)"));
	rt_release(&t);
}

/* Python's subprocess time-out: polls wait4 WNOHANG, then kills. The
 * victim's last calls say what it was doing. */
static void sigkill_sender_waited(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	struct rc_event c = rt_sys(&t, 100, "clone", 101, 0);
	c.flags = SIGCHLD;
	rt_feed(&t, &c);
	some_call(&t, 101, "victim's last call");
	for (int i = 0; i < 3; i++) {
		struct rc_event w = rt_sys(&t, 100, "wait4", 0, 0);
		rt_feed(&t, &w);
	}
	kill_call(&t, 100, 101, SIGKILL);
	rt_killed(&t, 101, SIGKILL, false, "+++ killed by SIGKILL +++");
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "crashed");
	assert_non_null(f);
	assert_true(contains(f->message, "after waiting for it to end"));
	assert_true(contains(f->advice, "time-out"));
	assert_true(has_evidence(f, "victim's last call"));
	rt_release(&t);
}

/* ---- out-of-memory ---- */

static void mmap_enomem(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	exec_prog(&t, 100, "/usr/bin/python3", "train.py");
	mmap_anon(&t, 100, 16 * GiB, ENOMEM);
	mmap_anon(&t, 100, 16 * GiB, ENOMEM);
	rt_write(&t, 100, 2, "MemoryError\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "out-of-memory");
	assert_non_null(f);
	assert_int_equal(f->err, ENOMEM);
	assert_int_equal(f->bytes, (long long)(16 * GiB));
	assert_int_equal(f->count, 2);
	assert_string_equal(f->syscall, "mmap");
	assert_true(contains(f->summary, "16 GiB"));
	assert_true(contains(f->summary, "'/usr/bin/python3 train.py' (pid 100)"));
	assert_true(contains(f->advice, "ulimit -v"));
	assert_true(f->unrecovered);
	assert_true(f->echoed);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	rt_release(&t);
}

/* pkey_mprotect splits a mapping as mprotect does: its ENOMEM is the map
 * count limit too (the table's CL_MAPS without CL_MAP_GROWS). */
static void pkey_mprotect_map_count(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	exec_prog(&t, 100, "/usr/bin/java", "-jar");
	struct rc_event e = rt_sys(&t, 100, "pkey_mprotect", -1, ENOMEM);
	e.addr = 0x7f0000000000ULL;
	rt_feed_line(&t, &e, "pkey_mprotect(0x7f0000000000, 4096, PROT_READ, 1) = -1 ENOMEM (Cannot allocate memory)");
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "out-of-memory");
	assert_non_null(f);
	assert_int_equal(f->err, ENOMEM);
	assert_true(contains(f->advice, "vm.max_map_count"));
	rt_release(&t);
}

/* brk refused (returns the old break), malloc falls back to mmap. */
static void brk_fallback(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	struct rc_event e = rt_sys(&t, 100, "brk", 0x555555559000LL, 0);
	rt_feed(&t, &e);
	e = rt_sys(&t, 100, "brk", 0x555555559000LL, 0);
	e.addr = 0x555565559000ULL;
	rt_feed_line(&t, &e, "brk(0x555565559000) = 0x555555559000");
	mmap_anon(&t, 100, 256 * MiB, 0);
	rt_exit(&t, 100, 0);
	rt_finish(&t);
	assert_null(rt_find(&t, "out-of-memory"));
	rt_release(&t);

	/* The same, but the mmap fails too. */
	rt_init(&t);
	e = rt_sys(&t, 100, "brk", 0x555555559000LL, 0);
	rt_feed(&t, &e);
	e = rt_sys(&t, 100, "brk", 0x555555559000LL, 0);
	e.addr = 0x555565559000ULL;
	rt_feed_line(&t, &e, "brk(0x555565559000) = 0x555555559000");
	mmap_anon(&t, 100, 256 * MiB, ENOMEM);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "out-of-memory");
	assert_non_null(f);
	assert_int_equal(f->count, 2);
	assert_true(has_evidence(f, "brk(0x555565559000)"));
	rt_release(&t);
}

static void enomem_recovered(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	mmap_anon(&t, 100, 8 * GiB, ENOMEM);
	mmap_anon(&t, 100, 8 * GiB, 0);
	rt_exit(&t, 100, 0);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "out-of-memory");
	assert_non_null(f);
	assert_false(f->unrecovered);
	assert_int_equal(f->effective, RC_SEV_INFO);
	rt_release(&t);
}

/* A mapping of LEN bytes with FLAGS, as postgres asks for its shared
 * memory, refused with ERR (0: it succeeded). */
static void mmap_shared(struct rt *t, int pid, uint64_t len, long long flags, int err, const char *line)
{
	struct rc_event e = rt_sys(t, pid, "mmap", err ? -1 : 0x7fc1134ce000LL, err);
	e.len = len;
	e.flags = flags;
	e.mode = PROT_READ | PROT_WRITE;
	rt_feed_line(t, &e, line);
}

/* PostgreSQL asks for huge pages first, gets ENOMEM (none reserved) and
 * maps the same memory with normal pages: a fallback, not out of memory,
 * even when the server fails later for another reason. */
static void hugetlb_fallback(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	exec_prog(&t, 100, "/usr/lib/postgresql/15/bin/postgres", "-D");
	mmap_shared(&t, 100, 150994944, MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB, ENOMEM,
		    "mmap(NULL, 150994944, PROT_READ|PROT_WRITE, MAP_SHARED|MAP_ANONYMOUS|MAP_HUGETLB, -1, 0) "
		    "= -1 ENOMEM (Cannot allocate memory)");
	mmap_shared(&t, 100, 149520384, MAP_SHARED | MAP_ANONYMOUS, 0,
		    "mmap(NULL, 149520384, PROT_READ|PROT_WRITE, MAP_SHARED|MAP_ANONYMOUS, -1, 0) = 0x7fc1134ce000");
	rt_write(&t, 100, 2, "FATAL:  could not open configuration file\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "out-of-memory");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_INFO);
	assert_true(contains(f->summary, "huge pages"));
	assert_true(contains(f->summary, "a fallback"));
	assert_true(contains(f->advice, "vm.nr_hugepages"));
	assert_true(has_evidence(f, "MAP_HUGETLB"));
	assert_true(has_evidence(f, "= 0x7fc1134ce000"));
	rt_release(&t);

	/* The thread's next mapping is something else (a small buffer): the
	 * refusal stands. */
	rt_init(&t);
	mmap_shared(&t, 100, 150994944, MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB, ENOMEM, "mmap(...) = -1 ENOMEM");
	mmap_anon(&t, 100, 65536, 0);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	f = rt_find(&t, "out-of-memory");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	assert_true(contains(f->summary, "returned ENOMEM"));
	rt_release(&t);

	/* Nothing mapped after it at all. */
	rt_init(&t);
	mmap_shared(&t, 100, 150994944, MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB, ENOMEM, "mmap(...) = -1 ENOMEM");
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	f = rt_find(&t, "out-of-memory");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	rt_release(&t);
}

/* Plenty of memory used, but slowly, and the process ends well. */
static void big_but_healthy(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	for (int i = 0; i < 16; i++) {
		mmap_anon(&t, 100, 128 * MiB, 0);
		t.now += 5;
	}
	rt_exit(&t, 100, 0);
	rt_finish(&t);
	assert_null(rt_find(&t, "out-of-memory"));
	assert_int_equal(t.out.count, 0);
	rt_release(&t);
}

/* ---- fd-exhausted ---- */

static void fds_run_out(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	rt_exec(&t, 100, "/usr/bin/python3", "python3", "serve.py", 0, NULL);
	for (int fd = 3; fd < 20; fd++)
		open_fd(&t, 100, "/srv/app/sessions.db", fd, O_RDONLY);
	for (int i = 0; i < 3; i++) {
		struct rc_event e = rt_sys(&t, 100, "accept4", -1, EMFILE);
		e.fd = 3;
		rt_feed_line(&t, &e, "accept4(3, NULL, NULL, SOCK_CLOEXEC) = -1 EMFILE (Too many open files)");
	}
	rt_write(&t, 100, 2, "OSError: [Errno 24] Too many open files\n");
	rt_exit(&t, 100, 1);
	/* Another process meets the system-wide limit. */
	struct rc_event e = rt_sys(&t, 200, "openat", -1, ENFILE);
	e.path = "/etc/hosts";
	rt_feed_line(&t, &e, "openat(AT_FDCWD, \"/etc/hosts\", O_RDONLY) = -1 ENFILE (Too many open files in system)");
	rt_exit(&t, 200, 1);
	rt_finish(&t);

	assert_int_equal(rt_count(&t, "fd-exhausted"), 2);
	const struct rc_finding *f = rt_match(&t, "fd-exhausted", "EMFILE");
	assert_non_null(f);
	assert_string_equal(f->summary, "'python3 serve.py' (pid 100) ran out of file descriptors: accept4 "
					"failed with EMFILE (3 times), with at least 17 fds open");
	assert_int_equal(f->err, EMFILE);
	assert_int_equal(f->count, 3);
	assert_true(contains(f->advice, "/proc/100/fd"));
	assert_true(f->echoed);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	f = rt_match(&t, "fd-exhausted", "ENFILE");
	assert_non_null(f);
	assert_true(contains(f->summary, "the system ran out of file descriptors: openat of pid 200"));
	assert_true(contains(f->advice, "fs.file-max"));
	rt_release(&t);
}

/* ---- disk-full ---- */

static void write_enospc(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	open_fd(&t, 100, "/mnt/cache/model.bin", 3, O_WRONLY | O_CREAT | O_TRUNC);
	struct rc_event e = rt_sys(&t, 100, "write", 4096, 0);
	e.fd = 3;
	e.len = 65536;
	rt_feed_line(&t, &e, "write(3, \"...\"..., 65536) = 4096");
	e = rt_sys(&t, 100, "write", -1, ENOSPC);
	e.fd = 3;
	e.len = 61440;
	rt_feed_line(&t, &e, "write(3, \"...\"..., 61440) = -1 ENOSPC (No space left on device)");
	rt_write(&t, 100, 2, "OSError: [Errno 28] No space left on device\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	assert_int_equal(rt_count(&t, "disk-full"), 1);
	const struct rc_finding *f = rt_find(&t, "disk-full");
	assert_string_equal(f->path, "/mnt/cache/model.bin");
	assert_int_equal(f->err, ENOSPC);
	assert_int_equal(f->bytes, 65536 - 4096 + 61440);
	assert_int_equal(f->count, 2);
	assert_true(contains(f->summary, "no space left on device writing '/mnt/cache/model.bin'"));
	assert_true(contains(f->summary, "1 short write"));
	assert_true(contains(f->advice, "df -h /mnt/cache"));
	assert_true(has_evidence(f, "ENOSPC"));
	assert_true(has_evidence(f, "= 4096"));
	assert_true(f->echoed);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	rt_release(&t);
}

/* Lengths from a hostile log: the sum is held at LLONG_MAX, not wrapped
 * (UBSan flagged the overflow; fuzz/corpus/fuzz_analyze keeps the log). */
static void write_sizes_saturate(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	open_fd(&t, 100, "/mnt/cache/model.bin", 3, O_WRONLY | O_CREAT | O_TRUNC);
	for (int i = 0; i < 3; i++) {
		struct rc_event e = rt_sys(&t, 100, "write", 4, 0);
		e.fd = 3;
		e.len = (uint64_t)LLONG_MAX - 1;
		rt_feed_line(&t, &e, "write(3, \"...\"..., 9223372036854775806) = 4");
	}
	struct rc_event e = rt_sys(&t, 100, "write", -1, ENOSPC);
	e.fd = 3;
	e.len = (uint64_t)1 << 61;
	rt_feed_line(&t, &e, "write(3, \"...\"..., 2305843009213693952) = -1 ENOSPC (No space left on device)");
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "disk-full");
	assert_non_null(f);
	assert_int_equal(f->bytes, LLONG_MAX);
	rt_release(&t);
}

static void short_writes_not_files(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	open_fd(&t, 100, "/dev/ttyS0", 3, O_WRONLY);
	struct rc_event e = rt_sys(&t, 100, "write", 10, 0);
	e.fd = 3;
	e.len = 100;
	rt_feed(&t, &e);
	struct rc_event p = rt_sys(&t, 100, "pipe2", 0, 0);
	p.fds[0] = 4;
	p.fds[1] = 5;
	p.nfds = 2;
	rt_feed(&t, &p);
	e = rt_sys(&t, 100, "write", 10, 0);
	e.fd = 5;
	e.len = 65536;
	rt_feed(&t, &e);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	assert_null(rt_find(&t, "disk-full"));
	rt_release(&t);
}

static void create_and_quota(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	struct rc_event e = rt_sys(&t, 100, "openat", -1, ENOSPC);
	e.path = "/data/out/new.ckpt";
	e.flags = O_WRONLY | O_CREAT | O_EXCL;
	rt_feed(&t, &e);
	e = rt_sys(&t, 100, "mkdir", -1, EDQUOT);
	e.path = "/home/u/.cache/x";
	rt_feed(&t, &e);
	/* Not about space: an O_RDONLY open never creates. */
	e = rt_sys(&t, 100, "openat", -1, ENOSPC);
	e.path = "/data/readonly";
	e.flags = O_RDONLY;
	rt_feed(&t, &e);
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	assert_int_equal(rt_count(&t, "disk-full"), 2);
	for (size_t i = 0; i < t.out.count; i++) {
		const struct rc_finding *f = t.out.v[i];
		if (strcmp(f->rule, "disk-full") != 0)
			continue;
		if (f->err == EDQUOT) {
			assert_string_equal(f->path, "/home/u/.cache/x");
			assert_true(contains(f->summary, "quota"));
			assert_true(contains(f->advice, "quota -s"));
		} else {
			assert_string_equal(f->path, "/data/out/new.ckpt");
			assert_true(contains(f->summary, "creating"));
		}
	}
	rt_release(&t);
}

/* Every call that writes back asks the file system for space: syncfs
 * reports ENOSPC of the writes it flushes (syncfs(2), since Linux 5.8),
 * as fsync does; and a send to a socket is a write that names no file. */
static void flush_enospc(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	open_fd(&t, 100, "/mnt/cache/model.bin", 3, O_WRONLY | O_CREAT | O_TRUNC);
	struct rc_event e = rt_sys(&t, 100, "syncfs", -1, ENOSPC);
	e.fd = 3;
	rt_feed_line(&t, &e, "syncfs(3) = -1 ENOSPC (No space left on device)");
	struct rc_event p = rt_sys(&t, 100, "socketpair", 0, 0);
	p.fds[0] = 4;
	p.fds[1] = 5;
	p.nfds = 2;
	rt_feed(&t, &p);
	e = rt_sys(&t, 100, "sendto", 10, 0);
	e.fd = 5;
	e.len = 100;
	rt_feed(&t, &e);
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	assert_int_equal(rt_count(&t, "disk-full"), 1);
	const struct rc_finding *f = rt_find(&t, "disk-full");
	assert_string_equal(f->path, "/mnt/cache/model.bin");
	assert_int_equal(f->err, ENOSPC);
	rt_release(&t);
}

static void inotify_limit(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	struct rc_event e = rt_sys(&t, 100, "inotify_add_watch", -1, ENOSPC);
	e.fd = 3;
	e.path = "/src/node_modules/x";
	rt_feed(&t, &e);
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "disk-full");
	assert_non_null(f);
	assert_true(contains(f->summary, "inotify"));
	assert_true(contains(f->advice, "max_user_watches"));
	rt_release(&t);
}

static void enospc_in_healthy_run(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	open_fd(&t, 100, "/var/log/app.log", 3, O_WRONLY | O_APPEND);
	struct rc_event e = rt_sys(&t, 100, "write", -1, ENOSPC);
	e.fd = 3;
	e.len = 80;
	rt_feed(&t, &e);
	rt_exit(&t, 100, 0);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "disk-full");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_WARNING);
	assert_int_equal(rt_errors(&t), 0);
	rt_release(&t);
}

/* ---- bad-file-mapping ---- */

static void map_file(struct rt *t, int pid, int fd, uint64_t addr, uint64_t len, long long size)
{
	struct rc_event e = rt_sys(t, pid, "fstat", 0, 0);
	e.fd = fd;
	e.st_size = size;
	rt_feed_line(t, &e, "fstat(3, {st_mode=S_IFREG|0644, st_size=8192, ...}) = 0");
	e = rt_sys(t, pid, "mmap", (long long)addr, 0);
	e.fd = fd;
	e.len = len;
	e.offset = 0;
	e.flags = MAP_SHARED;
	e.mode = PROT_READ;
	rt_feed_line(t, &e, "mmap(NULL, 8192, PROT_READ, MAP_SHARED, 3, 0) = 0x7f0000000000");
}

static void truncated_mapping(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	open_fd(&t, 100, "/nonexistent/rc-test/model.bin", 3, O_RDWR);
	map_file(&t, 100, 3, 0x7f0000000000ULL, 8192, 8192);
	struct rc_event e = rt_sys(&t, 100, "ftruncate", 0, 0);
	e.fd = 3;
	e.len = 100;
	rt_feed_line(&t, &e, "ftruncate(3, 100) = 0");
	signal_ev(&t, 100, SIGBUS, BUS_ADRERR, true, 0x7f0000001000ULL, 0,
		  "--- SIGBUS {si_signo=SIGBUS, si_code=BUS_ADRERR, si_addr=0x7f0000001000} ---");
	rt_killed(&t, 100, SIGBUS, true, NULL);
	rt_exit(&t, 99, 135);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "bad-file-mapping");
	assert_non_null(f);
	assert_string_equal(f->path, "/nonexistent/rc-test/model.bin");
	assert_int_equal(f->signo, SIGBUS);
	assert_int_equal(f->bytes, 100);
	assert_true(contains(f->summary, "offset 4096"));
	assert_true(contains(f->summary, "100 bytes"));
	assert_false(contains(f->summary, "on disk"));
	assert_true(contains(f->message, "BUS_ADRERR at 0x7f0000001000"));
	assert_true(has_evidence(f, "mmap("));
	assert_true(has_evidence(f, "ftruncate(3, 100)"));
	assert_true(has_evidence(f, "BUS_ADRERR"));
	assert_true(contains(f->advice, "SHA-256"));
	/* crashed reports the death too. */
	assert_non_null(rt_find(&t, "crashed"));
	rt_release(&t);
}

/* creat truncates a file that exists (creat(2): open with O_CREAT |
 * O_WRONLY | O_TRUNC, the flags every source gives it): a mapping of the
 * file past its new end faults, as after an open with O_TRUNC. */
static void creat_truncates_mapping(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	open_fd(&t, 100, "/nonexistent/rc-test/model.bin", 3, O_RDONLY);
	map_file(&t, 100, 3, 0x7f0000000000ULL, 8192, 8192);
	struct rc_event e = rt_sys(&t, 101, "creat", 4, 0);
	e.path = "/nonexistent/rc-test/model.bin";
	e.flags = O_CREAT | O_WRONLY | O_TRUNC;
	rt_feed_line(&t, &e, "creat(\"/nonexistent/rc-test/model.bin\", 0644) = 4");
	signal_ev(&t, 100, SIGBUS, BUS_ADRERR, true, 0x7f0000001000ULL, 0,
		  "--- SIGBUS {si_signo=SIGBUS, si_code=BUS_ADRERR, si_addr=0x7f0000001000} ---");
	rt_killed(&t, 100, SIGBUS, true, NULL);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "bad-file-mapping");
	assert_non_null(f);
	assert_string_equal(f->path, "/nonexistent/rc-test/model.bin");
	assert_int_equal(f->bytes, 0);
	assert_true(has_evidence(f, "creat("));
	rt_release(&t);
}

/* The file on disk now is compared with what the trace saw. */
static void size_on_disk(void **state)
{
	char path[] = "/tmp/rc-test-mapXXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "0123456789", 10), 10);
	close(fd);

	struct rt t;
	(void)state;
	rt_init(&t);
	open_fd(&t, 100, path, 3, O_RDONLY);
	/* No fstat: the size then is unknown. */
	struct rc_event e = rt_sys(&t, 100, "mmap", 0x7f0000000000LL, 0);
	e.fd = 3;
	e.len = 8192;
	e.offset = 0;
	e.flags = MAP_PRIVATE;
	rt_feed(&t, &e);
	signal_ev(&t, 100, SIGBUS, BUS_ADRERR, true, 0x7f0000001008ULL, 0, NULL);
	rt_killed(&t, 100, SIGBUS, false, NULL);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "bad-file-mapping");
	unlink(path);
	assert_non_null(f);
	assert_true(contains(f->summary, "offset 4104"));
	assert_true(contains(f->summary, "now 10 bytes on disk"));
	assert_int_equal(f->bytes, 10);
	rt_release(&t);
}

static void mapping_not_at_fault(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	open_fd(&t, 100, "/x/data.bin", 3, O_RDONLY);
	map_file(&t, 100, 3, 0x7f0000000000ULL, 8192, 8192);
	/* Unmapped before the fault at that address. */
	struct rc_event e = rt_sys(&t, 100, "munmap", 0, 0);
	e.addr = 0x7f0000000000ULL;
	e.len = 8192;
	rt_feed(&t, &e);
	signal_ev(&t, 100, SIGSEGV, SEGV_MAPERR, true, 0x7f0000001000ULL, 0, NULL);
	rt_killed(&t, 100, SIGSEGV, false, NULL);
	/* A write fault inside a mapping, within the file: not ours. */
	open_fd(&t, 200, "/x/data.bin", 3, O_RDONLY);
	map_file(&t, 200, 3, 0x7f0000000000ULL, 8192, 8192);
	signal_ev(&t, 200, SIGSEGV, SEGV_ACCERR, true, 0x7f0000001000ULL, 0, NULL);
	rt_killed(&t, 200, SIGSEGV, false, NULL);
	rt_finish(&t);

	assert_null(rt_find(&t, "bad-file-mapping"));
	assert_int_equal(rt_count(&t, "crashed"), 2);
	rt_release(&t);
}

static void map_at(struct rt *t, int pid, int fd, uint64_t addr, uint64_t len, long long off, int flags)
{
	struct rc_event e = rt_sys(t, pid, "mmap", (long long)addr, 0);
	e.fd = fd;
	e.len = len;
	e.offset = off;
	e.flags = flags;
	e.mode = PROT_READ;
	rt_feed(t, &e);
}

/* Many mappings, some gone, one replaced: the fault lands in the right one. */
static void fault_among_many(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	open_fd(&t, 100, "/x/a.bin", 3, O_RDONLY);
	open_fd(&t, 100, "/x/b.bin", 4, O_RDONLY);
	open_fd(&t, 100, "/x/c.bin", 5, O_RDONLY);
	for (int i = 0; i < 50; i++)
		map_at(&t, 100, 3, 0x7f0000000000ULL + (uint64_t)i * 0x100000, 8192, 0, MAP_PRIVATE);
	map_file(&t, 100, 4, 0x7f1000000000ULL, 16384, 6000);
	/* c.bin first mapped where b.bin will go, then unmapped. */
	map_at(&t, 100, 5, 0x7f2000000000ULL, 8192, 0, MAP_SHARED);
	struct rc_event e = rt_sys(&t, 100, "munmap", 0, 0);
	e.addr = 0x7f2000000000ULL;
	e.len = 8192;
	rt_feed(&t, &e);
	/* b.bin's second half is replaced by an anonymous MAP_FIXED mapping. */
	e = rt_sys(&t, 100, "mmap", 0x7f1000002000LL, 0);
	e.len = 8192;
	e.flags = MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS;
	rt_feed(&t, &e);
	/* Another process with the same addresses. */
	open_fd(&t, 200, "/x/other.bin", 3, O_RDONLY);
	map_file(&t, 200, 3, 0x7f1000000000ULL, 16384, 100);
	signal_ev(&t, 100, SIGSEGV, SEGV_MAPERR, true, 0x7f2000000010ULL, 0, NULL);
	signal_ev(&t, 100, SIGSEGV, SEGV_ACCERR, true, 0x7f1000003000ULL, 0, NULL);
	signal_ev(&t, 100, SIGBUS, BUS_ADRERR, true, 0x7f1000001800ULL, 0, NULL);
	rt_killed(&t, 100, SIGBUS, false, NULL);
	rt_finish(&t);

	assert_int_equal(rt_count(&t, "bad-file-mapping"), 1);
	const struct rc_finding *f = rt_find(&t, "bad-file-mapping");
	assert_string_equal(f->path, "/x/b.bin");
	assert_true(contains(f->summary, "offset 6144"));
	assert_int_equal(f->bytes, 6000);
	rt_release(&t);
}

/* More mappings than the table keeps, each split by a hole punched in
 * its middle: the oldest go, the newest are still found. */
static void mapping_table_bounded(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	open_fd(&t, 100, "/x/shard.bin", 3, O_RDONLY);
	uint64_t base = 0x7e0000000000ULL;
	for (int i = 0; i < 1500; i++) {
		uint64_t a = base + (uint64_t)i * 0x10000;
		map_at(&t, 100, 3, a, 12288, 0, MAP_PRIVATE);
		struct rc_event e = rt_sys(&t, 100, "mmap", (long long)(a + 4096), 0);
		e.len = 4096;
		e.flags = MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS;
		rt_feed(&t, &e);
	}
	struct rc_event e = rt_sys(&t, 100, "ftruncate", 0, 0);
	e.fd = 3;
	e.len = 1000;
	rt_feed(&t, &e);
	/* The tail piece of the last mapping: file offset 8192 + 16. */
	signal_ev(&t, 100, SIGBUS, BUS_ADRERR, true, base + 1499ULL * 0x10000 + 8192 + 16, 0, NULL);
	rt_killed(&t, 100, SIGBUS, false, NULL);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "bad-file-mapping");
	assert_non_null(f);
	assert_true(contains(f->summary, "offset 8208"));
	assert_int_equal(f->bytes, 1000);
	rt_release(&t);
}

/* A read running off the end of a mapping into the unmapped page after. */
static void read_past_mapping(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	open_fd(&t, 100, "/x/index.dat", 3, O_RDONLY);
	map_file(&t, 100, 3, 0x7f0000000000ULL, 8192, 8192);
	signal_ev(&t, 100, SIGSEGV, SEGV_MAPERR, true, 0x7f0000002008ULL, 0, NULL);
	rt_killed(&t, 100, SIGSEGV, false, NULL);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "bad-file-mapping");
	assert_non_null(f);
	assert_true(contains(f->summary, "'/x/index.dat' has 8192 bytes, but the program read past them"));
	assert_true(contains(f->summary, "SIGSEGV (SEGV_MAPERR) 8 bytes past the end of the mapping "
				 "(0x7f0000000000-0x7f0000002000, file offsets 0-8192)"));
	assert_true(contains(f->message, "file offset 8200"));
	assert_true(contains(f->advice, "size and its checksum (SHA-256)"));
	rt_release(&t);
}

/* Story 3's shard: mapped as long as the file, then read as if it were
 * longer; the page after the mapping is a thread stack's guard, so the
 * fault is SEGV_ACCERR, not SIGBUS.  A SIGSEGV another process sent (it
 * carries no fault of the program's) is not one. */
static void read_into_guard_page(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	open_fd(&t, 100, "/x/shard-00001.bin", 3, O_RDONLY);
	map_file(&t, 100, 3, 0x7f0000000000ULL, 1 << 20, 1 << 20);
	signal_ev(&t, 100, SIGSEGV, SEGV_ACCERR, true, 0x7f0000100000ULL, 0,
		  "--- SIGSEGV {si_signo=SIGSEGV, si_code=SEGV_ACCERR, si_addr=0x7f0000100000} ---");
	rt_killed(&t, 100, SIGSEGV, true, NULL);
	open_fd(&t, 200, "/x/shard-00001.bin", 3, O_RDONLY);
	map_file(&t, 200, 3, 0x7f0000000000ULL, 1 << 20, 1 << 20);
	signal_ev(&t, 200, SIGSEGV, SI_USER, true, 0x7f0000100000ULL, 0, NULL);
	rt_killed(&t, 200, SIGSEGV, false, NULL);
	rt_finish(&t);

	assert_int_equal(rt_count(&t, "bad-file-mapping"), 1);
	const struct rc_finding *f = rt_find(&t, "bad-file-mapping");
	assert_int_equal(f->pid, 100);
	assert_true(contains(f->summary, "'/x/shard-00001.bin' has 1048576 bytes, but the program read past them"));
	assert_true(contains(f->summary, "SIGSEGV (SEGV_ACCERR) at the end of the mapping"));
	assert_int_equal(f->bytes, 1 << 20);
	assert_true(has_evidence(f, "SEGV_ACCERR"));
	rt_release(&t);
}

/* A window of a longer file read past: the mapping is what is short. */
static void read_past_window(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	open_fd(&t, 100, "/x/index.dat", 3, O_RDONLY);
	map_file(&t, 100, 3, 0x7f0000000000ULL, 8192, 65536);
	signal_ev(&t, 100, SIGSEGV, SEGV_MAPERR, true, 0x7f0000002000ULL, 0, NULL);
	rt_killed(&t, 100, SIGSEGV, false, NULL);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "bad-file-mapping");
	assert_non_null(f);
	assert_true(contains(f->summary, "the program read past what it mapped of '/x/index.dat' (65536 bytes)"));
	assert_true(contains(f->advice, "read more than it mapped"));
	rt_release(&t);
}

/* ---- nonzero-exit ---- */

static void root_exit_status(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	exec_prog(&t, 100, "python3", "app.py");
	t.now += 31.2;
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "nonzero-exit");
	assert_non_null(f);
	assert_true(contains(f->summary, "'python3 app.py' (pid 100) exited with status 1 after 31.2 s"));
	assert_true(f->symptom);
	assert_true(f->unrecovered);
	assert_string_equal(f->message, "exit status 1");
	assert_true(f->duration_s > 31.1 && f->duration_s < 31.3);
	assert_true(has_evidence(f, "execve("));
	assert_true(has_evidence(f, "exited"));
	assert_int_equal(f->effective, RC_SEV_ERROR);
	rt_release(&t);
}

/* grep finding nothing inside a script that succeeds: not reported. */
static void handled_child_quiet(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	exec_prog(&t, 100, "/bin/sh", "run.sh");
	fork_child(&t, 100, 101);
	exec_prog(&t, 101, "grep", "-q");
	rt_exit(&t, 101, 1);
	fork_child(&t, 100, 102);
	exec_prog(&t, 102, "/bin/sh", NULL);
	rt_exit(&t, 102, 127);
	rt_exit(&t, 100, 0);
	rt_finish(&t);

	assert_int_equal(rt_count(&t, "nonzero-exit"), 1);
	const struct rc_finding *f = rt_find(&t, "nonzero-exit");
	assert_int_equal(f->pid, 102);
	assert_true(contains(f->summary, "command not found"));
	assert_int_equal(f->effective, RC_SEV_INFO);
	assert_int_equal(rt_errors(&t), 0);
	rt_release(&t);
}

/* bash start_app.sh exits 1 because python did: the child comes first. */
static void status_passed_on(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	exec_prog(&t, 100, "bash", "start_app.sh");
	fork_child(&t, 100, 101);
	exec_prog(&t, 101, "python3", "app.py");
	rt_exit(&t, 101, 1);
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	assert_int_equal(rt_count(&t, "nonzero-exit"), 2);
	const struct rc_finding *first = rt_find(&t, "nonzero-exit");
	assert_int_equal(first->pid, 101);
	assert_int_equal(first->effective, RC_SEV_ERROR);
	for (size_t i = 0; i < t.out.count; i++) {
		const struct rc_finding *f = t.out.v[i];
		if (strcmp(f->rule, "nonzero-exit") == 0 && f->pid == 100) {
			assert_true(contains(f->summary, "passing on the status of 'python3 app.py' (pid 101)"));
			assert_int_equal(f->effective, RC_SEV_INFO);
		}
	}
	rt_release(&t);
}

static void threads_one_finding(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	exec_prog(&t, 100, "server", NULL);
	clone_thread(&t, 100, 101);
	clone_thread(&t, 100, 102);
	rt_exit(&t, 101, 2);
	rt_exit(&t, 102, 2);
	rt_exit(&t, 100, 2);
	rt_finish(&t);

	assert_int_equal(rt_count(&t, "nonzero-exit"), 1);
	assert_int_equal(rt_find(&t, "nonzero-exit")->pid, 100);
	rt_release(&t);
}

static void signal_status_advice(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	exec_prog(&t, 100, "bash", "run.sh");
	rt_exit(&t, 100, 139);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "nonzero-exit");
	assert_non_null(f);
	assert_true(contains(f->advice, "SIGSEGV"));
	rt_release(&t);
}

/* ---- real logs ---- */

static const struct rt_expect real_logs[] = {
	{ "proc-segv.log", "crashed", "SEGV_MAPERR at 0x10", true },
	{ "proc-segv.log", "bad-file-mapping", NULL, false },
	{ "proc-abort.log", "crashed", "abort() called", true },
	{ "proc-py-faulthandler.log", "crashed", "SEGV_MAPERR at 0x0, re-raised by its handler", true },
	{ "proc-sigbus.log", "bad-file-mapping", "offset 4096", true },
	{ "proc-sigbus.log", "crashed", "SIGBUS", true },
	{ "proc-exit.log", "nonzero-exit", "exited with status 3", true },
	{ "proc-exit.log", "crashed", NULL, false },
	{ "proc-pipeline.log", "nonzero-exit", NULL, false },
	{ "proc-pipeline.log", "crashed", NULL, false },
	{ "proc-enomem.log", "out-of-memory", "ENOMEM", true },
	{ "proc-enospc.log", "disk-full", "no space left on device", true },
	{ "proc-torch.log", "crashed", NULL, false },
	{ "proc-torch.log", "nonzero-exit", NULL, false },
	{ "proc-torch.log", "out-of-memory", NULL, false },
	{ "proc-torch.log", "disk-full", NULL, false },
	{ "proc-torch.log", "bad-file-mapping", NULL, false },
	/* strace's lines and the program's stderr in one file: each write's
	 * text splits its line, and the call did return. */
	{ "proc-output-interleaved.log", "error-message", "error: model missing", true },
	{ "proc-output-interleaved.log", "nonzero-exit", "the traced program exited with status 3", true },
	{ "proc-output-interleaved.log", "nonzero-exit", "pid 0", false },
	{ "proc-output-interleaved.log", "blocked-thread", NULL, false },
	/* The cgroup file system's errnos are its own rules: a cpuset with
	 * no CPUs, not a full disk; a controller not enabled, not a file to
	 * create; a cgroup not delegated; one that still holds a process. */
	{ "proc-cgroup-cpuset-enospc.log", "cgroup-refused", "its cpuset has no CPUs or memory nodes", true },
	{ "proc-cgroup-cpuset-enospc.log", "disk-full", NULL, false },
	{ "proc-cgroup-no-controller.log", "cgroup-refused", "could not enable '+memory' for the cgroups below", true },
	{ "proc-cgroup-no-controller.log", "missing-file", NULL, false },
	{ "proc-cgroup-no-controller.log", "permission-denied", NULL, false },
	{ "proc-cgroup-not-delegated.log", "cgroup-refused", "not allowed to create cgroup", true },
	{ "proc-cgroup-not-delegated.log", "permission-denied", NULL, false },
	{ "proc-cgroup-rmdir-busy.log", "cgroup-refused", "still has processes or cgroups below it", true },
};

static void real_logs_checked(void **state)
{
	(void)state;
	rt_check_logs(real_logs, ARRAY_SIZE(real_logs));

	/* memory.max opened with O_CREAT: EACCES, since cgroupfs creates no
	 * file. Whether the file is there tells a controller not enabled
	 * from a cgroup not delegated; the test's cgroup is gone, so it is
	 * not there, and the finding says which controller. */
	struct rt t;
	const struct rc_finding *f = rt_expect_log(&t, "proc-cgroup-no-controller.log", "cgroup-refused",
						   "has no 'memory.max'", true);
	assert_int_equal(f->err, EACCES);
	assert_true(contains(f->advice, "echo +memory > /sys/fs/cgroup/unified/cgroup.subtree_control"));
	assert_ptr_equal(f, t.out.v[0]);
	rt_release(&t);
	/* The cgroup file system wherever it is mounted, by its core files;
	 * not a config file of another name (slurm's cgroup.conf). */
	assert_true(fp_cgroup("/sys/fs/cgroup/memory/x/memory.limit_in_bytes"));
	assert_true(fp_cgroup("/run/crun/cg/cgroup.procs"));
	assert_false(fp_cgroup("/etc/slurm/cgroup.conf"));
	assert_false(fp_cgroup("/srv/app/cgroup.procs.bak"));
	/* The shell's words and exit are the refusal's. */
	f = rt_expect_log(&t, "proc-cgroup-cpuset-enospc.log", "cgroup-refused", NULL, true);
	assert_ptr_equal(f, t.out.v[0]);
	assert_int_equal(rt_errors(&t), 3);
	assert_ptr_equal(rt_find(&t, "nonzero-exit")->cause, f);
	rt_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(segv_core),
		cmocka_unit_test(si_code_per_signal),
		cmocka_unit_test(sigpipe_in_pipeline),
		cmocka_unit_test(child_crash_parent_ok),
		cmocka_unit_test(non_fatal_signals),
		cmocka_unit_test(sigterm_sender),
		cmocka_unit_test(caught_fault_then_exit),
		cmocka_unit_test(faulthandler_reraise),
		cmocka_unit_test(handled_fault_exit_zero),
		cmocka_unit_test(thread_crash_one_finding),
		cmocka_unit_test(sigkill_plain),
		cmocka_unit_test(sigkill_after_allocations),
		cmocka_unit_test(sigkill_after_reservations),
		cmocka_unit_test(sigkill_sender_timer),
		cmocka_unit_test(sigkill_sender_waited),
		cmocka_unit_test(sigkill_sender_returned_late),
		cmocka_unit_test(mmap_enomem),
		cmocka_unit_test(pkey_mprotect_map_count),
		cmocka_unit_test(brk_fallback),
		cmocka_unit_test(enomem_recovered),
		cmocka_unit_test(big_but_healthy),
		cmocka_unit_test(hugetlb_fallback),
		cmocka_unit_test(write_enospc),
		cmocka_unit_test(fds_run_out),
		cmocka_unit_test(write_sizes_saturate),
		cmocka_unit_test(short_writes_not_files),
		cmocka_unit_test(create_and_quota),
		cmocka_unit_test(flush_enospc),
		cmocka_unit_test(inotify_limit),
		cmocka_unit_test(enospc_in_healthy_run),
		cmocka_unit_test(truncated_mapping),
		cmocka_unit_test(creat_truncates_mapping),
		cmocka_unit_test(size_on_disk),
		cmocka_unit_test(mapping_not_at_fault),
		cmocka_unit_test(fault_among_many),
		cmocka_unit_test(read_past_mapping),
		cmocka_unit_test(read_into_guard_page),
		cmocka_unit_test(read_past_window),
		cmocka_unit_test(mapping_table_bounded),
		cmocka_unit_test(root_exit_status),
		cmocka_unit_test(handled_child_quiet),
		cmocka_unit_test(status_passed_on),
		cmocka_unit_test(threads_one_finding),
		cmocka_unit_test(signal_status_advice),
		cmocka_unit_test(real_logs_checked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
