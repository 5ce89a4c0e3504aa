/* The call-level facts both sources need (see facts.h). */
#include "event/facts.h"

#include <fcntl.h>
#include <limits.h>

void event_raw_arg_facts(struct rc_event *e, const struct rc_syscall *sc, const uint64_t args[RC_SC_MAX_ARGS])
{
	if (!sc)
		return;
	for (unsigned i = 0; i < sc->nroles; i++) {
		switch (sc->roles[i]) {
		case ROLE_FD:
			e->fd = (int)args[i];
			break;
		case ROLE_FD2:
			e->fd2 = (int)args[i];
			break;
		case ROLE_DIRFD:
			e->dirfd = (int)args[i];
			break;
		default:
			break;
		}
	}
}

void event_call_facts(struct rc_event *e, const struct rc_syscall *sc, bool ret_known, long long ret, int err)
{
	bool ok = ret_known && err == 0;

	if (!sc)
		return;
	if ((sc->classes & CL_EMPTY_PATH_FD) && e->path && !e->path[0] && e->dirfd >= 0) {
		e->fd = e->dirfd;
		e->fd_hint = e->dir_hint;
	}
	if (sc->classes & CL_CREATES)
		e->flags = O_CREAT | O_WRONLY | O_TRUNC;
	if (sc->classes & CL_ACCEPT)
		e->fd2 = ok && ret >= 0 && ret <= INT_MAX ? (int)ret : -1;
	if (e->len == 0 && ret_known && ret > 0 &&
	    (syscall_has_role(sc, ROLE_IOV_IN) || syscall_has_role(sc, ROLE_IOV_OUT)))
		e->len = (uint64_t)ret;
}
