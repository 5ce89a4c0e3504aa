/* strace text -> events.
 *
 * Reads strace 6.x/7.x output made with any of -f, -ff (a LOG.PID set),
 * -t/-tt/-ttt/-r, -T, -y/-yy, -s N, -x/-X, -N, -a, from files or stdin,
 * including pasted terminal sessions where program output and strace's own
 * messages are mixed in. <unfinished ...>/<... resumed> halves are joined
 * into one event. Memory does not grow with the length of the log.
 *
 * Conventions beyond event.h's field comments:
 *  - open/openat/openat2/creat/socket have no fd argument: their fd_shown is
 *    what the -y decoration of the returned fd says ("= 3</etc/x>");
 *  - accept/accept4 and fcntl's F_DUPFD put the new fd in fd2; dup2/dup3
 *    the target fd;
 *  - exit/exit_group (ret_known false) and wait4 carry the status in
 *    exit_code, wait4 a terminating signal in signo;
 *  - "--- stopped by SIGTSTP ---" is a signal event without siginfo;
 *  - a terminal log's first process prints no pid until it has a child:
 *    its events keep pid 0 throughout, later "[pid N]" lines of it included;
 *  - a call whose start is missing (the log began mid-call) is an event
 *    with its return and duration but no argument facts.
 */
#ifndef RC_STRACE_PARSER_H
#define RC_STRACE_PARSER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event/event.h"
#include "util/arena.h"
#include "strace/summary.h"
#include "util/strbuf.h"

struct rc_syscall;

struct strace_parser;

struct strace_stats {
	uint64_t lines;		/* every input line */
	uint64_t events;	/* events produced */
	uint64_t skipped;	/* lines that were not trace lines (program output...) */
	uint64_t strace_messages;	/* "strace: Process N attached" and the like */
	uint64_t unmatched;	/* unfinished calls never resumed, resumed never started */
	uint64_t frames;	/* strace -k's stack lines */
	uint64_t summary_lines;	/* lines of strace -c tables (strace_parser_summary) */
};

/* Open FILES (N of them; "-" is stdin). Several files named LOG.PID are an
 * -ff set: each file's pid comes from its name and events are merged by
 * timestamp when the logs have them. Returns 0, or -1 with a message in
 * ERR (e.g. "cannot open 'x': No such file or directory"). */
int strace_parser_open(struct strace_parser **out, const char *const *files, size_t n,
		       struct strbuf *err);

/* Parse from a memory buffer (tests and fuzzing). */
struct strace_parser *strace_parser_from_buffer(const char *data, size_t len);

/* The next event into E. Returns 1 with an event, 0 at the end, or -1 with
 * a message in ERR when the input cannot be read. E's pointers are valid
 * until the next call. */
int strace_parser_next(struct strace_parser *p, struct rc_event *e, struct strbuf *err);

/* The reading of a call's arguments the parser left for the thread that
 * feeds the rules (reading them is a third of the parser's work). It
 * points at nothing but its event's line, so the pump's copy of the
 * event's strings is all it needs. */
struct strace_left {
	const struct rc_syscall *sc;	/* the call; NULL: nothing left */
	/* Where its argument text and its return's -y decoration (RET_LEN
	 * 0: none) lie in the event's line. */
	size_t args_at, args_len;
	size_t ret_at, ret_len;
	bool complete;		/* the closing parenthesis was seen */
	bool elided;		/* strace left some of the arguments out */
};

/* The parser's work item for the pump (event/pump.h): an event, and what
 * the parser left to read of it for the pump's finish. */
struct strace_work {
	struct rc_event ev;	/* first: the pump feeds the item as its event */
	struct strace_left left;
};

/* The pump's source over P (ITEM a struct strace_work): the next event
 * as strace_parser_next gives it, its argument facts left in the item
 * while LEAVE; on -1, what went wrong is strace_parser_error's. The item
 * owns its event's stack (strace -k's frames): whoever feeds it drops
 * that reference (stack_unref), as the pump does. */
int strace_parser_pump(void *p, void *item, bool leave);
/* The pump's finish of a struct strace_work: the argument facts left,
 * read into its event, their strings into A. */
void strace_work_finish(void *item, struct arena *a);
const char *strace_parser_error(const struct strace_parser *p);

const struct strace_stats *strace_parser_stats(const struct strace_parser *p);
/* The strace -c tables the logs held, added up by call (no rows: none). */
const struct strace_summary *strace_parser_summary(const struct strace_parser *p);
void strace_parser_free(struct strace_parser *p);

#endif
