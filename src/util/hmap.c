#include "util/hmap.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

void hmap_init(struct hmap *m)
{
	m->buckets = NULL;
	m->nbuckets = 0;
	m->count = 0;
	m->hot = NULL;
}

void hmap_release(struct hmap *m, void (*free_value)(void *))
{
	for (size_t i = 0; i < m->nbuckets; i++) {
		struct hmap_node *n = m->buckets[i];
		while (n) {
			struct hmap_node *next = n->next;
			if (free_value)
				free_value(n->value);
			free(n);
			n = next;
		}
	}
	free(m->buckets);
	hmap_init(m);
}

static struct hmap_node **find_int(const struct hmap *m, long long k, unsigned long long h);

static struct hmap_node **find(const struct hmap *m, const void *key, size_t len,
			       unsigned long long h)
{
	if (!m->nbuckets)
		return NULL;
	struct hmap_node **pp = &m->buckets[h & (m->nbuckets - 1)];
	for (; *pp; pp = &(*pp)->next)
		if ((*pp)->hash == h && (*pp)->keylen == len && memcmp((*pp)->key, key, len) == 0)
			return pp;
	return NULL;
}

void **hmap_get(const struct hmap *m, const void *key, size_t len)
{
	struct hmap_node **pp;

	/* 8-byte keys (a pid and an fd, a pid) are most look-ups: no call to
	 * hash or compare them. */
	if (len == 8) {
		long long k;
		memcpy(&k, key, sizeof(k));
		pp = find_int(m, k, hash_int64(k));
	} else {
		pp = find(m, key, len, hash_bytes(key, len));
	}
	return pp ? &(*pp)->value : NULL;
}

static void grow(struct hmap *m)
{
	size_t n = m->nbuckets ? m->nbuckets * 2 : 16;
	struct hmap_node **b = xcalloc(n, sizeof(*b));

	for (size_t i = 0; i < m->nbuckets; i++) {
		struct hmap_node *node = m->buckets[i];
		while (node) {
			struct hmap_node *next = node->next;
			size_t j = node->hash & (n - 1);
			node->next = b[j];
			b[j] = node;
			node = next;
		}
	}
	free(m->buckets);
	m->buckets = b;
	m->nbuckets = n;
}

static void **put_hashed(struct hmap *m, const void *key, size_t len, unsigned long long h,
			 struct hmap_node **pp, bool *created)
{
	if (created)
		*created = !pp;
	if (pp)
		return &(*pp)->value;
	if (m->count + 1 > m->nbuckets)
		grow(m);
	struct hmap_node *node = xmalloc(offsetof(struct hmap_node, key) + len + 1);
	node->hash = h;
	node->value = NULL;
	node->keylen = len;
	memcpy(node->key, key, len);
	node->key[len] = '\0';
	size_t j = h & (m->nbuckets - 1);
	node->next = m->buckets[j];
	m->buckets[j] = node;
	m->count++;
	return &node->value;
}

void **hmap_put(struct hmap *m, const void *key, size_t len, bool *created)
{
	unsigned long long h = hash_bytes(key, len);

	return put_hashed(m, key, len, h, find(m, key, len, h), created);
}

static void *del_node(struct hmap *m, struct hmap_node **pp)
{
	if (!pp)
		return NULL;
	struct hmap_node *node = *pp;
	void *v = node->value;
	*pp = node->next;
	if (m->hot == node)
		m->hot = NULL;
	free(node);
	m->count--;
	return v;
}

void *hmap_del(struct hmap *m, const void *key, size_t len)
{
	return del_node(m, find(m, key, len, hash_bytes(key, len)));
}

static struct hmap_node **find_int(const struct hmap *m, long long k, unsigned long long h)
{
	if (!m->nbuckets)
		return NULL;
	struct hmap_node **pp = &m->buckets[h & (m->nbuckets - 1)];
	for (; *pp; pp = &(*pp)->next)
		if ((*pp)->hash == h && (*pp)->keylen == sizeof(k) && hmap_node_int(*pp) == k)
			return pp;
	return NULL;
}

