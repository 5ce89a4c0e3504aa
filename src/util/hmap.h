/* Hash maps: struct hmap from byte-string keys (copied) to pointers, for keyed
 * aggregates in rules and for the process and fd tables; struct imap (below)
 * from int keys to pointers. */
#ifndef RC_UTIL_HMAP_H
#define RC_UTIL_HMAP_H

#include <stdbool.h>
#include <stddef.h>

struct hmap_node {
	struct hmap_node *next;
	unsigned long long hash;
	void *value;
	size_t keylen;
	char key[];		/* NUL-terminated copy of the key */
};

struct hmap {
	struct hmap_node **buckets;
	size_t nbuckets;
	size_t count;
	struct hmap_node *hot;	/* the last node hmap_get_int_hot found */
};

#define HMAP_INIT { NULL, 0, 0, NULL }

void hmap_init(struct hmap *m);
/* Free the nodes; FREE_VALUE (may be NULL) is called on every value. */
void hmap_release(struct hmap *m, void (*free_value)(void *));
/* The value slot for KEY, or NULL when absent. */
void **hmap_get(const struct hmap *m, const void *key, size_t len);
/* The value slot for KEY, created (value NULL) when absent. */
void **hmap_put(struct hmap *m, const void *key, size_t len, bool *created);
/* Remove KEY; returns its value (NULL when absent). */
void *hmap_del(struct hmap *m, const void *key, size_t len);

/* The stored key of a slot returned by hmap_get/hmap_put. */
const char *hmap_slot_key(void **slot);

/* Iteration: for (struct hmap_node *n = hmap_first(m, &it); n; n = hmap_next(m, &it)).
 * The map must not change during iteration, except hmap_del of the current node. */
struct hmap_iter {
	size_t bucket;
	struct hmap_node *next;
};
struct hmap_node *hmap_first(const struct hmap *m, struct hmap_iter *it);
struct hmap_node *hmap_next(const struct hmap *m, struct hmap_iter *it);

/* The same for 8-byte integer keys (the same nodes and hashes as the
 * byte-string calls on &K; a map may mix both), without hashing or
 * comparing bytes: pids and fds are looked up on nearly every event. */
void **hmap_get_int(const struct hmap *m, long long k);
void **hmap_put_int(struct hmap *m, long long k, bool *created);
/* hmap_get_int, remembering the node it found: the rules ask for the
 * state of the thread of each event, and a thread's calls come in runs. */
void **hmap_get_int_hot(struct hmap *m, long long k);
void *hmap_del_int(struct hmap *m, long long k);
static inline long long hmap_node_int(const struct hmap_node *n)
{
	long long k;
	__builtin_memcpy(&k, n->key, sizeof(k));
	return k;
}

/* A small open-addressing map from int keys (pids, tids) to pointers:
 * linear probing with backward-shift deletion, no allocation per entry
 * and no hashing of bytes, for look-ups made on nearly every line of a
 * log (the strace parser's pending calls and live pids). The slots may be
 * walked directly: for (i = 0; i <= m->mask; i++) if (m->s[i].used) ...;
 * the map must not change during such a walk. */
struct imap_slot {
	int key;
	bool used;
	void *val;
};

struct imap {
	struct imap_slot *s;
	size_t mask, count;
};

void imap_init(struct imap *m);
void imap_release(struct imap *m);
/* The value slot for KEY, or NULL when absent. */
void **imap_get(const struct imap *m, int key);
/* The value slot for KEY, created (value NULL) when absent. The slot is
 * valid until the next imap_put or imap_del. */
void **imap_put(struct imap *m, int key);
void imap_del(struct imap *m, int key);

#endif
