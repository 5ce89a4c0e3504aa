/* Constant tables (syscalls, errnos, signals, flags) generated from the
 * system headers by tools/gen-tables.py; see gen/tables.h for the list.
 * One type serves both directions: a name to its value (the log parser),
 * and a value to its names in the table's order (the tracer's printers,
 * in strace's order, which src/xlat/NAME.in gives). */
#ifndef RC_UTIL_XLAT_H
#define RC_UTIL_XLAT_H

#include <stdbool.h>
#include <stddef.h>

#include "util/strbuf.h"

struct rc_xlat_entry {
	const char *name;
	unsigned char len;	/* strlen(name): lookups compare lengths first */
	long long value;
	int alias;		/* another name of a value listed under its own name */
};

struct rc_xlat {
	const char *group;
	/* In the order the names print: src/xlat/NAME.in's; a group's (every
	 * name of a prefix) are sorted by name, and by_name is rows. */
	const struct rc_xlat_entry *rows;
	const struct rc_xlat_entry *by_name;	/* the same rows, sorted by name (strcmp) */
	size_t count;				/* of each */
};

/* Look NAME (LEN bytes, not necessarily NUL-terminated) up; true and *value
 * set when found. */
bool xlat_value(const struct rc_xlat *x, const char *name, size_t len, long long *value);

/* The canonical name of VALUE, or NULL: the first row that has it. */
const char *xlat_name(const struct rc_xlat *x, long long value);

/* Parse "A|B|0x10|C" against X: sum of the known names and numbers.
 * Unknown names are ignored and reported through *unknown (may be NULL). */
long long xlat_flags(const struct rc_xlat *x, const char *s, size_t len, bool *unknown);

/* strace's printflags, walking X's rows in order: the name of each row
 * whose bits are all set in V, "|" between them, then "|0x.." for the
 * bits no name took; a row whose value is 0 names only a V of 0, and only
 * as the first row. No name at all: V in hex, and DFLT in a comment when
 * not NULL; a V of 0 then prints "0" when DFLT is not NULL, else
 * nothing. */
void xlat_print_flags(struct strbuf *out, const struct rc_xlat *x, unsigned long long v, const char *dflt);
/* The same over X's rows, then MORE's, as one table: clone3's flags are
 * clone's, then its own (strace's printflags_ex takes such a list). */
void xlat_print_flags2(struct strbuf *out, const struct rc_xlat *x, const struct rc_xlat *more,
		       unsigned long long v, const char *dflt);
/* strace's printxval: the name of V (xlat_name), else V in hex, and DFLT
 * in a comment after it when not NULL. Returns whether V had a name. */
bool xlat_print_val(struct strbuf *out, const struct rc_xlat *x, unsigned long long v, const char *dflt);

/* Names of errno values the kernel uses internally (ERESTARTSYS...), which
 * strace prints but no userspace header defines. */
bool xlat_errno_value(const char *name, size_t len, int *value);
const char *xlat_errno_name(int value);

/* The name of si_code CODE among those that begin with PREFIX ("SEGV_",
 * "BUS_", "SI_"...): the numbers overlap between signals (SEGV_MAPERR and
 * BUS_ADRALN are both 1). NULL when none does. */
const char *xlat_si_code(const char *prefix, int code);
/* The name of si_code CODE of signal SIGNO ("SEGV_MAPERR", "SI_USER"), or
 * NULL; SENDER: a process sent it (a 0 code then reads SI_USER). */
const char *xlat_si_code_name(int signo, int code, int sender);

#endif
