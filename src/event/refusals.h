/* What some system calls mean for whoever is refused them: every source
 * and rule reads the same facts here (the capture, to stop on the calls
 * the rules read; syscall-blocked, to say why a call was refused).
 *
 * The kernel answers EPERM for "this process may not do this at all"
 * (capable() failing) and EACCES for "the permission bits of this object
 * say no" (inode_permission()). A call that acts on no file, fd or process
 * of its own (mount, unshare, bpf, ptrace's attach aside) can be refused
 * with EPERM for only two reasons: the process lacks the capability the
 * call needs, or a policy forbids the call (a seccomp filter, a container
 * profile, a kernel setting, a security module). These are listed with
 * that capability and the setting that also gates them for unprivileged
 * users, as their man pages' EPERM entries say. A few name no file yet
 * are refused with EACCES by a setting or a security module: an ICMP
 * echo socket outside net.ipv4.ping_group_range, a perf event above
 * kernel.perf_event_paranoid.
 */
#ifndef RC_EVENT_REFUSALS_H
#define RC_EVENT_REFUSALS_H

#include <stdbool.h>

struct event_privilege {
	long nr;		/* SYS_x */
	const char *cap;	/* the capability it needs; NULL: none, so only
				 * a policy refuses it (keyctl, membarrier) */
	const char *setting;	/* a sysctl that refuses it to unprivileged
				 * users; NULL: none */
	/* What refuses it with EACCES, though it names no file whose
	 * permission bits could (a setting, a security module); NULL:
	 * EACCES from it is no refusal of the call. */
	const char *eacces;
	const char *eacces_fix;	/* what to change then */
};

/* The privileged facility NR is, or NULL when it is not one of them. */
const struct event_privilege *event_call_privilege(long nr);

/* Calls that only look at a file (the stat, access and readlink
 * families): the file's permissions answer them with EACCES (search
 * permission on the way), never EPERM. */
bool event_call_looks(long nr);

#endif
