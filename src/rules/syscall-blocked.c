/* syscall-blocked: a system call refused to the process as a whole, by a
 * policy or for want of privilege, rather than by a file's permissions.
 *
 * Which refusals qualify. The kernel says EACCES when an object's
 * permission bits refuse (inode_permission), and EPERM when the process
 * may not do the thing at all (capable() failing) or when an object's
 * owner or attributes forbid a change (chmod of another's file, unlink in
 * a sticky directory, a signal to another user's process). So EPERM says
 * "blocked" only from calls where no object's owner or attributes can be
 * the reason:
 *  - calls that make a new task (clone, clone3, fork, vfork): without the
 *    namespace flags, which need CAP_SYS_ADMIN, only a policy refuses
 *    them. Docker's older default profile answered EPERM for clone3, and
 *    glibc 2.34 and later then cannot start threads (it falls back to
 *    clone only on ENOSYS): Python's "can't start new thread";
 *  - calls that only look at a file (stat, access, readlink families,
 *    event_call_looks): a file's permissions answer them with EACCES,
 *    never EPERM, so EPERM there is a policy's (an old profile without
 *    statx: `ls: cannot access 'x': Operation not permitted`);
 *  - the privileged facilities of event_call_privilege (mount, unshare,
 *    bpf, perf_event_open, ptrace, keyctl, membarrier, io_uring...): a
 *    process lacking the capability they need, or under a policy (a
 *    seccomp filter, a container profile, a sysctl such as
 *    kernel.unprivileged_bpf_disabled, a security module), gets EPERM.
 *  - EACCES from those privileged facilities that name no file, where a
 *    setting or a security module says no (refusals.h: an ICMP echo
 *    socket outside net.ipv4.ping_group_range, a perf event above
 *    kernel.perf_event_paranoid): no permission bits can be the reason.
 * ENOSYS from any call means the call is not there: this kernel lacks it,
 * or a filter answers so (newer container profiles refuse calls they do
 * not know with ENOSYS, so that programs fall back).
 *  - setrlimit, and prlimit64 of the caller's own limits: raising a hard
 *    limit needs CAP_SYS_RESOURCE, and RLIMIT_NOFILE's may not pass the
 *    sysctl fs.nr_open even with it. Container runtimes raise the limits
 *    a container's configuration asks for (crun and runc, RLIMIT_NOFILE
 *    to 1048576 by default under podman): in a nested container or a
 *    sandbox without the capability, the container cannot start. Live,
 *    the capture reads the hard limit in force and the capabilities the
 *    thread had, so the finding says which of the two it was.
 * Everything else is left to the rules of the object refused (EPERM on a
 * path is permission-denied's, on a connect connect-failed's), and calls
 * whose EPERM is the credentials model at work (setuid, setsid, kill,
 * prlimit64 of another process) are left alone: a process may become or
 * signal only what it owns.
 *
 * What qualifies is not always a cause. A refused call followed by the
 * call it replaces is a fallback, as the program meant it: clone3 then
 * clone, statx then newfstatat on the same path, faccessat2 then
 * faccessat. Calls of one job share a name (the newer one adds a version
 * number, clone3, openat2, or a suffix, close_range), and look-ups share
 * the path: a later success of either kind, or of the same call, makes
 * the refusal a note. A thread that went on for many calls coped with it.
 *
 * Live (run, attach) the capture reads Seccomp and Seccomp_filters from
 * /proc when a call fails with EPERM or ENOSYS, less the filter `run`
 * installs itself (which only stops on calls, never refuses one): the
 * finding then says whether a filter of the program's environment was in
 * place, and without one names the capability or the kernel instead. A
 * log has no such facts and says what is likely.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#include "event/refusals.h"
#include "gen/tables.h"
#include "event/syscalls.h"
#include "rules/call-kinds.h"
#include "rules/finding.h"
#include "rules/proc-view.h"
#include "rules/rule.h"
#include "util/strbuf.h"
#include "util/util.h"

#define RULE_ID "syscall-blocked"
/* (process, call, errno) records kept; more are counted. */
#define MAX_RECS 64
/* A fallback follows its refusal within this many calls of the thread. */
#define FALLBACK_WINDOW 16

