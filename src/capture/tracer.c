/* The ptrace tracer (see tracer.h for the contract). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/seccomp.h>

#include "capture/seccomp.h"
#include "capture/spawn.h"
#include "capture/tracer.h"
#include "util/hmap.h"
#include "util/procfs.h"
#include "util/util.h"

/* glibc's <sys/ptrace.h> and <linux/ptrace.h> disagree on a few names;
 * these are the kernel's values for what glibc 2.36 may lack. */
#ifndef PTRACE_EVENT_STOP
#define PTRACE_EVENT_STOP 128
#endif

struct tracer {
	struct tracer_opts opts;
	const struct tracer_hooks *hooks;
	void *ctx;
	volatile sig_atomic_t *stop_flag;

	struct hmap tracees;	/* tid -> struct tracee * */
	unsigned long options;	/* PTRACE_O_* */
	bool use_seccomp;

	pid_t child;		/* tracer_spawn's command; 0 none */
	int child_status;	/* its wait status; -1 unknown */
	bool child_hidden;	/* no exec of it seen yet */
	struct spawn spawn;	/* its exec-error pipe, why it did not start */
	unsigned char *filter;	/* the seccomp filter's syscalls */
	bool every_call;	/* a tracee has a filter of its own: stop on all */
	bool no_syscall_info;	/* PTRACE_GET_SYSCALL_INFO is missing */
	long gap_ns;		/* moving average of the waits for a stop */
	uint64_t stops;
};

struct tracer *tracer_new(const struct tracer_opts *o, const struct tracer_hooks *h, void *ctx,
			  volatile sig_atomic_t *stop_flag)
{
	struct tracer *tr = xcalloc(1, sizeof(*tr));

	tr->opts = *o;
	tr->hooks = h;
	tr->ctx = ctx;
	tr->stop_flag = stop_flag;
	hmap_init(&tr->tracees);
	tr->child_status = -1;
	tr->spawn.errfd = -1;
	tr->options = PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEEXEC;
	if (o->follow)
		tr->options |= PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE;
	if (h && h->exiting)
		tr->options |= PTRACE_O_TRACEEXIT;
	return tr;
}

static struct tracee *find(struct tracer *tr, pid_t tid)
{
	void **slot = hmap_get_int(&tr->tracees, tid);
	return slot ? *slot : NULL;
}

/* The thread group of TID, from /proc: a new thread can report its first
 * stop before its creator's clone event tells us who made it. */
static pid_t read_tgid(pid_t tid)
{
	char buf[512];

	if (!procfs_status(tid, buf, sizeof(buf)))
		return tid;
	long tgid = procfs_status_long(buf, "\nTgid:");
	return tgid > 0 ? (pid_t)tgid : tid;
}

static struct tracee *add(struct tracer *tr, pid_t tid, pid_t tgid)
{
	bool created;
	void **slot = hmap_put_int(&tr->tracees, tid, &created);

	if (!created)
		return *slot;
	struct tracee *t = xcalloc(1, sizeof(*t));
	t->tid = tid;
	t->tgid = tgid > 0 ? tgid : read_tgid(tid);
	*slot = t;
	return t;
}

static void forget(struct tracer *tr, struct tracee *t)
{
	hmap_del_int(&tr->tracees, t->tid);
	if (tr->hooks->release)
		tr->hooks->release(tr->ctx, t);
	free(t);
}

static bool hidden(const struct tracer *tr, const struct tracee *t)
{
	return tr->child_hidden && t->tgid == tr->child;
}

/* Resume T after a stop: inside a call we always want its exit; outside,
 * a filter stops us at the next wanted entry by itself. */
static void resume(struct tracer *tr, struct tracee *t, int sig)
{
	long req = tr->opts.signals_only || (tr->use_seccomp && !tr->every_call && !t->in_syscall) ? PTRACE_CONT
												 : PTRACE_SYSCALL;

	/* ESRCH: killed meanwhile (SIGKILL needs no tracer's leave); its
	 * death is reported by wait. */
	ptrace(req, t->tid, 0L, (long)sig);
}

