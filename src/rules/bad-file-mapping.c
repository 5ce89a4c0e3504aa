/* bad-file-mapping: a fault inside a file mapping past the end of the
 * file, or just past the end of the mapping.
 *
 * A program maps a file (weights, an index, a database) and reads it as
 * memory. When the file is shorter than the mapping (a truncated
 * download, a file rewritten or truncated while mapped), touching a page
 * past its end raises SIGBUS (BUS_ADRERR). The rule keeps the recent file
 * mappings (address, length, offset, path from the fd table, the size an
 * earlier fstat of that fd reported, and any later ftruncate/truncate/
 * O_TRUNC of the path) and places each SIGBUS or SIGSEGV address in them:
 * the file, the offset of the fault in it, the size then, and the size on
 * disk now when the file is still there. A SIGSEGV inside a mapping within
 * the file's size (a write to a read-only mapping) is not this rule's.
 *
 * On a core, or a crash caught alive, the crash half (crash/rules/
 * bad-file-mapping.c) makes the same judgement from the crash model.
 *
 * A fault the thread returned from (rt_sigreturn) was the program's own
 * doing: a JVM arms a no-access polling page that the kernel may place
 * right after a small file mapping (a locale file), and its handler
 * goes on.  Such a fault is no finding, unless the process is then
 * killed by the same signal (a handler that re-raises on return).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "event/syscalls.h"
#include "rules/fds.h"
#include "rules/finding.h"
#include "rules/paths.h"
#include "rules/proc-view.h"
#include "rules/rule.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"
#include "util/xlat.h"

#define RULE_ID "bad-file-mapping"
/* File mappings kept; the oldest goes when a new one comes. */
#define MAX_MAPS 1024
#define MAX_FD_SIZES 4096
#define MAX_FAULTS 16
#define PAGE 4096ULL

struct mapping {
	int pid;		/* leader */
	uint64_t addr, len;	/* len rounded up to pages */
	long long offset;	/* in the file */
	char *path;
	long long size;		/* the file's size as last seen; -1 unknown */
	char *size_line;	/* the call that told the size */
	char *map_line;
	uint64_t seq;
};

struct fd_size {
	long long size;
	char *line;
};

enum fault_kind {
	PAST_EOF,		/* inside the mapping, past the file's end */
	IN_MAPPING,		/* SIGBUS inside the mapping, file size unknown */
	PAST_MAPPING,		/* just past the mapping's end */
};

struct fault {
	enum fault_kind kind;
	int pid, tid;
	int signo, code;
	uint64_t fault_addr;
	long long file_off;
	struct mapping map;	/* a copy, strings owned */
	char *sig_line;
	uint64_t seq;
	double ts;
	/* The faulting thread returned from its handler (rt_sigreturn):
	 * the program took the fault on purpose and went on (a JVM's
	 * safepoint polling page, a SafeFetch probe), unless the process
	 * is then killed by the signal (a handler that re-raises). */
	bool returned;
};

struct fd_key {
	int pid;
	int fd;
};

/* The mappings live in a pool and are ordered through an array of slot
 * numbers: inserting or removing one moves two bytes a mapping, not a
 * whole struct (a process like a PyTorch service keeps about a thousand). */
struct state {
	struct mapping pool[MAX_MAPS];
	uint16_t order[MAX_MAPS];	/* pool slots, sorted by (pid, addr) */
	uint16_t free_slots[MAX_MAPS];
	size_t nmaps, nfree;

	struct hmap fd_sizes;	/* fd_key -> struct fd_size* */
	struct fault faults[MAX_FAULTS];
	size_t nfaults;
};

static void init(void *p)
{
	struct state *s = p;

	hmap_init(&s->fd_sizes);
	for (size_t i = 0; i < MAX_MAPS; i++)
		s->free_slots[i] = (uint16_t)(MAX_MAPS - 1 - i);
	s->nfree = MAX_MAPS;
}

