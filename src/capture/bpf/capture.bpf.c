// SPDX-License-Identifier: GPL-2.0
/* The in-kernel half of the eBPF capture: the calls of the followed
 * processes, one record per call at its exit (record.h).
 *
 * Followed processes are keyed by the kernel's tgid, which is the same
 * in every pid namespace. A child is followed from its fork and
 * forgotten when its last thread ends. The arguments are the registers
 * saved at entry (the exit hook's registers are the return's), and the
 * user strings are read at exit, where the kernel has paged them in.
 * What to keep of a call's memory is the loader's to say, per call
 * number, from event/syscalls.def's roles (the `plan` map): the meaning
 * of a call is not written a second time here.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "capture/bpf/record.h"

char LICENSE[] SEC("license") = "GPL";

/* A kernel address as a typed pointer: loads through it are guarded
 * loads, not probe calls (kernel 6.2 and later). */
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;
/* A task's memory areas, one by one (kernel 6.7+). */
extern int bpf_iter_task_vma_new(struct bpf_iter_task_vma *it, struct task_struct *task, __u64 addr) __ksym;
extern struct vm_area_struct *bpf_iter_task_vma_next(struct bpf_iter_task_vma *it) __ksym;
extern void bpf_iter_task_vma_destroy(struct bpf_iter_task_vma *it) __ksym;

/* Set by the loader before loading (the skeleton's rodata). */
const volatile __u64 wakeup_bytes = 256 * 1024;
/* The loader's pid namespace (/proc/self/ns/pid's device and inode):
 * records name threads by their ids there too. */
const volatile __u64 pidns_dev, pidns_ino;
/* The plan says which calls are recorded (RCB_PLAN_WANTED); 0: all. */
const volatile __u8 filter_calls;
/* Diagnosis mode (record.h, RCB_SUM): no entry hook (it costs as much
 * as the rest), the arguments read at exit, durations from when the
 * thread blocked, and the plan's summable calls summed. */
const volatile __u8 summing;
/* rt_sigreturn's number: at its exit the registers are the restored
 * ones, and orig_ax says -1. */
const volatile __s64 sigreturn_nr = -1;
/* Where in the code: a stack record before each call a finding may
 * quote (record.h, RCB_STACK). */
const volatile __u8 stacks;
/* watch: the quiet calls that ran through are counted, not written
 * (record.h, RCB_PLAN_QUIET). */
const volatile __u8 quiet;
/* watch: the call hooks may be detached (calls_paused) and its calls are
 * counted for its --max-call-rate; the exit hook of every other capture
 * leaves both out. */
const volatile __u8 pausable;
/* The kernel's ids of the types handed to it (bpf_rdonly_cast): the
 * loader relocates against a cut of the kernel's types (kernel-btf.h),
 * whose ids are not the kernel's. */
const volatile __u32 task_struct_btf_id;
const volatile __u32 file_btf_id;
/* attach --cgroup: the cgroup (v2) whose processes are followed from
 * their exec, when an exec brings one in from outside (bpf.h's
 * cgroup_id), and its depth; 0: none. */
const volatile __u64 follow_cgroup;
const volatile __u32 follow_cgroup_level;
/* watch --cgroup: the cgroup is found again when it is made anew (a
 * systemd unit's, at each restart: its directory is removed when the
 * unit stops and made again, with a new id, before its processes are
 * moved in), by its name (FOLLOW_CGROUP_NAME_LEN bytes) under its
 * parent (the kernel's id of the parent, which stays); its id then is
 * cgroup_now. 0: not looked for. */
const volatile __u64 follow_cgroup_parent;
const volatile __u32 follow_cgroup_name_len;
const volatile char follow_cgroup_name[RCB_CGROUP_PATH_MAX];
/* watch --cgroup: only the cgroup's processes (or those of a cgroup
 * below it) are followed. The hooks that run per call test this first:
 * the current task's cgroup costs no map look-up, where the followed
 * set costs a task storage and a hash look-up, and every call of every
 * process on the machine pays for the test (a watched server's clients
 * as much as the server). */
const volatile __u8 cgroup_only;
/* In a cgroup namespace the loader counts levels from the namespace's
 * root, the kernel from the hierarchy's: this many more (bpf.c,
 * kernel_tgid's level). Set before any process is followed. */
__u32 level_base;
/* The followed cgroup's level as the kernel counts it, since it was made
 * anew (written before cgroup_now). */
__u32 cgroup_level_now;
/* Its id since it was made anew; 0: the first. A global of the .bss
 * the loader maps already: a map of its own would cost a descriptor,
 * of the few a low RLIMIT_NOFILE leaves. */
__u64 cgroup_now;
/* watch: its calls are recorded again from this time (bpf_ktime_get_ns)
 * after a pause (bpf.h's bpf_capture_record_calls): a thread's block
 * older than it began a call whose exit was not seen, not the one that
 * ends now. 0: never paused. */
__u64 calls_from_ns;
/* watch: the call hooks are detached now; a new process's fork wakes the
 * reader at once, which attaches them again before the child's first
 * calls if it can (a short-lived child's are all it has). */
__u8 calls_paused;
/* watch: processes started (a followed process's fork of a process, or
 * an exec): calls are recorded again. A global the loader reads in its
 * mapped .bss at each wake, without a map look-up; rare enough to be
 * counted atomically. */
__u64 starts;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 16 << 20);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);	/* tgid */
	__type(value, __u8);	/* FOLLOWED | FOLLOWED_FATAL_TOLD */
} followed SEC(".maps");

/* Processes whose last thread ended lately: the ends of their other
 * threads may still come (on_task_exit). Least recently used go first. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);	/* tgid */
	__type(value, __u8);
} gone SEC(".maps");

/* How to walk each Python process's frames (record.h, struct
 * rcb_py_walk), as the loader found them; least recently used go first. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);	/* tgid */
	__type(value, struct rcb_py_walk);
} pywalks SEC(".maps");

/* The files that define a Python's _PyRuntime, known before they are
 * mapped (record.h, struct rcb_py_program): a few per run. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, struct rcb_file_key);
	__type(value, struct rcb_py_program);
} pyprograms SEC(".maps");

/* Held threads, named code objects, whether holding is on (record.h,
 * struct rcb_mark_key): each -> 1. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, struct rcb_mark_key);
	__type(value, __u64);	/* a code object's mark (rc_py_code_mark); else 1 */
} marks SEC(".maps");

/* The frames of the threads held (struct rcb_held), by tid: the loader
 * takes each entry as it names them. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, struct rcb_held);
} held_frames SEC(".maps");

/* Thread states looked through for the calling thread's: a service's
 * thread pool stays far below. */
#define RCB_PY_THREADS 128

#define FOLLOWED 1
#define FOLLOWED_FATAL_TOLD 2	/* on_signal_generate told its fatal signal */
#define FOLLOWED_SUMS 4		/* it has had sums (flush_all has work) */

/* The sums in progress, a slot each, the slot a hash of its key: an
 * array's look-up is an address computed in place, where a hash map's
 * cost a summed call as much as all the rest. A sum that finds its slot
 * taken by another writes that one out first (sum_call). The loader
 * sizes it, a power of two (SUMS_MASK + 1). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct rcb_sum_state);
} sums SEC(".maps");
const volatile __u32 sums_mask = 4095;


/* The kernel's values (include/linux/sched/signal.h, uapi signal.h). */
#define SIGKILL_NR 9
#define SIGNAL_GROUP_EXIT_FLAG 0x00000004
#define SI_KERNEL_CODE 0x80

struct entry {
	__u8 live;		/* inside the call NR */
	/* Its process is followed: it stays so while the thread lives
	 * (only its end forgets it), so a thread's storage answers for
	 * the followed set without a hash look-up per call (ours_now). */
	__u8 followed;
	__s64 nr;
	__u64 args[6];
	__u64 ns;
	/* A timeout argument's struct, read at entry (select rewrites it). */
	__u8 timeout[RCB_TIMEOUT];
	__u8 timeout_arg;	/* 0xff: none */
	__u8 timeout_fault;
	/* Diagnosis mode, which has no entry hook: when the thread first
	 * blocked since its last call ended (on_switch), and in which call
	 * (0: not since). */
	__u64 blocked_ns;
	__s64 blocked_nr;
	__u64 end_ns;		/* diagnosis mode: when the call returned */
	__u32 read_sum;		/* diagnosis mode: 1 + the slot of the thread's last
				 * read sum; 0 none */
	/* A fatal signal the kernel acts on without delivering it
	 * (on_signal_generate), to tell at the thread's end. */
	struct fatal_sig {
		__u8 live;
		__s32 signo, code, pid;
		__u32 uid;
		__u64 ns;
	} fatal;
	/* watch's quiet mode (record.h, RCB_PLAN_REPEAT): the paths this
	 * thread's calls worked or failed on, by hash with the call and
	 * outcome, how often each, and its quiet fds. */
	__u32 rep_hash[RCB_REPEAT_SLOTS];
	__u8 rep_count[RCB_REPEAT_SLOTS];
	__u64 quiet_fds[RCB_QUIET_FDS / 64];
};

/* The call a thread is in, in the thread's own storage: no hashing, and
 * no update and delete per call, which cost more than all the rest. */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct entry);
} inflight SEC(".maps");

/* A thread's exec, in its own storage (an exec by a thread other than
 * the leader changes its id, not its task):
 *  - its argv as its caller gave it, read at entry (the exec frees that
 *    memory): the strings one after the other, each with its NUL; twice
 *    the kept size, so that each string's read, at an offset below
 *    RCB_ARGV_MAX, has a constant bound;
 *  - what sched_process_exec saw of the new program, for the exit of
 *    the exec call: its file name, and the argv in its new memory (where
 *    a script's interpreter comes first), for when the first could not
 *    be read. */
struct exec_state {
	char argv[2 * RCB_ARGV_MAX];
	__u32 len;		/* bytes kept */
	__u32 total;		/* more than LEN: cut */
	__u8 live;		/* read for the exec in progress */
	__u8 exec_seen;		/* the rest is the new program's */
	/* Its exec was written at sched_process_exec, while calls were not
	 * recorded (exec_while_paused): its exit, if the hook is back by
	 * then, writes nothing. */
	__u8 written;
	char filename[RCB_STR_MAX];
	char new_argv[RCB_ARGV_MAX];
	__u32 new_len, new_total;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct exec_state);
} execs SEC(".maps");

/* The most argv strings read at entry. */
#define EXEC_MAX_ARGS 64

/* Per call number: what to keep of its memory (record.h). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, RCB_NR_MAX);
	__type(key, __u32);
	__type(value, struct rcb_plan);
} plan SEC(".maps");

/* A record is built here, then copied to the ring buffer at its size.
 * Three times the largest record: an item's offset, masked to below
 * RCB_REC_MAX, plus its largest read (masked to below RCB_REC_MAX too)
 * stays inside, which is the bound the verifier can follow.
 *
 * The loss counters come first in the same per-CPU value, and a new
 * sum is made from its zeroed start (sum_call): a map fewer is a
 * descriptor fewer, and a command run with `ulimit -n 32` still can be
 * (the loader holds each map's and program's). */
struct scratch {
	__u64 counters[RCB_NCOUNTERS];	/* first: the loader reads them there */
	__u64 woke_ns;		/* when this CPU last woke the reader (wake_flags) */
	/* Its last look found the ring buffer seven eighths full: the next
	 * call's thread may be held for room (hold_for_room). */
	__u8 over;
	__u64 unchecked;	/* bytes written since it last looked at the backlog */
	struct entry en;	/* diagnosis mode's call, made at its exit */
	/* The Python frames of the last stack copied with them, for
	 * hold_after (which runs once the record is handed on); HELD.NPY
	 * of them, 0: none to look at. */
	struct rcb_held held;
	/* The call being ended is the last of a sum's calls recorded whole
	 * (sum_call): a site. */
	__u8 site_io;
	/* A path as repeated reads it (RCB_PLAN_REPEAT). */
	char path[RCB_REPEAT_PATH];
	/* One frame's bytes and its code object's, as frame_step reads
	 * them (struct rcb_py_walk's spans). */
	__u8 frame[2 * RCB_FRAME_SPAN + 8];
	__u8 code[2 * RCB_FRAME_SPAN + 8];
	char buf[3 * RCB_REC_MAX];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct scratch);
} scratch SEC(".maps");


/* A record's header, for the current thread (every hook that writes a
 * record runs in the thread it is about). */
static __always_inline void header(struct rcb_header *h, __u32 kind, __u32 size, __u32 tgid, __u32 tid)
{
	struct bpf_pidns_info ns = { 0 };

	h->kind = kind;
	h->size = size;
	h->tgid = tgid;
	h->tid = tid;
	h->ns_tgid = h->ns_tid = 0;
	if (pidns_ino && bpf_get_ns_current_pid_tgid(pidns_dev, pidns_ino, &ns, sizeof(ns)) == 0) {
		h->ns_tgid = ns.tgid;
		h->ns_tid = ns.pid;
	}
}

/* The six argument registers a call saved (x86-64's order). REGS is a
 * typed kernel pointer (tp_btf's, bpf_task_pt_regs'): read directly,
 * without a probe call per register. */
static __always_inline void regs_args(__u64 args[6], const struct pt_regs *regs)
{
	args[0] = regs->di;
	args[1] = regs->si;
	args[2] = regs->dx;
	args[3] = regs->r10;
	args[4] = regs->r8;
	args[5] = regs->r9;
}

/* EN as call NR, begun, with REGS' arguments: a call no entry hook saw
 * (diagnosis mode, or one a seccomp filter refused). */
static __always_inline void entry_from_regs(struct entry *en, __s64 nr, const struct pt_regs *regs)
{
	en->live = 1;
	en->nr = nr;
	regs_args(en->args, regs);
	en->timeout_arg = 0xff;
	en->timeout_fault = 0;
}

/* R, a call record of thread TID (of SIZE; 0: set once its items are
 * added): EN's call, begun at EN->ns, that returned RET at EXIT_NS. */
static __always_inline void call_head(struct rcb_call *r, __u32 size, const struct entry *en, __u32 tgid, __u32 tid,
				      long ret, __u64 exit_ns, __u32 flags)
{
	header(&r->h, RCB_CALL, size, tgid, tid);
	r->nr = en->nr;
	for (int i = 0; i < 6; i++)
		r->args[i] = en->args[i];
	r->ret = ret;
	r->enter_ns = en->ns;
	r->exit_ns = exit_ns;
	r->nitems = 0;
	r->flags = flags;
}

