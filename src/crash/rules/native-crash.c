/* native-crash: every other fatal signal, when no specific rule knew it:
 * the signal with its code and address, and the frame to blame. */
#include "crash/rules.h"

void crash_rule_native_crash(const struct rc_crash *c, struct rc_findings *out)
{
	struct strbuf sig = STRBUF_INIT, who = STRBUF_INIT;

	crash_signal_str(c, &sig);
	crash_culprit_str(c, &who);
	struct rc_finding *f = crash_finding(c, out, "native-crash", "%s%s%s", sig.buf,
					     who.len ? " in " : "", who.buf ? who.buf : "");
	if (who.len)
		finding_setf(&f->advice, "the crash is in native code; start from the first frame "
			     "listed (the culprit, outside the C runtime).");
	strbuf_release(&sig);
	strbuf_release(&who);
}
