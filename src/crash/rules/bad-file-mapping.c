/* bad-file-mapping, its crash half (the trace half is rules/
 * bad-file-mapping.c, which says what the rule is about): a core, or a
 * crash caught alive.
 *
 * The judgement uses NT_FILE (a live process's maps): the mapping that
 * holds the fault address gives the path and offset, and the file's size
 * now is all there is to compare with.  A mapping as long as a file that
 * is shorter than the program expected faults past the mapping instead,
 * with SIGSEGV, and not always next to it: memcpy may copy backwards from
 * the far end, or run through readable memory first, and fault in a guard
 * page megabytes away.  The fault is then tied to the mapping through the
 * faulting instruction's address registers, or the copy's start and
 * length among the registers and the culprit frame's stack
 * (overrun_finding says how a wild pointer is told apart). */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crash/insn.h"
#include "crash/rules.h"
#include "util/strbuf.h"
#include "util/util.h"
#include "util/xlat.h"

#define PAGE 4096ULL
/* Nothing is mapped below vm.mmap_min_addr: a fault there is null-deref's,
 * whatever file mapping lies above. */
#define NULL_PAGE_END 0x10000ULL
/* The most of the crashed thread's stack read for the copy's arguments:
 * the frames up to the culprit's. */
#define STACK_SCAN_MAX (64 * 1024)
/* Pointers into file mappings below the fault tried as a copy's start:
 * a stack full of pointers into one index must not make the pairing with
 * every length quadratic. */
#define COPY_PTRS_MAX 64
/* A length beyond this is a pointer or garbage, not a copy's size. */
#define COPY_LEN_MAX (1ULL << 40)
/* user_regs_struct begins with the 15 general registers, r15 to rdi. */
#define NGPR 15
/* The widest access (an AVX-512 load) a fault address can lie inside. */
#define ACCESS_MAX 64

/* One mapping of a file, its pieces joined (mprotect splits a VMA, and a
 * core has a segment per VMA). */
struct span {
	const struct rc_mapping *first;
	uint64_t start, end;
	uint64_t offset;	/* of start, in the file */
};

/* M maps an ELF file (or a device: not a data file either): its magic,
 * from the file, or from memory when the file is gone and M maps its start
 * (libdwfl reports every mapped file as a module, ELF or not, so the
 * module list cannot tell). */
static bool elf_mapping(const struct rc_crash *c, const struct rc_mapping *m)
{
	const struct rc_module *mod = crash_module_at(c, m->start);
	unsigned char magic[4] = { 0 };
	bool got = false;

	if (mod && mod->has_symbols)
		return true;	/* a data file has no symbol table */
	/* A path from a core: no device is opened, and only a regular file
	 * is read. */
	struct stat st;
	if (strncmp(m->path, "/dev/", 5) == 0)
		return true;
	int fd = stat(m->path, &st) == 0 && S_ISREG(st.st_mode) ? open(m->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) : -1;
	if (fd >= 0) {
		got = pread(fd, magic, sizeof(magic), 0) == (ssize_t)sizeof(magic);
		close(fd);
	} else if (m->offset == 0) {
		got = crash_read_mem(c, m->start, magic, sizeof(magic)) == sizeof(magic);
	}
	return got && memcmp(magic, "\177ELF", 4) == 0;
}

/* The mapping of a data file that holds ADDR: a file the program mapped
 * to read as memory, not an ELF object the loader mapped (whose last
 * segment runs on into its bss, and whose addresses fill every register). */
static bool data_span_at(const struct rc_crash *c, uint64_t addr, struct span *sp)
{
	const struct rc_mapping *m = crash_mapping_at(c, addr);

	if (!m || !m->path || !m->read || elf_mapping(c, m))
		return false;
	size_t i = (size_t)(m - c->maps), lo = i, hi = i;
	while (lo > 0 && c->maps[lo - 1].end == c->maps[lo].start && c->maps[lo - 1].path &&
	       strcmp(c->maps[lo - 1].path, m->path) == 0 &&
	       c->maps[lo - 1].offset + (c->maps[lo].start - c->maps[lo - 1].start) == c->maps[lo].offset)
		lo--;
	while (hi + 1 < c->nmaps && c->maps[hi + 1].start == c->maps[hi].end && c->maps[hi + 1].path &&
	       strcmp(c->maps[hi + 1].path, m->path) == 0 &&
	       c->maps[hi].offset + (c->maps[hi].end - c->maps[hi].start) == c->maps[hi + 1].offset)
		hi++;
	sp->first = &c->maps[lo];
	sp->start = c->maps[lo].start;
	sp->end = c->maps[hi].end;
	sp->offset = c->maps[lo].offset;
	return true;
}

