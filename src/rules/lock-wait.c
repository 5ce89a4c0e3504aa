/* lock-wait: threads blocked waiting for a lock that other threads hold
 * and release (mutexes, Python's threading.Lock, a semaphore used as one,
 * PI locks).
 *
 * Not every long futex wait is contention. Idle threads wait by design: a
 * thread pool's workers (torch's intra-op pool, ThreadPoolExecutor), a
 * JVM's compiler and GC threads at start-up, park on a condition variable
 * until work comes, often for the whole run, and are woken by a thread
 * that was busy meanwhile; pthread_join waits for a thread to finish. What
 * tells a lock from those is who wakes the futex word: a lock is woken by
 * the threads that hold it, and the threads that waited for it hold it
 * next, so one of them wakes the same word in turn. glibc's mutex marks
 * itself contended when a waiter takes it, and that waiter's unlock then
 * wakes the word; a semaphore's post wakes the next waiter. A condition
 * variable, a join, a pool's work queue are woken only by the threads
 * that give the work, never by those that wait. So a futex word counts
 * as a lock when a thread that had waited on it and was woken later woke
 * it itself (or when it is a PI lock, FUTEX_LOCK_PI: a lock by name), and
 * only waits on locks count. Besides, a wait is idle when it
 *  - ended with ETIMEDOUT (a timed wait that nobody needed to end; the
 *    Python GIL's 5 ms waits end so too),
 *  - never ended (still waiting when tracing stopped),
 *  - ended right after another thread of the process exited (a join).
 * A lock is known as one only once its waiter woke it, later in the
 * trace, so waits are kept per futex word and judged at the end. The
 * thread that ended a wait, when the trace shows its wake (strace often
 * prints it after the woken thread's line), is named in the summary.
 *
 * Without durations (-T) the rule says nothing. Reported when the
 * contended waits add up to CONTENDED_MIN_S and to SHARE_MIN of the
 * traced time: four workers that each hold a lock 0.15 s keep the last
 * one waiting 0.45 s, 0.9 s in all.
 */
#include <errno.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "event/syscalls.h"
#include "rules/aggregate.h"
#include "rules/finding.h"
#include "rules/proc-view.h"
#include "rules/rule.h"
#include "rules/sites.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"

#ifndef FUTEX_LOCK_PI2
#define FUTEX_LOCK_PI2 13
#endif

/* Contended waits adding up to this are a stall a user can feel. */
#define CONTENDED_MIN_S 0.5
/* Contended waits must also add up to this share of the traced time: a
 * half-second hiccup in a ten-minute trace is not the cause of slowness. */
#define SHARE_MIN 0.05
/* Waits shorter than this are a lock changing hands or a pool parking
 * briefly: too cheap to weigh. */
#define MIN_WAIT_S 0.01
/* A wait ending this soon after another thread's exit was a join. */
#define JOIN_SLACK_S 0.05
/* ... or, without timestamps, this many events after it. */
#define JOIN_SLACK_EVENTS 8
/* Recent futex wakes kept per process, to find who ended a wait. */
#define WAKE_RING 16
/* Finished waits whose waker has not shown up yet (strace often prints
 * the waker's line after the woken one's), and how many events later
 * they are judged without it. */
#define PENDING_MAX 32
#define PENDING_EVENTS 256
/* Bounds on the keyed aggregates. */
#define PROCS_MAX 1024
#define ADDRS_MAX 4096
#define TOP_N 5
/* Threads remembered per futex word: those that waited on it (to know a
 * lock by its waiter's wake) and the time each spent waiting. */
#define ADDR_THREADS 8
/* Threads and futex addresses named in the summary. */
#define SUMMARY_THREADS 3
#define SUMMARY_ADDRS 2

struct wake {
	uint64_t addr;
	double ts;
	int tid;
	const struct rc_stack *stack;	/* where the waker let the word go */
};

struct proc_act {
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
	const struct rc_stack *stack;	/* the waiter's, taken as it waited */
};

struct top {
	double dur;
	double ts;
	uint64_t seq;
	int tid;
	int waker;		/* the thread that ended the wait, 0 unknown */
	const struct rc_stack *waker_stack;	/* where it let the lock go */
	char *line;
};

/* Everything known about one futex word of one process. */
struct addr_stat {
	uint64_t addr;
	int group;
	bool lock;		/* a waiter woke it in turn, or a PI lock */
	/* The threads that waited on it and were woken (up to ADDR_THREADS),
	 * with the time each waited; waits of other threads are in total. */
	struct rule_thread_time waiters[ADDR_THREADS];
	int nwaiters;
	double total;
	uint64_t count;
	struct top top[TOP_N];
	int ntop;
	struct site_tally sites;	/* where the waits were made */
};

