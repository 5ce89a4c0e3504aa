/* The decoders, declared from the rows of event/syscalls.def that name
 * them: the row SC("lstat", stat, ...) declares dec_stat, which
 * decode/file.c defines. Each decode/ file includes this header, so that
 * the compiler checks its decoders against the declaration, and
 * decode/table.c takes the table's pointers from the same rows.
 *
 * A decoder shared by several calls is declared once per row, which C
 * allows; NONE, a call printed generically, declares dec_NONE, which
 * nothing defines: decode/table.c reads it as no decoder. Private to
 * decode/.
 */
#ifndef RC_CAPTURE_DECODE_DECODERS_H
#define RC_CAPTURE_DECODE_DECODERS_H

#include "capture/decode.h"

#define SC(name, decoder, ...) void dec_##decoder(struct dec *d);
#include "event/syscalls.def"
#undef SC

#endif
