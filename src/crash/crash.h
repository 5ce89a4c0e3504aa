/* The crash model: what a core file, or a process stopped at its fatal
 * signal, says about a crash.  core.c fills the process-wide part from the
 * core's notes and program headers (libelf); unwind.c adds the modules and
 * every thread's frames (libdwfl); the crash rules read it; the report
 * writers print it as docs/report-schema.md's "crash" and "threads".
 *
 * Everything here comes from untrusted input: counts are capped (the
 * RC_CRASH_MAX_* below), strings are copied NUL-terminated, and what could
 * not be read is recorded in `problems` rather than failing the whole read,
 * so that a truncated core still shows what it has. */
#ifndef RC_CRASH_CRASH_H
#define RC_CRASH_CRASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/strbuf.h"

/* Caps that keep hostile input bounded. */
#define RC_CRASH_MAX_THREADS 4096
#define RC_CRASH_MAX_FRAMES 200000	/* per thread: a deep recursion still unwinds */
#define RC_CRASH_MAX_MAPPINGS 65536
#define RC_CRASH_MAX_ARGS 256

/* x86_64 user_regs_struct, in its order; rc_crash_reg_names[] names them. */
#define RC_CRASH_NREGS 27
extern const char *const rc_crash_reg_names[RC_CRASH_NREGS];
enum { RC_REG_RBP = 4, RC_REG_RAX = 10, RC_REG_RIP = 16, RC_REG_RSP = 19, RC_REG_FS_BASE = 21 };

/* A piece of the address space: a PT_LOAD segment of the core, described
 * with the NT_FILE entry that covers it (if any). */
struct rc_mapping {
	uint64_t start, end;		/* [start, end) */
	uint64_t offset;		/* offset in the file, for file mappings */
	char *path;			/* NULL: anonymous (heap, stacks, ...) */
	bool read, write, exec;		/* PT_LOAD's p_flags */
	/* The core holds this segment's bytes (p_filesz > 0) and all of them
	 * are inside the core file (a truncated core loses its tail). */
	bool in_core;
	/* For file mappings: the file's size now, -1 when it is gone or
	 * unreadable (core.c stats it; bad-file-mapping compares). */
	int64_t file_size;
	/* Where the bytes are in the core image (p_offset) and how many
	 * (p_filesz: the kernel dumps only the first page of an ELF file
	 * mapping, so it can be less than end - start). */
	uint64_t core_offset, core_size;
};

/* A loaded ELF object, as libdwfl reported it. */
struct rc_module {
	char *name;			/* path as mapped */
	uint64_t start, end;
	char build_id[41];		/* hex, "" when it has none */
	bool has_symbols;		/* a symbol table was found (.symtab or debuginfo) */
	bool has_debuginfo;		/* DWARF (file:line) was found */
};

struct rc_frame {
	uint64_t pc;
	const struct rc_module *module;	/* NULL: pc outside every module */
	char *function;			/* demangled; NULL when no symbol covers pc */
	uint64_t offset;		/* from function's start, or from module->start */
	char *file;			/* NULL without DWARF line info */
	int line;			/* 0 unknown */
	bool inlined;			/* a frame inlined into the next (outer) one */
};

/* A Python frame (crash/python.c), innermost first. */
struct rc_pyframe {
	char *function;			/* co_qualname (co_name before 3.11) */
	char *file;
	int line;			/* 0 unknown */
	/* The last frame of a run that one _PyEval_EvalFrameDefault call
	 * executes: the next frame is run by the next such C frame. */
	bool entry;
};

struct rc_thread {
	int tid;
	char *name;			/* NULL unknown (a kernel core has none per thread) */
	bool crashed;
	uint64_t regs[RC_CRASH_NREGS];	/* NT_PRSTATUS, or PTRACE_GETREGS live */
	int cursig;			/* pr_cursig: the signal this thread was taking */
	struct rc_frame *frames;	/* innermost first */
	size_t nframes;
	/* The walk stopped early: the cap, or an error (unwind_error says). */
	bool truncated;
	char *unwind_error;
	struct rc_pyframe *py;		/* its Python frames, innermost first */
	size_t npy;
	bool python;			/* a Python thread state names this thread */
	bool gil;			/* it held the GIL */
	char *py_name;			/* threading's name for it (Thread.name), NULL unknown */
};

struct rc_crash {
	/* The signal (NT_SIGINFO; else pr_cursig of the first NT_PRSTATUS). */
	int signo;			/* 0: none known (a core made by gcore) */
	int si_code;
	uint64_t fault_addr;		/* si_addr, for SIGSEGV/SIGBUS/SIGILL/SIGFPE */
	bool has_siginfo;
	/* The fatal signal was a handler raising the thread's fault again
	 * (a crash reporter's raise() on its way out): si_code and
	 * fault_addr are the fault's, as the trace saw it delivered. */
	bool reraised;
	/* The process that sent the signal (si_pid), when one did (si_code
	 * <= 0: kill, tgkill, raise); 0 otherwise. */
	int sender_pid;

	int pid;
	int crashed_tid;		/* the first NT_PRSTATUS's pid, matched to a thread */
	char *exe;			/* the main executable's path (NT_FILE, AT_EXECFN) */
	char *fname;			/* NT_PRPSINFO pr_fname: the process's comm */
	char **argv;			/* NULL-terminated; from pr_psargs (80 chars) */
	int argc;

	struct rc_mapping *maps;
	size_t nmaps;
	struct rc_module *modules;
	size_t nmodules;
	struct rc_thread *threads;	/* the crashed one first */
	size_t nthreads;

	uint64_t auxv_execfn, auxv_entry, auxv_phdr;	/* from NT_AUXV, 0 absent */

