/* crashed: a process killed by a fatal signal, with the decoded siginfo.
 *
 * `--- SIGSEGV {si_signo=SIGSEGV, si_code=SEGV_MAPERR, si_addr=0x10} ---`
 * then `+++ killed by SIGSEGV (core dumped) +++` is one finding: the
 * signal, its si_code by name, the fault address, whether a core was
 * dumped, who sent it (kill from another pid vs the kernel), and the last
 * system calls the faulting thread made before the signal. A fault that a
 * handler caught before the process exited non-zero (Python's
 * faulthandler, a crash reporter) counts too. Signals that did not kill
 * (SIGCHLD, a handled SIGPIPE) are not crashes. A SIGKILL after large
 * allocations is out-of-memory's (rules/oom-hint.h). A child killed by
 * SIGPIPE or SIGTERM under a parent that succeeded (`yes | head`, a
 * supervisor stopping a helper) is not reported; a child that crashed
 * (SIGSEGV...) under one is a warning.
 *
 * Who sent it: siginfo's si_pid when the signal was delivered, else (a
 * SIGKILL is never delivered, only "+++ killed by SIGKILL +++") the last
 * kill-family call of a traced process that named the victim, its group
 * or everyone. And why the sender did it, from its own last calls: its
 * timer went off (SIGALRM, a timer signal, a wait with a time-out that
 * expired), or it was polling for the victim to end (wait4 WNOHANG
 * returning 0) and gave up. A sender's own failure is causes.c's link.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "gen/tables.h"
#include "event/syscalls.h"
#include "rules/aggregate.h"
#include "rules/call-kinds.h"
#include "rules/finding.h"
#include "rules/oom-hint.h"
#include "rules/proc-view.h"
#include "rules/rule.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"

#define RULE_ID "crashed"
/* Threads whose last calls are kept; more are not followed. */
#define MAX_THREADS 4096
#define MAX_PROCS 4096
#define MAX_CRASHES 64
#define RING 3
/* A caught fault counts when the process exited within this many of its
 * own calls after it (a handler printing a traceback, then exit). */
#define CAUGHT_WINDOW 500
/* Kill-family calls remembered, the newest kept. */
#define MAX_KILLS 64
/* A sender's timer or poll counts as its reason when it came within this
 * many of its own calls before the kill. */
#define REASON_WINDOW 16

/* Why a sender sent it, as far as its calls show. */
enum why {
	WHY_UNKNOWN,
	WHY_TIMER,		/* its timer went off, or a wait of it timed out */
	WHY_WAITED,		/* it polled for the victim to end, then gave up */
};

struct kill_rec {
	int sender;		/* leader */
	int target;		/* as kill takes it: pid, 0, -1, -pgid */
	int signo;
	uint64_t seq;
	double ts;
	enum why why;
	char *line;
};

struct sig_rec {
	int signo;
	int code;		/* 0 unknown (or SI_USER with a sender) */
	bool has_addr;
	uint64_t addr;
	int sender;		/* si_pid */
	char *line;
	char *before[RING];	/* the thread's last calls before it, oldest first */
	uint64_t seq;
	uint64_t nsys;		/* the thread's syscall count then */
	bool reraised;		/* a handler raised it again after the fault */
};

struct thread {
	/* its last calls' lines, cut as evidence is: fixed slots, as every
	 * call of every thread is copied here */
	char ring[RING][RC_EVIDENCE_LINE_MAX + 1];
	unsigned head;		/* next slot */
	unsigned n;
	struct sig_rec sig;	/* the last fatal-by-default signal; signo 0 none */
	uint64_t ncalls;	/* its calls seen by this rule */
	uint64_t timer_at;	/* ncalls at its last timer or timed-out wait; 0 none */
	uint64_t poll_at;	/* ncalls at its last wait for a child that found none ended */
};

struct crash {
	int pid;		/* leader */
	int tid;		/* the thread that took the signal */
	struct sig_rec sig;
	bool killed;		/* false: caught, then exited with exit_code */
	int exit_code;
	bool core;
	char *exit_line;
	uint64_t seq;
	double ts;
	struct kill_rec kill;	/* the call that sent it; signo 0 when not seen */
	bool group_kill;	/* it sent it to its own group, itself with it */
};

