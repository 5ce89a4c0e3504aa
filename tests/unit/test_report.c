/* The report model's crash part (report/model.h), as crash/export.c fills
 * it from a crash model made here, and as the writers print it: frames
 * linked to their modules, recursion folded once by the filler, the
 * evaluator frames that carry the Python ones, the signal in words, the
 * crashed thread's registers.  (Real cores against gdb: tests/crash.) */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "crash/crash.h"
#include "crash/export.h"
#include "report/report.h"
#include "util/json.h"
#include "util/util.h"

#define EXE_START 0x400000ULL
#define LIB_START 0x7f0000000000ULL

static void frame(struct rc_frame *f, uint64_t pc, const struct rc_module *m, const char *fn,
		  const char *file, int line)
{
	memset(f, 0, sizeof(*f));
	f->pc = pc;
	f->module = m;
	f->function = fn ? xstrdup(fn) : NULL;
	f->offset = m ? pc - m->start : 0;
	f->file = file ? xstrdup(file) : NULL;
	f->line = line;
}

/* A process killed by SIGSEGV at 0x10: its main thread crashed in f,
 * called by a recursion g -> h five times deep, called from a pc in no
 * module; a second thread runs Python. */
static void make_crash(struct rc_crash *c)
{
	crash_init(c);
	c->signo = SIGSEGV;
	c->si_code = SEGV_MAPERR;
	c->has_siginfo = true;
	c->fault_addr = 0x10;
	c->pid = 100;
	c->crashed_tid = 100;
	c->exe = xstrdup("/opt/app/server");

	c->nmodules = 2;
	c->modules = xcalloc(2, sizeof(*c->modules));
	c->modules[0] = (struct rc_module){ .name = xstrdup("/opt/app/server"), .start = EXE_START,
					    .end = EXE_START + 0x10000, .has_symbols = true, .has_debuginfo = true };
	c->modules[1] = (struct rc_module){ .name = xstrdup("/usr/lib/libpython3.11.so"), .start = LIB_START,
					    .end = LIB_START + 0x100000 };
	snprintf(c->modules[1].build_id, sizeof(c->modules[1].build_id), "abcd");

	c->nthreads = 2;
	c->threads = xcalloc(2, sizeof(*c->threads));
	struct rc_thread *t = &c->threads[0];
	t->tid = 100;
	t->crashed = true;
	t->regs[RC_REG_RIP] = EXE_START + 0x100;
	t->nframes = 12;
	t->frames = xcalloc(t->nframes, sizeof(*t->frames));
	frame(&t->frames[0], EXE_START + 0x100, &c->modules[0], "f", "/src/a.c", 3);
	for (int i = 0; i < 5; i++) {
		frame(&t->frames[1 + 2 * i], EXE_START + 0x200, &c->modules[0], "g", "/src/b.c", 7);
		frame(&t->frames[2 + 2 * i], EXE_START + 0x300, &c->modules[0], "h", "/src/b.c", 9);
	}
	frame(&t->frames[11], 0xdead0000, NULL, NULL, NULL, 0);

	t = &c->threads[1];
	t->tid = 101;
	t->name = xstrdup("python3");
	t->py_name = xstrdup("worker");
	t->python = true;
	t->nframes = 2;
	t->frames = xcalloc(t->nframes, sizeof(*t->frames));
	frame(&t->frames[0], LIB_START + 0x40, &c->modules[1], NULL, NULL, 0);
	frame(&t->frames[1], LIB_START + 0x80, &c->modules[1], "_PyEval_EvalFrameDefault", NULL, 0);
	t->npy = 1;
	t->py = xcalloc(1, sizeof(*t->py));
	t->py[0] = (struct rc_pyframe){ .function = xstrdup("work"), .file = xstrdup("/opt/app/w.py"), .line = 12,
					.entry = true };

	c->nmaps = 1;
	c->maps = xcalloc(1, sizeof(*c->maps));
	c->maps[0] = (struct rc_mapping){ .start = EXE_START, .end = EXE_START + 0x10000,
					  .path = xstrdup("/opt/app/server"), .read = true, .exec = true,
					  .file_size = 4096, .in_core = true };
}

