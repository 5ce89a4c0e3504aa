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

/* Set by the loader before loading (the skeleton's rodata). */
const volatile __u64 wakeup_bytes = 256 * 1024;
/* The loader's pid namespace (/proc/self/ns/pid's device and inode):
 * records name threads by their ids there too. */
const volatile __u64 pidns_dev, pidns_ino;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 16 << 20);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);	/* tgid */
	__type(value, __u8);
} followed SEC(".maps");

struct entry {
	__u8 live;		/* inside the call NR */
	__s64 nr;
	__u64 args[6];
	__u64 ns;
	/* A timeout argument's struct, read at entry (select rewrites it). */
	__u8 timeout[RCB_TIMEOUT];
	__u8 timeout_arg;	/* 0xff: none */
	__u8 timeout_fault;
};

/* The call a thread is in, in the thread's own storage: no hashing, and
 * no update and delete per call, which cost more than all the rest. */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct entry);
} inflight SEC(".maps");

/* Per call number: what to keep of its memory (record.h). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, RCB_NR_MAX);
	__type(key, __u32);
	__type(value, struct rcb_plan);
} plan SEC(".maps");

/* A record is built here, then copied to the ring buffer at its size.
 * Twice the largest record: an item's offset, masked to below
 * RCB_REC_MAX, plus its largest read stays inside, which is the bound
 * the verifier can follow. */
struct scratch {
	char buf[2 * RCB_REC_MAX];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct scratch);
} scratch SEC(".maps");

/* What sched_process_exec saw of a thread's new program, for the exit
 * of its exec call: the old memory the arguments pointed into is gone. */
struct exec_info {
	char filename[RCB_STR_MAX];
	char argv[RCB_ARGV_MAX];
	__u32 argv_len;		/* bytes kept */
	__u32 argv_total;	/* bytes there were */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);	/* tid */
	__type(value, struct exec_info);
} execs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct exec_info);
} exec_scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, RCB_NCOUNTERS);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

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

/* The current thread's ids, and whether its process is followed. */
static __always_inline int followed_now(__u32 *tgid, __u32 *tid)
{
	__u64 pt = bpf_get_current_pid_tgid();

	*tgid = pt >> 32;
	*tid = (__u32)pt;
	return bpf_map_lookup_elem(&followed, tgid) != 0;
}

static __always_inline void count(__u32 which)
{
	__u64 *v = bpf_map_lookup_elem(&counters, &which);

	if (v)
		*v += 1;
}

/* Wake the reader only once the backlog is worth a read: a wake-up per
 * record slows the traced program three- to fourfold. */
static __always_inline __u64 wake_flags(void)
{
	return bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) >= wakeup_bytes ? BPF_RB_FORCE_WAKEUP
									    : BPF_RB_NO_WAKEUP;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(on_sys_enter, struct pt_regs *regs, long id)
{
	__u32 tgid, tid;

	if (!followed_now(&tgid, &tid))
		return 0;
	struct entry *slot = bpf_task_storage_get(&inflight, bpf_get_current_task_btf(), 0,
						   BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!slot) {
		count(RCB_LOST_ENTRY);
		return 0;
	}
	struct entry en = { .live = 1, .nr = id, .ns = bpf_ktime_get_ns() };
	/* tp_btf's regs are a typed kernel pointer: read directly, without
	 * a probe call per register. */
	en.args[0] = regs->di;
	en.args[1] = regs->si;
	en.args[2] = regs->dx;
	en.args[3] = regs->r10;
	en.args[4] = regs->r8;
	en.args[5] = regs->r9;
	en.timeout_arg = 0xff;
	__u32 nr = (__u32)id;
	struct rcb_plan *pl = nr < RCB_NR_MAX ? bpf_map_lookup_elem(&plan, &nr) : 0;
	if (pl) {
		for (int k = 0; k < RCB_PLAN; k++) {
			__u8 arg = pl->item[k].arg;
			if (pl->item[k].kind != RCB_P_TIMEOUT || arg >= 6)
				continue;
			en.timeout_arg = arg;
			if (!en.args[arg & 7] ||
			    bpf_probe_read_user(en.timeout, RCB_TIMEOUT, (const void *)en.args[arg & 7]) != 0)
				en.timeout_fault = 1;
			break;
		}
	}
	*slot = en;
	return 0;
}

/* A bound on one read that the verifier can follow: a power of two less
 * one, above every item's cap (RCB_STR_MAX, RCB_DATA_END). */
#define RCB_ITEM_MASK 4095

/* Where an item's bytes are read from. */
enum from { FROM_USER, FROM_USER_STR, FROM_KERNEL, FROM_KERNEL_STR };

/* Append an item of LEN bytes (at most MAX) read FROM memory at SRC, at
 * OFF of BUF; the new end, or OFF when there is no room. SRC NULL, or a
 * read that fails, gives an empty item marked as a fault. */
