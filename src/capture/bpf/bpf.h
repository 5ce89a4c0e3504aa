/* The eBPF capture's loader: capture.bpf.c's programs loaded and
 * attached, the processes to follow, and their records read back as
 * events.
 *
 * Contract:
 * - bpf_capture_open loads and attaches everything, or fails with one
 *   line in ERR that says why (no privilege: root, or CAP_BPF with
 *   CAP_PERFMON; a kernel without BTF or ring buffers). Nothing is
 *   followed yet.
 * - A followed process's children are followed from their fork, by the
 *   kernel (capture.bpf.c), and forgotten when their last thread ends.
 * - The programs and their links belong to this process: when it exits,
 *   however it exits, the kernel detaches them and the followed
 *   processes run on untouched. bpf_capture_close detaches the exit hook
 *   before the entry hook, so that no call is seen to end unstarted.
 * - Nothing is lost silently: what the kernel side had to drop is
 *   counted (bpf_capture_losses).
 * - Records are untrusted input like any other: bpf_record_parse checks
 *   each one's size and kind before it is read, and replay.c gives them
 *   to capture as they are: a call as a view of the record and its
 *   copies of memory (capture/call.h), which capture decodes and makes an
 *   event with the same code as the tracer's stops.
 */
#ifndef RC_CAPTURE_BPF_BPF_H
#define RC_CAPTURE_BPF_BPF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/types.h>

#include "capture/bpf/record.h"
#include "capture/capture.h"
#include "capture/call.h"
#include "event/loss.h"
#include "event/stack.h"
#include "util/strbuf.h"

struct bpf_capture;

struct bpf_capture_opts {
	size_t ring_bytes;	/* the ring buffer; 0: 16 MiB (a power of two) */
	size_t wakeup_bytes;	/* backlog that wakes the reader; 0: 256 KiB */
	size_t print_bytes;	/* of a buffer read into, for printing; 0 none */
	/* The calls recorded (a bitmap of numbers, NBITS long: capture.h's
	 * selection); NULL: all. The rest are never copied out of the
	 * kernel. A command's exec always is (it ends its held prelude). */
	const unsigned char *select;
	long nbits;
	/* Diagnosis mode: sum what the rules need only as sums (record.h,
	 * RCB_SUM) instead of recording each call. */
	bool sums;
	/* Where in the code: a stack record before each call a finding may
	 * quote (record.h, RCB_STACK). */
	bool stacks;
	/* attach --cgroup: a process that execs inside this cgroup (v2), or
	 * a cgroup below it, is followed from its exec (one that joined it
	 * from outside: a runtime's exec into a container), as the kernel's
	 * id of the cgroup (its directory's inode) and its depth below the
	 * root; 0: none. Children are followed from their parent anyway. */
	uint64_t cgroup_id;
	unsigned cgroup_level;
	/* watch: that cgroup's path from the root (shorter than
	 * RCB_CGROUP_PATH_MAX) and its parent's id, to follow the cgroup
	 * made anew at that path (a restarted unit's); NULL: not. */
	const char *cgroup_path;
	uint64_t cgroup_parent;
	/* watch: only the processes in that cgroup (or below it) are
	 * followed, one that leaves it no more; the test spares the calls
	 * of every other process the followed set's look-ups. */
	bool cgroup_only;
	/* watch, diagnosis mode: the calls a busy server makes for every
	 * request (I/O on sockets and pipes, polls, futex calls, accepts,
	 * closes) are counted, not written, when they ran through
	 * (record.h's RCB_PLAN_QUIET); failures and waits are written. */
	bool quiet;
	/* And with QUIET, a thread's calls that worked on one path past its
	 * first RCB_REPEAT_SHOWN, and the files so opened (RCB_PLAN_REPEAT). */
	bool quiet_repeats;
	/* watch: the call hooks can be detached and attached again
	 * (bpf_capture_record_calls); their programs stay loaded, two
	 * descriptors more. */
	bool pausable;
};

