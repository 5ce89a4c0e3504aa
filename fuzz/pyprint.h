/* The Python frames and thread names of a crash model, as fuzz_python
 * (RC_FUZZ_PYTHON_PRINT=1) and mkseed_python print them: one format, so
 * that fuzz/mkseeds-python can check a seed replays to what its core
 * gave. */
#ifndef RC_FUZZ_PYPRINT_H
#define RC_FUZZ_PYPRINT_H

#include <stdio.h>

#include "crash/crash.h"
#include "util/strbuf.h"

static inline void py_print(const struct rc_crash *c, int r, const struct strbuf *err)
{
	printf("python %d.%d: %s\n", c->py_major, c->py_minor, r < 0 ? strbuf_str(err) : "read");
	for (size_t i = 0; i < c->nthreads; i++) {
		const struct rc_thread *t = &c->threads[i];
		if (!t->python && !t->py_name)
			continue;
		printf("thread %d%s%s%s%s%s\n", t->tid, t->python ? "" : " (no thread state)",
		       t->py_name ? " '" : "", t->py_name ? t->py_name : "", t->py_name ? "'" : "",
		       t->gil ? " gil" : "");
		for (size_t k = 0; k < t->npy; k++) {
			const struct rc_pyframe *f = &t->py[k];
			printf("  %s (%s:%d)%s\n", f->function ? f->function : "?", f->file ? f->file : "?",
			       f->line, f->entry ? " entry" : "");
		}
	}
	fflush(stdout);
}

#endif
