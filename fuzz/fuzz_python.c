/* libFuzzer entry for the Python frame reader (crash/python.c), which
 * walks CPython's runtime, interpreters, thread states, frames, code
 * objects, strings and line tables in the crashed process's memory: all of
 * it as untrusted as the core that holds it.  The input is that memory,
 * laid out as a core's PT_LOAD segments, and what unwind.c would have
 * found in the symbol tables; crash_read_mem reads it as it reads a core.
 *
 * Input layout (little-endian; a short input reads as zeroes):
 *
 *	u64 runtime	_PyRuntime's address (sym_py_runtime; 0: no Python)
 *	u64 version	Py_Version's address (sym_py_version; 0: none)
 *	u8  major	the version as the module's name gave it
 *	u8  minor	(py_major, py_minor; 0: a name without one)
 *	u8  nthreads	modulo MAX_THREADS + 1
 *	u8  spare
 *	threads, 12 bytes each:
 *	  u32 tid	the kernel's thread id
 *	  u64 fs_base	regs[RC_REG_FS_BASE]: pthread_self() on x86_64 glibc
 *	regions, to the end of the input (at most MAX_REGIONS):
 *	  u64 addr	a mapping [addr, addr + span)
 *	  u32 span
 *	  u32 held	HELD bytes follow (fewer at the input's end); the
 *			mapping's first min(held, span) bytes are in the
 *			core (core_size), the rest are not (a segment the
 *			kernel cut short); held 0: in_core false
 *	  u8  bytes[held]
 *
 * Regions are sorted by address; one that wraps around or overlaps one
 * before it is dropped, so that the maps are disjoint as core.c makes
 * them.  The held bytes are copied into one buffer of exactly their size
 * (c->image), so that a read past a segment is caught by ASan.
 *
 * Beyond no crash, no sanitizer report and no leak (crash_release frees
 * the Python frames and names): crash_python_frames returns 0 with ERR
 * empty, or -1 with exactly one line in ERR; a thread has Python frames
 * or the GIL only if a thread state named it; at most MAX_PY_FRAMES
 * frames per thread; every function, file and thread name NUL-terminated
 * within MAX_PY_STRING and valid UTF-8 (str objects' latin-1, UCS-2 and
 * UCS-4 are converted); the threads' ids and registers are left as they
 * were.
 *
 * Seeds (fuzz/corpus/fuzz_python/, README.md there says how they were
 * made) are the memory python.c read in real cores of a multi-threaded
 * Python program, one per interpreter; python.dict there holds integers
 * at the edges of the line arithmetic.  Run it on a copy of the seeds:
 *   fuzz_python -max_len=65536 -timeout=10 \
 *     -dict=fuzz/corpus/fuzz_python/python.dict CORPUS_DIR
 * With RC_FUZZ_PYTHON_PRINT=1 it prints what it read (every thread's
 * Python frames, as mkseed_python prints them from the real core) on
 * standard output, so that a seed can be checked against its core. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash/crash.h"
#include "crash/python.h"
#include "util/strbuf.h"
#include "input.h"
#include "pyprint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Caps of this harness's own, and the bounds python.c promises (its
 * PY_MAX_FRAMES and PY_MAX_STRING). */
#define MAX_THREADS 64
#define MAX_REGIONS 512
#define MAX_PY_FRAMES 4096
#define MAX_PY_STRING 512

