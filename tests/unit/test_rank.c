/* Ranking by causality, on a process model built from events and
 * findings made by hand (independent of what the rules emit). */
#include <errno.h>
#include <signal.h>

#include "rule_test.h"

static struct rc_finding *add(struct rc_findings *l, const char *rule, int pid, uint64_t seq,
			      bool unrecovered, const char *word)
{
	struct rc_finding *f = finding_add(l, rule, RC_SEV_ERROR, RC_SEV_INFO, "%s at %llu", rule,
					   (unsigned long long)seq);
	f->pid = pid;
	f->seq = seq;
	f->unrecovered = unrecovered;
	finding_echo_word(f, word);
	return f;
}

static void healthy_run_has_no_errors(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	struct rc_event e = rt_sys(&t, 10, "openat", -1, ENOENT);
	rt_feed(&t, &e);
	rt_exit(&t, 10, 0);

	struct rc_findings l;
	findings_init(&l);
	add(&l, "missing-file", 10, 1, true, "x.cfg");
	rank_findings(&l, &t.eng.procs, false);
	assert_int_equal(l.v[0]->effective, RC_SEV_INFO);
	findings_release(&l);
	rt_release(&t);
}

/* Issue 27: a child that went on to exit 0 coped with what it met, even
 * when its parent failed later of something else (podman's 'conmon
 * --version' and gettext's optional charset.alias); a child that failed
 * did not. */
static void a_child_that_exited_0_coped(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	struct rc_event e = rt_sys(&t, 10, "clone", 11, 0);
	e.flags = SIGCHLD;
	rt_feed(&t, &e);
	e = rt_sys(&t, 11, "openat", -1, ENOENT);
	rt_feed(&t, &e);
	rt_exit(&t, 11, 0);
	e = rt_sys(&t, 10, "clone", 12, 0);
	e.flags = SIGCHLD;
	rt_feed(&t, &e);
	e = rt_sys(&t, 12, "openat", -1, ENOENT);
	rt_feed(&t, &e);
	rt_exit(&t, 12, 1);
	rt_exit(&t, 10, 126);

	struct rc_findings l;
	findings_init(&l);
	struct rc_finding *coped = add(&l, "missing-file", 11, 2, true, "charset.alias");
	struct rc_finding *failed = add(&l, "missing-file", 12, 5, true, "model.pt");
	rank_findings(&l, &t.eng.procs, false);
	assert_int_equal(coped->effective, RC_SEV_INFO);
	assert_int_equal(failed->effective, RC_SEV_ERROR);
	findings_release(&l);
	rt_release(&t);
}

static void echoed_and_late_failures_first(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	for (int i = 0; i < 10; i++) {
		struct rc_event e = rt_sys(&t, 10, "getpid", 10, 0);
		rt_feed(&t, &e);
	}
	rt_write(&t, 10, 2, "error: cannot load model_v23.pth\n");
	rt_exit(&t, 10, 1);

	struct rc_findings l;
	findings_init(&l);
	add(&l, "missing-file", 10, 2, true, "early.cfg");
	add(&l, "missing-file", 10, 5, false, "recovered.txt");
	add(&l, "missing-file", 10, 3, true, "model_v23.pth");
	struct rc_finding *exit = add(&l, "nonzero-exit", 10, 12, false, NULL);
	exit->symptom = true;
	rank_findings(&l, &t.eng.procs, false);

	/* The echoed one first, the exit (a symptom) last of the errors. */
	assert_string_equal(l.v[0]->summary, "missing-file at 3");
	assert_true(l.v[0]->echoed);
	assert_true(l.v[0]->near_exit);
	assert_string_equal(l.v[1]->summary, "missing-file at 2");
	assert_string_equal(l.v[3]->rule, "nonzero-exit");
	for (size_t i = 0; i < l.count; i++)
		assert_int_equal(l.v[i]->effective, RC_SEV_ERROR);
	findings_release(&l);
	rt_release(&t);
}

static void output_before_the_failure_is_not_an_echo(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	rt_write(&t, 10, 2, "loading model_v23.pth\n");
	struct rc_event e = rt_sys(&t, 10, "openat", -1, ENOENT);
	rt_feed(&t, &e);
	rt_exit(&t, 10, 1);

	struct rc_findings l;
	findings_init(&l);
	add(&l, "missing-file", 10, e.seq, true, "model_v23.pth");
	rank_findings(&l, &t.eng.procs, false);
	assert_false(l.v[0]->echoed);
	findings_release(&l);
	rt_release(&t);
}

static void first_words_lead_among_outputs(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	struct rc_event e = rt_sys(&t, 10, "clone", 11, 0);
	rt_feed(&t, &e);
	rt_write(&t, 11, 2, "model load failed\n");
	rt_exit(&t, 11, 1);
	rt_write(&t, 10, 2, "service failed to start\n");
	rt_exit(&t, 10, 1);

	struct rc_findings l;
	findings_init(&l);
	struct rc_finding *parent = add(&l, "error-message", 10, 5, false, NULL);
	parent->is_output = true;
	struct rc_finding *child = add(&l, "error-message", 11, 3, false, NULL);
	child->is_output = true;
	rank_findings(&l, &t.eng.procs, false);
	assert_ptr_equal(l.v[0], child);
	findings_release(&l);
	rt_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(healthy_run_has_no_errors),
		cmocka_unit_test(a_child_that_exited_0_coped),
		cmocka_unit_test(echoed_and_late_failures_first),
		cmocka_unit_test(output_before_the_failure_is_not_an_echo),
		cmocka_unit_test(first_words_lead_among_outputs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