static __always_inline void count(__u32 which)
{
	__u32 zero = 0;
	struct scratch *s = bpf_map_lookup_elem(&scratch, &zero);

	if (s && which < RCB_NCOUNTERS)
		s->counters[which] += 1;
}

/* Task T's call storage, when its process is followed; NULL when not
 * (or no storage could be made, counted as a lost entry). The storage
 * remembers that it is followed, which spares the followed set's hash
 * look-up in the hooks that run per call and per switch. */
static __always_inline struct entry *followed_storage(struct task_struct *t)
{
	struct entry *en = bpf_task_storage_get(&inflight, t, 0, 0);
	__u32 tgid = t->tgid;

	if (en && en->followed)
		return en;
	if (!bpf_map_lookup_elem(&followed, &tgid))
		return 0;
	en = bpf_task_storage_get(&inflight, t, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!en) {
		count(RCB_LOST_ENTRY);
		return 0;
	}
	en->followed = 1;
	return en;
}

/* The current task is in the followed cgroup, or one below it: the
 * cgroup made anew (cgroup_now, at the kernel's level), else the first,
 * whose level the loader counted from its namespace's root. False when
 * none is followed, or not made yet. */
static __always_inline bool in_followed_cgroup(void)
{
	__u64 cg = cgroup_now;

	if (cg)
		return bpf_get_current_ancestor_cgroup_id(cgroup_level_now) == cg;
	return follow_cgroup && bpf_get_current_ancestor_cgroup_id(follow_cgroup_level + level_base) == follow_cgroup;
}

/* The current task is outside the followed cgroup (cgroup_only): none
 * of its calls is looked at. */
static __always_inline bool outside_cgroup(void)
{
	return cgroup_only && !in_followed_cgroup();
}

/* The current task, for loads only: see fd_file. */
static __always_inline struct task_struct *untrusted_task(void)
{
	return bpf_rdonly_cast(bpf_get_current_task_btf(), task_struct_btf_id);
}

/* The current thread's ids and call storage, when its process is
 * followed (followed_storage). */
static __always_inline struct entry *ours_now(__u32 *tgid, __u32 *tid)
{
	struct task_struct *t = bpf_get_current_task_btf();

	if (outside_cgroup())
		return 0;
	*tgid = t->tgid;
	*tid = t->pid;
	return followed_storage(t);
}

/* A record of thread TID refused by the full ring buffer: counted, and
 * by whom and what (WHAT: a call's number, or minus its rcb_kind). */
static __always_inline void lost(__u32 tid, __s32 what)
{
	struct rcb_mark_key k = { .a = tid, .b = (__u32)what, .kind = RCB_MARK_LOST };
	__u64 one = 1, *n;

	count(RCB_LOST_RESERVE);
	n = bpf_map_lookup_elem(&marks, &k);
	if (n)
		__sync_fetch_and_add(n, 1);
	else
		bpf_map_update_elem(&marks, &k, &one, BPF_NOEXIST);
}

/* Room for a record of SIZE bytes in the ring buffer; NULL (counted as
 * TID's WHAT, see lost) when it is full. */
static __always_inline void *reserve(__u64 size, __u32 tid, __s32 what)
{
	void *r = bpf_ringbuf_reserve(&events, size, 0);

	if (!r)
		lost(tid, what);
	return r;
}

/* Wake the reader only once the backlog is worth a read: a wake-up per
 * record slows the traced program three- to fourfold (each is an
 * interrupt the CPU sends itself, a VM exit on a virtual machine). And
 * not again on this CPU for WAKE_GAP_NS: a reader that falls behind is
 * awake, and reads on without being woken; one that sleeps with a
 * backlog (a wake that raced its going to sleep) is woken again soon.
 * The backlog itself is looked at once per sixteenth of WAKEUP_BYTES
 * of records written on this CPU: the reader's position, which the
 * query reads, is on a cache line the reader's CPU keeps writing. */
#define WAKE_GAP_NS 1000000ULL
/* Set once the ring buffer's backlog passed three quarters of it. */
__u32 backlog_high;

static __always_inline __u64 wake_flags(__u64 size)
{
	__u32 zero = 0;
	struct scratch *s = bpf_map_lookup_elem(&scratch, &zero);

	if (!s)
		return 0;
	s->unchecked += size;
	if (s->unchecked < wakeup_bytes / 16)
		return BPF_RB_NO_WAKEUP;
	s->unchecked = 0;
	__u64 avail = bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA);
	__u64 ring = bpf_ringbuf_query(&events, BPF_RB_RING_SIZE);
	/* Three quarters full: the reader is losing the race, and the
	 * loader says so before the first record is refused. */
	if (avail > ring / 4 * 3)
		backlog_high = 1;
	s->over = avail > ring / 8 * 7;
	if (avail < wakeup_bytes)
		return BPF_RB_NO_WAKEUP;
	__u64 now = bpf_ktime_get_ns();
	if (now - s->woke_ns < WAKE_GAP_NS)
		return BPF_RB_NO_WAKEUP;
	s->woke_ns = now;
	return BPF_RB_FORCE_WAKEUP;
}

/* A stack record wants a prompt read (the loader names its Python code
 * objects from the process's memory, which the program may free soon),
 * but not a wake-up each: at PyTorch's start-up, a wake per stack cost
 * the program more than the copies (each is an interrupt the CPU sends
 * itself: a VM exit). While records come the reader reads every
 * RCB_BUSY_POLL_MS (session.c); it says in READER_WAITS when it goes to
 * a longer wait, and the first stack after that wakes it. */
__u32 reader_waits;

static __always_inline __u64 stack_wake_flags(void)
{
	if (!reader_waits)
		return BPF_RB_NO_WAKEUP;
	reader_waits = 0;
	return BPF_RB_FORCE_WAKEUP;
}

/*
 * Diagnosis mode's sums (record.h, RCB_SUM).
 */

/* The current thread's FD: its file table, read as the kernel keeps it
 * (the call has just returned, so the fd is still the one it used,
 * barring another thread's close); NULL when none. */
static __always_inline struct file *fd_file(int fd)
{
	/* Loads through the task's typed pointer (each a load the kernel
	 * guards), not a probe call per field; only the slot of a table
	 * indexed by a number is probed. Read-only (untrusted): the
	 * verifier then has no trust of the pointers loaded to settle, a
	 * search of the kernel's BTF by name at each load in each state. */
	struct task_struct *t = untrusted_task();
	struct fdtable *fdt = t->files->fdt;
	unsigned int max = fdt->max_fds;
	struct file **fds = fdt->fd;
	struct file *f = 0;

	if ((unsigned int)fd >= max || bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]) != 0 || !f)
		return 0;
	return bpf_rdonly_cast(f, file_btf_id);
}

/* Whether the current thread's FD is a regular file (fd_file). */
static __always_inline int regular_file(int fd, __u32 *dev, __u64 *ino, __u64 *size)
{
	struct file *ff = fd_file(fd);

	if (!ff)
		return 0;
	struct inode *in = ff->f_inode;
	*ino = in->i_ino;
	*dev = in->i_sb->s_dev;
	*size = in->i_size;
	return (in->i_mode & 0170000) == 0100000;
}

/* The end of a file's name looked at by code_file: "libstdc++.so.6.0.30"
 * keeps its ".so." within it. */
#define NAME_TAIL 32

/* code_file's search of a name's tail for ".so.", by bpf_loop: the
 * verifier follows one step, not 29 (a loop of its own was 3,600 of the
 * exit hook's instructions to verify). */
struct so_scan {
	const char *tail;
	__u32 n;
	int found;
};

static int so_step(__u32 i, void *ctx)
{
	struct so_scan *s = ctx;
	/* As one 64-bit register, which the verifier bounds. */
	__u64 k = i;
	barrier_var(k);
	if (k + 4 > s->n || k + 4 > NAME_TAIL)
		return 1;
	const char *t = s->tail + k;
	if (t[0] == '.' && t[1] == 's' && t[2] == 'o' && t[3] == '.') {
		s->found = 1;
		return 1;
	}
	return 0;
}

/* Whether the current thread's FD is code by its name: a shared object
 * (name.so, name.so.6.0.1) or Python's (.py, .pyc). The dynamic loader
 * and an interpreter open and read each once, and no rule sums them (a
 * sum's site is not copied for them). A function of its own: the
 * verifier follows it once. */
__noinline int code_file(int fd)
{
	struct file *ff = fd_file(fd);
	char tail[NAME_TAIL] = { 0 };

	if (!ff)
		return 0;
	const unsigned char *name = ff->f_path.dentry->d_name.name;
	__u32 len = ff->f_path.dentry->d_name.len, n = len;
	if (len >= NAME_TAIL) {
		if (bpf_probe_read_kernel(tail, NAME_TAIL, name + len - NAME_TAIL) != 0)
			return 0;
		n = NAME_TAIL;
	} else if (bpf_probe_read_kernel_str(tail, NAME_TAIL, name) < 0) {
		return 0;
	}
	if (n < 3 || n > NAME_TAIL)
		return 0;
	/* .so and .py at the end, .pyc, and .so. anywhere in the tail. */
	if ((tail[n - 3] == '.' && tail[n - 2] == 's' && tail[n - 1] == 'o') ||
	    (tail[n - 3] == '.' && tail[n - 2] == 'p' && tail[n - 1] == 'y') ||
	    (n >= 4 && tail[n - 4] == '.' && tail[n - 3] == 'p' && tail[n - 2] == 'y' && tail[n - 1] == 'c'))
		return 1;
	struct so_scan s = { .tail = tail, .n = n };
	bpf_loop(NAME_TAIL, so_step, &s, 0);
	return s.found;
}

/* A process's sums of a file are recorded whole at first, as evidence
 * (RCB_SUM_WHOLE calls), once per file and direction: a file opened
 * and read again is summed from its first call. What has been shown
 * is marked in the upper half of the slots, a slot per process, file
 * and direction (a sum's key with fd -1); one that loses its slot
 * shows its evidence again. */
static __always_inline struct rcb_sum_state *shown_at(__u32 tgid, __u32 dir, __u32 dev, __u64 ino)
{
	__u32 h = tgid * 0x9e3779b1u ^ (__u32)ino * 0x85ebca77u ^ (__u32)(ino >> 32) ^ dev * 0x27d4eb2fu ^ dir;
	__u32 i = ((h ^ (h >> 15)) & (sums_mask >> 1)) | ((sums_mask + 1) >> 1);

	return bpf_map_lookup_elem(&sums, &i);
}

static __always_inline int is_shown(const struct rcb_sum_state *m, __u32 tgid, __u32 dir, __u32 dev, __u64 ino)
{
	return m && m->used && m->key.fd == -1 && m->key.tgid == tgid && m->key.dir == dir && m->dev == dev &&
	       m->ino == ino;
}

/* The slot of sum K, and its index. */
static __always_inline __u32 sum_index(const struct rcb_sum_key *k)
{
	__u32 h = k->tgid * 0x9e3779b1u ^ (__u32)k->fd * 0x85ebca77u ^ k->dir * 0xc2b2ae3du;

	/* The lower half: the upper is is_shown's. */
	return (h ^ (h >> 15)) & (sums_mask >> 1);
}

static __always_inline struct rcb_sum_state *sum_at(const struct rcb_sum_key *k)
{
	__u32 i = sum_index(k);

	return bpf_map_lookup_elem(&sums, &i);
}

static __always_inline int same_key(const struct rcb_sum_key *a, const struct rcb_sum_key *b)
{
	return a->tgid == b->tgid && a->fd == b->fd && a->dir == b->dir;
}

/* Sum ST written to the ring, and its slot freed: by the current thread
 * TGID/TID of its process, or with the ids of its first call when TGID
 * is 0 (another process's, whose slot is wanted). */
static __always_inline void sum_out(struct rcb_sum_state *st, __u32 tgid, __u32 tid)
{
	st->used = 0;
	if (!st->s.calls)
		return;
	if (tgid)
		header(&st->s.h, RCB_SUM, sizeof(st->s), tgid, tid);
	st->s.last_ns = bpf_ktime_get_ns();
	if (bpf_ringbuf_output(&events, &st->s, sizeof(st->s), wake_flags(sizeof(st->s))) != 0)
		lost(st->s.h.tid, -RCB_SUM);
}

/* V's bit length, as small-io counts sizes: 0 for 0, 11 for 1024. */
static __always_inline __u32 bit_length(__u64 v)
{
	__u32 n = 0;

	/* A binary search of its highest bit, without a branch: each of
	 * six branches doubled the paths the verifier follows through the
	 * rest of sum_call. Before the step of K bits V is below 2^2K, so
	 * X = V >> K is below 2^K, and (X + 2^K - 1) >> K is 1 when X is
	 * not 0. */
#define BIT_STEP(k, log2k)                                                     \
	do {                                                                   \
		__u64 s = ((v >> (k)) + ((1ULL << (k)) - 1)) >> (k) << (log2k); \
		v >>= s;                                                       \
		n += s;                                                        \
	} while (0)
	BIT_STEP(32, 5);
	BIT_STEP(16, 4);
	BIT_STEP(8, 3);
	BIT_STEP(4, 2);
	BIT_STEP(2, 1);
	BIT_STEP(1, 0);
#undef BIT_STEP
	return n + (__u32)v;
}

/* The call EN ended with RET: summed (1 + the index of its sum's slot),
 * or to be recorded whole (0). Only a fast read or write of a regular
 * file that moved bytes is; the first RCB_SUM_WHOLE of each sum are
 * whole. */
