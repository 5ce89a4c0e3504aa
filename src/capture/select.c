/* Which syscalls a capture reports: strace's -e trace= expressions, and
 * the set the trace rules read. */
#include <regex.h>
#include <sys/syscall.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "event/refusals.h"
#include "util/util.h"

unsigned char *select_new(void)
{
	return xcalloc((size_t)(dec_nr_max() + 7) / 8 + 1, 1);
}

void select_set(unsigned char *map, long nr, bool on)
{
	if (nr < 0 || nr >= dec_nr_max())
		return;
	if (on)
		map[nr / 8] |= (unsigned char)(1u << (nr % 8));
	else
		map[nr / 8] &= (unsigned char)~(1u << (nr % 8));
}

bool select_has(const unsigned char *map, long nr)
{
	return nr >= 0 && nr < dec_nr_max() && (map[nr / 8] & (1u << (nr % 8)));
}

static const struct {
	const char *name;
	unsigned cls;
} classes[] = {
	{ "file", TC_FILE },
	{ "desc", TC_DESC },
	{ "network", TC_NETWORK },
	{ "net", TC_NETWORK },
	{ "process", TC_PROCESS },
	{ "signal", TC_SIGNAL },
	{ "ipc", TC_IPC },
	{ "memory", TC_MEMORY },
	{ "creds", TC_CREDS },
	{ "stat", TC_STAT },
	{ "clock", TC_CLOCK },
};

static bool set_class(unsigned char *map, const char *name, size_t len, bool on)
{
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		if (strlen(classes[i].name) != len || memcmp(classes[i].name, name, len) != 0)
			continue;
		for (long nr = 0; nr < dec_nr_max(); nr++) {
			const struct dec_syscall *sc = dec_lookup(nr);
			if (sc && (sc->classes & classes[i].cls))
				select_set(map, nr, on);
		}
		return true;
	}
	return false;
}

static bool set_regex(unsigned char *map, const char *re, size_t len, bool on, struct strbuf *err)
{
	char *pat = xmalloc(len + 1);
	regex_t rx;

	memcpy(pat, re, len);
	pat[len] = '\0';
	if (regcomp(&rx, pat, REG_EXTENDED | REG_NOSUB) != 0) {
		strbuf_addf(err, "invalid regular expression '%s'", pat);
		free(pat);
		return false;
	}
	for (long nr = 0; nr < dec_nr_max(); nr++) {
		const char *name = dec_syscall_name(nr);
		if (name && regexec(&rx, name, 0, NULL, 0) == 0)
			select_set(map, nr, on);
	}
	regfree(&rx);
	free(pat);
	return true;
}

/* Set every number to ON. */
static void set_all(unsigned char *map, bool on)
{
	for (long nr = 0; nr < dec_nr_max(); nr++)
		select_set(map, nr, on);
}

int select_parse(unsigned char *map, const char *expr, struct strbuf *err)
{
	const char *s = expr;
	bool on = true;

	if (strncmp(s, "trace=", 6) == 0)
		s += 6;
	else if (strchr(s, '=')) {
		strbuf_addf(err, "unsupported -e expression '%s' (only trace= is supported)", expr);
		return -1;
	}
	if (*s == '!') {
		on = false;
		s++;
	}
	/* "!x" means all but x; a plain list means only the list. */
	set_all(map, !on);
	if (!*s) {
		strbuf_addf(err, "empty syscall set in '%s'", expr);
		return -1;
	}
	while (*s) {
		const char *end = strchrnul(s, ',');
		size_t len = (size_t)(end - s);
		if (len == 3 && memcmp(s, "all", 3) == 0) {
			set_all(map, on);
		} else if (len == 4 && memcmp(s, "none", 4) == 0) {
			set_all(map, !on);
		} else if (*s == '/') {
			if (!set_regex(map, s + 1, len - 1, on, err))
				return -1;
		} else if (*s == '%' || *s == '?') {
			size_t skip = (s[0] == '?' && s[1] == '%') ? 2 : 1;
			if (!set_class(map, s + skip, len - skip, on) && s[0] != '?') {
				strbuf_addf(err, "unknown syscall class '%.*s'", (int)len, s);
				return -1;
			}
		} else if (set_class(map, s, len, on)) {
			/* strace's old class names without '%' */
		} else {
			long nr = dec_syscall_nr(s, len);
			if (nr < 0) {
				strbuf_addf(err, "unknown syscall '%.*s'", (int)len, s);
				return -1;
			}
			select_set(map, nr, on);
		}
		s = *end ? end + 1 : end;
	}
	return 0;
}

/*
 * What the trace rules read (the files in rules/): files, fds and I/O, sockets,
 * processes and signals sent, credentials (whose permissions apply), memory
 * maps, futexes, the return from a signal handler (a fault the program
 * meant, like a JVM's polling page, is one it returns from), resource
 * limits, and the
 * privileged facilities a policy may refuse (event/calls.h: mount, bpf,
 * ptrace, keyctl...). Left out are calls no
 * rule looks at and that busy programs make most: clocks, sched_yield,
 * signal masks, getpid and friends, madvise, rseq.
 */
void select_rules(unsigned char *map)
{
	for (long nr = 0; nr < dec_nr_max(); nr++) {
		const struct dec_syscall *sc = dec_lookup(nr);
		if ((sc && (sc->classes & (TC_FILE | TC_DESC | TC_NETWORK | TC_PROCESS | TC_STAT | TC_CREDS))) ||
		    event_call_privilege(nr))
			select_set(map, nr, true);
	}
	static const long extra[] = {
		SYS_mmap, SYS_munmap, SYS_mremap, SYS_brk, SYS_mprotect,
		SYS_futex,
#ifdef SYS_futex_waitv
		SYS_futex_waitv,
#endif
		SYS_kill, SYS_tkill, SYS_tgkill, SYS_rt_sigreturn,
		SYS_nanosleep, SYS_clock_nanosleep,
		/* A limit refused (syscall-blocked); limits read, which say the
		 * limit in force. */
		SYS_setrlimit, SYS_prlimit64, SYS_getrlimit,
	};
	for (size_t i = 0; i < sizeof(extra) / sizeof(extra[0]); i++)
		select_set(map, extra[i], true);
}
