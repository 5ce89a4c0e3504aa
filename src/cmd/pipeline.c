/* run and attach: the trace wired to the rules, a crash to the unwinder
 * (see pipeline.h). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/pipeline.h"
#include "crash/corewrite.h"
#include "crash/export.h"
#include "crash/live.h"
#include "crash/rules.h"
#include "util/util.h"

/* Threads whose last fault is kept; past it, a re-raise is judged as
 * the signal it is (SI_TKILL, no address). */
#define MAX_FAULTS 4096

struct pipeline_fault {
	int signo, si_code;
	uint64_t addr;
};

/* A fault the tracer let through to the program's handler: if the
 * handler raises it again, that fatal signal is this fault. */
static void keep_fault(struct pipeline *p, const struct rc_event *e)
{
	/* A fault the kernel raised (event_siginfo_facts); a breakpoint's
	 * SIGTRAP is a debugger's, not a crash. */
	if (!e->has_fault_addr || e->signo == SIGTRAP)
		return;
	void **slot = hmap_get_int(&p->faults, e->pid);
	if (!slot) {
		if (p->faults.count >= MAX_FAULTS)
			return;
		slot = hmap_put_int(&p->faults, e->pid, NULL);
		*slot = xcalloc(1, sizeof(struct pipeline_fault));
	}
	struct pipeline_fault *f = *slot;
	f->signo = e->signo;
	f->si_code = e->si_code;
	f->addr = e->fault_addr;
}

static void on_event(void *user, struct rc_event *e)
{
	struct pipeline *p = user;

	if (e->kind == RC_EV_SIGNAL)
		keep_fault(p, e);
	engine_feed(&p->eng, e);
}

/* SI is the thread's own raise() (SI_TKILL, SI_USER from itself) of the
 * signal of a fault it took before: say the fault, and that it was
 * raised again. */
static void reraised_fault(struct pipeline *p, pid_t tgid, pid_t tid, const siginfo_t *si)
{
	struct rc_crash *c = &p->crash;
	void **slot = hmap_get_int(&p->faults, tid);
	const struct pipeline_fault *f = slot ? *slot : NULL;

	if (!f || si->si_code > 0 || si->si_signo != f->signo || si->si_pid != tgid)
		return;
	c->si_code = f->si_code;
	c->fault_addr = f->addr;
	c->reraised = true;
}

/* Every thread is held and readable (capture.h): unwind them now, while
 * they are all still there, and judge the crash while its memory can be
 * read. */
static void on_fatal_signal(void *user, pid_t tgid, pid_t tid, const siginfo_t *si)
{
	struct pipeline *p = user;
	struct rc_crash *c = &p->crash;
	struct strbuf err = STRBUF_INIT;

	if (crash_capture_live(c, tgid, tid, si, &err) < 0)
		crash_problem(c, "no stacks: %s", err.buf);
	reraised_fault(p, tgid, tid, si);
	if (p->core_out) {
		strbuf_reset(&err);
		if (crash_write_core(c, tgid, p->core_out, &err) < 0)
			crash_problem(c, "%s", err.buf);
		else
			crash_problem(c, "core written to '%s' (gdb %s %s)", p->core_out,
				      c->exe ? c->exe : "PROGRAM", p->core_out);
	}
	crash_rules_run(c, p->rules, &p->crash_findings);
	c->live_pid = 0;	/* about to be gone */
	strbuf_release(&err);
}

void pipeline_init(struct pipeline *p, const char *core_out, uint64_t rules)
{
	engine_init_rules(&p->eng, rules);
	p->rules = rules;
	crash_init(&p->crash);
	findings_init(&p->crash_findings);
	memset(&p->crash_part, 0, sizeof(p->crash_part));
	p->core_out = core_out;
	hmap_init(&p->faults);
	p->has_timeline = false;
}

void pipeline_keep_timeline(struct pipeline *p)
{
	timeline_init(&p->timeline);
	p->has_timeline = true;
	p->eng.timeline = &p->timeline;
}