/* Seccomp filters in place for TID (0 for "self"); -1 when unknown. */
static long seccomp_filters(pid_t tid)
{
	char buf[4096];

	if (tid ? !procfs_status(tid, buf, sizeof(buf)) : !procfs_status(getpid(), buf, sizeof(buf)))
		return -1;
	return procfs_status_long(buf, "\nSeccomp_filters:");
}

/* A call that can add a seccomp filter: seccomp(SECCOMP_SET_MODE_FILTER),
 * prctl(PR_SET_SECCOMP). */
static bool adds_filter(long nr, uint64_t arg0)
{
	return (nr == SYS_seccomp && arg0 == SECCOMP_SET_MODE_FILTER) ||
	       (nr == SYS_prctl && arg0 == PR_SET_SECCOMP);
}

/* T's call that can add a filter returned RVAL: with a filter of its own
 * beside ours, stop on every call from now on (see tracer.h). */
static void filter_added(struct tracer *tr, struct tracee *t, long long rval)
{
	if (!tr->use_seccomp || tr->every_call || rval != 0)
		return;
	if (seccomp_filters(t->tid) > 1)
		tr->every_call = true;
}

/* In the held child (spawn.h): the filter, once we trace it. */
static int install_filter(void *arg)
{
	struct tracer *tr = arg;
	int e = seccomp_install(tr->filter, tr->opts.nbits);

	return e < 0 ? -e : 0;
}

/*
 * Spawning: the child stops itself, we seize it, and only then does it
 * install the filter and exec. A filter installed before the seize would
 * make its RET_TRACE calls fail with ENOSYS, having no tracer yet.
 */
pid_t tracer_spawn(struct tracer *tr, char *const argv[], struct strbuf *err)
{
	/* Children inherit the filter: untraced (no -f), their filtered
	 * calls would fail with ENOSYS. */
	/* Under a filter already (a container's), ours would not see what that
	 * one refuses (see tracer.h). */
	tr->use_seccomp = tr->opts.wanted && tr->opts.follow && !tr->opts.no_seccomp && seccomp_usable() &&
			  seccomp_filters(0) == 0;
	if (tr->use_seccomp) {
		/* The command's execve ends the hidden prelude, so the filter
		 * stops on it whatever was selected; and on the calls that add
		 * a filter, which may hide calls from ours. */
		static const long always[] = { SYS_execve, SYS_execveat, SYS_seccomp, SYS_prctl };
		size_t bytes = (size_t)(tr->opts.nbits + 7) / 8;
		unsigned char *w = xmalloc(bytes);
		memcpy(w, tr->opts.wanted, bytes);
		for (size_t i = 0; i < sizeof(always) / sizeof(always[0]); i++)
			if (always[i] < tr->opts.nbits)
				w[always[i] / 8] |= (unsigned char)(1u << (always[i] % 8));
		tr->filter = w;
	}
	if (tr->use_seccomp)
		/* Without a tracer the filter would fail the command's calls
		 * with ENOSYS; dying with us is the lesser harm (strace
		 * --seccomp-bpf does the same). */
		tr->options |= PTRACE_O_TRACESECCOMP | PTRACE_O_EXITKILL;

	struct spawn sp;
	pid_t pid = spawn_held(&sp, argv, tr->use_seccomp ? install_filter : NULL, tr, err);
	if (pid < 0) {
		tr->spawn = sp;
		return -1;
	}
	if (tracer_seize_held(tr, &sp, argv[0], err) < 0) {
		spawn_abort(&sp);
		tr->spawn = sp;
		return -1;
	}
	return pid;
}

