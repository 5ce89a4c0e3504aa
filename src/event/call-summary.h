/* A count of system calls by name, as strace -c tables give one: calls,
 * failures and time per call, with no paths, addresses or order. The
 * strace parser reads them (strace/summary.h), and the call-summary rule
 * says what they show (rules/call-summary.c). */
#ifndef RC_EVENT_CALL_SUMMARY_H
#define RC_EVENT_CALL_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#define RC_CALL_NAME_MAX 40

struct rc_call_count {
	char name[RC_CALL_NAME_MAX];
	uint64_t calls, errors;
	double seconds;		/* < 0: the table had no time */
};

struct rc_call_summary {
	struct rc_call_count *rows;	/* by first appearance */
	size_t nrows, alloc;
	struct rc_call_count total;	/* the sum of the rows */
	unsigned tables;	/* tables read */
	uint64_t dropped;	/* calls of names past the most kept */
};

#endif
