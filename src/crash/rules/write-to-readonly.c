/* write-to-readonly: SEGV_ACCERR on a mapping that may be read but not
 * written: a string literal, code, a PROT_READ mapping.  The kernel says
 * "access error" for any refused access; a readable, non-writable mapping
 * whose fault was not an instruction fetch leaves only a write. */
#include <signal.h>

#include "crash/rules.h"

void crash_rule_write_to_readonly(const struct rc_crash *c, struct rc_findings *out)
{
	const struct rc_thread *t = crash_thread(c);

	if (c->signo != SIGSEGV || !crash_has_fault_addr(c) || c->si_code != SEGV_ACCERR)
		return;
	const struct rc_mapping *m = crash_mapping_at(c, c->fault_addr);
	if (!m || !m->read || m->write || (t && t->regs[RC_REG_RIP] == c->fault_addr))
		return;
	struct strbuf who = STRBUF_INIT, what = STRBUF_INIT;
	crash_culprit_str(c, &who);
	if (m->path)
		strbuf_addf(&what, "the read-only %s of '%s'", m->exec ? "code" : "data", m->path);
	else
		strbuf_addf(&what, "a read-only anonymous mapping (%s)", m->exec ? "r-x" : "r--");
	struct rc_finding *f = crash_finding(c, out, "write-to-readonly",
		"write to read-only memory%s%s: 0x%llx is in %s",
		who.len ? " in " : "", who.buf ? who.buf : "", (unsigned long long)c->fault_addr, what.buf);
	if (m->path)
		finding_set(&f->path, m->path);
	finding_setf(&f->advice, "string literals and const data may not be modified: copy them "
		     "(strdup) first; a mapping made PROT_READ needs mprotect or PROT_WRITE.");
	strbuf_release(&who);
	strbuf_release(&what);
}
