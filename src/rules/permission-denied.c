/* permission-denied: a file or directory the program needed may not be
 * read, written, created in, searched or changed (EACCES, EPERM, and
 * EROFS: a read-only mount is the same story for the user).
 *
 * Only calls that name a path count: EPERM from prctl, setrlimit, ioctl,
 * capset and the like is sandboxing noise, access() is a question rather
 * than a failure, and execve belongs to exec-failed. A path that later
 * succeeded (the program fell back from O_RDWR to O_RDONLY, or fixed the
 * mode) is not reported, nor are probing paths (noise_path) and NVIDIA
 * devices (gpu-unavailable).
 *
 * When the path exists on this machine now, the report says who owns it
 * and its mode, which is what the user needs for chown/chmod.
 */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rules/common.h"
#include "rules/fileprobe.h"
#include "rules/noise.h"
#include "rules/rule.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"

#define PD_MAX_PATHS 1024
#define PD_MAX_REPORT 10

enum pd_attempt {
	PD_READ,
	PD_WRITE,
	PD_CREATE,		/* a new entry in a directory: O_CREAT, mkdir, link... */
	PD_REMOVE,		/* unlink, rmdir, rename away */
	PD_SEARCH,		/* stat/chdir: a directory on the way */
	PD_CHMOD,
	PD_CHOWN,
	PD_TIMES,
};

struct pd_entry {
	bool recovered;
	long long count;
	enum pd_attempt attempt;
	int err;
	int pid;
	uint64_t seq;
	double ts;
	uint64_t nsys;		/* calls the thread had made before the last refusal */
	char *syscall;
	char *first_line;
	char *last_line;
	char *cwd;
};

struct pd_state {
	struct hmap paths;	/* path -> struct pd_entry* */
	long long dropped;
};

static void entry_free(void *p)
{
	struct pd_entry *en = p;

	if (!en)
		return;
	free(en->syscall);
	free(en->first_line);
	free(en->last_line);
	free(en->cwd);
	free(en);
}

static void pd_init(void *state)
{
	struct pd_state *st = state;
	hmap_init(&st->paths);
}

static void pd_release(void *state)
{
	struct pd_state *st = state;
	hmap_release(&st->paths, entry_free);
}

static enum pd_attempt open_attempt(long long flags)
{
	if (flags & O_CREAT)
		return PD_CREATE;
	if ((flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC))
		return PD_WRITE;
	return PD_READ;
}

/* The attempt a path call makes; false for calls the rule ignores. */
static bool classify(const struct rc_event *e, enum pd_attempt *a)
{
	switch (e->nr) {
#ifdef SYS_open
	case SYS_open:
#endif
#ifdef SYS_openat2
	case SYS_openat2:
#endif
	case SYS_openat:
		*a = open_attempt(e->flags);
		return true;
#ifdef SYS_creat
	case SYS_creat:
#endif
#ifdef SYS_mkdir
	case SYS_mkdir:
#endif
#ifdef SYS_link
	case SYS_link:
#endif
#ifdef SYS_symlink
	case SYS_symlink:
#endif
	case SYS_mkdirat:
	case SYS_linkat:
	case SYS_symlinkat:
	case SYS_mknodat:
		*a = PD_CREATE;
		return true;
#ifdef SYS_unlink
	case SYS_unlink:
#endif
#ifdef SYS_rmdir
	case SYS_rmdir:
#endif
#ifdef SYS_rename
	case SYS_rename:
#endif
#ifdef SYS_renameat
	case SYS_renameat:
#endif
	case SYS_unlinkat:
	case SYS_renameat2:
		*a = PD_REMOVE;
		return true;
#ifdef SYS_stat
	case SYS_stat:
#endif
#ifdef SYS_lstat
	case SYS_lstat:
#endif
#ifdef SYS_newfstatat
	case SYS_newfstatat:
#endif
#ifdef SYS_readlink
	case SYS_readlink:
#endif
	case SYS_statx:
	case SYS_readlinkat:
	case SYS_chdir:
		*a = PD_SEARCH;
		return true;
#ifdef SYS_chmod
	case SYS_chmod:
#endif
	case SYS_fchmodat:
		*a = PD_CHMOD;
		return true;
#ifdef SYS_chown
	case SYS_chown:
#endif
#ifdef SYS_lchown
	case SYS_lchown:
#endif
	case SYS_fchownat:
		*a = PD_CHOWN;
		return true;
	case SYS_truncate:
		*a = PD_WRITE;
		return true;
#ifdef SYS_utime
	case SYS_utime:
#endif
#ifdef SYS_utimes
	case SYS_utimes:
#endif
	case SYS_utimensat:
		*a = PD_TIMES;
		return true;
	default:
		return false;
	}
}

static void set_line(char **dst, const struct rc_event *e)
{
	free(*dst);
	*dst = rule_line_short(e);
}

