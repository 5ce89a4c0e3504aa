/* The timeline recorder (see timeline.h). */
#include "event/timeline.h"

#include <stdlib.h>
#include <string.h>

#include "event/syscalls.h"
#include "util/util.h"

static void list_init(struct rc_tl_list *l, size_t head, size_t tail)
{
	memset(l, 0, sizeof(*l));
	l->cap_head = head;
	l->cap_tail = tail;
}

static void event_free(struct rc_tl_event *ev)
{
	free(ev->text);
	ev->text = NULL;
}

static void list_release(struct rc_tl_list *l)
{
	for (size_t i = 0; i < l->nhead; i++)
		event_free(&l->head[i]);
	size_t n = l->tail_n < l->cap_tail ? l->tail_n : l->cap_tail;
	for (size_t i = 0; i < n; i++)
		event_free(&l->tail[i]);
	free(l->head);
	free(l->tail);
}

/* Where the next event of L goes: NULL when L keeps no more; a slot
 * whose text is set still holds the oldest of the ring, for the caller
 * to count and free. The head takes it while it has room and the
 * timeline's budget for heads, *HEADS of MAX (NULL: none), allows; the
 * ring once the head has stopped, so that the last events are the last
 * ones of the thread. */
static struct rc_tl_event *list_slot(struct rc_tl_list *l, size_t *heads, size_t max)
{
	if (l->nhead < l->cap_head && !l->tail_n && (!heads || *heads < max)) {
		if (l->nhead == l->alloc_head) {
			l->alloc_head = l->alloc_head ? 2 * l->alloc_head : 64;
			if (l->alloc_head > l->cap_head)
				l->alloc_head = l->cap_head;
			l->head = xrealloc(l->head, l->alloc_head * sizeof(*l->head));
		}
		if (heads)
			(*heads)++;
		memset(&l->head[l->nhead], 0, sizeof(*l->head));
		return &l->head[l->nhead++];
	}
	if (!l->cap_tail) {
		l->dropped++;
		return NULL;
	}
	if (!l->tail)
		l->tail = xcalloc(l->cap_tail, sizeof(*l->tail));
	struct rc_tl_event *ev = &l->tail[l->tail_n % l->cap_tail];
	l->tail_n++;
	return ev;
}

size_t timeline_list_len(const struct rc_tl_list *l)
{
	return l->nhead + (l->tail_n < l->cap_tail ? l->tail_n : l->cap_tail);
}

const struct rc_tl_event *timeline_list_at(const struct rc_tl_list *l, size_t i)
{
	if (i < l->nhead)
		return &l->head[i];
	i -= l->nhead;
	if (l->tail_n <= l->cap_tail)
		return &l->tail[i];
	return &l->tail[(l->tail_n + i) % l->cap_tail];
}

static void thread_init(struct rc_tl_thread *t, int tid)
{
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->leader = tid;
	list_init(&t->marked, RC_TL_HEAD, RC_TL_TAIL);
	list_init(&t->quoted, RC_TL_QHEAD, RC_TL_QTAIL);
	hmap_init(&t->counts);
}

static void thread_release(struct rc_tl_thread *t)
{
	list_release(&t->marked);
	list_release(&t->quoted);
	hmap_release(&t->counts, free);
}

void timeline_init(struct rc_timeline *tl)
{
	memset(tl, 0, sizeof(*tl));
	hmap_init(&tl->by_tid);
	thread_init(&tl->others, 0);
	tl->first = tl->last = -1;
}

void timeline_release(struct rc_timeline *tl)
{
	for (size_t i = 0; i < tl->nthreads; i++) {
		thread_release(tl->threads[i]);
		free(tl->threads[i]);
	}
	free(tl->threads);
	hmap_release(&tl->by_tid, NULL);
	thread_release(&tl->others);
}

static struct rc_tl_thread *thread_of(struct rc_timeline *tl, int tid)
{
	if (tl->cached && tl->cached->tid == tid)
		return tl->cached;
	void **slot = hmap_get_int(&tl->by_tid, tid);
	if (slot) {
		tl->cached = *slot;
		return tl->cached;
	}
	if (tl->nthreads >= RC_TL_THREADS) {
		tl->other_threads++;
		/* Counted once each: a placeholder remembers it was seen. */
		slot = hmap_put_int(&tl->by_tid, tid, NULL);
		*slot = &tl->others;
		return &tl->others;
	}
	struct rc_tl_thread *t = xmalloc(sizeof(*t));
	thread_init(t, tid);
	if (!tl->threads)
		tl->threads = xcalloc(RC_TL_THREADS, sizeof(*tl->threads));
	tl->threads[tl->nthreads++] = t;
	*hmap_put_int(&tl->by_tid, tid, NULL) = t;
	tl->cached = t;
	return t;
}

