/* What the fuzz targets read of an event's strings: every pointer an event
 * carries must be readable to its end, and reading it into SINK (which the
 * compiler may not drop) makes the sanitizer check that it is. */
#ifndef RC_FUZZ_TOUCH_H
#define RC_FUZZ_TOUCH_H

#include <stddef.h>
#include <string.h>

#include "event/event.h"
#include "event/stack.h"

static volatile size_t sink;

static inline void touch(const char *s)
{
	if (s)
		sink += strlen(s);
}

/* Every string of what a decoration said. */
static inline void touch_shown(const struct rc_fdfacts *f)
{
	if (!f)
		return;
	touch(f->desc);
	touch(f->path);
	touch(f->proto);
	touch(f->local.host);
	touch(f->peer.host);
}

/* Every frame of a stack (strace -k's lines under a call). */
static inline void touch_stack(const struct rc_stack *st)
{
	if (!st)
		return;
	touch(st->missing);
	for (size_t i = 0; i < st->npy; i++) {
		touch(st->py[i].function);
		touch(st->py[i].file);
	}
	for (size_t i = 0; i < st->nnative; i++) {
		touch(st->native[i].module);
		touch(st->native[i].function);
		touch(st->native[i].file);
		sink += (size_t)st->native[i].pc;
	}
}

#endif
