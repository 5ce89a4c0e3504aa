/* futex, futex_waitv, get_robust_list.
 *
 * Facts as the roles of futex's arguments give them: the futex
 * address, the operation without its PRIVATE/CLOCK_REALTIME bits, and the
 * timeout of the waits: FUTEX_WAIT's is relative; the absolute deadline of
 * FUTEX_WAIT_BITSET and FUTEX_WAIT_REQUEUE_PI is turned into a timeout
 * only against CLOCK_REALTIME, using the event's own timestamp exactly as
 * the parser does. */
#include "capture/decode.h"
#include "event/facts.h"

#include <linux/futex.h>
#include <math.h>
#include <string.h>
#include <sys/syscall.h>

#include "capture/decode/decoders.h"
#include "gen/tables.h"
#include "util/util.h"

#ifndef FUTEX_LOCK_PI2
#define FUTEX_LOCK_PI2 13
#endif

/* The timeout argument at entry: printed, and kept in priv for the exit
 * half, when the event's timestamp may have been set meanwhile. */
static void timeout_arg(struct dec *d, int cmd, bool realtime)
{
	double sec;

	d->priv[0] = 0;
	if (!dec_timespec(d, d->call.args[3], &sec))
		return;
	if (event_futex_timeout_facts(d->e, cmd, sec, realtime)) {
		memcpy(&d->priv[1], &sec, sizeof(sec));
		d->priv[0] = 1;
	}
}

static void uint_arg(struct dec *d, int argi)
{
	strbuf_addf(d->out, ", %u", (unsigned)d->call.args[argi]);
}

static void wake_op(struct dec *d, unsigned val3)
{
	unsigned op = (val3 >> 28) & 7, cmp = (val3 >> 24) & 0xf;

	if ((val3 >> 28) & FUTEX_OP_OPARG_SHIFT)
		strbuf_adds(d->out, "FUTEX_OP_OPARG_SHIFT<<28|");
	bool known = xlat_print_val(d->out, &rc_xlat_futexwakeops, op, NULL);
	strbuf_add(d->out, "<<28", 4);
	if (!known)
		strbuf_adds(d->out, " /* FUTEX_OP_??? */");
	strbuf_addf(d->out, "|%#x<<12|", (val3 >> 12) & 0xfff);
	known = xlat_print_val(d->out, &rc_xlat_futexwakecmps, cmp, NULL);
	strbuf_add(d->out, "<<24", 4);
	if (!known)
		strbuf_adds(d->out, " /* FUTEX_OP_CMP_??? */");
	strbuf_addf(d->out, "|%#x", val3 & 0xfff);
}

