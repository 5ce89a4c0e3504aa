/* The diagnosis: from what a command saw to the findings its report
 * prints (DESIGN.md, "one pipeline").
 *
 * One per diagnosing command. It owns the rules' engine (the process
 * model, and each trace rule given the events it reads, in order), the
 * timeline a drawn report keeps, and the crash rules' findings about a
 * crash: one caught alive under run or attach, or read from a core. At
 * the end it ranks every rule's findings, links each consequence to its
 * cause, and hands the report the findings in the report's own terms
 * (report/model.h), the crash as the report shows it, and the processes.
 *
 * Every command does the same three things:
 *	diagnose_event()	each event of the trace, in order
 *	diagnose_crash()	a crash, when one was caught or read
 *	diagnose_finish()	once, into the report
 * and, for a capture that could not keep everything, diagnose_losses().
 * Where the events and the crash come from is the command's business: it
 * wires a capture's callbacks or a log's parser to the first two.
 */
#ifndef RC_DIAGNOSE_DIAGNOSE_H
#define RC_DIAGNOSE_DIAGNOSE_H

#include <stdbool.h>
#include <stdint.h>

#include "crash/crash.h"
#include "diagnose/engine.h"
#include "event/stack.h"
#include "event/timeline.h"
#include "report/model.h"
#include "report/report.h"
#include "rules/finding.h"
#include "rules/rule.h"
#include "util/hmap.h"

/* What is diagnosed. */
enum diagnose_input {
	/* A trace taken here (run, attach): look-ups go through each
	 * process's own view while it lives (lookup.h's LOOKUP_LIVE). */
	DIAGNOSE_LIVE,
	/* A log: an excerpt of a longer trace, maybe (pasted lines need not
	 * show how the program ended), and maybe recorded on another
	 * machine, whose files this one's are not (LOOKUP_ELSEWHERE). */
	DIAGNOSE_LOG,
	/* A crash dump: no trace. */
	DIAGNOSE_CORE,
};

struct diagnose_opts {
	uint64_t rules;		/* the rules run (rule_pick; RC_RULES_ALL) */
	enum diagnose_input input;
	/* Keep the events a report drawn on a time axis shows
	 * (report_format_timed). */
	bool timeline;
};

struct rc_diagnosis {
	struct rc_engine eng;
	uint64_t rules;
	enum diagnose_input input;
	/* A log's files, against this machine's (lookup_vantage_judge),
	 * from its first calls with a path, VANTAGE_LEFT more of them. */
	struct lookup_vantage vantage;
	unsigned vantage_left;
	struct rc_timeline timeline;
	bool has_timeline;
	/* Each thread's last fault delivered to a handler (tid -> struct
	 * fault): a fatal signal that raises it again is that fault. */
	struct hmap faults;
	const struct rc_crash *crash;		/* borrowed; NULL: none */
	struct rc_findings crash_findings;	/* the crash rules' */
	struct capture_counts losses;
	const struct rc_call_summary *summary;
	/* Each event's stack, by its seq (event/stack.h), for the findings
	 * that quote it; past MAX, dropped (and counted). */
	struct hmap stacks;
	struct stack_shelf shelf;	/* each distinct one once */
	uint64_t stacks_dropped;
	bool any_stack;		/* the trace had stacks at all */
	/* Why the source took no stacks (the command says); NULL: it did. */
	const char *no_stacks;
	/* What diagnose_finish made, for the report (which borrows them). */
	struct rc_report_findings findings;
	struct rc_report_crash crash_part;
	struct rc_report_container *containers;
	size_t ncontainers;
};

void diagnose_init(struct rc_diagnosis *d, const struct diagnose_opts *o);
/* Container C as the report shows it, into OUT (its strings its own,
 * no pids yet); freed by diagnose_container_release. */
void diagnose_container(const struct container *c, struct rc_report_container *out);
void diagnose_container_release(struct rc_report_container *c);
/* E, the next event of the trace (modified: numbered, its path resolved
 * against the process's cwd). */
void diagnose_event(struct rc_diagnosis *d, struct rc_event *e);
/* diagnose_event with D untyped, as the sources hand their events on: a
 * capture's on_event (capture/capture.h), a pump's feed (event/pump.h). */
void diagnose_feed(void *d, struct rc_event *e);
/* C, a crash: one caught alive (its memory readable now, which is when
 * the crash rules read it) or read from a core. A fatal signal that a
 * handler raised again after a fault the trace saw delivered is taken
 * for that fault (C's si_code and fault_addr, and C->reraised). D keeps
 * C until diagnose_release, to show it in the report; one crash per
 * diagnosis, the first. */
void diagnose_crash(struct rc_diagnosis *d, struct rc_crash *c);
/* The source takes no stacks, and WHY (static): the findings about a
 * call say so. */
void diagnose_no_stacks(struct rc_diagnosis *d, const char *why);
/* What the capture could not keep, for capture-incomplete's finding. */
void diagnose_losses(struct rc_diagnosis *d, const struct capture_counts *n);
/* A log's strace -c tables (kept by the caller until diagnose_finish),
 * for the call-summary finding. */
void diagnose_summary(struct rc_diagnosis *d, const struct rc_call_summary *s);
/* Runs every rule's finish, ranks and links the findings, and fills
 * REP's findings, processes, timeline, no_outcome, elsewhere and crash;
 * REP borrows them from D, which must outlive it. */
void diagnose_finish(struct rc_diagnosis *d, struct rc_report *rep);
void diagnose_release(struct rc_diagnosis *d);

/* The steps of diagnose_finish, for tests:
 *
 * Order FINDINGS most important first (diagnose/rank.c); NO_OUTCOME: the
 * trace shows no outcome, and unrecovered failures count as a failed
 * run's. Sets each finding's effective severity and rank. */
void rank_findings(struct rc_findings *findings, const struct rc_procs *procs, bool no_outcome);
/* Process PID, which met F's failure at SEQ, failed of it: the ranking's
 * judgement of each process a finding names (its own and its also).
 * *CULPRIT (may be NULL): the process whose failure it is, PID's or an
 * ancestor's (procs_failed). */
bool finding_failed_in(const struct rc_finding *f, const struct rc_procs *procs, int pid, uint64_t seq,
		       const struct rc_proc **culprit);
/* Link every consequence to its cause (diagnose/causes.c): the program's
 * echo of a failure, the exit status that followed it, a fatal signal a
 * crash rule explains, a supervisor's signal after its child failed. Then
 * order FINDINGS as the report lists them: each cause, in rank order,
 * followed by its consequences. A cause takes the highest severity among
 * its consequences. The ranks must be set. */
void findings_link(struct rc_findings *findings, const struct rc_procs *procs);
/* LIST, in the order findings_link left it (or as it is: each finding a
 * cause), as the report's findings (OUT); LIST is emptied, OUT is the
 * caller's to release (report_findings_release). */
void findings_for_report(struct rc_findings *list, struct rc_report_findings *out);

#endif
