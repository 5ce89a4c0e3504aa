/* A module's symbols by address (see symindex.h). */
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>

#include <gelf.h>

#include "crash/symindex.h"
#include "util/util.h"

/* Below this many symbols libdwfl's scan costs less than sorting them. */
#define SYMINDEX_MIN_SYMBOLS 1024
/* Symbols that hold one address, at most, and symbols below it looked
 * at for them, before libdwfl is asked instead (aliases are a few; one
 * symbol inside another is rare). */
#define SYMINDEX_MAX_HOLDERS 16
#define SYMINDEX_MAX_SCAN 256

/* A symbol libdwfl would name an address by. */
struct entry {
	uint64_t value, size;	/* size 0: a label */
	const char *name;
	int index;		/* in libdwfl's numbering: its order of search */
	int bind;		/* libdwfl's preference: global 3, weak 2, local 1 */
	GElf_Word shndx;
};

struct crash_symindex {
	struct entry *e;	/* by value, then index */
	uint64_t *reach;	/* reach[k]: the highest end of e[0..k] */
	size_t n;
	int first_global;	/* libdwfl's: its first pass is from here */
};

/*
 * How libdwfl (0.188, libdwfl/dwfl_module_addrsym.c) names an address,
 * which the index repeats: it searches the global symbols (from
 * first_global on) and, when none with a size holds the address, the
 * local ones before them. A symbol counts if it has a name, a section,
 * is no section, file or TLS symbol and starts at or below the address.
 *
 * In each pass, in the table's order, a symbol with a size that holds
 * the address replaces the one kept when it starts higher or binds more
 * strongly, or starts at the same place and is smaller without binding
 * less strongly, or is no larger and binds more strongly.
 *
 * When none holds it, a label (a symbol without a size) may name it:
 * only one at the highest end M of all the symbols that count (no
 * symbol reaches past it), in the section the address is in (an
 * absolute one only at the address itself); of those the last libdwfl
 * meets, since one met after it below M no longer qualifies.
 *
 * A global label at the address itself stops the second pass, and
 * addresses held by many symbols are left to libdwfl (the unwinder keeps
 * each pc's answer).
 */

static int bind_value(const GElf_Sym *sym)
{
	switch (GELF_ST_BIND(sym->st_info)) {
	case STB_GLOBAL:
		return 3;
	case STB_WEAK:
		return 2;
	case STB_LOCAL:
		return 1;
	default:
		return 0;
	}
}

static bool counts(const char *name, const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);

	return name && name[0] && sym->st_shndx != SHN_UNDEF && type != STT_SECTION && type != STT_FILE &&
	       type != STT_TLS;
}

/* Whether B replaces A, the one kept so far in a pass. */
static bool better(const struct entry *a, const struct entry *b)
{
	if (a->value < b->value || a->bind < b->bind)
		return true;
	return a->value == b->value &&
	       ((a->size > b->size && a->bind <= b->bind) || (a->size >= b->size && a->bind < b->bind));
}

