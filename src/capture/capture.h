/* A capture session: the tracer's hooks (tracer.h), which decode each call
 * (decode/), print it in strace's format (strace/printer.c) and emit it as
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
 *  - on_fatal_signal: once, for the first signal that will kill its
 *    process (procfs_signal_is_fatal: a core-dumping signal with no
 *    handler), before that signal's event. The thread TID sits in its
 *    signal-delivery-stop and the other threads of TGID are held
 *    (tracer_hold_group, given capture_set_tracer): every thread's
 *    registers and memory can still be read. The process dies when the
 *    tracer lets the signal through, after the call.
 *  - procs: the process model the events go on to update. What /proc
 *    knows and no event says is written into it directly: the argv, exe,
 *    cwd and open fds of the processes found running (ADOPT), and a
 *    thread's ids and seccomp filters at a call that failed with EACCES,
 *    EPERM or ENOSYS (before that call's event).
 * Every callback may be NULL, and procs too; events are counted either way. */
#ifndef RC_CAPTURE_CAPTURE_H
#define RC_CAPTURE_CAPTURE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "capture/decode.h"
#include "capture/tracer.h"
#include "strace/printer.h"

struct rc_procs;

/* The user's end of a capture (see above); USER is capture_opts.user. */
typedef void (*capture_event_fn)(void *user, struct rc_event *e);
typedef void (*capture_fatal_fn)(void *user, pid_t tgid, pid_t tid, const siginfo_t *si);

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
	void *user;
	struct rc_procs *procs;		/* NULL: nothing learnt from /proc */
	/* attach: tell PROCS what /proc knows of the threads found running
	 * (argv, cwd, the fds opened before we came). */
	bool adopt;
};

struct capture;

struct capture *capture_new(const struct capture_opts *o);
/* The tracer driving the hooks (for stopping a crashing process's other
 * threads). */
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

/* A process found running (attach): what /proc knows of it, its argv,
 * exe, cwd and open fds, told to M. */
void capture_adopt_process(struct rc_procs *m, pid_t pid);

/*
 * Replaying: the eBPF capture sees each call whole, after it ended, and
 * drives the hooks above itself, as the tracer would have (entry, exit,
 * signal, gone, born), so that its calls are decoded, printed and made
 * events by the same code. Before each hook it sets the time the record
 * gives (epoch and CLOCK_MONOTONIC seconds), and a mem_view (decode.h)
 * of the call's memory as the kernel copied it. Once replaying, no
 * fatal signal is reported: the process no longer waits for us.
 */
void capture_replay_clock(struct capture *c, double realtime, double monotonic);
/* What the thread of the call replayed next was when it failed (its ids
 * and seccomp filters, as the kernel gave them at its exit), for what
 * the tracer reads from /proc at such a failure; NULL: not known. */
struct rc_creds;
void capture_replay_live(struct capture *c, const struct rc_creds *cr, int seccomp_mode, int seccomp_filters);
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
