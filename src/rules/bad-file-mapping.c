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
 * On a core (on_crash) the same judgement uses NT_FILE: the mapping that
 * holds the fault address gives the path and offset, and the file's size
 * now is all there is to compare with.  A mapping as long as a file that
 * is shorter than the program expected faults past the mapping instead,
 * with SIGSEGV, and not always next to it: memcpy may copy backwards from
 * the far end, or run through readable memory first, and fault in a guard
 * page megabytes away.  The crash half then ties the fault to the mapping
 * through the faulting instruction's address registers, or the copy's
 * start and length among the registers and the culprit frame's stack
 * (overrun_finding says how a wild pointer is told apart).
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

#include "crash/insn.h"
#include "crash/rules.h"
#include "rules/common.h"
#include "rules/fileprobe.h"
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
			tail.offset += (long long)(end - m->addr);
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
		m->offset += (long long)(end - m->addr);
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

static void emit(const struct fault *f, struct rc_findings *out)
{
	const struct mapping *m = &f->map;
	const char *sig = f->signo == SIGBUS ? "SIGBUS" : "SIGSEGV";
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	bool on_disk = stat(m->path, &st) == 0 && S_ISREG(st.st_mode);

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
	if (on_disk && (long long)st.st_size != m->size)
		strbuf_addf(&sb, "; now %lld bytes on disk", (long long)st.st_size);

	struct rc_finding *fi = rule_finding(out, RULE_ID, RC_SEV_ERROR, RC_SEV_WARNING, &sb);
	rule_finding_pid(fi, f->pid, f->tid);
	finding_set(&fi->path, m->path);
	fi->signo = f->signo;
	if (m->size >= 0)
		fi->bytes = m->size;
	else if (on_disk)
		fi->bytes = (long long)st.st_size;
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

	(void)ctx;
	for (size_t i = 0; i < s->nfaults; i++)
		if (!s->faults[i].returned)
			emit(&s->faults[i], out);
}

/* ---- The crash half: a core, or a crash caught alive ---- */

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
	struct rc_finding *f = crash_finding(c, out, RULE_ID,
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

static void on_crash(const struct rc_crash *c, struct rc_findings *out)
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
	.on_crash = on_crash,
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
