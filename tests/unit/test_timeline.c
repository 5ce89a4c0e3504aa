/* The timeline recorder (event/timeline.h) and the writers that draw it
 * (report/html.c, report/perfetto.c, report/link.c): what is kept and
 * what is only counted, the caps, the buckets, and the links from a
 * finding's evidence to the calls it quotes. (Real pages in Chromium:
 * tests/report.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <cmocka.h>

#include "event/timeline.h"
#include "diagnose/diagnose.h"
#include "report/report.h"
#include "util/util.h"

static uint64_t seq;

/* A call NR of TID at TS lasting DUR, failing with ERR when not 0. */
static void call(struct rc_timeline *tl, int tid, long nr, double ts, double dur, int err, bool quoted,
		 const char *line)
{
	struct rc_event e;

	event_clear(&e);
	e.kind = RC_EV_SYSCALL;
	e.pid = tid;
	e.seq = ++seq;
	e.ts = ts;
	e.dur = dur;
	e.nr = nr;
	e.name = "call";
	e.ret_known = true;
	e.ret = err ? -1 : 0;
	e.err = err;
	e.line = line;
	e.line_len = line ? strlen(line) : 0;
	timeline_add(tl, &e, quoted, tid);
}

static uint64_t counted_in_buckets(const struct rc_tl_thread *t)
{
	uint64_t n = 0;
	struct hmap_iter it;
	for (struct hmap_node *h = hmap_first(&t->counts, &it); h; h = hmap_next(&t->counts, &it))
		for (size_t b = 0; b < RC_TL_BUCKETS; b++)
			n += ((const uint32_t *)h->value)[b];
	return n;
}

/* Failed calls past the caps: the first HEAD and the last TAIL are kept,
 * in order; those between are counted, in their buckets. */
static void test_caps(void **state)
{
	struct rc_timeline tl;
	const int calls = RC_TL_HEAD + 1000;
	timeline_init(&tl);
	seq = 0;
	for (int i = 0; i < calls; i++)
		call(&tl, 10, SYS_openat, 1.0 + i * 1e-4, 1e-5, 2, false, "openat(...) = -1 ENOENT");
	assert_int_equal(tl.nthreads, 1);
	const struct rc_tl_thread *t = tl.threads[0];
	size_t n = timeline_list_len(&t->marked);
	assert_int_equal(n, RC_TL_HEAD + RC_TL_TAIL);
	assert_int_equal(t->marked.dropped, calls - RC_TL_HEAD - RC_TL_TAIL);
	assert_int_equal(timeline_list_at(&t->marked, 0)->seq, 1);
	assert_int_equal(timeline_list_at(&t->marked, RC_TL_HEAD - 1)->seq, RC_TL_HEAD);
	assert_int_equal(timeline_list_at(&t->marked, RC_TL_HEAD)->seq, calls - RC_TL_TAIL + 1);
	assert_int_equal(timeline_list_at(&t->marked, n - 1)->seq, calls);
	for (size_t i = 1; i < n; i++)
		assert_true(timeline_list_at(&t->marked, i)->seq > timeline_list_at(&t->marked, i - 1)->seq);
	assert_true(timeline_list_at(&t->marked, 0)->flags & RC_TL_FAILED);
	assert_int_equal(t->calls, calls);
	assert_int_equal(t->counted, t->marked.dropped);
	assert_int_equal(counted_in_buckets(t), t->marked.dropped);
	timeline_release(&tl);
}

/* The heads of all threads share RC_TL_HEADS: a thread that comes when
 * it is spent keeps its last TAIL only. */