int bpf_capture_open(struct bpf_capture **out, const struct bpf_capture_opts *o, struct strbuf *err);
/* Follow process PID (as this process sees it: in a container, not the
 * kernel's) and, from now on, its children. The followed set is keyed
 * by the kernel's tgid, found through a pidfd, which is the same in
 * every pid namespace; the records then name threads by their ids in
 * this process's namespace. */
int bpf_capture_follow(struct bpf_capture *c, pid_t pid, struct strbuf *err);

/* Each record as the kernel wrote it: return 0 to go on. */
typedef int (*bpf_record_fn)(void *user, const void *rec, size_t size);
/* Read what is there, waiting up to TIMEOUT_MS (0: do not wait) for the
 * first: the number of records, or -1 with ERR set. */
int bpf_capture_poll(struct bpf_capture *c, int timeout_ms, bpf_record_fn fn, void *user, struct strbuf *err);
/* From another thread: the reader's poll returns now, not at its time-out. */
void bpf_capture_wake(struct bpf_capture *c);
/* While the calls are not recorded (bpf_capture_record_calls), FN(ARG)
 * each time a poll's wait ends woken (records came, or a wake), before
 * the records are read, and at the first record read after a process
 * started (its fork's, or a backlog's): what must not wait for the
 * records to be handed on (watch records calls again at a start, before
 * the new program's first calls if it can). NULL: nothing. */
void bpf_capture_on_wake(struct bpf_capture *c, void (*fn)(void *arg), void *arg);
/* ON: the followed processes are traced by the loader's watch, and a
 * thread whose copied call has Python frames is held after it (record.h,
 * RCB_HOLD_SIGNAL) until the watch lets it go. */
void bpf_capture_hold_calls(struct bpf_capture *c, bool on);
/* Whether signal SIG, about to reach thread TID, is the kernel's hold
 * request (taken: not the program's); from any thread. */
bool bpf_capture_held(struct bpf_capture *c, pid_t tid, int sig);
/* The Python frames of thread TID, which the kernel holds (RCB_HOLD_SIGNAL),
 * into PY (at most MAX), its process into *TGID and its program's memory
 * into *MM: how many; 0 when there are none (the entry is taken). */
size_t bpf_capture_held_frames(struct bpf_capture *c, pid_t tid, pid_t *tgid, uint64_t *mm, struct rc_py_raw *py,
			       size_t max);
/* The stack records the kernel has written for process TGID (0 once
 * it has ended); any thread may ask. */
uint64_t bpf_capture_copies(struct bpf_capture *c, pid_t tgid);
/* The code objects of process TGID's N frames PY, with MARKS
 * (rc_py_code_mark), are named by the loader: a thread is no longer
 * held for them while they are the same objects. */
void bpf_capture_python_named(struct bpf_capture *c, pid_t tgid, const struct rc_py_raw *py, const uint64_t *marks,
			      size_t n);

/* The sums still in progress, as records, each given to FN (processes
 * that live on when the capture ends): call it once the ring is read. */
void bpf_capture_flush_sums(struct bpf_capture *c, bpf_record_fn fn, void *user);

struct bpf_capture_losses {
	uint64_t reserve;	/* records the full ring buffer refused */
	uint64_t entry;		/* calls whose entry could not be kept */
	uint64_t follow;	/* children that could not be followed */
	uint64_t stacks;	/* calls' stacks not copied (no call lost) */
	uint64_t held;		/* threads held for room (nothing lost) */
	uint64_t quiet;		/* quiet calls counted, not written (bpf_capture_opts) */
	/* Whose records the full ring buffer refused, and what they were:
	 * the most, most first (event/loss.h). */
	struct rc_loss who[RC_LOSSES_KEPT];
	size_t nwho;
};
void bpf_capture_losses(const struct bpf_capture *c, struct bpf_capture_losses *out);
/* Not losses, for watch's --max-call-rate: the followed calls seen at
 * their exit so far (a copy of each CPU's counters: not at every read);
 * and the processes started (a followed process's fork of a process, or
 * its exec), which costs a load. */
