/* Python frames for the crash model, with no debug symbols: every thread
 * that has a Python thread state gets its Python frames (function, file,
 * line; innermost first), its threading name (Thread.name, as py_name) and
 * whether it held the GIL. */
#ifndef RC_CRASH_PYTHON_H
#define RC_CRASH_PYTHON_H

#include "crash/crash.h"
#include "util/strbuf.h"

/* Reads them into C's threads, through crash_read_mem (a core, or a
 * process that is stopped).  0 when done or when C is no Python; -1 with
 * one line in ERR when this Python's frames cannot be read (its version
 * is not known): the native frames stand. */
int crash_python_frames(struct rc_crash *c, struct strbuf *err);

/* The same without the threads' names (which walk sys.modules): for the
 * one thread in C whose stack at a call is wanted, many times a run. */
int crash_python_thread_frames(struct rc_crash *c, struct strbuf *err);

#endif
