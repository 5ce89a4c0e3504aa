/* The crash model in the report's terms: crash/ fills the report model's
 * crash part (report/model.h) for the writers, which know nothing of
 * crash/. */
#ifndef RC_CRASH_EXPORT_H
#define RC_CRASH_EXPORT_H

#include "crash/crash.h"
#include "report/model.h"
#include "util/strbuf.h"

/* Fills OUT from C, which must outlive it (OUT borrows C's strings). */
void crash_report_fill(const struct rc_crash *c, struct rc_report_crash *out);
/* Frees what crash_report_fill allocated. */
void crash_report_release(struct rc_report_crash *out);

/* One frame as gdb prints it, without the number, as the report prints
 * it (report_frame_str): "0x401136 in parse_header (crash.c:12) from
 * /tmp/crash". */
void crash_frame_str(const struct rc_frame *f, struct strbuf *out);

#endif
