/* heap-corruption: glibc's malloc noticed its own data damaged (a double
 * free, a write past a buffer into the next chunk's header) and aborted
 * with a message such as "free(): double free detected in tcache 2".  The
 * frame that called free or malloc is where it was noticed, not always
 * where the damage was done: the advice says how to find that. */
#include <signal.h>
#include <string.h>

#include "crash/rules.h"

void crash_rule_heap_corruption(const struct rc_crash *c, struct rc_findings *out)
{
	const struct rc_thread *t = crash_thread(c);

	if (c->signo != SIGABRT || !t)
		return;
	struct strbuf msg = STRBUF_INIT, who = STRBUF_INIT;
	bool have = crash_abort_message(c, &msg);
	bool printerr = crash_has_frame(t, "malloc_printerr");
	if (!(have && crash_malloc_message(msg.buf)) && !printerr) {
		strbuf_release(&msg);
		return;
	}
	crash_culprit_str(c, &who);
	struct rc_finding *f = crash_finding(c, out, "heap-corruption", "heap corruption%s%s%s%s",
					     have ? ": " : "", have ? msg.buf : "",
					     who.len ? ", noticed in " : "", who.buf ? who.buf : "");
	if (have)
		finding_set(&f->message, msg.buf);
	finding_setf(&f->advice, "the damage was done earlier than this frame: run the program under "
		     "valgrind, or with ASan (-fsanitize=address), or with GLIBC_TUNABLES="
		     "glibc.malloc.check=3, to stop at the bad write or the second free.");
	strbuf_release(&msg);
	strbuf_release(&who);
}
