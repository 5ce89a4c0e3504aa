/* The tracer against real programs: exit statuses, forks, a non-leader
 * thread's exec, signals passed on exactly, attach and detach leaving the
 * target running. Skips (77) when ptrace is not permitted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "harness.h"

#include "capture/session.h"
#include "diagnose/engine.h"
#include "util/util.h"

/* One traced run: its trace text (strace format, -f -o style) and status. */
/* The session's events to the rules, as the commands wire them
 * (cmd/pipeline.c). */
static void feed_engine(void *user, struct rc_event *e)
{
	engine_feed(user, e);
}

struct traced {
	char *text;
	size_t len;
	struct session_result res;
	int rc;
	struct rc_engine eng;
	struct rc_findings findings;
	bool have_engine;
};

static void trace_cmd(struct traced *t, const char *const argv[], const char *expr, bool with_engine,
		      bool no_filter)
{
	FILE *f = open_memstream(&t->text, &t->len);
	struct printer_opts po = { .out = f, .to_file = true, .follow = true };
	struct printer *pr = printer_new(&po);
	unsigned char *sel = NULL;
	struct strbuf err = STRBUF_INIT;

	if (expr) {
		sel = select_new();
		assert_int_equal(select_parse(sel, expr, &err), 0);
	}
	t->have_engine = with_engine;
	if (with_engine)
		engine_init(&t->eng);
	struct session_opts so = {
		.argv = (char **)argv,
		.follow = true,
		.no_seccomp = no_filter,
		.select = sel,
		.dec = { .strsize = 64, .preview_max = 256 },
		.printer = pr,
		.on_event = with_engine ? feed_engine : NULL,
		.user = &t->eng,
	};
	t->rc = session_run(&so, &t->res, &err);
	printer_free(pr);
	fclose(f);
	if (with_engine) {
		findings_init(&t->findings);
		engine_finish(&t->eng, &t->findings);
	}
	strbuf_release(&err);
	free(sel);
}

static void traced_release(struct traced *t)
{
	if (t->have_engine) {
		findings_release(&t->findings);
		engine_release(&t->eng);
	}
	free(t->text);
}

