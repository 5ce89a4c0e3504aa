/* The merged syscall table: every family's list, indexed by number, and
 * the names from the generated syscall table. Built once, on first use
 * (the tracer is single-threaded). */
#include "capture/decode.h"

#include <stdlib.h>
#include <string.h>

#include "gen/tables.h"
#include "util/util.h"

/* In this order: when two families list a number, the first wins (the
 * unit test checks that none does). */
static const struct {
	const struct dec_syscall *calls;
	const size_t *ncalls;
} families[] = {
	{ dec_file_calls, &dec_file_ncalls },
	{ dec_io_calls, &dec_io_ncalls },
	{ dec_net_calls, &dec_net_ncalls },
	{ dec_process_calls, &dec_process_ncalls },
	{ dec_memory_calls, &dec_memory_ncalls },
	{ dec_futex_calls, &dec_futex_ncalls },
	{ dec_signal_calls, &dec_signal_ncalls },
	{ dec_misc_calls, &dec_misc_ncalls },
};

/* Numbers above this are not syscalls of a native tracee (x32 ones have
 * bit 30 set); a list entry there would only make the table huge. */
#define NR_LIMIT 0x10000

static struct {
	bool built;
	long max;			/* highest number + 1 */
	const struct dec_syscall **by_nr;
	const char **names;
} table;

static void table_build(void)
{
	long max = 0;

	table.built = true;
	for (size_t i = 0; i < rc_xlat_syscall.count; i++)
		if (rc_xlat_syscall.rows[i].value >= max && rc_xlat_syscall.rows[i].value < NR_LIMIT)
			max = (long)rc_xlat_syscall.rows[i].value + 1;
	for (size_t f = 0; f < ARRAY_SIZE(families); f++) {
		for (size_t i = 0; i < *families[f].ncalls; i++)
			if (families[f].calls[i].nr >= max && families[f].calls[i].nr < NR_LIMIT)
				max = families[f].calls[i].nr + 1;
	}
	/* Out of memory here leaves an empty table: every call is then
	 * printed generically and unnamed, which is still a trace. */
	table.by_nr = calloc((size_t)max, sizeof(*table.by_nr));
	table.names = calloc((size_t)max, sizeof(*table.names));
	if (!table.by_nr || !table.names) {
		free(table.by_nr);
		free(table.names);
		table.by_nr = NULL;
		table.names = NULL;
		return;
	}
	table.max = max;
	/* A number's name: one that is not an alias, else any. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < rc_xlat_syscall.count; i++) {
			const struct rc_xlat_entry *r = &rc_xlat_syscall.rows[i];
			if (r->value >= 0 && r->value < max && !table.names[r->value] && (pass || !r->alias))
				table.names[r->value] = r->name;
		}
	for (size_t f = 0; f < ARRAY_SIZE(families); f++) {
		for (size_t i = 0; i < *families[f].ncalls; i++) {
			const struct dec_syscall *sc = &families[f].calls[i];
			if (sc->nr >= 0 && sc->nr < max && !table.by_nr[sc->nr])
				table.by_nr[sc->nr] = sc;
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
	table_init();
	if (nr < 0 || nr >= table.max)
		return NULL;
	return table.names[nr];
}

long dec_syscall_nr(const char *name, size_t len)
{
	long long v;

	if (!xlat_value(&rc_xlat_syscall, name, len, &v))
		return -1;
	return (long)v;
}

long dec_nr_max(void)
{
	table_init();
	return table.max;
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

	if (sc && sc->fn) {
		sc->fn(d);
		return;
	}
	/* Generic arguments are all printed at entry. */
	if (!d->exiting)
		print_generic(d, sc ? sc->nargs : 6);
}
