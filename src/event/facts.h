/* The facts of a call that follow from what the call means, not from one
 * argument's value: every source fills the arguments' facts through their
 * roles, then calls event_call_facts, so that the rules see the same
 * event whichever source saw the call.
 */
#ifndef RC_EVENT_FACTS_H
#define RC_EVENT_FACTS_H

#include <stdbool.h>
#include <stdint.h>

#include "event/event.h"
#include "event/syscalls.h"

/* Completes E, a call of SC whose argument facts are set. RET_KNOWN, RET
 * and ERR are its outcome (a source may not have put them in E yet; a
 * call not yet returned has none). Safe to call again with the outcome
 * once it is known:
 * - an empty path with a dirfd (newfstatat(3, "", ..., AT_EMPTY_PATH),
 *   statx) is the dirfd's file: fd and fd_hint;
 * - creat always opens for writing, creating and truncating: flags;
 * - accept's new connection is fd2, -1 when it failed;
 * - an iovec call whose vectors were not shown moved what it returned: len.
 */
void event_call_facts(struct rc_event *e, const struct rc_syscall *sc, bool ret_known, long long ret, int err);

/* The facts a call's raw argument values ARGS (registers, a kernel
 * record) give by their roles, for a source that has them before it
 * prints or reads anything else: the fd (FD), the second fd (FD2) and the
 * dirfd (DIRFD). */
void event_raw_arg_facts(struct rc_event *e, const struct rc_syscall *sc, const uint64_t args[RC_SC_MAX_ARGS]);

#endif
