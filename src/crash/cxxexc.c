/* The C++ exception nobody caught, read back from memory.
 *
 * libstdc++'s terminate handler prints "terminate called after throwing an
 * instance of 'T'" and "what(): M" to stderr and calls abort(); neither
 * line goes into glibc's __abort_msg, so a core shows only abort's frames.
 * The exception object is still on the heap, though, and the frames of
 * __cxa_throw and std::terminate still hold pointers to it on the stack.
 *
 * The Itanium C++ ABI as libstdc++ lays it out on x86_64 (unwind-cxx.h):
 * the thrown object is preceded by a __cxa_exception, whose last member is
 * the _Unwind_Exception header (32 bytes, 16-aligned) that _Unwind_Raise-
 * Exception and __cxa_begin_catch get a pointer to.  That header starts
 * with the exception class, "GNUCC++\0" for a primary exception, which is
 * what we look for; 80 bytes before it is the std::type_info pointer, and
 * a type_info holds the mangled type name at offset 8.
 *
 * what() is a virtual call we cannot make in a core, but std::logic_error
 * and std::runtime_error (and so everything derived from them: out_of_range,
 * system_error, ios_base::failure ...) keep the message as their first
 * member, a reference-counted string whose pointer is the chars.  Whether a
 * type derives from them is read from its type_info: a class with one base
 * is a __si_class_type_info, with the base's type_info at offset 16.
 *
 * Everything read is checked (names are mangled identifiers, messages are
 * text), since a stack word that merely looks like a pointer leads
 * anywhere. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crash/rules.h"
#include "crash/unwind.h"
#include "util/strbuf.h"
#include "util/util.h"

/* ((('G' << 8 | 'N') << 8 | 'U') ... << 8 | '\0'): libstdc++'s class of a
 * primary exception.  A dependent one (std::rethrow_exception, so also
 * std::future::get) ends in 1 and has, where a primary one has its type,
 * a pointer to the primary exception's object. */
#define GXX_PRIMARY_CLASS 0x474e5543432b2b00ULL
#define GXX_DEPENDENT_CLASS 0x474e5543432b2b01ULL
#define UNWIND_HEADER_SIZE 32	/* _Unwind_Exception, aligned(16) */
#define TYPE_BEFORE_HEADER 80	/* __cxa_exception::exceptionType */
/* How much stack above the crashed thread's sp to search: the throwing
 * frames lie under abort's, raise's and the terminate handler's. */
#define STACK_WINDOW (64u << 10)
#define NAME_MAX_LEN 512
#define WHAT_MAX_LEN 1024
#define BASES_MAX 8

/* A mangled type name: letters, digits, '_' and the few others the
 * Itanium grammar uses. */
