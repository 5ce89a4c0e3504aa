/*
 * Linked into every unit test program: the conditions each test counts on,
 * set before main.
 *
 * - fds 0-2 open. CI may start us with stdin closed; then a test's pipe()
 *   gets fd 0 and a child's dup2 onto fd 0 closes its own pipe end.
 * - No other fd open. The decoder tests use fd 99 as "surely closed" to
 *   get EBADF, as strace's own tests do; CI's runner hands its children an
 *   open fd 99, and select(100, [99], NULL, NULL, NULL) then blocked for
 *   ever. The fds a test needs it opens itself.
 * - No signal blocked or ignored: both are inherited through fork and
 *   exec, and a runner that blocks SIGCHLD or ignores SIGUSR1 would hand
 *   that on to the programs the tests run and trace (a blocked SIGCHLD
 *   hung test_core; an ignored SIGUSR1 failed test_tracer).
 * - stdout line-buffered, so what a test printed before it hung reaches
 *   meson's log when meson kills it.
 * - A watchdog below meson's 120 s timeout: a test that hangs says so, and
 *   takes its children with it. A child left alive keeps meson's output
 *   pipe open, and meson then reports only "TIMEOUT" with no output.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

#include "util/util.h"

enum { WATCHDOG_S = 100 };

static void on_watchdog(int sig)
{
	static const char msg[] = "\n[  ERROR   ] watchdog: this test program "
				  "still runs after 100 s; killing it and its children "
				  "(the last test begun above is the one that hangs)\n";

	(void)sig;
	(void)!write(1, msg, sizeof(msg) - 1);
	/* Our own process group only: meson gives each test one (setsid).
	 * Run by hand from a shell without job control we would share the
	 * caller's, so then only we go. */
	if (getpgrp() == getpid())
		kill(0, SIGKILL);
	_exit(124);
}

__attribute__((constructor)) static void unit_harness(void)
{
	if (sanitize_std_fds() < 0)
		_exit(1);
	close_range(3, ~0U, 0);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;
		if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			signal(sig, SIG_DFL);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGALRM, on_watchdog);
	alarm(WATCHDOG_S);
}

bool test_in_path(const char *tool)
{
	const char *path = getenv("PATH");
	char buf[4096];

	if (!path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, tool);
		if (n && access(buf, X_OK) == 0)
			return true;
		path += n + (path[n] == ':');
	}
	return false;
}

bool test_ptrace_permitted(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		pause();
		_exit(0);
	}
	bool ok = ptrace(PTRACE_SEIZE, pid, 0L, 0L) == 0;
	int e = errno;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	if (!ok)
		printf("# ptrace is not permitted here (%s): skipping\n", strerror(e));
	return ok;
}
