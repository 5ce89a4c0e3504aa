/* run and attach: the trace wired to the diagnosis, a crash to the
 * unwinder (see pipeline.h). */
#include <signal.h>

#include "cmd/pipeline.h"
#include "crash/corewrite.h"
#include "crash/live.h"
#include "diagnose/diagnose.h"
#include "where/where.h"

/* What the eBPF capture does not unwind, and what would. */
#define NO_EBPF_STACKS "the eBPF capture copies a thread's stack at a failed call, a connect, a bind, " \
	"a wait of 10 ms or more, and a sample of the opens of a file, large mappings, reads of a file in pieces " \
	"and wakes of a long-waited lock; --backend ptrace unwinds every open, mapping and lock, and a sample of " \
	"all reads and writes"
#define NO_STACKS_ASKED "--no-stacks"

/* First: the capture's user, as diagnose_feed takes it. */
struct pipeline {
	struct rc_diagnosis dg;
	struct rc_crash crash;		/* the first crash caught; signo 0: none */
	const char *core_out;		/* or NULL */
	struct where *where;		/* each call's stack; NULL: none taken */
};

/* Each event to the diagnosis; a process gone takes its unwinder. */
static void on_event(void *user, struct rc_event *e)
{
	struct pipeline *p = user;

	diagnose_event(&p->dg, e);
	if (e->kind == RC_EV_EXIT && p->where)
		where_forget(p->where, e->pid);
}

static const struct rc_stack *on_stack(void *user, pid_t tgid, pid_t tid, const struct rc_event *e,
				       const struct rc_stack_copy *copy)
{
	struct pipeline *p = user;

	return p->where ? where_at_exit(p->where, tgid, tid, e, copy) : NULL;
}

static bool on_program(void *user, const char *path, struct rc_py_program *out)
{
	struct pipeline *p = user;

	return p->where && where_program(p->where, path, out);
}

static bool on_held(void *user, pid_t tgid, pid_t tid, const struct rc_py_raw *py, size_t n, uint64_t *marks)
{
	struct pipeline *p = user;

	return p->where && where_name(p->where, tgid, tid, py, n, marks);
}

/* Every thread is held and readable (capture.h): unwind them now, while
 * they are all still there, and have the crash judged while its memory
 * can be read. */
static void on_fatal_signal(void *user, pid_t tgid, pid_t tid, const siginfo_t *si)
{
	struct pipeline *p = user;
	struct rc_crash *c = &p->crash;
	struct strbuf err = STRBUF_INIT;

	if (crash_capture_live(c, tgid, tid, si, &err) < 0)
		crash_problem(c, "no stacks: %s", err.buf);
	if (p->core_out) {
		strbuf_reset(&err);
		if (crash_write_core(c, tgid, p->core_out, &err) < 0)
			crash_problem(c, "%s", err.buf);
		else
			crash_problem(c, "core written to '%s' (gdb %s %s)", p->core_out,
				      c->exe ? c->exe : "PROGRAM", p->core_out);
	}
	diagnose_crash(&p->dg, c);
	c->live_pid = 0;	/* about to be gone */
	strbuf_release(&err);
}

/* A lock's holder that the trace did not follow (a process /proc/locks
 * named): where its main thread sleeps, read without stopping it. */
static void holder_stacks(struct pipeline *p)
{
	for (size_t i = 0; p->where && i < p->dg.findings.count; i++) {
		struct rc_report_finding *f = p->dg.findings.v[i];
		if (f->holder_pid > 0 && !f->holder_stack)
			f->holder_stack = where_take_blocked(p->where, f->holder_pid, f->holder_pid);
	}
}

int pipeline_run(const struct session_opts *so, const struct backend_opts *bk, const unsigned char *sel,
		 const char *core_out, const struct report_opts *ro, struct rc_report *rep,
		 struct session_result *res)
{
	const struct diagnose_opts dopts = {
		.rules = ro->rules, .input = DIAGNOSE_LIVE, .timeline = report_format_timed(ro->format),
	};
	struct pipeline p = { .core_out = core_out };
	struct session_opts o = *so;
	struct strbuf err = STRBUF_INIT, skipped = STRBUF_INIT;
	int status = -1;

	diagnose_init(&p.dg, &dopts);
	crash_init(&p.crash);
	o.backend = (enum capture_backend)bk->backend;
	o.ring_bytes = bk->ring_bytes;
	o.select = sel;
	o.follow = true;
	/* The trace shows 1 KiB of each buffer, as strace -s 1024 would; the
	 * rules get the head and the tail of every write, as much as from a
	 * log (event.h). */
	o.dec = (struct dec_opts){ .strsize = 1024, .preview_max = RC_EVENT_DATA_MAX };
	o.on_event = on_event;
	o.on_fatal_signal = on_fatal_signal;
	p.where = bk->no_stacks ? NULL : where_new();
	/* --no-stacks: none copied either (the eBPF capture copies a stack
	 * only for a caller that takes it). */
	o.on_stack = p.where ? on_stack : NULL;
	o.on_program = on_program;
	o.on_held = p.where ? on_held : NULL;
	o.user = &p;
	if (trace_session(&o, res, true, &err) < 0) {
		error_msg("%s", strbuf_str(&err));
	} else {
		struct capture_counts n = {
			.records = res->lost_records, .entries = res->lost_entries, .follows = res->lost_follows,
			.bad = res->bad_records,
		};
		memcpy(n.who, res->lost_who, sizeof(n.who));
		n.nwho = res->nlost_who;
		diagnose_losses(&p.dg, &n);
		/* The eBPF capture stops nothing: it copies a thread's stack
		 * at the calls that are worth it to the kernel's program. */
		const char *why = !p.where ? NO_STACKS_ASKED : res->backend == BACKEND_EBPF ? NO_EBPF_STACKS : NULL;
		if (why && p.where && res->stacks_skipped) {
			strbuf_addf(&skipped, "%s; %llu copies were skipped while a quarter of the ring buffer "
				    "waited to be read", why, (unsigned long long)res->stacks_skipped);
			why = skipped.buf;
		}
		if (why)
			diagnose_no_stacks(&p.dg, why);
		diagnose_finish(&p.dg, rep);
		holder_stacks(&p);
		report_session(rep, res);
		rep->no_call_stacks = !p.where ? why : NULL;
		if (p.where) {
			const struct where_stats *ws = where_stats(p.where);
			rep->stacks_taken = ws->taken;
			rep->stacks_seconds = ws->seconds;
			rep->stacks_skipped = res->stacks_skipped;
		}
		status = report_emit(ro, rep);
	}
	diagnose_release(&p.dg);
	where_free(p.where);
	crash_release(&p.crash);
	strbuf_release(&skipped);
	strbuf_release(&err);
	return status;
}
