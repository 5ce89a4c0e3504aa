/* The eBPF capture's records replayed through capture (see bpf.h): each
 * call given to capture as a view of its record (capture/call.h), and
 * decoded, printed and made an event by the code that handles the
 * tracer's stops, its memory read from the record's copies. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/user.h>

#include "capture/bpf/bpf.h"
#include "event/facts.h"
#include "event/stack.h"
#include "util/hmap.h"
#include "util/util.h"

/* A thread, as capture knows it, and when its last call ended. */
struct rthread {
	struct tracee t;	/* first: capture gets &t */
	double last_mono;	/* 0: no call seen */
	/* The stack record that came before its next call record: the
	 * stack at that call's exit. */
	struct rc_stack_copy stack;
	unsigned char *stack_bytes;
	struct rc_py_raw py[RCB_PY_FRAMES];
	uint64_t mm;
	struct rc_py_walk walk;	/* one found at its call (rc_stack_copy) */
	bool learned;		/* its frames' code objects were named (rc_stack_copy) */
	uint64_t marks[RCB_PY_FRAMES];	/* and their marks */
	struct rc_py_given *given;	/* RCB_NAME_FRAMES of them, once it had any */
	bool has_stack;
};

/* Threads known at once: a real tree of processes stays far below; the
 * records of more (a ring buffer that is not ours) are counted as not
 * well formed, and dropped. */
#define THREADS_MAX 65536

struct bpf_replay {
	struct capture *c;
	double epoch;
	struct hmap threads;	/* tid -> struct tracee * */
	pid_t hidden;		/* a started command before its exec; 0 none */
	pid_t only;		/* without -f: this process alone; 0 all */
	uint64_t bad;		/* records not well formed */
	struct bpf_rec rec;	/* the one being replayed (large) */
	bpf_walk_fn on_walk;	/* given the Python walks found; NULL: none */
	void *walk_user;
	bpf_named_fn on_named;	/* told the code objects named; NULL: none */
	bpf_exec_fn on_exec;	/* told each exec that worked; NULL: none */
	void *exec_user;
	/* Per process (the loader's tgid): its stack records seen and done
	 * with, for another thread (bpf_replay_copies). */
	pthread_mutex_t copies_lock;
	struct hmap copies;	/* tgid -> struct bpf_replay_copies */
};

struct bpf_replay *bpf_replay_new(struct capture *c, double epoch)
{
	struct bpf_replay *rp = xcalloc(1, sizeof(*rp));

	rp->c = c;
	rp->epoch = epoch;
	hmap_init(&rp->threads);
	hmap_init(&rp->copies);
	pthread_mutex_init(&rp->copies_lock, NULL);
	/* From the first hook on, capture knows the calls are over. */
	capture_replay_clock(c, epoch, 0);
	return rp;
}

void bpf_replay_walks_to(struct bpf_replay *rp, bpf_walk_fn fn, bpf_named_fn named, void *user)
{
	rp->on_walk = fn;
	rp->on_named = named;
	rp->walk_user = user;
}

void bpf_replay_execs_to(struct bpf_replay *rp, bpf_exec_fn fn, void *user)
{
	rp->on_exec = fn;
	rp->exec_user = user;
}

static void free_thread(void *p)
{
	struct rthread *rt = p;

	if (rt) {
		free(rt->stack_bytes);
		free(rt->given);
	}
	free(p);
}

/* A stack record of process TGID (KERNEL_TGID to the kernel, memory MM)
 * seen, or (DONE) done with: its call handed on, or it dropped. */
static void copy_count(struct bpf_replay *rp, pid_t tgid, pid_t kernel_tgid, uint64_t mm, bool done)
{
	pthread_mutex_lock(&rp->copies_lock);
	void **slot = hmap_get_int(&rp->copies, tgid);
	if (!slot && rp->copies.count < THREADS_MAX) {
		slot = hmap_put_int(&rp->copies, tgid, NULL);
		*slot = xcalloc(1, sizeof(struct bpf_replay_copies));
	}
	if (slot) {
		struct bpf_replay_copies *n = *slot;
		if (kernel_tgid)
			n->kernel_tgid = kernel_tgid;
		if (mm)
			n->mm = mm;
		n->read += done;
	}
	pthread_mutex_unlock(&rp->copies_lock);
}

