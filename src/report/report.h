/* The report: what was analysed, the processes, and the ranked findings;
 * written as text for people or as the JSON of docs/report-schema.md. */
#ifndef RC_REPORT_REPORT_H
#define RC_REPORT_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "event/procs.h"
#include "report/finding.h"
#include "report/model.h"
#include "util/strbuf.h"

struct rc_report {
	const char *kind;		/* "log", "run", "attach", "core", "stack" */
	const char *const *command;	/* NULL-terminated, or NULL */
	int pid;			/* attach/stack target; 0 none */
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
	const struct rc_procs *procs;	/* may be NULL */
	const struct rc_findings *findings;	/* as findings_link ordered them */
	/* The trace shows no outcome (an excerpt): unrecovered failures were
	 * judged as errors. */
	bool no_outcome;
	/* core, stack, a crash that run or attach caught: may be NULL;
	 * crash_report_fill() makes it. */
	const struct rc_report_crash *crash;
};

enum rc_format {
	RC_FORMAT_TEXT,
	RC_FORMAT_JSON,
};

/* COLOR: ANSI colours (a terminal). VERBOSE: also list notes (info),
 * which are otherwise only counted. */
void report_text(const struct rc_report *r, struct strbuf *out, bool color, bool verbose);
void report_json(const struct rc_report *r, struct strbuf *out);

/* The crash parts (report/crash.c): the signal and process lines, the
 * stacks and registers (text), and "crash", "threads", "modules",
 * "mappings" (JSON). */
struct json;
void report_crash_header(const struct rc_report_crash *c, struct strbuf *out);
void report_crash_text(const struct rc_report_crash *c, struct strbuf *out, bool verbose);
void report_crash_json(const struct rc_report_crash *c, struct json *j);
/* One frame as gdb prints it, without the number:
 * "0x401136 in parse_header (crash.c:12) from /tmp/crash". */
void report_frame_str(const struct rc_report_frame *f, struct strbuf *out);

/* True when a cause (a finding that is no other's consequence) has the
 * effective severity error. */
bool report_has_errors(const struct rc_report *r);

#endif
