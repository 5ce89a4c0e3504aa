/* retry-loop: a thread that makes a call, fails, and makes it again the
 * same way, until the trace ends.
 *
 * A program that hangs at full CPU is often in a loop whose way out needs
 * a call to succeed that never will: an ioctl the device does not know
 * (ENOTTY), a file that is not there, a connection nobody accepts. Its
 * trace ends in that call failing again and again, with the same
 * arguments and the same error, and at most a few calls between (a poll
 * that is ready at once, a yield). A thread's last calls are read as a
 * cycle of at most CYCLE_MAX calls that repeats REPEATS_MIN times or more
 * up to its last call and holds a failure. The errors that mean "not yet"
 * (EAGAIN, EINTR, ETIMEDOUT, a restart) are how a loop waits, not why it
 * loops; and a cycle that takes over TURN_S a turn polls for something at
 * its own pace, which a running service does, and is not the hang.
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
/* The longest cycle looked for, in calls. */
#define CYCLE_MAX 4
/* Turns of the cycle that make a loop. */
#define REPEATS_MIN 4
/* A turn slower than this is a poll at the program's own pace. */
#define TURN_S 0.01
/* Threads followed; more are counted. */
#define THREADS_MAX 4096
/* Findings listed. */
#define SHOWN_MAX 4

struct thread {
	int tid, pid;
	uint64_t sig[CYCLE_MAX];	/* the last calls' signatures, newest at [n % CYCLE_MAX] */
	double ts[CYCLE_MAX];
	long nrs[CYCLE_MAX];		/* and their numbers */
	uint64_t n;			/* calls seen */
	uint64_t run[CYCLE_MAX + 1];	/* run[p]: calls in a row equal to the one p before */
	double run_ts[CYCLE_MAX + 1];	/* when run[p]'s first matching call began */
	/* The last failed call of the cycle, as evidence. */
	int err;
	long nr;
	uint64_t fail_sig;	/* its signature */
	char *line;
	char *what;		/* its fd's file or its path */
	uint64_t seq;
	uint64_t failed_at;	/* N when it failed */
	double last_ts;
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

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h;
}

/* What makes two calls the same call: its number, fd, path, flags and
 * size, and its outcome. Addresses are left out: a buffer on the stack
 * moves from turn to turn. */
static uint64_t signature(const struct rc_event *e)
{
	uint64_t h = mix(0, (uint64_t)e->nr);

	h = mix(h, (uint64_t)(e->err ? -(long long)e->err : e->ret));
	h = mix(h, (uint64_t)e->fd);
	h = mix(h, (uint64_t)e->flags);
	h = mix(h, e->len);
	for (const char *p = e->path; p && *p; p++)
		h = mix(h, (unsigned char)*p);
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

	/* A call still inside, or one that never returned (killed in it),
	 * is the loop's next turn cut short, not a turn of its own. */
	if (e->kind != RC_EV_SYSCALL || e->blocked || !e->ret_known)
		return;
	void **slot = s->threads.count < THREADS_MAX ? hmap_put_int(&s->threads, e->pid, NULL)
						    : hmap_get_int_hot(&s->threads, e->pid);
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
	uint64_t sig = signature(e);
	for (uint64_t p = 1; p <= CYCLE_MAX; p++) {
		bool same = t->n >= p && t->sig[(t->n - p) % CYCLE_MAX] == sig;
		if (same && !t->run[p])
			t->run_ts[p] = t->ts[(t->n - p) % CYCLE_MAX];
		t->run[p] = same ? t->run[p] + 1 : 0;
	}
	t->sig[t->n % CYCLE_MAX] = sig;
	t->ts[t->n % CYCLE_MAX] = e->ts;
	t->nrs[t->n % CYCLE_MAX] = e->nr;
	t->n++;
	t->last_ts = e->ts;
	if (e->err && !not_yet(e->err) && !e->interrupted) {
		/* The evidence is the failure that began this loop: kept while
		 * the same call fails again within a cycle. */
		if (t->fail_sig != sig || !t->line || t->n - t->failed_at > CYCLE_MAX) {
			free(t->line);
			free(t->what);
			t->line = e->line ? xstrndup(e->line, e->line_len) : NULL;
			const char *w = e->path && e->path[0] ? e->path : e->fd >= 0 ? rule_fd_path(ctx, e) : NULL;
			t->what = w ? xstrdup(w) : NULL;
		}
		t->err = e->err;
		t->nr = e->nr;
		t->fail_sig = sig;
		t->seq = e->seq;
		t->failed_at = t->n;
	}
}

