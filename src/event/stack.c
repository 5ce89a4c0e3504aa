/* A call's stack (see stack.h): one block for the struct, its frames
 * and every string, so that keeping one is a count and freeing it one
 * free. */
#include "event/stack.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "event/event.h"
#include "event/syscalls.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"

struct stack_builder {
	int tid;
	bool truncated;
	struct rc_stack_pyframe *py;
	size_t npy, apy;
	struct rc_stack_frame *native;
	size_t nnative, anative;
	/* The strings, each NUL-ended; frames hold offsets + 1 (0: NULL)
	 * until the block is made. */
	struct strbuf strings;
};

struct stack_builder *stack_builder_new(int tid)
{
	struct stack_builder *b = xcalloc(1, sizeof(*b));

	b->tid = tid;
	strbuf_init(&b->strings);
	return b;
}

static const char *keep(struct stack_builder *b, const char *s)
{
	if (!s)
		return NULL;
	uintptr_t at = b->strings.len + 1;
	strbuf_add(&b->strings, s, strlen(s) + 1);
	return (const char *)at;
}

void stack_builder_py(struct stack_builder *b, const char *function, const char *file, int line)
{
	if (b->npy >= RC_STACK_MAX_FRAMES) {
		b->truncated = true;
		return;
	}
	if (b->npy == b->apy) {
		b->apy = b->apy ? 2 * b->apy : 16;
		b->py = xrealloc(b->py, b->apy * sizeof(*b->py));
	}
	b->py[b->npy++] = (struct rc_stack_pyframe){ keep(b, function), keep(b, file), line };
}

void stack_builder_native(struct stack_builder *b, const struct rc_stack_frame *f)
{
	if (b->nnative >= RC_STACK_MAX_FRAMES) {
		b->truncated = true;
		return;
	}
	if (b->nnative == b->anative) {
		b->anative = b->anative ? 2 * b->anative : 32;
		b->native = xrealloc(b->native, b->anative * sizeof(*b->native));
	}
	struct rc_stack_frame k = *f;
	k.module = keep(b, f->module);
	k.function = keep(b, f->function);
	k.file = keep(b, f->file);
	b->native[b->nnative++] = k;
}

