/* The process and signal families (capture/decode/process.c, signal.c).
 *
 * Expected texts are what strace 6.1 printed on this machine for the same
 * calls (`strace -f -o LOG ./prog` on small C programs doing them); the
 * strace line each case mirrors is quoted above it, with its addresses
 * replaced by the test's own. Where a decoder fills event facts, the
 * strace parser reads the printed line back and must find the same facts
 * (dt_check_same_facts). */
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <asm/prctl.h>

#include "decode_test.h"

static struct dt t;

static int setup(void **state)
{
	(void)state;
	dt_init(&t);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	dt_release(&t);
	return 0;
}

/* "%#llx" of P, as strace prints addresses. */
static const char *hex(const void *p)
{
	static char buf[4][32];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%#llx", (unsigned long long)(uintptr_t)p);
	return buf[i];
}

static void expect(const char *got, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void expect(const char *got, const char *fmt, ...)
{
	char want[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	assert_string_equal(got, want);
}

/*
 * exec.
 */

/* execve("/bin/true", ["true", "a b", "c\"d"], 0x7fff09050150 /\* 2 vars *\/) = 0 */
static void test_execve(void **state)
{
	char *argv[] = { "true", "a b", "c\"d", NULL };
	char *envp[] = { "A=1", "B=2", NULL };
	const char *s;

	(void)state;
	s = dt_decode(&t, SYS_execve, DT_ARGS(DT_PTR("/bin/true"), DT_PTR(argv), DT_PTR(envp)), 0, 0);
	expect(s, "\"/bin/true\", [\"true\", \"a b\", \"c\\\"d\"], %s /* 2 vars */", hex(envp));
	assert_string_equal(t.ev.path, "/bin/true");
	assert_int_equal(t.ev.argc, 3);
	assert_string_equal(t.ev.argv[2], "c\"d");
	dt_check_same_facts(&t);

	/* A failed exec keeps its facts: the rules explain it. */
	s = dt_decode(&t, SYS_execve, DT_ARGS(DT_PTR("/nonexistent"), DT_PTR(argv), 0), -1, ENOENT);
	expect(s, "\"/nonexistent\", [\"true\", \"a b\", \"c\\\"d\"], NULL");
	dt_check_same_facts(&t);
	assert_int_equal(t.parsed.err, ENOENT);
}

/* execveat(AT_FDCWD, "/bin/true", ["true"], NULL, AT_EMPTY_PATH) */
static void test_execveat(void **state)
{
	char *argv[] = { "true", NULL };
	const char *s;

	(void)state;
	s = dt_decode(&t, SYS_execveat,
		      DT_ARGS((uint64_t)AT_FDCWD, DT_PTR("/bin/true"), DT_PTR(argv), 0, AT_EMPTY_PATH),
		      -1, ENOENT);
	assert_string_equal(s, "AT_FDCWD, \"/bin/true\", [\"true\"], NULL, AT_EMPTY_PATH");
	assert_int_equal(t.ev.dirfd, AT_FDCWD);
	dt_check_same_facts(&t);

	s = dt_decode(&t, SYS_execveat, DT_ARGS(3, DT_PTR(""), DT_PTR(argv), 0, 0x1000 | 0x100), -1,
		      EBADF);
	assert_string_equal(s, "3, \"\", [\"true\"], NULL, AT_SYMLINK_NOFOLLOW|AT_EMPTY_PATH");
	dt_check_same_facts(&t);
}

/*
 * clone, clone3.
 */

/* clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD,
 *       child_tidptr=0x7f457c749a10) = 31025 */
static void test_clone_fork(void **state)
{
	static int ctid;
	const char *s;
	uint64_t flags = CLONE_CHILD_CLEARTID | CLONE_CHILD_SETTID | SIGCHLD;

	(void)state;
	s = dt_decode(&t, SYS_clone, DT_ARGS(flags, 0, 0, DT_PTR(&ctid), 0), 31025, 0);
	expect(s, "child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=%s",
	       hex(&ctid));
	assert_int_equal(t.ev.flags, (long long)flags);
	dt_check_same_facts(&t);
}

/* A thread as old glibc made it, and a bare clone with only a signal. */
static void test_clone_thread(void **state)
{
	static int ptid = 31029;
	const char *s;
	uint64_t flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
			 CLONE_SYSVSEM | CLONE_SETTLS | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID;

	(void)state;
	s = dt_decode(&t, SYS_clone, DT_ARGS(flags, 0x7f0000001000, DT_PTR(&ptid), DT_PTR(&ptid), 0x7f0000002000),
		      31029, 0);
	expect(s,
	       "child_stack=0x7f0000001000, flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|"
	       "CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, parent_tid=[31029], "
	       "tls=0x7f0000002000, child_tidptr=%s",
	       hex(&ptid));
	dt_check_same_facts(&t);

	s = dt_decode(&t, SYS_clone, DT_ARGS(SIGCHLD, 0, 0, 0, 0), 5, 0);
	assert_string_equal(s, "child_stack=NULL, flags=SIGCHLD");
	dt_check_same_facts(&t);
	s = dt_decode(&t, SYS_clone, DT_ARGS(CLONE_VFORK | CLONE_VM, 0, 0, 0, 0), 5, 0);
	assert_string_equal(s, "child_stack=NULL, flags=CLONE_VM|CLONE_VFORK");
	assert_int_equal(t.ev.flags, CLONE_VFORK | CLONE_VM);
	dt_check_same_facts(&t);
}

/* clone3({flags=0, exit_signal=SIGCHLD, stack=NULL, stack_size=0}, 88) = 31030
 * clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|
 *   CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7f457c748990,
 *   parent_tid=0x7f457c748990, exit_signal=0, stack=0x7f457bf48000, stack_size=0x7fff80,
 *   tls=0x7f457c7486c0} => {parent_tid=[31029]}, 88) = 31029 */
static void test_clone3(void **state)
{
	static struct clone_args ca;
	static int tid = 31029;
	const char *s;

	(void)state;
	memset(&ca, 0, sizeof(ca));
	ca.exit_signal = SIGCHLD;
	s = dt_decode(&t, SYS_clone3, DT_ARGS(DT_PTR(&ca), sizeof(ca)), 31030, 0);
	assert_string_equal(s, "{flags=0, exit_signal=SIGCHLD, stack=NULL, stack_size=0}, 88");
	assert_int_equal(t.ev.flags, SIGCHLD);
	dt_check_same_facts(&t);

	ca.flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM |
		   CLONE_SETTLS | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID;
	ca.child_tid = ca.parent_tid = DT_PTR(&tid);
	ca.exit_signal = 0;
	ca.stack = 0x7f457bf48000;
	ca.stack_size = 0x7fff80;
	ca.tls = 0x7f457c7486c0;
	s = dt_decode(&t, SYS_clone3, DT_ARGS(DT_PTR(&ca), sizeof(ca)), 31029, 0);
	expect(s,
	       "{flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS|"
	       "CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=%s, parent_tid=%s, exit_signal=0, "
	       "stack=0x7f457bf48000, stack_size=0x7fff80, tls=0x7f457c7486c0} => {parent_tid=[31029]}, 88",
	       hex(&tid), hex(&tid));
	assert_int_equal(t.ev.flags, (long long)ca.flags);
	dt_check_same_facts(&t);

	/* Failed: nothing written back; a short size is just an address. */
	s = dt_decode(&t, SYS_clone3, DT_ARGS(DT_PTR(&ca), sizeof(ca)), -1, EAGAIN);
	assert_non_null(strstr(s, "tls=0x7f457c7486c0}, 88"));
	assert_null(strstr(s, "=>"));
	s = dt_decode(&t, SYS_clone3, DT_ARGS(DT_PTR(&ca), 16), -1, EINVAL);
	expect(s, "%s, 16", hex(&ca));
	dt_check_same_facts(&t);
}

/* unshare(CLONE_NEWNS|CLONE_NEWUSER), setns(3, CLONE_NEWNET) */
static void test_unshare_setns(void **state)
{
	(void)state;
	assert_string_equal(dt_decode(&t, SYS_unshare, DT_ARGS(CLONE_NEWNS | CLONE_NEWUSER), 0, 0),
			    "CLONE_NEWNS|CLONE_NEWUSER");
	assert_string_equal(dt_decode(&t, SYS_unshare, DT_ARGS(0), 0, 0), "0");
	assert_string_equal(dt_decode(&t, SYS_setns, DT_ARGS(3, CLONE_NEWNET), 0, 0), "3, CLONE_NEWNET");
}

/*
 * exit and wait.
 */

/* exit_group(3) = ? */
static void test_exit(void **state)
{
	(void)state;
	assert_string_equal(dt_decode(&t, SYS_exit_group, DT_ARGS(3), 0, 0), "3");
	assert_int_equal(t.ev.exit_code, 3);
	assert_int_equal(dec_lookup(SYS_exit_group)->rv, RC_RV_NONE);
	assert_string_equal(dt_decode(&t, SYS_exit, DT_ARGS((uint64_t)-1), 0, 0), "-1");
	assert_int_equal(t.ev.exit_code, -1);
}

/* wait4(31025, [{WIFEXITED(s) && WEXITSTATUS(s) == 3}], 0, NULL) = 31025
 * wait4(31027, [{WIFSIGNALED(s) && WTERMSIG(s) == SIGSEGV}], 0, NULL) = 31027
 * wait4(774, [{WIFSTOPPED(s) && WSTOPSIG(s) == SIGSTOP}], WSTOPPED, NULL) = 774
 * wait4(774, [{WIFCONTINUED(s)}], WCONTINUED, NULL) = 774
 * wait4(-1, [{WIFSIGNALED(s) && WTERMSIG(s) == SIGABRT}], __WALL, NULL) = 776
 * wait4(-1, 0x7ffe422ea43c, WNOHANG, NULL) = -1 ECHILD (No child processes) */
static void test_wait4(void **state)
{
	static int st;
	const char *s;

	(void)state;
	st = 3 << 8;
	s = dt_decode(&t, SYS_wait4, DT_ARGS(31025, DT_PTR(&st), 0, 0), 31025, 0);
	assert_string_equal(s, "31025, [{WIFEXITED(s) && WEXITSTATUS(s) == 3}], 0, NULL");
	assert_int_equal(t.ev.exit_code, 3);
	dt_check_same_facts(&t);
	assert_int_equal(t.parsed.exit_code, 3);

	st = SIGSEGV;
	s = dt_decode(&t, SYS_wait4, DT_ARGS(31027, DT_PTR(&st), 0, 0), 31027, 0);
	assert_string_equal(s, "31027, [{WIFSIGNALED(s) && WTERMSIG(s) == SIGSEGV}], 0, NULL");
	assert_int_equal(t.ev.signo, SIGSEGV);
	assert_false(t.ev.core_dumped);
	dt_check_same_facts(&t);
	assert_int_equal(t.parsed.signo, SIGSEGV);

	st = SIGABRT | 0x80;
	s = dt_decode(&t, SYS_wait4, DT_ARGS((uint64_t)-1, DT_PTR(&st), __WALL, 0), 776, 0);
	assert_string_equal(s, "-1, [{WIFSIGNALED(s) && WTERMSIG(s) == SIGABRT && WCOREDUMP(s)}], __WALL, NULL");
	assert_true(t.ev.core_dumped);
	dt_check_same_facts(&t);
	assert_true(t.parsed.core_dumped);

	st = (SIGSTOP << 8) | 0x7f;
	s = dt_decode(&t, SYS_wait4, DT_ARGS(774, DT_PTR(&st), WUNTRACED, 0), 774, 0);
	assert_string_equal(s, "774, [{WIFSTOPPED(s) && WSTOPSIG(s) == SIGSTOP}], WSTOPPED, NULL");
	st = 0xffff;
	s = dt_decode(&t, SYS_wait4, DT_ARGS(774, DT_PTR(&st), WCONTINUED, 0), 774, 0);
	assert_string_equal(s, "774, [{WIFCONTINUED(s)}], WCONTINUED, NULL");
	/* A tracer's view of a ptrace event stop. */
	st = (PTRACE_EVENT_CLONE << 16) | (SIGTRAP << 8) | 0x7f;
	s = dt_decode(&t, SYS_wait4, DT_ARGS(774, DT_PTR(&st), __WALL, 0), 774, 0);
	assert_string_equal(s, "774, [{WIFSTOPPED(s) && WSTOPSIG(s) == SIGTRAP}|PTRACE_EVENT_CLONE<<16], __WALL, NULL");

	s = dt_decode(&t, SYS_wait4, DT_ARGS((uint64_t)-1, DT_PTR(&st), WNOHANG, 0), -1, ECHILD);
	expect(s, "-1, %s, WNOHANG, NULL", hex(&st));
	dt_check_same_facts(&t);
	/* WNOHANG and nobody ready: 0, and the status untouched. */
	s = dt_decode(&t, SYS_wait4, DT_ARGS((uint64_t)-1, DT_PTR(&st), WNOHANG, 0), 0, 0);
	expect(s, "-1, %s, WNOHANG, NULL", hex(&st));
}

/* wait4(775, [{WIFEXITED(s) && WEXITSTATUS(s) == 7}], 0,
 *       {ru_utime={tv_sec=0, tv_usec=0}, ru_stime={tv_sec=0, tv_usec=698}, ...}) = 775 */
static void test_wait4_rusage(void **state)
{
	static int st = 7 << 8;
	static struct rusage ru;
	const char *s;

	(void)state;
	ru.ru_stime.tv_usec = 698;
	s = dt_decode(&t, SYS_wait4, DT_ARGS(775, DT_PTR(&st), 0, DT_PTR(&ru)), 775, 0);
	assert_string_equal(s, "775, [{WIFEXITED(s) && WEXITSTATUS(s) == 7}], 0, "
			       "{ru_utime={tv_sec=0, tv_usec=0}, ru_stime={tv_sec=0, tv_usec=698}, ...}");
	dt_check_same_facts(&t);
}

/* waitid(P_PID, 774, {si_signo=SIGCHLD, si_code=CLD_KILLED, si_pid=774, si_uid=0,
 *        si_status=SIGKILL, si_utime=0, si_stime=0}, WEXITED, NULL) = 0
 * waitid(P_ALL, 0, 0x7fff09050430, WNOHANG|WEXITED, NULL) = -1 ECHILD */
static void test_waitid(void **state)
{
	siginfo_t si;
	const char *s;
	pid_t pid = fork();

	(void)state;
	if (pid == 0)
		_exit(5);
	assert_true(pid > 0);
	memset(&si, 0, sizeof(si));
	assert_int_equal(waitid(P_PID, (id_t)pid, &si, WEXITED), 0);
	s = dt_decode(&t, SYS_waitid, DT_ARGS(P_PID, (uint64_t)pid, DT_PTR(&si), WEXITED, 0), 0, 0);
	/* Real child: real times, which print with a comment once non-zero. */
	char want[256];
	snprintf(want, sizeof(want),
		 "P_PID, %d, {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=%d, si_uid=%u, si_status=5, si_utime=",
		 pid, pid, getuid());
	assert_memory_equal(s, want, strlen(want));
	assert_non_null(strstr(s, "}, WEXITED, NULL"));

	s = dt_decode(&t, SYS_waitid, DT_ARGS(P_ALL, 0, DT_PTR(&si), WNOHANG | WEXITED, 0), -1, ECHILD);
	expect(s, "P_ALL, 0, %s, WNOHANG|WEXITED, NULL", hex(&si));
}

/*
 * Signals sent and received.
 */

/* kill(576, SIGUSR1), kill(576, 77), kill(-1, 0), tgkill(31026, 31026, SIGTERM),
 * tkill(31024, 0), kill(576, SIGRT_1) */
static void test_kill(void **state)
{
	(void)state;
	assert_string_equal(dt_decode(&t, SYS_kill, DT_ARGS(576, SIGUSR1), 0, 0), "576, SIGUSR1");
	assert_string_equal(dt_decode(&t, SYS_kill, DT_ARGS(576, 77), -1, EINVAL), "576, 77");
	assert_string_equal(dt_decode(&t, SYS_kill, DT_ARGS((uint64_t)-1, 0), 0, 0), "-1, 0");
	assert_string_equal(dt_decode(&t, SYS_kill, DT_ARGS(576, 33), 0, 0), "576, SIGRT_1");
	assert_string_equal(dt_decode(&t, SYS_kill, DT_ARGS(576, 32), 0, 0), "576, SIGRTMIN");
	assert_string_equal(dt_decode(&t, SYS_tgkill, DT_ARGS(31026, 31026, SIGTERM), 0, 0),
			    "31026, 31026, SIGTERM");
	assert_string_equal(dt_decode(&t, SYS_tkill, DT_ARGS(31024, 0), 0, 0), "31024, 0");
	/* Who is signalled, and with what: the facts who-sent-it rests on. */
	dt_decode(&t, SYS_kill, DT_ARGS(576, SIGKILL), 0, 0);
	assert_true(t.ev.has_kill_target);
	assert_int_equal(t.ev.kill_target, 576);
	assert_int_equal(t.ev.signo, SIGKILL);
	dt_check_same_facts(&t);
	dt_decode(&t, SYS_kill, DT_ARGS(0, SIGKILL), 0, 0);
	assert_int_equal(t.ev.kill_target, 0);
	dt_check_same_facts(&t);
	dt_decode(&t, SYS_kill, DT_ARGS((uint64_t)-4242, SIGTERM), 0, 0);
	assert_int_equal(t.ev.kill_target, -4242);
	dt_check_same_facts(&t);
	dt_decode(&t, SYS_tgkill, DT_ARGS(31026, 31027, SIGTERM), 0, 0);
	assert_int_equal(t.ev.kill_target, 31027);
	assert_int_equal(t.ev.signo, SIGTERM);
	dt_check_same_facts(&t);
	assert_string_equal(dt_decode(&t, SYS_pidfd_send_signal, DT_ARGS(3, 0, 0, 0), 0, 0), "3, 0, NULL, 0");
}

static void test_signame(void **state)
{
	static const char *const names[] = {
		NULL, "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS",
		"SIGFPE", "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM",
		"SIGTERM", "SIGSTKFLT", "SIGCHLD", "SIGCONT", "SIGSTOP", "SIGTSTP", "SIGTTIN",
		"SIGTTOU", "SIGURG", "SIGXCPU", "SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGWINCH",
		"SIGIO", "SIGPWR", "SIGSYS", "SIGRTMIN", "SIGRT_1",
	};

	(void)state;
	for (int i = 1; i < (int)(sizeof(names) / sizeof(names[0])); i++)
		assert_string_equal(dec_signame(i), names[i]);
	assert_string_equal(dec_signame(64), "SIGRT_32");
	assert_null(dec_signame(0));
	assert_null(dec_signame(65));
	assert_null(dec_signame(-1));
}

/* --- SIGSEGV {si_signo=SIGSEGV, si_code=SEGV_MAPERR, si_addr=0x10} ---
 * --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=31025, si_uid=0, si_status=3,
 *     si_utime=0, si_stime=0} ---
 * --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_KILLED, si_pid=31026, si_uid=0,
 *     si_status=SIGTERM, si_utime=0, si_stime=0} ---
 * --- SIGALRM {si_signo=SIGALRM, si_code=SI_KERNEL} ---
 * --- SIGUSR1 {si_signo=SIGUSR1, si_code=SI_USER, si_pid=576, si_uid=0} ---
 * --- SIGTERM {si_signo=SIGTERM, si_code=SI_TKILL, si_pid=31026, si_uid=0} ---
 * rt_sigqueueinfo(576, SIGUSR2, {si_signo=SIGUSR2, si_code=SI_QUEUE, si_pid=576, si_uid=0,
 *     si_int=42, si_ptr=0x2a}) = 0 */
static void test_siginfo(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	siginfo_t si;

	(void)state;
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGSEGV;
	si.si_code = SEGV_MAPERR;
	si.si_addr = (void *)0x10;
	dec_siginfo(&sb, &si);
	assert_string_equal(strbuf_str(&sb), "{si_signo=SIGSEGV, si_code=SEGV_MAPERR, si_addr=0x10}");

	strbuf_reset(&sb);
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGSEGV;
	si.si_code = SI_KERNEL;
	dec_siginfo(&sb, &si);
	assert_string_equal(strbuf_str(&sb), "{si_signo=SIGSEGV, si_code=SI_KERNEL, si_addr=NULL}");

	strbuf_reset(&sb);
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGCHLD;
	si.si_code = CLD_EXITED;
	si.si_pid = 31025;
	si.si_status = 3;
	dec_siginfo(&sb, &si);
	assert_string_equal(strbuf_str(&sb), "{si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=31025, si_uid=0, "
					     "si_status=3, si_utime=0, si_stime=0}");

	strbuf_reset(&sb);
	si.si_code = CLD_KILLED;
	si.si_pid = 31026;
	si.si_status = SIGTERM;
	si.si_utime = 123;
	dec_siginfo(&sb, &si);
	/* 123 ticks of 100 Hz, as strace's print_clock_t comments them. */
	assert_string_equal(strbuf_str(&sb), "{si_signo=SIGCHLD, si_code=CLD_KILLED, si_pid=31026, si_uid=0, "
					     "si_status=SIGTERM, si_utime=123 /* 1.23 s */, si_stime=0}");

	strbuf_reset(&sb);
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGALRM;
	si.si_code = SI_KERNEL;
	dec_siginfo(&sb, &si);
	assert_string_equal(strbuf_str(&sb), "{si_signo=SIGALRM, si_code=SI_KERNEL}");

	strbuf_reset(&sb);
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGUSR1;
	si.si_code = SI_USER;
	si.si_pid = 576;
	dec_siginfo(&sb, &si);
	assert_string_equal(strbuf_str(&sb), "{si_signo=SIGUSR1, si_code=SI_USER, si_pid=576, si_uid=0}");

	strbuf_reset(&sb);
	si.si_signo = SIGUSR2;
	si.si_code = SI_QUEUE;
	si.si_value.sival_int = 42;
	dec_siginfo(&sb, &si);
	assert_string_equal(strbuf_str(&sb), "{si_signo=SIGUSR2, si_code=SI_QUEUE, si_pid=576, si_uid=0, "
					     "si_int=42, si_ptr=0x2a}");

	strbuf_reset(&sb);
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGBUS;
	si.si_code = BUS_ADRERR;
	si.si_addr = (void *)0x7f0000001000;
	dec_siginfo(&sb, &si);
	assert_string_equal(strbuf_str(&sb), "{si_signo=SIGBUS, si_code=BUS_ADRERR, si_addr=0x7f0000001000}");

	/* Unknown codes print in hex; an empty siginfo prints as {}. */
	strbuf_reset(&sb);
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGSEGV;
	si.si_code = 77;
	dec_siginfo(&sb, &si);
	assert_string_equal(strbuf_str(&sb), "{si_signo=SIGSEGV, si_code=0x4d, si_addr=NULL}");
	strbuf_reset(&sb);
	memset(&si, 0, sizeof(si));
	dec_siginfo(&sb, &si);
	assert_string_equal(strbuf_str(&sb), "{}");
	strbuf_release(&sb);
}

/* A siginfo the kernel made: raise() is a tgkill, SI_TKILL with our pid. */
static siginfo_t caught;

static void catcher(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	caught = *si;
}

static void test_siginfo_real(void **state)
{
	struct sigaction sa, old;
	struct strbuf sb = STRBUF_INIT;
	char want[128];

	(void)state;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = catcher;
	sa.sa_flags = SA_SIGINFO;
	assert_int_equal(sigaction(SIGUSR1, &sa, &old), 0);
	raise(SIGUSR1);
	sigaction(SIGUSR1, &old, NULL);
	dec_siginfo(&sb, &caught);
	snprintf(want, sizeof(want), "{si_signo=SIGUSR1, si_code=SI_TKILL, si_pid=%d, si_uid=%u}", getpid(),
		 getuid());
	assert_string_equal(strbuf_str(&sb), want);
	strbuf_release(&sb);
}

/* rt_sigaction(SIGUSR1, {sa_handler=0x55c5ddcf5279, sa_mask=[INT TERM RT_5],
 *     sa_flags=SA_RESTORER|SA_RESTART|SA_NODEFER|SA_RESETHAND, sa_restorer=0x7fcb0b58c050}, NULL, 8)
 * rt_sigaction(SIGCHLD, {sa_handler=0x55c5ddcf5283, sa_mask=[],
 *     sa_flags=SA_RESTORER|SA_ONSTACK|SA_SIGINFO|SA_NOCLDSTOP|SA_NOCLDWAIT, sa_restorer=0x7fcb0b58c050},
 *     {sa_handler=SIG_DFL, sa_mask=[], sa_flags=0}, 8) = 0
 * rt_sigaction(SIGPIPE, {sa_handler=SIG_IGN, sa_mask=[], sa_flags=SA_RESTORER, sa_restorer=...}, NULL, 8)
 * rt_sigaction(SIGUSR1, 0x10, 0x10, 8) = -1 EFAULT (Bad address)
 * rt_sigaction(70, NULL, NULL, 8) = -1 EINVAL (Invalid argument)
 * rt_sigaction(SIGRT_4, NULL, NULL, 8) = 0 */
struct ksa {
	uint64_t handler, flags, restorer;
	uint64_t mask[8];
};

static void test_rt_sigaction(void **state)
{
	static struct ksa act, oact;
	const char *s;

	(void)state;
	act.handler = 0x55c5ddcf5279;
	act.flags = 0x04000000 | SA_RESTART | SA_NODEFER | SA_RESETHAND;
	act.restorer = 0x7fcb0b58c050;
	act.mask[0] = (1ull << (SIGINT - 1)) | (1ull << (SIGTERM - 1)) | (1ull << (32 + 5 - 1));
	s = dt_decode(&t, SYS_rt_sigaction, DT_ARGS(SIGUSR1, DT_PTR(&act), 0, 8), 0, 0);
	assert_string_equal(s, "SIGUSR1, {sa_handler=0x55c5ddcf5279, sa_mask=[INT TERM RT_5], "
			       "sa_flags=SA_RESTORER|SA_RESTART|SA_NODEFER|SA_RESETHAND, "
			       "sa_restorer=0x7fcb0b58c050}, NULL, 8");

	memset(&act, 0, sizeof(act));
	act.handler = 0x55c5ddcf5283;
	act.flags = 0x04000000 | SA_ONSTACK | SA_SIGINFO | SA_NOCLDSTOP | SA_NOCLDWAIT;
	act.restorer = 0x7fcb0b58c050;
	memset(&oact, 0, sizeof(oact));
	s = dt_decode(&t, SYS_rt_sigaction, DT_ARGS(SIGCHLD, DT_PTR(&act), DT_PTR(&oact), 8), 0, 0);
	assert_string_equal(s, "SIGCHLD, {sa_handler=0x55c5ddcf5283, sa_mask=[], "
			       "sa_flags=SA_RESTORER|SA_ONSTACK|SA_SIGINFO|SA_NOCLDSTOP|SA_NOCLDWAIT, "
			       "sa_restorer=0x7fcb0b58c050}, {sa_handler=SIG_DFL, sa_mask=[], sa_flags=0}, 8");

	act.handler = (uint64_t)(uintptr_t)SIG_IGN;
	act.flags = 0x04000000;
	s = dt_decode(&t, SYS_rt_sigaction, DT_ARGS(SIGPIPE, DT_PTR(&act), 0, 8), 0, 0);
	assert_string_equal(s, "SIGPIPE, {sa_handler=SIG_IGN, sa_mask=[], sa_flags=SA_RESTORER, "
			       "sa_restorer=0x7fcb0b58c050}, NULL, 8");

	/* The old action of a failed call is not printed, only its address. */
	s = dt_decode(&t, SYS_rt_sigaction, DT_ARGS(SIGUSR1, 0x10, 0x10, 8), -1, EFAULT);
	assert_string_equal(s, "SIGUSR1, 0x10, 0x10, 8");
	s = dt_decode(&t, SYS_rt_sigaction, DT_ARGS(70, 0, 0, 8), -1, EINVAL);
	assert_string_equal(s, "70, NULL, NULL, 8");
	s = dt_decode(&t, SYS_rt_sigaction, DT_ARGS(36, 0, 0, 8), 0, 0);
	assert_string_equal(s, "SIGRT_4, NULL, NULL, 8");
}

/* rt_sigprocmask(SIG_BLOCK, ~[USR1 RTMIN RT_1], NULL, 8) = 0
 * rt_sigprocmask(SIG_SETMASK, ~[RTMIN RT_1 RT_13 ... RT_32], NULL, 8)       (1..44 set)
 * rt_sigprocmask(SIG_SETMASK, [HUP INT ... SYS RT_2 ... RT_9], NULL, 8)     (1..41 set)
 * rt_sigprocmask(SIG_SETMASK, [USR2 RT_8 RT_32], [...], 8) = 0
 * rt_sigprocmask(0x7 /\* SIG_??? *\/, NULL, NULL, 8) = 0
 * rt_sigprocmask(SIG_BLOCK, 0x8, NULL, 8) = -1 EFAULT (Bad address)
 * rt_sigprocmask(SIG_BLOCK, 0x7ffd89a15560, NULL, 4) = -1 EINVAL (Invalid argument) */
static void test_rt_sigprocmask(void **state)
{
	static uint64_t set, old;
	const char *s;

	(void)state;
	set = ~((1ull << (SIGUSR1 - 1)) | (1ull << 31) | (1ull << 32));
	s = dt_decode(&t, SYS_rt_sigprocmask, DT_ARGS(SIG_BLOCK, DT_PTR(&set), 0, 8), 0, 0);
	assert_string_equal(s, "SIG_BLOCK, ~[USR1 RTMIN RT_1], NULL, 8");

	/* glibc's sigaddset leaves out its own two (SIGRTMIN, SIGRT_1). */
	set = ((1ull << 44) - 1) & ~(3ull << 31);
	s = dt_decode(&t, SYS_rt_sigprocmask, DT_ARGS(SIG_SETMASK, DT_PTR(&set), 0, 8), 0, 0);
	assert_string_equal(s, "SIG_SETMASK, ~[RTMIN RT_1 RT_13 RT_14 RT_15 RT_16 RT_17 RT_18 RT_19 RT_20 "
			       "RT_21 RT_22 RT_23 RT_24 RT_25 RT_26 RT_27 RT_28 RT_29 RT_30 RT_31 RT_32], NULL, 8");
	set = ((1ull << 41) - 1) & ~(3ull << 31);
	s = dt_decode(&t, SYS_rt_sigprocmask, DT_ARGS(SIG_SETMASK, DT_PTR(&set), 0, 8), 0, 0);
	assert_string_equal(s, "SIG_SETMASK, [HUP INT QUIT ILL TRAP ABRT BUS FPE KILL USR1 SEGV USR2 PIPE "
			       "ALRM TERM STKFLT CHLD CONT STOP TSTP TTIN TTOU URG XCPU XFSZ VTALRM PROF WINCH "
			       "IO PWR SYS RT_2 RT_3 RT_4 RT_5 RT_6 RT_7 RT_8 RT_9], NULL, 8");

	set = (1ull << (SIGUSR2 - 1)) | (1ull << 63) | (1ull << 39);
	old = 0;
	s = dt_decode(&t, SYS_rt_sigprocmask, DT_ARGS(SIG_SETMASK, DT_PTR(&set), DT_PTR(&old), 8), 0, 0);
	assert_string_equal(s, "SIG_SETMASK, [USR2 RT_8 RT_32], [], 8");

	s = dt_decode(&t, SYS_rt_sigprocmask, DT_ARGS(7, 0, 0, 8), 0, 0);
	assert_string_equal(s, "0x7 /* SIG_??? */, NULL, NULL, 8");
	s = dt_decode(&t, SYS_rt_sigprocmask, DT_ARGS(SIG_BLOCK, 8, 0, 8), -1, EFAULT);
	assert_string_equal(s, "SIG_BLOCK, 0x8, NULL, 8");
	s = dt_decode(&t, SYS_rt_sigprocmask, DT_ARGS(SIG_BLOCK, DT_PTR(&set), 0, 4), -1, EINVAL);
	expect(s, "SIG_BLOCK, %s, NULL, 4", hex(&set));
	/* The old set is not printed when the call failed. */
	s = dt_decode(&t, SYS_rt_sigprocmask, DT_ARGS(SIG_BLOCK, 0, DT_PTR(&old), 8), -1, EFAULT);
	expect(s, "SIG_BLOCK, NULL, %s, 8", hex(&old));
}

/* rt_sigpending([], 8), rt_sigsuspend([], 8), signalfd4(-1, [USR2], 8, SFD_CLOEXEC|SFD_NONBLOCK) = 3,
 * sigaltstack({ss_sp=0x55c6118062a0, ss_flags=0, ss_size=65536}, NULL) = 0,
 * rt_sigtimedwait([USR2], 0x7ffd89a154b0, {tv_sec=0, tv_nsec=1000}, 8) = -1 EAGAIN,
 * rt_sigtimedwait([USR2], {si_signo=SIGUSR2, si_code=SI_QUEUE, si_pid=576, si_uid=0, si_int=42,
 *     si_ptr=0x2a}, {tv_sec=0, tv_nsec=1000}, 8) = 12 (SIGUSR2) */
static void test_signal_misc(void **state)
{
	static uint64_t set;
	static stack_t ss;
	static struct timespec ts = { 0, 1000 };
	static siginfo_t si;
	const char *s;

	(void)state;
	set = 0;
	assert_string_equal(dt_decode(&t, SYS_rt_sigpending, DT_ARGS(DT_PTR(&set), 8), 0, 0), "[], 8");
	assert_string_equal(dt_decode(&t, SYS_rt_sigsuspend, DT_ARGS(DT_PTR(&set), 8), -1, 514), "[], 8");
	set = 1ull << (SIGUSR2 - 1);
	s = dt_decode(&t, SYS_signalfd4, DT_ARGS((uint64_t)-1, DT_PTR(&set), 8, SFD_NONBLOCK | SFD_CLOEXEC), 3, 0);
	assert_string_equal(s, "-1, [USR2], 8, SFD_CLOEXEC|SFD_NONBLOCK");
	assert_int_equal(dec_lookup(SYS_signalfd4)->rv, RC_RV_FD);

	ss.ss_sp = (void *)0x55c6118062a0;
	ss.ss_size = 65536;
	s = dt_decode(&t, SYS_sigaltstack, DT_ARGS(DT_PTR(&ss), 0), 0, 0);
	assert_string_equal(s, "{ss_sp=0x55c6118062a0, ss_flags=0, ss_size=65536}, NULL");
	ss.ss_flags = SS_DISABLE;
	s = dt_decode(&t, SYS_sigaltstack, DT_ARGS(0, DT_PTR(&ss)), 0, 0);
	assert_string_equal(s, "NULL, {ss_sp=0x55c6118062a0, ss_flags=SS_DISABLE, ss_size=65536}");

	s = dt_decode(&t, SYS_rt_sigtimedwait, DT_ARGS(DT_PTR(&set), DT_PTR(&si), DT_PTR(&ts), 8), -1, EAGAIN);
	expect(s, "[USR2], %s, {tv_sec=0, tv_nsec=1000}, 8", hex(&si));
	si.si_signo = SIGUSR2;
	si.si_code = SI_QUEUE;
	si.si_pid = 576;
	si.si_value.sival_int = 42;
	s = dt_decode(&t, SYS_rt_sigtimedwait, DT_ARGS(DT_PTR(&set), DT_PTR(&si), DT_PTR(&ts), 8), SIGUSR2, 0);
	assert_string_equal(s, "[USR2], {si_signo=SIGUSR2, si_code=SI_QUEUE, si_pid=576, si_uid=0, si_int=42, "
			       "si_ptr=0x2a}, {tv_sec=0, tv_nsec=1000}, 8");
	assert_string_equal(strbuf_str(&t.rv_extra), "(SIGUSR2)");
	s = dt_decode(&t, SYS_rt_sigqueueinfo, DT_ARGS(576, SIGUSR2, DT_PTR(&si)), 0, 0);
	assert_string_equal(s, "576, SIGUSR2, {si_signo=SIGUSR2, si_code=SI_QUEUE, si_pid=576, si_uid=0, "
			       "si_int=42, si_ptr=0x2a}");
	/* Not our tracee: no stack pointer to read, the mask is left out. */
	assert_string_equal(dt_decode(&t, SYS_rt_sigreturn, DT_ARGS(0), 0, 0), "");
}

/*
 * Identity, credentials, limits.
 */

/* getpid() = 773, setuid(0), setresuid(-1, -1, -1), setgroups(0, NULL), getresuid([0], [0], [0]) */
static void test_creds(void **state)
{
	static unsigned ids[3] = { 0, 1000, (unsigned)-1 };
	static unsigned groups[2] = { 0, 27 };
	const char *s;

	(void)state;
	assert_string_equal(dt_decode(&t, SYS_getpid, DT_ARGS(0), 773, 0), "");
	assert_string_equal(dt_decode(&t, SYS_setuid, DT_ARGS(0), 0, 0), "0");
	assert_string_equal(dt_decode(&t, SYS_setresuid, DT_ARGS(0xffffffff, (uint64_t)-1, 1000), 0, 0),
			    "-1, -1, 1000");
	/* The ids as the parser reads them back: -1 for "unchanged". */
	assert_int_equal(t.ev.nids, 3);
	assert_int_equal(t.ev.ids[0], -1);
	assert_int_equal(t.ev.ids[2], 1000);
	assert_string_equal(dt_decode(&t, SYS_setgroups, DT_ARGS(0, 0), 0, 0), "0, NULL");
	assert_int_equal(t.ev.nids, 0);
	assert_string_equal(dt_decode(&t, SYS_setgroups, DT_ARGS(2, DT_PTR(groups)), 0, 0), "2, [0, 27]");
	assert_int_equal(t.ev.nids, 2);
	assert_int_equal(t.ev.ids[1], 27);
	assert_string_equal(dt_decode(&t, SYS_getgroups, DT_ARGS(32, DT_PTR(groups)), 2, 0), "32, [0, 27]");
	assert_int_equal(t.ev.nids, 2);
	assert_false(t.ev.ids_truncated);
	s = dt_decode(&t, SYS_getresuid, DT_ARGS(DT_PTR(&ids[0]), DT_PTR(&ids[1]), DT_PTR(&ids[2])), 0, 0);
	assert_string_equal(s, "[0], [1000], [-1]");
	assert_string_equal(dt_decode(&t, SYS_setpgid, DT_ARGS(0, 0), 0, 0), "0, 0");
	assert_string_equal(dt_decode(&t, SYS_getpgid, DT_ARGS(1234), 1234, 0), "1234");
}

/* setgroups(40, [1, 2, ..., 40]) with -s 64, and with -s 32: the event
 * keeps RC_EVENT_MAX_IDS of them and marks the list cut, whether the cap
 * or strace's -s cut it; the parser reads the same back. */
static void test_groups_cap(void **state)
{
	static unsigned groups[40];
	const struct rc_event *p;

	(void)state;
	for (unsigned i = 0; i < 40; i++)
		groups[i] = i + 1;
	t.opts.strsize = 64;
	dt_decode(&t, SYS_setgroups, DT_ARGS(40, DT_PTR(groups)), 0, 0);
	assert_int_equal(t.ev.nids, RC_EVENT_MAX_IDS);
	assert_int_equal(t.ev.ids[RC_EVENT_MAX_IDS - 1], RC_EVENT_MAX_IDS);
	assert_true(t.ev.ids_truncated);
	p = dt_parse(&t);
	assert_int_equal(p->nids, RC_EVENT_MAX_IDS);
	assert_int_equal(p->ids[RC_EVENT_MAX_IDS - 1], RC_EVENT_MAX_IDS);
	assert_true(p->ids_truncated);
	t.opts.strsize = 32;
	assert_non_null(strstr(dt_decode(&t, SYS_setgroups, DT_ARGS(40, DT_PTR(groups)), 0, 0), ", 32, ...]"));
	assert_int_equal(t.ev.nids, 32);
	assert_true(t.ev.ids_truncated);
	p = dt_parse(&t);
	assert_int_equal(p->nids, 32);
	assert_true(p->ids_truncated);
}

/* prlimit64(0, RLIMIT_STACK, NULL, {rlim_cur=8192*1024, rlim_max=RLIM64_INFINITY}) = 0
 * prlimit64(0, RLIMIT_NOFILE, {rlim_cur=20000, rlim_max=20000}, NULL) = 0 */
static void test_rlimit(void **state)
{
	static uint64_t lim[2];
	const char *s;

	(void)state;
	lim[0] = 8192 * 1024;
	lim[1] = UINT64_MAX;
	s = dt_decode(&t, SYS_prlimit64, DT_ARGS(0, RLIMIT_STACK, 0, DT_PTR(lim)), 0, 0);
	assert_string_equal(s, "0, RLIMIT_STACK, NULL, {rlim_cur=8192*1024, rlim_max=RLIM64_INFINITY}");
	lim[0] = lim[1] = 20000;
	s = dt_decode(&t, SYS_prlimit64, DT_ARGS(0, RLIMIT_NOFILE, DT_PTR(lim), 0), 0, 0);
	assert_string_equal(s, "0, RLIMIT_NOFILE, {rlim_cur=20000, rlim_max=20000}, NULL");
	s = dt_decode(&t, SYS_getrlimit, DT_ARGS(RLIMIT_CORE, DT_PTR(lim)), 0, 0);
	assert_string_equal(s, "RLIMIT_CORE, {rlim_cur=20000, rlim_max=20000}");
	s = dt_decode(&t, SYS_getrlimit, DT_ARGS(99, DT_PTR(lim)), -1, EINVAL);
	expect(s, "0x63 /* RLIMIT_??? */, %s", hex(lim));
}

/* prctl(PR_SET_NAME, "abc"), prctl(PR_GET_DUMPABLE) = 1 (SUID_DUMP_USER),
 * prctl(PR_SET_PDEATHSIG, SIGKILL), arch_prctl(ARCH_SET_FS, 0x7f457c749740),
 * arch_prctl(ARCH_GET_FS, [0x7f457c749740]) */
static void test_prctl(void **state)
{
	static char name[16] = "worker";
	static uint64_t fs = 0x7f457c749740;
	static int sig = SIGTERM;
	const char *s;

	(void)state;
	assert_string_equal(dt_decode(&t, SYS_prctl, DT_ARGS(PR_SET_NAME, DT_PTR("abc")), 0, 0),
			    "PR_SET_NAME, \"abc\"");
	assert_string_equal(dt_decode(&t, SYS_prctl, DT_ARGS(PR_GET_NAME, DT_PTR(name)), 0, 0),
			    "PR_GET_NAME, \"worker\"");
	assert_string_equal(dt_decode(&t, SYS_prctl, DT_ARGS(PR_GET_DUMPABLE), 1, 0), "PR_GET_DUMPABLE");
	assert_string_equal(strbuf_str(&t.rv_extra), "(SUID_DUMP_USER)");
	assert_string_equal(dt_decode(&t, SYS_prctl, DT_ARGS(PR_SET_PDEATHSIG, SIGKILL), 0, 0),
			    "PR_SET_PDEATHSIG, SIGKILL");
	assert_string_equal(dt_decode(&t, SYS_prctl, DT_ARGS(PR_GET_PDEATHSIG, DT_PTR(&sig)), 0, 0),
			    "PR_GET_PDEATHSIG, [SIGTERM]");
	assert_string_equal(dt_decode(&t, SYS_prctl, DT_ARGS(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0, 0),
			    "PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0");
	assert_string_equal(dt_decode(&t, SYS_prctl, DT_ARGS(PR_CAPBSET_READ, 21), 1, 0),
			    "PR_CAPBSET_READ, CAP_SYS_ADMIN");
	/* An option strace does not decode: its arguments in hex. */
	s = dt_decode(&t, SYS_prctl, DT_ARGS(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0), 0, 0);
	assert_string_equal(s, "PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0");
	s = dt_decode(&t, SYS_prctl, DT_ARGS(0x12345, 1, 2, 3, 4), -1, EINVAL);
	assert_string_equal(s, "0x12345 /* PR_??? */, 0x1, 0x2, 0x3, 0x4");

	assert_string_equal(dt_decode(&t, SYS_arch_prctl, DT_ARGS(ARCH_SET_FS, fs), 0, 0),
			    "ARCH_SET_FS, 0x7f457c749740");
	assert_string_equal(dt_decode(&t, SYS_arch_prctl, DT_ARGS(ARCH_GET_FS, DT_PTR(&fs)), 0, 0),
			    "ARCH_GET_FS, [0x7f457c749740]");
}

/* sched_getaffinity(0, 128, [0 1]) = 32, getrandom("\x6f\xa7\xc9\xd5\xd3\xba\x16\x21", 8, 0) = 8,
 * personality(0xffffffff) = 0 (PER_LINUX), uname({sysname="Linux", nodename="vm", ...}) = 0,
 * pidfd_open(31024, 0) = 3, set_robust_list(0x7f457c749a20, 24) = 0,
 * set_tid_address(0x7f457c749a10) = 31024, rseq(0x7f2276362060, 0x20, 0, 0x53053053) = 0 */
static void test_process_misc(void **state)
{
	static unsigned char mask[128];
	static unsigned char rnd[8] = { 0x6f, 0xa7, 0xc9, 0xd5, 0xd3, 0xba, 0x16, 0x21 };
	static unsigned char big[40];
	static struct utsname u;
	const char *s;

	(void)state;
	mask[0] = 3;
	assert_string_equal(dt_decode(&t, SYS_sched_getaffinity, DT_ARGS(0, 128, DT_PTR(mask)), 32, 0),
			    "0, 128, [0 1]");
	assert_string_equal(dt_decode(&t, SYS_getrandom, DT_ARGS(DT_PTR(rnd), 8, 0), 8, 0),
			    "\"\\x6f\\xa7\\xc9\\xd5\\xd3\\xba\\x16\\x21\", 8, 0");
	s = dt_decode(&t, SYS_getrandom, DT_ARGS(DT_PTR(big), 40, GRND_NONBLOCK), 40, 0);
	assert_int_equal(strlen(s), 1 + 32 * 4 + 1 + 3 + strlen(", 40, GRND_NONBLOCK"));
	assert_non_null(strstr(s, "\"..., 40, GRND_NONBLOCK"));
	s = dt_decode(&t, SYS_getrandom, DT_ARGS(DT_PTR(big), 40, GRND_NONBLOCK), -1, EAGAIN);
	expect(s, "%s, 40, GRND_NONBLOCK", hex(big));

	assert_string_equal(dt_decode(&t, SYS_personality, DT_ARGS(0xffffffff), 0, 0), "0xffffffff");
	assert_string_equal(strbuf_str(&t.rv_extra), "(PER_LINUX)");
	assert_string_equal(dt_decode(&t, SYS_personality, DT_ARGS(ADDR_NO_RANDOMIZE), 0x400000, 0),
			    "PER_LINUX|ADDR_NO_RANDOMIZE");
	assert_string_equal(strbuf_str(&t.rv_extra), "(PER_LINUX|READ_IMPLIES_EXEC)");

	strcpy(u.sysname, "Linux");
	strcpy(u.nodename, "vm");
	assert_string_equal(dt_decode(&t, SYS_uname, DT_ARGS(DT_PTR(&u)), 0, 0),
			    "{sysname=\"Linux\", nodename=\"vm\", ...}");
	assert_string_equal(dt_decode(&t, SYS_pidfd_open, DT_ARGS(31024, 0), 3, 0), "31024, 0");
	assert_string_equal(dt_decode(&t, SYS_set_robust_list, DT_ARGS(0x7f457c749a20, 24), 0, 0),
			    "0x7f457c749a20, 24");
	assert_string_equal(dt_decode(&t, SYS_set_tid_address, DT_ARGS(0x7f457c749a10), 31024, 0),
			    "0x7f457c749a10");
	assert_string_equal(dt_decode(&t, SYS_rseq, DT_ARGS(0x7f2276362060, 0x20, 0, 0x53053053), 0, 0),
			    "0x7f2276362060, 0x20, 0, 0x53053053");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_execve),
		cmocka_unit_test(test_execveat),
		cmocka_unit_test(test_clone_fork),
		cmocka_unit_test(test_clone_thread),
		cmocka_unit_test(test_clone3),
		cmocka_unit_test(test_unshare_setns),
		cmocka_unit_test(test_exit),
		cmocka_unit_test(test_wait4),
		cmocka_unit_test(test_wait4_rusage),
		cmocka_unit_test(test_waitid),
		cmocka_unit_test(test_kill),
		cmocka_unit_test(test_signame),
		cmocka_unit_test(test_siginfo),
		cmocka_unit_test(test_siginfo_real),
		cmocka_unit_test(test_rt_sigaction),
		cmocka_unit_test(test_rt_sigprocmask),
		cmocka_unit_test(test_signal_misc),
		cmocka_unit_test(test_creds),
		cmocka_unit_test(test_groups_cap),
		cmocka_unit_test(test_rlimit),
		cmocka_unit_test(test_prctl),
		cmocka_unit_test(test_process_misc),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