__noinline int sum_call(const struct entry *en, const struct rcb_plan *pl, long ret, __u32 tgid, __u32 tid)
{
	if (!en || !pl || !pl->sum || ret <= 0 || pl->sum_fd >= 6)
		return 0;
	int fd = (int)en->args[pl->sum_fd & 7];
	if (fd < 0 || (pl->sum == RCB_SUM_WRITE && (fd == 1 || fd == 2)))
		return 0;	/* what the program says is error-message's */
	/* Diagnosis mode's clock (diag_call): 0, the call did not block. */
	__u64 dur = en->end_ns - en->ns;
	if (dur >= RCB_SUM_SLOW_NS)
		return 0;
	struct rcb_sum_key k = { .tgid = tgid, .fd = fd, .dir = pl->sum };
	__u32 slot = sum_index(&k);
	struct rcb_sum_state *st = bpf_map_lookup_elem(&sums, &slot);
	if (!st)
		return 0;
	/* A sum is made for a regular file, and written before its fd is
	 * closed or replaced: while it is there, the fd is that file. */
	if (!st->used || !same_key(&st->key, &k)) {
		__u32 dev = 0;
		__u64 ino = 0, size = 0;
		if (!regular_file(fd, &dev, &ino, &size))
			return 0;
		if (st->used)
			sum_out(st, 0, 0);	/* another's: out with its own ids */
		/* Its process is marked as having sums (flush_all) unless
		 * the slot's last was its own: a slot keeps its process's id
		 * until flush_all forgets both. */
		__u8 *f = st->key.tgid != tgid ? bpf_map_lookup_elem(&followed, &tgid) : 0;
		if (f)
			*f |= FOLLOWED_SUMS;
		__builtin_memset(st, 0, sizeof(*st));
		st->key = k;
		st->used = 1;
		st->dev = dev;
		st->ino = ino;
		if (is_shown(shown_at(tgid, pl->sum, dev, ino), tgid, pl->sum, dev, ino))
			st->whole = RCB_SUM_WHOLE;
	}
	if (st->whole < RCB_SUM_WHOLE) {
		if (++st->whole == RCB_SUM_WHOLE) {
			/* A file moved in pieces: where (small-io's site, a
			 * sample of one for the sum that follows); not the
			 * loader's reads of a library's headers. */
			__u32 zero = 0;
			struct scratch *sc = bpf_map_lookup_elem(&scratch, &zero);
			if (sc && !code_file(fd))
				sc->site_io = 1;
			struct rcb_sum_state *m = shown_at(tgid, pl->sum, st->dev, st->ino);
			if (m) {
				m->used = 1;
				m->key.tgid = tgid;
				m->key.fd = -1;
				m->key.dir = pl->sum;
				m->dev = st->dev;
				m->ino = st->ino;
				m->s.calls = 0;	/* never written out */
			}
		}
		return 0;
	}
	struct rcb_sum *s = &st->s;
	if (!s->calls) {
		header(&s->h, RCB_SUM, sizeof(*s), tgid, tid);
		s->first_tid = tid;
		s->first_ns_tid = s->h.ns_tid;
		s->nr = en->nr;
		s->fd = fd;
		s->dir = pl->sum;
		s->threads = 1;
		s->first_ns = en->ns ? en->ns : bpf_ktime_get_ns();
	} else if (s->first_tid != tid) {
		s->threads = 2;
	}
	/* Threads of one process may read one fd at once: the counts are
	 * exact (the rest is a profile, and a lost update there is no
	 * harm). */
	__sync_fetch_and_add(&s->calls, 1);
	__sync_fetch_and_add(&s->bytes, (__u64)ret);
	s->time_ns += dur;
	/* The size asked for is the chunk size (what came back is less only
	 * at the end); a vector's is what it moved. */
	__u64 size = pl->sum_len < 6 ? en->args[pl->sum_len & 7] : 0;
	if ((__s64)size <= 0)
		size = (__u64)ret;
	__u32 b = bit_length(size);
	if (b < RCB_SUM_BITS)
		s->hist[b] += 1;
	int free_slot = -1;
	for (int i = 0; i < RCB_SUM_SIZES; i++) {
		if (s->size_count[i] && s->size[i] == size) {
			s->size_count[i]++;
			return 1 + (int)slot;
		}
		if (!s->size_count[i] && free_slot < 0)
			free_slot = i;
	}
	if (free_slot >= 0) {
		s->size[free_slot & (RCB_SUM_SIZES - 1)] = size;
		s->size_count[free_slot & (RCB_SUM_SIZES - 1)] = 1;
	} else {
		for (int i = 0; i < RCB_SUM_SIZES; i++)
			s->size_count[i]--;
	}
	return 1 + (int)slot;
}

/* The sums of the current thread's FD, before the fd is closed. */
static __always_inline void flush_fd(__u32 tgid, __u32 tid, int fd)
{
	for (__u32 dir = RCB_SUM_READ; dir <= RCB_SUM_WRITE; dir++) {
		struct rcb_sum_key k = { .tgid = tgid, .fd = fd, .dir = dir };
		struct rcb_sum_state *st = sum_at(&k);
		if (st && st->used && same_key(&st->key, &k))
			sum_out(st, tgid, tid);
	}
}

/* The read sum the thread TS last added to, if it is still its
 * process's, written out now. */
__noinline int flush_slot(struct entry *ts, __u32 tgid, __u32 tid)
{
	if (!ts)
		return 0;
	__u32 i = ts->read_sum - 1;
	struct rcb_sum_state *st = bpf_map_lookup_elem(&sums, &i);

	ts->read_sum = 0;
	if (!st || !st->used || st->key.tgid != tgid || st->key.dir != RCB_SUM_READ)
		return 0;
	sum_out(st, tgid, tid);
	/* The fd reads on: its slot is kept, past its whole calls, and
	 * its next call begins a new sum (sum_call fills an empty one). */
	st->used = 1;
	__builtin_memset(&st->s, 0, sizeof(st->s));
	return 0;
}

struct flush_ctx {
	__u32 tgid, tid;
};

static long flush_step(struct bpf_map *map, __u32 *i, struct rcb_sum_state *st, struct flush_ctx *fc)
{
	if (st->key.tgid != fc->tgid)
		return 0;
	if (st->used)
		sum_out(st, fc->tgid, fc->tid);
	st->key.tgid = 0;	/* see sum_call */
	return 0;
}

/* Every sum of the current thread's process: at its exec (its fds may
 * close), a close_range, and its end. */
static __always_inline void flush_all(__u32 tgid, __u32 tid)
{
	__u8 *f = bpf_map_lookup_elem(&followed, &tgid);

	if (!f || !(*f & FOLLOWED_SUMS))
		return;
	*f &= ~FOLLOWED_SUMS;
	struct flush_ctx fc = { .tgid = tgid, .tid = tid };
	bpf_for_each_map_elem(&sums, flush_step, &fc, 0);
}

/* A call that closed FD (or maybe any, RCB_CLOSES_ALL: its plan's
 * CLOSES) writes its sums first. A global function, as the two below:
 * verified once, not in each path of the exit hook. */
__noinline int closed_fd(__u32 closes, __s64 fd, __u32 tgid, __u32 tid)
{
	if (closes == RCB_CLOSES_ALL)
		flush_all(tgid, tid);
	else if (fd >= 0 && fd <= 0x7fffffff)
		flush_fd(tgid, tid, (int)fd);
	return 0;
}

static __always_inline __s64 closing(const struct rcb_plan *pl, struct pt_regs *regs, __u32 tgid, __u32 tid)
{
	__u8 c = pl->closes;
	__u64 v = c == 1 ? regs->di : c == 2 ? regs->si : c == 3 ? regs->dx : (__u64)-1;

	closed_fd(c, (__s64)(int)v, tgid, tid);
	return (__s64)(int)v;
}

/* read_argv's walk, by bpf_loop: the verifier follows one string's read
 * once, not once per string, which cost the hook that reads argv most
 * of its load time. */
struct argv_walk {
	struct exec_state *x;
	const char *const *argv;
	__u32 off;
	int fail;		/* unreadable: the exec event's argv, if it works */
};

static int argv_step(__u32 i, void *ctx)
{
	struct argv_walk *w = ctx;
	struct exec_state *x = w->x;
	const char *p = 0;

	if (!x || bpf_probe_read_user(&p, sizeof(p), &w->argv[i]) != 0) {
		w->fail = 1;
		return 1;
	}
	if (!p)
		return 1;
	if (w->off >= RCB_ARGV_MAX) {
		x->total = w->off + 1;
		return 1;
	}
	long n = bpf_probe_read_user_str(&x->argv[w->off & (RCB_ARGV_MAX - 1)], RCB_ARGV_MAX, p);
	if (n <= 0) {
		w->fail = 1;
		return 1;
	}
	w->off += (__u32)n;
	if (i == EXEC_MAX_ARGS - 1)
		x->total = w->off + 1;	/* more may follow */
	return 0;
}

/* An exec's argv (its address, in the program's memory) at its entry,
 * into the thread's exec state. A function of its own (global), which
 * the verifier follows once, not at each of entry_items' items. */
__noinline int read_argv(__u64 argv)
{
	struct exec_state *x = bpf_task_storage_get(&execs, bpf_get_current_task_btf(), 0,
						    BPF_LOCAL_STORAGE_GET_F_CREATE);

	if (!x)
		return 0;
	x->live = 0;
	x->exec_seen = 0;
	x->len = x->total = 0;
	if (!argv)
		return 0;
	struct argv_walk w = { .x = x, .argv = (const char *const *)argv };
	bpf_loop(EXEC_MAX_ARGS, argv_step, &w, 0);
	if (w.fail)
		return 0;
	__u32 off = w.off;
	x->len = off > RCB_ARGV_MAX ? RCB_ARGV_MAX : off;
	if (off > RCB_ARGV_MAX)
		x->total = off;
	if (x->total < x->len)
		x->total = x->len;
	x->live = 1;
	return 0;
}

/* Whether a call of plan PL is recorded: every call, unless the loader
 * chose some (the calls the rules read, -e trace=); the others cost the
 * program one map look-up. */
static __always_inline int wanted(const struct rcb_plan *pl)
{
	return !filter_calls || (pl && (pl->flags & RCB_PLAN_WANTED));
}

/* Call NR's plan (record.h), looked up once per hook; NULL: none. */
static __always_inline struct rcb_plan *plan_of(__u32 nr)
{
	return nr < RCB_NR_MAX ? bpf_map_lookup_elem(&plan, &nr) : 0;
}

/* Whether a call of plan PL seen only at its exit, with RET, is
 * recorded: a wanted one, but not a new child's first return (0, from a
 * fork it never made). */
static __always_inline int recorded_at_exit(const struct rcb_plan *pl, long ret)
{
	return wanted(pl) && !(ret == 0 && pl && (pl->flags & RCB_PLAN_FORK));
}

/* What a call's plan PL reads of its memory before the call can change
 * it, into EN: an exec's argv (the exec frees it), and a timeout
 * (select rewrites its own). At entry; in diagnosis mode, at exit. */
static __always_inline void entry_items(struct entry *en, const struct rcb_plan *pl)
{
	for (int k = 0; k < RCB_PLAN; k++) {
		__u8 arg = pl->item[k].arg;
		if (pl->item[k].kind == RCB_P_EXEC && pl->item[k].len_arg < 6) {
			read_argv(en->args[pl->item[k].len_arg & 7]);
			continue;
		}
		if (pl->item[k].kind != RCB_P_TIMEOUT || arg >= 6)
			continue;
		en->timeout_arg = arg;
		if (!en->args[arg & 7] ||
		    bpf_probe_read_user(en->timeout, RCB_TIMEOUT, (const void *)en->args[arg & 7]) != 0)
			en->timeout_fault = 1;
		break;
	}
}

SEC("tp_btf/sys_enter")
int BPF_PROG(on_sys_enter, struct pt_regs *regs, long id)
{
	__u32 tgid, tid;
	struct entry *slot = ours_now(&tgid, &tid);

	if (!slot)
		return 0;
	struct rcb_plan *pl = plan_of((__u32)id);
	if (!wanted(pl))
		return 0;
	/* In place: the rest of the slot (a fatal signal to tell at the
	 * thread's end) stays. */
	entry_from_regs(slot, id, regs);
	slot->ns = bpf_ktime_get_ns();
	if (pl)
		entry_items(slot, pl);
	return 0;
}

/* A bound on one read that the verifier can follow: a power of two less
 * one, above every item's cap (RCB_STR_MAX, RCB_DATA_END). */
#define RCB_ITEM_MASK (RCB_REC_MAX - 1)

/* Where an item's bytes are read from. */
enum from { FROM_USER, FROM_USER_STR, FROM_KERNEL, FROM_KERNEL_STR };

/* One item to append (put_item): LEN bytes, at most MAX, read FROM
 * memory at SRC, for argument ARG. */
struct item_req {
	const void *src;
	__u64 len;
	__u64 total;
	__u32 max;
	__u8 arg, kind, from;
};

/* Append Q's item at OFF of REC, a call record, and count it in the
 * record's header; the new end, or OFF when there is no room. SRC NULL,
 * or a read that fails, gives an empty item marked as a fault.
 *
 * This and the other functions below that are not static are global
 * BPF functions: the verifier follows each once, for any arguments of
 * their types, not once per path through its callers, which took the
 * exit hook past the verifier's million instructions. (BPF functions
 * take five arguments, hence the struct.) */
__noinline __u32 put_item(struct scratch *rec, __u32 off, const struct item_req *q)
{
	if (!rec || !q)		/* a global function's pointers may be NULL */
		return off;
	if (off + sizeof(struct rcb_item) >= RCB_REC_MAX)
		return off;
	/* The check above bounds OFF, but the compiler would drop this
	 * mask for it, and the verifier cannot always follow the check: the
	 * mask is the bound it sees. */
	barrier_var(off);
	off &= RCB_REC_MAX - 1;
	struct rcb_item *it = (void *)(rec->buf + off);
	void *dst = rec->buf + off + sizeof(*it);
	const void *src = q->src;
	__u32 size = q->len > q->max ? q->max : q->len;
	/* What the record has room for: the last item is cut (a string
	 * keeps its NUL). */
	__u32 room = RCB_REC_MAX - off - sizeof(*it);
	if (size > room)
		size = room;

	barrier_var(size);	/* as OFF's: the mask is the verifier's bound */
	size &= RCB_ITEM_MASK;
	long n = 0;
	__u8 fault = !src;
	if (src && size) {
		switch (q->from) {
		case FROM_USER_STR:
			n = bpf_probe_read_user_str(dst, size, src);
			break;
		case FROM_KERNEL_STR:
			n = bpf_probe_read_kernel_str(dst, size, src);
			break;
		case FROM_USER:
			n = bpf_probe_read_user(dst, size, src) ? -1 : (long)size;
			break;
		default:
			n = bpf_probe_read_kernel(dst, size, src) ? -1 : (long)size;
			break;
		}
		if (n < 0) {
			n = 0;
			fault = 1;
		}
	}
	it->arg = q->arg;
	it->kind = q->kind;
	it->fault = fault;
	it->pad = 0;
	it->len = (__u32)n;
	it->total = q->total;
	((struct rcb_call *)rec->buf)->nitems += 1;
	return off + ((sizeof(*it) + (__u32)n + 7) & ~7u);
}

