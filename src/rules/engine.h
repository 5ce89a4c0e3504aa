/* The engine: feeds events to the process model and every trace rule,
 * then collects and ranks their findings. One engine per analysis. */
#ifndef RC_RULES_ENGINE_H
#define RC_RULES_ENGINE_H

#include "event/event.h"
#include "event/procs.h"
#include "report/finding.h"
#include "rules/rule.h"

struct rc_engine {
	struct rc_procs procs;
	struct rc_ctx ctx;
	void **states;		/* per rule in rc_rules order; NULL when not a trace rule */
	uint64_t seq;
};

void engine_init(struct rc_engine *eng);
/* E is modified: seq is assigned and its path resolved. */
void engine_feed(struct rc_engine *eng, struct rc_event *e);
/* Run every rule's finish and rank the findings into OUT. */
void engine_finish(struct rc_engine *eng, struct rc_findings *out);
void engine_release(struct rc_engine *eng);

/* Order FINDINGS most important first (rules/rank.c). */
void rank_findings(struct rc_findings *findings, const struct rc_procs *procs);

#endif
