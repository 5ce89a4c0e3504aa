/* The strace log parser against real logs made by the machine's strace 6.1
 * (tests/fixtures/strace/, each with the command that made it in a .cmd
 * file) and against single lines copied from such logs. Lines that only
 * strace 7.x or rare kernels print are marked as written from strace's
 * source instead. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "harness.h"
#include "event/event.h"
#include "event/stack.h"
#include "rules/rule.h"
#include "strace/parser.h"
#include "util/strbuf.h"
#include "util/util.h"

#define FIX SOURCE_ROOT "/tests/fixtures/strace/"

static struct strace_parser *P;
static struct rc_event E;
static struct strbuf Err = STRBUF_INIT;

/* The text of the decoration F was read from (NULL: none shown). */
static const char *shown_text(const struct rc_fdfacts *f)
{
	return f ? f->desc : NULL;
}

static void open_buf(const char *s)
{
	P = strace_parser_from_buffer(s, strlen(s));
}

static void open_files(const char *const *files, size_t n)
{
	strbuf_reset(&Err);
	assert_int_equal(strace_parser_open(&P, files, n, &Err), 0);
}

static void open_fixture(const char *name)
{
	char path[512];
	const char *files[1] = { path };

	snprintf(path, sizeof(path), FIX "%s", name);
	open_files(files, 1);
}

static void done(void)
{
	strace_parser_free(P);
	P = NULL;
	strbuf_release(&Err);
}

static int next(void)
{
	return strace_parser_next(P, &E, &Err);
}

/* The next syscall event named NAME; fails the test at the end. */
static void find(const char *name)
{
	while (next() == 1)
		if (E.kind == RC_EV_SYSCALL && strcmp(E.name, name) == 0)
			return;
	fail_msg("no '%s' event", name);
}

/* The next event of kind K. */
static void find_kind(enum rc_event_kind k)
{
	while (next() == 1)
		if (E.kind == k)
			return;
	fail_msg("no event of kind %d", k);
}

/* The next syscall named NAME whose line contains NEEDLE. */
static void find_line(const char *name, const char *needle)
{
	while (next() == 1)
		if (E.kind == RC_EV_SYSCALL && strcmp(E.name, name) == 0 && strstr(E.line, needle))
			return;
	fail_msg("no '%s' event with '%s'", name, needle);
}

static void drain(void)
{
	while (next() == 1)
		;
}

/* One line: the single event it makes. */
static void one(const char *line)
{
	open_buf(line);
	assert_int_equal(next(), 1);
}

/* ---- file calls, -y decorations, returns ---- */

static void test_file_calls(void **state)
{
	open_fixture("sh-missing.log");
	find("execve");
	assert_int_equal(E.pid, 10651);
	assert_int_equal(E.nr, SYS_execve);
	assert_string_equal(E.path, "/usr/bin/sh");
	assert_int_equal(E.argc, 3);
	assert_string_equal(E.argv[2], "cat /nonexistent; ls /nope");
	assert_false(E.argv_truncated);
	assert_true(E.ret_known);
	assert_int_equal(E.ret, 0);
	assert_true(E.dur > 0.000593 && E.dur < 0.000595);
	/* -tt: seconds since midnight */
	assert_true(E.ts > 57288.8058 && E.ts < 57288.8059);

	find("access");
	assert_string_equal(E.path, "/etc/ld.so.preload");
	assert_int_equal(E.ret, -1);
	assert_int_equal(E.err, ENOENT);
	assert_false(E.interrupted);

	find("openat");
	assert_int_equal(E.nr, SYS_openat);
	assert_int_equal(E.dirfd, RC_AT_FDCWD);
	assert_string_equal(shown_text(E.dir_shown), "/tmp/fixture");
	assert_string_equal(E.path, "/etc/ld.so.cache");
	assert_int_equal(E.flags, O_RDONLY | O_CLOEXEC);
	assert_int_equal(E.ret, 3);
	/* the returned fd's decoration */
	assert_string_equal(shown_text(E.fd_shown), "/etc/ld.so.cache");
	assert_string_equal(E.line, "10651 15:54:48.807585 openat(AT_FDCWD</tmp/fixture>, "
			    "\"/etc/ld.so.cache\", O_RDONLY|O_CLOEXEC) = 3</etc/ld.so.cache> <0.000022>");
	assert_int_equal(E.line_len, strlen(E.line));

	find("newfstatat");
	assert_int_equal(E.dirfd, 3);
	assert_int_equal(E.fd, 3);
	assert_string_equal(shown_text(E.fd_shown), "/etc/ld.so.cache");
	assert_int_equal(E.st_size, 59283);

	find("mmap");
	assert_int_equal(E.fd, 3);
	assert_int_equal(E.len, 59283);
	assert_int_equal(E.mode, PROT_READ);
	assert_int_equal(E.flags, MAP_PRIVATE);
	assert_int_equal(E.addr, 0x7f3e2807f000ULL);
	assert_int_equal(E.offset, 0);

	find("read");
	assert_int_equal(E.fd, 3);
	assert_string_equal(shown_text(E.fd_shown), "/usr/lib/x86_64-linux-gnu/libc.so.6");
	assert_int_equal(E.len, 832);
	assert_null(E.data);	/* previews are for data written or sent */

	find("pread64");
	assert_int_equal(E.len, 784);
	assert_int_equal(E.offset, 64);

	find_line("openat", "/nonexistent");
	assert_int_equal(E.err, ENOENT);
	assert_string_equal(E.path, "/nonexistent");
	find_line("statx", "/nope");
	assert_int_equal(E.err, ENOENT);
	assert_string_equal(E.path, "/nope");
	drain();
	const struct strace_stats *st = strace_parser_stats(P);
	assert_int_equal(st->skipped, 0);
	assert_int_equal(st->unmatched, 0);
	assert_int_equal(st->lines, 361);
	assert_int_equal(st->events, 355);	/* six calls were split in two lines */
	done();
}

static void test_io_calls(void **state)
{
	open_fixture("helper-io.log");
	find_line("openat", "rootcause-fixture-io");
	assert_int_equal(E.flags, O_RDWR | O_CREAT | O_TRUNC);
	assert_int_equal(E.mode, 0640);

	find("writev");
	assert_int_equal(E.fd, 3);
	assert_int_equal(E.len, 9);
	assert_int_equal(E.data_len, 9);
	assert_memory_equal(E.data, "abc\n\t\1xyz", 9);
	assert_false(E.data_truncated);

	find("pwrite64");
	assert_int_equal(E.len, 6);
	assert_int_equal(E.offset, 100);
	assert_memory_equal(E.data, "hello\n", 6);

	find("readv");
	assert_int_equal(E.err, EFAULT);
	assert_int_equal(E.len, 3);

	find("ftruncate");
	assert_int_equal(E.len, 12345);
	find("dup2");
	assert_int_equal(E.fd, 3);
	assert_int_equal(E.fd2, 9);
	find_line("fcntl", "FD_CLOEXEC)");
	find_line("fcntl", "(flags FD_CLOEXEC)");
	assert_int_equal(E.ret, 1);
	assert_int_equal(E.fd, 9);
	assert_int_equal(E.fd2, -1);

	find("truncate");
	assert_string_equal(E.path, "/tmp/rootcause-fixture-io");
	assert_int_equal(E.len, 42);

	find("openat2");
	assert_int_equal(E.nr, SYS_openat2);
	assert_int_equal(E.flags, O_RDONLY | O_CLOEXEC);
	assert_string_equal(E.path, "/tmp/rootcause-fixture-io");

	find("rename");
	assert_string_equal(E.path, "/tmp/rootcause-fixture-io");
	assert_string_equal(E.path2, "/tmp/rootcause-fixture-io2");
	find("symlink");
	assert_string_equal(E.path, "/tmp/rootcause-fixture-ln");
	assert_string_equal(E.path2, "/tmp/rootcause-fixture-io2");
	find("link");
	assert_string_equal(E.path2, "/tmp/rootcause-fixture-hard");
	find("mkdir");
	assert_int_equal(E.err, ENOENT);
	assert_int_equal(E.mode, 0755);

	/* -yy nested decoration: 3</dev/null<char 1:3>> */
	find("write");
	assert_string_equal(shown_text(E.fd_shown), "/dev/null");
	assert_int_equal(E.len, 600);
	assert_int_equal(E.data_len, 32);
	assert_true(E.data_truncated);
	assert_memory_equal(E.data, "AAAAAAAAAA\0AAAAAAAAA\"AAAAAAAAA\\A", 32);
	done();
}

/* F_DUPFD makes a copy, as dup does: its new fd is fd2 (bash saves stderr
 * so before a redirection, and puts it back with dup2). */
static void test_fcntl_dupfd(void **state)
{
	(void)state;
	one("4586  09:42:44.883297 fcntl(2</tmp/rcfix/run.out>, F_DUPFD, 10) = 11</tmp/rcfix/run.out> <0.000007>\n");
	assert_int_equal(E.fd, 2);
	assert_int_equal(E.fd2, 11);
	assert_int_equal(E.flags & O_CLOEXEC, 0);
	done();
	one("4586  fcntl(1, F_DUPFD_CLOEXEC, 3) = 4\n");
	assert_int_equal(E.fd2, 4);
	assert_int_equal(E.flags & O_CLOEXEC, O_CLOEXEC);
	done();
	one("4586  fcntl(1, F_DUPFD, 10) = -1 EMFILE (Too many open files)\n");
	assert_int_equal(E.fd2, -1);
	done();
	one("4586  fcntl(11, F_SETFD, FD_CLOEXEC) = 0\n");
	assert_int_equal(E.fd2, -1);
	done();
}

