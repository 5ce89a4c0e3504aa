/* The merged syscall table: the calls event/syscalls.def gives a family,
 * indexed by number, with each family's decoder. Built once, on first
 * use (the tracer is single-threaded). */
#include "capture/decode.h"

#include <stdlib.h>
#include <string.h>

#include "event/facts.h"
#include "event/syscalls.h"
#include "util/util.h"

/* In this order: when two families list a number, the first wins (the
 * unit test checks that none does). */
static const struct {
	const struct dec_entry *calls;
	const size_t *ncalls;
} families[] = {
	{ dec_file_calls, &dec_file_ncalls },
	{ dec_fcntl_calls, &dec_fcntl_ncalls },
	{ dec_ioctl_calls, &dec_ioctl_ncalls },
	{ dec_mount_calls, &dec_mount_ncalls },
	{ dec_io_calls, &dec_io_ncalls },
	{ dec_net_calls, &dec_net_ncalls },
	{ dec_process_calls, &dec_process_ncalls },
	{ dec_memory_calls, &dec_memory_ncalls },
	{ dec_futex_calls, &dec_futex_ncalls },
	{ dec_signal_calls, &dec_signal_ncalls },
	{ dec_misc_calls, &dec_misc_ncalls },
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
	for (long nr = 0; nr < max; nr++) {
		const struct rc_syscall *sc = syscall_by_nr(nr);
		if (!sc || sc->family == RC_FAM_NONE)
			continue;
		struct dec_syscall *r = &table.rows[nr];
		r->nr = nr;
		r->nargs = sc->nargs;
		r->rv = sc->rv;
		r->classes = sc->tclasses;
		table.by_nr[nr] = r;
	}
	for (size_t f = 0; f < ARRAY_SIZE(families); f++) {
		for (size_t i = 0; i < *families[f].ncalls; i++) {
			const struct dec_entry *de = &families[f].calls[i];
			if (de->nr >= 0 && de->nr < max && table.by_nr[de->nr] && !table.rows[de->nr].fn)
				table.rows[de->nr].fn = de->fn;
		}
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
		if (d->args[i])
			strbuf_addf(d->out, "%#llx", (unsigned long long)d->args[i]);
		else
			strbuf_addc(d->out, '0');
	}
}

void dec_call(struct dec *d)
{
	const struct dec_syscall *sc = dec_lookup(d->nr);
	/* What the call means (a decoder's call is always a listed one). */
	const struct rc_syscall *row = sc ? syscall_by_nr(d->nr) : NULL;

	/* The arguments' facts that are their raw values come first: the
	 * decoders print an fd with its -y decoration as the event's fd_hint
	 * when it is the event's fd. */
	if (sc && !d->exiting)
		event_raw_arg_facts(d->e, row, d->args);
	else if (sc)
		event_raw_exit_facts(d->e, row, d->args, d->rval, d->err);
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
		event_call_facts(d->e, row, d->exiting, d->rval, d->err);
}
