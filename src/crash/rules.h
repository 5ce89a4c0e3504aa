/* Crash rules: what the crash rules share, and the pass that runs them.
 *
 * Each crash rule (src/crash/rules/<id>.c: the rules rules/rules.def
 * gives the source RC_RULE_CRASH or RC_RULE_TRACE_CRASH) looks at the
 * crash model and adds at most one finding.  Specific causes (null-deref, stack-overflow, abort...) come
 * first; native-crash speaks only when none of them did.  Every finding
 * names the culprit module: the first frame of the crashed thread outside
 * the C runtime (libc, libstdc++, libpthread, ld.so), since a crash inside
 * memcpy is the caller's bug, not glibc's. */
#ifndef RC_CRASH_RULES_H
#define RC_CRASH_RULES_H

#include "crash/crash.h"
#include "rules/finding.h"

/* Each crash rule's judgement: adds its finding to OUT when C is a crash
 * of its kind. */
#define CRASH_RULE_RC_RULE_CRASH(name) \
	void crash_rule_##name(const struct rc_crash *c, struct rc_findings *out);
#define CRASH_RULE_RC_RULE_TRACE_CRASH(name) CRASH_RULE_RC_RULE_CRASH(name)
#define CRASH_RULE_RC_RULE_TRACE(name)
#define CRASH_RULE_RC_RULE_CAPTURE(name)
#define RULE(name, id, source, severity, doc) CRASH_RULE_##source(name)
#include "rules/rules.def"
#undef RULE

/* Runs every crash rule that RULES picks (rule_pick; RC_RULES_ALL) on C
 * and ranks what they found into OUT. */
void crash_rules_run(const struct rc_crash *c, uint64_t rules, struct rc_findings *out);

/* The index of the culprit frame in the crashed thread, or -1 (no frames;
 * or every frame is in the runtime). */
long crash_culprit(const struct rc_crash *c);
/* True for the C and C++ runtime (libc, libm, libstdc++, libgcc_s,
 * libpthread, ld.so) and libffi: modules that crash because their caller
 * passed them something bad. */
bool crash_runtime_module(const char *path);

/* A finding of RULE for C: signal, tid, the summary (printf-style) with
 * " in MODULE" of the culprit appended by the caller as it likes, and the
 * crashed thread's first frames as evidence, and the advice on symbols when
 * the culprit module has none. */
struct rc_finding *crash_finding(const struct rc_crash *c, struct rc_findings *out, const char *rule,
				 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* "the caller parse_header (crash.c:31) in crash-null": who is to blame,
 * for summaries; "" when nothing is known. */
void crash_culprit_str(const struct rc_crash *c, struct strbuf *out);
/* When Python called the native code that crashed, appends "; F (FILE:LINE)
 * called NAME, which faulted reading 0xADDR" (crash/pycall.c). */
void crash_python_call(const struct rc_crash *c, struct strbuf *out);

/* Thread T has a frame of function NAME among its innermost 32. */
bool crash_has_frame(const struct rc_thread *t, const char *name);

/* The message abort() or assert() left in glibc's __abort_msg, and
 * whether it is one of malloc's (the abort and heap-corruption rules read
 * both). */
bool crash_abort_message(const struct rc_crash *c, struct strbuf *msg);
bool crash_malloc_message(const char *msg);
/* "uncaught C++ exception std::runtime_error: cannot parse header": the
 * exception libstdc++'s terminate handler was given, found through the
 * crashed thread's stack (cxxexc.c); false when there is none to find. */
bool crash_cxx_exception(const struct rc_crash *c, struct strbuf *out);

/* Reads a NUL-terminated string of at most MAX bytes at ADDR from the
 * core's memory (for __abort_msg and assert arguments); false when the
 * memory is not in the core. */
bool crash_read_string(const struct rc_crash *c, uint64_t addr, size_t max, struct strbuf *out);

#endif
