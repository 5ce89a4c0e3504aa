/* A module's symbols by address: a pc named without libdwfl's look-up at
 * every new pc.
 *
 * dwfl_module_addrinfo reads the module's whole symbol table each time it
 * is asked (libtorch_cpu's 35,000 symbols: 2 ms), and a PyTorch program's
 * stacks bring new pcs in it by the thousand. The index holds the symbols
 * libdwfl would consider, by address, and repeats its choice among them
 * (symindex.c says how); the few addresses it cannot tell (many symbols
 * holding one, a global label at the address itself) are left to
 * libdwfl. tests/unit/test_unwind.c checks it against libdwfl around
 * every sampled symbol of real libraries. */
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