static void fill(void **state)
{
	(void)state;
	struct rc_crash c;
	struct rc_report_crash r;

	make_crash(&c);
	crash_report_fill(&c, &r);
	assert_string_equal(r.signal_name, "SIGSEGV");
	assert_string_equal(r.si_code_name, "SEGV_MAPERR");
	assert_true(r.has_fault_addr);
	assert_string_equal(r.signal_text, "SIGSEGV (SEGV_MAPERR at 0x10)");
	assert_int_equal(r.nthreads, 2);
	assert_int_equal(r.nmodules, 2);

	/* Frames point at the report's modules, not the crash model's. */
	const struct rc_report_thread *t = &r.threads[0];
	assert_ptr_equal(t->frames[0].module, &r.modules[0]);
	assert_null(t->frames[11].module);
	/* The fold: g -> h, five times, from frame 1; inside it nothing. */
	assert_int_equal(t->frames[0].repeat, 1);
	assert_int_equal(t->frames[1].repeat, 5);
	assert_int_equal(t->frames[1].period, 2);
	assert_int_equal(t->frames[3].repeat, 1);
	assert_int_equal(t->frames[11].repeat, 1);
	assert_false(t->frames[0].runs_python);
	assert_true(r.threads[1].frames[1].runs_python);
	assert_string_equal(r.threads[1].py[0].function, "work");

	/* The crashed thread's registers, by name. */
	assert_int_equal(r.nregs, RC_CRASH_NREGS);
	assert_int_equal(r.regs_tid, 100);
	assert_string_equal(r.regs[RC_REG_RIP].name, "rip");
	assert_int_equal(r.regs[RC_REG_RIP].value, EXE_START + 0x100);
	assert_string_equal(r.maps[0].perms, "r-x");
	assert_string_equal(r.problems, "");

	crash_report_release(&r);
	crash_release(&c);
}

/* The frame in gdb's words is written once: the findings' evidence
 * (crash_frame_str) and the stacks (report_frame_str) say the same. */
static void frame_words(void **state)
{
	(void)state;
	struct rc_crash c;
	struct rc_report_crash r;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	make_crash(&c);
	crash_report_fill(&c, &r);
	const size_t cases[][2] = { { 0, 0 }, { 0, 11 }, { 1, 0 } };
	const char *want[] = {
		"0x400100 in f (/src/a.c:3) from /opt/app/server",
		"0xdead0000 in ??",
		"0x7f0000000040 in ?? (libpython3.11.so+0x40) from /usr/lib/libpython3.11.so",
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		strbuf_reset(&a);
		strbuf_reset(&b);
		crash_frame_str(&c.threads[cases[i][0]].frames[cases[i][1]], &a);
		report_frame_str(&r.threads[cases[i][0]].frames[cases[i][1]], &b);
		assert_string_equal(a.buf, want[i]);
		assert_string_equal(b.buf, want[i]);
	}
	strbuf_release(&a);
	strbuf_release(&b);
	crash_report_release(&r);
	crash_release(&c);
}

/* The writers print what the filler decided: the fold as one line (text)
 * or one cycle with its count (JSON), Python frames above their
 * evaluator frame. */
static void writers(void **state)
{
	(void)state;
	struct rc_crash c;
	struct rc_report_crash r;
	const struct rc_report_findings findings = { 0 };
	struct strbuf sb = STRBUF_INIT;
	const char *files[] = { "core", NULL };

	make_crash(&c);
	crash_report_fill(&c, &r);
	struct rc_report rep = { .kind = "core", .files = files, .pid = 100, .findings = &findings, .crash = &r };

	report_text(&rep, &sb, false, false);
	assert_non_null(strstr(sb.buf, "crashed: SIGSEGV (SEGV_MAPERR at 0x10) in thread 100\n"));
	assert_non_null(strstr(sb.buf, "  #0     0x400100 in f (/src/a.c:3) from /opt/app/server\n"
				       "  #1     g (b.c:7) -> h (b.c:9) x 5 (frames #1 to #10)\n"
				       "  #11    0xdead0000 in ??\n"));
	assert_non_null(strstr(sb.buf, "thread 101 'worker':\n"
				       "  #0     0x7f0000000040 in ?? (libpython3.11.so+0x40) from /usr/lib/libpython3.11.so\n"
				       "  py     work (/opt/app/w.py:12)\n"
				       "  #1     0x7f0000000080 in _PyEval_EvalFrameDefault from /usr/lib/libpython3.11.so\n"));
	assert_non_null(strstr(sb.buf, "  /usr/lib/libpython3.11.so build id abcd\n"));
	assert_non_null(strstr(sb.buf, "  rip      0x400100"));

	strbuf_reset(&sb);
	report_json(&rep, &sb);
	assert_non_null(strstr(sb.buf, "\"si_code\": \"SEGV_MAPERR\""));
	assert_non_null(strstr(sb.buf, "\"fault_address\": \"0x10\""));
	assert_non_null(strstr(sb.buf, "\"repeat\": 5"));
	assert_non_null(strstr(sb.buf, "\"period\": 2"));
	assert_non_null(strstr(sb.buf, "\"perms\": \"r-x\""));
	/* Frames 3 to 10 are the fold's other cycles: not listed. */
	const char *g = strstr(sb.buf, "\"pc\": \"0x400200\"");
	assert_non_null(g);
	assert_null(strstr(g + 1, "\"pc\": \"0x400200\""));

	strbuf_release(&sb);
	crash_report_release(&r);
	crash_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fill),
		cmocka_unit_test(frame_words),
		cmocka_unit_test(writers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
