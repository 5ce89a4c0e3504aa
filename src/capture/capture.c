/* The capture session (see capture.h): one call's life is
 *
 *	entry stop:  decode the entry half -> text "name(args..." (printed at
 *	             once, as strace does, so that a blocked call shows)
 *	exit stop:   decode the exit half and the return value, print the
 *	             rest, build the event and hand it to on_event
 *
 * The per-thread state keeps the decoder's context between the two stops.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include <dirent.h>

#include "capture/capture.h"
#include "event/facts.h"
#include "event/stack.h"
#include "strace/decoration.h"
#include "util/arena.h"
#include "util/hmap.h"
#include "util/procfs.h"
#include "util/util.h"

struct cthread {
	struct dec d;
	struct dec_arena arena;
	struct strbuf text;	/* "name(" + entry half [+ exit half + ")"] */
	size_t entry_len;	/* where the exit half starts */
	struct strbuf rv;	/* the return value as printed */
	struct strbuf rv_extra;
	struct rc_event ev;
	struct rc_live live;	/* the event's, when its call failed so */
	bool selected;		/* the call in progress is reported */
	double ts;		/* its entry, realtime */
	double mono;		/* its entry, monotonic */
	char name_buf[32];	/* "syscall_0x1c5" for calls the headers lack */
	/* Set at its birth: the process whose fork made it, until its first
	 * event says so (rc_event.forked_by), which may come before the
	 * parent's fork returns. */
	int forked_by;
	/* And the parent's own, had it not shown an event yet then
	 * (rc_event.parent_forked_by). */
	int parent_forked_by;
	/* Found running (capture_found): the process it counts for in
	 * capture's FOUND; 0 none. */
	pid_t found_in;
};

struct capture {
	struct capture_opts o;
	int nthreads;
	uint64_t events;
	uint64_t summed;	/* of them, calls the kernel summed */
	struct strbuf line;	/* lines other than calls */
	struct tracer *tr;
	bool fatal_seen;	/* on_fatal_signal was called */
	/* Replaying (capture_replay_clock): the hooks' "now" is the
	 * record's, and no thread can be held. */
	bool replay;
	double at_rt, at_mono;
	/* Attach (ADOPT): the processes told found running (capture_found),
	 * by tgid, and how many of their threads found so live (a pointer's
	 * value). Each is kept while one does, and one told by the caller
	 * with none (the eBPF capture's) until its first is born and gone.
	 * A thread of one of them found later is told alone. */
	struct hmap found;
};

void capture_replay_clock(struct capture *c, double realtime, double monotonic)
{
	c->replay = true;
	c->at_rt = realtime;
	c->at_mono = monotonic;
}

void capture_set_tracer(struct capture *c, struct tracer *tr)
{
	c->tr = tr;
}

/* A fatal signal is about to kill T's process: hold every thread now,
 * while they are all still there, and let the user read them. */
static void fatal_signal(struct capture *c, struct tracee *t, const siginfo_t *si)
{
	c->fatal_seen = true;
	if (c->tr)
		tracer_hold_group(c->tr, t->tgid, t->tid);
	c->o.on_fatal_signal(c->o.user, t->tgid, t->tid, si);
}

struct capture *capture_new(const struct capture_opts *o)
{
	struct capture *c = xcalloc(1, sizeof(*c));

	c->o = *o;
	return c;
}

void capture_free(struct capture *c)
{
	if (!c)
		return;
	strbuf_release(&c->line);
	hmap_release(&c->found, NULL);
	free(c);
}

uint64_t capture_events(const struct capture *c)
{
	return c->events;
}

uint64_t capture_summed(const struct capture *c)
{
	return c->summed;
}

