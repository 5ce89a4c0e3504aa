/* Whether a SIGKILL was likely the OOM killer's: a trace cannot tell who
 * sent a SIGKILL (it shows no siginfo for it), but a process that just
 * allocated a lot, or was already refused memory, is the OOM killer's
 * usual victim. out-of-memory reports such a kill and crashed leaves it
 * alone; both decide with this same code so that exactly one reports it.
 *
 * Per process: anonymous memory gained (mmap, brk growth) in coarse time
 * buckets, and whether an allocation failed. Time is the trace's own when
 * it has timestamps, else the process's syscall count.
 */
#ifndef RC_RULES_OOM_HINT_H
#define RC_RULES_OOM_HINT_H

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "event/event.h"
#include "event/procs.h"

/* Buckets of one second (or of 100 syscalls without timestamps). */
#define OOM_HINT_BUCKETS 16
#define OOM_HINT_WINDOW 10
#define OOM_HINT_CALLS_PER_BUCKET 100
/* Growth within the window that makes the OOM killer the likely sender. */
#define OOM_HINT_BYTES (256ULL << 20)

struct oom_hint {
	long long bucket_id[OOM_HINT_BUCKETS];
	uint64_t bucket_bytes[OOM_HINT_BUCKETS];
	uint64_t brk;		/* the current break, 0 unknown */
	bool enomem;		/* an allocation was refused */
};

static inline long long oom_hint_clock(const struct rc_event *e, const struct rc_proc *p)
{
	/* A hostile log's time can be past what a long long holds. */
	if (e->ts >= 0)
		return e->ts < 9e18 ? (long long)e->ts : (long long)9e18;
	return (long long)((p ? p->nsyscalls : 0) / OOM_HINT_CALLS_PER_BUCKET);
}

/* The anonymous memory a successful call added, in bytes. */
static inline uint64_t oom_hint_gain(struct oom_hint *h, const struct rc_event *e)
{
	if (e->kind != RC_EV_SYSCALL || !e->ret_known || e->err)
		return 0;
	if (e->nr == SYS_brk) {
		uint64_t now = (uint64_t)e->ret;
		uint64_t gain = h->brk && now > h->brk ? now - h->brk : 0;
		h->brk = now;
		return gain;
	}
#ifdef SYS_mmap
	/* A reservation gains no memory. */
	if (e->nr == SYS_mmap && (e->fd < 0 || (e->flags & MAP_ANONYMOUS)) && !event_mmap_reserves(e))
		return e->len;
#endif
	return 0;
}

/* Account E (any event of the process P belongs to). */
static inline void oom_hint_add(struct oom_hint *h, const struct rc_event *e, const struct rc_proc *p)
{
	if (e->kind != RC_EV_SYSCALL)
		return;
	if (e->err == ENOMEM && (e->nr == SYS_mremap
#ifdef SYS_mmap
				 || e->nr == SYS_mmap
#endif
				 )) {
		h->enomem = true;
		return;
	}
	uint64_t gain = oom_hint_gain(h, e);
	if (!gain)
		return;
	long long id = oom_hint_clock(e, p);
	size_t i = (size_t)(id % OOM_HINT_BUCKETS);
	if (h->bucket_id[i] != id) {
		h->bucket_id[i] = id;
		h->bucket_bytes[i] = 0;
	}
	h->bucket_bytes[i] += gain;
}

/* Anonymous memory gained in the window before E. */
static inline uint64_t oom_hint_recent(const struct oom_hint *h, const struct rc_event *e,
				       const struct rc_proc *p)
{
	long long now = oom_hint_clock(e, p);
	uint64_t sum = 0;

	for (size_t i = 0; i < OOM_HINT_BUCKETS; i++)
		if (h->bucket_bytes[i] && h->bucket_id[i] <= now && h->bucket_id[i] > now - OOM_HINT_WINDOW)
			sum += h->bucket_bytes[i];
	return sum;
}

/* Whether a SIGKILL at E most likely came from the OOM killer: not when a
 * traced process was seen sending it one (pip's time-out killing rustc,
 * `timeout -s KILL`). */
static inline bool oom_hint_likely(const struct oom_hint *h, const struct rc_event *e,
				   const struct rc_proc *p)
{
	if (p && p->signalled_with == SIGKILL)
		return false;
	return h->enomem || oom_hint_recent(h, e, p) >= OOM_HINT_BYTES;
}

#endif
