/* run and attach: what capture (capture/capture.h) leaves to its user.
 * The trace's events go to the diagnosis (diagnose/diagnose.h); a process
 * about to die of a fatal signal is unwound in place (crash/live.c), its
 * core written when --core-out asks, and handed to the diagnosis at once,
 * while its memory can be read. */
#ifndef RC_CMD_PIPELINE_H
#define RC_CMD_PIPELINE_H

#include "capture/session.h"
#include "cmd/cmd.h"
#include "report/report.h"

/* Trace as SO says (its target, and its printer for a trace written as
 * well; the rest is set here), with the calls SEL selects, by the backend
 * BK, following children; diagnose what was seen and write the report
 * REP (its kind and subject set by the caller) as RO asks: what the
 * diagnosis filled into REP is gone when this returns. CORE_OUT: where
 * to write the core of a process that dies of a fatal signal, or NULL.
 * Returns report_emit's exit code, or -1 when the session could not
 * begin (said on stderr, and RES says why). RES is the session's. */
int pipeline_run(const struct session_opts *so, const struct backend_opts *bk, const unsigned char *sel,
		 const char *core_out, const struct report_opts *ro, struct rc_report *rep,
		 struct session_result *res);

#endif
