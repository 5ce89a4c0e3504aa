/* A tracing session: wires the tracer, the capture hooks and the printer
 * together for run, attach and trace, and hands the events and a fatal
 * signal to the caller's callbacks (capture.h says when and how), with the
 * signal policy that keeps the target unharmed:
 *  - a command we started gets SIGTERM/SIGHUP forwarded (and SIGINT/SIGQUIT
 *    that someone sent to rootcause itself; a terminal's Ctrl-C already
 *    reached the command), and we trace on until it ends;
 *  - an attached process is detached, running, on SIGINT/SIGTERM/SIGHUP/
 *    SIGQUIT or when the duration is up.
 * Both backends follow that policy. With eBPF nothing stops the target:
 * a command is held (capture/spawn.h) only until the programs follow it,
 * and the programs go with rootcause however it ends.
 */
#ifndef RC_CAPTURE_SESSION_H
#define RC_CAPTURE_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "capture/capture.h"
#include "event/loss.h"
#include "event/stack.h"

/* Who captures: the ptrace tracer, or the in-kernel (eBPF) capture,
 * whose records are replayed through the same decoders (bpf/bpf.h). */
enum capture_backend {
	BACKEND_PTRACE,
	BACKEND_EBPF,
	BACKEND_AUTO,		/* eBPF where it loads, else ptrace */
};

/* eBPF: a program about to run, or one a process has just exec'd
 * (PATH: its file, or /proc/PID/exe): true with OUT when it runs a Python
 * whose frames the kernel can then walk from its first call
 * (event/stack.h, struct rc_py_program). */
typedef bool (*session_program_fn)(void *user, const char *path, struct rc_py_program *out);

/* eBPF: thread TID of process TGID is held right after a copied call
 * (capture/watch.h, is_hold) whose Python frames PY (N of them) run code
 * objects not named yet: true once each is named from the process's
 * memory, with MARKS[i] its mark (event/stack.h, rc_py_code_mark); false
 * when they cannot all be, and the thread waits until every record read
 * so far is handed on instead. */
typedef bool (*session_held_fn)(void *user, pid_t tgid, pid_t tid, const struct rc_py_raw *py, size_t n,
				uint64_t *marks);

struct session_tick;

struct session_opts {
	enum capture_backend backend;
	size_t ring_bytes;	/* eBPF: the ring buffer; 0 the default */
	char **argv;		/* the command to start, or NULL */
	pid_t pid;		/* or the process to attach to */
	/* attach: more processes to attach to besides PID (a cgroup's),
	 * NMORE of them; one gone by then is passed over. */
	const pid_t *more_pids;
	size_t nmore;
	/* attach --cgroup, eBPF: the cgroup whose programs are followed from
	 * their exec too (bpf.h's cgroup_id, cgroup_level); 0 none. */
	uint64_t cgroup_id;
	unsigned cgroup_level;
	/* watch: its path from the root and its parent's id, to follow it
	 * when it is made anew (bpf.h); NULL: not. */
	const char *cgroup_path;
	uint64_t cgroup_parent;
	/* watch: that cgroup's processes only (bpf.h). */
	bool cgroup_only;
	double duration;	/* attach: seconds; 0 until a signal */
	bool follow;		/* -f */
	bool no_seccomp;	/* never install a filter */
	/* The calls reported; NULL: all. The tracer stops only on these. */
	const unsigned char *select;
	struct dec_opts dec;
	struct printer *printer;	/* may be NULL */
	/* As in capture_opts; each may be NULL. An attach tells on_event
	 * of the processes found running (RC_EV_FOUND). */
	capture_event_fn on_event;
	capture_fatal_fn on_fatal_signal;
	capture_stack_fn on_stack;
	session_program_fn on_program;
	session_held_fn on_held;
	void *user;
	/* eBPF: called once, when the ring buffer is first three quarters
	 * full (records may be lost next); NULL: not told. */
	void (*on_backlog)(void);
	/* eBPF, watch: the calls a busy server makes for every request are
	 * counted in the kernel when they ran through, not handed on
	 * (bpf.h's quiet); failures and waits are. */
	bool quiet;
	/* And, with QUIET, a thread's repeats of one call on one path (bpf.h's
	 * quiet_repeats). */
	bool quiet_repeats;
	/* eBPF, watch: the session goes on while no process is followed
	 * (the cgroup's next program is followed from its exec), until a
	 * signal ends it; PID may be 0 then (an empty cgroup). */
	bool keep_on;
	/* eBPF, watch: the calls' record may be paused and taken up again
	 * (session_record_calls). */
	bool pausable;
	/* eBPF: called in the reader's thread between two reads (every
	 * POLL_MS at least), with what may be asked of the session then
	 * (session_blocked_now); NULL: not called. */
	void (*on_tick)(void *user, struct session_tick *tick);
	/* eBPF, with PAUSABLE: called in the reader's thread while the calls
	 * are not recorded, each time its wait ends woken and at a process's
	 * start, before the records are handed on (bpf.h's
	 * bpf_capture_on_wake), with what on_tick may ask; NULL: not called. */
	void (*on_wake)(void *user, struct session_tick *tick);
};