void dec_futex(struct dec *d)
{
	unsigned op = (unsigned)d->call.args[1];
	int cmd = (int)(op & 127);
	bool realtime = op & FUTEX_CLOCK_REALTIME;

	if (d->exiting) {
		/* The tracer may stamp the event only now. */
		if (d->priv[0]) {
			double sec;
			memcpy(&sec, &d->priv[1], sizeof(sec));
			event_futex_timeout_facts(d->e, cmd, sec, realtime);
		}
		return;
	}
	d->priv[0] = 0;
	dec_ptr(d, d->call.args[0]);
	dec_sep(d);
	xlat_print_val(d->out, &rc_xlat_futexops, op, "FUTEX_???");
	switch (cmd) {
	case FUTEX_WAIT:
		uint_arg(d, 2);
		dec_sep(d);
		timeout_arg(d, cmd, realtime);
		break;
	case FUTEX_LOCK_PI:
	case FUTEX_LOCK_PI2:
		dec_sep(d);
		dec_timespec(d, d->call.args[3], NULL);
		break;
	case FUTEX_WAIT_BITSET:
		uint_arg(d, 2);
		dec_sep(d);
		timeout_arg(d, cmd, realtime);
		dec_sep(d);
		xlat_print_val(d->out, &rc_xlat_futexbitset, (unsigned)d->call.args[5], NULL);
		break;
	case FUTEX_WAKE_BITSET:
		uint_arg(d, 2);
		dec_sep(d);
		xlat_print_val(d->out, &rc_xlat_futexbitset, (unsigned)d->call.args[5], NULL);
		break;
	case FUTEX_REQUEUE:
		uint_arg(d, 2);
		uint_arg(d, 3);
		dec_sep(d);
		dec_ptr(d, d->call.args[4]);
		break;
	case FUTEX_CMP_REQUEUE:
	case FUTEX_CMP_REQUEUE_PI:
		uint_arg(d, 2);
		uint_arg(d, 3);
		dec_sep(d);
		dec_ptr(d, d->call.args[4]);
		uint_arg(d, 5);
		break;
	case FUTEX_WAKE_OP:
		uint_arg(d, 2);
		uint_arg(d, 3);
		dec_sep(d);
		dec_ptr(d, d->call.args[4]);
		dec_sep(d);
		wake_op(d, (unsigned)d->call.args[5]);
		break;
	case FUTEX_WAIT_REQUEUE_PI:
		uint_arg(d, 2);
		dec_sep(d);
		timeout_arg(d, cmd, realtime);
		dec_sep(d);
		dec_ptr(d, d->call.args[4]);
		break;
	case FUTEX_FD:
	case FUTEX_WAKE:
		uint_arg(d, 2);
		break;
	case FUTEX_UNLOCK_PI:
	case FUTEX_TRYLOCK_PI:
		break;
	default:
		uint_arg(d, 2);
		dec_sep(d);
		dec_ptr(d, d->call.args[3]);
		dec_sep(d);
		dec_ptr(d, d->call.args[4]);
		strbuf_addf(d->out, ", %#x", (unsigned)d->call.args[5]);
		break;
	}
}

/* futex_waitv(waiters, nr_futexes, flags, timeout, clockid). */
void dec_futex_waitv(struct dec *d)
{
	struct futex_waitv w;
	unsigned nr = (unsigned)d->call.args[1];
	uint64_t addr = d->call.args[0];
	size_t max = (size_t)(d->opts ? d->opts->strsize : 32);

	if (d->exiting)
		return;
	if (!addr) {
		strbuf_add(d->out, "NULL", 4);
	} else if (!nr) {
		strbuf_add(d->out, "[]", 2);
	} else {
		for (unsigned i = 0; i < nr; i++) {
			uint64_t at = addr + (uint64_t)i * sizeof(w);
			if (i >= max || i >= FUTEX_WAITV_MAX) {
				strbuf_add(d->out, ", ...", 5);
				break;
			}
			if (mem_read(d->call.mem, at, &w, sizeof(w)) != (ssize_t)sizeof(w)) {
				if (i == 0) {
					dec_ptr(d, addr);
					goto rest;
				}
				strbuf_addf(d->out, ", ... /* %#llx */", (unsigned long long)at);
				break;
			}
			strbuf_addf(d->out, "%s{val=%#llx, uaddr=", i ? ", " : "[",
				    (unsigned long long)w.val);
			dec_ptr(d, w.uaddr);
			strbuf_add(d->out, ", flags=", 8);
			xlat_print_flags(d->out, &rc_xlat_futex_waiter_flags, w.flags, "FUTEX_???");
			if (w.__reserved)
				strbuf_addf(d->out, ", __reserved=%#x", w.__reserved);
			strbuf_addc(d->out, '}');
		}
		strbuf_addc(d->out, ']');
	}
rest:
	strbuf_addf(d->out, ", %u, %#x, ", nr, (unsigned)d->call.args[2]);
	dec_timespec(d, d->call.args[3], NULL);
	dec_sep(d);
	dec_clockid(d, (unsigned)d->call.args[4]);
}

void dec_get_robust_list(struct dec *d)
{
	uint64_t v;

	if (!d->exiting) {
		strbuf_addf(d->out, "%d, ", (int)d->call.args[0]);
		return;
	}
	if (dec_umove(d, d->call.args[1], &v, sizeof(v))) {
		strbuf_addc(d->out, '[');
		dec_ptr(d, v);
		strbuf_addc(d->out, ']');
	}
	dec_sep(d);
	if (dec_umove(d, d->call.args[2], &v, sizeof(v)))
		strbuf_addf(d->out, "[%llu]", (unsigned long long)v);
}