static void test_heads_budget(void **state)
{
	struct rc_timeline tl;
	const int threads = RC_TL_HEADS / RC_TL_HEAD + 2;
	timeline_init(&tl);
	seq = 0;
	for (int k = 0; k < threads; k++)
		for (int i = 0; i < RC_TL_HEAD; i++)
			call(&tl, 10 + k, SYS_openat, k + i * 1e-4, 1e-5, 2, false, "openat(...) = -1 ENOENT");
	size_t heads = 0;
	for (size_t k = 0; k < tl.nthreads; k++)
		heads += tl.threads[k]->marked.nhead;
	assert_int_equal(heads, RC_TL_HEADS);
	assert_int_equal(tl.heads, RC_TL_HEADS);
	const struct rc_tl_thread *last = tl.threads[threads - 1];
	assert_int_equal(last->marked.nhead, 0);
	assert_int_equal(timeline_list_len(&last->marked), RC_TL_TAIL);
	assert_int_equal(timeline_list_at(&last->marked, RC_TL_TAIL - 1)->seq, seq);
	assert_int_equal(last->counted, RC_TL_HEAD - RC_TL_TAIL);
	timeline_release(&tl);
}

/* What is marked, what is quoted, what is only counted. */
static void test_kinds(void **state)
{
	struct rc_timeline tl;
	timeline_init(&tl);
	seq = 0;
	call(&tl, 10, SYS_read, 0, 1e-6, 0, false, "read(3, ...) = 0");		/* counted */
	call(&tl, 10, SYS_read, 0.1, 1e-6, 0, true, "read(3, \"x\", 1) = 1");	/* quoted */
	call(&tl, 10, SYS_futex, 0.2, 0.5, 0, false, "futex(...) = 0 <0.5>");	/* a wait */
	call(&tl, 10, SYS_execve, 0.8, 1e-4, 0, false, "execve(...) = 0");	/* an exec */
	struct rc_event e;
	event_clear(&e);
	e.kind = RC_EV_SIGNAL;
	e.pid = 10;
	e.seq = ++seq;
	e.ts = 0.9;
	e.dur = -1;
	e.signo = 15;
	timeline_add(&tl, &e, false, 10);
	const struct rc_tl_thread *t = tl.threads[0];
	assert_int_equal(timeline_list_len(&t->marked), 3);
	assert_true(timeline_list_at(&t->marked, 0)->flags & RC_TL_WAIT);
	assert_true(timeline_list_at(&t->marked, 1)->flags & RC_TL_EXEC);
	assert_int_equal(timeline_list_at(&t->marked, 2)->kind, RC_EV_SIGNAL);
	assert_int_equal(timeline_list_len(&t->quoted), 1);
	assert_true(timeline_list_at(&t->quoted, 0)->flags & RC_TL_QUOTED);
	/* The quoted call is counted too: drawn only if a finding quotes it. */
	assert_int_equal(t->counted, 2);
	assert_int_equal(t->calls, 4);
	assert_true(tl.timed);
	assert_true(tl.last >= 0.9);
	timeline_release(&tl);
}

/* Past RC_TL_THREADS threads, the calls are counted together. */
static void test_threads_cap(void **state)
{
	struct rc_timeline tl;
	timeline_init(&tl);
	seq = 0;
	for (int i = 0; i < RC_TL_THREADS + 2; i++)
		call(&tl, 100 + i, SYS_openat, i * 0.01, 1e-5, 2, false, "x");
	call(&tl, 100 + RC_TL_THREADS, SYS_openat, 3, 1e-5, 2, false, "x");
	assert_int_equal(tl.nthreads, RC_TL_THREADS);
	assert_int_equal(tl.other_threads, 2);
	assert_int_equal(tl.others.calls, 3);
	assert_int_equal(tl.others.counted, 3);
	assert_null(timeline_thread(&tl, 99));
	assert_ptr_equal(timeline_thread(&tl, 100 + RC_TL_THREADS), &tl.others);
	timeline_release(&tl);
}

