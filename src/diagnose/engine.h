/* The engine: feeds events to the process model and every trace rule,
 * each rule only the events it reads (rule.h), then collects their
 * findings. One engine per diagnosis (diagnose.h). */
#ifndef RC_DIAGNOSE_ENGINE_H
#define RC_DIAGNOSE_ENGINE_H

#include "event/event.h"
#include "event/procs.h"
#include "event/timeline.h"
#include "rules/finding.h"
#include "rules/rule.h"

struct rc_engine {
	struct rc_procs procs;
	/* The rules' live look-ups (ctx.lookup): this machine's, unless the
	 * diagnosis says otherwise. */
	struct rc_lookup lookup;
	struct rc_ctx ctx;
	void **states;		/* per rule in rc_rules order; NULL when not a trace rule */
	/* The rules that look at events, in order, and what each reads. */
	struct engine_hook {
		void (*on_event)(void *state, const struct rc_event *e, const struct rc_ctx *ctx);
		void *state;
		const struct rc_rule_reads *reads;
	} *hooks;
	size_t nhooks;
	/* Who is given an event (engine_dispatch_build): bit sets of hooks,
	 * NWORDS words each, in hook order. Per call number below NCALLS
	 * (and one more for any other number), the hooks that read that call
	 * whatever it did; then those that read every failed call, every
	 * call with a path, every blocked call, signals and exits. */
	size_t nwords;
	long ncalls;
	uint64_t *by_call;
	uint64_t *failed, *paths, *blocked, *signals, *exits, *sums;
	/* The hooks that read every call while a field of their state is
	 * not 0 (calls_while), and the bit set they make for one call. */
	struct engine_cond {
		size_t hook;
		const char *state;
		const size_t *fields;
	} *conds;
	size_t nconds;
	uint64_t *while_set;
	uint64_t seq;
	/* The input may be an excerpt of a longer trace (a log, pasted
	 * lines), which need not show how the program ended. */
	bool may_be_excerpt;
	/* Set by engine_finish: an excerpt showed no outcome (the first
	 * process did not end, none failed), so its unrecovered failures were
	 * judged as errors; the report says so. */
	bool no_outcome;
	/* For a report drawn on a time axis (html, perfetto): every event
	 * is offered to it once the rules and the model have seen it. NULL:
	 * none is kept. */
	struct rc_timeline *timeline;
};

void engine_init(struct rc_engine *eng);
/* engine_init with only the trace rules RULES picks (rule_pick). */
void engine_init_rules(struct rc_engine *eng, uint64_t rules);
/* (Re)builds the dispatch sets from the hooks' declarations; engine_init
 * does it. A test that swaps hooks calls it again. */
void engine_dispatch_build(struct rc_engine *eng);
/* READS names the call NR, whatever the call did (numbers outside the
 * table: ask with -1). */
bool rule_reads_call(const struct rc_rule_reads *reads, long nr);
/* E is modified: seq is assigned and its path resolved (an RC_EV_FOUND
 * goes to the process model alone, unnumbered). */
void engine_feed(struct rc_engine *eng, struct rc_event *e);
/* Run every rule's finish, their findings into OUT, unranked; sets
 * no_outcome. */
void engine_finish(struct rc_engine *eng, struct rc_findings *out);
void engine_release(struct rc_engine *eng);

#endif
