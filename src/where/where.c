/* Where in the code (see where.h). */
#include "where/where.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>

#include "crash/crash.h"
#include "crash/python.h"
#include "crash/unwind.h"
#include "event/syscalls.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"

/* Processes whose unwinder is kept at once; past it, the one used
 * longest ago goes (its modules are parsed again if it calls again). */
#define MAX_PROCS 64
/* Distinct stacks shared at once: a call made again from the same place
 * gets the same stack, one block however many findings keep it. */
#define MAX_SHARED 65536
/* The stacks made in all, at most, in bytes: a service attached for
 * hours that fails calls from ever new places (a deep Python stack takes
 * about 8 KiB) is not to grow without bound. Past it a call's stack
 * says why it has none. */
#define MAX_BYTES (256u << 20)
/* Mappings this large are what mmap-churn counts. */
#define LARGE_MAP (16ULL << 20)
/* Reads and writes are too many to unwind each (a reader of 1 KiB
 * chunks makes half a million): one in RC_STACK_SAMPLE_IO of each
 * thread's on each fd is, the first among them, which small-io scales to
 * its sites' shares. Threads and fds counted at once, at most. */
#define SAMPLE_KEYS 65536
/* Futex words waited on for RC_STACK_WAIT_S or more, kept at once: a
 * wake of one of them is a holder letting a waiter go, worth saying
 * where (lock-wait); a wake of a word nobody waited on long (a pool
 * handing out work, a short hand-over) is not unwound. */
#define WAITED_WORDS 4096

struct proc {
	struct crash_thread_unwind *u;
	struct py_code_cache *codes;	/* its code objects as named (copies' frames) */
	char *why;		/* the unwinder could not be made: why */
	uint64_t used;		/* when last used, in walks */
};

struct where {
	struct hmap procs;	/* tgid -> struct proc */
	struct stack_shelf shelf;	/* the stacks made, for the next call from the same place */
	struct hmap io;		/* tid << 32 | fd -> reads and writes seen, as a pointer's value */
	struct hmap waited;	/* a futex word of a process waited on long (word_key) */
	struct hmap programs;	/* program files read, by device and inode: Python or not */
	uint64_t clock;
	struct where_stats stats;
};

struct where *where_new(void)
{
	struct where *w = xcalloc(1, sizeof(*w));

	hmap_init(&w->procs);
	stack_shelf_init(&w->shelf, MAX_SHARED);
	hmap_init(&w->io);
	hmap_init(&w->waited);
	hmap_init(&w->programs);
	return w;
}

static void proc_free(void *p)
{
	struct proc *pr = p;

	if (!pr)
		return;
	crash_thread_unwind_free(pr->u);
	crash_py_code_cache_free(pr->codes);
	free(pr->why);
	free(pr);
}

void where_free(struct where *w)
{
	if (!w)
		return;
	hmap_release(&w->procs, proc_free);
	stack_shelf_release(&w->shelf);
	hmap_release(&w->io, NULL);
	hmap_release(&w->waited, NULL);
	hmap_release(&w->programs, NULL);
	free(w);
}

const struct where_stats *where_stats(const struct where *w)
{
	return &w->stats;
}

void where_forget(struct where *w, pid_t tgid)
{
	proc_free(hmap_del_int(&w->procs, tgid));
}

/* An open that worked of a directory or of code (a module, a library):
 * an interpreter or the loader reads each once, and no rule quotes
 * them (repeated-open leaves code out). Python's start-up makes a
 * thousand. */
static bool opens_code(const struct rc_event *e)
{
	static const char *const ends[] = { ".py", ".pyc", ".so", ".pyi" };
	const char *p = e->path;

	if (e->flags & O_DIRECTORY)
		return true;
	if (!p)
		return false;
	size_t n = strlen(p);
	for (size_t i = 0; i < ARRAY_SIZE(ends); i++) {
		size_t k = strlen(ends[i]);
		if (n > k && strcmp(p + n - k, ends[i]) == 0)
			return true;
	}
	/* libfoo.so.6, libfoo.so.1.2.3 */
	return strstr(p, ".so.") != NULL;
}

