/* The crash parts of the report: "crash", "threads", "modules" and
 * "mappings" in JSON (docs/report-schema.md), and the stacks in text as
 * gdb's `thread apply all bt` would show them, with recursion folded.
 * They read the report model's crash part (report/model.h) only. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report/report.h"
#include "util/json.h"
#include "util/util.h"

/* Frames of a thread listed in text before the rest is summed up; the
 * crashed thread's are all listed (folded). */
#define TEXT_FRAMES_OTHER 40

static void hex(struct json *j, const char *key, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	json_key(j, key);
	json_string(j, buf);
}

static void json_frame(struct json *j, const struct rc_report_frame *f, size_t repeat, size_t period)
{
	json_begin_object(j);
	hex(j, "pc", f->pc);
	if (f->module)
		json_opt_string(j, "module", f->module->name);
	json_opt_string(j, "function", f->function);
	if (f->module || f->function) {
		json_key(j, "offset");
		json_int(j, (long long)f->offset);
	}
	json_opt_string(j, "file", f->file);
	if (f->line > 0) {
		json_key(j, "line");
		json_int(j, f->line);
	}
	json_key(j, "inlined");
	json_bool(j, f->inlined);
	if (repeat > 1) {
		json_key(j, "repeat");
		json_int(j, (long long)repeat);
		if (period > 1) {
			json_key(j, "period");
			json_int(j, (long long)period);
		}
	}
	json_end_object(j);
}

static void json_thread(struct json *j, const struct rc_report_thread *t)
{
	json_begin_object(j);
	json_key(j, "tid");
	json_int(j, t->tid);
	/* Python's name for the thread says more than the kernel's, which
	 * is the program's name for all of them unless it set one. */
	json_opt_string(j, "name", t->py_name ? t->py_name : t->name);
	if (t->py_name && t->name && strcmp(t->py_name, t->name) != 0)
		json_opt_string(j, "comm", t->name);
	json_key(j, "crashed");
	json_bool(j, t->crashed);
	json_key(j, "frames");
	json_begin_array(j);
	for (size_t i = 0; i < t->nframes;) {
		size_t period = t->frames[i].period, reps = t->frames[i].repeat;
		if (reps > 1) {
			/* The first cycle stands for all: its first frame
			 * carries the count, its others follow. */
			for (size_t k = 0; k < period; k++)
				json_frame(j, &t->frames[i + k], k == 0 ? reps : 1, period);
			i += reps * period;
		} else {
			json_frame(j, &t->frames[i], 1, 1);
			i++;
		}
	}
	json_end_array(j);
	if (t->truncated) {
		json_key(j, "truncated");
		json_bool(j, true);
	}
	json_opt_string(j, "unwind_error", t->unwind_error);
	if (t->python) {
		json_key(j, "gil");
		json_bool(j, t->gil);
		json_key(j, "python");
		json_begin_array(j);
		for (size_t i = 0; i < t->npy; i++)
			report_json_pyframe(j, t->py[i].function, t->py[i].file, t->py[i].line);
		json_end_array(j);
	}
	json_end_object(j);
}

void report_crash_json(const struct rc_report_crash *c, struct json *j)
{
	if (c->signo) {
		json_key(j, "crash");
		json_begin_object(j);
		json_key(j, "signal");
		if (c->signal_name)
			json_string(j, c->signal_name);
		else
			json_int(j, c->signo);
		json_opt_string(j, "si_code", c->si_code_name);
		if (c->has_fault_addr)
			hex(j, "fault_address", c->fault_addr);
		if (c->crashed_tid) {
			json_key(j, "tid");
			json_int(j, c->crashed_tid);
		}
		json_opt_string(j, "exe", c->exe);
		if (c->argv) {
			json_key(j, "cmdline");
			json_begin_array(j);
			for (int i = 0; i < c->argc; i++)
				json_string(j, c->argv[i]);
			json_end_array(j);
		}
		if (c->nregs) {
			json_key(j, "registers");
			json_begin_object(j);
			for (size_t i = 0; i < c->nregs; i++)
				hex(j, c->regs[i].name, c->regs[i].value);
			json_end_object(j);
		}
		json_end_object(j);
	}
	json_key(j, "threads");
	json_begin_array(j);
	for (size_t i = 0; i < c->nthreads; i++)
		json_thread(j, &c->threads[i]);
	json_end_array(j);

	json_key(j, "modules");
	json_begin_array(j);
	for (size_t i = 0; i < c->nmodules; i++) {
		const struct rc_report_module *m = &c->modules[i];
		json_begin_object(j);
		json_opt_string(j, "name", m->name);
		hex(j, "start", m->start);
		hex(j, "end", m->end);
		if (m->build_id[0])
			json_opt_string(j, "build_id", m->build_id);
		json_key(j, "symbols");
		json_bool(j, m->has_symbols);
		json_key(j, "debuginfo");
		json_bool(j, m->has_debuginfo);
		json_end_object(j);
	}
	json_end_array(j);

	json_key(j, "mappings");
	json_begin_array(j);
	for (size_t i = 0; i < c->nmaps; i++) {
		const struct rc_report_mapping *m = &c->maps[i];
		json_begin_object(j);
		hex(j, "start", m->start);
		hex(j, "end", m->end);
		json_key(j, "perms");
		json_string(j, m->perms);
		if (m->path) {
			json_opt_string(j, "path", m->path);
			json_key(j, "offset");
			json_int(j, (long long)m->offset);
			if (m->file_size >= 0) {
				json_key(j, "file_size");
				json_int(j, m->file_size);
			}
		}
		json_key(j, "in_core");
		json_bool(j, m->in_core);
		json_end_object(j);
	}
	json_end_array(j);

	if (*c->problems) {
		json_key(j, "problems");
		json_begin_array(j);
		const char *s = c->problems;
		while (*s) {
			const char *nl = strchr(s, '\n');
			size_t n = nl ? (size_t)(nl - s) : strlen(s);
			if (n)
				json_stringn(j, s, n);
			s += n + (nl != NULL);
		}
		json_end_array(j);
	}
}

