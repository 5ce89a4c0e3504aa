#include "util/xlat.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gen/tables.h"
#include "util/util.h"

/* NAME is LEN bytes of untrusted text and may hold NULs: compare bytes,
 * then lengths, never reading past either string. The order is strcmp's,
 * which the generator sorted by. */
static int cmp_name(const char *name, size_t len, const char *row, size_t rl)
{
	int c = memcmp(name, row, len < rl ? len : rl);
	if (c != 0)
		return c;
	return (len > rl) - (len < rl);
}

/* A hash index of a table's names (its by_name rows), built on its first
 * look-up: names are looked up on nearly every line of a log (errnos,
 * flags, futex ops), and a bisection costs a comparison per halving.
 * Tables are few and constant, so the indexes live as long as the
 * program. A table whose names are not strictly sorted (or repeat) gets
 * none and keeps being bisected: an index must find exactly the row the
 * bisection finds. */
struct name_index {
	const struct rc_xlat *x;
	unsigned *slots;	/* row + 1; 0 empty */
	size_t mask;
	bool usable;
};

#define INDEX_TABLES 256
static struct name_index indexes[INDEX_TABLES];

/* Indexes are built under this lock, and an index is seen by the other
 * threads (a log's parser runs beside the rules, event/pump.h) only once
 * its table pointer is stored, last, with release order. */
static pthread_mutex_t index_lock = PTHREAD_MUTEX_INITIALIZER;

static void index_build(struct name_index *ix, const struct rc_xlat *x)
{
	const struct rc_xlat_entry *rows = x->by_name;

	ix->usable = false;
	for (size_t i = 1; i < x->count; i++)
		if (cmp_name(rows[i - 1].name, rows[i - 1].len, rows[i].name, rows[i].len) >= 0)
			goto publish;
	size_t size = 16;
	while (size < x->count * 2)
		size *= 2;
	ix->slots = calloc(size, sizeof(*ix->slots));
	if (!ix->slots)
		goto publish;
	ix->mask = size - 1;
	for (size_t i = 0; i < x->count; i++) {
		size_t j = hash_bytes(rows[i].name, rows[i].len) & ix->mask;
		while (ix->slots[j])
			j = (j + 1) & ix->mask;
		ix->slots[j] = (unsigned)i + 1;
	}
	ix->usable = true;
publish:
	__atomic_store_n(&ix->x, x, __ATOMIC_RELEASE);
}

/* X's index, or NULL (none can be made, or the cache of them is full).
 * LOCKED: the caller holds index_lock, so an empty slot is X's to build. */
static const struct name_index *index_find(const struct rc_xlat *x, bool locked)
{
	size_t h = (size_t)(((uintptr_t)x >> 4) * 2654435761u) & (INDEX_TABLES - 1);

	for (size_t n = 0; n < INDEX_TABLES; n++, h = (h + 1) & (INDEX_TABLES - 1)) {
		struct name_index *ix = &indexes[h];
		const struct rc_xlat *at = __atomic_load_n(&ix->x, __ATOMIC_ACQUIRE);
		if (at == x)
			return ix->usable ? ix : NULL;
		if (!at) {
			if (!locked) {
				pthread_mutex_lock(&index_lock);
				const struct name_index *r = index_find(x, true);
				pthread_mutex_unlock(&index_lock);
				return r;
			}
			index_build(ix, x);
			return ix->usable ? ix : NULL;
		}
	}
	return NULL;
}

static const struct name_index *index_of(const struct rc_xlat *x)
{
	return index_find(x, false);
}

