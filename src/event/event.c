#include "event/event.h"

#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>

#include "event/syscalls.h"
#include "util/util.h"

void event_clear(struct rc_event *e)
{
	/* Not the arrays at the end (half the struct): their counts are. */
	memset(e, 0, offsetof(struct rc_event, fds));
	e->nfds = 0;
	e->argc = 0;
	e->argv_truncated = false;
	e->nids = 0;
	e->ids_truncated = false;
	e->ts = -1;
	e->dur = -1;
	e->nr = -1;
	e->fd = -1;
	e->fd2 = -1;
	e->dirfd = RC_AT_FDCWD;
	e->offset = -1;
	e->st_size = -1;
	e->futex_op = -1;
	e->timeout_ms = -1;
	e->sa.port = -1;
	e->sockopt_level = -1;
	e->sockopt_name = -1;
	e->resource = -1;
}

bool event_futex_waits(const struct rc_event *e)
{
	if (syscall_is(e->nr, CL_FUTEX_WAITS))
		return true;
	switch (e->futex_op) {
	case FUTEX_WAIT:
	case FUTEX_WAIT_BITSET:
	case FUTEX_LOCK_PI:
#ifdef FUTEX_LOCK_PI2
	case FUTEX_LOCK_PI2:
#endif
	case FUTEX_WAIT_REQUEUE_PI:
		return true;
	default:
		return false;
	}
}

bool event_futex_wakes(const struct rc_event *e)
{
	switch (e->futex_op) {
	case FUTEX_UNLOCK_PI:
	case FUTEX_WAKE:
	case FUTEX_REQUEUE:
	case FUTEX_CMP_REQUEUE:
	case FUTEX_WAKE_OP:
	case FUTEX_WAKE_BITSET:
	case FUTEX_CMP_REQUEUE_PI:
		return e->ret_known && !e->err;
	default:
		return false;
	}
}

bool event_futex_woke(const struct rc_event *e)
{
	return event_futex_wakes(e) && (e->futex_op == FUTEX_UNLOCK_PI || e->ret > 0);
}

void event_fcntl_dup_facts(struct rc_event *e, long long cmd, bool ok, long long ret)
{
	if (cmd != F_DUPFD && cmd != F_DUPFD_CLOEXEC)
		return;
	e->fd2 = ok && ret >= 0 && ret <= INT_MAX ? (int)ret : -1;
	if (cmd == F_DUPFD_CLOEXEC)
		e->flags |= O_CLOEXEC;
}

void event_flock_facts(struct rc_event *e, long long op)
{
	e->lock_waits = !(op & LOCK_NB);
	op &= ~(long long)LOCK_NB;
	e->lock = op == LOCK_EX ? RC_LOCK_EXCL : op == LOCK_SH ? RC_LOCK_SHARED : op == LOCK_UN ? RC_LOCK_UNLOCK
									      : RC_LOCK_NONE;
}

void event_fcntl_lock_facts(struct rc_event *e, long long cmd, long long type)
{
	if (cmd != F_SETLK && cmd != F_SETLKW && cmd != F_OFD_SETLK && cmd != F_OFD_SETLKW)
		return;
	e->lock_waits = cmd == F_SETLKW || cmd == F_OFD_SETLKW;
	e->lock = type == F_WRLCK ? RC_LOCK_EXCL : type == F_RDLCK ? RC_LOCK_SHARED : type == F_UNLCK ? RC_LOCK_UNLOCK
										  : RC_LOCK_NONE;
}

const char *sockaddr_format(const struct rc_sockaddr *sa, char *buf, size_t size)
{
	const char *host = sa->host ? sa->host : "?";

	if (sa->family == AF_UNIX)
		snprintf(buf, size, "%s%s", sa->abstract ? "@" : "", host);
	else if (sa->family == AF_INET6 && sa->port >= 0)
		snprintf(buf, size, "[%s]:%d", host, sa->port);
	else if (sa->port >= 0)
		snprintf(buf, size, "%s:%d", host, sa->port);
	else
		snprintf(buf, size, "%s", host);
	return buf;
}

long long event_secs_to_ms(double sec)
{
	if (!(sec > 0))
		return 0;
	if (sec > 9e12)
		sec = 9e12;
	return (long long)(sec * 1000.0 + 0.5);
}

long long event_deadline_ms(const struct rc_event *e, double deadline)
{
	double rel;

	if (e->ts < 0)
		return -1;
	if (e->ts > 1e8) {
		rel = deadline - e->ts;
	} else {
		rel = fmod(deadline - e->ts, 900.0);
		if (rel < 0)
			rel += 900.0;
	}
	return event_secs_to_ms(rel);
}