struct state {
	struct hmap procs;	/* rule_group() -> struct proc_act */
	struct hmap addrs;	/* struct addr_key -> struct addr_stat */
	struct wait pending[PENDING_MAX];
	int npending;
	uint64_t idle_timedout, idle_unfinished, idle_join;
	uint64_t dropped;	/* waits on futex words past ADDRS_MAX */
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
	hmap_init(&s->addrs);
}

static void addr_free(void *p)
{
	struct addr_stat *a = p;

	if (!a)
		return;
	for (int i = 0; i < a->ntop; i++) {
		free(a->top[i].line);
		stack_unref(a->top[i].waker_stack);
	}
	site_tally_release(&a->sites);
	free(a);
}

static void proc_act_free(void *p)
{
	struct proc_act *a = p;

	if (!a)
		return;
	for (int i = 0; i < WAKE_RING; i++)
		stack_unref(a->wakes[i].stack);
	free(a);
}

static void release(void *st)
{
	struct state *s = st;

	hmap_release(&s->procs, proc_act_free);
	hmap_release(&s->addrs, addr_free);
	for (int i = 0; i < s->npending; i++) {
		free(s->pending[i].line);
		stack_unref(s->pending[i].stack);
	}
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
	return event_futex_waits(e);
}

/* The PI ops: a lock by name. */
static bool futex_pi(const struct rc_event *e)
{
	switch (e->futex_op) {
	case FUTEX_LOCK_PI:
	case FUTEX_LOCK_PI2:
	case FUTEX_UNLOCK_PI:
	case FUTEX_TRYLOCK_PI:
	case FUTEX_WAIT_REQUEUE_PI:
	case FUTEX_CMP_REQUEUE_PI:
		return true;
	default:
		return false;
	}
}

static void top_drop(void *entry)
{
	struct top *t = entry;

	free(t->line);
	stack_unref(t->waker_stack);
	t->waker_stack = NULL;
}

/* The record of futex word ADDR of process GROUP, made when CREATE (NULL
 * past ADDRS_MAX). */
static struct addr_stat *addr_stat(struct state *s, int group, uint64_t addr, bool create)
{
	struct addr_key k;

	memset(&k, 0, sizeof(k));
	k.group = group;
	k.addr = addr;
	void **slot = hmap_get(&s->addrs, &k, sizeof(k));
	if (slot)
		return *slot;
	if (!create || s->addrs.count >= ADDRS_MAX)
		return NULL;
	slot = hmap_put(&s->addrs, &k, sizeof(k), NULL);
	struct addr_stat *a = xcalloc(1, sizeof(*a));
	a->addr = addr;
	a->group = group;
	*slot = a;
	return a;
}

/* Did TID wait on A and get woken? */
static bool waited_on(const struct addr_stat *a, int tid)
{
	for (int i = 0; i < a->nwaiters; i++)
		if (a->waiters[i].tid == tid)
			return true;
	return false;
}

static void top_insert(struct top *top, int *ntop, const struct wait *w, int waker,
		       const struct rc_stack *waker_stack)
{
	struct top *t = rule_top_slot(top, ntop, TOP_N, sizeof(top[0]), offsetof(struct top, dur), w->dur,
				      top_drop);

	if (!t)
		return;
	t->dur = w->dur;
	t->ts = w->from;
	t->seq = w->seq;
	t->tid = w->tid;
	t->waker = waker;
	t->waker_stack = stack_ref(waker_stack);
	t->line = w->line ? xstrdup(w->line) : NULL;
}

/* A wait that ended with 0, woken by WAKER (0: unknown) where
 * WAKER_STACK says: contention if its futex word turns out to be a lock. */
static void judge(struct state *s, const struct wait *w, int waker, const struct rc_stack *waker_stack)
{
	struct addr_stat *a = addr_stat(s, w->group, w->addr, true);

	if (!a) {
		s->dropped++;
		return;
	}
	a->total += w->dur;
	a->count++;
	site_tally_add(&a->sites, w->stack);
	int i;
	for (i = 0; i < a->nwaiters && a->waiters[i].tid != w->tid; i++)
		;
	if (i == a->nwaiters && a->nwaiters < ADDR_THREADS)
		a->waiters[a->nwaiters++].tid = w->tid;
	if (i < a->nwaiters) {
		a->waiters[i].total += w->dur;
		a->waiters[i].count++;
	}
	if (a->ntop < TOP_N || w->dur > a->top[TOP_N - 1].dur)
		top_insert(a->top, &a->ntop, w, waker, waker_stack);
}

