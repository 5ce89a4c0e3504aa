/* Helpers for rule tests: build events as a source would and run them
 * through the real engine (process model, every rule, ranking), or replay
 * a real log from tests/fixtures/rules/ through the parser and the engine.
 * Include once per test program (the functions are static). */
#ifndef RC_TESTS_RULE_TEST_H
#define RC_TESTS_RULE_TEST_H

#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <cmocka.h>

#include "diagnose/diagnose.h"
#include "gen/tables.h"
#include "strace/decoration.h"
#include "strace/parser.h"
#include "util/arena.h"
#include "util/strbuf.h"

struct rt {
	struct rc_engine eng;
	struct rc_findings out;
	bool finished;
	double now;
	/* OUT as the report shows it (rt_shown), which empties OUT. */
	struct rc_report_findings shown;
	struct arena decorations;	/* rt_decoration's */
};

static inline void rt_init(struct rt *t)
{
	engine_init(&t->eng);
	findings_init(&t->out);
	t->finished = false;
	t->now = 1000.0;
	memset(&t->shown, 0, sizeof(t->shown));
	arena_init(&t->decorations);
}

static inline void rt_release(struct rt *t)
{
	report_findings_release(&t->shown);
	findings_release(&t->out);
	engine_release(&t->eng);
	arena_release(&t->decorations);
}

/* What the -y/-yy decoration TEXT says, as a source puts it in an event
 * (an event's fd_shown, dir_shown): valid until rt_release. */
static inline const struct rc_fdfacts *rt_decoration(struct rt *t, const char *text)
{
	return decoration_facts(text, &t->decorations);
}

/* The start of every made-up event, so that all of them keep one clock:
 * KIND of PID at 1 ms after the previous one, quoted as LINE. */
static inline struct rc_event rt_event(struct rt *t, enum rc_event_kind kind, int pid, const char *line)
{
	struct rc_event e;

	event_clear(&e);
	e.kind = kind;
	e.pid = pid;
	t->now += 0.001;
	e.ts = t->now;
	e.line = line;
	e.line_len = strlen(line);
	return e;
}

/* A syscall event of NAME by PID; fill the returned event's facts, then
 * rt_feed() it. ts advances by 1 ms per event unless set. */
static inline struct rc_event rt_sys(struct rt *t, int pid, const char *name, long long ret, int err)
{
	struct rc_event e = rt_event(t, RC_EV_SYSCALL, pid, name);
	long long nr = -1;

	e.name = name;
	xlat_value(&rc_xlat_syscall, name, strlen(name), &nr);
	e.nr = (long)nr;
	e.ret_known = true;
	e.ret = err ? -1 : ret;
	e.err = err;
	return e;
}

/* A DUR of RT_NO_DUR: the call has no -T duration and the clock stays. */
#define RT_NO_DUR (-1.0)

/* rt_sys() for a call that lasted DUR seconds, as -T shows: the clock moves
 * on past its end, so that durations and timestamps agree. */
static inline struct rc_event rt_timed(struct rt *t, int pid, const char *name, long long ret, int err, double dur)
{
	struct rc_event e = rt_sys(t, pid, name, ret, err);

	if (dur >= 0) {
		e.dur = dur;
		t->now += dur;
	}
	return e;
}

static inline void rt_feed(struct rt *t, struct rc_event *e)
{
	engine_feed(&t->eng, e);
}

/* Feeds E quoted as LINE, for tests that check the evidence a rule quotes. */
static inline void rt_feed_line(struct rt *t, struct rc_event *e, const char *line)
{
	e->line = line;
	e->line_len = strlen(line);
	rt_feed(t, e);
}

static inline void rt_exit(struct rt *t, int pid, int code)
{
	struct rc_event e = rt_event(t, RC_EV_EXIT, pid, "+++ exited +++");

	e.exited = true;
	e.exit_code = code;
	rt_feed(t, &e);
}

/* PID killed by SIGNO, quoted as LINE (NULL: a placeholder). */
static inline void rt_killed(struct rt *t, int pid, int signo, bool core, const char *line)
{
	struct rc_event e = rt_event(t, RC_EV_EXIT, pid, line ? line : "+++ killed by +++");

	e.signo = signo;
	e.core_dumped = core;
	rt_feed(t, &e);
}

