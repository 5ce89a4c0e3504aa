/* watch's flight recorder (see recorder.h). */
#include "watch/recorder.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "event/syscalls.h"
#include "util/hmap.h"
#include "util/util.h"

static unsigned long long classes_of(long nr)
{
	const struct rc_syscall *sc = nr >= 0 ? syscall_by_nr(nr) : NULL;

	return sc ? sc->classes : 0;
}

/* Ancestors walked to find a tree's root: a cycle (pids reused while
 * the recorder remembered their old owners) stops there. */
#define ROOT_DEPTH_MAX 64

struct kept {
	struct rc_event *e;
	size_t bytes;
	uint64_t seq;
	double ts;
};

struct proc {
	pid_t tgid, parent;
	bool ended;
	double last;		/* its newest event's time */
	struct kept *v;		/* a ring: HEAD, N of CAP */
	size_t head, n, cap;
	size_t bytes;
	uint64_t dropped;
	/* Kept past the window: what names the program. */
	struct kept found, exec;
};

struct recorder {
	struct recorder_opts o;
	struct hmap procs;	/* tgid -> struct proc */
	struct hmap threads;	/* tid -> tgid (as a pointer-sized int) */
	uint64_t seq;
	size_t bytes, events;
	uint64_t dropped;
};

struct recorder *recorder_new(const struct recorder_opts *o)
{
	struct recorder *r = xcalloc(1, sizeof(*r));

	r->o = *o;
	hmap_init(&r->procs);
	hmap_init(&r->threads);
	return r;
}

static void kept_free(struct kept *k)
{
	event_copy_free(k->e);
	k->e = NULL;
}

static void proc_free(void *v)
{
	struct proc *p = v;

	for (size_t i = 0; i < p->n; i++)
		kept_free(&p->v[(p->head + i) % p->cap]);
	kept_free(&p->found);
	kept_free(&p->exec);
	free(p->v);
	free(p);
}

void recorder_free(struct recorder *r)
{
	if (!r)
		return;
	hmap_release(&r->procs, proc_free);
	hmap_release(&r->threads, NULL);
	free(r);
}

/* The pid after KEY at the start of one of TEXT's lines, into *OUT. */
static bool status_field(const char *text, const char *key, pid_t *out)
{
	size_t n = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (strncmp(l, key, n) != 0)
			continue;
		const char *p = l + n;
		while (*p == ' ' || *p == '\t')
			p++;
		char *end;
		errno = 0;
		long v = strtol(p, &end, 10);
		if (errno || end == p || v < 0 || v > INT_MAX || (*end && *end != '\n'))
			return false;
		*out = (pid_t)v;
		return true;
	}
	return false;
}

bool recorder_parse_status(const char *text, pid_t *tgid, pid_t *ppid)
{
	*ppid = 0;
	if (!status_field(text, "Tgid:", tgid) || *tgid <= 0)
		return false;
	if (!status_field(text, "PPid:", ppid))
		*ppid = 0;
	return true;
}

/* What /proc says of thread TID: its process and that one's parent. */
static bool proc_status(pid_t tid, pid_t *tgid, pid_t *ppid)
{
	char path[64], text[4096];

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	/* Tgid and PPid are among its first lines. */
	ssize_t n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return false;
	text[n] = '\0';
	return recorder_parse_status(text, tgid, ppid);
}

static struct proc *proc_get(struct recorder *r, pid_t tgid, bool create)
{
	bool created = false;
	void **slot = create ? hmap_put_int(&r->procs, tgid, &created) : hmap_get_int(&r->procs, tgid);

	if (!slot)
		return NULL;
	if (created) {
		struct proc *p = xcalloc(1, sizeof(*p));
		p->tgid = tgid;
		*slot = p;
	}
	return *slot;
}

static void set_thread(struct recorder *r, pid_t tid, pid_t tgid)
{
	*hmap_put_int(&r->threads, tid, NULL) = (void *)(intptr_t)tgid;
}

pid_t recorder_process(struct recorder *r, pid_t tid)
{
	void **slot = hmap_get_int(&r->threads, tid);

	return slot ? (pid_t)(intptr_t)*slot : tid;
}

/* The process of thread TID, learned from /proc the first time (with
 * its parent), else taken to be its own; FORKED_BY: the thread whose
 * fork made it, when the event says so. */