bool where_wants(const struct rc_event *e)
{
	if (!stack_may_quote(e))
		return false;
	/* A failure stack_may_quote keeps, a wait, a blocked call. */
	if (e->blocked || e->dur >= RC_STACK_WAIT_S || e->err)
		return true;
	unsigned long long cl = syscall_classes(e->nr);
	if (cl & CL_OPEN)
		return !opens_code(e);
	if (cl & CL_RET_ADDR)
		return e->len >= LARGE_MAP && !event_mmap_reserves(e);
	if (cl & CL_EXEC)
		return true;
	/* flock, fcntl: only a lock; connect, bind. */
	return e->lock != RC_LOCK_NONE || (e->nr != SYS_flock && e->nr != SYS_fcntl);
}

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct proc *proc_of(struct where *w, pid_t tgid)
{
	bool created;
	void **slot = hmap_put_int(&w->procs, tgid, &created);

	if (!created)
		return *slot;
	if (w->procs.count > MAX_PROCS) {
		/* The one used longest ago. */
		struct hmap_iter it;
		long long oldest = -1;
		uint64_t at = UINT64_MAX;
		for (struct hmap_node *n = hmap_first(&w->procs, &it); n; n = hmap_next(&w->procs, &it)) {
			const struct proc *p = n->value;
			if (p && p->used < at) {
				at = p->used;
				oldest = hmap_node_int(n);
			}
		}
		if (oldest >= 0)
			where_forget(w, (pid_t)oldest);
		slot = hmap_get_int(&w->procs, tgid);
	}
	struct proc *p = xcalloc(1, sizeof(*p));
	struct strbuf err = STRBUF_INIT;
	p->u = crash_thread_unwind_new(tgid, &err);
	p->codes = crash_py_code_cache_new();
	if (!p->u)
		p->why = strbuf_detach(&err);
	strbuf_release(&err);
	*slot = p;
	return p;
}

/* Thread T's frames (native, then Python's) as a stack. */
static const struct rc_stack *to_stack(const struct rc_thread *t)
{
	struct stack_builder *b = stack_builder_new(t->tid);

	for (size_t i = 0; i < t->npy; i++)
		stack_builder_py(b, t->py[i].function, t->py[i].file, t->py[i].line);
	for (size_t i = 0; i < t->nframes; i++) {
		const struct rc_frame *f = &t->frames[i];
		struct rc_stack_frame sf = {
			.pc = f->pc, .module = f->module ? f->module->name : NULL, .function = f->function,
			.offset = f->offset, .file = f->file, .line = f->line, .inlined = f->inlined,
		};
		stack_builder_native(b, &sf);
	}
	if (t->truncated)
		stack_builder_truncated(b);
	return stack_build(b);
}

/* T's native frames from REGS, its stack read from COPY where it has it
 * (the thread ran on since) and from the process elsewhere. */
static int unwind(struct proc *p, struct rc_thread *t, const uint64_t *regs, const struct rc_stack_copy *copy,
		  struct strbuf *err)
{
	struct rc_crash *c = crash_thread_unwind_model(p->u);

	if (copy) {
		c->stack_copy = copy->bytes;
		c->stack_copy_at = copy->regs[RC_REG_RSP];
		c->stack_copy_len = copy->len;
	}
	int r = crash_thread_unwind(p->u, t, regs, err);
	c->stack_copy = NULL;
	return r;
}

/* Whether any of T's Python frames has a name or a file. */
static bool named(const struct rc_thread *t)
{
	for (size_t i = 0; i < t->npy; i++)
		if (t->py[i].function || t->py[i].file)
			return true;
	return false;
}

/* Whether some of T's Python frames has no name. */
static bool unnamed(const struct rc_thread *t)
{
	for (size_t i = 0; i < t->npy; i++)
		if (!t->py[i].function)
			return true;
	return false;
}

