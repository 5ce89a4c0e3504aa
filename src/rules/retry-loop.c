/* retry-loop: a thread that makes a call, fails, and makes it again the
 * same way, until the trace ends.
 *
 * A program that hangs at full CPU is often in a loop whose way out needs
 * a call to succeed that never will: an ioctl the device does not know
 * (ENOTTY), a file that is not there, a connection nobody accepts. Its
 * trace ends in that call failing again and again, with the same
 * arguments and the same error, every so many calls (a poll that is
 * ready at once, a yield between). The rule reads failures alone (every
 * call of a trace would cost the rules' thread a tenth of its time), and
 * counts a thread's calls by the process model's count: the same failure
 * at the same stride of at most STRIDE_MAX calls, REPEATS_MIN times or
 * more, the last of them within a stride of the thread's last call. The
 * errors that mean "not yet" (EAGAIN, EINTR, ETIMEDOUT, a restart) are
 * how a loop waits, not why it loops; and a loop that takes over TURN_S a
 * turn polls for something at its own pace, which a running service
 * does, and is not the hang.
 *
 * Only a thread that was still running when the trace ended, or that was
 * stopped from outside (Ctrl-C, a time-out, kill) is in such a loop: one
 * that went on to exit got out of it. One finding per thread; the stop is
 * its consequence.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "event/syscalls.h"
#include "rules/aggregate.h"
#include "rules/fds.h"
#include "rules/finding.h"
#include "rules/proc-view.h"
#include "rules/rule.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"
#include "util/xlat.h"

#define RULE_ID "retry-loop"
/* The most calls from one failure to the next in a loop. */
#define STRIDE_MAX 4
/* Failures in a row that make a loop. */
#define REPEATS_MIN 4
/* A turn slower than this is a poll at the program's own pace. */
#define TURN_S 0.01
/* Threads followed; more are counted. */
#define THREADS_MAX 4096
/* Findings listed. */
#define SHOWN_MAX 4

struct thread {
	int tid, pid;
	uint64_t sig;		/* the last failure: its signature */
	uint64_t at;		/* its place among the thread's calls */
	uint64_t stride;	/* calls from the one before to it; 0: none yet */
	uint64_t turns;		/* failures in a row at that stride */
	double first_ts;	/* when the first of them was made */
	double last_ts;
	int err;
	long nr;
	uint64_t seq;
	char *line;		/* the first of them, as evidence */
	char *what;		/* its fd's file or its path */
};

struct state {
	struct hmap threads;	/* tid -> struct thread */
	uint64_t dropped;
};

static void init(void *st)
{
	struct state *s = st;

	hmap_init(&s->threads);
}

static void thread_free(void *v)
{
	struct thread *t = v;

	if (!t)
		return;
	free(t->line);
	free(t->what);
	free(t);
}

static void release(void *st)
{
	struct state *s = st;

	hmap_release(&s->threads, thread_free);
}

/* Errors that say "not yet": a loop waits through them. */
static bool not_yet(int err)
{
	return err == EAGAIN || err == EINTR || err == ETIMEDOUT || err == EINPROGRESS || err == EALREADY ||
	       err >= 512;	/* ERESTARTSYS and its kin */
}

/* What makes two calls the same call: its number, fd, path, flags and
 * size, and its outcome. Addresses are left out: a buffer on the stack
 * moves from turn to turn. */
static uint64_t signature(const struct rc_event *e)
{
	uint64_t h = hash_mix64((uint64_t)e->nr);

	h = hash_mix64(h ^ (uint64_t)(e->err ? -(long long)e->err : e->ret));
	h = hash_mix64(h ^ (uint64_t)e->fd);
	h = hash_mix64(h ^ (uint64_t)e->flags);
	h = hash_mix64(h ^ e->len);
	/* A path by its length and its two ends: every call of a trace
	 * comes here, and a loop's path is the same path. */
	if (e->path && e->path[0]) {
		size_t n = strlen(e->path);
		uint64_t head = 0, tail = 0;
		memcpy(&head, e->path, MIN(n, sizeof(head)));
		memcpy(&tail, e->path + n - MIN(n, sizeof(tail)), MIN(n, sizeof(tail)));
		h = hash_mix64(hash_mix64(hash_mix64(h ^ n) ^ head) ^ tail);
	}
	return h;
}

