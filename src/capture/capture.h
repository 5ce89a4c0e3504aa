/* A capture session: each call a source gives it as a view (call.h: the
 * tracer's stops through capture_hooks(), the eBPF capture's records
 * through capture_call_enter and capture_call_exit) is decoded
 * (decode/), printed in strace's format (strace/printer.c) and emitted as
 * an event, either or both. It knows nothing of what the events are for:
 * its user, the command (cmd/pipeline.c for run and attach), wires them to
 * the rules and a dying process to the unwinder. So it includes event/,
 * strace/ and util/, never rules/, crash/ or cmd/.
 *
 * What the user gets, through struct capture_opts:
 *  - on_event: every event, once it is complete, in the order the tracer
 *    saw them: a call at its exit stop (its line ending " = ?" when its
 *    thread died inside it, or " <detached ...>", blocked, from
 *    capture_finish), a signal, a group-stop, a thread's end. The event
 *    and all it points to (line, paths, data) are capture's and valid
 *    only during the call; the callee may write the event's fields (the
 *    engine numbers it), not keep it.
 *    A call that failed with EACCES, EPERM or ENOSYS carries what its
 *    thread was then (rc_event.live: its ids and seccomp filters, read
 *    from /proc at the tracer's exit stop, or by the kernel).
 *    With ADOPT (attach), each process and thread found running is an
 *    event of its own, RC_EV_FOUND (event.h): what /proc knows of it and
 *    no event says, its argv, exe, cwd and open fds, for the process
 *    model; it is not counted, and prints nothing. So capture never
 *    writes the process model itself: its user's engine does, from the
 *    events alone.
 *  - on_fatal_signal: once, for the first signal that will kill its
 *    process (procfs_signal_is_fatal: a core-dumping signal with no
 *    handler), before that signal's event. The thread TID sits in its
 *    signal-delivery-stop and the other threads of TGID are held
 *    (tracer_hold_group, given capture_set_tracer): every thread's
 *    registers and memory can still be read. The process dies when the
 *    tracer lets the signal through, after the call.
 * Every callback may be NULL; events are counted either way (with no
 * on_event, /proc is not read for them). */
#ifndef RC_CAPTURE_CAPTURE_H
#define RC_CAPTURE_CAPTURE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "capture/call.h"
#include "capture/decode.h"
#include "capture/tracer.h"
#include "strace/printer.h"

/* The user's end of a capture (see above); USER is capture_opts.user. */
typedef void (*capture_event_fn)(void *user, struct rc_event *e);
typedef void (*capture_fatal_fn)(void *user, pid_t tgid, pid_t tid, const siginfo_t *si);
/* Call E of thread TID of process TGID returned, and the thread is held
 * at the exit stop (the tracer's: COPY is NULL), or the source copied
 * its registers and stack then (COPY: the eBPF capture's, whose thread
 * ran on), or E is blocked: the thread is still inside the call as the
 * trace ends, running (asleep in it). The stack to give E
 * (event/stack.h; the reference is capture's, dropped once E is fed),
 * or NULL for none. */
typedef const struct rc_stack *(*capture_stack_fn)(void *user, pid_t tgid, pid_t tid, const struct rc_event *e,
						   const struct rc_stack_copy *copy);

struct capture_opts {
	/* The calls reported (a bitmap of syscall numbers NBITS long); NULL:
	 * every call. Signals and exits are always reported. */
	const unsigned char *select;
	long nbits;
	struct dec_opts dec;
	struct printer *printer;	/* NULL: no text */
	capture_event_fn on_event;	/* NULL: no events wanted */
	/* run/attach: a thread about to die of a fatal signal; NULL: not
	 * wanted (trace). */
	capture_fatal_fn on_fatal_signal;
	/* run/attach: each call's stack, taken by the command; NULL: none. */
	capture_stack_fn on_stack;
	void *user;
	/* attach: tell on_event what /proc knows of the threads found
	 * running, those born without a parent (RC_EV_FOUND: argv, cwd, the
	 * fds opened before we came). */
	bool adopt;
};

struct capture;

struct capture *capture_new(const struct capture_opts *o);
/* The tracer driving the capture (for stopping a crashing process's
 * other threads). */