/* G's file as a frame shows it: one whose start did not fit begins
 * with "...". */
static const char *given_file(const struct rc_py_given *g, char buf[RC_PY_GIVEN_FILE + 4])
{
	snprintf(buf, RC_PY_GIVEN_FILE + 4, "%s%s", g->file_cut ? "..." : "", g->file);
	return buf;
}

/* COPY's names of code objects, read at the call (struct rc_py_given),
 * kept in P's cache where it names them not: for frames the process's
 * memory no longer names (it has exited since). */
static void given_names(struct proc *p, const struct rc_stack_copy *copy)
{
	char file[RC_PY_GIVEN_FILE + 4];

	for (size_t i = 0; i < copy->ngiven; i++) {
		const struct rc_py_given *g = &copy->given[i];
		crash_py_code_give(p->codes, g->code, g->mark, g->name, given_file(g, file));
	}
}

/* T's Python frames from what the source read of them at the call
 * (COPY: the thread ran on since, so its frames now are not the call's),
 * named from C's memory; false with ERR saying why there are none. */
static bool copied_python(struct proc *p, pid_t tgid, struct rc_thread *t, const struct rc_stack_copy *copy,
			  struct strbuf *err)
{
	struct rc_crash *c = crash_thread_unwind_model(p->u);
	bool ok = false;

	strbuf_reset(err);
	c->live_pid = tgid;
	switch (copy->py_read) {
	case RC_PY_NOT_ASKED:
		/* The first call of this Python the source copied: from the
		 * next on, it walks the frames itself. */
		if (!copy->walk)
			strbuf_adds(err, "the eBPF capture did not walk Python's frames; --backend ptrace does");
		else if (crash_python_walk(c, copy->walk, err) < 0)
			ok = true;	/* a Python whose frames are not read: native frames, as under ptrace */
		else
			strbuf_adds(err, "the eBPF capture walks Python's frames from the process's next call "
				    "on (this one found the interpreter); --backend ptrace reads them at every call");
		break;
	case RC_PY_READ: {
		bool fresh = false;
		for (size_t i = 0; i < copy->npy; i++)
			fresh |= !crash_py_code_cached(p->codes, copy->py[i].code, NULL);
		ok = crash_python_raw_frames(c, p->codes, t, copy->py, copy->npy, err) == 0;
		if (ok && copy->ngiven && unnamed(t)) {
			/* Named again, from what the source read. */
			given_names(p, copy);
			crash_thread_release_python(t);
			ok = crash_python_raw_frames(c, p->codes, t, copy->py, copy->npy, err) == 0;
		}
		t->truncated |= copy->py_truncated;
		/* What names them is kept now: the source holds no thread
		 * for these code objects again. */
		bool kept = true;
		for (size_t i = 0; i < copy->npy; i++)
			kept &= crash_py_code_cached(p->codes, copy->py[i].code,
						     copy->py_marks ? &copy->py_marks[i] : NULL);
		if (copy->py_learned)
			*copy->py_learned = ok && fresh && kept;
		if (ok && t->npy && !named(t)) {
			/* Its code objects could not be read: gone with it. */
			ok = false;
			strbuf_addf(err, "process %d had exited before its Python frames were named (from its "
				    "code objects); --backend ptrace names them at the call", (int)tgid);
		}
		break;
	}
	case RC_PY_NO_THREAD:
		ok = true;	/* a thread that runs no Python: native frames */
		break;
	case RC_PY_FAILED:
		strbuf_adds(err, "the eBPF capture could not read the thread's Python frames (memory paged out "
			      "or changing); --backend ptrace reads them with the thread stopped");
		break;
	}
	c->live_pid = 0;
	return ok;
}

/* Thread TID's innermost Python frames as COPY's names of them (struct
 * rc_py_given), up to the first it has no name for: what is left of a
 * process gone before any of its stacks was read (its modules, which
 * the native frames need, went with it). NULL when none is named. */
