/* Python frames for the crash model, with no debug symbols: every thread
 * that has a Python thread state gets its Python frames (function, file,
 * line; innermost first), its threading name (Thread.name, as py_name) and
 * whether it held the GIL. */
#ifndef RC_CRASH_PYTHON_H
#define RC_CRASH_PYTHON_H

#include "crash/crash.h"
#include "event/stack.h"
#include "util/strbuf.h"

/* Reads them into C's threads, through crash_read_mem (a core, or a
 * process that is stopped).  0 when done or when C is no Python; -1 with
 * one line in ERR when this Python's frames cannot be read (its version
 * is not known): the native frames stand. */
int crash_python_frames(struct rc_crash *c, struct strbuf *err);

/* The same without the threads' names (which walk sys.modules): for the
 * one thread in C whose stack at a call is wanted, many times a run. */
int crash_python_thread_frames(struct rc_crash *c, struct strbuf *err);

/* How a source that never stops the thread can walk this Python's frames
 * itself (event/stack.h): 1 with W filled, 0 when C runs no Python,
 * -1 with ERR when its version is not known. */
int crash_python_walk(struct rc_crash *c, struct rc_py_walk *w, struct strbuf *err);

/* The walk of the Python that program PATH runs, read from its files
 * before any process runs it (event/stack.h, struct rc_py_program): the
 * program's own when it defines _PyRuntime, else the libpython it needs,
 * found where its loader would look. 1 with OUT filled; 0 when it runs no
 * Python whose frames are read; -1 with ERR when a file is unreadable. */
int crash_python_program(const char *path, struct rc_py_program *out, struct strbuf *err);

/* What was read of code objects, kept by whoever names frames of one
 * process again and again (where/): a code object named once is named
 * from here after, even once the process is gone or has torn it down.
 * Only whole reads are kept. */
struct py_code_cache;
struct py_code_cache *crash_py_code_cache_new(void);
void crash_py_code_cache_free(struct py_code_cache *cc);
/* Whether CC names the code object at CODE, and its mark then
 * (rc_py_code_mark) into *MARK (may be NULL). */
bool crash_py_code_cached(const struct py_code_cache *cc, uint64_t code, uint64_t *mark);
/* Code object CODE (of MARK) named FUNCTION in FILE by someone who read
 * them while it could (event/stack.h, struct rc_py_given), kept in CC
 * unless CC names it already; its frames then have no line. */
void crash_py_code_give(struct py_code_cache *cc, uint64_t code, uint64_t mark, const char *function,
			const char *file);

/* T's Python frames from the N raw ones such a walk read (innermost
 * first), named from CC (may be NULL) or else C's memory (code objects
 * live on after their frames). 0 when done or when C is no Python; -1
 * with ERR as above. */
int crash_python_raw_frames(struct rc_crash *c, struct py_code_cache *cc, struct rc_thread *t,
			    const struct rc_py_raw *py, size_t n, struct strbuf *err);

#endif
