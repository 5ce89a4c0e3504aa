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

#endif