static int count_lines(const char *text, const char *needle)
{
	int n = 0;
	for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void test_exit_status(void **state)
{
	struct traced t = { 0 };
	const char *const argv[] = { "sh", "-c", "exit 7", NULL };

	(void)state;
	trace_cmd(&t, argv, NULL, false, false);
	assert_int_equal(t.rc, 0);
	assert_true(WIFEXITED(t.res.child_status));
	assert_int_equal(WEXITSTATUS(t.res.child_status), 7);
	/* The first line is the command's one execve, nothing of ours before. */
	assert_non_null(strstr(t.text, "execve(\"/usr/bin/sh\""));
	assert_true(strstr(t.text, "execve(") < strstr(t.text, "brk("));
	assert_int_equal(count_lines(t.text, "execve("), 1);
	assert_non_null(strstr(t.text, "+++ exited with 7 +++"));
	traced_release(&t);
}

static void test_not_found(void **state)
{
	struct traced t = { 0 };
	const char *const argv[] = { "no-such-command-rootcause", NULL };

	(void)state;
	trace_cmd(&t, argv, NULL, false, false);
	assert_int_equal(t.rc, -1);
	assert_int_equal(t.res.spawn_errno, ENOENT);
	traced_release(&t);
}

/* Children and grandchildren are followed; each process's exit is seen. */
static void test_follow_forks(void **state)
{
	struct traced t = { 0 };
	const char *const argv[] = { "sh", "-c", "true | cat; (sleep 0 &); wait; exit 3", NULL };

	(void)state;
	trace_cmd(&t, argv, NULL, false, false);
	assert_int_equal(WEXITSTATUS(t.res.child_status), 3);
	assert_true(count_lines(t.text, "+++ exited with") >= 4);
	assert_non_null(strstr(t.text, "execve(\"/usr/bin/cat\""));
	assert_non_null(strstr(t.text, "execve(\"/usr/bin/sleep\""));
	traced_release(&t);
}

/* A thread other than the leader execs: its tid becomes the leader's. */
static void test_thread_exec(void **state)
{
	struct traced t = { 0 };
	const char *const argv[] = {
		"/usr/bin/python3", "-c",
		"import os, threading, time\n"
		"threading.Thread(target=lambda: os.execv('/bin/sh', ['sh', '-c', 'exit 5'])).start()\n"
		"time.sleep(10)\n",
		NULL,
	};

	(void)state;
	if (access(argv[0], X_OK) != 0)
		skip();
	trace_cmd(&t, argv, NULL, false, false);
	assert_int_equal(t.rc, 0);
	assert_true(WIFEXITED(t.res.child_status));
	assert_int_equal(WEXITSTATUS(t.res.child_status), 5);
	assert_non_null(strstr(t.text, "execve(\"/bin/sh\""));
	assert_non_null(strstr(t.text, "+++ exited with 5 +++"));
	traced_release(&t);
}

/* Signals reach the program exactly as many times as they were sent. */
static void test_signals_passed_on(void **state)
{
	struct traced t = { 0 };
	const char *const argv[] = {
		"sh", "-c",
		"n=0; trap 'n=$((n+1))' USR1; i=0; while [ $i -lt 20 ]; do kill -USR1 $$; i=$((i+1)); done; exit $n",
		NULL,
	};

	(void)state;
	trace_cmd(&t, argv, NULL, false, false);
	assert_int_equal(WEXITSTATUS(t.res.child_status), 20);
	assert_int_equal(count_lines(t.text, "--- SIGUSR1 {si_signo=SIGUSR1, si_code=SI_USER"), 20);
	traced_release(&t);
}

/* A fatal signal becomes a crashed finding, with the decoded siginfo. */
static void test_crash_finding(void **state)
{
	struct traced t = { 0 };
	const char *const argv[] = { "/usr/bin/python3", "-c", "import ctypes; ctypes.string_at(16)", NULL };

	(void)state;
	if (access(argv[0], X_OK) != 0)
		skip();
	trace_cmd(&t, argv, NULL, true, false);
	assert_true(WIFSIGNALED(t.res.child_status));
	assert_int_equal(WTERMSIG(t.res.child_status), SIGSEGV);
	bool found = false;
	for (size_t i = 0; i < t.findings.count; i++) {
		const struct rc_finding *f = t.findings.v[i];
		if (strcmp(f->rule, "crashed") == 0) {
			found = true;
			assert_non_null(strstr(f->summary, "SIGSEGV"));
		}
	}
	assert_true(found);
	traced_release(&t);
}

/* -e trace=: only the chosen calls are printed, through the filter or not. */
static void test_select(void **state)
{
	(void)state;
	for (int no_filter = 0; no_filter <= 1; no_filter++) {
		struct traced t = { 0 };
		const char *const argv[] = { "cat", "/etc/hostname", "/nonexistent-rc", NULL };
		trace_cmd(&t, argv, "trace=openat,close", false, no_filter);
		assert_int_equal(WEXITSTATUS(t.res.child_status), 1);
		assert_null(strstr(t.text, "read("));
		assert_null(strstr(t.text, "mmap("));
		assert_non_null(strstr(t.text, "openat(AT_FDCWD, \"/etc/hostname\", O_RDONLY) = 3"));
		assert_non_null(strstr(t.text, "\"/nonexistent-rc\", O_RDONLY) = -1 ENOENT (No such file or directory)"));
		assert_int_equal(t.res.seccomp, !no_filter);
		traced_release(&t);
	}
}

/* A command that installs a seccomp filter of its own, refusing statx with
 * EPERM, and then runs ls: that filter's refusal takes precedence over our
 * filter's RET_TRACE, so the tracer must stop on every call from the
 * filter's install on to see it. The capture tells the rules whether a
 * filter other than ours was in place. */
static void test_own_filter(void **state)
{
	char dir[] = "/tmp/rc-test-launch-XXXXXX";
	char cmd[1024], exe[512];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(exe, sizeof(exe), "%s/seccomp-launch", dir);
	snprintf(cmd, sizeof(cmd), "cc -o '%s' '%s/tests/scenarios/lib/seccomp-launch.c' 2>/dev/null", exe,
		 SOURCE_ROOT);
	if (system(cmd) != 0) {
		rmdir(dir);
		skip();
	}
	struct traced t = { 0 };
	const char *const argv[] = { exe, "-e", "EPERM", "statx", "--", "ls", "-l", "/etc/hostname", NULL };
	trace_cmd(&t, argv, "trace=statx,openat", true, false);
	unlink(exe);
	rmdir(dir);
	assert_int_equal(WEXITSTATUS(t.res.child_status), 2);
	assert_true(t.res.seccomp);
	assert_non_null(strstr(t.text, "\"/etc/hostname\", AT_STATX_SYNC_AS_STAT"));
	assert_non_null(strstr(t.text, "= -1 EPERM (Operation not permitted)"));
	const struct rc_finding *f = NULL;
	for (size_t i = 0; i < t.findings.count && !f; i++)
		if (strcmp(t.findings.v[i]->rule, "syscall-blocked") == 0)
			f = t.findings.v[i];
	assert_non_null(f);
	assert_string_equal(f->syscall, "statx");
	assert_non_null(f->message);
	assert_non_null(strstr(f->message, "with 1 filter that is not rootcause's"));
	traced_release(&t);
}

static const char *proc_state(pid_t pid, char *buf, size_t size, long *tracer)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return NULL;
	size_t n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *tp = strstr(buf, "TracerPid:");
	*tracer = tp ? strtol(tp + 10, NULL, 10) : -1;
	return strstr(buf, "State:");
}