/* The turns of T's cycle of P calls, the last one begun. */
static uint64_t turns_of(const struct thread *t, int p)
{
	return (t->run[p] + 2 * (uint64_t)p - 1) / (uint64_t)p;
}

/* The shortest cycle T ends in, REPEATS_MIN turns or more, with a
 * failure in it: its length, or 0. */
static int cycle(const struct thread *t)
{
	for (int p = 1; p <= CYCLE_MAX; p++) {
		if (t->run[p] && turns_of(t, p) >= REPEATS_MIN)
			return p;
	}
	return 0;
}

static void report(const struct thread *t, int p, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct strbuf sb = STRBUF_INIT, who = STRBUF_INIT;
	uint64_t turns = turns_of(t, p);
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
	strbuf_addf(&sb, " failed with %s %llu times in a row", err ? err : "an error", (unsigned long long)turns);
	/* The other calls of a turn, as strace names them. */
	int named = 0;
	for (int i = 0; i < p && named < 3; i++) {
		long nr = t->nrs[(t->n - 1 - (uint64_t)i) % CYCLE_MAX];
		const char *other = syscall_name(nr);
		if (nr != t->nr && other)
			strbuf_addf(&sb, "%s%s", named++ ? ", " : " (with ", other);
	}
	if (named)
		strbuf_adds(&sb, " between)");
	strbuf_adds(&sb, ", until the trace ended");
	struct rc_finding *f = rule_finding(out, RULE_ID, RC_SEV_WARNING, RC_SEV_WARNING, &sb);
	rule_finding_pid(f, t->pid, t->tid);
	finding_set(&f->syscall, name);
	f->err = t->err;
	f->count = (long long)turns;
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
	int px = cycle(x), py = cycle(y);
	uint64_t tx = px ? turns_of(x, px) : 0, ty = py ? turns_of(y, py) : 0;

	return (tx < ty) - (tx > ty);
}

static void finish(void *st, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = st;
	size_t n, kept = 0;
	void **v = rule_values(&s->threads, NULL, NULL, &n);

	for (size_t i = 0; v && i < n; i++) {
		struct thread *t = v[i];
		int p = cycle(t);
		/* A loop the thread left, by exiting, is not where it hung. */
		if (!p || !t->line || left(procs_get(ctx->procs, t->tid)) || left(procs_get(ctx->procs, t->pid)))
			continue;
		/* The failure must be part of the cycle: one of the last P. */
		if (t->n - t->failed_at >= (uint64_t)p)
			continue;
		double turns = (double)turns_of(t, p);
		if (t->run_ts[p] > 0 && t->last_ts > 0 && (t->last_ts - t->run_ts[p]) / turns > TURN_S)
			continue;
		v[kept++] = t;
	}
	if (v)
		qsort(v, kept, sizeof(*v), by_turns);
	for (size_t i = 0; i < kept && i < SHOWN_MAX; i++) {
		const struct thread *t = v[i];
		report(t, cycle(t), ctx, out);
	}
	free(v);
	if (s->dropped)
		rule_dropped(out, RULE_ID, RC_SEV_INFO, RC_SEV_INFO, s->dropped,
			     "%llu calls of threads past the first 4096 were not read for loops",
			     "the findings above hold for the threads read");
}

const struct rc_rule_ops rc_rule_retry_loop_ops = {
	.state_size = sizeof(struct state),
	.init = init,
	.on_event = on_event,
	.reads = { .events = RC_READS_CALLS | RC_READS_EXITS },
	.finish = finish,
	.release = release,
};
