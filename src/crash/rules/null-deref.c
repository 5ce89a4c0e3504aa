/* null-deref: a fault in the first 64 KiB of the address space, where
 * nothing is ever mapped (vm.mmap_min_addr): a NULL pointer, or a NULL
 * struct pointer plus a field's offset (0x10 is ptr->third_field).  A jump
 * to 0 is bad-jump's: there the pc, not a data access, is at 0. */
#include <signal.h>

#include "crash/rules.h"

#define NULL_PAGE_END 0x10000

void crash_rule_null_deref(const struct rc_crash *c, struct rc_findings *out)
{
	const struct rc_thread *t = crash_thread(c);

	if (c->signo != SIGSEGV || !crash_has_fault_addr(c) || c->fault_addr >= NULL_PAGE_END)
		return;
	if (t && t->regs[RC_REG_RIP] == c->fault_addr)
		return;
	struct strbuf who = STRBUF_INIT;
	crash_culprit_str(c, &who);
	struct rc_finding *f = crash_finding(c, out, "null-deref",
		"NULL pointer dereference%s%s: access at 0x%llx%s",
		who.len ? " in " : "", who.buf ? who.buf : "", (unsigned long long)c->fault_addr,
		c->fault_addr ? " (a field of a NULL struct pointer)" : "");
	finding_setf(&f->advice, "a pointer used there was NULL: check what returned it (a failed "
		     "allocation, a lookup that found nothing, an object already freed and cleared).");
	strbuf_release(&who);
}
