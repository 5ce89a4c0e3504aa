/* The trace-rule interface. A rule is streaming: on_event updates bounded
 * state (keyed aggregates with caps, top-N lists), finish emits findings.
 * Memory must not grow with the length of the trace.
 *
 * Rules see the process model as it was when the call was made (see
 * event/procs.h) and never see text: E->line is evidence to quote only.
 * What the trace does not show of the machine they ask ctx->lookup, never
 * the file system themselves.
 */
#ifndef RC_RULES_RULE_H
#define RC_RULES_RULE_H

#include <stddef.h>
#include <stdint.h>

#include "event/event.h"
#include "event/procs.h"
#include "event/call-summary.h"
#include "event/loss.h"
#include "lookup/lookup.h"
#include "rules/finding.h"

struct rc_ctx {
	const struct rc_procs *procs;
	/* What the input carried; rules that need times or durations stay
	 * quiet (or say less) without them. */
	bool has_time;		/* absolute or relative timestamps */
	bool has_duration;	/* -T */
	double first_ts, last_ts;
	/* The latest timestamp of any event so far, the one being dispatched
	 * included (-1 none): not last_ts, since the calls a log flushes at
	 * its end carry their start times, older than the last line. */
	double max_ts;
	uint64_t nevents;
	/* What the machine says now, the only way a rule learns anything of
	 * the file system or the users (lookup/lookup.h). */
	const struct rc_lookup *lookup;
};

/* What a rule reads: the engine calls its on_event for these events and
 * for no others, so that a rule pays nothing for the calls that are not
 * its business. The calls are decided by number once, in engine_init,
 * and the dynamic kinds (failed, with a path, blocked) per event by the
 * engine, not by every rule. A rule still checks what it needs of an
 * event it is given: the declaration may be wider than its interest,
 * never narrower. */
enum {
	RC_READS_SIGNALS = 1u << 0,	/* RC_EV_SIGNAL */
	RC_READS_EXITS = 1u << 1,	/* RC_EV_EXIT */
	RC_READS_CALLS = 1u << 2,	/* every call */
	RC_READS_FAILED = 1u << 3,	/* every call with an errno (interrupted ones too) */
	RC_READS_PATHS = 1u << 4,	/* every call with a non-empty path (as resolved) */
	RC_READS_BLOCKED = 1u << 5,	/* every call still blocked when the trace ended */
	RC_READS_SUMS = 1u << 6,	/* RC_EV_SUM: like calls summed (event.h) */
};

struct rc_rule_reads {
	unsigned events;	/* RC_READS_* */
	unsigned long long classes;	/* and the calls of any of these CL_* classes */
	unsigned tclasses;	/* ... of any of these TC_* trace classes */
	const long *calls;	/* ... these SYS_* numbers, up to a -1 */
	bool (*call)(long nr);	/* ... and those for which this says true */
	/* ... and every call while one of these size_t fields of the rule's
	 * state (offsetof, up to a SIZE_MAX) is not 0: a rule that needs
	 * every call only while it holds something (a list being tried, a
	 * refused call not yet followed up) is not called for the others the
	 * rest of the time. The engine reads the fields before each call. */
	const size_t *calls_while;
};

struct rc_rule_ops {
	size_t state_size;	/* zeroed before init */
	void (*init)(void *state);
	void (*on_event)(void *state, const struct rc_event *e, const struct rc_ctx *ctx);
	struct rc_rule_reads reads;	/* what on_event is given; nothing when empty */
	void (*finish)(void *state, const struct rc_ctx *ctx, struct rc_findings *out);
	void (*release)(void *state);
};

/* What a rule judges (rules.def says where its code is). A bit set: a
 * rule may judge both a trace and a crash. */
enum rc_rule_source {
	RC_RULE_TRACE = 1,
	/* A crash, from a core or caught alive (crash/rules.c runs them). */
	RC_RULE_CRASH = 2,
	/* Both, in two halves: bad-file-mapping reads traces and cores. */
	RC_RULE_TRACE_CRASH = RC_RULE_TRACE | RC_RULE_CRASH,
	/* Said of the input as a whole: what the capture could not keep
	 * (run, attach), a log's strace -c tables. No event or crash
	 * reaches it; the diagnosis adds its finding
	 * (capture_incomplete_finding, call_summary_finding). */
	RC_RULE_CAPTURE = 4,
};

/* What the eBPF capture could not keep (capture/bpf/bpf.h's counts, and
 * records not well formed), for capture-incomplete. */
struct capture_counts {
	uint64_t records, entries, follows, bad;
	/* watch: events its recorder dropped from an incident's window
	 * before their time (the ring's memory cap). */
	uint64_t window;
	/* watch: seconds of the window in which calls were not recorded
	 * (above its --max-call-rate, MAX_CALL_RATE; watch/budget.h). */
	double unrecorded, max_call_rate;
	/* Whose records the full ring buffer refused, most first. */
	struct rc_loss who[RC_LOSSES_KEPT];
	size_t nwho;
};
/* capture-incomplete's finding, appended to OUT (after the ranking: it
 * is about the trace, not the program), when any count is not 0; and on
 * each finding of OUT about a thread that lost records, a line saying it
 * may rest on part of what the thread did. */
void capture_incomplete_finding(struct rc_findings *out, const struct capture_counts *n);
/* call-summary's finding for the strace -c tables a log held (event/
 * summary.h), appended to OUT after the ranking, when it has rows. */
void call_summary_finding(struct rc_findings *out, const struct rc_call_summary *s);

struct rc_rule {
	const char *id;
	enum rc_rule_source source;
	enum rc_severity severity;	/* default severity of its findings */
	const char *doc;		/* one line, for --help and docs/rules.md */
	/* A trace or capture rule's ops; NULL for a crash rule, whose
	 * judgement crash/rules.c runs. */
	const struct rc_rule_ops *ops;
};

/* The registry, in rules/rules.def order. */
extern const struct rc_rule rc_rules[];
extern const size_t rc_nrules;

const struct rc_rule *rule_find(const char *id);

/* A choice of rules, as --rules makes it: bit I stands for rc_rules[I]
 * (rules.def holds at most 64, registry.c checks). A rule left out is not
 * run at all: the report is as if it did not exist, so what it would have
 * explained is judged by the others (an exit status then stands as its
 * own cause). */
#define RC_RULES_ALL (~(uint64_t)0)
static inline bool rule_picked(uint64_t rules, const struct rc_rule *r)
{
	return (rules >> (size_t)(r - rc_rules)) & 1;
}
/* EXPR, given to option OPT ("--rules"), in strace's qualifier syntax:
 * "ID,ID" runs only these, "!ID,ID" all but these. Returns 0 with *RULES
 * set, or -1 with ERR saying why (an unknown id, an empty one). */
struct strbuf;
int rule_pick(const char *opt, const char *expr, uint64_t *rules, struct strbuf *err);

/* Declarations of the trace and capture rules' ops, rc_rule_<name>_ops. */
#define RULE_OPS_RC_RULE_TRACE(name) extern const struct rc_rule_ops rc_rule_##name##_ops;
#define RULE_OPS_RC_RULE_TRACE_CRASH(name) RULE_OPS_RC_RULE_TRACE(name)
#define RULE_OPS_RC_RULE_CAPTURE(name) RULE_OPS_RC_RULE_TRACE(name)
#define RULE_OPS_RC_RULE_CRASH(name)
#define RULE(name, id, source, severity, doc) RULE_OPS_##source(name)
#include "rules/rules.def"
#undef RULE

#endif