static struct proc *learn(struct recorder *r, pid_t tid, int forked_by)
{
	void **slot = hmap_get_int(&r->threads, tid);
	if (slot)
		return proc_get(r, (pid_t)(intptr_t)*slot, true);
	pid_t tgid = tid, ppid = 0;
	if (!proc_status(tid, &tgid, &ppid) && forked_by > 0)
		ppid = recorder_process(r, forked_by);
	set_thread(r, tid, tgid);
	struct proc *p = proc_get(r, tgid, true);
	if (!p->parent && tgid == tid && ppid > 0)
		p->parent = ppid;
	return p;
}

/* Drops P's oldest kept event; BEFORE_TIME: a hole, not its age. */
static void drop_oldest(struct recorder *r, struct proc *p, bool before_time)
{
	struct kept *k = &p->v[p->head];

	p->bytes -= k->bytes;
	r->bytes -= k->bytes;
	r->events--;
	kept_free(k);
	p->head = (p->head + 1) % p->cap;
	p->n--;
	if (before_time) {
		p->dropped++;
		r->dropped++;
	}
}

static void keep(struct recorder *r, struct proc *p, const struct rc_event *e, double now)
{
	struct kept k = { NULL, 0, ++r->seq, now };

	k.e = event_copy(e, &k.bytes);
	/* What names the program stays past the window. */
	struct kept *pin = e->kind == RC_EV_FOUND && e->found && e->found->process ? &p->found :
		e->kind == RC_EV_SYSCALL && !e->err && e->ret_known && (classes_of(e->nr) & CL_EXEC) ? &p->exec : NULL;
	if (pin) {
		/* In the ring as any other, and a copy of its own for when
		 * the ring has let it go. */
		kept_free(pin);
		*pin = k;
		k.e = event_copy(e, &k.bytes);
	}
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 64;
		struct kept *v = xmalloc(cap * sizeof(*v));
		for (size_t i = 0; i < p->n; i++)
			v[i] = p->v[(p->head + i) % p->cap];
		free(p->v);
		p->v = v;
		p->cap = cap;
		p->head = 0;
	}
	p->v[(p->head + p->n) % p->cap] = k;
	p->n++;
	p->bytes += k.bytes;
	r->bytes += k.bytes;
	r->events++;
	while (p->n > 1 && p->bytes > r->o.process_bytes)
		drop_oldest(r, p, true);
	/* Over the whole cap: this process pays, as the one that adds. */
	while (p->n > 1 && r->bytes > r->o.total_bytes)
		drop_oldest(r, p, true);
}

pid_t recorder_add(struct recorder *r, const struct rc_event *e, double now)
{
	pid_t tid = e->pid;
	struct proc *p;

	if (e->ts > 0)
		now = e->ts;
	if (e->kind == RC_EV_FOUND && e->found) {
		set_thread(r, tid, e->found->leader);
		p = proc_get(r, e->found->leader, true);
		pid_t tgid, ppid;
		if (!p->parent && e->found->process && proc_status(p->tgid, &tgid, &ppid))
			p->parent = ppid;
	} else {
		p = learn(r, tid, e->forked_by);
	}
	p->last = now;
	keep(r, p, e, now);
	if (e->kind == RC_EV_SYSCALL && (classes_of(e->nr) & CL_FORK) && e->ret > 0 && !e->err) {
		pid_t child = (pid_t)e->ret;
		if (e->flags & CLONE_THREAD) {
			set_thread(r, child, p->tgid);
		} else {
			set_thread(r, child, child);
			proc_get(r, child, true)->parent = p->tgid;
		}
	}
	if (e->kind == RC_EV_EXIT) {
		if (tid == p->tgid)
			p->ended = true;
		hmap_del_int(&r->threads, tid);
	}
	return p->tgid;
}

void recorder_age(struct recorder *r, double now)
{
	struct hmap_iter it;
	pid_t *gone = NULL;
	size_t ngone = 0, alloc = 0;

	for (struct hmap_node *nd = hmap_first(&r->procs, &it); nd; nd = hmap_next(&r->procs, &it)) {
		struct proc *p = nd->value;
		while (p->n && p->v[p->head].ts < now - r->o.window)
			drop_oldest(r, p, false);
		if (p->ended && p->last < now - r->o.window) {
			if (ngone == alloc) {
				alloc = alloc ? 2 * alloc : 16;
				gone = xrealloc(gone, alloc * sizeof(*gone));
			}
			gone[ngone++] = p->tgid;
		}
	}
	for (size_t i = 0; i < ngone; i++)
		proc_free(hmap_del_int(&r->procs, gone[i]));
	free(gone);
}