static const struct rc_stack *given_stack(pid_t tid, const struct rc_stack_copy *copy)
{
	struct stack_builder *b = NULL;
	char file[RC_PY_GIVEN_FILE + 4];

	if (copy->py_read != RC_PY_READ)
		return NULL;
	for (size_t i = 0; i < copy->npy; i++) {
		/* 3.12+'s shim below an entry frame (owned by the C stack:
		 * 3 and up in every version that has one) names no code. */
		if (copy->py[i].owner >= 3)
			continue;
		const struct rc_py_given *g = NULL;
		for (size_t k = 0; k < copy->ngiven && !g; k++)
			if (copy->given[k].code == copy->py[i].code && copy->given[k].mark == copy->py[i].mark)
				g = &copy->given[k];
		if (!g)
			break;
		if (!b)
			b = stack_builder_new(tid);
		stack_builder_py(b, g->name, given_file(g, file), 0);
	}
	if (!b)
		return NULL;
	stack_builder_truncated(b);
	return stack_build(b);
}

static const struct rc_stack *take(struct where *w, pid_t tgid, pid_t tid, const uint64_t *regs,
				   const struct rc_stack_copy *copy)
{
	struct proc *p = proc_of(w, tgid);
	double t0 = mono();
	const struct rc_stack *s;

	p->used = ++w->clock;
	if (w->shelf.bytes >= MAX_BYTES) {
		w->stats.failed++;
		return stack_missing(tid, "more stacks than rootcause keeps (%u MiB of them)", MAX_BYTES >> 20);
	}
	if (!p->u) {
		if (copy && kill(tgid, 0) < 0 && errno == ESRCH && (s = given_stack(tid, copy))) {
			w->stats.taken++;
			return stack_shelf_put(&w->shelf, s);
		}
		w->stats.failed++;
		if (copy && kill(tgid, 0) < 0 && errno == ESRCH)
			return stack_missing(tid, "process %d had exited before the eBPF capture's copy of its stack "
					     "was read (its frames are named from the running process); --backend "
					     "ptrace reads them at the call", (int)tgid);
		return stack_missing(tid, "cannot read process %d: %s", (int)tgid, p->why);
	}
	struct rc_thread t = { .tid = tid };
	struct strbuf err = STRBUF_INIT;
	struct rc_crash *c = crash_thread_unwind_model(p->u);
	if (unwind(p, &t, regs, copy, &err) < 0) {
		s = stack_missing(tid, "cannot unwind: %s", strbuf_str(&err));
		w->stats.failed++;
	} else if (copy && c->sym_py_runtime && !copied_python(p, tgid, &t, copy, &err)) {
		s = stack_missing(tid, "%s", strbuf_str(&err));
		w->stats.failed++;
	} else {
		if (!copy) {
			/* Its Python frames, read while it is still stopped
			 * (or asleep in its call: they do not change then
			 * either). */
			c->live_pid = tgid;
			c->threads = &t;
			c->nthreads = 1;
			strbuf_reset(&err);
			crash_python_thread_frames(c, &err);
			c->threads = NULL;
			c->nthreads = 0;
			c->live_pid = 0;
		}
		s = stack_shelf_put(&w->shelf, to_stack(&t));
		w->stats.shared = w->shelf.shared;
		w->stats.taken++;
	}
	crash_thread_release(&t);
	strbuf_release(&err);
	w->stats.seconds += mono() - t0;
	return s;
}

/* The kernel's probe (COPY at a call no finding quotes, its process's
 * Python not walked yet): the modules are read again until they name
 * _PyRuntime (the interpreter is loaded), and the walk found is given
 * back through COPY. Nothing is unwound. */
static void probe(struct where *w, pid_t tgid, const struct rc_stack_copy *copy)
{
	struct proc *p = proc_of(w, tgid);
	double t0 = mono();

	p->used = ++w->clock;
	if (!p->u)
		return;
	struct strbuf err = STRBUF_INIT;
	struct rc_crash *c = crash_thread_unwind_model(p->u);
	if (c->sym_py_runtime || crash_thread_unwind_refresh(p->u, &err) == 0) {
		c->live_pid = tgid;
		crash_python_walk(c, copy->walk, &err);
		c->live_pid = 0;
	}
	strbuf_release(&err);
	w->stats.probes++;
	w->stats.seconds += mono() - t0;
}