/* In on_tick: thread TID of process TGID, when it is inside a call now,
 * has that call handed to on_event as a blocked event (as at a detach,
 * its stack through on_stack), begun no earlier than SINCE (monotonic
 * seconds); the thread goes on, and the call's own event comes when it
 * returns. Returns whether it was in a call. */
bool session_blocked_now(struct session_tick *tick, pid_t tgid, pid_t tid, double since);
/* In on_tick: process PID (one that joined the watched cgroup without an
 * exec: moved there by a manager, or by itself) and those below it
 * followed from now, as attach follows them (on_event told of them as
 * found). False when it was followed already, or is gone. */
bool session_follow_now(struct session_tick *tick, pid_t pid);
/* In on_tick or on_wake, with PAUSABLE: the followed processes' calls
 * seen at their end so far (a copy of each CPU's counters: not at every
 * wake), and the processes started, forked or exec'd (a load); the
 * kernel's counts. And ON false stops recording their calls, which then
 * cost them nothing, ON true records them again (bpf.h's
 * bpf_capture_record_calls): processes are still followed while calls
 * are not recorded, their forks, execs, exits and signals. Returns 0, or
 * -1 with ERR set. */
uint64_t session_calls_seen(struct session_tick *tick);
uint64_t session_starts(struct session_tick *tick);
int session_record_calls(struct session_tick *tick, bool on, struct strbuf *err);

struct session_result {
	int child_status;	/* the command's wait status; -1 unknown */
	int spawn_errno;	/* the command could not be started */
	bool detached;		/* attach ended by detaching */
	int stop_signal;	/* the signal that ended an attach; 0 none */
	uint64_t events;
	uint64_t summed;	/* eBPF: of them, calls summed in the kernel */
	uint64_t stops;
	bool seccomp;		/* the filter was used */
	bool no_syscall_info;	/* the kernel lacks PTRACE_GET_SYSCALL_INFO */
	double seconds;
	enum capture_backend backend;	/* the one used */
	/* The eBPF capture could not load (the error says why). */
	bool no_ebpf;
	/* AUTO fell back to ptrace: why eBPF could not load; "" when not. */
	char fallback[256];
	/* eBPF: why no fatal signal could be caught with its stacks (the
	 * watch's seize was refused); "" when it could. */
	char no_stacks[256];
	/* eBPF: what could not be kept (bpf.h), and records not ours. */
	uint64_t lost_records, lost_entries, lost_follows, bad_records;
	/* Whose records the full ring buffer refused, most first. */
	struct rc_loss lost_who[RC_LOSSES_KEPT];
	size_t nlost_who;
	/* eBPF, quiet: calls counted in the kernel, not handed on. */
	uint64_t quiet_calls;
	/* eBPF: times a thread was held until the reader made room. */
	uint64_t held_for_room;
	/* eBPF: calls' stacks the kernel did not copy, to keep the ring
	 * buffer for the calls (no call is lost for them). */
	uint64_t stacks_skipped;
};

/* Anything the eBPF capture had to drop. */
static inline uint64_t session_losses(const struct session_result *r)
{
	return r->lost_records + r->lost_entries + r->lost_follows + r->bad_records;
}

/* The backends built in, for --version: "ptrace, ebpf (libbpf 1.1)". */
void session_backends(struct strbuf *out);

/* Returns 0, or -1 with a message in ERR (the command or attach failed
 * before tracing began; res->spawn_errno says why a command did not run). */
int session_run(const struct session_opts *o, struct session_result *res, struct strbuf *err);

#endif