/* Namespace flags: clone with them needs CAP_SYS_ADMIN. */
#define NS_FLAGS                                                                                   \
	(CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET |  \
	 CLONE_NEWCGROUP)

struct rec {
	int pid, tid;		/* the process (leader), the thread that was refused */
	long nr;
	int err;
	char *name;
	bool minus_one;		/* its name is strace's for number -1 (numbered_minus_one) */
	char *path;		/* the file a look-up named; NULL none */
	int fd;			/* or its fd; -1 none */
	long long flags;	/* clone's */
	const char *cap;	/* the capability the call needs; NULL none */
	const char *setting;
	int seccomp_mode;	/* as /proc showed it live; -1 unknown */
	int seccomp_filters;
	unsigned long long count;
	uint64_t nsys;		/* the thread's calls before the last refusal */
	char *first_line, *last_line;
	uint64_t first_seq, seq;
	double ts;
	bool recovered;
	char *fallback;		/* the call that did the job instead */
	/* A limit it could not set (setrlimit, prlimit64): its resource (-1:
	 * not one), the limits asked for, and as read live the hard limit in
	 * force and the thread's capabilities. */
	int resource;
	bool has_asked, has_hard, has_caps;
	uint64_t asked[2], hard, caps;
};

struct state {
	struct rec recs[MAX_RECS];
	size_t n;
	unsigned long long dropped;
};

static void release(void *p)
{
	struct state *s = p;

	for (size_t i = 0; i < s->n; i++) {
		free(s->recs[i].name);
		free(s->recs[i].path);
		free(s->recs[i].first_line);
		free(s->recs[i].last_line);
		free(s->recs[i].fallback);
	}
}

/* A call strace shows as number -1 ("syscall_18446744073709551615",
 * "syscall_0xffffffffffffffff"): when a seccomp filter refuses a call,
 * kernels before 4.8 left its number at -1, so the tracer could not name
 * it. Its EPERM is the filter's. */
static bool numbered_minus_one(const struct rc_event *e)
{
	return e->name && (strcmp(e->name, "syscall_18446744073709551615") == 0 ||
			   strcmp(e->name, "syscall_0xffffffffffffffff") == 0 || strcmp(e->name, "syscall_-1") == 0);
}

/* The name of a call without its version number: clone3 -> clone,
 * faccessat2 -> faccessat; its length. */
static size_t stem_len(const char *name)
{
	size_t n = strlen(name);

	while (n > 1 && name[n - 1] >= '0' && name[n - 1] <= '9')
		n--;
	return n;
}

/* The newer version of a call (clone3, faccessat2, fchmodat2:
 * since Linux 5.1 numbered alike everywhere, from 424) whose older one is
 * still there: a container profile that lists the calls it allows by
 * name and predates it refuses it, and older ones answer EPERM, where the
 * older call would have been allowed. */
#define NEWER_CALLS_FROM 424
static bool newer_version(const struct rc_event *e)
{
	/* An open's EPERM may be its file's (O_NOATIME, an immutable file):
	 * permission-denied's. */
	if (e->nr < NEWER_CALLS_FROM || !e->name || syscall_is(e->nr, CL_OPEN))
		return false;
	size_t n = stem_len(e->name);
	return n < strlen(e->name) && syscall_by_name(e->name, n) != NULL;
}

/* Whether E's refusal is one this rule explains (see the top); *CAP and
 * *SETTING are set to what the call needs. */