static void test_hex_and_raw(void **state)
{
	/* -ttt -x: epoch times, \x escapes */
	open_fixture("ttt-x.log");
	find("execve");
	assert_true(E.ts > 1795967691.37 && E.ts < 1795967691.38);
	find("writev");
	assert_memory_equal(E.data, "abc\n\t\1xyz", 9);
	find("write");
	assert_int_equal(E.data_len, 32);
	assert_int_equal(E.data[10], '\0');
	done();

	/* -X raw: numbers where names were */
	open_fixture("raw.log");
	find("access");
	assert_int_equal(E.mode, 4);
	assert_int_equal(E.err, ENOENT);
	find("openat");
	assert_int_equal(E.dirfd, RC_AT_FDCWD);
	assert_int_equal(E.flags, O_RDONLY | O_CLOEXEC);
	find_line("mmap", "0x3, 0x22");
	assert_int_equal(E.mode, PROT_READ | PROT_WRITE);
	assert_int_equal(E.flags, MAP_PRIVATE | MAP_ANONYMOUS);
	done();

	/* -xx (strace -xx -f -o x sh -c true) and -X verbose */
	one("6354  execve(\"\\x2f\\x75\\x73\\x72\\x2f\\x62\\x69\\x6e\\x2f\\x73\\x68\", [\"\\x73\\x68\", "
	    "\"\\x2d\\x63\", \"\\x74\\x72\\x75\\x65\"], 0x7ffe3fd2d830 /* 41 vars */) = 0\n");
	assert_string_equal(E.path, "/usr/bin/sh");
	assert_string_equal(E.argv[1], "-c");
	done();
	one("6340  openat(-100 /* AT_FDCWD */, \"/etc/ld.so.cache\", 0x80000 /* O_RDONLY|O_CLOEXEC */) = 3\n");
	assert_int_equal(E.dirfd, RC_AT_FDCWD);
	assert_int_equal(E.flags, O_CLOEXEC);
	done();
	one("6340  mmap(NULL, 8192, 0x3 /* PROT_READ|PROT_WRITE */, 0x22 /* MAP_PRIVATE|MAP_ANONYMOUS */, -1, 0) = 0x7f64d939a000\n");
	assert_int_equal(E.mode, PROT_READ | PROT_WRITE);
	assert_int_equal(E.flags, MAP_PRIVATE | MAP_ANONYMOUS);
	assert_int_equal(E.fd, -1);
	assert_int_equal(E.addr, 0x7f64d939a000ULL);
	done();
}

static void test_return_forms(void **state)
{
	/* strace -e inject=openat:error=531:when=3 / retval=42 */
	one("openat(AT_FDCWD, \"/usr/lib/locale/locale-archive\", O_RDONLY|O_CLOEXEC) = -1 (errno 531) (INJECTED)\n");
	assert_int_equal(E.ret, -1);
	assert_int_equal(E.err, 531);
	done();
	one("openat(AT_FDCWD, \"/usr/lib/locale/locale-archive\", O_RDONLY|O_CLOEXEC) = 42 (INJECTED)\n");
	assert_int_equal(E.ret, 42);
	assert_int_equal(E.err, 0);
	assert_int_equal(E.pid, 0);
	assert_true(E.ts < 0);
	done();

	/* a read interrupted by a signal with a handler */
	open_fixture("erestart.log");
	find_line("read", "ERESTARTSYS");
	/* It did end, as our tracer reports it: cut short, not "never returned". */
	assert_true(E.ret_known);
	assert_true(E.interrupted);
	assert_int_equal(E.err, 512);
	assert_false(event_failed(&E));
	assert_true(E.dur > 0.2);
	find_kind(RC_EV_SIGNAL);
	assert_int_equal(E.signo, SIGALRM);
	assert_int_equal(E.si_code, SI_KERNEL);
	find("rt_sigreturn");
	assert_int_equal(E.err, EINTR);
	done();

	/* written from strace's syscall.c: the return of an unknown state */
	one("1234  read(3, 0x7ffc, 10) = ? <unavailable>\n");
	assert_false(E.ret_known);
	assert_int_equal(E.err, 0);
	done();

	/* = 0 (Timeout), aux text, padding before '=' */
	open_fixture("helper-select.log");
	find_line("pselect6", "Timeout");
	assert_int_equal(E.ret, 0);
	assert_int_equal(E.timeout_ms, 200);
	assert_int_equal(E.nfds, 1);
	assert_int_equal(E.fds[0], 3);
	done();

	one("6170  15:49:44.711238 getuid()          = 0 <0.000020>\n");
	assert_int_equal(E.nr, SYS_getuid);
	assert_true(E.dur > 0.0000199 && E.dur < 0.0000201);
	done();

	/* big unsigned returns and hex */
	one("10399 brk(NULL)         = 0x556dafbbb000\n");
	assert_int_equal(E.ret, 0x556dafbbb000LL);
	done();

	/* an unknown syscall name is still an event */
	one("1234  syscall_0x1b6(0x1, 0x2) = -1 ENOSYS (Function not implemented)\n");
	assert_int_equal(E.nr, -1);
	assert_string_equal(E.name, "syscall_0x1b6");
	assert_int_equal(E.err, ENOSYS);
	done();
}

/* ---- split calls ---- */

static void test_unfinished_resumed(void **state)
{
	open_fixture("helper-futex.log");
	/* "clock_nanosleep(..., {tv_sec=0, tv_nsec=50000000},  <unfinished ...>"
	 * and "<... clock_nanosleep resumed>NULL) = 0 <0.050369>" */
	find("clock_nanosleep");
	assert_int_equal(E.pid, 10702);
	assert_true(E.ts > 57289.38805 && E.ts < 57289.38806);	/* from the start */
	assert_true(E.dur > 0.050368 && E.dur < 0.05037);	/* from the resumed half */
	/* the halves joined: "..., {tv_sec=0, tv_nsec=50000000},  <unfinished ...>"
	 * keeps its two spaces before the resumed text */
	assert_string_equal(E.line, "10702 15:54:49.388058 clock_nanosleep(CLOCK_REALTIME, 0, "
			    "{tv_sec=0, tv_nsec=50000000}, NULL) = 0 <0.050369>");
	done();
}

static void test_unfinished_line_text(void **state)
{
	/* The split can fall inside any argument. */
	open_buf("10441 15:54:27.591268 rt_sigprocmask(SIG_SETMASK, [],  <unfinished ...>\n"
		 "10442 15:54:27.591269 read(3,  <unfinished ...>\n"
		 "10441 15:54:27.591299 <... rt_sigprocmask resumed>NULL, 8) = 0 <0.000031>\n"
		 "10442 15:54:27.591300 <... read resumed>\"abc\", 10) = 3 <0.5>\n"
		 "10443 15:54:27.6 openat(AT_FDCWD, \"/x\", O_RDONLY <unfinished ...>\n"
		 "10443 15:54:27.7 <... openat resumed>) = -1 ENOENT (No such file or directory) <0.1>\n");
	assert_int_equal(next(), 1);
	assert_string_equal(E.name, "rt_sigprocmask");
	assert_string_equal(E.line, "10441 15:54:27.591268 rt_sigprocmask(SIG_SETMASK, [], NULL, 8) = 0 <0.000031>");
	assert_int_equal(next(), 1);
	assert_string_equal(E.name, "read");
	assert_int_equal(E.pid, 10442);
	assert_int_equal(E.fd, 3);
	assert_int_equal(E.len, 10);
	assert_int_equal(E.ret, 3);
	assert_true(E.dur == 0.5);
	assert_int_equal(next(), 1);
	assert_string_equal(E.path, "/x");
	assert_int_equal(E.flags, O_RDONLY);
	assert_int_equal(E.err, ENOENT);
	assert_string_equal(E.line, "10443 15:54:27.6 openat(AT_FDCWD, \"/x\", O_RDONLY) = -1 ENOENT "
			    "(No such file or directory) <0.1>");
	assert_int_equal(next(), 0);
	assert_int_equal(strace_parser_stats(P)->unmatched, 0);
	done();
}

static void test_never_resumed(void **state)
{
	/* a call in progress when the process was killed, one still blocked
	 * at the end of the log, and a resumed call whose start is missing */
	open_buf("100 futex(0x5, FUTEX_WAIT_PRIVATE, 0, NULL <unfinished ...>\n"
		 "101 read(0,  <unfinished ...>\n"
		 "100 +++ killed by SIGKILL +++\n"
		 "102 <... poll resumed>) = 0 (Timeout) <2.5>\n"
		 "103 <... ??? resumed>) = 0\n");
	assert_int_equal(next(), 1);
	assert_string_equal(E.name, "futex");
	assert_int_equal(E.pid, 100);
	assert_false(E.ret_known);
	assert_int_equal(E.futex_op, FUTEX_WAIT);
	assert_int_equal(E.addr, 5);
	assert_string_equal(E.line, "100 futex(0x5, FUTEX_WAIT_PRIVATE, 0, NULL <unfinished ...>");
	assert_int_equal(next(), 1);
	assert_int_equal(E.kind, RC_EV_EXIT);
	assert_int_equal(E.pid, 100);
	assert_int_equal(E.signo, SIGKILL);
	assert_int_equal(next(), 1);
	assert_string_equal(E.name, "poll");
	assert_int_equal(E.pid, 102);
	assert_int_equal(E.ret, 0);
	assert_true(E.dur == 2.5);
	assert_int_equal(next(), 1);
	assert_string_equal(E.name, "read");
	assert_int_equal(E.pid, 101);
	assert_int_equal(E.fd, 0);
	assert_false(E.ret_known);
	assert_int_equal(next(), 0);
	assert_int_equal(strace_parser_stats(P)->unmatched, 4);
	done();
}

static void test_detached_and_exec_thread(void **state)
{
	open_fixture("detached.log");
	assert_int_equal(next(), 1);
	assert_string_equal(E.name, "restart_syscall");
	assert_false(E.ret_known);
	assert_int_equal(strace_parser_stats(P)->unmatched, 1);
	assert_int_equal(next(), 0);
	done();

	/* a non-leader thread execs: its call resumes in the leader's pid */
	open_fixture("helper-texec.log");
	find("pause");
	assert_false(E.ret_known);
	find("execve");
	assert_int_equal(E.pid, 10798);
	assert_string_equal(E.path, "/bin/true");
	assert_int_equal(E.ret, 0);
	assert_non_null(strstr(E.line, "10799 "));
	find_kind(RC_EV_EXIT);
	assert_int_equal(E.pid, 10798);
	assert_int_equal(strace_parser_stats(P)->unmatched, 0);
	done();

	/* -ff: the thread's file ends with "<pid changed to N ...>", the
	 * leader's file resumes it (written from strace.c's format) */
	open_buf("200 execve(\"/bin/true\", [\"true\"], 0x7ffd /* 41 vars */ <pid changed to 100 ...>\n"
		 "100 +++ superseded by execve in pid 200 +++\n"
		 "100 <... execve resumed>) = 0\n");
	assert_int_equal(next(), 1);
	assert_string_equal(E.name, "execve");
	assert_int_equal(E.pid, 100);
	assert_int_equal(E.ret, 0);
	assert_string_equal(E.path, "/bin/true");
	assert_int_equal(next(), 0);
	assert_int_equal(strace_parser_stats(P)->unmatched, 0);
	done();
}

