/* The ptrace tracer: process control only.
 *
 * It seizes a command it starts or a running process (every thread), follows
 * fork/vfork/clone/clone3 when asked, and reports syscall entries and exits,
 * signal deliveries, execs and deaths through hooks. It knows nothing of
 * decoding or output (capture.c does that).
 *
 * Stops are handled as ptrace(2) documents them for PTRACE_SEIZE:
 *  - syscall stops (PTRACE_O_TRACESYSGOOD) or, with a seccomp filter,
 *    seccomp stops for the entry and a PTRACE_SYSCALL-requested exit stop;
 *  - signal-delivery-stops: the signal is re-injected exactly as delivered;
 *  - group-stops (PTRACE_EVENT_STOP with a stop signal): PTRACE_LISTEN, so
 *    the tracee stays stopped as job control asked, yet we see SIGCONT;
 *  - PTRACE_EVENT_{FORK,VFORK,CLONE,EXEC}, including the exec of a thread
 *    other than the leader, whose tid then becomes the leader's;
 *  - PTRACE_EVENT_EXIT, only when the hooks ask for it (exiting).
 *
 * A filter of the program's own (or one rootcause itself runs under, a
 * container's) takes precedence over ours: the calls it refuses with
 * SECCOMP_RET_ERRNO fail without ever stopping at our SECCOMP_RET_TRACE.
 * So under a filter of its own we install none, and once a tracee installs
 * one (seccomp(2), prctl(PR_SET_SECCOMP), which our filter always stops
 * on) the tracer stops on every call of every tracee, as without a
 * filter: the calls a policy refuses are the ones worth seeing.
 *
 * Never harm the target: tracer_detach_all() leaves every thread running
 * (or stopped, if job control stopped it), with a signal that was being
 * delivered passed on. If rootcause dies, the kernel detaches the tracees
 * itself; only a command started under a seccomp filter is killed then
 * (PTRACE_O_EXITKILL), because without a tracer its filtered calls would
 * fail with ENOSYS.
 */
#ifndef RC_CAPTURE_TRACER_H
#define RC_CAPTURE_TRACER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/ptrace.h>

#include "capture/spawn.h"
#include "util/strbuf.h"

struct tracee {
	pid_t tid;
	pid_t tgid;
	bool in_syscall;	/* between an entry and its exit */
	long nr;		/* the call in progress, and its first argument */
	uint64_t arg0;
	bool group_stopped;	/* in a group-stop (PTRACE_LISTEN) */
	bool detaching;		/* interrupted for detach; detach at its next stop */
	bool held;		/* stopped for a snapshot (tracer_hold_all) */
	int held_sig;		/* held in a signal-delivery-stop: pass it on */
	void *user;		/* the hooks' per-thread state */
};

struct tracer;

struct tracer_hooks {
	void (*entry)(void *ctx, struct tracee *t, const struct ptrace_syscall_info *si);
	void (*exit)(void *ctx, struct tracee *t, const struct ptrace_syscall_info *si);
	/* A signal about to be delivered. */
	void (*signal)(void *ctx, struct tracee *t, const siginfo_t *si);
	/* Asked first: whether that signal is a request to the tracer, not
	 * the program's (the eBPF capture's hold, watch.h); one is taken,
	 * never delivered. NULL: none is. */
	bool (*request)(void *ctx, struct tracee *t, const siginfo_t *si);
	/* A group-stop began (SIG is the stop signal). */
	void (*stopped)(void *ctx, struct tracee *t, int sig);
	/* T is exiting (PTRACE_EVENT_EXIT), its memory not yet let go:
	 * the last moment it can be read. Set, the tracer stops there. */
	void (*exiting)(void *ctx, struct tracee *t);
	/* A thread ended: STATUS is the wait status. */
	void (*gone)(void *ctx, struct tracee *t, int status);
	/* A new thread or process is traced; PARENT may be NULL. */
	void (*born)(void *ctx, struct tracee *parent, struct tracee *child);
	/* CHILD, born without a parent because its first stop came before
	 * its parent's fork event, turns out to be PARENT's. */
	void (*parented)(void *ctx, struct tracee *parent, struct tracee *child);
	/* T (now the leader) finished an exec; OLD_TID was the exec-ing thread. */
	void (*exec)(void *ctx, struct tracee *t, pid_t old_tid);
	/* T is being forgotten (gone or detached): free t->user. */
	void (*release)(void *ctx, struct tracee *t);
};

