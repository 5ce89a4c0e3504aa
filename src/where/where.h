/* Where in the code: a call's stack, taken from a thread the tracer
 * holds at the call's exit, or from the copy of its registers, stack and
 * Python frames (code objects and instructions) that the eBPF capture
 * made there (event/stack.h says what a stack is).
 *
 * The command wires it: the capture hands each call's exit, with the
 * thread stopped, to the command, which asks where_take; the capture
 * never unwinds (architecture: Capture -> Crash is a never).  Unwinding
 * goes through the one unwinder, crash/unwind.c, kept per process so
 * that a module's unwind tables and symbols are parsed once, and the
 * Python frames through crash/python.c, without stopping anything more.
 *
 * Not every call is unwound: only those a rule may quote (where_wants). */
#ifndef RC_WHERE_WHERE_H
#define RC_WHERE_WHERE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "event/event.h"
#include "event/stack.h"

struct where;

struct where *where_new(void);
void where_free(struct where *w);

/* Whether E, a call that has returned (or is still inside, blocked), is
 * one whose stack a rule may quote: a failed call, an open, an exec, a
 * connect or bind, a lock, a large mapping, a long wait. */
bool where_wants(const struct rc_event *e);

/* E, a call of thread TID of process TGID, has returned and the thread
 * is stopped there, or COPY holds its registers, stack and Python frames
 * as they were then (the eBPF capture's: the thread ran on), or
 * E->blocked: it is still inside, and runs on: its stack (a reference for
 * the caller), or one that says why there is none; NULL when E is no call
 * whose stack is wanted. A COPY that lacks the Python frames because the
 * source has no walk for the process gets one in COPY->walk when the
 * process runs a Python whose frames are read (even at a call whose
 * stack is not wanted: the source's probe). Every call's exit is told,
 * as an exec ends the unwinder's view of the process. */
const struct rc_stack *where_at_exit(struct where *w, pid_t tgid, pid_t tid, const struct rc_event *e,
				     const struct rc_stack_copy *copy);

/* The stack of thread TID, ptrace-stopped. */
const struct rc_stack *where_take(struct where *w, pid_t tgid, pid_t tid);
/* The stack of thread TID asleep in a call and not stopped (a blocked
 * call at the end of a trace, under either backend): from where
 * /proc/PID/task/TID/syscall says it sleeps, as its stack does not
 * change while it does. Nothing is stopped. */
const struct rc_stack *where_take_blocked(struct where *w, pid_t tgid, pid_t tid);

/* Program PATH is about to run, or a process has just exec'd it: true
 * with OUT the first time a file is seen that runs a Python whose frames
 * a source that never stops a thread can walk from its first call
 * (event/stack.h, struct rc_py_program). */
bool where_program(struct where *w, const char *path, struct rc_py_program *out);

/* Thread TID of process TGID is held right after a call whose Python
 * frames PY (N, as the source copied them) run code objects not named
 * yet: each is named from the process's memory now and kept, for when
 * the call's copy comes to be unwound. True when all are, with MARKS[i]
 * each one's mark (event/stack.h, rc_py_code_mark). */
bool where_name(struct where *w, pid_t tgid, pid_t tid, const struct rc_py_raw *py, size_t n, uint64_t *marks);

/* Process TGID is gone: its unwinder goes too. */
void where_forget(struct where *w, pid_t tgid);

/* Counters for -v and benchmarks. */
struct where_stats {
	uint64_t taken, failed, shared;
	uint64_t probes;	/* copies unwound only to find a Python's walk */
	uint64_t programs;	/* Python programs read from their files */
	uint64_t named;		/* held threads whose frames were named at once */
	double seconds;		/* spent unwinding (under ptrace, the tracee stopped) */
};
const struct where_stats *where_stats(const struct where *w);

#endif
