/* libFuzzer entry for the eBPF capture's records (capture/bpf/record.c,
 * replay.c): any bytes, as the ring buffer could hand them over, must be
 * refused or replayed through capture's hooks and decoders (which then
 * read the record's copies of the call's memory), never a crash, a
 * sanitizer report or a leak. The first byte picks the record's kind,
 * so that every kind is reached. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "capture/bpf/bpf.h"
#include "capture/bpf/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void on_event(void *user, struct rc_event *e)
{
	(void)user;
	if (e->line)
		(void)strlen(e->line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char rec[RCB_REC_MAX];
	static struct capture *cap;
	static struct bpf_replay *rp;

	if (!size)
		return 0;
	if (!cap) {
		/* One capture and replay for the run, as a session keeps
		 * them: their thread table grows and shrinks with the input. */
		struct capture_opts co = {
			.nbits = dec_nr_max(),
			.dec = { .strsize = 64, .preview_max = RC_EVENT_DATA_MAX },
			.on_event = on_event,
		};
		cap = capture_new(&co);
		rp = bpf_replay_new(cap, 0);
	}
	size_t n = size - 1 < sizeof(rec) ? size - 1 : sizeof(rec);
	memset(rec, 0, sizeof(rec));
	memcpy(rec, data + 1, n);
	/* The kind: a call, an end, a signal or a fork, or anything else. */
	if (n >= 4 && data[0] < 5)
		rec[0] = data[0] ? data[0] : 1, rec[1] = rec[2] = rec[3] = 0;
	bpf_replay_record(rp, rec, n);
	return 0;
}