static __always_inline __u32 add_item(struct scratch *buf, __u32 off, __u8 arg, __u8 kind, const void *src, __u64 len,
				      __u32 max, __u64 total, enum from from)
{
	struct item_req q;

	/* put_item is verified once, for any memory of this size: all of
	 * it must be written, padding too. */
	__builtin_memset(&q, 0, sizeof(q));
	q.src = src;
	q.len = len;
	q.total = total;
	q.max = max;
	q.arg = arg;
	q.kind = kind;
	q.from = (__u8)from;
	return put_item(buf, off, &q);
}

/* bpf_loop's state while it walks a vector: the verifier follows its
 * callback once, not once per iteration. */
struct vec_walk {
	struct scratch *buf;
	__u32 off;
	__u8 arg;
	__u64 at;		/* the array */
	__u64 count;
};

static int iov_step(__u32 i, void *ctx)
{
	struct vec_walk *w = ctx;
	struct iovec v;

	if (i >= w->count || bpf_probe_read_user(&v, sizeof(v), (const void *)(w->at + i * sizeof(v))) != 0)
		return 1;
	w->off = add_item(w->buf, w->off, w->arg, RCB_I_MEM, v.iov_base, v.iov_len, RCB_BYTES_MAX, (__u64)v.iov_base,
			  FROM_USER);
	return 0;
}

/* A vector's buffers: the iovec array at IOV (CNT of them, at most
 * RCB_IOV_MAX), then what each points to, as far as the record has
 * room (the decoders print an address for the rest). */
__noinline __u32 add_iov(struct scratch *buf, __u32 off, __u8 arg, __u64 iov, __u64 cnt)
{
	if (!buf || !iov || !cnt)
		return off;
	if (cnt > RCB_IOV_MAX)
		cnt = RCB_IOV_MAX;
	off = add_item(buf, off, arg, RCB_I_MEM, (const void *)iov, cnt * sizeof(struct iovec), RCB_BYTES_MAX, iov,
		       FROM_USER);
	struct vec_walk w = { .buf = buf, .off = off, .arg = arg, .at = iov, .count = cnt };
	bpf_loop(RCB_IOV_MAX, iov_step, &w, 0);
	return w.off;
}

/* A struct msghdr at MSG: itself unless WHOLE is 0 (an mmsghdr array
 * holds it already), its address, and its iovecs. */
__noinline __u32 add_msghdr(struct scratch *buf, __u32 off, __u8 arg, __u64 msg, int whole)
{
	struct user_msghdr m;

	if (!buf || !msg || bpf_probe_read_user(&m, sizeof(m), (const void *)msg) != 0)
		return off;
	if (whole)
		off = add_item(buf, off, arg, RCB_I_MEM, (const void *)msg, sizeof(m), RCB_BYTES_MAX, msg, FROM_USER);
	if (m.msg_name && m.msg_namelen > 0)
		off = add_item(buf, off, arg, RCB_I_MEM, m.msg_name, (__u64)m.msg_namelen, RCB_ADDR_MAX,
			       (__u64)m.msg_name, FROM_USER);
	return add_iov(buf, off, arg, (__u64)m.msg_iov, m.msg_iovlen);
}

static int msg_step(__u32 i, void *ctx)
{
	struct vec_walk *w = ctx;

	if (i >= w->count)
		return 1;
	w->off = add_msghdr(w->buf, w->off, w->arg, w->at + i * sizeof(struct mmsghdr), 0);
	return 0;
}

/* The resource whose limit a call sets for the caller itself: setrlimit
 * (160)'s, and prlimit64 (302)'s with no pid or its own; -1 none. */
static __always_inline int own_rlimit(const struct entry *en, __u32 tgid)
{
	if (en->nr == 160)
		return (int)en->args[0];
	if (en->nr == 302 && en->args[2] && (en->args[0] == 0 || en->args[0] == tgid))
		return (int)en->args[1];
	return -1;
}

/* A failure the rules explain by who the thread was (EACCES, EPERM) or
 * by a filter (ENOSYS, EPERM): its credentials, capabilities and
 * filters, now; for a refused limit, the hard limit in force. */
__noinline __u32 add_live(struct scratch *buf, __u32 off, const struct entry *en, __u32 tgid)
{
	struct rcb_live l;
	struct task_struct *t = bpf_get_current_task_btf();
	/* Read, not loaded: a pointer loaded from a trusted one costs the
	 * verifier three searches of the kernel's types (whether the field
	 * is trusted), about 0.4 ms each. So for t->mm and vm_file below. */
	const struct cred *cr = BPF_CORE_READ(t, cred);

	if (!buf)
		return off;
	__builtin_memset(&l, 0, sizeof(l));
	l.fsuid = BPF_CORE_READ(cr, fsuid.val);
	l.fsgid = BPF_CORE_READ(cr, fsgid.val);
	struct group_info *gi = BPF_CORE_READ(cr, group_info);
	int n = gi ? BPF_CORE_READ(gi, ngroups) : 0;
	l.ngroups = n;
	for (int i = 0; gi && i < RCB_GROUPS_MAX; i++) {
		if (i >= n)
			break;
		bpf_probe_read_kernel(&l.groups[i], sizeof(__u32), &gi->gid[i]);
	}
	l.seccomp_mode = BPF_CORE_READ(t, seccomp.mode);
	l.seccomp_filters = BPF_CORE_READ(t, seccomp.filter_count.counter);
	l.cap_effective = BPF_CORE_READ(cr, cap_effective.val);
	int res = en ? own_rlimit(en, tgid) : -1;
	if (res >= 0 && res < 16) {
		struct signal_struct *sig = BPF_CORE_READ(t, signal);
		struct rlimit rl;
		if (sig && bpf_probe_read_kernel(&rl, sizeof(rl), &sig->rlim[res & 15]) == 0) {
			l.rlim_hard = rl.rlim_max;
			l.has_rlim_hard = 1;
		}
	}
	return add_item(buf, off, 0, RCB_I_LIVE, &l, sizeof(l), sizeof(l), sizeof(l), FROM_KERNEL);
}

/* Item PI of the call's plan (what it keeps of the call's memory, after
 * the record's fixed part): a global function, so that the verifier
 * follows each item's cases once, not their product over the items. */
__noinline __u32 plan_step(struct scratch *buf, __u32 off, const struct entry *en, long ret,
			   const struct rcb_plan_item *pi)
{
	if (!buf || !en || !pi)
		return off;
	__u8 arg = pi->arg & 7, la = pi->len_arg & 7;
	if (arg >= 6)
		return off;
	const void *p = (const void *)en->args[arg];
	__u64 len;
	switch (pi->kind) {
	case RCB_P_STR:
		off = add_item(buf, off, arg, RCB_I_STR, p, RCB_STR_MAX, RCB_STR_MAX, 0, FROM_USER_STR);
		break;
	case RCB_P_ADDR:
		if (arg + 1 < 6)
			off = add_item(buf, off, arg, RCB_I_BYTES, p, en->args[(arg + 1) & 7], RCB_ADDR_MAX,
				       en->args[(arg + 1) & 7], FROM_USER);
		break;
	case RCB_P_ADDR_OUT: {
		__u32 alen = 0;
		if (ret < 0 || arg + 1 >= 6 || !en->args[(arg + 1) & 7] ||
		    bpf_probe_read_user(&alen, sizeof(alen), (const void *)en->args[(arg + 1) & 7]))
			break;
		off = add_item(buf, off, arg, RCB_I_BYTES, p, alen, RCB_ADDR_MAX, alen, FROM_USER);
		break;
	}
	case RCB_P_DATA_OUT:
	case RCB_P_DATA_IN:
		len = pi->kind == RCB_P_DATA_OUT ? en->args[la] : (ret > 0 ? (__u64)ret : 0);
		if (pi->kind == RCB_P_DATA_IN && ret <= 0)
			break;
		if (len <= 2 * RCB_DATA_END) {
			/* All of it, as two halves at most. */
			__u64 first = len > RCB_DATA_END ? RCB_DATA_END : len;
			off = add_item(buf, off, arg, RCB_I_HEAD, p, first, RCB_DATA_END, len, FROM_USER);
			if (len > first)
				off = add_item(buf, off, arg, RCB_I_TAIL, p + first, len - first, RCB_DATA_END,
					       len, FROM_USER);
		} else {
			off = add_item(buf, off, arg, RCB_I_HEAD, p, RCB_DATA_END, RCB_DATA_END, len, FROM_USER);
			off = add_item(buf, off, arg, RCB_I_TAIL, p + len - RCB_DATA_END, RCB_DATA_END,
				       RCB_DATA_END, len, FROM_USER);
		}
		break;
	case RCB_P_TIMEOUT:
		/* Read at entry, into the entry (select rewrites its own). */
		if (en->timeout_arg == arg)
			off = add_item(buf, off, arg, RCB_I_BYTES, en->timeout_fault ? 0 : en->timeout,
				       RCB_TIMEOUT, RCB_TIMEOUT, RCB_TIMEOUT, FROM_KERNEL);
		break;
	case RCB_P_EXEC: {
		struct exec_state *x = bpf_task_storage_get(&execs, bpf_get_current_task_btf(), 0, 0);
		__u8 aa = pi->len_arg & 7;
		if (ret != 0) {
			off = add_item(buf, off, arg, RCB_I_STR, p, RCB_STR_MAX, RCB_STR_MAX, 0, FROM_USER_STR);
		} else if (x && x->exec_seen) {
			off = add_item(buf, off, arg, RCB_I_STR, x->filename, RCB_STR_MAX, RCB_STR_MAX, 0,
				       FROM_KERNEL_STR);
			if (!x->live)
				off = add_item(buf, off, aa, RCB_I_ARGV, x->new_argv, x->new_len, RCB_ARGV_MAX,
					       x->new_total, FROM_KERNEL);
		}
		if (x && x->live)
			off = add_item(buf, off, aa, RCB_I_ARGV, x->argv, x->len, RCB_ARGV_MAX, x->total, FROM_KERNEL);
		if (x)
			x->live = x->exec_seen = 0;
		break;
	}
	case RCB_P_IOV:
		off = add_iov(buf, off, arg, (__u64)p, en->args[la]);
		break;
	case RCB_P_MSGHDR:
		off = add_msghdr(buf, off, arg, (__u64)p, 1);
		break;
	case RCB_P_MMSGHDR: {
		__u64 n = en->args[la];
		if (!p || !n)
			break;
		if (n > RCB_MSG_MAX)
			n = RCB_MSG_MAX;
		off = add_item(buf, off, arg, RCB_I_MEM, p, n * sizeof(struct mmsghdr), RCB_BYTES_MAX, (__u64)p,
			       FROM_USER);
		struct vec_walk w = { .buf = buf, .off = off, .arg = arg, .at = (__u64)p, .count = n };
		bpf_loop(RCB_MSG_MAX, msg_step, &w, 0);
		off = w.off;
		break;
	}
	case RCB_P_BYTES: {
		__u8 fl = pi->flags;
		__u64 n = pi->size;
		if ((fl & RCB_PF_OK) && ret < 0)
			break;
		if (fl & RCB_PF_COUNT_ARG) {
			n *= en->args[la];
		} else if (fl & RCB_PF_COUNT_RET) {
			n = ret > 0 ? n * (__u64)ret : 0;
		} else if (fl & RCB_PF_COUNT_PTR) {
			__u32 v = 0;
			if (!en->args[la] || bpf_probe_read_user(&v, sizeof(v), (const void *)en->args[la]))
				break;
			n = v;
		}
		if (pi->max && n > pi->max)
			n = pi->max;
		if (n)
			off = add_item(buf, off, arg, RCB_I_BYTES, p, n, RCB_BYTES_MAX, n, FROM_USER);
		break;
	}
	default:
		break;
	}
	return off;
}

static __always_inline __u32 add_items(struct scratch *buf, __u32 off, const struct entry *en, long ret)
{
	const struct rcb_plan *pl = plan_of((__u32)en->nr);

	if (!pl)
		return off;
	/* A plan's items come first (bpf_plan_of): the first empty one
	 * ends them, and a call spares the calls of the rest. */
	for (int k = 0; k < RCB_PLAN && pl->item[k].kind != RCB_P_NONE; k++)
		off = plan_step(buf, off, en, ret, &pl->item[k]);
	return off;
}

/* A quiet kind of call EN, that returned RET: one that ran through, or
 * was told to try again (EAGAIN) or was interrupted (EINTR, ERESTART*),
 * waiting less than RCB_QUIET_WAIT_NS, on no standard fd (a program's
 * words on stderr are what it said). */
static __always_inline int quiet_ret(long ret)
{
	return ret >= 0 || ret == -11 || ret == -4 || (ret <= -512 && ret >= -516);
}

static __always_inline int quietly(const struct entry *en, long ret, const struct rcb_plan *pl)
{
	if (en->args[0] <= 2 || !quiet_ret(ret))
		return 0;
	if (en->end_ns && en->end_ns - en->ns >= RCB_QUIET_WAIT_NS)
		return 0;
	/* A read or write of a regular file that no sum took is one of the
	 * few written whole (sum_call): small-io and repeated-open read
	 * those. Sockets and pipes are quiet. */
	__u32 dev;
	__u64 ino, size;
	return !pl->sum || pl->sum_fd >= 6 || !regular_file((int)en->args[pl->sum_fd & 7], &dev, &ino, &size);
}

/* Whether FD is one a quiet open returned in thread TS (RCB_PLAN_REPEAT). */
static __always_inline int quiet_fd(const struct entry *ts, __s64 fd)
{
	if (fd < 0 || fd >= RCB_QUIET_FDS)
		return 0;
	return (ts->quiet_fds[(fd >> 6) & (RCB_QUIET_FDS / 64 - 1)] >> (fd & 63)) & 1;
}

static __always_inline void set_quiet_fd(struct entry *ts, __s64 fd, int on)
{
	if (fd < 0 || fd >= RCB_QUIET_FDS)
		return;
	__u64 bit = 1ULL << (fd & 63), *w = &ts->quiet_fds[(fd >> 6) & (RCB_QUIET_FDS / 64 - 1)];
	*w = on ? *w | bit : *w & ~bit;
}

/* Whether call EN (plan PL), which returned RET, repeats what thread TS
 * did on its path enough to be quiet (record.h, RCB_PLAN_REPEAT): the
 * same call on the same path with the same outcome past the first
 * RCB_REPEAT_SHOWN, but one in RCB_REPEAT_EVERY. A quiet open's fd is
 * quiet too; an open that is written makes its fd not. A global
 * function, which the verifier follows once. */
