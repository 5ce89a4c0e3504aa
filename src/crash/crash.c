/* The crash model's own helpers (see crash.h): ownership, look-ups, and
 * the signal in words. */
#include <fcntl.h>
#include <linux/openat2.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "crash/crash.h"
#include "gen/tables.h"
#include "util/util.h"
#include "util/xlat.h"

/* The order of x86_64's user_regs_struct, which is NT_PRSTATUS's pr_reg
 * and what PTRACE_GETREGS fills. */
const char *const rc_crash_reg_names[RC_CRASH_NREGS] = {
	"r15", "r14", "r13", "r12", "rbp", "rbx", "r11", "r10", "r9",
	"r8", "rax", "rcx", "rdx", "rsi", "rdi", "orig_rax", "rip", "cs",
	"eflags", "rsp", "ss", "fs_base", "gs_base", "ds", "es", "fs", "gs",
};

void crash_init(struct rc_crash *c)
{
	memset(c, 0, sizeof(*c));
	c->root_fd = -1;
	strbuf_init(&c->problems);
}

int crash_open_file(const struct rc_crash *c, const char *path)
{
	if (c->root_fd < 0)
		return open(path, O_RDONLY | O_CLOEXEC);
	struct open_how how = {
		.flags = O_RDONLY | O_CLOEXEC,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	return (int)syscall(SYS_openat2, c->root_fd, path, &how, sizeof(how));
}

void crash_thread_release_python(struct rc_thread *t)
{
	for (size_t i = 0; i < t->npy; i++) {
		free(t->py[i].function);
		free(t->py[i].file);
	}
	free(t->py);
	t->py = NULL;
	t->npy = 0;
}

void crash_thread_release_native(struct rc_thread *t)
{
	for (size_t i = 0; i < t->nframes; i++) {
		free(t->frames[i].function);
		free(t->frames[i].file);
	}
	free(t->frames);
	t->frames = NULL;
	t->nframes = 0;
}

void crash_thread_release(struct rc_thread *t)
{
	crash_thread_release_native(t);
	crash_thread_release_python(t);
	free(t->name);
	free(t->py_name);
	free(t->unwind_error);
}

void crash_release(struct rc_crash *c)
{
	for (size_t i = 0; i < c->nmaps; i++)
		free(c->maps[i].path);
	free(c->maps);
	for (size_t i = 0; i < c->nmodules; i++)
		free(c->modules[i].name);
	free(c->modules);
	for (size_t i = 0; i < c->nthreads; i++)
		crash_thread_release(&c->threads[i]);
	free(c->threads);
	if (c->argv) {
		for (int i = 0; c->argv[i]; i++)
			free(c->argv[i]);
		free(c->argv);
	}
	free(c->exe);
	free(c->fname);
	strbuf_release(&c->problems);
	crash_init(c);
}

void crash_problem(struct rc_crash *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&c->problems, fmt, ap);
	va_end(ap);
	strbuf_addc(&c->problems, '\n');
}

/* Maps are sorted by start and do not overlap (core.c makes them so):
 * the last one starting at or below ADDR is the only candidate. */
const struct rc_mapping *crash_mapping_at(const struct rc_crash *c, uint64_t addr)
{
	size_t lo = count_le_u64(c->maps, c->nmaps, sizeof(*c->maps), offsetof(struct rc_mapping, start), addr);

	if (!lo)
		return NULL;
	const struct rc_mapping *m = &c->maps[lo - 1];
	return addr < m->end ? m : NULL;
}

/* The crashed thread comes first; a live process that did not crash has
 * none, and then no thread is to blame. */
const struct rc_thread *crash_thread(const struct rc_crash *c)
{
	for (size_t i = 0; i < c->nthreads; i++)
		if (c->threads[i].crashed)
			return &c->threads[i];
	return NULL;
}

const char *crash_basename(const char *path)
{
	return path ? path_base(path) : "?";
}

bool crash_symbol_is(const char *name, const char *want)
{
	size_t n = strlen(want);

	return strncmp(name, want, n) == 0 && (name[n] == '\0' || name[n] == '@');
}

void crash_python_name_version(const char *base, int *major, int *minor)
{
	if (sscanf(base, "python%d.%d", major, minor) != 2 && sscanf(base, "libpython%d.%d", major, minor) != 2)
		*major = *minor = 0;
}

const struct rc_module *crash_module_at(const struct rc_crash *c, uint64_t addr)
{
	for (size_t i = 0; i < c->nmodules; i++)
		if (addr >= c->modules[i].start && addr < c->modules[i].end)
			return &c->modules[i];
	return NULL;
}

bool crash_has_fault_addr(const struct rc_crash *c)
{
	return c->has_siginfo && c->si_code > 0 &&
	       (c->signo == SIGSEGV || c->signo == SIGBUS || c->signo == SIGILL || c->signo == SIGFPE);
}

void crash_signal_str(const struct rc_crash *c, struct strbuf *out)
{
	const char *name = xlat_name(&rc_xlat_signal, c->signo);
	const char *code = c->has_siginfo ? xlat_si_code_name(c->signo, c->si_code, 0) : NULL;

	if (name)
		strbuf_adds(out, name);
	else
		strbuf_addf(out, "signal %d", c->signo);
	if (crash_has_fault_addr(c))
		strbuf_addf(out, " (%s at 0x%llx%s)", code ? code : "fault", (unsigned long long)c->fault_addr,
			    c->reraised ? ", re-raised by its handler" : "");
	else if (code)
		strbuf_addf(out, " (%s)", code);
}

size_t crash_repeats(const struct rc_thread *t, size_t from, size_t *period)
{
	size_t best = 1;

	*period = 1;
	for (size_t p = 1; p <= 8 && from + p < t->nframes; p++) {
		size_t i = from;
		while (i + p < t->nframes && t->frames[i].pc == t->frames[i + p].pc)
			i++;
		size_t reps = (i - from) / p + 1;
		if (reps > best && (i - from) >= p) {
			best = reps;
			*period = p;
		}
	}
	return best;
}