static int by_start(const void *a, const void *b)
{
	const struct rc_mapping *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* C's threads, maps and image from the input; the image is the caller's
 * to free. */
static unsigned char *load(struct rc_crash *c, const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size };

	c->sym_py_runtime = fuzz_take(&in, 8);
	c->sym_py_version = fuzz_take(&in, 8);
	c->py_major = (int)fuzz_take(&in, 1);
	c->py_minor = (int)fuzz_take(&in, 1);
	size_t nthreads = fuzz_take(&in, 1) % (MAX_THREADS + 1);
	fuzz_take(&in, 1);
	c->threads = calloc(nthreads ? nthreads : 1, sizeof(*c->threads));
	if (!c->threads)
		__builtin_trap();
	c->nthreads = nthreads;
	for (size_t i = 0; i < nthreads; i++) {
		c->threads[i].tid = (int)fuzz_take(&in, 4);
		c->threads[i].regs[RC_REG_FS_BASE] = fuzz_take(&in, 8);
	}
	c->crashed_tid = nthreads ? c->threads[0].tid : 0;
	if (nthreads)
		c->threads[0].crashed = true;

	/* The held bytes, at most what is left of the input. */
	unsigned char *image = malloc(in.left ? in.left : 1);
	size_t used = 0;
	c->maps = calloc(MAX_REGIONS, sizeof(*c->maps));
	if (!image || !c->maps)
		__builtin_trap();
	while (in.left && c->nmaps < MAX_REGIONS) {
		uint64_t addr = fuzz_take(&in, 8);
		uint64_t span = fuzz_take(&in, 4);
		size_t held = (size_t)fuzz_take(&in, 4);
		if (held > in.left)
			held = in.left;
		memcpy(image + used, in.p, held);
		in.p += held;
		in.left -= held;
		if (!span || addr + span < addr) {
			used += held;
			continue;
		}
		struct rc_mapping *m = &c->maps[c->nmaps++];
		m->start = addr;
		m->end = addr + span;
		m->read = true;
		m->in_core = held > 0;
		m->core_offset = used;
		m->core_size = held < span ? held : span;
		m->file_size = -1;
		used += held;
	}
	qsort(c->maps, c->nmaps, sizeof(*c->maps), by_start);
	size_t kept = 0;
	for (size_t i = 0; i < c->nmaps; i++)
		if (!kept || c->maps[kept - 1].end <= c->maps[i].start)
			c->maps[kept++] = c->maps[i];
	c->nmaps = kept;
	/* Exactly the bytes held, so that ASan sees a read past them. */
	unsigned char *exact = malloc(used ? used : 1);
	if (!exact)
		__builtin_trap();
	memcpy(exact, image, used);
	free(image);
	c->image = exact;
	c->image_size = used;
	return exact;
}

/* Whether S is UTF-8 as the report writers expect it: no overlong form,
 * no surrogate, nothing beyond U+10FFFF. */
static bool utf8_valid(const unsigned char *s)
{
	while (*s) {
		unsigned n = *s < 0x80 ? 0 : *s >= 0xc2 && *s < 0xe0 ? 1 : *s >= 0xe0 && *s < 0xf0 ? 2 :
			     *s >= 0xf0 && *s < 0xf5 ? 3 : 4;
		if (n == 4)
			return false;
		uint32_t cp = n ? *s & (0x3f >> n) : *s;
		for (unsigned i = 1; i <= n; i++) {
			if ((s[i] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (s[i] & 0x3f);
		}
		if ((n == 2 && (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000))) ||
		    (n == 3 && (cp < 0x10000 || cp > 0x10ffff)))
			return false;
		s += n + 1;
	}
	return true;
}

static void check_string(const char *s)
{
	/* strlen runs past an unterminated string into ASan's redzone. */
	if (s && (strlen(s) > MAX_PY_STRING || !utf8_valid((const unsigned char *)s)))
		__builtin_trap();
}

static void check(const struct rc_crash *c, const struct rc_thread *before)
{
	for (size_t i = 0; i < c->nthreads; i++) {
		const struct rc_thread *t = &c->threads[i];
		if (t->tid != before[i].tid || memcmp(t->regs, before[i].regs, sizeof(t->regs)) != 0 ||
		    t->nframes || t->frames || t->name)
			__builtin_trap();
		if (t->npy > MAX_PY_FRAMES || (t->npy && !t->py) || (!t->python && (t->npy || t->gil)))
			__builtin_trap();
		check_string(t->py_name);
		for (size_t k = 0; k < t->npy; k++) {
			check_string(t->py[k].function);
			check_string(t->py[k].file);
		}
	}
}


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int printing = -1;
	struct rc_crash c;
	struct strbuf err = STRBUF_INIT;
	struct rc_thread before[MAX_THREADS];

	if (printing < 0) {
		const char *e = getenv("RC_FUZZ_PYTHON_PRINT");
		printing = e && *e == '1';
		/* A buffer of stdio's own would be malloc'ed on the first
		 * print and never freed, and libFuzzer runs an input again
		 * when it sees more mallocs than frees. */
		static char outbuf[BUFSIZ];
		if (printing)
			setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	}
	crash_init(&c);
	unsigned char *image = load(&c, data, size);
	memcpy(before, c.threads, c.nthreads * sizeof(*c.threads));
	int r = crash_python_frames(&c, &err);
	if (r == 0 ? err.len != 0 : r != -1 || !err.len || strchr(err.buf, '\n'))
		__builtin_trap();
	check(&c, before);
	if (printing)
		py_print(&c, r, &err);
	crash_release(&c);
	free(image);
	strbuf_release(&err);
	return 0;
}