/* Merge T's buckets pairwise into the first half: each now covers twice
 * the time. */
static void widen(struct rc_tl_thread *t)
{
	struct hmap_iter it;
	for (struct hmap_node *n = hmap_first(&t->counts, &it); n; n = hmap_next(&t->counts, &it)) {
		uint32_t *c = n->value;
		for (size_t b = 0; b < RC_TL_BUCKETS / 2; b++) {
			uint64_t s = (uint64_t)c[2 * b] + c[2 * b + 1];
			c[b] = s > UINT32_MAX ? UINT32_MAX : (uint32_t)s;
		}
		memset(c + RC_TL_BUCKETS / 2, 0, RC_TL_BUCKETS / 2 * sizeof(*c));
	}
}

static size_t bucket_of(struct rc_timeline *tl, double x)
{
	double off = x - tl->origin;
	if (off < 0)
		return 0;
	while (off / tl->bucket >= RC_TL_BUCKETS) {
		for (size_t i = 0; i < tl->nthreads; i++)
			widen(tl->threads[i]);
		widen(&tl->others);
		tl->bucket *= 2;
	}
	return (size_t)(off / tl->bucket);
}

static void count(struct rc_timeline *tl, struct rc_tl_thread *t, long nr, double x, uint64_t n)
{
	size_t b = bucket_of(tl, x);
	bool created;
	void **slot = hmap_put_int(&t->counts, nr, &created);
	if (created)
		*slot = xcalloc(RC_TL_BUCKETS, sizeof(uint32_t));
	uint32_t *c = *slot;
	uint64_t s = c[b] + n;
	c[b] = s > UINT32_MAX ? UINT32_MAX : (uint32_t)s;
	t->counted += n;
}

uint64_t timeline_line_key(const char *line, size_t n)
{
	const char *nl = memchr(line, '\n', n);
	if (nl)
		n = (size_t)(nl - line);
	while (n && (line[n - 1] == '\r' || line[n - 1] == ' '))
		n--;
	if (n > RC_TL_KEY_MAX)
		n = RC_TL_KEY_MAX;
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)line[i];
		h *= 1099511628211ULL;
	}
	return h ? h : 1;
}

/* What the call E is marked as (timeline.h); 0: nothing. */
static unsigned marks_of(const struct rc_event *e)
{
	unsigned m = 0;

	if (e->kind != RC_EV_SYSCALL)
		return 0;
	if (e->interrupted)
		m |= RC_TL_INTERRUPTED;
	else if (e->err)
		m |= RC_TL_FAILED;
	if (e->dur >= RC_TL_WAIT_S)
		m |= RC_TL_WAIT;
	if (e->blocked)
		m |= RC_TL_BLOCKED;
	if (e->ret_known && !e->err && e->nr >= 0) {
		if (syscall_is(e->nr, CL_EXEC))
			m |= RC_TL_EXEC;
		else if (syscall_is(e->nr, CL_FORK) && e->ret > 0)
			m |= RC_TL_FORK;
	}
	return m;
}

static void fill(struct rc_tl_event *ev, const struct rc_event *e, unsigned flags)
{
	size_t line_n = e->line ? e->line_len : 0;
	const char *nl = line_n ? memchr(e->line, '\n', line_n) : NULL;
	if (nl)
		line_n = (size_t)(nl - e->line);
	bool cut = line_n > RC_TL_LINE_MAX;
	if (cut)
		line_n = RC_TL_LINE_MAX;
	size_t path_n = e->path ? strnlen(e->path, RC_TL_LINE_MAX) : 0;
	const char *name = e->kind == RC_EV_SYSCALL && e->nr >= 0 ? syscall_name(e->nr) : NULL;
	size_t name_n = !name && e->name ? strnlen(e->name, 64) : 0;

	/* A ring's slot reuses the text of the event it held. */
	char *t = ev->text;
	size_t alloc = ev->text_alloc, need = line_n + 4 + 1 + path_n + 1 + name_n + 1;
	if (need > alloc) {
		free(t);
		alloc = need < 128 ? 128 : need;
		t = xmalloc(alloc);
	}
	memset(ev, 0, sizeof(*ev));
	ev->text = t;
	ev->text_alloc = alloc;
	ev->seq = e->seq;
	ev->tid = e->pid;
	ev->ts = e->ts;
	ev->dur = e->dur;
	ev->kind = e->kind;
	ev->flags = flags;
	ev->nr = e->nr;
	ev->ret_known = e->ret_known;
	ev->ret = e->ret;
	ev->err = e->err;
	ev->fd = e->fd;
	ev->signo = e->signo;
	ev->exited = e->exited;
	ev->exit_code = e->exit_code;
	ev->child = flags & RC_TL_FORK ? (int)e->ret : 0;
	ev->key = e->line ? timeline_line_key(e->line, e->line_len) : 0;

	if (e->line) {
		memcpy(t, e->line, line_n);
		if (cut) {
			memcpy(t + line_n, "...", 3);
			line_n += 3;
		}
		t[line_n] = '\0';
		ev->line = t;
		t += line_n + 1;
	}
	if (e->path) {
		memcpy(t, e->path, path_n);
		t[path_n] = '\0';
		ev->path = t;
		t += path_n + 1;
	}
	if (name) {
		ev->name = name;
	} else if (name_n) {
		memcpy(t, e->name, name_n);
		t[name_n] = '\0';
		ev->name = t;
	}
}