int tracer_seize_held(struct tracer *tr, struct spawn *s, const char *name, struct strbuf *err)
{
	pid_t pid = s->pid;

	tr->spawn = *s;
	if (ptrace(PTRACE_SEIZE, pid, 0L, (long)tr->options) < 0) {
		int e = errno;
		strbuf_addf(err, "cannot trace '%s': ", name);
		tracer_explain_attach(pid, e, err);
		tr->spawn.pid = 0;
		tr->spawn.errfd = -1;
		return -1;
	}
	tr->child = pid;
	tr->child_hidden = true;
	add(tr, pid, pid);
	/* It is in a group-stop; SIGCONT ends it and we go on from there. */
	kill(pid, SIGCONT);
	return 0;
}

int tracer_spawn_error(struct tracer *tr)
{
	return spawn_error(&tr->spawn);
}

/* The thread that traces thread TID (TracerPid in its status); 0 none,
 * or unknown. */
static long tracer_of(pid_t tid)
{
	char buf[2048];

	return procfs_status(tid, buf, sizeof(buf)) ? procfs_status_long(buf, "\nTracerPid:") : 0;
}

/* Thread TID is traced by a thread of this process already: a child of
 * a process seized before it, which the kernel attached as it forked
 * (a set's processes listed while one of them forked another). */
static bool traced_by_us(pid_t tid)
{
	char path[64];
	long tracer = tracer_of(tid);

	snprintf(path, sizeof(path), "/proc/self/task/%ld", tracer);
	return tracer > 0 && access(path, F_OK) == 0;
}

/*
 * Attaching: seize every thread in /proc/PID/task, again until a pass finds
 * no new one (a thread may start while we list; once its creator is
 * seized, the kernel attaches its children by itself). Seizing does not
 * stop a thread: PTRACE_INTERRUPT brings each to a stop from which we
 * resume it with syscall stops on.
 */
int tracer_attach(struct tracer *tr, pid_t pid, struct strbuf *err)
{
	char path[64];
	bool added;
	int passes = 0;

	tr->use_seccomp = false;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	do {
		DIR *d = opendir(path);
		if (!d) {
			int e = errno == ENOENT ? ESRCH : errno;
			if (hmap_get_int(&tr->tracees, pid))
				return 0;	/* it died under us: the loop will see */
			tracer_explain_attach(pid, e, err);
			return -e;
		}
		added = false;
		struct dirent *de;
		while ((de = readdir(d))) {
			char *end;
			long tid = strtol(de->d_name, &end, 10);
			if (*end || tid <= 0 || hmap_get_int(&tr->tracees, tid))
				continue;
			if (ptrace(PTRACE_SEIZE, (pid_t)tid, 0L, (long)tr->options) < 0) {
				int e = errno;
				if (e == ESRCH && tid != pid)
					continue;	/* a thread that just ended */
				/* Ours since its fork: the loop gets it from its
				 * parent's fork event. */
				if (e == EPERM && traced_by_us((pid_t)tid))
					continue;
				closedir(d);
				/* Ending as it was listed (EPERM for an exiting
				 * process): no process to attach to, and nothing
				 * else of it attached yet, the leader being first
				 * to fail. */
				if (tid == pid && !added && passes == 0 && procfs_gone(pid)) {
					tracer_explain_attach(pid, ESRCH, err);
					return -ESRCH;
				}
				tracer_explain_attach(pid, e, err);
				tracer_detach_all(tr);
				return -e;
			}
			struct tracee *t = add(tr, (pid_t)tid, pid);
			ptrace(PTRACE_INTERRUPT, t->tid, 0L, 0L);
			if (tr->hooks->born)
				tr->hooks->born(tr->ctx, NULL, t);
			added = true;
		}
		closedir(d);
	} while (added && ++passes < 100);
	return 0;
}

int tracer_attach_set(struct tracer *tr, pid_t first, const pid_t *more, size_t n, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	size_t attached = 0;
	int r = 0;

	for (size_t i = 0; i <= n; i++) {
		strbuf_reset(&why);
		r = tracer_attach(tr, i ? more[i - 1] : first, &why);
		attached += r == 0;
		/* Gone: said only if none is left, as the first one gone. */
		if (r == -ESRCH && !err->len)
			strbuf_adds(err, strbuf_str(&why));
		if (r < 0 && r != -ESRCH) {
			strbuf_reset(err);
			strbuf_adds(err, strbuf_str(&why));
			break;
		}
	}
	strbuf_release(&why);
	if (r < 0 && r != -ESRCH)
		return r;
	if (!attached)
		return -ESRCH;
	strbuf_reset(err);
	return 0;
}