__noinline int repeated(struct entry *ts, const struct entry *en, const struct rcb_plan *pl, long ret)
{
	__u32 zero = 0;
	struct scratch *sc = bpf_map_lookup_elem(&scratch, &zero);
	int arg = -1;

	if (!ts || !en || !pl || !sc)
		return 0;
	for (int k = 0; k < RCB_PLAN; k++)
		if (arg < 0 && pl->item[k].kind == RCB_P_STR)
			arg = pl->item[k].arg;
	if (arg < 0 || arg >= 6)
		return 0;
	long n = bpf_probe_read_user_str(sc->path, sizeof(sc->path), (const void *)en->args[arg & 7]);
	if (n <= 0)
		return 0;
	/* An empty path is the fd itself (AT_EMPTY_PATH: fstat's way):
	 * quiet with its fd. */
	if (n == 1 && arg > 0 && quiet_fd(ts, (__s64)(int)en->args[0]))
		return 1;
	/* FNV-1a over the path's words (the tail's bytes past its NUL
	 * masked off), the call and, for an empty or relative path, the
	 * fd it is taken from. */
	__u64 h = 0xcbf29ce484222325ULL ^ (__u64)en->nr;
	for (int i = 0; i < RCB_REPEAT_PATH / 8; i++) {
		if (i * 8 >= n)
			break;
		__u64 w = *(const __u64 *)&sc->path[i * 8];
		long left = n - 1 - i * 8;
		if (left < 8)
			w &= left > 0 ? ~0ULL >> (64 - 8 * left) : 0;
		h = (h ^ w) * 0x100000001b3ULL;
	}
	if (sc->path[0] != '/' && arg > 0)
		h = (h ^ en->args[0]) * 0x100000001b3ULL;
	/* A failure repeats with its error; every success is one. */
	h = (h ^ (__u64)(ret < 0 ? -ret : 0)) * 0x100000001b3ULL;
	__u32 key = (__u32)(h ^ (h >> 32)) | 1, slot = key & (RCB_REPEAT_SLOTS - 1);
	int opens = (pl->flags & RCB_PLAN_OPENS) && ret >= 0;
	__u8 c = ts->rep_hash[slot] == key ? ts->rep_count[slot] : 0;
	/* Past the first, one in RCB_REPEAT_EVERY is written: a window
	 * of the last seconds keeps some of a repeat that never ends. */
	c = c == RCB_REPEAT_SHOWN + RCB_REPEAT_EVERY ? RCB_REPEAT_SHOWN + 1 : c + 1;
	ts->rep_hash[slot] = key;
	ts->rep_count[slot] = c;
	int quiet = c > RCB_REPEAT_SHOWN && c != RCB_REPEAT_SHOWN + RCB_REPEAT_EVERY;
	if (opens)
		set_quiet_fd(ts, ret, quiet);
	return quiet;
}

/* A successful exec has cleared the registers: its program and argv (the
 * exec event's) are put where no user memory is, for the reader to find
 * them. Whether EN, of plan PL, is an exec. */
static __always_inline int exec_addresses(struct entry *en, const struct rcb_plan *pl)
{
	for (int k = 0; k < RCB_PLAN; k++) {
		if (pl->item[k].kind != RCB_P_EXEC)
			continue;
		en->args[pl->item[k].arg & 7] = RCB_EXEC_PATH_AT;
		en->args[pl->item[k].len_arg & 7] = RCB_EXEC_ARGV_AT;
		return 1;
	}
	return 0;
}

/* Diagnosis mode's call at its exit, made in SC's entry from the saved
 * registers (there is no entry hook); NULL when it is not recorded: not
 * wanted, a new child's first return, or summed. Its closing of an fd
 * writes the fd's sums first, before its own record. */
static __always_inline struct entry *diag_call(struct scratch *sc, struct entry *ts, struct pt_regs *regs, long ret,
					       __u32 tgid, __u32 tid)
{
	__s64 nr = (__s64)regs->orig_ax;

	if (nr == -1)
		nr = sigreturn_nr;
	struct rcb_plan *pl = plan_of((__u32)nr);
	/* A closed fd is no longer the quiet file it was: its number comes
	 * back for the next open, socket or dup. (This thread's mark; one
	 * another thread made stays until that thread opens the number
	 * again or execs.) */
	if (pl && pl->closes) {
		__s64 fd = closing(pl, regs, tgid, tid);
		if (quiet)
			set_quiet_fd(ts, fd, 0);
	}
	if (!recorded_at_exit(pl, ret))
		return 0;
	/* A block from before a pause of the calls' record began a call
	 * whose exit was not seen. */
	if (ts->blocked_ns && ts->blocked_ns < calls_from_ns)
		ts->blocked_ns = 0;
	/* A quiet call that no sum reads and that did not block is counted
	 * before anything is copied: the most of a busy server's calls. */
	if (quiet && pl && (pl->flags & RCB_PLAN_QUIET) && !pl->sum && !ts->blocked_ns && regs->di > 2 &&
	    quiet_ret(ret)) {
		count(RCB_QUIET);
		return 0;
	}
	struct entry *en = &sc->en;
	entry_from_regs(en, nr, regs);
	/* The clock is read only for a call that blocked, or that is
	 * recorded: one that ran through is summed as taking no time. */
	en->ns = en->end_ns = 0;
	/* Begun, as far as the rules can tell, when it blocked. */
	if (ts->blocked_ns) {
		en->end_ns = bpf_ktime_get_ns();
		en->ns = ts->blocked_nr == nr && ts->blocked_ns <= en->end_ns ? ts->blocked_ns : en->end_ns;
		ts->blocked_ns = 0;
	}
	if (quiet && pl && (pl->flags & RCB_PLAN_REPEAT) && !en->end_ns && repeated(ts, en, pl, ret)) {
		count(RCB_QUIET);
		return 0;
	}
	/* The reads and writes of a file a quiet open returned. */
	if (quiet && pl && pl->sum && pl->sum_fd < 6 && !en->end_ns && quiet_ret(ret) &&
	    quiet_fd(ts, (__s64)(int)en->args[pl->sum_fd & 7])) {
		count(RCB_QUIET);
		return 0;
	}
	if (pl && pl->sum) {
		int slot = sum_call(en, pl, ret, tgid, tid);
		if (slot) {
			if (pl->sum == RCB_SUM_READ)
				ts->read_sum = (__u32)slot;
			return 0;
		}
		/* A write recorded whole may pass on what the thread read
		 * (a server sends the file it read): the read's sum is written
		 * first, as its calls came first. */
		if (pl->sum == RCB_SUM_WRITE && ts->read_sum)
			flush_slot(ts, tgid, tid);
	}
	if (quiet && pl && (pl->flags & RCB_PLAN_QUIET) && quietly(en, ret, pl)) {
		count(RCB_QUIET);
		return 0;
	}
	if (!en->end_ns)
		en->ns = en->end_ns = bpf_ktime_get_ns();
	if (!pl)
		return en;
	if (ret == 0 && exec_addresses(en, pl))
		return en;
	entry_items(en, pl);
	return en;
}

/* Whether a finding may quote the call NR that returned RET after
 * DUR_NS: a failure (not a try again, an interrupted wait, a futex's
 * time-out), a connect or bind, a long wait. The loader unwinds only
 * what it keeps of these (where/); an exec that worked has a new
 * program's first stack, which says nothing of the old one's code. */
static __always_inline int stack_wanted(__s64 nr, long ret, __u64 dur_ns)
{
	if (dur_ns >= RCB_STACK_WAIT_NS)
		return 1;
	if (ret < 0 && ret >= -4095)
		return ret != -11 && ret != -4 && !(ret <= -512 && ret >= -516) && !(ret == -110 && nr == 202);
	/* connect, bind (x86-64's numbers). */
	return nr == 42 || nr == 49;
}

/*
 * The sums' sites (record.h, struct rcb_stack's SITE): calls that
 * worked, copied for where they were made.
 */
enum site_kind { SITE_OPENS = 1, SITE_MAPS, SITE_WAITED };

struct site_key {
	__u32 tgid, kind;
	__u64 a, b;		/* a file's device and inode; a futex word's address */
};

/* Per process: opens of each file and large mappings made (a count), and
 * futex words waited on long (1). Least recently used go first: what
 * one forgets is a sample's phase, or a wake not unwound. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, struct site_key);
	__type(value, __u64);
} sites SEC(".maps");

/* K's calls counted once more: whether this one is in the sample. */
static __always_inline int site_sampled(const struct site_key *k, __u64 first)
{
	__u64 one = 1, *n = bpf_map_lookup_elem(&sites, k);

	if (!n) {
		bpf_map_update_elem(&sites, k, &one, BPF_ANY);
		return first;
	}
	__u64 c = __sync_fetch_and_add(n, 1) + 1;
	return c <= RCB_SITE_DENSE || c % RCB_SITE_EVERY == 0;
}

/* Whether EN, a call of process TGID that returned RET after DUR_NS, is
 * copied for a sum's site: an open of a regular file (repeated-open), a
 * large mapping that is not a reservation (mmap-churn), a futex wake
 * that let go a word some thread waited on for RCB_STACK_WAIT_NS or more
 * (lock-wait's holder, as the loader under ptrace has it). Long waits
 * are noted here as they end; their own copies are stack_wanted's. A
 * function of its own: the verifier follows it once. */
__noinline int site_due(const struct entry *en, long ret, __u32 tgid, __u64 dur_ns)
{
	struct site_key k = { .tgid = tgid };
	__u32 dev = 0;
	__u64 ino = 0, size = 0;

	if (!en || ret < 0)
		return 0;
	/* x86-64's numbers. */
	switch (en->nr) {
	case 2:		/* open */
	case 85:	/* creat */
	case 257:	/* openat */
	case 437:	/* openat2 */
		if (!regular_file((int)ret, &dev, &ino, &size) || code_file((int)ret))
			return 0;
		k.kind = SITE_OPENS;
		k.a = dev;
		k.b = ino;
		return site_sampled(&k, size >= RCB_SITE_BIG_FILE);
	case 9:		/* mmap: PROT_NONE with flags is a reservation */
		if (en->args[1] < RCB_SITE_BIG_MAP || (!en->args[2] && en->args[3]))
			return 0;
		k.kind = SITE_MAPS;
		return site_sampled(&k, 1);
	case 202: {	/* futex */
		__u32 op = (__u32)en->args[1] & 127;
		k.kind = SITE_WAITED;
		k.a = en->args[0];
		/* FUTEX_WAIT, _LOCK_PI, _WAIT_BITSET, _WAIT_REQUEUE_PI, _LOCK_PI2 */
		if (op == 0 || op == 6 || op == 9 || op == 11 || op == 13) {
			__u64 one = 1;
			if (dur_ns >= RCB_STACK_WAIT_NS)
				bpf_map_update_elem(&sites, &k, &one, BPF_ANY);
			return 0;
		}
		/* FUTEX_UNLOCK_PI lets go whoever waits; a wake, the woken. */
		if (op == 7 || (ret > 0 && (op == 1 || op == 3 || op == 4 || op == 5 || op == 10 || op == 12)))
			return bpf_map_lookup_elem(&sites, &k) != 0;
		return 0;
	}
	default:
		return 0;
	}
}

/* Reads a word of N bytes (4 or 8) of user memory at ADDR into *V;
 * false when it cannot be read. */
static __always_inline int user_word(__u64 addr, __u32 n, __u64 *v)
{
	*v = 0;
	return bpf_probe_read_user(v, n == 4 ? 4 : 8, (const void *)addr) == 0;
}

/* The thread state of thread TID (whose fs base is FS) in walk W's
 * process: the one whose native_thread_id is TID or whose thread_id
 * (pthread_self()) is FS. 0: none; -1: a read failed. */
/* py_thread's walk of the thread states, by bpf_loop: the verifier
 * follows one step, not RCB_PY_THREADS of them. */
struct thread_scan {
	const struct rcb_py_walk *w;
	__u64 ts, fs;
	__u32 tid;
	int failed;
};

static int thread_step(__u32 i, void *ctx)
{
	struct thread_scan *s = ctx;
	const struct rcb_py_walk *w = s->w;
	__u64 id;

	if (!s->ts)
		return 1;
	if (w->tstate_native_tid >= 0 && user_word(s->ts + w->tstate_native_tid, 8, &id) && id == s->tid)
		return 1;
	if (w->tstate_thread_id >= 0 && user_word(s->ts + w->tstate_thread_id, 8, &id) && id == s->fs)
		return 1;
	if (!user_word(s->ts + w->tstate_next, 8, &s->ts)) {
		s->failed = 1;
		return 1;
	}
	return 0;
}

static __always_inline long py_thread(const struct rcb_py_walk *w, __u32 tid, __u64 fs, __u64 *out)
{
	__u64 interp;
	struct thread_scan s = { .w = w, .fs = fs, .tid = tid };

	if (!user_word(w->runtime + w->interp_head, 8, &interp))
		return -1;
	/* No interpreter yet (or none left): no thread runs Python. */
	if (!interp)
		return 0;
	if (!user_word(interp + w->threads_head, 8, &s.ts))
		return -1;
	bpf_loop(RCB_PY_THREADS, thread_step, &s, 0);
	if (s.failed)
		return -1;
	*out = s.ts;
	return s.ts != 0;
}

/* Process TGID's walk (its memory MM) from program P placed at BASE
 * (record.h, struct rcb_py_program). */
static __always_inline void walk_from_program(__u32 tgid, __u64 mm, const struct rcb_py_program *p, __u64 base)
{
	struct rcb_py_walk n = p->walk;

	n.mm = mm;
	n.runtime = base + p->walk.runtime;
	n.next_probe_ns = 0;
	n.probe_gap_ns = RCB_PROBE_MAX_NS;
	n.holds_left = RCB_HOLDS;
	bpf_map_update_elem(&pywalks, &tgid, &n, BPF_ANY);
}

/* Whether the program that T (of process TGID, memory MM) runs is a
 * Python executable the loader knows: its walk is made now. */
static __always_inline int exe_walk(__u32 tgid, struct task_struct *t, __u64 mm)
{
	struct rcb_file_key k = {
		.ino = BPF_CORE_READ(t, mm, exe_file, f_inode, i_ino),
		.dev = BPF_CORE_READ(t, mm, exe_file, f_inode, i_sb, s_dev),
	};
	struct rcb_py_program *p = bpf_map_lookup_elem(&pyprograms, &k);

	if (!p || p->base != RCB_PY_BASE_CODE)
		return 0;
	walk_from_program(tgid, mm, p, BPF_CORE_READ(t, mm, start_code));
	return 1;
}

/* A mapping that worked of FD from offset 0 at ADDR: when the file is a
 * libpython the loader knows, the process's walk is made now (the
 * dynamic loader maps it before any of Python's code runs). */
