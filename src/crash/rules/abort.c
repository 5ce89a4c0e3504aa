/* abort: SIGABRT raised by the program itself: a failed assert(), an
 * explicit abort(), a C++ exception nobody caught.  glibc leaves the
 * message it printed in __abort_msg (a pointer to {u32 size; char msg[]}),
 * so the core says what stderr said; for an uncaught C++ exception the
 * exception is read instead (crash/cxxexc.c).  Heap corruption is its own
 * rule. */
#include <signal.h>
#include <string.h>

#include "crash/rules.h"

void crash_rule_abort(const struct rc_crash *c, struct rc_findings *out)
{
	const struct rc_thread *t = crash_thread(c);

	if (c->signo != SIGABRT || !t)
		return;
	struct strbuf msg = STRBUF_INIT, who = STRBUF_INIT;
	bool have = crash_abort_message(c, &msg);
	if ((have && crash_malloc_message(msg.buf)) || crash_has_frame(t, "malloc_printerr")) {
		strbuf_release(&msg);
		return;
	}
	/* libstdc++ prints an uncaught exception to stderr, not to
	 * __abort_msg; the exception itself is still in memory. */
	if (!have) {
		strbuf_reset(&msg);
		have = crash_cxx_exception(c, &msg);
	}
	crash_culprit_str(c, &who);
	bool assertion = crash_has_frame(t, "__assert_fail") || (have && strstr(msg.buf, "Assertion"));
	struct rc_finding *f;
	if (have)
		f = crash_finding(c, out, "abort", "%s%s%s: %s", assertion ? "assertion failed" : "aborted",
				  who.len ? " in " : "", who.buf ? who.buf : "", msg.buf);
	else
		f = crash_finding(c, out, "abort", "%s%s%s", assertion ? "assertion failed" : "aborted",
				  who.len ? " in " : "", who.buf ? who.buf : "");
	if (have)
		finding_set(&f->message, msg.buf);
	if (crash_has_frame(t, "__gxx_personality_v0") || crash_has_frame(t, "std::terminate()") ||
	    crash_has_frame(t, "__cxa_throw"))
		finding_setf(&f->advice, "a C++ exception was thrown and never caught: catch it, or "
			     "look at what threw it in the frames.");
	else if (assertion)
		finding_setf(&f->advice, "the program checked a condition it relies on and it was false: "
			     "the message names the file and line of the check.");
	else
		finding_setf(&f->advice, "the program gave up on purpose: its message (on stderr, or "
			     "above) says why.");
	strbuf_release(&msg);
	strbuf_release(&who);
}
