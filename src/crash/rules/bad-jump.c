/* bad-jump: the pc is 0 or in memory that is not executable: a call
 * through a NULL or stale function pointer, a smashed return address.
 * Frame 0 is then garbage; who jumped is the caller whose return address
 * sits at the top of the stack (a call pushes it before jumping). */
#include <signal.h>

#include "crash/export.h"
#include "crash/rules.h"

void crash_rule_bad_jump(const struct rc_crash *c, struct rc_findings *out)
{
	const struct rc_thread *t = crash_thread(c);

	if (!t || (c->signo != SIGSEGV && c->signo != SIGILL && c->signo != SIGBUS))
		return;
	uint64_t pc = t->regs[RC_REG_RIP];
	const struct rc_mapping *m = crash_mapping_at(c, pc);
	if (pc != 0 && m && m->exec)
		return;
	struct strbuf where = STRBUF_INIT, caller = STRBUF_INIT;
	if (pc == 0)
		strbuf_adds(&where, "address 0 (a NULL function pointer)");
	else if (!m)
		strbuf_addf(&where, "0x%llx, which is not mapped", (unsigned long long)pc);
	else if (m->path)
		strbuf_addf(&where, "0x%llx, in non-executable memory of '%s'", (unsigned long long)pc, m->path);
	else
		strbuf_addf(&where, "0x%llx, in non-executable memory (heap, stack or data)",
			    (unsigned long long)pc);
	/* The unwinder may not get past a bad pc; the return address does. */
	uint64_t ret;
	if (crash_read_u64(c, t->regs[RC_REG_RSP], &ret)) {
		strbuf_adds(&caller, ", called from ");
		const struct rc_module *rm = crash_module_at(c, ret);
		if (t->nframes > 1 && t->frames[1].pc == ret)
			crash_frame_str(&t->frames[1], &caller);
		else if (rm)
			strbuf_addf(&caller, "0x%llx in %s", (unsigned long long)ret, crash_basename(rm->name));
		else
			strbuf_addf(&caller, "0x%llx", (unsigned long long)ret);
	}
	struct rc_finding *f = crash_finding(c, out, "bad-jump", "execution jumped to %s%s", where.buf,
					     caller.buf ? caller.buf : "");
	finding_setf(&f->advice, "a function pointer (a callback, a vtable, a plugin's entry point) "
		     "was NULL, freed or overwritten; or a buffer overflow on the stack replaced a "
		     "return address (rebuild with -fstack-protector-strong or ASan to catch it).");
	strbuf_release(&where);
	strbuf_release(&caller);
}