static void explain_tracer_pid(pid_t pid, struct strbuf *out)
{
	long tracer = tracer_of(pid);

	if (tracer > 0) {
		char *comm = procfs_comm((pid_t)tracer, 0);
		strbuf_addf(out, "; it is already traced by pid %ld%s%s%s (TracerPid in /proc/%d/status): "
			    "a process has only one tracer, so stop that one first",
			    tracer, comm ? " '" : "", comm ? comm : "", comm ? "'" : "", (int)pid);
		free(comm);
	}
}

void tracer_explain_attach(pid_t pid, int err, struct strbuf *out)
{
	if (err == ESRCH) {
		strbuf_addf(out, "no process %d (it has exited, or the pid is wrong)", (int)pid);
		return;
	}
	strbuf_addf(out, "cannot trace process %d: %s", (int)pid, strerror(err));
	if (err != EPERM)
		return;
	size_t before = out->len;
	explain_tracer_pid(pid, out);
	if (out->len != before)
		return;

	int scope = -1;
	FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "re");
	if (f) {
		if (fscanf(f, "%d", &scope) != 1)
			scope = -1;
		fclose(f);
	}
	if (scope == 3)
		strbuf_adds(out, "; kernel.yama.ptrace_scope is 3, which forbids ptrace until reboot");
	else if (scope >= 1 && geteuid() != 0)
		strbuf_addf(out, "; kernel.yama.ptrace_scope is %d: run as root (CAP_SYS_PTRACE), or "
			    "'sysctl kernel.yama.ptrace_scope=0'", scope);
	else if (geteuid() != 0)
		strbuf_adds(out, "; it belongs to another user or is not dumpable: run as that user or "
			    "as root (CAP_SYS_PTRACE)");
	else
		strbuf_adds(out, "; root lacks CAP_SYS_PTRACE here (a container or a security module "
			    "denies it): add the capability, e.g. 'docker run --cap-add SYS_PTRACE'");
}

/*
 * The next stop or death, as a wait status. Stops are peeked at with
 * WNOWAIT, not collected: collecting a signal-delivery-stop clears the
 * signal in the kernel, so if rootcause died (SIGKILL) while handling it,
 * the tracee would go on without its signal. Left uncollected, the kernel
 * delivers it when it detaches us. A stop ends when we resume the thread;
 * one we leave stopped (PTRACE_LISTEN) must be collected by the caller
 * (collect()), or waitid would report it again. Deaths are reaped here.
 */
static pid_t wait_next(int flags, int *status)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (waitid(P_ALL, 0, &si, WEXITED | WSTOPPED | __WALL | WNOWAIT | flags) < 0)
		return -1;
	pid_t pid = si.si_pid;
	if (pid == 0)
		return 0;	/* WNOHANG, and nothing yet */
	switch (si.si_code) {
	case CLD_TRAPPED:
	case CLD_STOPPED:
		/* si_status is the whole stop code: signal | event << 8. */
		*status = (si.si_status << 8) | 0x7f;
		return pid;
	default:
		return waitpid(pid, status, __WALL);
	}
}

/*
 * Poll for the next stop for up to POLL_NS before blocking for it. A
 * tracer that blocks sleeps at every stop, and on a VM waking a sleeping
 * vCPU costs an interrupt and an exit to the hypervisor, twice a call: on
 * this 2-vCPU VM a tracer doing nothing but wait and resume took 3.6 s for
 * 152,000 stops blocking, 2.3 s polling first, for the same CPU time (the
 * sleep and the wake-up cost what the poll does). A tracee busy making
 * calls stops again within microseconds of being resumed. One that runs
 * long between stops, as under a seccomp filter, would make every poll a
 * waste of CPU: so poll only while the recent waits (a moving average of
 * the last eight or so, each counted as at most GAP_CAP_NS so that one
 * long sleep is soon forgotten) were short enough for it to pay.
 */
