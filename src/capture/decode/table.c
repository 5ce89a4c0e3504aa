/* The tracer's syscall table: the calls of event/syscalls.def this
 * architecture numbers, indexed by number, each with the decoder its row
 * names. Built once, on first use (the tracer is single-threaded). */
#include "capture/decode.h"

#include <stdlib.h>
#include <string.h>

#include "capture/decode/decoders.h"
#include "event/facts.h"
#include "event/syscalls.h"
#include "util/util.h"

/* NONE, a call printed generically, has no decoder. */
#define dec_NONE NULL

/* Each row's decoder, in the order of the rows, as syscall_at() gives
 * them. */
static const dec_fn decoders[] = {
#define SC(name, decoder, ...) dec_##decoder,
#include "event/syscalls.def"
#undef SC
};

static struct {
	bool built;
	long max;			/* highest number + 1 */
	struct dec_syscall *rows;	/* by number; fn and nargs 0 when unlisted */
	const struct dec_syscall **by_nr;
} table;

static void table_build(void)
{
	long max = syscall_nr_max();

	table.built = true;
	/* Out of memory here leaves an empty table: every call is then
	 * printed generically and unnamed, which is still a trace. */
	table.rows = calloc((size_t)max + 1, sizeof(*table.rows));
	table.by_nr = calloc((size_t)max + 1, sizeof(*table.by_nr));
	if (!table.rows || !table.by_nr) {
		free(table.rows);
		free(table.by_nr);
		table.rows = NULL;
		table.by_nr = NULL;
		return;
	}
	table.max = max;
	for (size_t i = 0; i < syscall_count() && i < ARRAY_SIZE(decoders); i++) {
		const struct rc_syscall *sc = syscall_at(i);
		/* A number's row is the first that has it, as for
		 * syscall_by_nr(). */
		if (sc->nr < 0 || sc->nr >= max || syscall_by_nr(sc->nr) != sc)
			continue;
		struct dec_syscall *r = &table.rows[sc->nr];
		r->nr = sc->nr;
		r->fn = decoders[i];
		r->nargs = sc->nargs;
		r->rv = sc->rv;
		r->classes = sc->tclasses;
		table.by_nr[sc->nr] = r;
	}
}

static inline void table_init(void)
{
	if (!table.built)
		table_build();
}

const struct dec_syscall *dec_lookup(long nr)
{
	table_init();
	if (nr < 0 || nr >= table.max)
		return NULL;
	return table.by_nr[nr];
}

const char *dec_syscall_name(long nr)
{
	return syscall_name(nr);
}

long dec_syscall_nr(const char *name, size_t len)
{
	const struct rc_syscall *sc = syscall_by_name(name, len);

	return sc ? sc->nr : -1;
}

long dec_nr_max(void)
{
	return syscall_nr_max();
}

/* strace's printargs: every argument in hex ("0" for zero). */
static void print_generic(struct dec *d, unsigned nargs)
{
	for (unsigned i = 0; i < nargs && i < 6; i++) {
		if (i)
			dec_sep(d);
		if (d->call.args[i])
			strbuf_addf(d->out, "%#llx", (unsigned long long)d->call.args[i]);
		else
			strbuf_addc(d->out, '0');
	}
}

void dec_call(struct dec *d)
{
	const struct dec_syscall *sc = dec_lookup(d->call.nr);
	/* What the call means (a decoder's call is always a listed one). */
	const struct rc_syscall *row = sc ? syscall_by_nr(d->call.nr) : NULL;

	/* The arguments' facts that are their raw values come first: the
	 * decoders print an fd with its -y decoration, which says the event's
	 * fd_shown when it is the event's fd. */
	if (sc && !d->exiting)
		event_raw_arg_facts(d->e, row, d->call.args);
	else if (sc)
		event_raw_exit_facts(d->e, row, d->call.args, d->call.rval, d->call.err);
	/* The memory roles, read once for the decoder to print: a call
	 * printed generically shows only addresses, and has no such facts. */
	if (sc && sc->fn) {
		dec_read_roles(d, row);
		sc->fn(d);
	}
	else if (!d->exiting)	/* generic arguments are all printed at entry */
		print_generic(d, sc ? sc->nargs : 6);
	/* The facts that follow from the call's meaning, as for every
	 * source: at entry those of its arguments (a call may never return),
	 * at exit those of its outcome. */
	if (sc)
		event_call_facts(d->e, row, d->exiting, d->call.rval, d->call.err);
}
