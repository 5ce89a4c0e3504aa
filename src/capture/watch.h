/* The fatal-signal watch, for the eBPF capture: the in-kernel capture
 * does not stop its target at calls, so a process about to die of a
 * fatal signal would be gone before its stacks could be read, and a
 * thread that calls faster than the reader reads would fill the ring
 * buffer. The watch seizes it with ptrace, but only for that: no call
 * stops (tracer.h's signals_only), only each signal's delivery (the
 * kernel's hold requests among them), and the forks and execs that keep
 * the whole tree seized. It runs the tracer in a thread of its own
 * (ptrace answers only the thread that seized).
 *
 * Contract:
 * - watch_start returns once the target is seized (a held child from
 *   spawn_held, then let go on; or every thread of a running process),
 *   or with one line in ERR saying why it could not be (then nothing is
 *   watched; the caller goes on without stacks).
 * - At the first signal that will kill its process, the watch holds
 *   every thread of it and waits for the caller's thread to hand on what
 *   it has read so far (watch_sync, which the caller calls between its
 *   reads), then calls ON_FATAL in the watch's thread while the caller's
 *   waits: as capture.h's on_fatal_signal, every thread's registers and
 *   memory can be read. The process dies when the watch lets the signal
 *   through, after.
 * - A thread whose signal is_hold says is a hold request waits the same
 *   way (bounded as below), and the signal is taken.
 * - With hold_exits, each process's exit waits, the same way, until the
 *   caller's thread has handed on what it read (bounded: a stuck reader
 *   delays an exit by 2 s at most).
 * - Never harm the target: the watch detaches when stopped; if rootcause
 *   dies the kernel detaches it (no PTRACE_O_EXITKILL, no filter).
 * - The watch reaps a spawned child: its status is watch_child_status's.
 */
#ifndef RC_CAPTURE_WATCH_H
#define RC_CAPTURE_WATCH_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#include "capture/capture.h"
#include "capture/spawn.h"
#include "util/strbuf.h"

struct watch_opts {
	struct spawn *held;	/* a held child to seize and let go on, or NULL */
	const char *name;	/* its command, for messages */
	pid_t pid;		/* else the running process to seize */
	const pid_t *more_pids;	/* and these (NMORE), passed over when gone */
	size_t nmore;
	capture_fatal_fn on_fatal;
	void *user;
	/* Each process's exit waits (up to 2 s) until the caller's thread
	 * has handed on what it read (watch_sync): what reads the process's
	 * memory for its records (its stacks) does so while it is there. */
	bool hold_exits;
	/* Wakes the caller's thread from its wait for records, to hand on
	 * (from the watch's thread); NULL: the caller looks often enough. */
	void (*wake)(void *arg);
	/* Whether signal SIG reaching thread TID is a request to hold it
	 * until the caller's thread has handed on what it read (the eBPF
	 * capture's, after a call whose stack is named from memory): the
	 * signal is taken then, never delivered. NULL: none is. */
	bool (*is_hold)(void *arg, pid_t tid, int sig);
	/* With HOLD_EXITS: whether process TGID, about to exit, did
	 * something the caller has not handed on yet; one that did not
	 * exits at once. NULL: every exit waits. */
	bool (*exit_pending)(void *arg, pid_t tgid);
	void *wake_arg;		/* WAKE's, IS_HOLD's and EXIT_PENDING's */
};

struct watch;

int watch_start(struct watch **out, const struct watch_opts *o, struct strbuf *err);
/* In the caller's thread, between its reads: when the watch holds a
 * dying process, DRAIN(ARG) is called to hand on every record read so
 * far, and watch_sync returns once ON_FATAL has run. A thread held at an
 * IS_HOLD request is served by NAME(ARG, TID) instead when it is given
 * and returns true (it named what the thread waits for); else by DRAIN. */
void watch_sync(struct watch *w, void (*drain)(void *arg), bool (*name)(void *arg, pid_t tid), void *arg);
/* The watched processes are all gone (the watch's tracer has none). */
bool watch_done(struct watch *w);
/* The spawned child's wait status; -1 unknown. */
int watch_child_status(struct watch *w);
/* Detach from everything still seized, and end the thread. */
void watch_free(struct watch *w);

#endif