/* ---- signals and exits ---- */

static void test_signals_exits(void **state)
{
	open_fixture("helper-segv.log");
	find_kind(RC_EV_SIGNAL);
	assert_int_equal(E.signo, SIGSEGV);
	assert_int_equal(E.si_code, SEGV_MAPERR);
	assert_true(E.has_fault_addr);
	assert_int_equal(E.fault_addr, 0x10);
	find_kind(RC_EV_EXIT);
	assert_false(E.exited);
	assert_int_equal(E.signo, SIGSEGV);
	assert_true(E.core_dumped);
	done();

	open_fixture("helper-bus.log");
	find_line("mmap", "MAP_SHARED");
	assert_int_equal(E.flags, MAP_SHARED);
	assert_int_equal(E.len, 8192);
	find_kind(RC_EV_SIGNAL);
	assert_int_equal(E.signo, SIGBUS);
	assert_int_equal(E.si_code, BUS_ADRERR);
	find_kind(RC_EV_EXIT);
	assert_int_equal(E.signo, SIGBUS);
	assert_false(E.core_dumped);
	done();

	open_fixture("helper-stop.log");
	find_kind(RC_EV_SIGNAL);
	assert_int_equal(E.signo, SIGTSTP);
	assert_int_equal(E.si_code, SI_TKILL);
	assert_int_equal(E.sender_pid, 10770);
	find_kind(RC_EV_SIGNAL);	/* --- stopped by SIGTSTP --- */
	assert_int_equal(E.signo, SIGTSTP);
	assert_false(E.has_fault_addr);
	find_kind(RC_EV_SIGNAL);
	assert_int_equal(E.signo, SIGCONT);
	assert_int_equal(E.si_code, SI_USER);
	done();

	open_fixture("helper-wait.log");
	find("clone");
	assert_int_equal(E.ret, 10733);
	assert_int_equal(E.flags & 0xff, SIGCHLD);
	assert_true(E.flags & 0x01000000);	/* CLONE_CHILD_SETTID */
	find("exit_group");
	assert_int_equal(E.pid, 10733);
	assert_false(E.ret_known);
	assert_int_equal(E.exit_code, 3);
	find_kind(RC_EV_EXIT);
	assert_true(E.exited);
	assert_int_equal(E.exit_code, 3);
	find("wait4");
	assert_int_equal(E.ret, 10733);
	assert_int_equal(E.exit_code, 3);
	find_kind(RC_EV_SIGNAL);
	assert_int_equal(E.signo, SIGCHLD);
	assert_int_equal(E.si_code, CLD_EXITED);
	assert_int_equal(E.sender_pid, 10733);
	find("tgkill");
	assert_false(E.ret_known);
	find_kind(RC_EV_EXIT);
	assert_int_equal(E.signo, SIGKILL);
	find("wait4");
	assert_int_equal(E.signo, SIGKILL);
	find_kind(RC_EV_EXIT);
	assert_int_equal(E.pid, 10732);
	assert_int_equal(E.exit_code, 1);
	done();
}

/* ---- memory, futex, process ---- */

static void test_memory_futex(void **state)
{
	open_fixture("helper-mem.log");
	find_line("mmap", "1048576");
	assert_int_equal(E.addr, 0x7f96d65fe000ULL);
	assert_int_equal(E.len, 1048576);
	assert_int_equal(E.fd, -1);
	find("mremap");
	assert_int_equal(E.addr, 0x7f96d65fe000ULL);
	assert_int_equal(E.len, 4194304);
	assert_int_equal(E.flags, MREMAP_MAYMOVE);
	find("munmap");
	assert_int_equal(E.addr, 0x7f96d6000000ULL);
	assert_int_equal(E.len, 4194304);
	find_line("brk", "brk(0x");
	assert_int_equal(E.addr, 0x5636f20c6000ULL);
	done();

	/* a failed mmap keeps the requested address */
	one("1 mmap(0x1000, 70368744177664, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED, -1, 0) = -1 ENOMEM (Cannot allocate memory)\n");
	assert_int_equal(E.addr, 0x1000);
	assert_int_equal(E.err, ENOMEM);
	done();

	open_fixture("helper-futex.log");
	find("clone3");
	assert_int_equal(E.ret, 10705);
	assert_true(E.flags & 0x00010000);	/* CLONE_THREAD */
	assert_true(E.flags & 0x00000100);	/* CLONE_VM */
	find_line("futex", "FUTEX_CLOCK_REALTIME, 2");
	/* absolute CLOCK_REALTIME deadline 100 ms after the call, -tt clock */
	assert_int_equal(E.futex_op, FUTEX_WAIT_BITSET);
	assert_int_equal(E.err, ETIMEDOUT);
	assert_true(E.timeout_ms >= 99 && E.timeout_ms <= 101);
	find("futex");
	assert_int_equal(E.futex_op, FUTEX_WAIT);
	assert_int_equal(E.timeout_ms, 100);
	assert_int_equal(E.addr, 0x7fff9ee77e5cULL);
	/* the other thread's wake comes out before the waiter's call, which
	 * is only complete when its "resumed" half arrives */
	find("futex");
	assert_int_equal(E.futex_op, FUTEX_WAKE);
	assert_int_equal(E.pid, 10705);
	find("futex");
	assert_int_equal(E.futex_op, FUTEX_WAIT_BITSET);
	assert_int_equal(E.timeout_ms, -1);	/* NULL: no timeout */
	assert_int_equal(E.pid, 10702);
	assert_true(E.dur > 0.049 && E.dur < 0.05);
	find("futex");
	/* a CLOCK_MONOTONIC deadline cannot be related to the log's clock */
	assert_int_equal(E.futex_op, FUTEX_WAIT_BITSET);
	assert_int_equal(E.timeout_ms, -1);
	assert_int_equal(E.err, ETIMEDOUT);
	done();
}

/* ---- network ---- */

static void test_network(void **state)
{
	open_fixture("net.log");
	find("socket");
	assert_int_equal(E.sa.family, AF_INET);
	assert_int_equal(E.flags, SOCK_STREAM | SOCK_CLOEXEC);
	assert_int_equal(E.mode, 0);
	assert_string_equal(shown_text(E.fd_shown), "TCP:[19723]");
	find("bind");
	assert_string_equal(E.sa.host, "127.0.0.1");
	assert_int_equal(E.sa.port, 0);

	/* blocking connect refused */
	find("connect");
	assert_int_equal(E.fd, 3);
	assert_int_equal(E.err, ECONNREFUSED);
	assert_int_equal(E.sa.family, AF_INET);
	assert_string_equal(E.sa.host, "127.0.0.1");
	assert_int_equal(E.sa.port, 36503);

	/* non-blocking: EINPROGRESS, poll, getsockopt(SO_ERROR) */
	find("connect");
	assert_int_equal(E.err, EINPROGRESS);
	find("poll");
	assert_int_equal(E.nfds, 1);
	assert_int_equal(E.fds[0], 3);
	assert_int_equal(E.timeout_ms, 2500);
	assert_int_equal(E.ret, 1);
	find("getsockopt");
	assert_int_equal(E.sockopt_level, SOL_SOCKET);
	assert_int_equal(E.sockopt_name, SO_ERROR);
	assert_int_equal(E.sockopt_value, ECONNREFUSED);

	find("connect");
	assert_int_equal(E.sa.family, AF_INET6);
	assert_string_equal(E.sa.host, "::1");
	assert_int_equal(E.sa.port, 36503);
	find("connect");
	assert_int_equal(E.sa.family, AF_UNIX);
	assert_string_equal(E.sa.host, "/tmp/gen/no-such.sock");
	assert_false(E.sa.abstract);
	assert_int_equal(E.err, ENOENT);
	find("connect");
	assert_true(E.sa.abstract);
	assert_string_equal(E.sa.host, "rootcause-abstract");

	find("accept4");
	assert_int_equal(E.sa.port, 41336);
	assert_int_equal(E.fd2, 5);
	find("sendto");
	assert_string_equal(shown_text(E.fd_shown), "TCP:[127.0.0.1:41336->127.0.0.1:41141]");
	/* the peer from the -yy decoration */
	assert_int_equal(E.sa.family, AF_INET);
	assert_int_equal(E.sa.port, 41141);
	assert_memory_equal(E.data, "ping\n", 5);
	find("recvfrom");
	assert_memory_equal(E.data, "ping\n", 5);
	find_line("sendto", "TCPv6");
	assert_int_equal(E.sa.family, AF_INET6);
	assert_string_equal(E.sa.host, "::1");
	find("pselect6");
	assert_int_equal(E.nfds, 2);
	assert_int_equal(E.fds[0], 3);
	assert_int_equal(E.fds[1], 4);
	assert_int_equal(E.timeout_ms, 250);
	find("epoll_wait");
	assert_int_equal(E.fd, 5);
	assert_int_equal(E.nfds, 1);
	assert_int_equal(E.fds[0], 4);
	assert_int_equal(E.timeout_ms, 500);
	find("epoll_wait");
	assert_int_equal(E.nfds, 0);
	assert_int_equal(E.ret, 0);
	done();

	/* select(2) itself (glibc calls pselect6; the form from strace's docs) */
	one("1234  select(5, NULL, [4], NULL, {tv_sec=2, tv_usec=500000}) = 0 (Timeout)\n");
	assert_int_equal(E.nfds, 1);
	assert_int_equal(E.fds[0], 4);
	assert_int_equal(E.timeout_ms, 2500);
	done();
	one("1234  ppoll([{fd=4, events=POLLOUT}], 1, {tv_sec=1, tv_nsec=500000000}, NULL, 8) = 0 (Timeout)\n");
	assert_int_equal(E.timeout_ms, 1500);
	assert_int_equal(E.fds[0], 4);
	done();
}

