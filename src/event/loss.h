/* What a capture lost, by thread and call: the records the eBPF capture's
 * full ring buffer refused (capture/bpf), so that a report says which
 * calls of which threads are missing from the trace, not only how many.
 * Kept here, below both the capture that counts them and the rules and
 * commands that say them. */
#ifndef RC_EVENT_LOSS_H
#define RC_EVENT_LOSS_H

#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

/* What a lost record was: a call's number (>= 0), or a record that is
 * no call. */
enum {
	RC_LOSS_SIGNAL = -1,
	RC_LOSS_FORK = -2,
	RC_LOSS_EXIT = -3,
	RC_LOSS_STACK = -4,
	RC_LOSS_SUM = -5,
	RC_LOSS_OTHER = -6,
};

struct rc_loss {
	int tid;
	long what;
	uint64_t n;
};

/* The (thread, call) pairs a report names, most first. */
#define RC_LOSSES_KEPT 8

/* V[0..N) (most first) in words, grouped by thread in the order of their
 * first pair: "thread 1234: read 53,800, close 200; thread 1240: its
 * exit". */
void loss_describe(struct strbuf *sb, const struct rc_loss *v, size_t n);

/* Keep (TID, WHAT, N) among V's most, *NV of them, at most
 * RC_LOSSES_KEPT, V ordered most first. */
void loss_keep(struct rc_loss *v, size_t *nv, int tid, long what, uint64_t n);

#endif