void timeline_add(struct rc_timeline *tl, const struct rc_event *e, bool quoted, int leader)
{
	if (!tl->started) {
		tl->started = true;
		tl->timed = e->ts >= 0;
		tl->origin = tl->timed ? e->ts : 0;
		tl->bucket = tl->timed ? 0.001 : 64;
	}
	/* An event without a time in a timed trace (rare: a line that lost
	 * its prefix) is placed where the trace was then. */
	double x = tl->timed ? (e->ts >= 0 ? e->ts : tl->last) : (double)e->seq;
	double end = tl->timed && e->dur > 0 ? x + e->dur : x;
	if (tl->first < 0 || x < tl->first)
		tl->first = x;
	if (end > tl->last)
		tl->last = end;

	struct rc_tl_thread *t = thread_of(tl, e->pid);
	if (leader > 0 && t != &tl->others)
		t->leader = leader;
	uint64_t n = e->kind == RC_EV_SUM && e->sum ? e->sum->calls : e->kind == RC_EV_SYSCALL;
	t->calls += n;

	/* An interrupted call alone is not worth a bar: a signal handler
	 * ran, and the call is restarted. */
	unsigned flags = marks_of(e);
	bool marked = e->kind == RC_EV_SIGNAL || e->kind == RC_EV_EXIT || (flags & ~RC_TL_INTERRUPTED);
	if (quoted)
		flags |= RC_TL_QUOTED;
	struct rc_tl_list *list = NULL;
	if (t != &tl->others)
		list = marked ? &t->marked : quoted ? &t->quoted : NULL;
	struct rc_tl_event *ev =
		!list ? NULL : list == &t->marked ? list_slot(list, &tl->heads, RC_TL_HEADS) : list_slot(list, NULL, 0);
	if (ev && ev->text) {
		/* The oldest of the ring makes room: a marked one joins the
		 * counts (a quoted one is in them). */
		if (list == &t->marked && ev->kind == RC_EV_SYSCALL)
			count(tl, t, ev->nr, timeline_x(tl, ev), 1);
		list->dropped++;
	}
	if (ev) {
		fill(ev, e, flags);
		ev->ts = tl->timed ? x : -1;
	}
	/* A quoted call is drawn only if a finding quotes it in the end:
	 * it is counted too. */
	if ((!ev || list == &t->quoted) && n)
		count(tl, t, e->nr, x, n);
}

const struct rc_tl_thread *timeline_thread(const struct rc_timeline *tl, int tid)
{
	void **slot = hmap_get_int(&tl->by_tid, tid);

	return slot ? *slot : NULL;
}

const struct rc_tl_event *timeline_find(const struct rc_timeline *tl, uint64_t key, enum rc_tl_pick pick,
					uint64_t at, const struct rc_tl_event *const *skip, size_t nskip)
{
	const struct rc_tl_event *best = NULL;
	uint64_t best_d = UINT64_MAX;

	for (size_t i = 0; i < tl->nthreads; i++) {
		const struct rc_tl_list *lists[2] = { &tl->threads[i]->marked, &tl->threads[i]->quoted };
		for (size_t l = 0; l < 2; l++)
			for (size_t k = 0, n = timeline_list_len(lists[l]); k < n; k++) {
				const struct rc_tl_event *ev = timeline_list_at(lists[l], k);
				if (ev->key != key)
					continue;
				bool skipped = false;
				for (size_t s = 0; s < nskip && !skipped; s++)
					skipped = skip[s] == ev;
				if (skipped)
					continue;
				if (pick == RC_TL_FIRST_AFTER && ev->seq <= at)
					continue;
				uint64_t d = ev->seq > at ? ev->seq - at : at - ev->seq;
				if (d < best_d) {
					best_d = d;
					best = ev;
				}
			}
	}
	return best;
}
