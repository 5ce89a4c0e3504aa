/* Demangling symbol names (see unwind.h).
 *
 * libstdc++ exports its demangler with a C ABI (__cxa_demangle).  We load
 * it with dlopen on first use instead of linking libstdc++: rootcause is C,
 * most of what it reads is C, and a machine without libstdc++ then still
 * runs rootcause, printing mangled names.  dlopen is in glibc proper since
 * 2.34, so nothing is added to the link either. */
#include <ctype.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "crash/unwind.h"
#include "util/strbuf.h"
#include "util/util.h"

/* Names come from untrusted files; the demangler recurses on its input.
 * Real C++ names, even heavy template ones, stay well under this. */
#define MAX_MANGLED 16384

typedef char *(*cxa_demangle_fn)(const char *mangled, char *buf, size_t *len, int *status);

static pthread_once_t demangler_once = PTHREAD_ONCE_INIT;
static cxa_demangle_fn demangler;

static void load_demangler(void)
{
	void *sym = dlsym(RTLD_DEFAULT, "__cxa_demangle");

	if (!sym) {
		void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
		/* Kept open for the life of the process: the function is
		 * used until exit. */
		if (h)
			sym = dlsym(h, "__cxa_demangle");
	}
	demangler = (cxa_demangle_fn)sym;
}

static bool is_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* Rust's legacy mangling is the Itanium one with a hash path element
 * ("h" + 16 hex digits) and its own escapes for what C++ names cannot
 * hold ("$LT$" for '<', "$u7b$" for '{', ".." for "::"). */
static const struct {
	const char *esc;
	char c;
} rust_escapes[] = {
	{ "$SP$", '@' }, { "$BP$", '*' }, { "$RF$", '&' }, { "$LT$", '<' },
	{ "$GT$", '>' }, { "$LP$", '(' }, { "$RP$", ')' }, { "$C$", ',' },
};

static bool rust_hash_suffix(const char *s, size_t *cut)
{
	size_t n = strlen(s);

	/* "::h" + 16 hex digits at the end. */
	if (n < 19 || memcmp(s + n - 19, "::h", 3) != 0 || !is_hex(s + n - 16, 16))
		return false;
	*cut = n - 19;
	return true;
}

static char *rust_unescape(const char *s, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i = 0;

	while (i < n) {
		bool at_start = i == 0 || (i >= 2 && s[i - 1] == ':' && s[i - 2] == ':');

		/* A path element that would start with '$' is written "_$". */
		if (at_start && s[i] == '_' && i + 1 < n && s[i + 1] == '$') {
			i++;
			continue;
		}
		if (s[i] == '.' && i + 1 < n && s[i + 1] == '.') {
			strbuf_adds(&sb, "::");
			i += 2;
			continue;
		}
		if (s[i] == '$') {
			bool done = false;

			for (size_t k = 0; k < ARRAY_SIZE(rust_escapes); k++) {
				size_t el = strlen(rust_escapes[k].esc);
				if (n - i >= el && memcmp(s + i, rust_escapes[k].esc, el) == 0) {
					strbuf_addc(&sb, rust_escapes[k].c);
					i += el;
					done = true;
					break;
				}
			}
			/* "$u7e$": a character by its hex code (ASCII only). */
			if (!done && n - i >= 5 && s[i + 1] == 'u') {
				const char *end = memchr(s + i + 2, '$', MIN(n - i - 2, (size_t)3));
				size_t hl = end ? (size_t)(end - (s + i + 2)) : 0;
				if (hl && is_hex(s + i + 2, hl)) {
					char hex[4] = { 0 };
					memcpy(hex, s + i + 2, hl);
					unsigned long v = strtoul(hex, NULL, 16);
					if (v >= 0x20 && v < 0x7f) {
						strbuf_addc(&sb, (char)v);
						i += 3 + hl;
						done = true;
					}
				}
			}
			if (done)
				continue;
		}
		strbuf_addc(&sb, s[i]);
		i++;
	}
	return strbuf_detach(&sb);
}

char *crash_demangle(const char *sym)
{
	if (!sym || strncmp(sym, "_Z", 2) != 0 || strnlen(sym, MAX_MANGLED + 1) > MAX_MANGLED)
		return NULL;
	pthread_once(&demangler_once, load_demangler);
	if (!demangler)
		return NULL;

	int status = -1;
	char *out = demangler(sym, NULL, NULL, &status);
	if (status != 0 || !out) {
		free(out);
		return NULL;
	}

	size_t cut;
	if (rust_hash_suffix(out, &cut)) {
		char *r = rust_unescape(out, cut);
		free(out);
		return r;
	}
	return out;
}
