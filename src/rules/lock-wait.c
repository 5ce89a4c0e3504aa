/* lock-wait: threads blocked in futex waits (mutexes, condition variables,
 * semaphores, queues, waits for GPU work all end up there).
 *
 * Not every long futex wait is a problem. Idle threads wait by design: a
 * thread pool's workers (torch's intra-op pool, ThreadPoolExecutor) park
 * until work comes, often for the whole run, and pthread_join waits for a
 * thread to finish. A wait counts as idle when it
 *  - ended with ETIMEDOUT (a timed wait that nobody needed to end; the
 *    Python GIL's 5 ms waits end so too),
 *  - never ended (still waiting when tracing stopped),
 *  - ended right after another thread of the process exited (a join),
 *  - or ended with 0 although the thread that woke it (a futex wake of the
 *    same address) had not been busy during the wait: an event loop idle
 *    in epoll_wait that got a request and handed it to a parked worker.
 * A wait that ended with 0 while its waker was busy, making system calls
 * that are not idle waits themselves (I/O, a GPU ioctl, even a sleep
 * inside the lock), is contention: the thread wanted to run and could not.
 * When the waker is not in the trace, any other busy thread of the process
 * counts. A holder that computes without any system call is invisible, so
 * such waits count as idle: the rule errs towards silence. Activity in the
 * last tenth of a wait is left out: that is the waker getting ready.
 *
 * Without timestamps (strace -T without -t) activity cannot be placed in
 * time, and a wait that ended with 0 counts as contention unless it was a
 * join; the summary says so. Without durations (-T) the rule says nothing.
 *
 * Reported when the longest contended wait took LONG_WAIT_S or more and
 * the contended waits add up to SHARE_MIN of the traced time.
 */
#include <errno.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "rules/common.h"
#include "rules/rule.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"

#ifndef FUTEX_LOCK_PI2
#define FUTEX_LOCK_PI2 13
#endif

/* A single wait this long is a stall a user can feel. */
#define LONG_WAIT_S 0.5
/* Contended waits must also add up to this share of the traced time: a
 * half-second hiccup in a ten-minute trace is not the cause of slowness. */
#define SHARE_MIN 0.05
/* Waits shorter than this are a lock changing hands or a pool parking
 * briefly: too cheap to weigh. */
#define MIN_WAIT_S 0.01
/* Activity in the last tenth of a wait is most likely the waker getting
 * ready to wake it (a request arriving for a parked worker). */
#define WAIT_HEAD 0.9
/* A wait ending this soon after another thread's exit was a join. */
#define JOIN_SLACK_S 0.05
/* ... or, without timestamps, this many events after it. */
#define JOIN_SLACK_EVENTS 8
/* Bursts of activity kept per process, and the gap that splits a burst. */
#define ACT_RING 128
#define ACT_GAP_S 0.01
/* Recent futex wakes kept per process, to find who ended a wait. */
#define WAKE_RING 16
/* Finished waits whose waker has not shown up yet (strace often prints
 * the waker's line after the woken one's), and how many events later
 * they are judged without it. */
#define PENDING_MAX 32
#define PENDING_EVENTS 256
/* Bounds on the keyed aggregates. */
#define PROCS_MAX 1024
#define THREADS_MAX 4096
#define ADDRS_MAX 4096
#define TOP_N 5
/* Threads and futex addresses named in the summary. */
#define SUMMARY_THREADS 3
#define SUMMARY_ADDRS 2

struct burst {
	double start, end;
	int tid;
};

struct wake {
	uint64_t addr;
	double ts;
	int tid;
};

struct proc_act {
	struct burst ring[ACT_RING];
	int n, head;		/* next slot is head */
	struct wake wakes[WAKE_RING];
	int nwakes, wake_head;
	double exit_ts;		/* the last thread exit, -1 none */
	uint64_t exit_seq;
	int exit_tid;
};

/* A finished wait, kept while its verdict waits for the waker. */
struct wait {
	int tid;
	int group;
	uint64_t addr;
	double from, dur;
	uint64_t seq;
	char *line;
};

