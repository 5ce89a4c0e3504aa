/* The end of a crash finding's summary when Python called into the native
 * code that crashed: which Python line called what, and how that died,
 *
 *   "read_frames (worker.py:31) called ctypes.memmove, which faulted reading 0x10"
 *
 * The Python line is the crashed thread's innermost Python frame.  What it
 * called is the outermost native frame above the interpreter: the foreign
 * function itself when the call went through libffi (ctypes, cffi), else
 * the extension's own function.  Its Python spelling ("ctypes.memmove")
 * is taken from the source line when the line names it. */
#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "crash/insn.h"
#include "crash/rules.h"
#include "util/util.h"

static bool module_is(const struct rc_frame *f, const char *prefix)
{
	return f->module && strncmp(crash_basename(f->module->name), prefix, strlen(prefix)) == 0;
}

static bool interpreter_frame(const struct rc_frame *f)
{
	return module_is(f, "python") || module_is(f, "libpython");
}

/* glibc's string functions run as one of several variants picked at
 * load time (__memmove_avx512_unaligned_erms): the caller called the
 * plain name. */
static void canonical_name(const struct rc_frame *f, char *out, size_t n)
{
	static const char *const variants[] = {
		"_sse2", "_ssse3", "_sse4", "_avx", "_evex", "_erms", "_unaligned", "_aligned", "_rtm",
	};
	const char *s = f->function;

	snprintf(out, n, "%s", s);
	if (!module_is(f, "libc.so") && !module_is(f, "libc-"))
		return;
	while (*s == '_')
		s++;
	size_t len = strlen(s);
	for (size_t i = 0; i < ARRAY_SIZE(variants); i++) {
		const char *v = strstr(s, variants[i]);
		if (v && (size_t)(v - s) < len)
			len = (size_t)(v - s);
	}
	if (len && len < strlen(s))
		snprintf(out, n, "%.*s", (int)len, s);
}

/* glibc's x86_64 memmove variants are also its memcpy variants: one
 * function at one address, named __memmove_avx_unaligned_erms and
 * __memcpy_avx_unaligned_erms (memmove-vec-unaligned-erms.S), and a
 * symbol table gives whichever it lists first. The line that called it
 * may spell either. */
static const char *alias_of(const char *name)
{
	if (strcmp(name, "memcpy") == 0)
		return "memmove";
	if (strcmp(name, "memmove") == 0)
		return "memcpy";
	return NULL;
}

static bool ident_char(int ch)
{
	return isalnum(ch) || ch == '_';
}

/* Line LINE of FILE, at most N-1 bytes, or false. */
static bool source_line(const char *file, int line, char *buf, size_t n)
{
	FILE *fp = fopen(file, "re");
	if (!fp)
		return false;
	bool found = false;
	for (int i = 1; i <= line && fgets(buf, (int)n, fp); i++) {
		/* A line longer than the buffer counts as several: stop. */
		if (!strchr(buf, '\n') && !feof(fp))
			break;
		found = i == line;
	}
	fclose(fp);
	return found;
}

/* The dotted name the source line calls NAME by ("ctypes.memmove" for
 * memmove), into OUT; false when the line does not call NAME. */
static bool python_spelling(const char *text, const char *name, char *out, size_t n)
{
	size_t len = strlen(name);

	for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
		const char *q = p + len;
		while (*q == ' ')
			q++;
		if (*q != '(' || (p > text && ident_char((unsigned char)p[-1])) || ident_char((unsigned char)p[len]))
			continue;
		const char *b = p;
		while (b > text && (ident_char((unsigned char)b[-1]) || b[-1] == '.'))
			b--;
		while (*b == '.')
			b++;
		snprintf(out, n, "%.*s", (int)(p + len - b), b);
		return true;
	}
	return false;
}

static bool eval_frame(const struct rc_frame *f)
{
	return f->function && strstr(f->function, "_PyEval_EvalFrame") && interpreter_frame(f);
}

/* The native frame Python called, and how it was reached.  From the
 * innermost evaluator frame inwards: the interpreter's own call
 * machinery, then the first frame outside it, which Python called (an
 * extension's function; the C-API functions it calls in turn are inside
 * it, not callers).  A call through libffi (ctypes, cffi) called the
 * foreign function just inside libffi's frames. */
