/* A cause's signature: what makes two reports of one failure the same
 * across restarts and machines, as ABRT's duphash and Sentry's
 * fingerprints group crashes. It is made of
 *  - the rule;
 *  - where in the code: the innermost frame of the program's own code
 *    (stack_py_own, stack_native_own) by file name and function, else the
 *    innermost frame with a function; no line, no address, no directory,
 *    which move with every build and checkout;
 *  - its object: the path, the address (with its port) or the host, else
 *    what the program said; with what changes from run to run taken out:
 *    digits (pids, counters, dates), and runs of letters and digits that
 *    read as random (a temporary directory's "S4PZyM", a container id).
 * A log without stacks gives a signature without the location: the same
 * failure logged with stacks and without differs, which a fleet sees as
 * two groups, not as one group of two kinds.
 */
#include <ctype.h>
#include <stdint.h>
#include <string.h>

#include "gen/tables.h"
#include "report/report.h"
#include "util/util.h"
#include "util/xlat.h"

/* A run at least this long is looked at as maybe random. */
#define RANDOM_MIN 6

/* S[0..N) reads as random: mixed digits and letters, or both cases. */
static bool random_run(const char *s, size_t n)
{
	size_t digits = 0, upper = 0, lower = 0;

	if (n < RANDOM_MIN)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (isdigit((unsigned char)s[i]))
			digits++;
		else if (isupper((unsigned char)s[i]))
			upper++;
		else
			lower++;
	}
	/* "S4PZyM", "k3j4h5", "a8e7555a8406", but not "python3" or "utf8". */
	return (digits >= 2 && upper + lower >= 2) || (upper && lower && digits);
}

/* The temporary names of mktemp and Python's tempfile: a component that
 * ends in a '.' and 6 or more letters, digits and '_', one of them upper
 * case, a digit or '_' (mktemp's "tmp." and ten random characters, a
 * template's "rc-test." and six, tempfile's prefix "rc-test." and eight
 * of [a-z0-9_]; a file's extension is lower case), or "tmp" and 8 or more
 * of [a-z0-9_] (tempfile's "tmpk3j4h5_x"). The length of the part that is
 * random, or 0; *KEEP: how much before it stays. */
static size_t temp_name(const char *c, size_t n, size_t *keep)
{
	const char *dot = memrchr(c, '.', n);
	if (dot && n - (size_t)(dot + 1 - c) >= RANDOM_MIN) {
		bool marked = false, alnum = true;
		for (const char *q = dot + 1; q < c + n; q++) {
			alnum = alnum && (isalnum((unsigned char)*q) || *q == '_');
			marked = marked || isupper((unsigned char)*q) || isdigit((unsigned char)*q) || *q == '_';
		}
		if (alnum && marked) {
			*keep = (size_t)(dot + 1 - c);
			return n - *keep;
		}
	}
	if (n >= 11 && strncmp(c, "tmp", 3) == 0) {
		for (size_t i = 3; i < n; i++)
			if (!(islower((unsigned char)c[i]) || isdigit((unsigned char)c[i]) || c[i] == '_'))
				return 0;
		*keep = 3;
		return n - 3;
	}
	return 0;
}

void signature_object(const char *s, struct strbuf *out)
{
	for (const char *p = s; p && *p;) {
		/* At the start of a path component or a word. */
		if (p == s || strchr("/ '\"", p[-1])) {
			size_t n = strcspn(p, "/ '\""), keep = 0;
			if (temp_name(p, n, &keep)) {
				strbuf_add(out, p, keep);
				strbuf_addc(out, '*');
				p += n;
				continue;
			}
		}
		if (isalnum((unsigned char)*p)) {
			size_t n = 0;
			while (isalnum((unsigned char)p[n]))
				n++;
			if (random_run(p, n)) {
				strbuf_addc(out, '*');
			} else {
				/* Digits become N: a pid, a counter, a date. */
				for (size_t i = 0; i < n; i++) {
					if (!isdigit((unsigned char)p[i]))
						strbuf_addc(out, p[i]);
					else if (i == 0 || !isdigit((unsigned char)p[i - 1]))
						strbuf_addc(out, 'N');
				}
			}
			p += n;
		} else {
			strbuf_addc(out, *p++);
		}
	}
}

static const char *base(const char *p)
{
	const char *s = p ? strrchr(p, '/') : NULL;

	return s ? s + 1 : p;
}

void signature_location(const struct rc_stack *st, struct strbuf *out)
{
	if (!st)
		return;
	const struct rc_stack_pyframe *py = NULL;
	for (size_t i = 0; i < st->npy && !py; i++)
		if (stack_py_own(&st->py[i]) && st->py[i].function)
			py = &st->py[i];
	const struct rc_stack_frame *nat = NULL;
	for (size_t i = 0; i < st->nnative && !nat && !py; i++)
		if (stack_native_own(&st->native[i]) && st->native[i].function)
			nat = &st->native[i];
	for (size_t i = 0; i < st->npy && !py && !nat; i++)
		if (st->py[i].function)
			py = &st->py[i];
	for (size_t i = 0; i < st->nnative && !py && !nat; i++)
		if (st->native[i].function)
			nat = &st->native[i];
	if (py)
		strbuf_addf(out, "%s:%s", py->file ? base(py->file) : "?", py->function);
	else if (nat)
		strbuf_addf(out, "%s!%s", nat->module ? base(nat->module) : "?", nat->function);
}

uint64_t report_signature(const struct rc_report_finding *f, struct strbuf *material)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_adds(&sb, f->rule);
	strbuf_addc(&sb, '|');
	signature_location(f->stack ? f->stack : f->nsites ? f->sites[0].stack : NULL, &sb);
	strbuf_addc(&sb, '|');
	if (f->path)
		signature_object(f->path, &sb);
	else if (f->address)
		strbuf_adds(&sb, f->address);
	else if (f->host)
		strbuf_adds(&sb, f->host);
	else if (f->message)
		signature_object(f->message, &sb);
	else if (f->syscall)
		strbuf_adds(&sb, f->syscall);
	/* By name: the numbers differ between architectures. */
	if (f->err)
		strbuf_addf(&sb, "|%s", xlat_errno_name(f->err) ?: "?");
	if (f->signo)
		strbuf_addf(&sb, "|%s", xlat_name(&rc_xlat_signal, f->signo) ?: "?");
	/* FNV-1a, 64 bits: the same on every machine. */
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < sb.len; i++) {
		h ^= (unsigned char)sb.buf[i];
		h *= 0x100000001b3ULL;
	}
	if (material) {
		strbuf_reset(material);
		strbuf_add(material, sb.buf ? sb.buf : "", sb.len);
	}
	strbuf_release(&sb);
	return h;
}
