/* fd-sweep: a call made on every descriptor number in turn, up to the
 * open-files limit, when almost none of them is open.
 *
 * Daemons, spawners and preloaded libraries often close (or mark
 * close-on-exec, or clean up after) every descriptor a process could
 * have: for (fd = 3; fd < limit; fd++) close(fd). With a limit of 1024
 * that is a thousand quick failures; a container or a systemd unit gives
 * 2^20 or 2^30, and the same loop makes a million calls before the
 * program does anything, seconds under a tracer (icinga2#8437). Its trace
 * is the same call on descriptor numbers rising one by one, each failing
 * with EBADF, and only the open ones, a few, succeeding between.
 *
 * The rule reads failures alone. A thread's run is its EBADF failures of
 * one call on rising descriptors, each at most GAP_MAX above the one
 * before (the open descriptors between succeed and are not read). A run
 * of SWEEP_CALLS or more is a sweep, and so is a short one that ends one
 * below a limit a system gives (2^16 or more): a paste of the loop's last
 * lines ("close(1048575) = -1 EBADF") shows where it stopped, which is
 * what it costs. Findings are per call, summed over the threads that
 * swept (a spawner sweeps in every child it forks).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "event/syscalls.h"
#include "rules/aggregate.h"
#include "rules/fds.h"
#include "rules/finding.h"
#include "rules/proc-view.h"
#include "rules/rule.h"
#include "rules/sites.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"

#define RULE_ID "fd-sweep"
/* A run this long costs a noticeable time untraced (a few ms), and
 * grows with the limit. */
#define SWEEP_CALLS 4096
/* A short run at the top of a limit: a loop's last lines, pasted. */
#define TOP_CALLS 3
/* Open descriptors a sweep may pass between two failures. */
#define GAP_MAX 1024
/* Threads followed; more are counted. */
#define THREADS_MAX 4096
/* Calls that are swept, told apart (close, fcntl, fstat...). */
#define CALLS_MAX 8

struct run {
	long nr;
	int first, last;	/* descriptor numbers */
	/* It jumped up by more than GAP_MAX: lines left out of a paste (no
	 * process has a thousand descriptors open between two it closes). */
	bool gap;
	int dir;		/* 1 up, -1 down; 0 one call so far */
	uint64_t calls;		/* its failures */
	double first_ts, last_ts;
	uint64_t seq;
	int pid, tid;
	char *first_line;
	/* Its last line so far, copied into the same buffer each step (a
	 * million steps, one allocation); quoted only when the run is
	 * reported. */
	struct strbuf last_line;
	char *who;		/* the process as it was then: a child sweeps
				 * before it runs another program */
	struct site_tally sites;	/* where its calls were made */
};

struct sweep {
	long nr;
	uint64_t sweeps, calls;	/* runs found, and their failures */
	double seconds;		/* their time, when the log has times */
	struct site_tally sites;
	struct run big;		/* the longest (its lines kept) */
};

struct state {
	struct hmap threads;	/* tid -> struct run */
	struct sweep sweeps[CALLS_MAX];
	size_t nsweeps;
	uint64_t dropped;
};

static void init(void *st)
{
	struct state *s = st;

	hmap_init(&s->threads);
}

static void run_clear(struct run *r)
{
	free(r->first_line);
	strbuf_release(&r->last_line);
	free(r->who);
	site_tally_release(&r->sites);
	memset(r, 0, sizeof(*r));
}

static void run_free(void *v)
{
	if (v)
		run_clear(v);
	free(v);
}

static void release(void *st)
{
	struct state *s = st;

	hmap_release(&s->threads, run_free);
	for (size_t i = 0; i < s->nsweeps; i++) {
		run_clear(&s->sweeps[i].big);
		site_tally_release(&s->sweeps[i].sites);
	}
}

/* Whether R is a sweep: long, or at the top of a limit. */
static int top(const struct run *r)
{
	return MAX(r->first, r->last);
}

