/* Constant tables (syscalls, errnos, signals, flags) generated from the
 * system headers by tools/gen-tables.py; see gen/tables.h for the list. */
#ifndef RC_UTIL_XLAT_H
#define RC_UTIL_XLAT_H

#include <stdbool.h>
#include <stddef.h>

struct rc_xlat_entry {
	const char *name;
	unsigned char len;	/* strlen(name): lookups compare lengths first */
	long long value;
	int alias;		/* another name of a value listed under its own name */
};

struct rc_xlat {
	const char *group;
	const struct rc_xlat_entry *rows;	/* sorted by name */
	size_t count;
};

/* Look NAME (LEN bytes, not necessarily NUL-terminated) up; true and *value
 * set when found. */
bool xlat_value(const struct rc_xlat *x, const char *name, size_t len, long long *value);

/* The canonical name of VALUE, or NULL. */
const char *xlat_name(const struct rc_xlat *x, long long value);

/* Parse "A|B|0x10|C" against X: sum of the known names and numbers.
 * Unknown names are ignored and reported through *unknown (may be NULL). */
long long xlat_flags(const struct rc_xlat *x, const char *s, size_t len, bool *unknown);

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
