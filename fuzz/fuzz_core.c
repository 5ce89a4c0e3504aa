/* libFuzzer entry for the core reader (crash/core.c): any bytes must read
 * without a crash, a sanitizer report or a leak, either failing with one
 * line of reason or giving a model whose invariants hold: counts within
 * their caps, maps sorted and disjoint, every string readable, argv
 * NULL-terminated.
 *
 * Seeds (fuzz/corpus/fuzz_core/, README.md there says how they were
 * made): the ELF header, program headers and parsed notes of real cores
 * (a kernel core and two gdb cores of tests/unit/test_core.c's crasher),
 * with the segments' bytes cut off; and the hand-made cores test_core
 * writes with RC_CORE_SEEDS=DIR.  Run it on a copy of them:
 *   fuzz_core -max_len=65536 -timeout=10 CORPUS_DIR */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "crash/crash.h"
#include "crash/decompress.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile size_t sink;

static void touch(const char *s)
{
	if (s)
		sink += strlen(s);
}

static void check(const struct rc_crash *c)
{
	if (c->nthreads < 1 || c->nthreads > RC_CRASH_MAX_THREADS || c->nmaps > RC_CRASH_MAX_MAPPINGS)
		__builtin_trap();
	if (!c->threads[0].crashed || c->crashed_tid != c->threads[0].tid || crash_thread(c) != &c->threads[0])
		__builtin_trap();
	if (c->argc < 0 || c->argc > RC_CRASH_MAX_ARGS || (c->argc && (!c->argv || c->argv[c->argc])))
		__builtin_trap();
	for (int i = 0; i < c->argc; i++) {
		if (!c->argv[i][0])
			__builtin_trap();
		touch(c->argv[i]);
	}
	touch(c->exe);
	touch(c->fname);
	touch(strbuf_str(&c->problems));
	for (size_t i = 0; i < c->nmaps; i++) {
		const struct rc_mapping *m = &c->maps[i];
		if (m->start >= m->end || (i && c->maps[i - 1].end > m->start))
			__builtin_trap();
		if (crash_mapping_at(c, m->start) != m || crash_mapping_at(c, m->end - 1) != m)
			__builtin_trap();
		if (m->in_core && (m->core_offset > c->image_size || m->core_size > c->image_size - m->core_offset))
			__builtin_trap();
		touch(m->path);
	}
	/* Read what the model says is there: the stacks and the fault. */
	for (size_t i = 0; i < c->nthreads && i < 8; i++) {
		unsigned char buf[64];
		sink += crash_read_mem(c, c->threads[i].regs[RC_REG_RSP], buf, sizeof(buf));
		sink += crash_mapping_at(c, c->threads[i].regs[RC_REG_RIP]) != NULL;
	}
	sink += crash_mapping_at(c, c->fault_addr) != NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rc_crash c;
	struct strbuf err = STRBUF_INIT;
	struct core_image im;

	/* systemd-coredump's zstd, xz and lz4 cores too: an input that starts
	 * with their magic is decoded first, as rootcause core does. */
	if (core_image_decode(&im, data, size, "fuzz", &err) < 0) {
		if (!err.len || strchr(err.buf, '\n'))
			__builtin_trap();
		strbuf_release(&err);
		return 0;
	}
	data = im.data;
	size = im.size;
	crash_init(&c);
	if (crash_read_core(&c, data, size, &err) == 0) {
		if (err.len)
			__builtin_trap();
		check(&c);
	} else {
		/* One line of reason, and nothing left in the model. */
		if (!err.len || strchr(err.buf, '\n') || c.nthreads || c.nmaps || c.argv || c.exe)
			__builtin_trap();
	}
	crash_release(&c);
	core_image_release(&im);
	strbuf_release(&err);
	return 0;
}