uint64_t bpf_capture_calls_seen(const struct bpf_capture *c);
uint64_t bpf_capture_starts(const struct bpf_capture *c);
/* Whether the ring buffer's backlog has passed three quarters of it: the
 * reader is falling behind, and records may be refused next. */
bool bpf_capture_backlog_high(const struct bpf_capture *c);
/* Whether any process is followed still (the kernel forgets each one
 * when its last thread ends). */
bool bpf_capture_following(const struct bpf_capture *c);
/* Process TGID's Python frames are walked in the kernel with W while its
 * program is the one whose memory is MM (record.h, struct rcb_py_walk). */
void bpf_capture_python(struct bpf_capture *c, pid_t tgid, uint64_t mm, const struct rc_py_walk *w);
/* Every process that execs or maps the file P names gets P's walk from
 * then on (record.h, struct rcb_py_program). */
void bpf_capture_python_program(struct bpf_capture *c, const struct rc_py_program *p);

/* Diagnosis mode (SUMS), for watch: ON false detaches the call hooks
 * (exit, then switch), which every call on the machine pays for while
 * they are attached; the process hooks stay (forks, execs, exits,
 * signals), and so does the followed set. ON true attaches them again.
 * Returns 0, or -1 with ERR set (the calls stay unrecorded). */
int bpf_capture_record_calls(struct bpf_capture *c, bool on, struct strbuf *err);

/* Detach the programs (the exit hook first), keeping the ring and the
 * maps to read what is left; bpf_capture_close does it too. */
void bpf_capture_detach(struct bpf_capture *c);
void bpf_capture_close(struct bpf_capture *c);
/* "libbpf 1.1": the library it was built with, for --version. */
void bpf_capture_version(struct strbuf *out);

/* What to add to the kernel's CLOCK_MONOTONIC times to make them epoch
 * seconds, as the tracer's timestamps are (taken once, at open). */
double bpf_capture_epoch(const struct bpf_capture *c);

/*
 * Records read back (record.c, without libbpf).
 */
/* What the plan keeps of SC's memory (record.h): the loader's plan for
 * the kernel, and the parse's key to the items it finds. */
struct rc_syscall;
/* PRINT_BYTES: how much of a buffer read into is printed (trace's -s);
 * 0 copies none (a diagnosis reads none). */
void bpf_plan_of(const struct rc_syscall *sc, size_t print_bytes, struct rcb_plan *pl);

#define BPF_REC_REGIONS 96
#define BPF_REC_ARGV 256	/* pointers made for an exec's argv */

/* A record, checked: its fixed part by kind (only that kind's member is
 * valid), and a call's items as the memory the decoders read (the
 * regions point into the record). */
struct bpf_rec {
	struct rcb_header h;
	struct rcb_call call;	/* RCB_CALL */
	struct rcb_signal sig;	/* RCB_SIGNAL */
	struct rcb_exit exit;	/* RCB_EXIT */
	struct rcb_fork fork;	/* RCB_FORK */
	struct rcb_sum sum;	/* RCB_SUM */
	const struct rcb_stack *stack;	/* RCB_STACK: in the record itself (large) */
	struct mem_region region[BPF_REC_REGIONS];
	size_t nregions;
	/* Made by the parse: an exec's argv array, the lengths a call was
	 * given by pointer (addrlen, optlen). */
	uint64_t argv_ptrs[BPF_REC_ARGV + 1];
	uint32_t lens[2];
	size_t nlens;
	/* RCB_I_LIVE: what the thread was when its call failed; NULL none. */
	const struct rcb_live *live;
	struct rcb_live live_copy;
};

/* REC (SIZE bytes) checked against its size and kind, and each item
 * against the caps the kernel half keeps: 0, or -1 for a record that is
 * not one of ours. */
int bpf_record_parse(const void *rec, size_t size, struct bpf_rec *r);

/*
 * Records replayed (replay.c, without libbpf): each one given to capture
 * (capture.h, "Driving a capture" and "Replaying"): a call as a view of
 * the record (capture/call.h), decoded from the record's copies of its
 * memory, printed and made an event as a tracer's stops are. Threads are
 * known from their fork records, or from their first record (a thread
 * running before it was followed).
 */
