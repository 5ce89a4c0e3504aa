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
 * now is all there is to compare with.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "crash/rules.h"
#include "rules/common.h"
#include "rules/fileprobe.h"
#include "rules/rule.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"

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
};

struct fd_key {
	int pid;
	int fd;
};

struct state {
	struct mapping maps[MAX_MAPS];
	size_t nmaps;
	struct hmap fd_sizes;	/* fd_key -> struct fd_size* */
	struct fault faults[MAX_FAULTS];
	size_t nfaults;
};

static void init(void *p)
{
	hmap_init(&((struct state *)p)->fd_sizes);
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

static void release(void *p)
{
	struct state *s = p;

	for (size_t i = 0; i < s->nmaps; i++)
		map_release(&s->maps[i]);
	hmap_release(&s->fd_sizes, fd_size_free);
	for (size_t i = 0; i < s->nfaults; i++) {
		map_release(&s->faults[i].map);
		free(s->faults[i].sig_line);
	}
}

static void map_remove(struct state *s, size_t i)
{
	map_release(&s->maps[i]);
	memmove(&s->maps[i], &s->maps[i + 1], (s->nmaps - i - 1) * sizeof(s->maps[0]));
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
		const struct mapping *m = &s->maps[mid];
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
		size_t oldest = 0;
		for (size_t i = 1; i < s->nmaps; i++)
			if (s->maps[i].seq < s->maps[oldest].seq)
				oldest = i;
		map_remove(s, oldest);
	}
	size_t at = first_after(s, pid, addr);
	memmove(&s->maps[at + 1], &s->maps[at], (s->nmaps - at) * sizeof(s->maps[0]));
	s->nmaps++;
	memset(&s->maps[at], 0, sizeof(s->maps[at]));
	return &s->maps[at];
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

	while (i < s->nmaps && s->maps[i].pid == pid && s->maps[i].addr < end) {
		struct mapping *m = &s->maps[i];
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
		struct mapping *m = &s->maps[i];
		if (strcmp(m->path, path) != 0)
			continue;
		m->size = size;
		free(m->size_line);
		m->size_line = rule_line(e);
	}
}

static void on_signal(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	if ((e->signo != SIGBUS && e->signo != SIGSEGV) || !e->has_fault_addr || s->nfaults >= MAX_FAULTS)
		return;
	int pid = rule_leader(ctx, e->pid);
	uint64_t a = e->fault_addr;
	const struct mapping *hit = NULL;
	enum fault_kind kind = PAST_EOF;
	long long off = 0;

	size_t at = first_after(s, pid, a);
	const struct mapping *m = at < s->nmaps && s->maps[at].pid == pid ? &s->maps[at] : NULL;
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
	const struct mapping *prev = at > 0 && s->maps[at - 1].pid == pid ? &s->maps[at - 1] : NULL;
	if (!hit && prev && e->signo == SIGSEGV && e->si_code <= SEGV_MAPERR &&
	    a < prev->addr + prev->len + PAGE && (!m || a < m->addr)) {
		off = prev->offset + (long long)(a - prev->addr);
		kind = PAST_MAPPING;
		hit = prev;
	}
	if (!hit)
		return;
	/* A handler that re-raises faults again at the same address. */
	for (size_t i = 0; i < s->nfaults; i++)
		if (s->faults[i].pid == pid && s->faults[i].fault_addr == a)
			return;
	struct fault *f = &s->faults[s->nfaults++];
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
		if (s->nmaps && rule_leader(ctx, e->pid) == e->pid)
			drop_process(s, e->pid);
		return;
	}
	switch (e->nr) {
#ifdef SYS_mmap
	case SYS_mmap:
		on_mmap(s, e, ctx);
		break;
#endif
	case SYS_mremap:
		if (s->nmaps && !e->err && e->ret_known)
			unmap_range(s, rule_leader(ctx, e->pid), e->addr, 1);
		break;
	case SYS_munmap:
		if (s->nmaps && !e->err)
			unmap_range(s, rule_leader(ctx, e->pid), e->addr, (e->len + PAGE - 1) & ~(PAGE - 1));
		break;
	case SYS_fstat:
	case SYS_newfstatat:
	case SYS_statx:
		on_fstat(s, e, ctx);
		break;
	case SYS_ftruncate:
		if (s->nmaps && !e->err && e->ret_known)
			resized(s, rule_fd_file(ctx, e), (long long)e->len, e);
		break;
	case SYS_truncate:
		if (s->nmaps && !e->err && e->ret_known)
			resized(s, e->path, (long long)e->len, e);
		break;
	case SYS_openat:
#ifdef SYS_open
	case SYS_open:
#endif
		if (s->nmaps && !e->err && e->ret_known && (e->flags & O_TRUNC) && (e->flags & O_ACCMODE))
			resized(s, e->path, 0, e);
		break;
	case SYS_execve:
	case SYS_execveat:
		if (s->nmaps && !e->err && e->ret_known)
			drop_process(s, rule_leader(ctx, e->pid));
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
	return rule_si_code(signo == SIGBUS ? "BUS_" : "SEGV_", code);
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
	case PAST_MAPPING:
		strbuf_addf(&sb, "%s just past the end of the mapping of '%s' (offset %lld; the mapping "
			    "ends at %lld)", sig, m->path, f->file_off, m->offset + (long long)m->len);
		break;
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
	if (f->kind == PAST_MAPPING)
		finding_setf(&fi->advice, "the program read past the data it mapped: it expects '%s' to be "
			     "larger than it is (a truncated or corrupt file): verify its checksum (SHA-256) "
			     "and re-fetch it", m->path);
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
		emit(&s->faults[i], out);
}

static void on_crash(const struct rc_crash *c, struct rc_findings *out)
{
	if ((c->signo != SIGBUS && c->signo != SIGSEGV) || !crash_has_fault_addr(c))
		return;
	const struct rc_mapping *m = crash_mapping_at(c, c->fault_addr);
	if (!m || !m->path)
		return;
	uint64_t off = m->offset + (c->fault_addr - m->start);
	if (m->file_size >= 0 && off < (uint64_t)m->file_size)
		return;	/* inside the file: write-to-readonly's, or another fault */
	if (m->file_size < 0 && c->signo != SIGBUS)
		return;
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

const struct rc_rule_ops rc_rule_bad_file_mapping_ops = {
	.on_crash = on_crash,
	.state_size = sizeof(struct state),
	.init = init,
	.on_event = on_event,
	.finish = finish,
	.release = release,
};