static bool mangled_name(const struct strbuf *s)
{
	if (!s->len || s->len >= NAME_MAX_LEN)
		return false;
	for (size_t i = 0; i < s->len; i++) {
		unsigned char ch = (unsigned char)s->buf[i];
		if (!(ch == '_' || ch == '$' || ch == '.' || (ch >= '0' && ch <= '9') ||
		      (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z')))
			return false;
	}
	return true;
}

/* The mangled name of the type_info at TI into NAME. */
static bool type_name(const struct rc_crash *c, uint64_t ti, struct strbuf *name)
{
	uint64_t p;

	char buf[NAME_MAX_LEN];

	strbuf_reset(name);
	/* The name is in .rodata, which a kernel core leaves out. */
	if (!ti || !crash_read_u64(c, ti + 8, &p) || !p)
		return false;
	size_t got = crash_read_code(c, p, buf, sizeof(buf));
	const char *nul = memchr(buf, '\0', got);
	if (!nul)
		return false;
	strbuf_add(name, buf, (size_t)(nul - buf));
	/* A '*' marks a type local to one object file; it is not mangling. */
	if (name->len && name->buf[0] == '*') {
		memmove(name->buf, name->buf + 1, name->len);
		name->len--;
	}
	return mangled_name(name);
}

/* Types whose first member is the what() string (std::__cow_string). */
static bool message_base(const char *mangled)
{
	return strcmp(mangled, "St13runtime_error") == 0 || strcmp(mangled, "St11logic_error") == 0;
}

/* Is the type at TI, whose mangled name is NAME, or a single-inheritance
 * base of it, one of them? */
static bool has_message(const struct rc_crash *c, uint64_t ti, const char *name)
{
	struct strbuf base = STRBUF_INIT;
	bool yes = message_base(name);

	for (int depth = 1; !yes && depth < BASES_MAX && crash_read_u64(c, ti + 16, &ti) &&
			    type_name(c, ti, &base); depth++)
		yes = message_base(base.buf);
	strbuf_release(&base);
	return yes;
}

/* Text, as a person would have written it for what(). */
static bool printable(const struct strbuf *s)
{
	if (!s->len)
		return false;
	for (size_t i = 0; i < s->len; i++) {
		unsigned char ch = (unsigned char)s->buf[i];
		if (ch < 0x20 && ch != '\t' && ch != '\n')
			return false;
		if (ch == 0x7f)
			return false;
	}
	return true;
}

/* The header at HDR is a primary exception's (or a dependent one's, which
 * leads to it): its description into OUT. */
static bool describe(const struct rc_crash *c, uint64_t hdr, struct strbuf *out)
{
	uint64_t cls, ti, msg;
	struct strbuf name = STRBUF_INIT, what = STRBUF_INIT;
	bool ok = false;

	if (!crash_read_u64(c, hdr, &cls))
		goto out;
	if (cls == GXX_DEPENDENT_CLASS) {
		uint64_t primary;
		if (!crash_read_u64(c, hdr - TYPE_BEFORE_HEADER, &primary) || primary < UNWIND_HEADER_SIZE ||
		    !crash_read_u64(c, primary - UNWIND_HEADER_SIZE, &cls))
			goto out;
		hdr = primary - UNWIND_HEADER_SIZE;
	}
	if (cls != GXX_PRIMARY_CLASS)
		goto out;
	if (!crash_read_u64(c, hdr - TYPE_BEFORE_HEADER, &ti) || !type_name(c, ti, &name))
		goto out;
	/* "_ZTS" + type is the symbol of the type's name, which the demangler
	 * spells "typeinfo name for T". */
	struct strbuf sym = STRBUF_INIT;
	strbuf_addf(&sym, "_ZTS%s", name.buf);
	char *dem = crash_demangle(sym.buf);
	strbuf_release(&sym);
	const char *prefix = "typeinfo name for ";
	strbuf_adds(out, "uncaught C++ exception ");
	if (dem && strncmp(dem, prefix, strlen(prefix)) == 0)
		strbuf_adds(out, dem + strlen(prefix));
	else
		strbuf_adds(out, name.buf);
	free(dem);
	uint64_t obj = hdr + UNWIND_HEADER_SIZE;
	if (has_message(c, ti, name.buf) && crash_read_u64(c, obj + 8, &msg) && msg &&
	    crash_read_string(c, msg, WHAT_MAX_LEN, &what) && printable(&what)) {
		while (what.len && (what.buf[what.len - 1] == '\n' || what.buf[what.len - 1] == ' '))
			what.buf[--what.len] = '\0';
		strbuf_addf(out, ": %s", what.buf);
	}
	ok = true;
out:
	strbuf_release(&name);
	strbuf_release(&what);
	return ok;
}

/* A stack word W might point at the header itself, or at the thrown
 * object right after it: both are 16-aligned heap addresses. */
static bool candidate(const struct rc_crash *c, uint64_t w)
{
	if (w < 4096 || (w & 15) || w >= (1ULL << 47))
		return false;
	if (!c->nmaps)
		return true;
	const struct rc_mapping *m = crash_mapping_at(c, w);
	return m && m->write;
}

bool crash_cxx_exception(const struct rc_crash *c, struct strbuf *out)
{
	const struct rc_thread *t = crash_thread(c);

	if (!t || !(crash_has_frame(t, "__cxa_throw") || crash_has_frame(t, "__cxa_rethrow") ||
		    crash_has_frame(t, "std::terminate()")))
		return false;
	uint64_t sp = t->regs[RC_REG_RSP] & ~7ULL;
	const struct rc_mapping *m = crash_mapping_at(c, sp);
	uint64_t end = sp + STACK_WINDOW;
	if (m && m->end < end)
		end = m->end;
	uint64_t buf[512];
	for (uint64_t at = sp; at < end; at += sizeof(buf)) {
		size_t want = (size_t)MIN((uint64_t)sizeof(buf), end - at);
		size_t got = crash_read_mem(c, at, buf, want) / sizeof(buf[0]);
		for (size_t i = 0; i < got; i++) {
			uint64_t w = buf[i];
			if (!candidate(c, w))
				continue;
			if (describe(c, w, out) || describe(c, w - UNWIND_HEADER_SIZE, out))
				return true;
		}
		if (got * sizeof(buf[0]) < want)
			break;
	}
	return false;
}