static const struct rc_frame *callee(const struct rc_thread *t, const char **via)
{
	size_t e = 0, x, i;

	*via = NULL;
	while (e < t->nframes && !eval_frame(&t->frames[e]))
		e++;
	if (e == t->nframes || e == 0)
		return NULL;
	for (x = e; x > 0 && interpreter_frame(&t->frames[x - 1]); x--)
		;
	if (x == 0)
		return NULL;	/* the interpreter crashed in itself */
	x--;
	for (i = 0; i <= x && !module_is(&t->frames[i], "libffi.so"); i++)
		;
	if (i > x)
		return &t->frames[x];
	for (size_t k = i; k <= x; k++) {
		if (module_is(&t->frames[k], "_ctypes"))
			*via = "ctypes";
		else if (module_is(&t->frames[k], "_cffi_backend"))
			*via = "cffi";
	}
	/* The foreign function may have tail-called the interpreter and left
	 * no frame (ctypes.string_at is PyBytes_FromStringAndSize's): then
	 * only "through ctypes" is known. */
	return i && !interpreter_frame(&t->frames[i - 1]) ? &t->frames[i - 1] : NULL;
}

/* A file of Python's own library (ctypes/__init__.py, threading.py,
 * <frozen importlib._bootstrap>), not the program's. */
static bool stdlib_file(const char *file)
{
	return file[0] == '<' || (strstr(file, "/lib/python") && !strstr(file, "-packages/"));
}

/* F (FILE:LINE), FILE by its last component, or its last two for a
 * package's __init__.py. */
static void add_pyframe(const struct rc_pyframe *p, struct strbuf *out)
{
	strbuf_adds(out, p->function);
	if (!p->file)
		return;
	const char *b = crash_basename(p->file);
	if (strcmp(b, "__init__.py") == 0 && b - p->file >= 2) {
		const char *d = b - 1;
		while (d > p->file && d[-1] != '/')
			d--;
		b = d;
	}
	strbuf_addf(out, " (%s:%d)", b, p->line);
}

void crash_python_call(const struct rc_crash *c, struct strbuf *out)
{
	const struct rc_thread *t = crash_thread(c);

	if (!t || !t->npy || !t->py[0].function)
		return;
	const struct rc_pyframe *p = &t->py[0];
	strbuf_adds(out, "; ");
	add_pyframe(p, out);
	/* A library wrapper called it: the program's own line too. */
	for (size_t k = 1; p->file && stdlib_file(p->file) && k < t->npy; k++) {
		const struct rc_pyframe *u = &t->py[k];
		if (u->function && u->file && !stdlib_file(u->file)) {
			strbuf_adds(out, " from ");
			add_pyframe(u, out);
			break;
		}
	}

	const char *via;
	const struct rc_frame *f = callee(t, &via);
	char name[128], spelled[160], text[1024];
	if (f && f->function) {
		canonical_name(f, name, sizeof(name));
		const char *other = alias_of(name);
		bool line = p->file && p->line > 0 && source_line(p->file, p->line, text, sizeof(text));
		if (line && (python_spelling(text, name, spelled, sizeof(spelled)) ||
			     (other && python_spelling(text, other, spelled, sizeof(spelled)))))
			strbuf_addf(out, " called %s", spelled);
		else if (via)
			strbuf_addf(out, " called %s through %s", name, via);
		else
			strbuf_addf(out, " called %s (%s)", name, crash_basename(f->module->name));
	} else if (f && f->module) {
		strbuf_addf(out, " called into %s", crash_basename(f->module->name));
	} else if (via) {
		strbuf_addf(out, " called a foreign function through %s", via);
	} else {
		strbuf_adds(out, " called native code");
	}

	if (c->signo == SIGSEGV && c->si_code == SI_KERNEL) {
		/* A general protection fault: si_addr is 0, whatever was used. */
		strbuf_adds(out, ", which faulted (a general protection fault: a non-canonical address)");
	} else if ((c->signo == SIGSEGV || c->signo == SIGBUS) && crash_has_fault_addr(c)) {
		unsigned char code[15];
		size_t n = crash_read_code(c, t->regs[RC_REG_RIP], code, sizeof(code));
		const char *verb = insn_access_verb(insn_access(code, n, t->regs, c->fault_addr));
		strbuf_addf(out, ", which faulted %s 0x%llx", verb ? verb : "at", (unsigned long long)c->fault_addr);
	} else if (c->signo == SIGABRT) {
		strbuf_adds(out, ", which aborted");
	} else if (c->signo > 0) {
		strbuf_adds(out, ", which died of ");
		crash_signal_str(c, out);
	}
}