static bool qualifies(const struct rc_event *e, const char **cap, const char **setting)
{
	/* Most failures are neither (a path search's ENOENT): the table
	 * only for these. */
	if (e->err != ENOSYS && e->err != EPERM && e->err != EACCES)
		return false;
	const struct event_privilege *pr = event_call_privilege(e->nr);

	*cap = pr ? pr->cap : NULL;
	*setting = pr ? pr->setting : NULL;
	/* EACCES from a call that names no file: a setting's or a security
	 * module's (refusals.h). */
	if (e->err == EACCES)
		return pr && pr->eacces;
	if (e->err == ENOSYS)
		return true;
	if (numbered_minus_one(e) || newer_version(e))
		return true;
	if (rule_is_fork(e->nr)) {
		if (e->flags & NS_FLAGS) {
			*cap = "CAP_SYS_ADMIN";
			*setting = e->flags & CLONE_NEWUSER ? "user.max_user_namespaces" : NULL;
		}
		return true;
	}
	/* Another process's limits: whether we may is the credentials'. */
	if (e->resource >= 0 && e->rlimit_pid > 0 && e->rlimit_pid != e->pid)
		return false;
	if (e->resource >= 0 && (e->nr == SYS_setrlimit || e->nr == SYS_prlimit64)) {
		*cap = "CAP_SYS_RESOURCE";
		*setting = e->resource == RLIMIT_NOFILE ? "fs.nr_open" : NULL;
		return true;
	}
	return pr || event_call_looks(e->nr);
}

/* NEWER and OLDER name calls of one job: clone3 and clone, openat2 and
 * openat, close_range and close, epoll_create1 and epoll_create. */
static bool same_job(const char *newer, const char *older)
{
	size_t a = stem_len(newer), b = stem_len(older);

	if (a == b && strncmp(newer, older, a) == 0)
		return true;
	return b < a && strncmp(newer, older, b) == 0 && newer[b] == '_';
}

/* The success E ends the refusal R: a retry, a fallback in the same
 * thread soon after, or a look-up of the same file that worked. */
static bool ends(const struct rec *r, const struct rc_event *e, const struct rc_ctx *ctx, int leader)
{
	if (r->recovered || r->pid != leader)
		return false;
	if (e->nr == r->nr)
		return true;
	if (event_call_looks(r->nr) && event_call_looks(e->nr) &&
	    ((r->path && r->path[0] && e->path && strcmp(r->path, e->path) == 0) ||
	     (r->fd >= 0 && (!r->path || !r->path[0]) && e->fd == r->fd)))
		return true;
	if (e->pid != r->tid || !e->name || !same_job(r->name, e->name))
		return false;
	const struct rc_proc *p = procs_get(ctx->procs, e->pid);
	return p && p->nsyscalls <= r->nsys + FALLBACK_WINDOW;
}

static void on_success(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	int leader = rule_leader(ctx, e->pid);

	for (size_t i = 0; i < s->n; i++) {
		struct rec *r = &s->recs[i];
		if (!ends(r, e, ctx, leader))
			continue;
		r->recovered = true;
		if (e->nr != r->nr && e->name)
			r->fallback = xstrdup(e->name);
	}
}

static void on_event(void *p, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct state *s = p;
	const char *cap, *setting;

	if (e->kind != RC_EV_SYSCALL || e->interrupted)
		return;
	if (!e->err) {
		if (s->n && e->ret_known)
			on_success(s, e, ctx);
		return;
	}
	if (!qualifies(e, &cap, &setting))
		return;
	int leader = rule_leader(ctx, e->pid);
	struct rec *r = NULL;
	for (size_t i = 0; i < s->n && !r; i++)
		if (s->recs[i].pid == leader && s->recs[i].nr == e->nr && s->recs[i].err == e->err)
			r = &s->recs[i];
	if (!r) {
		if (s->n == MAX_RECS) {
			s->dropped++;
			return;
		}
		r = &s->recs[s->n++];
		memset(r, 0, sizeof(*r));
		r->pid = leader;
		r->nr = e->nr;
		r->err = e->err;
		r->name = xstrdup(e->name ? e->name : "?");
		r->minus_one = numbered_minus_one(e);
		r->path = e->path ? xstrdup(e->path) : NULL;
		r->fd = e->fd;
		r->flags = e->flags;
		r->cap = cap;
		r->setting = setting;
		r->first_line = rule_line_short(e);
		r->first_seq = e->seq;
	} else {
		free(r->last_line);
		r->last_line = rule_line_short(e);
	}
	/* The facts of the thread refused, else of its process. */
	const struct rc_proc *t = procs_get(ctx->procs, e->pid), *l = procs_leader(ctx->procs, e->pid);
	const struct rc_proc *facts = t && t->seccomp_mode >= 0 ? t : l;
	r->seccomp_mode = facts ? facts->seccomp_mode : -1;
	r->seccomp_filters = facts ? facts->seccomp_filters : -1;
	r->tid = e->pid;
	r->nsys = t ? t->nsyscalls : 0;
	r->count++;
	r->seq = e->seq;
	r->ts = e->ts;
	r->recovered = false;
	free(r->fallback);
	r->fallback = NULL;
	r->resource = e->resource;
	r->has_asked = e->has_rlim_new;
	memcpy(r->asked, e->rlim_new, sizeof(r->asked));
	r->has_hard = e->live && e->live->has_rlim_hard;
	r->hard = r->has_hard ? e->live->rlim_hard : 0;
	r->has_caps = e->live && e->live->has_caps;
	r->caps = r->has_caps ? e->live->caps : 0;
}