/* A signal that stops a program from outside (Ctrl-C, a time-out, kill):
 * what a hung program gets, so its loop is where it hung. */
static bool stop_from_outside(int signo)
{
	return signo == SIGINT || signo == SIGTERM || signo == SIGKILL || signo == SIGHUP || signo == SIGQUIT;
}

/* Whether P got out of its loop: it ended, and not by such a stop. */
static bool left(const struct rc_proc *p)
{
	return p && p->ended && (p->exited || !stop_from_outside(p->signo));
}

static void on_event(void *st, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct state *s = st;

	/* A thread that got out is forgotten: a build of ten thousand
	 * processes keeps only those still running. */
	if (e->kind == RC_EV_EXIT) {
		if (e->exited || !stop_from_outside(e->signo))
			thread_free(hmap_del_int(&s->threads, e->pid));
		return;
	}
	if (e->kind != RC_EV_SYSCALL || !e->err || not_yet(e->err) || e->interrupted || e->blocked)
		return;
	/* A thread's first call is in the model only after the rules. */
	const struct rc_proc *p = procs_get(ctx->procs, e->pid);
	void **slot = hmap_get_int_hot(&s->threads, e->pid);
	if (!slot && s->threads.count < THREADS_MAX)
		slot = hmap_put_int(&s->threads, e->pid, NULL);
	if (!slot) {
		s->dropped++;
		return;
	}
	struct thread *t = *slot;
	if (!t) {
		t = calloc(1, sizeof(*t));
		if (!t) {
			hmap_del_int(&s->threads, e->pid);
			s->dropped++;
			return;
		}
		*slot = t;
		t->tid = e->pid;
	}
	t->pid = rule_leader(ctx, e->pid);
	/* The model counts this call after the rules have read it. */
	uint64_t at = p ? p->nsyscalls : 0, sig = signature(e);
	uint64_t stride = t->line ? at - t->at : 0;
	if (t->line && sig == t->sig && stride == t->stride && stride <= STRIDE_MAX) {
		t->turns++;
	} else if (t->line && sig == t->sig && stride >= 1 && stride <= STRIDE_MAX) {
		/* The second of a loop: its stride. */
		t->stride = stride;
		t->turns = 2;
	} else {
		free(t->line);
		free(t->what);
		t->line = e->line ? xstrndup(e->line, e->line_len) : NULL;
		const char *w = e->path && e->path[0] ? e->path : e->fd >= 0 ? rule_fd_path(ctx, e) : NULL;
		t->what = w ? xstrdup(w) : NULL;
		t->stride = 0;
		t->turns = 1;
		t->first_ts = e->ts;
		t->sig = sig;
		t->err = e->err;
		t->nr = e->nr;
		t->seq = e->seq;
	}
	t->at = at;
	t->last_ts = e->ts;
}

/* Whether T's loop reached the end of its calls: no more after its last
 * failure than a turn (the next one begun, cut short by the end). */
static bool at_end(const struct thread *t, const struct rc_ctx *ctx)
{
	const struct rc_proc *p = procs_get(ctx->procs, t->tid);

	return p && p->nsyscalls <= t->at + 1 + t->stride;
}

