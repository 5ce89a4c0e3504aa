/* The engine's dispatch: every rule is given exactly the events its
 * rc_rule_ops.reads declares (event kinds, calls by class, trace class,
 * number or predicate; failed, with a path, blocked), each once and in
 * registry order, and every trace rule declares what it reads. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <cmocka.h>

#include "event/syscalls.h"
#include "diagnose/engine.h"
#include "util/strbuf.h"
#include "util/util.h"

/* The hooks under test: each one's state, the rule's own on_event to
 * pass the event on to (NULL for a made-up rule, whose state is a struct
 * hold), and how many events it was given. */
#define MAX_HOOKS 80
static void *g_state[MAX_HOOKS];
static void (*g_real[MAX_HOOKS])(void *, const struct rc_event *, const struct rc_ctx *);
static size_t g_count[MAX_HOOKS];
static size_t g_nhooks;

/* A made-up rule's state: it holds something from a failed call until the
 * next call it is given (what calls_while is for). */
struct hold {
	size_t held;
	size_t pad;
};

/* The event last given to a hook, and to which: one event reaches the
 * hooks in hook order, each once. */
static uint64_t last_seq;
static size_t last_hook;

static void record(void *state, const struct rc_event *e, const struct rc_ctx *ctx)
{
	size_t i = 0;

	while (i < g_nhooks && g_state[i] != state)
		i++;
	assert_true(i < g_nhooks);
	if (e->seq == last_seq)
		assert_true(last_hook < i);
	last_seq = e->seq;
	last_hook = i;
	g_count[i]++;
	if (g_real[i])
		g_real[i](state, e, ctx);
	else if (e->kind == RC_EV_SYSCALL)
		((struct hold *)state)->held = e->err != 0;
}

/* The events to give: every call number the table knows and some it
 * does not, each as it worked and as it failed, with a path, without, and
 * still blocked; then a signal, an exit, and a process found running
 * (which no rule is given). Kept as they were fed, to ask the reference
 * below of each. */
struct stream {
	struct rc_event *evs;
	size_t n;
};

static void add(struct stream *st, struct rc_event *e)
{
	st->evs = xrealloc(st->evs, (st->n + 1) * sizeof(*st->evs));
	st->evs[st->n++] = *e;
}

static struct stream make_stream(void)
{
	struct stream st = { NULL, 0 };
	long max = syscall_nr_max();
	static const char *const paths[] = { NULL, "", "/tmp/x" };

	for (long nr = -1; nr <= max + 2; nr++) {
		for (int v = 0; v < 4; v++) {
			struct rc_event e;
			event_clear(&e);
			e.kind = RC_EV_SYSCALL;
			/* Threads of their own, so that the process model's
			 * exits and execs do not reach the others. */
			e.pid = 100000 + (int)(st.n % 50);
			e.nr = nr;
			e.name = nr >= 0 && syscall_name(nr) ? syscall_name(nr) : "nosuchcall";
			e.ts = 1000.0 + (double)st.n * 0.001;
			e.ret_known = v != 3;
			/* The failures that make rules hold something: a
			 * refused call (syscall-blocked), a refused connect
			 * (connect-failed). */
			static const int errs[] = { ENOENT, EPERM, ENOSYS, ECONNREFUSED };
			e.err = v == 1 ? errs[(nr + 1) % 4] : v == 2 ? EINTR : 0;
			e.ret = e.err ? -1 : 0;
			e.interrupted = v == 2;
			e.blocked = v == 3;
			e.path = paths[(nr + v) % 3 < 0 ? 0 : (nr + v) % 3];
			e.fd = nr % 7 == 0 ? 3 : -1;
			e.sa.family = AF_INET;
			e.sa.host = "127.0.0.1";
			e.sa.port = 80;
			e.line = "line";
			e.line_len = 4;
			add(&st, &e);
		}
	}
	struct rc_event e;
	event_clear(&e);
	e.kind = RC_EV_SIGNAL;
	e.pid = 100001;
	e.signo = 11;
	e.line = "sig";
	e.line_len = 3;
	add(&st, &e);
	event_clear(&e);
	e.kind = RC_EV_EXIT;
	e.pid = 100002;
	e.exited = true;
	e.line = "exit";
	e.line_len = 4;
	add(&st, &e);
	/* A process found running (attach): the model's alone. */
	static const struct rc_found found = { .leader = 100003, .process = true };
	event_clear(&e);
	e.kind = RC_EV_FOUND;
	e.pid = 100003;
	e.found = &found;
	add(&st, &e);
	return st;
}