static void test_dns(void **state)
{
	open_fixture("helper-dns.log");
	find("socket");
	find("socket");
	assert_int_equal(E.flags, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK);
	find("connect");
	assert_int_equal(E.sa.port, 56844);
	find("sendmmsg");
	assert_int_equal(E.data_len, 32);
	assert_true(E.data_truncated);
	assert_memory_equal(E.data, "\275\277\1\0\0\1\0\0\0\0\0\0\7weights\6mirror\7exam", 32);
	assert_int_equal(E.len, 40);
	find("sendto");
	assert_memory_equal(E.data + 12, "\7weights", 8);
	assert_int_equal(E.len, 40);
	assert_int_equal(E.sa.port, 56844);	/* from the -yy peer */
	find("recvfrom");
	find("sendto");
	assert_int_equal(E.sa.port, 42115);
	find("recvfrom");
	assert_int_equal(E.data[3] & 0xf, 3);	/* NXDOMAIN */
	assert_int_equal(E.sa.port, 56844);
	find("sendmsg");
	assert_int_equal(E.sa.port, 56844);
	assert_string_equal(E.sa.host, "127.0.0.1");
	assert_int_equal(E.data[0], 0275);
	find("recvmsg");
	assert_int_equal(E.sa.port, 42115);
	done();
}

/* ---- prefixes, times, -ff ---- */

static void test_times(void **state)
{
	open_fixture("relative.log");
	find("execve");
	assert_true(E.ts == 0);
	find("brk");
	assert_true(E.ts > 0.000926 && E.ts < 0.000928);
	find("mmap");
	/* -r deltas add up */
	assert_true(E.ts > 0.001319 && E.ts < 0.001321);
	done();

	open_fixture("t-relative.log");
	find("execve");
	double t0 = E.ts;
	find("brk");
	assert_true(E.ts - t0 > 0.000986 && E.ts - t0 < 0.000988);
	done();

	/* -tt across midnight stays monotonic */
	open_buf("1 23:59:59.900000 getpid() = 1\n1 00:00:00.100000 getpid() = 1\n");
	assert_int_equal(next(), 1);
	double a = E.ts;
	assert_int_equal(next(), 1);
	assert_true(E.ts > a && E.ts - a < 0.21);
	done();

	/* -n and -i columns, -Y comm, --timestamps=unix,ns */
	one("6270  [ 257] openat(AT_FDCWD, \"/etc/ld.so.cache\", O_RDONLY|O_CLOEXEC) = 3\n");
	assert_int_equal(E.pid, 6270);
	assert_string_equal(E.path, "/etc/ld.so.cache");
	done();
	one("6277  [00007fea3380db1d] openat(AT_FDCWD, \"/etc/ld.so.cache\", O_RDONLY|O_CLOEXEC) = 3\n");
	assert_string_equal(E.path, "/etc/ld.so.cache");
	done();
	one("6284<sh> brk(NULL)                      = 0x55b254821000\n");
	assert_int_equal(E.pid, 6284);
	done();
	one("6312  1795967456.182836446 execve(\"/usr/bin/sh\", [\"sh\", \"-c\", \"true\"], 0x7ffe4171f220 /* 41 vars */) = 0\n");
	assert_true(E.ts > 1795967456.18 && E.ts < 1795967456.19);
	done();
	one("[pid  6226] execve(\"/usr/bin/ls\", [\"ls\", \"/nope\"], 0x56497164cbd0 /* 41 vars */) = 0\n");
	assert_int_equal(E.pid, 6226);
	done();
}

static void test_ff_sets(void **state)
{
	const char *ff[] = { FIX "ff/sh.10843", FIX "ff/sh.10841", FIX "ff/sh.10840", FIX "ff/sh.10842" };
	open_files(ff, 4);
	double last = -1;
	int pids[4] = { 0 }, n = 0;
	while (next() == 1) {
		assert_true(E.ts >= last);	/* merged by time */
		last = E.ts;
		bool seen = false;
		for (int i = 0; i < n; i++)
			seen |= pids[i] == E.pid;
		if (!seen) {
			assert_true(n < 4);
			pids[n++] = E.pid;
		}
	}
	assert_int_equal(n, 4);
	assert_int_equal(pids[0], 10840);
	assert_int_equal(strace_parser_stats(P)->unmatched, 0);
	done();

	/* no timestamps: concatenated, in pid order */
	const char *nt[] = { FIX "ff-notime/sh.10851", FIX "ff-notime/sh.10849",
			     FIX "ff-notime/sh.10850", FIX "ff-notime/sh.10848" };
	open_files(nt, 4);
	int prev = 0;
	while (next() == 1) {
		assert_true(E.pid >= prev);
		prev = E.pid;
	}
	assert_int_equal(prev, 10851);
	done();

	/* a set given with another log: the set's pids still come from names */
	const char *mixed[] = { FIX "ff-notime/sh.10849", FIX "nopid.log", FIX "ff-notime/sh.10848" };
	open_files(mixed, 3);
	find("set_robust_list");
	assert_int_equal(E.pid, 10849);
	find_line("execve", "cat /nonexistent");
	assert_int_equal(E.pid, 0);
	find("execve");
	assert_int_equal(E.pid, 10848);
	done();

	/* two unrelated logs are not a set */
	const char *two[] = { FIX "nopid.log", FIX "raw.log" };
	open_files(two, 2);
	find("execve");
	assert_int_equal(E.pid, 0);
	find_line("execve", "./helper");
	assert_int_equal(E.pid, 10825);
	done();
}

/* ---- terminal sessions ---- */

/* The first process prints its own pid once a child exists, and may do so
 * before any call of it resumes: strace never announced it ("Process N
 * attached" is for children), so it is the unprefixed process. Lines of
 * a real `strace -f -tt -T bash start_app.sh` on a pty. */
static void test_terminal_root_prefixed(void **state)
{
	(void)state;
	open_buf("09:08:43.099475 lseek(255, -261, SEEK_CUR) = 136 <0.000031>\n"
		 "09:08:43.099556 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD"
		 "strace: Process 28717 attached\n"
		 ", child_tidptr=0x7fa703515a10) = 28717 <0.000178>\n"
		 "[pid 28717] 09:08:43.099789 set_robust_list(0x7fa703515a20, 24 <unfinished ...>\n"
		 "[pid 28716] 09:08:43.099826 rt_sigprocmask(SIG_SETMASK, [],  <unfinished ...>\n"
		 "[pid 28717] 09:08:43.099857 <... set_robust_list resumed>) = 0 <0.000039>\n"
		 "[pid 28716] 09:08:43.099916 <... rt_sigprocmask resumed>NULL, 8) = 0 <0.000082>\n"
		 "[pid 28716] 09:08:43.100016 chdir(\"/srv/voice\") = 0 <0.000031>\n");
	find("clone");
	assert_int_equal(E.pid, 0);
	assert_int_equal(E.ret, 28717);
	find("set_robust_list");
	assert_int_equal(E.pid, 28717);
	find("rt_sigprocmask");
	assert_int_equal(E.pid, 0);
	find("chdir");
	assert_int_equal(E.pid, 0);
	drain();
	done();
}

static void test_terminal(void **state)
{
	open_fixture("terminal.typescript");
	find("execve");
	assert_int_equal(E.pid, 0);	/* before the first child, no prefix */
	find("write");
	assert_memory_equal(E.data, "hi\n", 3);
	/* "vfork(strace: Process 10857 attached" + " <unfinished ...>" and a
	 * later "[pid 10856] <... vfork resumed>) = 10857" */
	find("vfork");
	assert_int_equal(E.ret, 10857);
	assert_int_equal(E.pid, 0);
	find("execve");
	assert_int_equal(E.pid, 10857);
	assert_string_equal(E.path, "/usr/bin/ls");
	/* "write(2, "ls: ", 4ls: ) = 4": the program's output inside the line */
	find_line("write", "ls: ");
	assert_int_equal(E.len, 4);
	assert_int_equal(E.ret, 4);
	/* "write(2, "\n", 1" then ")           = 1" on the next line */
	find_line("write", "\"\\n\"");
	assert_int_equal(E.ret, 1);
	assert_int_equal(E.pid, 10857);
	find_kind(RC_EV_EXIT);
	assert_int_equal(E.pid, 10857);
	assert_int_equal(E.exit_code, 2);
	/* only one process left: unprefixed lines are the shell again */
	find("wait4");
	assert_int_equal(E.pid, 0);
	assert_int_equal(E.exit_code, 2);
	/* "clone(...SIGCHLDstrace: Process 10858 attached" + ", child_tidptr=...) = 10858" */
	find("clone");
	assert_int_equal(E.ret, 10858);
	assert_true(E.flags & 0x01000000);
	find_kind(RC_EV_EXIT);
	find_kind(RC_EV_EXIT);
	find("execve");
	/* the last process, printed without prefix once alone */
	assert_int_equal(E.pid, 10859);
	assert_string_equal(E.path, "/usr/bin/sleep");
	drain();
	const struct strace_stats *st = strace_parser_stats(P);
	assert_int_equal(st->strace_messages, 3);
	assert_int_equal(st->skipped, 5);	/* script's header/footer, "hi", ls's message */
	assert_int_equal(st->unmatched, 0);
	done();
}