/* The Python frames of one _PyEval_EvalFrameDefault call, from *NEXT on:
 * up to and with the entry frame. */
static bool walk_py_run(const struct rc_report_thread *t, size_t *next, report_stack_fn fn, void *arg)
{
	while (*next < t->npy) {
		const struct rc_report_pyframe *p = &t->py[(*next)++];
		struct rc_report_stack_item it = { .py = p };
		if (!fn(arg, &it))
			return false;
		if (p->entry)
			break;
	}
	return true;
}

void report_thread_walk(const struct rc_report_thread *t, report_stack_fn fn, void *arg)
{
	size_t py_next = 0;
	bool has_eval = false;

	for (size_t i = 0; i < t->nframes && !has_eval; i++)
		has_eval = t->frames[i].runs_python;
	/* Without the evaluator's frames to hang them on (no symbols), the
	 * Python frames come first, as one stack of their own. */
	if (!has_eval)
		while (py_next < t->npy)
			if (!walk_py_run(t, &py_next, fn, arg))
				return;
	for (size_t i = 0; i < t->nframes;) {
		const struct rc_report_frame *f = &t->frames[i];
		struct rc_report_stack_item it = { .frame = f, .index = i, .repeat = 1, .period = 1 };
		if (f->repeat > 1) {
			it.repeat = f->repeat;
			it.period = f->period;
			i += (size_t)f->repeat * f->period;
		} else {
			/* Each evaluator call runs a run of Python frames: they
			 * sit just above it, as in py-spy's merged view. */
			if (f->runs_python && !walk_py_run(t, &py_next, fn, arg))
				return;
			i++;
		}
		if (!fn(arg, &it))
			return;
	}
}

struct text_walk {
	const struct rc_report_thread *t;
	struct strbuf *sb;
	bool all;
	size_t shown;		/* frames (and folds) printed */
};

static bool text_item(void *arg, const struct rc_report_stack_item *it)
{
	struct text_walk *w = arg;
	struct strbuf *sb = w->sb;

	/* Past the frames shown, the frame's own line says what is left. */
	bool past = !w->all && w->shown >= TEXT_FRAMES_OTHER;
	if (it->py && past)
		return true;
	if (it->py) {
		strbuf_addf(sb, "  py     %s", it->py->function ? it->py->function : "??");
		if (it->py->file)
			strbuf_addf(sb, " (%s:%d)", it->py->file, it->py->line);
		strbuf_addc(sb, '\n');
		return true;
	}
	if (past) {
		strbuf_addf(sb, "  ... %zu more frames (--format json lists them all)\n", w->t->nframes - it->index);
		return false;
	}
	w->shown++;
	size_t i = it->index;
	if (it->repeat > 1) {
		strbuf_addf(sb, "  #%-5zu ", i);
		for (size_t k = 0; k < it->period; k++) {
			const struct rc_report_frame *f = &w->t->frames[i + k];
			if (k)
				strbuf_adds(sb, " -> ");
			strbuf_adds(sb, f->function ? f->function : "??");
			if (f->file && f->line > 0)
				strbuf_addf(sb, " (%s:%d)", path_base(f->file), f->line);
		}
		strbuf_adds(sb, " x ");
		strbuf_add_count(sb, it->repeat);
		strbuf_addf(sb, " (frames #%zu to #%zu)\n", i, i + (size_t)it->repeat * it->period - 1);
	} else {
		strbuf_addf(sb, "  #%-5zu ", i);
		report_frame_str(it->frame, sb);
		strbuf_addc(sb, '\n');
	}
	return true;
}

