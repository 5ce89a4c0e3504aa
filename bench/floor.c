/* floor: the least a ptrace tracer of every call can do, as a yardstick
 * for trace-vs-strace.  It follows forks and threads like `trace -f`, and at
 * each of the two stops of every call it waits, asks the kernel for the
 * call (PTRACE_GET_SYSCALL_INFO, as rootcause and strace do) and resumes:
 * no decoding, no memory reads, no output.  Whatever a real tracer spends
 * above this is its decoding and printing; this part it cannot shed.
 *
 * It waits as rootcause does while stops come fast: it polls for up to
 * 50 us before blocking, which on a VM avoids a vCPU wake-up per stop
 * (src/capture/tracer.c, next_stop).  FLOOR_BLOCK=1 in the environment
 * makes it block at once, as strace does, to show what polling is worth.
 *
 *     floor CMD [ARGS...]      exit status: CMD's (128+N if killed)
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define OPTS (PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEEXEC | PTRACE_O_TRACEFORK | \
	      PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE | PTRACE_O_EXITKILL)

/* The next stop or death; with poll, after trying for 50 us without
 * blocking. */
static pid_t next(int poll, int *status)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (poll) {
		pid_t pid = waitpid(-1, status, __WALL | WNOHANG);
		if (pid != 0)
			return pid;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) > 50000)
			break;
	}
	return waitpid(-1, status, __WALL);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs("usage: floor CMD [ARGS...]\n", stderr);
		return 2;
	}
	pid_t child = fork();
	if (child < 0) {
		perror("floor: fork");
		return 1;
	}
	if (child == 0) {
		raise(SIGSTOP);	/* wait to be seized */
		execvp(argv[1], argv + 1);
		perror("floor: exec");
		_exit(127);
	}
	int status;
	if (waitpid(child, &status, WSTOPPED) < 0 ||
	    ptrace(PTRACE_SEIZE, child, 0, OPTS) < 0) {
		perror("floor: seize");
		return 1;
	}
	kill(child, SIGCONT);
	int result = 0;
	const char *block = getenv("FLOOR_BLOCK");
	int poll = !(block && *block == '1');
	struct __ptrace_syscall_info info;
	for (;;) {
		pid_t pid = next(poll, &status);
		if (pid < 0)
			break;
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			if (pid == child)
				result = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
			continue;
		}
		int sig = WSTOPSIG(status), inject = 0;
		if (sig == (SIGTRAP | 0x80))
			ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof(info), &info);
		else if (status >> 16 == PTRACE_EVENT_STOP && (sig == SIGSTOP || sig == SIGTSTP ||
							       sig == SIGTTIN || sig == SIGTTOU)) {
			ptrace(PTRACE_LISTEN, pid, 0, 0);	/* group-stop */
			continue;
		} else if (sig != SIGTRAP && status >> 16 == 0)
			inject = sig;	/* signal-delivery-stop */
		ptrace(PTRACE_SYSCALL, pid, 0, inject);
	}
	return result;
}