static void test_program_output(void **state)
{
	/* output without a newline, then the next trace line */
	open_buf("[pid  12] write(1, \"hi\", 2hi) = 2\n"
		 "hi[pid  12] exit_group(0)               = ?\n"
		 "[pid  12] +++ exited with 0 +++\n");
	assert_int_equal(next(), 1);
	assert_int_equal(E.ret, 2);
	assert_int_equal(next(), 1);
	assert_string_equal(E.name, "exit_group");
	assert_int_equal(E.pid, 12);
	assert_int_equal(next(), 1);
	assert_int_equal(E.kind, RC_EV_EXIT);
	assert_int_equal(next(), 0);
	assert_int_equal(strace_parser_stats(P)->skipped, 1);
	done();

	open_buf("Hello world\n"
		 "Traceback (most recent call last):\n"
		 "  File \"/tmp/x.py\", line 3, in <module>\n"
		 "    open(\"/nope\")\n"
		 "FileNotFoundError: [Errno 2] No such file or directory: '/nope'\n"
		 "$ strace -f python3 x.py\n"
		 "% time     seconds  usecs/call     calls    errors syscall\n"
		 " > /usr/lib/x86_64-linux-gnu/libc.so.6(__open64+0x5b) [0xf90cb]\n"
		 "strace: Process 1234 attached\n"
		 "1234  openat(AT_FDCWD, \"/nope\", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)\n"
		 "--- not a signal ---\n"
		 "+++ not an exit +++\n"
		 "<... nothing\n");
	assert_int_equal(next(), 1);
	assert_string_equal(E.path, "/nope");
	assert_int_equal(E.pid, 1234);
	assert_int_equal(next(), 0);
	const struct strace_stats *st = strace_parser_stats(P);
	assert_int_equal(st->lines, 13);
	assert_int_equal(st->events, 1);
	assert_int_equal(st->strace_messages, 1);
	/* The -k frame under no call is no trace line of its own either; a
	 * strace -c header is a table's (with no rows). */
	assert_int_equal(st->skipped, 9);
	assert_int_equal(st->summary_lines, 1);
	assert_int_equal(st->frames, 1);
	done();
}

/* A real strace -f -tt -T -k log (kstack.cmd): the failed fopen's
 * frames, from libc's open up to the program's main. */
