/* error-message: the program's own last words.
 *
 * The process model keeps the last lines written to stdout and stderr
 * (event/procs.h, joined from the pieces programs write them in). At the
 * end this rule picks, per process, the line that says the most: the
 * exception line of a Python traceback (not "Traceback (most recent call
 * last):"), else the last line on stderr that reads like an error, a fatal
 * message or a warning, else, for a process that exited with a failure
 * status, its last line on stderr whatever it says. Standard output counts
 * only for lines that are plainly errors ("Error: ...", "model load
 * failed", a traceback); plain output is never a finding.
 *
 * Lines written to /dev/null count only when their writer failed, and
 * the run with it.
 *
 * What a process wrote before a successful execve was written by another
 * program than the one that later failed: each program image's lines are
 * picked apart, and those of one that handed over (pyenv's shim before
 * the python it runs) are the words of a program that did not fail.
 *
 * State: none of its own. Everything comes from the bounded output ring.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rules/finding.h"
#include "rules/paths.h"
#include "rules/rule.h"
#include "rules/words.h"
#include "util/strbuf.h"
#include "util/xlat.h"
#include "util/util.h"

#define EM_SUMMARY_MAX 160

static bool contains_ci(const char *hay, const char *needle)
{
	return strcasestr(hay, needle) != NULL;
}

/* Words that make a stderr line a warning (error lines: rule_error_line). */
static const char *const warning_words[] = {
	"warning", "warn:", "[warn", "deprecat",
};

enum em_level {
	EM_NONE,
	EM_WARNING,
	EM_ERROR,
};

/* PROG is the process's name when it failed, else NULL: "bash: line 1:
 * x: command not found" is a diagnostic by the GNU convention of prefixing
 * them with the program's name, whatever its words. */
static enum em_level line_level(const struct rc_output *o, const char *prog)
{
	const char *s = o->text;

	if (!s || !s[0])
		return EM_NONE;
	if (rule_error_line(o))
		return EM_ERROR;
	if (o->fd == 1)
		return EM_NONE;
	for (size_t i = 0; i < ARRAY_SIZE(warning_words); i++)
		if (contains_ci(s, warning_words[i]))
			return EM_WARNING;
	if (prog && prog[0] && strncmp(s, prog, strlen(prog)) == 0 && s[strlen(prog)] == ':')
		return EM_ERROR;
	return EM_NONE;
}

/* A copy of TEXT fit for a report: what a terminal would show after the
 * last carriage return, without ANSI escapes or other control bytes. */
static char *clean(const char *text)
{
	const char *cr = strrchr(text, '\r');
	struct strbuf sb = STRBUF_INIT;

	if (cr && cr[1])
		text = cr + 1;
	for (const char *p = text; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == 0x1b) {
			/* CSI: ESC [ params final-byte */
			if (p[1] == '[') {
				p += 2;
				while (*p && !(*p >= 0x40 && *p <= 0x7e))
					p++;
				if (!*p)
					break;
			}
			continue;
		}
		if (c < 0x20 && c != '\t')
			continue;
		strbuf_addc(&sb, (char)c);
	}
	while (sb.len && (sb.buf[sb.len - 1] == ' ' || sb.buf[sb.len - 1] == '\t'))
		sb.buf[--sb.len] = '\0';
	return strbuf_detach(&sb);
}

