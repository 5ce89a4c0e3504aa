/* A module's symbols by address: a pc named without libdwfl's look-up at
 * every new pc.
 *
 * dwfl_module_addrinfo reads the module's whole symbol table each time it
 * is asked (libtorch_cpu's 35,000 symbols: a quarter of a millisecond),
 * and a PyTorch program's stacks bring new pcs in it by the thousand.
 * libdwfl still gives every answer here. Its choice of a symbol for an
 * address depends on the address only through comparisons with the
 * symbols' starts and ends and the sections' bounds, so between two
 * such points (and at each start) the answer is one: the index asks
 * libdwfl once per piece of the module those points cut, and keeps the
 * answer. tests/unit/test_unwind.c checks it against libdwfl at every
 * symbol of real libraries. */
#ifndef RC_CRASH_SYMINDEX_H
#define RC_CRASH_SYMINDEX_H

#include <stdint.h>

#include <elfutils/libdwfl.h>

struct crash_symindex;

/* MOD's index, or NULL when it has too few symbols for one to pay
 * (libdwfl's own look-up is quick then) or they cannot be read. */
struct crash_symindex *crash_symindex_new(Dwfl_Module *mod);
/* What dwfl_module_addrinfo(MOD, ADDR, OFF, ...) says: the symbol's
 * name (libdwfl's string), or NULL; *OFF the distance from its start. */
const char *crash_symindex_name(struct crash_symindex *x, Dwfl_Module *mod, uint64_t addr, GElf_Off *off);
void crash_symindex_free(struct crash_symindex *x);

#endif