static bool swept(const struct run *r)
{
	if (r->calls >= SWEEP_CALLS)
		return true;
	return r->calls >= TOP_CALLS && rule_fd_limit_near((uint64_t)top(r) + 1, 0, NULL);
}

/* R ended: count it if it swept, and forget it. */
static void run_end(struct state *s, struct run *r)
{
	if (!r->calls || !swept(r)) {
		run_clear(r);
		return;
	}
	struct sweep *w = NULL;
	for (size_t i = 0; i < s->nsweeps && !w; i++)
		if (s->sweeps[i].nr == r->nr)
			w = &s->sweeps[i];
	if (!w && s->nsweeps < CALLS_MAX) {
		w = &s->sweeps[s->nsweeps++];
		w->nr = r->nr;
	}
	if (!w) {
		s->dropped += r->calls;
		run_clear(r);
		return;
	}
	w->sweeps++;
	w->calls += r->calls;
	site_tally_merge(&w->sites, &r->sites);
	if (r->first_ts >= 0 && r->last_ts >= r->first_ts)
		w->seconds += r->last_ts - r->first_ts;
	if (r->calls > w->big.calls) {
		run_clear(&w->big);
		w->big = *r;
		memset(r, 0, sizeof(*r));
		return;
	}
	run_clear(r);
}

/* Process PID as findings name it, as it is now. */
static char *who_now(const struct rc_ctx *ctx, int pid)
{
	struct strbuf who = STRBUF_INIT;

	proc_name(&who, procs_get(ctx->procs, pid), pid);
	return strbuf_detach(&who);
}

static void on_event(void *st, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct state *s = st;

	if (e->kind == RC_EV_EXIT) {
		struct run *r = hmap_del_int(&s->threads, e->pid);
		if (r)
			run_end(s, r);
		free(r);
		return;
	}
	if (e->kind != RC_EV_SYSCALL || !e->err)
		return;
	/* Only an EBADF on a descriptor begins a run; any other failure
	 * of a thread with one ends it (a log of ENOENT probes and no
	 * EBADF has no thread to look up). */
	bool step = e->err == EBADF && e->fd >= 0 && e->nr >= 0;
	if (!step && !s->threads.count)
		return;
	void **slot = hmap_get_int_hot(&s->threads, e->pid);
	if (!slot && !step)
		return;
	if (!slot && s->threads.count < THREADS_MAX)
		slot = hmap_put_int(&s->threads, e->pid, NULL);
	if (!slot) {
		s->dropped++;
		return;
	}
	struct run *r = *slot;
	if (!r)
		r = *slot = xcalloc(1, sizeof(*r));
	if (r->calls && step && e->nr == r->nr && e->fd != r->last) {
		/* Up or down, as the loop began; a jump is lines left out,
		 * the loop going on, once it has a direction. */
		int dir = e->fd > r->last ? 1 : -1;
		long long dist = llabs((long long)e->fd - r->last);
		if ((!r->dir && dist <= GAP_MAX) || (r->dir == dir && (dist <= GAP_MAX || r->calls >= 2))) {
			/* Named at its second call, before any exec: a run of
			 * one (a double close) is not worth the name. */
			if (!r->dir)
				r->who = who_now(ctx, r->pid);
			r->dir = dir;
			r->gap |= dist > GAP_MAX;
			r->last = e->fd;
			r->calls++;
			r->last_ts = e->ts;
			site_tally_add(&r->sites, e->stack);
			strbuf_reset(&r->last_line);
			if (e->line)
				strbuf_add(&r->last_line, e->line, MIN(e->line_len, (size_t)RC_EVIDENCE_LINE_MAX + 1));
			return;
		}
	}
	run_end(s, r);
	if (!step)
		return;
	r->nr = e->nr;
	r->first = r->last = e->fd;
	r->calls = 1;
	r->first_ts = r->last_ts = e->ts;
	r->seq = e->seq;
	r->tid = e->pid;
	r->pid = rule_leader(ctx, e->pid);
	r->first_line = rule_line_short(e);
	site_tally_add(&r->sites, e->stack);
}