struct state {
	struct hmap threads;	/* tid -> struct thread* */
	struct hmap hints;	/* leader pid -> struct oom_hint* */
	struct crash crashes[MAX_CRASHES];
	size_t ncrashes;
	uint64_t dropped;
	struct kill_rec kills[MAX_KILLS];	/* a ring, the oldest at kills_head */
	size_t kills_head, nkills;
};

static void init(void *p)
{
	struct state *s = p;

	hmap_init(&s->threads);
	hmap_init(&s->hints);
}

static void sig_release(struct sig_rec *r)
{
	free(r->line);
	for (int i = 0; i < RING; i++)
		free(r->before[i]);
	memset(r, 0, sizeof(*r));
}

static void thread_free(void *p)
{
	struct thread *t = p;

	sig_release(&t->sig);
	free(t);
}

static void release(void *p)
{
	struct state *s = p;

	hmap_release(&s->threads, thread_free);
	hmap_release(&s->hints, free);
	for (size_t i = 0; i < s->ncrashes; i++) {
		sig_release(&s->crashes[i].sig);
		free(s->crashes[i].exit_line);
		free(s->crashes[i].kill.line);
	}
	for (size_t i = 0; i < s->nkills; i++)
		free(s->kills[(s->kills_head + i) % MAX_KILLS].line);
}

/* Faults the CPU raises: a handler that catches one cannot really go on. */
static bool fault_signal(int signo)
{
	return signo == SIGSEGV || signo == SIGBUS || signo == SIGFPE || signo == SIGILL;
}

static struct thread *thread_get(struct state *s, int tid, bool create)
{
	return rule_int_value(&s->threads, tid, create, sizeof(struct thread), MAX_THREADS, NULL);
}

static struct oom_hint *hint_get(struct state *s, int pid, bool create)
{
	return rule_int_value(&s->hints, pid, create, sizeof(struct oom_hint), MAX_PROCS, NULL);
}

static void ring_push(struct thread *t, const struct rc_event *e)
{
	char *slot = t->ring[t->head];
	size_t n = e->line ? MIN(e->line_len, (size_t)RC_EVIDENCE_LINE_MAX) : 0;

	event_quoted(e);
	memcpy(slot, e->line ? e->line : "", n);
	slot[n] = '\0';
	t->head = (t->head + 1) % RING;
	if (t->n < RING)
		t->n++;
}

static void on_signal(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	/* A timer going off: SIGALRM, or any signal a POSIX timer sends. */
	if (e->signo == SIGALRM || e->si_code == SI_TIMER) {
		struct thread *t = thread_get(s, e->pid, true);
		if (t)
			t->timer_at = t->ncalls + 1;
	}
	if (!event_signal_ends(e->signo))
		return;
	struct thread *t = thread_get(s, e->pid, true);
	if (!t)
		return;
	const struct rc_proc *p = procs_get(ctx->procs, e->pid);
	struct sig_rec *r = &t->sig;

	/* A handler (Python's faulthandler, a crash reporter) re-raising the
	 * fault it caught: the kernel's original siginfo is the cause. */
	if (r->signo == e->signo && r->code > 0 && e->si_code <= 0 && fault_signal(e->signo) &&
	    (e->sender_pid == 0 || e->sender_pid == e->pid ||
	     (p && e->sender_pid == p->leader))) {
		r->reraised = true;
		return;
	}
	sig_release(r);
	r->signo = e->signo;
	r->code = e->si_code;
	r->has_addr = e->has_fault_addr;
	r->addr = e->fault_addr;
	r->sender = e->sender_pid;
	r->line = rule_line(e);
	r->seq = e->seq;
	r->nsys = p ? p->nsyscalls : 0;
	for (unsigned i = 0, k = 0; i < t->n; i++) {
		unsigned slot = (t->head + RING - t->n + i) % RING;
		r->before[k++] = xstrdup(t->ring[slot]);
	}
}

static void sig_copy(struct sig_rec *dst, const struct sig_rec *src)
{
	*dst = *src;
	dst->line = src->line ? xstrdup(src->line) : NULL;
	for (int i = 0; i < RING; i++)
		dst->before[i] = src->before[i] ? xstrdup(src->before[i]) : NULL;
}