/* What R reads, worked out the plain way for one event, with the rule's
 * state STATE as it is before the event. */
static bool reference(const struct rc_rule_reads *r, const struct rc_event *e, const void *state)
{
	switch (e->kind) {
	case RC_EV_SIGNAL:
		return r->events & RC_READS_SIGNALS;
	case RC_EV_EXIT:
		return r->events & RC_READS_EXITS;
	case RC_EV_SUM:
		return r->events & RC_READS_SUMS;
	case RC_EV_FOUND:	/* the model's alone */
		return false;
	case RC_EV_SYSCALL:
		break;
	}
	if (r->events & RC_READS_CALLS)
		return true;
	if ((r->events & RC_READS_FAILED) && e->err)
		return true;
	if ((r->events & RC_READS_PATHS) && e->path && e->path[0])
		return true;
	if ((r->events & RC_READS_BLOCKED) && e->blocked)
		return true;
	if (syscall_classes(e->nr) & r->classes)
		return true;
	const struct rc_syscall *sc = syscall_by_nr(e->nr);
	if (sc && (sc->tclasses & r->tclasses))
		return true;
	for (const long *c = r->calls; c && *c >= 0; c++)
		if (*c == e->nr)
			return true;
	for (const size_t *f = r->calls_while; state && f && *f != SIZE_MAX; f++)
		if (*(const size_t *)((const char *)state + *f))
			return true;
	return r->call && r->call(e->nr);
}

/* Feeds the stream through an engine whose hooks are NH recorders with
 * the declarations READS[i] and the states STATES[i], passing each event
 * on to REAL[i] when there is one, and checks after each event which
 * hooks were given it. */
/* Returns how many times a hook was given an event only because its state
 * held something. */
static size_t check_dispatch(const struct rc_rule_reads *const *reads, void *const *states,
			     void (*const *real)(void *, const struct rc_event *, const struct rc_ctx *), size_t nh)
{
	size_t held = 0;
	struct rc_engine eng;
	struct stream st = make_stream();
	bool *expect = xcalloc(nh, sizeof(*expect));

	assert_true(nh <= MAX_HOOKS);
	engine_init(&eng);
	eng.hooks = xrealloc(eng.hooks, nh * sizeof(*eng.hooks));
	g_nhooks = nh;
	for (size_t i = 0; i < nh; i++) {
		g_state[i] = states[i];
		g_real[i] = real ? real[i] : NULL;
		g_count[i] = 0;
		eng.hooks[i].on_event = record;
		eng.hooks[i].state = states[i];
		eng.hooks[i].reads = reads[i];
	}
	eng.nhooks = nh;
	engine_dispatch_build(&eng);
	last_seq = 0;
	for (size_t k = 0; k < st.n; k++) {
		struct rc_event e = st.evs[k];
		for (size_t i = 0; i < nh; i++) {
			expect[i] = reference(reads[i], &e, states[i]);
			held += expect[i] && !reference(reads[i], &e, NULL);
		}
		/* A relative path is resolved first, and the rules see it so:
		 * all of these are absolute or empty. */
		size_t before[MAX_HOOKS];
		memcpy(before, g_count, nh * sizeof(before[0]));
		engine_feed(&eng, &e);
		for (size_t i = 0; i < nh; i++)
			if (g_count[i] - before[i] != (size_t)expect[i])
				fail_msg("hook %zu was%s given event %zu (nr %ld, kind %d, err %d, path '%s', blocked %d)",
					 i, expect[i] ? " not" : "", k, e.nr, e.kind, e.err, e.path ? e.path : "(null)",
					 e.blocked);
	}
	for (size_t i = 0; i < nh; i++)
		assert_true(g_count[i] > 0 || !reads[i]->events);
	free(expect);
	free(st.evs);
	/* engine_release frees the states of the real rules. */
	engine_release(&eng);
	return held;
}

