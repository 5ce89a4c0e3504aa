/* strace lines inside another log's records: what a user pastes when
 * strace ran where only a log shipper or a console saw it. Each line is
 * then a record that carries the strace line in a field (logfmt's
 * msg="...", a JSON "log", "msg" or "message"), behind the prefixes the
 * record's way added (an ISO or syslog time and host, a kernel console's
 * "[    1.693074] ", a "tag[pid]: ", a container runtime's "stdout F "):
 *
 *   time="..." level=debug msg="[    1.69] strace[733]: [pid 737] getrandom( <unfinished ...>" vmID=x
 *   {"log":"openat(AT_FDCWD, \"/m\", O_RDONLY) = -1 ENOENT (No such file or directory)\n","stream":"stderr"}
 *   Nov  7 23:04:02 vm strace[733]: [pid 737] getrandom( <unfinished ...>
 *
 * A source decides once, from its first lines, whether its lines are
 * wrapped (wrapped_detect); only then does each line pay for unwrapping.
 * Private to strace/. */
#ifndef RC_STRACE_WRAPPED_H
#define RC_STRACE_WRAPPED_H

#include <stdbool.h>
#include <stddef.h>

#include "util/strbuf.h"

/* Whether L (N bytes) begins as a strace line does: a pid, "[pid N]" or
 * a time, then a call ("name("), a resumption ("<... "), or a signal or
 * exit ("--- ", "+++ "). A cheap look, not a parse. */
bool wrapped_looks_strace(const char *l, size_t n);

/* The strace line inside record L (N bytes) into OUT (reset first):
 * true when L is not one itself and what it carries looks like one. */
bool wrapped_unwrap(const char *l, size_t n, struct strbuf *out);

/* Whether the lines LINES[0..N) (lengths LENS) are such records: more
 * of them carry a strace line than are one. */
bool wrapped_detect(const char *const *lines, const size_t *lens, size_t n);

#endif
