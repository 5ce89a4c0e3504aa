/* libFuzzer entry for the eBPF capture's records (capture/bpf/record.c,
 * replay.c): any bytes, as the ring buffer could hand them over, must be
 * refused or replayed through capture's hooks and decoders (which then
 * read the record's copies of the call's memory), never a crash, a
 * sanitizer report or a leak. The first byte picks the record's kind,
 * so that every kind is reached. The events go on to the rules, which
 * take the kernel's sums (RC_EV_SUM) from no other source; a stack
 * record's copy reaches the unwinder's hook (on_stack) with the call it
 * came before. Every so many inputs the rules finish, as a session's end
 * does. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "capture/bpf/bpf.h"
#include "capture/bpf/record.h"
#include "diagnose/engine.h"

/* Inputs between two ends of the rules' session. */
#define SESSION 4096

static struct rc_engine eng;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void on_event(void *user, struct rc_event *e)
{
	(void)user;
	if (e->line)
		(void)strlen(e->line);
	engine_feed(&eng, e);
}

/* A stack record's copy, as the command's unwinder would get it: every
 * byte and raw Python frame it says it has is read. */
static const struct rc_stack *on_stack(void *user, pid_t tgid, pid_t tid, const struct rc_event *e,
				       const struct rc_stack_copy *copy)
{
	volatile unsigned sum = 0;

	(void)user, (void)tgid, (void)tid, (void)e;
	if (!copy)
		return NULL;
	for (size_t i = 0; i < copy->len; i += 64)
		sum += copy->bytes[i];
	for (size_t i = 0; i < copy->npy; i++)
		sum += (unsigned)(copy->py[i].code + copy->py[i].instr + copy->py[i].owner + copy->py[i].entry);
	if (copy->walk && copy->py_read == RC_PY_NOT_ASKED)
		copy->walk->runtime = 0;
	return NULL;
}

static void session_end(void)
{
	struct rc_findings findings;

	findings_init(&findings);
	engine_finish(&eng, &findings);
	findings_release(&findings);
	engine_release(&eng);
	engine_init(&eng);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Room for the largest kind, a stack record. */
	static unsigned char rec[sizeof(struct rcb_stack) > RCB_REC_MAX ? sizeof(struct rcb_stack) : RCB_REC_MAX];
	static struct capture *cap;
	static struct bpf_replay *rp;
	static unsigned inputs;

	if (!size)
		return 0;
	if (!cap) {
		engine_init(&eng);
		/* One capture and replay for the run, as a session keeps
		 * them: their thread table grows and shrinks with the input. */
		struct capture_opts co = {
			.nbits = dec_nr_max(),
			.dec = { .strsize = 64, .preview_max = RC_EVENT_DATA_MAX },
			.on_event = on_event,
			.on_stack = on_stack,
		};
		cap = capture_new(&co);
		rp = bpf_replay_new(cap, 0);
	}
	size_t n = size - 1 < sizeof(rec) ? size - 1 : sizeof(rec);
	memset(rec, 0, sizeof(rec));
	memcpy(rec, data + 1, n);
	/* The kind: a call, an end, a signal, a fork, a sum or a stack, or
	 * anything else. */
	if (n >= 4 && data[0] <= RCB_STACK)
		rec[0] = data[0] ? data[0] : 1, rec[1] = rec[2] = rec[3] = 0;
	/* A stack record is mostly its stack copy: a short input stands for
	 * the whole record, the rest of it zeros, so that the fuzzer need
	 * not grow inputs to 17 KiB to reach it. */
	if (n >= 4 && rec[0] == RCB_STACK && n < sizeof(struct rcb_stack))
		n = sizeof(struct rcb_stack);
	bpf_replay_record(rp, rec, n);
	if (++inputs % SESSION == 0)
		session_end();
	return 0;
}
