/* Small helpers used everywhere: allocation that never returns NULL, and
 * the banned-function list (git's banned.h idea). */
#ifndef RC_UTIL_UTIL_H
#define RC_UTIL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

/* Of N elements of SIZE bytes at BASE, sorted by the uint64_t at offset
 * FIELD: how many have it <= KEY.  So the range starting at or below an
 * address is element count - 1, if any: the lookup of a mapping, segment
 * or file note by address.  Inline: unwinding reads memory through it. */
static inline size_t count_le_u64(const void *base, size_t n, size_t size, size_t field, uint64_t key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t v;
		memcpy(&v, (const char *)base + mid * size + field, sizeof(v));
		if (v <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Out of memory is not an error rootcause can explain or recover from:
 * these print one line and exit with status 4. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* The same end for an allocator of its own (util/arena.c) that ran out. */
void xoom(size_t n);

/* The last component of PATH: what follows its last '/'. */
const char *path_base(const char *path);
/* What of PATH lies under directory TOP ("/srv" in "/srv/x": "/x";
 * TOP itself: "/"; TOP "/": PATH), or NULL when TOP does not lead it. */
const char *path_within(const char *path, const char *top);
/* PATH (N bytes) as the kernel names an unlinked file in /proc ("/tmp/x
 * (deleted)"): cut back to the path, and true; else false. */
bool path_cut_deleted(char *path, size_t *n);

/* Opens /dev/null on whichever of fds 0, 1 and 2 is closed, as strace does
 * at start: otherwise the first file rootcause opens (a report, a trace
 * log) would become a standard fd, and a traced command would inherit it as
 * its stdin or stdout.  Returns 0, or -1 with errno set. */
int sanitize_std_fds(void);

/* Unblocks the signals rootcause acts on (Ctrl-C and the like, SIGALRM
 * for its deadlines, SIGCHLD), keeping the mask it was started with for
 * signals_inherited(): a runner that blocked them must not stop rootcause
 * from ending, and the command rootcause runs gets the mask it would have
 * had without it. */
void signals_own(void);
/* In a child before exec: the signal mask rootcause was started with. */
void signals_inherited(void);

/* write(2) until all N bytes are out (retrying EINTR and short writes);
 * false with errno set on failure. */
bool write_all(int fd, const void *p, size_t n);

/* A hash of N bytes, for hash tables keyed by strings or integers. */
unsigned long long hash_bytes(const void *p, size_t n);

/* splitmix64's finaliser, hash_bytes' step. */
static inline unsigned long long hash_mix64(unsigned long long x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/* hash_bytes(&K, 8), inline: the per-event look-ups by pid and fd. */
static inline unsigned long long hash_int64(long long k)
{
	return hash_mix64((0x9e3779b97f4a7c15ULL ^ 8) ^ (unsigned long long)k);
}

#include "util/banned.h"

#endif