const struct rc_timeline *pipeline_timeline(const struct pipeline *p)
{
	return p->has_timeline ? &p->timeline : NULL;
}

void pipeline_wire(struct pipeline *p, struct session_opts *so)
{
	so->on_event = on_event;
	so->on_fatal_signal = on_fatal_signal;
	so->user = p;
	so->procs = &p->eng.procs;
}

void pipeline_finish(struct pipeline *p, struct rc_findings *out)
{
	engine_finish(&p->eng, out);
	findings_prepend(out, &p->crash_findings, &p->eng.procs);
	/* Only a crash is printed: a fatal signal the tracer caught. */
	if (p->crash.signo)
		crash_report_fill(&p->crash, &p->crash_part);
}

void pipeline_capture_losses(const struct pipeline *p, const struct session_result *res, struct rc_findings *out)
{
	const struct capture_counts n = {
		res->lost_records, res->lost_entries, res->lost_follows, res->bad_records,
	};
	if (rule_picked(p->rules, rule_find("capture-incomplete")))
		capture_incomplete_finding(out, &n);
}

const struct rc_report_crash *pipeline_crash(const struct pipeline *p)
{
	return p->crash.signo ? &p->crash_part : NULL;
}

void pipeline_release(struct pipeline *p)
{
	engine_release(&p->eng);
	findings_release(&p->crash_findings);
	crash_report_release(&p->crash_part);
	crash_release(&p->crash);
	hmap_release(&p->faults, free);
	if (p->has_timeline)
		timeline_release(&p->timeline);
}

void findings_prepend(struct rc_findings *findings, struct rc_findings *crash, const struct rc_procs *procs)
{
	if (!crash->count)
		return;
	/* crashed's advice (get a core, run gdb) is done: the stacks are
	 * in this report. */
	for (size_t i = 0; i < findings->count; i++) {
		struct rc_finding *f = findings->v[i];
		if (strcmp(f->rule, "crashed") == 0 && f->pid == crash->v[0]->pid)
			finding_set(&f->advice, "every thread's stack, unwound before the process died, is "
				    "below; the finding above names the cause.");
	}
	/* A rule with both halves (bad-file-mapping) that the trace already
	 * found for this process says it once: the trace's finding, which
	 * quotes the calls, in the crash's words, which name the frame that
	 * made the access; its frames fill the evidence left. */
	size_t kept = 0;
	for (size_t i = 0; i < crash->count; i++) {
		struct rc_finding *f = crash->v[i], *dup = NULL;
		for (size_t k = 0; k < findings->count && !dup; k++)
			if (strcmp(findings->v[k]->rule, f->rule) == 0 && findings->v[k]->pid == f->pid)
				dup = findings->v[k];
		if (dup) {
			char *swap = dup->summary;
			dup->summary = f->summary;
			f->summary = swap;
			if (f->advice) {
				swap = dup->advice;
				dup->advice = f->advice;
				f->advice = swap;
			}
			for (int e = 0; e < f->nevidence && dup->nevidence < RC_EVIDENCE_MAX; e++)
				finding_evidence(dup, f->evidence[e], strlen(f->evidence[e]));
			finding_free(f);
		} else {
			crash->v[kept++] = f;
		}
	}
	crash->count = kept;
	/* They rank first; then the trace's findings, as ranked. */
	for (size_t i = 0; i < crash->count; i++)
		crash->v[i]->rank = i;
	for (size_t i = 0; i < findings->count; i++)
		findings->v[i]->rank += crash->count;
	size_t n = crash->count + findings->count;
	struct rc_finding **v = xcalloc(n ? n : 1, sizeof(*v));
	memcpy(v, crash->v, crash->count * sizeof(*v));
	if (findings->count)
		memcpy(v + crash->count, findings->v, findings->count * sizeof(*v));
	free(findings->v);
	findings->v = v;
	findings->count = findings->alloc = n;
	free(crash->v);
	crash->v = NULL;
	crash->count = crash->alloc = 0;
	/* The crash findings explain the fatal signal and what followed. */
	findings_link(findings, procs);
}
