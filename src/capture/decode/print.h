/* What the printers (print.c) lend the reading of a call's arguments by
 * their roles (read-roles.c), which reads the memory roles into d->copy
 * as these read them, and nobody else: the decoders print through
 * capture/decode.h's helpers.
 */
#ifndef RC_CAPTURE_DECODE_PRINT_H
#define RC_CAPTURE_DECODE_PRINT_H

#include "capture/decode.h"

/* The path at ADDR into C, kept in the arena. */
void dec_read_path(struct dec *d, uint64_t addr, struct dec_copy *c);
/* The LEN bytes at ADDR into C: the part printed up to -s, and up to
 * opts->preview_max bytes into the event's data preview when PREVIEW. */
void dec_read_buf(struct dec *d, uint64_t addr, size_t len, bool preview, struct dec_copy *c);
/* An array of strings (execve's argv) as strace prints it, kept as the
 * event's argv. */
void dec_print_strarray(struct dec *d, uint64_t addr);

#endif
