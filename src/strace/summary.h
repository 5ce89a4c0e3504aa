/* The tables strace -c (and -C, -w, -S, -U) prints: per system call, its
 * calls, its failures and its time. Many users paste such a table, not
 * a trace: it has no paths, no addresses and no order, but it says where
 * a program's system calls went and how many failed.
 *
 * The parser feeds every line it could not read as a trace line here
 * (strace/parser.c). A table begins with its header ("% time  seconds
 * usecs/call  calls  errors syscall", or the columns -U chose), then a
 * line of dashes that gives each column's width; each row is read by
 * those columns, so that an empty "errors" is read as none. Rows of
 * several tables (one per personality, or pasted twice) are added up by
 * call. Input is untrusted: at most STRACE_SUMMARY_MAX_ROWS calls are
 * kept, and a line that does not fit its table ends it. */
#ifndef RC_STRACE_SUMMARY_H
#define RC_STRACE_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event/call-summary.h"

#define STRACE_SUMMARY_MAX_ROWS 1024
#define STRACE_SUMMARY_MAX_COLS 12

enum strace_summary_col {
	SUM_COL_OTHER,		/* read, not kept (usecs/call, longest...) */
	SUM_COL_PERCENT,
	SUM_COL_SECONDS,
	SUM_COL_CALLS,
	SUM_COL_ERRORS,
	SUM_COL_NAME,
};

struct strace_summary {
	struct rc_call_summary sum;	/* the rows read, added up by call */
	uint64_t lines;		/* lines that were part of a table */

	/* The table being read. */
	enum { SUM_NONE, SUM_HEADER, SUM_ROWS } state;
	int ncols;
	enum strace_summary_col col[STRACE_SUMMARY_MAX_COLS];
	size_t start[STRACE_SUMMARY_MAX_COLS], end[STRACE_SUMMARY_MAX_COLS];
	bool has_seconds;
};

void strace_summary_init(struct strace_summary *s);
/* Whether LINE (LEN bytes, no newline) is part of a table: its header,
 * its line of dashes, a row, or its total. */
bool strace_summary_line(struct strace_summary *s, const char *line, size_t len);
void strace_summary_release(struct strace_summary *s);

#endif
