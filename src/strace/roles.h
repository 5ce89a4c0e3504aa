/* Syscall facts from strace's argument text, each argument read by its
 * role (event/syscalls.def), filled into struct rc_event: the same facts
 * the capture's decoders give from registers and memory.
 *
 * Calls no rule needs (mprotect, rt_sigaction...) have no decoder: the
 * parser then never looks at their arguments, which is most of the speed.
 */
#ifndef RC_STRACE_ROLES_H
#define RC_STRACE_ROLES_H

#include <stdbool.h>
#include <stddef.h>

#include "event/event.h"
#include "event/syscalls.h"
#include "strace/args.h"

/* Everything the parser knows about one call besides its arguments. */
struct call_text {
	struct span args;	/* between the parentheses */
	bool complete;		/* the closing parenthesis was seen */
	const char *ret_hint;	/* -y decoration of a returned fd, decoded */
};

/* Fill E's argument facts. E's name, nr, ret, err, ts... are already set. */
void facts_fill(struct rc_event *e, const struct rc_syscall *sc, const struct call_text *ct,
		struct arena *a);

/* Read the argument facts the parser left in E (none left: nothing to
 * do), their strings into A, which must live as long as E is used: the
 * pump's finish (event/pump.h), in the thread that feeds the rules. */
void strace_event_facts(struct rc_event *e, struct arena *a);

#endif
