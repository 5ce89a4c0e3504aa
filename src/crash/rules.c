/* The crash-rule pass, and what the crash rules share: the culprit frame,
 * frames in gdb's words, findings with the crashed thread's frames as
 * evidence, and reads of the crashed process's memory. */
#include "crash/rules.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "crash/export.h"
#include "rules/rule.h"
#include "util/util.h"

bool crash_runtime_module(const char *path)
{
	static const char *const runtime[] = {
		"libc.so", "libc-", "libm.so", "libm-", "libstdc++.so", "libgcc_s.so",
		"libpthread.so", "libpthread-", "libdl.so", "ld-linux", "ld.so", "ld64.so",
		/* a call trampoline: ctypes and cffi call through it */
		"libffi.so",
	};
	const char *b = crash_basename(path);

	for (size_t i = 0; i < ARRAY_SIZE(runtime); i++)
		if (strncmp(b, runtime[i], strlen(runtime[i])) == 0)
			return true;
	return false;
}

long crash_culprit(const struct rc_crash *c)
{
	const struct rc_thread *t = crash_thread(c);

	if (!t)
		return -1;
	for (size_t i = 0; i < t->nframes; i++) {
		const struct rc_module *m = t->frames[i].module;
		if (m && !crash_runtime_module(m->name))
			return (long)i;
	}
	return -1;
}

void crash_culprit_str(const struct rc_crash *c, struct strbuf *out)
{
	long i = crash_culprit(c);

	if (i < 0)
		return;
	const struct rc_frame *f = &crash_thread(c)->frames[i];
	if (f->function)
		strbuf_adds(out, f->function);
	else
		strbuf_addf(out, "0x%llx", (unsigned long long)f->pc);
	if (f->file && f->line > 0)
		strbuf_addf(out, " (%s:%d)", crash_basename(f->file), f->line);
	strbuf_addf(out, " in %s", crash_basename(f->module->name));
}

/* The advice every crash finding carries when the culprit module has no
 * symbols: how to get them, by build id. */
static void symbol_advice(const struct rc_crash *c, struct rc_finding *f)
{
	long i = crash_culprit(c);

	if (i < 0)
		return;
	const struct rc_module *m = crash_thread(c)->frames[i].module;
	if (m->has_symbols && m->has_debuginfo)
		return;
	struct strbuf sb = STRBUF_INIT;
	if (f->advice)
		strbuf_addf(&sb, "%s ", f->advice);
	strbuf_addf(&sb, "'%s' has no %s: install its debug symbols (Debian: the -dbgsym package; "
		    "or set DEBUGINFOD_URLS) or rebuild it with -g to see %s",
		    crash_basename(m->name), m->has_symbols ? "debug info" : "symbols",
		    m->has_symbols ? "files and lines" : "function names");
	if (m->build_id[0])
		strbuf_addf(&sb, " (build id %s)", m->build_id);
	strbuf_addc(&sb, '.');
	free(f->advice);
	f->advice = strbuf_detach(&sb);
}

struct rc_finding *crash_finding(const struct rc_crash *c, struct rc_findings *out, const char *rule,
				 const char *fmt, ...)
{
	const struct rc_rule *r = rule_find(rule);
	enum rc_severity sev = r ? r->severity : RC_SEV_ERROR;
	struct rc_finding *f = finding_add(out, rule, sev, sev, "%s", "");
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	/* A crash under Python: the line of Python that called into the
	 * native code, which is where the user will look. */
	crash_python_call(c, &sb);
	free(f->summary);
	f->summary = strbuf_detach(&sb);
	f->effective = sev;
	f->failed = true;
	f->pid = c->pid;
	f->tid = c->crashed_tid;
	f->signo = c->signo;

	const struct rc_thread *t = crash_thread(c);
	for (size_t i = 0; t && i < t->nframes && f->nevidence < RC_EVIDENCE_MAX; i++) {
		struct strbuf line = STRBUF_INIT;
		strbuf_addf(&line, "#%zu ", i);
		crash_frame_str(&t->frames[i], &line);
		finding_evidence(f, line.buf, line.len);
		strbuf_release(&line);
	}
	return f;
}

bool crash_has_frame(const struct rc_thread *t, const char *name)
{
	for (size_t i = 0; i < t->nframes && i < 32; i++)
		if (t->frames[i].function && strcmp(t->frames[i].function, name) == 0)
			return true;
	return false;
}

bool crash_read_string(const struct rc_crash *c, uint64_t addr, size_t max, struct strbuf *out)
{
	char buf[256];
	size_t done = 0;

	while (done < max) {
		size_t want = MIN(sizeof(buf), max - done);
		size_t got = crash_read_mem(c, addr + done, buf, want);
		if (!got)
			return done > 0;
		char *nul = memchr(buf, '\0', got);
		if (nul) {
			strbuf_add(out, buf, (size_t)(nul - buf));
			return true;
		}
		strbuf_add(out, buf, got);
		done += got;
	}
	return true;
}

/* glibc leaves the message abort() printed in __abort_msg: a pointer to
 * {u32 size; char msg[]}. */
bool crash_abort_message(const struct rc_crash *c, struct strbuf *msg)
{
	uint64_t p;

	if (!c->sym_abort_msg || !crash_read_u64(c, c->sym_abort_msg, &p) || !p)
		return false;
	if (!crash_read_string(c, p + 4, 1024, msg) || !msg->len)
		return false;
	while (msg->len && (msg->buf[msg->len - 1] == '\n' || msg->buf[msg->len - 1] == ' '))
		msg->buf[--msg->len] = '\0';
	return true;
}

/* The words of malloc's own messages when it finds its data damaged. */
bool crash_malloc_message(const char *msg)
{
	static const char *const words[] = {
		"double free", "corrupted", "free(): invalid", "malloc(): ", "realloc(): invalid",
		"munmap_chunk(): invalid", "malloc_consolidate(): ", "free(): unaligned", "tcache",
	};

	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (strstr(msg, words[i]))
			return true;
	return false;
}

/* The crash rules, in rules.def's order. */
static const struct {
	const char *id;
	void (*judge)(const struct rc_crash *c, struct rc_findings *out);
} judges[] = {
#define JUDGE_RC_RULE_CRASH(name, id) { id, crash_rule_##name },
#define JUDGE_RC_RULE_TRACE_CRASH(name, id) JUDGE_RC_RULE_CRASH(name, id)
#define JUDGE_RC_RULE_TRACE(name, id)
#define JUDGE_RC_RULE_CAPTURE(name, id)
#define RULE(name, id, source, severity, doc) JUDGE_##source(name, id)
#include "rules/rules.def"
#undef RULE
};

/* The rule that speaks when no other did. */
#define FALLBACK "native-crash"

void crash_rules_run(const struct rc_crash *c, uint64_t rules, struct rc_findings *out)
{
	size_t fallback = ARRAY_SIZE(judges);

	if (!c->signo)
		return;	/* a snapshot (gcore, a live stack), not a crash */
	for (size_t i = 0; i < ARRAY_SIZE(judges); i++) {
		/* Left out by --rules, a rule says nothing, the fallback
		 * included. */
		if (!rule_picked(rules, rule_find(judges[i].id)))
			continue;
		if (strcmp(judges[i].id, FALLBACK) == 0)
			fallback = i;
		else
			judges[i].judge(c, out);
	}
	if (!out->count && fallback < ARRAY_SIZE(judges))
		judges[fallback].judge(c, out);
	for (size_t i = 0; i < out->count; i++)
		symbol_advice(c, out->v[i]);
}
