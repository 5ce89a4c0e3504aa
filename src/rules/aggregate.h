/* The rules' bounded state: keyed aggregates with caps (evict, select,
 * sort), top-N lists, the per-thread time a rule counts, and the
 * finishes of the rules that report every record of an aggregate, or
 * its heaviest, in an order. Memory stays bounded however long the
 * trace (rule.h). */
#ifndef RC_RULES_AGGREGATE_H
#define RC_RULES_AGGREGATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/finding.h"
#include "rules/rule.h"
#include "util/hmap.h"

/* Sets of int keys (hmap values (void *)1), capped at CAP keys; a key of
 * two ints: a process group and an fd or a port. */
static inline long long rule_pair_key(int group, int n)
{
	return (long long)((unsigned long long)(unsigned)group << 32 | (unsigned)n);
}

static inline void rule_set_add(struct hmap *set, long long key, size_t cap)
{
	if (set->count < cap || hmap_get_int(set, key))
		*hmap_put_int(set, key, NULL) = (void *)1;
}

static inline bool rule_set_has(const struct hmap *set, long long key)
{
	return set->count && hmap_get_int(set, key);
}

/* Whether an aggregate's VALUE is wanted; ARG is the caller's. */
typedef bool rule_keep_fn(const void *value, const void *arg);

/* The values of MAP that KEEP accepts (all of them when KEEP is NULL), in
 * the map's order; *N is set to their number. The caller frees the array. */
void **rule_values(const struct hmap *map, rule_keep_fn *keep, const void *arg, size_t *n);

/* The finish of the rules that report every record of MAP that KEEP
 * accepts (all when KEEP is NULL), in the order they first went wrong:
 * sorted by the uint64_t first seq at SEQ_OFFSET in each, EMIT(value, ARG,
 * OUT) for each; ARG is also KEEP's. */
void rule_report_in_order(const struct hmap *map, rule_keep_fn *keep, size_t seq_offset,
			  void (*emit)(const void *value, const void *arg, struct rc_findings *out),
			  const void *arg, struct rc_findings *out);

/* The per-path performance rules' finish: the values KEEP accepts, sorted
 * with CMP (which compares two elements of a void * array), the first MAX
 * given to REPORT. */
void rule_report_top(const struct hmap *map, rule_keep_fn *keep, int (*cmp)(const void *, const void *),
		     size_t max, void (*report)(const void *value, struct rc_findings *out),
		     struct rc_findings *out);

/* How the file rules rank their candidates before listing the first few:
 * by score, then the latest failure first. Each candidate struct starts
 * with one, and an array of them is sorted with rule_cmp_rank. */
struct rule_rank {
	double score;
	uint64_t seq;
};

int rule_cmp_rank(const void *a, const void *b);

/* The part of a rank score that says how late in the trace SEQ came (up to
 * RC_W_LATENESS): the last failures before an exit are the likeliest
 * causes. */
static inline double rule_recency(const struct rc_ctx *ctx, uint64_t seq)
{
	return RC_W_LATENESS * (double)seq / (double)(ctx->nevents ? ctx->nevents : 1);
}

/* Make room in a full aggregate: remove (and FREE_VALUE) every value of
 * MAP that DROP accepts. */
void rule_evict(struct hmap *map, bool (*drop)(const void *value), void (*free_value)(void *));
/* KEY's (LEN bytes) slot in MAP, an aggregate of at most CAP values: the
 * one there, or a new one whose value is NULL, room made by rule_evict
 * (DROP, FREE_VALUE) when MAP is full; NULL when it is full even then. */
void **rule_key_slot(struct hmap *map, const char *key, size_t len, size_t cap, bool (*drop)(const void *value),
		     void (*free_value)(void *));

/* Keep the heaviest: TOP holds *N entries (at most CAP) of SIZE bytes,
 * heaviest first, each weighing the double at WEIGHT_OFFSET. Returns the
 * slot (its old contents stale) where an entry weighing WEIGHT goes, after
 * equal ones, having released (DROP) the lightest when the list was full;
 * NULL when WEIGHT does not make the list. */
void *rule_top_slot(void *top, int *n, int cap, size_t size, size_t weight_offset, double weight,
		    void (*drop)(void *entry));

/* KEY's value in MAP, an int-keyed aggregate of at most CAP values. When
 * there is none and CREATE is set: a new zeroed value of SIZE bytes, unless
 * the map is full (NULL then); *CREATED (may be NULL) tells whether the
 * value is new. */
void *rule_int_value(struct hmap *map, long long key, bool create, size_t size, size_t cap,
		     bool *created);

/* Time a thread spent in what a rule counts. */
struct rule_thread_time {
	int tid;
	double total;
	uint64_t count;
};

/* Add one call or wait of DUR seconds to TID's entry in MAP (tid ->
 * struct rule_thread_time*); a thread past CAP threads is not counted. */
void rule_thread_time_add(struct hmap *map, int tid, double dur, size_t cap);

#endif