	/* Readable one-line reasons why part of the picture is missing
	 * ("core truncated: 12 of 40 segments cut off"), one per line. */
	struct strbuf problems;

	/* The crashed process's memory, for rules that read it (glibc's
	 * __abort_msg): the core image (core.c keeps the pointer, it does not
	 * own it), or a live process (pid, read with process_vm_readv). */
	const unsigned char *image;
	size_t image_size;
	pid_t live_pid;
	/* A core of a process that had a root of its own (a container's):
	 * that root, held open by the caller while C is used, through which
	 * the files the core names are opened (its executable and libraries,
	 * as systemd-coredump reads them); -1: this machine's. */
	int root_fd;
	/* Live: the pages read since the process last ran, kept so that a
	 * walk reads each page once (crash_pages_forget when it ran since);
	 * NULL: every read goes to the process. */
	struct crash_pages *pages;
	/* Live: the thread's stack as it was copied at a moment now past
	 * (the eBPF capture's), read in place of the process's memory at
	 * those addresses; NULL: none. */
	const unsigned char *stack_copy;
	uint64_t stack_copy_at;
	size_t stack_copy_len;
	/* Addresses of symbols rules need, looked up by unwind.c in every
	 * module's symbol table; 0 when absent. */
	uint64_t sym_abort_msg;		/* glibc's __abort_msg (GLIBC_PRIVATE) */

	/* unwind.c reads DWARF (file:line, inlined frames) for the C
	 * runtime's frames (libc, ld.so...) only with FULL_DEBUGINFO (-v):
	 * loading libc's debuginfo costs more than all the rest of a core,
	 * and the runtime's frames are named from its symbol table anyway. */
	bool full_debuginfo;

	/* Python (crash/python.c): _PyRuntime's address and the version, from
	 * the module that defines it (unwind.c); 0 when it is no Python. */
	uint64_t sym_py_runtime;
	uint64_t sym_py_version;		/* Py_Version (3.11+): PY_VERSION_HEX */
	int py_major, py_minor;
};

void crash_init(struct rc_crash *c);
/* PATH, a file the crashed process mapped, opened read-only as that
 * process saw it: inside C's root_fd when it has one (symbolic links
 * resolved there), else on this machine. -1 with errno. */
int crash_open_file(const struct rc_crash *c, const char *path);
void crash_release(struct rc_crash *c);
/* What thread T holds (its frames, Python frames, names); T itself is the
 * caller's. */
void crash_thread_release(struct rc_thread *t);
/* T's native frames only, or its Python frames only, freed: it has
 * none of them after. */
void crash_thread_release_native(struct rc_thread *t);
void crash_thread_release_python(struct rc_thread *t);

/* A problem line (printf-style) added to c->problems. */
void crash_problem(struct rc_crash *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The mapping that holds ADDR, or NULL. */
const struct rc_mapping *crash_mapping_at(const struct rc_crash *c, uint64_t addr);
/* Reads N bytes at ADDR of the crashed process's memory (the core's
 * PT_LOAD bytes, or the live process); returns how many could be read. */
size_t crash_read_mem(const struct rc_crash *c, uint64_t addr, void *buf, size_t n);
/* A cache of a stopped process's pages for crash_read_mem (c->pages):
 * every walk of a call's stack reads a few hundred words from a few
 * pages, and a read of a whole page costs one system call as a word does. */
struct crash_pages *crash_pages_new(void);
/* The process ran since: nothing cached holds. */
void crash_pages_forget(struct crash_pages *p);
void crash_pages_free(struct crash_pages *p);
/* One 64-bit word of it; false when it cannot be read. */
bool crash_read_u64(const struct rc_crash *c, uint64_t addr, uint64_t *v);
/* N bytes of code or read-only data at ADDR: from memory, else from the
 * file mapped there (a kernel core holds neither).  The bytes read. */
size_t crash_read_code(const struct rc_crash *c, uint64_t addr, void *buf, size_t n);
/* The thread that crashed (threads[0] when known), or NULL. */
const struct rc_thread *crash_thread(const struct rc_crash *c);
/* The module that holds ADDR, or NULL. */
const struct rc_module *crash_module_at(const struct rc_crash *c, uint64_t addr);
/* The basename of a module path ("?" for none). */
const char *crash_basename(const char *path);
/* NAME is WANT, or WANT with a symbol version ("_PyRuntime@@..."). */
bool crash_symbol_is(const char *name, const char *want);
/* The Python version a module's file name BASE gives ("python3.11",
 * "libpython3.11.so.1.0"); 0.0 when it gives none (a venv's "python"). */
void crash_python_name_version(const char *base, int *major, int *minor);

/* Recursion: how many times the frames from FROM on repeat with some
 * period of 1 to 8 frames (compared by pc); 1 when they don't.  *PERIOD
 * gets the period.  Linear in the run's length. */
size_t crash_repeats(const struct rc_thread *t, size_t from, size_t *period);

/* "SIGSEGV (SEGV_MAPERR at 0x10)", "SIGABRT". */
void crash_signal_str(const struct rc_crash *c, struct strbuf *out);
/* The signal carries a fault address (SIGSEGV, SIGBUS, SIGILL, SIGFPE
 * raised by the kernel). */
bool crash_has_fault_addr(const struct rc_crash *c);

/* core.c: reads the ELF core at PATH (already decompressed) held in memory
 * [IMAGE, IMAGE+SIZE): notes and program headers into C.  Returns 0, or -1
 * with a one-line reason in ERR when this is no usable core at all (not
 * ELF, not ET_CORE, not x86_64, no thread).  Lesser damage goes into
 * c->problems and the read succeeds. */
int crash_read_core(struct rc_crash *c, const void *image, size_t size, struct strbuf *err);

#endif