static bool path_recovered(const void *value)
{
	return ((const struct pd_entry *)value)->recovered;
}

static void record(struct pd_state *st, const struct rc_event *e, enum pd_attempt a,
		   const struct rc_ctx *ctx)
{
	size_t len = strlen(e->path);
	void **slot = hmap_get(&st->paths, e->path, len);

	if (!slot) {
		if (st->paths.count >= PD_MAX_PATHS)
			rule_evict(&st->paths, path_recovered, entry_free);
		if (st->paths.count >= PD_MAX_PATHS) {
			st->dropped++;
			return;
		}
		slot = hmap_put(&st->paths, e->path, len, NULL);
		*slot = xcalloc(1, sizeof(struct pd_entry));
	}
	struct pd_entry *en = *slot;
	if (en->count == 0 || en->recovered) {
		set_line(&en->first_line, e);
		en->recovered = false;
	}
	en->count++;
	en->attempt = a;
	en->err = e->err;
	en->pid = e->pid;
	en->seq = e->seq;
	en->ts = e->ts;
	const struct rc_proc *p = procs_get(ctx->procs, e->pid);
	en->nsys = p ? p->nsyscalls : 0;
	free(en->syscall);
	en->syscall = xstrdup(e->name ? e->name : "?");
	set_line(&en->last_line, e);
	if (!en->cwd) {
		const char *cwd = rule_cwd(p, e);
		if (cwd)
			en->cwd = xstrdup(cwd);
	}
}

static void pd_on_event(void *state, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct pd_state *st = state;
	enum pd_attempt a;

	if (e->kind != RC_EV_SYSCALL || !e->path || !e->path[0])
		return;
	if (!classify(e, &a))
		return;
	if (e->err == 0) {
		if (!e->ret_known || st->paths.count == 0)
			return;
		void **slot = hmap_get(&st->paths, e->path, strlen(e->path));
		/* A stat that works says nothing about a write that did not. */
		if (slot && (a != PD_SEARCH || ((struct pd_entry *)*slot)->attempt == PD_SEARCH))
			((struct pd_entry *)*slot)->recovered = true;
		return;
	}
	if (e->interrupted || (e->err != EACCES && e->err != EPERM && e->err != EROFS))
		return;
	if (noise_path(e->path) || fp_gpu_device(e->path))
		return;
	record(st, e, a, ctx);
}

static const char *attempt_verb(enum pd_attempt a)
{
	switch (a) {
	case PD_READ: return "read";
	case PD_WRITE: return "write";
	case PD_CREATE: return "create";
	case PD_REMOVE: return "remove or rename";
	case PD_SEARCH: return "reach";
	case PD_CHMOD: return "change the mode of";
	case PD_CHOWN: return "change the owner of";
	default: return "change the times of";
	}
}

static const char *err_text(int err)
{
	switch (err) {
	case EPERM: return "operation not permitted";
	case EROFS: return "read-only file system";
	default: return "permission denied";
	}
}

/* "owned by uid 1001 ('bob'), mode 0755" for PATH as it is now, or false
 * when it cannot be looked at from here. */
static bool describe_on_disk(struct strbuf *sb, const char *path, struct stat *out)
{
	struct stat sbuf;

	if (path[0] != '/' || stat(path, &sbuf) != 0)
		return false;
	strbuf_addf(sb, "owned by uid %u", (unsigned)sbuf.st_uid);
	long size = sysconf(_SC_GETPW_R_SIZE_MAX);
	size_t bufsize = size > 0 ? (size_t)size : 16384;
	char *buf = xmalloc(bufsize);
	struct passwd pw, *res = NULL;
	if (getpwuid_r(sbuf.st_uid, &pw, buf, bufsize, &res) == 0 && res)
		strbuf_addf(sb, " ('%s')", res->pw_name);
	free(buf);
	strbuf_addf(sb, ", mode %04o", (unsigned)(sbuf.st_mode & 07777));
	if (out)
		*out = sbuf;
	return true;
}

struct pd_cand {
	struct rule_rank rank;	/* first: sorted with rule_cmp_rank */
	const char *path;
	struct pd_entry *en;
	bool kept_going;
};