enum { POLL_NS = 50 * 1000, GAP_CAP_NS = 1000 * 1000 };

static long since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000000000L + (t.tv_nsec - t0->tv_nsec);
}

/* The next stop or death, or 0 when *stop_flag was set. */
static pid_t next_stop(struct tracer *tr, int *status)
{
	struct timespec t0;
	pid_t pid = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (tr->gap_ns < POLL_NS) {
		while ((pid = wait_next(WNOHANG, status)) == 0 && !*tr->stop_flag && since(&t0) <= POLL_NS)
			;
	}
	if (pid == 0 && !*tr->stop_flag)
		pid = wait_next(0, status);
	if (pid > 0) {
		long gap = since(&t0);
		if (gap > GAP_CAP_NS)
			gap = GAP_CAP_NS;
		tr->gap_ns += (gap - tr->gap_ns) / 8;
	}
	return pid;
}

/* Consume a stop we peeked at and leave in place. */
static void collect(pid_t tid)
{
	int status;

	waitpid(tid, &status, __WALL | WNOHANG);
}

/* A syscall stop: entry, seccomp-entry or exit, as the kernel says. */
static void on_syscall_stop(struct tracer *tr, struct tracee *t)
{
	struct ptrace_syscall_info si;

	if (ptrace(PTRACE_GET_SYSCALL_INFO, t->tid, (void *)sizeof(si), &si) <= 0) {
		/* EIO: a kernel before 5.3, which has no such request. */
		if (errno == EIO)
			tr->no_syscall_info = true;
		si.op = PTRACE_SYSCALL_INFO_NONE;
	}
	switch (si.op) {
	case PTRACE_SYSCALL_INFO_SECCOMP:
		/* Stopping on every call, the entry stop came first. */
		if (t->in_syscall)
			break;
		/* fall through */
	case PTRACE_SYSCALL_INFO_ENTRY:
		t->in_syscall = true;
		t->nr = (long)si.entry.nr;
		t->arg0 = si.entry.args[0];
		/* The command's own life starts at its execve: what came
		 * before (stopping, the filter) is ours. */
		if (hidden(tr, t) && (si.entry.nr == SYS_execve || si.entry.nr == SYS_execveat))
			tr->child_hidden = false;
		if (!hidden(tr, t) && tr->hooks->entry)
			tr->hooks->entry(tr->ctx, t, &si);
		break;
	case PTRACE_SYSCALL_INFO_EXIT:
		if (t->in_syscall && adds_filter(t->nr, t->arg0) && !hidden(tr, t))
			filter_added(tr, t, si.exit.rval);
		if (t->in_syscall && !hidden(tr, t) && tr->hooks->exit)
			tr->hooks->exit(tr->ctx, t, &si);
		t->in_syscall = false;
		break;
	default:
		break;
	}
}

/* The exec of a spawned command ends its hidden prelude. The execve entry
 * was hidden, so the hooks see the exec before any call of the command. */
static void on_exec(struct tracer *tr, struct tracee *t)
{
	unsigned long msg = 0;
	ptrace(PTRACE_GETEVENTMSG, t->tid, 0L, &msg);
	pid_t old = (pid_t)msg;

	if (old > 0 && old != t->tid) {
		/* A non-leader thread exec'd: the kernel gave it the leader's
		 * tid. Our T is the old leader, which is gone without a death
		 * notice; the exec-ing thread's state moves into its place. */
		struct tracee *from = find(tr, old);
		if (from) {
			t->in_syscall = from->in_syscall;
			void *user = t->user;
			t->user = from->user;
			from->user = user;
			forget(tr, from);
		}
	}
	t->tgid = t->tid;
	/* Normally the execve entry ended it; without a stop there (a
	 * filter that lacks it), the exec itself does. */
	if (tr->child_hidden && t->tgid == tr->child)
		tr->child_hidden = false;
	if (tr->hooks->exec)
		tr->hooks->exec(tr->ctx, t, old);
}

