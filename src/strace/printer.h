/* events -> strace text: the line format strace 6.x writes, so that people
 * and scripts that read strace output can read ours, and so that `rootcause
 * analyze` reads it back.
 *
 *	[pid prefix][timestamp ]name(args...) = ret[ <duration>]
 *
 * The prefix is "PID " (padded to 5) with -f and -o, "[pid  N] " on a
 * terminal once more than one process is traced, none with -ff (one file
 * per thread, LOG.TID). A call whose exit comes after another thread's
 * line is split as strace splits it: "read(3,  <unfinished ...>" then
 * "<... read resumed>"..., 10) = 10". Return values start at column 40.
 */
#ifndef RC_STRACE_PRINTER_H
#define RC_STRACE_PRINTER_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

enum printer_ts {
	PR_TS_NONE,
	PR_TS_SEC,	/* -t: 10:20:30 */
	PR_TS_USEC,	/* -tt: 10:20:30.123456 */
	PR_TS_EPOCH,	/* -ttt: 1700000000.123456 */
};

struct printer_opts {
	FILE *out;		/* the stream, unless ff_base */
	const char *ff_base;	/* -ff: write LOG.TID files */
	bool to_file;		/* -o given: "PID " prefixes rather than "[pid N] " */
	bool follow;		/* -f */
	enum printer_ts ts;
	bool durations;		/* -T */
};

struct printer;

struct printer *printer_new(const struct printer_opts *o);
/* Flush and close what the printer opened. Returns 0, or -errno of the
 * first failed write. */
int printer_free(struct printer *p);

/* How many processes are traced (the terminal prefix appears from 2). */
void printer_set_nprocs(struct printer *p, int n);

/* A call's entry half "name(args..." at time TS (seconds since the epoch). */
void printer_entry(struct printer *p, pid_t tid, double ts, const char *text, size_t len);
/* Its exit: "rest) = ret..." (REST starts with what follows the entry half),
 * with the call's duration DUR (< 0: unknown). NAME is for the resumed
 * form. */
void printer_exit(struct printer *p, pid_t tid, double ts, const char *name, const char *rest,
		  size_t len, const char *rv, double dur);
/* A whole line: "--- SIGINT {...} ---", "+++ exited with 0 +++". */
void printer_line(struct printer *p, pid_t tid, double ts, const char *text);
/* T ended: close its -ff file. */
void printer_forget(struct printer *p, pid_t tid);
/* End every open line with " <unfinished ...>" (detach, end of trace). */
void printer_close_open(struct printer *p, bool detached);

#endif
