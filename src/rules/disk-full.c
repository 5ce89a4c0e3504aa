/* disk-full: a write that failed for lack of space or quota, or that
 * came up short.
 *
 * ENOSPC, EDQUOT and EFBIG from the calls that put data or names on a
 * file system (write and friends, fallocate, ftruncate, fsync and close
 * on network file systems, open with O_CREAT, mkdir, link, rename...),
 * and short writes to regular files (fewer bytes written than asked: the
 * file system filled up during the call). Grouped by file; the file comes
 * from the fd table. inotify_add_watch's ENOSPC is the watch limit, not a
 * full disk, and is reported as such. The cgroup file system's ENOSPC
 * (a cpuset with no CPUs) is cgroup-refused's.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "event/syscalls.h"
#include "rules/aggregate.h"
#include "rules/call-kinds.h"
#include "rules/fds.h"
#include "rules/finding.h"
#include "rules/paths.h"
#include "rules/proc-view.h"
#include "rules/rule.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"

#define RULE_ID "disk-full"
#define MAX_FILES 256
#define INOTIFY_KEY "\001inotify"

struct file_rec {
	char *path;		/* NULL: unknown (fd not in the table) */
	bool inotify;
	int pid, tid;
	int err;		/* the last errno; 0 short writes only */
	char *syscall;		/* of the first failure */
	uint64_t nfail, nshort;
	long long bytes;	/* bytes that did not get written */
	uint64_t first_seq, last_seq;
	double last_ts;
	char *ev[4];		/* first two and last two lines */
	int nev_first;
	bool recovered;
	/* The processes that failed to write it, each one's latest: the
	 * finding's also. */
	struct rc_occurrences met;
};

struct state {
	struct hmap files;	/* path -> struct file_rec* */
	uint64_t dropped;
};

static void init(void *p)
{
	hmap_init(&((struct state *)p)->files);
}

static void rec_free(void *p)
{
	struct file_rec *r = p;

	free(r->path);
	free(r->syscall);
	for (size_t i = 0; i < ARRAY_SIZE(r->ev); i++)
		free(r->ev[i]);
	free(r);
}

static void release(void *p)
{
	hmap_release(&((struct state *)p)->files, rec_free);
}

static bool space_errno(int err)
{
	return err == ENOSPC || err == EDQUOT || err == EFBIG;
}

/* Character devices, pipes shown as paths, pseudo files: short writes
 * there are normal. */
static bool regular_path(const char *path)
{
	return path && path[0] == '/' && !fp_pseudo(path);
}

/* The file the event is about: its path argument for calls that create
 * names, else the file behind its fd. */
static const char *event_file(const struct rc_event *e, const struct rc_ctx *ctx, bool by_path)
{
	if (by_path)
		return e->path;
	return rule_fd_file(ctx, e);
}

static struct file_rec *rec_get(struct state *s, const char *key, const struct rc_event *e, bool create)
{
	void **slot = hmap_get(&s->files, key, strlen(key));

	if (slot || !create)
		return slot ? *slot : NULL;
	if (s->files.count >= MAX_FILES) {
		s->dropped++;
		return NULL;
	}
	struct file_rec *r = xcalloc(1, sizeof(*r));
	r->first_seq = e->seq;
	*hmap_put(&s->files, key, strlen(key), NULL) = r;
	return r;
}

static void add_evidence(struct file_rec *r, const struct rc_event *e)
{
	char *line = rule_line(e);

	if (!line)
		return;
	if (r->nev_first < 2) {
		r->ev[r->nev_first++] = line;
		return;
	}
	/* The last two, in order. */
	free(r->ev[2]);
	r->ev[2] = r->ev[3];
	r->ev[3] = line;
}

/* *ACC += N, held at LLONG_MAX: a log's lengths are untrusted, and a
 * sum past that is no size anyone wrote. */
static void add_bytes(long long *acc, uint64_t n)
{
	*acc = n > (uint64_t)(LLONG_MAX - *acc) ? LLONG_MAX : *acc + (long long)n;
}