void stack_builder_truncated(struct stack_builder *b)
{
	b->truncated = true;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h;
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static uint64_t site_hash(const struct rc_stack *s)
{
	uint64_t h = 0;

	if (s->npy) {
		for (size_t i = 0; i < s->npy; i++)
			h = mix(mix(mix(h, str_hash(s->py[i].function)), str_hash(s->py[i].file)),
				(uint64_t)s->py[i].line);
		return h;
	}
	for (size_t i = 0; i < s->nnative; i++)
		h = mix(mix(h, str_hash(s->native[i].function)),
			s->native[i].function ? s->native[i].offset : s->native[i].pc);
	return h;
}

static const char *fix(const char *base, const char *p)
{
	return p ? base + ((uintptr_t)p - 1) : NULL;
}

const struct rc_stack *stack_build(struct stack_builder *b)
{
	size_t pysz = b->npy * sizeof(struct rc_stack_pyframe);
	size_t nsz = b->nnative * sizeof(struct rc_stack_frame);
	char *block = xmalloc(sizeof(struct rc_stack) + pysz + nsz + b->strings.len + 1);
	struct rc_stack *s = (struct rc_stack *)block;
	struct rc_stack_pyframe *py = (struct rc_stack_pyframe *)(block + sizeof(*s));
	struct rc_stack_frame *nat = (struct rc_stack_frame *)(block + sizeof(*s) + pysz);
	char *str = block + sizeof(*s) + pysz + nsz;

	memcpy(str, b->strings.buf ? b->strings.buf : "", b->strings.len);
	str[b->strings.len] = '\0';
	for (size_t i = 0; i < b->npy; i++) {
		py[i] = b->py[i];
		py[i].function = fix(str, py[i].function);
		py[i].file = fix(str, py[i].file);
	}
	for (size_t i = 0; i < b->nnative; i++) {
		nat[i] = b->native[i];
		nat[i].module = fix(str, nat[i].module);
		nat[i].function = fix(str, nat[i].function);
		nat[i].file = fix(str, nat[i].file);
	}
	*s = (struct rc_stack){
		.refs = 1, .tid = b->tid, .py = py, .npy = b->npy, .native = nat, .nnative = b->nnative,
		.truncated = b->truncated, .bytes = sizeof(*s) + pysz + nsz + b->strings.len + 1,
	};
	s->site_hash = site_hash(s);
	free(b->py);
	free(b->native);
	strbuf_release(&b->strings);
	free(b);
	return s;
}

const struct rc_stack *stack_missing(int tid, const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	size_t n = strlen(why) + 1;
	struct rc_stack *s = xmalloc(sizeof(*s) + n);
	char *text = (char *)(s + 1);
	memcpy(text, why, n);
	*s = (struct rc_stack){ .refs = 1, .tid = tid, .missing = text, .bytes = sizeof(*s) + n };
	return s;
}

const struct rc_stack *stack_ref(const struct rc_stack *s)
{
	if (s)
		__atomic_add_fetch(&((struct rc_stack *)s)->refs, 1, __ATOMIC_RELAXED);
	return s;
}

void stack_unref(const struct rc_stack *s)
{
	if (s && __atomic_sub_fetch(&((struct rc_stack *)s)->refs, 1, __ATOMIC_ACQ_REL) == 0)
		free((void *)s);
}

bool stack_may_quote(const struct rc_event *e)
{
	if (e->kind != RC_EV_SYSCALL)
		return false;
	if (e->blocked || e->dur >= RC_STACK_WAIT_S)
		return true;
	unsigned long long cl = syscall_classes(e->nr);
	if (event_failed(e))
		return e->err != EAGAIN && e->err != EINTR && !(e->err == ETIMEDOUT && (cl & CL_FUTEX));
	if (e->err || !e->ret_known)
		return false;
	if (cl & (CL_OPEN | CL_EXEC | CL_RET_ADDR))
		return true;
	/* A lock's holder letting it go to a waiter: where it held it. */
	if ((cl & CL_FUTEX) && event_futex_woke(e))
		return true;
	return e->nr == SYS_connect || e->nr == SYS_bind || e->nr == SYS_flock || e->nr == SYS_fcntl;
}

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static uint64_t content_hash(const struct rc_stack *s)
{
	uint64_t h = s->site_hash;

	for (size_t i = 0; i < s->nnative; i++)
		h = (h ^ s->native[i].pc) * 1099511628211ull;
	return h ^ s->npy ^ ((uint64_t)(unsigned)s->tid << 32);
}

static bool same_content(const struct rc_stack *a, const struct rc_stack *b)
{
	if (a->tid != b->tid || a->nnative != b->nnative || a->truncated != b->truncated || a->npy != b->npy ||
	    (a->missing != NULL) != (b->missing != NULL) || !stack_same_site(a, b))
		return false;
	if (a->missing)
		return strcmp(a->missing, b->missing) == 0;
	for (size_t i = 0; i < a->nnative; i++)
		if (a->native[i].pc != b->native[i].pc || !str_eq(a->native[i].module, b->native[i].module))
			return false;
	return true;
}

static void shelf_free(void *p)
{
	stack_unref(p);
}

void stack_shelf_init(struct stack_shelf *sh, size_t max)
{
	memset(sh, 0, sizeof(*sh));
	sh->by_hash = xcalloc(1, sizeof(*sh->by_hash));
	hmap_init(sh->by_hash);
	sh->max = max;
}

const struct rc_stack *stack_shelf_put(struct stack_shelf *sh, const struct rc_stack *s)
{
	long long key = (long long)(content_hash(s) >> 1);
	void **slot = hmap_get_int(sh->by_hash, key);

	if (slot && same_content(*slot, s)) {
		stack_unref(s);
		sh->shared++;
		return stack_ref(*slot);
	}
	sh->bytes += s->bytes;
	if (!slot && sh->by_hash->count < sh->max)
		*hmap_put_int(sh->by_hash, key, NULL) = (void *)stack_ref(s);
	return s;
}

void stack_shelf_release(struct stack_shelf *sh)
{
	if (sh->by_hash) {
		hmap_release(sh->by_hash, shelf_free);
		free(sh->by_hash);
	}
	memset(sh, 0, sizeof(*sh));
}

bool stack_same_site(const struct rc_stack *a, const struct rc_stack *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->site_hash != b->site_hash || a->missing || b->missing)
		return false;
	if (a->npy || b->npy) {
		if (a->npy != b->npy)
			return false;
		for (size_t i = 0; i < a->npy; i++)
			if (a->py[i].line != b->py[i].line || !str_eq(a->py[i].function, b->py[i].function) ||
			    !str_eq(a->py[i].file, b->py[i].file))
				return false;
		return true;
	}
	if (a->nnative != b->nnative)
		return false;
	for (size_t i = 0; i < a->nnative; i++) {
		const struct rc_stack_frame *x = &a->native[i], *y = &b->native[i];
		if (!str_eq(x->function, y->function) || !str_eq(x->module, y->module) ||
		    (x->function ? x->offset != y->offset : x->pc != y->pc))
			return false;
	}
	return true;
}

bool stack_py_own(const struct rc_stack_pyframe *f)
{
	const char *p = f->file;

	if (!p)
		return false;
	/* "<frozen importlib._bootstrap>", "<string>": Python's own. */
	if (p[0] == '<')
		return false;
	if (strstr(p, "/site-packages/") || strstr(p, "/dist-packages/"))
		return false;
	/* The standard library: .../lib/python3.11/x.py, but not a
	 * package's directory below it. */
	const char *lib = strstr(p, "/lib/python");
	if (!lib)
		lib = strstr(p, "/lib64/python");
	return !lib;
}

bool stack_native_own(const struct rc_stack_frame *f)
{
	static const char *const system_dirs[] = {
		"/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/", "/usr/local/lib/", "/usr/libexec/",
	};
	const char *m = f->module;

	if (!m)
		return false;
	/* The entry point the linker put in the program is no code of its
	 * author's, and an interpreter's own code is no script's. */
	if (f->function && strcmp(f->function, "_start") == 0)
		return false;
	const char *base = strrchr(m, '/');
	base = base ? base + 1 : m;
	if (strncmp(base, "python", 6) == 0 || strncmp(base, "libpython", 9) == 0)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(system_dirs); i++)
		if (strncmp(m, system_dirs[i], strlen(system_dirs[i])) == 0)
			return false;
	/* The vdso and the like. */
	return m[0] == '/';
}