/* A write of TEXT to FD (1 or 2: program output). */
static inline void rt_write(struct rt *t, int pid, int fd, const char *text)
{
	struct rc_event e = rt_sys(t, pid, "write", (long long)strlen(text), 0);

	e.fd = fd;
	e.data = (const unsigned char *)text;
	e.data_len = strlen(text);
	e.len = strlen(text);
	rt_feed(t, &e);
}

/* A write of RET bytes to FD that strace's -s cut to TEXT, for the tests of
 * how cut program output is shown. */
static inline void rt_write_cut(struct rt *t, int pid, int fd, const char *text, long long ret)
{
	struct rc_event e = rt_sys(t, pid, "write", ret, 0);

	e.fd = fd;
	e.data = (const unsigned char *)text;
	e.data_len = strlen(text);
	e.data_truncated = true;
	rt_feed(t, &e);
}

/* An execve of PATH with ARGV0 and ARG1 (NULL: none) failing with ERR
 * (0: success, which sets the process's argv); LINE: NULL for the call's
 * name. One builder for every test's exec flavour. */
static inline void rt_exec(struct rt *t, int pid, const char *path, const char *argv0, const char *arg1, int err,
			   const char *line)
{
	struct rc_event e = rt_sys(t, pid, "execve", 0, err);

	e.path = path;
	e.argv[0] = argv0;
	e.argv[1] = arg1;
	e.argc = arg1 ? 2 : 1;
	rt_feed_line(t, &e, line ? line : e.line);
}

/* An openat of PATH returning FD, lasting DUR (RT_NO_DUR: none) and quoted
 * as LINE (NULL: the call's name): every test's open, in its own flavour. */
static inline void rt_open_fd(struct rt *t, int pid, const char *path, int fd, int flags, double dur, const char *line)
{
	struct rc_event e = rt_timed(t, pid, "openat", fd, 0, dur);

	e.path = path;
	e.flags = flags;
	rt_feed_line(t, &e, line ? line : e.line);
}

/* A close of FD, lasting DUR and quoted as LINE as for rt_open_fd(). */
static inline void rt_close_fd(struct rt *t, int pid, int fd, double dur, const char *line)
{
	struct rc_event e = rt_timed(t, pid, "close", 0, 0, dur);

	e.fd = fd;
	rt_feed_line(t, &e, line ? line : e.line);
}

/* A read or write (NAME) of LEN bytes on FD returning RET or failing with
 * ERR, lasting DUR and quoted as LINE as for rt_open_fd(). */
static inline void rt_io(struct rt *t, int pid, const char *name, int fd, long long len, long long ret, int err,
			 double dur, const char *line)
{
	struct rc_event e = rt_timed(t, pid, name, ret, err, dur);

	e.fd = fd;
	e.len = (uint64_t)len;
	rt_feed_line(t, &e, line ? line : e.line);
}

/* PID starts thread TID the way glibc's pthread_create does (clone3 with
 * the thread flags), the call lasting DUR as for rt_open_fd(). */
static inline void rt_clone_thread(struct rt *t, int pid, int tid, double dur)
{
	struct rc_event e = rt_timed(t, pid, "clone3", tid, 0, dur);

	e.flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM;
	rt_feed(t, &e);
}

/* The rules' findings, ranked and linked as the diagnosis does. */
static inline void rt_finish(struct rt *t)
{
	engine_finish(&t->eng, &t->out);
	rank_findings(&t->out, &t->eng.procs, t->eng.no_outcome);
	findings_link(&t->out, &t->eng.procs);
	t->finished = true;
}

/* The findings as the report shows them, for the checks of a report:
 * made from OUT the first time, which is then empty. */
static inline const struct rc_report_findings *rt_shown(struct rt *t)
{
	if (!t->shown.v)
		findings_for_report(&t->out, &t->shown);
	return &t->shown;
}

/* The first finding of RULE (in rank order), or NULL. */
static inline const struct rc_finding *rt_find(struct rt *t, const char *rule)
{
	for (size_t i = 0; i < t->out.count; i++)
		if (strcmp(t->out.v[i]->rule, rule) == 0)
			return t->out.v[i];
	return NULL;
}

