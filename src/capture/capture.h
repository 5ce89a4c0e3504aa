/* A capture session: the tracer's hooks, which decode each call (decode/),
 * print it in strace's format (strace/printer.c) and feed it as an event to
 * the rules (rules/engine.c), either or both. */
#ifndef RC_CAPTURE_CAPTURE_H
#define RC_CAPTURE_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "capture/decode.h"
#include "capture/tracer.h"
#include "rules/engine.h"
#include "strace/printer.h"

struct capture_opts {
	/* The calls reported (a bitmap of syscall numbers NBITS long); NULL:
	 * every call. Signals and exits are always reported. */
	const unsigned char *select;
	long nbits;
	struct dec_opts dec;
	struct printer *printer;	/* NULL: no text */
	struct rc_engine *engine;	/* NULL: no rules */
	/* attach: tell the rules what /proc knows of the threads found
	 * running (argv, cwd, the fds opened before we came). */
	bool adopt;
	/* run/attach: a thread about to die of a fatal signal is unwound in
	 * place into CRASH (once, the first crash) and the crash rules run at
	 * once into CRASH_FINDINGS, while its memory can still be read.
	 * NULL: not wanted (trace). */
	struct rc_crash *crash;
	struct rc_findings *crash_findings;
	/* With CRASH: also write the crashing process's core here. */
	const char *core_out;
};

struct capture;

struct capture *capture_new(const struct capture_opts *o);
/* The tracer driving the hooks (for stopping a crashing process's other
 * threads). */
void capture_set_tracer(struct capture *c, struct tracer *tr);
void capture_free(struct capture *c);
const struct tracer_hooks *capture_hooks(void);

/* At the end of tracing, before detaching: the calls still in progress
 * become blocked events (and their open lines get " <detached ...>"). */
void capture_finish(struct capture *c, struct tracer *tr, bool detaching);

uint64_t capture_events(const struct capture *c);

/*
 * Syscall selection (capture/select.c).
 */
/* A bitmap for dec_nr_max() numbers, all clear. */
unsigned char *select_new(void);
void select_set(unsigned char *map, long nr, bool on);
bool select_has(const unsigned char *map, long nr);
/* strace's -e trace=EXPR: "open,read", "%file", "file", "!%memory",
 * "all", "none", "/regex". Returns 0, or -1 with a message in ERR. */
int select_parse(unsigned char *map, const char *expr, struct strbuf *err);
/* The calls the trace rules read (run and attach). */
void select_rules(unsigned char *map);

#endif