bool xlat_value(const struct rc_xlat *x, const char *name, size_t len, long long *value)
{
	const struct name_index *ix = x->count > 8 ? index_of(x) : NULL;

	if (ix) {
		for (size_t j = hash_bytes(name, len) & ix->mask; ix->slots[j]; j = (j + 1) & ix->mask) {
			const struct rc_xlat_entry *r = &x->by_name[ix->slots[j] - 1];
			if (r->len == len && memcmp(r->name, name, len) == 0) {
				*value = r->value;
				return true;
			}
		}
		return false;
	}

	size_t lo = 0, hi = x->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_name(name, len, x->by_name[mid].name, x->by_name[mid].len);
		if (c == 0) {
			*value = x->by_name[mid].value;
			return true;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

const char *xlat_name(const struct rc_xlat *x, long long value)
{
	for (size_t i = 0; i < x->count; i++)
		if (x->rows[i].value == value && !x->rows[i].alias)
			return x->rows[i].name;
	return NULL;
}

void xlat_print_flags2(struct strbuf *out, const struct rc_xlat *x, const struct rc_xlat *more,
		       unsigned long long v, const char *dflt)
{
	const struct rc_xlat *tables[] = { x, more };
	unsigned found = 0;

	/* strace's printflags_ex: a zero value can only match the first
	 * row (the walk stops as soon as nothing is left). */
	for (size_t t = 0; t < ARRAY_SIZE(tables) && tables[t]; t++) {
		const struct rc_xlat *tx = tables[t];
		for (size_t i = 0; i < tx->count; i++) {
			unsigned long long xv = (unsigned long long)tx->rows[i].value;
			if (v == xv || (xv && (v & xv) == xv)) {
				if (found++)
					strbuf_addc(out, '|');
				strbuf_add(out, tx->rows[i].name, tx->rows[i].len);
				v &= ~xv;
			}
			if (!v)
				goto walked;
		}
	}
walked:
	if (found) {
		if (v)
			strbuf_addf(out, "|%#llx", v);
	} else if (v) {
		strbuf_addf(out, "%#llx", v);
		if (dflt)
			strbuf_addf(out, " /* %s */", dflt);
	} else if (dflt) {
		strbuf_addc(out, '0');
	}
}

void xlat_print_flags(struct strbuf *out, const struct rc_xlat *x, unsigned long long v, const char *dflt)
{
	xlat_print_flags2(out, x, NULL, v, dflt);
}

bool xlat_print_val(struct strbuf *out, const struct rc_xlat *x, unsigned long long v, const char *dflt)
{
	const char *name = xlat_name(x, (long long)v);

	if (name) {
		strbuf_adds(out, name);
		return true;
	}
	strbuf_addf(out, "%#llx", v);
	if (dflt)
		strbuf_addf(out, " /* %s */", dflt);
	return false;
}

long long xlat_flags(const struct rc_xlat *x, const char *s, size_t len, bool *unknown)
{
	long long sum = 0;
	size_t i = 0;

	while (i < len) {
		const char *bar = memchr(s + i, '|', len - i);
		size_t j = bar ? (size_t)(bar - s) : len;
		const char *tok = s + i;
		size_t tlen = j - i;
		while (tlen && (*tok == ' ')) {
			tok++;
			tlen--;
		}
		while (tlen && tok[tlen - 1] == ' ')
			tlen--;
		long long v;
		if (tlen && tok[0] >= '0' && tok[0] <= '9') {
			char buf[32];
			if (tlen < sizeof(buf)) {
				memcpy(buf, tok, tlen);
				buf[tlen] = '\0';
				sum |= strtoll(buf, NULL, 0);
			}
		} else if (tlen && xlat_value(x, tok, tlen, &v)) {
			sum |= v;
		} else if (tlen && unknown) {
			*unknown = true;
		}
		i = j + 1;
	}
	return sum;
}

/* From the kernel's include/linux/errno.h: these never reach userspace as
 * errno values, so no installed header has them, but strace names them. */
static const struct {
	const char *name;
	int value;
} kernel_errnos[] = {
	{ "ERESTARTSYS", 512 },
	{ "ERESTARTNOINTR", 513 },
	{ "ERESTARTNOHAND", 514 },
	{ "ENOIOCTLCMD", 515 },
	{ "ERESTART_RESTARTBLOCK", 516 },
	{ "EPROBE_DEFER", 517 },
	{ "EOPENSTALE", 518 },
	{ "ENOPARAM", 519 },
	{ "EBADHANDLE", 521 },
	{ "ENOTSYNC", 522 },
	{ "EBADCOOKIE", 523 },
	{ "ENOTSUPP", 524 },
	{ "ETOOSMALL", 525 },
	{ "ESERVERFAULT", 526 },
	{ "EBADTYPE", 527 },
	{ "EJUKEBOX", 528 },
	{ "EIOCBQUEUED", 529 },
	{ "ERECALLCONFLICT", 530 },
};

bool xlat_errno_value(const char *name, size_t len, int *value)
{
	long long v;

	if (xlat_value(&rc_xlat_errno, name, len, &v)) {
		*value = (int)v;
		return true;
	}
	for (size_t i = 0; i < sizeof(kernel_errnos) / sizeof(kernel_errnos[0]); i++)
		if (cmp_name(name, len, kernel_errnos[i].name, strlen(kernel_errnos[i].name)) == 0) {
			*value = kernel_errnos[i].value;
			return true;
		}
	return false;
}

const char *xlat_errno_name(int value)
{
	const char *n = xlat_name(&rc_xlat_errno, value);

	if (n)
		return n;
	for (size_t i = 0; i < sizeof(kernel_errnos) / sizeof(kernel_errnos[0]); i++)
		if (kernel_errnos[i].value == value)
			return kernel_errnos[i].name;
	return NULL;
}

const char *xlat_si_code(const char *prefix, int code)
{
	size_t plen = strlen(prefix);

	for (size_t i = 0; i < rc_xlat_si_code.count; i++) {
		const struct rc_xlat_entry *r = &rc_xlat_si_code.rows[i];
		if (r->value == code && !r->alias && strncmp(r->name, prefix, plen) == 0)
			return r->name;
	}
	return NULL;
}

/* The generic codes (SI_*) are 0 or negative, and SI_KERNEL; the others
 * are the signal's own, whose numbers overlap between signals. */
const char *xlat_si_code_name(int signo, int code, int sender)
{
	const char *prefix;

	if (code == 0 && !sender)
		return NULL;
	if (code <= 0 || code == SI_KERNEL)
		prefix = "SI_";
	else if (signo == SIGSEGV)
		prefix = "SEGV_";
	else if (signo == SIGBUS)
		prefix = "BUS_";
	else if (signo == SIGILL)
		prefix = "ILL_";
	else if (signo == SIGFPE)
		prefix = "FPE_";
	else if (signo == SIGTRAP)
		prefix = "TRAP_";
	else if (signo == SIGCHLD)
		prefix = "CLD_";
	else if (signo == SIGIO)
		prefix = "POLL_";
	else if (signo == SIGSYS)
		prefix = "SYS_";
	else
		return NULL;
	return xlat_si_code(prefix, code);
}