/* Nothing in [FROM, TO] can be read: the hole or guard page a read that
 * ran off a mapping at FROM stops in. */
static bool unreadable(const struct rc_crash *c, uint64_t from, uint64_t to)
{
	for (size_t i = 0; i < c->nmaps; i++)
		if (c->maps[i].start <= to && c->maps[i].end > from && c->maps[i].read)
			return false;
	return true;
}

/* How a fault was placed past a file mapping. */
struct overrun {
	struct span map;
	enum rc_access access;
	bool copy;		/* a copy's start (ptr) and length (len) were found */
	uint64_t ptr, len;
};

/* The faulting access was made through a pointer into the mapping (or
 * one that ran to its end, or off it into the unreadable page right
 * after), and landed at or past the mapping's end: an index or a cursor
 * that went too far (a loop over the data, memcpy's forward copy). */
static bool through_pointer(const struct rc_crash *c, const struct rc_thread *t, struct overrun *o)
{
	unsigned char code[15];
	struct rc_insn_mem op;
	uint64_t a = c->fault_addr;
	size_t n = crash_read_code(c, t->regs[RC_REG_RIP], code, sizeof(code));

	if (!insn_mem_operand(code, n, t->regs, a, &op))
		return false;
	/* The fault lies in this operand's bytes (a page-crossing access
	 * faults at the page it crossed into). */
	if (op.ea_known && (a < op.ea || a - op.ea >= ACCESS_MAX))
		return false;
	uint64_t v[2];
	size_t nv = 0;
	if (op.has_base)
		v[nv++] = op.base;
	if (op.has_index && op.scale == 1)
		v[nv++] = op.index;
	for (size_t i = 0; i < nv; i++) {
		struct span sp;
		/* Into the mapping, or up to a page past it. */
		if (!data_span_at(c, v[i], &sp) && !(v[i] >= 4096 && data_span_at(c, (v[i] & ~(PAGE - 1)) - 1, &sp)))
			continue;
		if (a < sp.end || (v[i] >= sp.end && (v[i] > a || !unreadable(c, sp.end, a))))
			continue;
		/* Without the displacement, EVEX's is at most 127 vectors. */
		if (!op.ea_known && !op.has_index && (a < v[i] || a - v[i] > 127 * ACCESS_MAX + ACCESS_MAX))
			continue;
		o->map = sp;
		o->access = op.access;
		o->ptr = v[i];
		return true;
	}
	return false;
}

/* The words a copy's arguments may still be in: the registers, and the
 * crashed thread's stack up to the culprit frame's end (an -O0 caller
 * keeps its arguments there; an optimised one in callee-saved
 * registers).  The culprit's frame ends at the return address into its
 * caller, frames[culprit + 1].pc. */
static size_t arg_words(const struct rc_crash *c, const struct rc_thread *t, uint64_t **out)
{
	size_t max = NGPR + STACK_SCAN_MAX / 8, n = 0;
	uint64_t *w = xcalloc(max, sizeof(*w));

	for (size_t i = 0; i < NGPR; i++)
		w[n++] = t->regs[i];
	long k = crash_culprit(c);
	uint64_t end_pc = k >= 0 && (size_t)k + 1 < t->nframes ? t->frames[k + 1].pc : 0;
	size_t got = crash_read_mem(c, t->regs[RC_REG_RSP], w + n, (max - n) * sizeof(*w)) / sizeof(*w);
	size_t keep = end_pc ? got : MIN(got, (size_t)512);
	for (size_t i = 0; i < got && end_pc; i++)
		if (w[n + i] == end_pc) {
			keep = i;
			break;
		}
	*out = w;
	return n + keep;
}