struct addr_stat {
	uint64_t addr;
	double total;
	uint64_t count;
};

struct top {
	double dur;
	double ts;
	uint64_t seq;
	int tid;
	int waker;		/* the thread that ended the wait, 0 unknown */
	char *line;
};

struct state {
	struct hmap procs;	/* rule_group() -> struct proc_act */
	struct hmap threads;	/* tid -> struct rule_thread_time */
	struct hmap addrs;	/* struct addr_key -> struct addr_stat */
	struct wait pending[PENDING_MAX];
	int npending;
	uint64_t contended;
	double contended_total;
	uint64_t idle_timedout, idle_unfinished, idle_join, idle_quiet;
	bool untimed;		/* some contended wait was judged without timestamps */
	struct top top[TOP_N];
	int ntop;
};

struct addr_key {
	int group;
	int pad;
	uint64_t addr;
};

static void init(void *st)
{
	struct state *s = st;

	hmap_init(&s->procs);
	hmap_init(&s->threads);
	hmap_init(&s->addrs);
}

static void release(void *st)
{
	struct state *s = st;

	hmap_release(&s->procs, free);
	hmap_release(&s->threads, free);
	hmap_release(&s->addrs, free);
	for (int i = 0; i < s->npending; i++)
		free(s->pending[i].line);
	for (int i = 0; i < s->ntop; i++)
		free(s->top[i].line);
}

static struct proc_act *proc_act(struct state *s, int group)
{
	bool created;
	struct proc_act *a = rule_int_value(&s->procs, group, true, sizeof(*a), PROCS_MAX, &created);

	if (created)
		a->exit_ts = -1;
	return a;
}

static bool futex_waits(const struct rc_event *e)
{
#ifdef SYS_futex_waitv
	if (e->nr == SYS_futex_waitv)
		return true;
#endif
	switch (e->futex_op) {
	case FUTEX_WAIT:
	case FUTEX_LOCK_PI:
	case FUTEX_WAIT_BITSET:
	case FUTEX_WAIT_REQUEUE_PI:
	case FUTEX_LOCK_PI2:
		return true;
	default:
		return false;
	}
}

/* A futex call that woke a waiter (or released a PI lock). */
static bool futex_woke(const struct rc_event *e)
{
	if (!e->ret_known || e->err)
		return false;
	switch (e->futex_op) {
	case FUTEX_UNLOCK_PI:
		return true;
	case FUTEX_WAKE:
	case FUTEX_REQUEUE:
	case FUTEX_CMP_REQUEUE:
	case FUTEX_WAKE_OP:
	case FUTEX_WAKE_BITSET:
	case FUTEX_CMP_REQUEUE_PI:
		return e->ret > 0;
	default:
		return false;
	}
}

/* Calls during which a thread is idle itself: they are not activity. */
static bool idle_call(long nr)
{
	if (rule_is_poll(nr) || rule_is_epoll(nr))
		return true;
	switch (nr) {
	case SYS_futex:
#ifdef SYS_futex_waitv
	case SYS_futex_waitv:
#endif
	case SYS_accept:
	case SYS_accept4:
	case SYS_wait4:
	case SYS_waitid:
#ifdef SYS_pause
	case SYS_pause:
#endif
	case SYS_rt_sigsuspend:
	case SYS_rt_sigtimedwait:
		return true;
	default:
		return false;
	}
}

/* Record a busy interval of TID, merged into its latest burst when close. */
static void note_activity(struct proc_act *a, int tid, double start, double end)
{
	for (int i = 1; i <= a->n && i <= 8; i++) {
		struct burst *b = &a->ring[(a->head - i + ACT_RING) % ACT_RING];
		if (b->tid == tid && start - b->end <= ACT_GAP_S && end >= b->start - ACT_GAP_S) {
			b->start = MIN(b->start, start);
			b->end = MAX(b->end, end);
			return;
		}
	}
	struct burst *b = &a->ring[a->head];
	b->start = start;
	b->end = end;
	b->tid = tid;
	a->head = (a->head + 1) % ACT_RING;
	if (a->n < ACT_RING)
		a->n++;
}

