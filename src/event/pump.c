/* The source in a thread, its events fed in order (see pump.h). */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "event/pump.h"
#include "event/stack.h"
#include "event/syscalls.h"
#include "util/arena.h"
#include "util/util.h"

/* Events a batch holds: a lock per batch, not per event, and a batch
 * (about 100 KiB) small enough to stay in the caches between the two
 * threads. */
#define PUMP_BATCH 128
/* Batches in flight: the source can run ahead of the consumer by this
 * many, as a log's busy stretches are not the rules' busy stretches. */
#define PUMP_BATCHES 16
/* A side that waits is woken when the other has made this many batches
 * ready (or free), not at each one: a wake-up is a trip through the
 * scheduler, and at every batch they took a tenth of the time. */
#define PUMP_WAKE (PUMP_BATCHES / 2)

struct batch {
	unsigned char *items;	/* PUMP_BATCH work items (event_pump's item_size) */
	size_t n;
	struct arena strings;
};

struct pump {
	const struct event_pump *io;
	size_t item_size;
	pthread_mutex_t lock;
	pthread_cond_t filled, emptied;
	/* Batch K is slot K % PUMP_BATCHES. The source fills slot
	 * `produced` while produced - consumed < PUMP_BATCHES; the consumer
	 * reads slot `consumed` while consumed < produced. */
	uint64_t produced, consumed;
	bool source_waits, consumer_waits;
	bool done;
	int result;
	struct batch *b;
};

static size_t str_size(const char *s)
{
	return s ? strlen(s) + 1 : 0;
}

static const char *str_put(char **at, const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 1;
	char *d = *at;
	memcpy(d, s, n);
	*at += n;
	return d;
}

/* The bytes a copy of F takes: F and its text, rounded up so that what
 * follows it stays aligned. */
static inline size_t facts_size(const struct rc_fdfacts *f)
{
	return f ? (sizeof(*f) + f->size + 7) & ~(size_t)7 : 0;
}

/* The pointer P into F's text, into C's. */
static inline const char *moved(const struct rc_fdfacts *f, const struct rc_fdfacts *c, const char *p)
{
	return p ? c->text + (p - f->text) : NULL;
}

/* F copied to AT, its pointers moved with its text. */
static const struct rc_fdfacts *facts_put(char *at, const struct rc_fdfacts *f)
{
	struct rc_fdfacts *c = (struct rc_fdfacts *)at;

	memcpy(c, f, sizeof(*f) + f->size);
	c->desc = moved(f, c, f->desc);
	c->path = moved(f, c, f->path);
	/* Only a socket's has more. */
	if (f->kind == RC_FD_SOCKET) {
		c->proto = moved(f, c, f->proto);
		c->local.host = moved(f, c, f->local.host);
		c->peer.host = moved(f, c, f->peer.host);
	}
	return c;
}

/* The table's own name needs no copy: it lives as long as the program. */
static bool static_name(const struct rc_event *e)
{
	const struct rc_syscall *sc = e->nr >= 0 ? syscall_by_nr(e->nr) : NULL;

	return sc && sc->name == e->name;
}

void event_own_strings(struct rc_event *e, struct arena *a)
{
	bool own_name = e->name && !static_name(e);
	/* An empty path's fd is its dirfd: one decoration, copied once. */
	size_t dir_n = facts_size(e->dir_shown);
	size_t fd_n = e->fd_shown == e->dir_shown ? 0 : facts_size(e->fd_shown);
	size_t n = dir_n + fd_n + (own_name ? strlen(e->name) + 1 : 0) + str_size(e->path) + str_size(e->path2) +
		   str_size(e->sa.host) + (e->line ? e->line_len + 1 : 0) +
		   (e->data ? e->data_len + 1 : 0);
	for (int i = 0; i < e->argc; i++)
		n += str_size(e->argv[i]);
	if (!n)
		return;
	char *at = arena_alloc(a, n);
	/* The facts first, where the arena's alignment is. */
	if (dir_n) {
		bool same = e->fd_shown == e->dir_shown;
		e->dir_shown = facts_put(at, e->dir_shown);
		if (same)
			e->fd_shown = e->dir_shown;
		at += dir_n;
	}
	if (fd_n) {
		e->fd_shown = facts_put(at, e->fd_shown);
		at += fd_n;
	}
	if (own_name)
		e->name = str_put(&at, e->name);
	e->path = str_put(&at, e->path);
	e->path2 = str_put(&at, e->path2);
	e->sa.host = str_put(&at, e->sa.host);
	for (int i = 0; i < e->argc; i++)
		e->argv[i] = str_put(&at, e->argv[i]);
	if (e->line) {
		memcpy(at, e->line, e->line_len);
		at[e->line_len] = '\0';
		e->line = at;
		at += e->line_len + 1;
	}
	if (e->data) {
		memcpy(at, e->data, e->data_len);
		at[e->data_len] = '\0';
		e->data = (const unsigned char *)at;
	}
}