static void record(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx,
		   const char *path, bool inotify, bool is_short)
{
	/* ENOSPC there is a cpuset with no CPUs, not a full disk:
	 * cgroup-refused's. */
	if (fp_cgroup(path))
		return;
	const char *key = inotify ? INOTIFY_KEY : path ? path : "";
	struct file_rec *r = rec_get(s, key, e, true);

	if (!r)
		return;
	if (!r->path && path && !inotify)
		r->path = xstrdup(path);
	r->inotify = inotify;
	if (is_short) {
		r->nshort++;
		add_bytes(&r->bytes, e->len - (uint64_t)e->ret);
	} else {
		r->nfail++;
		r->err = e->err;
		if (e->len > 0 && e->len < (uint64_t)1 << 62)
			add_bytes(&r->bytes, e->len);
	}
	if (!r->syscall)
		r->syscall = xstrdup(e->name ? e->name : "?");
	r->pid = rule_leader(ctx, e->pid);
	r->tid = e->pid;
	occurrences_add(&r->met, r->pid, e->seq);
	r->last_seq = e->seq;
	r->last_ts = e->ts;
	r->recovered = false;
	add_evidence(r, e);
}

/* The calls that write data; a send to a socket never runs out of space
 * (send(2) has no ENOSPC) and names no file, so it finds no record. */
static bool is_write(long nr)
{
	return syscall_is(nr, CL_WRITE);
}

/* Calls whose failure is about a name they create (path argument): the
 * opens that create, the calls that make a name, and truncate by path. */
static bool creates_name(const struct rc_event *e)
{
	if (rule_is_open(e->nr))
		return (e->flags & O_CREAT) != 0 || (e->flags & O_TMPFILE) == O_TMPFILE;
	unsigned long long cl = syscall_classes(e->nr);
	if (cl & CL_NEW_NAME)
		return true;
	if (!(cl & CL_RESIZE))
		return false;
	const struct rc_syscall *sc = syscall_by_nr(e->nr);
	return sc && syscall_has_role(sc, ROLE_PATH);
}

/* Calls that need space on their fd's file system: the writes, the
 * resizes, and the flushes, which report the space their write-back
 * lacked (fsync(2), syncfs(2)); so does close, on NFS (close(2)). */
static bool fd_space_call(long nr)
{
	return nr == SYS_close || syscall_is(nr, CL_WRITE | CL_SYNC | CL_RESIZE | CL_FLUSH);
}

static void on_event(void *p, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct state *s = p;

	if (e->kind != RC_EV_SYSCALL)
		return;
	if (event_failed(e)) {
		if (!space_errno(e->err))
			return;
		if (e->nr == SYS_inotify_add_watch) {
			if (e->err == ENOSPC)
				record(s, e, ctx, NULL, true, false);
			return;
		}
		bool by_path = creates_name(e);
		if (!by_path && !fd_space_call(e->nr))
			return;
		record(s, e, ctx, event_file(e, ctx, by_path), false, false);
		return;
	}
	if (!is_write(e->nr) || !e->ret_known || e->ret < 0 || e->len == 0)
		return;
	if (e->nr != SYS_write && e->nr != SYS_pwrite64) {
		/* Vectored and in-kernel copies: no byte count to compare. */
		if (s->files.count && e->ret > 0) {
			const char *path = event_file(e, ctx, false);
			struct file_rec *r = path ? rec_get(s, path, e, false) : NULL;
			if (r)
				r->recovered = true;
		}
		return;
	}
	if ((uint64_t)e->ret < e->len && e->ret > 0) {
		const struct rc_fd *f = procs_fd(ctx->procs, e->pid, e->fd);
		if (f && f->kind == RC_FD_FILE && regular_path(f->path))
			record(s, e, ctx, f->path, false, true);
		return;
	}
	if (s->files.count && (uint64_t)e->ret == e->len) {
		const char *path = event_file(e, ctx, false);
		struct file_rec *r = path ? rec_get(s, path, e, false) : NULL;
		if (r)
			r->recovered = true;
	}
}

static const char *verb(const char *syscall)
{
	if (!syscall)
		return "writing";
	if (strstr(syscall, "open") || strstr(syscall, "creat") || strstr(syscall, "mkdir") ||
	    strstr(syscall, "link") || strstr(syscall, "rename") || strstr(syscall, "mknod"))
		return "creating";
	if (strcmp(syscall, "fallocate") == 0)
		return "allocating";
	if (strstr(syscall, "truncate"))
		return "resizing";
	if (strstr(syscall, "sync") || strcmp(syscall, "close") == 0)
		return "flushing";
	return "writing";
}

