/* file-lock: a lock file another process held. flock() and fcntl()'s
 * record locks (F_SETLKW, F_SETLK, their OFD twins) on a file that someone
 * else had locked:
 *  - a wait that ended only because a signal cut it short (a time-out, a
 *    supervisor, Ctrl-C), or in EDEADLK: the process never got the lock;
 *  - a try without waiting (LOCK_NB, F_SETLK) that found the lock taken,
 *    and no later try of that process got it: "another instance is
 *    running", apt's "Could not get lock /var/lib/dpkg/lock-frontend";
 *  - a wait of SLOW_WAIT_S or more that did get it: a slow start, not a
 *    failure.
 * A try without waiting that found the lock taken, after which the same
 * process took a lock on another file of the same directory, was a look
 * across lock files for one of its own (probing): a note.
 * The finding names the lock file (the fd table gives its path), the
 * waiter, how long it waited, and the holder when the trace shows it: the
 * last process that took a lock on the same file and had not let it go
 * (unlock, close, exit). A wait still going on when tracing stopped is
 * blocked-thread's, which names the file too.
 *
 * Live, the same calls; `attach` sees a wait in progress as blocked.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "lookup/lookup.h"
#include "rules/aggregate.h"
#include "rules/fds.h"
#include "rules/finding.h"
#include "rules/paths.h"
#include "rules/proc-view.h"
#include "rules/rule.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"

#define RULE_ID "file-lock"
/* A wait this long that got the lock held the program up. */
#define SLOW_WAIT_S 1.0
/* A wait cut short earlier than this was no stall (a signal handler
 * interrupting a lock taken and given back in a moment). */
#define STUCK_MIN_S 0.1
/* Lock files followed; more are counted. */
#define MAX_FILES 1024

enum outcome {
	GOT,			/* waited, then got it */
	CUT,			/* the wait ended by a signal */
	DEADLOCK,		/* EDEADLK */
	TAKEN,			/* a try without waiting found it taken */
};

struct holder {
	int pid;		/* leader; 0: nobody known */
	char *line;
	double ts;
};

struct lockfile {
	char *path;
	struct holder holder;
	/* The worst try of a process that did not get it, else the longest
	 * wait that did. */
	bool have_wait;
	enum outcome outcome;
	int pid, tid;
	int err;
	double dur;		/* < 0 unknown */
	char *syscall;
	char *line;
	struct holder held_by;	/* the holder at that try */
	uint64_t count;		/* tries that did not get it, or slow waits */
	uint64_t seq;
	double ts;
	bool got_later;		/* the same process got it after failing */
	/* A try without waiting that found it taken, after which the same
	 * process took a lock on another file of the same directory: it was
	 * looking at other processes' lock files for its own (a JVM checks
	 * each /tmp/hsperfdata_USER/PID that way, to remove the dead ones'),
	 * not failing to get one it needed. The file it got. */
	char *sibling;
};

struct state {
	struct hmap files;	/* path -> struct lockfile* */
	struct hmap holding;	/* leader pid -> how many files it holds */
	uint64_t dropped;
	/* Tries that found a lock taken: none, and got_beside has no file
	 * to look for (a program that only ever gets its locks, SQLite's
	 * many, pays nothing for it). */
	uint64_t ntaken;
};

static void init(void *p)
{
	hmap_init(&((struct state *)p)->files);
	hmap_init(&((struct state *)p)->holding);
}

static void holder_clear(struct holder *h)
{
	free(h->line);
	memset(h, 0, sizeof(*h));
}

static void lockfile_free(void *p)
{
	struct lockfile *lf = p;

	free(lf->path);
	holder_clear(&lf->holder);
	holder_clear(&lf->held_by);
	free(lf->syscall);
	free(lf->line);
	free(lf->sibling);
	free(lf);
}

static void release(void *p)
{
	hmap_release(&((struct state *)p)->files, lockfile_free);
	hmap_release(&((struct state *)p)->holding, NULL);
}

/* LF's holder gives it back (PID: a new one takes it, 0: nobody): the
 * count of files each process holds lets an exit skip the walk. */