/* The thread of LEADER's process that took a SIGNO (the exiting thread
 * first); -1 when none did (0 is a real id: logs without pids). */
/* "No thread took the signal": below -1, which means "not a crash". */
#define NO_THREAD (-2)

static int find_signalled(struct state *s, const struct rc_ctx *ctx, int tid, int leader, int signo,
			  bool faults_only)
{
	struct thread *t = thread_get(s, tid, false);
	struct hmap_iter it;

	if (t && t->sig.signo && (faults_only ? fault_signal(t->sig.signo) : t->sig.signo == signo))
		return tid;
	for (struct hmap_node *n = hmap_first(&s->threads, &it); n; n = hmap_next(&s->threads, &it)) {
		const struct thread *o = n->value;
		int otid = (int)hmap_node_int(n);
		if (!o->sig.signo || (faults_only ? !fault_signal(o->sig.signo) : o->sig.signo != signo))
			continue;
		const struct rc_proc *l = procs_leader(ctx->procs, otid);
		if (l && l->pid == leader)
			return otid;
	}
	return -1;
}

static bool already(const struct state *s, int leader)
{
	for (size_t i = 0; i < s->ncrashes; i++)
		if (s->crashes[i].pid == leader)
			return true;
	return false;
}

/* The thread that took the fatal signal of the exit E, NO_THREAD when
 * none was seen; -1 when E is no crash of ours. */
static int signalled_thread(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx,
			const struct rc_proc *l, int leader)
{
	if (!e->exited) {
		struct oom_hint *h = hint_get(s, leader, false);
		if (e->signo == SIGKILL && h && oom_hint_likely(h, e, l))
			return -1;
		int tid = find_signalled(s, ctx, e->pid, leader, e->signo, false);
		return tid < 0 ? NO_THREAD : tid;
	}
	if (e->exit_code == 0)
		return -1;
	int tid = find_signalled(s, ctx, e->pid, leader, 0, true);
	const struct thread *t = tid >= 0 ? thread_get(s, tid, false) : NULL;
	const struct rc_proc *tp = tid >= 0 ? procs_get(ctx->procs, tid) : NULL;
	/* Only a fault the kernel raised (si_code > 0), shortly before. */
	if (!t || t->sig.code <= 0 || !tp || tp->nsyscalls - t->sig.nsys > CAUGHT_WINDOW)
		return -1;
	return tid;
}

/* Waits that tell why a thread might kill: one that timed out, and a
 * poll for a child's end that found it still running. */
static void note_waits(struct thread *t, const struct rc_event *e)
{
	if (!e->ret_known)
		return;
	bool timed_out = (rule_is_poll(e->nr) || rule_is_epoll(e->nr)) && e->ret == 0 && !e->err;
	timed_out |= e->err == ETIMEDOUT && e->nr == SYS_futex;
	timed_out |= e->err == EAGAIN && e->nr == SYS_rt_sigtimedwait;
	if (timed_out)
		t->timer_at = t->ncalls;
	if (syscall_is(e->nr, CL_WAIT_CHILD) && e->ret == 0 && !e->err)
		t->poll_at = t->ncalls;
}

/* Keep E, a kill-family call of thread T, among the latest kills: the
 * record kept. */
static const struct kill_rec *record_kill(struct state *s, const struct thread *t, const struct rc_event *e,
					  const struct rc_ctx *ctx)
{
	struct kill_rec *k;

	if (s->nkills == MAX_KILLS) {
		k = &s->kills[s->kills_head];
		free(k->line);
		s->kills_head = (s->kills_head + 1) % MAX_KILLS;
		s->nkills--;
	}
	k = &s->kills[(s->kills_head + s->nkills++) % MAX_KILLS];
	k->sender = rule_leader(ctx, e->pid);
	k->target = e->kill_target;
	k->signo = e->signo;
	k->seq = e->seq;
	k->ts = e->ts;
	k->line = rule_line_short(e);
	k->why = WHY_UNKNOWN;
	if (t->timer_at && t->ncalls - t->timer_at <= REASON_WINDOW)
		k->why = WHY_TIMER;
	else if (t->poll_at && t->ncalls - t->poll_at <= REASON_WINDOW)
		k->why = WHY_WAITED;
	return k;
}

