/* Starting a command held: the child stops itself before it runs
 * anything of the command's, so that whatever traces it (the ptrace
 * tracer, the eBPF capture) is in place before its first call.
 *
 * spawn_held forks; the child raises SIGSTOP, and once continued runs
 * PREPARE (the tracer's seccomp filter) and execs. The parent returns
 * when the child sits in that stop: the caller attaches its tracer, then
 * sends SIGCONT. The command is found in PATH here, as execvp would find
 * it, so that its trace shows one execve, not a failed one per PATH
 * directory.
 */
#ifndef RC_CAPTURE_SPAWN_H
#define RC_CAPTURE_SPAWN_H

#include <sys/types.h>

#include "util/strbuf.h"

/* In the child, after the hold, before exec: 0, or an errno that ends
 * the child (exit 127) without running the command. */
typedef int (*spawn_prepare_fn)(void *arg);

struct spawn {
	pid_t pid;		/* the child; 0 none */
	int errfd;		/* read end of its exec-error pipe; -1 none */
	int spawn_errno;	/* why it could not be started */
};

/* The file execvp would run for CMD, searched in PATH as the shell does
 * (the caller's to free); NULL with *ERR (ENOENT, EACCES...) when there
 * is none. */
char *spawn_find(const char *cmd, int *err);

/* Returns the child's pid, stopped, or -1 with a message in ERR
 * (s->spawn_errno: ENOENT, EACCES when the command was not found or is
 * not executable). */
pid_t spawn_held(struct spawn *s, char *const argv[], spawn_prepare_fn prepare, void *arg, struct strbuf *err);
/* Once the child is gone: the errno of a failed PREPARE or exec, 0 when
 * the command ran. Reads the pipe once. */
int spawn_error(struct spawn *s);
/* The child could not be traced: kill it and reap it. */
void spawn_abort(struct spawn *s);

#endif