static void on_new_child(struct tracer *tr, struct tracee *parent)
{
	unsigned long msg = 0;

	if (ptrace(PTRACE_GETEVENTMSG, parent->tid, 0L, &msg) < 0 || msg == 0)
		return;
	bool created = !hmap_get_int(&tr->tracees, (long long)msg);
	struct tracee *c = add(tr, (pid_t)msg, 0);
	if (hidden(tr, parent))
		return;
	if (created && tr->hooks->born)
		tr->hooks->born(tr->ctx, parent, c);
	else if (!created && tr->hooks->parented)
		tr->hooks->parented(tr->ctx, parent, c);
}

static void on_stop(struct tracer *tr, struct tracee *t, int status)
{
	int sig = WSTOPSIG(status);
	int event = (unsigned)status >> 16;

	if (sig == (SIGTRAP | 0x80)) {
		on_syscall_stop(tr, t);
		resume(tr, t, 0);
		return;
	}
	switch (event) {
	case 0:
		break;
	case PTRACE_EVENT_SECCOMP:
		on_syscall_stop(tr, t);
		resume(tr, t, 0);
		return;
	case PTRACE_EVENT_EXEC:
		/* After a non-leader exec the kernel refuses ptrace requests
		 * until this stop has been waited for (it could be the old
		 * leader's: looks_like_a_spurious_pid()). */
		collect(t->tid);
		on_exec(tr, t);
		resume(tr, t, 0);
		return;
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
	case PTRACE_EVENT_CLONE:
		on_new_child(tr, t);
		resume(tr, t, 0);
		return;
	case PTRACE_EVENT_EXIT:
		/* Its memory is still there until it goes on. */
		if (!hidden(tr, t))
			tr->hooks->exiting(tr->ctx, t);
		resume(tr, t, 0);
		return;
	case PTRACE_EVENT_STOP:
		if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU) {
			/* A group-stop: stay stopped, but keep listening so
			 * that SIGCONT and SIGKILL still reach us. */
			if (!t->group_stopped && !hidden(tr, t) && tr->hooks->stopped)
				tr->hooks->stopped(tr->ctx, t, sig);
			t->group_stopped = true;
			collect(t->tid);
			ptrace(PTRACE_LISTEN, t->tid, 0L, 0L);
			return;
		}
		/* The first stop of a new or interrupted thread, or the end
		 * of a group-stop. */
		t->group_stopped = false;
		resume(tr, t, 0);
		return;
	default:
		resume(tr, t, 0);
		return;
	}

	/* A signal-delivery-stop: report it, then let it through unchanged. */
	siginfo_t si;
	if (ptrace(PTRACE_GETSIGINFO, t->tid, 0L, &si) < 0) {
		memset(&si, 0, sizeof(si));
		si.si_signo = sig;
	}
	if (tr->hooks->request && tr->hooks->request(tr->ctx, t, &si)) {
		resume(tr, t, 0);
		return;
	}
	if (!hidden(tr, t) && tr->hooks->signal)
		tr->hooks->signal(tr->ctx, t, &si);
	resume(tr, t, sig);
}

static void on_gone(struct tracer *tr, struct tracee *t, int status)
{
	if (t->tid == tr->child)
		tr->child_status = status;
	if (!hidden(tr, t) && tr->hooks->gone)
		tr->hooks->gone(tr->ctx, t, status);
	forget(tr, t);
}