/* K sent its signal to process VICTIM: by its pid (a thread's tid counts
 * for its process), its group (0: the sender's, -N: group N, taken as the
 * process tree below N), or -1. */
static bool kill_hits(const struct rc_ctx *ctx, const struct kill_rec *k, int victim)
{
	return k->target > 0 ? rule_leader(ctx, k->target) == victim
	     : k->target == 0 ? procs_descends(ctx->procs, victim, k->sender)
	     : k->target == -1 ? true
	     : k->target != INT_MIN && procs_descends(ctx->procs, victim, -k->target);
}

/* The last kill-family call before SEQ that sent SIGNO to process VICTIM. */
static const struct kill_rec *kill_of(const struct state *s, const struct rc_ctx *ctx, int victim, int signo,
				      uint64_t seq)
{
	for (size_t i = s->nkills; i-- > 0;) {
		const struct kill_rec *k = &s->kills[(s->kills_head + i) % MAX_KILLS];
		if (k->signo == signo && k->seq <= seq && kill_hits(ctx, k, victim))
			return k;
	}
	return NULL;
}

/* C, the death of process LEADER, was sent by K. */
static void crash_sent_by(struct crash *c, const struct kill_rec *k, int leader)
{
	c->kill = *k;
	c->kill.line = k->line ? xstrdup(k->line) : NULL;
	if (c->sig.sender <= 0)
		c->sig.sender = k->sender;
	c->group_kill = k->sender == leader && k->target <= 0;
}

static void record_crash(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	const struct rc_proc *l = procs_leader(ctx->procs, e->pid);
	int leader = l ? l->pid : e->pid;
	int tid = signalled_thread(s, e, ctx, l, leader);

	if (tid == -1 || already(s, leader))
		return;
	if (s->ncrashes >= MAX_CRASHES) {
		s->dropped++;
		return;
	}
	struct crash *c = &s->crashes[s->ncrashes++];
	memset(c, 0, sizeof(*c));
	c->pid = leader;
	c->tid = tid != NO_THREAD ? tid : e->pid;
	c->killed = !e->exited;
	c->exit_code = e->exit_code;
	c->core = e->core_dumped;
	c->exit_line = rule_line(e);
	c->seq = e->seq;
	c->ts = e->ts;
	const struct thread *t = tid != NO_THREAD ? thread_get(s, tid, false) : NULL;
	if (t)
		sig_copy(&c->sig, &t->sig);
	if (c->killed || !t)
		c->sig.signo = e->signo;
	/* A signal never delivered (SIGKILL): what the victim was doing
	 * when it came are its last calls. */
	const struct thread *self = thread_get(s, e->pid, false);
	if (c->killed && !c->sig.line && self)
		for (unsigned i = 0, k = 0; i < self->n; i++) {
			unsigned slot = (self->head + RING - self->n + i) % RING;
			free(c->sig.before[k]);
			c->sig.before[k++] = xstrdup(self->ring[slot]);
		}
	/* The call that sent it: one from the sender siginfo names, or from
	 * anyone when no siginfo was seen (SIGKILL). */
	const struct kill_rec *k = c->killed ? kill_of(s, ctx, leader, e->signo, e->seq) : NULL;
	if (k && (c->sig.sender <= 0 || rule_leader(ctx, c->sig.sender) == k->sender))
		crash_sent_by(c, k, leader);
}

/* K returned after the death it caused was seen: strace shows crun's
 * kill(pid, SIGKILL) unfinished, its victim's "+++ killed by SIGKILL
 * +++", then the kill resumed. A kill that began before a death no
 * sender was found for sent it; one that began after it (a parent
 * killing a child already dead, not yet reaped) did not. Without
 * timestamps, which began first is not known. */
static void kill_returned_late(struct state *s, const struct kill_rec *k, const struct rc_ctx *ctx)
{
	if (k->ts <= 0)
		return;
	for (size_t i = s->ncrashes; i-- > 0;) {
		struct crash *c = &s->crashes[i];
		if (c->killed && !c->kill.signo && c->sig.sender <= 0 && c->sig.signo == k->signo &&
		    c->seq < k->seq && k->ts <= c->ts && kill_hits(ctx, k, c->pid)) {
			crash_sent_by(c, k, c->pid);
			return;
		}
	}
}

