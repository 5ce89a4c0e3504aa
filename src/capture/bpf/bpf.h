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
 * - Records are untrusted input like any other: bpf_record_event checks
 *   each one's size and kind before it reads it.
 */
#ifndef RC_CAPTURE_BPF_BPF_H
#define RC_CAPTURE_BPF_BPF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "event/event.h"
#include "util/arena.h"
#include "util/strbuf.h"

struct bpf_capture;

struct bpf_capture_opts {
	size_t ring_bytes;	/* the ring buffer; 0: 16 MiB (a power of two) */
	size_t wakeup_bytes;	/* backlog that wakes the reader; 0: 256 KiB */
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

struct bpf_capture_losses {
	uint64_t reserve;	/* records the full ring buffer refused */
	uint64_t entry;		/* calls whose entry could not be kept */
	uint64_t follow;	/* children that could not be followed */
};
void bpf_capture_losses(const struct bpf_capture *c, struct bpf_capture_losses *out);

void bpf_capture_close(struct bpf_capture *c);

/* What to add to the kernel's CLOCK_MONOTONIC times to make them epoch
 * seconds, as the tracer's timestamps are (taken once, at open). */
double bpf_capture_epoch(const struct bpf_capture *c);

/* REC (SIZE bytes) as an event, its strings in A, its times monotonic
 * plus EPOCH: 1 for a call, a signal or a process's end, 0 for a record
 * that is no event (a thread's end that is not its process's), -1 for a
 * record that is not well formed. */
int bpf_record_event(const void *rec, size_t size, double epoch, struct rc_event *e, struct arena *a);

#endif