/* The I-th mapping in (pid, addr) order. */
static inline struct mapping *map_at(struct state *s, size_t i)
{
	return &s->pool[s->order[i]];
}

static inline const struct mapping *map_at_c(const struct state *s, size_t i)
{
	return &s->pool[s->order[i]];
}

static void map_release(struct mapping *m)
{
	free(m->path);
	free(m->size_line);
	free(m->map_line);
}

static void fd_size_free(void *p)
{
	struct fd_size *f = p;

	if (f)
		free(f->line);
	free(f);
}

static void fault_release(struct fault *f)
{
	map_release(&f->map);
	free(f->sig_line);
}

static void release(void *p)
{
	struct state *s = p;

	for (size_t i = 0; i < s->nmaps; i++)
		map_release(map_at(s, i));
	hmap_release(&s->fd_sizes, fd_size_free);
	for (size_t i = 0; i < s->nfaults; i++)
		fault_release(&s->faults[i]);
}

static void map_remove(struct state *s, size_t i)
{
	map_release(map_at(s, i));
	s->free_slots[s->nfree++] = s->order[i];
	memmove(&s->order[i], &s->order[i + 1], (s->nmaps - i - 1) * sizeof(s->order[0]));
	s->nmaps--;
}

/* The table is sorted by (pid, addr), and one process's mappings never
 * overlap (a new one replaces what it covers), so their ends are sorted
 * too: the first mapping of PID ending after ADDR is found by bisection. */