void tracer_loop(struct tracer *tr)
{
	while (tr->tracees.count > 0 && !*tr->stop_flag) {
		int status;
		pid_t tid = next_stop(tr, &status);
		if (tid == 0)
			continue;	/* *stop_flag */
		if (tid < 0) {
			if (errno == EINTR)
				continue;
			break;	/* ECHILD: nothing left */
		}
		tr->stops++;
		struct tracee *t = find(tr, tid);
		if (!t) {
			if (WIFEXITED(status) || WIFSIGNALED(status)) {
				if (tid == tr->child)
					tr->child_status = status;
				continue;
			}
			/* A new thread whose creator's event is still to come. */
			t = add(tr, tid, 0);
			if (tr->hooks->born && !(tr->child_hidden && t->tgid == tr->child))
				tr->hooks->born(tr->ctx, NULL, t);
		}
		if (WIFSTOPPED(status))
			on_stop(tr, t, status);
		else if (WIFEXITED(status) || WIFSIGNALED(status))
			on_gone(tr, t, status);
	}
}

/*
 * Detaching: PTRACE_DETACH needs the tracee in a ptrace-stop, so interrupt
 * every thread and detach each at the stop that follows. A thread caught
 * in a signal-delivery-stop gets its signal passed to PTRACE_DETACH, which
 * delivers it; one in a group-stop stays stopped, as job control wants.
 */
void tracer_detach_all(struct tracer *tr)
{
	struct hmap_iter it;
	size_t waiting = 0;

	for (struct hmap_node *n = hmap_first(&tr->tracees, &it); n; n = hmap_next(&tr->tracees, &it)) {
		struct tracee *t = n->value;
		t->detaching = true;
		if (ptrace(PTRACE_INTERRUPT, t->tid, 0L, 0L) == 0)
			waiting++;
	}
	/* Bounded: every interrupted thread reports one stop or its death;
	 * new children (a clone racing with us) report a stop too. */
	while (tr->tracees.count > 0 && waiting > 0) {
		int status;
		pid_t tid = wait_next(0, &status);
		if (tid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		struct tracee *t = find(tr, tid);
		if (!t) {
			if (WIFSTOPPED(status))
				ptrace(PTRACE_DETACH, tid, 0L, 0L);
			continue;
		}
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			on_gone(tr, t, status);
			waiting--;
			continue;
		}
		int sig = WSTOPSIG(status);
		int event = (unsigned)status >> 16;
		int pass = 0;
		if (event == PTRACE_EVENT_EXEC)
			collect(tid);
		if (sig == (SIGTRAP | 0x80) || event == PTRACE_EVENT_SECCOMP || event == PTRACE_EVENT_EXEC) {
			pass = 0;
		} else if (event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK ||
			   event == PTRACE_EVENT_CLONE) {
			unsigned long msg = 0;
			if (ptrace(PTRACE_GETEVENTMSG, tid, 0L, &msg) == 0 && msg > 0 &&
			    !find(tr, (pid_t)msg)) {
				struct tracee *c = add(tr, (pid_t)msg, 0);
				c->detaching = true;
				waiting++;	/* its auto-attach stop is coming */
			}
		} else if (event == PTRACE_EVENT_STOP) {
			pass = 0;
		} else {
			pass = sig;	/* signal-delivery-stop: deliver it */
		}
		ptrace(PTRACE_DETACH, tid, 0L, (long)pass);
		forget(tr, t);
		waiting--;
	}
	/* Anything left could not be interrupted (gone already). */
	for (struct hmap_node *n = hmap_first(&tr->tracees, &it); n; n = hmap_next(&tr->tracees, &it)) {
		struct tracee *t = n->value;
		ptrace(PTRACE_DETACH, t->tid, 0L, 0L);
		forget(tr, t);
	}
}

/* The tids of the tracees (of TGID's process but EXCEPT, when TGID is
 * not 0), copied: forgetting a thread changes the table. */
static pid_t *tids_of(struct tracer *tr, pid_t tgid, pid_t except, size_t *n)
{
	struct hmap_iter it;
	pid_t *tids = xcalloc(tr->tracees.count + 1, sizeof(*tids));

	*n = 0;
	for (struct hmap_node *e = hmap_first(&tr->tracees, &it); e; e = hmap_next(&tr->tracees, &it)) {
		const struct tracee *t = e->value;
		if (!tgid || (t->tgid == tgid && t->tid != except))
			tids[(*n)++] = t->tid;
	}
	return tids;
}

