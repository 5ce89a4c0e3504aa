/* Syscall facts from strace's argument text: which calls are decoded and
 * how (one decoder per argument layout), filled into struct rc_event.
 *
 * Calls no rule needs (mprotect, rt_sigaction...) have no decoder: the
 * parser then never looks at their arguments, which is most of the speed.
 */
#ifndef RC_STRACE_FACTS_H
#define RC_STRACE_FACTS_H

#include <stdbool.h>
#include <stddef.h>

#include "event/event.h"
#include "strace/args.h"

struct sc_info {
	const char *name;
	size_t len;
	long nr;		/* -1 when this architecture has no such call */
	unsigned char dec;	/* enum decoder in facts.c; 0 = none */
};

/* Name -> info, open addressing; built once per parser. */
struct sc_table {
	struct sc_info *rows;
	size_t nrows;
	unsigned *slots;	/* index + 1 into rows; 0 empty */
	size_t mask;
};

void sc_table_init(struct sc_table *t);
void sc_table_release(struct sc_table *t);
const struct sc_info *sc_table_find(const struct sc_table *t, const char *name, size_t len);

/* Everything the parser knows about one call besides its arguments. */
struct call_text {
	struct span args;	/* between the parentheses */
	bool complete;		/* the closing parenthesis was seen */
	const char *ret_hint;	/* -y decoration of a returned fd, decoded */
};

/* Fill E's argument facts. E's name, nr, ret, err, ts... are already set. */
void facts_fill(struct rc_event *e, const struct sc_info *sc, const struct call_text *ct,
		struct arena *a);

#endif
