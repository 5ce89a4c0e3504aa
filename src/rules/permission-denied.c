/* permission-denied: a file or directory the program needed may not be
 * read, written, created in, searched or changed (EACCES, EPERM, and
 * EROFS: a read-only mount is the same story for the user).
 *
 * Only calls that name a path count: EPERM from prctl, setrlimit, ioctl,
 * capset and the like is sandboxing noise, access() is a question rather
 * than a failure, and execve belongs to exec-failed. A path that later
 * succeeded (the program fell back from O_RDWR to O_RDONLY, or fixed the
 * mode) is not reported, nor are probing paths (noise_path) and NVIDIA
 * devices (gpu-unavailable). A look-up refused in one directory whose
 * name the process then found in another was a search going down its
 * list: a shell run as another user with root's PATH stats
 * /root/.local/bin/tar (EACCES: /root is 0700) before /usr/bin/tar.
 *
 * When the path exists on the machine now (as the process sees it: a
 * live look-up, lookup/lookup.h), the report says who owns it and its
 * mode, which is what the user needs for chown/chmod, and that it read
 * them now. A file
 * whose own mode allows the access is reached through directories, each
 * of which needs search (x) permission: the first one on the way that
 * refuses it is what blocks, and is named with its owner and mode
 * instead of the file (a parent of mode 0700 owned by another user).
 *
 * Whose permissions apply: the process's effective ids and groups as the
 * process model knows them (a setuid or setresuid in the trace, geteuid's
 * answer, or, live, /proc at the failure). When they are unknown (a log
 * of a program that never asked), the process is taken to be neither the
 * owner nor in the group of what refused it, as an EACCES from the mode
 * bits mostly means, and the finding says whom the directory lets in.
 * Root passes the mode bits only with its DAC capabilities: an EACCES to
 * root is looked up like anyone's, and when no mode bit refuses uid 0 the
 * finding names what else can (a security module, a root-squashing NFS
 * mount). A directory the process was seen getting through, with the ids
 * it had at the failure (a call on a path beneath it worked), lets it
 * search: it is not what refused, whatever the guessed ids say. A
 * directory reached through a symbolic link (a pg_wal that links to a
 * volume of its own) is named where it really is too, since that is what
 * chown and chmod must be given: `chown -R` of the link changes only the
 * link.
 *
 * Code mapped from a file (mmap with PROT_EXEC of an fd: a library that
 * dlopen loads) counts too: a file system mounted noexec refuses it with
 * EPERM whatever the file's mode ("failed to map segment from shared
 * object"), a security module with EACCES; a later mapping of its data
 * is no recovery.
 *
 * A move into a directory (chdir, chroot, pivot_root) that fails and is
 * followed by a move of the same process elsewhere was a probe
 * (rules/paths.h, rule_enter_failed). EPERM from the look-only calls
 * (stat, access) and the privileged ones (chroot, pivot_root) is no
 * file's answer but a policy's or a capability's: syscall-blocked's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "event/refusals.h"
#include "event/syscalls.h"
#include "rules/aggregate.h"
#include "rules/call-kinds.h"
#include "rules/fds.h"
#include "rules/finding.h"
#include "rules/noise.h"
#include "rules/paths.h"
#include "rules/proc-view.h"
#include "rules/rule.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"

#define PD_MAX_PATHS 1024
#define PD_MAX_REPORT 10
/* What a candidate weighs besides the shared weights (rules/finding.h):
 * a refusal of the file itself, not of a search on the way to it. */
#define PD_W_OBJECT 100
/* Processes whose reached directories are kept, and how many of the
 * latest each (past it a process's guesses go unchecked). */
#define PD_MAX_REACHERS 1024
#define PD_REACH_KEEP 16

enum pd_attempt {
	PD_READ,
	PD_WRITE,
	PD_CREATE,		/* a new entry in a directory: O_CREAT, mkdir, link... */
	PD_REMOVE,		/* unlink, rmdir, rename away */
	PD_SEARCH,		/* stat, readlink: a directory on the way */
	PD_ENTER,		/* chdir, chroot, pivot_root: the directory itself too */
	PD_CHMOD,
	PD_CHOWN,
	PD_TIMES,
	PD_MAP_EXEC,		/* mmap of a file's code (PROT_EXEC): a noexec mount says EPERM */
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
	struct rc_creds creds;	/* whose permissions applied, as far as known */
	/* The processes refused so since the last success, each one's
	 * latest: the finding's also. */
	struct rc_occurrences met;
};

