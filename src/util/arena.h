/* A bump allocator for what one event owns: the strace parser's decoded
 * strings and the tracer's decoded arguments. Pointers stay valid until
 * arena_reset(). A zeroed struct arena is a valid empty arena.
 *
 * The steady state allocates nothing: reset keeps one chunk, grown to what
 * the last event took (up to ARENA_KEEP_MAX), so a log or a trace of
 * similar events reuses it. A request too big for the current chunk's
 * standard size gets a chunk of its own behind the one allocations bump
 * through, so that chunk's free space is not thrown away. */
#ifndef RC_UTIL_ARENA_H
#define RC_UTIL_ARENA_H

#include <stddef.h>

struct arena_chunk;

struct arena {
	struct arena_chunk *head;	/* the chunk allocations bump through */
	size_t taken;			/* bytes taken since the last reset */
};

void arena_init(struct arena *a);
/* N bytes (16-byte aligned); NULL when memory runs out. */
void *arena_try_alloc(struct arena *a, size_t n);
/* The same, never NULL: out of memory ends the program, as xmalloc does. */
void *arena_alloc(struct arena *a, size_t n);
/* A NUL-terminated copy of N bytes at S (never NULL, as arena_alloc). */
char *arena_strndup(struct arena *a, const char *s, size_t n);
/* Forget every allocation; keeps one chunk for the next event. */
void arena_reset(struct arena *a);
/* Free everything; the arena is empty (and usable) after it. */
void arena_release(struct arena *a);

#endif