/* A trace longer than the buckets cover widens them; no count is lost. */
static void test_buckets(void **state)
{
	struct rc_timeline tl;
	timeline_init(&tl);
	seq = 0;
	for (int i = 0; i <= 1000; i++)
		call(&tl, 10, SYS_read, 100.0 + i * 0.01, 1e-6, 0, false, "read");
	assert_true(tl.bucket * RC_TL_BUCKETS > 10.0);
	assert_true(tl.bucket <= 10.0 / RC_TL_BUCKETS * 2 + 1e-9);
	assert_int_equal(counted_in_buckets(tl.threads[0]), 1001);
	/* The last call is in the last bucket the trace reaches. */
	void **slot = hmap_get_int(&tl.threads[0]->counts, SYS_read);
	assert_non_null(slot);
	size_t last = (size_t)(10.0 / tl.bucket);
	assert_true(((uint32_t *)*slot)[last] > 0);
	timeline_release(&tl);
}

/* A log without timestamps: the axis is the events' order. */
static void test_untimed(void **state)
{
	struct rc_timeline tl;
	timeline_init(&tl);
	seq = 0;
	call(&tl, 0, SYS_openat, -1, -1, 2, false, "openat(...) = -1 ENOENT");
	call(&tl, 0, SYS_openat, -1, -1, 2, false, "openat(...) = -1 ENOENT");
	assert_false(tl.timed);
	const struct rc_tl_event *ev = timeline_list_at(&tl.threads[0]->marked, 1);
	assert_true(timeline_x(&tl, ev) == 2.0);
	assert_true(timeline_end(&tl, ev) == 2.0);
	timeline_release(&tl);
}

/* Evidence is found by its line: as finding_evidence keeps it (cut at a
 * newline, a long one cut and marked), and a line quoted twice is two
 * events. */
static void test_links(void **state)
{
	struct rc_timeline tl;
	struct rc_findings list;
	char longline[1000];
	timeline_init(&tl);
	findings_init(&list);
	seq = 0;
	memset(longline, 'a', sizeof(longline) - 1);
	longline[sizeof(longline) - 1] = '\0';
	call(&tl, 10, SYS_openat, 1, 1e-5, 0, true, "openat(\"/m\") = 3");
	call(&tl, 10, SYS_read, 2, 1e-5, 0, false, "read(3) = 0");
	call(&tl, 10, SYS_openat, 3, 1e-5, 0, true, "openat(\"/m\") = 3");
	call(&tl, 11, SYS_write, 4, 1e-5, 28, false, longline);
	assert_int_equal(timeline_line_key("x = 1  \r\nmore", 13), timeline_line_key("x = 1", 5));

	struct rc_finding *f = finding_add(&list, "repeated-open", RC_SEV_WARNING, RC_SEV_WARNING, "opened twice");
	f->seq = 3;
	finding_evidence(f, "openat(\"/m\") = 3", strlen("openat(\"/m\") = 3"));
	finding_evidence(f, "openat(\"/m\") = 3", strlen("openat(\"/m\") = 3"));
	finding_evidence(f, "#0 0x1 in main", strlen("#0 0x1 in main"));
	finding_evidence(f, longline, strlen(longline));
	struct rc_report_findings shown;
	findings_for_report(&list, &shown);
	struct rc_report rep = { .kind = "log", .findings = &shown, .timeline = &tl };
	const struct rc_tl_event *evs[RC_EVIDENCE_MAX];
	assert_int_equal(report_evidence_events(&rep, shown.v[0], evs), 3);
	assert_non_null(evs[0]);
	assert_non_null(evs[1]);
	/* A line quoted twice: the first such call, then the one nearest
	 * the finding's decisive call, never the same twice. */
	assert_int_equal(evs[0]->seq, 1);
	assert_int_equal(evs[1]->seq, 3);
	assert_null(evs[2]);
	assert_non_null(evs[3]);
	assert_int_equal(evs[3]->tid, 11);

	/* Both writers find them, and neither lets a line end its element. */
	struct strbuf out = STRBUF_INIT;
	report_html(&rep, &out);
	assert_non_null(strstr(out.buf, "data-seq=\"3\""));
	assert_non_null(strstr(out.buf, "\"ev\":[1,3,4]"));
	strbuf_reset(&out);
	report_perfetto(&rep, &out);
	assert_non_null(strstr(out.buf, "\"rootcause findings\""));
	assert_non_null(strstr(out.buf, "\"ph\":\"s\""));
	strbuf_release(&out);
	report_findings_release(&shown);
	timeline_release(&tl);
}

