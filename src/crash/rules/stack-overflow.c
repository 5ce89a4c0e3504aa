/* stack-overflow: the fault lies at the stack's guard (just below the
 * stack mapping, within reach of the stack pointer), or the crashed
 * thread's frames are one deep recursion.  The recursion is named and
 * counted once ("recurse x 15,873") rather than listed. */
#include <signal.h>

#include "crash/rules.h"

/* A function's frame is rarely bigger: a fault further from rsp than this
 * is not the stack growing into its guard. */
#define GUARD_REACH (256 * 1024)
/* Recursion this deep is an overflow whatever the fault says. */
#define DEEP_RECURSION 1000

void crash_rule_stack_overflow(const struct rc_crash *c, struct rc_findings *out)
{
	const struct rc_thread *t = crash_thread(c);

	if (!t || c->signo != SIGSEGV)
		return;
	uint64_t sp = t->regs[RC_REG_RSP];
	bool at_guard = false;
	if (crash_has_fault_addr(c) && c->fault_addr <= sp + 4096 && sp - c->fault_addr <= GUARD_REACH) {
		const struct rc_mapping *m = crash_mapping_at(c, c->fault_addr);
		/* Unmapped (the main stack's gap) or a no-access guard page
		 * (a thread stack's). */
		at_guard = !m || (!m->read && !m->write);
	}
	/* The longest recursion in the stack, wherever it starts. */
	size_t best = 1, best_at = 0, best_period = 1;
	for (size_t i = 0; i < t->nframes && i < 64; i++) {
		size_t period, reps = crash_repeats(t, i, &period);
		if (reps > best) {
			best = reps;
			best_at = i;
			best_period = period;
		}
	}
	if (!at_guard && best < DEEP_RECURSION)
		return;

	struct strbuf rec = STRBUF_INIT;
	if (best > 1) {
		const struct rc_frame *fr = &t->frames[best_at];
		strbuf_adds(&rec, ": ");
		strbuf_adds(&rec, fr->function ? fr->function : "??");
		if (fr->file && fr->line > 0)
			strbuf_addf(&rec, " (%s:%d)", crash_basename(fr->file), fr->line);
		if (best_period > 1)
			strbuf_addf(&rec, " and %zu more functions", best_period - 1);
		strbuf_addf(&rec, " recursing x %zu", best);
		if (fr->module)
			strbuf_addf(&rec, " in %s", crash_basename(fr->module->name));
	}
	if (best == 1) {
		struct strbuf who = STRBUF_INIT;
		crash_culprit_str(c, &who);
		if (who.len)
			strbuf_addf(&rec, " in %s", who.buf);
		strbuf_release(&who);
	}
	struct rc_finding *f = crash_finding(c, out, "stack-overflow", "stack overflow in thread %d%s%s",
					     t->tid, rec.buf ? rec.buf : "",
					     t->truncated ? " (at least: the stack was cut off)" : "");
	f->count = (long long)best;
	if (best > 1)
		finding_setf(&f->advice, "the recursion has no working base case for this input, or the "
			     "input is deeper than the stack allows (ulimit -s, or a thread's stack size): "
			     "make it iterative or bound its depth.");
	else
		finding_setf(&f->advice, "a function's locals (a large array on the stack) are bigger "
			     "than the stack: allocate them on the heap or raise the stack size.");
	strbuf_release(&rec);
}
