/* strace -k's stack lines: under each call, a frame a line, innermost
 * first,
 *	" > /usr/lib/x86_64-linux-gnu/libc.so.6(__open64+0x2b) [0xf7d4b]"
 *	" > /usr/bin/env(+0x3033) [0x3033]"          no symbol
 *	" > unexpected_backtracing_error [0x7f...]"  strace could not unwind
 * (the bracket: the pc, as an offset in the module). Private to strace/. */
#ifndef RC_STRACE_BACKTRACE_H
#define RC_STRACE_BACKTRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "event/stack.h"

/* LINE (LEN bytes) is a frame line. */
bool backtrace_is_frame(const char *line, size_t len);

/* Its frame into F, the strings copied into BUF (SIZE bytes; what does
 * not fit is cut): false when it is not one. */
bool backtrace_frame(const char *line, size_t len, struct rc_stack_frame *f, char *buf, size_t size);

#endif