struct capture;
struct bpf_replay;

/* Monotonic record times plus EPOCH are the events' times. */
struct bpf_replay *bpf_replay_new(struct capture *c, double epoch);
void bpf_replay_free(struct bpf_replay *rp);
/* Drop the records of process PID (a command started held) until its
 * exec: what it did before is rootcause's own. */
void bpf_replay_hide_until_exec(struct bpf_replay *rp, pid_t pid);
/* Replay process PID's records alone (strace without -f). */
void bpf_replay_only(struct bpf_replay *rp, pid_t pid);
/* 0, or -1 for a record that is not well formed (counted, skipped). */
int bpf_replay_record(struct bpf_replay *rp, const void *rec, size_t size);
/* The Python walks that unwinding a stack record finds (event/stack.h,
 * rc_stack_copy) are given to FN, for the capture to walk the process's
 * frames in the kernel from then on (bpf_capture_python): the replay
 * itself never touches the kernel's maps. */
typedef void (*bpf_walk_fn)(void *user, pid_t tgid, uint64_t mm, const struct rc_py_walk *w);
/* And NAMED is told the frames whose code objects the unwinder learned
 * to name (rc_stack_copy.py_learned), for the capture to hold no thread
 * for them again (bpf_capture_python_named). */
typedef void (*bpf_named_fn)(void *user, pid_t tgid, const struct rc_py_raw *py, const uint64_t *marks, size_t n);
void bpf_replay_walks_to(struct bpf_replay *rp, bpf_walk_fn fn, bpf_named_fn named, void *user);
/* Each process whose exec worked is told to FN, once its exec is
 * replayed: its new program may be a Python the capture can walk from
 * its next call on (bpf_capture_python_program). */
typedef void (*bpf_exec_fn)(void *user, pid_t tgid);
void bpf_replay_execs_to(struct bpf_replay *rp, bpf_exec_fn fn, void *user);
uint64_t bpf_replay_bad_records(const struct bpf_replay *rp);
/* What the replay knows of process TGID's (the loader's id) stack
 * records: how many it is done with (handed on with their call, its
 * stack made, or dropped), the kernel's id of the process (for
 * bpf_capture_copies), and the program's memory of the last one seen
 * (a stack record's MM). */
struct bpf_replay_copies {
	uint64_t read;
	pid_t kernel_tgid;
	uint64_t mm;
};
/* False when it has seen none. Any thread may ask, while the replay runs
 * in another. */
bool bpf_replay_copies(struct bpf_replay *rp, pid_t tgid, struct bpf_replay_copies *out);

/* A kernel's walked frame as a stack copy holds it. */
static inline struct rc_py_raw bpf_py_raw(const struct rcb_py_frame *f)
{
	return (struct rc_py_raw){ .code = f->code, .instr = f->instr, .owner = f->owner, .entry = f->entry,
				   .tlbc = f->tlbc, .mark = f->mark };
}
/* The end of the capture: when DETACHING, each thread of the PIDS given
 * and of the processes seen that is still in a call is left blocked in
 * it, as the tracer leaves its threads (the call read from /proc, its
 * memory live, begun at SINCE, monotonic seconds, or at the end of the
 * thread's last call); then capture_finish. */
void bpf_replay_end(struct bpf_replay *rp, const pid_t *pids, size_t npids, double since, bool detaching);
/* Thread TID of process TGID, when /proc says it is inside a call now:
 * that call handed on as a blocked event (capture_finish_thread), begun
 * at its last call's end or at SINCE (monotonic seconds), whichever is
 * later, and the thread left as if it had not been seen to enter it, so
 * that the call's own record, when it returns, is replayed whole. For
 * watch's stalls: the process goes on. Returns whether a call was. */
bool bpf_replay_blocked_now(struct bpf_replay *rp, pid_t tgid, pid_t tid, double since);

#endif