__noinline int library_walk(__u32 tgid, int fd, __u64 addr)
{
	struct task_struct *t = bpf_get_current_task_btf();
	__u64 mm = (__u64)BPF_CORE_READ(t, mm);
	struct rcb_py_walk *w = bpf_map_lookup_elem(&pywalks, &tgid);
	struct rcb_file_key k = { 0 };
	__u64 size;

	if (w && w->mm == mm && w->runtime)
		return 0;
	if (!regular_file(fd, &k.dev, &k.ino, &size))
		return 0;
	struct rcb_py_program *p = bpf_map_lookup_elem(&pyprograms, &k);
	if (p && p->base == RCB_PY_BASE_FILE)
		walk_from_program(tgid, mm, p, addr);
	return 0;
}

/* Whether a libpython the loader knows is mapped in the current task's
 * memory MM already (the loader read it after it was mapped: a Python a
 * shell started, a process attached to): its walk is made now. Looked
 * for at a probe only, which comes ever more rarely. */
__noinline int mapped_walk(__u32 tgid, __u64 mm)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct bpf_iter_task_vma it;
	struct vm_area_struct *v;
	int found = 0;

	bpf_iter_task_vma_new(&it, t, 0);
	/* No count of its own: the verifier takes an iterator's loop as
	 * one, and the areas end (a PyTorch process has a few thousand). */
	while ((v = bpf_iter_task_vma_next(&it))) {
		struct file *f = bpf_rdonly_cast(BPF_CORE_READ(v, vm_file), file_btf_id);
		if (!f || v->vm_pgoff)
			continue;
		struct rcb_file_key k = { .ino = f->f_inode->i_ino, .dev = f->f_inode->i_sb->s_dev };
		struct rcb_py_program *p = bpf_map_lookup_elem(&pyprograms, &k);
		if (p && p->base == RCB_PY_BASE_FILE) {
			walk_from_program(tgid, mm, p, v->vm_start);
			found = 1;
			break;
		}
	}
	bpf_iter_task_vma_destroy(&it);
	return found;
}

/* py_frames' walk of the frames, by bpf_loop: the verifier follows one
 * frame's reads, not RCB_PY_FRAMES of them. */
struct frame_scan {
	struct rcb_stack *r;
	const struct rcb_py_walk *w;
	__u64 frame;
	int failed;
};

/* The field of BITS bits at AT in BUF (struct rcb_py_walk's in_*). No
 * branch: the buffers have room past 2 RCB_FRAME_SPAN for one 8-byte
 * load at any AT, and a branch per field multiplied the paths the
 * verifier follows. */
static __always_inline __u64 field_in(const __u8 *buf, __u8 at, __u32 bits)
{
	__u64 k = at & (2 * RCB_FRAME_SPAN - 1);

	return *(const __u64 *)(buf + k) & (~0ULL >> (64 - bits));
}

static int frame_step(__u32 i, void *ctx)
{
	struct frame_scan *s = ctx;
	const struct rcb_py_walk *w = s->w;
	__u64 frame = s->frame;
	__u32 zero = 0;
	struct scratch *sc = bpf_map_lookup_elem(&scratch, &zero);

	/* Checked and used as one 64-bit register (as code_step's). */
	__u64 n = i;
	barrier_var(n);
	if (!frame || n >= RCB_PY_FRAMES || !sc)
		return 1;
	struct rcb_py_frame *f = &s->r->py[n];
	__u32 flen = w->frame_len, clen = w->code_len;
	if (!flen || flen > RCB_FRAME_SPAN || clen > RCB_CODE_SPAN ||
	    bpf_probe_read_user(sc->frame, flen, (const void *)(frame + w->frame_lo)) != 0) {
		s->failed = 1;
		return 1;
	}
	f->code = field_in(sc->frame, w->in_code, 64);
	f->instr = field_in(sc->frame, w->in_instr, 8 * w->instr_size);
	/* 3.14's f_executable is a stack reference, its low bit a tag
	 * (python.c, PY_REF_TAG). */
	f->code &= ~7ULL;
	f->owner = field_in(sc->frame, w->in_owner, 8);
	f->entry = field_in(sc->frame, w->in_entry, 8);
	f->tlbc = field_in(sc->frame, w->in_tlbc, 32);
	/* event/stack.h's rc_py_code_mark, at the call. */
	f->mark = 0;
	if (clen && w->code_name >= 0 && w->code_file >= 0 && bpf_probe_read_user(sc->code, clen, (const void *)(f->code + w->code_lo)) == 0)
		f->mark = field_in(sc->code, w->in_name, 64) ^ (field_in(sc->code, w->in_file, 64) << 3) ^ 1;
	s->r->npy = n + 1;
	s->frame = field_in(sc->frame, w->in_back, 64);
	return 0;
}

/* Thread TID's Python frames into R, by the walk the loader gave for
 * its process (record.h, struct rcb_py_walk), or made from its program.
 *
 * This, probe_due, library_walk and mapped_walk are global functions,
 * which the verifier follows once, not once for every way the exit hook
 * reaches them: as static ones (inlined, or static and noinline, which
 * it follows in each caller's state) they took the exit hook's
 * verification from 16,000 instructions without stacks to 176,000, and
 * 0.31 s of each run's start; as global ones, 50,000 and 0.1 s. */
__noinline int py_frames(struct rcb_stack *r, __u32 tgid, __u32 tid)
{
	struct rcb_py_walk *w = bpf_map_lookup_elem(&pywalks, &tgid);
	__u64 ts, frame;

	if (!r)
		return 0;
	r->npy = 0;
	r->py_truncated = 0;
	r->py_read = RCB_PY_NOT_ASKED;
	if ((!w || w->mm != r->mm || !w->runtime) && exe_walk(tgid, bpf_get_current_task_btf(), r->mm))
		w = bpf_map_lookup_elem(&pywalks, &tgid);
	if (!w || w->mm != r->mm || !w->runtime)
		return 0;
	long found = py_thread(w, tid, r->regs[RCB_R_FS], &ts);
	r->py_read = found < 0 ? RCB_PY_FAILED : found == 0 ? RCB_PY_NO_THREAD : RCB_PY_READ;
	if (found <= 0)
		return 0;
	if (!user_word(ts + w->first_hop, 8, &frame) ||
	    (w->second_hop >= 0 && frame && !user_word(frame + w->second_hop, 8, &frame))) {
		r->py_read = RCB_PY_FAILED;
		return 0;
	}
	struct frame_scan s = { .r = r, .w = w, .frame = frame };
	bpf_loop(RCB_PY_FRAMES, frame_step, &s, 0);
	if (s.failed)
		r->py_read = RCB_PY_FAILED;
	else
		r->py_truncated = s.frame != 0;
	return 0;
}

/* Whether a probe is due for process TGID at NOW (record.h, struct
 * rcb_py_walk): the loader has no walk of its Python, if it runs one, and
 * the gap since the last probe has passed. */
__noinline int probe_due(__u32 tgid, __u64 now)
{
	struct task_struct *t = bpf_get_current_task_btf();
	__u64 mm = (__u64)BPF_CORE_READ(t, mm);
	struct rcb_py_walk *w = bpf_map_lookup_elem(&pywalks, &tgid);

	if (w && w->mm == mm) {
		if (w->runtime || now < w->next_probe_ns)
			return 0;
		/* The loader may have read its program since. */
		if (exe_walk(tgid, t, mm) || mapped_walk(tgid, mm))
			return 0;
		/* Threads race here: a probe more or less is no harm. */
		w->next_probe_ns = now + w->probe_gap_ns;
		w->probe_gap_ns = w->probe_gap_ns < RCB_PROBE_MAX_NS / 2 ? 2 * w->probe_gap_ns : RCB_PROBE_MAX_NS;
		return 1;
	}
	/* A program new to the map: a Python executable the loader read
	 * before it ran has its walk at once; any other's first calls are
	 * the dynamic loader's, with no interpreter to find yet. */
	if (exe_walk(tgid, t, mm))
		return 0;
	struct rcb_py_walk n = { .mm = mm, .next_probe_ns = now + RCB_PROBE_FIRST_NS,
				 .probe_gap_ns = RCB_PROBE_FIRST_NS };
	bpf_map_update_elem(&pywalks, &tgid, &n, BPF_ANY);
	return 0;
}

/* Whether some frame of R (process TGID) runs a code object the loader
 * has not named yet (record.h, RCB_MARK_CODE). */
/* One frame of hold_after's scan, by bpf_loop: whether code object I
 * of the copy is one the loader has named, and still the same object. */
struct code_scan {
	const struct rcb_py_frame *py;
	__u32 tgid, npy;
	int unnamed;
};

static int code_step(__u32 i, void *ctx)
{
	struct code_scan *s = ctx;
	struct rcb_mark_key k = { .b = s->tgid, .kind = RCB_MARK_CODE };
	__u64 *mark;

	/* Checked and used as one 64-bit register (clang may check a copy,
	 * or a 32-bit one, whose bound the verifier loses). */
	__u64 j = i;
	barrier_var(j);
	if (j >= RCB_HOLD_FRAMES || j >= s->npy)
		return 1;
	k.a = s->py[j].code;
	/* The loader named this object, not an earlier one at its address
	 * (the copy's mark, read at the call). */
	if (!(mark = bpf_map_lookup_elem(&marks, &k)) || !s->py[j].mark || *mark != s->py[j].mark) {
		s->unnamed = 1;
		return 1;
	}
	return 0;
}

/* The current thread (TID of process TGID) just copied a call with
 * Python frames, in this CPU's scratch (stash_frames): held until the
 * loader has named them (record.h, RCB_HOLD_SIGNAL), when they are not
 * named yet and the loader's watch traces the thread. A function of its
 * own (global), which the verifier follows once, not once for every way
 * the exit hook reaches it. */
__noinline int hold_after(__u32 tgid, __u32 tid)
{
	struct rcb_mark_key on = { .kind = RCB_MARK_HOLDING }, held = { .a = tid, .kind = RCB_MARK_HOLD };
	__u32 zero = 0;
	struct scratch *sc = bpf_map_lookup_elem(&scratch, &zero);
	__u64 one = 1;

	if (!sc || !sc->held.npy)
		return 0;
	__u32 npy = sc->held.npy;
	struct task_struct *t = bpf_get_current_task_btf();
	struct rcb_py_walk *w = bpf_map_lookup_elem(&pywalks, &tgid);
	if (!w || !w->holds_left || w->code_name < 0 || w->code_file < 0 || !t || !t->ptrace ||
	    !bpf_map_lookup_elem(&marks, &on)) {
		sc->held.npy = 0;
		return 0;
	}
	struct code_scan s = { .py = sc->held.py, .tgid = tgid, .npy = npy };
	bpf_loop(RCB_HOLD_FRAMES, code_step, &s, 0);
	if (!s.unnamed) {
		sc->held.npy = 0;
		return 0;
	}
	w->holds_left--;
	/* Its frames, for the loader to name while it waits. */
	sc->held.tgid = tgid;
	sc->held.mm = (__u64)BPF_CORE_READ(t, mm);
	bpf_map_update_elem(&held_frames, &tid, &sc->held, BPF_ANY);
	sc->held.npy = 0;
	if (bpf_map_update_elem(&marks, &held, &one, BPF_ANY) == 0)
		bpf_send_signal_thread(RCB_HOLD_SIGNAL);
	return 0;
}

/* The current thread TID just wrote a call while the ring buffer was
 * seven eighths full: it waits, held as hold_after holds (RCB_HOLD_SIGNAL,
 * which the loader's watch takes), until the loader has read what is
 * there, as strace's tracee waits for strace. A thread no watch traces
 * goes on (and its records may be lost, each counted). The look that set
 * OVER is checked again here: the reader may have caught up since. */
__noinline int hold_for_room(__u32 tid)
{
	struct rcb_mark_key on = { .kind = RCB_MARK_HOLDING }, held = { .a = tid, .kind = RCB_MARK_HOLD };
	__u32 zero = 0;
	struct scratch *sc = bpf_map_lookup_elem(&scratch, &zero);
	__u64 one = 1;

	if (!sc || !sc->over)
		return 0;
	if (bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) <= bpf_ringbuf_query(&events, BPF_RB_RING_SIZE) / 8 * 7) {
		sc->over = 0;
		return 0;
	}
	struct task_struct *t = bpf_get_current_task_btf();
	if (!t || !t->ptrace || !bpf_map_lookup_elem(&marks, &on))
		return 0;
	/* A hold already asked for (hold_after's) serves for both. */
	if (bpf_map_update_elem(&marks, &held, &one, BPF_NOEXIST) == 0) {
		count(RCB_HELD_FOR_ROOM);
		bpf_send_signal_thread(RCB_HOLD_SIGNAL);
	}
	return 0;
}

/* R's Python frames into this CPU's scratch for hold_after, when R is a
 * call a finding may quote (WANTED) whose frames were read. Global, as
 * hold_after is: the verifier follows it once. */
__noinline int stash_frames(const struct rcb_stack *r, int wanted)
{
	__u32 zero = 0;
	struct scratch *sc = bpf_map_lookup_elem(&scratch, &zero);

	if (!sc || !r)
		return 0;
	sc->held.npy = 0;
	if (!wanted || r->py_read != RCB_PY_READ || !r->npy)
		return 0;
	/* One copy, not a load and store per frame. */
	if (bpf_probe_read_kernel(sc->held.py, sizeof(sc->held.py), r->py) == 0)
		sc->held.npy = r->npy;
	return 0;
}

/* Text of the compact ASCII str object at OBJ (walk W's layout) into
 * DST of CAP bytes, NUL-terminated; its length, 0 when it is not one or
 * does not fit. With TAIL a longer one keeps its end, and *CUT says so
 * (a file's base name is at its end). Python's strs end in a NUL. */
static __always_inline __u8 py_str(const struct rcb_py_walk *w, __u64 obj, char *dst, __u32 cap, int tail,
				   __u8 *cut)
{
	__u64 len, state, skip = 0;

	if (!obj || !user_word(obj + w->str_length, 8, &len) || !user_word(obj + w->str_state, 4, &state) ||
	    !(state & (1ULL << (w->str_compact_bit & 31))) || !(state & (1ULL << (w->str_ascii_bit & 31))) ||
	    !len || len > 4096)
		return 0;
	if (len > cap - 1) {
		if (!tail)
			return 0;
		skip = len - (cap - 1);
		*cut = 1;
	}
	long n = bpf_probe_read_user_str(dst, cap, (const void *)(obj + w->str_ascii_data + skip));
	return n > 1 ? (__u8)(n - 1) : 0;
}

