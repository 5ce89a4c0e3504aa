/* Shared helpers for the decoder tests: decode a call whose arguments point
 * into this process's own memory (the call's memory is this process's,
 * read as a live tracee's is: dt_self_mem), then check the text and the
 * event, and that the strace parser reads the same facts back from the
 * text. */
#ifndef RC_TESTS_DECODE_TEST_H
#define RC_TESTS_DECODE_TEST_H

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cmocka.h>

#include "capture/decode.h"
#include "strace/parser.h"
#include "util/strbuf.h"
#include "util/xlat.h"

/* The text of the decoration F was read from (NULL: none shown), which a
 * test compares with the text it printed. */
static inline const char *dt_shown(const struct rc_fdfacts *f)
{
	return f ? f->desc : NULL;
}

struct dt {
	struct dec_opts opts;
	struct dec_arena arena;
	struct rc_event ev;
	struct strbuf args;	/* the text between the parentheses */
	struct strbuf rv_extra;
	struct strbuf line;	/* "name(args) = ret" */
	/* The parser's reading of LINE. */
	struct strace_parser *parser;
	struct rc_event parsed;
	bool have_parsed;
	/* The last decode: where the exit half starts in ARGS, and the
	 * result (the real call's, when it was made). */
	size_t entry_len;
	long long ret;
	int err;
};

/* This process's memory, as the tracer reads a tracee's (capture/call.h). */
static inline const struct call_mem *dt_self_mem(void)
{
	static struct mem_live self;

	mem_live_init(&self, getpid());
	return &self.m;
}

/* What the kernel does between entry and exit, in tests that stand in
 * for it. */
typedef void (*dt_kernel_fn)(void *ctx);

static inline void dt_init(struct dt *t)
{
	memset(t, 0, sizeof(*t));
	t->opts.strsize = 32;
	t->opts.preview_max = 1024;
}

static inline void dt_release(struct dt *t)
{
	if (t->parser)
		strace_parser_free(t->parser);
	dec_arena_release(&t->arena);
	strbuf_release(&t->args);
	strbuf_release(&t->rv_extra);
	strbuf_release(&t->line);
}

/* Decode call NR with ARGS, entry half then exit half, as the tracer
 * would: between the halves the call is made for real (REAL: its result
 * then replaces RVAL/ERR), or KERNEL (when not NULL) stands in for it.
 * Builds t->line like the printer. Returns the argument text. */
static inline const char *dt_decode_with(struct dt *t, long nr, const uint64_t args[6], bool real,
					 long long rval, int err, dt_kernel_fn kernel, void *ctx)
{
	struct dec d;

	if (t->parser) {
		strace_parser_free(t->parser);
		t->parser = NULL;
	}
	t->have_parsed = false;
	dec_arena_reset(&t->arena);
	strbuf_reset(&t->args);
	strbuf_reset(&t->rv_extra);
	strbuf_reset(&t->line);
	event_clear(&t->ev);
	t->ev.kind = RC_EV_SYSCALL;
	t->ev.nr = nr;
	t->ev.name = dec_syscall_name(nr);

	memset(&d, 0, sizeof(d));
	d.tid = getpid();
	d.call.nr = nr;
	memcpy(d.call.args, args, sizeof(d.call.args));
	d.call.mem = dt_self_mem();
	d.e = &t->ev;
	d.out = &t->args;
	d.arena = &t->arena;
	d.opts = &t->opts;
	d.rv_extra = &t->rv_extra;
	dec_call(&d);
	t->entry_len = t->args.len;
	if (real) {
		long r = syscall(nr, args[0], args[1], args[2], args[3], args[4], args[5]);
		err = r < 0 ? errno : 0;
		rval = r;
	} else if (kernel) {
		kernel(ctx);
	}
	t->ret = err ? -1 : rval;
	t->err = err;
	d.exiting = true;
	d.call.rval = err ? -1 : rval;
	d.call.err = err;
	dec_call(&d);

	t->ev.ret_known = true;
	t->ev.ret = err ? -1 : rval;
	t->ev.err = err;

	const struct dec_syscall *sc = dec_lookup(nr);
	strbuf_addf(&t->line, "%s(%s) = ", t->ev.name ? t->ev.name : "?", strbuf_str(&t->args));
	if (err)
		strbuf_addf(&t->line, "-1 %s (%s)", xlat_errno_name(err), strerror(err));
	else if ((sc && sc->rv == RC_RV_HEX) || d.rv_hex)
		strbuf_addf(&t->line, "%#llx", (unsigned long long)rval);
	else
		strbuf_addf(&t->line, "%lld", rval);
	if (t->rv_extra.len)
		strbuf_addf(&t->line, " %s", strbuf_str(&t->rv_extra));
	return strbuf_str(&t->args);
}