/* attach, then detach on the deadline: the target runs on, untraced. */
static void test_attach_detach(void **state)
{
	(void)state;
	int pfd[2];
	assert_int_equal(pipe(pfd), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* Reads its pipe: blocked in read while we are attached. */
		char c;
		close(pfd[1]);
		ssize_t n = read(pfd[0], &c, 1);
		_exit(n == 1 && c == 'x' ? 42 : 1);
	}
	close(pfd[0]);
	usleep(100 * 1000);

	struct rc_engine eng;
	struct session_result res;
	struct strbuf err = STRBUF_INIT;
	unsigned char *sel = select_new();
	select_rules(sel);
	engine_init(&eng);
	struct session_opts so = {
		.pid = pid,
		.duration = 0.3,
		.follow = true,
		.select = sel,
		.dec = { .strsize = 64, .preview_max = 256 },
		.on_event = feed_engine,
		.user = &eng,
	};
	assert_int_equal(session_run(&so, &res, &err), 0);
	assert_true(res.detached);

	/* Untraced and never stopped; back asleep in its read soon. */
	char buf[4096];
	long tracer = -1;
	const char *st = NULL;
	for (int i = 0; i < 100; i++) {
		st = proc_state(pid, buf, sizeof(buf), &tracer);
		assert_non_null(st);
		assert_int_equal(tracer, 0);
		assert_true(strncmp(st, "State:\tt", 8) != 0 && strncmp(st, "State:\tT", 8) != 0);
		if (strncmp(st, "State:\tS", 8) == 0)
			break;
		usleep(10 * 1000);
	}
	assert_true(strncmp(st, "State:\tS", 8) == 0);

	/* It still works: the byte we send now is read, and it exits 42. */
	assert_int_equal(write(pfd[1], "x", 1), 1);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 42);

	struct rc_findings findings;
	findings_init(&findings);
	engine_finish(&eng, &findings);
	findings_release(&findings);
	engine_release(&eng);
	strbuf_release(&err);
	free(sel);
	close(pfd[1]);
}

static void test_attach_gone(void **state)
{
	(void)state;
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);

	struct session_result res;
	struct strbuf err = STRBUF_INIT;
	struct session_opts so = { .pid = pid, .duration = 0.1 };
	assert_int_equal(session_run(&so, &res, &err), -1);
	assert_non_null(strstr(strbuf_str(&err), "no process"));
	strbuf_release(&err);
}

int main(void)
{
	/* ptrace may be refused here (a container, Yama): skip, don't fail. */
	if (!test_ptrace_permitted())
		return 77;

	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_status),
		cmocka_unit_test(test_not_found),
		cmocka_unit_test(test_follow_forks),
		cmocka_unit_test(test_thread_exec),
		cmocka_unit_test(test_signals_passed_on),
		cmocka_unit_test(test_crash_finding),
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_own_filter),
		cmocka_unit_test(test_attach_detach),
		cmocka_unit_test(test_attach_gone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
