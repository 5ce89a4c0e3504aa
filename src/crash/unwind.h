/* The libdwfl adapter: the only code that talks to libdw/libdwfl.  It adds
 * to the crash model what only an unwinder knows: the loaded modules and
 * every thread's frames, with symbols, file:line and inlined calls.
 *
 * libdw's conventions (-1/NULL and dwfl_errmsg) stop here: callers get a
 * 0/-1 and one line in ERR, and per-thread trouble is written into the
 * thread (unwind_error, truncated) and into c->problems. */
#ifndef RC_CRASH_UNWIND_H
#define RC_CRASH_UNWIND_H

#include <stddef.h>
#include <sys/types.h>

#include "crash/crash.h"
#include "util/strbuf.h"

/* Adds modules and every thread's frames to C (whose threads may already
 * be filled from the notes by core.c: match them by tid; add threads
 * libdwfl reports that C lacks).  IMAGE/SIZE is the core in memory; EXE
 * overrides the executable (NULL: libdwfl finds it from the core).
 * C's modules must still be empty (frames point into them).
 * Returns 0, or -1 with one line in ERR when nothing could be unwound;
 * per-thread failures go in thread->unwind_error / c->problems.
 *
 * The threads are given to libdwfl from C (threads of the NT_PRSTATUS
 * notes that C lacks are added first, with their registers), and stack
 * memory is read straight from IMAGE, rather than with
 * dwfl_core_file_attach: libdwfl's core reader keeps every word it reads
 * in a list it searches linearly (elf_getdata_rawchunk), which makes a
 * deep stack quadratic (minutes for 100,000 frames). */
int crash_unwind_core(struct rc_crash *c, const void *image, size_t size, const char *exe,
		      struct strbuf *err);

/* The same for a live process PID whose threads the caller has already
 * stopped with ptrace (dwfl_linux_proc_attach(..., true)); fills threads,
 * names from /proc/PID/task/TID/comm, regs, modules, frames.  Threads
 * already in C are matched by tid; the rest are added. */
int crash_unwind_pid(struct rc_crash *c, pid_t pid, struct strbuf *err);

/* The same in two steps, so that the process is stopped only for the
 * walks: begin (threads stopped) takes every thread's registers, name and
 * raw pcs; end (after the caller let the threads go) reads the symbol
 * tables and DWARF and fills the frames.  begin returns NULL with ERR set
 * when nothing can be walked; end frees what begin returned. */
struct crash_live_unwind;
struct crash_live_unwind *crash_unwind_pid_begin(struct rc_crash *c, pid_t pid, struct strbuf *err);
int crash_unwind_pid_end(struct crash_live_unwind *w, struct strbuf *err);

/* One thread at a time, for a call's stack: the unwinder of live process
 * PID, kept across walks so that what libdwfl parsed of each module (its
 * unwind tables, its symbols) is parsed once.  Each walk is of one thread
 * the caller has ptrace-stopped; frames are symbolized at once (symbol
 * tables always, DWARF outside the C runtime), through a cache by
 * address.  The modules are read again when a frame falls in none of them
 * (a library loaded since); those known stay, with what was parsed.
 * new returns NULL with ERR set when the process cannot be read. */
struct crash_thread_unwind;
struct crash_thread_unwind *crash_thread_unwind_new(pid_t pid, struct strbuf *err);
/* T's tid names the thread; its frames are replaced (truncated set when
 * the walk stopped early).  REGS (user_regs_struct order, RC_CRASH_NREGS):
 * where to start, for a thread asleep in a call and not stopped, whose
 * stack does not change while it sleeps; NULL: the thread is
 * ptrace-stopped and its registers are read.  0, or -1 with ERR when no
 * frame was read. */
int crash_thread_unwind(struct crash_thread_unwind *w, struct rc_thread *t, const uint64_t *regs,
			struct strbuf *err);
/* The process's modules read again, for libraries loaded since (the
 * symbols the Python reader starts from with them), without a walk. 0, or
 * -1 with ERR. */
int crash_thread_unwind_refresh(struct crash_thread_unwind *w, struct strbuf *err);
/* The process as the unwinder knows it: its modules, and the symbols the
 * Python reader starts from (sym_py_runtime...). */
struct rc_crash *crash_thread_unwind_model(struct crash_thread_unwind *w);
void crash_thread_unwind_free(struct crash_thread_unwind *w);

/* C++/Rust demangling for symbol names (NULL if not mangled); malloc'ed.
 * Only names starting with "_Z" are tried; the demangler (libstdc++'s
 * __cxa_demangle) is loaded on first use, so that programs without C++
 * need nothing, and without it every name stays as it is (NULL).  Rust's
 * legacy "::h<16 hex digits>" hash suffix is dropped. */
char *crash_demangle(const char *sym);
/* elfutils' version ("0.188"), for --version. */
const char *crash_unwinder_version(void);

#endif
