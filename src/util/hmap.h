/* A hash map from byte-string keys (copied) to pointers. Used for keyed
 * aggregates in rules and for the process and fd tables. */
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
};

#define HMAP_INIT { NULL, 0, 0 }

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

static inline void **hmap_get_int(const struct hmap *m, long long k)
{
	return hmap_get(m, &k, sizeof(k));
}
static inline void **hmap_put_int(struct hmap *m, long long k, bool *created)
{
	return hmap_put(m, &k, sizeof(k), created);
}
static inline void *hmap_del_int(struct hmap *m, long long k)
{
	return hmap_del(m, &k, sizeof(k));
}
static inline long long hmap_node_int(const struct hmap_node *n)
{
	long long k;
	__builtin_memcpy(&k, n->key, sizeof(k));
	return k;
}

#endif