static void on_exit_event(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	const struct rc_proc *l = procs_leader(ctx->procs, e->pid);

	record_crash(s, e, ctx);
	struct thread *gone = hmap_del_int(&s->threads, e->pid);
	if (gone)
		thread_free(gone);
	if (!l || l->pid == e->pid)
		free(hmap_del_int(&s->hints, e->pid));
}

static void on_event(void *p, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct state *s = p;

	switch (e->kind) {
	case RC_EV_SIGNAL:
		on_signal(s, e, ctx);
		return;
	case RC_EV_EXIT:
		on_exit_event(s, e, ctx);
		return;
	case RC_EV_SUM:		/* not read */
	case RC_EV_FOUND:	/* never given to a rule */
		return;
	case RC_EV_SYSCALL:
		break;
	}
	struct thread *t = thread_get(s, e->pid, true);
	if (t) {
		ring_push(t, e);
		t->ncalls++;
		note_waits(t, e);
		if (e->has_kill_target && e->signo > 0 && !e->err) {
			kill_returned_late(s, record_kill(s, t, e, ctx), ctx);
		}
	}
	/* What the process gained, for a SIGKILL the OOM killer may have sent. */
	if (syscall_is(e->nr, CL_MAP_GROWS)) {
		const struct rc_proc *l = procs_leader(ctx->procs, e->pid);
		struct oom_hint *h = hint_get(s, l ? l->pid : e->pid, true);
		if (h)
			oom_hint_add(h, e, l);
	}
}

static const char *signal_name(int signo)
{
	const char *n = xlat_name(&rc_xlat_signal, signo);

	return n ? n : "a signal";
}

/* The parent (or an ancestor above it) succeeded: a child it killed or
 * whose pipe it closed was part of the plan. */
static bool parent_succeeded(const struct rc_ctx *ctx, const struct rc_proc *p)
{
	return rule_handled(ctx, p);
}

static bool crash_signal(int signo)
{
	return fault_signal(signo) || signo == SIGABRT || signo == SIGSYS || signo == SIGTRAP;
}

/* The advice for a signal whose sender the trace showed: the sender
 * decided, so the kernel's OOM killer is out of the question. */
static void advise_sent(struct strbuf *sb, const struct crash *c, const struct rc_proc *sender, double ran)
{
	struct strbuf who = STRBUF_INIT;

	if (c->group_kill)
		strbuf_adds(&who, "it (with its whole process group)");
	else
		proc_name(&who, sender, c->sig.sender);
	switch (c->kill.why) {
	case WHY_TIMER:
		strbuf_addf(sb, "%s stopped it when its time limit ran out", who.buf);
		if (ran >= 0)
			strbuf_addf(sb, " (after %.1f s)", ran);
		strbuf_adds(sb, ": the command took longer than it was given; see what it was doing then (its "
			    "last calls, or `rootcause stack PID` while it hangs), or give it more time");
		break;
	case WHY_WAITED:
		strbuf_addf(sb, "%s waited for it to end", who.buf);
		if (ran >= 0)
			strbuf_addf(sb, " for %.1f s", ran);
		strbuf_adds(sb, ", then killed it: its time-out was too short or the command hung; see what it "
			    "was doing then (its last calls), or raise the time-out");
		break;
	default:
		strbuf_addf(sb, "%s sent it, and the trace shows no failure or timer behind that: find out why "
			    "that process stops it (a shutdown, a restart, a health check, a script)", who.buf);
		break;
	}
	strbuf_release(&who);
}