static char *dir_of(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

static void emit(const void *value, const void *arg, struct rc_findings *out)
{
	const struct file_rec *r = value;
	struct strbuf sb = STRBUF_INIT;
	struct strbuf what = STRBUF_INIT;
	enum rc_severity sev = RC_SEV_ERROR, sev_ok = RC_SEV_WARNING;

	if (r->path)
		strbuf_addf(&what, "'%s'", r->path);
	else
		strbuf_adds(&what, "a file");

	uint64_t n = r->nfail + r->nshort;
	struct strbuf detail = STRBUF_INIT;
	if (r->inotify) {
		strbuf_adds(&sb, "inotify watch limit reached");
		strbuf_adds(&detail, "ENOSPC from inotify_add_watch");
	} else if (r->nfail) {
		const char *why = r->err == EDQUOT ? "disk quota exceeded" :
				  r->err == EFBIG ? "file too large" : "no space left on device";
		strbuf_addf(&sb, "%s %s %s", why, verb(r->syscall), strbuf_str(&what));
		strbuf_adds(&detail, r->err == EDQUOT ? "EDQUOT" : r->err == EFBIG ? "EFBIG" : "ENOSPC");
	} else {
		sev = RC_SEV_WARNING;
		sev_ok = RC_SEV_INFO;
		strbuf_addf(&sb, "short write to %s", strbuf_str(&what));
	}
	if (r->nfail > 1)
		strbuf_addf(&detail, ", %llu times", (unsigned long long)r->nfail);
	if (r->nshort)
		strbuf_addf(&detail, "%s%llu short write%s", detail.len ? ", " : "",
			    (unsigned long long)r->nshort, r->nshort > 1 ? "s" : "");
	if (r->bytes > 0 && !r->inotify) {
		strbuf_adds(&detail, detail.len ? ", " : "");
		strbuf_add_bytes(&detail, (unsigned long long)r->bytes);
		strbuf_adds(&detail, " not written");
	}
	strbuf_addf(&sb, " (%s)", strbuf_str(&detail));
	strbuf_release(&detail);
	if (r->recovered) {
		strbuf_adds(&sb, ", later writes succeeded");
		sev = RC_SEV_WARNING;
		sev_ok = RC_SEV_INFO;
	}

	struct rc_finding *f = rule_finding(out, RULE_ID, sev, sev_ok, &sb);
	rule_finding_pid(f, r->pid, r->tid);
	finding_also(f, &r->met, r->pid);
	finding_set(&f->syscall, r->syscall);
	if (r->err)
		f->err = r->err;
	finding_set(&f->path, r->path);
	f->count = (long long)n;
	if (r->bytes > 0 && !r->inotify)
		f->bytes = r->bytes;
	for (size_t i = 0; i < ARRAY_SIZE(r->ev); i++)
		rule_evidence(f, r->ev[i]);
	char *dir = dir_of(r->path);
	if (r->inotify)
		finding_setf(&f->advice, "the per-user inotify watch limit is used up (file watchers: IDEs, "
			     "node, webpack): raise it with `sysctl fs.inotify.max_user_watches=524288` or "
			     "watch fewer files");
	else if (r->err == EDQUOT)
		finding_setf(&f->advice, "the user's quota on the file system holding '%s' is used up: "
			     "check `quota -s`, delete files or ask for a larger quota", dir);
	else if (r->err == EFBIG)
		finding_setf(&f->advice, "%s reached the largest file size allowed: the process's file size "
			     "limit (`ulimit -f`, a service's LimitFSIZE) or the file system's (FAT32: 4 GiB)",
			     strbuf_str(&what));
	else
		finding_setf(&f->advice, "the file system holding '%s' is full: check `df -h %s` and "
			     "`df -i %s` (inodes), free space (old checkpoints, caches, logs) or write "
			     "elsewhere", dir, dir, dir);
	free(dir);
	strbuf_release(&what);
	f->seq = r->last_seq;
	f->ts = r->last_ts;
	f->unrecovered = !r->recovered;
	if (r->path)
		finding_echo_name(f, fp_name(r->path));
	if (r->inotify)
		finding_echo_word(f, "watch");
	else if (r->err == EDQUOT)
		finding_echo_word(f, "quota");
	else if (r->err == EFBIG)
		finding_echo_word(f, "too large");
	else
		finding_echo_word(f, "no space");
}

static void finish(void *p, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = p;

	rule_report_in_order(&s->files, NULL, offsetof(struct file_rec, first_seq), emit, NULL, out);
	if (s->dropped)
		rule_dropped(out, RULE_ID, RC_SEV_ERROR, RC_SEV_WARNING, s->dropped,
			     "writes to %llu more files failed for lack of space",
			     "free space on the file systems named above");
}

const struct rc_rule_ops rc_rule_disk_full_ops = {
	.state_size = sizeof(struct state),
	.init = init,
	.on_event = on_event,
	.reads = { .events = RC_READS_FAILED, .call = is_write },
	.finish = finish,
	.release = release,
};