static void test_backtrace_fixture(void **state)
{
	(void)state;
	open_fixture("kstack.log");
	while (next() == 1)
		if (E.kind == RC_EV_SYSCALL && E.path && strcmp(E.path, "/etc/kstack-demo/app.conf") == 0)
			break;
	assert_int_equal(E.err, ENOENT);
	assert_non_null(E.stack);
	const struct rc_stack *st = E.stack;
	assert_true(st->nnative >= 6);
	assert_string_equal(st->native[0].function, "__open64");
	assert_string_equal(st->native[0].module, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	bool read_config = false, main_fn = false;
	for (size_t i = 0; i < st->nnative; i++) {
		const struct rc_stack_frame *f = &st->native[i];
		if (f->function && f->module && strcmp(f->module, "/tmp/fixture/cfg") == 0) {
			read_config |= strcmp(f->function, "read_config") == 0 && f->offset == 0x22;
			main_fn |= strcmp(f->function, "main") == 0;
		}
	}
	assert_true(read_config);
	assert_true(main_fn);
	/* Every frame line went to a stack: none was skipped. */
	while (next() == 1)
		;
	assert_int_equal(strace_parser_stats(P)->skipped, 0);
	assert_true(strace_parser_stats(P)->frames > 100);
	done();
}

/* strace -k: the frames under a call a finding may quote are its stack,
 * innermost first; a call without them, or one no finding quotes, has
 * none. */
static void test_backtrace(void **state)
{
	(void)state;
	open_buf("77 openat(AT_FDCWD, \"/etc/app.conf\", O_RDONLY) = -1 ENOENT (No such file or directory)\n"
		 " > /usr/lib/x86_64-linux-gnu/libc.so.6(__open64+0x5b) [0xf90cb]\n"
		 " > /usr/lib/libstdc++.so.6(std::basic_filebuf<char>::open(char const*, int)+0x2a) [0x1234]\n"
		 " > /srv/app(+0x11a9) [0x11a9]\n"
		 " > unexpected_backtracing_error [0x7f0000001000]\n"
		 "77 close(3) = 0\n"
		 "77 exit_group(0) = ?\n"
		 " > /usr/lib/x86_64-linux-gnu/libc.so.6(_exit+0x25) [0xd4b25]\n");
	assert_int_equal(next(), 1);
	assert_string_equal(E.path, "/etc/app.conf");
	assert_non_null(E.stack);
	const struct rc_stack *st = E.stack;
	assert_int_equal(st->tid, 77);
	assert_int_equal(st->nnative, 4);
	assert_int_equal(st->npy, 0);
	assert_string_equal(st->native[0].module, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	assert_string_equal(st->native[0].function, "__open64");
	assert_int_equal(st->native[0].offset, 0x5b);
	assert_int_equal(st->native[0].pc, 0xf90cb);
	assert_string_equal(st->native[1].function, "std::basic_filebuf<char>::open(char const*, int)");
	assert_string_equal(st->native[1].module, "/usr/lib/libstdc++.so.6");
	assert_null(st->native[2].function);
	assert_string_equal(st->native[2].module, "/srv/app");
	assert_int_equal(st->native[2].offset, 0x11a9);
	assert_null(st->native[3].module);
	assert_null(st->native[3].function);
	assert_int_equal(st->native[3].pc, 0x7f0000001000);
	assert_int_equal(next(), 1);
	assert_string_equal(E.name, "close");
	assert_null(E.stack);
	/* A call no finding quotes: its frames are passed over unread. */
	assert_int_equal(next(), 1);
	assert_string_equal(E.name, "exit_group");
	assert_null(E.stack);
	assert_int_equal(next(), 0);
	assert_int_equal(strace_parser_stats(P)->skipped, 0);
	assert_int_equal(strace_parser_stats(P)->frames, 5);
	done();
}

/* A loop's calls have the same frames: one stack, built once, for each
 * of them in the same thread; another thread's, or other frames, are
 * stacks of their own. */
static void test_backtrace_same(void **state)
{
	(void)state;
	open_buf("77 openat(AT_FDCWD, \"/a\", O_RDONLY) = -1 ENOENT (No such file or directory)\n"
		 " > /usr/lib/x86_64-linux-gnu/libc.so.6(__open64+0x5b) [0xf90cb]\n"
		 " > /srv/app(+0x11a9) [0x11a9]\n"
		 "77 openat(AT_FDCWD, \"/b\", O_RDONLY) = -1 ENOENT (No such file or directory)\n"
		 " > /usr/lib/x86_64-linux-gnu/libc.so.6(__open64+0x5b) [0xf90cb]\n"
		 " > /srv/app(+0x11a9) [0x11a9]\n"
		 "78 openat(AT_FDCWD, \"/c\", O_RDONLY) = -1 ENOENT (No such file or directory)\n"
		 " > /usr/lib/x86_64-linux-gnu/libc.so.6(__open64+0x5b) [0xf90cb]\n"
		 " > /srv/app(+0x11a9) [0x11a9]\n"
		 "77 openat(AT_FDCWD, \"/d\", O_RDONLY) = -1 ENOENT (No such file or directory)\n"
		 " > /usr/lib/x86_64-linux-gnu/libc.so.6(__open64+0x5b) [0xf90cb]\n"
		 " > /srv/app(+0x11b0) [0x11b0]\n");
	assert_int_equal(next(), 1);
	const struct rc_stack *a = stack_ref(E.stack);
	assert_int_equal(next(), 1);
	assert_ptr_equal(E.stack, a);
	assert_int_equal(next(), 1);
	assert_ptr_not_equal(E.stack, a);
	assert_int_equal(E.stack->tid, 78);
	assert_int_equal(next(), 1);
	assert_ptr_not_equal(E.stack, a);
	assert_int_equal(E.stack->native[1].offset, 0x11b0);
	assert_int_equal(next(), 0);
	stack_unref(a);
	done();
}

/* ---- robustness ---- */

static void test_garbage(void **state)
{
	unsigned char buf[65536];
	unsigned seed = 12345;

	for (int round = 0; round < 20; round++) {
		for (size_t i = 0; i < sizeof(buf); i++) {
			seed = seed * 1103515245 + 12345;
			buf[i] = (unsigned char)(seed >> 16);
			/* make brackets, quotes and newlines common */
			if (round & 1 && (seed & 0x300) == 0)
				buf[i] = "\"()[]{}<>=, \n\\0"[(seed >> 4) % 15];
		}
		P = strace_parser_from_buffer((const char *)buf, sizeof(buf));
		while (next() == 1)
			assert_non_null(E.line);
		done();
	}

	/* unbalanced and cut lines */
	open_buf("1 openat(AT_FDCWD, \"/x, O_RDONLY) = 3\n"
		 "1 connect(3, {sa_family=AF_INET, sin_port=htons(80, sin_addr=inet_addr(\"1.2) = -1 ECONNREFUSED (x)\n"
		 "1 writev(1, [{iov_base=\"ab\", iov_len=2}, {iov_base=\"c, iov_len=1}], 2) = 3\n"
		 "1 poll([{fd=4, events=POLLIN, 1, 10) = 0 (Timeout)\n"
		 "1 read(3</x, \"\", 1) = 0\n"
		 "1 sendmmsg(3, [{msg_hdr={msg_iov=[{iov_base=\"a\"\n");
	drain();
	done();

	/* NULs inside a line, a last line without a newline */
	static const char nul[] = "1 write(1, \"a\0b\", 3) = 3\n1 O_\0X(3) = 1\n1 close(3) = 0";
	P = strace_parser_from_buffer(nul, sizeof(nul) - 1);
	assert_int_equal(next(), 1);
	assert_int_equal(next(), 1);
	assert_string_equal(E.name, "close");
	assert_int_equal(E.fd, 3);
	assert_int_equal(next(), 0);
	done();

	/* inputs the fuzzer found: NULs in a flags argument, a timeout too big
	 * for a long long, a pid too big for an int */
	static const char fz[] = "1 openat(AT_FDCWD, \"/x\", O_NOATIM\0\0\0\1) = 3\n"
		"1 futex(0x1, FUTEX_WAIT, 0, {tv_sec=99999999999999999999, tv_nsec=0}) = 0\n"
		"[pid 99999999999] getpid() = 1\n";
	P = strace_parser_from_buffer(fz, sizeof(fz) - 1);
	assert_int_equal(next(), 1);
	assert_string_equal(E.path, "/x");
	assert_int_equal(next(), 1);
	assert_true(E.timeout_ms > 0);
	assert_int_equal(next(), 0);
	done();

	/* a cut-off last line: the call was in progress */
	open_buf("1 read(0, ");
	assert_int_equal(next(), 1);
	assert_string_equal(E.name, "read");
	assert_false(E.ret_known);
	assert_int_equal(E.fd, 0);
	assert_int_equal(next(), 0);
	done();

	/* empty input */
	open_buf("");
	assert_int_equal(next(), 0);
	done();
}

/* A write with -s 1000000 of 1.5 MB of binary: a 6 MB line. */
static void test_huge_line(void **state)
{
	size_t n = 1500000;
	struct strbuf sb = STRBUF_INIT;

	strbuf_adds(&sb, "25027 16:06:09.203971 write(1, \"");
	for (size_t i = 0; i < n / 4; i++)
		strbuf_adds(&sb, "\\377\\0ab");
	strbuf_addf(&sb, "\", %zu) = %zu <0.001>\n", n, n);
	strbuf_adds(&sb, "25027 16:06:09.203972 close(1) = 0\n");

	P = strace_parser_from_buffer(sb.buf, sb.len);
	assert_int_equal(next(), 1);
	assert_string_equal(E.name, "write");
	assert_int_equal(E.len, n);
	assert_int_equal(E.ret, (long long)n);
	/* all of it shown: its head and its tail kept */
	assert_int_equal(E.data_len, RC_EVENT_DATA_MAX);
	assert_int_equal(E.data_omitted, n - RC_EVENT_DATA_MAX);
	assert_false(E.data_truncated);
	assert_memory_equal(E.data, "\377\0ab\377\0ab", 8);
	assert_memory_equal(E.data + E.data_len - 8, "\377\0ab\377\0ab", 8);
	assert_int_equal(next(), 1);
	assert_string_equal(E.name, "close");
	done();

	/* the same from a file, read in pieces */
	char path[] = "/tmp/rootcause-test-parser-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, sb.buf, sb.len), (ssize_t)sb.len);
	close(fd);
	const char *files[] = { path };
	open_files(files, 1);
	assert_int_equal(next(), 1);
	assert_string_equal(E.name, "write");
	assert_int_equal(E.ret, (long long)n);
	assert_true(E.dur > 0.00099 && E.dur < 0.00101);
	assert_false(E.data_truncated);
	assert_int_equal(E.data_omitted, n - RC_EVENT_DATA_MAX);
	assert_int_equal(next(), 1);
	assert_string_equal(E.name, "close");
	done();
	unlink(path);
	strbuf_release(&sb);
}

/* Many processes blocked forever: pending calls stay bounded. */
static void test_many_pending(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	int n = 20000;

	for (int i = 1; i <= n; i++)
		strbuf_addf(&sb, "%d futex(0x%x, FUTEX_WAIT_PRIVATE, 0, NULL <unfinished ...>\n", i, i);
	P = strace_parser_from_buffer(sb.buf, sb.len);
	int events = 0;
	while (next() == 1) {
		assert_string_equal(E.name, "futex");
		assert_false(E.ret_known);
		events++;
	}
	assert_int_equal(events, n);
	assert_int_equal(strace_parser_stats(P)->unmatched, n);
	done();
	strbuf_release(&sb);
}

/* ---- input ---- */

/* An -ff set larger than the open files the parser keeps: files are
 * reopened per chunk, and the merge still orders by time. */
static void test_many_files(void **state)
{
	char dir[] = "/tmp/rootcause-test-ff-XXXXXX";
	int n = 201, lines = 400;
	char **names = calloc((size_t)n, sizeof(*names));
	char pad[401];

	/* files bigger than each one's share of the read buffers */
	memset(pad, 'x', 400);
	pad[400] = '\0';

	assert_non_null(mkdtemp(dir));
	for (int i = 0; i < n; i++) {
		char path[256];
		snprintf(path, sizeof(path), "%s/log.%d", dir, 1000 + i);
		names[i] = strdup(path);
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		/* every file has lines spread over time, interleaving with others */
		for (int k = 0; k < lines; k++)
			fprintf(f, "1795967456.%06d write(1, \"%s\", 400) = 400\n", k * 1000 + i, pad);
		fclose(f);
	}
	open_files((const char *const *)names, (size_t)n);
	double last = -1;
	long count = 0;
	while (next() == 1) {
		assert_true(E.ts >= last);
		last = E.ts;
		assert_true(E.pid >= 1000 && E.pid < 1000 + n);
		assert_int_equal(E.data_len, 400);
		count++;
	}
	assert_int_equal(count, (long)n * lines);
	done();
	for (int i = 0; i < n; i++) {
		unlink(names[i]);
		free(names[i]);
	}
	free(names);
	rmdir(dir);
}

static void test_open_errors(void **state)
{
	struct strace_parser *p = NULL;
	struct strbuf err = STRBUF_INIT;
	const char *missing[] = { FIX "sh-missing.log", "/nonexistent/x.log" };

	assert_int_equal(strace_parser_open(&p, missing, 2, &err), -1);
	assert_string_equal(err.buf, "cannot open '/nonexistent/x.log': No such file or directory");
	assert_null(p);
	strbuf_reset(&err);
	const char *dir[] = { FIX };
	assert_int_equal(strace_parser_open(&p, dir, 1, &err), -1);
	assert_non_null(strstr(err.buf, "Is a directory"));
	strbuf_release(&err);
}

static void test_stdin(void **state)
{
	static const char log[] = "1 openat(AT_FDCWD, \"/x\", O_RDONLY) = 3\n1 close(3) = 0\n";
	int pfd[2], saved = dup(0);

	assert_int_equal(pipe(pfd), 0);
	assert_int_equal(write(pfd[1], log, sizeof(log) - 1), (ssize_t)(sizeof(log) - 1));
	close(pfd[1]);
	dup2(pfd[0], 0);
	close(pfd[0]);
	const char *files[] = { "-" };
	open_files(files, 1);
	find("openat");
	assert_string_equal(E.path, "/x");
	find("close");
	assert_int_equal(next(), 0);
	done();
	dup2(saved, 0);
	close(saved);
}

/* Forms of strace 7.x and rare ones, written from strace's sources. */
/* pivot_root names two directories; credentials calls name ids and groups. */
static void test_enter_and_ids(void **state)
{
	one("7 pivot_root(\"/srv/new\", \"/srv/new/old\") = -1 ENOENT (No such file or directory)\n");
	assert_int_equal(E.nr, SYS_pivot_root);
	assert_string_equal(E.path, "/srv/new");
	assert_string_equal(E.path2, "/srv/new/old");
	done();
	one("7 chroot(\"/srv/jail\") = -1 EPERM (Operation not permitted)\n");
	assert_string_equal(E.path, "/srv/jail");
	done();
	one("7 setresuid(-1, 65534, -1) = 0\n");
	assert_int_equal(E.nids, 3);
	assert_int_equal(E.ids[0], -1);
	assert_int_equal(E.ids[1], 65534);
	done();
	one("7 setuid(1000) = 0\n");
	assert_int_equal(E.nids, 1);
	assert_int_equal(E.ids[0], 1000);
	done();
	one("7 setgroups(2, [4, 27]) = 0\n");
	assert_int_equal(E.nids, 2);
	assert_int_equal(E.ids[1], 27);
	assert_false(E.ids_truncated);
	done();
	one("7 setgroups(0, []) = 0\n");
	assert_int_equal(E.nids, 0);
	assert_false(E.ids_truncated);
	done();
	/* Cut at -s: the list is not all there. */
	one("7 getgroups(40, [0, 1, 2, ...]) = 40\n");
	assert_int_equal(E.nids, 3);
	assert_true(E.ids_truncated);
	done();
	one("7 getgroups(1, 0x7ffc) = -1 EINVAL (Invalid argument)\n");
	assert_int_equal(E.nids, 0);
	done();
}

static void test_other_forms(void **state)
{
	/* The fds pipe, pipe2 and socketpair made, plain and with -y; none
	 * for a failed call. */
	one("4 pipe2([3, 4], 0) = 0\n");
	assert_int_equal(E.nfds, 2);
	assert_int_equal(E.fds[0], 3);
	assert_int_equal(E.fds[1], 4);
	done();
	one("4 pipe2([5<pipe:[1234]>, 6<pipe:[1234]>], O_NONBLOCK|O_CLOEXEC) = 0\n");
	assert_int_equal(E.nfds, 2);
	assert_int_equal(E.fds[1], 6);
	assert_int_equal(E.flags, O_NONBLOCK | O_CLOEXEC);
	done();
	one("4 pipe(0x8) = -1 EFAULT (Bad address)\n");
	assert_int_equal(E.nfds, 0);
	done();
	one("4 socketpair(AF_UNIX, SOCK_STREAM|SOCK_CLOEXEC, 0, [7, 8]) = 0\n");
	assert_int_equal(E.nfds, 2);
	assert_int_equal(E.fds[0], 7);
	assert_int_equal(E.sa.family, AF_UNIX);
	done();
	/* in/out values */
	one("4 getsockopt(4, SOL_SOCKET, SO_ERROR, [0], [4 => 4]) = 0\n");
	assert_int_equal(E.sockopt_value, 0);
	assert_int_equal(E.sockopt_name, SO_ERROR);
	done();
	one("4 getsockname(5, {sa_family=AF_INET, sin_port=htons(52365), sin_addr=inet_addr(\"127.0.0.1\")}, [128 => 16]) = 0\n");
	assert_int_equal(E.sa.port, 52365);
	done();
	one("4 setsockopt(3, SOL_TCP, TCP_NODELAY, [1], 4) = 0\n");
	assert_int_equal(E.sockopt_level, IPPROTO_TCP);
	assert_int_equal(E.sockopt_value, 1);
	done();
	/* a deleted file's decoration */
	one("7 mmap(NULL, 4096, PROT_READ, MAP_SHARED, 3</tmp/x>(deleted), 0) = 0x7f0000000000\n");
	assert_string_equal(shown_text(E.fd_shown), "/tmp/x");
	assert_int_equal(E.fd, 3);
	done();
	one("7 write(3<UNIX-STREAM:[12358->12359]>, \"x\", 1) = 1\n");
	assert_string_equal(shown_text(E.fd_shown), "UNIX-STREAM:[12358->12359]");
	assert_int_equal(E.sa.family, 0);
	done();
	/* an abstract unix name as strace 6.x's -yy prints it: @ before the quotes */
	one("7 write(5<UNIX-STREAM:[3451030->3451029,@\"rc-abstract\"]>, \"x\", 1) = 1\n");
	assert_int_equal(E.sa.family, AF_UNIX);
	assert_string_equal(E.sa.host, "rc-abstract");
	assert_true(E.sa.abstract);
	done();
	one("7 write(5<UNIX-STREAM:[3451030->3451029,\"/run/x.sock\"]>, \"x\", 1) = 1\n");
	assert_string_equal(E.sa.host, "/run/x.sock");
	assert_false(E.sa.abstract);
	done();
	one("7 read(7<pipe:[11734]>, \"\", 4096) = 0\n");
	assert_string_equal(shown_text(E.fd_shown), "pipe:[11734]");
	done();
	/* an escaped '>' inside a decoration */
	one("7 close(3</tmp/a\\76b>) = 0\n");
	assert_string_equal(shown_text(E.fd_shown), "/tmp/a>b");
	done();
	/* epoll_pwait with ready events; a truncated argv */
	one("9 epoll_pwait(5, [{events=EPOLLIN, data={u32=7, u64=7}}, {events=EPOLLIN, data={u32=9, u64=9}}], 8, -1, NULL, 8) = 2\n");
	assert_int_equal(E.nfds, 2);
	assert_int_equal(E.fds[1], 9);
	assert_int_equal(E.timeout_ms, -1);
	done();
	one("9 execve(\"/bin/x\", [\"a\", \"b\", ...], 0x1 /* 3 vars */) = -1 ENOEXEC (Exec format error)\n");
	assert_int_equal(E.argc, 2);
	assert_true(E.argv_truncated);
	assert_int_equal(E.err, ENOEXEC);
	done();
	one("9 exit_group(7)                     = ?\n");
	assert_false(E.ret_known);
	assert_int_equal(E.exit_code, 7);
	done();
	/* -t and rt signals */
	one("9 15:00:28 --- SIGRT_1 {si_signo=SIGRT_1, si_code=SI_TKILL, si_pid=9, si_uid=0} ---\n");
	assert_int_equal(E.kind, RC_EV_SIGNAL);
	assert_int_equal(E.signo, 33);
	assert_true(E.ts == 15 * 3600 + 28);
	done();
	/* strace 6.16+ -N: argument names */
	one("9 openat(dirfd=AT_FDCWD, pathname=\"/etc/x\", flags=O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)\n");
	assert_string_equal(E.path, "/etc/x");
	assert_int_equal(E.flags, O_RDONLY | O_CLOEXEC);
	assert_int_equal(E.dirfd, RC_AT_FDCWD);
	done();
	/* strace 7 --color=always */
	one("\033[32m9\033[0m \033[1mopenat\033[0m(AT_FDCWD, \033[33m\"/etc/x\"\033[0m, O_RDONLY) = -1 ENOENT (No such file or directory)\n");
	assert_int_equal(E.pid, 9);
	assert_string_equal(E.path, "/etc/x");
	assert_int_equal(E.err, ENOENT);
	done();
	one("9 sendto(3, \"\\275\\277\\1\\0\\0\\1\\0\\0\\0\\0\\0\\0\\7weights\\nmirror\"..., 40, MSG_NOSIGNAL, NULL, 0) = 40\n");
	assert_int_equal(E.data_len, 27);
	assert_int_equal(E.data[20], '\n');
	assert_true(E.data_truncated);
	done();
}

/* A traceback written in one 6 KB write, recorded by the machine's strace
 * with -s 8192 (the whole write shown) and -s 256 (cut): the event keeps
 * the head and the tail of the first, the head of the second. */
static void record_long_write(const char *log, int strsize)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd),
		 "strace -f -s %d -e trace=write -o %s /usr/bin/python3 -S -c "
		 "'import os; os.write(2, b\"Traceback (most recent call last):\\n\" + "
		 "b\"  File \\\"/srv/app/layer.py\\\", line 7, in load\\n\" * 150 + "
		 "b\"ModuleNotFoundError: No module named \\x27voice_codec\\x27\\n\")' 2>/dev/null",
		 strsize, log);
	assert_int_equal(system(cmd), 0);
}

