#include "rules/engine.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

void engine_init(struct rc_engine *eng)
{
	memset(eng, 0, sizeof(*eng));
	procs_init(&eng->procs);
	eng->ctx.procs = &eng->procs;
	eng->ctx.first_ts = -1;
	eng->ctx.last_ts = -1;
	eng->states = xcalloc(rc_nrules, sizeof(void *));
	eng->hooks = xcalloc(rc_nrules, sizeof(*eng->hooks));
	for (size_t i = 0; i < rc_nrules; i++) {
		const struct rc_rule_ops *ops = rc_rules[i].ops;
		if (rc_rules[i].source != RC_RULE_TRACE || !ops)
			continue;
		eng->states[i] = xcalloc(1, ops->state_size ? ops->state_size : 1);
		if (ops->init)
			ops->init(eng->states[i]);
		if (ops->on_event) {
			eng->hooks[eng->nhooks].on_event = ops->on_event;
			eng->hooks[eng->nhooks++].state = eng->states[i];
		}
	}
}

void engine_feed(struct rc_engine *eng, struct rc_event *e)
{
	e->seq = ++eng->seq;
	if (e->ts >= 0) {
		eng->ctx.has_time = true;
		if (eng->ctx.first_ts < 0)
			eng->ctx.first_ts = e->ts;
		eng->ctx.last_ts = e->ts;
	}
	if (e->dur >= 0)
		eng->ctx.has_duration = true;
	eng->ctx.nevents = eng->seq;
	procs_resolve(&eng->procs, e);
	for (size_t i = 0; i < eng->nhooks; i++)
		eng->hooks[i].on_event(eng->hooks[i].state, e, &eng->ctx);
	procs_apply(&eng->procs, e);
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
	rank_findings(out, &eng->procs, eng->no_outcome);
	findings_link(out, &eng->procs);
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
	procs_release(&eng->procs);
	memset(eng, 0, sizeof(*eng));
}