static bool starts_with(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

/* "ModuleNotFoundError: ...", "KeyError: 'x'", "KeyboardInterrupt",
 * "requests.exceptions.ConnectionError: ...": a Python exception line. */
static bool exception_line(const char *s)
{
	if (!(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return false;
	const char *p = s;
	while (isalnum((unsigned char)*p) || *p == '_' || *p == '.')
		p++;
	return *p == '\0' || (*p == ':' && (p[1] == ' ' || p[1] == '\0'));
}

/* Lines that close another report instead of making one: perl follows
 * "Can't locate Missing/Module.pm in @INC ..." with these. */
static bool trailer_line(const char *s)
{
	return s && (starts_with(s, "BEGIN failed--compilation aborted") ||
		     starts_with(s, "Compilation failed in require") ||
		     starts_with(s, "Execution of ") /* "... aborted due to compilation errors." */);
}

/* A line that is detail of a report, not its headline: an indented one
 * (a stack frame: node's "    at listen (node:net:1908:16)", Java's
 * "\tat Main.main(Main.java:4)", Rust's "   2: core::result::unwrap_failed";
 * the fields of node's "{ code: 'EADDRINUSE', errno: -98 }" dump; a source
 * excerpt), the closing brackets of such a dump, or a chained cause, which
 * the JVM's languages print flush left under the exception it explains
 * ("Caused by: java.io.FileNotFoundException: ...", "Suppressed: ..."). */
static bool detail_line(const char *s)
{
	if (!s || !s[0])
		return false;
	if (s[0] == ' ' || s[0] == '\t') {
		while (*s == ' ' || *s == '\t')
			s++;
		return *s != '\0';
	}
	if (starts_with(s, "Caused by: ") || starts_with(s, "Suppressed: "))
		return true;
	for (const char *p = s; *p; p++)
		if (!strchr("}]),; \t", *p))
			return false;
	return true;
}

/* A line that introduces the one after it: "thread 'main' panicked at
 * src/main.rs:2:5:" before Rust's message, "stack backtrace:", node's
 * "Emitted 'error' event on Server instance at:", Go's "goroutine 1
 * [running]:". */
static bool heading_line(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n && s[n - 1] == ':' && !detail_line(s);
}

/* The lines of one program: a process's, as one program image (an
 * execve starts another program, whose words are its own). */
struct em_pick {
	int pid;
	unsigned image;
	const char *exe;		/* that image's path, NULL unknown */
	size_t idx[RC_OUTPUT_KEEP];	/* its lines, oldest first */
	size_t n;
};

static const struct rc_output *ring_at(const struct rc_procs *m, size_t i)
{
	return &m->out[(m->out_head + i) % RC_OUTPUT_KEEP];
}

/* The module named by "No module named 'x'" (or "x.y"), into SB. */
static bool missing_module(const char *msg, struct strbuf *sb)
{
	const char *p = strstr(msg, "No module named ");
	if (!p)
		return false;
	p += strlen("No module named ");
	char q = *p == '\'' || *p == '"' ? *p++ : '\0';
	size_t n = 0;
	while (p[n] && (q ? p[n] != q : p[n] != ' '))
		n++;
	if (n == 0)
		return false;
	strbuf_reset(sb);
	strbuf_add(sb, p, n);
	return true;
}

/* Whether NAME (N bytes), a module name in code, could be the one cut to
 * PREFIX (P bytes) in a line that strace stopped showing UNSHOWN bytes
 * early (0: unknown): the rest of the name, its closing quote, maybe a
 * newline. */
static bool module_fits(const char *name, size_t n, const char *prefix, size_t p, size_t unshown)
{
	if (n <= p || strncmp(name, prefix, p) != 0)
		return false;
	return !unshown || n - p + 1 == unshown || n - p + 2 == unshown;
}

/* The modules TEXT imports ("import a.b, c as d", "from a.b import c"),
 * each name and each of its packages ("a", "a.b": the missing one may be
 * a package of the name imported), that fit a module name cut to PREFIX.
 * SB holds the last name found so far (FOUND of them before TEXT); each
 * that differs from it is counted and kept. Returns how many it added. */
static int import_names(const char *text, const char *prefix, size_t p, size_t unshown, struct strbuf *sb,
			int found)
{
	int added = 0;

	for (const char *s = text; s && *s; s++) {
		bool from = strncmp(s, "from ", 5) == 0, imp = strncmp(s, "import ", 7) == 0;
		if ((!from && !imp) || (s > text && (isalnum((unsigned char)s[-1]) || s[-1] == '_' || s[-1] == '.')))
			continue;
		const char *q = s + (from ? 5 : 7);
		for (;;) {
			while (*q == ' ')
				q++;
			size_t n = 0;
			while (isalnum((unsigned char)q[n]) || q[n] == '_' || q[n] == '.')
				n++;
			for (size_t k = 1; k <= n; k++) {
				if ((k < n && q[k] != '.') || !module_fits(q, k, prefix, p, unshown))
					continue;
				if (found + added && sb->len == k && strncmp(sb->buf, q, k) == 0)
					continue;
				added++;
				strbuf_reset(sb);
				strbuf_add(sb, q, k);
			}
			if (from)
				break;
			/* import a as b, c: the next name after a comma. */
			q += n;
			while (*q == ' ')
				q++;
			if (strncmp(q, "as ", 3) == 0)
				for (q += 3; *q == ' ' || isalnum((unsigned char)*q) || *q == '_'; q++)
					;
			if (*q != ',')
				break;
			q++;
		}
	}
	return added;
}

/* MODULE, cut by strace's -s ("sonic_tts_engin...", or just "..." when
 * the cut came before the name), made whole from where the program named
 * it whole: the source lines its traceback quotes ("import
 * sonic_tts_engine"), else the code it was given on its command line
 * (python3 -c "import ..."). UNSHOWN: the bytes of the write after what
 * was shown of the name, when the write's length is known (else 0). A
 * name is taken only when exactly one fits. */
static bool complete_module(const struct rc_procs *m, const struct em_pick *pk, long tb, long at,
			    size_t unshown, struct strbuf *module)
{
	size_t p = module->len;
	if (p < 3 || strcmp(module->buf + p - 3, "...") != 0)
		return false;
	p -= 3;
	char *prefix = xstrndup(module->buf, p);
	struct strbuf name = STRBUF_INIT;
	int found = 0;

	for (long i = tb + 1; i < at && found < 2; i++)
		found += import_names(ring_at(m, pk->idx[i])->text, prefix, p, unshown, &name, found);
	const struct rc_proc *proc = found ? NULL : procs_leader(m, pk->pid);
	for (int i = 1; proc && i < proc->argc && found < 2; i++)
		if (proc->argv[i])
			found += import_names(proc->argv[i], prefix, p, unshown, &name, found);
	bool ok = found == 1;
	if (ok) {
		strbuf_reset(module);
		strbuf_adds(module, name.buf);
	}
	free(prefix);
	strbuf_release(&name);
	return ok;
}

/* A runtime that prints an errno by its number ("Unknown system error
 * -75", libuv's; "errno 28"): what the number means, after the advice. */
static void add_errno_meaning(struct rc_finding *f, const char *msg)
{
	static const char *const marks[] = { "system error -", "errno ", "errno=", "error code " };

	for (size_t i = 0; i < ARRAY_SIZE(marks); i++) {
		const char *at = strstr(msg, marks[i]);
		if (!at)
			continue;
		char *end;
		long n = strtol(at + strlen(marks[i]), &end, 10);
		const char *name = n > 0 && n < 4096 && end != at + strlen(marks[i]) ? xlat_errno_name((int)n) : NULL;
		if (!name)
			continue;
		/* Formatted before the old advice is freed. */
		finding_setf(&f->advice, "%s (%s%ld is %s: %s)", f->advice ? f->advice : "", marks[i], n, name,
			     strerror((int)n));
		return;
	}
}

/* PROG wrote MSG; HANDED_TO: the program the process exec'd after it, or
 * NULL. */
static void advise(struct rc_finding *f, const char *msg, const char *module, const char *prog,
		   const char *handed_to)
{
	if (module)
		finding_setf(&f->advice, "install the package that provides module '%s' into the Python the program "
			     "runs with (python3 -m pip install ..., or the distribution's python3-... package), or "
			     "fix its PYTHONPATH / virtualenv", module);
	else if (contains_ci(msg, "shared librar") || contains_ci(msg, "shared object") ||
		 strstr(msg, ".so: ") || strstr(msg, ".so."))
		finding_setf(&f->advice, "a shared library is missing: see the missing-library finding, install the "
			     "package that ships it or add its directory to LD_LIBRARY_PATH");
	else if (contains_ci(msg, "permission denied") || contains_ci(msg, "not permitted"))
		finding_setf(&f->advice, "see the permission-denied or exec-failed finding for the path and the "
			     "ownership or mode to fix");
	else if (contains_ci(msg, "no such file") || contains_ci(msg, "not found"))
		finding_setf(&f->advice, "see the missing-file, missing-library or exec-failed finding for what the "
			     "program looked for and where");
	else if (contains_ci(msg, "segmentation fault") || contains_ci(msg, "core dumped"))
		finding_setf(&f->advice, "the program crashed: see the crashed finding, and run rootcause core on the "
			     "core file for the stack");
	else if (handed_to)
		finding_setf(&f->advice, "written by '%s' before the process exec'd '%s': it went on to start that "
			     "program, so this did not stop the run; what '%s' said and did is in the other findings",
			     prog ? prog : "the program", handed_to, handed_to);
	else
		finding_setf(&f->advice, "this is what the program said last; the other findings show the system "
			     "calls behind it");
	add_errno_meaning(f, msg);
}

/* Find the telling line of one process: a traceback's exception line, or
 * the last error (else warning) line, or when GAVE_UP (it exited with a
 * failure status) its last line on stderr. Returns the index into PK->idx, or
 * -1; *tb_start is the traceback header's index when there is one. */
static long pick_line(const struct rc_procs *m, const struct em_pick *pk, const char *prog, bool gave_up,
		      long *tb_start, enum em_level *level)
{
	long tb = -1;

	for (size_t i = 0; i < pk->n; i++) {
		const char *t = ring_at(m, pk->idx[i])->text;
		if (t && starts_with(t, "Traceback (most recent call"))
			tb = (long)i;
	}
	*tb_start = tb;
	if (tb >= 0) {
		for (long i = (long)pk->n - 1; i > tb; i--) {
			const char *t = ring_at(m, pk->idx[i])->text;
			if (t && exception_line(t)) {
				*level = EM_ERROR;
				return i;
			}
		}
	}
	long warn = -1, trailer = -1;
	for (long i = (long)pk->n - 1; i >= 0; i--) {
		enum em_level l = line_level(ring_at(m, pk->idx[i]), prog);
		if (l == EM_ERROR && trailer_line(ring_at(m, pk->idx[i])->text)) {
			if (trailer < 0)
				trailer = i;
			continue;
		}
		if (l == EM_ERROR) {
			*level = EM_ERROR;
			return i;
		}
		if (l == EM_WARNING && warn < 0)
			warn = i;
	}
	if (trailer >= 0) {
		*level = EM_ERROR;
		return trailer;
	}
	if (warn >= 0) {
		*level = EM_WARNING;
		return warn;
	}
	/* A process that chose to exit with a failure status says why last,
	 * in whatever words ("start.sh: MODEL_DIR is not set", "usage: ...").
	 * Not one killed by a signal: its last line is whatever it was doing. */
	if (gave_up) {
		for (long i = (long)pk->n - 1; i >= 0; i--) {
			const struct rc_output *o = ring_at(m, pk->idx[i]);
			if (o->fd == 2 && o->text && o->text[0]) {
				*level = EM_ERROR;
				return i;
			}
		}
	}
	return -1;
}

/* The line of PK before (DIR -1) or after (+1) line I on the same
 * stream, or -1. */
static long next_on_stream(const struct rc_procs *m, const struct em_pick *pk, long i, int dir)
{
	int fd = ring_at(m, pk->idx[i])->fd;

	for (long k = i + dir; k >= 0 && k < (long)pk->n; k += dir)
		if (ring_at(m, pk->idx[k])->fd == fd)
			return k;
	return -1;
}

/* Whether line J (of level LJ) belongs to the report of line K, the line
 * above it: detail hangs from the line above it, a heading introduces the
 * line after it, and a sub-heading that says nothing alarming of its own,
 * or that follows detail, continues the report above it (Rust's "stack
 * backtrace:" after the panic message; node's "Emitted 'error' event on
 * Server instance at:" after a list of frames). A heading that reads as an
 * error after a line of its own starts a report ("error: bad config:"). */
static bool in_report(const char *k, const char *j, enum em_level lj)
{
	return detail_line(j) || heading_line(k) ||
	       (heading_line(j) && (detail_line(k) || lj == EM_NONE));
}

/* A multi-line error report has a headline, and the fields and frames
 * after it are detail: node's uncaught error ("Error: listen EADDRINUSE:
 * address already in use 127.0.0.1:8080", then its stack, then "{ code:
 * 'EADDRINUSE', errno: -98, ... }"), Java's exception and its "at" lines
 * and "Caused by:", Rust's panic and its backtrace, Go's panic and its
 * goroutines. When line AT, the last that reads as LEVEL, is part of such
 * a report, the headline is the report's first line that reads as LEVEL
 * or worse; else AT itself. */
static long headline(const struct rc_procs *m, const struct em_pick *pk, long at, const char *prog,
		     enum em_level level)
{
	long top = at;

	for (long j = at, k; (k = next_on_stream(m, pk, j, -1)) >= 0; j = k) {
		const struct rc_output *oj = ring_at(m, pk->idx[j]);
		if (!in_report(ring_at(m, pk->idx[k])->text, oj->text, line_level(oj, prog)))
			break;
		top = k;
	}
	for (long i = top; i >= 0 && i < at; i = next_on_stream(m, pk, i, 1)) {
		const struct rc_output *o = ring_at(m, pk->idx[i]);
		if (!detail_line(o->text) && line_level(o, prog) >= level)
			return i;
	}
	return at;
}

static void add_line(struct rc_finding *f, const char *text)
{
	char *c = clean(text);
	if (c[0])
		finding_evidence(f, c, strlen(c));
	free(c);
}

/* libstdc++'s verbose terminate handler writes
 *   terminate called after throwing an instance of 'std::runtime_error'
 *     what():  cannot parse model header
 * When line AT of PK is that what() line, returns the text after "what():"
 * and puts the type into TYPE (empty when cut off); else NULL. */
static const char *cxx_what(const struct rc_procs *m, const struct em_pick *pk, long at, struct strbuf *type)
{
	static const char head[] = "terminate called after throwing an instance of '";
	const char *t = ring_at(m, pk->idx[at])->text;

	while (t && (*t == ' ' || *t == '\t'))
		t++;
	if (!t || !starts_with(t, "what():") || at == 0)
		return NULL;
	/* strace's -s cuts the first write short, and the parser ends a line
	 * at a cut, so the type may be on a line of its own:
	 * "terminate called after throwing ...", "std::runtime_error'". */
	const char *h = ring_at(m, pk->idx[at - 1])->text, *typed = NULL;
	bool own_line = false;
	if (h && starts_with(h, head)) {
		typed = h + sizeof(head) - 1;
	} else if (at >= 2 && h) {
		typed = h;
		own_line = true;
		h = ring_at(m, pk->idx[at - 2])->text;
	}
	if (!h || !starts_with(h, "terminate called after throwing"))
		return NULL;
	strbuf_reset(type);
	const char *q = typed ? strrchr(typed, '\'') : NULL;
	if (q && q > typed && !(own_line && memchr(typed, ' ', (size_t)(q - typed))))
		strbuf_add(type, typed, (size_t)(q - typed));
	t += strlen("what():");
	while (*t == ' ' || *t == '\t')
		t++;
	return t;
}

/* The line that would decide was cut by strace's -s (the source stopped
 * showing the write): the line picked, a later line of the same write
 * (its end), or, for a traceback whose exception line is not there, any
 * line after its header.  NULL when nothing deciding is missing. */
static const struct rc_output *cut_line(const struct rc_procs *m, const struct em_pick *pk, long at, long tb,
					bool have_exception)
{
	const struct rc_output *o = ring_at(m, pk->idx[at]);

	if (o->cut)
		return o;
	/* A headline whose write goes on with its detail (a whole frame or
	 * field seen after it): cutting the rest of those leaves the line
	 * that decides whole. */
	long nx = tb < 0 ? next_on_stream(m, pk, at, 1) : -1;
	const struct rc_output *after = nx >= 0 ? ring_at(m, pk->idx[nx]) : NULL;
	if (after && after->seq == o->seq && !after->cut && detail_line(after->text))
		return NULL;
	for (long i = at + 1; i < (long)pk->n; i++) {
		const struct rc_output *l = ring_at(m, pk->idx[i]);
		if (l->cut && l->fd == o->fd && (l->seq == o->seq || (tb >= 0 && !have_exception)))
			return l;
	}
	return NULL;
}

static void emit(struct rc_findings *out, const struct rc_procs *m, const struct em_pick *pk)
{
	long tb, at;
	enum em_level level = EM_NONE;

	const char *name = pk->exe && pk->exe[0] ? fp_base(pk->exe) : procs_program(m, pk->pid);
	const struct rc_proc *p = procs_leader(m, pk->pid);
	/* A program that exec'd another handed over; it did not give up. */
	bool handed_over = p && pk->image < p->image;
	bool gave_up = !handed_over && p && p->ended && p->exited && p->exit_code != 0;
	const char *failed_as = procs_image_failed(m, pk->pid, pk->image, NULL) ? name : NULL;
	at = pick_line(m, pk, failed_as, gave_up, &tb, &level);
	if (at < 0)
		return;
	/* libstdc++'s what() line is the message of the line above it. */
	struct strbuf type = STRBUF_INIT;
	bool report = tb < 0 && !cxx_what(m, pk, at, &type);
	if (report)
		at = headline(m, pk, at, failed_as, level);
	const struct rc_output *o = ring_at(m, pk->idx[at]);
	char *msg = clean(o->text);
	if (!msg[0]) {
		free(msg);
		strbuf_release(&type);
		return;
	}
	/* A headline that ends in ':' goes on in the line after it, written
	 * with it: "thread 'main' panicked at src/main.rs:2:5:" and Rust's
	 * message. */
	long next = next_on_stream(m, pk, at, 1);
	const struct rc_output *on = next >= 0 ? ring_at(m, pk->idx[next]) : NULL;
	if (report && heading_line(o->text) && on && on->seq == o->seq && on->text && !detail_line(on->text)) {
		char *rest = clean(on->text);
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "%s %s", msg, rest);
		free(rest);
		free(msg);
		msg = strbuf_detach(&sb);
	}
	/* ": No such file or directory" continues a line whose write strace
	 * cut short (-s): show the two together. */
	if ((msg[0] == ':' || msg[0] == ',') && at > 0) {
		const struct rc_output *prev = ring_at(m, pk->idx[at - 1]);
		if (prev->fd == o->fd && prev->text) {
			char *head = clean(prev->text);
			struct strbuf sb = STRBUF_INIT;
			size_t hl = strlen(head);
			bool marked = hl >= 3 && strcmp(head + hl - 3, "...") == 0;
			strbuf_addf(&sb, "%s%s%s", head, marked ? "" : "...", msg);
			free(head);
			free(msg);
			msg = strbuf_detach(&sb);
		}
	}
	struct strbuf module = STRBUF_INIT, shown = STRBUF_INIT;
	bool is_module = tb >= 0 && missing_module(msg, &module);
	bool completed = is_module && complete_module(m, pk, tb, at, o->cut ? o->unshown : 0, &module);
	/* Cut before the name ("ModuleNotFoundError: No module n..."): what
	 * the write left out is the rest of that text, the name, its quote. */
	static const char mnf[] = "ModuleNotFoundError: No module named '";
	size_t ml = strlen(msg);
	if (!is_module && tb >= 0 && o->cut && ml > 3 && ml - 3 < strlen(mnf) && strcmp(msg + ml - 3, "...") == 0 &&
	    strncmp(msg, mnf, ml - 3) == 0) {
		size_t rest = strlen(mnf) - (ml - 3);
		strbuf_reset(&module);
		strbuf_adds(&module, "...");
		completed = is_module = complete_module(m, pk, tb, at, o->unshown > rest ? o->unshown - rest : 0,
							&module);
	}
	const char *what = cxx_what(m, pk, at, &type);
	const char *prog = name;
	struct rc_finding *f;

	if (what) {
		/* One message of libstdc++'s two lines, cleaned as the line is. */
		struct strbuf sb = STRBUF_INIT;
		char *w = clean(what), *ty = clean(type.buf);
		strbuf_reset(&type);
		strbuf_adds(&type, ty);
		strbuf_addf(&sb, "uncaught C++ exception%s%s: %s", ty[0] ? " " : "", ty, w);
		free(w);
		free(ty);
		free(msg);
		msg = strbuf_detach(&sb);
	}
	strbuf_add(&shown, msg, MIN(strlen(msg), (size_t)EM_SUMMARY_MAX));
	if (strlen(msg) > EM_SUMMARY_MAX)
		strbuf_adds(&shown, "...");
	const char *verb = level == EM_WARNING ? "warned" : "reported";
	/* Words a failed process wrote to /dev/null still say why it failed
	 * (`cat f 2>/dev/null`), but nobody saw them: the report says so. */
	const char *unseen = o->discarded ? " (to /dev/null)" : "";
	bool have_exception = tb >= 0 && at > tb && exception_line(o->text);
	const struct rc_output *cut = cut_line(m, pk, at, tb, have_exception);
	if (cut && tb >= 0 && !have_exception)
		f = finding_add(out, "error-message", RC_SEV_ERROR, RC_SEV_WARNING,
				"'%s' printed a Python traceback whose last line is not in the trace: strace -s %zu "
				"cut this write; record with a larger -s", prog ? prog : "the program", cut->shown);
	else if (is_module)
		f = finding_add(out, "error-message", RC_SEV_ERROR, RC_SEV_WARNING,
				"python cannot import module '%s'", module.buf);
	else if (what)
		f = finding_add(out, "error-message", RC_SEV_ERROR, RC_SEV_WARNING, "'%s' died of an %s",
				prog ? prog : "the program", shown.buf);
	else if (prog && handed_over)
		f = finding_add(out, "error-message", RC_SEV_ERROR, RC_SEV_WARNING,
				"'%s' %s%s before the process ran '%s': %s", prog, verb, unseen,
				procs_program(m, pk->pid), shown.buf);
	else if (prog)
		f = finding_add(out, "error-message", RC_SEV_ERROR, RC_SEV_WARNING, "'%s' %s%s: %s", prog, verb,
				unseen, shown.buf);
	else
		f = finding_add(out, "error-message", RC_SEV_ERROR, RC_SEV_WARNING, "the program %s%s: %s", verb,
				unseen, shown.buf);
	if (cut && !(tb >= 0 && !have_exception)) {
		char *sum = f->summary;
		f->summary = NULL;
		if (completed)
			finding_setf(&f->summary, "%s (strace -s %zu cut the message; the name is whole where "
				     "the program imports it)", sum, cut->shown);
		else
			finding_setf(&f->summary, "%s (strace -s %zu cut this write; record with a larger -s)", sum,
				     cut->shown);
		free(sum);
	}
	f->pid = o->pid;
	f->seq = o->seq;
	f->is_output = true;
	f->image = pk->image;
	finding_set(&f->message, msg);

	/* Evidence: for a traceback its header, the innermost frame and the
	 * exception; otherwise the lines leading up to the one picked. */
	if (tb >= 0) {
		add_line(f, ring_at(m, pk->idx[tb])->text);
		long frame = -1;
		for (long i = at - 1; i > tb && frame < 0; i--) {
			const char *t = ring_at(m, pk->idx[i])->text;
			if (t && starts_with(t, "  File "))
				frame = i;
		}
		for (long i = frame; i >= 0 && i < at && f->nevidence < RC_EVIDENCE_MAX - 1; i++)
			add_line(f, ring_at(m, pk->idx[i])->text);
		add_line(f, o->text);
	} else if (report && next >= 0 && in_report(o->text, on->text, line_level(on, failed_as))) {
		/* A report: its headline, the line after it (the innermost
		 * frame), and what else in it reads as an error flush left (a
		 * chained cause). */
		add_line(f, o->text);
		for (long i = next, prev = at; i >= 0 && f->nevidence < RC_EVIDENCE_MAX;
		     prev = i, i = next_on_stream(m, pk, i, 1)) {
			const struct rc_output *l = ring_at(m, pk->idx[i]);
			enum em_level ll = line_level(l, failed_as);
			if (!in_report(ring_at(m, pk->idx[prev])->text, l->text, ll))
				break;
			if (i == next || (l->text[0] != ' ' && l->text[0] != '\t' && ll == EM_ERROR))
				add_line(f, l->text);
		}
	} else {
		long from = at - (RC_EVIDENCE_MAX - 1);
		for (long i = from < 0 ? 0 : from; i <= at; i++) {
			const struct rc_output *l = ring_at(m, pk->idx[i]);
			if (l->fd == o->fd)
				add_line(f, l->text);
		}
	}
	if (what)
		finding_setf(&f->advice, "an exception escaped to std::terminate: catch %s where it is thrown (the "
			     "crash stack shows where), or fix what it says", type.len ? type.buf : "it");
	else
		advise(f, msg, is_module ? module.buf : NULL, prog, handed_over ? procs_program(m, pk->pid) : NULL);
	if (cut) {
		char *adv = f->advice;
		f->advice = NULL;
		finding_setf(&f->advice, "the trace shows only the first %zu bytes of what the program wrote there "
			     "(strace -s %zu): record again with a larger -s (strace -s 4096, or rootcause run) to "
			     "see the rest; %s", cut->shown, cut->shown, adv ? adv : "");
		free(adv);
	}
	strbuf_release(&type);
	strbuf_release(&module);
	strbuf_release(&shown);
	free(msg);
}

static void em_finish(void *state, const struct rc_ctx *ctx, struct rc_findings *out)
{
	const struct rc_procs *m = ctx->procs;
	struct em_pick *picks = xcalloc(RC_OUTPUT_KEEP, sizeof(*picks));
	size_t npicks = 0;

	(void)state;
	for (size_t i = 0; i < m->out_count; i++) {
		const struct rc_output *o = ring_at(m, i);
		const struct rc_proc *l = procs_leader(m, o->pid);
		int pid = l ? l->pid : o->pid;
		if (!rule_output_counts(m, o))
			continue;
		size_t k;
		for (k = 0; k < npicks; k++)
			if (picks[k].pid == pid && picks[k].image == o->image)
				break;
		if (k == npicks) {
			picks[npicks].pid = pid;
			picks[npicks++].image = o->image;
		}
		if (o->exe)
			picks[k].exe = o->exe;
		picks[k].idx[picks[k].n++] = i;
	}
	for (size_t k = 0; k < npicks; k++)
		emit(out, m, &picks[k]);
	free(picks);
}

const struct rc_rule_ops rc_rule_error_message_ops = {
	.state_size = 0,
	.finish = em_finish,
};