static void test_long_write_head_and_tail(void **state)
{
	char log[] = "/tmp/rc-parser-longXXXXXX";
	const char *files[1] = { log };
	int fd = mkstemp(log);

	(void)state;
	if (!test_in_path("strace") || access("/usr/bin/python3", X_OK) != 0) {
		close(fd);
		unlink(log);
		print_message("# skip: strace or /usr/bin/python3 is missing\n");
		skip();
	}
	close(fd);
	record_long_write(log, 8192);
	open_files(files, 1);
	find_line("write", "Traceback");
	assert_true(E.len > RC_EVENT_DATA_MAX);
	assert_int_equal(E.data_len, RC_EVENT_DATA_MAX);
	assert_int_equal(E.data_gap, RC_EVENT_DATA_HEAD);
	assert_int_equal(E.data_omitted, E.len - RC_EVENT_DATA_MAX);
	assert_false(E.data_truncated);
	assert_memory_equal(E.data, "Traceback (most recent call last):\n", 35);
	static const char last[] = "ModuleNotFoundError: No module named 'voice_codec'\n";
	assert_memory_equal(E.data + E.data_len - (sizeof(last) - 1), last, sizeof(last) - 1);
	done();

	record_long_write(log, 256);
	open_files(files, 1);
	find_line("write", "Traceback");
	assert_int_equal(E.data_len, 256);
	assert_int_equal(E.data_omitted, 0);
	assert_true(E.data_truncated);
	done();
	unlink(log);
}

/* ---- strace lines inside another log's records (strace/wrapped.h) ---- */

/* What an event is, to compare two readings of the same lines. */
static void event_key(struct strbuf *sb, const struct rc_event *e)
{
	strbuf_addf(sb, "%d %d %ld %lld %d %s|", (int)e->kind, e->pid, e->nr, e->ret, e->err,
		    e->path ? e->path : "");
	strbuf_add(sb, e->line, e->line_len);
	strbuf_addc(sb, '\n');
}

static void events_of(struct strace_parser *p, struct strbuf *sb)
{
	struct rc_event e;
	struct strbuf err = STRBUF_INIT;

	while (strace_parser_next(p, &e, &err) == 1)
		event_key(sb, &e);
	assert_int_equal(err.len, 0);
	strace_parser_free(p);
	strbuf_release(&err);
}

/* LINE as a JSON string's contents, as docker's json-file driver and Go's
 * logfmt quote it. */
static void add_quoted(struct strbuf *sb, const char *line, size_t n, bool json)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)line[i];
		if (c == '"' || c == '\\')
			strbuf_addf(sb, "\\%c", c);
		else if (c < 0x20)
			strbuf_addf(sb, json ? "\\u%04x" : "\\x%02x", c);
		else
			strbuf_addc(sb, (char)c);
	}
}

/* A real trace, and the same lines as docker's json-file driver, logfmt
 * (logrus), the journal (syslog format), containerd's CRI files and a VM
 * console relayed by a shipper keep them: the same events, each quoting
 * its strace line. */
static void test_wrapped_records(void **state)
{
	static const char *const logs[] = {
		SOURCE_ROOT "/tests/fixtures/rules/file-py-no-module.log",
		SOURCE_ROOT "/tests/fixtures/rules/net-dns-nxdomain.log",
	};
	(void)state;
	for (size_t l = 0; l < ARRAY_SIZE(logs); l++) {
		const char *files[1] = { logs[l] };
		struct strace_parser *p;
		struct strbuf plain = STRBUF_INIT, text = STRBUF_INIT;
		assert_int_equal(strace_parser_open(&p, files, 1, &Err), 0);
		events_of(p, &plain);
		assert_true(plain.len > 1000);
		FILE *f = fopen(logs[l], "r");
		assert_non_null(f);
		char buf[65536];
		struct strbuf lines = STRBUF_INIT;
		size_t n;
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
			strbuf_add(&lines, buf, n);
		fclose(f);
		for (int form = 0; form < 5; form++) {
			strbuf_reset(&text);
			const char *at = lines.buf, *end = lines.buf + lines.len;
			int k = 0;
			while (at < end) {
				const char *nl = memchr(at, '\n', (size_t)(end - at));
				size_t len = nl ? (size_t)(nl - at) : (size_t)(end - at);
				switch (form) {
				case 0:
					strbuf_adds(&text, "{\"log\":\"");
					add_quoted(&text, at, len, true);
					strbuf_addf(&text, "\\n\",\"stream\":\"stderr\",\"time\":"
						    "\"2026-12-04T10:00:%02d.5Z\"}\n", k % 60);
					break;
				case 1:
					strbuf_addf(&text, "time=\"2026-12-04T10:00:%02d Z\" level=debug msg=\"", k % 60);
					add_quoted(&text, at, len, false);
					strbuf_adds(&text, "\" vmID=a runtime=aws.firecracker\n");
					break;
				case 2:
					strbuf_addf(&text, "Dec  4 10:00:%02d box strace[733]: ", k % 60);
					strbuf_add(&text, at, len);
					strbuf_addc(&text, '\n');
					break;
				case 3:
					strbuf_addf(&text, "2026-12-04T10:00:%02d.123456789Z stderr F ", k % 60);
					strbuf_add(&text, at, len);
					strbuf_addc(&text, '\n');
					break;
				case 4:
					strbuf_addf(&text, "time=\"x\" msg=\"[%5d.%06d] strace[733]: ", k, k);
					add_quoted(&text, at, len, false);
					strbuf_adds(&text, "\"\n");
					break;
				}
				at += len + 1;
				k++;
			}
			struct strbuf got = STRBUF_INIT;
			events_of(strace_parser_from_buffer(text.buf, text.len), &got);
			if (strcmp(got.buf, plain.buf) != 0)
				fail_msg("form %d of %s read differently", form, logs[l]);
			strbuf_release(&got);
		}
		strbuf_release(&lines);
		strbuf_release(&plain);
		strbuf_release(&text);
	}
}

/* A trace with a program's logfmt or JSON lines in it stays a trace:
 * its own lines are strace's, and the records are the program's. */
