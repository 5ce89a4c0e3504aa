/* A standard ELF core of a live process that its tracer holds stopped
 * (run/attach --core-out): readable by gdb and by rootcause core. */
#ifndef RC_CRASH_COREWRITE_H
#define RC_CRASH_COREWRITE_H

#include <sys/types.h>

#include "crash/crash.h"
#include "util/strbuf.h"

/* Writes PID's core to PATH (mode 0600) from C (threads, the crashed one
 * first; mappings; signal) and the process's memory.  Every thread must be
 * in a ptrace-stop of ours.  Returns 0, or -1 with one line in ERR. */
int crash_write_core(const struct rc_crash *c, pid_t pid, const char *path, struct strbuf *err);

#endif