static void *source_thread(void *arg)
{
	struct pump *p = arg;
	int r = 1;

	while (r > 0) {
		pthread_mutex_lock(&p->lock);
		while (p->produced - p->consumed >= PUMP_BATCHES) {
			p->source_waits = true;
			pthread_cond_wait(&p->emptied, &p->lock);
		}
		p->source_waits = false;
		struct batch *b = &p->b[p->produced % PUMP_BATCHES];
		/* A short queue: the consumer has time for the work the
		 * source may leave it. */
		bool leave = p->produced - p->consumed < PUMP_BATCHES / 2;
		pthread_mutex_unlock(&p->lock);

		/* The consumer is done with this slot: reuse it. */
		arena_reset(&b->strings);
		b->n = 0;
		while (b->n < PUMP_BATCH) {
			void *item = b->items + b->n * p->item_size;
			if ((r = p->io->next(p->io->src, item, leave)) <= 0)
				break;
			event_own_strings(item, &b->strings);
			b->n++;
		}

		pthread_mutex_lock(&p->lock);
		p->produced++;
		if (r <= 0) {
			p->done = true;
			p->result = r < 0 ? -1 : 0;
		}
		if (p->consumer_waits && (p->done || p->produced - p->consumed >= PUMP_WAKE))
			pthread_cond_signal(&p->filled);
		pthread_mutex_unlock(&p->lock);
	}
	return NULL;
}

/* ITEM finished and fed: its event is where it begins. */
static void feed_one(const struct event_pump *io, void *item, struct arena *a)
{
	if (io->finish) {
		arena_reset(a);
		io->finish(item, a);
	}
	io->feed(io->sink, item);
	/* The item's reference to its stack (event.h): fed, it is done. */
	struct rc_event *e = item;
	stack_unref(e->stack);
	e->stack = NULL;
}

static size_t item_size(const struct event_pump *io)
{
	return io->item_size ? io->item_size : sizeof(struct rc_event);
}

static int pump_inline(const struct event_pump *io)
{
	struct arena a;
	void *item = xmalloc(item_size(io));
	int r;

	arena_init(&a);
	while ((r = io->next(io->src, item, false)) > 0)
		feed_one(io, item, &a);
	arena_release(&a);
	free(item);
	return r < 0 ? -1 : 0;
}

int event_pump(const struct event_pump *io)
{
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return pump_inline(io);

	/* Built now, before two threads could each start building it. */
	syscall_table_init();

	struct pump p = { .io = io, .item_size = item_size(io) };
	p.b = calloc(PUMP_BATCHES, sizeof(*p.b));
	unsigned char *items = p.b ? calloc(PUMP_BATCHES * PUMP_BATCH, p.item_size) : NULL;
	if (!items) {
		free(p.b);
		return pump_inline(io);
	}
	for (size_t i = 0; i < PUMP_BATCHES; i++)
		p.b[i].items = items + i * PUMP_BATCH * p.item_size;
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.filled, NULL);
	pthread_cond_init(&p.emptied, NULL);
	struct arena a;
	arena_init(&a);
	pthread_t t;
	int r;
	if (pthread_create(&t, NULL, source_thread, &p) != 0) {
		r = pump_inline(io);
		goto out;
	}
	for (;;) {
		pthread_mutex_lock(&p.lock);
		while (p.consumed == p.produced && !p.done) {
			p.consumer_waits = true;
			pthread_cond_wait(&p.filled, &p.lock);
		}
		p.consumer_waits = false;
		bool empty = p.consumed == p.produced;
		pthread_mutex_unlock(&p.lock);
		if (empty)
			break;
		struct batch *b = &p.b[p.consumed % PUMP_BATCHES];
		for (size_t i = 0; i < b->n; i++)
			feed_one(io, b->items + i * p.item_size, &a);
		pthread_mutex_lock(&p.lock);
		p.consumed++;
		if (p.source_waits && PUMP_BATCHES - (p.produced - p.consumed) >= PUMP_WAKE)
			pthread_cond_signal(&p.emptied);
		pthread_mutex_unlock(&p.lock);
	}
	pthread_join(t, NULL);
	r = p.result;
out:
	arena_release(&a);
	for (size_t i = 0; i < PUMP_BATCHES; i++)
		arena_release(&p.b[i].strings);
	free(items);
	free(p.b);
	pthread_cond_destroy(&p.filled);
	pthread_cond_destroy(&p.emptied);
	pthread_mutex_destroy(&p.lock);
	return r;
}