struct tracer_opts {
	bool follow;		/* follow fork/vfork/clone (-f) */
	/* Stop only on these syscalls (a bitmap of numbers, NBITS long),
	 * through a seccomp filter when the kernel has one and we start the
	 * command; NULL: every syscall. */
	const unsigned char *wanted;
	long nbits;
	bool no_seccomp;	/* never install a filter */
	/* No call stops at all: only signal deliveries, forks, execs and
	 * group-stops (the eBPF capture's watch for fatal signals). */
	bool signals_only;
};

/* Stop requests come from signal handlers: set *flag non-zero. */
struct tracer *tracer_new(const struct tracer_opts *o, const struct tracer_hooks *h, void *ctx,
			  volatile sig_atomic_t *stop_flag);
void tracer_free(struct tracer *tr);

/* Start ARGV (PATH searched) as a traced child. Returns its pid, or -1 with
 * a message in ERR. The child is hidden from the hooks until its exec. */
pid_t tracer_spawn(struct tracer *tr, char *const argv[], struct strbuf *err);
/* Trace S's child, held by spawn_held (capture/spawn.h), and let it go
 * on; the tracer takes S over (its exec-error pipe too, unless -1): 0,
 * or -1 with a message in ERR, the child still held and S the
 * caller's. */
int tracer_seize_held(struct tracer *tr, struct spawn *s, const char *name, struct strbuf *err);
/* After the command is gone: the errno of a failed exec (or filter
 * install) in the child, 0 when it ran. */
int tracer_spawn_error(struct tracer *tr);
/* Seize every thread of PID. Returns 0, or -errno with a message saying
 * why ptrace was refused and how to fix it in ERR. */
int tracer_attach(struct tracer *tr, pid_t pid, struct strbuf *err);
/* tracer_attach for a set of processes (a cgroup's): FIRST and the N of
 * MORE. One that ended since it was listed (gone, or exiting) is passed
 * over; any other failure ends it, as tracer_attach's does. Returns 0
 * when at least one was attached, else -errno with ERR's line. */
int tracer_attach_set(struct tracer *tr, pid_t first, const pid_t *more, size_t n, struct strbuf *err);

/* Run until no tracee is left or *stop_flag is set. */
void tracer_loop(struct tracer *tr);
/* Detach from every tracee, leaving it running. */
void tracer_detach_all(struct tracer *tr);
/* A snapshot of every thread at once (rootcause stack): after
 * tracer_attach, wait until each thread sits in a ptrace-stop and keep it
 * there.  Stops are peeked at, not collected, so that a signal being
 * delivered stays pending in the kernel even if rootcause dies.  Gives up
 * on the threads still running when *stop_flag is set (a deadline's
 * SIGALRM, Ctrl-C).  Returns how many threads are held. */
size_t tracer_hold_all(struct tracer *tr);
/* Detach every held thread, a signal that was being delivered passed on;
 * then the rest as tracer_detach_all does. */
void tracer_release_all(struct tracer *tr);
/* Bring every other traced thread of TGID to a ptrace-stop (for reading
 * its registers and stack while thread EXCEPT sits in a signal-delivery-
 * stop), without consuming the stops: tracer_loop handles them as usual
 * afterwards.  Gives up on a thread when *stop_flag is set. */
void tracer_hold_group(struct tracer *tr, pid_t tgid, pid_t except);
/* Visit every tracee still traced (for threads blocked in a call). */
void tracer_each(struct tracer *tr, void (*fn)(void *arg, struct tracee *t), void *arg);

/* The wait status of the spawned command's leader; -1 while unknown. */
int tracer_child_status(const struct tracer *tr);
/* Whether the seccomp filter is in use (installed in the command and its
 * descendants; once a tracee installs a filter of its own, every call
 * stops, as without ours). */
bool tracer_uses_seccomp(const struct tracer *tr);
/* The kernel refused PTRACE_GET_SYSCALL_INFO (before Linux 5.3): no call
 * could be decoded. */
bool tracer_lacks_syscall_info(const struct tracer *tr);
/* Counters for benchmarks and -v. */
uint64_t tracer_stops(const struct tracer *tr);

/* Why ptrace on PID failed with ERR (EPERM, ESRCH...), as one line. */
void tracer_explain_attach(pid_t pid, int err, struct strbuf *out);

#endif
