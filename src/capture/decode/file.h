/* What the file family's files share: file.c (paths, the stat family),
 * fcntl.c, ioctl.c and mount.c. Private to decode/. */
#ifndef RC_CAPTURE_DECODE_FILE_H
#define RC_CAPTURE_DECODE_FILE_H

#include <stdint.h>

#include "capture/decode.h"

/* The int at ADDR: "[1]". */
void file_int_at(struct dec *d, uint64_t addr);
/* The fd argument I, printed; the event's fd is its FD role's (event_raw_arg_facts). */
void file_fd_arg(struct dec *d, int i);

#endif