/* NH made-up rules with the declarations READS, each with a state of its
 * own. */
static size_t check_made_up(const struct rc_rule_reads *const *reads, size_t nh)
{
	struct hold *h = xcalloc(nh, sizeof(*h));
	void *states[MAX_HOOKS];

	for (size_t i = 0; i < nh; i++)
		states[i] = &h[i];
	size_t held = check_dispatch(reads, states, NULL, nh);
	free(h);
	return held;
}

/* A rule that declares the futex calls sees those and nothing else. */
static void one_class(void **state)
{
	(void)state;
	static const struct rc_rule_reads futex = { .classes = CL_FUTEX };
	const struct rc_rule_reads *r[] = { &futex };
	check_made_up(r, 1);
}

static bool is_ioctl(long nr)
{
	return nr == SYS_ioctl;
}

/* Each kind of declaration alone, then several together and a hook that
 * reads nothing; each event reaches its hooks once, in order. */
static void every_kind(void **state)
{
	(void)state;
	static const long calls[] = { SYS_read, SYS_close, -1 };
	static const size_t held[] = { offsetof(struct hold, held), SIZE_MAX };
	static const size_t pad[] = { offsetof(struct hold, pad), SIZE_MAX };
	static const struct rc_rule_reads d[] = {
		{ .events = RC_READS_SIGNALS },
		{ .events = RC_READS_EXITS },
		{ .events = RC_READS_CALLS },
		{ .events = RC_READS_FAILED },
		{ .events = RC_READS_PATHS },
		{ .events = RC_READS_BLOCKED },
		{ .tclasses = TC_NETWORK },
		{ .calls = calls },
		{ .call = is_ioctl },
		{ .events = RC_READS_FAILED | RC_READS_EXITS, .classes = CL_OPEN, .calls = calls },
		{ .events = RC_READS_PATHS | RC_READS_BLOCKED, .classes = CL_ENTER, .call = is_ioctl },
		/* Every call after a failure, until the next call. */
		{ .events = RC_READS_FAILED, .calls_while = held },
		{ .classes = CL_READ, .calls_while = pad },
		{ 0 },
	};
	const struct rc_rule_reads *r[sizeof(d) / sizeof(d[0])];
	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++)
		r[i] = &d[i];
	assert_true(check_made_up(r, sizeof(d) / sizeof(d[0])) > 0);
}

/* More hooks than one word of the bit sets holds. */
static void many_hooks(void **state)
{
	(void)state;
	static const struct rc_rule_reads a = { .classes = CL_READ }, b = { .events = RC_READS_FAILED };
	const struct rc_rule_reads *r[70];
	for (size_t i = 0; i < 70; i++)
		r[i] = i % 2 ? &a : &b;
	check_made_up(r, 70);
}

/* Every trace rule of the registry, with its own declaration and state,
 * each event passed on to it, so that what it holds (calls_while) comes
 * and goes as it does in a run. */
static void registry_rules(void **state)
{
	(void)state;
	struct rc_engine eng;
	const struct rc_rule_reads *r[MAX_HOOKS];
	void *states[MAX_HOOKS];
	void (*real[MAX_HOOKS])(void *, const struct rc_event *, const struct rc_ctx *);

	/* The states engine_init made, in hook order; released with it. */
	engine_init(&eng);
	assert_true(eng.nhooks > 20 && eng.nhooks <= MAX_HOOKS);
	size_t n = eng.nhooks;
	for (size_t i = 0; i < n; i++) {
		r[i] = eng.hooks[i].reads;
		states[i] = eng.hooks[i].state;
		real[i] = eng.hooks[i].on_event;
	}
	/* check_dispatch's own engine makes states of its own, and
	 * releases them; these stay with ENG. */
	assert_true(check_dispatch(r, states, real, n) > 0);
	engine_release(&eng);
}

