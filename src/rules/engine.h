/* The engine: feeds events to the process model and every trace rule,
 * then collects and ranks their findings. One engine per analysis. */
#ifndef RC_RULES_ENGINE_H
#define RC_RULES_ENGINE_H

#include "event/event.h"
#include "event/procs.h"
#include "event/timeline.h"
#include "report/finding.h"
#include "rules/rule.h"

struct rc_engine {
	struct rc_procs procs;
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
	/* Set by the command: the input may be an excerpt of a longer trace
	 * (a log, pasted lines), which need not show how the program ended. */
	bool may_be_excerpt;
	/* Set by engine_finish: an excerpt showed no outcome (the first
	 * process did not end, none failed), so its unrecovered failures were
	 * judged as errors; the report says so. */
	bool no_outcome;
	/* Set by the command for a report drawn on a time axis (html,
	 * perfetto): every event is offered to it once the rules and the
	 * model have seen it. NULL: none is kept. */
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
/* E is modified: seq is assigned and its path resolved. */
void engine_feed(struct rc_engine *eng, struct rc_event *e);
/* Run every rule's finish, rank the findings into OUT and link each
 * consequence to its cause (findings_link). */
void engine_finish(struct rc_engine *eng, struct rc_findings *out);
void engine_release(struct rc_engine *eng);

/* Order FINDINGS most important first (rules/rank.c); NO_OUTCOME: the
 * trace shows no outcome, and unrecovered failures count as a failed
 * run's. Sets each finding's effective severity and rank. */
void rank_findings(struct rc_findings *findings, const struct rc_procs *procs, bool no_outcome);

/* Link every consequence to its cause (rules/causes.c): the program's
 * echo of a failure, the exit status that followed it, a fatal signal a
 * crash rule explains, a supervisor's signal after its child failed. Then
 * order FINDINGS as the report lists them: each cause, in rank order,
 * followed by its consequences. A cause takes the highest severity among
 * its consequences. May be called again on a list that gained findings,
 * as long as their ranks were set. */
void findings_link(struct rc_findings *findings, const struct rc_procs *procs);

/* What the eBPF capture could not keep (capture/bpf/bpf.h's counts, and
 * records not well formed), for capture-incomplete. */
struct capture_counts {
	uint64_t records, entries, follows, bad;
};
/* capture-incomplete's finding, appended to OUT (after the ranking: it
 * is about the trace, not the program), when any count is not 0. */
void capture_incomplete_finding(struct rc_findings *out, const struct capture_counts *n);

#endif