/* The same with no kernel in between: RVAL/ERR is the result. */
static inline const char *dt_decode(struct dt *t, long nr, const uint64_t args[6], long long rval, int err)
{
	return dt_decode_with(t, nr, args, false, rval, err, NULL, NULL);
}

/* The parser's event for t->line. */
static inline const struct rc_event *dt_parse(struct dt *t)
{
	struct strbuf err = STRBUF_INIT;

	strbuf_addc(&t->line, '\n');
	t->parser = strace_parser_from_buffer(t->line.buf, t->line.len);
	t->line.buf[--t->line.len] = '\0';
	assert_int_equal(strace_parser_next(t->parser, &t->parsed, &err), 1);
	strbuf_release(&err);
	t->have_parsed = true;
	return &t->parsed;
}

#define DT_ARGS(...) ((const uint64_t[6]){ __VA_ARGS__ })
#define DT_PTR(p) ((uint64_t)(uintptr_t)(p))

/* Check the facts the rules read agree between decoder and parser. */
static inline void dt_check_same_facts(struct dt *t)
{
	const struct rc_event *p = dt_parse(t);
	const struct rc_event *e = &t->ev;

	assert_int_equal(p->nr, e->nr);
	assert_int_equal(p->err, e->err);
	assert_int_equal(p->fd, e->fd);
	assert_int_equal(p->fd2, e->fd2);
	assert_int_equal(p->dirfd, e->dirfd);
	if (p->path || e->path)
		assert_string_equal(p->path ? p->path : "(null)", e->path ? e->path : "(null)");
	if (p->path2 || e->path2)
		assert_string_equal(p->path2 ? p->path2 : "(null)", e->path2 ? e->path2 : "(null)");
	assert_int_equal(p->flags, e->flags);
	assert_int_equal(p->mode, e->mode);
	assert_int_equal(p->addr, e->addr);
	assert_int_equal(p->len, e->len);
	assert_int_equal(p->offset, e->offset);
	assert_int_equal(p->st_size, e->st_size);
	assert_int_equal(p->futex_op, e->futex_op);
	assert_int_equal(p->timeout_ms, e->timeout_ms);
	assert_int_equal(p->sa.family, e->sa.family);
	assert_int_equal(p->sa.port, e->sa.port);
	if (p->sa.host || e->sa.host)
		assert_string_equal(p->sa.host ? p->sa.host : "(null)", e->sa.host ? e->sa.host : "(null)");
	assert_int_equal(p->nfds, e->nfds);
	for (int i = 0; i < p->nfds && i < e->nfds; i++)
		assert_int_equal(p->fds[i], e->fds[i]);
	assert_int_equal(p->argc, e->argc);
	for (int i = 0; i < p->argc && i < e->argc; i++)
		assert_string_equal(p->argv[i], e->argv[i]);
	assert_int_equal(p->lock, e->lock);
	assert_int_equal(p->lock_waits, e->lock_waits);
	assert_int_equal(p->has_kill_target, e->has_kill_target);
	assert_int_equal(p->kill_target, e->kill_target);
	if (p->kind == RC_EV_SYSCALL && e->has_kill_target)
		assert_int_equal(p->signo, e->signo);
}

#endif