static void advise(struct rc_finding *f, const char *path, const struct pd_entry *en)
{
	struct strbuf now = STRBUF_INIT, dir = STRBUF_INIT, adv = STRBUF_INIT;
	struct stat sbuf;
	bool exists = describe_on_disk(&now, path, &sbuf);

	fp_dir(&dir, path);
	if (en->err == EROFS) {
		strbuf_addf(&adv, "the file system holding '%s' is mounted read-only: point the program at a "
			    "writable location (a volume, /tmp) or remount it read-write", path);
	} else if (en->attempt == PD_CHMOD || en->attempt == PD_CHOWN || en->attempt == PD_TIMES) {
		strbuf_addf(&adv, "only the owner (or root) may %s a file", attempt_verb(en->attempt));
		if (exists)
			strbuf_addf(&adv, "; '%s' is %s", path, now.buf);
		strbuf_adds(&adv, ": run the program as the owner, or chown the file to the user it runs as");
	} else if (en->attempt == PD_CREATE || en->attempt == PD_REMOVE || (en->attempt == PD_WRITE && !exists)) {
		struct strbuf dnow = STRBUF_INIT;
		strbuf_addf(&adv, "the user the program runs as needs write and search permission on '%s'",
			    dir.buf);
		if (describe_on_disk(&dnow, dir.buf, NULL))
			strbuf_addf(&adv, ", which is %s now", dnow.buf);
		strbuf_addf(&adv, ": chown -R <user> '%s' (or chmod it), run the program as the "
			    "directory's owner, or point it at a directory it owns", dir.buf);
		strbuf_release(&dnow);
	} else if (en->attempt == PD_SEARCH) {
		strbuf_addf(&adv, "a directory on the way to '%s' lacks search (x) permission for the user the "
			    "program runs as: chmod +x it, or run as a user that may enter it", path);
	} else {
		strbuf_addf(&adv, "give the user the program runs as %s access to '%s'",
			    en->attempt == PD_READ ? "read" : "write", path);
		if (exists)
			strbuf_addf(&adv, " (it is %s now)", now.buf);
		strbuf_adds(&adv, ": chown it to that user, chmod it, or run the program as its owner");
	}
	finding_set(&f->advice, adv.buf);
	strbuf_release(&now);
	strbuf_release(&dir);
	strbuf_release(&adv);
}

static void emit(struct rc_findings *out, const struct pd_cand *c)
{
	const struct pd_entry *en = c->en;
	enum rc_severity sev = c->kept_going ? RC_SEV_WARNING : RC_SEV_ERROR;
	struct rc_finding *f;
	struct strbuf dir = STRBUF_INIT;

	fp_dir(&dir, c->path);
	if (en->attempt == PD_CREATE)
		f = finding_add(out, "permission-denied", sev, RC_SEV_INFO,
				"cannot create '%s' in '%s': %s", fp_base(c->path), dir.buf, err_text(en->err));
	else if (en->attempt == PD_SEARCH && en->err == EACCES)
		f = finding_add(out, "permission-denied", sev, RC_SEV_INFO,
				"cannot reach '%s': a directory on the way may not be searched", c->path);
	else
		f = finding_add(out, "permission-denied", sev, RC_SEV_INFO,
				"cannot %s '%s': %s", attempt_verb(en->attempt), c->path, err_text(en->err));
	f->pid = en->pid;
	finding_set(&f->syscall, en->syscall);
	f->err = en->err;
	finding_set(&f->path, c->path);
	f->count = en->count;
	f->seq = en->seq;
	f->ts = en->ts;
	f->unrecovered = true;
	finding_echo_name(f, fp_base(c->path));
	if (en->attempt == PD_CREATE)
		finding_echo_name(f, fp_base(dir.buf));
	rule_evidence(f, en->first_line);
	if (en->count > 1)
		rule_evidence(f, en->last_line);
	advise(f, c->path, en);
	strbuf_release(&dir);
}

static void pd_finish(void *state, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct pd_state *st = state;
	struct pd_cand *cands = xcalloc(st->paths.count + 1, sizeof(*cands));
	size_t n = 0;
	struct hmap_iter it;

	for (struct hmap_node *node = hmap_first(&st->paths, &it); node; node = hmap_next(&st->paths, &it)) {
		struct pd_entry *en = node->value;
		if (en->recovered)
			continue;
		cands[n].path = node->key;
		cands[n].en = en;
		cands[n].kept_going = rule_kept_going(ctx, en->pid, en->nsys);
		cands[n].rank.score = (procs_failed(ctx->procs, en->pid, NULL) ? 300 : 0) +
				      (en->attempt == PD_SEARCH ? 0 : 100) - (cands[n].kept_going ? 150 : 0) +
				      rule_recency(ctx, en->seq);
		cands[n].rank.seq = en->seq;
		n++;
	}
	qsort(cands, n, sizeof(*cands), rule_cmp_rank);
	size_t shown = MIN(n, (size_t)PD_MAX_REPORT);
	for (size_t i = 0; i < shown; i++)
		emit(out, &cands[i]);
	rule_note_rest(out, shown, (long long)(n - shown) + st->dropped, "denied paths");
	free(cands);
}

const struct rc_rule_ops rc_rule_permission_denied_ops = {
	.state_size = sizeof(struct pd_state),
	.init = pd_init,
	.on_event = pd_on_event,
	.finish = pd_finish,
	.release = pd_release,
};
