#include "util/arena.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* Chunks are linked from the bump chunk (the newest standard one) to the
 * oldest; a chunk made for one big request sits behind the bump chunk. */
struct arena_chunk {
	struct arena_chunk *next;
	size_t size, used;
	max_align_t data[];
};

#define ARENA_MIN 4096u
/* The chunk kept across resets grows to at most this. */
#define ARENA_KEEP_MAX (4u << 20)

static struct arena_chunk *chunk_new(size_t size)
{
	struct arena_chunk *c = malloc(sizeof(*c) + size);

	if (!c)
		return NULL;
	c->next = NULL;
	c->size = size;
	c->used = 0;
	return c;
}

void arena_init(struct arena *a)
{
	a->head = NULL;
	a->taken = 0;
}

void *arena_try_alloc(struct arena *a, size_t n)
{
	size_t need = (n + 15) & ~(size_t)15;
	struct arena_chunk *c = a->head;

	if (need < n || need > (size_t)-1 / 2)
		return NULL;
	if (!c || c->size - c->used < need) {
		size_t std = c && c->size > ARENA_MIN ? c->size : ARENA_MIN;
		if (c && need > std / 4) {
			/* Big: a chunk of its own, behind the bump chunk. */
			struct arena_chunk *big = chunk_new(need);
			if (!big)
				return NULL;
			big->used = need;
			big->next = c->next;
			c->next = big;
			a->taken += need;
			return big->data;
		}
		struct arena_chunk *nc = chunk_new(need > std ? need : std);
		if (!nc)
			return NULL;
		nc->next = c;
		a->head = c = nc;
	}
	void *p = (char *)c->data + c->used;
	c->used += need;
	a->taken += need;
	return p;
}

void *arena_alloc(struct arena *a, size_t n)
{
	void *p = arena_try_alloc(a, n);

	if (!p)
		xoom(n);
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	if (n)
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void arena_reset(struct arena *a)
{
	/* Keep the biggest standard-sized chunk: the bump chunk, whose size
	 * only grows, at the head. */
	struct arena_chunk *keep = a->head;

	for (struct arena_chunk *c = keep ? keep->next : NULL, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	if (keep && a->taken > keep->size && a->taken <= ARENA_KEEP_MAX) {
		struct arena_chunk *bigger = chunk_new(a->taken);
		if (bigger) {
			free(keep);
			keep = bigger;
		}
	}
	if (keep) {
		keep->used = 0;
		keep->next = NULL;
	}
	a->head = keep;
	a->taken = 0;
}

void arena_release(struct arena *a)
{
	struct arena_chunk *c = a->head;

	while (c) {
		struct arena_chunk *next = c->next;
		free(c);
		c = next;
	}
	a->head = NULL;
	a->taken = 0;
}
