/* What a -y/-yy decoration says an fd is: the text between '<' and '>'
 * that strace prints after an fd ("3</etc/x>", "5<TCP:[a:1->b:2]>"), and
 * the tracer too, in the same forms, read into the facts an event carries
 * (struct rc_fdfacts, event/event.h). The sources alone read the text.
 */
#ifndef RC_STRACE_DECORATION_H
#define RC_STRACE_DECORATION_H

#include "event/event.h"
#include "util/arena.h"

/* TEXT, a decoration as printed with its escapes decoded, parsed into A
 * (up to its first NUL); NULL for none or an empty one (it says nothing),
 * or when A cannot grow. Never fails otherwise: what is not a file, a
 * pipe or a socket is RC_FD_OTHER. The facts keep their own copy of
 * TEXT, and live as long as A's allocations. */
const struct rc_fdfacts *decoration_facts(const char *text, struct arena *a);
/* The decoration at P (its '<') in a line strace printed, up to END at
 * most, read: decoration_facts of its text as parse_decoration (args.h)
 * decodes it. */
const struct rc_fdfacts *decoration_at(const char *p, const char *end, struct arena *a);

#endif