/* Whether the process had the capability R's call needs, as read live:
 * 1 it had it, 0 it lacked it, -1 unknown (a log; no capability named). */
static int had_cap(const struct rec *r)
{
	long long bit;

	if (!r->has_caps || !r->cap || !xlat_value(&rc_xlat_caps, r->cap, strlen(r->cap), &bit) || bit < 0 ||
	    bit > 63)
		return -1;
	return (r->caps >> bit) & 1 ? 1 : 0;
}

/* What the call was for, when that says more than its name. */
static const char *purpose(const struct rec *r)
{
	if (!rule_is_fork(r->nr))
		return NULL;
	return r->flags & CLONE_THREAD ? "a thread could not be started: " : "a process could not be started: ";
}

/* Live facts: a filter of the program's environment was in place. */
static bool filtered(const struct rec *r)
{
	return r->seccomp_mode == 2 && r->seccomp_filters > 0;
}

/* Live facts: no filter but possibly ours. */
static bool unfiltered(const struct rec *r)
{
	return r->seccomp_mode == 0 || (r->seccomp_mode == 2 && r->seccomp_filters == 0);
}

static void add_limit(struct strbuf *sb, uint64_t v)
{
	if (v == UINT64_MAX)
		strbuf_adds(sb, "unlimited");
	else
		strbuf_addf(sb, "%llu", (unsigned long long)v);
}

/* Whether R raised a hard limit: asked for more than the one in force
 * (unknown facts: taken as yes, the usual reason). */
static bool raised_hard(const struct rec *r)
{
	return !r->has_asked || !r->has_hard || r->asked[1] > r->hard;
}

/* "its RLIMIT_NOFILE limit to 1048576 (prlimit64)". */
static void limit_words(struct strbuf *sb, const struct rec *r)
{
	const char *name = xlat_name(&rc_xlat_resources, r->resource);

	strbuf_addf(sb, "its %s ", name ? name : "resource");
	if (r->has_asked && r->asked[0] != r->asked[1]) {
		strbuf_adds(sb, "limits to ");
		add_limit(sb, r->asked[0]);
		strbuf_adds(sb, " (soft) and ");
		add_limit(sb, r->asked[1]);
		strbuf_adds(sb, " (hard)");
	} else if (r->has_asked) {
		strbuf_adds(sb, "limit to ");
		add_limit(sb, r->asked[1]);
	} else {
		strbuf_adds(sb, "limit");
	}
	strbuf_addf(sb, " (%s -> EPERM)", r->name);
}