/* Was WAKER (or, when 0, any thread but TID) busy between FROM and TO? */
static bool busy(const struct proc_act *a, int waker, int tid, double from, double to)
{
	for (int i = 0; i < a->n; i++) {
		const struct burst *b = &a->ring[i];
		if ((waker ? b->tid == waker : b->tid != tid) && b->start < to && b->end > from)
			return true;
	}
	return false;
}

static void top_drop(void *entry)
{
	free(((struct top *)entry)->line);
}

static void top_insert(struct state *s, const struct wait *w, int waker)
{
	struct top *t = rule_top_slot(s->top, &s->ntop, TOP_N, sizeof(s->top[0]),
				      offsetof(struct top, dur), w->dur, top_drop);

	if (!t)
		return;
	t->dur = w->dur;
	t->ts = w->from;
	t->seq = w->seq;
	t->tid = w->tid;
	t->waker = waker;
	t->line = w->line ? xstrdup(w->line) : NULL;
}

static void count_contended(struct state *s, const struct wait *w, int waker)
{
	s->contended++;
	s->contended_total += w->dur;
	rule_thread_time_add(&s->threads, w->tid, w->dur, THREADS_MAX);

	struct addr_key k;
	memset(&k, 0, sizeof(k));
	k.group = w->group;
	k.addr = w->addr;
	void **slot = hmap_get(&s->addrs, &k, sizeof(k));
	if (!slot && s->addrs.count < ADDRS_MAX) {
		slot = hmap_put(&s->addrs, &k, sizeof(k), NULL);
		struct addr_stat *a = xcalloc(1, sizeof(*a));
		a->addr = w->addr;
		*slot = a;
	}
	if (slot) {
		struct addr_stat *a = *slot;
		a->total += w->dur;
		a->count++;
	}

	if (s->ntop < TOP_N || w->dur > s->top[TOP_N - 1].dur)
		top_insert(s, w, waker);
}

/* The verdict on a timed wait that ended with 0: contention when the
 * thread that woke it (WAKER; 0 unknown: any other thread) was busy during
 * the wait, idle otherwise. */
static void judge(struct state *s, const struct wait *w, int waker)
{
	void **slot = hmap_get_int(&s->procs, w->group);
	const struct proc_act *a = slot ? *slot : NULL;

	if (a && busy(a, waker, w->tid, w->from, w->from + WAIT_HEAD * w->dur))
		count_contended(s, w, waker);
	else
		s->idle_quiet++;
}

static void pending_judge(struct state *s, int i, int waker)
{
	judge(s, &s->pending[i], waker);
	free(s->pending[i].line);
	s->pending[i] = s->pending[--s->npending];
}

/* Judge the waits whose waker never showed up. */
static void pending_expire(struct state *s, uint64_t seq)
{
	for (int i = 0; i < s->npending; i++)
		if (s->pending[i].seq + PENDING_EVENTS < seq)
			pending_judge(s, i--, 0);
}

static void on_wake(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	int group = rule_group(ctx, e->pid);
	struct proc_act *a = proc_act(s, group);

	if (!a || e->ts < 0)
		return;
	struct wake *k = &a->wakes[a->wake_head];
	k->addr = e->addr;
	k->ts = e->ts;
	k->tid = e->pid;
	a->wake_head = (a->wake_head + 1) % WAKE_RING;
	if (a->nwakes < WAKE_RING)
		a->nwakes++;
	for (int i = 0; i < s->npending; i++) {
		const struct wait *w = &s->pending[i];
		if (w->group == group && w->addr == e->addr && w->tid != e->pid &&
		    e->ts <= w->from + w->dur + JOIN_SLACK_S)
			pending_judge(s, i--, e->pid);
	}
}

