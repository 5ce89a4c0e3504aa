#include "diagnose/engine.h"

#include <stdlib.h>
#include <string.h>

#include "event/syscalls.h"
#include "util/util.h"

bool rule_reads_call(const struct rc_rule_reads *r, long nr)
{
	if (r->events & RC_READS_CALLS)
		return true;
	if ((r->classes && syscall_is(nr, r->classes)) || (r->call && r->call(nr)))
		return true;
	if (r->tclasses && nr >= 0) {
		const struct rc_syscall *sc = syscall_by_nr(nr);
		if (sc && (sc->tclasses & r->tclasses))
			return true;
	}
	for (const long *c = r->calls; c && *c >= 0; c++)
		if (*c == nr)
			return true;
	return false;
}

static void set_bit(uint64_t *set, size_t i)
{
	set[i / 64] |= (uint64_t)1 << (i % 64);
}

void engine_dispatch_build(struct rc_engine *eng)
{
	free(eng->by_call);
	/* Every number a declaration or the headers know gets its own
	 * entry; the last entry stands for the rest (unknown: -1). */
	long ncalls = syscall_nr_max() > 1024 ? syscall_nr_max() : 1024;
	for (size_t h = 0; h < eng->nhooks; h++)
		for (const long *c = eng->hooks[h].reads->calls; c && *c >= 0; c++)
			if (*c >= ncalls)
				ncalls = *c + 1;
	size_t nw = (eng->nhooks + 63) / 64;
	if (!nw)
		nw = 1;
	size_t nsets = (size_t)ncalls + 1 + 7;
	eng->nwords = nw;
	eng->ncalls = ncalls;
	eng->by_call = xcalloc(nsets * nw, sizeof(uint64_t));
	eng->failed = eng->by_call + ((size_t)ncalls + 1) * nw;
	eng->paths = eng->failed + nw;
	eng->blocked = eng->paths + nw;
	eng->signals = eng->blocked + nw;
	eng->exits = eng->signals + nw;
	eng->sums = eng->exits + nw;
	eng->while_set = eng->sums + nw;
	free(eng->conds);
	eng->conds = xcalloc(eng->nhooks ? eng->nhooks : 1, sizeof(*eng->conds));
	eng->nconds = 0;
	for (size_t h = 0; h < eng->nhooks; h++) {
		const struct rc_rule_reads *r = eng->hooks[h].reads;
		for (long nr = 0; nr <= ncalls; nr++)
			if (rule_reads_call(r, nr < ncalls ? nr : -1))
				set_bit(eng->by_call + (size_t)nr * nw, h);
		if (r->events & RC_READS_FAILED)
			set_bit(eng->failed, h);
		if (r->events & RC_READS_PATHS)
			set_bit(eng->paths, h);
		if (r->events & RC_READS_BLOCKED)
			set_bit(eng->blocked, h);
		if (r->events & RC_READS_SIGNALS)
			set_bit(eng->signals, h);
		if (r->events & RC_READS_EXITS)
			set_bit(eng->exits, h);
		if (r->events & RC_READS_SUMS)
			set_bit(eng->sums, h);
		if (r->calls_while && r->calls_while[0] != SIZE_MAX) {
			struct engine_cond *c = &eng->conds[eng->nconds++];
			c->hook = h;
			c->state = eng->hooks[h].state;
			c->fields = r->calls_while;
		}
	}
}

void engine_init(struct rc_engine *eng)
{
	engine_init_rules(eng, RC_RULES_ALL);
}

void engine_init_rules(struct rc_engine *eng, uint64_t rules)
{
	memset(eng, 0, sizeof(*eng));
	procs_init(&eng->procs);
	lookup_init(&eng->lookup, LOOKUP_HERE);
	eng->ctx.procs = &eng->procs;
	eng->ctx.lookup = &eng->lookup;
	eng->ctx.first_ts = -1;
	eng->ctx.last_ts = -1;
	eng->ctx.max_ts = -1;
	eng->states = xcalloc(rc_nrules, sizeof(void *));
	eng->hooks = xcalloc(rc_nrules, sizeof(*eng->hooks));
	for (size_t i = 0; i < rc_nrules; i++) {
		const struct rc_rule_ops *ops = rc_rules[i].ops;
		if (!(rc_rules[i].source & RC_RULE_TRACE) || !ops || !rule_picked(rules, &rc_rules[i]))
			continue;
		eng->states[i] = xcalloc(1, ops->state_size ? ops->state_size : 1);
		if (ops->init)
			ops->init(eng->states[i]);
		if (ops->on_event) {
			eng->hooks[eng->nhooks].on_event = ops->on_event;
			eng->hooks[eng->nhooks].reads = &ops->reads;
			eng->hooks[eng->nhooks++].state = eng->states[i];
		}
	}
	engine_dispatch_build(eng);
}

