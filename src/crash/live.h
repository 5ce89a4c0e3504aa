/* Crashes caught alive: a traced process about to die of a fatal signal
 * is unwound in place, before the kernel tears it down, so that run and
 * attach report the stacks with no core_pattern, no ulimit -c and no core
 * file (containers, where those belong to the host).  Also what stack
 * reads of a process from /proc. */
#ifndef RC_CRASH_LIVE_H
#define RC_CRASH_LIVE_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#include "crash/crash.h"
#include "util/strbuf.h"

/* What /proc says of PID: exe, command line, and the mappings (with each
 * mapped file's size now). */
void crash_describe_pid(struct rc_crash *c, pid_t pid);

/* Thread TID of TGID sits in the signal-delivery-stop of the fatal SI, and
 * the caller, its tracer, has stopped the other threads: fill C (empty, from
 * crash_init) with the signal, the process, its mappings, every thread's
 * frames (the crashed one first).  Returns 0, or -1 with one line in ERR
 * when nothing could be unwound (C still has the signal). */
int crash_capture_live(struct rc_crash *c, pid_t tgid, pid_t tid, const siginfo_t *si, struct strbuf *err);

#endif
