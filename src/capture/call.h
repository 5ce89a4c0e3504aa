/* One call as the decoders read it: its number, its arguments, its
 * outcome once it has returned (and what its thread was, when it failed
 * for want of a permission), and where its memory is read from. Every
 * source makes one of its own input and hands it to capture (capture.h:
 * capture_call_enter, capture_call_exit), which decodes it the same way
 * whoever made it:
 *  - the tracer (capture.c's hooks) from a stop's registers, its memory
 *    the stopped tracee's own (struct mem_live);
 *  - the eBPF capture (bpf/replay.c) from a record the kernel wrote
 *    after the call, its memory the copies the kernel made then (struct
 *    mem_copies), as libbpf-tools' opensnoop consumes its one record
 *    struct as it is.
 * No source makes another's input: no record is turned back into
 * registers, and no decoder asks which source made the view.
 */
#ifndef RC_CAPTURE_CALL_H
#define RC_CAPTURE_CALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct rc_live;
struct rc_stack_copy;

/* Where a call's memory is read from: a source's struct begins with
 * this, and its operations are given that struct. Read through
 * mem_read and mem_read_str, which check what every source would. */
struct call_mem {
	/* All of the LEN bytes (LEN > 0, ADDR + LEN not wrapping) at ADDR
	 * into BUF: LEN, or -1 (errno set) when any of them is unreadable. */
	ssize_t (*read)(const struct call_mem *m, uint64_t addr, void *buf, size_t len);
	/* As mem_read_str, MAX > 0 and *CUT (when CUT is not NULL) already
	 * false. */
	ssize_t (*read_str)(const struct call_mem *m, uint64_t addr, char *buf, size_t max, bool *cut);
};

struct call_view {
	long nr;		/* SYS_x; may be one the table lacks */
	uint64_t args[6];
	/* The stack pointer at entry (where rt_sigreturn's frame is); 0 when
	 * the source does not have it. */
	uint64_t sp;
	/* At exit only: the return value, -1 when the call failed, and
	 * then its errno (ERESTART* included); ERR 0 when it worked. */
	long long rval;
	int err;
	/* At exit, when ERR is EACCES, EPERM or ENOSYS: what the thread was
	 * then (event.h), as the source read it; NULL: not read. */
	const struct rc_live *live;
	/* At exit: the thread's stack as the source copied it; NULL: none
	 * (the tracer's thread is held: whoever unwinds reads it). */
	const struct rc_stack_copy *stack;
	/* The call's memory, read only while capture is given the view;
	 * NULL: none can be read (every read fails, and the decoders print
	 * addresses). */
	const struct call_mem *mem;
};

/* The call's memory through M (NULL: nothing is readable). All or
 * nothing: LEN, or -1 (errno set) when any of the LEN bytes is
 * unreadable, as strace's umove. */
ssize_t mem_read(const struct call_mem *m, uint64_t addr, void *buf, size_t len);
/* A NUL-terminated string of at most MAX-1 bytes into BUF: its length
 * (BUF NUL-terminated), MAX-1 with *CUT set when longer, or -1 (also when
 * the string runs into unreadable memory, as strace's umovestr). CUT may
 * be NULL. */
ssize_t mem_read_str(const struct call_mem *m, uint64_t addr, char *buf, size_t max, bool *cut);

/* The memory of thread TID as it is now (capture/mem.c): the tracer's
 * stopped tracees, and the eBPF capture's threads still blocked in a
 * call at its end. */
struct mem_live {
	struct call_mem m;
	pid_t tid;
};

void mem_live_init(struct mem_live *l, pid_t tid);

/* A call's memory as copies made when it ran (the eBPF capture's
 * items): N regions, each LEN bytes at P that were at ADDR. Nothing
 * else is readable, and the tracee is never read. */
struct mem_region {
	uint64_t addr;
	const void *p;
	size_t len;
};

struct mem_copies {
	struct call_mem m;
	const struct mem_region *r;
	size_t n;
};

/* The regions must outlive the reads. */
void mem_copies_init(struct mem_copies *c, const struct mem_region *r, size_t n);

#endif
