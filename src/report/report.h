/* The report: what was analysed, the processes, and the ranked findings;
 * written as text for people or as the JSON of docs/report-schema.md. */
#ifndef RC_REPORT_REPORT_H
#define RC_REPORT_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "event/procs.h"
#include "event/timeline.h"
#include "report/model.h"
#include "util/strbuf.h"

struct rc_report {
	const char *kind;		/* "log", "run", "attach", "core", "stack", "watch" */
	/* watch: what made the incident ("pid 12 exited with 1", "thread 13
	 * of pid 12 inside futex for 5.2 s"), and the window it diagnosed;
	 * NULL otherwise. */
	const char *trigger;
	double window;
	const char *const *command;	/* NULL-terminated, or NULL */
	int pid;			/* attach/stack target; 0 none */
	/* attach to a cgroup: its path from the cgroup root, and how many
	 * processes it had then; NULL none. */
	const char *cgroup;
	size_t cgroup_procs;
	const char *const *files;	/* NULL-terminated, or NULL */
	uint64_t lines;			/* input lines read (logs) */
	uint64_t skipped_lines;		/* lines that were not trace lines */
	uint64_t events;
	uint64_t summed;		/* of them, calls summed in the kernel (eBPF) */
	double seconds;			/* how long run/attach traced; 0 unknown */
	const char *backend;		/* run, attach: "ptrace" or "ebpf"; NULL otherwise */
	/* Why not eBPF (auto fell back to ptrace), and why a crash would
	 * have had no stacks (eBPF without ptrace): one line each, or NULL. */
	const char *backend_fallback;
	const char *no_stacks;
	/* Call stacks (where in the code): how many the capture took, and
	 * the time the program was stopped for them; or why it took none
	 * (one line; NULL when it did, or for a log). */
	uint64_t stacks_taken;
	double stacks_seconds;
	uint64_t stacks_skipped;	/* eBPF: not copied, the ring buffer busy */
	const char *no_call_stacks;
	/* The rules --rules left out, NULL-terminated; NULL when all ran.
	 * RULES_ONLY: the ones it ran, when they are fewer (the text report
	 * names those instead). */
	const char *const *rules_off;
	const char *const *rules_only;
	const struct rc_procs *procs;	/* may be NULL */
	const struct rc_report_findings *findings;	/* each cause, then its consequences */
	/* The trace shows no outcome (an excerpt): unrecovered failures were
	 * judged as errors. */
	bool no_outcome;
	/* A log recorded on another machine (or on this one, since changed):
	 * why it is taken for one, and nothing was looked up here; NULL
	 * otherwise. */
	const char *elsewhere;
	/* core, stack, a crash that run or attach caught: may be NULL;
	 * crash_report_fill() makes it. */
	const struct rc_report_crash *crash;
	/* The events kept to draw (html, perfetto); NULL when none were. */
	const struct rc_timeline *timeline;
	/* run, attach: the containers (cgroups other than rootcause's) the
	 * traced processes ran in, as they were when looked at live. */
	const struct rc_report_container *containers;
	size_t ncontainers;
};

enum rc_format {
	RC_FORMAT_TEXT,
	RC_FORMAT_JSON,
	RC_FORMAT_HTML,		/* one self-contained page: verdict, processes, timeline, stacks */
	RC_FORMAT_PERFETTO,	/* Chrome trace-event JSON, for ui.perfetto.dev */
};

/* The formats that draw the trace on a time axis: the engine keeps a
 * timeline for them. */
static inline bool report_format_timed(enum rc_format f)
{
	return f == RC_FORMAT_HTML || f == RC_FORMAT_PERFETTO;
}

/* COLOR: ANSI colours (a terminal). VERBOSE: also list notes (info),
 * which are otherwise only counted. */
void report_text(const struct rc_report *r, struct strbuf *out, bool color, bool verbose);
void report_json(const struct rc_report *r, struct strbuf *out);
void report_html(const struct rc_report *r, struct strbuf *out);
void report_perfetto(const struct rc_report *r, struct strbuf *out);
/* The text report's opening lines (what was analysed, how the first
 * process ended, the crash), and its closing tally ("1 cause (...), 2
 * consequences"), uncoloured: the html report says them too. */
void report_text_head(const struct rc_report *r, struct strbuf *out);
void report_text_tally(const struct rc_report_findings *list, struct strbuf *out, bool verbose);
/* Where finding F (with a pid) happened, as the text report says it:
 * "in pid 12 'python3 app.py': openat -> ENOENT, 3 times". */
void report_finding_where(const struct rc_report *r, const struct rc_report_finding *f, struct strbuf *out);
/* "read from this machine now, not from the trace: '/srv/app'": the
 * paths finding F gives as they are now (F->now, at least one). */
