/* The families of system calls several rules watch, by their classes in
 * event/syscalls.def. */
#ifndef RC_RULES_CALL_KINDS_H
#define RC_RULES_CALL_KINDS_H

#include <stdbool.h>

#include "event/syscalls.h"

/* open, openat, openat2 (creat is apart: it always creates). */
static inline bool rule_is_open(long nr)
{
	return syscall_is(nr, CL_OPEN) && !syscall_is(nr, CL_CREATES);
}

/* The calls that move a process into a directory: chdir, fchdir, chroot,
 * pivot_root. */
static inline bool rule_is_enter(long nr)
{
	return syscall_is(nr, CL_ENTER);
}

/* The calls that make a new process or thread. */
static inline bool rule_is_fork(long nr)
{
	return syscall_is(nr, CL_FORK);
}

/* poll and select: E->fds lists the fds waited on. */
static inline bool rule_is_poll(long nr)
{
	return syscall_is(nr, CL_POLL);
}

/* epoll waits: E->fds lists the fds that turned ready. */
static inline bool rule_is_epoll(long nr)
{
	return syscall_is(nr, CL_EPOLL);
}

/* Calls that move data through a connected socket: the first one after a
 * non-blocking connect tells how the connect ended. */
static inline bool rule_is_sock_io(long nr)
{
	return syscall_is(nr, CL_SOCK_IO);
}

#endif