static void report(const struct sweep *w, const struct rc_ctx *ctx, struct rc_findings *out)
{
	const struct run *b = &w->big;
	const char *name = syscall_name(w->nr);
	struct strbuf sb = STRBUF_INIT;
	uint64_t limit = rule_fd_limit_near((uint64_t)top(b) + 1, 0, NULL);

	if (!name)
		name = "a call";
	strbuf_addf(&sb, "%s called %s on every descriptor number from %d %s %d, one at a time", b->who,
		    name, b->first, b->dir < 0 ? "down to" : "to", b->last);
	if (b->calls < SWEEP_CALLS && limit) {
		/* The paste's last lines of a loop: what it was. */
		strbuf_adds(&sb, b->gap ? " (the log leaves out the lines between)" : "");
		strbuf_adds(&sb, ": a loop up to an open-files limit of ");
		strbuf_add_count(&sb, limit);
		strbuf_adds(&sb, ", about ");
		strbuf_add_count(&sb, limit - (uint64_t)MIN(b->first, b->last));
		strbuf_adds(&sb, " calls, nearly all on descriptors that were not open (EBADF)");
	} else {
		strbuf_adds(&sb, ": ");
		strbuf_add_count(&sb, b->calls);
		strbuf_adds(&sb, " calls on descriptors that were not open (EBADF)");
	}
	if (w->sweeps > 1) {
		strbuf_addf(&sb, "; %llu such loops, ", (unsigned long long)w->sweeps);
		strbuf_add_count(&sb, w->calls);
		strbuf_adds(&sb, " calls in all");
	}
	if (ctx->has_time && w->seconds >= 0.001) {
		strbuf_adds(&sb, ", ");
		strbuf_add_seconds(&sb, w->seconds);
		strbuf_adds(&sb, " in the trace");
	}
	struct rc_finding *f = rule_finding(out, RULE_ID, RC_SEV_WARNING, RC_SEV_WARNING, &sb);
	rule_finding_pid(f, b->pid, b->tid);
	finding_set(&f->syscall, name);
	f->err = EBADF;
	f->count = (long long)w->calls;
	f->seq = b->seq;
	f->ts = b->last_ts;
	if (ctx->has_time && w->seconds > 0)
		f->duration_s = w->seconds;
	rule_evidence(f, b->first_line);
	if (b->last_line.len)
		rule_evidence(f, b->last_line.buf);
	site_tally_put_of(&w->sites, f, w->calls);
	if (w->nr == SYS_close)
		finding_set(&f->advice, "close only what is open: close_range(3, ~0U, 0) (Linux 5.9, glibc 2.34) "
			    "or closefrom(3), or the numbers listed in /proc/self/fd; until then a lower "
			    "open-files limit (ulimit -n, LimitNOFILE=) makes the loop shorter");
	else
		finding_setf(&f->advice, "make %s only on the descriptors that are open (those listed in "
			     "/proc/self/fd; close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) marks them all "
			     "close-on-exec in one call); until then a lower open-files limit (ulimit -n, "
			     "LimitNOFILE=) makes the loop shorter", name);
}

static void finish(void *st, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = st;
	size_t n;
	void **v = rule_values(&s->threads, NULL, NULL, &n);

	/* The runs still going when the trace ended. */
	for (size_t i = 0; v && i < n; i++)
		run_end(s, v[i]);
	free(v);
	for (size_t i = 0; i < s->nsweeps; i++)
		report(&s->sweeps[i], ctx, out);
	if (s->dropped)
		rule_dropped(out, RULE_ID, RC_SEV_INFO, RC_SEV_INFO, s->dropped,
			     "%llu failed calls of threads past the first 4096, or of calls past the first 8, "
			     "were not read for descriptor loops",
			     "the findings above hold for the threads read");
}

const struct rc_rule_ops rc_rule_fd_sweep_ops = {
	.state_size = sizeof(struct state),
	.init = init,
	.on_event = on_event,
	.reads = { .events = RC_READS_FAILED | RC_READS_EXITS },
	.finish = finish,
	.release = release,
};