void report_finding_now(const struct rc_report_finding *f, struct strbuf *out);
/* F's signature (report/signature.c): the same for one failure on every
 * run and machine. What it was made of is put in MATERIAL (NULL: not). */
uint64_t report_signature(const struct rc_report_finding *f, struct strbuf *material);
/* Its parts: OBJECT with what changes from run to run taken out, and the
 * code location of stack ST, added to OUT. */
void signature_object(const char *object, struct strbuf *out);
void signature_location(const struct rc_stack *st, struct strbuf *out);
/* Stack S (with frames) on one line: the program's own frames, innermost
 * first, then in parentheses the library frame that made the call
 * ("app.py:42 in load_voice <- server.py:9 in main (in
 * torch/serialization.py:251 in __init__)"). */
void report_stack_line(const struct rc_stack *s, struct strbuf *out);
/* All of S, a frame a line, each line begun with INDENT. */
void report_stack_lines(const struct rc_stack *s, const char *indent, struct strbuf *out);
/* ARGV (ARGC strings) joined by spaces, cut at MAX bytes with "...". */
void report_add_argv(struct strbuf *sb, char *const *argv, int argc, size_t max);

/* The timeline's events that are F's evidence (report/link.c): OUT[I] is
 * the event evidence line I quotes, NULL for a line that is no kept
 * event (a frame, program output, an event past the timeline's caps).
 * Returns how many are not NULL. */
size_t report_evidence_events(const struct rc_report *r, const struct rc_report_finding *f,
			      const struct rc_tl_event **out);
/* Every finding's evidence on the timeline, found once for a writer:
 * EV[I] is report_evidence_events' answer for finding I, and SET holds
 * each of those events by seq (the quoted calls a writer draws). */
struct report_links {
	const struct rc_tl_event *(*ev)[RC_EVIDENCE_MAX];
	struct hmap set;		/* seq -> const struct rc_tl_event* */
};
void report_links_make(const struct rc_report *r, struct report_links *l);
void report_links_release(struct report_links *l);
/* The events T's row draws, in the order they came: its marked ones,
 * and its quoted ones that are evidence (in L). *N of them, in an
 * array the caller frees. */
const struct rc_tl_event **report_drawn_events(const struct rc_tl_thread *t, const struct report_links *l,
					       size_t *n);

/* What a drawn report names process PID by: the basename of its argv[0]
 * as the model has it, else of its exe; NULL when neither is known. */
const char *report_process_name(const struct rc_report *r, int pid);

/* A finding's id, as the JSON report has it: "f1" for the first. */
void report_finding_id(size_t i, char *buf, size_t n);

/* The crash parts (report/crash.c): the signal and process lines, the
 * stacks and registers (text), and "crash", "threads", "modules",
 * "mappings" (JSON). */
struct json;
void report_crash_header(const struct rc_report_crash *c, struct strbuf *out);
void report_crash_text(const struct rc_report_crash *c, struct strbuf *out, bool verbose);
/* One thread's stack as the text report prints it: Python frames above
 * the evaluator call that runs them, recursion folded; ALL: every frame. */
void report_thread_text(const struct rc_report_thread *t, struct strbuf *out, bool all);
/* One entry of a thread's merged stack, innermost first: a Python frame
 * (PY), or native frame number INDEX (FRAME), which with REPEAT > 1 is a
 * folded recursion of PERIOD frames from it, REPEAT times. */
struct rc_report_stack_item {
	const struct rc_report_pyframe *py;
	const struct rc_report_frame *frame;
	size_t index;
	uint32_t repeat, period;
};
/* Return false to stop the walk. */
typedef bool (*report_stack_fn)(void *arg, const struct rc_report_stack_item *it);
/* T's merged stack, innermost first, as the text report prints it: each
 * run of Python frames just above the evaluator call that runs it (or
 * all of them first, when no frame is known to run Python). */
void report_thread_walk(const struct rc_report_thread *t, report_stack_fn fn, void *arg);
void report_crash_json(const struct rc_report_crash *c, struct json *j);
/* "errno": its name ("ENOENT"), or its number when it has none. */
void report_json_errno(struct json *j, int err);
/* One Python frame as docs/report-schema.md has it: {"function", "file",
 * "line"}, each when known (a thread's, a call's stack). */
void report_json_pyframe(struct json *j, const char *function, const char *file, int line);
/* One frame as gdb prints it, without the number:
 * "0x401136 in parse_header (crash.c:12) from /tmp/crash". */
void report_frame_str(const struct rc_report_frame *f, struct strbuf *out);

/* True when a cause (a finding that is no other's consequence) has the
 * effective severity error. */
bool report_has_errors(const struct rc_report *r);

#endif