static void advise(struct rc_finding *f, const struct crash *c, const struct rc_proc *sender, double ran)
{
	const struct sig_rec *r = &c->sig;
	struct strbuf sb = STRBUF_INIT;

	if (c->kill.signo && !crash_signal(r->signo)) {
		advise_sent(&sb, c, sender, ran);
		f->advice = strbuf_detach(&sb);
		return;
	}
	switch (r->signo) {
	case SIGSEGV:
		if (r->has_addr && r->addr < 4096)
			strbuf_adds(&sb, "a null pointer dereference in native code: ");
		else
			strbuf_adds(&sb, "an invalid memory access in native code: ");
		strbuf_adds(&sb, "get the stack from the core (`rootcause core CORE`, or `gdb PROGRAM CORE` "
			    "then `bt`); enable cores with `ulimit -c unlimited`; for Python run with "
			    "`python3 -X faulthandler` to see the Python stack");
		break;
	case SIGBUS:
		strbuf_adds(&sb, "a mapped file shorter than expected (truncated or rewritten while in use: "
			    "verify its checksum and re-fetch it) or an unaligned access; the core's stack "
			    "shows which");
		break;
	case SIGABRT:
		strbuf_adds(&sb, "the program called abort(): a failed assertion or a fatal error a library "
			    "detected (heap corruption, an uncaught C++ exception); its last words on stderr "
			    "say which, the core's stack says where");
		break;
	case SIGFPE:
		strbuf_adds(&sb, "an integer division by zero (or overflow) in native code: the core's "
			    "stack shows where");
		break;
	case SIGILL:
		strbuf_adds(&sb, "an instruction this CPU does not have: a binary or wheel built for a newer "
			    "CPU (AVX-512, AVX2) than this one, or a corrupt jump; install a build for this CPU");
		break;
	case SIGSYS:
		strbuf_adds(&sb, "a system call forbidden by a seccomp filter (container or sandbox "
			    "profile): allow it in the profile");
		break;
	case SIGKILL:
		strbuf_adds(&sb, "SIGKILL comes from another process (a supervisor, `kill -9`, a timeout) or "
			    "from the kernel's OOM killer: check `dmesg | grep -i 'killed process'` or "
			    "`journalctl -k`");
		break;
	case SIGPIPE:
		strbuf_adds(&sb, "it wrote to a pipe or socket whose reader had gone: the reader died or "
			    "closed early");
		break;
	case SIGXCPU:
		strbuf_adds(&sb, "it used up its CPU time limit (`ulimit -t`): raise the limit");
		break;
	case SIGXFSZ:
		strbuf_adds(&sb, "a file reached the file size limit (`ulimit -f`): raise the limit");
		break;
	default:
		if (sender)
			strbuf_adds(&sb, "it was told to stop by the process named above: find out why that "
				    "process (a supervisor, a timeout, a script) stopped it");
		else
			strbuf_adds(&sb, "it was told to stop (Ctrl-C, `kill`, a supervisor or a timeout): "
				    "find out who sent the signal");
		break;
	}
	f->advice = strbuf_detach(&sb);
}

static const char *echo_for(int signo)
{
	switch (signo) {
	case SIGSEGV: return "segmentation";
	case SIGBUS: return "bus error";
	case SIGABRT: return "abort";
	case SIGFPE: return "floating point";
	case SIGILL: return "illegal instruction";
	case SIGKILL: return "killed";
	case SIGTERM: return "terminated";
	case SIGINT: return "interrupt";
	case SIGPIPE: return "broken pipe";
	default: return NULL;
	}
}

