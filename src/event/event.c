#include "event/event.h"

#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "util/util.h"

void event_clear(struct rc_event *e)
{
	memset(e, 0, sizeof(*e));
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
