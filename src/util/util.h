/* Small helpers used everywhere: allocation that never returns NULL, and
 * the banned-function list (git's banned.h idea). */
#ifndef RC_UTIL_UTIL_H
#define RC_UTIL_UTIL_H

#include <stddef.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

/* Out of memory is not an error rootcause can explain or recover from:
 * these print one line and exit with status 4. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* A hash of N bytes, for hash tables keyed by strings or integers. */
unsigned long long hash_bytes(const void *p, size_t n);

#include "util/banned.h"

#endif