/* A limit refused: which, and why, as far as the live facts tell. */
static void summarize_limit(struct strbuf *sb, const struct rec *r)
{
	bool lacks = had_cap(r) == 0;

	strbuf_adds(sb, "the process could not set ");
	limit_words(sb, r);
	if (!raised_hard(r)) {
		strbuf_adds(sb, ", though it did not raise the hard limit: a seccomp filter or a security module "
			    "refused the call");
		return;
	}
	strbuf_adds(sb, ": ");
	if (r->has_hard) {
		strbuf_adds(sb, "the hard limit in force was ");
		add_limit(sb, r->hard);
		strbuf_adds(sb, ", and ");
	}
	if (lacks)
		strbuf_adds(sb, "raising a hard limit needs CAP_SYS_RESOURCE, which the process lacked");
	else if (had_cap(r) == 1 && r->resource == RLIMIT_NOFILE)
		strbuf_adds(sb, "the process had CAP_SYS_RESOURCE, so the sysctl fs.nr_open is below what it "
			    "asked for");
	else
		strbuf_adds(sb, "raising a hard limit needs CAP_SYS_RESOURCE");
}

static void summarize(struct strbuf *sb, const struct rec *r)
{
	const char *why = r->recovered ? NULL : purpose(r);

	if (r->resource >= 0) {
		summarize_limit(sb, r);
		goto tail;
	}

	if (why)
		strbuf_adds(sb, why);
	const struct event_privilege *pr = event_call_privilege(r->nr);
	if (r->err == EACCES && pr && pr->eacces)
		strbuf_addf(sb, "'%s' was refused (EACCES), though it names no file: %s", r->name, pr->eacces);
	else if (r->err == ENOSYS && unfiltered(r))
		strbuf_addf(sb, "this kernel does not have '%s' (ENOSYS)", r->name);
	else if (r->err == ENOSYS)
		strbuf_addf(sb, "'%s' is not available (ENOSYS): %s", r->name,
			    filtered(r) ? "a seccomp filter in place answers so" :
					  "a seccomp filter or container profile answers so, or the kernel lacks it");
	else if (filtered(r) && r->cap && had_cap(r) == 1)
		strbuf_addf(sb, "'%s' was refused (EPERM) by a seccomp filter: the process had %s", r->name, r->cap);
	else if (filtered(r) && r->cap && had_cap(r) == 0)
		strbuf_addf(sb, "'%s' was refused (EPERM): the process lacked %s (a seccomp filter was in place too)",
			    r->name, r->cap);
	else if (filtered(r) && r->cap)
		strbuf_addf(sb, "'%s' was refused (EPERM) by a seccomp filter, or for want of %s", r->name, r->cap);
	else if (filtered(r))
		strbuf_addf(sb, "'%s' was refused (EPERM) by a seccomp filter", r->name);
	else if (unfiltered(r) && r->cap && had_cap(r) == 1)
		strbuf_addf(sb, "'%s' was refused (EPERM) though the process had %s and no seccomp filter was in "
			    "place: a security module (AppArmor, SELinux) or a kernel setting forbids it", r->name, r->cap);
	else if (unfiltered(r) && r->cap)
		strbuf_addf(sb, "'%s' was refused (EPERM): the process lacks %s", r->name, r->cap);
	else if (unfiltered(r))
		strbuf_addf(sb, "'%s' was refused (EPERM) with no seccomp filter in place: a security module or "
			    "a kernel setting forbids it", r->name);
	else if (r->cap)
		strbuf_addf(sb, "'%s' was refused (EPERM): the process lacks %s, or a seccomp filter or "
			    "container profile blocks it", r->name, r->cap);
	else
		strbuf_addf(sb, "'%s' was refused (EPERM): a seccomp filter or container profile blocks it",
			    r->name);
tail:
	if (r->count > 1)
		strbuf_addf(sb, " (%llu times)", r->count);
	if (r->recovered && r->fallback)
		strbuf_addf(sb, ", then '%s' did the job", r->fallback);
	else if (r->recovered)
		strbuf_adds(sb, ", later it worked");
}

