/* Unsafe libc calls are compile errors in our code (git's banned.h). */
#ifndef RC_UTIL_BANNED_H
#define RC_UTIL_BANNED_H

/* The headers that declare them come first: with _FORTIFY_SOURCE (as
 * Debian's package build sets it) they define inline wrappers of these very
 * names, which the macros below would break. Once included here, their
 * guards keep a later #include from reading them again. */
#include <stdio.h>
#include <string.h>

#define BANNED(func) sorry_##func##_is_banned

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef gets
#define gets(x) BANNED(gets)

#endif