bool bpf_replay_copies(struct bpf_replay *rp, pid_t tgid, struct bpf_replay_copies *out)
{
	pthread_mutex_lock(&rp->copies_lock);
	void **slot = hmap_get_int(&rp->copies, tgid);
	if (slot)
		*out = *(const struct bpf_replay_copies *)*slot;
	pthread_mutex_unlock(&rp->copies_lock);
	return slot != NULL;
}

static void forget(struct bpf_replay *rp, struct tracee *t)
{
	hmap_del_int(&rp->threads, t->tid);
	capture_thread_release(rp->c, t);
	free_thread(t);
}

void bpf_replay_free(struct bpf_replay *rp)
{
	if (!rp)
		return;
	struct hmap_iter it;
	/* Each thread's decoder state is capture's to free. */
	for (struct hmap_node *n = hmap_first(&rp->threads, &it); n; n = hmap_next(&rp->threads, &it))
		capture_thread_release(rp->c, n->value);
	hmap_release(&rp->threads, free_thread);
	hmap_release(&rp->copies, free);
	pthread_mutex_destroy(&rp->copies_lock);
	free(rp);
}

void bpf_replay_hide_until_exec(struct bpf_replay *rp, pid_t pid)
{
	rp->hidden = pid;
}

void bpf_replay_only(struct bpf_replay *rp, pid_t pid)
{
	rp->only = pid;
}

uint64_t bpf_replay_bad_records(const struct bpf_replay *rp)
{
	return rp->bad;
}

/* A thread as our user sees it: its ids in our pid namespace, or the
 * kernel's when it is not in it. */
static pid_t user_tid(__u32 ns, __u32 kernel)
{
	return (pid_t)(ns ? ns : kernel);
}

/* Thread TID of TGID; a thread first seen here was running before we
 * followed it (attach), or its fork went unseen. NULL past THREADS_MAX. */
static struct tracee *thread(struct bpf_replay *rp, pid_t tid, pid_t tgid, bool *fresh)
{
	bool created;
	void **slot = hmap_get_int(&rp->threads, tid);

	*fresh = false;
	if (slot)
		return *slot;
	if (rp->threads.count >= THREADS_MAX)
		return NULL;
	slot = hmap_put_int(&rp->threads, tid, &created);
	*fresh = created;
	struct rthread *rt = xcalloc(1, sizeof(*rt));
	rt->t.tid = tid;
	rt->t.tgid = tgid;
	*slot = rt;
	return &rt->t;
}

static struct tracee *known(struct bpf_replay *rp, pid_t tid, pid_t tgid)
{
	bool fresh;
	struct tracee *t = thread(rp, tid, tgid, &fresh);

	if (fresh)
		capture_thread_born(rp->c, NULL, t);
	return t;
}

/* A record about more threads than THREADS_MAX. */
static int too_many(struct bpf_replay *rp)
{
	rp->bad++;
	return -1;
}

static void at(struct bpf_replay *rp, __u64 ns)
{
	double mono = (double)ns / 1e9;

	capture_replay_clock(rp->c, rp->epoch + mono, mono);
}

static bool is_exec(const struct rcb_call *r)
{
	const struct rc_syscall *sc = syscall_by_nr(r->nr);

	return sc && (sc->classes & CL_EXEC);
}

/* T's call V begins, at ENTER_NS. */
static void replay_entry(struct bpf_replay *rp, struct tracee *t, const struct call_view *v, __u64 enter_ns)
{
	at(rp, enter_ns);
	t->in_syscall = true;
	t->nr = v->nr;
	t->arg0 = v->args[0];
	capture_call_enter(rp->c, t, v);
}

/* Call NR with ARGS, its memory the record's copies in MEM. */
static void call_view_of(struct call_view *v, __s64 nr, const __u64 args[6], struct mem_copies *mem,
			 const struct bpf_rec *r)
{
	memset(v, 0, sizeof(*v));
	v->nr = (long)nr;
	for (int i = 0; i < 6; i++)
		v->args[i] = args[i];
	mem_copies_init(mem, r->region, r->nregions);
	v->mem = &mem->m;
}