/* A copy in progress whose cursor is elsewhere (memmove copies backwards
 * from the end when source and destination alias in the cache; a forward
 * copy may run through readable memory after the mapping first): a
 * pointer into the mapping and a length, both found among the copy's
 * arguments, whose range [ptr, ptr + len) covers the fault, which lies
 * past the mapping's end. */
static bool copy_range(const struct rc_crash *c, const struct rc_thread *t, struct overrun *o)
{
	uint64_t a = c->fault_addr, *w;
	size_t n = arg_words(c, t, &w);
	bool found = false;

	size_t tried = 0;
	for (size_t i = 0; i < n && tried < COPY_PTRS_MAX; i++) {
		struct span sp;
		const struct rc_mapping *m = w[i] < a ? crash_mapping_at(c, w[i]) : NULL;
		if (!m || !m->path || !m->read || m->end > a)
			continue;
		tried++;
		if (!data_span_at(c, w[i], &sp) || sp.end > a)
			continue;
		for (size_t k = 0; k < n; k++) {
			uint64_t len = w[k];
			/* A word that points into a mapping is an address (a
			 * return address of a non-PIE program is a few MiB). */
			if (len == 0 || len > COPY_LEN_MAX || len <= a - w[i] || crash_mapping_at(c, len))
				continue;
			if (!found || len < o->len) {
				o->map = sp;
				o->ptr = w[i];
				o->len = len;
				found = true;
			}
		}
		if (found)
			break;
	}
	free(w);
	if (found) {
		unsigned char code[15];
		size_t cn = crash_read_code(c, t->regs[RC_REG_RIP], code, sizeof(code));
		o->access = insn_access(code, cn, t->regs, a);
		o->copy = true;
	}
	return found;
}

/* A SIGSEGV past the end of a file mapping, from the registers, the
 * mappings and the culprit frame.  An unrelated wild pointer is told
 * apart because the fault must be tied to the mapping: by the faulting
 * instruction's own address register (pointing into it, at its end, or
 * into the unreadable page right after it), or by a copy's start pointer
 * into it whose length reaches the fault.  Being near a mapping is not
 * enough: a wild pointer holds the wild address itself, which points into
 * no file mapping; an address in the first 64 KiB is null-deref's. */