static void set_holder(struct state *s, struct lockfile *lf, int pid, const struct rc_event *e)
{
	if (lf->holder.pid) {
		void **slot = hmap_get_int(&s->holding, lf->holder.pid);
		if (slot && (uintptr_t)*slot > 1)
			*slot = (void *)((uintptr_t)*slot - 1);
		else if (slot)
			hmap_del_int(&s->holding, lf->holder.pid);
	}
	holder_clear(&lf->holder);
	if (!pid)
		return;
	bool created;
	void **slot = hmap_put_int(&s->holding, pid, &created);
	*slot = (void *)((uintptr_t)*slot + 1);
	lf->holder.pid = pid;
	lf->holder.line = rule_line_short(e);
	lf->holder.ts = e->ts;
}

static struct lockfile *lockfile_get(struct state *s, const char *path, bool create)
{
	void **slot = hmap_get(&s->files, path, strlen(path));

	if (slot || !create)
		return slot ? *slot : NULL;
	if (s->files.count >= MAX_FILES) {
		s->dropped++;
		return NULL;
	}
	struct lockfile *lf = xcalloc(1, sizeof(*lf));
	lf->path = xstrdup(path);
	*hmap_put(&s->files, lf->path, strlen(lf->path), NULL) = lf;
	return lf;
}

/* How bad a try that did not get the lock is: the one to report. */
static int weight(enum outcome o)
{
	return o == DEADLOCK ? 3 : o == CUT ? 2 : o == TAKEN ? 1 : 0;
}

static void note_try(struct lockfile *lf, const struct rc_event *e, const struct rc_ctx *ctx, enum outcome o)
{
	int pid = rule_leader(ctx, e->pid);

	lf->count++;
	bool worse = !lf->have_wait || weight(o) > weight(lf->outcome) ||
		     (weight(o) == weight(lf->outcome) && e->dur > lf->dur);
	if (worse) {
		lf->have_wait = true;
		lf->outcome = o;
		lf->pid = pid;
		lf->tid = e->pid;
		lf->err = e->err;
		lf->dur = e->dur;
		finding_set(&lf->syscall, e->name);
		free(lf->line);
		lf->line = rule_line_short(e);
		holder_clear(&lf->held_by);
		if (lf->holder.pid && lf->holder.pid != pid) {
			lf->held_by.pid = lf->holder.pid;
			lf->held_by.line = lf->holder.line ? xstrdup(lf->holder.line) : NULL;
			lf->held_by.ts = lf->holder.ts;
		}
		lf->got_later = false;
		free(lf->sibling);
		lf->sibling = NULL;
	}
	lf->seq = e->seq;
	lf->ts = e->ts;
}

/* PID got the lock on GOT: its earlier tries that found a file beside it
 * taken were looks across lock files for one of its own. Locks taken are
 * few, so the walk over the files followed is cheap. */
static void got_beside(struct state *s, const struct lockfile *got, int pid)
{
	/* The directory part, its last '/' included; none for a bare name. */
	size_t n = (size_t)(fp_base(got->path) - got->path);
	struct hmap_iter it;

	if (!n || !s->ntaken)
		return;
	for (struct hmap_node *node = hmap_first(&s->files, &it); node; node = hmap_next(&s->files, &it)) {
		struct lockfile *lf = node->value;
		if (lf == got || !lf->have_wait || lf->outcome != TAKEN || lf->pid != pid || lf->got_later ||
		    lf->sibling || (size_t)(fp_base(lf->path) - lf->path) != n || memcmp(lf->path, got->path, n) != 0)
			continue;
		lf->sibling = xstrdup(got->path);
	}
}

