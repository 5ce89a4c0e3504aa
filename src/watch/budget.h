/* watch's call budget: whether the watched processes' calls are recorded
 * now, or only their lives (forks, execs, exits, signals) and stalls.
 *
 * While the call hooks are attached, every call on the machine takes
 * the kernel's slow path and a program run: about 35 ns on these VMs,
 * which a server making a million calls a second pays as a tenth of
 * its throughput (bench/watch-overhead). A watch that is always on
 * cannot cost that. So above MAX_RATE calls a second, sustained, the
 * calls stop being recorded; stalls are still found (watch/stall.h
 * looks at /proc), and so are exits, deaths and the signals that cause
 * them. The calls are recorded again as soon as a process starts or
 * ends (a restart, a crash loop, a worker's fork: where the causes are
 * in the calls), and for a look every PROBE_EVERY_S, which pauses again
 * if the rate is still above. As perf lowers its sample rate past
 * perf_cpu_time_max_percent, and Falco drops events under load: the
 * service comes first, and each incident says what its window lacks.
 *
 * Contract:
 * - budget_tick, called often (each reader's tick and wake), with the
 *   kernel's running counts of processes started and of calls seen (the
 *   latter read only when budget_wants_calls says, about once a second:
 *   else pass 0), says what to do: BUDGET_PAUSE or BUDGET_RESUME, which
 *   the caller does and then tells with budget_done (whether it could);
 *   else BUDGET_KEEP.
 * - budget_wake: a process ended; the calls are recorded again at the
 *   next tick.
 * - budget_unrecorded: how many seconds of [FROM, TO] the calls were not
 *   recorded (the newest BUDGET_SPANS pauses are kept). */
#ifndef RC_WATCH_BUDGET_H
#define RC_WATCH_BUDGET_H

#include <stdbool.h>
#include <stdint.h>

/* Seconds above the rate before a pause, and how often and how long a
 * pause is broken for a look at the rate. */
#define BUDGET_OVER_S 2.0
#define BUDGET_PROBE_EVERY_S 60.0
/* Pauses kept for budget_unrecorded. */
#define BUDGET_SPANS 64

enum budget_do { BUDGET_KEEP, BUDGET_PAUSE, BUDGET_RESUME };

struct budget_span {
	double from, to;	/* TO 0: not ended */
};

struct budget {
	double max_rate;	/* calls a second; 0: always recorded */
	bool paused;
	bool woken;		/* a process ended while paused */
	bool broken;		/* a pause could not be made: never again */
	double since;		/* the rate's sample began (monotonic s) */
	uint64_t calls_then, starts_then;
	double over_since;	/* above the rate since; 0: not above */
	bool start_seen;	/* a process started in the sample going on */
	double rate;		/* the rate that made the last pause */
	uint64_t pauses;
	struct budget_span spans[BUDGET_SPANS];
	unsigned nspans;	/* ever: the newest is spans[(nspans - 1) % BUDGET_SPANS] */
};

void budget_init(struct budget *b, double max_rate);
bool budget_wants_calls(const struct budget *b, double now);
enum budget_do budget_tick(struct budget *b, double now, uint64_t calls, uint64_t starts);
void budget_done(struct budget *b, enum budget_do what, double now, bool ok);
void budget_wake(struct budget *b);
double budget_unrecorded(const struct budget *b, double from, double to);

#endif