bool where_name(struct where *w, pid_t tgid, pid_t tid, const struct rc_py_raw *py, size_t n, uint64_t *marks)
{
	struct proc *p = proc_of(w, tgid);
	double t0 = mono();
	bool ok = p->u != NULL;

	p->used = ++w->clock;
	if (ok) {
		struct rc_crash *c = crash_thread_unwind_model(p->u);
		struct rc_thread t = { .tid = tid };
		struct strbuf err = STRBUF_INIT;
		/* The interpreter may have been mapped since the modules were
		 * read. */
		if (!c->sym_py_runtime)
			crash_thread_unwind_refresh(p->u, &err);
		c->live_pid = tgid;
		ok = c->sym_py_runtime && crash_python_raw_frames(c, p->codes, &t, py, n, &err) == 0 && t.npy;
		c->live_pid = 0;
		for (size_t i = 0; ok && i < t.npy; i++)
			ok = t.py[i].function && t.py[i].file;
		/* Each kept under the mark the call was copied with (a frame
		 * that names nothing, an entry's shim, keeps the copy's). */
		for (size_t i = 0; ok && i < n; i++) {
			if (!crash_py_code_cached(p->codes, py[i].code, &marks[i]))
				marks[i] = py[i].mark;
			else if (py[i].mark && marks[i] != py[i].mark)
				ok = false;
		}
		crash_thread_release(&t);
		strbuf_release(&err);
	}
	w->stats.named += ok;
	w->stats.seconds += mono() - t0;
	return ok;
}

const struct rc_stack *where_take(struct where *w, pid_t tgid, pid_t tid)
{
	return take(w, tgid, tid, NULL, NULL);
}

/* Where thread TID sleeps in a call, as /proc/PID/task/TID/syscall says
 * it ("NR ARG1..ARG6 SP PC"): REGS' stack pointer and pc. False when it
 * is running, or not in a call. */
static bool sleeping_at(pid_t tgid, pid_t tid, uint64_t *regs)
{
	char path[64], buf[256];
	unsigned long long v[9];

	snprintf(path, sizeof(path), "/proc/%d/task/%d/syscall", (int)tgid, (int)tid);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	bool ok = fgets(buf, sizeof(buf), f) &&
		  sscanf(buf, "%lld %llx %llx %llx %llx %llx %llx %llx %llx", (long long *)&v[0], &v[1], &v[2],
			 &v[3], &v[4], &v[5], &v[6], &v[7], &v[8]) == 9 && (long long)v[0] >= 0;
	fclose(f);
	if (!ok)
		return false;
	memset(regs, 0, RC_CRASH_NREGS * sizeof(*regs));
	regs[RC_REG_RSP] = v[7];
	regs[RC_REG_RIP] = v[8];
	return true;
}

const struct rc_stack *where_take_blocked(struct where *w, pid_t tgid, pid_t tid)
{
	uint64_t regs[RC_CRASH_NREGS];

	if (!sleeping_at(tgid, tid, regs))
		return stack_missing(tid, "thread %d was no longer asleep in the call", (int)tid);
	return take(w, tgid, tid, regs, NULL);
}

/* A map of counts or marks that holds MAX keys starts again empty: what
 * it forgets is a sample's phase or a word's past wait, not a stack. */
static void forget_if_full(struct hmap *m, size_t max)
{
	if (m->count < max)
		return;
	hmap_release(m, NULL);
	hmap_init(m);
}

/* E, a read or write that moved data on an fd of the program's own, is
 * the one in RC_STACK_SAMPLE_IO of its thread and fd that is unwound. */