void report_frame_str(const struct rc_report_frame *f, struct strbuf *out)
{
	strbuf_addf(out, "0x%llx in ", (unsigned long long)f->pc);
	if (f->function)
		strbuf_adds(out, f->function);
	else if (f->module)
		strbuf_addf(out, "?? (%s+0x%llx)", path_base(f->module->name), (unsigned long long)f->offset);
	else
		strbuf_adds(out, "??");
	if (f->file && f->line > 0)
		strbuf_addf(out, " (%s:%d)", f->file, f->line);
	if (f->inlined)
		strbuf_adds(out, " [inlined]");
	if (f->module)
		strbuf_addf(out, " from %s", f->module->name);
}

void report_thread_text(const struct rc_report_thread *t, struct strbuf *sb, bool all)
{
	struct text_walk w = { t, sb, all, 0 };

	strbuf_addf(sb, "\nthread %d", t->tid);
	/* The kernel's name is the program's to set, to anything. */
	if (t->py_name) {
		strbuf_addf(sb, " '%s'", t->py_name);
	} else if (t->name) {
		strbuf_adds(sb, " '");
		strbuf_add_escaped(sb, t->name, strlen(t->name));
		strbuf_addc(sb, '\'');
	}
	if (t->gil)
		strbuf_adds(sb, " (held the GIL)");
	strbuf_adds(sb, t->crashed ? " (crashed):\n" : ":\n");
	report_thread_walk(t, text_item, &w);
	if (!t->nframes)
		strbuf_adds(sb, "  (no frames)\n");
	if (t->truncated)
		strbuf_addf(sb, "  (the stack goes on: the walk stopped%s%s)\n",
			    t->unwind_error ? ": " : "", t->unwind_error ? t->unwind_error : "");
}

void report_crash_header(const struct rc_report_crash *c, struct strbuf *sb)
{
	if (c->signo) {
		strbuf_adds(sb, "crashed: ");
		strbuf_adds(sb, c->signal_text);
		if (c->crashed_tid)
			strbuf_addf(sb, " in thread %d", c->crashed_tid);
		strbuf_addc(sb, '\n');
	}
	if (c->exe || c->argv) {
		strbuf_addf(sb, "process %d", c->pid);
		if (c->argv) {
			strbuf_adds(sb, " '");
			for (int i = 0; i < c->argc; i++)
				strbuf_addf(sb, "%s%s", i ? " " : "", c->argv[i]);
			strbuf_adds(sb, "'");
		}
		if (c->exe)
			strbuf_addf(sb, " (%s)", c->exe);
		strbuf_addf(sb, ", %zu thread%s\n", c->nthreads, c->nthreads == 1 ? "" : "s");
	}
	const char *s = c->problems;
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		strbuf_adds(sb, "note: ");
		strbuf_add(sb, s, n);
		strbuf_addc(sb, '\n');
		s += n + (nl != NULL);
	}
}

void report_crash_text(const struct rc_report_crash *c, struct strbuf *sb, bool verbose)
{
	for (size_t i = 0; i < c->nthreads; i++)
		report_thread_text(&c->threads[i], sb, c->threads[i].crashed || verbose);

	size_t nosym = 0;
	for (size_t i = 0; i < c->nmodules; i++)
		nosym += !c->modules[i].has_symbols;
	if (nosym) {
		strbuf_addf(sb, "\nwithout symbols (function names are guessed from exports or missing):\n");
		for (size_t i = 0; i < c->nmodules; i++)
			if (!c->modules[i].has_symbols)
				strbuf_addf(sb, "  %s%s%s\n", c->modules[i].name,
					    c->modules[i].build_id[0] ? " build id " : "", c->modules[i].build_id);
	}
	if (c->nregs && c->signo) {
		strbuf_addf(sb, "\nregisters of thread %d:\n", c->regs_tid);
		for (size_t i = 0; i < c->nregs; i++) {
			bool last = i % 3 == 2 || i == c->nregs - 1;
			char v[24];
			snprintf(v, sizeof(v), "0x%" PRIx64, c->regs[i].value);
			strbuf_addf(sb, "  %-8s %-*s%s", c->regs[i].name, last ? 0 : 18, v, last ? "\n" : "");
		}
	}
	if (verbose && c->nmaps) {
		strbuf_adds(sb, "\nmappings:\n");
		for (size_t i = 0; i < c->nmaps; i++) {
			const struct rc_report_mapping *m = &c->maps[i];
			strbuf_addf(sb, "  %016" PRIx64 "-%016" PRIx64 " %s %s", m->start, m->end, m->perms,
				    m->in_core ? "core" : "    ");
			if (m->path)
				strbuf_addf(sb, " %s @ %" PRIu64, m->path, m->offset);
			strbuf_addc(sb, '\n');
		}
	}
}