static void on_lock(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	const char *path = rule_fd_file(ctx, e);

	if (!path || e->blocked || !e->ret_known)
		return;
	int pid = rule_leader(ctx, e->pid);
	if (e->lock == RC_LOCK_UNLOCK) {
		struct lockfile *lf = lockfile_get(s, path, false);
		if (lf && lf->holder.pid == pid)
			set_holder(s, lf, 0, e);
		return;
	}
	if (!e->err) {
		/* Got it. A process that failed before and got it later
		 * recovered; a long wait is worth saying. */
		struct lockfile *lf = lockfile_get(s, path, true);
		if (!lf)
			return;
		if (lf->have_wait && lf->outcome != GOT && lf->pid == pid)
			lf->got_later = true;
		if (e->lock_waits && e->dur >= SLOW_WAIT_S && (!lf->have_wait || lf->outcome == GOT))
			note_try(lf, e, ctx, GOT);
		set_holder(s, lf, pid, e);
		got_beside(s, lf, pid);
		return;
	}
	enum outcome o;
	if (e->err == EDEADLK)
		o = DEADLOCK;
	else if (e->lock_waits && (e->interrupted || e->err == EINTR) && (e->dur < 0 || e->dur >= STUCK_MIN_S))
		o = CUT;
	/* (EWOULDBLOCK is EAGAIN; fcntl may answer EACCES.) */
	else if (!e->lock_waits && (e->err == EAGAIN || e->err == EACCES))
		o = TAKEN;
	else
		return;
	struct lockfile *lf = lockfile_get(s, path, true);
	if (lf)
		note_try(lf, e, ctx, o);
	if (o == TAKEN)
		s->ntaken++;
}

/* A process's locks end with it, and flock's and fcntl's with a close of
 * the file by it (fcntl's on any close; flock's on the last one, which is
 * close enough for naming a holder). */
static void let_go(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	int pid = rule_leader(ctx, e->pid);

	if (e->kind == RC_EV_SYSCALL) {
		/* A close: one look-up, however many files are followed. */
		const char *path = rule_fd_file(ctx, e);
		struct lockfile *lf = path ? lockfile_get(s, path, false) : NULL;
		if (lf && lf->holder.pid == pid)
			set_holder(s, lf, 0, e);
		return;
	}
	/* An exit: the walk only for a process that holds something. */
	if (!hmap_get_int(&s->holding, pid))
		return;
	struct hmap_iter it;
	for (struct hmap_node *n = hmap_first(&s->files, &it); n; n = hmap_next(&s->files, &it)) {
		struct lockfile *lf = n->value;
		if (lf->holder.pid == pid)
			set_holder(s, lf, 0, e);
	}
}

static void on_event(void *p, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct state *s = p;

	if (e->kind == RC_EV_EXIT) {
		const struct rc_proc *l = procs_leader(ctx->procs, e->pid);
		if (s->files.count && (!l || l->pid == e->pid))
			let_go(s, e, ctx);
		return;
	}
	if (e->kind != RC_EV_SYSCALL)
		return;
	if ((e->nr == SYS_flock || e->nr == SYS_fcntl) && e->lock != RC_LOCK_NONE)
		on_lock(s, e, ctx);
	else if (e->nr == SYS_close && s->files.count && !e->err)
		let_go(s, e, ctx);
}

static void summary(struct strbuf *sb, const struct lockfile *lf, const struct rc_ctx *ctx)
{
	const struct rc_proc *p = procs_get(ctx->procs, lf->pid);

	strbuf_addf(sb, "'%s' was locked by another process: ", lf->path);
	proc_name(sb, p, lf->pid);
	switch (lf->outcome) {
	case CUT:
		strbuf_adds(sb, " waited");
		if (lf->dur >= 0)
			strbuf_addf(sb, " %.1f s", lf->dur);
		strbuf_addf(sb, " for it in %s and was interrupted before it got it", lf->syscall);
		break;
	case DEADLOCK:
		strbuf_addf(sb, " asked for it in %s and the kernel refused to wait: a deadlock", lf->syscall);
		break;
	case TAKEN:
		strbuf_addf(sb, " could not take it: %s without waiting found it held", lf->syscall);
		break;
	case GOT:
		strbuf_addf(sb, " waited %.1f s for it in %s", lf->dur, lf->syscall);
		break;
	}
	if (lf->held_by.pid) {
		strbuf_adds(sb, "; held by ");
		proc_name(sb, procs_get(ctx->procs, lf->held_by.pid), lf->held_by.pid);
	}
}

/* Who holds LF's lock now, when the trace does not show it and the lock
 * is still wanted: /proc/locks, for a live trace. Said in SB. */