static double now(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double clock_of(const struct capture *c, clockid_t clk)
{
	if (c->replay)
		return clk == CLOCK_REALTIME ? c->at_rt : c->at_mono;
	return now(clk);
}

static struct cthread *thread_of(struct tracee *t)
{
	if (!t->user)
		t->user = xcalloc(1, sizeof(struct cthread));
	return t->user;
}

static void feed(struct capture *c, struct tracee *t, struct rc_event *e)
{
	struct cthread *th = t->user;

	if (th && th->forked_by) {
		e->forked_by = th->forked_by;
		e->forked_sure = true;
		e->forked_thread = t->tid != t->tgid;
		e->parent_forked_by = th->parent_forked_by;
		/* Its parent's fork returned its pid in the parent's pid
		 * namespace: the model names it by that too. */
		int there = 0;
		if (t->tid == t->tgid)
			e->ns_pid = procfs_ns_pid(t->tgid, th->forked_by, &there);
		if (there > 0 && there != t->tgid)
			e->forked_as = there;
		th->forked_by = 0;
		th->parent_forked_by = 0;
	}
	c->events++;
	if (c->o.on_event)
		c->o.on_event(c->o.user, e);
}

static const char *call_name(struct cthread *th, long nr)
{
	const char *name = dec_syscall_name(nr);

	if (name)
		return name;
	snprintf(th->name_buf, sizeof(th->name_buf), "syscall_%#lx", (unsigned long)nr);
	return th->name_buf;
}

void capture_call_enter(struct capture *c, struct tracee *t, const struct call_view *v)
{
	struct cthread *th = thread_of(t);
	long nr = v->nr;

	th->selected = !c->o.select || (nr >= 0 && nr < c->o.nbits && select_has(c->o.select, nr));
	if (!th->selected)
		return;
	th->ts = clock_of(c, CLOCK_REALTIME);
	th->mono = clock_of(c, CLOCK_MONOTONIC);

	dec_arena_reset(&th->arena);
	strbuf_reset(&th->text);
	strbuf_reset(&th->rv_extra);
	event_clear(&th->ev);
	th->ev.kind = RC_EV_SYSCALL;
	th->ev.pid = t->tid;
	th->ev.ts = th->ts;
	th->ev.nr = nr;
	th->ev.name = call_name(th, nr);

	memset(&th->d, 0, sizeof(th->d));
	th->d.tid = t->tid;
	th->d.call = *v;
	/* The outcome is the exit's to give. */
	th->d.call.rval = 0;
	th->d.call.err = 0;
	th->d.call.live = NULL;
	th->d.e = &th->ev;
	th->d.out = &th->text;
	th->d.arena = &th->arena;
	th->d.opts = &c->o.dec;
	th->d.rv_extra = &th->rv_extra;

	strbuf_adds(&th->text, th->ev.name);
	strbuf_addc(&th->text, '(');
	dec_call(&th->d);
	/* The source's memory is the source's again. */
	th->d.call.mem = NULL;
	th->entry_len = th->text.len;
	if (c->o.printer)
		printer_entry(c->o.printer, t->tid, th->ts, th->text.buf, th->text.len);
}

static void format_rv(struct capture *c, struct cthread *th, long long rval, int err)
{
	const struct dec_syscall *sc = dec_lookup(th->ev.nr);
	int rv = sc ? sc->rv : RC_RV_DEC;

	strbuf_reset(&th->rv);
	if (err) {
		dec_error_rv(&th->rv, err);
		return;
	}
	if (th->d.rv_hex)
		rv = RC_RV_HEX;
	switch (rv) {
	case RC_RV_HEX:
		strbuf_addf(&th->rv, "%#llx", (unsigned long long)rval);
		break;
	case RC_RV_OCT:
		strbuf_addf(&th->rv, "%#llo", (unsigned long long)rval);
		break;
	case RC_RV_FD:
		if (c->o.dec.decode_fds && rval >= 0) {
			/* dec_fd prints into d->out: point it at the value. */
			struct strbuf *save = th->d.out;
			int save_fd = th->ev.fd;
			const struct rc_fdfacts *save_shown = th->ev.fd_shown;
			th->d.out = &th->rv;
			th->ev.fd = (int)rval;
			dec_fd(&th->d, (int)rval);
			/* The parser reads an open's decoration as its fd_shown
			 * (parser.h); other calls keep their own. */
			th->ev.fd = save_fd;
			if (save_fd >= 0)
				th->ev.fd_shown = save_shown;
			th->d.out = save;
			break;
		}
		/* fall through */
	default:
		strbuf_addf(&th->rv, "%lld", rval);
		break;
	}
}

void capture_call_exit(struct capture *c, struct tracee *t, const struct call_view *v)
{
	struct cthread *th = thread_of(t);

	if (!th->selected)
		return;
	th->selected = false;
	double dur = clock_of(c, CLOCK_MONOTONIC) - th->mono;

	th->d.exiting = true;
	th->d.call.rval = v->rval;
	th->d.call.err = v->err;
	th->d.call.live = v->live;
	th->d.call.mem = v->mem;
	dec_call(&th->d);
	th->d.call.live = NULL;
	th->d.call.mem = NULL;
	strbuf_addc(&th->text, ')');
	format_rv(c, th, v->rval, v->err);

	struct rc_event *e = &th->ev;
	e->ret_known = true;
	e->dur = dur;
	e->ret = v->rval;
	if (v->err) {
		e->err = v->err;
		e->interrupted = e->err >= 512 && e->err <= 516;
		if (v->live && (e->err == EACCES || e->err == EPERM || e->err == ENOSYS)) {
			th->live = *v->live;
			e->live = &th->live;
		}
	}
	if (th->rv_extra.len) {
		strbuf_addc(&th->rv, ' ');
		strbuf_add(&th->rv, th->rv_extra.buf, th->rv_extra.len);
	}
	if (c->o.printer)
		printer_exit(c->o.printer, t->tid, th->ts + dur, e->name, th->text.buf + th->entry_len,
			     th->text.len - th->entry_len, th->rv.buf, dur);

	/* The evidence line, as a log would have it. */
	size_t n = th->text.len;
	strbuf_adds(&th->text, " = ");
	strbuf_add(&th->text, th->rv.buf, th->rv.len);
	e->line = th->text.buf;
	e->line_len = th->text.len;
	/* The thread is held at its exit stop under the tracer; a record
	 * replayed may carry a copy of its stack. */
	if (c->o.on_stack && (!c->replay || v->stack))
		e->stack = c->o.on_stack(c->o.user, t->tgid, t->tid, e, v->stack);
	feed(c, t, e);
	stack_unref(e->stack);
	e->stack = NULL;
	th->text.len = n;
}

void capture_signal(struct capture *c, struct tracee *t, const siginfo_t *si)
{
	struct rc_event e;
	double ts = clock_of(c, CLOCK_REALTIME);

	dec_signal_line(&c->line, si);
	if (c->o.printer)
		printer_line(c->o.printer, t->tid, ts, c->line.buf);
	if (c->o.on_fatal_signal && !c->fatal_seen && !c->replay && procfs_signal_is_fatal(t->tgid, si->si_signo))
		fatal_signal(c, t, si);
	event_clear(&e);
	e.kind = RC_EV_SIGNAL;
	e.pid = t->tid;
	e.ts = ts;
	e.dur = -1;
	event_siginfo_facts(&e, si->si_signo, si->si_code, (uint64_t)(uintptr_t)si->si_addr, si->si_pid);
	e.line = c->line.buf;
	e.line_len = c->line.len;
	feed(c, t, &e);
}

static void hook_stopped(void *ctx, struct tracee *t, int sig)
{
	struct capture *c = ctx;
	struct rc_event e;
	double ts = clock_of(c, CLOCK_REALTIME);

	dec_stop_line(&c->line, sig);
	if (c->o.printer)
		printer_line(c->o.printer, t->tid, ts, c->line.buf);
	event_clear(&e);
	e.kind = RC_EV_SIGNAL;
	e.pid = t->tid;
	e.ts = ts;
	e.dur = -1;
	e.signo = sig;
	e.line = c->line.buf;
	e.line_len = c->line.len;
	feed(c, t, &e);
}

/* A thread that dies inside a call (exit_group, or killed while blocked)
 * never reaches the exit stop: strace ends its line with "= ?". */
static void unreturned(struct capture *c, struct tracee *t, struct cthread *th, double ts)
{
	struct rc_event *e = &th->ev;

	th->selected = false;
	if (c->o.printer)
		printer_exit(c->o.printer, t->tid, ts, e->name, ")", 1, "?", -1);
	strbuf_adds(&th->text, ") = ?");
	e->ret_known = false;
	e->dur = clock_of(c, CLOCK_MONOTONIC) - th->mono;
	e->line = th->text.buf;
	e->line_len = th->text.len;
	feed(c, t, e);
}

void capture_thread_gone(struct capture *c, struct tracee *t, int status)
{
	struct cthread *th = t->user;
	struct rc_event e;
	double ts = clock_of(c, CLOCK_REALTIME);

	if (th && t->in_syscall && th->selected)
		unreturned(c, t, th, ts);
	event_clear(&e);
	e.kind = RC_EV_EXIT;
	e.pid = t->tid;
	e.ts = ts;
	e.dur = -1;
	e.exited = WIFEXITED(status);
	event_wait_status_facts(&e, status);
	dec_exit_line(&c->line, &e);
	if (c->o.printer) {
		printer_line(c->o.printer, t->tid, ts, c->line.buf);
		printer_forget(c->o.printer, t->tid);
		printer_set_nprocs(c->o.printer, --c->nthreads > 0 ? c->nthreads : 1);
	}
	e.line = c->line.buf;
	e.line_len = c->line.len;
	feed(c, t, &e);
}

/* What /proc knows of process PID found running, into F: its argv, exe,
 * cwd and open fds, their strings in A and SB, EXE, CWD, the fds in *FDS
 * (the caller frees it). */
static void found_process(pid_t pid, struct rc_found *f, const char **argv, struct arena *a, struct strbuf *sb,
			  struct strbuf *exe, struct strbuf *cwd, struct rc_found_fd **fds)
{
	size_t alloc = 0;

	f->argc = 0;
	if (procfs_cmdline(pid, sb) > 0)
		for (size_t i = 0; i < sb->len && f->argc < RC_EVENT_MAX_ARGV; i += strlen(sb->buf + i) + 1)
			argv[f->argc++] = sb->buf + i;
	f->argv = f->argc ? argv : NULL;
	/* As the process names them: inside its own root, if it has one. */
	f->exe = procfs_link_inside(pid, "exe", exe) ? exe->buf : NULL;
	f->cwd = procfs_link_inside(pid, "cwd", cwd) ? cwd->buf : NULL;

	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return;
	struct procfs_socks *socks = procfs_socks_load(pid);
	struct strbuf desc = STRBUF_INIT;
	struct dirent *de;
	while ((de = readdir(d))) {
		char *end;
		long fd = strtol(de->d_name, &end, 10);
		if (*end || end == de->d_name || fd < 0 || fd > 0x7fffffff)
			continue;
		if (!procfs_fd_desc(pid, (int)fd, socks, &desc))
			continue;
		if (f->nfds == alloc) {
			alloc = alloc ? 2 * alloc : 16;
			*fds = xrealloc(*fds, alloc * sizeof(**fds));
		}
		(*fds)[f->nfds++] = (struct rc_found_fd){ (int)fd, decoration_facts(strbuf_str(&desc), a) };
	}
	f->fds = *fds;
	strbuf_release(&desc);
	procfs_socks_free(socks);
	closedir(d);
}

void capture_found(struct capture *c, pid_t tid, pid_t tgid)
{
	struct rc_found f = { .leader = tgid };
	struct arena a;
	struct strbuf sb = STRBUF_INIT, exe = STRBUF_INIT, cwd = STRBUF_INIT;
	const char *argv[RC_EVENT_MAX_ARGV];
	struct rc_found_fd *fds = NULL;
	struct rc_event e;
	bool created;

	if (!c->o.on_event)
		return;
	hmap_put_int(&c->found, tgid, &created);
	/* Its process's facts the first time, once for all its threads. */
	f.process = created;
	arena_init(&a);
	if (f.process)
		found_process(tgid, &f, argv, &a, &sb, &exe, &cwd, &fds);
	event_clear(&e);
	e.kind = RC_EV_FOUND;
	e.pid = tid;
	e.ts = -1;
	e.dur = -1;
	e.found = &f;
	/* Its number in its own pid namespace, a container's. */
	e.ns_pid = f.process ? procfs_ns_pid(tgid, 0, NULL) : 0;
	/* No event of the trace's: not counted, and no fork's child. */
	c->o.on_event(c->o.user, &e);
	free(fds);
	arena_release(&a);
	strbuf_release(&sb);
	strbuf_release(&exe);
	strbuf_release(&cwd);
}

void capture_thread_born(struct capture *c, struct tracee *parent, struct tracee *child)
{
	c->nthreads++;
	if (c->o.printer)
		printer_set_nprocs(c->o.printer, c->nthreads);
	if (parent) {
		thread_of(child)->forked_by = parent->tgid;
		thread_of(child)->parent_forked_by = thread_of(parent)->forked_by;
	} else if (child->tgid > 0 && child->tgid != child->tid) {
		/* A thread whose creator's clone is not known yet (ptrace
		 * showed its first stop before the clone's event), or one
		 * found running: its process's from its first call, not a
		 * process of its own (podman's cleanup thread that wrote its
		 * words and exited 125). */
		thread_of(child)->forked_by = child->tgid;
	}
	if (!parent && c->o.adopt && c->o.on_event) {
		capture_found(c, child->tid, child->tgid);
		/* Its process is known while it lives: its other threads found
		 * are told alone. */
		void **n = hmap_get_int(&c->found, child->tgid);
		*n = (void *)((uintptr_t)*n + 1);
		thread_of(child)->found_in = child->tgid;
	}
}

static void hook_parented(void *ctx, struct tracee *parent, struct tracee *child)
{
	(void)ctx;
	thread_of(child)->forked_by = parent->tgid;
}

void capture_thread_release(struct capture *c, struct tracee *t)
{
	struct cthread *th = t->user;

	if (!th)
		return;
	/* The last thread found of its process: a process found with that
	 * tgid later may be another (the id reused), and is told whole. */
	void **n = th->found_in ? hmap_get_int(&c->found, th->found_in) : NULL;
	if (n) {
		uintptr_t left = (uintptr_t)*n - 1;
		*n = (void *)left;
		if (!left)
			hmap_del_int(&c->found, th->found_in);
	}
	dec_arena_release(&th->arena);
	strbuf_release(&th->text);
	strbuf_release(&th->rv);
	strbuf_release(&th->rv_extra);
	free(th);
	t->user = NULL;
}

/*
 * The tracer's hooks (tracer.h): its stops made calls, signals and
 * threads. Only here is a call read from a ptrace_syscall_info.
 */

static void hook_entry(void *ctx, struct tracee *t, const struct ptrace_syscall_info *si)
{
	bool seccomp = si->op == PTRACE_SYSCALL_INFO_SECCOMP;
	struct call_view v = {
		.nr = (long)(seccomp ? si->seccomp.nr : si->entry.nr),
		.sp = si->stack_pointer,
	};
	struct mem_live mem;

	memcpy(v.args, seccomp ? si->seccomp.args : si->entry.args, sizeof(v.args));
	mem_live_init(&mem, t->tid);
	v.mem = &mem.m;
	capture_call_enter(ctx, t, &v);
}

/* What /proc says of thread T that a failure with EACCES, EPERM or ENOSYS
 * may turn on: the ids its file access was checked against, and the
 * seccomp filters in place (those that are not ours: a run's filter
 * never refuses a call, it only stops on it). Read at the failure, while
 * T sits in its exit stop, so they are as the call saw them. False when
 * /proc has nothing. */
static bool read_live(struct capture *c, struct tracee *t, const struct call_view *call, struct rc_live *out)
{
	char status[4096];
	long long v[4], groups[RC_EVENT_MAX_IDS + 1];

	if (!procfs_status(t->tid, status, sizeof(status)))
		return false;
	struct rc_creds cr = { .uid = -1, .gid = -1, .ngroups = -1, .live = true };
	/* Uid: real, effective, saved, file system: access uses the last. */
	if (procfs_status_list(status, "\nUid:", v, 4) == 4)
		cr.uid = v[3];
	if (procfs_status_list(status, "\nGid:", v, 4) == 4)
		cr.gid = v[3];
	if (strstr(status, "\nGroups:")) {
		int n = procfs_status_list(status, "\nGroups:", groups, RC_EVENT_MAX_IDS + 1);
		cr.ngroups = n > RC_EVENT_MAX_IDS ? -1 : n;
		for (int i = 0; i < n && i < RC_EVENT_MAX_IDS; i++)
			cr.groups[i] = (unsigned)groups[i];
	}
	out->creds = cr;
	out->has_caps = procfs_status_hex(status, "\nCapEff:", &out->caps);
	out->has_rlim_hard = false;
	/* A refused limit of its own: the hard limit it could not raise. */
	if (call->nr == SYS_setrlimit || (call->nr == SYS_prlimit64 && call->args[2] &&
					    (call->args[0] == 0 || call->args[0] == (uint64_t)t->tgid)))
		out->has_rlim_hard = procfs_limit_hard(t->tid,
						       (int)call->args[call->nr == SYS_setrlimit ? 0 : 1],
						       &out->rlim_hard);
	long mode = procfs_status_long(status, "\nSeccomp:");
	long filters = procfs_status_long(status, "\nSeccomp_filters:");
	out->seccomp_mode = mode >= 0 ? (int)mode : -1;
	out->seccomp_filters = -1;
	if (mode >= 0 && filters >= 0) {
		int ours = c->tr && tracer_uses_seccomp(c->tr) ? 1 : 0;
		out->seccomp_filters = (int)MAX(filters - ours, 0L);
	}
	return true;
}

static void hook_exit(void *ctx, struct tracee *t, const struct ptrace_syscall_info *si)
{
	struct capture *c = ctx;
	const struct cthread *th = t->user;
	struct call_view v = { .rval = si->exit.rval };
	struct mem_live mem;
	struct rc_live live;

	if (si->exit.is_error) {
		v.rval = -1;
		v.err = (int)-si->exit.rval;
	}
	/* Only for a call that becomes an event someone takes. */
	if ((v.err == EACCES || v.err == EPERM || v.err == ENOSYS) && c->o.on_event && th && th->selected &&
	    read_live(c, t, &th->d.call, &live))
		v.live = &live;
	mem_live_init(&mem, t->tid);
	v.mem = &mem.m;
	capture_call_exit(c, t, &v);
}

static void hook_signal(void *ctx, struct tracee *t, const siginfo_t *si)
{
	capture_signal(ctx, t, si);
}

static void hook_gone(void *ctx, struct tracee *t, int status)
{
	capture_thread_gone(ctx, t, status);
}

static void hook_born(void *ctx, struct tracee *parent, struct tracee *child)
{
	capture_thread_born(ctx, parent, child);
}

static void hook_release(void *ctx, struct tracee *t)
{
	capture_thread_release(ctx, t);
}

static const struct tracer_hooks hooks = {
	.entry = hook_entry,
	.exit = hook_exit,
	.signal = hook_signal,
	.stopped = hook_stopped,
	.gone = hook_gone,
	.born = hook_born,
	.parented = hook_parented,
	.release = hook_release,
};

const struct tracer_hooks *capture_hooks(void)
{
	return &hooks;
}

struct finish_arg {
	struct capture *c;
	double ts, mono;
	struct strbuf desc;
	struct procfs_socks *socks;	/* of SOCKS_PID */
	pid_t socks_pid;
};

/* The owner of the glibc mutex whose word thread T waits on (E a futex
 * wait): pthread_mutex_t begins with the word, a count and the owner's
 * tid. The word is a lock's only when it is taken (1, 2 contended; a PI
 * lock holds the owner itself), and the owner must be a thread of T's
 * process now: a condition's or a semaphore's word has no owner there. */
static int mutex_owner(struct tracee *t, const struct rc_event *e)
{
	struct mem_live mem;
	int32_t m[3];
	char path[64];
	struct stat st;

	if (!e->addr || !event_futex_waits(e))
		return 0;
	mem_live_init(&mem, t->tid);
	if (mem_read(&mem.m, e->addr, m, sizeof(m)) != (ssize_t)sizeof(m))
		return 0;
	int owner = m[2];
	if (e->futex_op == FUTEX_LOCK_PI || e->futex_op == FUTEX_LOCK_PI2)
		owner = (int)((uint32_t)m[0] & FUTEX_TID_MASK);
	else if (m[0] != 1 && m[0] != 2)
		return 0;
	if (owner <= 0 || owner == t->tid)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/task/%d", (int)t->tgid, owner);
	return stat(path, &st) == 0 ? owner : 0;
}

static void finish_one(void *arg, struct tracee *t)
{
	struct finish_arg *fa = arg;
	struct cthread *th = t->user;

	if (!th || !t->in_syscall || !th->selected)
		return;
	th->selected = false;
	/* What the fd is now, as -yy would print it: fds opened before we
	 * attached are otherwise just numbers. */
	if (th->ev.fd >= 0 && !th->ev.fd_shown) {
		/* The socket tables once per process, not per thread. */
		if (!fa->socks || fa->socks_pid != t->tgid) {
			procfs_socks_free(fa->socks);
			fa->socks = procfs_socks_load(t->tgid);
			fa->socks_pid = t->tgid;
		}
		if (procfs_fd_desc(t->tgid, th->ev.fd, fa->socks, &fa->desc))
			th->ev.fd_shown = decoration_facts(strbuf_str(&fa->desc), &th->d.arena->a);
	}
	th->ev.futex_owner = mutex_owner(t, &th->ev);
	strbuf_adds(&th->text, " <detached ...>");
	th->ev.ret_known = false;
	th->ev.blocked = true;
	th->ev.dur = fa->mono - th->mono;
	th->ev.line = th->text.buf;
	th->ev.line_len = th->text.len;
	/* Asleep in the call: its stack is where it waits. */
	if (fa->c->o.on_stack)
		th->ev.stack = fa->c->o.on_stack(fa->c->o.user, t->tgid, t->tid, &th->ev, NULL);
	feed(fa->c, t, &th->ev);
	stack_unref(th->ev.stack);
	th->ev.stack = NULL;
}

void capture_finish_thread(struct capture *c, struct tracee *t)
{
	struct finish_arg fa = { c, now(CLOCK_REALTIME), now(CLOCK_MONOTONIC), STRBUF_INIT, NULL, 0 };

	finish_one(&fa, t);
	procfs_socks_free(fa.socks);
	strbuf_release(&fa.desc);
}

void capture_replay_sum(struct capture *c, struct tracee *t, long nr, int fd, double time, const struct rc_sum *sum)
{
	struct cthread *th = t->user;
	struct rc_event e;

	event_clear(&e);
	e.kind = RC_EV_SUM;
	e.pid = t->tid;
	e.ts = clock_of(c, CLOCK_REALTIME);
	e.dur = time;
	e.nr = nr;
	e.name = th ? call_name(th, nr) : dec_syscall_name(nr);
	e.fd = fd;
	e.sum = sum;
	feed(c, t, &e);
	/* An event per call, as if each had been given. */
	c->events += sum->calls - 1;
	c->summed += sum->calls;
}

void capture_finish(struct capture *c, struct tracer *tr, bool detaching)
{
	struct finish_arg fa = { c, now(CLOCK_REALTIME), now(CLOCK_MONOTONIC), STRBUF_INIT, NULL, 0 };

	if (c->o.printer)
		printer_close_open(c->o.printer, detaching);
	if (tr)
		tracer_each(tr, finish_one, &fa);
	procfs_socks_free(fa.socks);
	strbuf_release(&fa.desc);
}
