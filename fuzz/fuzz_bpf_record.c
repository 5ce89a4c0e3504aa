/* libFuzzer entry for the eBPF capture's records (capture/bpf/record.c):
 * any bytes, as the ring buffer could hand them over, must give an event
 * or a refusal, never a crash, a sanitizer report or a leak. The first
 * byte picks the record's kind, so that both kinds are reached. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "capture/bpf/bpf.h"
#include "util/arena.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char rec[8192];	/* RCB_REC_MAX */
	struct rc_event e;
	struct arena a = { 0 };

	if (!size)
		return 0;
	size_t n = size - 1 < sizeof(rec) ? size - 1 : sizeof(rec);
	memset(rec, 0, sizeof(rec));
	memcpy(rec, data + 1, n);
	/* The kind: 1 (a call) or 2 (an end), or anything else. */
	if (n >= 4 && data[0] < 3)
		rec[0] = data[0] ? data[0] : 1, rec[1] = rec[2] = rec[3] = 0;
	if (bpf_record_event(rec, n, 0, &e, &a) > 0 && e.line)
		(void)strlen(e.line);
	arena_release(&a);
	return 0;
}
