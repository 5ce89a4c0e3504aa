/* The sites of a sum (see sites.h). */
#include "rules/sites.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static void add(struct site_tally *t, const struct rc_stack *s, uint64_t count)
{
	if (!s || s->missing)
		return;
	for (size_t i = 0; i < t->n; i++)
		if (stack_same_site(t->v[i].stack, s)) {
			t->v[i].count += count;
			return;
		}
	if (t->n >= SITES_KEPT) {
		t->other += count;
		return;
	}
	if (!t->v)
		t->v = xcalloc(SITES_KEPT, sizeof(*t->v));
	t->v[t->n++] = (struct rc_site){ count, stack_ref(s) };
}

void site_tally_add(struct site_tally *t, const struct rc_stack *s)
{
	add(t, s, 1);
}

void site_tally_merge(struct site_tally *dst, const struct site_tally *src)
{
	for (size_t i = 0; i < src->n; i++)
		add(dst, src->v[i].stack, src->v[i].count);
	dst->other += src->other;
}

void site_tally_put(const struct site_tally *t, struct rc_finding *f)
{
	struct rc_site *v = xcalloc(t->n ? t->n : 1, sizeof(*v));

	/* Most calls first, and among equals the first seen: an insertion
	 * sort, stable, of at most SITES_KEPT. */
	for (size_t i = 0; i < t->n; i++) {
		size_t k = i;
		while (k > 0 && v[k - 1].count < t->v[i].count) {
			v[k] = v[k - 1];
			k--;
		}
		v[k] = t->v[i];
	}
	for (int i = 0; i < f->nsites; i++)
		stack_unref(f->sites[i].stack);
	f->nsites = 0;
	f->sites_other = t->other;
	for (size_t i = 0; i < t->n; i++) {
		if (f->nsites < RC_SITES_MAX)
			f->sites[f->nsites++] = (struct rc_site){ v[i].count, stack_ref(v[i].stack) };
		else
			f->sites_other += v[i].count;
	}
	free(v);
}

void site_tally_put_of(const struct site_tally *t, struct rc_finding *f, uint64_t calls)
{
	uint64_t seen = t->other;

	for (size_t i = 0; i < t->n; i++)
		seen += t->v[i].count;
	site_tally_put(t, f);
	if (!seen || seen >= calls)
		return;
	/* Each site's share of the calls, rounded; what the rounding leaves
	 * goes to the other sites. */
	uint64_t given = 0;
	for (int i = 0; i < f->nsites; i++) {
		f->sites[i].count = (uint64_t)((double)calls * (double)f->sites[i].count / (double)seen + 0.5);
		given += f->sites[i].count;
	}
	f->sites_other = given < calls ? (f->sites_other ? calls - given : 0) : 0;
	f->sites_sampled = true;
}

void site_tally_release(struct site_tally *t)
{
	for (size_t i = 0; i < t->n; i++)
		stack_unref(t->v[i].stack);
	free(t->v);
	memset(t, 0, sizeof(*t));
}
