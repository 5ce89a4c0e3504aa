/* What the in-kernel capture (capture.bpf.c) hands to its loader
 * (bpf.c) through the ring buffer: plain fixed-width data, the same
 * layout on both sides. Included after vmlinux.h in the BPF program and
 * after <linux/types.h> in the loader, which both define __u64 and kin.
 *
 * A call is one record at its exit: its number, the six argument
 * registers saved at entry, the return value, both times, and what the
 * loader's plan for its number says to keep of its memory (paths, socket
 * addresses, the data written, a timeout), read at exit, as a string not
 * yet paged in cannot be read at entry (REFERENCE.md, "In-kernel
 * capture"). A thread's end is one record of its own.
 */
#ifndef RC_CAPTURE_BPF_RECORD_H
#define RC_CAPTURE_BPF_RECORD_H

/* What a call's record carries of its memory, per argument, as the
 * loader plans it per call number from the table's roles (the `plan`
 * map): at most RCB_PLAN items, read at exit. */
#define RCB_PLAN 3
/* Calls the plan covers: numbers at or above it read no memory. */
#define RCB_NR_MAX 512
/* The most a record holds (a per-CPU scratch buffer is built, then
 * copied to the ring buffer at its true size). */
#define RCB_REC_MAX 8192
/* A path: strace prints paths whole, up to PATH_MAX; rules want the
 * name, and 1 KiB keeps every real one seen in the scenarios. */
#define RCB_STR_MAX 1024
/* A socket address (sockaddr_storage is 128). */
#define RCB_ADDR_MAX 128
/* The data a write keeps: all of it up to twice this, else this much
 * of its head and of its tail (RC_EVENT_DATA_HEAD). */
#define RCB_DATA_END 2048
/* A timeout read at entry (a timespec or timeval: 16 bytes). */
#define RCB_TIMEOUT 16
/* The argv kept of an exec (strace's -s 256 shows about this much). */
#define RCB_ARGV_MAX 1024

enum rcb_plan_kind {
	RCB_P_NONE,
	RCB_P_STR,		/* a NUL-terminated string */
	RCB_P_ADDR,		/* a sockaddr, its length the next argument */
	RCB_P_ADDR_OUT,		/* a sockaddr returned, its length at the next argument */
	RCB_P_DATA_OUT,		/* bytes given, their count argument LEN_ARG */
	RCB_P_DATA_IN,		/* bytes returned, as many as the call returned */
	RCB_P_TIMEOUT,		/* 16 bytes, read at entry (select rewrites its timeval) */
	RCB_P_EXEC,		/* an exec's program: after a success, the kernel's exec
				 * event gives its file name and argv (the old memory is
				 * gone); after a failure, the path argument */
};

struct rcb_plan_item {
	__u8 kind;		/* enum rcb_plan_kind */
	__u8 arg;
	__u8 len_arg;		/* RCB_P_DATA_OUT's count */
	__u8 pad;
};

struct rcb_plan {
	struct rcb_plan_item item[RCB_PLAN];
};

enum rcb_kind {
	RCB_CALL = 1,
	RCB_EXIT,		/* a thread ended */
	RCB_SIGNAL,		/* a signal delivered to a thread */
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
	__u32 size;		/* the record's bytes, items included */
	__u32 tgid, tid;	/* the kernel's ids (the init namespace's) */
	/* The same in the loader's pid namespace (what its user sees);
	 * 0 when the thread is not in it. */
	__u32 ns_tgid, ns_tid;
};

/* A call: this, then NITEMS items, each a struct rcb_item and its LEN
 * bytes, padded to 8. */
struct rcb_call {
	struct rcb_header h;
	__s64 nr;
	__u64 args[6];
	__s64 ret;
	__u64 enter_ns, exit_ns;	/* CLOCK_MONOTONIC (bpf_ktime_get_ns) */
	__u32 nitems;
	__u32 pad;
};

enum rcb_item_kind {
	RCB_I_STR = 1,		/* LEN bytes, the NUL included */
	RCB_I_BYTES,		/* LEN bytes */
	RCB_I_HEAD,		/* the first LEN of TOTAL bytes */
	RCB_I_TAIL,		/* the last LEN of TOTAL bytes */
	RCB_I_ARGV,		/* the new program's arguments, each ending in a NUL;
				 * TOTAL: their size in all (more than LEN: cut) */
};

struct rcb_item {
	__u8 arg;
	__u8 kind;		/* enum rcb_item_kind */
	__u8 fault;		/* the memory could not be read: LEN is 0 */
	__u8 pad;
	__u32 len;
	__u64 total;		/* the length the call gave (a write's count) */
};

struct rcb_signal {
	struct rcb_header h;
	__u64 ns;
	__s32 signo, code;	/* the siginfo's */
	__u64 addr;		/* si_addr */
	__s32 pid;		/* si_pid (the sender's, in its namespace) */
	__u32 pad;
};

struct rcb_exit {
	struct rcb_header h;
	__u64 ns;
	__s32 exit_code;	/* task->exit_code: status << 8 | signal (| 0x80 core) */
	__u32 group_dead;	/* the last thread of its process */
};

#endif