/* What to change in the policy: the runtime's seccomp profile. */
static void add_profile_advice(struct strbuf *sb, const struct rec *r)
{
	if (r->minus_one)
		strbuf_adds(sb, "strace shows the call as number -1, as the kernel left a call a seccomp filter "
			    "refused (before Linux 4.8): trace it again on a newer kernel, or tell it by its "
			    "arguments, to know which; then allow that call");
	else
		strbuf_addf(sb, "allow '%s'", r->name);
	strbuf_adds(sb, " in the seccomp profile of what starts the program: docker or podman run "
		    "--security-opt seccomp=PROFILE.json (a current Docker's default profile; "
		    "--security-opt seccomp=unconfined to test), Kubernetes' securityContext.seccompProfile, "
		    "SystemCallFilter= in a systemd unit");
	if (r->err == EPERM)
		strbuf_adds(sb, ". A profile should refuse calls it does not know with ENOSYS, not EPERM: "
			    "programs fall back from ENOSYS to older calls (glibc from clone3 to clone)");
}

static void add_cap_advice(struct strbuf *sb, const struct rec *r)
{
	strbuf_addf(sb, "run it with %s (docker run --cap-add %s, AmbientCapabilities=%s in a systemd "
		    "unit), or as a user that has it", r->cap, r->cap + 4, r->cap);
	if (r->setting)
		strbuf_addf(sb, "; for unprivileged users the sysctl %s also decides", r->setting);
}

/* A limit refused: lower what is asked for, or grant what raising it
 * needs. */
static void add_limit_advice(struct strbuf *sb, const struct rec *r)
{
	const char *name = xlat_name(&rc_xlat_resources, r->resource);
	bool nofile = r->resource == RLIMIT_NOFILE;

	if (!raised_hard(r)) {
		add_profile_advice(sb, r);
		return;
	}
	strbuf_addf(sb, "ask for no more than the hard limit in force (ulimit -H%s", nofile ? "n" : "a");
	if (nofile)
		strbuf_adds(sb, "; for a container: podman or docker run --ulimit nofile=N:N, or "
			    "default_ulimits in containers.conf");
	strbuf_addf(sb, "), or raise %s's hard limit where the program is started (LimitNOFILE= in a "
		    "systemd unit, limits.conf), or run it with CAP_SYS_RESOURCE", name ? name : "the");
	if (nofile)
		strbuf_adds(sb, "; even with it, the hard limit cannot pass the sysctl fs.nr_open");
}

static void advise(struct rc_finding *f, const struct rec *r)
{
	struct strbuf sb = STRBUF_INIT;

	if (r->resource >= 0 && !r->recovered) {
		add_limit_advice(&sb, r);
	} else if (r->recovered && r->fallback) {
		strbuf_addf(&sb, "the program did without '%s' as it is meant to, with '%s': nothing to change",
			    r->name, r->fallback);
	} else if (r->recovered) {
		strbuf_addf(&sb, "a later '%s' worked: nothing to change", r->name);
	} else if (r->err == EACCES && event_call_privilege(r->nr) && event_call_privilege(r->nr)->eacces_fix) {
		strbuf_adds(&sb, event_call_privilege(r->nr)->eacces_fix);
	} else if (r->err == ENOSYS && unfiltered(r)) {
		strbuf_addf(&sb, "the kernel (uname -r) is too old for '%s' or built without it: run it on a "
			    "newer kernel, or use a build of the program that does without it", r->name);
	} else if (r->err == ENOSYS) {
		add_profile_advice(&sb, r);
		if (!filtered(r))
			strbuf_adds(&sb, "; outside a container, the kernel (uname -r) may be too old for it");
	} else if (unfiltered(r) && r->cap && had_cap(r) == 1) {
		strbuf_addf(&sb, "the capability is there, so a policy refused '%s': check the security module's "
			    "log (journalctl -k or dmesg: apparmor=\"DENIED\", avc: denied; aa-status), and the "
			    "container's profile (docker or podman run --security-opt apparmor=unconfined to test)",
			    r->name);
		if (r->setting)
			strbuf_addf(&sb, "; the sysctl %s also decides", r->setting);
	} else if (filtered(r) && r->cap && had_cap(r) == 0) {
		add_cap_advice(&sb, r);
	} else if (filtered(r) && r->cap && had_cap(r) == 1) {
		add_profile_advice(&sb, r);
	} else if (unfiltered(r)) {
		if (r->cap)
			add_cap_advice(&sb, r);
		else
			strbuf_addf(&sb, "nothing filtered '%s': check the security module's log (AppArmor, "
				    "SELinux: journalctl -k, /var/log/audit)", r->name);
		if (!r->cap && r->setting)
			strbuf_addf(&sb, " and the sysctl %s", r->setting);
	} else {
		add_profile_advice(&sb, r);
		if (r->cap) {
			strbuf_adds(&sb, "; or, if no profile is in the way, ");
			add_cap_advice(&sb, r);
		} else if (r->setting) {
			strbuf_addf(&sb, "; or, if no profile is in the way, the sysctl %s forbids it", r->setting);
		}
	}
	finding_set(&f->advice, sb.buf);
	strbuf_release(&sb);
}