/* A line with "</script>" in it stays inside the page's data. */
static void test_html_escapes(void **state)
{
	struct rc_timeline tl;
	struct rc_findings list;
	const char *line = "write(2, \"</script><script>alert(1)</script>\", 40) = -1 EPIPE";
	timeline_init(&tl);
	findings_init(&list);
	seq = 0;
	call(&tl, 10, SYS_write, 1, 1e-5, 32, false, line);
	struct rc_finding *f = finding_add(&list, "error-message", RC_SEV_ERROR, RC_SEV_ERROR, "said </script>");
	finding_evidence(f, line, strlen(line));
	struct rc_report_findings shown;
	findings_for_report(&list, &shown);
	struct rc_report rep = { .kind = "log", .findings = &shown, .timeline = &tl };
	struct strbuf out = STRBUF_INIT;
	report_html(&rep, &out);
	size_t ends = 0;
	for (const char *s = out.buf; (s = strstr(s, "</script>")); s++)
		ends++;
	/* The data's and the script's own. */
	assert_int_equal(ends, 2);
	assert_non_null(strstr(out.buf, "\\u003c/script><script>alert(1)\\u003c/script>"));
	/* The HTML report escapes it as text. */
	assert_non_null(strstr(out.buf, "said &lt;/script&gt;"));
	strbuf_release(&out);
	report_findings_release(&shown);
	timeline_release(&tl);
}

/* A file the process saw in a root of its own: the HTML report says where
 * it is on this machine, as the text does. */
static void test_html_host_path(void **state)
{
	struct rc_findings list;
	findings_init(&list);
	struct rc_finding *f = finding_add(&list, "permission-denied", RC_SEV_ERROR, RC_SEV_ERROR,
					   "cannot read '/srv/models/a.pt': permission denied");
	finding_set(&f->path, "/srv/models/a.pt");
	struct rc_report_findings shown;
	findings_for_report(&list, &shown);
	shown.v[0]->host_path = xstrdup("/var/lib/vol/<models>/a.pt");
	struct rc_report rep = { .kind = "log", .findings = &shown };
	struct strbuf out = STRBUF_INIT;
	report_html(&rep, &out);
	assert_non_null(strstr(out.buf, "'/srv/models/a.pt' is '/var/lib/vol/&lt;models&gt;/a.pt' on this machine"));
	strbuf_release(&out);
	report_findings_release(&shown);
	(void)state;
}

/* Calls that overlap on one thread are trimmed so that slices nest. */
static void test_perfetto_nests(void **state)
{
	struct rc_timeline tl;
	struct rc_findings list;
	timeline_init(&tl);
	findings_init(&list);
	seq = 0;
	call(&tl, 10, SYS_poll, 1.0, 0.5, 0, false, "poll(...) = 0");
	call(&tl, 10, SYS_read, 1.2, 0.5, 0, false, "read(...) = 0");	/* ends after poll */
	call(&tl, 10, SYS_read, 1.3, 0.1, 0, false, "read(...) = 0");	/* inside both */
	struct rc_report_findings shown;
	findings_for_report(&list, &shown);
	struct rc_report rep = { .kind = "log", .findings = &shown, .timeline = &tl };
	struct strbuf out = STRBUF_INIT;
	report_perfetto(&rep, &out);
	assert_non_null(strstr(out.buf, "\"trimmed_slices\":1"));
	/* The second read is trimmed to the poll's end: 1.5 - 1.2 s. */
	assert_non_null(strstr(out.buf, "\"ts\":200000.000,\"dur\":300000.000"));
	strbuf_release(&out);
	report_findings_release(&shown);
	timeline_release(&tl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_caps),
		cmocka_unit_test(test_heads_budget),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_threads_cap),
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_untimed),
		cmocka_unit_test(test_links),
		cmocka_unit_test(test_html_escapes),
		cmocka_unit_test(test_html_host_path),
		cmocka_unit_test(test_perfetto_nests),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
