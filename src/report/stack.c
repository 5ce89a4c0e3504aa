/* A call's stack in words, for the text and html writers: compact (the
 * program's own frames first, the library frame the call was made in
 * after them), or whole; and a Python frame as the JSON writers put it,
 * here so that json.c and crash.c both use it without using each other. */
#include <string.h>

#include "report/report.h"
#include "util/json.h"
#include "util/util.h"

/* Own frames shown in the compact line, callers after the innermost. */
#define OWN_SHOWN 3

/* A library's file from where its package starts ("torch/serialization.py"),
 * the standard library's from its directory ("json/decoder.py"), the
 * program's own with its directory ("sonic/model.py"). */
static const char *short_py_file(const char *p)
{
	static const char *const roots[] = { "/site-packages/", "/dist-packages/" };

	if (!p)
		return "?";
	for (size_t i = 0; i < ARRAY_SIZE(roots); i++) {
		const char *at = strstr(p, roots[i]);
		if (at)
			return at + strlen(roots[i]);
	}
	const char *lib = strstr(p, "/lib/python");
	if (lib && (lib = strchr(lib + 11, '/')))
		return lib + 1;
	/* The last two parts of the program's own path. */
	const char *last = strrchr(p, '/');
	if (!last)
		return p;
	const char *prev = last;
	while (prev > p && prev[-1] != '/')
		prev--;
	return prev > p ? prev : p;
}

static const char *base(const char *p)
{
	const char *s = p ? strrchr(p, '/') : NULL;

	return s ? s + 1 : p;
}

static void py_frame(struct strbuf *sb, const struct rc_stack_pyframe *f)
{
	strbuf_adds(sb, short_py_file(f->file));
	if (f->line > 0)
		strbuf_addf(sb, ":%d", f->line);
	strbuf_addf(sb, " in %s", f->function ? f->function : "?");
}

static void native_frame(struct strbuf *sb, const struct rc_stack_frame *f)
{
	if (f->file) {
		strbuf_adds(sb, base(f->file));
		if (f->line > 0)
			strbuf_addf(sb, ":%d", f->line);
		strbuf_addf(sb, " in %s", f->function ? f->function : "?");
		return;
	}
	if (f->function)
		strbuf_addf(sb, "%s+%#llx", f->function, (unsigned long long)f->offset);
	else
		strbuf_addf(sb, "%#llx", (unsigned long long)f->pc);
	if (f->module)
		strbuf_addf(sb, " (%s)", base(f->module));
}

/* A frame the compact line can name: one that has a name. */
static bool named_native(const struct rc_stack_frame *f)
{
	return f->function || f->file;
}

void report_stack_line(const struct rc_stack *s, struct strbuf *sb)
{
	size_t shown = 0, first_own = SIZE_MAX;

	if (s->npy) {
		for (size_t i = 0; i < s->npy && shown < OWN_SHOWN; i++) {
			if (!stack_py_own(&s->py[i]))
				continue;
			if (first_own == SIZE_MAX)
				first_own = i;
			strbuf_adds(sb, shown++ ? " <- " : "");
			py_frame(sb, &s->py[i]);
		}
		if (!shown) {
			/* All library code (a tool of the standard library):
			 * the innermost frames. */
			for (size_t i = 0; i < s->npy && i < OWN_SHOWN; i++) {
				strbuf_adds(sb, i ? " <- " : "");
				py_frame(sb, &s->py[i]);
			}
			return;
		}
		/* The library code that made the call, when the program's
		 * own line did not make it itself. */
		if (first_own > 0) {
			strbuf_adds(sb, " (in ");
			py_frame(sb, &s->py[0]);
			strbuf_adds(sb, ")");
		}
		return;
	}
	for (size_t i = 0; i < s->nnative && shown < OWN_SHOWN; i++) {
		if (!stack_native_own(&s->native[i]) || !named_native(&s->native[i]))
			continue;
		if (first_own == SIZE_MAX)
			first_own = i;
		strbuf_adds(sb, shown++ ? " <- " : "");
		native_frame(sb, &s->native[i]);
	}
	if (!shown) {
		size_t n = 0;
		for (size_t i = 0; i < s->nnative && n < OWN_SHOWN; i++) {
			if (!named_native(&s->native[i]))
				continue;
			strbuf_adds(sb, n++ ? " <- " : "");
			native_frame(sb, &s->native[i]);
		}
		/* No symbol anywhere (a stripped program, a copy run from a
		 * memfd): the innermost addresses, in their modules. */
		for (size_t i = 0; !n && i < s->nnative && i < OWN_SHOWN; i++) {
			strbuf_adds(sb, i ? " <- " : "");
			native_frame(sb, &s->native[i]);
		}
		return;
	}
	/* The library call the program made: the outermost named library
	 * frame under its own code. */
	for (size_t i = first_own; i-- > 0;)
		if (named_native(&s->native[i])) {
			strbuf_adds(sb, " (in ");
			native_frame(sb, &s->native[i]);
			strbuf_adds(sb, ")");
			break;
		}
}

void report_stack_lines(const struct rc_stack *s, const char *indent, struct strbuf *sb)
{
	for (size_t i = 0; i < s->npy; i++) {
		const struct rc_stack_pyframe *f = &s->py[i];
		strbuf_addf(sb, "%s%s", indent, f->file ? f->file : "?");
		if (f->line > 0)
			strbuf_addf(sb, ":%d", f->line);
		strbuf_addf(sb, " in %s\n", f->function ? f->function : "?");
	}
	for (size_t i = 0; i < s->nnative; i++) {
		const struct rc_stack_frame *f = &s->native[i];
		strbuf_addf(sb, "%s#%-2zu 0x%016llx ", indent, i, (unsigned long long)f->pc);
		if (f->function)
			strbuf_addf(sb, "%s%s+%#llx", f->inlined ? "(inlined) " : "", f->function,
				    (unsigned long long)f->offset);
		else
			strbuf_adds(sb, "??");
		if (f->file)
			strbuf_addf(sb, " at %s:%d", f->file, f->line);
		if (f->module)
			strbuf_addf(sb, " (%s)", f->module);
		strbuf_addc(sb, '\n');
	}
	if (s->truncated)
		strbuf_addf(sb, "%s...(cut)\n", indent);
}

void report_json_pyframe(struct json *j, const char *function, const char *file, int line)
{
	json_begin_object(j);
	json_opt_string(j, "function", function);
	json_opt_string(j, "file", file);
	if (line > 0) {
		json_key(j, "line");
		json_int(j, line);
	}
	json_end_object(j);
}
