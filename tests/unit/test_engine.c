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
#include <sys/syscall.h>
#include <cmocka.h>

#include "event/syscalls.h"
#include "rules/engine.h"
#include "util/util.h"

/* What a recording hook saw: the seq of every event, in order. */
struct seen {
	int id;
	uint64_t seqs[4096];
	size_t n;
};

/* The event last given to a hook, and to which: one event reaches the
 * hooks in hook order, each once. */
static uint64_t last_seq;
static int last_hook;

static void record(void *state, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct seen *s = state;

	(void)ctx;
	assert_true(s->n < sizeof(s->seqs) / sizeof(s->seqs[0]));
	s->seqs[s->n++] = e->seq;
	if (e->seq == last_seq)
		assert_true(last_hook < s->id);
	last_seq = e->seq;
	last_hook = s->id;
}

/* The events to give: every call number the table knows and some it
 * does not, each as it worked and as it failed, with a path, without, and
 * still blocked; then a signal and an exit. Kept as they were fed, to ask
 * the reference below of each. */
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
			e.err = v == 1 ? ENOENT : v == 2 ? EINTR : 0;
			e.ret = e.err ? -1 : 0;
			e.interrupted = v == 2;
			e.blocked = v == 3;
			e.path = paths[(nr + v) % 3 < 0 ? 0 : (nr + v) % 3];
			e.fd = -1;
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
	return st;
}

/* What R reads, worked out the plain way for one event. */
static bool reference(const struct rc_rule_reads *r, const struct rc_event *e)
{
	switch (e->kind) {
	case RC_EV_SIGNAL:
		return r->events & RC_READS_SIGNALS;
	case RC_EV_EXIT:
		return r->events & RC_READS_EXITS;
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
	return r->call && r->call(e->nr);
}

/* Feeds the stream through an engine whose hooks are NH recorders with
 * the declarations READS[i], and checks what each saw. */
static void check_dispatch(const struct rc_rule_reads *const *reads, size_t nh)
{
	struct rc_engine eng;
	struct stream st = make_stream();
	struct seen **seen = xcalloc(nh, sizeof(*seen));

	engine_init(&eng);
	eng.hooks = xrealloc(eng.hooks, nh * sizeof(*eng.hooks));
	for (size_t i = 0; i < nh; i++) {
		seen[i] = xcalloc(1, sizeof(**seen));
		seen[i]->id = (int)i;
		eng.hooks[i].on_event = record;
		eng.hooks[i].state = seen[i];
		eng.hooks[i].reads = reads[i];
	}
	eng.nhooks = nh;
	engine_dispatch_build(&eng);
	last_seq = 0;
	for (size_t k = 0; k < st.n; k++) {
		struct rc_event e = st.evs[k];
		engine_feed(&eng, &e);
		st.evs[k].seq = e.seq;
		/* The path as rules see it (resolved). */
		st.evs[k].path = e.path && e.path[0] ? "/" : e.path;
	}
	for (size_t i = 0; i < nh; i++) {
		size_t j = 0;
		for (size_t k = 0; k < st.n; k++) {
			if (!reference(reads[i], &st.evs[k]))
				continue;
			if (j >= seen[i]->n || seen[i]->seqs[j] != st.evs[k].seq)
				fail_msg("hook %zu: its event %zu is not event %zu (nr %ld, kind %d, err %d, path '%s', blocked %d)",
					 i, j, k, st.evs[k].nr, st.evs[k].kind, st.evs[k].err,
					 st.evs[k].path ? st.evs[k].path : "(null)", st.evs[k].blocked);
			j++;
		}
		if (j != seen[i]->n)
			fail_msg("hook %zu was given %zu events, %zu of them not its own", i, seen[i]->n, seen[i]->n - j);
		free(seen[i]);
	}
	free(seen);
	free(st.evs);
	/* engine_release frees the states of the real rules only. */
	engine_release(&eng);
}

/* A rule that declares the futex calls sees those and nothing else. */
static void one_class(void **state)
{
	(void)state;
	static const struct rc_rule_reads futex = { .classes = CL_FUTEX };
	const struct rc_rule_reads *r[] = { &futex };
	check_dispatch(r, 1);
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
		{ 0 },
	};
	const struct rc_rule_reads *r[sizeof(d) / sizeof(d[0])];
	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++)
		r[i] = &d[i];
	check_dispatch(r, sizeof(d) / sizeof(d[0]));
}

/* More hooks than one word of the bit sets holds. */
static void many_hooks(void **state)
{
	(void)state;
	static const struct rc_rule_reads a = { .classes = CL_READ }, b = { .events = RC_READS_FAILED };
	const struct rc_rule_reads *r[70];
	for (size_t i = 0; i < 70; i++)
		r[i] = i % 2 ? &a : &b;
	check_dispatch(r, 70);
}

/* Every trace rule of the registry, with its own declaration. */
static void registry_rules(void **state)
{
	(void)state;
	const struct rc_rule_reads *r[64];
	size_t n = 0;

	for (size_t i = 0; i < rc_nrules; i++)
		if (rc_rules[i].source == RC_RULE_TRACE && rc_rules[i].ops && rc_rules[i].ops->on_event) {
			assert_true(n < 64);
			r[n++] = &rc_rules[i].ops->reads;
		}
	assert_true(n > 20);
	check_dispatch(r, n);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_class),
		cmocka_unit_test(every_kind),
		cmocka_unit_test(many_hooks),
		cmocka_unit_test(registry_rules),
		cmocka_unit_test(rules_declare),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
