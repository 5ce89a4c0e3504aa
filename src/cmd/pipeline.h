/* run and attach: what capture (capture/capture.h) leaves to its user.
 * The trace's events go to the rules' engine; a process about to die of a
 * fatal signal is unwound in place (crash/live.c), its core written when
 * --core-out asks, and the crash rules judge it at once, while its memory
 * can be read. After the session the two sets of findings become one. */
#ifndef RC_CMD_PIPELINE_H
#define RC_CMD_PIPELINE_H

#include "capture/session.h"
#include "crash/crash.h"
#include "report/finding.h"
#include "report/model.h"
#include "rules/engine.h"
#include "util/hmap.h"

struct pipeline {
	struct rc_engine eng;
	struct rc_crash crash;		/* the first crash caught; signo 0: none */
	struct rc_findings crash_findings;
	struct rc_report_crash crash_part;	/* the report's view of CRASH */
	const char *core_out;		/* or NULL */
	uint64_t rules;			/* the rules run (rule_pick) */
	/* Each thread's last fault delivered to a handler (tid -> struct
	 * pipeline_fault): a fatal signal that re-raises it is that fault. */
	struct hmap faults;
	/* Kept for a report drawn on a time axis (pipeline_keep_timeline). */
	struct rc_timeline timeline;
	bool has_timeline;
};

/* RULES: the trace and crash rules to run (rule_pick; RC_RULES_ALL). */
void pipeline_init(struct pipeline *p, const char *core_out, uint64_t rules);
/* Record the events a timeline draws (report_format_timed): the engine
 * feeds it, and pipeline_timeline() gives it to the report. */
void pipeline_keep_timeline(struct pipeline *p);
const struct rc_timeline *pipeline_timeline(const struct pipeline *p);
/* Point SO's callbacks and process model at P. */
void pipeline_wire(struct pipeline *p, struct session_opts *so);
/* After the session: the findings into OUT (from findings_init), the crash
 * rules' first (findings_prepend), and the crash as the report shows it. */
void pipeline_finish(struct pipeline *p, struct rc_findings *out);
/* After pipeline_finish: what the capture of RES could not keep, as
 * capture-incomplete's finding in OUT (when P's rules have it). */
void pipeline_capture_losses(const struct pipeline *p, const struct session_result *res, struct rc_findings *out);
/* The crash for the report, or NULL when none was caught. */
const struct rc_report_crash *pipeline_crash(const struct pipeline *p);
void pipeline_release(struct pipeline *p);

/* The crash rules' findings (from a crash caught alive) rank first, before
 * the trace rules' ranked ones: they name the cause of the fatal signal
 * that `crashed` reports, which becomes their consequence (findings_link,
 * against PROCS). Moves them out of CRASH. */
void findings_prepend(struct rc_findings *findings, struct rc_findings *crash, const struct rc_procs *procs);

#endif