static bool stopping(const struct tracer *tr)
{
	return tr->stop_flag && *tr->stop_flag;
}

size_t tracer_hold_all(struct tracer *tr)
{
	size_t n, held = 0;
	pid_t *tids = tids_of(tr, 0, 0, &n);

	for (size_t i = 0; i < n; i++) {
		struct tracee *t = find(tr, tids[i]);
		while (t && !stopping(tr)) {
			siginfo_t si;
			memset(&si, 0, sizeof(si));
			if (waitid(P_PID, (id_t)t->tid, &si, WEXITED | WSTOPPED | __WALL | WNOWAIT) < 0) {
				if (errno == EINTR)
					continue;
				forget(tr, t);
				break;
			}
			if (si.si_code != CLD_TRAPPED && si.si_code != CLD_STOPPED) {
				int status;
				waitpid(t->tid, &status, __WALL);
				on_gone(tr, t, status);
				break;
			}
			int sig = si.si_status & 0xff, event = si.si_status >> 8;
			/* A signal-delivery-stop (no event, not our trap) holds
			 * a signal the thread must still get. */
			t->held_sig = event == 0 && sig != SIGTRAP ? sig : 0;
			t->held = true;
			held++;
			break;
		}
	}
	free(tids);
	return held;
}

void tracer_hold_group(struct tracer *tr, pid_t tgid, pid_t except)
{
	size_t n;
	pid_t *tids = tids_of(tr, tgid, except, &n);

	for (size_t i = 0; i < n; i++)
		ptrace(PTRACE_INTERRUPT, tids[i], 0L, 0L);
	/* Each reports a stop (the interrupt's, or one that came first) or
	 * its death; peeked at, left for the loop. */
	for (size_t i = 0; i < n && !stopping(tr); i++) {
		siginfo_t si;
		memset(&si, 0, sizeof(si));
		while (waitid(P_PID, (id_t)tids[i], &si, WEXITED | WSTOPPED | __WALL | WNOWAIT) < 0 &&
		       errno == EINTR && !stopping(tr))
			;
	}
	free(tids);
}

void tracer_release_all(struct tracer *tr)
{
	size_t n;
	pid_t *tids = tids_of(tr, 0, 0, &n);

	for (size_t i = 0; i < n; i++) {
		struct tracee *t = find(tr, tids[i]);
		if (t && t->held) {
			ptrace(PTRACE_DETACH, t->tid, 0L, (long)t->held_sig);
			forget(tr, t);
		}
	}
	free(tids);
	tracer_detach_all(tr);
}

void tracer_each(struct tracer *tr, void (*fn)(void *arg, struct tracee *t), void *arg)
{
	struct hmap_iter it;

	for (struct hmap_node *n = hmap_first(&tr->tracees, &it); n; n = hmap_next(&tr->tracees, &it))
		fn(arg, n->value);
}

int tracer_child_status(const struct tracer *tr)
{
	return tr->child_status;
}

bool tracer_uses_seccomp(const struct tracer *tr)
{
	return tr->use_seccomp;
}

bool tracer_lacks_syscall_info(const struct tracer *tr)
{
	return tr->no_syscall_info;
}

uint64_t tracer_stops(const struct tracer *tr)
{
	return tr->stops;
}

void tracer_free(struct tracer *tr)
{
	struct hmap_iter it;

	if (!tr)
		return;
	for (struct hmap_node *n = hmap_first(&tr->tracees, &it); n; n = hmap_next(&tr->tracees, &it)) {
		struct tracee *t = n->value;
		if (tr->hooks->release)
			tr->hooks->release(tr->ctx, t);
		free(t);
	}
	hmap_release(&tr->tracees, NULL);
	if (tr->spawn.errfd >= 0)
		close(tr->spawn.errfd);
	free(tr->filter);
	free(tr);
}
