/* What the in-kernel capture (capture.bpf.c) hands to its loader
 * (bpf.c) through the ring buffer: plain fixed-width data, the same
 * layout on both sides. Included after vmlinux.h in the BPF program and
 * after <linux/types.h> in the loader, which both define __u64 and kin.
 *
 * A call is one record at its exit: its number, the six argument
 * registers saved at entry, the return value, both times, and the user
 * strings its path arguments name, read at exit (a string not yet paged
 * in cannot be read at entry: REFERENCE.md, "In-kernel capture"). A
 * process's end is one record of its own.
 */
#ifndef RC_CAPTURE_BPF_RECORD_H
#define RC_CAPTURE_BPF_RECORD_H

/* The user strings one call keeps: a path, and a second one (rename's
 * new name, symlink's target). */
#define RCB_STRINGS 2
/* Bytes kept of each, the NUL included: longer paths are cut, and say so
 * by their length (RCB_STR_MAX - 1 bytes and no NUL before it). */
#define RCB_STR_MAX 256
/* Calls the string map covers: numbers at or above it keep no strings. */
#define RCB_NR_MAX 512

enum rcb_kind {
	RCB_CALL = 1,
	RCB_EXIT,		/* a thread ended */
};

/* The loss counters, one slot each in the per-CPU counter array. */
enum rcb_counter {
	RCB_LOST_RESERVE,	/* the ring buffer was full: a record dropped */
	RCB_LOST_ENTRY,		/* an exit without its saved entry (the entry map was full) */
	RCB_LOST_FOLLOW,	/* a child not followed (the followed map was full) */
	RCB_NCOUNTERS
};

struct rcb_header {
	__u32 kind;		/* enum rcb_kind */
	__u32 tgid, tid;	/* the kernel's ids (the init namespace's) */
	__u32 pad;
};

struct rcb_call {
	struct rcb_header h;
	__s64 nr;
	__u64 args[6];
	__s64 ret;
	__u64 enter_ns, exit_ns;	/* CLOCK_MONOTONIC (bpf_ktime_get_ns) */
	/* Which argument each string is (0-5), 0xff: none. */
	__u8 str_arg[RCB_STRINGS];
	__u8 pad[6];
	char str[RCB_STRINGS][RCB_STR_MAX];
};

struct rcb_exit {
	struct rcb_header h;
	__u64 ns;
	__s32 exit_code;	/* task->exit_code: status << 8 | signal (| 0x80 core) */
	__u32 group_dead;	/* the last thread of its process */
};

#endif
