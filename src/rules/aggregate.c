/* The rules' bounded state (see aggregate.h). */
#include "rules/aggregate.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

void **rule_values(const struct hmap *map, rule_keep_fn *keep, const void *arg, size_t *n)
{
	void **v = xcalloc(map->count + 1, sizeof(*v));
	struct hmap_iter it;
	size_t k = 0;

	for (struct hmap_node *node = hmap_first(map, &it); node; node = hmap_next(map, &it))
		if (!keep || keep(node->value, arg))
			v[k++] = node->value;
	*n = k;
	return v;
}

/* ELEM points at a record pointer; the record holds a uint64_t at OFFSET. */
static uint64_t seq_at(const void *elem, size_t offset)
{
	const char *value = *(void *const *)elem;

	return *(const uint64_t *)(value + offset);
}

/* For qsort_r: the offset, which differs from rule to rule, is ARG. */
static int cmp_seq(const void *a, const void *b, void *arg)
{
	size_t offset = *(const size_t *)arg;
	uint64_t x = seq_at(a, offset), y = seq_at(b, offset);

	return (x > y) - (x < y);
}

void rule_report_in_order(const struct hmap *map, rule_keep_fn *keep, size_t seq_offset,
			  void (*emit)(const void *value, const void *arg, struct rc_findings *out),
			  const void *arg, struct rc_findings *out)
{
	size_t n;
	void **v = rule_values(map, keep, arg, &n);

	qsort_r(v, n, sizeof(*v), cmp_seq, &seq_offset);
	for (size_t i = 0; i < n; i++)
		emit(v[i], arg, out);
	free(v);
}

void rule_report_top(const struct hmap *map, rule_keep_fn *keep, int (*cmp)(const void *, const void *),
		     size_t max, void (*report)(const void *value, struct rc_findings *out),
		     struct rc_findings *out)
{
	size_t n;
	void **v = rule_values(map, keep, NULL, &n);

	qsort(v, n, sizeof(*v), cmp);
	for (size_t i = 0; i < n && i < max; i++)
		report(v[i], out);
	free(v);
}

int rule_cmp_rank(const void *a, const void *b)
{
	const struct rule_rank *x = a, *y = b;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return (x->seq < y->seq) - (x->seq > y->seq);
}

void rule_evict(struct hmap *map, bool (*drop)(const void *value), void (*free_value)(void *))
{
	struct hmap_iter it;
	struct hmap_node *n = hmap_first(map, &it);

	while (n) {
		struct hmap_node *next = hmap_next(map, &it);
		if (drop(n->value))
			free_value(hmap_del(map, n->key, n->keylen));
		n = next;
	}
}

void **rule_key_slot(struct hmap *map, const char *key, size_t len, size_t cap, bool (*drop)(const void *value),
		     void (*free_value)(void *))
{
	void **slot = hmap_get(map, key, len);

	if (slot)
		return slot;
	if (map->count >= cap)
		rule_evict(map, drop, free_value);
	if (map->count >= cap)
		return NULL;
	return hmap_put(map, key, len, NULL);
}

void *rule_top_slot(void *top, int *n, int cap, size_t size, size_t weight_offset, double weight,
		    void (*drop)(void *entry))
{
	char *base = top;
	int pos = *n;

	while (pos > 0) {
		double w;
		memcpy(&w, base + (size_t)(pos - 1) * size + weight_offset, sizeof(w));
		if (w >= weight)
			break;
		pos--;
	}
	if (pos >= cap)
		return NULL;
	if (*n == cap)
		drop(base + (size_t)(cap - 1) * size);
	else
		(*n)++;
	char *slot = base + (size_t)pos * size;
	memmove(slot + size, slot, (size_t)(*n - 1 - pos) * size);
	return slot;
}

void *rule_int_value(struct hmap *map, long long key, bool create, size_t size, size_t cap,
		     bool *created)
{
	void **slot = hmap_get_int_hot(map, key);

	if (created)
		*created = false;
	if (slot || !create)
		return slot ? *slot : NULL;
	if (map->count >= cap)
		return NULL;
	void *v = xcalloc(1, size);
	*hmap_put_int(map, key, NULL) = v;
	if (created)
		*created = true;
	return v;
}

void rule_thread_time_add(struct hmap *map, int tid, double dur, size_t cap)
{
	void **slot = hmap_get_int_hot(map, tid);

	if (!slot && map->count < cap) {
		slot = hmap_put_int(map, tid, NULL);
		struct rule_thread_time *t = xcalloc(1, sizeof(*t));
		t->tid = tid;
		*slot = t;
	}
	if (slot) {
		struct rule_thread_time *t = *slot;
		t->total += dur;
		t->count++;
	}
}