/* Directories a process was seen getting through: a call on a path that
 * worked had search (x) permission on every directory above it. With the
 * uid it had then (-1 unknown): ids change (setuid), and with them what a
 * process may search. */
struct pd_reach {
	char *dir[PD_REACH_KEEP];
	size_t len[PD_REACH_KEEP];
	long long uid[PD_REACH_KEEP];
	int n, next;
	int last;		/* the one the last call was in */
};

struct pd_state {
	struct hmap paths;	/* path -> struct pd_entry* */
	struct hmap searched;	/* basenames of refused look-ups (no value) */
	struct hmap reached;	/* leader -> struct pd_reach* */
	long long dropped;
	struct rule_enter_pending enter;	/* failed moves, by path */
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

static void reach_free(void *p)
{
	struct pd_reach *r = p;

	if (!r)
		return;
	for (int i = 0; i < r->n; i++)
		free(r->dir[i]);
	free(r);
}

static void pd_init(void *state)
{
	struct pd_state *st = state;
	hmap_init(&st->paths);
	hmap_init(&st->reached);
	hmap_init(&st->searched);
}

static void pd_release(void *state)
{
	struct pd_state *st = state;
	hmap_release(&st->paths, entry_free);
	hmap_release(&st->reached, reach_free);
	hmap_release(&st->searched, NULL);
	rule_enter_release(&st->enter);
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
	unsigned long long cl = syscall_classes(e->nr);

	/* What the call is, from the table: an open asks what its flags
	 * say; rename drops its old name before it makes the new one. */
	if (cl & (CL_CREATES | CL_NEW_NAME | CL_DROP_NAME | CL_OPEN | CL_ENTER)) {
		if (cl & CL_CREATES)
			*a = PD_CREATE;
		else if (cl & CL_OPEN)
			*a = open_attempt(e->flags);
		else if (cl & CL_DROP_NAME)
			*a = PD_REMOVE;
		else if (cl & CL_NEW_NAME)
			*a = PD_CREATE;
		else
			*a = PD_ENTER;
		return true;
	}
	/* The rest name the verb the finding says: stat and readlink only
	 * search the path (access is left out: EACCES is its answer). */
	switch (e->nr) {
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
		*a = PD_SEARCH;
		return true;
#ifdef SYS_chmod
	case SYS_chmod:
#endif
	case SYS_fchmodat:
	case SYS_fchmod:
		*a = PD_CHMOD;
		return true;
#ifdef SYS_chown
	case SYS_chown:
#endif
#ifdef SYS_lchown
	case SYS_lchown:
#endif
	case SYS_fchownat:
	case SYS_fchown:
		*a = PD_CHOWN;
		return true;
	case SYS_ftruncate:
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
	case SYS_mmap:
		/* Code mapped from a file (a library dlopen maps): a file
		 * system mounted noexec refuses it with EPERM, whatever the
		 * file's mode. */
		if (!(e->mode & PROT_EXEC) || e->fd < 0)
			return false;
		*a = PD_MAP_EXEC;
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

static void record(struct pd_state *st, const struct rc_event *e, const char *path, enum pd_attempt a,
		   const struct rc_ctx *ctx)
{
	void **slot = rule_key_slot(&st->paths, path, strlen(path), PD_MAX_PATHS, path_recovered, entry_free);

	if (!slot) {
		st->dropped++;
		return;
	}
	if (!*slot)
		*slot = xcalloc(1, sizeof(struct pd_entry));
	struct pd_entry *en = *slot;
	if (en->count == 0 || en->recovered) {
		set_line(&en->first_line, e);
		en->recovered = false;
		en->met.n = 0;
	}
	occurrences_add(&en->met, rule_leader(ctx, e->pid), e->seq);
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
	const struct rc_creds *cr = procs_creds(ctx->procs, e->pid);
	if (cr)
		en->creds = *cr;
	else
		en->creds = (struct rc_creds){ .uid = -1, .gid = -1, .ngroups = -1 };
	/* Past the cap a refused look-up is judged by its own path only. */
	const char *base = fp_base(path);
	if (a == PD_SEARCH && base[0] && st->searched.count < PD_MAX_PATHS)
		hmap_put(&st->searched, base, strlen(base), NULL);
}

/* E found its name: the refused look-ups of that name in other
 * directories by its process were steps of its search. */
static void found_elsewhere(struct pd_state *st, const struct rc_event *e, const struct rc_ctx *ctx)
{
	const char *base = fp_base(e->path);
	struct hmap_iter it;

	if (!base[0] || !hmap_get(&st->searched, base, strlen(base)))
		return;
	int leader = rule_leader(ctx, e->pid);
	for (struct hmap_node *n = hmap_first(&st->paths, &it); n; n = hmap_next(&st->paths, &it)) {
		struct pd_entry *en = n->value;
		const char *path = n->key;
		if (en->attempt == PD_SEARCH && !en->recovered && strcmp(fp_base(path), base) == 0 &&
		    strcmp(path, e->path) != 0 && rule_leader(ctx, en->pid) == leader)
			en->recovered = true;
	}
}

/* A failed move of the process that has now moved elsewhere was a probe. */
static void moved_elsewhere(const char *path, void *arg)
{
	struct pd_state *st = arg;
	void **slot = hmap_get(&st->paths, path, strlen(path));
	struct pd_entry *en = slot ? *slot : NULL;

	if (en && en->attempt == PD_ENTER)
		en->recovered = true;
}

/* E's call on its absolute path worked: its process got through the
 * directory the path is in, and every one above. */
static void note_reached(struct pd_state *st, const struct rc_event *e, const struct rc_ctx *ctx)
{
	/* The directory is the path up to its last slash ("/" for "/x"):
	 * compared in place, copied only when it is new (this runs for every
	 * call that worked). */
	const char *base = fp_base(e->path);
	size_t dn = base > e->path + 1 ? (size_t)(base - e->path - 1) : 1;
	const struct rc_creds *cr = procs_creds(ctx->procs, e->pid);
	long long uid = cr ? cr->uid : -1;
	struct pd_reach *r = rule_int_value(&st->reached, rule_leader(ctx, e->pid), true, sizeof(*r),
					    PD_MAX_REACHERS, NULL);

	/* The directory of the last call first: calls come in runs there. */
	for (int k = 0; r && k < r->n; k++) {
		int i = (r->last + k) % r->n;
		if (r->len[i] == dn && memcmp(r->dir[i], e->path, dn) == 0) {
			r->uid[i] = uid;
			r->last = i;
			r = NULL;
		}
	}
	struct strbuf d = STRBUF_INIT;
	const char *dir = r ? fp_dir(&d, e->path) : NULL;
	if (r) {
		int i;
		if (r->n < PD_REACH_KEEP) {
			i = r->n++;
		} else {
			/* The oldest goes. */
			i = r->next;
			free(r->dir[i]);
			r->next = (i + 1) % PD_REACH_KEEP;
		}
		r->dir[i] = xstrdup(dir);
		r->len[i] = strlen(dir);
		r->uid[i] = uid;
		r->last = i;
	}
	strbuf_release(&d);
}

/* LEADER was seen getting through DIR with UID: a directory it reached
 * is DIR or lies beneath it. */
static bool reached(const struct pd_state *st, int leader, const char *dir, long long uid)
{
	void **slot = hmap_get_int(&st->reached, leader);
	const struct pd_reach *r = slot ? *slot : NULL;
	size_t n = strlen(dir);

	for (int i = 0; r && i < r->n; i++) {
		const char *x = r->dir[i];
		if (r->uid[i] == uid && strncmp(x, dir, n) == 0 &&
		    (x[n] == '\0' || x[n] == '/' || (n == 1 && dir[0] == '/')))
			return true;
	}
	return false;
}

static void pd_on_event(void *state, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct pd_state *st = state;
	enum pd_attempt a;

	if (e->kind != RC_EV_SYSCALL)
		return;
	if (rule_is_enter(e->nr) && e->ret_known && !e->err)
		rule_enter_worked(&st->enter, rule_leader(ctx, e->pid), moved_elsewhere, st);
	if (e->path && e->path[0] == '/' && e->ret_known && !e->err)
		note_reached(st, e, ctx);
	if (!classify(e, &a))
		return;
	/* fchown, fchmod, ftruncate: the file is the fd's. */
	const char *path = e->path && e->path[0] ? e->path : rule_fd_file(ctx, e);
	if (!path || !path[0])
		return;
	if (e->err == 0) {
		if (!e->ret_known || st->paths.count == 0)
			return;
		void **slot = hmap_get(&st->paths, path, strlen(path));
		const struct pd_entry *had = slot ? *slot : NULL;
		/* A stat that works says nothing about a write that did not,
		 * nor does a mapping of data about one of code. */
		if (had && (a != PD_SEARCH || had->attempt == PD_SEARCH) &&
		    (had->attempt != PD_MAP_EXEC || a == PD_MAP_EXEC))
			((struct pd_entry *)*slot)->recovered = true;
		if (e->path && e->path[0])
			found_elsewhere(st, e, ctx);
		return;
	}
	if (e->interrupted || (e->err != EACCES && e->err != EPERM && e->err != EROFS))
		return;
	if (e->err == EPERM && (event_call_looks(e->nr) || event_call_privilege(e->nr)))
		return;
	/* A library's name is a search's noise (noise_path), but a mapping
	 * of one the program opened is no probe. */
	if ((a != PD_MAP_EXEC && noise_path(path)) || fp_gpu_device(path))
		return;
	long long before = st->dropped;
	record(st, e, path, a, ctx);
	if (a == PD_ENTER && st->dropped == before)
		rule_enter_failed(&st->enter, rule_leader(ctx, e->pid), path);
}

static const char *attempt_verb(enum pd_attempt a)
{
	switch (a) {
	case PD_READ: return "read";
	case PD_WRITE: return "write";
	case PD_CREATE: return "create";
	case PD_REMOVE: return "remove or rename";
	case PD_SEARCH: return "reach";
	case PD_ENTER: return "enter";
	case PD_CHMOD: return "change the mode of";
	case PD_CHOWN: return "change the owner of";
	case PD_MAP_EXEC: return "map the code of";
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

/* Whose view the machine is looked at through now (lookup/lookup.h):
 * the process that was refused. */
struct pd_view {
	const struct rc_lookup *lk;
	int pid;
};

/* Cut SB back to its first AT bytes (AT <= its length). */
static void cut_to(struct strbuf *sb, size_t at)
{
	if (sb->len > at) {
		sb->len = at;
		sb->buf[at] = '\0';
	}
}

/* "uid 1001 ('bob')", the name as V's system knows it; in a user
 * namespace (a rootless container), the id it has there: "uid 33
 * ('www-data'; 100033 on this machine)". */
static void add_uid(struct strbuf *sb, const struct pd_view *v, uid_t uid)
{
	unsigned inside;
	bool mapped = lookup_id_inside(v->lk, v->pid, true, (unsigned)uid, &inside);

	strbuf_addf(sb, "uid %u", mapped ? inside : (unsigned)uid);
	size_t at = sb->len;
	strbuf_adds(sb, " ('");
	if (lookup_user(v->lk, v->pid, uid, sb))
		strbuf_adds(sb, mapped ? "'" : "')");
	else
		cut_to(sb, at);
	if (mapped)
		strbuf_addf(sb, "%s%u on this machine)", sb->buf[sb->len - 1] == '\'' ? "; " : " (", (unsigned)uid);
}

/* "owned by uid 1001 ('bob'), mode 0755" for ST. */
static void describe_stat(struct strbuf *sb, const struct pd_view *v, const struct stat *st, bool with_group)
{
	strbuf_adds(sb, "owned by ");
	add_uid(sb, v, st->st_uid);
	if (with_group) {
		strbuf_addf(sb, ", group %u", (unsigned)st->st_gid);
		size_t at = sb->len;
		strbuf_adds(sb, " ('");
		if (lookup_group(v->lk, v->pid, st->st_gid, sb))
			strbuf_adds(sb, "')");
		else
			cut_to(sb, at);
	}
	strbuf_addf(sb, ", mode %04o", (unsigned)(st->st_mode & 07777));
}

/* "owned by uid 1001 ('bob'), mode 0755" for PATH as it is now, or false
 * when it cannot be looked at from here. */
static bool describe_on_disk(struct strbuf *sb, const struct pd_view *v, const char *path, struct stat *out)
{
	struct stat sbuf;

	if (lookup_stat(v->lk, v->pid, path, &sbuf) != 1)
		return false;
	describe_stat(sb, v, &sbuf, false);
	if (out)
		*out = sbuf;
	return true;
}

/* The permission bits (rwx, 0-7) of ST that CR gets: the owner's, the
 * group's or the others'. When CR's groups are not known, a file of
 * another group may give it the group's bits or the others': only what
 * both give is sure. Unknown credentials get the others' bits (see the
 * top of the file). */
static unsigned granted(const struct rc_creds *cr, const struct stat *st)
{
	unsigned mode = (unsigned)st->st_mode;

	if (cr->uid >= 0 && (uid_t)cr->uid == st->st_uid)
		return (mode >> 6) & 7;
	bool in_group = cr->gid >= 0 && (gid_t)cr->gid == st->st_gid;
	for (int i = 0; i < cr->ngroups && !in_group; i++)
		in_group = cr->groups[i] == st->st_gid;
	if (in_group)
		return (mode >> 3) & 7;
	if (cr->uid >= 0 && cr->ngroups < 0)
		return (mode >> 3) & mode & 7;
	return mode & 7;
}

/* What refused an access, by the mode bits on disk now. */
struct pd_block {
	bool found;		/* DIR (or the file itself) lacks NEED */
	bool file;		/* the file itself, not a directory on the way */
	struct strbuf dir;
	struct strbuf real;	/* DIR without symbolic links, when it has some; else empty */
	struct stat st;
	const char *need;	/* "search (x)", "write and search (wx)", "read (r)"... */
};

/* Walk PATH's directories from the top: each must grant CR search (x);
 * the last one write too for a create or remove; a directory entered
 * itself too. Then the file, for a read or write. Stops where the disk
 * no longer shows the path. A directory the process was seen getting
 * through (ST and LEADER's reached ones, with CR's uid) has search. */
static void find_block(struct pd_block *b, const struct pd_view *v, const char *path, enum pd_attempt a,
		       const struct rc_creds *cr, const struct pd_state *pst, int leader)
{
	const char *base = strrchr(path, '/');
	struct stat st;

	memset(b, 0, sizeof(*b));
	strbuf_init(&b->dir);
	strbuf_init(&b->real);
	if (path[0] != '/' || !base)
		return;
	/* The directories "/", "/srv", "/srv/app" of "/srv/app/x"; "/srv/app"
	 * itself too when it is entered. */
	size_t parent = base == path ? 1 : (size_t)(base - path);
	size_t last = a == PD_ENTER ? strlen(path) : parent;
	for (size_t i = 1; i <= last; i++) {
		if (i != 1 && i != last && path[i] != '/')
			continue;
		strbuf_reset(&b->dir);
		strbuf_add(&b->dir, path, i);
		if (lookup_stat(v->lk, v->pid, b->dir.buf, &st) != 1 || !S_ISDIR(st.st_mode))
			return;
		unsigned want = i == parent && (a == PD_CREATE || a == PD_REMOVE) ? 3 : 1;
		unsigned got = granted(cr, &st);
		if ((got & want) != want && reached(pst, leader, b->dir.buf, cr->uid))
			got |= 1;
		if ((got & want) != want) {
			b->found = true;
			b->st = st;
			b->need = want == 3 ? "write and search (wx)" : "search (x)";
			if (lookup_realpath(v->lk, v->pid, b->dir.buf, &b->real) && strcmp(b->real.buf, b->dir.buf) == 0)
				strbuf_reset(&b->real);
			return;
		}
	}
	if ((a == PD_READ || a == PD_WRITE) && lookup_stat(v->lk, v->pid, path, &st) == 1) {
		unsigned want = a == PD_READ ? 4 : 2;
		if ((granted(cr, &st) & want) != want) {
			strbuf_reset(&b->dir);
			strbuf_adds(&b->dir, path);
			b->found = b->file = true;
			b->st = st;
			b->need = want == 4 ? "read (r)" : "write (w)";
		}
	}
}

/* Who the program runs as, in words: "uid 65534 ('nobody')", or "the
 * program's user" when unknown. */
static void add_who(struct strbuf *sb, const struct pd_view *v, const struct rc_creds *cr)
{
	if (cr->uid >= 0)
		add_uid(sb, v, (uid_t)cr->uid);
	else
		strbuf_adds(sb, "the user the program runs as");
}

struct pd_cand {
	struct rule_rank rank;	/* first: sorted with rule_cmp_rank */
	const char *path;
	struct pd_entry *en;
	bool kept_going;
};

/* A directory on the way, or the file, refuses by its mode bits. */
static void advise_block(struct strbuf *adv, const struct pd_view *v, const char *path, const struct pd_entry *en,
			 const struct pd_block *b)
{
	struct strbuf who = STRBUF_INIT;

	add_who(&who, v, &en->creds);
	if (b->file) {
		strbuf_addf(adv, "%s has no %s permission on '%s' (", who.buf, b->need, path);
		describe_stat(adv, v, &b->st, false);
		strbuf_adds(adv, "): chown it to that user, chmod it, or run the program as its owner");
		strbuf_release(&who);
		return;
	}
	/* Commands act on the directory itself: `chown -R` of a link would
	 * change only the link. */
	const char *target = b->real.len ? b->real.buf : b->dir.buf;
	strbuf_addf(adv, "'%s' (", b->dir.buf);
	if (b->real.len)
		strbuf_addf(adv, "a symbolic link on the way makes it '%s', ", b->real.buf);
	describe_stat(adv, v, &b->st, true);
	strbuf_addf(adv, ") gives %s no %s permission", who.buf, b->need);
	if (b->need[0] != 'w' && strcmp(b->dir.buf, path) != 0)
		strbuf_addf(adv, ", so '%s' cannot be reached through it, whatever its own mode", path);
	strbuf_adds(adv, ": ");
	if (b->need[0] == 'w')
		strbuf_addf(adv, "chown -R <user> '%s' (or chmod it), run the program as the directory's owner, "
			    "or point it at a directory it owns", target);
	else
		strbuf_addf(adv, "let that user through (chmod o+x '%s', or g+x with the user in its group), "
			    "move what the program needs out of it, or run the program as its owner", target);
	strbuf_release(&who);
}

static void advise(struct rc_finding *f, const struct pd_view *v, const char *path, const struct pd_entry *en,
		   const struct pd_block *b)
{
	struct strbuf now = STRBUF_INIT, dir = STRBUF_INIT, adv = STRBUF_INIT;
	struct stat sbuf;
	bool exists = describe_on_disk(&now, v, path, &sbuf);
	bool modes = en->attempt != PD_CHMOD && en->attempt != PD_CHOWN && en->attempt != PD_TIMES;

	fp_dir(&dir, path);
	if (en->attempt == PD_MAP_EXEC && en->err == EPERM) {
		strbuf_addf(&adv, "the file system holding '%s' is mounted noexec (findmnt -T '%s'), so no code "
			    "may run from it, whatever the file's mode: put the library where code may run (a "
			    "directory on a file system without noexec; /tmp and /dev/shm are noexec on hardened "
			    "hosts and in some containers), or remount it with exec", path, path);
	} else if (en->attempt == PD_MAP_EXEC) {
		strbuf_addf(&adv, "a security module refused to map '%s' as code (SELinux: the execute "
			    "permission of the file's type; AppArmor: an m rule): its denial is in the audit log "
			    "(journalctl -k, /var/log/audit)", path);
	} else if (en->err == EROFS) {
		strbuf_addf(&adv, "the file system holding '%s' is mounted read-only: point the program at a "
			    "writable location (a volume, /tmp) or remount it read-write", path);
	} else if (!modes && en->attempt == PD_CHOWN) {
		/* chown(2): giving a file away needs CAP_CHOWN, whoever owns it;
		 * its owner may only change its group, to one of its own. */
		strbuf_adds(&adv, "only root (CAP_CHOWN) may give a file to another user; its owner may only "
			    "change its group, to a group it is in");
		if (exists) {
			strbuf_addf(&adv, "; '%s' is %s", path, now.buf);
			finding_now(f, path);
		}
		strbuf_adds(&adv, ": run that step as root (an install or entrypoint step, not the service), or "
			    "leave the ownership as it is (a container without CAP_CHOWN refuses it to root too)");
	} else if (!modes) {
		strbuf_addf(&adv, "only the owner (or root) may %s a file", attempt_verb(en->attempt));
		if (exists) {
			strbuf_addf(&adv, "; '%s' is %s", path, now.buf);
			finding_now(f, path);
		}
		strbuf_adds(&adv, ": run the program as the owner, or chown the file to the user it runs as");
	} else if (b->found) {
		advise_block(&adv, v, path, en, b);
		if (en->creds.uid == 0)
			strbuf_adds(&adv, ". Root passes the mode bits only with CAP_DAC_OVERRIDE and "
				    "CAP_DAC_READ_SEARCH, which this process lacks (a container that drops "
				    "capabilities, a user namespace that does not own the files)");
	} else if (en->err == EACCES && en->creds.uid == 0) {
		strbuf_addf(&adv, "the program runs as root, and the mode bits of '%s' and the directories above "
			    "it let root in anyway: a security module (AppArmor, SELinux: see the audit log), a "
			    "root-squashing NFS mount or a FUSE file system refused it", path);
	} else if (en->err == EACCES && exists && (en->attempt == PD_READ || en->attempt == PD_WRITE ||
						   en->attempt == PD_SEARCH || en->attempt == PD_ENTER)) {
		/* Every mode bit on the way allows it. */
		strbuf_addf(&adv, "the mode bits of '%s' (%s) and of the directories above it allow this to ",
			    path, now.buf);
		finding_now(f, path);
		add_who(&adv, v, &en->creds);
		strbuf_adds(&adv, ": an ACL (getfacl), a security module (AppArmor, SELinux: the audit log) or "
			    "the file system (a root-squashing NFS or FUSE mount) refused it");
	} else if (en->attempt == PD_CREATE || en->attempt == PD_REMOVE || (en->attempt == PD_WRITE && !exists)) {
		struct strbuf dnow = STRBUF_INIT;
		strbuf_addf(&adv, "the user the program runs as needs write and search permission on '%s'",
			    dir.buf);
		if (describe_on_disk(&dnow, v, dir.buf, NULL)) {
			strbuf_addf(&adv, ", which is %s now", dnow.buf);
			finding_now(f, dir.buf);
		}
		strbuf_addf(&adv, ": chown -R <user> '%s' (or chmod it), run the program as the "
			    "directory's owner, or point it at a directory it owns", dir.buf);
		strbuf_release(&dnow);
	} else if (en->attempt == PD_SEARCH || en->attempt == PD_ENTER) {
		strbuf_addf(&adv, "a directory on the way to '%s' lacks search (x) permission for the user the "
			    "program runs as: chmod +x it, or run as a user that may enter it", path);
	} else {
		strbuf_addf(&adv, "give the user the program runs as %s access to '%s'",
			    en->attempt == PD_READ ? "read" : "write", path);
		if (exists) {
			strbuf_addf(&adv, " (it is %s now)", now.buf);
			finding_now(f, path);
		}
		strbuf_adds(&adv, ": chown it to that user, chmod it, or run the program as its owner");
	}
	finding_set(&f->advice, adv.buf);
	strbuf_release(&now);
	strbuf_release(&dir);
	strbuf_release(&adv);
}

/* "is '/walvol/pg_wal', " for a directory a symbolic link leads to. */
static void add_real(struct strbuf *sb, const struct pd_block *b)
{
	if (b->real.len)
		strbuf_addf(sb, "is '%s', ", b->real.buf);
}

static void emit(struct rc_findings *out, const struct pd_cand *c, const struct pd_state *st,
		 const struct rc_ctx *ctx)
{
	const struct pd_entry *en = c->en;
	enum rc_severity sev = c->kept_going ? RC_SEV_WARNING : RC_SEV_ERROR;
	struct rc_finding *f;
	struct strbuf dir = STRBUF_INIT, sb = STRBUF_INIT;
	struct pd_block b;

	const struct pd_view v = { ctx->lookup, en->pid };
	find_block(&b, &v, c->path, en->attempt, &en->creds, st, rule_leader(ctx, en->pid));
	/* Only a refusal by the mode bits has one. Root, whom they stop only
	 * without its DAC capabilities, is walked like anyone: a directory
	 * that would refuse uid 0 explains the refusal best. */
	if (en->err != EACCES || en->attempt == PD_CHMOD || en->attempt == PD_CHOWN ||
	    en->attempt == PD_TIMES || en->attempt == PD_MAP_EXEC)
		b.found = false;
	fp_dir(&dir, c->path);
	if (en->attempt == PD_CREATE)
		strbuf_addf(&sb, "cannot create '%s' in '%s': %s", fp_base(c->path), dir.buf, err_text(en->err));
	else if (en->attempt == PD_ENTER && en->syscall && strcmp(en->syscall, "chdir") != 0)
		strbuf_addf(&sb, "cannot %s to '%s': %s", en->syscall, c->path, err_text(en->err));
	else if (en->attempt == PD_ENTER)
		strbuf_addf(&sb, "cannot enter directory '%s': %s", c->path, err_text(en->err));
	else if (en->attempt == PD_SEARCH && en->err == EACCES && !b.found)
		strbuf_addf(&sb, "cannot reach '%s': a directory on the way may not be searched", c->path);
	else if (en->attempt == PD_SEARCH && en->err == EACCES)
		strbuf_addf(&sb, "cannot reach '%s'", c->path);
	else if (en->attempt == PD_MAP_EXEC && en->err == EPERM)
		strbuf_addf(&sb, "cannot map the code of '%s': its file system is mounted noexec", c->path);
	else
		strbuf_addf(&sb, "cannot %s '%s': %s", attempt_verb(en->attempt), c->path, err_text(en->err));
	if (b.found && !b.file && b.need[0] == 'w') {
		/* The directory written in: named already. */
		strbuf_adds(&sb, ": ");
		add_who(&sb, &v, &en->creds);
		strbuf_adds(&sb, " may not write in it (");
		add_real(&sb, &b);
		strbuf_addf(&sb, "mode %04o, owner ", (unsigned)(b.st.st_mode & 07777));
		if (!lookup_user(ctx->lookup, en->pid, b.st.st_uid, &sb))
			strbuf_addf(&sb, "uid %u", (unsigned)b.st.st_uid);
		strbuf_adds(&sb, ")");
	} else if (b.found && !b.file) {
		strbuf_addf(&sb, ": directory '%s' on the way (", b.dir.buf);
		add_real(&sb, &b);
		strbuf_addf(&sb, "mode %04o, owner ", (unsigned)(b.st.st_mode & 07777));
		if (!lookup_user(ctx->lookup, en->pid, b.st.st_uid, &sb))
			strbuf_addf(&sb, "uid %u", (unsigned)b.st.st_uid);
		strbuf_addf(&sb, ") denies %s", b.need);
		if (en->creds.uid >= 0) {
			strbuf_adds(&sb, " to ");
			add_uid(&sb, &v, (uid_t)en->creds.uid);
		}
	}
	f = rule_finding(out, "permission-denied", sev, RC_SEV_INFO, &sb);
	f->pid = en->pid;
	/* Leaders, as met holds them: a process's threads are one. */
	finding_also(f, &en->met, rule_leader(ctx, f->pid));
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
	if (b.found)
		finding_now(f, b.dir.buf);
	advise(f, &v, c->path, en, &b);
	strbuf_release(&dir);
	strbuf_release(&b.dir);
	strbuf_release(&b.real);
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
		cands[n].rank.score = (rule_met_by_failed(ctx, &en->met) ? RC_W_FAILED : 0) +
				      (en->attempt == PD_SEARCH ? 0 : PD_W_OBJECT) +
				      (cands[n].kept_going ? RC_W_WENT_ON : 0) + rule_recency(ctx, en->seq);
		cands[n].rank.seq = en->seq;
		n++;
	}
	qsort(cands, n, sizeof(*cands), rule_cmp_rank);
	size_t shown = MIN(n, (size_t)PD_MAX_REPORT);
	for (size_t i = 0; i < shown; i++)
		emit(out, &cands[i], st, ctx);
	rule_note_rest(out, shown, (long long)(n - shown) + st->dropped, "denied paths");
	free(cands);
}

/* The calls classify() takes (fchown, fchmod, ftruncate have no path). */
static bool pd_reads_call(long nr)
{
	struct rc_event e;
	enum pd_attempt a;

	event_clear(&e);
	e.nr = nr;
	/* mmap counts when it maps code from a file. */
	e.mode = PROT_EXEC;
	e.fd = 0;
	return classify(&e, &a);
}

const struct rc_rule_ops rc_rule_permission_denied_ops = {
	.state_size = sizeof(struct pd_state),
	.init = pd_init,
	.on_event = pd_on_event,
	.reads = {
		.events = RC_READS_PATHS,
		.classes = CL_ENTER,
		.call = pd_reads_call,
	},
	.finish = pd_finish,
	.release = pd_release,
};