void **hmap_get_int(const struct hmap *m, long long k)
{
	struct hmap_node **pp = find_int(m, k, hash_int64(k));
	return pp ? &(*pp)->value : NULL;
}

void **hmap_get_int_hot(struct hmap *m, long long k)
{
	if (m->hot && m->hot->keylen == sizeof(k) && hmap_node_int(m->hot) == k)
		return &m->hot->value;
	struct hmap_node **pp = find_int(m, k, hash_int64(k));
	if (!pp)
		return NULL;
	m->hot = *pp;
	return &(*pp)->value;
}

void **hmap_put_int(struct hmap *m, long long k, bool *created)
{
	unsigned long long h = hash_int64(k);

	return put_hashed(m, &k, sizeof(k), h, find_int(m, k, h), created);
}

void *hmap_del_int(struct hmap *m, long long k)
{
	return del_node(m, find_int(m, k, hash_int64(k)));
}

const char *hmap_slot_key(void **slot)
{
	struct hmap_node *n = (struct hmap_node *)((char *)slot - offsetof(struct hmap_node, value));
	return n->key;
}

struct hmap_node *hmap_next(const struct hmap *m, struct hmap_iter *it)
{
	if (it->next) {
		struct hmap_node *n = it->next;
		it->next = n->next;
		return n;
	}
	while (it->bucket < m->nbuckets) {
		struct hmap_node *n = m->buckets[it->bucket++];
		if (n) {
			it->next = n->next;
			return n;
		}
	}
	return NULL;
}

struct hmap_node *hmap_first(const struct hmap *m, struct hmap_iter *it)
{
	it->bucket = 0;
	it->next = NULL;
	return hmap_next(m, it);
}

/* ---- struct imap ---- */

static size_t imap_hash(const struct imap *m, int key)
{
	return ((uint32_t)key * 2654435761u) & m->mask;
}

void imap_init(struct imap *m)
{
	m->mask = 63;
	m->count = 0;
	m->s = xcalloc(m->mask + 1, sizeof(*m->s));
}

void imap_release(struct imap *m)
{
	free(m->s);
	m->s = NULL;
	m->count = 0;
}

void **imap_get(const struct imap *m, int key)
{
	for (size_t i = imap_hash(m, key);; i = (i + 1) & m->mask) {
		if (!m->s[i].used)
			return NULL;
		if (m->s[i].key == key)
			return &m->s[i].val;
	}
}

void **imap_put(struct imap *m, int key)
{
	void **v = imap_get(m, key);

	if (v)
		return v;
	if ((m->count + 1) * 2 > m->mask + 1) {
		struct imap big = { xcalloc((m->mask + 1) * 2, sizeof(*m->s)), m->mask * 2 + 1, 0 };
		for (size_t i = 0; i <= m->mask; i++)
			if (m->s[i].used)
				*imap_put(&big, m->s[i].key) = m->s[i].val;
		free(m->s);
		*m = big;
	}
	size_t i = imap_hash(m, key);
	while (m->s[i].used)
		i = (i + 1) & m->mask;
	m->s[i].used = true;
	m->s[i].key = key;
	m->s[i].val = NULL;
	m->count++;
	return &m->s[i].val;
}

void imap_del(struct imap *m, int key)
{
	size_t i = imap_hash(m, key);

	while (m->s[i].used && m->s[i].key != key)
		i = (i + 1) & m->mask;
	if (!m->s[i].used)
		return;
	m->count--;
	for (size_t j = i;;) {
		j = (j + 1) & m->mask;
		if (!m->s[j].used)
			break;
		size_t k = imap_hash(m, m->s[j].key);
		/* Move j back to the hole at i unless its home lies in (i, j]. */
		bool stay = i <= j ? (i < k && k <= j) : (i < k || k <= j);
		if (!stay) {
			m->s[i] = m->s[j];
			i = j;
		}
	}
	m->s[i].used = false;
}