/* py_names' look at each frame, by bpf_loop (as frame_step). */
struct name_scan {
	struct rcb_stack *r;
	const struct rcb_py_walk *w;
	__u32 tgid;
};

static int name_step(__u32 i, void *ctx)
{
	struct name_scan *s = ctx;
	const struct rcb_py_walk *w = s->w;
	__u32 zero = 0;
	struct scratch *sc = bpf_map_lookup_elem(&scratch, &zero);
	__u8 cut = 0;
	__u64 *mark;

	/* Checked and used as one 64-bit register (as code_step's). */
	__u64 j = i;
	barrier_var(j);
	if (j >= RCB_NAME_FRAMES || j >= s->r->npy || !sc)
		return 1;
	struct rcb_py_name *nm = &s->r->names[j];
	const struct rcb_py_frame *f = &s->r->py[j];
	struct rcb_mark_key k = { .a = f->code, .b = s->tgid, .kind = RCB_MARK_CODE };
	__u32 clen = w->code_len;
	nm->code = f->code;
	nm->mark = f->mark;
	nm->name_len = nm->file_len = nm->file_cut = 0;
	s->r->nnames = j + 1;
	/* Named by the loader already, or not read at the call. */
	if (!f->mark || ((mark = bpf_map_lookup_elem(&marks, &k)) && *mark == f->mark))
		return 0;
	if (!clen || clen > RCB_CODE_SPAN ||
	    bpf_probe_read_user(sc->code, clen, (const void *)(f->code + w->code_lo)) != 0)
		return 0;
	__u64 name = field_in(sc->code, w->in_name, 64), file = field_in(sc->code, w->in_file, 64);
	/* Still the call's object (its frame may have returned since). */
	if ((name ^ (file << 3) ^ 1) != f->mark)
		return 0;
	nm->name_len = py_str(w, name, nm->name, RCB_NAME_LEN, 0, &cut);
	nm->file_len = py_str(w, file, nm->file, RCB_FILE_LEN, 1, &cut);
	nm->file_cut = cut;
	return 0;
}

/* The names of R's innermost code objects the loader has not named
 * (record.h, struct rcb_py_name), when R is a call a finding may quote
 * (WANTED) and its thread cannot be held for the loader to name them
 * (hold_after): no watch traces it, or its program's holds are spent.
 * Global, as py_frames is. */
__noinline int py_names(struct rcb_stack *r, __u32 tgid, int wanted)
{
	struct rcb_mark_key on = { .kind = RCB_MARK_HOLDING };
	struct task_struct *t = bpf_get_current_task_btf();

	if (!r)
		return 0;
	r->nnames = 0;
	if (!wanted || r->py_read != RCB_PY_READ || !r->npy || !t)
		return 0;
	struct rcb_py_walk *w = bpf_map_lookup_elem(&pywalks, &tgid);
	if (!w || w->str_ascii_data < 0 || w->code_name < 0 || w->code_file < 0 || !w->code_len)
		return 0;
	if (t->ptrace && w->holds_left && bpf_map_lookup_elem(&marks, &on))
		return 0;
	struct name_scan s = { .r = r, .w = w, .tgid = tgid };
	bpf_loop(RCB_NAME_FRAMES, name_step, &s, 0);
	return 0;
}

/* One more stack record written for process TGID (RCB_MARK_COPIES). */
static __always_inline void copied(__u32 tgid)
{
	struct rcb_mark_key k = { .a = tgid, .kind = RCB_MARK_COPIES };
	__u64 one = 1, *n = bpf_map_lookup_elem(&marks, &k);

	if (n)
		__sync_fetch_and_add(n, 1);
	else if (bpf_map_update_elem(&marks, &k, &one, BPF_NOEXIST) != 0 && (n = bpf_map_lookup_elem(&marks, &k)))
		__sync_fetch_and_add(n, 1);	/* another thread's first, just now */
}

/* The thread's registers and the top of its user stack, as a record of
 * their own (record.h, RCB_STACK). A stack is worth less than the calls:
 * none is copied while a quarter of the ring buffer waits to be read
 * (a busy tree of processes, a reader busy unwinding), so that the
 * stacks never make the capture lose a call; but the stack of a call a
 * finding may quote (WANTED: a failure, a long wait) is worth more than
 * a sample of a sum's (a site): it is skipped only past half. A loop of
 * a thousand opens of one file filled a quarter with its samples, and
 * the failure that followed had no stack. */
static __always_inline void stack_out(const struct pt_regs *regs, __u32 tgid, __u32 tid, int wanted, int site)
{
	__u64 size = bpf_ringbuf_query(&events, BPF_RB_RING_SIZE);

	if (bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) > (wanted ? size / 2 : size / 4)) {
		count(RCB_SKIPPED_STACK);
		return;
	}
	struct rcb_stack *r = reserve(sizeof(*r), tid, -RCB_STACK);
	struct task_struct *t = bpf_get_current_task_btf();

	if (!r)
		return;
	header(&r->h, RCB_STACK, sizeof(*r), tgid, tid);
	r->site = (site & ~wanted) & 1;
	r->regs[RCB_R_IP] = regs->ip;
	r->regs[RCB_R_SP] = regs->sp;
	r->regs[RCB_R_BP] = regs->bp;
	r->regs[RCB_R_BX] = regs->bx;
	r->regs[RCB_R_R12] = regs->r12;
	r->regs[RCB_R_R13] = regs->r13;
	r->regs[RCB_R_R14] = regs->r14;
	r->regs[RCB_R_R15] = regs->r15;
	r->regs[RCB_R_FS] = BPF_CORE_READ(t, thread.fsbase);
	r->mm = (__u64)BPF_CORE_READ(t, mm);
	py_frames(r, tgid, tid);
	py_names(r, tgid, wanted | site);
	/* A thread's stack may end sooner than the copy would: smaller
	 * copies until one can be read. */
	void *sp = (void *)regs->sp;
	r->len = 0;
	if (bpf_probe_read_user(r->stack, RCB_STACK_BYTES, sp) == 0)
		r->len = RCB_STACK_BYTES;
	else if (bpf_probe_read_user(r->stack, RCB_STACK_BYTES / 4, sp) == 0)
		r->len = RCB_STACK_BYTES / 4;
	else if (bpf_probe_read_user(r->stack, RCB_STACK_BYTES / 16, sp) == 0)
		r->len = RCB_STACK_BYTES / 16;
	stash_frames(r, wanted | site);
	bpf_ringbuf_submit(r, stack_wake_flags());
	copied(tgid);
	hold_after(tgid, tid);
}

/* The current thread's exec was written already (exec_while_paused):
 * once. */
