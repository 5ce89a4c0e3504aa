/* What the file family's files share: file.c (paths, the stat family),
 * fcntl.c, ioctl.c and mount.c. Private to decode/. */
#ifndef RC_CAPTURE_DECODE_FILE_H
#define RC_CAPTURE_DECODE_FILE_H

#include <stdint.h>

#include "capture/decode.h"

#define XL_FLAGS(d, tab, v, dflt) dec_xl_flags(d, tab, DEC_XL_N(tab), v, dflt)
#define XL_VAL(d, tab, v, dflt) dec_xl_val(d, tab, DEC_XL_N(tab), v, dflt)

/* The int at ADDR: "[1]". */
void file_int_at(struct dec *d, uint64_t addr);
/* The fd argument I, printed; the event's fd is its FD role's (event_raw_arg_facts). */
void file_fd_arg(struct dec *d, int i);

/* lseek's and struct flock's whence, in strace's order. */
#define FILE_NWHENCE 5
extern const struct dec_xl file_whence_codes[FILE_NWHENCE];

#endif