static __always_inline __u32 add_item(char *buf, __u32 off, __u8 arg, __u8 kind, const void *src, __u64 len,
				      __u32 max, __u64 total, enum from from, __u32 *nitems)
{
	if (off > RCB_REC_MAX - sizeof(struct rcb_item) - RCB_STR_MAX - RCB_DATA_END)
		return off;
	off &= RCB_REC_MAX - 1;
	struct rcb_item *it = (void *)(buf + off);
	void *dst = buf + off + sizeof(*it);
	__u32 size = (len > max ? max : len) & RCB_ITEM_MASK;
	long n = 0;
	__u8 fault = !src;
	if (src && size) {
		switch (from) {
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
	it->arg = arg;
	it->kind = kind;
	it->fault = fault;
	it->pad = 0;
	it->len = (__u32)n;
	it->total = total;
	*nitems += 1;
	return off + ((sizeof(*it) + (__u32)n + 7) & ~7u);
}

/* What the plan keeps of the call's memory, after its fixed part. */
static __always_inline __u32 add_items(char *buf, __u32 off, const struct entry *en, long ret, __u32 *nitems)
{
	__u32 nr = (__u32)en->nr;
	struct rcb_plan *pl = nr < RCB_NR_MAX ? bpf_map_lookup_elem(&plan, &nr) : 0;

	if (!pl)
		return off;
	for (int k = 0; k < RCB_PLAN; k++) {
		__u8 arg = pl->item[k].arg & 7, la = pl->item[k].len_arg & 7;
		if (arg >= 6)
			continue;
		const void *p = (const void *)en->args[arg];
		__u64 len;
		switch (pl->item[k].kind) {
		case RCB_P_STR:
			off = add_item(buf, off, arg, RCB_I_STR, p, RCB_STR_MAX, RCB_STR_MAX, 0, FROM_USER_STR, nitems);
			break;
		case RCB_P_ADDR:
			if (arg + 1 < 6)
				off = add_item(buf, off, arg, RCB_I_BYTES, p, en->args[(arg + 1) & 7], RCB_ADDR_MAX,
					       en->args[(arg + 1) & 7], FROM_USER, nitems);
			break;
		case RCB_P_ADDR_OUT: {
			__u32 alen = 0;
			if (ret < 0 || arg + 1 >= 6 || !en->args[(arg + 1) & 7] ||
			    bpf_probe_read_user(&alen, sizeof(alen), (const void *)en->args[(arg + 1) & 7]))
				break;
			off = add_item(buf, off, arg, RCB_I_BYTES, p, alen, RCB_ADDR_MAX, alen, FROM_USER, nitems);
			break;
		}
		case RCB_P_DATA_OUT:
		case RCB_P_DATA_IN:
			len = pl->item[k].kind == RCB_P_DATA_OUT ? en->args[la] : (ret > 0 ? (__u64)ret : 0);
			if (pl->item[k].kind == RCB_P_DATA_IN && ret <= 0)
				break;
			if (len <= 2 * RCB_DATA_END) {
				/* All of it, as two halves at most. */
				__u64 first = len > RCB_DATA_END ? RCB_DATA_END : len;
				off = add_item(buf, off, arg, RCB_I_HEAD, p, first, RCB_DATA_END, len, FROM_USER, nitems);
				if (len > first)
					off = add_item(buf, off, arg, RCB_I_TAIL, p + first, len - first, RCB_DATA_END,
						       len, FROM_USER, nitems);
			} else {
				off = add_item(buf, off, arg, RCB_I_HEAD, p, RCB_DATA_END, RCB_DATA_END, len, FROM_USER, nitems);
				off = add_item(buf, off, arg, RCB_I_TAIL, p + len - RCB_DATA_END, RCB_DATA_END,
					       RCB_DATA_END, len, FROM_USER, nitems);
			}
			break;
		case RCB_P_TIMEOUT:
			/* Read at entry, into the entry (select rewrites its own). */
			if (en->timeout_arg == arg)
				off = add_item(buf, off, arg, RCB_I_BYTES, en->timeout_fault ? 0 : en->timeout,
					       RCB_TIMEOUT, RCB_TIMEOUT, RCB_TIMEOUT, FROM_KERNEL, nitems);
			break;
		case RCB_P_EXEC: {
			if (ret != 0) {
				off = add_item(buf, off, arg, RCB_I_STR, p, RCB_STR_MAX, RCB_STR_MAX, 0, FROM_USER_STR, nitems);
				break;
			}
			__u32 tid = (__u32)bpf_get_current_pid_tgid();
			struct exec_info *x = bpf_map_lookup_elem(&execs, &tid);
			if (!x)
				break;
			off = add_item(buf, off, arg, RCB_I_STR, x->filename, RCB_STR_MAX, RCB_STR_MAX, 0, FROM_KERNEL_STR,
				       nitems);
			off = add_item(buf, off, arg, RCB_I_ARGV, x->argv, x->argv_len, RCB_ARGV_MAX, x->argv_total,
				       FROM_KERNEL, nitems);
			bpf_map_delete_elem(&execs, &tid);
			break;
		}
		default:
			break;
		}
	}
	return off;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(on_sys_exit, struct pt_regs *regs, long ret)
{
	__u32 tgid, tid;

	if (!followed_now(&tgid, &tid))
		return 0;
	struct entry *en = bpf_task_storage_get(&inflight, bpf_get_current_task_btf(), 0, 0);
	if (!en || !en->live) {
		/* Followed from inside a call (attached, or a new child's
		 * first return): no entry was seen. */
		return 0;
	}
	__u32 zero = 0;
	struct scratch *sc = bpf_map_lookup_elem(&scratch, &zero);
	en->live = 0;
	if (!sc)
		return 0;
	struct rcb_call *r = (void *)sc->buf;
	header(&r->h, RCB_CALL, 0, tgid, tid);
	r->nr = en->nr;
	for (int i = 0; i < 6; i++)
		r->args[i] = en->args[i];
	r->ret = ret;
	r->enter_ns = en->ns;
	r->exit_ns = bpf_ktime_get_ns();
	r->nitems = 0;
	r->pad = 0;
	__u32 nitems = 0;
	__u32 size = add_items(sc->buf, sizeof(*r), en, ret, &nitems);
	r->nitems = nitems;
	r->h.size = size;
	if (size > RCB_REC_MAX)
		return 0;
	if (bpf_ringbuf_output(&events, sc->buf, size & (RCB_REC_MAX - 1) ?: sizeof(*r), wake_flags()) != 0)
		count(RCB_LOST_RESERVE);
	return 0;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(on_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = BPF_CORE_READ(parent, tgid), ctgid = BPF_CORE_READ(child, tgid);
	__u8 one = 1;

	if (ptgid == ctgid || !bpf_map_lookup_elem(&followed, &ptgid))
		return 0;
	if (bpf_map_update_elem(&followed, &ctgid, &one, BPF_ANY) != 0)
		count(RCB_LOST_FOLLOW);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(on_task_exit, struct task_struct *p)
{
	__u32 tgid = BPF_CORE_READ(p, tgid), tid = BPF_CORE_READ(p, pid);

	if (!bpf_map_lookup_elem(&followed, &tgid))
		return 0;
	int live = BPF_CORE_READ(p, signal, live.counter);
	struct rcb_exit *r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
	if (r) {
		header(&r->h, RCB_EXIT, sizeof(*r), tgid, tid);
		r->ns = bpf_ktime_get_ns();
		r->exit_code = BPF_CORE_READ(p, exit_code);
		r->group_dead = live == 0;
		/* The end of a process is always worth a read now. */
		bpf_ringbuf_submit(r, live == 0 ? BPF_RB_FORCE_WAKEUP : wake_flags());
	} else {
		count(RCB_LOST_RESERVE);
	}
	if (live == 0)
		bpf_map_delete_elem(&followed, &tgid);
	return 0;
}

/* A followed thread's exec succeeded: its new program's file name, and
 * its argv from the new memory, for the exit of its exec call. */
SEC("tp_btf/sched_process_exec")
int BPF_PROG(on_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	__u32 tgid = BPF_CORE_READ(p, tgid), tid = BPF_CORE_READ(p, pid);
	__u32 zero = 0;

	if (!bpf_map_lookup_elem(&followed, &tgid))
		return 0;
	struct exec_info *x = bpf_map_lookup_elem(&exec_scratch, &zero);
	if (!x)
		return 0;
	const char *fn = BPF_CORE_READ(bprm, filename);
	if (bpf_probe_read_kernel_str(x->filename, sizeof(x->filename), fn) < 0)
		x->filename[0] = 0;
	__u64 start = BPF_CORE_READ(p, mm, arg_start), end = BPF_CORE_READ(p, mm, arg_end);
	__u64 total = end > start ? end - start : 0;
	__u64 n = total < RCB_ARGV_MAX ? total : RCB_ARGV_MAX;
	x->argv_total = (__u32)total;
	x->argv_len = 0;
	if (n && bpf_probe_read_user(x->argv, n & (RCB_ARGV_MAX - 1) ?: RCB_ARGV_MAX, (const void *)start) == 0)
		x->argv_len = (__u32)n;
	bpf_map_update_elem(&execs, &tid, x, BPF_ANY);
	return 0;
}

/* A signal delivered to a followed thread, with its siginfo, as strace's
 * "--- SIGSEGV {...} ---" line has it: a fault's address, a sender. */
SEC("tp_btf/signal_deliver")
int BPF_PROG(on_signal, int sig, struct kernel_siginfo *info, struct k_sigaction *ka)
{
	__u32 tgid, tid;

	if (!followed_now(&tgid, &tid))
		return 0;
	struct rcb_signal *r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
	if (!r) {
		count(RCB_LOST_RESERVE);
		return 0;
	}
	header(&r->h, RCB_SIGNAL, sizeof(*r), tgid, tid);
	r->ns = bpf_ktime_get_ns();
	r->signo = sig;
	r->code = info ? BPF_CORE_READ(info, si_code) : 0;
	r->addr = info ? (__u64)BPF_CORE_READ(info, _sifields._sigfault._addr) : 0;
	r->pid = info ? BPF_CORE_READ(info, _sifields._kill._pid) : 0;
	r->pad = 0;
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
	__u32 tgid = t->tgid;
	bpf_seq_write(ctx->meta->seq, &tgid, sizeof(tgid));
	return 0;
}