static int by_value(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

struct crash_symindex *crash_symindex_new(Dwfl_Module *mod)
{
	int nsym = dwfl_module_getsymtab(mod);
	int first_global = dwfl_module_getsymtab_first_global(mod);

	if (nsym < SYMINDEX_MIN_SYMBOLS || first_global < 0)
		return NULL;
	struct crash_symindex *x = xcalloc(1, sizeof(*x));
	x->first_global = first_global;
	x->e = xmalloc((size_t)nsym * sizeof(*x->e));
	for (int i = 1; i < nsym; i++) {
		GElf_Sym sym, adjusted;
		GElf_Addr addr;
		GElf_Word shndx;
		const char *name = dwfl_module_getsym_info(mod, i, &sym, &addr, &shndx, NULL, NULL);
		if (!name)
			continue;
		/* A value resolved through a function descriptor (ppc64's
		 * .opd) is matched twice by libdwfl: not repeated here. */
		if (dwfl_module_getsym(mod, i, &adjusted, NULL) && adjusted.st_value != addr) {
			crash_symindex_free(x);
			return NULL;
		}
		if (counts(name, &sym))
			x->e[x->n++] = (struct entry){ addr, sym.st_size, name, i, bind_value(&sym), shndx };
	}
	qsort(x->e, x->n, sizeof(*x->e), by_value);
	x->reach = xmalloc((x->n + 1) * sizeof(*x->reach));
	for (size_t k = 0; k < x->n; k++) {
		uint64_t end = x->e[k].value + x->e[k].size;
		x->reach[k] = k && x->reach[k - 1] > end ? x->reach[k - 1] : end;
	}
	return x;
}

/* The first entry of X whose value is at or above A (X->n: none). */
static size_t first_from(const struct crash_symindex *x, uint64_t a)
{
	size_t lo = 0, hi = x->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (x->e[mid].value < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The section ADDR is in, as libdwfl tells a label's (NULL: none). */
static Elf_Scn *section_of(Dwfl_Module *mod, uint64_t addr)
{
	Dwarf_Addr a = addr, bias;

	return dwfl_module_address_section(mod, &a, &bias);
}

/* libdwfl's pick for ADDR (the comment above): NULL for none, or when
 * the index cannot tell (*ASK then). */
static const struct entry *pick(const struct crash_symindex *x, Dwfl_Module *mod, uint64_t addr, bool *ask)
{
	const struct entry *holders[SYMINDEX_MAX_HOLDERS];
	size_t n = 0;
	int first_pass = x->first_global == 0 ? 1 : x->first_global;

	/* Those that count: e[0..below). Down from the last while an
	 * earlier one may still reach ADDR. */
	size_t below = first_from(x, addr + 1);
	if (addr == UINT64_MAX)
		below = x->n;
	for (size_t k = below, scanned = 0; k-- > 0 && x->reach[k] > addr; scanned++) {
		const struct entry *s = &x->e[k];
		if (scanned == SYMINDEX_MAX_SCAN) {
			*ask = true;
			return NULL;
		}
		if (!s->size || addr - s->value >= s->size)
			continue;
		if (n == SYMINDEX_MAX_HOLDERS) {
			*ask = true;
			return NULL;
		}
		/* In the table's order, as libdwfl meets them. */
		size_t j = n++;
		while (j && holders[j - 1]->index > s->index) {
			holders[j] = holders[j - 1];
			j--;
		}
		holders[j] = s;
	}
	for (size_t k = first_from(x, addr); k < below; k++)
		if (!x->e[k].size && x->e[k].index >= first_pass) {
			*ask = true;	/* a global label at ADDR itself */
			return NULL;
		}

	const struct entry *best = NULL;
	for (size_t i = 0; i < n; i++)
		if (holders[i]->index >= first_pass && (!best || better(best, holders[i])))
			best = holders[i];
	if (best)
		return best;
	if (x->first_global > 1)
		for (size_t i = 0; i < n; i++)
			if (holders[i]->index < first_pass && (!best || better(best, holders[i])))
				best = holders[i];
	if (best || !below)
		return best;

	/* No symbol holds it: a label at M, the highest end below it. */
	uint64_t m = x->reach[below - 1];
	Elf_Scn *scn = NULL;
	bool scn_known = false;
	int best_order = -1;
	for (size_t k = first_from(x, m); k < below && x->e[k].value == m; k++) {
		const struct entry *s = &x->e[k];
		if (s->size)
			continue;
		if (s->shndx >= SHN_LORESERVE) {
			if (m != addr)
				continue;
		} else {
			if (!scn_known) {
				scn = section_of(mod, addr);
				scn_known = true;
			}
			if (section_of(mod, m) != scn)
				continue;
		}
		/* The second pass's come after all of the first's. */
		int order = s->index >= first_pass ? s->index : s->index + INT_MAX / 2;
		if (order > best_order) {
			best_order = order;
			best = s;
		}
	}
	return best;
}

const char *crash_symindex_name(struct crash_symindex *x, Dwfl_Module *mod, uint64_t addr, GElf_Off *off)
{
	bool ask = false;
	const struct entry *s = pick(x, mod, addr, &ask);

	if (ask) {
		GElf_Sym sym;
		*off = 0;
		return dwfl_module_addrinfo(mod, addr, off, &sym, NULL, NULL, NULL);
	}
	*off = s ? addr - s->value : 0;
	return s ? s->name : NULL;
}

void crash_symindex_free(struct crash_symindex *x)
{
	if (!x)
		return;
	free(x->e);
	free(x->reach);
	free(x);
}