static __always_inline int exec_written(void)
{
	struct exec_state *x = bpf_task_storage_get(&execs, bpf_get_current_task_btf(), 0, 0);

	if (!x || !x->written)
		return 0;
	x->written = 0;
	return 1;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(on_sys_exit, struct pt_regs *regs, long ret)
{
	__u32 tgid, tid;
	struct entry *en = ours_now(&tgid, &tid);

	if (!en)
		return 0;
	__u32 zero = 0;
	struct scratch *sc = bpf_map_lookup_elem(&scratch, &zero);
	__u32 flags = 0;
	if (!sc)
		return 0;
	if (pausable) {
		sc->counters[RCB_CALLS] += 1;
		/* An exec written at sched_process_exec (exec_while_paused). */
		if ((regs->orig_ax == 59 || regs->orig_ax == 322) && ret == 0 && exec_written())
			return 0;
	}
	/* mmap (x86-64's number) of a file from offset 0: a libpython?
	 * Its arguments from the registers, which hold them still:
	 * diagnosis mode has no entry hook. */
	if (stacks && regs->orig_ax == 9 && (__u64)ret < (__u64)-4095 && (int)regs->r8 >= 0 && !regs->r9)
		library_walk(tgid, (int)regs->r8, (__u64)ret);
	sc->site_io = 0;
	if (summing && !(en = diag_call(sc, en, regs, ret, tgid, tid)))
		return 0;
	if (!en->live) {
		/* No entry was seen: a call a seccomp filter refused (the
		 * filter runs before the entry hook), one in progress when
		 * the process was followed, or a new child's first return.
		 * The saved registers still hold its number and arguments. */
		if (!recorded_at_exit(plan_of((__u32)regs->orig_ax), ret))
			return 0;
		entry_from_regs(en, (__s64)regs->orig_ax, regs);
		en->ns = bpf_ktime_get_ns();
		flags = RCB_CALL_NO_ENTRY;
	}
	en->live = 0;
	__u64 exit_ns = summing ? en->end_ns : bpf_ktime_get_ns();
	if (stacks) {
		__u64 dur = exit_ns > en->ns ? exit_ns - en->ns : 0;
		int site = site_due(en, ret, tgid, dur) | sc->site_io;
		int wanted = stack_wanted(en->nr, ret, dur);
		if ((wanted | site) || probe_due(tgid, exit_ns))
			stack_out(regs, tgid, tid, wanted, site);
	}
	struct rcb_call *r = (void *)sc->buf;
	call_head(r, 0, en, tgid, tid, ret, exit_ns, flags);
	__u32 size = add_items(sc, sizeof(*r), en, ret);
	if (ret == -13 || ret == -1 || ret == -38)	/* EACCES, EPERM, ENOSYS */
		size = add_live(sc, size, en, tgid);
	r->h.size = size;
	if (size > RCB_REC_MAX || size < sizeof(*r))
		return 0;
	barrier_var(size);
	__u64 wake = wake_flags(size);
	/* An exec that worked is read at once: the loader reads the new
	 * program's file for its Python's walk, before the interpreter's
	 * first calls if it can (struct rcb_py_program). */
	if (stacks && ret == 0 && (r->nr == 59 || r->nr == 322))
		wake = BPF_RB_FORCE_WAKEUP;
	if (bpf_ringbuf_output(&events, sc->buf, size & (2 * RCB_REC_MAX - 1), wake) != 0)
		lost(tid, (__s32)r->nr);
	if (sc->over)
		hold_for_room(tid);
	return 0;
}

/* How deep a pid namespace the loader's may be, as a task's struct pid
 * lists it. */
#define MAX_PIDNS_LEVELS 8

/* A task's id in the loader's pid namespace, for a task the hook sees
 * from outside (a forked child): the struct pid's entry for the level
 * whose namespace is the loader's; 0 when it has none there. */
static __always_inline __u32 ns_id(struct task_struct *t)
{
	struct pid *p = BPF_CORE_READ(t, thread_pid);
	unsigned int level = BPF_CORE_READ(p, level);

	if (!pidns_ino)
		return 0;
	for (int l = 0; l < MAX_PIDNS_LEVELS; l++) {
		if ((unsigned int)l > level)
			break;
		struct pid_namespace *ns = 0;
		__u32 inum = 0, nr = 0;
		bpf_core_read(&ns, sizeof(ns), &p->numbers[l].ns);
		if (!ns)
			continue;
		bpf_core_read(&inum, sizeof(inum), &ns->ns.inum);
		if (inum != pidns_ino)
			continue;
		bpf_core_read(&nr, sizeof(nr), &p->numbers[l].nr);
		return nr;
	}
	return 0;
}

/* A followed thread made a thread or a process: follow a new process,
 * and tell the reader who made whom before the child's first call, so
 * that its calls are known as its parent's child. */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(on_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = BPF_CORE_READ(parent, tgid), ctgid = BPF_CORE_READ(child, tgid);
	__u32 ptid = BPF_CORE_READ(parent, pid);
	__u8 one = 1;

	if (!bpf_map_lookup_elem(&followed, &ptgid))
		return 0;
	if (ptgid != ctgid && bpf_map_update_elem(&followed, &ctgid, &one, BPF_ANY) != 0) {
		count(RCB_LOST_FOLLOW);
		return 0;
	}
	if (ptgid != ctgid)
		__sync_fetch_and_add(&starts, 1);
	struct rcb_fork *r = reserve(sizeof(*r), ptid, -RCB_FORK);
	if (!r)
		return 0;
	header(&r->h, RCB_FORK, sizeof(*r), ptgid, ptid);
	r->ns = bpf_ktime_get_ns();
	r->child_tgid = ctgid;
	r->child_tid = BPF_CORE_READ(child, pid);
	r->child_ns_tid = ns_id(child);
	r->child_ns_tgid = ptgid == ctgid ? r->h.ns_tgid : r->child_ns_tid;
	/* The call that forks, begun: the hook runs inside it. Made in the
	 * record itself (a thread's call storage is too large for the
	 * stack, and this CPU's scratch is the exit hook's). */
	r->has_entry = 0;
	r->clone_args_len = 0;
	r->nr = 0;
	r->enter_ns = 0;
	for (int i = 0; i < 6; i++)
		r->args[i] = 0;
	if (summing) {
		/* No entry hook: the call is in the parent's saved registers
		 * (the hook runs inside it). */
		struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
		if (regs) {
			r->has_entry = 1;
			r->nr = (__s64)regs->orig_ax;
			regs_args(r->args, regs);
			r->enter_ns = bpf_ktime_get_ns();
		}
	} else {
		struct entry *en = bpf_task_storage_get(&inflight, bpf_get_current_task_btf(), 0, 0);
		if (en && en->live) {
			r->has_entry = 1;
			r->nr = en->nr;
			r->enter_ns = en->ns;
			for (int i = 0; i < 6; i++)
				r->args[i] = en->args[i];
		}
	}
	if (r->has_entry) {
		struct rcb_plan *pl = plan_of((__u32)r->nr);
		/* clone3's struct is read at entry by its decoder. */
		if (pl && pl->item[0].kind == RCB_P_BYTES && (pl->item[0].flags & RCB_PF_COUNT_ARG) &&
		    (pl->flags & RCB_PLAN_FORK) && r->args[0] &&
		    bpf_probe_read_user(r->clone_args, RCB_CLONE_ARGS, (const void *)r->args[0]) == 0)
			r->clone_args_len = r->args[1] < RCB_CLONE_ARGS ? (__u32)r->args[1] : RCB_CLONE_ARGS;
	}
	bpf_ringbuf_submit(r, calls_paused && ptgid != ctgid ? BPF_RB_FORCE_WAKEUP : wake_flags(sizeof(*r)));
	return 0;
}

/* A fatal signal sent to a process nobody traces with ptrace, and that
 * no handler catches, is never delivered: the kernel kills the process
 * at once, every thread with SIGKILL (complete_signal). strace, being a
 * tracer, would have seen it delivered; it is told, once per process,
 * when the thread it was sent to ends (after the call it was in, as a
 * delivery would come). */
SEC("tp_btf/signal_generate")
int BPF_PROG(on_signal_generate, int sig, struct kernel_siginfo *info, struct task_struct *task, int group,
	     int result)
{
	__u32 tgid = BPF_CORE_READ(task, tgid);
	__u8 *f = bpf_map_lookup_elem(&followed, &tgid);

	if (!f || sig == SIGKILL_NR || (*f & FOLLOWED_FATAL_TOLD))
		return 0;
	struct signal_struct *ss = BPF_CORE_READ(task, signal);
	unsigned int flags = BPF_CORE_READ(ss, flags);
	int code = BPF_CORE_READ(ss, group_exit_code);
	if (!(flags & SIGNAL_GROUP_EXIT_FLAG) || code != sig)
		return 0;
	*f |= FOLLOWED_FATAL_TOLD;
	struct entry *en = bpf_task_storage_get(&inflight, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!en)
		return 0;
	struct fatal_sig *p = &en->fatal;
	p->live = 1;
	p->signo = sig;
	p->ns = bpf_ktime_get_ns();
	/* INFO may be SEND_SIG_NOINFO (0: a kill() by the sender) or
	 * SEND_SIG_PRIV (1: the kernel's own); the verifier takes a
	 * tracepoint's pointer for one that is never NULL and drops the
	 * tests for NULL, so it is copied and tested as the number it is. */
	__u64 iv = 1;
	bpf_probe_read_kernel(&iv, sizeof(iv), &ctx[1]);
	if (iv > 1) {
		p->code = BPF_CORE_READ(info, si_code);
		p->pid = BPF_CORE_READ(info, _sifields._kill._pid);
		p->uid = BPF_CORE_READ(info, _sifields._kill._uid);
	} else {
		p->code = iv ? SI_KERNEL_CODE : 0;
		p->pid = iv ? 0 : (__s32)(bpf_get_current_pid_tgid() >> 32);
		p->uid = iv ? 0 : (__u32)bpf_get_current_uid_gid();
	}
	return 0;
}

/* At the end of the thread a fatal signal was sent to (on_task_exit):
 * that signal, as if delivered. */
static __always_inline void fatal_told(__u32 tgid, __u32 tid)
{
	struct entry *en = bpf_task_storage_get(&inflight, bpf_get_current_task_btf(), 0, 0);
	struct fatal_sig *p = en ? &en->fatal : 0;

	if (!p || !p->live)
		return;
	p->live = 0;
	struct rcb_signal *r = reserve(sizeof(*r), tid, -RCB_SIGNAL);
	if (!r)
		return;
	header(&r->h, RCB_SIGNAL, sizeof(*r), tgid, tid);
	r->ns = p->ns;
	r->signo = p->signo;
	r->code = p->code;
	r->addr = 0;
	r->pid = p->pid;
	r->uid = p->uid;
	r->status = 0;
	r->pad = 0;
	r->utime = r->stime = 0;
	bpf_ringbuf_submit(r, 0);
}

/* Diagnosis mode: a followed thread blocks (it sleeps, not preempted):
 * the time its call began, as the rules see it, unless it blocked
 * already since its last call ended. The call is the one its saved
 * registers name (a page fault's error code is no call of its own, but
 * may look like one). */
SEC("tp_btf/sched_switch")
int BPF_PROG(on_switch, bool preempt, struct task_struct *prev, struct task_struct *next, unsigned int prev_state)
{
	/* PREV is the current task still. */
	if (preempt || prev_state == 0 || outside_cgroup())
		return 0;
	struct entry *en = followed_storage(prev);
	/* A block from before a pause of the calls' record (calls_from_ns)
	 * is no call's now. */
	if (!en || (en->blocked_ns && en->blocked_ns >= calls_from_ns))
		return 0;
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(prev);
	en->blocked_nr = regs ? (__s64)regs->orig_ax : -1;
	en->blocked_ns = bpf_ktime_get_ns();
	return 0;
}

/* A thread that ends inside a call (exit_group never returns) has no
 * exit for it: its call is written now, before its end. Diagnosis mode
 * has no entry: a call that never returns is in the saved registers. */
static __always_inline void unreturned(__u32 tgid, __u32 tid)
{
	struct entry *en = bpf_task_storage_get(&inflight, bpf_get_current_task_btf(), 0,
						summing ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);

	if (!en)
		return;
	if (summing) {
		struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
		__s64 nr = regs ? (__s64)regs->orig_ax : -1;
		struct rcb_plan *pl = plan_of((__u32)nr);
		if (nr < 0 || !pl || !(pl->flags & RCB_PLAN_NORETURN) || !wanted(pl))
			return;
		entry_from_regs(en, nr, regs);
		en->ns = bpf_ktime_get_ns();
	}
	if (!en->live)
		return;
	en->live = 0;
	struct rcb_call *r = reserve(sizeof(*r), tid, (__s32)en->nr);
	if (!r)
		return;
	call_head(r, sizeof(*r), en, tgid, tid, 0, bpf_ktime_get_ns(), RCB_CALL_UNRETURNED);
	bpf_ringbuf_submit(r, wake_flags(sizeof(*r)));
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(on_task_exit, struct task_struct *p)
{
	__u32 tgid = BPF_CORE_READ(p, tgid), tid = BPF_CORE_READ(p, pid);
	__u8 one = 1;

	/* A thread that ends together with its process's last may get here
	 * after that one forgot the process (each counts itself out of
	 * signal->live before its hook runs): it is still ours. */
	if (!bpf_map_lookup_elem(&followed, &tgid) && !bpf_map_lookup_elem(&gone, &tgid))
		return 0;
	/* The hook runs in the thread that ends (do_exit). */
	unreturned(tgid, tid);
	fatal_told(tgid, tid);
	int live = BPF_CORE_READ(p, signal, live.counter);
	if (live == 0)
		flush_all(tgid, tid);
	struct rcb_exit *r = reserve(sizeof(*r), tid, -RCB_EXIT);
	if (r) {
		header(&r->h, RCB_EXIT, sizeof(*r), tgid, tid);
		r->ns = bpf_ktime_get_ns();
		r->exit_code = BPF_CORE_READ(p, exit_code);
		r->group_dead = live == 0;
		/* The end of a process is always worth a read now. */
		bpf_ringbuf_submit(r, live == 0 ? BPF_RB_FORCE_WAKEUP : wake_flags(sizeof(*r)));
	}
	if (live == 0) {
		struct rcb_mark_key copies = { .a = tgid, .kind = RCB_MARK_COPIES };
		bpf_map_update_elem(&gone, &tgid, &one, BPF_ANY);
		bpf_map_delete_elem(&followed, &tgid);
		bpf_map_delete_elem(&marks, &copies);
	}
	return 0;
}

/* watch, its calls not recorded (calls_paused): an exec that worked is
 * written now, as the exit hook would have written it (diagnosis mode),
 * so that the process is known by its new program, and the reader wakes
 * at once to record its calls again. The hook runs in the thread that
 * exec'd, inside its exec call. */
static __always_inline int exec_while_paused(__u32 tgid, __u32 tid)
{
	__u32 zero = 0;
	struct scratch *sc = bpf_map_lookup_elem(&scratch, &zero);
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());

	if (!sc || !regs)
		return 0;
	struct entry *en = &sc->en;
	entry_from_regs(en, (__s64)regs->orig_ax, regs);
	const struct rcb_plan *pl = plan_of((__u32)en->nr);
	if (!pl || !exec_addresses(en, pl))
		return 0;
	struct rcb_call *r = (void *)sc->buf;
	en->ns = bpf_ktime_get_ns();
	call_head(r, 0, en, tgid, tid, 0, en->ns, 0);
	__u32 size = add_items(sc, sizeof(*r), en, 0);
	r->h.size = size;
	if (size > RCB_REC_MAX || size < sizeof(*r))
		return 0;
	barrier_var(size);
	if (bpf_ringbuf_output(&events, sc->buf, size & (2 * RCB_REC_MAX - 1), BPF_RB_FORCE_WAKEUP) != 0)
		lost(tid, (__s32)r->nr);
	return 1;
}

/* A followed thread's exec succeeded: its new program's file name, and
 * its argv from the new memory, for the exit of its exec call. */
SEC("tp_btf/sched_process_exec")
int BPF_PROG(on_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	__u32 tgid = BPF_CORE_READ(p, tgid);
	__u8 one = 1;

	if (!bpf_map_lookup_elem(&followed, &tgid)) {
		/* A program run in the followed cgroup by a process that
		 * joined it from outside (crun exec, nsenter, a supervisor):
		 * followed from here. The hook runs in P. */
		if (!in_followed_cgroup())
			return 0;
		if (bpf_map_update_elem(&followed, &tgid, &one, BPF_ANY) != 0) {
			count(RCB_LOST_FOLLOW);
			return 0;
		}
	}
	__sync_fetch_and_add(&starts, 1);
	/* A new program: what its calls repeat is its own. */
	struct entry *ts = bpf_task_storage_get(&inflight, p, 0, 0);
	if (ts) {
		__builtin_memset(ts->rep_hash, 0, sizeof(ts->rep_hash));
		__builtin_memset(ts->quiet_fds, 0, sizeof(ts->quiet_fds));
	}
	/* P is the thread that exec'd: the hook runs in it. */
	struct exec_state *x = bpf_task_storage_get(&execs, p, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!x)
		return 0;
	const char *fn = BPF_CORE_READ(bprm, filename);
	if (bpf_probe_read_kernel_str(x->filename, sizeof(x->filename), fn) < 0)
		x->filename[0] = 0;
	__u64 start = BPF_CORE_READ(p, mm, arg_start), end = BPF_CORE_READ(p, mm, arg_end);
	__u64 total = end > start ? end - start : 0;
	__u64 n = total < RCB_ARGV_MAX ? total : RCB_ARGV_MAX;
	x->new_total = (__u32)total;
	x->new_len = 0;
	if (n && bpf_probe_read_user(x->new_argv, n & (RCB_ARGV_MAX - 1) ?: RCB_ARGV_MAX, (const void *)start) == 0)
		x->new_len = (__u32)n;
	x->exec_seen = 1;
	/* The hooks may be attached again while the exec goes on (or not be
	 * detached yet, calls_paused being set first): its exit then writes
	 * nothing (on_sys_exit), and it is written once. */
	x->written = calls_paused ? (__u8)exec_while_paused(tgid, BPF_CORE_READ(p, pid)) : 0;
	return 0;
}

/* A cgroup made: the followed one made anew (see follow_cgroup_name),
 * before any process is moved into it. */
SEC("tp_btf/cgroup_mkdir")
int BPF_PROG(on_cgroup_mkdir, struct cgroup *cgrp, const char *path)
{
	char buf[RCB_CGROUP_PATH_MAX];
	__u32 len = follow_cgroup_name_len;

	if (!follow_cgroup_parent || !len || len >= RCB_CGROUP_PATH_MAX)
		return 0;
	/* The css is the cgroup's first member: its parent's css is its
	 * parent cgroup. Under that parent, its name alone is compared:
	 * PATH is the hierarchy's, which a cgroup namespace's loader does
	 * not see. */
	struct cgroup *parent = (struct cgroup *)BPF_CORE_READ(cgrp, self.parent);
	if (!parent || BPF_CORE_READ(parent, kn, id) != follow_cgroup_parent)
		return 0;
	if (bpf_probe_read_kernel_str(buf, sizeof(buf), BPF_CORE_READ(cgrp, kn, name)) != (long)len + 1)
		return 0;
	for (__u32 i = 0; i < RCB_CGROUP_PATH_MAX; i++) {
		if (i >= len)
			break;
		if (buf[i] != follow_cgroup_name[i])
			return 0;
	}
	cgroup_level_now = (__u32)BPF_CORE_READ(cgrp, level);
	/* In this order (x86's stores are seen in order). */
	asm volatile("" ::: "memory");
	cgroup_now = BPF_CORE_READ(cgrp, kn, id);
	return 0;
}

/* A signal delivered to a followed thread, with its siginfo, as strace's
 * "--- SIGSEGV {...} ---" line has it: a fault's address, a sender. */
SEC("tp_btf/signal_deliver")
int BPF_PROG(on_signal, int sig, struct kernel_siginfo *info, struct k_sigaction *ka)
{
	__u32 tgid, tid;

	/* SIGKILL is never delivered to a handler, and a tracer sees no
	 * delivery of it (strace prints none): the kernel also sends it to
	 * every thread of a process that exits, and in place of another
	 * fatal signal that kills at once (on_signal_generate tells that). */
	if (sig == SIGKILL_NR || !ours_now(&tgid, &tid))
		return 0;
	struct rcb_signal *r = reserve(sizeof(*r), tid, -RCB_SIGNAL);
	if (!r)
		return 0;
	header(&r->h, RCB_SIGNAL, sizeof(*r), tgid, tid);
	r->ns = bpf_ktime_get_ns();
	r->signo = sig;
	r->code = info ? BPF_CORE_READ(info, si_code) : 0;
	r->addr = info ? (__u64)BPF_CORE_READ(info, _sifields._sigfault._addr) : 0;
	r->pid = info ? BPF_CORE_READ(info, _sifields._kill._pid) : 0;
	r->uid = info ? BPF_CORE_READ(info, _sifields._kill._uid) : 0;
	r->status = info ? BPF_CORE_READ(info, _sifields._sigchld._status) : 0;
	r->pad = 0;
	r->utime = info ? BPF_CORE_READ(info, _sifields._sigchld._utime) : 0;
	r->stime = info ? BPF_CORE_READ(info, _sifields._sigchld._stime) : 0;
	/* A signal may end the process: read now. */
	bpf_ringbuf_submit(r, BPF_RB_FORCE_WAKEUP);
	return 0;
}

/* The kernel's tgid of the process a pidfd names (the loader attaches
 * this iterator to that one process): a pid the loader sees inside a
 * container is not the kernel's, and the followed set is keyed by the
 * kernel's. */
SEC("iter/task")
int kernel_tgid(struct bpf_iter__task *ctx)
{
	struct task_struct *t = ctx->task;

	if (!t)
		return 0;
	/* Its tgid, and its cgroup's level as the kernel counts it. */
	__u32 out[2] = { t->tgid, (__u32)BPF_CORE_READ(t, cgroups, dfl_cgrp, level) };
	bpf_seq_write(ctx->meta->seq, out, sizeof(out));
	return 0;
}