bool recorder_knows(struct recorder *r, pid_t tgid)
{
	return proc_get(r, tgid, false) != NULL;
}

pid_t recorder_parent(struct recorder *r, pid_t tgid)
{
	struct proc *p = proc_get(r, tgid, false);

	return p ? p->parent : 0;
}

pid_t recorder_root(struct recorder *r, pid_t tgid)
{
	pid_t root = tgid;

	for (int depth = 0; depth < ROOT_DEPTH_MAX; depth++) {
		struct proc *p = proc_get(r, root, false);
		if (!p || !p->parent || p->parent == root || !proc_get(r, p->parent, false))
			break;
		root = p->parent;
	}
	return root;
}

bool recorder_within(struct recorder *r, pid_t tgid, pid_t ancestor)
{
	for (int depth = 0; depth < ROOT_DEPTH_MAX && tgid > 0; depth++) {
		if (tgid == ancestor)
			return true;
		struct proc *p = proc_get(r, tgid, false);
		if (!p || p->parent == tgid)
			break;
		tgid = p->parent;
	}
	return false;
}

void recorder_each_process(struct recorder *r, void (*fn)(void *user, pid_t tgid), void *user)
{
	struct hmap_iter it;

	for (struct hmap_node *nd = hmap_first(&r->procs, &it); nd; nd = hmap_next(&r->procs, &it)) {
		struct proc *p = nd->value;
		if (!p->ended)
			fn(user, p->tgid);
	}
}

static int by_seq(const void *a, const void *b)
{
	const struct kept *x = *(struct kept *const *)a, *y = *(struct kept *const *)b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

uint64_t recorder_seq(const struct recorder *r)
{
	return r->seq;
}

static bool picked(struct recorder *r, const struct recorder_pick *pick, pid_t root, pid_t tgid)
{
	if (!pick->line)
		return recorder_root(r, tgid) == root;
	return recorder_within(r, tgid, pick->tgid) || recorder_within(r, pick->tgid, tgid);
}

size_t recorder_each(struct recorder *r, const struct recorder_pick *pick,
		     void (*fn)(void *user, struct rc_event *e), void *user)
{
	struct hmap_iter it;
	struct kept **v = NULL;
	size_t n = 0, alloc = 0;
	pid_t root = recorder_root(r, pick->tgid);

	for (struct hmap_node *nd = hmap_first(&r->procs, &it); nd; nd = hmap_next(&r->procs, &it)) {
		struct proc *p = nd->value;
		if (!picked(r, pick, root, p->tgid))
			continue;
		if (n + p->n + 2 > alloc) {
			alloc = 2 * (n + p->n + 2);
			v = xrealloc(v, alloc * sizeof(*v));
		}
		/* A pinned event the ring still has comes from the ring. */
		uint64_t first = p->n ? p->v[p->head].seq : UINT64_MAX;
		if (p->found.e && p->found.seq < first)
			v[n++] = &p->found;
		if (p->exec.e && p->exec.seq < first)
			v[n++] = &p->exec;
		for (size_t i = 0; i < p->n; i++)
			v[n++] = &p->v[(p->head + i) % p->cap];
	}
	if (n)
		qsort(v, n, sizeof(*v), by_seq);
	while (pick->upto && n && v[n - 1]->seq > pick->upto)
		n--;
	for (size_t i = 0; i < n; i++) {
		struct rc_event *c = event_copy(v[i]->e, NULL);
		fn(user, c);
		event_copy_free(c);
	}
	free(v);
	return n;
}

uint64_t recorder_holes(struct recorder *r, pid_t root)
{
	struct hmap_iter it;
	uint64_t n = 0;

	for (struct hmap_node *nd = hmap_first(&r->procs, &it); nd; nd = hmap_next(&r->procs, &it)) {
		struct proc *p = nd->value;
		if (recorder_root(r, p->tgid) == root)
			n += p->dropped;
	}
	return n;
}

void recorder_stats(const struct recorder *r, struct recorder_stats *out)
{
	out->processes = r->procs.count;
	out->events = r->events;
	out->bytes = r->bytes;
	out->dropped = r->dropped;
}
