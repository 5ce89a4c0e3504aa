/* The syscall table (event/syscalls.def), with numbers from the headers,
 * indexed by number and by name. */
#include "event/syscalls.h"

#include <string.h>

#include "gen/tables.h"
#include "util/util.h"

_Static_assert(ROLE_COUNT <= 64, "a role set is a 64-bit mask");

/* The number, nroles and roleset are filled in when the table is built.
 * The decoder column is left out: it is the tracer's, which expands the
 * file too. */
static const struct rc_syscall listed[] = {
#define SC(name_, decoder, nargs_, rv_, tc, cl, r0, r1, r2, r3, r4, r5)                  \
	{ .name = name_,                                                                 \
	  .len = sizeof(name_) - 1,                                                      \
	  .nr = -1,                                                                      \
	  .nargs = nargs_,                                                               \
	  .rv = RC_RV_##rv_,                                                             \
	  .tclasses = tc,                                                                \
	  .classes = cl,                                                                 \
	  .roles = { ROLE_##r0, ROLE_##r1, ROLE_##r2, ROLE_##r3, ROLE_##r4, ROLE_##r5 } },
#include "event/syscalls.def"
#undef SC
};

/* Numbers above this are not syscalls of a native tracee (x32 ones have
 * bit 30 set); an index that high would only make the table huge. */
#define NR_LIMIT 0x10000

struct rc_syscall_index rc_syscall_index;

static struct {
	bool built;
	/* The listed calls, then every other name the headers number. */
	struct rc_syscall *rows;
	size_t nrows;
	/* Name -> row, open addressing: index + 1 into rows, 0 empty. */
	unsigned *slots;
	size_t mask;
	/* Number -> listed row (NULL: not listed), and its name. */
	const struct rc_syscall **by_nr;
	const char **names;
	long max;
} T;

static unsigned long long name_hash(const char *s, size_t n)
{
	unsigned long long h = 1469598103934665603ULL;

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

static struct rc_syscall *find(const char *name, size_t len)
{
	size_t i = name_hash(name, len) & T.mask;

	while (T.slots[i]) {
		struct rc_syscall *r = &T.rows[T.slots[i] - 1];
		if (r->len == len && memcmp(r->name, name, len) == 0)
			return r;
		i = (i + 1) & T.mask;
	}
	return NULL;
}

/* The roles of what the kernel writes into the caller's memory. */
static bool role_is_out(unsigned char role)
{
	switch (role) {
	case ROLE_DATA_IN:
	case ROLE_IOV_IN:
	case ROLE_STAT_BUF:
	case ROLE_STATX_BUF:
	case ROLE_MSGHDR_IN:
	case ROLE_MMSGHDR_IN:
	case ROLE_SOCKADDR_OUT:
	case ROLE_FD_PAIR:
	case ROLE_EPOLL_EVENTS:
	case ROLE_GROUPS_IN:
	case ROLE_WSTATUS:
		return true;
	default:
		return false;
	}
}

static void put(const struct rc_syscall *row)
{
	size_t i = name_hash(row->name, row->len) & T.mask;
	struct rc_syscall *r = &T.rows[T.nrows];

	while (T.slots[i])
		i = (i + 1) & T.mask;
	*r = *row;
	r->exit_from = RC_SC_MAX_ARGS;
	for (unsigned a = 0; a < RC_SC_MAX_ARGS; a++)
		if (r->roles[a] != ROLE_NONE) {
			r->nroles = (unsigned char)(a + 1);
			r->roleset |= 1ULL << r->roles[a];
			if (a < r->exit_from && role_is_out(r->roles[a]))
				r->exit_from = (unsigned char)a;
		}
	T.slots[i] = (unsigned)++T.nrows;
}

static void build(void)
{
	size_t want = ARRAY_SIZE(listed) + rc_xlat_syscall.count;
	size_t size = 64;
	long max = 0;

	T.built = true;
	while (size < want * 3)
		size *= 2;
	T.rows = xcalloc(want, sizeof(*T.rows));
	T.slots = xcalloc(size, sizeof(*T.slots));
	T.mask = size - 1;
	for (size_t i = 0; i < ARRAY_SIZE(listed); i++)
		if (!find(listed[i].name, listed[i].len))
			put(&listed[i]);
	/* Numbers by name; a name the table does not list gets a row of its
	 * own, so that every call a log names has its number. */
	for (size_t i = 0; i < rc_xlat_syscall.count; i++) {
		const struct rc_xlat_entry *x = &rc_xlat_syscall.rows[i];
		size_t len = strlen(x->name);
		struct rc_syscall *r = find(x->name, len);
		if (!r) {
			struct rc_syscall row = { .name = x->name, .len = len, .nr = -1 };
			put(&row);
			r = &T.rows[T.nrows - 1];
		}
		r->nr = (long)x->value;
		if (x->value >= max && x->value < NR_LIMIT)
			max = (long)x->value + 1;
	}
	T.max = max;
	T.by_nr = xcalloc((size_t)max + 1, sizeof(*T.by_nr));
	T.names = xcalloc((size_t)max + 1, sizeof(*T.names));
	/* A number's name: one that is not an alias, else any. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < rc_xlat_syscall.count; i++) {
			const struct rc_xlat_entry *r = &rc_xlat_syscall.rows[i];
			if (r->value >= 0 && r->value < max && !T.names[r->value] && (pass || !r->alias))
				T.names[r->value] = r->name;
		}
	unsigned long long *classes = xcalloc((size_t)max + 1, sizeof(*classes));
	for (size_t i = 0; i < ARRAY_SIZE(listed); i++) {
		const struct rc_syscall *r = find(listed[i].name, listed[i].len);
		if (r->nr >= 0 && r->nr < max && !T.by_nr[r->nr]) {
			T.by_nr[r->nr] = r;
			classes[r->nr] = r->classes;
		}
	}
	rc_syscall_index.classes = classes;
	rc_syscall_index.max = max;
	rc_syscall_index.built = true;
}

static inline void init(void)
{
	if (!T.built)
		build();
}

void syscall_table_init(void)
{
	init();
}

const struct rc_syscall *syscall_by_nr(long nr)
{
	init();
	if (nr < 0 || nr >= T.max)
		return NULL;
	return T.by_nr[nr];
}

const struct rc_syscall *syscall_by_name(const char *name, size_t len)
{
	init();
	return find(name, len);
}

const char *syscall_name(long nr)
{
	init();
	if (nr < 0 || nr >= T.max)
		return NULL;
	return T.names[nr];
}

long syscall_nr_max(void)
{
	init();
	return T.max;
}


int syscall_arg(const struct rc_syscall *sc, enum rc_sc_role role)
{
	for (int i = 0; i < RC_SC_MAX_ARGS; i++)
		if (sc->roles[i] == role)
			return i;
	return -1;
}

size_t syscall_count(void)
{
	init();
	return ARRAY_SIZE(listed);
}

const struct rc_syscall *syscall_at(size_t i)
{
	init();
	return i < ARRAY_SIZE(listed) ? find(listed[i].name, listed[i].len) : NULL;
}