/* The thread whose wake of W's address fell inside W, or 0. */
static int find_waker(const struct proc_act *a, const struct wait *w)
{
	if (!a)
		return 0;
	for (int i = 1; i <= a->nwakes; i++) {
		const struct wake *k = &a->wakes[(a->wake_head - i + WAKE_RING) % WAKE_RING];
		if (k->addr == w->addr && k->tid != w->tid && k->ts >= w->from &&
		    k->ts <= w->from + w->dur + JOIN_SLACK_S)
			return k->tid;
	}
	return 0;
}

static void on_wait(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	if (!e->ret_known) {
		s->idle_unfinished++;
		return;
	}
	if (e->err == ETIMEDOUT) {
		s->idle_timedout++;
		return;
	}
	/* EAGAIN: the value had changed, no wait; EINTR and restarts: a
	 * signal, not the lock. */
	if (e->err || e->interrupted || e->dur < MIN_WAIT_S)
		return;

	struct wait w;
	memset(&w, 0, sizeof(w));
	w.tid = e->pid;
	w.group = rule_group(ctx, e->pid);
	w.addr = e->addr;
	w.from = e->ts;
	w.dur = e->dur;
	w.seq = e->seq;
	/* NULL only past PROCS_MAX: judged as without timestamps. */
	struct proc_act *a = proc_act(s, w.group);
	bool timed = e->ts >= 0 && a;
	double to = e->ts + e->dur;

	/* A FUTEX_WAKE of this address by another thread names who ended the
	 * wait, even when that thread exited right after (an unlock, then
	 * the end of the thread): only a wait no call woke can be a join,
	 * which the kernel ends through CLONE_CHILD_CLEARTID. */
	int waker = timed ? find_waker(a, &w) : 0;
	if (!waker && a && a->exit_tid && a->exit_tid != e->pid) {
		bool join;
		if (timed && a->exit_ts >= 0)
			join = a->exit_ts >= w.from && to - a->exit_ts <= JOIN_SLACK_S;
		else
			join = e->seq - a->exit_seq <= JOIN_SLACK_EVENTS;
		if (join) {
			s->idle_join++;
			return;
		}
	}
	w.line = e->line ? xstrndup(e->line, e->line_len) : NULL;
	if (!timed || waker) {
		if (timed) {
			judge(s, &w, waker);
		} else {
			s->untimed = true;
			count_contended(s, &w, 0);
		}
		free(w.line);
		return;
	}
	if (s->npending == PENDING_MAX)
		pending_judge(s, 0, 0);
	s->pending[s->npending++] = w;
}

static void note_exit(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct proc_act *a = proc_act(s, rule_group(ctx, e->pid));

	if (a && !(e->kind == RC_EV_EXIT && a->exit_tid == e->pid)) {
		a->exit_ts = e->ts;
		a->exit_seq = e->seq;
		a->exit_tid = e->pid;
	}
}

static void on_event(void *st, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct state *s = st;

	if (!ctx->has_duration)
		return;
	if (e->kind == RC_EV_EXIT) {
		/* A thread's end: a join waiting for it ends now. */
		const struct rc_proc *p = procs_get(ctx->procs, e->pid);
		if (p && p->is_thread)
			note_exit(s, e, ctx);
		return;
	}
	if (e->kind != RC_EV_SYSCALL)
		return;
	if (e->nr == SYS_exit) {
		note_exit(s, e, ctx);
		return;
	}
	if (e->nr == SYS_futex
#ifdef SYS_futex_waitv
	    || e->nr == SYS_futex_waitv
#endif
	) {
		if (s->npending)
			pending_expire(s, e->seq);
		if (futex_waits(e))
			on_wait(s, e, ctx);
		else if (futex_woke(e))
			on_wake(s, e, ctx);
		return;
	}
	if (e->ts < 0 || idle_call(e->nr))
		return;
	struct proc_act *a = proc_act(s, rule_group(ctx, e->pid));
	if (a)
		note_activity(a, e->pid, e->ts, e->ts + (e->dur > 0 ? e->dur : 0));
}

static int cmp_thread(const void *x, const void *y)
{
	const struct rule_thread_time *a = *(void *const *)x, *b = *(void *const *)y;
	if (a->total != b->total)
		return a->total > b->total ? -1 : 1;
	return (a->tid > b->tid) - (a->tid < b->tid);
}