/* What the kernel read of a thread whose call failed (record.h), in the
 * event's terms. */
static void live_of(const struct rcb_live *l, struct rc_live *out)
{
	memset(out, 0, sizeof(*out));
	out->creds.uid = l->fsuid;
	out->creds.gid = l->fsgid;
	out->creds.ngroups = l->ngroups > RCB_GROUPS_MAX || l->ngroups < 0 ? -1 : l->ngroups;
	for (int i = 0; i < out->creds.ngroups && i < RC_EVENT_MAX_IDS; i++)
		out->creds.groups[i] = l->groups[i];
	out->creds.live = true;
	out->seccomp_mode = l->seccomp_mode;
	out->seccomp_filters = l->seccomp_filters;
	out->has_caps = true;
	out->caps = l->cap_effective;
	out->has_rlim_hard = l->has_rlim_hard != 0;
	out->rlim_hard = l->rlim_hard;
}

static void replay_call(struct bpf_replay *rp, struct tracee *t, const struct bpf_rec *r)
{
	struct call_view v;
	struct mem_copies mem;

	call_view_of(&v, r->call.nr, r->call.args, &mem, r);
	/* The kernel's return: an errno, negated, or the value. */
	if (r->call.ret < 0 && r->call.ret >= -4095) {
		v.rval = -1;
		v.err = (int)-r->call.ret;
	} else {
		v.rval = r->call.ret;
	}
	/* A fork's entry was replayed at its fork record. */
	if (!t->in_syscall || t->nr != (long)r->call.nr)
		replay_entry(rp, t, &v, r->call.enter_ns);
	/* A call the thread never returned from ends with the thread
	 * (" = ?"), as the tracer's does: its end record follows. */
	struct rthread *rt = (struct rthread *)t;
	bool had_stack = rt->has_stack;
	if (rt->has_stack && !(r->call.flags & RCB_CALL_UNRETURNED))
		v.stack = &rt->stack;
	rt->has_stack = false;
	if (!(r->call.flags & RCB_CALL_UNRETURNED)) {
		struct rc_live live;
		if (r->live) {
			live_of(r->live, &live);
			v.live = &live;
		}
		at(rp, r->call.exit_ns);
		rt->walk.runtime = 0;
		rt->learned = false;
		capture_call_exit(rp->c, t, &v);
		/* The unwinder found how to walk the process's Python. */
		if (v.stack && rt->walk.runtime && rp->on_walk)
			rp->on_walk(rp->walk_user, t->tgid, rt->mm, &rt->walk);
		if (rp->on_exec && !v.err && is_exec(&r->call))
			rp->on_exec(rp->exec_user, t->tgid);
		if (v.stack && rt->learned && rp->on_named)
			rp->on_named(rp->walk_user, t->tgid, rt->stack.py, rt->marks, rt->stack.npy);
		t->in_syscall = false;
		((struct rthread *)t)->last_mono = (double)r->call.exit_ns / 1e9;
	}
	if (had_stack)
		copy_count(rp, t->tgid, 0, 0, true);
}

static void replay_signal(struct bpf_replay *rp, struct tracee *t, const struct rcb_signal *r)
{
	siginfo_t si;
	struct rc_event e;

	/* The record's members of the signal's siginfo, in the kernel's own
	 * struct for it, which strace's line prints and the tracer has whole
	 * (no ptrace struct: what a handler is given). Which signals carry a
	 * fault's address, which a sender, as every source reads them. */
	event_clear(&e);
	event_siginfo_facts(&e, r->signo, r->code, r->addr, r->pid);
	memset(&si, 0, sizeof(si));
	si.si_signo = r->signo;
	si.si_code = r->code;
	if (e.has_fault_addr) {
		si.si_addr = (void *)(uintptr_t)r->addr;
	} else {
		si.si_pid = r->pid;
		si.si_uid = r->uid;
		if (r->signo == SIGCHLD && r->code > 0) {
			si.si_status = r->status;
			si.si_utime = r->utime;
			si.si_stime = r->stime;
		}
	}
	at(rp, r->ns);
	capture_signal(rp->c, t, &si);
}

