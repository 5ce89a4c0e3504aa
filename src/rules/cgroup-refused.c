/* cgroup-refused: the cgroup file system refused a write, an open for
 * writing, a mkdir or an rmdir.
 *
 * Container runtimes, systemd and services that limit themselves write
 * cgroup files: a pid into cgroup.procs, "+memory" into
 * cgroup.subtree_control, a limit into memory.max. The kernel answers
 * with the usual errnos, but they stand for its cgroup rules, not for
 * what they mean on a disk:
 *  - ENOSPC moving a process into a cgroup v1 cpuset whose cpuset.cpus
 *    or cpuset.mems is empty (v1 does not inherit them): no disk is full;
 *  - EBUSY moving a process into a v2 cgroup that enables controllers for
 *    its children (only leaves hold processes), or enabling controllers
 *    for the children of a cgroup that has processes of its own; EBUSY
 *    too for a v1 memory limit below what the cgroup uses, and for an
 *    rmdir of a cgroup that still has processes or children;
 *  - ENOENT for a controller's file the cgroup does not have (its parent
 *    does not enable the controller, or on a machine in hybrid mode the
 *    controller is bound to a v1 hierarchy), and for a controller that is
 *    not available where it is enabled; EACCES for an open that would
 *    create such a file (cgroupfs creates none);
 *  - EACCES or EPERM for a cgroup not delegated to the writer;
 *  - EINVAL for a value the file does not take; EAGAIN for a mkdir past
 *    cgroup.max.descendants or cgroup.max.depth.
 * disk-full, missing-file and permission-denied would say "the disk is
 * full", "create it", "chmod it"; they leave the cgroup file system to
 * this rule (fp_cgroup, rules/paths.h).
 *
 * Grouped by file and errno, the value written kept (for the summary and
 * for EINVAL's advice); a later write of the same file by the same
 * process that worked makes it a fallback. The live look-ups read the
 * cgroup's own files where the machine is the one traced: which
 * controllers the cgroup has, what it enables for its children, its
 * cpuset.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
#include "util/xlat.h"

#define RULE_ID "cgroup-refused"
#define MAX_RECS 256		/* files and errnos kept; more are counted */
#define VALUE_MAX 64		/* bytes of a written value kept */

enum cg_op {
	CG_WRITE,		/* a write to an open cgroup file */
	CG_OPEN,		/* an open for writing */
	CG_MKDIR,		/* a new cgroup */
	CG_RMDIR,		/* a cgroup removed */
};

struct rec {
	char *path;
	enum cg_op op;
	int err;
	int pid, tid;
	char *syscall;
	char *value;		/* what was written, printable, NULL unknown */
	bool creat;		/* an open that would have created the file */
	uint64_t count;
	uint64_t first_seq, last_seq;
	double last_ts;
	char *ev[2];		/* the first and the last call */
	bool recovered;
};

struct state {
	struct hmap recs;	/* "errno:path" -> struct rec* */
	uint64_t dropped;
};

static void init(void *p)
{
	hmap_init(&((struct state *)p)->recs);
}

static void rec_free(void *p)
{
	struct rec *r = p;

	free(r->path);
	free(r->syscall);
	free(r->value);
	for (size_t i = 0; i < ARRAY_SIZE(r->ev); i++)
		free(r->ev[i]);
	free(r);
}

static void release(void *p)
{
	hmap_release(&((struct state *)p)->recs, rec_free);
}

/* The value E wrote, up to its first newline, when the trace has it and
 * it is text. */
