/* The report model's crash part, filled from the crash model: the writers
 * print it (report/model.h says what each field means).  What needs crash
 * knowledge is decided here: which runs of frames are a recursion to fold,
 * which frames run Python, the signal and its code in words. */
#include "crash/export.h"

#include <stdlib.h>
#include <string.h>

#include "gen/tables.h"
#include "report/report.h"
#include "util/util.h"
#include "util/xlat.h"

/* A run of frames repeating this many times or more is folded into one
 * entry: JSON "repeat", text "x N". */
#define FOLD_MIN 4

/* F's parts but its module, which the caller links. */
static void frame_fill(const struct rc_frame *f, struct rc_report_frame *out)
{
	memset(out, 0, sizeof(*out));
	out->pc = f->pc;
	out->function = f->function;
	out->offset = f->offset;
	out->file = f->file;
	out->line = f->line;
	out->inlined = f->inlined;
	out->runs_python = f->function && !f->inlined && strcmp(f->function, "_PyEval_EvalFrameDefault") == 0;
	out->repeat = 1;
	out->period = 1;
}

void crash_frame_str(const struct rc_frame *f, struct strbuf *out)
{
	struct rc_report_module m = { .name = f->module ? f->module->name : NULL };
	struct rc_report_frame rf;

	frame_fill(f, &rf);
	rf.module = f->module ? &m : NULL;
	report_frame_str(&rf, out);
}

/* MODULES: the report's copy of C's modules, in the same order. */
static struct rc_report_frame *frames_fill(const struct rc_crash *c, const struct rc_thread *t,
					   const struct rc_report_module *modules)
{
	struct rc_report_frame *v = t->nframes ? xcalloc(t->nframes, sizeof(*v)) : NULL;

	for (size_t i = 0; i < t->nframes; i++) {
		const struct rc_frame *f = &t->frames[i];
		frame_fill(f, &v[i]);
		v[i].module = f->module ? &modules[f->module - c->modules] : NULL;
	}
	/* The writers walk the frames as this does: a fold's first frame
	 * says how far to skip. */
	for (size_t i = 0; i < t->nframes;) {
		size_t period, reps = crash_repeats(t, i, &period);
		if (reps >= FOLD_MIN) {
			v[i].repeat = (uint32_t)reps;
			v[i].period = (uint32_t)period;
			i += reps * period;
		} else {
			i++;
		}
	}
	return v;
}

static void thread_fill(const struct rc_crash *c, const struct rc_thread *t,
			const struct rc_report_module *modules, struct rc_report_thread *out)
{
	memset(out, 0, sizeof(*out));
	out->tid = t->tid;
	out->name = t->name;
	out->py_name = t->py_name;
	out->crashed = t->crashed;
	out->frames = frames_fill(c, t, modules);
	out->nframes = t->nframes;
	out->truncated = t->truncated;
	out->unwind_error = t->unwind_error;
	out->python = t->python;
	out->gil = t->gil;
	struct rc_report_pyframe *py = t->npy ? xcalloc(t->npy, sizeof(*py)) : NULL;
	for (size_t i = 0; i < t->npy; i++) {
		py[i].function = t->py[i].function;
		py[i].file = t->py[i].file;
		py[i].line = t->py[i].line;
		py[i].entry = t->py[i].entry;
	}
	out->py = py;
	out->npy = t->npy;
}

void crash_report_fill(const struct rc_crash *c, struct rc_report_crash *out)
{
	memset(out, 0, sizeof(*out));
	out->signo = c->signo;
	if (c->signo) {
		struct strbuf sb = STRBUF_INIT;
		out->signal_name = xlat_name(&rc_xlat_signal, c->signo);
		out->si_code_name = c->has_siginfo ? xlat_si_code_name(c->signo, c->si_code, 0) : NULL;
		out->has_fault_addr = crash_has_fault_addr(c);
		out->fault_addr = c->fault_addr;
		crash_signal_str(c, &sb);
		out->signal_text = strbuf_detach(&sb);
	}
	out->crashed_tid = c->crashed_tid;
	out->pid = c->pid;
	out->exe = c->exe;
	out->argv = (const char *const *)c->argv;
	out->argc = c->argc;

	struct rc_report_module *modules = c->nmodules ? xcalloc(c->nmodules, sizeof(*modules)) : NULL;
	for (size_t i = 0; i < c->nmodules; i++) {
		const struct rc_module *m = &c->modules[i];
		modules[i].name = m->name;
		modules[i].start = m->start;
		modules[i].end = m->end;
		modules[i].build_id = m->build_id;
		modules[i].has_symbols = m->has_symbols;
		modules[i].has_debuginfo = m->has_debuginfo;
	}
	out->modules = modules;
	out->nmodules = c->nmodules;

	struct rc_report_thread *threads = c->nthreads ? xcalloc(c->nthreads, sizeof(*threads)) : NULL;
	for (size_t i = 0; i < c->nthreads; i++)
		thread_fill(c, &c->threads[i], modules, &threads[i]);
	out->threads = threads;
	out->nthreads = c->nthreads;

	const struct rc_thread *ct = crash_thread(c);
	if (ct) {
		struct rc_report_reg *regs = xcalloc(RC_CRASH_NREGS, sizeof(*regs));
		for (int i = 0; i < RC_CRASH_NREGS; i++) {
			regs[i].name = rc_crash_reg_names[i];
			regs[i].value = ct->regs[i];
		}
		out->regs = regs;
		out->nregs = RC_CRASH_NREGS;
		out->regs_tid = ct->tid;
	}

	struct rc_report_mapping *maps = c->nmaps ? xcalloc(c->nmaps, sizeof(*maps)) : NULL;
	for (size_t i = 0; i < c->nmaps; i++) {
		const struct rc_mapping *m = &c->maps[i];
		maps[i].start = m->start;
		maps[i].end = m->end;
		maps[i].perms[0] = m->read ? 'r' : '-';
		maps[i].perms[1] = m->write ? 'w' : '-';
		maps[i].perms[2] = m->exec ? 'x' : '-';
		maps[i].perms[3] = '\0';
		maps[i].path = m->path;
		maps[i].offset = m->offset;
		maps[i].file_size = m->file_size;
		maps[i].in_core = m->in_core;
	}
	out->maps = maps;
	out->nmaps = c->nmaps;
	out->problems = c->problems.len ? c->problems.buf : "";
}

void crash_report_release(struct rc_report_crash *out)
{
	for (size_t i = 0; i < out->nthreads; i++) {
		free(out->threads[i].frames);
		free(out->threads[i].py);
	}
	free(out->threads);
	free(out->modules);
	free(out->maps);
	free(out->regs);
	free(out->signal_text);
	memset(out, 0, sizeof(*out));
}