static int holder_now(struct strbuf *sb, const struct lockfile *lf, const struct rc_ctx *ctx)
{
	struct strbuf cmd = STRBUF_INIT;
	int h = lf->held_by.pid || lf->outcome == GOT || lf->got_later ? -1
		: lookup_lock_holder(ctx->lookup, lf->pid, lf->path, &cmd);

	if (h > 0) {
		strbuf_addf(sb, "; held now by process %d", h);
		if (cmd.len)
			strbuf_addf(sb, " '%.60s%s'", cmd.buf, cmd.len > 60 ? "..." : "");
		strbuf_adds(sb, " (/proc/locks)");
	}
	strbuf_release(&cmd);
	return h;
}

static void emit(struct rc_findings *out, const struct lockfile *lf, const struct rc_ctx *ctx)
{
	struct strbuf sb = STRBUF_INIT;
	bool failed = lf->outcome != GOT && !lf->got_later && !lf->sibling;

	summary(&sb, lf, ctx);
	int holder = holder_now(&sb, lf, ctx);
	/* Not getting the lock stopped the program; waiting for it slowed it;
	 * a look at another process's lock file did neither. */
	struct rc_finding *f = failed	     ? rule_finding(out, RULE_ID, RC_SEV_ERROR, RC_SEV_WARNING, &sb)
			       : lf->sibling ? rule_finding(out, RULE_ID, RC_SEV_INFO, RC_SEV_INFO, &sb)
					     : rule_finding(out, RULE_ID, RC_SEV_WARNING,
							    lf->outcome == GOT ? RC_SEV_WARNING : RC_SEV_INFO, &sb);
	rule_finding_pid(f, lf->pid, lf->tid);
	if (holder > 0)
		f->holder_pid = holder;
	finding_set(&f->syscall, lf->syscall);
	finding_set(&f->path, lf->path);
	f->err = lf->outcome == CUT ? 0 : lf->err;
	if (lf->dur >= 0)
		f->duration_s = lf->dur;
	f->count = (long long)lf->count;
	rule_evidence(f, lf->held_by.line);
	rule_evidence(f, lf->line);
	if (lf->got_later)
		finding_set(&f->message, "it got the lock on a later try");
	else if (lf->sibling)
		finding_setf(&f->message, "it then locked '%s' beside it: it was looking across lock files for "
			     "one of its own", lf->sibling);
	const char *deadlock = lf->outcome == DEADLOCK ? "; a deadlock means two processes each wait for "
							 "the other's lock: take locks in one order" : "";
	if (holder > 0)
		finding_setf(&f->advice, "process %d holds the lock on '%s' (where it is, above): a lock dies "
			     "with its holder, so wait for it, or stop it if it is a stale or second instance "
			     "of the program%s", holder, lf->path, deadlock);
	else
		finding_setf(&f->advice, "another process holds the lock on '%s': `fuser -v %s` or `lsof %s` "
			     "names it, and /proc/locks lists every lock held (by inode). A lock dies with its "
			     "holder, so the holder is alive: wait for it, or stop it if it is a stale or second "
			     "instance of the program%s", lf->path, lf->path, lf->path, deadlock);
	f->seq = lf->seq;
	f->ts = lf->ts;
	f->unrecovered = failed;
	/* A wait cut short: the process was stuck on it when the signal came
	 * (a time-out's, a supervisor's). */
	f->stuck = lf->outcome == CUT;
	finding_echo_name(f, lf->path);
	finding_echo_name(f, fp_name(lf->path));
	finding_echo_word(f, "lock");
}

static bool reported(const void *value, const void *arg)
{
	(void)arg;
	return ((const struct lockfile *)value)->have_wait;
}

static void emit_one(const void *value, const void *arg, struct rc_findings *out)
{
	emit(out, value, arg);
}

static void finish(void *p, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = p;

	rule_report_in_order(&s->files, reported, offsetof(struct lockfile, seq), emit_one, ctx, out);
	if (s->dropped)
		rule_dropped(out, RULE_ID, RC_SEV_WARNING, RC_SEV_INFO, s->dropped,
			     "%llu more lock files were not followed",
			     "the program locks many files; the ones above show the pattern");
}

static const long reads_calls[] = { SYS_flock, SYS_fcntl, SYS_close, -1 };

const struct rc_rule_ops rc_rule_file_lock_ops = {
	.state_size = sizeof(struct state),
	.init = init,
	.on_event = on_event,
	.reads = { .events = RC_READS_EXITS, .calls = reads_calls },
	.finish = finish,
	.release = release,
};
