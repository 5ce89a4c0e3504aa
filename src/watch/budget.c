/* watch's call budget (see budget.h). */
#include "watch/budget.h"

#include <string.h>

/* The rate is taken over a second at least. */
#define SAMPLE_S 1.0

void budget_init(struct budget *b, double max_rate)
{
	memset(b, 0, sizeof(*b));
	b->max_rate = max_rate;
}

static struct budget_span *newest(struct budget *b)
{
	return b->nspans ? &b->spans[(b->nspans - 1) % BUDGET_SPANS] : NULL;
}

bool budget_wants_calls(const struct budget *b, double now)
{
	return b->max_rate > 0 && !b->broken && !b->paused && (b->since <= 0 || now - b->since >= SAMPLE_S);
}

enum budget_do budget_tick(struct budget *b, double now, uint64_t calls, uint64_t starts)
{
	bool started = b->since > 0 && starts != b->starts_then;

	b->starts_then = starts;
	b->start_seen |= started;
	if (b->max_rate <= 0 || b->broken)
		return BUDGET_KEEP;
	if (b->paused) {
		const struct budget_span *s = newest(b);
		if (started || b->woken || (s && now - s->from >= BUDGET_PROBE_EVERY_S))
			return BUDGET_RESUME;
		return BUDGET_KEEP;
	}
	if (!budget_wants_calls(b, now))
		return BUDGET_KEEP;
	if (b->since <= 0 || calls < b->calls_then) {
		b->since = now;
		b->calls_then = calls;
		b->start_seen = false;
		return BUDGET_KEEP;
	}
	double rate = (double)(calls - b->calls_then) / (now - b->since);
	double began = b->since;
	bool start_seen = b->start_seen;
	b->since = now;
	b->calls_then = calls;
	b->start_seen = false;
	/* A process starting makes its calls in a burst (an interpreter's
	 * imports): a second in which one started does not count. */
	if (rate <= b->max_rate || start_seen) {
		b->over_since = 0;
		return BUDGET_KEEP;
	}
	if (b->over_since <= 0)
		b->over_since = began;
	if (now - b->over_since < BUDGET_OVER_S)
		return BUDGET_KEEP;
	b->rate = rate;
	return BUDGET_PAUSE;
}

void budget_done(struct budget *b, enum budget_do what, double now, bool ok)
{
	if (what == BUDGET_PAUSE) {
		if (!ok) {
			b->broken = true;
			return;
		}
		b->paused = true;
		b->woken = false;
		b->over_since = 0;
		b->pauses++;
		b->spans[b->nspans++ % BUDGET_SPANS] = (struct budget_span){ now, 0 };
	} else if (what == BUDGET_RESUME && ok) {
		struct budget_span *s = newest(b);
		if (s)
			s->to = now;
		b->paused = false;
		b->woken = false;
		/* The rate is taken afresh from the next tick. */
		b->since = 0;
	}
}

void budget_wake(struct budget *b)
{
	if (b->paused)
		b->woken = true;
}

double budget_unrecorded(const struct budget *b, double from, double to)
{
	double sum = 0;
	unsigned n = b->nspans < BUDGET_SPANS ? b->nspans : BUDGET_SPANS;

	for (unsigned i = 0; i < n; i++) {
		const struct budget_span *s = &b->spans[i];
		double a = s->from > from ? s->from : from;
		double z = s->to > 0 && s->to < to ? s->to : to;
		if (z > a)
			sum += z - a;
	}
	return sum;
}