static void emit(const struct crash *c, const struct rc_ctx *ctx, struct rc_findings *out)
{
	const struct rc_proc *p = procs_get(ctx->procs, c->pid);

	if (!crash_signal(c->sig.signo) && parent_succeeded(ctx, p))
		return;
	const struct sig_rec *r = &c->sig;
	const char *code = xlat_si_code_name(r->signo, r->code, r->sender);
	const struct rc_proc *sender = NULL;
	struct strbuf sb = STRBUF_INIT, detail = STRBUF_INIT;

	proc_name(&sb, p, c->pid);
	char *who = strbuf_detach(&sb);

	/* Detail: the si_code, the fault address or the sender. */
	if (code)
		strbuf_adds(&detail, code);
	if (r->has_addr && fault_signal(r->signo))
		strbuf_addf(&detail, "%s0x%llx", detail.len ? " at " : "at ", (unsigned long long)r->addr);
	/* How long the victim ran before it was sent the signal. */
	double ran = -1;
	if (c->kill.signo && p && p->first_ts >= 0 && c->kill.ts >= p->first_ts)
		ran = c->kill.ts - p->first_ts;
	if (r->sender > 0 && (r->code <= 0 || !code)) {
		sender = procs_get(ctx->procs, r->sender);
		if (r->sender == c->pid && r->signo == SIGABRT)
			strbuf_addf(&detail, "%sabort() called", detail.len ? ", " : "");
		else if (c->group_kill)
			strbuf_addf(&detail, "%ssent by itself to its whole process group", detail.len ? ", " : "");
		else if (r->sender == c->pid)
			strbuf_addf(&detail, "%sraised by the process itself", detail.len ? ", " : "");
		else
			strbuf_addf(&detail, "%ssent by pid %d", detail.len ? ", " : "", r->sender);
		if (sender && r->sender != c->pid) {
			struct strbuf sl = STRBUF_INIT;
			proc_label(&sl, sender, r->sender);
			strbuf_addf(&detail, " '%s'", strbuf_str(&sl));
			strbuf_release(&sl);
		}
		if (c->kill.why == WHY_TIMER)
			strbuf_adds(&detail, " when its timer went off");
		else if (c->kill.why == WHY_WAITED)
			strbuf_adds(&detail, " after waiting for it to end");
		if (ran >= 0 && c->kill.why != WHY_UNKNOWN)
			strbuf_addf(&detail, ", %.1f s after it started", ran);
	}
	if (r->reraised)
		strbuf_addf(&detail, "%sre-raised by its handler", detail.len ? ", " : "");
	if (c->killed && c->core)
		strbuf_addf(&detail, "%score dumped", detail.len ? ", " : "");

	strbuf_addf(&sb, "%s ", who);
	if (c->killed)
		strbuf_addf(&sb, "was killed by %s", signal_name(r->signo));
	else
		strbuf_addf(&sb, "crashed with %s and exited with status %d", signal_name(r->signo), c->exit_code);
	if (detail.len)
		strbuf_addf(&sb, " (%s)", strbuf_str(&detail));

	enum rc_severity sev = RC_SEV_ERROR, sev_ok = RC_SEV_WARNING;
	if (parent_succeeded(ctx, p)) {
		/* A helper that crashed is worth a warning even though its
		 * caller coped, and its caller's success leaves it unfailed. */
		sev = RC_SEV_WARNING;
		sev_ok = crash_signal(r->signo) ? RC_SEV_WARNING : RC_SEV_INFO;
	}
	struct rc_finding *f = rule_finding(out, RULE_ID, sev, sev_ok, &sb);
	rule_finding_pid(f, c->pid, c->tid);
	f->signo = r->signo;
	f->timed_out = c->kill.why == WHY_TIMER || c->kill.why == WHY_WAITED;
	if (r->sender > 0 && (r->sender != c->pid || c->group_kill) && (r->code <= 0 || !code))
		f->sender_pid = r->sender;
	if (detail.len)
		f->message = strbuf_detach(&detail);
	if (r->signo == SIGABRT && !f->message)
		finding_set(&f->message, "abort() called");
	for (int i = 0; i < RING; i++)
		rule_evidence(f, r->before[i]);
	rule_evidence(f, r->line);
	rule_evidence(f, c->kill.line);
	rule_evidence(f, c->exit_line);
	advise(f, c, sender, ran);
	f->seq = c->seq;
	f->ts = c->ts;
	f->unrecovered = true;
	/* bad-file-mapping says more about the same fault: it ranks first */
	f->outcome = true;
	finding_echo_word(f, echo_for(r->signo));
	strbuf_release(&detail);
	free(who);
}

static void finish(void *p, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = p;

	for (size_t i = 0; i < s->ncrashes; i++)
		emit(&s->crashes[i], ctx, out);
	if (s->dropped)
		rule_dropped(out, RULE_ID, RC_SEV_ERROR, RC_SEV_WARNING, s->dropped,
			     "%llu more processes were killed by signals",
			     "the crashes above show the pattern");
}

const struct rc_rule_ops rc_rule_crashed_ops = {
	.state_size = sizeof(struct state),
	.init = init,
	.on_event = on_event,
	.reads = {
		/* Every call goes into its thread's ring of recent calls. */
		.events = RC_READS_SIGNALS | RC_READS_EXITS | RC_READS_CALLS,
	},
	.finish = finish,
	.release = release,
};
