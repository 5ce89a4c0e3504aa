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
	struct span ret;	/* the -y decoration of a returned fd, from its
				 * '<' to the end of the return; p NULL: none */
};

/* Fill E's argument facts from CT, the text of its call SC; ELIDED:
 * strace left some of the arguments out (a data preview is then cut). E's
 * name, nr, ret, err, ts... are already set. Strings go into A, which
 * must live as long as E is used. */
void call_facts(struct rc_event *e, const struct rc_syscall *sc, const struct call_text *ct, bool elided,
		struct arena *a);

#endif