static char *written(const struct rc_event *e)
{
	if (!e->data || !e->data_len)
		return NULL;
	size_t n = MIN(e->data_len, (size_t)VALUE_MAX);
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < n && e->data[i] != '\n'; i++) {
		unsigned char c = e->data[i];
		if (c < 0x20 || c > 0x7e) {
			strbuf_release(&sb);
			return NULL;
		}
		strbuf_addc(&sb, (char)c);
	}
	if (!sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

/* The cgroup file E is about and what it did to it; NULL for a call
 * that is none of the four or a path off the cgroup file system. */
static const char *cgroup_target(const struct rc_event *e, const struct rc_ctx *ctx, enum cg_op *op)
{
	const char *path = NULL;
	unsigned long long cl = syscall_classes(e->nr);

	if (rule_is_open(e->nr)) {
		if ((e->flags & O_ACCMODE) == O_RDONLY && !(e->flags & (O_CREAT | O_TRUNC)))
			return NULL;
		*op = CG_OPEN;
		path = e->path;
	} else if (cl & CL_WRITE) {
		*op = CG_WRITE;
		path = rule_fd_file(ctx, e);
	} else if (e->nr == SYS_mkdir || e->nr == SYS_mkdirat) {
		*op = CG_MKDIR;
		path = e->path;
	} else if (e->nr == SYS_rmdir || (e->nr == SYS_unlinkat && e->err != EISDIR)) {
		/* unlinkat's EISDIR is Go's os.Remove trying the name as a
		 * file before it removes the directory. */
		*op = CG_RMDIR;
		path = e->path;
	}
	return path && fp_cgroup(path) ? path : NULL;
}

static void on_event(void *p, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct state *s = p;
	enum cg_op op;

	bool failed = event_failed(e);
	/* Every write that worked comes here: only one that may make a
	 * refusal a fallback is worth finding its file for. */
	if (e->kind != RC_EV_SYSCALL || (failed ? e->err == EEXIST || e->err == EINTR : !s->recs.count))
		return;
	const char *path = cgroup_target(e, ctx, &op);
	if (!path)
		return;
	if (!failed) {
		/* The same file written by the same process, and taken. */
		if (op != CG_WRITE)
			return;
		int pid = rule_leader(ctx, e->pid);
		struct hmap_iter it;
		for (struct hmap_node *n = hmap_first(&s->recs, &it); n; n = hmap_next(&s->recs, &it)) {
			struct rec *r = n->value;
			if (r->op == CG_WRITE && r->pid == pid && strcmp(r->path, path) == 0)
				r->recovered = true;
		}
		return;
	}
	struct strbuf key = STRBUF_INIT;
	strbuf_addf(&key, "%d:%d:%s", e->err, (int)op, path);
	void **slot = hmap_get(&s->recs, key.buf, key.len);
	struct rec *r = slot ? *slot : NULL;
	if (!r) {
		if (s->recs.count >= MAX_RECS) {
			s->dropped++;
			strbuf_release(&key);
			return;
		}
		r = xcalloc(1, sizeof(*r));
		r->path = xstrdup(path);
		r->op = op;
		r->err = e->err;
		r->syscall = xstrdup(e->name ? e->name : "?");
		r->first_seq = e->seq;
		r->creat = op == CG_OPEN && (e->flags & O_CREAT);
		r->ev[0] = rule_line_short(e);
		*hmap_put(&s->recs, key.buf, key.len, NULL) = r;
	} else {
		free(r->ev[1]);
		r->ev[1] = rule_line_short(e);
	}
	strbuf_release(&key);
	if (!r->value)
		r->value = written(e);
	r->count++;
	r->pid = rule_leader(ctx, e->pid);
	r->tid = e->pid;
	r->last_seq = e->seq;
	r->last_ts = e->ts;
	r->recovered = false;
}

/* The cgroup a path is in or is: its directory for a file, itself for a
 * mkdir or rmdir. */
static const char *cgroup_of(struct strbuf *sb, const struct rec *r)
{
	if (r->op == CG_MKDIR || r->op == CG_RMDIR) {
		strbuf_reset(sb);
		strbuf_adds(sb, r->path);
		return strbuf_str(sb);
	}
	return fp_dir(sb, r->path);
}

/* The first line of the cgroup file DIR/NAME as the process sees it now,
 * into OUT (empty: the file is empty); false when it cannot be read. */
static bool read_now(struct rc_finding *f, const struct rc_ctx *ctx, const struct rec *r, const char *dir,
		     const char *name, struct strbuf *out)
{
	struct strbuf path = STRBUF_INIT;
	char buf[256];

	strbuf_addf(&path, "%s/%s", dir, name);
	ssize_t n = lookup_read(ctx->lookup, r->pid, path.buf, 0, buf, sizeof(buf) - 1);
	if (n >= 0) {
		buf[n] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		strbuf_reset(out);
		strbuf_adds(out, buf);
		finding_now(f, path.buf);
	}
	strbuf_release(&path);
	return n >= 0;
}

/* An open that would create a cgroup file gets EACCES whether or not the
 * file is there: whether it is tells a missing controller from a cgroup
 * not delegated. 1 there, 0 not, -1 not known (another machine's log). */
static int there_now(const struct rc_ctx *ctx, const struct rec *r)
{
	struct stat st;

	return lookup_stat(ctx->lookup, r->pid, r->path, &st);
}

/* The controller a cgroup file belongs to: "memory" of "memory.max";
 * NULL for the cgroup core's own files (cgroup.procs, tasks). */
static const char *controller_of(struct strbuf *sb, const char *name)
{
	const char *dot = strchr(name, '.');

	if (!dot || fp_has_prefix(name, "cgroup.") || strcmp(name, "tasks") == 0 ||
	    strcmp(name, "notify_on_release") == 0 || strcmp(name, "release_agent") == 0)
		return NULL;
	strbuf_reset(sb);
	strbuf_add(sb, name, (size_t)(dot - name));
	return strbuf_str(sb);
}

static bool procs_file(const char *name)
{
	return strcmp(name, "cgroup.procs") == 0 || strcmp(name, "tasks") == 0 ||
	       strcmp(name, "cgroup.threads") == 0;
}

static const char *const delegation =
	"the writer needs the cgroup delegated to it: its directory and its cgroup.procs, "
	"cgroup.subtree_control and cgroup.threads owned by the writer's user (systemd: Delegate=yes; "
	"`systemd-run --user --scope -p Delegate=yes` for a rootless engine); moving a process also needs "
	"write access to cgroup.procs of the closest cgroup the source and the target share, and, without "
	"privilege, a process of the same user; in a container, the engine must give it a cgroup namespace "
	"with its cgroup writable";

/* Summary and advice for a refused write (or open) of cgroup file NAME. */
static void explain_file(struct rc_finding *f, struct strbuf *sum, const struct rc_ctx *ctx, const struct rec *r,
			 const char *cg, const char *name)
{
	struct strbuf now = STRBUF_INIT, cb = STRBUF_INIT;
	const char *ctl = controller_of(&cb, name);
	const char *val = r->value;
	bool moving = procs_file(name);
	bool subtree = strcmp(name, "cgroup.subtree_control") == 0;
	int there = r->creat && r->err == EACCES ? there_now(ctx, r) : 1;

	if (moving && r->err == ENOSPC) {
		strbuf_addf(sum, "could not move %s%s into cgroup '%s': its cpuset has no CPUs or memory nodes to "
			    "give it (ENOSPC from '%s': no disk is full)", val ? "process " : "a process", val ? val : "",
			    cg, name);
		bool cpus = read_now(f, ctx, r, cg, "cpuset.cpus", &now) && !now.len;
		bool mems = read_now(f, ctx, r, cg, "cpuset.mems", &now) && !now.len;
		if (cpus || mems)
			strbuf_addf(sum, "; its %s %s empty now", cpus && mems ? "cpuset.cpus and cpuset.mems" :
				    cpus ? "cpuset.cpus" : "cpuset.mems", cpus && mems ? "are" : "is");
		finding_setf(&f->advice, "a cgroup v1 cpuset starts empty: copy the parent's cpuset.cpus and "
			     "cpuset.mems into '%s' before moving processes in (`cat ../cpuset.cpus > cpuset.cpus`, "
			     "the same for cpuset.mems), or set cgroup.clone_children to 1 in the parent so that new "
			     "cgroups inherit them", cg);
	} else if (moving && r->err == EBUSY) {
		strbuf_addf(sum, "could not move a process into cgroup '%s': cgroup v2 keeps processes in leaves "
			    "only, and '%s' enables controllers for cgroups below it", cg, cg);
		if (read_now(f, ctx, r, cg, "cgroup.subtree_control", &now) && now.len)
			strbuf_addf(sum, " ('%s' in its cgroup.subtree_control now)", now.buf);
		finding_setf(&f->advice, "move the process into a cgroup below '%s' (runtimes and systemd keep a "
			     "leaf such as 'init' or 'payload' for this), or empty its cgroup.subtree_control first",
			     cg);
	} else if (moving && r->err == ESRCH) {
		strbuf_addf(sum, "could not move process %s into cgroup '%s': no such process (it had exited)",
			    val ? val : "(its pid)", cg);
		finding_setf(&f->advice, "the process was gone before it could be moved: move a process right "
			     "after starting it and check it still runs, or start it in the cgroup (clone3's "
			     "CLONE_INTO_CGROUP, systemd-run --scope)");
	} else if (moving && r->err == EINVAL) {
		strbuf_addf(sum, "cgroup '%s' refused the value written to '%s'%s%s%s: it takes one process (or "
			    "thread) id a write", cg, name, val ? " ('" : "", val ? val : "", val ? "')" : "");
		finding_setf(&f->advice, "write one decimal pid per write(2), as `echo PID > %s/%s` does", cg,
			     name);
	} else if (moving && r->err == EOPNOTSUPP) {
		strbuf_addf(sum, "could not move a process into cgroup '%s': its type does not take one (a "
			    "threaded or domain invalid cgroup)", cg);
		if (read_now(f, ctx, r, cg, "cgroup.type", &now) && now.len)
			strbuf_addf(sum, "; its cgroup.type is '%s' now", now.buf);
		finding_setf(&f->advice, "a threaded cgroup takes threads (cgroup.threads), not processes; move "
			     "the whole process into its domain cgroup instead, or fix the subtree's cgroup.type");
	} else if (subtree && r->err == ENOENT) {
		strbuf_addf(sum, "could not enable %s%s%s for the cgroups below '%s': it is not available there",
			    val ? "'" : "a controller", val ? val : "", val ? "'" : "", cg);
		if (read_now(f, ctx, r, cg, "cgroup.controllers", &now))
			strbuf_addf(sum, " ('%s' has %s%s%s)", cg, now.len ? "'" : "no controller",
				    now.len ? now.buf : "", now.len ? "'" : "");
		finding_setf(&f->advice, "a controller is enabled from the root down: each ancestor's "
			     "cgroup.subtree_control must enable it first ('+memory'), and it must be in the root's "
			     "cgroup.controllers; one already bound to a cgroup v1 hierarchy (a machine in hybrid "
			     "mode, /sys/fs/cgroup/memory) cannot be used on v2 until it is unmounted there: boot with "
			     "systemd.unified_cgroup_hierarchy=1 (cgroup v2 alone)");
	} else if (subtree && r->err == EBUSY) {
		strbuf_addf(sum, "could not change the controllers of the cgroups below '%s': it has processes of "
			    "its own (cgroup v2 keeps processes in leaves only), or a cgroup below still uses a "
			    "controller being turned off", cg);
		finding_setf(&f->advice, "move the processes of '%s' into a cgroup below it first (the way "
			     "runtimes and systemd use an 'init' leaf), then write its cgroup.subtree_control", cg);
	} else if (ctl && r->creat && r->err == EACCES && there == -1) {
		strbuf_addf(sum, "could not open '%s' of cgroup '%s' to write it (EACCES): the '%s' controller is "
			    "not enabled for it, or the cgroup is not delegated to the writer", name, cg, ctl);
		finding_setf(&f->advice, "cgroupfs answers EACCES to an open that would create a file: check "
			     "that '%s' exists (`ls %s`); if not, enable '%s' in the parent's cgroup.subtree_control, "
			     "else %s", r->path, cg, ctl, delegation);
	} else if (ctl && (r->err == ENOENT || (r->creat && r->err == EACCES && there == 0))) {
		strbuf_addf(sum, "cgroup '%s' has no '%s': the '%s' controller is not enabled for it", cg, name,
			    ctl);
		struct strbuf pb = STRBUF_INIT;
		const char *parent = fp_dir(&pb, cg);
		if (read_now(f, ctx, r, cg, "cgroup.controllers", &now))
			strbuf_addf(sum, " ('%s' has %s%s%s)", cg, now.len ? "'" : "no controller",
				    now.len ? now.buf : "", now.len ? "'" : "");
		finding_setf(&f->advice, "enable it for the cgroups below '%s' (`echo +%s > %s/cgroup.subtree_control`, "
			     "once every ancestor enables it too); on a machine in hybrid mode (cgroup v1 with v2 "
			     "beside it) the '%s' controller is v1's: its files are under /sys/fs/cgroup/%s/", parent,
			     ctl, parent, ctl, ctl);
		strbuf_release(&pb);
	} else if (r->err == EINVAL || r->err == ERANGE) {
		strbuf_addf(sum, "cgroup '%s' refused the value written to '%s'%s%s%s (%s)", cg, name,
			    val ? " ('" : "", val ? val : "", val ? "')" : "", r->err == EINVAL ? "EINVAL" : "ERANGE");
		finding_setf(&f->advice, "write a value '%s' takes: the kernel's cgroup documentation (cgroup-v2.rst, "
			     "or cgroup-v1/ for a v1 hierarchy) gives each file's form ('max' or bytes with K, M, G "
			     "for memory.max; 'QUOTA PERIOD' for cpu.max; CPU lists like '0-3' for cpuset.cpus, "
			     "within the parent's)", name);
	} else if (r->err == EBUSY) {
		strbuf_addf(sum, "cgroup '%s' would not take %s%s%s in '%s' now (EBUSY)", cg, val ? "'" : "the value",
			    val ? val : "", val ? "'" : "", name);
		finding_setf(&f->advice, "the cgroup is in a state that forbids the change: a memory limit below "
			     "what the cgroup uses now (the kernel could not reclaim enough: lower its use first), "
			     "CPUs or memory nodes another cgroup holds exclusively, or a change a cgroup below "
			     "depends on");
	} else if (r->err == EACCES || r->err == EPERM || r->err == EROFS) {
		strbuf_addf(sum, "not allowed to write '%s' of cgroup '%s' (%s)", name, cg,
			    r->err == EACCES ? "EACCES" : r->err == EPERM ? "EPERM" : "EROFS: mounted read-only");
		finding_setf(&f->advice, "%s%s", r->err == EROFS ? "the cgroup file system is mounted read-only "
			     "here (a container's default): run the program where it may write it, or give it a "
			     "writable cgroup; " : "", delegation);
	} else {
		strbuf_addf(sum, "cgroup '%s' refused %s '%s' (%s)", cg, r->op == CG_OPEN ? "opening" : "writing",
			    name, xlat_errno_name(r->err) ?: "an error");
		finding_setf(&f->advice, "check the cgroup's state (`cat %s/cgroup.controllers %s/cgroup.type`) "
			     "and the kernel's cgroup documentation for '%s'", cg, cg, name);
	}
	strbuf_release(&now);
	strbuf_release(&cb);
}

static void emit(const void *value, const void *arg, struct rc_findings *out)
{
	const struct rec *r = value;
	const struct rc_ctx *ctx = arg;
	struct strbuf sum = STRBUF_INIT, cgb = STRBUF_INIT;
	const char *cg = cgroup_of(&cgb, r);
	const char *name = fp_name(r->path);
	/* The finding is made first: the look-ups note on it what they read. */
	struct rc_finding *f = finding_add(out, RULE_ID, r->recovered ? RC_SEV_WARNING : RC_SEV_ERROR,
					   r->recovered ? RC_SEV_INFO : RC_SEV_WARNING, "%s", "");

	if (r->op == CG_MKDIR) {
		if (r->err == EAGAIN)
			strbuf_addf(&sum, "could not create cgroup '%s': an ancestor's cgroup.max.descendants or "
				    "cgroup.max.depth is reached", cg);
		else if (r->err == EACCES || r->err == EPERM || r->err == EROFS)
			strbuf_addf(&sum, "not allowed to create cgroup '%s' (%s)", cg,
				    xlat_errno_name(r->err) ?: "refused");
		else
			strbuf_addf(&sum, "could not create cgroup '%s' (%s)", cg, xlat_errno_name(r->err) ?: "error");
		if (r->err == EAGAIN)
			finding_setf(&f->advice, "remove cgroups no longer used, or raise the limits (cgroup.max."
				     "descendants, cgroup.max.depth) in the ancestor that sets them");
		else if (r->err == ENOENT)
			finding_setf(&f->advice, "its parent cgroup is not there: create the cgroups above it first");
		else
			finding_setf(&f->advice, "%s", delegation);
	} else if (r->op == CG_RMDIR) {
		if (r->err == EBUSY) {
			strbuf_addf(&sum, "could not remove cgroup '%s': it still has processes or cgroups below it", cg);
			finding_setf(&f->advice, "remove the cgroups below it first, and move or stop its processes "
				     "(its cgroup.procs lists them; one that is exiting counts until it is reaped)");
		} else {
			strbuf_addf(&sum, "could not remove cgroup '%s' (%s)", cg, xlat_errno_name(r->err) ?: "error");
			finding_setf(&f->advice, "%s", delegation);
		}
	} else {
		explain_file(f, &sum, ctx, r, cg, name);
	}
	if (r->count > 1)
		strbuf_addf(&sum, ", %llu times", (unsigned long long)r->count);
	if (r->recovered)
		strbuf_adds(&sum, "; a later write of it worked");
	free(f->summary);
	f->summary = strbuf_detach(&sum);
	rule_finding_pid(f, r->pid, r->tid);
	finding_set(&f->syscall, r->syscall);
	f->err = r->err;
	finding_set(&f->path, r->path);
	f->count = (long long)r->count;
	for (size_t i = 0; i < ARRAY_SIZE(r->ev); i++)
		rule_evidence(f, r->ev[i]);
	f->seq = r->last_seq;
	f->ts = r->last_ts;
	f->unrecovered = !r->recovered;
	finding_echo_name(f, fp_name(cg));
	finding_echo_name(f, r->path);
	if (r->op != CG_MKDIR && r->op != CG_RMDIR)
		finding_echo_name(f, name);
	strbuf_release(&cgb);
}

static void finish(void *p, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = p;

	rule_report_in_order(&s->recs, NULL, offsetof(struct rec, first_seq), emit, ctx, out);
	if (s->dropped)
		rule_dropped(out, RULE_ID, RC_SEV_ERROR, RC_SEV_WARNING, s->dropped,
			     "%llu more refused cgroup writes not kept", "see the cgroups named above");
}

static bool is_write(long nr)
{
	return syscall_is(nr, CL_WRITE);
}

const struct rc_rule_ops rc_rule_cgroup_refused_ops = {
	.state_size = sizeof(struct state),
	.init = init,
	.on_event = on_event,
	.reads = { .events = RC_READS_FAILED, .call = is_write },
	.finish = finish,
	.release = release,
};
