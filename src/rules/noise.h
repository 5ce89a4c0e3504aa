/* Probing noise: paths that programs try as a matter of course (the
 * dynamic loader's and Python's search paths, locale files, nscd,
 * /etc/ld.so.preload, optional config files). A failure on one of these
 * is never an error by itself. */
#ifndef RC_RULES_NOISE_H
#define RC_RULES_NOISE_H

#include <stdbool.h>

/* True when a failed lookup of PATH (absolute or as given) is routine
 * probing by the loader, Python, glibc or common libraries. */
bool noise_path(const char *path);

#endif
