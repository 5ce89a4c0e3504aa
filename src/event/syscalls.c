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
	case ROLE_RLIMIT_OLD:
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

/* Calls of other architectures (logs from armv7, i386, arm64,
 * ppc64le...) each with this architecture's call that means the same,
 * with the same arguments where a rule reads them: their 64-bit file
 * offsets and sizes (stat64, _llseek, mmap2 in pages), their 64-bit
 * times (*_time64), their 32-bit ids (getuid32), old names (ugetrlimit,
 * sigreturn, waitpid). A name not listed in syscalls.def gets the row
 * of the call it means. */
static const struct family {
	const char *name, *as;
} families[] = {
	{ "stat64", "stat" }, { "lstat64", "lstat" }, { "oldstat", "stat" }, { "oldlstat", "lstat" },
	{ "fstatat64", "newfstatat" }, { "fstat64", "fstat" }, { "oldfstat", "fstat" },
	{ "truncate64", "truncate" }, { "ftruncate64", "ftruncate" }, { "statfs64", "statfs" },
	{ "fstatfs64", "fstatfs" }, { "fcntl64", "fcntl" }, { "_llseek", "lseek" }, { "sendfile64", "sendfile" },
	{ "mmap2", "mmap" }, { "futex_time64", "futex" }, { "recvmmsg_time64", "recvmmsg" },
	{ "ppoll_time64", "ppoll" }, { "_newselect", "select" }, { "pselect6_time64", "pselect6" },
	{ "clone2", "clone" }, { "send", "sendto" }, { "recv", "recvfrom" },
	{ "clock_gettime64", "clock_gettime" }, { "clock_settime64", "clock_settime" },
	{ "clock_adjtime64", "clock_adjtime" }, { "clock_getres_time64", "clock_getres" },
	{ "clock_nanosleep_time64", "clock_nanosleep" }, { "timer_gettime64", "timer_gettime" },
	{ "timer_settime64", "timer_settime" }, { "timerfd_gettime64", "timerfd_gettime" },
	{ "timerfd_settime64", "timerfd_settime" }, { "utimensat_time64", "utimensat" },
	{ "io_pgetevents_time64", "io_pgetevents" }, { "mq_timedsend_time64", "mq_timedsend" },
	{ "mq_timedreceive_time64", "mq_timedreceive" }, { "semtimedop_time64", "semtimedop" },
	{ "rt_sigtimedwait_time64", "rt_sigtimedwait" }, { "sched_rr_get_interval_time64", "sched_rr_get_interval" },
	{ "getuid32", "getuid" }, { "geteuid32", "geteuid" }, { "getgid32", "getgid" }, { "getegid32", "getegid" },
	{ "setuid32", "setuid" }, { "setgid32", "setgid" }, { "setreuid32", "setreuid" },
	{ "setregid32", "setregid" }, { "setresuid32", "setresuid" }, { "setresgid32", "setresgid" },
	{ "getresuid32", "getresuid" }, { "getresgid32", "getresgid" }, { "getgroups32", "getgroups" },
	{ "setgroups32", "setgroups" }, { "setfsuid32", "setfsuid" }, { "setfsgid32", "setfsgid" },
	{ "chown32", "chown" }, { "lchown32", "lchown" }, { "fchown32", "fchown" },
	{ "ugetrlimit", "getrlimit" }, { "sigreturn", "rt_sigreturn" }, { "waitpid", "wait4" },
	{ "fadvise64_64", "fadvise64" }, { "sync_file_range2", "sync_file_range" },
	{ "arm_fadvise64_64", "fadvise64" }, { "arm_sync_file_range", "sync_file_range" },
	/* The signal calls before rt_ (i386, armv7, ppc, s390): the signal
	 * first, as rt_'s. */
	{ "sigaction", "rt_sigaction" }, { "signal", "rt_sigaction" }, { "sigprocmask", "rt_sigprocmask" },
	{ "sgetmask", "rt_sigprocmask" }, { "ssetmask", "rt_sigprocmask" }, { "sigpending", "rt_sigpending" },
	{ "sigsuspend", "rt_sigsuspend" },
	{ "umount", "umount2" }, { "readdir", "getdents" }, { "olduname", "uname" }, { "oldolduname", "uname" },
	{ "stime", "settimeofday" },
};

/* Calls newer than the headers here (Linux 6.1), numbered as every
 * architecture numbers them since 5.1 (one table for the new calls):
 * what a newer kernel's calls are when this build traces it, and a
 * newer machine's log names. Only those syscalls.def lists. */
static const struct newer {
	const char *name;
	long nr;
} newer[] = {
	{ "cachestat", 451 }, { "fchmodat2", 452 }, { "map_shadow_stack", 453 }, { "futex_wake", 454 },
	{ "futex_wait", 455 }, { "futex_requeue", 456 }, { "statmount", 457 }, { "listmount", 458 },
	{ "lsm_get_self_attr", 459 }, { "lsm_set_self_attr", 460 }, { "lsm_list_modules", 461 },
	{ "mseal", 462 }, { "setxattrat", 463 }, { "getxattrat", 464 }, { "listxattrat", 465 },
	{ "removexattrat", 466 }, { "open_tree_attr", 467 }, { "file_getattr", 468 }, { "file_setattr", 469 },
};

static void build(void)
{
	size_t want = ARRAY_SIZE(listed) + rc_xlat_syscall.count + ARRAY_SIZE(families);
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
	for (size_t i = 0; i < ARRAY_SIZE(newer); i++) {
		struct rc_syscall *r = find(newer[i].name, strlen(newer[i].name));
		if (r && r->nr < 0) {
			r->nr = newer[i].nr;
			max = MAX(max, newer[i].nr + 1);
		}
	}
	/* After the numbers: a family's call has its number (and a call
	 * the headers number, native here, is its own). */
	for (size_t i = 0; i < ARRAY_SIZE(families); i++) {
		const struct family *f = &families[i];
		const struct rc_syscall *as = find(f->as, strlen(f->as));
		struct rc_syscall *r = find(f->name, strlen(f->name));
		if (!as || as->nr < 0 || as->as || (r && r->nr >= 0))
			continue;
		if (!r) {
			struct rc_syscall row = *as;
			row.name = f->name;
			row.len = strlen(f->name);
			put(&row);
			r = &T.rows[T.nrows - 1];
		}
		r->nr = as->nr;
		r->as = as->name;
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
	for (size_t i = 0; i < ARRAY_SIZE(newer); i++) {
		const struct rc_syscall *n = find(newer[i].name, strlen(newer[i].name));
		if (n && n->nr == newer[i].nr && !T.names[n->nr])
			T.names[n->nr] = n->name;
	}
	unsigned long long *classes = xcalloc((size_t)max + 1, sizeof(*classes));
	for (size_t i = 0; i < ARRAY_SIZE(listed); i++) {
		const struct rc_syscall *r = find(listed[i].name, listed[i].len);
		if (r->nr >= 0 && r->nr < max && !r->as && !T.by_nr[r->nr]) {
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
