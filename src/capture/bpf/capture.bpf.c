// SPDX-License-Identifier: GPL-2.0
/* The in-kernel half of the eBPF capture: the calls of the followed
 * processes, one record per call at its exit (record.h).
 *
 * Followed processes are keyed by the kernel's tgid, which is the same
 * in every pid namespace. A child is followed from its fork and
 * forgotten when its last thread ends. The arguments are the registers
 * saved at entry (the exit hook's registers are the return's), and the
 * user strings are read at exit, where the kernel has paged them in.
 * Which arguments are user strings is the loader's to say, per call
 * number, from event/syscalls.def (the `strings` map): the meaning of a
 * call is not written a second time here.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "capture/bpf/record.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by the loader before loading (the skeleton's rodata). */
const volatile __u64 wakeup_bytes = 256 * 1024;

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
	__s64 nr;
	__u64 args[6];
	__u64 ns;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);	/* tid */
	__type(value, struct entry);
} inflight SEC(".maps");

/* Per call number: bit I set, argument I is a user string (a path). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, RCB_NR_MAX);
	__type(key, __u32);
	__type(value, __u8);
} strings SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, RCB_NCOUNTERS);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

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
	__u64 pt = bpf_get_current_pid_tgid();
	__u32 tgid = pt >> 32, tid = (__u32)pt;

	if (!bpf_map_lookup_elem(&followed, &tgid))
		return 0;
	struct entry en = { .nr = id, .ns = bpf_ktime_get_ns() };
	en.args[0] = BPF_CORE_READ(regs, di);
	en.args[1] = BPF_CORE_READ(regs, si);
	en.args[2] = BPF_CORE_READ(regs, dx);
	en.args[3] = BPF_CORE_READ(regs, r10);
	en.args[4] = BPF_CORE_READ(regs, r8);
	en.args[5] = BPF_CORE_READ(regs, r9);
	if (bpf_map_update_elem(&inflight, &tid, &en, BPF_ANY) != 0)
		count(RCB_LOST_ENTRY);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(on_sys_exit, struct pt_regs *regs, long ret)
{
	__u64 pt = bpf_get_current_pid_tgid();
	__u32 tgid = pt >> 32, tid = (__u32)pt;

	if (!bpf_map_lookup_elem(&followed, &tgid))
		return 0;
	struct entry *en = bpf_map_lookup_elem(&inflight, &tid);
	if (!en) {
		/* Followed from inside a call (attached, or a new child's
		 * first return): no entry was seen. */
		return 0;
	}
	struct rcb_call *r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
	if (!r) {
		count(RCB_LOST_RESERVE);
		bpf_map_delete_elem(&inflight, &tid);
		return 0;
	}
	r->h.kind = RCB_CALL;
	r->h.tgid = tgid;
	r->h.tid = tid;
	r->h.pad = 0;
	r->nr = en->nr;
	for (int i = 0; i < 6; i++)
		r->args[i] = en->args[i];
	r->ret = ret;
	r->enter_ns = en->ns;
	r->exit_ns = bpf_ktime_get_ns();
	r->str_arg[0] = r->str_arg[1] = 0xff;
	r->str[0][0] = r->str[1][0] = 0;

	__u32 nr = (__u32)en->nr;
	__u8 *mask = nr < RCB_NR_MAX ? bpf_map_lookup_elem(&strings, &nr) : 0;
	if (mask && *mask) {
		int k = 0;
		for (int i = 0; i < 6 && k < RCB_STRINGS; i++) {
			if (!(*mask & (1 << i)))
				continue;
			/* k is 0 or 1 here; the verifier wants it bounded. */
			if (k == 0) {
				r->str_arg[0] = i;
				if (bpf_probe_read_user_str(r->str[0], RCB_STR_MAX, (const void *)en->args[i]) < 0)
					r->str[0][0] = 0;
			} else {
				r->str_arg[1] = i;
				if (bpf_probe_read_user_str(r->str[1], RCB_STR_MAX, (const void *)en->args[i]) < 0)
					r->str[1][0] = 0;
			}
			k++;
		}
	}
	bpf_map_delete_elem(&inflight, &tid);
	bpf_ringbuf_submit(r, wake_flags());
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
	bpf_map_delete_elem(&inflight, &tid);
	int live = BPF_CORE_READ(p, signal, live.counter);
	struct rcb_exit *r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
	if (r) {
		r->h.kind = RCB_EXIT;
		r->h.tgid = tgid;
		r->h.tid = tid;
		r->h.pad = 0;
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