static inline size_t rt_count(struct rt *t, const char *rule)
{
	size_t n = 0;

	for (size_t i = 0; i < t->out.count; i++)
		if (strcmp(t->out.v[i]->rule, rule) == 0)
			n++;
	return n;
}

/* How many findings have effective severity error. */
static inline size_t rt_errors(struct rt *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->out.count; i++)
		if (t->out.v[i]->effective == RC_SEV_ERROR)
			n++;
	return n;
}

/* Whether HAY (which may be NULL: a finding without that text) has NEEDLE:
 * what the assertions on summaries, advice and messages ask. */
static inline bool contains(const char *hay, const char *needle)
{
	return hay && strstr(hay, needle) != NULL;
}

/* Whether one of F's evidence lines has NEEDLE, for the rules that quote
 * the calls behind a finding. */
static inline bool has_evidence(const struct rc_finding *f, const char *needle)
{
	for (int i = 0; i < f->nevidence; i++)
		if (contains(f->evidence[i], needle))
			return true;
	return false;
}

/* Replays tests/fixtures/rules/NAME through the parser and the engine into
 * T (rt_init()ed), then finishes it: the real-log checks of every rule
 * family. False when the log cannot be opened. */
static inline bool analyze_log(const char *name, struct rt *t)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	struct strace_parser *p;
	struct rc_event e;

	strbuf_addf(&path, "%s/tests/fixtures/rules/%s", SOURCE_ROOT, name);
	const char *files[] = { path.buf };
	int r = strace_parser_open(&p, files, 1, &err);
	strbuf_release(&path);
	if (r < 0) {
		strbuf_release(&err);
		return false;
	}
	while (strace_parser_next(p, &e, &err) > 0)
		rt_feed(t, &e);
	strace_parser_free(p);
	strbuf_release(&err);
	rt_finish(t);
	return true;
}

/* Parses TEXT (a whole log) and runs it through the engine into T, which
 * it rt_init()s and finishes. */
static inline void analyze_text(struct rt *t, const char *text)
{
	struct strace_parser *p = strace_parser_from_buffer(text, strlen(text));
	struct strbuf err = STRBUF_INIT;
	struct rc_event e;

	rt_init(t);
	while (strace_parser_next(p, &e, &err) > 0)
		rt_feed(t, &e);
	strace_parser_free(p);
	strbuf_release(&err);
	rt_finish(t);
}

/* The first finding of RULE (in rank order) with WORD in its summary
 * (NULL: any), or NULL: how the fixture tables name a finding. */
static inline const struct rc_finding *rt_match(struct rt *t, const char *rule, const char *word)
{
	for (size_t i = 0; i < t->out.count; i++) {
		const struct rc_finding *f = t->out.v[i];
		if (strcmp(f->rule, rule) == 0 && (!word || contains(f->summary, word)))
			return f;
	}
	return NULL;
}

/* Analyses fixture LOG into T, which it rt_init()s (the caller
 * rt_release()s it), and fails unless RULE with WORD in its summary (NULL:
 * any) is reported exactly when PRESENT. Returns the first such finding,
 * for the checks a table adds (severity). One check for every table. */
static inline const struct rc_finding *rt_expect_log(struct rt *t, const char *log, const char *rule,
						     const char *word, bool present)
{
	rt_init(t);
	if (!analyze_log(log, t)) {
		rt_release(t);
		fail_msg("cannot read fixture '%s'", log);
	}
	const struct rc_finding *hit = rt_match(t, rule, word);
	if ((hit != NULL) != present)
		fail_msg("%s: %s%s%s %s", log, rule, word ? " " : "", word ? word : "",
			 present ? "not reported" : "reported");
	return hit;
}

/* A line of a fixture table: analysing LOG reports RULE with WORD in its
 * summary, or (PRESENT false) does not. */
struct rt_expect {
	const char *log;
	const char *rule;	/* must be reported ... */
	const char *word;	/* ... with this in its summary (NULL: any) */
	bool present;		/* false: must NOT be reported */
};

/* rt_expect_log() for each of the N lines of table V, for the tables that
 * check nothing more. */
static inline void rt_check_logs(const struct rt_expect *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct rt t;
		rt_expect_log(&t, v[i].log, v[i].rule, v[i].word, v[i].present);
		rt_release(&t);
	}
}

#endif