void capture_set_tracer(struct capture *c, struct tracer *tr);
void capture_free(struct capture *c);
const struct tracer_hooks *capture_hooks(void);

/* At the end of tracing, before detaching: the calls still in progress
 * become blocked events (and their open lines get " <detached ...>").
 * TR may be NULL (replaying): then only the open lines are closed. */
void capture_finish(struct capture *c, struct tracer *tr, bool detaching);

uint64_t capture_events(const struct capture *c);
/* Of those, the calls given as sums (capture_replay_sum). */
uint64_t capture_summed(const struct capture *c);

/* Thread TID of process TGID was found running (attach): an RC_EV_FOUND
 * event tells what /proc knows of it, with its process's argv, exe, cwd
 * and open fds when TGID is not told already. A process stays told while
 * a thread of it found running lives (capture_thread_born tells those it
 * is given without a parent); one told here before any such thread (the
 * eBPF capture tells the processes it follows before their first
 * record) until the first is gone. Nothing without an on_event. */
void capture_found(struct capture *c, pid_t tid, pid_t tgid);

/*
 * Driving a capture: what every source gives it. The tracer does through
 * capture_hooks(), whose entry and exit hooks make each stop a call view
 * (call.h) of the stopped thread's registers and memory; the eBPF capture
 * (bpf/replay.c) calls these itself, with views of its records. T is the
 * thread, as the source keeps it (struct tracee: its ids, its call in
 * progress, and capture's state in t->user).
 */
/* T's call begins: V's number, arguments, stack pointer and memory (its
 * outcome is not read). The entry half is decoded and printed. */
void capture_call_enter(struct capture *c, struct tracee *t, const struct call_view *v);
/* T's call begun by capture_call_enter returned: V's outcome and memory
 * (its number and arguments are the entry's, and not read). The exit
 * half is decoded and printed, and the call made an event. */
void capture_call_exit(struct capture *c, struct tracee *t, const struct call_view *v);
/* A signal about to be delivered to T. */
void capture_signal(struct capture *c, struct tracee *t, const siginfo_t *si);
/* A thread is followed: CHILD of PARENT's fork, or (PARENT NULL) one
 * found running or first seen before its parent's fork was; with ADOPT,
 * the latter is told found (capture_found). */
void capture_thread_born(struct capture *c, struct tracee *parent, struct tracee *child);
/* T ended, its wait status STATUS: a call it was in ends " = ?". */
void capture_thread_gone(struct capture *c, struct tracee *t, int status);
/* T is forgotten: capture's state of it (t->user) is freed. */
void capture_thread_release(struct capture *c, struct tracee *t);

/*
 * Replaying: the eBPF capture sees each call whole, after it ended, and
 * drives the capture through the calls above, so that its calls are
 * decoded, printed and made events by the same code as the tracer's.
 * Before each it sets the time the record gives (epoch and
 * CLOCK_MONOTONIC seconds). Once replaying, no fatal signal is reported:
 * the process no longer waits for us.
 */
void capture_replay_clock(struct capture *c, double realtime, double monotonic);
/* Replaying, at the end: T, whose call in progress the caller replayed
 * the entry of, is left blocked in it, as capture_finish leaves the
 * tracer's threads (call it after capture_finish, which closes the
 * printer's open lines). */
void capture_finish_thread(struct capture *c, struct tracee *t);
/* Replaying: like calls NR of T's process on FD, summed by the kernel
 * (TIME seconds inside them), made an RC_EV_SUM event (event.h); no
 * line is printed for it, as no log has one. */
struct rc_sum;
void capture_replay_sum(struct capture *c, struct tracee *t, long nr, int fd, double time, const struct rc_sum *sum);

/*
 * Syscall selection (capture/select.c).
 */
/* A bitmap for dec_nr_max() numbers, all clear. */
unsigned char *select_new(void);
void select_set(unsigned char *map, long nr, bool on);
bool select_has(const unsigned char *map, long nr);
/* strace's -e trace=EXPR: "open,read", "%file", "file", "!%memory",
 * "all", "none", "/regex". Returns 0, or -1 with a message in ERR. */
int select_parse(unsigned char *map, const char *expr, struct strbuf *err);
/* The calls the trace rules read (run and attach). */
void select_rules(unsigned char *map);

#endif