static size_t first_after(const struct state *s, int pid, uint64_t addr)
{
	size_t lo = 0, hi = s->nmaps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct mapping *m = map_at_c(s, mid);
		if (m->pid < pid || (m->pid == pid && m->addr + m->len <= addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A free slot at the sorted position of (PID, ADDR), zeroed; the oldest
 * mapping goes when the table is full. */
static struct mapping *map_insert(struct state *s, int pid, uint64_t addr)
{
	if (s->nmaps == MAX_MAPS) {
		/* The oldest goes: the first, in (pid, addr) order, of those
		 * with the smallest seq (the pieces of a split share one). The
		 * table is full, so every pool slot is in use and the smallest
		 * seq is found by walking the pool in memory order. */
		uint64_t min = UINT64_MAX;
		for (size_t k = 0; k < MAX_MAPS; k++)
			if (s->pool[k].seq < min)
				min = s->pool[k].seq;
		size_t oldest = 0;
		while (map_at(s, oldest)->seq != min)
			oldest++;
		map_remove(s, oldest);
	}
	size_t at = first_after(s, pid, addr);
	memmove(&s->order[at + 1], &s->order[at], (s->nmaps - at) * sizeof(s->order[0]));
	s->nmaps++;
	s->order[at] = s->free_slots[--s->nfree];
	struct mapping *m = map_at(s, at);
	memset(m, 0, sizeof(*m));
	return m;
}

static char *dup_or_null(const char *p)
{
	return p ? xstrdup(p) : NULL;
}

/* OFF moved on by BY bytes, wrapping as the kernel's unsigned offsets
 * do: both come from the trace, which may say anything. */
static long long shifted(long long off, uint64_t by)
{
	return (long long)((uint64_t)off + by);
}

/* Forget what PID had mapped in [addr, addr + len): mappings inside go,
 * mappings reaching into it are cut back, one spanning it is split. */
static void unmap_range(struct state *s, int pid, uint64_t addr, uint64_t len)
{
	uint64_t end = len > UINT64_MAX - addr ? UINT64_MAX : addr + len;
	size_t i = first_after(s, pid, addr);

	while (i < s->nmaps && map_at(s, i)->pid == pid && map_at(s, i)->addr < end) {
		struct mapping *m = map_at(s, i);
		uint64_t m_end = m->addr + m->len;
		if (m->addr >= addr && m_end <= end) {
			map_remove(s, i);
			continue;
		}
		if (m->addr < addr && m_end > end) {
			/* Split: the part after the hole is a mapping of its own. */
			struct mapping tail = *m;
			tail.offset = shifted(tail.offset, end - m->addr);
			tail.addr = end;
			tail.len = m_end - end;
			/* Copies first: making room may evict M itself. */
			tail.path = xstrdup(m->path);
			tail.size_line = dup_or_null(m->size_line);
			tail.map_line = dup_or_null(m->map_line);
			m->len = addr - m->addr;
			*map_insert(s, pid, end) = tail;
			return;
		}
		if (m->addr < addr) {
			m->len = addr - m->addr;
			i++;
			continue;
		}
		m->offset = shifted(m->offset, end - m->addr);
		m->len = m_end - end;
		m->addr = end;
		return;
	}
}

/* PID's address space is gone (exit) or replaced (execve). */
static void drop_process(struct state *s, int pid)
{
	unmap_range(s, pid, 0, UINT64_MAX);
}

static struct fd_size *fd_size_get(struct state *s, int pid, int fd)
{
	struct fd_key k = { pid, fd };
	void **slot = hmap_get(&s->fd_sizes, &k, sizeof(k));

	return slot ? *slot : NULL;
}

static void on_mmap(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	if (!e->ret_known || e->err || e->len == 0)
		return;
	int pid = rule_leader(ctx, e->pid);
	uint64_t addr = (uint64_t)e->ret;
	uint64_t len = (e->len + PAGE - 1) & ~(PAGE - 1);

	/* Whatever the kernel gave out is no longer mapped as we knew it. */
	if (s->nmaps)
		unmap_range(s, pid, addr, len);
	if (e->fd < 0 || (e->flags & MAP_ANONYMOUS))
		return;
	const char *path = rule_fd_file(ctx, e);
	if (!path || strncmp(path, "/dev/", 5) == 0)
		return;

	struct mapping *m = map_insert(s, pid, addr);
	m->pid = pid;
	m->addr = addr;
	m->len = len;
	m->offset = e->offset > 0 ? e->offset : 0;
	m->path = xstrdup(path);
	m->size = -1;
	m->map_line = rule_line(e);
	m->seq = e->seq;
	const struct fd_size *fs = fd_size_get(s, pid, e->fd);
	if (fs) {
		m->size = fs->size;
		m->size_line = dup_or_null(fs->line);
	}
}

static void on_fstat(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	if (!e->ret_known || e->err || e->st_size < 0)
		return;
	/* fstat(fd) or fstatat(fd, "", AT_EMPTY_PATH). */
	int fd = e->fd;
	if (e->path && e->path[0])
		return;
	if (fd < 0 && e->dirfd >= 0)
		fd = e->dirfd;
	if (fd < 0)
		return;
	struct fd_key k = { rule_leader(ctx, e->pid), fd };
	if (s->fd_sizes.count >= MAX_FD_SIZES && !hmap_get(&s->fd_sizes, &k, sizeof(k))) {
		hmap_release(&s->fd_sizes, fd_size_free);
		hmap_init(&s->fd_sizes);
	}
	void **slot = hmap_put(&s->fd_sizes, &k, sizeof(k), NULL);
	if (!*slot)
		*slot = xcalloc(1, sizeof(struct fd_size));
	struct fd_size *fs = *slot;
	fs->size = e->st_size;
	free(fs->line);
	fs->line = rule_line(e);
}

/* The file at PATH now has SIZE bytes (truncate, ftruncate, O_TRUNC):
 * every mapping of it learns so. */
static void resized(struct state *s, const char *path, long long size, const struct rc_event *e)
{
	if (!path)
		return;
	for (size_t i = 0; i < s->nmaps; i++) {
		struct mapping *m = map_at(s, i);
		if (strcmp(m->path, path) != 0)
			continue;
		m->size = size;
		free(m->size_line);
		m->size_line = rule_line(e);
	}
}

/* A slot for a new fault: a free one, or one the program handled. */
static struct fault *fault_slot(struct state *s)
{
	if (s->nfaults < MAX_FAULTS)
		return &s->faults[s->nfaults++];
	for (size_t i = 0; i < s->nfaults; i++)
		if (s->faults[i].returned) {
			fault_release(&s->faults[i]);
			return &s->faults[i];
		}
	return NULL;
}

/* TID returned from a signal handler: its pending faults were handled. */
static void on_sigreturn(struct state *s, const struct rc_event *e)
{
	for (size_t i = 0; i < s->nfaults; i++)
		if (s->faults[i].tid == e->pid && e->seq > s->faults[i].seq)
			s->faults[i].returned = true;
}

/* PID was killed by SIGNO: a fault by that signal it had returned from
 * was re-raised, not handled. */
static void on_killed(struct state *s, int pid, int signo)
{
	for (size_t i = 0; i < s->nfaults; i++)
		if (s->faults[i].pid == pid && s->faults[i].signo == signo)
			s->faults[i].returned = false;
}

static void on_signal(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	if ((e->signo != SIGBUS && e->signo != SIGSEGV) || !e->has_fault_addr)
		return;
	int pid = rule_leader(ctx, e->pid);
	uint64_t a = e->fault_addr;
	const struct mapping *hit = NULL;
	enum fault_kind kind = PAST_EOF;
	long long off = 0;

	size_t at = first_after(s, pid, a);
	const struct mapping *m = at < s->nmaps && map_at(s, at)->pid == pid ? map_at(s, at) : NULL;
	if (m && a >= m->addr) {
		off = m->offset + (long long)(a - m->addr);
		if (m->size >= 0 && off >= m->size)
			hit = m;
		else if (m->size < 0 && e->signo == SIGBUS) {
			kind = IN_MAPPING;
			hit = m;
		}
	}
	/* Just past the end of the mapping before (a read over its end). */
	const struct mapping *prev = at > 0 && map_at(s, at - 1)->pid == pid ? map_at(s, at - 1) : NULL;
	/* Unmapped there (SEGV_MAPERR), or a no-access guard page
	 * (SEGV_ACCERR: a thread's stack guard often sits right above). */
	if (!hit && prev && e->signo == SIGSEGV && (e->si_code == SEGV_MAPERR || e->si_code == SEGV_ACCERR) &&
	    a < prev->addr + prev->len + PAGE && (!m || a < m->addr)) {
		off = prev->offset + (long long)(a - prev->addr);
		kind = PAST_MAPPING;
		hit = prev;
	}
	if (!hit)
		return;
	/* A handler that re-raises faults again at the same address: the
	 * fault is pending again until the thread returns once more. */
	for (size_t i = 0; i < s->nfaults; i++)
		if (s->faults[i].pid == pid && s->faults[i].fault_addr == a) {
			s->faults[i].returned = false;
			s->faults[i].tid = e->pid;
			return;
		}
	struct fault *f = fault_slot(s);
	if (!f)
		return;
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->pid = pid;
	f->tid = e->pid;
	f->signo = e->signo;
	f->code = e->si_code;
	f->fault_addr = a;
	f->file_off = off;
	f->map = *hit;
	f->map.path = xstrdup(hit->path);
	f->map.size_line = dup_or_null(hit->size_line);
	f->map.map_line = dup_or_null(hit->map_line);
	f->sig_line = rule_line(e);
	f->seq = e->seq;
	f->ts = e->ts;
}

static void on_event(void *p, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct state *s = p;

	if (e->kind == RC_EV_SIGNAL) {
		on_signal(s, e, ctx);
		return;
	}
	if (e->kind == RC_EV_EXIT) {
		if (!e->exited && s->nfaults)
			on_killed(s, rule_leader(ctx, e->pid), e->signo);
		if (s->nmaps && rule_leader(ctx, e->pid) == e->pid)
			drop_process(s, e->pid);
		return;
	}
	unsigned long long cl = syscall_classes(e->nr);
	if (cl & CL_SIGRETURN) {
		if (s->nfaults)
			on_sigreturn(s, e);
		return;
	}
	/* What the call is, from the table: a new mapping (mmap, mmap2); a
	 * size (fstat, or a stat of the fd by AT_EMPTY_PATH); an open that
	 * truncates (creat always does); a new program. */
	if (cl & CL_RET_ADDR) {
		on_mmap(s, e, ctx);
		return;
	}
	if (cl & CL_STAT) {
		on_fstat(s, e, ctx);
		return;
	}
	if (cl & CL_OPEN) {
		if (s->nmaps && !e->err && e->ret_known && (e->flags & O_TRUNC) && (e->flags & O_ACCMODE))
			resized(s, e->path, 0, e);
		return;
	}
	if (cl & CL_EXEC) {
		if (s->nmaps && !e->err && e->ret_known)
			drop_process(s, rule_leader(ctx, e->pid));
		return;
	}
	/* The rest each do something of their own to the mappings. */
	switch (e->nr) {
	case SYS_mremap:
		if (s->nmaps && !e->err && e->ret_known)
			unmap_range(s, rule_leader(ctx, e->pid), e->addr, 1);
		break;
	case SYS_munmap:
		if (s->nmaps && !e->err)
			unmap_range(s, rule_leader(ctx, e->pid), e->addr, (e->len + PAGE - 1) & ~(PAGE - 1));
		break;
	case SYS_ftruncate:
		if (s->nmaps && !e->err && e->ret_known)
			resized(s, rule_fd_file(ctx, e), (long long)e->len, e);
		break;
	case SYS_truncate:
		if (s->nmaps && !e->err && e->ret_known)
			resized(s, e->path, (long long)e->len, e);
		break;
	case SYS_close:
		if (s->fd_sizes.count) {
			struct fd_key k = { rule_leader(ctx, e->pid), e->fd };
			fd_size_free(hmap_del(&s->fd_sizes, &k, sizeof(k)));
		}
		break;
	default:
		break;
	}
}

static const char *si_code_name(int signo, int code)
{
	if (code <= 0)
		return NULL;
	return xlat_si_code(signo == SIGBUS ? "BUS_" : "SEGV_", code);
}

static void emit(const struct fault *f, const struct rc_ctx *ctx, struct rc_findings *out)
{
	const struct mapping *m = &f->map;
	const char *sig = f->signo == SIGBUS ? "SIGBUS" : "SIGSEGV";
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	bool on_disk = lookup_stat(ctx->lookup, f->pid, m->path, &st) == 1 && S_ISREG(st.st_mode);
	bool now = false;

	switch (f->kind) {
	case PAST_EOF:
		strbuf_addf(&sb, "'%s' is shorter than its mapping: %s at offset %lld, the file had %lld bytes",
			    m->path, sig, f->file_off, m->size);
		break;
	case IN_MAPPING:
		strbuf_addf(&sb, "%s reading the mapping of '%s' at offset %lld: past the end of the file",
			    sig, m->path, f->file_off);
		break;
	case PAST_MAPPING: {
		long long end = m->offset + (long long)m->len;
		const char *code = si_code_name(f->signo, f->code);
		struct strbuf where = STRBUF_INIT;
		strbuf_addf(&where, "%s (%s) ", sig, code ? code : "fault");
		if (f->file_off > end)
			strbuf_addf(&where, "%lld bytes past", f->file_off - end);
		else
			strbuf_adds(&where, "at");
		strbuf_addf(&where, " the end of the mapping (0x%llx-0x%llx, file offsets %lld-%lld)",
			    (unsigned long long)m->addr, (unsigned long long)(m->addr + m->len), m->offset, end);
		if (m->size >= 0 && end >= m->size)
			strbuf_addf(&sb, "'%s' has %lld bytes, but the program read past them: %s", m->path,
				    m->size, where.buf);
		else if (m->size >= 0)
			strbuf_addf(&sb, "the program read past what it mapped of '%s' (%lld bytes): %s", m->path,
				    m->size, where.buf);
		else
			strbuf_addf(&sb, "read past the end of the mapping of '%s': %s", m->path, where.buf);
		strbuf_release(&where);
		break;
	}
	}
	if (on_disk && (long long)st.st_size != m->size) {
		strbuf_addf(&sb, "; now %lld bytes on disk", (long long)st.st_size);
		now = true;
	}

	struct rc_finding *fi = rule_finding(out, RULE_ID, RC_SEV_ERROR, RC_SEV_WARNING, &sb);
	rule_finding_pid(fi, f->pid, f->tid);
	finding_set(&fi->path, m->path);
	fi->signo = f->signo;
	if (m->size >= 0)
		fi->bytes = m->size;
	else if (on_disk)
		fi->bytes = (long long)st.st_size;
	if (now || (m->size < 0 && on_disk))
		finding_now(fi, m->path);
	const char *code = si_code_name(f->signo, f->code);
	finding_setf(&fi->message, "%s%s0x%llx, file offset %lld", code ? code : "", code ? " at " : "at ",
		     (unsigned long long)f->fault_addr, f->file_off);
	rule_evidence(fi, m->map_line);
	rule_evidence(fi, m->size_line);
	rule_evidence(fi, f->sig_line);
	if (f->kind == PAST_MAPPING && m->size >= 0 && m->offset + (long long)m->len < m->size)
		finding_setf(&fi->advice, "the program read more than it mapped: the mapping ends at offset "
			     "%lld of the file's %lld bytes; map as much as is read.",
			     m->offset + (long long)m->len, m->size);
	else if (f->kind == PAST_MAPPING)
		finding_setf(&fi->advice, "the program expects '%s' to be longer than it is (a truncated or "
			     "corrupt download, or another version of the file): check its size and its "
			     "checksum (SHA-256) against what the program expects before loading it, and "
			     "fetch it again.", fp_name(m->path));
	else
		finding_setf(&fi->advice, "the file is shorter than the program expects (a truncated or "
			     "corrupt download, or a file rewritten while mapped): verify its checksum "
			     "(SHA-256) and re-fetch it; write such files to a temporary name and rename "
			     "them into place");
	fi->seq = f->seq;
	fi->ts = f->ts;
	fi->unrecovered = true;
	finding_echo_name(fi, fp_name(m->path));
	finding_echo_word(fi, f->signo == SIGBUS ? "bus error" : "segmentation");
}

static void finish(void *p, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = p;

	for (size_t i = 0; i < s->nfaults; i++)
		if (!s->faults[i].returned)
			emit(&s->faults[i], ctx, out);
}

/* What on_event reads: its own switch's calls. */
static const long reads_calls[] = {
#ifdef SYS_mmap
	SYS_mmap,
#endif
#ifdef SYS_open
	SYS_open,
#endif
	SYS_mremap, SYS_munmap, SYS_fstat, SYS_newfstatat, SYS_statx, SYS_ftruncate, SYS_truncate,
	SYS_openat, SYS_execve, SYS_execveat, SYS_close, -1,
};

const struct rc_rule_ops rc_rule_bad_file_mapping_ops = {
	.state_size = sizeof(struct state),
	.init = init,
	.on_event = on_event,
	.reads = {
		.events = RC_READS_SIGNALS | RC_READS_EXITS,
		/* New mappings, sizes, truncating opens and new programs by
		 * class too, as on_event may come to ask them. */
		.classes = CL_RET_ADDR | CL_LOOK | CL_OPEN | CL_EXEC | CL_SIGRETURN,
		.calls = reads_calls,
	},
	.finish = finish,
	.release = release,
};