static void pending_judge(struct state *s, int i, int waker, const struct rc_stack *waker_stack)
{
	judge(s, &s->pending[i], waker, waker_stack);
	free(s->pending[i].line);
	stack_unref(s->pending[i].stack);
	s->pending[i] = s->pending[--s->npending];
}

/* Judge the waits whose waker never showed up. */
static void pending_expire(struct state *s, uint64_t seq)
{
	for (int i = 0; i < s->npending; i++)
		if (s->pending[i].seq + PENDING_EVENTS < seq)
			pending_judge(s, i--, 0, NULL);
}

static void on_wake(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	int group = rule_group(ctx, e->pid);
	struct proc_act *a = proc_act(s, group);

	/* A thread that waited on this word and now wakes it took the lock
	 * in between and releases it. Its own wait may be pending still. */
	for (int i = 0; i < s->npending; i++)
		if (s->pending[i].group == group && s->pending[i].addr == e->addr && s->pending[i].tid == e->pid)
			pending_judge(s, i--, 0, NULL);
	struct addr_stat *st = addr_stat(s, group, e->addr, false);
	if (st && waited_on(st, e->pid))
		st->lock = true;
	if (!event_futex_woke(e) || !a || e->ts < 0)
		return;
	struct wake *k = &a->wakes[a->wake_head];
	k->addr = e->addr;
	k->ts = e->ts;
	k->tid = e->pid;
	stack_unref(k->stack);
	k->stack = stack_ref(e->stack);
	a->wake_head = (a->wake_head + 1) % WAKE_RING;
	if (a->nwakes < WAKE_RING)
		a->nwakes++;
	for (int i = 0; i < s->npending; i++) {
		const struct wait *w = &s->pending[i];
		if (w->group == group && w->addr == e->addr && w->tid != e->pid &&
		    e->ts <= w->from + w->dur + JOIN_SLACK_S && e->ts >= w->from + w->dur - JOIN_SLACK_S)
			pending_judge(s, i--, e->pid, e->stack);
	}
}

/* The wake of W's address that came as W ended, or NULL: a wake in the
 * middle of W woke another waiter. */