/* Gives E to the hooks in SET (NWORDS words), then to those in the
 * optional sets that E is of, each hook once, in hook order. */
static void dispatch(struct rc_engine *eng, const struct rc_event *e, const uint64_t *set,
		     const uint64_t *or1, const uint64_t *or2, const uint64_t *or3, const uint64_t *or4)
{
	for (size_t w = 0; w < eng->nwords; w++) {
		uint64_t bits = set[w];
		if (or1)
			bits |= or1[w];
		if (or2)
			bits |= or2[w];
		if (or3)
			bits |= or3[w];
		if (or4)
			bits |= or4[w];
		while (bits) {
			const struct engine_hook *h = &eng->hooks[w * 64 + (size_t)__builtin_ctzll(bits)];
			bits &= bits - 1;
			h->on_event(h->state, e, &eng->ctx);
		}
	}
}

void engine_feed(struct rc_engine *eng, struct rc_event *e)
{
	/* What a live capture found running is the model's alone: no rule
	 * reads it, and it is no event of the trace's (event.h). */
	if (e->kind == RC_EV_FOUND) {
		procs_apply(&eng->procs, e);
		return;
	}
	e->seq = ++eng->seq;
	if (e->ts > eng->ctx.max_ts)
		eng->ctx.max_ts = e->ts;
	if (e->ts >= 0) {
		eng->ctx.has_time = true;
		if (eng->ctx.first_ts < 0)
			eng->ctx.first_ts = e->ts;
		eng->ctx.last_ts = e->ts;
	}
	if (e->dur >= 0)
		eng->ctx.has_duration = true;
	eng->ctx.nevents = eng->seq;
	bool quoted = false;
	e->quoted = eng->timeline ? &quoted : NULL;
	procs_resolve(&eng->procs, e);
	switch (e->kind) {
	case RC_EV_SYSCALL: {
		long slot = e->nr >= 0 && e->nr < eng->ncalls ? e->nr : eng->ncalls;
		/* The hooks whose state holds something that every call may
		 * end. */
		bool any = false;
		for (size_t c = 0; c < eng->nconds; c++) {
			const struct engine_cond *k = &eng->conds[c];
			bool on = false;
			for (const size_t *f = k->fields; *f != SIZE_MAX && !on; f++) {
				size_t v;
				memcpy(&v, k->state + *f, sizeof(v));
				on = v != 0;
			}
			if (on) {
				if (!any)
					memset(eng->while_set, 0, eng->nwords * sizeof(uint64_t));
				any = true;
				set_bit(eng->while_set, k->hook);
			}
		}
		dispatch(eng, e, eng->by_call + (size_t)slot * eng->nwords, e->err ? eng->failed : NULL,
			 e->path && e->path[0] ? eng->paths : NULL, e->blocked ? eng->blocked : NULL,
			 any ? eng->while_set : NULL);
		break;
	}
	case RC_EV_SIGNAL:
		dispatch(eng, e, eng->signals, NULL, NULL, NULL, NULL);
		break;
	case RC_EV_EXIT:
		dispatch(eng, e, eng->exits, NULL, NULL, NULL, NULL);
		break;
	case RC_EV_SUM:
		dispatch(eng, e, eng->sums, NULL, NULL, NULL, NULL);
		break;
	case RC_EV_FOUND:	/* the model's alone (above) */
		break;
	}
	procs_apply(&eng->procs, e);
	if (eng->timeline) {
		const struct rc_proc *p = procs_get(&eng->procs, e->pid);
		timeline_add(eng->timeline, e, quoted, p ? p->leader : 0);
	}
	e->quoted = NULL;
}

void engine_finish(struct rc_engine *eng, struct rc_findings *out)
{
	procs_flush_output(&eng->procs);
	for (size_t i = 0; i < rc_nrules; i++)
		if (eng->states[i] && rc_rules[i].ops->finish)
			rc_rules[i].ops->finish(eng->states[i], &eng->ctx, out);
	const struct rc_proc *root = eng->procs.nprocs ? procs_get(&eng->procs, eng->procs.root) : NULL;
	eng->no_outcome = eng->may_be_excerpt && eng->seq && !(root && root->ended) &&
			  !procs_any_failed(&eng->procs);
}

void engine_release(struct rc_engine *eng)
{
	for (size_t i = 0; i < rc_nrules; i++) {
		if (!eng->states[i])
			continue;
		if (rc_rules[i].ops->release)
			rc_rules[i].ops->release(eng->states[i]);
		free(eng->states[i]);
	}
	free(eng->states);
	free(eng->hooks);
	free(eng->by_call);
	free(eng->conds);
	procs_release(&eng->procs);
	lookup_release(&eng->lookup);
	memset(eng, 0, sizeof(*eng));
}
