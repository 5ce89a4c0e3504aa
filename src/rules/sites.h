/* The sites of a sum: the distinct code locations (event/stack.h's
 * stack_same_site) that made the calls a rule adds up, each with how
 * many, so that a finding about 48 opens of one file says which line of
 * the program made them.  A rule keeps one tally per thing it sums, adds
 * each call's stack (calls without one are not counted), and puts the
 * most frequent few on its finding. */
#ifndef RC_RULES_SITES_H
#define RC_RULES_SITES_H

#include <stddef.h>
#include <stdint.h>

#include "event/stack.h"
#include "rules/finding.h"

/* Distinct sites a tally keeps; calls from others past it are counted in
 * OTHER only. */
#define SITES_KEPT 32

struct site_tally {
	struct rc_site *v;
	size_t n;
	uint64_t other;		/* calls from sites past the cap */
};

/* S's call counts once (NULL, and a stack that says why there is none:
 * not counted). */
void site_tally_add(struct site_tally *t, const struct rc_stack *s);
/* SRC's counts added to DST's. */
void site_tally_merge(struct site_tally *dst, const struct site_tally *src);
/* The most frequent RC_SITES_MAX onto F (which takes references), the
 * rest counted in F->sites_other. */
void site_tally_put(const struct site_tally *t, struct rc_finding *f);
/* The same for a sum of CALLS calls of which the tally saw only some (a
 * sample: the tracer unwinds one read or write in so many): each site's
 * count becomes its share of CALLS, and F->sites_sampled says they are
 * estimates. A tally that saw every call puts its counts as they are. */
void site_tally_put_of(const struct site_tally *t, struct rc_finding *f, uint64_t calls);
void site_tally_release(struct site_tally *t);

#endif