/* Every trace rule with an on_event says what it reads (a rule that
 * declares nothing is never called), and a rule without one declares
 * nothing. */
static void rules_declare(void **state)
{
	(void)state;
	for (size_t i = 0; i < rc_nrules; i++) {
		const struct rc_rule_ops *ops = rc_rules[i].ops;
		if (!ops)
			continue;
		const struct rc_rule_reads *r = &ops->reads;
		bool any = r->events || r->classes || r->tclasses || (r->calls && r->calls[0] >= 0) || r->call;
		if (ops->on_event && !any)
			fail_msg("rule '%s' has on_event but declares nothing it reads", rc_rules[i].id);
		if (!ops->on_event && any)
			fail_msg("rule '%s' declares what it reads but has no on_event", rc_rules[i].id);
		if (!ops->on_event)
			continue;
		long max = syscall_nr_max();
		/* A declared number is one this architecture has. */
		for (const long *c = r->calls; c && *c >= 0; c++)
			if (*c >= max)
				fail_msg("rule '%s' declares call %ld, past the table", rc_rules[i].id, *c);
		/* The fast path: no rule but the few that must is given every call. */
		size_t nr_read = 0;
		for (long nr = 0; nr < max; nr++)
			nr_read += rule_reads_call(r, nr);
		if (!(r->events & RC_READS_CALLS) && nr_read > (size_t)max / 4)
			fail_msg("rule '%s' reads %zu of %ld calls by number", rc_rules[i].id, nr_read, max);
	}
}

/* --rules: strace's qualifier syntax over the registry's ids, and an
 * engine that runs only the picked rules: a rule left out gets no state,
 * no hook and no finish. */
static void rules_picked(void **state)
{
	(void)state;
	struct strbuf err = STRBUF_INIT;
	uint64_t on = 0;
	const struct rc_rule *mf = rule_find("missing-file"), *ne = rule_find("nonzero-exit");
	size_t imf = (size_t)(mf - rc_rules), ine = (size_t)(ne - rc_rules);

	assert_int_equal(rule_pick("--rules", "missing-file,nonzero-exit", &on, &err), 0);
	assert_true(rule_picked(on, mf) && rule_picked(on, ne));
	assert_int_equal(__builtin_popcountll(on), 2);
	assert_int_equal(rule_pick("--rules", "!missing-file", &on, &err), 0);
	assert_false(rule_picked(on, mf));
	assert_true(rule_picked(on, ne));
	for (size_t i = 0; i < rc_nrules; i++)
		assert_true(rule_picked(on, &rc_rules[i]) == (i != imf));
	/* Ids are whole words: a prefix, a repeat of "!", a stray comma. */
	const char *bad[] = { "missing", "missing-file,", ",missing-file", "!!missing-file", "", "!", "missing-filex" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		strbuf_reset(&err);
		assert_int_equal(rule_pick("--rules", bad[i], &on, &err), -1);
		assert_true(err.len > 0);
	}
	strbuf_release(&err);

	struct rc_engine all, some;
	engine_init(&all);
	engine_init_rules(&some, RC_RULES_ALL & ~((uint64_t)1 << imf));
	assert_non_null(all.states[imf]);
	assert_null(some.states[imf]);
	assert_non_null(some.states[ine]);
	assert_int_equal(some.nhooks + 1, all.nhooks);
	engine_release(&all);
	engine_release(&some);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_class),
		cmocka_unit_test(every_kind),
		cmocka_unit_test(many_hooks),
		cmocka_unit_test(registry_rules),
		cmocka_unit_test(rules_declare),
		cmocka_unit_test(rules_picked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