static void emit(struct rc_findings *out, const struct rc_ctx *ctx, const struct rec *r)
{
	struct strbuf sb = STRBUF_INIT;

	summarize(&sb, r);
	bool kept_going = rule_kept_going(ctx, r->tid, r->nsys);
	enum rc_severity sev = r->recovered ? RC_SEV_INFO : kept_going ? RC_SEV_WARNING : RC_SEV_ERROR;
	struct rc_finding *f = rule_finding(out, RULE_ID, sev, RC_SEV_INFO, &sb);
	rule_finding_pid(f, r->pid, r->tid);
	finding_set(&f->syscall, r->name);
	f->err = r->err;
	if (r->path && r->path[0])
		finding_set(&f->path, r->path);
	f->count = (long long)r->count;
	rule_evidence(f, r->first_line);
	rule_evidence(f, r->last_line);
	if (r->seccomp_mode >= 0)
		finding_setf(&f->message, "seccomp %s, with %d filter%s that %s not rootcause's",
			     r->seccomp_mode == 2 ? "filter mode" : r->seccomp_mode == 1 ? "strict mode" : "off",
			     MAX(r->seccomp_filters, 0), r->seccomp_filters == 1 ? "" : "s",
			     r->seccomp_filters == 1 ? "is" : "are");
	advise(f, r);
	f->seq = r->seq;
	f->ts = r->ts;
	f->unrecovered = !r->recovered;
	finding_echo_name(f, r->name);
	/* The error's own text ("Operation not permitted", "Function not
	 * implemented"), which perror and Python's OSError print. */
	finding_echo_word(f, strerror(r->err));
	if (rule_is_fork(r->nr))
		finding_echo_word(f, r->flags & CLONE_THREAD ? "thread" : "fork");
	/* "setrlimit `RLIMIT_NOFILE`: Operation not permitted" (crun), "failed
	 * to set the NOFILE resource limit" (prlimit): glibc's setrlimit() is
	 * prlimit64 underneath, and programs name the function they called;
	 * the resource without its prefix is in both. */
	const char *res = r->resource >= 0 ? xlat_name(&rc_xlat_resources, r->resource) : NULL;
	if (r->resource >= 0)
		finding_echo_name(f, "setrlimit");
	if (res)
		finding_echo_word(f, strncmp(res, "RLIMIT_", 7) == 0 ? res + 7 : res);
}

static void finish(void *p, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = p;

	for (size_t i = 0; i < s->n; i++)
		emit(out, ctx, &s->recs[i]);
	if (s->dropped)
		rule_dropped(out, RULE_ID, RC_SEV_WARNING, RC_SEV_INFO, s->dropped,
			     "%llu more calls were refused with EPERM or ENOSYS, in processes or calls not tracked",
			     "see the findings above: the same policy applies");
}

static const size_t reads_while[] = { offsetof(struct state, n), SIZE_MAX };

const struct rc_rule_ops rc_rule_syscall_blocked_ops = {
	.state_size = sizeof(struct state),
	.release = release,
	.on_event = on_event,
	.reads = {
		/* Every failure; and while a refused call is held, any call
		 * that works may be its fallback (on_success). */
		.events = RC_READS_FAILED,
		.calls_while = reads_while,
	},
	.finish = finish,
};
