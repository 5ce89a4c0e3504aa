/*
 * Linked into every unit test program: the conditions each test counts on,
 * set before main.
 *
 * - fds 0-2 open. CI may start us with stdin closed; then a test's pipe()
 *   gets fd 0 and a child's dup2 onto fd 0 closes its own pipe end.
 * - No other fd open. The decoder tests use fd 99 as "surely closed" to
 *   get EBADF, as strace's own tests do (but not with select, which
 *   ignores fds past the fd table's size: see test_decode_io's
 *   "selecting"). The fds a test needs it opens itself. close_range may
 *   be refused (a seccomp filter older than it answers ENOSYS or EPERM),
 *   so the fds listed in /proc/self/fd are closed one by one after it,
 *   and a program that still has one open stops at once with a line
 *   naming it.
 * - No signal blocked or ignored: both are inherited through fork and
 *   exec, and a runner that blocks SIGCHLD or ignores SIGUSR1 would hand
 *   that on to the programs the tests run and trace (a blocked SIGCHLD
 *   hung test_core; an ignored SIGUSR1 failed test_tracer).
 * - stdout line-buffered, so what a test printed before it hung reaches
 *   meson's log when meson kills it.
 * - A watchdog below meson's 120 s timeout: a test that hangs says so,
 *   with the registers of the call it hangs in, its tracer and its open
 *   fds, and takes its children with it. A child left alive keeps meson's output
 *   pipe open, and meson then reports only "TIMEOUT" with no output.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "harness.h"

#include "util/util.h"

enum { WATCHDOG_S = 100 };

static void say(const char *s)
{
	(void)!write(1, s, strlen(s));
}

/* The fds from 3 up and what they are, for a hang's report. */
static void say_open_fds(void)
{
	char line[512], link[64], target[256];

	for (int fd = 3; fd < 1024; fd++) {
		if (fcntl(fd, F_GETFD) < 0)
			continue;
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		ssize_t n = readlink(link, target, sizeof(target) - 1);
		target[n > 0 ? n : 0] = '\0';
		snprintf(line, sizeof(line), "[  ERROR   ] watchdog: fd %d is open: %s (flags %#x)\n", fd,
			 target, (unsigned)fcntl(fd, F_GETFL));
		say(line);
	}
}

/* On a hang, what the program was doing: the registers where SIGALRM
 * interrupted it (a blocking system call's arguments are in rdi, rsi,
 * rdx, r10, r8, r9), whether something traces it, and its open fds.
 * Only system calls and snprintf: we are in a signal handler. */
static void on_watchdog(int sig, siginfo_t *si, void *uc_)
{
	char line[512];

	(void)sig;
	(void)si;
	say("\n[  ERROR   ] watchdog: this test program still runs after 100 s; killing it and its children "
	    "(the last test begun above is the one that hangs)\n");
#if defined(__x86_64__)
	const greg_t *g = ((const ucontext_t *)uc_)->uc_mcontext.gregs;
	snprintf(line, sizeof(line),
		 "[  ERROR   ] watchdog: interrupted at pc %#llx; rax %lld, rdi %#llx, rsi %#llx, rdx %#llx, "
		 "r10 %#llx, r8 %#llx, r9 %#llx\n",
		 (unsigned long long)g[REG_RIP], (long long)g[REG_RAX], (unsigned long long)g[REG_RDI],
		 (unsigned long long)g[REG_RSI], (unsigned long long)g[REG_RDX], (unsigned long long)g[REG_R10],
		 (unsigned long long)g[REG_R8], (unsigned long long)g[REG_R9]);
	say(line);
#else
	(void)uc_;
#endif
	int st = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	if (st >= 0) {
		char buf[4096];
		ssize_t n = read(st, buf, sizeof(buf) - 1);
		close(st);
		buf[n > 0 ? n : 0] = '\0';
		for (char *l = buf; l && *l;) {
			char *nl = strchr(l, '\n');
			if (nl)
				*nl = '\0';
			if (!strncmp(l, "TracerPid:", 10) || !strncmp(l, "Seccomp:", 8)) {
				snprintf(line, sizeof(line), "[  ERROR   ] watchdog: %.200s\n", l);
				say(line);
			}
			l = nl ? nl + 1 : NULL;
		}
	}
	say_open_fds();
	/* Our own process group only: meson gives each test one (setsid).
	 * Run by hand from a shell without job control we would share the
	 * caller's, so then only we go. */
	if (getpgrp() == getpid())
		kill(0, SIGKILL);
	_exit(124);
}

/* Closes every fd from 3 up; returns the first that would not close, or
 * -1. */
static int close_inherited_fds(void)
{
	if (close_range(3, ~0U, 0) == 0)
		return -1;
	DIR *d = opendir("/proc/self/fd");
	if (d) {
		/* Collected first: closing while reading would be closing
		 * under readdir's feet, and its own fd is listed too. */
		int fds[1024], n = 0;
		struct dirent *e;
		while ((e = readdir(d)) && n < (int)(sizeof(fds) / sizeof(fds[0]))) {
			int fd = atoi(e->d_name);
			if (fd >= 3 && fd != dirfd(d))
				fds[n++] = fd;
		}
		closedir(d);
		for (int i = 0; i < n; i++)
			close(fds[i]);
	}
	/* Without /proc, or with more fds than fit above: the fds below the
	 * usual soft limit, which hold the ones the tests name. */
	for (int fd = 3; fd < 1024; fd++)
		if (fcntl(fd, F_GETFD) >= 0 && close(fd) < 0 && errno != EINTR)
			return fd;
	return -1;
}

__attribute__((constructor)) static void unit_harness(void)
{
	if (sanitize_std_fds() < 0)
		_exit(1);
	int fd = close_inherited_fds();
	if (fd >= 0) {
		fprintf(stderr, "harness: cannot close inherited fd %d: %s\n", fd, strerror(errno));
		_exit(1);
	}
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;
		if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			signal(sig, SIG_DFL);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct sigaction sa = { .sa_sigaction = on_watchdog, .sa_flags = SA_SIGINFO };
	sigaction(SIGALRM, &sa, NULL);
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

void test_fd_closed(int fd)
{
	char link[64], target[256];

	if (fcntl(fd, F_GETFD) < 0)
		return;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = '\0';
	printf("# fd %d, which this test needs closed, is open (%s): closing it\n", fd, target);
	close(fd);
}
