/* watch's stall detector: which threads have stayed inside one call for
 * the threshold or longer, found by looking at them from /proc now and
 * then, without stopping them and without the trace's help (a call
 * begun before the watch began, or one the kernel sums, is seen too).
 *
 * A thread is taken to be inside the same call while /proc/TID/syscall
 * shows the same call, arguments, stack pointer and pc, and its time on
 * a CPU (/proc/TID/schedstat) has not grown: a thread that left the
 * call and entered it again has run in between. Its wait is dated from
 * the first look that saw it so: at most one look's interval late.
 *
 * Contract: stall_look calls FN once per wait that reaches THRESHOLD
 * (a wait is told again only after the thread has run); stall_sweep,
 * after a round of looks, forgets the threads not looked at in it. */
#ifndef RC_WATCH_STALL_H
#define RC_WATCH_STALL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct stall;

/* A thread's /proc/TID/syscall and /proc/TID/schedstat first lines:
 * whether it is inside a call, that call's hash (number, arguments,
 * stack pointer and pc) into *CALL and its CPU time into *CPU_NS. */
bool stall_parse(const char *syscall, const char *schedstat, uint64_t *call, unsigned long long *cpu_ns);

struct stall *stall_new(double threshold);
void stall_free(struct stall *s);

/* Each thread of process TGID at NOW (monotonic seconds): FN(USER,
 * TGID, TID, SINCE) for one inside one call since SINCE, THRESHOLD ago
 * or more. Returns how many threads were looked at. */
size_t stall_look(struct stall *s, pid_t tgid, double now,
		  void (*fn)(void *user, pid_t tgid, pid_t tid, double since), void *user);
void stall_sweep(struct stall *s);
/* The other threads of TGID inside one call for MIN seconds or more at
 * NOW, as the last look saw them: FN(USER, TGID, TID, SINCE) for each,
 * which is then told (an incident takes a process's waits together). */
void stall_others(struct stall *s, pid_t tgid, double now, double min,
		  void (*fn)(void *user, pid_t tgid, pid_t tid, double since), void *user);

#endif
