/* The process model's credentials (procs.h): whose permissions a
 * process's calls are checked against, and under which seccomp filters,
 * as the trace showed them or as a live capture read them. */
#include <sys/syscall.h>

#include "event/procs-internal.h"

/* The effective ids are what file access is checked against; getuid's
 * answer stands in for them only while they are unknown (real and
 * effective differ only in set-user-ID programs). */
void creds_apply(struct rc_procs *m, struct rc_proc *p, const struct rc_event *e)
{
	struct rc_proc *l = procs_leader(m, p->pid);
	struct rc_creds *c = l ? &l->creds : &p->creds;
	long nr = e->nr;
	bool uid_call = nr == SYS_setuid || nr == SYS_setreuid || nr == SYS_setresuid;
	bool gid_call = nr == SYS_setgid || nr == SYS_setregid || nr == SYS_setresgid;

	if (uid_call || gid_call) {
		/* setuid(id); setreuid(r, e) and setresuid(r, e, s): the second. */
		int i = nr == SYS_setuid || nr == SYS_setgid ? 0 : 1;
		if (e->nids > i && e->ids[i] >= 0) {
			if (uid_call)
				c->uid = e->ids[i];
			else
				c->gid = e->ids[i];
			c->live = false;
		}
	} else if (nr == SYS_setgroups || nr == SYS_getgroups) {
		if (nr == SYS_getgroups && e->nids == 0 && e->ret != 0)
			return;	/* getgroups(0, NULL) only counts them */
		c->ngroups = e->ids_truncated ? -1 : e->nids;
		for (int i = 0; i < e->nids && i < RC_PROC_MAX_GROUPS; i++)
			c->groups[i] = (unsigned)e->ids[i];
	} else if (nr == SYS_geteuid || (nr == SYS_getuid && c->uid < 0)) {
		c->uid = e->ret;
	} else if (nr == SYS_getegid || (nr == SYS_getgid && c->gid < 0)) {
		c->gid = e->ret;
	}
}

void procs_set_creds(struct rc_procs *m, int pid, const struct rc_creds *c)
{
	struct rc_proc *p = proc_get_or_add(m, pid);
	struct rc_proc *l = procs_leader(m, pid);

	(l ? l : p)->creds = *c;
}

void procs_set_seccomp(struct rc_procs *m, int pid, int mode, int filters)
{
	struct rc_proc *p = proc_get_or_add(m, pid);

	p->seccomp_mode = mode;
	p->seccomp_filters = filters;
}

const struct rc_creds *procs_creds(const struct rc_procs *m, int pid)
{
	const struct rc_proc *l = procs_leader(m, pid);

	return l ? &l->creds : NULL;
}