static void test_wrapped_not(void **state)
{
	static const char text[] =
		"100 write(2, \"time=x msg=\\\"read(3) failed\\\"\\n\", 28) = 28\n"
		"time=x msg=\"open(/etc/x) failed\"\n"
		"100 openat(AT_FDCWD, \"/etc/x\", O_RDONLY) = -1 ENOENT (No such file or directory)\n"
		"{\"msg\":\"started\"}\n"
		/* An empty field (fuzz_parser: UBSan saw a NULL buffer used). */
		"{\"log\":\"\"}\n"
		"100 exit_group(1) = ?\n";
	struct strbuf got = STRBUF_INIT;

	(void)state;
	events_of(strace_parser_from_buffer(text, sizeof(text) - 1), &got);
	assert_non_null(strstr(got.buf, "100 write(2, "));
	assert_null(strstr(got.buf, "|open(/etc/x)"));
	assert_non_null(strstr(got.buf, "|100 openat(AT_FDCWD"));
	strbuf_release(&got);
}

/* ---- strace -c tables (strace/summary.h) ---- */

#define SUMFIX SOURCE_ROOT "/tests/fixtures/summary/"

/* The tables of the log FILE, after reading all of it; its events in
 * *EVENTS. */
static const struct rc_call_summary *summary_of(const char *file, uint64_t *events)
{
	const char *files[1] = { file };

	strace_parser_free(P);
	P = NULL;
	assert_int_equal(strace_parser_open(&P, files, 1, &Err), 0);
	while (strace_parser_next(P, &E, &Err) == 1)
		;
	*events = strace_parser_stats(P)->events;
	return &strace_parser_summary(P)->sum;
}

static const struct rc_call_count *count_of(const struct rc_call_summary *s, const char *name)
{
	for (size_t i = 0; i < s->nrows; i++)
		if (strcmp(s->rows[i].name, name) == 0)
			return &s->rows[i];
	fail_msg("no row for %s", name);
	return NULL;
}

static void test_summary(void **state)
{
	const struct rc_call_summary *s;
	uint64_t events;

	(void)state;
	/* strace -f -c: errors left empty where none failed. */
	s = summary_of(SUMFIX "made-f-c.log", &events);
	assert_int_equal(events, 0);
	assert_int_equal(s->tables, 1);
	assert_int_equal(s->nrows, 46);
	assert_int_equal(s->total.calls, 8525);
	assert_int_equal(s->total.errors, 1384);
	assert_true(s->total.seconds > 0.42 && s->total.seconds < 0.4212);
	assert_int_equal(count_of(s, "wait4")->errors, 43);
	assert_int_equal(count_of(s, "mmap")->errors, 0);
	assert_int_equal(count_of(s, "vfork")->calls, 3);
	/* -U: the name first, another column order, a "longest" column. */
	s = summary_of(SUMFIX "made-U.log", &events);
	assert_int_equal(s->nrows, 23);
	assert_int_equal(s->total.calls, 145);
	assert_int_equal(s->total.errors, 19);
	assert_int_equal(count_of(s, "openat")->errors, 13);
	assert_int_equal(count_of(s, "getdents64")->errors, 0);
	/* -C: the trace's events, then the table. */
	s = summary_of(SUMFIX "made-C.log", &events);
	assert_true(events > 100);
	assert_int_equal(s->nrows, 22);
	assert_int_equal(s->total.errors, 26);
	/* Pasted: a total with an empty usecs/call; one cut before its
	 * total; one without its line of dashes, after a shell prompt. */
	s = summary_of(SUMFIX "strace-issue-95-sleep.log", &events);
	assert_int_equal(s->nrows, 12);
	assert_int_equal(s->total.calls, 32);
	assert_int_equal(count_of(s, "access")->errors, 3);
	s = summary_of(SUMFIX "firecracker-issue-873-close.log", &events);
	assert_int_equal(s->nrows, 20);
	assert_int_equal(count_of(s, "close")->calls, 1039);
	assert_int_equal(count_of(s, "close")->errors, 1021);
	s = summary_of(SUMFIX "cpython-startup-pasted.log", &events);
	assert_int_equal(s->nrows, 11);
	assert_int_equal(count_of(s, "stat")->errors, 11);
	assert_int_equal(count_of(s, "read")->errors, 0);
	/* A trace is no table. */
	s = summary_of(FIX "sh-missing.log", &events);
	assert_int_equal(s->nrows, 0);
}

/* What the finding says of a table: a call counted once or twice for
 * each descriptor up to a limit is a loop over them all (nocache#50);
 * most of the time in cheap reads is their number (ptyprocess#3). */
static void test_summary_finding(void **state)
{
	const struct rc_call_summary *s;
	struct rc_findings out;
	uint64_t events;

	(void)state;
	s = summary_of(SUMFIX "nocache-issue-50-sigprocmask.log", &events);
	findings_init(&out);
	call_summary_finding(&out, s);
	assert_int_equal(out.count, 1);
	const struct rc_finding *f = out.v[0];
	assert_int_equal(f->severity, RC_SEV_WARNING);
	assert_non_null(strstr(f->summary, "rt_sigprocmask's 2,097,164 calls are two for each possible "
					   "descriptor, a loop up to an open-files limit of 1,048,576"));
	assert_non_null(strstr(f->advice, "trace=rt_sigprocmask"));
	findings_release(&out);

	/* 1,039 closes under a limit of 1024 are no such loop's cost. */
	s = summary_of(SUMFIX "firecracker-issue-873-close.log", &events);
	findings_init(&out);
	call_summary_finding(&out, s);
	assert_null(strstr(out.v[0]->summary, "open-files limit"));
	findings_release(&out);

	s = summary_of(SUMFIX "ptyprocess-issue-3-byte-reads.log", &events);
	findings_init(&out);
	call_summary_finding(&out, s);
	bool cost = false;
	for (int i = 0; i < out.v[0]->nevidence; i++)
		cost |= strstr(out.v[0]->evidence[i], "read: 26214 calls of 17.7 us each, 96% of the time: no one "
							"call is slow, their number is the cost") != NULL;
	assert_true(cost);
	findings_release(&out);
	done();
}

static void test_summary_bad(void **state)
{
	/* Not tables: a header without "calls", rows that do not fit their
	 * columns, a failure count above the calls, a name that is no call,
	 * a count past 2^64 (fuzz_parser: UBSan saw it made an integer). */
	static const char text[] =
		"% time     seconds  usecs/call    errors syscall\n"
		" 21.85    0.000104          17         6           mmap\n"
		"% time     seconds  usecs/call     calls    errors syscall\n"
		"------ ----------- ----------- --------- --------- ----------------\n"
		" 21.85    0.000104          17         6         9 mmap\n"
		" 21.85    0.000104          17         6         1 mm(ap\n"
		" 21.85    0.000104          17         6         1 2 3 4 mmap\n"
		" 21.85    0.000104          17 22222222222222222222222 1 mmap\n"
		"% time     seconds  usecs/call     calls    errors syscall\n"
		"----- -----\n"
		" 21.85    0.000104          17         6         1 mmap\n"
		"% time     seconds  usecs/call     calls    errors syscall\n"
		"------ ----------- ----------- --------- --------- ----------------\n"
		" 21.85    0.000104          17         6         1 mmap\n";
	const struct rc_call_summary *s;

	(void)state;
	strace_parser_free(P);
	P = strace_parser_from_buffer(text, sizeof(text) - 1);
	while (strace_parser_next(P, &E, &Err) == 1)
		;
	s = &strace_parser_summary(P)->sum;
	/* Only the last table's row: each bad line ended its table, and
	 * a row after the end of one is no row. */
	assert_int_equal(s->nrows, 1);
	assert_int_equal(s->total.calls, 6);
	assert_int_equal(s->total.errors, 1);
	done();
}

/* strace on a terminal: a write to it prints its text after the count,
 * inside the line, and ") = N" follows the program's lines. With the
 * quoted string cut by -s, those lines are the write's whole text; a
 * paste that lost a few blanks still is, output of another size is not
 * taken for it. */
static void test_terminal_write_whole(void **state)
{
	(void)state;
	open_buf("write(2, \"Traceback (most recent call last\"..., 81Traceback (most recent call last):\n"
		 "  File \"x.py\", line 1\n"
		 "ValueError: bad weights\n"
		 ") = 81\n"
		 "write(2, \"Traceback (most recent call last\"..., 900Traceback (most recent call last):\n"
		 "ValueError: bad weights\n"
		 ") = 900\n");
	find("write");
	assert_int_equal(E.ret, 81);
	assert_false(E.data_truncated);
	assert_true(E.data_len >= 70);
	assert_non_null(memmem(E.data, E.data_len, "ValueError: bad weights\n", 24));
	find("write");
	assert_int_equal(E.ret, 900);
	assert_true(E.data_truncated);
	done();

	/* A cut mark with no string before it (fuzz_parser found it: the
	 * rebuilt line took a negative length and never ended). */
	open_buf("write(2, \"..., 7abc\n) = 7\n");
	while (next() == 1)
		;
	done();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_long_write_head_and_tail),
		cmocka_unit_test(test_file_calls),
		cmocka_unit_test(test_io_calls),
		cmocka_unit_test(test_enter_and_ids),
		cmocka_unit_test(test_fcntl_dupfd),
		cmocka_unit_test(test_hex_and_raw),
		cmocka_unit_test(test_return_forms),
		cmocka_unit_test(test_unfinished_resumed),
		cmocka_unit_test(test_unfinished_line_text),
		cmocka_unit_test(test_never_resumed),
		cmocka_unit_test(test_detached_and_exec_thread),
		cmocka_unit_test(test_signals_exits),
		cmocka_unit_test(test_memory_futex),
		cmocka_unit_test(test_network),
		cmocka_unit_test(test_dns),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_ff_sets),
		cmocka_unit_test(test_terminal),
		cmocka_unit_test(test_program_output),
		cmocka_unit_test(test_backtrace),
		cmocka_unit_test(test_backtrace_same),
		cmocka_unit_test(test_backtrace_fixture),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_huge_line),
		cmocka_unit_test(test_terminal_root_prefixed),
		cmocka_unit_test(test_many_pending),
		cmocka_unit_test(test_many_files),
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_stdin),
		cmocka_unit_test(test_other_forms),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_summary_bad),
		cmocka_unit_test(test_summary_finding),
		cmocka_unit_test(test_wrapped_records),
		cmocka_unit_test(test_wrapped_not),
		cmocka_unit_test(test_terminal_write_whole),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