static void replay_sum(struct bpf_replay *rp, struct tracee *t, const struct rcb_sum *r)
{
	struct rc_sum sum;

	memset(&sum, 0, sizeof(sum));
	sum.calls = r->calls;
	sum.bytes = r->bytes > LLONG_MAX ? LLONG_MAX : (long long)r->bytes;
	sum.first_ts = rp->epoch + (double)r->first_ns / 1e9;
	sum.tid = user_tid(r->first_ns_tid, r->first_tid);
	sum.threads = r->threads > 1;
	_Static_assert(RC_SUM_SIZES == RCB_SUM_SIZES && RC_SUM_BITS == RCB_SUM_BITS, "record.h's sums are event.h's");
	for (int i = 0; i < RC_SUM_SIZES; i++) {
		sum.size[i] = r->size[i];
		sum.size_count[i] = r->size_count[i];
	}
	memcpy(sum.hist, r->hist, sizeof(sum.hist));
	at(rp, r->last_ns);
	capture_replay_sum(rp->c, t, (long)r->nr, r->fd, (double)r->time_ns / 1e9, &sum);
}

/* The kernel's read of the thread's Python frames, as event/stack.h
 * says it: the same values. */
_Static_assert((int)RCB_PY_NOT_ASKED == (int)RC_PY_NOT_ASKED && (int)RCB_PY_READ == (int)RC_PY_READ &&
	       (int)RCB_PY_NO_THREAD == (int)RC_PY_NO_THREAD && (int)RCB_PY_FAILED == (int)RC_PY_FAILED,
	       "record.h's rcb_py_read is event/stack.h's rc_py_read");

_Static_assert(RC_PY_GIVEN_NAME >= RCB_NAME_LEN && RC_PY_GIVEN_FILE >= RCB_FILE_LEN,
	       "event/stack.h's rc_py_given holds what record.h's rcb_py_name does");

/* Where each register of a stack record goes in a copy's registers
 * (user_regs_struct's order). */
#define USER_REG(r) (offsetof(struct user_regs_struct, r) / sizeof(unsigned long long))

/* S, the stack at the exit of the thread's next call record. */
static void keep_stack(struct rthread *rt, const struct rcb_stack *s)
{
	static const size_t at[RCB_NREGS] = {
		[RCB_R_IP] = USER_REG(rip), [RCB_R_SP] = USER_REG(rsp), [RCB_R_BP] = USER_REG(rbp),
		[RCB_R_BX] = USER_REG(rbx), [RCB_R_R12] = USER_REG(r12), [RCB_R_R13] = USER_REG(r13),
		[RCB_R_R14] = USER_REG(r14), [RCB_R_R15] = USER_REG(r15), [RCB_R_FS] = USER_REG(fs_base),
	};

	if (!rt->stack_bytes)
		rt->stack_bytes = xmalloc(RCB_STACK_BYTES);
	memset(rt->stack.regs, 0, sizeof(rt->stack.regs));
	for (int i = 0; i < RCB_NREGS; i++)
		rt->stack.regs[at[i]] = s->regs[i];
	memcpy(rt->stack_bytes, s->stack, s->len);
	rt->stack.bytes = rt->stack_bytes;
	rt->stack.len = s->len;
	rt->stack.py_read = s->py_read <= RCB_PY_FAILED ? (enum rc_py_read)s->py_read : RC_PY_FAILED;
	rt->stack.npy = MIN((size_t)s->npy, (size_t)RCB_PY_FRAMES);
	rt->stack.py_truncated = s->py_truncated;
	rt->stack.site = s->site != 0;
	for (size_t i = 0; i < rt->stack.npy; i++)
		rt->py[i] = bpf_py_raw(&s->py[i]);
	rt->stack.py = rt->py;
	rt->stack.walk = &rt->walk;
	rt->stack.py_learned = &rt->learned;
	rt->stack.py_marks = rt->marks;
	rt->stack.ngiven = 0;
	for (size_t i = 0; i < s->nnames && i < RCB_NAME_FRAMES; i++) {
		const struct rcb_py_name *nm = &s->names[i];
		if (!nm->name_len || !nm->file_len)
			continue;
		if (!rt->given)
			rt->given = xmalloc(RCB_NAME_FRAMES * sizeof(*rt->given));
		struct rc_py_given *g = &rt->given[rt->stack.ngiven++];
		g->code = nm->code;
		g->mark = nm->mark;
		/* The lengths were checked (record.c); the text may hold a
		 * NUL sooner, which ends it. */
		memcpy(g->name, nm->name, nm->name_len);
		g->name[nm->name_len] = '\0';
		memcpy(g->file, nm->file, nm->file_len);
		g->file[nm->file_len] = '\0';
		g->file_cut = nm->file_cut != 0;
	}
	rt->stack.given = rt->given;
	rt->mm = s->mm;
	rt->has_stack = true;
}