static void report(const struct thread *t, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct strbuf sb = STRBUF_INIT, who = STRBUF_INIT;
	const char *name = syscall_name(t->nr);
	const char *err = xlat_errno_name(t->err);

	proc_name(&who, procs_get(ctx->procs, t->pid), t->pid);
	if (t->tid && t->tid != t->pid)
		strbuf_addf(&sb, "thread %d of %s", t->tid, who.buf);
	else
		strbuf_adds(&sb, who.buf);
	strbuf_addf(&sb, " is stuck in a loop: %s", name ? name : "a call");
	if (t->what)
		strbuf_addf(&sb, " on '%s'", t->what);
	strbuf_addf(&sb, " failed with %s %llu times in a row", err ? err : "an error", (unsigned long long)t->turns);
	if (t->stride == 2)
		strbuf_adds(&sb, " (with another call between)");
	else if (t->stride > 2)
		strbuf_addf(&sb, " (with %llu other calls between)", (unsigned long long)t->stride - 1);
	strbuf_adds(&sb, ", until the trace ended");
	struct rc_finding *f = rule_finding(out, RULE_ID, RC_SEV_WARNING, RC_SEV_WARNING, &sb);
	rule_finding_pid(f, t->pid, t->tid);
	finding_set(&f->syscall, name);
	f->err = t->err;
	f->count = (long long)t->turns;
	if (t->what && t->what[0] == '/')
		finding_set(&f->path, t->what);
	rule_evidence(f, t->line);
	switch (t->err) {
	case ENOTTY:
		finding_setf(&f->advice, "%s fails with ENOTTY every time: the fd is not the device the program "
			     "takes it for (in a container, a device file is often a stand-in), and the program "
			     "retries without looking at the error; give it the device, or make it handle the "
			     "error", name ? name : "the call");
		break;
	case ENOENT:
		finding_setf(&f->advice, "the program waits for %s%s%s to appear, and nothing makes it: start "
			     "what should create it, or fix the path", t->what ? "'" : "the file", t->what ? t->what : "",
			     t->what ? "'" : "");
		break;
	default:
		finding_setf(&f->advice, "a call that fails the same way each turn will not succeed by being "
			     "made again: what it needs must change (see the error), and the program should "
			     "give up or back off instead of spinning");
		break;
	}
	f->seq = t->seq;
	f->ts = t->last_ts;
	f->unrecovered = true;
	/* A stop from outside while it spun is this loop's consequence. */
	f->stuck = true;
	strbuf_release(&who);
}

static int by_turns(const void *a, const void *b)
{
	const struct thread *x = *(struct thread *const *)a, *y = *(struct thread *const *)b;

	return (x->turns < y->turns) - (x->turns > y->turns);
}

static void finish(void *st, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = st;
	size_t n, kept = 0;
	void **v = rule_values(&s->threads, NULL, NULL, &n);

	for (size_t i = 0; v && i < n; i++) {
		struct thread *t = v[i];
		/* A loop the thread left, by exiting or by going on to other
		 * calls, is not where it hung. */
		if (t->turns < REPEATS_MIN || !t->line || !at_end(t, ctx) || left(procs_get(ctx->procs, t->tid)) ||
		    left(procs_get(ctx->procs, t->pid)))
			continue;
		if (t->first_ts > 0 && t->last_ts > 0 && (t->last_ts - t->first_ts) / (double)(t->turns - 1) > TURN_S)
			continue;
		v[kept++] = t;
	}
	if (v)
		qsort(v, kept, sizeof(*v), by_turns);
	for (size_t i = 0; i < kept && i < SHOWN_MAX; i++)
		report(v[i], ctx, out);
	free(v);
	if (s->dropped)
		rule_dropped(out, RULE_ID, RC_SEV_INFO, RC_SEV_INFO, s->dropped,
			     "%llu failed calls of threads past the first 4096 were not read for loops",
			     "the findings above hold for the threads read");
}

const struct rc_rule_ops rc_rule_retry_loop_ops = {
	.state_size = sizeof(struct state),
	.init = init,
	.on_event = on_event,
	.reads = { .events = RC_READS_FAILED | RC_READS_EXITS },
	.finish = finish,
	.release = release,
};