static int cmp_addr(const void *x, const void *y)
{
	const struct addr_stat *a = *(void *const *)x, *b = *(void *const *)y;
	if (a->total != b->total)
		return a->total > b->total ? -1 : 1;
	return (a->addr > b->addr) - (a->addr < b->addr);
}

static void add_seconds(struct strbuf *sb, double s)
{
	strbuf_addf(sb, s < 10 ? "%.2f s" : "%.1f s", s);
}

static void finish(void *st, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = st;

	while (s->npending)
		pending_judge(s, s->npending - 1, 0);
	if (!s->ntop || s->top[0].dur < LONG_WAIT_S)
		return;
	double span = rule_span(ctx);
	if (span > 0 && s->contended_total < SHARE_MIN * span)
		return;

	const struct top *t = &s->top[0];
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "threads blocked ");
	add_seconds(&sb, s->contended_total);
	strbuf_addf(&sb, " in %llu contended futex wait%s, longest ", (unsigned long long)s->contended,
		    s->contended == 1 ? "" : "s");
	add_seconds(&sb, t->dur);

	size_t nthreads;
	void **v = rule_values(&s->threads, NULL, NULL, &nthreads);
	qsort(v, nthreads, sizeof(*v), cmp_thread);
	strbuf_adds(&sb, " (");
	for (size_t i = 0; i < nthreads && i < SUMMARY_THREADS; i++) {
		const struct rule_thread_time *tt = v[i];
		strbuf_addf(&sb, "%stid %d ", i ? ", " : "", tt->tid);
		add_seconds(&sb, tt->total);
	}
	if (nthreads > SUMMARY_THREADS)
		strbuf_addf(&sb, ", %zu more", nthreads - SUMMARY_THREADS);
	size_t naddrs;
	void **va = rule_values(&s->addrs, NULL, NULL, &naddrs);
	qsort(va, naddrs, sizeof(*va), cmp_addr);
	for (size_t i = 0; i < naddrs && i < SUMMARY_ADDRS; i++) {
		const struct addr_stat *a = va[i];
		strbuf_addf(&sb, "%sfutex 0x%llx %llu wait%s", i ? ", " : "; ", (unsigned long long)a->addr,
			    (unsigned long long)a->count, a->count == 1 ? "" : "s");
	}
	free(va);
	if (t->waker)
		strbuf_addf(&sb, "; the longest ended when tid %d woke it", t->waker);
	strbuf_adds(&sb, ")");
	uint64_t idle = s->idle_timedout + s->idle_unfinished + s->idle_join + s->idle_quiet;
	if (idle)
		strbuf_addf(&sb, "; %llu idle wait%s not counted (timed out, joins, unfinished, or woken by "
			    "an idle thread)", (unsigned long long)idle, idle == 1 ? "" : "s");
	if (s->untimed)
		strbuf_adds(&sb, "; without timestamps idle pool threads cannot be told apart");
	free(v);

	struct rc_finding *f = rule_finding(out, "lock-wait", RC_SEV_WARNING, RC_SEV_WARNING, &sb);
	f->pid = rule_leader(ctx, t->tid);
	f->tid = t->tid;
	finding_set(&f->syscall, "futex");
	f->count = (long long)s->contended;
	f->duration_s = s->contended_total;
	f->seq = t->seq;
	f->ts = t->ts;
	for (int i = 0; i < s->ntop; i++)
		rule_evidence(f, s->top[i].line);
	finding_set(&f->advice,
		    "find what the other thread does while holding the lock: `rootcause stack PID` "
		    "during a stall shows every thread's stack; waits for GPU work (synchronize, "
		    ".item(), .cpu()) and for the Python GIL show up here too, so keep critical "
		    "sections short and synchronize once per batch, not per item");
}

const struct rc_rule_ops rc_rule_lock_wait_ops = {
	.state_size = sizeof(struct state),
	.init = init,
	.on_event = on_event,
	.finish = finish,
	.release = release,
};