int bpf_replay_record(struct bpf_replay *rp, const void *rec, size_t size)
{
	struct bpf_rec *r = &rp->rec;

	if (bpf_record_parse(rec, size, r) < 0) {
		rp->bad++;
		return -1;
	}
	pid_t tid = user_tid(r->h.ns_tid, r->h.tid), tgid = user_tid(r->h.ns_tgid, r->h.tgid);
	if (rp->only && tgid != rp->only)
		return 0;
	/* The command's own prelude, between its hold and its exec, is
	 * rootcause's, not the command's: its exec, worked or failed, is the
	 * first call shown, as under the tracer. */
	if (rp->hidden && tgid == rp->hidden) {
		if (r->h.kind != RCB_CALL || !is_exec(&r->call))
			return 0;
		rp->hidden = 0;
	}
	struct tracee *t = known(rp, tid, tgid);
	if (!t)
		return too_many(rp);
	switch (r->h.kind) {
	case RCB_CALL:
		replay_call(rp, t, r);
		break;
	case RCB_SIGNAL:
		replay_signal(rp, t, &r->sig);
		break;
	case RCB_FORK: {
		struct tracee *parent = t;
		bool fresh;
		pid_t ctid = user_tid(r->fork.child_ns_tid, r->fork.child_tid);
		pid_t ctgid = user_tid(r->fork.child_ns_tgid, r->fork.child_tgid);
		/* The parent's call has begun, and is shown so before any
		 * call of the child, as a tracer shows it: a log read back
		 * knows whose child it is, and where it runs. */
		if (r->fork.has_entry && !parent->in_syscall) {
			struct call_view v;
			struct mem_copies mem;
			call_view_of(&v, r->fork.nr, r->fork.args, &mem, r);
			replay_entry(rp, parent, &v, r->fork.enter_ns);
		}
		if (rp->only && ctgid != rp->only)
			break;	/* a child not followed (no -f) */
		struct tracee *child = thread(rp, ctid, ctgid, &fresh);
		if (!child)
			return too_many(rp);
		at(rp, r->fork.ns);
		if (fresh)
			capture_thread_born(rp->c, parent, child);
		break;
	}
	case RCB_SUM:
		replay_sum(rp, t, &r->sum);
		break;
	case RCB_STACK:
		/* A stack record before another: the first had no call. */
		copy_count(rp, t->tgid, (pid_t)r->stack->h.tgid, r->stack->mm, ((struct rthread *)t)->has_stack);
		keep_stack((struct rthread *)t, r->stack);
		break;
	case RCB_EXIT: {
		pid_t process = t->tgid;
		at(rp, r->exit.ns);
		capture_thread_gone(rp->c, t, r->exit.exit_code);
		if (((struct rthread *)t)->has_stack)
			copy_count(rp, process, 0, 0, true);
		forget(rp, t);
		if (r->exit.group_dead) {
			pthread_mutex_lock(&rp->copies_lock);
			free(hmap_del_int(&rp->copies, process));
			pthread_mutex_unlock(&rp->copies_lock);
		}
		break;
	}
	}
	return 0;
}

/* What /proc says thread TID is blocked in: 1 with its call's number
 * and arguments, 0 when it runs or is not in a call. */
