/* A tracing session: wires the tracer, the capture hooks and the printer
 * together for run, attach and trace, and hands the events and a fatal
 * signal to the caller's callbacks (capture.h says when and how), with the
 * signal policy that keeps the target unharmed:
 *  - a command we started gets SIGTERM/SIGHUP forwarded (and SIGINT/SIGQUIT
 *    that someone sent to rootcause itself; a terminal's Ctrl-C already
 *    reached the command), and we trace on until it ends;
 *  - an attached process is detached, running, on SIGINT/SIGTERM/SIGHUP/
 *    SIGQUIT or when the duration is up.
 */
#ifndef RC_CAPTURE_SESSION_H
#define RC_CAPTURE_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "capture/capture.h"

struct session_opts {
	char **argv;		/* the command to start, or NULL */
	pid_t pid;		/* or the process to attach to */
	double duration;	/* attach: seconds; 0 until a signal */
	bool follow;		/* -f */
	bool no_seccomp;	/* never install a filter */
	/* The calls reported; NULL: all. The tracer stops only on these. */
	const unsigned char *select;
	struct dec_opts dec;
	struct printer *printer;	/* may be NULL */
	/* As in capture_opts; each may be NULL. An attach adopts the
	 * processes found running into PROCS. */
	capture_event_fn on_event;
	capture_fatal_fn on_fatal_signal;
	void *user;
	struct rc_procs *procs;
};

struct session_result {
	int child_status;	/* the command's wait status; -1 unknown */
	int spawn_errno;	/* the command could not be started */
	bool detached;		/* attach ended by detaching */
	int stop_signal;	/* the signal that ended an attach; 0 none */
	uint64_t events;
	uint64_t stops;
	bool seccomp;		/* the filter was used */
	bool no_syscall_info;	/* the kernel lacks PTRACE_GET_SYSCALL_INFO */
	double seconds;
};

/* Returns 0, or -1 with a message in ERR (the command or attach failed
 * before tracing began; res->spawn_errno says why a command did not run). */
int session_run(const struct session_opts *o, struct session_result *res, struct strbuf *err);

#endif