static const struct wake *find_waker(const struct proc_act *a, const struct wait *w)
{
	if (!a)
		return NULL;
	for (int i = 1; i <= a->nwakes; i++) {
		const struct wake *k = &a->wakes[(a->wake_head - i + WAKE_RING) % WAKE_RING];
		double end = w->from + w->dur;
		if (k->addr == w->addr && k->tid != w->tid && k->ts >= w->from &&
		    k->ts >= end - JOIN_SLACK_S && k->ts <= end + JOIN_SLACK_S)
			return k;
	}
	return NULL;
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
	const struct wake *wk = timed ? find_waker(a, &w) : NULL;
	int waker = wk ? wk->tid : 0;
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
	w.line = rule_line_short(e);
	w.stack = stack_ref(e->stack);
	if (!timed || waker) {
		judge(s, &w, waker, wk ? wk->stack : NULL);
		free(w.line);
		stack_unref(w.stack);
		return;
	}
	if (s->npending == PENDING_MAX)
		pending_judge(s, 0, 0, NULL);
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
	if (syscall_is(e->nr, CL_FUTEX)) {
		if (s->npending)
			pending_expire(s, e->seq);
		if (futex_pi(e)) {
			struct addr_stat *a = addr_stat(s, rule_group(ctx, e->pid), e->addr, true);
			if (a)
				a->lock = true;
		}
		if (futex_waits(e))
			on_wait(s, e, ctx);
		else if (event_futex_wakes(e))
			on_wake(s, e, ctx);
	}
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

static bool is_lock(const void *value, const void *arg)
{
	(void)arg;
	return ((const struct addr_stat *)value)->lock;
}

static void finish(void *st, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = st;

	while (s->npending)
		pending_judge(s, s->npending - 1, 0, NULL);

	/* The waits on locks, across the locks. */
	size_t naddrs;
	void **va = rule_values(&s->addrs, is_lock, NULL, &naddrs);
	double total = 0;
	uint64_t count = 0, idle_waits = 0;
	struct top top[TOP_N];
	int ntop = 0;
	struct hmap threads = HMAP_INIT;
	struct site_tally sites = { 0 };
	for (size_t i = 0; i < naddrs; i++) {
		const struct addr_stat *a = va[i];
		site_tally_merge(&sites, &a->sites);
		total += a->total;
		count += a->count;
		for (int k = 0; k < a->ntop; k++) {
			struct wait w = { .tid = a->top[k].tid, .from = a->top[k].ts, .dur = a->top[k].dur,
					  .seq = a->top[k].seq, .line = a->top[k].line };
			top_insert(top, &ntop, &w, a->top[k].waker, a->top[k].waker_stack);
		}
		for (int k = 0; k < a->nwaiters; k++)
			rule_thread_time_add(&threads, a->waiters[k].tid, a->waiters[k].total, SIZE_MAX);
	}
	struct hmap_iter it;
	for (struct hmap_node *n = hmap_first(&s->addrs, &it); n; n = hmap_next(&s->addrs, &it))
		if (!((struct addr_stat *)n->value)->lock)
			idle_waits += ((struct addr_stat *)n->value)->count;
	double span = rule_span(ctx);
	if (!ntop || total < CONTENDED_MIN_S || (span > 0 && total < SHARE_MIN * span)) {
		free(va);
		for (int i = 0; i < ntop; i++)
			top_drop(&top[i]);
		hmap_release(&threads, free);
		site_tally_release(&sites);
		return;
	}

	const struct top *t = &top[0];
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "threads blocked ");
	add_seconds(&sb, total);
	strbuf_addf(&sb, " waiting for %s held, in %llu futex wait%s, longest ",
		    naddrs == 1 ? "a lock other threads" : "locks other threads", (unsigned long long)count,
		    count == 1 ? "" : "s");
	add_seconds(&sb, t->dur);

	size_t nthreads;
	void **v = rule_values(&threads, NULL, NULL, &nthreads);
	qsort(v, nthreads, sizeof(*v), cmp_thread);
	strbuf_adds(&sb, " (");
	for (size_t i = 0; i < nthreads && i < SUMMARY_THREADS; i++) {
		const struct rule_thread_time *tt = v[i];
		strbuf_addf(&sb, "%stid %d ", i ? ", " : "", tt->tid);
		add_seconds(&sb, tt->total);
	}
	if (nthreads > SUMMARY_THREADS)
		strbuf_addf(&sb, ", %zu more", nthreads - SUMMARY_THREADS);
	qsort(va, naddrs, sizeof(*va), cmp_addr);
	for (size_t i = 0; i < naddrs && i < SUMMARY_ADDRS; i++) {
		const struct addr_stat *a = va[i];
		strbuf_addf(&sb, "%sfutex 0x%llx %llu wait%s", i ? ", " : "; ", (unsigned long long)a->addr,
			    (unsigned long long)a->count, a->count == 1 ? "" : "s");
	}
	if (t->waker)
		strbuf_addf(&sb, "; the longest ended when tid %d woke it", t->waker);
	strbuf_adds(&sb, ")");
	uint64_t idle = s->idle_timedout + s->idle_unfinished + s->idle_join + idle_waits;
	if (idle)
		strbuf_addf(&sb, "; %llu idle wait%s not counted (timed out, joins, unfinished, or threads "
			    "waiting for work they were then given)", (unsigned long long)idle, idle == 1 ? "" : "s");
	if (s->dropped)
		strbuf_addf(&sb, "; %llu waits on more futex words not followed for lack of room",
			    (unsigned long long)s->dropped);
	free(v);
	free(va);
	hmap_release(&threads, free);

	struct rc_finding *f = rule_finding(out, "lock-wait", RC_SEV_WARNING, RC_SEV_WARNING, &sb);
	f->pid = rule_leader(ctx, t->tid);
	f->tid = t->tid;
	finding_set(&f->syscall, "futex");
	f->count = (long long)count;
	f->duration_s = total;
	f->seq = t->seq;
	f->ts = t->ts;
	/* The longest wait's holder, and where it let the lock go. */
	if (t->waker) {
		f->holder_tid = t->waker;
		f->holder_stack = stack_ref(t->waker_stack);
	}
	for (int i = 0; i < ntop; i++) {
		rule_evidence(f, top[i].line);
		top_drop(&top[i]);
	}
	site_tally_put(&sites, f);
	site_tally_release(&sites);
	if (f->holder_stack && !f->holder_stack->missing)
		finding_set(&f->advice,
			    "the holder let the lock go where it says above: what it does between taking it "
			    "and there is what the others wait for; keep it short (I/O, a model step or a GPU "
			    "synchronize inside it serialises every thread behind it), or give each thread "
			    "its own");
	else
		finding_set(&f->advice,
			    "find what the thread holding the lock does meanwhile: `rootcause stack PID` during "
			    "a stall shows every thread's stack; keep the work done under a lock short (I/O, a "
			    "model step or a GPU synchronize inside it serialises every thread behind it), or "
			    "give each thread its own");
}

static const long reads_calls[] = { SYS_exit, -1 };

const struct rc_rule_ops rc_rule_lock_wait_ops = {
	.state_size = sizeof(struct state),
	.init = init,
	.on_event = on_event,
	.reads = { .events = RC_READS_EXITS, .classes = CL_FUTEX, .calls = reads_calls },
	.finish = finish,
	.release = release,
};
