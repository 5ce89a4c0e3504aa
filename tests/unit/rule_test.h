/* Helpers for rule tests: build events as a source would and run them
 * through the real engine (process model, every rule, ranking).
 * Include once per test program (the functions are static). */
#ifndef RC_TESTS_RULE_TEST_H
#define RC_TESTS_RULE_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <cmocka.h>

#include "rules/engine.h"
#include "gen/tables.h"

struct rt {
	struct rc_engine eng;
	struct rc_findings out;
	bool finished;
	double now;
};

static inline void rt_init(struct rt *t)
{
	engine_init(&t->eng);
	findings_init(&t->out);
	t->finished = false;
	t->now = 1000.0;
}

static inline void rt_release(struct rt *t)
{
	findings_release(&t->out);
	engine_release(&t->eng);
}

/* A syscall event of NAME by PID; fill the returned event's facts, then
 * rt_feed() it. ts advances by 1 ms per event unless set. */
static inline struct rc_event rt_sys(struct rt *t, int pid, const char *name, long long ret, int err)
{
	struct rc_event e;
	long long nr = -1;

	event_clear(&e);
	e.kind = RC_EV_SYSCALL;
	e.pid = pid;
	e.name = name;
	xlat_value(&rc_xlat_syscall, name, strlen(name), &nr);
	e.nr = (long)nr;
	e.ret_known = true;
	e.ret = err ? -1 : ret;
	e.err = err;
	t->now += 0.001;
	e.ts = t->now;
	e.line = name;
	e.line_len = strlen(name);
	return e;
}

static inline void rt_feed(struct rt *t, struct rc_event *e)
{
	engine_feed(&t->eng, e);
}

static inline void rt_exit(struct rt *t, int pid, int code)
{
	struct rc_event e;

	event_clear(&e);
	e.kind = RC_EV_EXIT;
	e.pid = pid;
	e.exited = true;
	e.exit_code = code;
	t->now += 0.001;
	e.ts = t->now;
	e.line = "+++ exited +++";
	e.line_len = strlen(e.line);
	engine_feed(&t->eng, &e);
}

static inline void rt_killed(struct rt *t, int pid, int signo, bool core)
{
	struct rc_event e;

	event_clear(&e);
	e.kind = RC_EV_EXIT;
	e.pid = pid;
	e.signo = signo;
	e.core_dumped = core;
	t->now += 0.001;
	e.ts = t->now;
	e.line = "+++ killed by +++";
	e.line_len = strlen(e.line);
	engine_feed(&t->eng, &e);
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

static inline void rt_finish(struct rt *t)
{
	engine_finish(&t->eng, &t->out);
	t->finished = true;
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

#endif