static bool sampled_io(struct where *w, pid_t tid, const struct rc_event *e)
{
	if (e->kind != RC_EV_SYSCALL || e->fd < 3 || e->err || !e->ret_known || e->ret <= 0 ||
	    !(syscall_classes(e->nr) & (CL_READ | CL_WRITE)))
		return false;
	forget_if_full(&w->io, SAMPLE_KEYS);
	void **slot = hmap_put_int(&w->io, ((long long)tid << 32) | (unsigned)e->fd, NULL);
	uintptr_t n = (uintptr_t)*slot;
	*slot = (void *)(n + 1);
	return n % RC_STACK_SAMPLE_IO == 0;
}

static long long word_key(pid_t tgid, uint64_t addr)
{
	return (long long)((addr * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)(unsigned)tgid << 17)) >> 1;
}

/* E, a futex call, is a wake worth unwinding: of a word some thread of
 * its process waited on long. Long waits are noted as they end. */
static bool wake_of_waited(struct where *w, pid_t tgid, const struct rc_event *e)
{
	if (event_futex_waits(e)) {
		if (!e->err && e->ret_known && e->dur >= RC_STACK_WAIT_S) {
			forget_if_full(&w->waited, WAITED_WORDS);
			hmap_put_int(&w->waited, word_key(tgid, e->addr), NULL);
		}
		return true;
	}
	return !event_futex_woke(e) || hmap_get_int(&w->waited, word_key(tgid, e->addr));
}

/* Program files read at once: a shell script's tree runs a few dozen. */
#define PROGRAMS 4096

bool where_program(struct where *w, const char *path, struct rc_py_program *out)
{
	struct stat st;
	struct strbuf err = STRBUF_INIT;

	/* A tree of shells execs the same few programs again and again:
	 * each file is read once. */
	if (stat(path, &st) < 0)
		return false;
	long long key = (long long)(hash_int64((long long)st.st_ino) ^ (unsigned long long)st.st_dev) >> 1;
	forget_if_full(&w->programs, PROGRAMS);
	bool fresh;
	hmap_put_int(&w->programs, key, &fresh);
	if (!fresh)
		return false;
	double t0 = mono();
	/* A file that cannot be read as a Python's (its version unknown, a
	 * program gone since) leaves the kernel's probe to find the walk. */
	bool ok = crash_python_program(path, out, &err) == 1;
	strbuf_release(&err);
	w->stats.programs += ok;
	w->stats.seconds += mono() - t0;
	return ok;
}

const struct rc_stack *where_at_exit(struct where *w, pid_t tgid, pid_t tid, const struct rc_event *e,
				     const struct rc_stack_copy *copy)
{
	if (e->kind != RC_EV_SYSCALL)
		return NULL;
	unsigned long long cl = syscall_classes(e->nr);
	if ((cl & CL_EXEC) && !e->err && e->ret_known) {
		/* A new program: nothing of the old one's modules holds. */
		where_forget(w, tgid);
		return NULL;
	}
	if (copy) {
		/* The copy is the kernel's choice of calls; this one, of what
		 * is worth unwinding among them, and every copy for a sum's
		 * site (a sample the kernel took). A copy at a call not worth
		 * it is the kernel's probe for the walk of the process's
		 * Python (struct rc_stack_copy): nothing is unwound, and no
		 * one is given a stack. */
		if (where_wants(e) || copy->site) {
			uint64_t regs[RC_CRASH_NREGS] = { 0 };
			memcpy(regs, copy->regs, MIN(sizeof(regs), sizeof(copy->regs)));
			return take(w, tgid, tid, regs, copy);
		}
		if (copy->py_read == RC_PY_NOT_ASKED && copy->walk)
			probe(w, tgid, copy);
		return NULL;
	}
	if ((cl & CL_FUTEX) && !wake_of_waited(w, tgid, e))
		return NULL;
	if (!where_wants(e) && !sampled_io(w, tid, e))
		return NULL;
	if (e->blocked)
		return where_take_blocked(w, tgid, tid);
	return where_take(w, tgid, tid);
}