static void overrun_finding(const struct rc_crash *c, struct rc_findings *out)
{
	const struct rc_thread *t = crash_thread(c);
	struct overrun o;

	memset(&o, 0, sizeof(o));
	if (!t || c->signo != SIGSEGV || (c->si_code != SEGV_MAPERR && c->si_code != SEGV_ACCERR) ||
	    c->fault_addr < NULL_PAGE_END || t->regs[RC_REG_RIP] == c->fault_addr)
		return;
	const struct rc_mapping *at = crash_mapping_at(c, c->fault_addr);
	if (at && at->read && !at->write && c->si_code == SEGV_ACCERR)
		return;	/* a write to readable memory: write-to-readonly's */
	if (!through_pointer(c, t, &o) && !copy_range(c, t, &o))
		return;

	const struct rc_mapping *m = o.map.first;
	uint64_t maplen = o.map.end - o.map.start, map_end_off = o.map.offset + maplen;
	uint64_t past = c->fault_addr - o.map.end;
	bool write = o.access == RC_ACCESS_WRITE;
	/* The mapping reaches the file's end (its last page): the file is
	 * what is short.  A window that ends before it is the program's
	 * mapping being short. */
	bool to_eof = m->file_size >= 0 && map_end_off >= (uint64_t)m->file_size;
	struct strbuf has = STRBUF_INIT, did = STRBUF_INIT, sig = STRBUF_INIT, who = STRBUF_INIT;
	crash_signal_str(c, &sig);
	crash_culprit_str(c, &who);
	if (m->file_size >= 0)
		strbuf_addf(&has, "has %lld bytes", (long long)m->file_size);
	else
		strbuf_addf(&has, "(gone now; %llu bytes mapped)", (unsigned long long)maplen);
	if (o.copy)
		strbuf_addf(&did, "a %s offset %llu ran", write ? "write to" : "read from",
			    (unsigned long long)(o.map.offset + (o.ptr - o.map.start)));
	else
		strbuf_adds(&did, "an access through a pointer into its mapping faulted");
	if (past)
		strbuf_addf(&did, " %llu bytes past", (unsigned long long)past);
	else
		strbuf_adds(&did, " at");
	struct rc_finding *f = crash_finding(c, out, "bad-file-mapping",
		"'%s' %s, but %s %s past them: %s the end of the mapping (0x%llx-0x%llx), %s",
		m->path, has.buf, who.len ? who.buf : "the program", write ? "wrote" : "read", did.buf,
		(unsigned long long)o.map.start, (unsigned long long)o.map.end, sig.buf);
	finding_set(&f->path, m->path);
	if (m->file_size >= 0)
		f->bytes = m->file_size;
	struct strbuf msg = STRBUF_INIT;
	strbuf_addf(&msg, "%s at 0x%llx, %llu bytes past the mapping of file offsets %llu-%llu",
		    xlat_si_code_name(SIGSEGV, c->si_code, 0), (unsigned long long)c->fault_addr,
		    (unsigned long long)past, (unsigned long long)o.map.offset, (unsigned long long)map_end_off);
	if (o.copy)
		strbuf_addf(&msg, "; the %s's start 0x%llx and a length of %llu bytes were in the registers "
			    "or the culprit's frame", write ? "write" : "read", (unsigned long long)o.ptr,
			    (unsigned long long)o.len);
	else
		strbuf_addf(&msg, "; the faulting instruction's address register held 0x%llx",
			    (unsigned long long)o.ptr);
	f->message = strbuf_detach(&msg);
	if (to_eof || m->file_size < 0)
		finding_setf(&f->advice, "the program expects '%s' to be longer than it is (a truncated or "
			     "corrupt download, or another version of the file): check its size and its "
			     "checksum (SHA-256) against what the program expects before loading it, and "
			     "fetch it again.", crash_basename(m->path));
	else
		finding_setf(&f->advice, "the program %s more than it mapped: the mapping ends at offset %llu "
			     "of the file's %lld bytes; map as much as is %s.", write ? "wrote" : "read",
			     (unsigned long long)map_end_off, (long long)m->file_size, write ? "written" : "read");
	strbuf_release(&has);
	strbuf_release(&did);
	strbuf_release(&sig);
	strbuf_release(&who);
}

void crash_rule_bad_file_mapping(const struct rc_crash *c, struct rc_findings *out)
{
	if ((c->signo != SIGBUS && c->signo != SIGSEGV) || !crash_has_fault_addr(c))
		return;
	/* Inside a mapping, past the file's end (SIGBUS), or else past a
	 * mapping's end. */
	const struct rc_mapping *m = crash_mapping_at(c, c->fault_addr);
	uint64_t off = m ? m->offset + (c->fault_addr - m->start) : 0;
	if (!m || !m->path || (m->file_size >= 0 && off < (uint64_t)m->file_size) ||
	    (m->file_size < 0 && c->signo != SIGBUS)) {
		overrun_finding(c, out);
		return;
	}
	struct strbuf sig = STRBUF_INIT, who = STRBUF_INIT;
	crash_signal_str(c, &sig);
	crash_culprit_str(c, &who);
	struct rc_finding *f;
	if (m->file_size >= 0)
		f = crash_finding(c, out, "bad-file-mapping",
				  "'%s' is mapped past its end: %s at offset %llu, the file is %lld bytes%s%s",
				  m->path, sig.buf, (unsigned long long)off, (long long)m->file_size,
				  who.len ? "; read by " : "", who.buf ? who.buf : "");
	else
		f = crash_finding(c, out, "bad-file-mapping",
				  "'%s' is mapped past its end: %s at offset %llu, and the file is gone%s%s",
				  m->path, sig.buf, (unsigned long long)off, who.len ? "; read by " : "",
				  who.buf ? who.buf : "");
	finding_set(&f->path, m->path);
	f->bytes = m->file_size;
	finding_setf(&f->advice, "the file is shorter than the program expects (a truncated download, "
		     "or truncated while mapped): check its size and checksum and fetch it again.");
	strbuf_release(&sig);
	strbuf_release(&who);
}