static int blocked_in(pid_t tid, __s64 *nr, __u64 args[6])
{
	char path[64], buf[256];

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)tid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	char *line = fgets(buf, sizeof(buf), f);
	fclose(f);
	if (!line)
		return 0;
	char *end;
	long long n = strtoll(buf, &end, 10);
	if (end == buf || n < 0)
		return 0;	/* "running", or "-1 sp pc": not in a call */
	*nr = n;
	for (int i = 0; i < 6; i++) {
		char *p = end;
		args[i] = strtoull(p, &end, 16);
		if (end == p)
			return 0;
	}
	return 1;
}

/* The threads of process TGID still in a call: their call begun (from
 * /proc, their memory read live: they still run), at SINCE or after
 * their last call. */
static void blocked_threads(struct bpf_replay *rp, pid_t tgid, double since, struct tracee ***v, size_t *n,
			    size_t *alloc)
{
	char path[64];
	DIR *d;
	struct dirent *de;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)tgid);
	if (!(d = opendir(path)))
		return;
	while ((de = readdir(d))) {
		char *end;
		long tid = strtol(de->d_name, &end, 10);
		__s64 nr;
		__u64 args[6];
		if (*end || end == de->d_name || tid <= 0)
			continue;
		struct tracee *t = known(rp, (pid_t)tid, tgid);
		if (!t)
			break;
		struct rthread *rt = (struct rthread *)t;
		if (!t->in_syscall) {
			if (!blocked_in((pid_t)tid, &nr, args))
				continue;
			double from = rt->last_mono > since ? rt->last_mono : since;
			/* Its memory is read where it is: it still runs. */
			struct call_view call = { .nr = (long)nr };
			struct mem_live mem;
			memcpy(call.args, args, sizeof(call.args));
			mem_live_init(&mem, (pid_t)tid);
			call.mem = &mem.m;
			replay_entry(rp, t, &call, (__u64)(from * 1e9));
		}
		if (*n == *alloc) {
			*alloc = *alloc ? 2 * *alloc : 16;
			*v = xrealloc(*v, *alloc * sizeof(**v));
		}
		(*v)[(*n)++] = t;
	}
	closedir(d);
}

bool bpf_replay_blocked_now(struct bpf_replay *rp, pid_t tgid, pid_t tid, double since)
{
	__s64 nr;
	__u64 args[6];

	if (!blocked_in(tid, &nr, args))
		return false;
	struct tracee *t = known(rp, tid, tgid);
	/* Inside a call replayed already (a fork's entry): not a wait the
	 * kernel has not told of. */
	if (!t || t->in_syscall)
		return false;
	struct rthread *rt = (struct rthread *)t;
	double from = rt->last_mono > since ? rt->last_mono : since;
	struct call_view call = { .nr = (long)nr };
	struct mem_live mem;
	memcpy(call.args, args, sizeof(call.args));
	mem_live_init(&mem, tid);
	call.mem = &mem.m;
	replay_entry(rp, t, &call, (__u64)(from * 1e9));
	capture_finish_thread(rp->c, t);
	t->in_syscall = false;
	return true;
}

void bpf_replay_end(struct bpf_replay *rp, const pid_t *pids, size_t npids, double since, bool detaching)
{
	struct tracee **v = NULL;
	size_t n = 0, alloc = 0;
	struct hmap seen = HMAP_INIT;
	struct hmap_iter it;

	/* Each process once: those the caller followed, and those seen. */
	for (size_t i = 0; i < npids; i++)
		hmap_put_int(&seen, pids[i], NULL);
	for (struct hmap_node *nd = hmap_first(&rp->threads, &it); nd; nd = hmap_next(&rp->threads, &it))
		hmap_put_int(&seen, ((struct tracee *)nd->value)->tgid, NULL);
	if (detaching)
		for (struct hmap_node *nd = hmap_first(&seen, &it); nd; nd = hmap_next(&seen, &it))
			blocked_threads(rp, (pid_t)hmap_node_int(nd), since, &v, &n, &alloc);
	hmap_release(&seen, NULL);
	capture_finish(rp->c, NULL, detaching);
	for (size_t i = 0; i < n; i++)
		capture_finish_thread(rp->c, v[i]);
	free(v);
}
