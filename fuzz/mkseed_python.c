/* mkseed_python CORE SEED: a seed for fuzz_python from a real core of a
 * Python process.  It reads the core as rootcause core does (notes,
 * modules, stacks), then runs the Python frame reader over it with every
 * read recorded, and writes as SEED (fuzz_python.c's input layout) the
 * memory that was read: each read rounded out to GRAIN bytes, merged,
 * and cut to what the core holds.  A read that failed in the core fails
 * on the seed too, since the seed holds only bytes the core has.
 *
 * The reader here is src/crash/python.c compiled a second time with its
 * reads renamed (fuzz/meson.build: -Dcrash_read_mem=seed_read_mem ...),
 * so that this file sees them and the library's copy stays as it is.
 *
 * It prints what the reader found, as fuzz_python prints it with
 * RC_FUZZ_PYTHON_PRINT=1, so that fuzz/mkseeds-python can check that the
 * seed replays to the same frames.  Exit 0, or 1 with a message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash/crash.h"
#include "crash/decompress.h"
#include "crash/unwind.h"
#include "util/strbuf.h"
#include "pyprint.h"

#define GRAIN 64
#define MAX_THREADS 64		/* fuzz_python's */
#define MAX_REGIONS 512

size_t seed_read_mem(const struct rc_crash *c, uint64_t addr, void *buf, size_t n);
bool seed_read_u64(const struct rc_crash *c, uint64_t addr, uint64_t *v);
int seed_python_frames(struct rc_crash *c, struct strbuf *err);

struct range {
	uint64_t start, end;
};

static struct range *reads;
static size_t nreads, areads;

size_t seed_read_mem(const struct rc_crash *c, uint64_t addr, void *buf, size_t n)
{
	size_t got = crash_read_mem(c, addr, buf, n);

	if (got) {
		if (nreads == areads) {
			areads = areads ? 2 * areads : 1024;
			reads = realloc(reads, areads * sizeof(*reads));
			if (!reads)
				abort();
		}
		reads[nreads].start = addr & ~(uint64_t)(GRAIN - 1);
		reads[nreads].end = (addr + got + GRAIN - 1) & ~(uint64_t)(GRAIN - 1);
		nreads++;
	}
	return got;
}

bool seed_read_u64(const struct rc_crash *c, uint64_t addr, uint64_t *v)
{
	return seed_read_mem(c, addr, v, sizeof(*v)) == sizeof(*v);
}

static int by_start(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static void put(FILE *f, uint64_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fputc((int)((v >> (8 * i)) & 0xff), f);
}


/* The readable runs of [START, END) as regions; the number written. */
static size_t write_range(FILE *f, const struct rc_crash *c, uint64_t start, uint64_t end)
{
	unsigned char buf[GRAIN];
	size_t n = 0;

	for (uint64_t at = start; at < end;) {
		uint64_t run = at;
		while (run < end && crash_read_mem(c, run, buf, GRAIN) == GRAIN)
			run += GRAIN;
		if (run > at) {
			put(f, at, 8);
			put(f, run - at, 4);
			put(f, run - at, 4);
			for (uint64_t p = at; p < run; p += GRAIN) {
				crash_read_mem(c, p, buf, GRAIN);
				fwrite(buf, 1, GRAIN, f);
			}
			n++;
		}
		at = run + GRAIN;
	}
	return n;
}

int main(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT;
	struct core_image im;
	struct rc_crash c;

	if (argc != 3) {
		fprintf(stderr, "usage: mkseed_python CORE SEED\n");
		return 1;
	}
	if (core_image_load(&im, argv[1], &err) < 0) {
		fprintf(stderr, "mkseed_python: %s\n", err.buf);
		return 1;
	}
	crash_init(&c);
	if (crash_read_core(&c, im.data, im.size, &err) < 0 ||
	    crash_unwind_core(&c, im.data, im.size, NULL, &err) < 0) {
		fprintf(stderr, "mkseed_python: cannot read core '%s': %s\n", argv[1], err.buf);
		return 1;
	}
	if (!c.sym_py_runtime) {
		fprintf(stderr, "mkseed_python: no _PyRuntime in core '%s'\n", argv[1]);
		return 1;
	}
	if (c.nthreads > MAX_THREADS) {
		fprintf(stderr, "mkseed_python: %zu threads, more than fuzz_python takes (%d)\n", c.nthreads,
			MAX_THREADS);
		return 1;
	}
	/* The header as the reader is given it, before it learns more. */
	FILE *f = fopen(argv[2], "wb");
	if (!f) {
		perror(argv[2]);
		return 1;
	}
	put(f, c.sym_py_runtime, 8);
	put(f, c.sym_py_version, 8);
	put(f, (uint64_t)c.py_major, 1);
	put(f, (uint64_t)c.py_minor, 1);
	put(f, c.nthreads, 1);
	put(f, 0, 1);
	for (size_t i = 0; i < c.nthreads; i++) {
		put(f, (uint32_t)c.threads[i].tid, 4);
		put(f, c.threads[i].regs[RC_REG_FS_BASE], 8);
	}

	int r = seed_python_frames(&c, &err);
	py_print(&c, r, &err);

	qsort(reads, nreads, sizeof(*reads), by_start);
	size_t nregions = 0;
	for (size_t i = 0; i < nreads;) {
		struct range m = reads[i++];
		while (i < nreads && reads[i].start <= m.end) {
			if (reads[i].end > m.end)
				m.end = reads[i].end;
			i++;
		}
		nregions += write_range(f, &c, m.start, m.end);
	}
	if (fclose(f) != 0 || nregions > MAX_REGIONS) {
		fprintf(stderr, "mkseed_python: cannot write '%s'%s\n", argv[2],
			nregions > MAX_REGIONS ? ": too many regions" : "");
		return 1;
	}
	free(reads);
	crash_release(&c);
	core_image_release(&im);
	strbuf_release(&err);
	return 0;
}
