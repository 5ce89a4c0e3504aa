/* A call's arguments read by their roles (event/syscalls.def), once per
 * half: the memory roles (paths, data, socket addresses, timeouts, argv)
 * read from the call's memory into d->copy and their facts into the
 * event, before the decoder prints them from the copies. */
#include <string.h>

#include "capture/decode/print.h"
#include "event/facts.h"
#include "event/syscalls.h"
#include "util/util.h"

/* The roles whose decoding is their printing: argument I printed, and
 * its fact put in the event. */
typedef void (*role_print_fn)(struct dec *d, int i);

/* Socket address argument I. */
static void print_sockaddr_arg(struct dec *d, int i)
{
	int len = i + 1 < RC_SC_MAX_ARGS ? (int)d->call.args[i + 1] : 0;

	if (len < 2)
		dec_ptr(d, d->call.args[i]);
	else
		dec_sockaddr(d, d->call.args[i], (size_t)len);
}

/* A timeout, the event's timeout_ms as parse_timeout_ms reads the text
 * (none for NULL or a negative time): a struct timespec, or a timeval
 * for a TIMEOUT_TV role (select). */
static void print_timeout_arg(struct dec *d, int i)
{
	const struct rc_syscall *sc = syscall_by_nr(d->call.nr);
	struct dec_ktime t;
	double sec;

	if (sc && sc->roles[i] == ROLE_TIMEOUT_TV) {
		if (!dec_umove(d, d->call.args[i], &t, sizeof(t)))
			return;
		dec_timeval_val(d, &t);
		sec = (double)t.sec + (double)t.nsec * 1e-6;
	} else if (!dec_timespec(d, d->call.args[i], &sec)) {
		return;
	}
	if (d->e)
		event_timeout_facts(d->e, sec);
}

/* execve's argv, into the event's. */
static void print_argv_arg(struct dec *d, int i)
{
	dec_print_strarray(d, d->call.args[i]);
}

/* Argument I into C as the text FN prints, its fact into the event. */
static void read_text_arg(struct dec *d, int i, role_print_fn fn, struct dec_copy *c)
{
	static struct strbuf text = STRBUF_INIT;	/* the tracer is single-threaded */
	struct strbuf *out = d->out;

	memset(c, 0, sizeof(*c));
	strbuf_reset(&text);
	d->out = &text;
	fn(d, i);
	d->out = out;
	c->s = dec_keep(d, text.buf ? text.buf : "", text.len);
	c->n = text.len;
	/* Out of memory: the decoder reads it again. */
	c->taken = c->s != NULL;
}

static void print_text_arg(struct dec *d, int i, role_print_fn fn)
{
	if (d->copy[i].taken)
		strbuf_add(d->out, d->copy[i].s, d->copy[i].n);
	else
		fn(d, i);
}

void dec_sockaddr_arg(struct dec *d, int i)
{
	print_text_arg(d, i, print_sockaddr_arg);
}

void dec_timeout_arg(struct dec *d, int i)
{
	print_text_arg(d, i, print_timeout_arg);
}

void dec_argv_arg(struct dec *d, int i)
{
	print_text_arg(d, i, print_argv_arg);
}

/* Data argument I of SC, whose length is its LEN role's: all of it when
 * written (DATA_OUT), what the call returned of it when read into
 * (DATA_IN, at exit; nothing when the call failed). */
static void read_data_arg(struct dec *d, const struct rc_syscall *sc, unsigned i)
{
	int li = syscall_arg(sc, ROLE_LEN);
	uint64_t len;

	if (li < 0)
		return;
	len = d->call.args[li];
	if (sc->roles[i] == ROLE_DATA_IN) {
		if (d->call.err)
			return;
		len = MIN((uint64_t)d->call.rval, len);
	}
	dec_read_buf(d, d->call.args[i], (size_t)len, true, &d->copy[i]);
}

/* The roles dec_read_roles reads from the tracee. */
#define MEMORY_ROLES                                                                                   \
	(1ULL << ROLE_PATH | 1ULL << ROLE_PATH2 | 1ULL << ROLE_SOCKADDR | 1ULL << ROLE_TIMEOUT_TS |      \
	 1ULL << ROLE_TIMEOUT_TV | 1ULL << ROLE_ARGV | 1ULL << ROLE_DATA_OUT | 1ULL << ROLE_DATA_IN)

void dec_read_roles(struct dec *d, const struct rc_syscall *sc)
{
	memset(d->copy, 0, sizeof(d->copy));
	/* Most calls (close, mmap, futex...) have none: no second walk. */
	if (!sc || !d->e || !(sc->roleset & MEMORY_ROLES))
		return;
	for (unsigned i = 0; i < sc->nroles && i < RC_SC_MAX_ARGS; i++) {
		if (event_arg_at_exit(sc, i) != d->exiting)
			continue;
		switch (sc->roles[i]) {
		case ROLE_PATH:
			dec_read_path(d, d->call.args[i], &d->copy[i]);
			d->e->path = d->copy[i].s;
			break;
		case ROLE_PATH2:
			dec_read_path(d, d->call.args[i], &d->copy[i]);
			d->e->path2 = d->copy[i].s;
			break;
		case ROLE_SOCKADDR:
			read_text_arg(d, (int)i, print_sockaddr_arg, &d->copy[i]);
			break;
		case ROLE_TIMEOUT_TS:
		case ROLE_TIMEOUT_TV:
			read_text_arg(d, (int)i, print_timeout_arg, &d->copy[i]);
			break;
		case ROLE_ARGV:
			read_text_arg(d, (int)i, print_argv_arg, &d->copy[i]);
			break;
		case ROLE_DATA_OUT:
		case ROLE_DATA_IN:
			read_data_arg(d, sc, i);
			break;
		default:	/* scalars are event/facts.c's; the structs are
				 * read by their decoders, which print them and
				 * hand the values to event/facts.h */
			break;
		}
	}
}
